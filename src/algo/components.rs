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
//! C    = the stars, each contracted to its root,      from the other vertices' rows only
//!        joined by the arcs of S between them
//! f(r) = FastSV(C)(r) for each root r;  f = f(f)      the smallest vertex of each component
//! ```
//!
//! Dropping arcs whose ends already share a root loses no connectivity, and every arc
//! between two stars joins their roots in `C`, so each root ends with the smallest root
//! joined to it, which is the smallest index of its component, as without sampling. On
//! a Kronecker graph most arcs lie inside the giant component, so `C` is a few vertices
//! and its FastSV rounds cost nothing next to a round over every vertex.
//!
//! # The tuned version: Afforest
//!
//! [`wcc`] runs Afforest (Sutton, Sundram and Hu 2018; gapbs's `cc`) by default: a
//! concurrent union-find that links the first two entries of every row in one pass
//! (gapbs links them in two, compressing between; one is faster here), then, as above,
//! skips the rows of the most frequent root's members and links the rest of every
//! other row. A link hooks the larger of two roots under the smaller
//! with one compare-and-swap, so every parent is at most its vertex and each tree's
//! root is its smallest vertex: the labels are exactly FastSV's, whatever the threads'
//! interleaving. It is not an algebra operation: it replaces FastSV's rounds, each a
//! pass over every vertex (nine on a road graph), by one pass over the arcs, and is
//! tested against the template ([`WccMethod::FastSv`]) and a sequential union-find.

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use crate::algebra::{Index, Indices, Lor, Min, MinSecond, NeOp};
use crate::descriptor::Descriptor;
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::matrix::{CooBuilder, Csr, Duplicates};
use crate::ops;
use crate::vector::Vector;

/// The components of a graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Components {
    /// Per vertex, the smallest vertex index of its component.
    pub labels: Vec<Index>,
    /// FastSV's rounds run, or Afforest's linking passes (the sampled pass and the
    /// final one; 0 for an empty graph).
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

/// How [`wcc_with`] finds the components; both give the same labels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum WccMethod {
    /// Afforest's concurrent union-find (the module's last section): the default.
    #[default]
    Afforest,
    /// FastSV over the algebra, with the sampling pass on graphs whose rows are long
    /// (the module's first two templates).
    FastSv,
}

impl WccMethod {
    /// The method named `s` (`afforest` or `fastsv`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming the choices for any other name.
    pub fn from_name(s: &str) -> Result<WccMethod> {
        match s {
            "afforest" => Ok(WccMethod::Afforest),
            "fastsv" => Ok(WccMethod::FastSv),
            _ => Err(Error::InvalidArgument(format!(
                "--method {s}: expected afforest or fastsv"
            ))),
        }
    }

    /// The method's name as the CLI spells it: `afforest` or `fastsv`.
    pub fn name(self) -> &'static str {
        match self {
            WccMethod::Afforest => "afforest",
            WccMethod::FastSv => "fastsv",
        }
    }
}

/// The weakly connected components of `g` (arcs followed in both directions) by
/// Afforest ([`WccMethod::Afforest`]); a symmetric `g` needs no symmetrising, nor does
/// a directed one for this method.
///
/// # Panics
/// If `a` is not square.
pub fn wcc(g: &Graph<'_, ()>) -> Components {
    wcc_with(g, WccMethod::Afforest)
}

