//! Weakly connected components by FastSV (Zhang, Azad and Hu 2020; LAGraph's
//! `LAGr_ConnectedComponents`), over MIN.SECOND:
//!
//! ```text
//! f = gp = mngp = [0, 1, ..., n-1]           parent, grandparent, min neighbour's gp
//! repeat:
//!   mngp  min=  S min.second gp               each vertex: its neighbours' smallest gp
//!   f(f)  min=  mngp                          stochastic hooking (assign_reduce: repeats meet at MIN)
//!   f     min=  mngp,  f  min=  gp            aggressive hooking, shortcutting
//!   f     =     f(f)                          one more shortcut (extract)
//!   gp    =     f(f)                          extract
//! until gp does not change
//! ```
//!
//! The second shortcut is not in the paper's template: each round then halves every
//! path twice, which takes the road graph from 12 rounds to 9 for one more `extract` in
//! a round that was an `mxv` and six vector operations.
//!
//! `S` is the symmetric pattern (arcs followed both ways). Every value only decreases
//! and stays inside its component, so at the end each component is a star whose root is
//! its smallest vertex: the label of every vertex is the smallest index in its component.
//!
//! On graphs whose rows are longer than a few entries, [`wcc`] first samples, as
//! Afforest (Sutton et al. 2018) and LAGraph's FastSV7 do:
//!
//! ```text
//! T    = the first 4 entries of each row of S        built from S's arrays, as FastSV7 does
//! f    = FastSV(T)                                    a forest of stars, each inside a component
//! key  = the most frequent label of 1,024 vertices   usually the giant component's
//! S'   = select(S, (i, j): not both in key's star)  from the other vertices' rows only
//! f    = FastSV(S') from f                            converges to the same labels
//! ```
//!
//! Dropping arcs whose ends already share a root loses no connectivity, and every
//! other arc stays in both directions, so the second run ends with the smallest index of
//! each component as its label, as without sampling. On a Kronecker graph most arcs lie
//! inside the giant component, so the full passes run over a small remainder.

use crate::algebra::{Index, Indices, Lor, Min, MinSecond, NeOp};
use crate::descriptor::Descriptor;
use crate::graph::Graph;
use crate::matrix::Csr;
use crate::ops;
use crate::vector::Vector;

/// The components of a graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Components {
    /// Per vertex, the smallest vertex index of its component.
    pub labels: Vec<Index>,
    /// FastSV rounds run.
    pub rounds: usize,
}

impl Components {
    /// The number of components (isolated vertices included).
    pub fn count(&self) -> usize {
        self.labels
            .iter()
            .enumerate()
            .filter(|&(v, &l)| l as usize == v)
            .count()
    }

    /// The size of the largest component (0 for an empty graph).
    pub fn largest(&self) -> usize {
        let mut size = vec![0usize; self.labels.len()];
        for &l in &self.labels {
            size[l as usize] += 1;
        }
        size.into_iter().max().unwrap_or(0)
    }
}

/// The weakly connected components of `g` (arcs followed in both directions); a
/// symmetric `g` needs no symmetrising.
///
/// # Panics
/// If `a` is not square.
pub fn wcc(g: &Graph<'_, ()>) -> Components {
    let a = g.adjacency();
    assert_eq!(a.nrows(), a.ncols(), "wcc needs a square matrix");
    let sym;
    let s = if g.is_symmetric() {
        a
    } else {
        sym = a.symmetrize(|_, _| ());
        &sym
    };
    if s.nnz() <= 2 * SAMPLE * s.nrows() {
        return fastsv(s);
    }
    fastsv_sampled(s)
}

/// How many entries of each row the sampling pass keeps.
const SAMPLE: usize = 4;

/// FastSV over the symmetric pattern `s` (the template above, call for call).
pub fn fastsv(s: &Csr<()>) -> Components {
    fastsv_from(s, (0..s.nrows() as Index).collect(), 0)
}

/// FastSV after a sampling pass (the second template above) over the symmetric
/// pattern `s`: the same labels as [`fastsv`], with the full passes over the arcs
/// outside the most common component.
pub fn fastsv_sampled(s: &Csr<()>) -> Components {
    let n = s.nrows();
    // T = the first SAMPLE entries of each row, taken from S's arrays (as LAGraph's
    // FastSV7 does): SAMPLE entries a row instead of a pass over every arc.
    let t = s.first_entries(SAMPLE);
    let sampled = fastsv_from(&t, (0..n as Index).collect(), 0);
    drop(t);
    // Shortcut to stars (T need not be symmetric, so its run may end with trees):
    // every parent is at most its vertex, so one ascending pass of f(v) = f(f(v))
    // finishes each vertex after its parent.
    let mut f = sampled.labels;
    for v in 0..n {
        f[v] = f[f[v] as usize];
    }
    let key = most_frequent_label(&f);
    // S' = S without the arcs inside the key's star. The membership is a bitmap (n / 8
    // bytes: in cache, where the labels would not be).
    let mut in_key = vec![0u64; n.div_ceil(64)];
    for (v, &l) in f.iter().enumerate() {
        if l == key {
            in_key[v / 64] |= 1 << (v % 64);
        }
    }
    let rest = outside_star(s, &in_key);
    fastsv_from(&rest, f, sampled.rounds)
}

