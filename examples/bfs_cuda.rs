//! Template: direction-optimizing BFS and Bellman-Ford on a GPU, checked against the
//! CPU. Generates an R-MAT graph, copies it to the device once, searches it there under
//! Beamer's policy and compares parents and levels with the CPU's; then Bellman-Ford
//! with unit weights against the BFS levels. Then both again as templates: the plain
//! sequence of `cuda::ops` calls a user would write (the same calls as on the CPU, on
//! device matrices and vectors), checked against the fused kernels and timed beside them.
//!
//! ```sh
//! cargo run --release --features cuda --example bfs_cuda -- [SCALE]
//! ```
//!
//! Without the `cuda` feature, or without a GPU, it says why and exits.

use std::time::Instant;

use edgeblas::algebra::{Index, Min, MinPlus, MinSecondI, Minus};
use edgeblas::algo::bfs::{Beamer, BfsGraph, BfsOptions, bfs};
use edgeblas::cuda::{self, DeviceBfsGraph, DeviceCsr, DeviceMask, DeviceVector, Gpu, SelectOp};
use edgeblas::descriptor::Descriptor;
use edgeblas::generate::rmat::Rmat;
use edgeblas::vector::Vector;

/// BFS as the plain sequence of device operations (the CPU's `algo::bfs_template`):
/// from `q = {source: source}`, each level `q<!parents, replace> = q min.secondi A`
/// (push) or `A min.secondi q` (pull: `A` is symmetric, so it is its own transpose)
/// once the frontier holds more than `n / 20` vertices; then `parents<q> = q` and
/// `levels<q> = depth`. Parents and levels, `u32::MAX` where unreached.
fn bfs_template(
    gpu: &Gpu,
    a: &DeviceCsr<()>,
    source: Index,
) -> edgeblas::Result<(Vec<u32>, Vec<u32>)> {
    let n = a.nrows();
    let (d0, replace) = (Descriptor::DEFAULT, Descriptor::DEFAULT.with_replace());
    let mut q = DeviceVector::upload(gpu, &Vector::from_pairs(n, [(source, source)]))?;
    let mut parents = q.try_clone()?;
    let mut levels: DeviceVector<u32> = DeviceVector::new(gpu, n)?;
    cuda::ops::assign_scalar(&mut levels, Some(&DeviceMask::structure(&q)), None, 0, &d0)?;
    let (mut depth, mut frontier) = (0, 1);
    while frontier > 0 {
        depth += 1;
        let mut next: DeviceVector<Index> = DeviceVector::new(gpu, n)?;
        let not_visited = DeviceMask::structure(&parents).complement();
        if frontier > n / 20 {
            cuda::ops::mxv(
                &mut next,
                Some(&not_visited),
                None,
                MinSecondI,
                a,
                &q,
                &replace,
            )?;
        } else {
            cuda::ops::vxm(
                &mut next,
                Some(&not_visited),
                None,
                MinSecondI,
                &q,
                a,
                &replace,
            )?;
        }
        q = next;
        let reached = DeviceMask::structure(&q);
        cuda::ops::assign(&mut parents, Some(&reached), None, &q, &d0)?;
        cuda::ops::assign_scalar(&mut levels, Some(&reached), None, depth, &d0)?;
        frontier = q.nvals()?;
    }
    let dense = |v: DeviceVector<u32>| v.download().map(|v| v.into_dense(u32::MAX).into_vec());
    Ok((dense(parents)?, dense(levels)?))
}

/// Bellman-Ford as the plain sequence of device operations (the CPU's
/// `examples/bellman_ford.rs` template): `t = f min.plus A`; `d = dist - t` on `t`'s
/// entries; `f<select(d > 0), replace> = t`, the entries that improve; `dist<f> min= f`;
/// until `f` is empty. The distances (`+inf` where unreached) and the rounds.
fn bellman_ford_template(
    gpu: &Gpu,
    a: &DeviceCsr<f64>,
    source: Index,
) -> edgeblas::Result<(Vec<f64>, usize)> {
    let n = a.nrows();
    let (d0, replace) = (Descriptor::DEFAULT, Descriptor::DEFAULT.with_replace());
    let mut start: Vector<f64> = Vector::full(n, f64::INFINITY);
    start.set(source as usize, 0.0);
    let mut dist = DeviceVector::upload(gpu, &start)?;
    let mut f = DeviceVector::upload(gpu, &Vector::from_pairs(n, [(source, 0.0)]))?;
    let mut rounds = 0;
    while f.nvals()? > 0 && rounds < n {
        let mut t: DeviceVector<f64> = DeviceVector::new(gpu, n)?;
        cuda::ops::vxm(&mut t, None, None, MinPlus::<f64>::new(), &f, a, &d0)?;
        let mut d: DeviceVector<f64> = DeviceVector::new(gpu, n)?;
        cuda::ops::ewise_mult(&mut d, None, None, &Minus::<f64>::new(), &dist, &t, &d0)?;
        let mut better: DeviceVector<f64> = DeviceVector::new(gpu, n)?;
        cuda::ops::select(&mut better, None, None, SelectOp::ValueGt(0.0), &d, &d0)?;
        cuda::ops::assign(
            &mut f,
            Some(&DeviceMask::structure(&better)),
            None,
            &t,
            &replace,
        )?;
        let min = Min::<f64>::new();
        cuda::ops::assign(
            &mut dist,
            Some(&DeviceMask::structure(&f)),
            Some(&min),
            &f,
            &d0,
        )?;
        rounds += 1;
    }
    Ok((
        dist.download()?.into_dense(f64::INFINITY).into_vec(),
        rounds,
    ))
}

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

    // The same searches as templates over cuda::ops, on device data, against the fused
    // kernels' results.
    let da = DeviceCsr::upload(&gpu, &a)?;
    let t = Instant::now();
    let (parents, levels) = bfs_template(&gpu, &da, source)?;
    let template_s = t.elapsed().as_secs_f64();
    assert_eq!(parents, r.parents, "template and fused BFS parents differ");
    assert_eq!(levels, r.levels, "template and fused BFS levels differ");
    let t = Instant::now();
    let (dist, rounds) = bellman_ford_template(&gpu, &w, source)?;
    let bf_template_s = t.elapsed().as_secs_f64();
    assert_eq!(
        dist, sp.distances,
        "template and fused Bellman-Ford distances differ"
    );
    let t = Instant::now();
    cuda::bellman_ford(&w, source)?.expect("unit weights make no negative cycle");
    let bf_fused_s = t.elapsed().as_secs_f64();
    println!(
        "templates over cuda::ops: bfs {:.3} ms (fused {:.3} ms), bellman-ford {rounds} rounds {:.3} ms (fused {:.3} ms), results equal",
        template_s * 1e3,
        gpu_s * 1e3,
        bf_template_s * 1e3,
        bf_fused_s * 1e3
    );
    Ok(())
}
