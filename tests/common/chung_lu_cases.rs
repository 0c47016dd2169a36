//! Chung-Lu distributions both CUDA test files generate: a backend's graph must equal
//! the CPU generator's byte for byte under every schedule (power laws, the embedded real
//! distribution, shuffled and non-increasing sequences, coarsening, directed input,
//! clamped probabilities).
//!
//! Included as `#[path = "common/chung_lu_cases.rs"] mod chung_lu_cases;`.

#![allow(dead_code)]

use edgeblas::cuda::Schedule;
use edgeblas::generate::chung_lu::{
    self, Coarsen, Degrees, Plan, PlanOptions, PowerLaw, WEB_NOTREDAME_DEGREES, parse_degrees,
};
use edgeblas::matrix::Csr;

/// A backend's generator.
pub type GenFn<'a> = &'a dyn Fn(&Plan, u64, Schedule) -> edgeblas::Result<Csr<()>>;

/// A power-law histogram (`dmax` from the model).
pub fn power_law(n: u64, gamma: f64, dmin: u64) -> Degrees {
    Degrees::Histogram(
        PowerLaw {
            n,
            gamma,
            dmin,
            dmax: None,
        }
        .histogram()
        .unwrap(),
    )
}

/// A shuffled degree sequence (seeded), so that groups are not contiguous.
pub fn shuffled_sequence(n: usize, seed: u64) -> Vec<u64> {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..n)
        .map(|_| {
            let r = (next() >> 11) as f64 / (1u64 << 53) as f64;
            ((2.0 * (1.0 - r).powf(-1.0 / 1.3)).floor() as u64).min(n as u64 / 4)
        })
        .collect()
}

/// The cases: (name, degrees, directed, coarsening).
pub fn cases(scale: u64) -> Vec<(String, Degrees, bool, Option<Coarsen>)> {
    let seq = shuffled_sequence(20_000 * scale as usize, 5);
    let mut down = seq.clone();
    down.sort_unstable_by(|a, b| b.cmp(a));
    let real = parse_degrees("web-NotreDame", WEB_NOTREDAME_DEGREES.as_bytes(), false).unwrap();
    vec![
        (
            "power law 2.1 dmin 2".into(),
            power_law(40_000 * scale, 2.1, 2),
            false,
            None,
        ),
        ("web-NotreDame".into(), real.clone(), false, None),
        (
            "web-NotreDame coarsened".into(),
            real,
            false,
            Some(Coarsen::new(0.1, 16.0).unwrap()),
        ),
        (
            "shuffled sequence".into(),
            Degrees::Sequence(seq.clone()),
            false,
            None,
        ),
        (
            "non-increasing sequence".into(),
            Degrees::Sequence(down),
            false,
            None,
        ),
        (
            "power law 2.5 coarsened".into(),
            power_law(40_000 * scale, 2.5, 1),
            false,
            Some(Coarsen::new(0.2, 8.0).unwrap()),
        ),
        (
            "directed sequence".into(),
            Degrees::Sequence(seq),
            true,
            None,
        ),
        (
            "directed out/in".into(),
            Degrees::Directed {
                out: (0..5000u64).map(|i| i % 37).collect(),
                inn: (0..5000u64).map(|i| (i * 7) % 41).collect(),
            },
            true,
            None,
        ),
        (
            "clamped probabilities".into(),
            Degrees::Histogram(vec![(2, 1000), (300, 2)]),
            false,
            None,
        ),
    ]
}

/// Every case, two seeds, every schedule: the backend's CSR equals the CPU's.
pub fn same_graphs(scale: u64, run: GenFn<'_>) {
    for (name, d, directed, coarsen) in cases(scale) {
        let plan = Plan::new(&d, &PlanOptions { coarsen, directed }).unwrap();
        for seed in [1u64, 7] {
            let want = chung_lu::generate(&plan, seed);
            for s in [Schedule::Uniform, Schedule::Balanced, Schedule::Dynamic] {
                let got = run(&plan, seed, s).unwrap();
                assert_eq!(
                    got.offsets(),
                    want.offsets(),
                    "{name}, seed {seed}, {s:?}: offsets"
                );
                assert_eq!(
                    got.indices(),
                    want.indices(),
                    "{name}, seed {seed}, {s:?}: indices"
                );
            }
        }
    }
}
