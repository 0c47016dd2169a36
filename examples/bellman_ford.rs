//! Bellman-Ford is the BFS loop with the semiring swapped: MIN.PLUS instead of a
//! positional MIN, an accumulate-min into the distances, and the vertices whose
//! distance changed as the next frontier. Checked against `algo::bellman_ford`.
//!
//! `cargo run --release --example bellman_ford [-- GRAPH SOURCE,SOURCE,...]`: with a
//! file, the same template runs from each source over the weights
//! `w(i, j) = 1 + (31 i + 17 j) mod 255` (0-based indices, so SuiteSparse can be given
//! the very same matrix by `scripts/bench_templates_peers.py`) and prints its time.

use std::time::Instant;

use edgeblas::algo::bellman_ford;
use edgeblas::io::{ReadOptions, read_graph};
use edgeblas::prelude::*;

/// The Bellman-Ford template: distances from `source` by MIN.PLUS rounds over the
/// changed set. Returns the distances and the number of rounds.
fn template(a: &Csr<f64>, source: u32) -> (Vector<f64>, usize) {
    let n = a.nrows();
    let d0 = Descriptor::DEFAULT;
    let mut dist: Vector<f64> = Vector::full(n, f64::INFINITY);
    let mut f: Vector<f64> = Vector::from_pairs(n, [(source, 0.0)]);
    ops::assign(&mut dist, Some(&Mask::structure(&f)), None, &f, &d0);
    let mut rounds = 0;
    let mut t: Vector<f64> = Vector::new(n);
    while f.nvals() > 0 && rounds < n {
        // t = f min.plus A
        ops::vxm(&mut t, None, None, MinPlus::<f64>::new(), &f, a, &d0);
        // f = select(t < dist): the changed set
        ops::select(
            &mut f,
            None,
            None,
            |j, x| dist.get(j as usize).is_some_and(|d| x < d),
            &t,
            &d0.with_replace(),
        );
        // dist<f> min= f
        ops::assign(
            &mut dist,
            Some(&Mask::structure(&f)),
            Some(&Min::<f64>::new()),
            &f,
            &d0,
        );
        rounds += 1;
    }
    (dist, rounds)
}

/// Runs the template on a graph file from the given sources and prints the times.
/// The same template with each round's `vxm`, `select` and `assign` fused into one
/// [`ops::vxm_accumulate`]: `f = (dist min= f min.plus A)`, the entries it improved.
/// The same distances and rounds as [`template`].
fn template_fused(a: &Csr<f64>, source: u32) -> (Vector<f64>, usize) {
    let n = a.nrows();
    let mut dist: Vector<f64> = Vector::full(n, f64::INFINITY);
    dist.set(source as usize, 0.0);
    let mut f: Vector<f64> = Vector::from_pairs(n, [(source, 0.0)]);
    let mut rounds = 0;
    while f.nvals() > 0 && rounds < n {
        f = ops::vxm_accumulate(&mut dist, MinPlus::<f64>::new(), &f, a);
        rounds += 1;
    }
    (dist, rounds)
}

fn on_file(path: &str, sources: &str) -> edgeblas::Result<()> {
    let g = read_graph(path.as_ref(), &ReadOptions::default())?;
    let n = g.vertices();
    let p = g.adjacency;
    let (offsets, cols) = (p.offsets(), p.indices());
    let mut vals = Vec::with_capacity(cols.len());
    for i in 0..n {
        for &j in &cols[offsets[i] as usize..offsets[i + 1] as usize] {
            vals.push(1.0 + ((31 * i as u64 + 17 * j as u64) % 255) as f64);
        }
    }
    let a = Csr::new_checked(n, n, offsets.to_vec(), cols.to_vec(), vals)?;
    for s in sources.split(',') {
        let s: u32 = s.trim().parse().map_err(|_| {
            edgeblas::Error::InvalidStructure(format!("source {s:?} is not an index"))
        })?;
        let start = Instant::now();
        let (dist, rounds) = template(&a, s);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let finite: Vec<f64> = dist
            .to_pairs()
            .into_iter()
            .map(|e| e.1)
            .filter(|x| x.is_finite())
            .collect();
        let (reached, total) = (finite.len(), finite.iter().sum::<f64>());
        println!(
            "bellman-ford template: source {s}, {rounds} rounds, reached {reached}, distance sum {total}, {ms:.1} ms"
        );
        let start = Instant::now();
        let (fused, fused_rounds) = template_fused(&a, s);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        assert_eq!(
            (fused.to_pairs(), fused_rounds),
            (dist.to_pairs(), rounds),
            "the fused template gives the same distances and rounds"
        );
        println!("bellman-ford template (vxm_accumulate): source {s}, {ms:.1} ms");
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [path, sources, ..] = &args[..] {
        if let Err(e) = on_file(path, sources) {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
        return;
    }
    //  0 --4--> 1 --(-2)--> 2 --1--> 3
    //  0 -----------3-----> 2
    //  3 --(-1)--> 1 (a cycle 1 -> 2 -> 3 -> 1 of weight -2 + 1 - 1 = -2 would be negative,
    //  so this arc goes 3 -> 4 instead)
    let mut b = CooBuilder::new(5, 5);
    for (i, j, w) in [
        (0, 1, 4.0),
        (1, 2, -2.0),
        (0, 2, 3.0),
        (2, 3, 1.0),
        (3, 4, -1.0),
    ] {
        b.push(i, j, w).unwrap();
    }
    let a = b.build(Duplicates::Error).unwrap();
    let (dist, rounds) = template(&a, 0);
    let (fused, fused_rounds) = template_fused(&a, 0);
    assert_eq!((fused.to_pairs(), fused_rounds), (dist.to_pairs(), rounds));

    let dist = dist.into_dense(f64::INFINITY).into_vec();
    let lib = bellman_ford(&Graph::directed(&a), 0).expect("no negative cycle");
    println!("distances from 0: {dist:?} ({rounds} rounds)");
    println!("predecessors:     {:?}", lib.predecessors);
    assert_eq!(dist, lib.distances);
    assert_eq!(dist, vec![0.0, 4.0, 2.0, 3.0, 2.0]);
}
