//! Top-down BFS in the EDGE formulation (extended general einsums, Odemuyiwa et al.),
//! written step by step: each step is one library call with its EDGE line above it.
//! Checked against `algo::bfs` on the five-vertex graph 1->2, 1->3, 2->4, 3->4, 4->5.
//!
//! `cargo run --example bfs_edge_cascade`

use edgeblas::algo::bfs::{BfsGraph, BfsOptions, Push, bfs};
use edgeblas::prelude::*;

fn main() {
    // Vertex ids 1..5 are indices 0..4.
    let mut b = CooBuilder::new(5, 5);
    for (u, v) in [(1, 2), (1, 3), (2, 4), (3, 4), (4, 5)] {
        b.push(u - 1, v - 1, ()).unwrap();
    }
    let g = b.build(Duplicates::Error).unwrap();
    let n = g.nrows();
    let source: Index = 0;
    let (keep, replace) = (Descriptor::DEFAULT, Descriptor::DEFAULT.with_replace());

    // F_v = [v = source]; Tree_v = source where v = source; Level_v = 0 where v = source
    let mut f: Vector<bool> = Vector::from_pairs(n, [(source, true)]);
    let mut tree: Vector<Index> = Vector::from_pairs(n, [(source, source)]);
    let mut level: Vector<u32> = Vector::from_pairs(n, [(source, 0)]);
    // NV_v = NOT Tree_v (not visited)
    let mut nv: Vector<bool> = Vector::new(n);
    ops::assign_scalar(
        &mut nv,
        Some(&Mask::structure(&tree).complement()),
        None,
        true,
        &replace,
    );

    let mut depth = 0;
    // stop when the frontier is empty: |F| = 0
    while f.nvals() > 0 {
        depth += 1;
        // Nei_v = OR_u (G_{u,v} AND F_u)                          (neighbours, OR.AND)
        let mut nei: Vector<bool> = Vector::new(n);
        ops::vxm(&mut nei, None, None, OrAnd::new(), &f, &g, &replace);
        // NeiNV_v = Nei_v AND NV_v                                 (unvisited neighbours)
        let mut neinv: Vector<bool> = Vector::new(n);
        ops::ewise_mult(&mut neinv, None, None, &Land::new(), &nei, &nv, &replace);
        // P_{u,v} = u where G_{u,v} AND F_u AND NeiNV_v            (candidate parents: SECONDI)
        // Parent_v = MIN_u P_{u,v}                                 (pick-parent: MIN)
        // -- one einsum's map and reduce, one product over MIN.SECONDI
        let mut parent: Vector<Index> = Vector::new(n);
        ops::vxm(
            &mut parent,
            Some(&Mask::values(&neinv)),
            None,
            MinSecondI::new(),
            &f,
            &g,
            &replace,
        );
        // Tree_v = Parent_v where Parent_v is present, else Tree_v  (tree update)
        ops::assign(
            &mut tree,
            Some(&Mask::structure(&parent)),
            None,
            &parent,
            &keep,
        );
        // F_v = NeiNV_v                                            (next frontier)
        ops::select(&mut f, None, None, |_, x| x, &neinv, &replace);
        // NV_v = NV_v AND NOT F_v
        ops::assign_scalar(&mut nv, Some(&Mask::structure(&f)), None, false, &keep);
        // Level_v = depth where F_v
        ops::assign_scalar(&mut level, Some(&Mask::structure(&f)), None, depth, &keep);
    }

    let tree = tree.into_dense(Index::MAX).into_vec();
    let level = level.into_dense(u32::MAX).into_vec();
    println!("levels  {level:?}");
    println!("parents {tree:?} (indices; ids are index + 1)");
    assert_eq!(level, vec![0, 1, 1, 2, 3]);
    assert_eq!(tree[3], 1, "the parent of vertex 4 is vertex 2");

    let r = bfs(
        &BfsGraph::directed(&g),
        &[source],
        &Push,
        &BfsOptions::default(),
    )
    .unwrap();
    assert_eq!(r.levels, level);
    assert_eq!(r.parents, tree);
    println!("matches algo::bfs");
}
