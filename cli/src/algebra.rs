//! `edgeblas bench mxm`: the matrix products users build algorithms from, timed on a
//! graph file, with the figures (`nvals`, `sum`) that let a peer's run be checked
//! against ours.

use clap::{Args, ValueEnum};
use edgeblas::ops::{self, MxmMethod};
use edgeblas::prelude::*;
use edgeblas::{Error, Result};
use serde_json::json;

use crate::common::{InputArgs, median, set_threads, timed};

/// Which product `bench mxm` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MxmOp {
    /// Triangle counting: L = tril(A, -1), C<L> = L L' over PLUS.PAIR, then reduce C
    /// (select, product and reduction all timed); needs a symmetric graph
    Tc,
    /// C = A A over PLUS.PAIR, no mask
    Square,
    /// C<A> = A A over PLUS.PAIR, A's structure as the mask
    MaskedSquare,
}

impl MxmOp {
    fn name(self) -> &'static str {
        match self {
            MxmOp::Tc => "tc",
            MxmOp::Square => "square",
            MxmOp::MaskedSquare => "masked-square",
        }
    }
}

/// The product method, for comparing the methods (auto is what `ops::mxm` does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MethodName {
    /// Chosen per call by the estimated work
    Auto,
    /// Gustavson saxpy
    Saxpy,
    /// Masked dot products
    Dot,
}

/// Flags of `edgeblas bench mxm`.
#[derive(Args, Debug)]
pub struct BenchMxmArgs {
    #[command(flatten)]
    input: InputArgs,
    /// The product to time
    #[arg(long, value_enum)]
    op: MxmOp,
    /// The product method (auto: chosen per call, as ops::mxm does)
    #[arg(long, value_enum, default_value_t = MethodName::Auto)]
    method: MethodName,
    /// Worker threads (all cores by default)
    #[arg(long)]
    threads: Option<usize>,
    /// Timed runs (after one untimed warm-up run)
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Print one JSON object
    #[arg(long)]
    json: bool,
}

/// `edgeblas bench mxm FILE --op tc|square|masked-square`: median seconds over runs,
/// and the result's entry count and value sum.
pub fn bench_mxm(a: &BenchMxmArgs) -> Result<()> {
    set_threads(a.threads)?;
    if a.runs == 0 {
        return Err(Error::InvalidArgument("--runs: must be at least 1".into()));
    }
    let g = a.input.load()?;
    let adj = &g.adjacency;
    if a.op == MxmOp::Tc && g.directed && !adj.is_symmetric() {
        return Err(Error::InvalidArgument(format!(
            "--op tc: {} is a directed graph; triangle counting needs an undirected one \
             (pass --undirected to store both arcs of every edge)",
            a.input.file.display()
        )));
    }
    let method = match a.method {
        MethodName::Auto => MxmMethod::Auto,
        MethodName::Saxpy => MxmMethod::Saxpy,
        MethodName::Dot => MxmMethod::Dot,
    };
    let run = || -> (usize, u64) {
        match a.op {
            MxmOp::Tc => {
                let n = adj.nrows();
                let mut l = Csr::<()>::empty(n, n);
                ops::select_matrix(
                    &mut l,
                    None,
                    None,
                    ops::tril(-1),
                    adj,
                    &MatrixDescriptor::DEFAULT,
                );
                let mut c = Csr::<u64>::empty(n, n);
                let mask = MatrixMask::structure(&l);
                let d = MatrixDescriptor::DEFAULT.with_transpose_b();
                ops::mxm_with_method(
                    &mut c,
                    Some(&mask),
                    None,
                    PlusPair::new(),
                    &l,
                    &l,
                    &d,
                    method,
                );
                (c.nvals(), ops::reduce_matrix(Plus::new(), &c))
            }
            MxmOp::Square | MxmOp::MaskedSquare => {
                let n = adj.nrows();
                let mut c = Csr::<u64>::empty(n, n);
                let mask = MatrixMask::structure(adj);
                let mask = (a.op == MxmOp::MaskedSquare).then_some(&mask);
                let d = MatrixDescriptor::DEFAULT;
                ops::mxm_with_method(&mut c, mask, None, PlusPair::new(), adj, adj, &d, method);
                (c.nvals(), ops::reduce_matrix(Plus::new(), &c))
            }
        }
    };
    let (nvals, sum) = run();
    let mut samples = Vec::with_capacity(a.runs);
    for _ in 0..a.runs {
        let (r, s) = timed(run);
        debug_assert_eq!(r, (nvals, sum));
        samples.push(s);
    }
    let med = median(&mut samples.clone());
    let out = json!({
        "file": a.input.file.display().to_string(),
        "op": a.op.name(),
        "method": format!("{:?}", a.method).to_lowercase(),
        "vertices": g.vertices(),
        "arcs": g.arcs(),
        "threads": rayon::current_num_threads(),
        "runs": a.runs,
        "seconds_median": med,
        "seconds": samples,
        "nvals": nvals,
        "sum": sum,
    });
    if a.json {
        println!("{out}");
    } else {
        println!(
            "{} {}: nvals {}, sum {}, median {:.4} s over {} runs ({} threads)",
            a.input.file.display(),
            a.op.name(),
            nvals,
            sum,
            med,
            a.runs,
            rayon::current_num_threads()
        );
    }
    Ok(())
}
