//! The random numbers of Chung-Lu generation: a PCG stream per (seed, task, chunk) from
//! the `rand_pcg` crate, the uniform-to-double map and a logarithm built from IEEE basic
//! operations only, so that a CUDA kernel reproduces every draw bit for bit.
//!
//! # The stream
//! The generator is `rand_pcg::Pcg64` (PCG XSL RR 128/64, M. E. O'Neill, "PCG: A family of
//! simple fast space-efficient statistically good algorithms for random number
//! generation", HMC-CS-2014-0905): a 128-bit LCG `s <- s a + c` with PCG's default
//! multiplier `a`, and the output `rotr64(hi(s) ^ lo(s), s >> 122)`. A chunk's stream is
//! selected by PCG's own mechanism, the increment, and started from a hashed state:
//! ```text
//! key   = stream_key(seed, task, chunk)                        (SplitMix64 hash, below)
//! state = key * 2^64 + mix(key + GOLDEN)
//! Pcg64::new(state, stream = task * 2^64 + chunk)             (increment 2 stream + 1)
//! ```
//! The increment gives every (task, chunk) its own LCG sequence (`task < 2^63`, which any
//! plan meets). The hashed state matters: with one state for all streams (the seed), the
//! low 64 bits of the state evolve independently of the high ones and are then equal for
//! every task's chunk 0, and the first draws of consecutive tasks form a Weyl sequence;
//! a power law with millions of one-chunk tasks made 1.3% too many edges that way (45
//! standard deviations). The state is 128 bits of integer adds and multiplies: on a GPU
//! that is two 64-bit halves and `__umul64hi` (`csrc/chung_lu.cuh`'s `eb_pcg_*`).
//!
//! # Uniforms
//! `r = ((x >> 11) + 1) * 2^-53`: one of the 2^53 doubles `k / 2^53`, `k = 1..=2^53`, in
//! `(0, 1]`, exact (no rounding), never 0, so `ln r` is finite.
//!
//! # The logarithm
//! Edge skipping takes `floor(ln r * (1 / ln(1 - p)))`. `ln` from a C library is not
//! reproducible across platforms (glibc's is correctly rounded in practice, CUDA's `log` is
//! within 1 ulp and may differ), so [`ln_unit`] computes it from correctly rounded IEEE
//! operations only (`+ - * /`, exponent extraction by bit manipulation), in a fixed order:
//! fdlibm's `__ieee754_log` reduction and polynomial (Sun Microsystems, 1993). Its error is
//! below 1 ulp, and, what matters here, every platform that evaluates the same operations
//! in the same order gets the same bits. A CUDA port must not let the compiler fuse
//! `a * b + c` into an FMA (which rounds once instead of twice): build the kernel's copy
//! with `-fmad=false` or write it with `__dmul_rn` / `__dadd_rn`. Rust never contracts
//! floating-point expressions, so the CPU side is already exact.
//!
//! The per-task constant `1 / ln(1 - p)` is computed once, on the host, by the plan
//! (`f64::ln_1p`); a GPU port receives it with the plan, so it needs no portable `log1p`.
//!
//! # Hashes
//! [`mix`] (SplitMix64's finaliser, Steele, Lea and Flood, OOPSLA 2014) and [`stream_key`]
//! are hashes, not streams: they pick a stream's starting state, and the command line uses
//! them as seeded hashes (edge weights of the demo, random sources).

use rand_pcg::Pcg64;
use rand_pcg::rand_core::Rng;

/// SplitMix64's increment (the golden ratio times 2^64, odd).
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
/// The first multiplier of the SplitMix64 finaliser.
pub const M1: u64 = 0xBF58_476D_1CE4_E5B9;
/// The second multiplier of the SplitMix64 finaliser.
pub const M2: u64 = 0x94D0_49BB_1331_11EB;
/// Mixed into the seed before the task, so that seed 0 and task 0 do not cancel.
pub const K0: u64 = 0x243F_6A88_85A3_08D3;
/// Mixed in with the chunk.
pub const K1: u64 = 0x1319_8A2E_0370_7344;

/// SplitMix64's finaliser: a bijection of u64 with good avalanche (a hash, see the
/// module docs).
#[inline(always)]
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(M1);
    z = (z ^ (z >> 27)).wrapping_mul(M2);
    z ^ (z >> 31)
}

