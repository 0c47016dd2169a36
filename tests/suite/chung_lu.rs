//! Chung-Lu generation: statistics against the model (edge counts per task and in all,
//! per-group mean degrees), simple and symmetric CSR, byte-identical output for every
//! thread count, seeds, coarsening, exact pair decoding past 2^53, bad inputs with their
//! line numbers, and the real degree distributions of ../shared/data/real/degrees.

use std::path::Path;

use approx::assert_relative_eq;
use edgeblas::generate::chung_lu::{
    Coarsen, Degrees, Plan, PlanOptions, PowerLaw, Report, TaskKind, cpu::for_each_pair,
    decode_triangle, generate, parse_degrees, read_degrees,
};

use crate::chung_lu_cases;

use chung_lu_cases::{power_law, shuffled_sequence};

use crate::generated;

use generated::{check_simple, pool};

fn plan(d: &Degrees, directed: bool, coarsen: Option<Coarsen>) -> Plan {
    Plan::new(d, &PlanOptions { coarsen, directed }).unwrap()
}

#[test]
fn triangle_decoding_is_exact_beyond_2_pow_53() {
    // Integer reference: a = floor((1 + isqrt(8 pos + 1)) / 2) in u128.
    fn isqrt(x: u128) -> u128 {
        let mut r = (x as f64).sqrt() as u128;
        while r * r > x {
            r -= 1;
        }
        while (r + 1) * (r + 1) <= x {
            r += 1;
        }
        r
    }
    let reference = |pos: u64| {
        let a = isqrt(8 * pos as u128 + 1).div_ceil(2);
        (a as u64, (pos as u128 - a * (a - 1) / 2) as u64)
    };
    let mut cases: Vec<u64> = (0..2000).collect();
    for e in [40u32, 52, 53, 54, 56, 60, 62, 63] {
        let base = 1u64 << e;
        for d in 0..500u64 {
            cases.push(base - d);
            cases.push(base + d);
        }
    }
    // Pair numbers at and around row starts a (a - 1) / 2 for large a (up to 2^32 - 1
    // rows, the largest group).
    for a in [
        1u64 << 27,
        (1 << 27) + 1,
        94_906_265,
        94_906_266,
        (1 << 32) - 1,
        3_037_000_499,
    ] {
        let t = a * (a - 1) / 2;
        for d in 0..50 {
            cases.push(t - d);
            cases.push(t + d);
        }
    }
    cases.push(u64::MAX / 2);
    for pos in cases {
        let (a, b) = decode_triangle(pos);
        assert_eq!((a, b), reference(pos), "pos {pos}");
        assert!(b < a);
    }
}

#[test]
fn task_edge_counts_follow_their_binomials() {
    // Many tasks of moderate size: the per-task standardised counts must look N(0, 1).
    let d = Degrees::Histogram(vec![
        (3, 400),
        (5, 300),
        (8, 200),
        (13, 100),
        (21, 60),
        (34, 30),
        (55, 12),
        (89, 5),
    ]);
    for seed in [1u64, 2, 3] {
        let p = plan(&d, false, None);
        let (mut z_sum, mut z2, mut k) = (0.0, 0.0, 0usize);
        for t in &p.tasks {
            let mut edges = 0u64;
            for c in 0..t.chunks() {
                for_each_pair(&p, t, c, seed, |_, _| edges += 1);
            }
            let (m, v) = (t.expected_edges(), t.expected_edges() * (1.0 - t.p));
            if v > 5.0 {
                let z = (edges as f64 - m) / v.sqrt();
                z_sum += z;
                z2 += z * z;
                k += 1;
            }
        }
        assert!(k >= 20, "only {k} tasks with variance > 5");
        let mean = z_sum / k as f64;
        let var = z2 / k as f64 - mean * mean;
        // mean ~ N(0, 1/k), var ~ 1 +- sqrt(2/k).
        assert!(
            mean.abs() < 4.0 / (k as f64).sqrt(),
            "seed {seed}: mean z {mean}"
        );
        assert!(
            (var - 1.0).abs() < 5.0 * (2.0 / k as f64).sqrt(),
            "seed {seed}: var {var}"
        );
    }
}

