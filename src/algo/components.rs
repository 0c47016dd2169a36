//! Weakly connected components by FastSV (Zhang, Azad and Hu 2020; LAGraph's
//! `LAGr_ConnectedComponents`), over MIN.SECOND:
//!
//! ```text
//! f = gp = mngp = [0, 1, ..., n-1]           parent, grandparent, min neighbour's gp
//! repeat:
//!   mngp  min=  S min.second gp               each vertex: its neighbours' smallest gp
//!   f(f)  min=  mngp                          stochastic hooking (assign_reduce: repeats meet at MIN)
//!   f     min=  mngp,  f  min=  gp            aggressive hooking, shortcutting
//!   gp    =     f(f)                          extract
//! until gp does not change
//! ```
//!
//! `S` is the symmetric pattern (arcs followed both ways). Every value only decreases
//! and stays inside its component, so at the end each component is a star whose root is
//! its smallest vertex: the label of every vertex is the smallest index in its component.

use crate::algebra::{Index, Indices, Lor, Min, MinSecond, NeOp};
use crate::descriptor::Descriptor;
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

/// The weakly connected components of `a` (arcs followed in both directions); pass
/// `symmetric` when `A = A'`, which saves symmetrising.
///
/// # Panics
/// If `a` is not square.
pub fn wcc(a: &Csr<()>, symmetric: bool) -> Components {
    assert_eq!(a.nrows(), a.ncols(), "wcc needs a square matrix");
    let sym;
    let s = if symmetric {
        a
    } else {
        sym = a.symmetrize(|_, _| ());
        &sym
    };
    fastsv(s)
}

/// FastSV over the symmetric pattern `s` (the template above, call for call).
pub fn fastsv(s: &Csr<()>) -> Components {
    let n = s.nrows();
    let d0 = Descriptor::DEFAULT;
    let min = Min::<Index>::new();
    let mut f: Vector<Index> = Vector::from_dense((0..n as Index).collect());
    let mut gp = f.clone();
    let mut mngp = f.clone();
    let mut changed: Vector<bool> = Vector::new(n);
    let mut rounds = 0;
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
        let parents = f.clone().into_dense(0).into_vec();
        ops::assign_reduce(&mut f, min, &mngp, &Indices::List(&parents));
        // f min= mngp; f min= gp
        ops::assign(&mut f, None, Some(&min), &mngp, &d0);
        ops::assign(&mut f, None, Some(&min), &gp, &d0);
        // gp = f(f), and whether it changed (f is dense: every vertex has a parent)
        let mut next: Vector<Index> = Vector::new(n);
        let Vector::Dense(parents) = &f else {
            unreachable!("f starts dense and every step keeps it so")
        };
        ops::extract(
            &mut next,
            None,
            None,
            &f,
            &Indices::List(parents.as_slice()),
            &d0,
        );
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
