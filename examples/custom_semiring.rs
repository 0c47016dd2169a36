//! A semiring on your own type, in a few lines: shortest paths that break ties by the
//! fewest arcs, over `(distance, hops)` pairs with a lexicographic MIN and a PLUS.
//!
//! ```text
//!          1        1        1
//!     0 -----> 1 -----> 2 -----> 3        4 -----> 0   (4 is unreachable from 0)
//!     |                 ^        ^             1
//!     +-------- 2 ------+        |
//!     +------------- 5 ----------+
//! ```
//!
//! From 0: vertex 2 is at distance 2 both directly and through 1; the lexicographic MIN
//! keeps the one-hop path `(2, 1)`. Vertex 3 is at `(3, 2)` through 2.
//!
//! Run with `cargo run --example custom_semiring`.

use edgeblas::algebra::{BinaryOp, Compose, Index};
use edgeblas::prelude::*;

/// A path: its length and its number of arcs. The derived order is lexicographic
/// (distance first, then hops), which is exactly the MIN we want.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Path {
    dist: u64,
    hops: u32,
}

/// LEXMIN: the shorter path, then the one with fewer hops. Identity: "no path".
#[derive(Clone, Copy, Debug)]
struct LexMin;

impl Monoid<Path> for LexMin {
    fn identity(&self) -> Path {
        Path {
            dist: u64::MAX,
            hops: u32::MAX,
        }
    }
    fn combine(&self, a: Path, b: Path) -> Path {
        a.min(b)
    }
    fn terminal(&self) -> Option<Path> {
        Some(Path::default()) // nothing is shorter than the empty path
    }
}

/// The same MIN as an accumulator: `d = d LEXMIN (d vxm A)`.
impl BinaryOp<Path, Path> for LexMin {
    type Output = Path;
    fn apply(&self, a: Path, b: Path) -> Path {
        a.min(b)
    }
}

/// LEXMIN.PLUS: a path to `k` extended by the arc `k -> j` of weight `w`. The multiply
/// gets the matrix entry (the weight) first.
#[derive(Clone, Copy, Debug)]
struct LexMinPlus;

impl Semiring<u64, Path> for LexMinPlus {
    type Output = Path;
    type Add = LexMin;
    fn add(&self) -> LexMin {
        LexMin
    }
    fn multiply(&self, w: u64, p: Path, _k: Index) -> Path {
        Path {
            dist: p.dist.saturating_add(w),
            hops: p.hops.saturating_add(1),
        }
    }
}

/// The other few-lines way: only the multiply, joined to the monoid by `Compose`.
#[derive(Clone, Copy, Debug)]
struct Extend;

impl BinaryOp<u64, Path> for Extend {
    type Output = Path;
    fn apply(&self, w: u64, p: Path) -> Path {
        LexMinPlus.multiply(w, p, 0)
    }
}

/// Bellman-Ford from `source`: `d = d LEXMIN (d (+).(x) A)` until nothing changes; each
/// round pushes the current distances along every out-arc.
fn shortest_paths<S>(a: &Csr<u64>, source: usize, s: S, desc: &Descriptor) -> Vector<Path>
where
    S: Semiring<u64, Path, Output = Path>,
{
    let n = a.nrows();
    let mut d = Vector::from_pairs(n, [(source as Index, Path::default())]);
    for _ in 0..n {
        let before = d.clone();
        ops::vxm(&mut d, None, Some(&LexMin), s, &before, a, desc);
        if d == before {
            break;
        }
    }
    d
}

fn main() -> edgeblas::Result<()> {
    let mut b = CooBuilder::new(5, 5);
    for (i, j, w) in [
        (0, 1, 1),
        (1, 2, 1),
        (2, 3, 1),
        (0, 2, 2),
        (0, 3, 5),
        (4, 0, 1),
    ] {
        b.push(i, j, w)?;
    }
    let a = b.build(Duplicates::Error)?;

    let d = shortest_paths(&a, 0, LexMinPlus, &Descriptor::DEFAULT);
    let p = |dist, hops| Path { dist, hops };
    assert_eq!(
        d.to_pairs(),
        vec![(0, p(0, 0)), (1, p(1, 1)), (2, p(2, 1)), (3, p(3, 2))]
    );
    for (v, path) in d.to_pairs() {
        println!("vertex {v}: distance {}, {} hops", path.dist, path.hops);
    }

    // The same semiring built from parts, and pulling over A' instead of pushing over A.
    let composed = Compose(LexMin, Extend);
    assert_eq!(shortest_paths(&a, 0, composed, &Descriptor::DEFAULT), d);
    let at = a.transpose();
    assert_eq!(
        shortest_paths(&at, 0, composed, &Descriptor::DEFAULT.with_transpose()),
        d
    );

    // One pull step, mxv over the in-edges: the best path into each vertex from the
    // current distances, restricted to the vertices not yet reached.
    let reached = Vector::from_pairs(5, [(0, true)]);
    let mut step: Vector<Path> = Vector::new(5);
    let not_reached = Mask::structure(&reached).complement();
    let from_0 = Vector::from_pairs(5, [(0, Path::default())]);
    ops::mxv(
        &mut step,
        Some(&not_reached),
        None,
        LexMinPlus,
        &at,
        &from_0,
        &Descriptor::DEFAULT,
    );
    assert_eq!(
        step.to_pairs(),
        vec![(1, p(1, 1)), (2, p(2, 1)), (3, p(5, 1))]
    );
    println!("one hop from 0: {:?}", step.to_pairs());
    Ok(())
}
