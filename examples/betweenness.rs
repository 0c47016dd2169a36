//! Betweenness centrality, Brandes's algorithm with a batch of sources as the rows of
//! sparse matrices (LAGraph's form). The template is
//! `edgeblas::algo::betweenness::brandes_batch` (src/algo/betweenness.rs):
//!
//! ```text
//! forward:   S[d] = pattern(F);  P += F;  F<!P> = F plus.first A
//! backward:  W<S[d]> = B ./ P;  W<S[d-1]> = W plus.first A';  B += W .* P
//! bc         = column sums of B, minus the number of sources
//! ```
//!
//! `cargo run --release --example betweenness [-- GRAPH [--directed]]`: from the first
//! eight vertices with out-arcs; prints the most central vertex.

#[path = "common/input.rs"]
mod input;

use std::time::Instant;

use edgeblas::prelude::*;

fn main() -> edgeblas::Result<()> {
    let (a, symmetric) = input::graph()?;
    let sources: Vec<Index> = (0..a.nrows() as Index)
        .filter(|&v| a.degree(v as usize) > 0)
        .take(8)
        .collect();
    let start = Instant::now();
    let bc = algo::betweenness(&Graph::declared(&a, symmetric), &sources);
    let seconds = start.elapsed().as_secs_f64();
    if let Some(v) = (0..bc.len()).max_by(|&x, &y| bc[x].total_cmp(&bc[y])) {
        println!(
            "{} vertices, {} sources: most central vertex {v} ({:.3}), {:.1} ms",
            a.nrows(),
            sources.len(),
            bc[v],
            seconds * 1e3
        );
    }
    Ok(())
}