/// The weakly connected components of `g` by `method`: for every vertex, the smallest
/// vertex of its component, the same whichever the method.
///
/// # Panics
/// If `a` is not square.
pub fn wcc_with(g: &Graph<'_, ()>, method: WccMethod) -> Components {
    let a = g.adjacency();
    assert_eq!(a.nrows(), a.ncols(), "wcc needs a square matrix");
    if method == WccMethod::Afforest {
        return afforest(a, g.is_symmetric());
    }
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

/// How many entries of each row Afforest links before it picks the most frequent root.
const AFFOREST_SAMPLE: usize = 2;

/// Afforest over the pattern of `a`, its arcs followed both ways. When `symmetric`
/// (every arc is also in its end's row), the rows of the most frequent root's members
/// are skipped after the sampled pass: an arc from such a row to a vertex outside is
/// also in that vertex's row. A directed `a` links every arc of every row instead, so
/// it needs neither its transpose nor a symmetrised copy.
pub fn afforest(a: &Csr<()>, symmetric: bool) -> Components {
    let n = a.nrows();
    assert_eq!(n, a.ncols(), "wcc needs a square matrix");
    if n == 0 {
        return Components {
            labels: Vec::new(),
            rounds: 0,
        };
    }
    let forest = Forest::new(n);
    forest.link_sample(a, 0);
    let key = symmetric.then(|| forest.most_frequent_root());
    forest.link_rest(a, 0, key);
    Components {
        labels: forest.into_labels(),
        rounds: AFFOREST_PASSES,
    }
}

/// Afforest's passes over the arcs: the sampled one and the last.
pub(crate) const AFFOREST_PASSES: usize = 2;

/// A union-find forest over `0..n` shared by threads: every parent at most its vertex,
/// so each tree's root is its smallest vertex. Afforest's state, also for the
/// distributed run ([`crate::dist::components`]), where each rank links the rows it
/// holds and the ranks' forests are merged.
pub(crate) struct Forest(Vec<AtomicU32>);

impl Forest {
    /// `n` trees of one vertex.
    pub(crate) fn new(n: usize) -> Forest {
        Forest(
            (0..n as Index)
                .into_par_iter()
                .map(AtomicU32::new)
                .collect(),
        )
    }

    /// The forest whose parents are `labels` (each at most its vertex).
    #[cfg(feature = "mpi")]
    pub(crate) fn from_labels(labels: Vec<Index>) -> Forest {
        debug_assert!(labels.iter().enumerate().all(|(v, &l)| l as usize <= v));
        Forest(labels.into_par_iter().map(AtomicU32::new).collect())
    }

    /// The parents, one per vertex (each vertex's root after [`Forest::compress`]).
    #[cfg(feature = "mpi")]
    pub(crate) fn labels(&self) -> Vec<Index> {
        self.0
            .par_iter()
            .map(|p| p.load(Ordering::Relaxed))
            .collect()
    }

    /// [`Forest::labels`], the forest given up.
    pub(crate) fn into_labels(self) -> Vec<Index> {
        self.0.into_par_iter().map(AtomicU32::into_inner).collect()
    }

    /// Links the first [`AFFOREST_SAMPLE`] entries of each row of `rows` (row `i` the
    /// vertex `first + i`) in one pass, then [`Forest::compress`].
    pub(crate) fn link_sample(&self, rows: &Csr<()>, first: usize) {
        (0..rows.nrows())
            .into_par_iter()
            .with_min_len(1 << 10)
            .for_each(|i| {
                for &v in rows.row(i).0.iter().take(AFFOREST_SAMPLE) {
                    self.link((first + i) as Index, v);
                }
            });
        self.compress();
    }

    /// Links the entries of each row of `rows` past the sampled ones (row `i` the vertex
    /// `first + i`), except the rows of the vertices whose root is `key` (right only
    /// when every arc is also in its other end's row, held here or elsewhere, and
    /// `key` is the same for all that hold them), then compresses.
    pub(crate) fn link_rest(&self, rows: &Csr<()>, first: usize, key: Option<Index>) {
        (0..rows.nrows())
            .into_par_iter()
            .with_min_len(1 << 8)
            .for_each(|i| {
                let row = rows.row(i).0;
                let u = (first + i) as Index;
                if row.len() <= AFFOREST_SAMPLE || key == Some(self.get(u)) {
                    return;
                }
                for &v in &row[AFFOREST_SAMPLE..] {
                    self.link(u, v);
                }
            });
        self.compress();
    }

    /// Joins every vertex's tree with the tree of its parent in `other` (another
    /// forest's labels over the same vertices), then compresses: the trees of the union.
    #[cfg(feature = "mpi")]
    pub(crate) fn merge(&self, other: &[Index]) {
        assert_eq!(other.len(), self.0.len(), "forests over the same vertices");
        other
            .par_iter()
            .enumerate()
            .with_min_len(1 << 12)
            .for_each(|(v, &p)| {
                if p as usize != v {
                    self.link(v as Index, p);
                }
            });
        self.compress();
    }

    /// The most frequent root among a sample of the vertices (after a compress).
    pub(crate) fn most_frequent_root(&self) -> Index {
        most_frequent_label(self.0.len(), |v| self.get(v as Index))
    }

    fn get(&self, v: Index) -> Index {
        self.0[v as usize].load(Ordering::Relaxed)
    }

    /// Joins the trees of `u` and `v`: the larger of their roots is hooked under the
    /// smaller by one compare-and-swap, retried from the parents found when another
    /// thread hooked that root first. Every parent stays at most its vertex, and a
    /// vertex's parent changes only while it is a root (once) or in
    /// [`Forest::compress`] (to an ancestor).
    fn link(&self, u: Index, v: Index) {
        let p = &self.0;
        let (mut x, mut y) = (self.get(u), self.get(v));
        while x != y {
            let (hi, lo) = if x > y { (x, y) } else { (y, x) };
            let up = self.get(hi);
            if up == lo {
                return;
            }
            if up == hi {
                match p[hi as usize].compare_exchange(hi, lo, Ordering::AcqRel, Ordering::Relaxed) {
                    Ok(_) => return,
                    Err(now) if now == lo => return,
                    Err(now) => {
                        x = self.get(now);
                        y = self.get(lo);
                    }
                }
            } else {
                // hi is no longer a root: climb from its parent, and lo's
                x = self.get(up);
                y = self.get(lo);
            }
        }
    }

    /// Points every vertex at its root (no link runs meanwhile).
    fn compress(&self) {
        let p = &self.0;
        (0..p.len())
            .into_par_iter()
            .with_min_len(1 << 12)
            .for_each(|v| {
                let mut up = p[v].load(Ordering::Relaxed);
                loop {
                    let next = p[up as usize].load(Ordering::Relaxed);
                    if next == up {
                        break;
                    }
                    up = next;
                }
                p[v].store(up, Ordering::Relaxed);
            });
    }
}

/// How many entries of each row the sampling pass keeps.
const SAMPLE: usize = 4;

/// FastSV over the symmetric pattern `s` (the template above, call for call).
pub fn fastsv(s: &Csr<()>) -> Components {
    fastsv_from(s, (0..s.nrows() as Index).collect(), 0)
}

/// FastSV after a sampling pass (the second template above) over the symmetric
/// pattern `s`: the same labels as [`fastsv`], with the rounds after the sampling over
/// the graph of the stars that the arcs outside the most common one join.
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
    let key = most_frequent_label(n, |v| f[v]);
    // S' = S without the arcs inside the key's star. The membership is a bitmap (n / 8
    // bytes: in cache, where the labels would not be).
    let mut in_key = vec![0u64; n.div_ceil(64)];
    for (v, &l) in f.iter().enumerate() {
        if l == key {
            in_key[v / 64] |= 1 << (v % 64);
        }
    }
    join_stars(s, f, &in_key, sampled.rounds)
}

