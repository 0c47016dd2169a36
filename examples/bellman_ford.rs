//! Bellman-Ford is the BFS loop with the semiring swapped: MIN.PLUS instead of a
//! positional MIN, an accumulate-min into the distances, and the vertices whose
//! distance changed as the next frontier. Checked against `algo::bellman_ford`.
//!
//! `cargo run --release --example bellman_ford`

use edgeblas::algo::bellman_ford;
use edgeblas::prelude::*;

fn main() {
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
    let n = a.nrows();
    let d0 = Descriptor::DEFAULT;

    // --- the template: a dozen lines ---
    let mut dist: Vector<f64> = Vector::full(n, f64::INFINITY);
    let mut f: Vector<f64> = Vector::from_pairs(n, [(0, 0.0)]);
    ops::assign(&mut dist, Some(&Mask::structure(&f)), None, &f, &d0);
    let mut rounds = 0;
    while f.nvals() > 0 && rounds < n {
        // t = f min.plus A
        let mut t: Vector<f64> = Vector::new(n);
        ops::vxm(&mut t, None, None, MinPlus::<f64>::new(), &f, &a, &d0);
        // f = select(t < dist): the changed set
        let old = dist.clone();
        ops::select(
            &mut f,
            None,
            None,
            |j, x| old.get(j as usize).is_some_and(|d| x < d),
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
    // --- end of the template ---

    let dist = dist.into_dense(f64::INFINITY).into_vec();
    let lib = bellman_ford(&a, 0).expect("no negative cycle");
    println!("distances from 0: {dist:?} ({rounds} rounds)");
    println!("predecessors:     {:?}", lib.predecessors);
    assert_eq!(dist, lib.distances);
    assert_eq!(dist, vec![0.0, 4.0, 2.0, 3.0, 2.0]);
}