#[test]
fn power_law_graph_matches_the_model() {
    let d = power_law(200_000, 2.1, 2);
    let p = plan(&d, false, None);
    assert!(!p.clamped);
    let g = generate(&p, 11);
    check_simple(&g);
    assert!(g.is_symmetric());
    let r = Report::new(&p, &g);
    assert!(r.edges_z.abs() < 4.0, "edges z {}", r.edges_z);
    let k = r.rows.groups.len() as f64;
    // Bonferroni over the groups: P(max |z| > 4.5 + ln k / 4) is tiny.
    assert!(
        r.rows.max_abs_z < 4.5 + k.ln() / 4.0,
        "max |z| {} over {k} groups",
        r.rows.max_abs_z
    );
    // The group means follow w (1 - w / S): check against the closed form too.
    for gr in &r.rows.groups {
        let closed = gr.weight * (1.0 - gr.weight / p.s);
        assert_relative_eq!(gr.expected, closed, epsilon = 1e-6, max_relative = 1e-6);
    }
    assert!(
        r.rows.kl_ideal_out_log2 < 1e-3,
        "{}",
        r.rows.kl_ideal_out_log2
    );
}

#[test]
fn same_output_for_1_2_3_and_8_threads() {
    let seq = shuffled_sequence(30_000, 5);
    let cases: Vec<(Degrees, bool, Option<Coarsen>)> = vec![
        (power_law(50_000, 2.1, 2), false, None),
        (Degrees::Sequence(seq.clone()), false, None),
        (
            Degrees::Sequence({
                let mut s = seq.clone();
                s.sort_unstable_by(|a, b| b.cmp(a));
                s
            }),
            false,
            None,
        ),
        (
            power_law(50_000, 2.5, 1),
            false,
            Some(Coarsen::new(0.2, 8.0).unwrap()),
        ),
        (Degrees::Sequence(seq), true, None),
        (
            Degrees::Directed {
                out: (0..5000u64).map(|i| i % 37).collect(),
                inn: (0..5000u64).map(|i| (i * 7) % 41).collect(),
            },
            true,
            None,
        ),
    ];
    for (k, (d, directed, c)) in cases.iter().enumerate() {
        let p = plan(d, *directed, *c);
        // The pieces the threads take tile the chunks in order.
        let pieces = p.pieces();
        assert_eq!(pieces.first().map(|x| x.0), Some(0), "case {k}");
        assert_eq!(pieces.last().map(|x| x.1), Some(p.chunks), "case {k}");
        assert!(
            pieces
                .windows(2)
                .all(|w| w[0].1 == w[1].0 && w[0].0 < w[0].1)
        );
        let base = pool(1).install(|| generate(&p, 99));
        check_simple(&base);
        assert!(base.nnz() > 1000, "case {k}: {} arcs", base.nnz());
        if !directed {
            assert!(base.is_symmetric(), "case {k}");
        }
        for t in [2, 3, 8] {
            let g = pool(t).install(|| generate(&p, 99));
            assert!(
                g.offsets() == base.offsets() && g.indices() == base.indices(),
                "case {k}: {t} threads differ from 1"
            );
        }
        let other = pool(2).install(|| generate(&p, 100));
        assert_ne!(
            other.indices(),
            base.indices(),
            "case {k}: seeds 99 and 100 agree"
        );
    }
}

#[test]
fn a_sequence_keeps_the_users_vertex_order() {
    // Vertex 17 is the hub; everyone else has degree 3.
    let mut seq = vec![3u64; 5000];
    seq[17] = 2000;
    seq[4321] = 800;
    let p = plan(&Degrees::Sequence(seq.clone()), false, None);
    let g = generate(&p, 3);
    check_simple(&g);
    let s: f64 = seq.iter().sum::<u64>() as f64;
    for (v, w) in [(17usize, 2000.0), (4321, 800.0)] {
        let e = w * (1.0 - w / s);
        assert!(
            (g.degree(v) as f64 - e).abs() < 5.0 * e.sqrt(),
            "vertex {v}: degree {} expected {e}",
            g.degree(v)
        );
    }
    let r = Report::new(&p, &g);
    assert!(r.rows.max_abs_z < 5.0);
}

