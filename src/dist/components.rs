//! Weakly connected components over row blocks: label propagation, each round a
//! distributed [`super::algebra::mxv`] over MIN.SECOND with a MIN accumulator:
//!
//! ```text
//! l = (0, 1, ..., n - 1)
//! repeat:  l min= S min.second l      S = A ∪ A' (arcs followed both ways), row blocks
//! until no label changes (one allreduce a round)
//! ```
//!
//! A vertex's label falls to the smallest index of its component, the label of the
//! one-process [`crate::algo::wcc`], so the labels are identical for every `P`. The
//! rounds are the propagation's (about the largest component's diameter), not FastSV's.

use super::algebra::mxv;
use super::net::Net;
use super::partition::{Partition, RowBlocks};
use crate::algebra::{Index, Min, MinSecond};
use crate::algo::Components;
use crate::descriptor::Descriptor;
use crate::matrix::Csr;
use crate::vector::Vector;

/// The components of the distributed graph whose rows of `S = A ∪ A'` this rank holds
/// in `s` (its block's rows, all `n` columns; [`super::bfs::LocalGraph::out_rows`] of a
/// graph read with `undirected`). Collective.
///
/// # Returns
/// On rank 0 the [`Components`] (labels the smallest index of each component, as one
/// process finds them; `rounds` the propagation rounds); `None` elsewhere.
///
/// # Panics
/// When `s` does not fit this rank's block.
pub fn wcc(net: &Net, part: &RowBlocks, s: &Csr<()>) -> Option<Components> {
    let me = part.range(net.rank());
    let mut l: Vector<Index> = Vector::from_dense(me.clone().map(|v| v as Index).collect());
    let mut rounds = 0;
    loop {
        let before = l.clone();
        mxv(
            net,
            part,
            &mut l,
            None,
            Some(&Min::<Index>::new()),
            MinSecond::<Index>::new(),
            s,
            &before,
            &Descriptor::DEFAULT,
        );
        rounds += 1;
        if net.allreduce_max((l != before) as u64) == 0 {
            break;
        }
    }
    let labels = l.into_dense(0).into_vec();
    net.gatherv_root(&labels)
        .map(|labels| Components { labels, rounds })
}