/// `select(S, (i, j): not both members)` for a symmetric pattern `S` and a membership
/// bitmap, reading only the rows of the non-members (as Afforest skips the giant
/// component): a non-member's row is kept whole, and a member's row is the non-members
/// that list it, which by symmetry is its row without the members. Rows come out sorted
/// since the non-members are visited in ascending order. O(n + arcs of the non-members).
fn outside_star(s: &Csr<()>, in_key: &[u64]) -> Csr<()> {
    let n = s.nrows();
    let member = |v: usize| in_key[v / 64] >> (v % 64) & 1 == 1;
    // off[i + 1] counts row i's entries: a non-member's whole row, and one for each
    // non-member that lists a member.
    let mut off = vec![0u64; n + 1];
    for i in (0..n).filter(|&i| !member(i)) {
        let (cols, _) = s.row(i);
        off[i + 1] += cols.len() as u64;
        for &j in cols {
            if member(j as usize) {
                off[j as usize + 1] += 1;
            }
        }
    }
    // Then off[i + 1] = the start of row i, the cursor where its next entry goes; after
    // the fill it is the end of row i, so off is the offsets with no second array.
    let mut total = 0u64;
    for c in &mut off[1..] {
        (*c, total) = (total, total + *c);
    }
    let mut cols_out = vec![0 as Index; total as usize];
    for i in (0..n).filter(|&i| !member(i)) {
        let (cols, _) = s.row(i);
        let a = off[i + 1] as usize;
        cols_out[a..a + cols.len()].copy_from_slice(cols);
        off[i + 1] += cols.len() as u64;
        for &j in cols {
            if member(j as usize) {
                cols_out[off[j as usize + 1] as usize] = i as Index;
                off[j as usize + 1] += 1;
            }
        }
    }
    debug_assert_eq!(off[n], total);
    let vals = vec![(); cols_out.len()];
    debug_assert!(Csr::new_checked(n, n, off.clone(), cols_out.clone(), vals.clone()).is_ok());
    // SAFETY: each row is sorted and repeat-free: a non-member's row is a row of S, and a
    // member's entries are non-members appended in ascending order, each once (S has no
    // repeated entries); every column is below n, and off ends at the number of entries.
    unsafe { Csr::new_unchecked(n, n, off, cols_out, vals) }
}

/// The most frequent label of `f`, estimated from at most [`KEY_SAMPLES`] vertices
/// spread evenly (ties to the smallest label), as Afforest samples for its largest
/// component: any label is a correct key, and a frequent one leaves the least to do.
fn most_frequent_label(f: &[Index]) -> Index {
    let n = f.len();
    let step = n.div_ceil(KEY_SAMPLES).max(1);
    let mut seen: Vec<Index> = f.iter().step_by(step).copied().collect();
    seen.sort_unstable();
    let mut best = (0usize, 0 as Index);
    for run in seen.chunk_by(|a, b| a == b) {
        if run.len() > best.0 {
            best = (run.len(), run[0]);
        }
    }
    best.1
}

/// How many vertices [`most_frequent_label`] looks at.
const KEY_SAMPLES: usize = 1024;

/// FastSV over `s` from the parents `f0`: a forest of stars (`f0[f0[v]] == f0[v]`),
/// each inside one component of `s` plus the stars' own edges, with `f0[v] <= v`.
/// `rounds` is added to the count of rounds reported.
fn fastsv_from(s: &Csr<()>, f0: Vec<Index>, rounds: usize) -> Components {
    let n = s.nrows();
    debug_assert!(f0.iter().all(|&p| f0[p as usize] == p));
    let d0 = Descriptor::DEFAULT;
    let min = Min::<Index>::new();
    let mut f: Vector<Index> = Vector::from_dense(f0);
    let mut gp = f.clone();
    let mut mngp = f.clone();
    let mut changed: Vector<bool> = Vector::new(n);
    let mut parents = vec![0 as Index; n];
    let mut rounds = rounds;
    loop {
        rounds += 1;
        // mngp min= S min.second gp
        ops::mxv(
            &mut mngp,
            None,
            Some(&min),
            MinSecond::<Index>::new(),
            s,
            &gp,
            &d0,
        );
        // f(f) min= mngp: the parent of each vertex hooks to its smallest neighbour's gp
        // (the indices are f before the step: a copy, into the same buffer each round)
        let Vector::Dense(fd) = &f else {
            unreachable!("f starts dense and every step keeps it so")
        };
        parents.copy_from_slice(fd.as_slice());
        ops::assign_reduce(&mut f, min, &mngp, &Indices::List(&parents));
        // f min= mngp; f min= gp
        ops::assign(&mut f, None, Some(&min), &mngp, &d0);
        ops::assign(&mut f, None, Some(&min), &gp, &d0);
        // f = f(f), then gp = f(f), and whether gp changed (f is dense: every vertex
        // has a parent)
        let jump = |to: &mut Vector<Index>, f: &Vector<Index>| {
            let Vector::Dense(parents) = f else {
                unreachable!("f starts dense and every step keeps it so")
            };
            ops::extract(to, None, None, f, &Indices::List(parents.as_slice()), &d0);
        };
        let mut next: Vector<Index> = Vector::new(n);
        jump(&mut next, &f);
        std::mem::swap(&mut f, &mut next);
        jump(&mut next, &f);
        ops::ewise_mult(
            &mut changed,
            None,
            None,
            &NeOp::<Index>::new(),
            &next,
            &gp,
            &d0,
        );
        let any = ops::reduce(Lor, &changed);
        gp = next;
        if !any {
            break;
        }
    }
    Components {
        labels: gp.into_dense(0).into_vec(),
        rounds,
    }
}