#[test]
fn coarsening_keeps_s_and_the_edge_count() {
    let d = power_law(100_000, 2.1, 2);
    let fine = plan(&d, false, None);
    let c = Coarsen::new(0.1, 16.0).unwrap();
    let coarse = plan(&d, false, Some(c));
    assert!(
        coarse.rows.len() < fine.rows.len() / 2,
        "{} groups",
        coarse.rows.len()
    );
    assert_eq!(coarse.groups_before.0, fine.rows.len());
    let s: f64 = (0..coarse.rows.len())
        .map(|g| coarse.rows.weight[g] * coarse.rows.count(g) as f64)
        .sum();
    assert_relative_eq!(s, fine.s, max_relative = 1e-9);
    let (ef, _) = fine.expected_edges();
    let (ec, vc) = coarse.expected_edges();
    assert_relative_eq!(ef, ec, max_relative = 1e-3);
    let g = generate(&coarse, 8);
    check_simple(&g);
    let r = Report::new(&coarse, &g);
    assert!(((g.nnz() / 2) as f64 - ec).abs() < 5.0 * vc.sqrt());
    assert!(r.rows.max_abs_z < 5.0);
    // Groups at or below the cut are untouched.
    for g in 0..coarse.rows.len() {
        if coarse.rows.weight[g] <= 16.0 {
            assert_eq!(coarse.rows.weight[g], fine.rows.weight[g]);
        }
    }
}

#[test]
fn directed_out_and_in_degrees_match() {
    let n = 20_000u64;
    let out: Vec<u64> = (0..n).map(|i| 1 + (i % 50)).collect();
    let inn: Vec<u64> = (0..n).map(|i| 1 + ((i * 13) % 50)).collect();
    let d = Degrees::Directed { out, inn };
    let p = plan(&d, true, None);
    assert!(p.directed && p.tasks.iter().all(|t| t.kind == TaskKind::Arcs));
    let g = generate(&p, 4);
    check_simple(&g);
    let r = Report::new(&p, &g);
    assert!(r.edges_z.abs() < 4.0, "z {}", r.edges_z);
    assert!(r.rows.max_abs_z < 5.0, "out {}", r.rows.max_abs_z);
    assert!(r.cols.as_ref().unwrap().max_abs_z < 5.0);
}

#[test]
fn clamped_probabilities_are_reported_and_respected() {
    // Two hubs of degree 300 among 1,000 vertices of degree 2: 300^2 > S.
    let d = Degrees::Histogram(vec![(2, 1000), (300, 2)]);
    let p = plan(&d, false, None);
    assert!(p.clamped);
    let g = generate(&p, 1);
    check_simple(&g);
    // p = 1 between the two hubs: the edge is always there.
    assert!(g.get(1000, 1001).is_some());
    let r = Report::new(&p, &g);
    assert!(r.clamped && r.edges_z.abs() < 4.0 && r.rows.max_abs_z < 5.0);
    assert!(r.to_json().contains("\"clamped\":true"));
}

