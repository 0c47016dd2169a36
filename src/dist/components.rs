//! Weakly connected components over row blocks. [`wcc_afforest`] (the default of `wcc
//! --backend mpi`) runs Afforest's union-find on each rank's rows and merges the ranks'
//! forests; [`wcc`] runs FastSV (the one-process
//! [`crate::algo::components::fastsv`]'s template, step for step), each vector a rank's
//! piece of its block and each step a generic operation on it:
//!
//! ```text
//! f = gp = mngp = (0, 1, ..., n - 1)
//! repeat:
//!   mngp  min=  S min.second GP            GP = gp gathered whole (the mxv's allgather)
//!   f(f)  min=  mngp                       each hook sent to the rank owning its target
//!                                          (one alltoallv), combined there by assign_reduce
//!   f     min=  mngp,  f  min=  gp
//!   f     =     F(f)                       F = f gathered whole; extract
//!   gp    =     F(f)                       the same, after the first shortcut
//! until gp does not change (one allreduce a round)
//! ```
//!
//! Every value only falls and stays inside its component, and the smallest vertex of a
//! component keeps its own index, so each vertex's label ends as the smallest index of
//! its component, the label of the one-process [`crate::algo::wcc`], for every `P`. The
//! rounds are FastSV's (the road graph USA-road-FLA: 9, where the label propagation this
//! replaced took 368 with its shortcut, 1,921 without), each three allgathers of `n`
//! labels and an alltoallv of one word per local vertex. One process samples first
//! (Afforest's pass), so its count of rounds can differ; the labels cannot.

use super::algebra::allgather_vector;
use super::net::Net;
use super::partition::{Partition, RowBlocks};
use crate::algebra::{Index, Indices, Min, MinSecond};
use crate::algo::Components;
use crate::algo::components::{AFFOREST_PASSES, Forest};
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
    let (lo, ranks) = (me.start, net.size());
    let (min, d0) = (Min::<Index>::new(), Descriptor::DEFAULT);
    let mut f: Vector<Index> = Vector::from_dense(me.clone().map(|v| v as Index).collect());
    let mut gp = f.clone();
    let mut mngp = f.clone();
    let mut rounds = 0;
    loop {
        rounds += 1;
        // mngp min= S min.second GP
        let whole = allgather_vector(net, part, &gp);
        crate::ops::mxv(
            &mut mngp,
            None,
            Some(&min),
            MinSecond::<Index>::new(),
            s,
            &whole,
            &d0,
        );
        drop(whole);
        // f(f) min= mngp: the hook (target f(v), value mngp(v)) of every local v goes to
        // the target's rank as one word, and lands there by assign_reduce.
        // One buffer laid out by rank (counted first), so nothing grows or is copied
        // again before the exchange.
        let hooks = {
            let (fd, md) = (dense(&f), dense(&mngp));
            let owner: Vec<u32> = if ranks == 1 {
                Vec::new()
            } else {
                fd.iter().map(|&t| part.owner(t) as u32).collect()
            };
            let mut counts = vec![0usize; ranks];
            if ranks == 1 {
                counts[0] = fd.len();
            } else {
                for &r in &owner {
                    counts[r as usize] += 1;
                }
            }
            let mut at: Vec<usize> = counts
                .iter()
                .scan(0, |acc, &c| {
                    let start = *acc;
                    *acc += c;
                    Some(start)
                })
                .collect();
            let mut flat = vec![0u64; fd.len()];
            for (v, (&t, &x)) in fd.iter().zip(md).enumerate() {
                let r = if ranks == 1 { 0 } else { owner[v] as usize };
                flat[at[r]] = u64::from(t) << 32 | u64::from(x);
                at[r] += 1;
            }
            net.alltoallv_flat(&flat, &counts)
        };
        let targets: Vec<Index> = hooks
            .iter()
            .map(|&h| (h >> 32) as Index - lo as Index)
            .collect();
        let values: Vector<Index> = Vector::from_dense(hooks.iter().map(|&h| h as Index).collect());
        crate::ops::assign_reduce(&mut f, min, &values, &Indices::List(&targets));
        // f min= mngp; f min= gp
        crate::ops::assign(&mut f, None, Some(&min), &mngp, &d0);
        crate::ops::assign(&mut f, None, Some(&min), &gp, &d0);
        // f = F(f); gp = F(f)
        f = shortcut(net, part, &f);
        let next = shortcut(net, part, &f);
        let changed = dense(&next) != dense(&gp);
        gp = next;
        if net.allreduce_max(changed as u64) == 0 {
            break;
        }
    }
    let labels = gp.into_dense(0).into_vec();
    net.gatherv_root(&labels)
        .map(|labels| Components { labels, rounds })
}

