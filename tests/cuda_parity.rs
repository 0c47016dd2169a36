//! On a GPU: BFS parents, levels and traces and Bellman-Ford distances and predecessors
//! equal the CPU's element by element, for every policy, on random, R-MAT and real
//! graphs; device matrices and vectors round-trip. Without a GPU (or without the `cuda`
//! feature) every test prints SKIP and passes, unless `EDGEBLAS_REQUIRE_GPU=1`, which
//! makes a missing GPU a failure.

#[path = "common/cuda_cases.rs"]
mod cuda_cases;
#[path = "common/oracle.rs"]
mod oracle;
#[path = "common/random.rs"]
mod random;

use edgeblas::cuda::{
    self, DeviceBfsGraph, DeviceBitmap, DeviceCsr, DeviceDenseVector, DeviceSparseVector, Gpu,
};
use edgeblas::prelude::*;

/// The GPU, or `None` after printing why the test is skipped.
fn gpu(test: &str) -> Option<Gpu> {
    match Gpu::new(0) {
        Ok(g) => Some(g),
        Err(e) => {
            if std::env::var("EDGEBLAS_REQUIRE_GPU").is_ok_and(|v| v == "1") {
                panic!("{test}: EDGEBLAS_REQUIRE_GPU=1 but no GPU: {e}");
            }
            println!("SKIP {test}: {e}");
            None
        }
    }
}

fn gpu_bfs(
    gpu: &Gpu,
) -> impl Fn(
    &edgeblas::algo::bfs::BfsGraph<'_, ()>,
    &[Index],
    &dyn edgeblas::algo::bfs::Policy,
    &edgeblas::algo::bfs::BfsOptions,
) -> edgeblas::Result<edgeblas::algo::bfs::BfsResult>
+ '_ {
    move |g, s, p, o| {
        let d = DeviceBfsGraph::new(gpu, g)?;
        cuda::bfs(&d, s, p, o)
    }
}

fn gpu_bf(
    gpu: &Gpu,
) -> impl Fn(
    &Csr<f64>,
    Index,
) -> edgeblas::Result<
    Result<
        edgeblas::algo::bellman_ford::ShortestPaths,
        edgeblas::algo::bellman_ford::NegativeCycle,
    >,
> + '_ {
    move |a, s| {
        if s as usize >= a.nrows() {
            return Err(edgeblas::Error::InvalidArgument(format!("source {s}")));
        }
        cuda::bellman_ford(&DeviceCsr::upload(gpu, a)?, s)
    }
}

#[test]
fn without_a_gpu_the_error_says_why() {
    if let Err(e) = Gpu::new(0) {
        let msg = e.to_string();
        assert!(
            msg.contains("cuda") || msg.contains("CUDA"),
            "the error names CUDA: {msg}"
        );
    }
    // An ordinal past the last GPU is an error, not a panic, with or without one.
    assert!(Gpu::new(1 << 20).is_err());
}

#[test]
#[cfg_attr(not(feature = "cuda"), ignore = "needs --features cuda (and a GPU)")]
fn bfs_on_the_gpu_equals_the_cpu() {
    let Some(g) = gpu("bfs_on_the_gpu_equals_the_cpu") else {
        return;
    };
    cuda_cases::bfs_cases(&gpu_bfs(&g));
    cuda_cases::bfs_errors(&gpu_bfs(&g));
}

#[test]
#[cfg_attr(not(feature = "cuda"), ignore = "needs --features cuda (and a GPU)")]
fn bellman_ford_on_the_gpu_equals_the_cpu() {
    let Some(g) = gpu("bellman_ford_on_the_gpu_equals_the_cpu") else {
        return;
    };
    cuda_cases::bellman_ford_cases(&gpu_bf(&g));
}

#[test]
#[cfg_attr(
    not(all(feature = "cuda", shared_data)),
    ignore = "needs --features cuda (and a GPU) and ../shared/data"
)]
fn real_graphs_on_the_gpu() {
    let Some(g) = gpu("real_graphs_on_the_gpu") else {
        return;
    };
    cuda_cases::real_graph_cases(&gpu_bfs(&g), &gpu_bf(&g));
}