/// The components of the symmetric pattern `s` from a forest of stars `f` (each inside
/// one component, rooted at its smallest vertex; `rounds` the rounds that made it), with
/// the arcs inside `key`'s star (the members of `in_key`) already accounted for.
///
/// Each star is contracted to its root: `C` has a vertex per root that an arc between
/// two stars touches, and an edge per such pair of roots. Every arc between two stars
/// has an end outside the key's star (both ends inside would be one star), so the rows
/// of the non-members hold them all, and the members' rows are never read (as Afforest
/// skips the giant component). FastSV over `C` (its vertices numbered in the roots'
/// order, so its smallest label is the smallest root) gives each root the smallest root
/// joined to it, which is the smallest vertex of its component; one pass of
/// `f(v) = f(f(v))` then labels every vertex. O(n + arcs of the non-members), and the
/// FastSV rounds over `C` alone, not over `n`.
fn join_stars(s: &Csr<()>, mut f: Vec<Index>, in_key: &[u64], rounds: usize) -> Components {
    let n = s.nrows();
    let member = |v: usize| in_key[v / 64] >> (v % 64) & 1 == 1;
    let fr = &f;
    let pairs: Vec<(Index, Index)> = (0..n)
        .into_par_iter()
        .with_min_len(1 << 12)
        .filter(|&i| !member(i))
        .flat_map_iter(|i| {
            let ri = fr[i];
            s.row(i).0.iter().filter_map(move |&j| {
                let rj = fr[j as usize];
                (ri != rj).then_some((ri, rj))
            })
        })
        .collect();
    if pairs.is_empty() {
        return Components { labels: f, rounds };
    }
    let mut roots: Vec<Index> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    roots.par_sort_unstable();
    roots.dedup();
    let at = |r: Index| roots.binary_search(&r).expect("a root of a pair");
    let m = roots.len();
    let mut b = CooBuilder::new(m, m);
    for &(x, y) in &pairs {
        let (x, y) = (at(x), at(y));
        b.push(x, y, ()).expect("a root's number is below m");
        b.push(y, x, ()).expect("a root's number is below m");
    }
    drop(pairs);
    let c = b
        .build(Duplicates::KeepFirst)
        .expect("a pattern of numbers below m");
    let joined = fastsv(&c);
    for (x, &l) in joined.labels.iter().enumerate() {
        f[roots[x] as usize] = roots[l as usize];
    }
    let fr = &f;
    let labels = (0..n).into_par_iter().map(|v| fr[fr[v] as usize]).collect();
    Components {
        labels,
        rounds: rounds + joined.rounds,
    }
}

/// The most frequent of the labels `f(0..n)`, estimated from at most [`KEY_SAMPLES`]
/// vertices spread evenly (ties to the smallest label), as Afforest samples for its
/// largest component: any label is a correct key, and a frequent one leaves the least
/// to do.
fn most_frequent_label(n: usize, f: impl Fn(usize) -> Index) -> Index {
    let step = n.div_ceil(KEY_SAMPLES).max(1);
    let mut seen: Vec<Index> = (0..n).step_by(step).map(f).collect();
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