/// The components of the distributed graph whose rows of `S = A ∪ A'` this rank holds
/// in `s`, by Afforest ([`crate::algo::components::afforest`]) over row blocks. Each
/// rank keeps a forest over all `n` vertices (the size of the vectors FastSV gathers):
///
/// ```text
/// each rank: link the first 2 entries of its rows            (one pass, compressed)
/// merge the ranks' forests at rank 0, then broadcast         (a binomial tree of n labels)
/// key = the most frequent root (the same on every rank)
/// each rank: link the rest of its rows outside key's tree    (one pass, compressed)
/// merge the ranks' forests at rank 0
/// ```
///
/// An arc between two vertices outside the key's tree, or with one end inside, is in
/// the row of an end outside it, which its rank links; an arc with both ends inside
/// joins nothing new. The merge hooks each vertex under its parent in the other forest,
/// so the union's trees are the components, each rooted at its smallest vertex: the
/// labels of one process for every `P`. At `P = 1` nothing is sent, and the run is the
/// one-process Afforest. Collective.
///
/// # Returns
/// On rank 0 the [`Components`] (`rounds` Afforest's passes); `None` elsewhere.
///
/// # Panics
/// When `s` does not fit this rank's block.
pub fn wcc_afforest(net: &Net, part: &RowBlocks, s: &Csr<()>) -> Option<Components> {
    let me = part.range(net.rank());
    assert_eq!(s.nrows(), me.len(), "the rows of this rank's block");
    let n = s.ncols();
    let forest = Forest::new(n);
    forest.link_sample(s, me.start);
    let forest = if net.size() == 1 {
        forest
    } else {
        let sampled = merge_at_root(net, forest).map_or_else(Vec::new, Forest::into_labels);
        Forest::from_labels(net.broadcast_vec(sampled))
    };
    let key = (n > 0).then(|| forest.most_frequent_root());
    forest.link_rest(s, me.start, key);
    merge_at_root(net, forest).map(|f| Components {
        labels: f.into_labels(),
        rounds: if n == 0 { 0 } else { AFFOREST_PASSES },
    })
}

/// Every rank's forest merged into rank 0's along a binomial tree (`ceil(log2 P)`
/// steps, `n` labels a message): `Some` on rank 0, `None` elsewhere. Collective.
fn merge_at_root(net: &Net, forest: Forest) -> Option<Forest> {
    let (rank, ranks) = (net.rank(), net.size());
    let mut step = 1;
    while step < ranks {
        if rank % (2 * step) == step {
            net.send_to(rank - step, &forest.labels());
            return None;
        }
        if rank + step < ranks {
            let other: Vec<Index> = net.receive_from(rank + step);
            forest.merge(&other);
        }
        step *= 2;
    }
    Some(forest)
}

/// `F(f)` for this rank's piece `f` of a dense parent vector: `f` gathered whole, then
/// each local parent's parent (an `extract` with `f` as the index list). Collective.
fn shortcut(net: &Net, part: &RowBlocks, f: &Vector<Index>) -> Vector<Index> {
    let whole = allgather_vector(net, part, f);
    let mut next = Vector::new(f.len());
    crate::ops::extract(
        &mut next,
        None,
        None,
        &whole,
        &Indices::List(dense(f)),
        &Descriptor::DEFAULT,
    );
    next
}

/// The values of a vector FastSV keeps dense (every vertex has a parent).
fn dense(v: &Vector<Index>) -> &[Index] {
    match v {
        Vector::Dense(d) => d.as_slice(),
        _ => unreachable!("FastSV's vectors start dense and every step keeps them so"),
    }
}