/// A seeded hash of `(seed, task, chunk)` (see the module docs).
#[inline]
pub fn stream_key(seed: u64, task: u64, chunk: u64) -> u64 {
    mix(mix(mix(seed ^ K0) ^ task) ^ chunk ^ K1)
}

/// The starting state of a stream: `key * 2^64 + mix(key + GOLDEN)`, `key =
/// stream_key(seed, task, chunk)`.
#[inline]
pub fn start_state(seed: u64, task: u64, chunk: u64) -> u128 {
    let key = stream_key(seed, task, chunk);
    ((key as u128) << 64) | mix(key.wrapping_add(GOLDEN)) as u128
}

/// The PCG stream of one chunk (see the module docs).
#[derive(Clone, Debug)]
pub struct Stream {
    pcg: Pcg64,
}

impl Stream {
    /// The stream of chunk `chunk` of task `task` under `seed`: `Pcg64::new(state,
    /// task * 2^64 + chunk)` from the hashed state of the module docs.
    #[inline]
    pub fn new(seed: u64, task: u64, chunk: u64) -> Self {
        Stream {
            pcg: Pcg64::new(
                start_state(seed, task, chunk),
                ((task as u128) << 64) | chunk as u128,
            ),
        }
    }

    /// The next 64 random bits.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.pcg.next_u64()
    }

    /// The next uniform double in `(0, 1]` ([`unit()`] of the next draw).
    #[inline(always)]
    pub fn next_unit(&mut self) -> f64 {
        unit(self.next_u64())
    }
}

