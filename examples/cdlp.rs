//! Community detection by label propagation (the Graphalytics rules: the most frequent
//! neighbour label, the smallest on a tie), as one product per round. The template is
//! `edgeblas::algo::cdlp` (src/algo/cdlp.rs):
//!
//! ```text
//! P        = P(j, L(j)) = 1               the labels as a matrix
//! K        = M plus.first P               K(i, l): neighbours of i labelled l (ops::mxm)
//! best     = reduce_rows(MAX, count << 32 | !l)   the mode, smallest label on ties
//! L<best>  = the label of best            ops::apply, ops::assign
//! ```
//!
//! `cargo run --release --example cdlp [-- GRAPH [--directed]]`: ten rounds; prints the
//! number of communities.

#[path = "common/input.rs"]
mod input;

use std::time::Instant;

use edgeblas::prelude::*;

fn main() -> edgeblas::Result<()> {
    let (a, symmetric) = input::graph()?;
    let start = Instant::now();
    let labels = algo::cdlp(&Graph::declared(&a, symmetric), 10);
    let seconds = start.elapsed().as_secs_f64();
    let mut distinct = labels.clone();
    distinct.sort_unstable();
    distinct.dedup();
    println!(
        "{} vertices: {} communities after 10 rounds, {:.1} ms",
        a.nrows(),
        distinct.len(),
        seconds * 1e3
    );
    Ok(())
}
