//! Weakly connected components by FastSV over MIN.SECOND. The template is
//! `edgeblas::algo::components::fastsv` (src/algo/components.rs), a dozen library calls:
//!
//! ```text
//! mngp  min=  S min.second gp      ops::mxv with a MIN accumulator
//! f(f)  min=  mngp                 ops::assign_reduce (repeated indices meet at MIN)
//! f     min=  mngp;  f min= gp     ops::assign with a MIN accumulator
//! gp    =     f(f)                 ops::extract
//! ```
//!
//! `cargo run --release --example wcc [-- GRAPH [--directed]]`: prints the number of
//! components, the largest, and the rounds FastSV took. Each label is the smallest
//! vertex of its component. (`algo::wcc` itself runs Afforest's union-find by default,
//! the same labels faster; this example asks for the template by name.)

#[path = "common/input.rs"]
mod input;

use std::time::Instant;

use edgeblas::prelude::*;

fn main() -> edgeblas::Result<()> {
    let (a, symmetric) = input::graph()?;
    let start = Instant::now();
    let c = algo::wcc_with(&Graph::declared(&a, symmetric), algo::WccMethod::FastSv);
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{} vertices: {} components, the largest of {} vertices, {} rounds, {:.1} ms",
        a.nrows(),
        c.count(),
        c.largest(),
        c.rounds,
        seconds * 1e3
    );
    Ok(())
}