#[test]
fn bad_inputs_name_the_line() {
    let cases: [(&[u8], &str); 10] = [
        (b"", "x: no degrees: the input is empty"),
        (b"# only a comment\n", "x: no degrees: the input is empty"),
        (b"1\n2\n-3\n", "x:3: '-3' is negative"),
        (b"1\n2.5\n1\n", "x:2: '2.5' is not an integer"),
        (b"1\nabc\n", "x:2: 'abc' is not a non-negative integer"),
        (b"1\n1\n3\n", "x:3: degree 3 >= n = 3 vertices"),
        (b"degree,count\n1,2\n1,3\n", "x:3: degree 1 is listed twice"),
        (
            b"degree,count\n1,2\n5,2\n",
            "x:3: degree 5 >= n = 4 vertices",
        ),
        (b"degree,count\n1,-2\n", "x:2: '-2' is negative"),
        (
            b"degree,count\n1\n",
            "x:2: expected 2 comma-separated values",
        ),
    ];
    for (input, want) in cases {
        let e = parse_degrees("x", input, false).unwrap_err().to_string();
        assert!(
            e.starts_with(want),
            "input {:?}: got '{e}', want '{want}'",
            String::from_utf8_lossy(input)
        );
    }
    assert!(parse_degrees("x", b"degree,count\n0,0\n", false).is_err());
    assert!(parse_degrees("x", b"1 2\n2 1\n", false).is_err());
    assert_eq!(
        parse_degrees("x", b"1 2\n2 1\n0 0\n", true).unwrap(),
        Degrees::Directed {
            out: vec![1, 2, 0],
            inn: vec![2, 1, 0]
        }
    );
    for spec in [
        "n=10,gamma=2",
        "n=10,gamma=0.9,dmin=1",
        "n=10,gamma=2,dmin=10",
        "n=1x,gamma=2,dmin=1",
        "n=10,gamma=2,dmin=1,dmax=20",
        "n=10,gamma=2,dmin=1,foo=2",
    ] {
        assert!(PowerLaw::parse(spec).is_err(), "{spec}");
    }
    assert!(read_degrees(Path::new("/nonexistent/degrees.txt"), false).is_err());
    assert!(Plan::new(&Degrees::Sequence(vec![]), &PlanOptions::default()).is_err());
    assert!(Degrees::Sequence(vec![1, 5, 1]).validate().is_err());
}

#[test]
fn power_law_histogram_is_deterministic_and_capped() {
    let p = PowerLaw::parse("n=100000,gamma=2.1,dmin=2").unwrap();
    let h = p.histogram().unwrap();
    assert_eq!(h, p.histogram().unwrap());
    let n: u64 = h.iter().map(|x| x.1).sum();
    let s: u64 = h.iter().map(|x| x.0 * x.1).sum();
    assert_eq!(n, 100_000);
    assert!(h.last().unwrap().0 <= (s as f64).sqrt() as u64);
    assert_eq!(h[0].0, 2);
    let capped = PowerLaw::parse("n=1000,gamma=2.1,dmin=2,dmax=50")
        .unwrap()
        .histogram()
        .unwrap();
    assert!(capped.last().unwrap().0 <= 50);
}