#[test]
#[cfg_attr(not(feature = "cuda"), ignore = "needs --features cuda (and a GPU)")]
fn device_matrices_and_vectors_round_trip() {
    let Some(g) = gpu("device_matrices_and_vectors_round_trip") else {
        return;
    };
    let a = random::random_weighted(5, 500, 3000, -3, 9);
    let d = DeviceCsr::upload(&g, &a).unwrap();
    assert_eq!(
        (d.nrows(), d.ncols(), d.nnz()),
        (a.nrows(), a.ncols(), a.nnz())
    );
    assert_eq!(d.download().unwrap(), a);
    let p = a.pattern();
    assert_eq!(DeviceCsr::upload(&g, &p).unwrap().download().unwrap(), p);

    let s = SparseVector::from_pairs(1000, [(3, 1.5f64), (999, -2.0), (64, 0.0)]);
    let ds = DeviceSparseVector::upload(&g, &s).unwrap();
    assert_eq!(ds.download().unwrap(), s);
    let bits = DeviceBitmap::from_sparse(&ds).unwrap();
    let want = BitmapVector::from_sparse(&SparseVector::from_pairs(
        1000,
        s.indices().iter().map(|&i| (i, ())),
    ));
    assert_eq!(bits.download().unwrap().bits(), want.bits());
    let back = DeviceSparseVector::from_bitmap(&bits).unwrap();
    assert_eq!(back.download().unwrap().indices(), s.indices());
    let up = DeviceBitmap::upload(&g, &want).unwrap();
    assert_eq!(up.download().unwrap().bits(), want.bits());

    let dense = DenseVector::from_vec((0..777).map(|i| i as u32 * 3).collect());
    let dd = DeviceDenseVector::upload(&g, &dense).unwrap();
    assert_eq!(dd.download().unwrap(), dense);
}

#[path = "common/chung_lu_cases.rs"]
mod chung_lu_cases;

#[test]
#[cfg_attr(not(feature = "cuda"), ignore = "needs --features cuda (and a GPU)")]
fn chung_lu_on_the_gpu_equals_the_cpu_for_every_schedule() {
    let Some(g) = gpu("chung_lu_on_the_gpu_equals_the_cpu_for_every_schedule") else {
        return;
    };
    chung_lu_cases::same_graphs(4, &|plan, seed, s| {
        cuda::chung_lu(&g, plan, seed, s)?.download()
    });
}

#[test]
#[cfg_attr(not(feature = "cuda"), ignore = "needs --features cuda (and a GPU)")]
fn bfs_runs_on_the_generated_device_graph() {
    let Some(g) = gpu("bfs_runs_on_the_generated_device_graph") else {
        return;
    };
    use edgeblas::algo::bfs::{Beamer, BfsGraph, BfsOptions, bfs};
    use edgeblas::generate::chung_lu::{self, Plan, PlanOptions, WEB_NOTREDAME_DEGREES};
    let d = chung_lu::parse_degrees("web", WEB_NOTREDAME_DEGREES.as_bytes(), false).unwrap();
    let plan = Plan::new(&d, &PlanOptions::default()).unwrap();
    let host = chung_lu::generate(&plan, 3);
    let dev = cuda::chung_lu(&g, &plan, 3, cuda::Schedule::Balanced).unwrap();
    let dg = DeviceBfsGraph::symmetric(dev).unwrap();
    let src = (0..host.nrows()).max_by_key(|&v| host.degree(v)).unwrap() as Index;
    let o = BfsOptions::default();
    let got = cuda::bfs(&dg, &[src], &Beamer::default(), &o).unwrap();
    let want = bfs(&BfsGraph::symmetric(&host), &[src], &Beamer::default(), &o).unwrap();
    assert_eq!(got.parents, want.parents);
    assert_eq!(got.levels, want.levels);
}
