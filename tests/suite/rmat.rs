//! R-MAT / Graph500 Kronecker generation: simple CSR, the expected size, symmetry when
//! undirected, the same graph for every thread count, seeds, and parameter errors.

use crate::generated;
use edgeblas::generate::rmat::Rmat;

use generated::{check_simple, pool};

#[test]
fn rmat_is_simple_and_reproducible() {
    for undirected in [false, true] {
        let r = Rmat {
            scale: 14,
            edge_factor: 8,
            undirected,
            ..Rmat::default()
        };
        let g1 = pool(1).install(|| r.generate().unwrap());
        check_simple(&g1);
        assert_eq!(g1.nrows(), 1 << 14);
        let sampled = 8usize << 14;
        let stored = if undirected { g1.nnz() / 2 } else { g1.nnz() };
        // Repeats and self-loops go; Graph500 graphs keep most sampled edges.
        assert!(
            stored <= sampled && stored > sampled * 6 / 10,
            "{stored} of {sampled}"
        );
        if undirected {
            assert!(g1.is_symmetric());
        }
        for t in [2, 3] {
            assert!(
                pool(t).install(|| r.generate().unwrap()) == g1,
                "{t} threads"
            );
        }
        let other = Rmat { seed: 2, ..r }.generate().unwrap();
        assert_ne!(other.indices(), g1.indices());
    }
}

#[test]
fn rmat_degrees_are_skewed_and_permuted() {
    let r = Rmat {
        scale: 14,
        edge_factor: 16,
        ..Rmat::default()
    };
    let g = r.generate().unwrap();
    let max = (0..g.nrows()).map(|i| g.degree(i)).max().unwrap();
    assert!(max > 40 * 16, "max degree {max}: not a Kronecker skew");
    // Without the permutation vertex 0 is the largest hub; with it, it need not be.
    let plain = Rmat {
        permute: false,
        ..r
    }
    .generate()
    .unwrap();
    let hub = (0..plain.nrows()).max_by_key(|&i| plain.degree(i)).unwrap();
    assert_eq!(hub, 0);
    let mut a: Vec<usize> = (0..g.nrows()).map(|i| g.degree(i)).collect();
    let mut b: Vec<usize> = (0..plain.nrows()).map(|i| plain.degree(i)).collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(
        a, b,
        "the permutation relabels, it does not change the graph"
    );
}

#[test]
fn rmat_rejects_bad_parameters() {
    for r in [
        Rmat {
            scale: 0,
            ..Rmat::default()
        },
        Rmat {
            scale: 33,
            ..Rmat::default()
        },
        Rmat {
            edge_factor: 0,
            ..Rmat::default()
        },
        Rmat {
            a: 0.7,
            b: 0.2,
            c: 0.2,
            ..Rmat::default()
        },
        Rmat {
            a: -0.1,
            ..Rmat::default()
        },
        Rmat {
            a: f64::NAN,
            ..Rmat::default()
        },
    ] {
        assert!(r.generate().is_err(), "{r:?}");
    }
}

/// The progress hook: monotone, ending at the total (blocks of both passes), and the
/// graph is the same with and without it.
#[test]
fn progress_hook_is_monotone_and_changes_nothing() {
    let r = Rmat {
        scale: 16,
        edge_factor: 16,
        undirected: true,
        ..Rmat::default()
    };
    let plain = r.generate().unwrap();
    for threads in [1, 4] {
        let calls = std::sync::Mutex::new(Vec::new());
        let g = pool(threads)
            .install(|| {
                r.generate_with_progress(Some(&|d: u64, t: u64| calls.lock().unwrap().push((d, t))))
            })
            .unwrap();
        assert!(
            g == plain,
            "the hook changed the graph at {threads} threads"
        );
        let calls = calls.into_inner().unwrap();
        let total = 2 * ((r.edge_factor << r.scale) >> 16);
        assert!(calls.iter().all(|&(_, t)| t == total), "{calls:?}");
        assert!(calls.windows(2).all(|w| w[0].0 < w[1].0), "{calls:?}");
        assert_eq!(calls.last().unwrap().0, total);
    }
}
