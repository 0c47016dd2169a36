//! Template: a Chung-Lu proxy of web-NotreDame generated straight into device memory,
//! then direction-optimizing BFS on it where it lies (no host round trip), and the same
//! graph from the CPU generator to check it byte for byte.
//!
//! ```sh
//! cargo run --release --features cuda --example chung_lu_cuda -- [SCALE]
//! ```
//!
//! SCALE multiplies every count of the histogram (default 10). Without the `cuda`
//! feature, or without a GPU, it says why and exits.

use std::time::Instant;

use edgeblas::algo::bfs::{Beamer, BfsOptions};
use edgeblas::cuda::{self, DeviceBfsGraph, Gpu, Schedule};
use edgeblas::generate::chung_lu::{
    self, Degrees, Plan, PlanOptions, WEB_NOTREDAME_DEGREES, parse_degrees,
};

fn main() -> edgeblas::Result<()> {
    let scale: u64 = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("SCALE is a number"))
        .unwrap_or(10);
    let gpu = match Gpu::new(0) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("no GPU to run on: {e}");
            return Ok(());
        }
    };
    let Degrees::Histogram(h) =
        parse_degrees("web-NotreDame", WEB_NOTREDAME_DEGREES.as_bytes(), false)?
    else {
        unreachable!("a degree,count file is a histogram")
    };
    let d = Degrees::Histogram(h.into_iter().map(|(deg, c)| (deg, c * scale)).collect());
    let plan = Plan::new(&d, &PlanOptions::default())?;

    for s in [Schedule::Uniform, Schedule::Balanced, Schedule::Dynamic] {
        let t = Instant::now();
        let a = cuda::chung_lu(&gpu, &plan, 1, s)?;
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{:>8}: {} vertices, {} arcs in {:.4} s ({:.2} G edges/s)",
            s.name(),
            a.nrows(),
            a.nnz(),
            secs,
            a.nnz() as f64 / 2.0 / secs / 1e9
        );
    }

    // Search the device graph where it lies.
    let a = cuda::chung_lu(&gpu, &plan, 1, Schedule::Balanced)?;
    let g = DeviceBfsGraph::symmetric(a)?;
    let r = cuda::bfs_on_device(&g, &[0], &Beamer::default(), &BfsOptions::default())?;
    println!("bfs from 0: {} reached, depth {}", r.reached, r.max_depth);

    // The CPU generator writes the same bytes.
    let cpu = chung_lu::generate(&plan, 1);
    let dev = cuda::chung_lu(&gpu, &plan, 1, Schedule::Dynamic)?.download()?;
    assert_eq!(dev, cpu, "GPU and CPU graphs differ");
    println!("the GPU graph equals the CPU's byte for byte");
    Ok(())
}
