//! Template: direction-optimizing BFS and Bellman-Ford on a GPU, checked against the
//! CPU. Generates an R-MAT graph, copies it to the device once, searches it there under
//! Beamer's policy and compares parents and levels with the CPU's; then Bellman-Ford
//! with unit weights against the BFS levels.
//!
//! ```sh
//! cargo run --release --features cuda --example bfs_cuda -- [SCALE]
//! ```
//!
//! Without the `cuda` feature, or without a GPU, it says why and exits.

use std::time::Instant;

use edgeblas::algo::bfs::{Beamer, BfsGraph, BfsOptions, bfs};
use edgeblas::cuda::{self, DeviceBfsGraph, DeviceCsr, Gpu};
use edgeblas::generate::rmat::Rmat;

fn main() -> edgeblas::Result<()> {
    let scale = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("SCALE is a number"))
        .unwrap_or(16);
    let gpu = match Gpu::new(0) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("no GPU to run on: {e}");
            return Ok(());
        }
    };
    println!("device: {}", gpu.name());
    let a = Rmat {
        scale,
        edge_factor: 16,
        undirected: true,
        ..Rmat::default()
    }
    .generate()?;
    let g = BfsGraph::symmetric(&a);
    let source = (0..a.nrows()).max_by_key(|&v| a.degree(v)).unwrap_or(0) as u32;

    // Copy once; search many times.
    let dg = DeviceBfsGraph::new(&gpu, &g)?;
    let opts = BfsOptions {
        trace: true,
        ..BfsOptions::default()
    };
    let t = Instant::now();
    let on_gpu = cuda::bfs_on_device(&dg, &[source], &Beamer::default(), &opts)?;
    let gpu_s = t.elapsed().as_secs_f64();
    let r = on_gpu.download()?;
    let t = Instant::now();
    let want = bfs(&g, &[source], &Beamer::default(), &opts)?;
    let cpu_s = t.elapsed().as_secs_f64();
    assert_eq!(r.parents, want.parents, "GPU and CPU parents differ");
    assert_eq!(r.levels, want.levels, "GPU and CPU levels differ");
    println!(
        "bfs from {source}: {} reached, depth {}, GPU {:.3} ms, CPU {:.3} ms, parents equal",
        r.reached,
        r.max_depth,
        gpu_s * 1e3,
        cpu_s * 1e3
    );
    for l in &r.trace {
        println!(
            "  level {:>2} {:<4} frontier {:>9} vertices {:>11} arcs",
            l.level,
            l.direction.name(),
            l.frontier_vertices,
            l.frontier_edges
        );
    }

    // Bellman-Ford with unit weights gives the BFS levels as distances.
    let w = DeviceCsr::upload(&gpu, &a.map(|_| 1.0))?;
    let sp = cuda::bellman_ford(&w, source)?.expect("unit weights make no negative cycle");
    for (v, &d) in sp.distances.iter().enumerate() {
        let level = r.level(v).map_or(f64::INFINITY, f64::from);
        assert_eq!(d, level, "distance of {v}");
    }
    println!(
        "bellman-ford: {} rounds, distances equal the levels",
        sp.rounds
    );
    Ok(())
}