/// The graph is a function of the plan and the seed: the same seed twice gives the same
/// bytes, another seed another graph, and the CSR holds exactly the edges that the
/// chunks' walks ([`for_each_pair`], the function the CUDA port mirrors) emit, each
/// both ways, in sorted rows: an oracle assembled edge by edge in a set.
#[test]
fn output_is_the_chunks_walks_and_depends_on_the_seed_only() {
    use std::collections::BTreeSet;
    let inputs = [
        Degrees::Histogram(vec![(1, 50), (2, 30), (4, 10), (9, 5), (20, 2)]),
        power_law(20_000, 2.1, 2),
        Degrees::Sequence(shuffled_sequence(5_000, 8)),
    ];
    for (k, d) in inputs.iter().enumerate() {
        for directed in [false, true] {
            let p = plan(d, directed, None);
            for seed in [1u64, 2] {
                let g = generate(&p, seed);
                assert!(
                    g == generate(&p, seed),
                    "case {k}: seed {seed} twice differs"
                );
                let mut want = BTreeSet::new();
                let (rows, cols) = (&p.rows, p.col_groups());
                for t in &p.tasks {
                    for c in 0..t.chunks() {
                        for_each_pair(&p, t, c, seed, |x, y| {
                            let (u, v) = (rows.vertex(x as u64), cols.vertex(y as u64));
                            assert!(want.insert((u, v)), "case {k}: ({u}, {v}) twice");
                            if !directed {
                                assert!(want.insert((v, u)), "case {k}: ({v}, {u}) twice");
                            }
                        });
                    }
                }
                let got: Vec<(u32, u32)> = (0..g.nrows())
                    .flat_map(|i| g.row(i).0.iter().map(move |&j| (i as u32, j)))
                    .collect();
                assert!(
                    got.windows(2).all(|w| w[0] < w[1]),
                    "case {k}: rows not sorted"
                );
                assert_eq!(
                    got,
                    want.into_iter().collect::<Vec<_>>(),
                    "case {k}, seed {seed}"
                );
            }
            let (a, b) = (generate(&p, 1), generate(&p, 2));
            assert_ne!(a.indices(), b.indices(), "case {k}: seeds 1 and 2 agree");
        }
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
fn real_degree_distributions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/real/degrees");
    if !dir.is_dir() {
        eprintln!("SKIP: {} is absent", dir.display());
        return;
    }
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    for path in names {
        let d = read_degrees(&path, false).unwrap();
        d.validate().unwrap();
        let p = plan(&d, false, None);
        let g1 = pool(1).install(|| generate(&p, 7));
        let g2 = pool(2).install(|| generate(&p, 7));
        assert!(g1 == g2, "{}: 1 and 2 threads differ", path.display());
        check_simple(&g1);
        assert!(g1.is_symmetric());
        let r = Report::new(&p, &g1);
        let k = r.rows.groups.len() as f64;
        eprintln!(
            "{}: n {} groups {} edges {} expected {:.0} z {:.2} max|z| {:.2} clamped {} KL(ideal||out) {:.2e}",
            path.file_name().unwrap().to_string_lossy(),
            p.n,
            k,
            r.edges,
            r.expected_edges,
            r.edges_z,
            r.rows.max_abs_z,
            r.clamped,
            r.rows.kl_ideal_out_log2
        );
        assert!(
            r.edges_z.abs() < 4.5,
            "{}: edges z {}",
            path.display(),
            r.edges_z
        );
        assert!(
            r.rows.max_abs_z < 4.5 + k.ln() / 4.0,
            "{}: max |z| {}",
            path.display(),
            r.rows.max_abs_z
        );
        // Coarsened, the edge count stays within sampling error of the same expectation.
        let pc = plan(&d, false, Some(Coarsen::new(0.1, 20.0).unwrap()));
        let gc = generate(&pc, 7);
        check_simple(&gc);
        let rc = Report::new(&pc, &gc);
        assert!(
            rc.edges_z.abs() < 4.5,
            "{} coarsened: z {}",
            path.display(),
            rc.edges_z
        );
    }
}

/// Every `work` call and every phase a hook saw.
#[derive(Default)]
struct Recorder {
    work: std::sync::Mutex<Vec<(u64, u64)>>,
    phases: std::sync::Mutex<Vec<String>>,
}

impl edgeblas::generate::Progress for Recorder {
    fn work(&self, done: u64, total: u64) {
        self.work.lock().unwrap().push((done, total));
    }
    fn phase(&self, name: &str) {
        self.phases.lock().unwrap().push(name.to_string());
    }
}

/// Checks the hook's contract: the same total every time, `done` strictly increasing
/// and ending at the total, and a bounded number of calls (per batch, not per edge).
fn check_progress(calls: &[(u64, u64)], total: u64) {
    assert!(!calls.is_empty(), "the hook was never called");
    assert!(
        calls.iter().all(|&(_, t)| t == total),
        "total changed: {calls:?}"
    );
    assert!(
        calls.windows(2).all(|w| w[0].0 < w[1].0),
        "progress not increasing: {calls:?}"
    );
    assert_eq!(
        calls.last().unwrap().0,
        total,
        "progress did not end at the total"
    );
    assert!(
        calls.len() as u64 <= total.max(1),
        "{} calls for {total} units",
        calls.len()
    );
}

/// The progress hook (item 9): monotone, ends at the total, batched, and the graph is the
/// same with and without it, for a histogram and for a shuffled sequence (the relabelling
/// path), at 1 and 4 threads.
#[test]
fn progress_hook_is_monotone_and_changes_nothing() {
    use edgeblas::generate::chung_lu::generate_with_progress;
    let inputs = [
        power_law(200_000, 2.1, 4),
        Degrees::Sequence(shuffled_sequence(50_000, 3)),
    ];
    for d in &inputs {
        let p = plan(d, false, None);
        let plain = pool(2).install(|| generate(&p, 9));
        for threads in [1, 4] {
            let rec = Recorder::default();
            let g = pool(threads).install(|| generate_with_progress(&p, 9, Some(&rec)));
            assert!(
                g == plain,
                "the hook changed the graph at {threads} threads"
            );
            let calls = rec.work.into_inner().unwrap();
            check_progress(&calls, 2 * p.chunks);
            // Batches of up to 256 chunks per lane and pass.
            assert!(
                calls.len() as u64 <= 2 * (p.chunks / 256 + threads as u64 + 1),
                "{} calls for {} chunks",
                calls.len(),
                p.chunks
            );
            let phases = rec.phases.into_inner().unwrap();
            // "count pass" only where vertices keep the user's numbering.
            assert!(phases.iter().filter(|x| *x == "count pass").count() <= 1);
            for want in ["walk", "prefix sum", "fill pass", "rows ordered"] {
                assert_eq!(
                    phases.iter().filter(|x| *x == want).count(),
                    1,
                    "{want} in {phases:?}"
                );
            }
        }
    }
    // A closure is a hook too.
    let p = plan(&power_law(10_000, 2.5, 2), false, None);
    let seen = std::sync::atomic::AtomicU64::new(0);
    let g = generate_with_progress(
        &p,
        1,
        Some(&|done: u64, total: u64| {
            assert!(done <= total);
            seen.fetch_max(done, std::sync::atomic::Ordering::Relaxed);
        }),
    );
    assert!(g == generate(&p, 1));
    assert_eq!(seen.into_inner(), 2 * p.chunks);
}

/// The distribution `edgeblas demo` embeds: it parses as the histogram of web-NotreDame's
/// undirected simple graph, and generates a proxy within sampling error.
#[test]
fn embedded_web_notredame_distribution() {
    use edgeblas::generate::chung_lu::WEB_NOTREDAME_DEGREES;
    assert!(WEB_NOTREDAME_DEGREES.starts_with("# web-NotreDame (SNAP)"));
    let d = parse_degrees("web-NotreDame", WEB_NOTREDAME_DEGREES.as_bytes(), false).unwrap();
    d.validate().unwrap();
    let Degrees::Histogram(h) = &d else {
        panic!("not a histogram: {d:?}")
    };
    assert_eq!(h.len(), 438);
    assert_eq!(h.first(), Some(&(1, 161_832)));
    assert_eq!(h.last(), Some(&(10_721, 1)));
    assert_eq!(d.vertices(), 325_729);
    assert_eq!(d.sum_out(), 2 * 1_090_108);
    let p = plan(&d, false, None);
    let r = Report::new(&p, &generate(&p, 1));
    assert!(r.clamped);
    assert!(r.edges_z.abs() < 6.0, "edges z {}", r.edges_z);
}

/// The embedded distribution is the one the script derives from the graph file.
#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
fn embedded_web_notredame_distribution_is_the_graphs() {
    use edgeblas::generate::chung_lu::WEB_NOTREDAME_DEGREES;
    let d = parse_degrees("web-NotreDame", WEB_NOTREDAME_DEGREES.as_bytes(), false).unwrap();
    let Degrees::Histogram(h) = &d else {
        panic!("not a histogram: {d:?}")
    };
    let graph = Path::new("../shared/data/real/web-NotreDame.txt.gz");
    let g = edgeblas::io::read_graph(graph, &Default::default())
        .unwrap()
        .into_undirected();
    // Degrees of the simple graph: self-loops do not count.
    let a = &g.adjacency;
    let mut counts = std::collections::BTreeMap::new();
    for i in 0..a.nrows() {
        let d = a.row(i).0.iter().filter(|&&j| j as usize != i).count() as u64;
        *counts.entry(d).or_insert(0u64) += 1;
    }
    let like: Vec<(u64, u64)> = counts.into_iter().collect();
    assert_eq!(&like, h, "the embedded histogram differs from the graph's");
}
