//! The local clustering coefficient as one masked product. The template is
//! `edgeblas::algo::lcc` (src/algo/lcc.rs):
//!
//! ```text
//! S      = offdiag(pattern(A + A'))        the neighbour sets
//! M<S>   = offdiag(A) plus.pair S          M(u, v) = |out(u) ∩ N(v)| (ops::mxm, masked)
//! lcc(v) = colsum(M)(v) / (|N(v)| (|N(v)| - 1))
//! ```
//!
//! On an undirected graph the triangles at each vertex come from the ordered products
//! `C<L> = L L'` and `C2<L> = L L` instead (row and column sums).
//!
//! `cargo run --release --example lcc [-- GRAPH [--directed]]`: prints the mean
//! coefficient and the vertex with the highest one among those of degree at least 10.

#[path = "common/input.rs"]
mod input;

use std::time::Instant;

use edgeblas::prelude::*;

fn main() -> edgeblas::Result<()> {
    let (a, symmetric) = input::graph()?;
    let start = Instant::now();
    let c = algo::lcc(&Graph::declared(&a, symmetric));
    let seconds = start.elapsed().as_secs_f64();
    let mean = c.iter().sum::<f64>() / c.len().max(1) as f64;
    let best = (0..a.nrows())
        .filter(|&v| a.degree(v) >= 10)
        .max_by(|&x, &y| c[x].total_cmp(&c[y]));
    println!(
        "{} vertices: mean coefficient {mean:.6}, {:.1} ms",
        a.nrows(),
        seconds * 1e3
    );
    if let Some(v) = best {
        println!("highest among degree >= 10: vertex {v}, {:.6}", c[v]);
    }
    Ok(())
}