/// `((x >> 11) + 1) * 2^-53`: a uniform double in `(0, 1]`, exactly.
#[inline(always)]
pub fn unit(x: u64) -> f64 {
    ((x >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64)
}

// fdlibm's constants, as written in e_log.c (decimal, each the exact double whose bits
// the test `constants_are_fdlibms` pins).
#[allow(clippy::excessive_precision)]
const LN2_HI: f64 = 6.931_471_803_691_238_164_90e-01; // 0x3FE62E42_FEE00000
#[allow(clippy::excessive_precision)]
const LN2_LO: f64 = 1.908_214_929_270_587_700_02e-10; // 0x3DEA39EF_35793C76
#[allow(clippy::excessive_precision)]
const LG1: f64 = 6.666_666_666_666_735_130e-01;
#[allow(clippy::excessive_precision)]
const LG2: f64 = 3.999_999_999_940_941_908e-01;
#[allow(clippy::excessive_precision)]
const LG3: f64 = 2.857_142_874_366_239_149e-01;
#[allow(clippy::excessive_precision)]
const LG4: f64 = 2.222_219_843_214_978_396e-01;
#[allow(clippy::excessive_precision)]
const LG5: f64 = 1.818_357_216_161_805_012e-01;
#[allow(clippy::excessive_precision)]
const LG6: f64 = 1.531_383_769_920_937_332e-01;
#[allow(clippy::excessive_precision)]
const LG7: f64 = 1.479_819_860_511_658_591e-01;

/// `ln x` for a normal, positive, finite `x` (every output of [`unit()`] is one), from IEEE
/// basic operations in a fixed order: fdlibm's `__ieee754_log`. Bit-reproducible on any
/// IEEE-754 platform that does not contract to FMA (see the module docs).
///
/// ```
/// use edgeblas::generate::chung_lu::rng::ln_unit;
/// assert_eq!(ln_unit(1.0), 0.0);
/// assert!((ln_unit(0.5) - 0.5f64.ln()).abs() < 1e-16);
/// ```
#[inline(always)]
pub fn ln_unit(x: f64) -> f64 {
    let bits = x.to_bits();
    let mut k = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut hx = bits & 0x000f_ffff_ffff_ffff;
    // Normalise the mantissa m into [sqrt(2)/2, sqrt(2)): the threshold is fdlibm's
    // (hx + 0x95f64) & 0x100000 test on the high word.
    let i = (hx + (0x95f64u64 << 32)) & (0x0010_0000u64 << 32);
    hx |= i ^ (0x3ff0_0000u64 << 32);
    k += (i >> 52) as i64;
    let m = f64::from_bits(hx);
    let f = m - 1.0;
    let dk = k as f64;
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (LG2 + w * (LG4 + w * LG6));
    let t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    let r = t2 + t1;
    let hfsq = 0.5 * f * f;
    dk * LN2_HI - ((hfsq - (s * (hfsq + r) + dk * LN2_LO)) - f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_matches_std_within_an_ulp() {
        let mut s = Stream::new(7, 0, 0);
        let mut worst = 0.0f64;
        for _ in 0..2_000_000 {
            let x = s.next_unit();
            let (a, b) = (ln_unit(x), x.ln());
            let ulp = if b == 0.0 {
                f64::MIN_POSITIVE
            } else {
                (f64::from_bits(b.abs().to_bits() + 1) - b.abs()).abs()
            };
            worst = worst.max((a - b).abs() / ulp);
        }
        for k in [1u64, 2, 3, 1 << 20, (1 << 53) - 1, 1 << 53] {
            let x = k as f64 / (1u64 << 53) as f64;
            assert!((ln_unit(x) - x.ln()).abs() <= 2.0 * f64::EPSILON * x.ln().abs().max(1e-300));
        }
        assert!(worst <= 1.0, "worst error {worst} ulp");
        assert_eq!(ln_unit(1.0), 0.0);
    }

    #[test]
    fn constants_are_fdlibms() {
        let bits = [
            (LN2_HI, 0x3FE6_2E42_FEE0_0000u64),
            (LN2_LO, 0x3DEA_39EF_3579_3C76),
            (LG1, 0x3FE5_5555_5555_5593),
            (LG2, 0x3FD9_9999_9997_FA04),
            (LG3, 0x3FD2_4924_9422_9359),
            (LG4, 0x3FCC_71C5_1D8E_78AF),
            (LG5, 0x3FC7_4664_96CB_03DE),
            (LG6, 0x3FC3_9A09_D078_C69F),
            (LG7, 0x3FC2_F112_DF3E_5244),
        ];
        for (k, (x, b)) in bits.iter().enumerate() {
            assert_eq!(x.to_bits(), *b, "constant {k}");
        }
    }

    #[test]
    fn unit_is_in_half_open_interval() {
        assert_eq!(unit(u64::MAX), 1.0);
        assert_eq!(unit(0), 1.0 / (1u64 << 53) as f64);
    }

    #[test]
    fn the_stream_is_pcg64_with_its_stream_selection() {
        // PCG XSL RR 128/64 written out with the published constants: the crate's
        // generator is the one the CUDA port implements.
        const A: u128 = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645;
        for (seed, task, chunk) in [(0u64, 0u64, 0u64), (1, 2, 3), (u64::MAX, 1 << 40, 77)] {
            let inc = (((task as u128) << 64 | chunk as u128) << 1) | 1;
            let state = start_state(seed, task, chunk);
            let mut st = state.wrapping_add(inc).wrapping_mul(A).wrapping_add(inc);
            let mut s = Stream::new(seed, task, chunk);
            for _ in 0..10 {
                st = st.wrapping_mul(A).wrapping_add(inc);
                let x = ((st >> 64) as u64 ^ st as u64).rotate_right((st >> 122) as u32);
                assert_eq!(s.next_u64(), x);
            }
        }
    }

    #[test]
    fn neighbouring_streams_are_uncorrelated() {
        // Same seed, consecutive chunks and tasks: the k-th uniforms of neighbouring
        // streams have correlation within sampling error of 0 (|r| < 5 / sqrt(N)).
        let n = 200_000u64;
        for k in [0usize, 1, 7] {
            for (dt, dc) in [(0u64, 1u64), (1, 0)] {
                let (mut sx, mut sy, mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0, 0.0, 0.0);
                for c in 0..n {
                    let mut a = Stream::new(5, 3, c);
                    let mut b = Stream::new(5, 3 + dt, c + dc);
                    let (mut x, mut y) = (0.0, 0.0);
                    for _ in 0..=k {
                        x = a.next_unit();
                        y = b.next_unit();
                    }
                    sx += x;
                    sy += y;
                    sxy += x * y;
                    sxx += x * x;
                    syy += y * y;
                }
                let nf = n as f64;
                let cov = sxy / nf - sx / nf * sy / nf;
                let r =
                    cov / ((sxx / nf - (sx / nf).powi(2)) * (syy / nf - (sy / nf).powi(2))).sqrt();
                assert!(
                    r.abs() < 5.0 / nf.sqrt(),
                    "draw {k}, step ({dt}, {dc}): r = {r}"
                );
            }
        }
    }
}
