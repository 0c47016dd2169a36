//! The method of each product, chosen per call from its sizes: one decision table per
//! product, with every threshold in it once (the role SuiteSparse's `GB_AxB_meta` plays).
//! A choice changes the time a product takes, never its result.
//!
//! | product | the rule |
//! |---|---|
//! | push `u (+).(x) A` ([`push`]) | by the terms `f` against the output length `n`: sort below `n / 32`; Gustavson between; from `n / 4`, by columns, or a pull over a symmetric `A` once `f` reaches `nnz(A) / 4`; under MIN or MAX into a primitive number the scatter stands in for Gustavson and columns, with private slots per thread when `threads * n` is at most `4 f` and `nnz(A)` |
//! | `C<M> = A B` ([`mxm`]) | the smaller estimated work of saxpy and dot under a mask that is not complemented (a dot step twice a saxpy term, a transpose six a entry); otherwise saxpy, or dot for an output of at most 100 positions |

use super::SEQUENTIAL_WORK;
use super::mxm::{dot_cost, saxpy_cost, saxpy_cost_from_lengths, saxpy_rows_cost};
use crate::algebra::Scalar;
use crate::descriptor::MatrixMask;
use crate::matrix::Csr;

/// A push sorts its terms when they are fewer than the output length over this: a dense
/// accumulator's length would cost more than the sort.
pub(crate) const SORT_FILL: usize = 32;

/// A push sums by columns when its terms are at least the output length over this: the
/// result is then likely dense, and summed in place with nothing to merge.
pub(crate) const COLUMNS_FILL: usize = 4;

/// A push over a symmetric `A` pulls instead of summing by columns when its terms are at
/// least `nnz(A) / PULL_SHARE`: the pull reads every entry of `A` but only tests a bit
/// for most of them, where each pushed term is a scattered read-modify-write.
pub(crate) const PULL_SHARE: usize = 4;

/// A push reads its mask as presence words (one bit test a term instead of a binary
/// search) unless the mask is a sorted list and the terms are fewer than the output
/// length over this.
pub(crate) const MASK_WORDS_FILL: usize = 64;

/// What a transpose costs per entry of the transposed matrix, in saxpy terms (measured on
/// the road graph's triangle count, where it decides the method).
pub(crate) const TRANSPOSE_PER_ENTRY: u64 = 6;

/// A merge step of a dot product costs about this many saxpy terms (branchy, two
/// streams): measured on triangle counting and the masked square of Kronecker 18, where
/// the plain estimates favour dot and saxpy is 2x faster.
pub(crate) const DOT_STEP: u64 = 2;

/// An output of at most this many positions takes the dot method even unmasked.
pub(crate) const SMALL_OUTPUT: usize = 100;

/// How a push accumulates the terms of a chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PushMethod {
    /// Choose per call from the flops and the output length.
    Auto,
    /// Stable sort of the terms by output index, then a sum per run.
    Sort,
    /// A dense accumulator with generation stamps (Gustavson).
    Gustavson,
    /// The output cut into ranges of columns, each range summing every term that lands
    /// in it straight into the result's bitmap, in ascending `k` (no merge). The same
    /// bytes as a pull over the transpose, whatever the number of ranges or threads.
    Columns,
    /// A pull over the rows of `A'`: a dot product per output, in ascending `k`, in
    /// parallel by output. The same bytes as [`PushMethod::Columns`]. Chosen in place
    /// of it when `A` is known to be symmetric (so `A'` is `A`) and the product touches
    /// enough of `A`; forced on another matrix, it transposes `A` first.
    Pull,
    /// Under an order-free monoid (MIN, MAX) into a 4- or 8-byte primitive output:
    /// chunks of `u`'s entries, each thread combining its terms straight into the
    /// result's slots with compare-and-swap. The same bytes as the other methods; where
    /// the order of arrival could show (float ties of `0.0` and `-0.0`, NaN terms) the
    /// product is redone by the method chosen otherwise (by columns when forced).
    /// Forced on another semiring, it is [`PushMethod::Columns`]. Forced, the slots are
    /// shared by the threads; chosen, they are private when that pays (below).
    Scatter,
    /// [`PushMethod::Scatter`] with slots private to each thread, combined with plain
    /// loads and stores and merged output by output afterwards. Chosen in place of the
    /// shared slots when the product has at least a quarter as many terms as the private
    /// slots, and they take no more memory than `A`'s entries.
    ScatterPrivate,
}

/// What the push chooser reads of a product.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PushSize {
    /// The terms: the out-degrees of `u`'s entries (`nnz(A)` for a dense `u`).
    pub(crate) work: usize,
    /// The output length, `ncols(A)`.
    pub(crate) n: usize,
    /// `nnz(A)`.
    pub(crate) nnz: usize,
    /// `A` is known to be symmetric, so its rows are the rows of `A'`.
    pub(crate) symmetric: bool,
    /// The scatter can run: an order-free monoid into a primitive number.
    pub(crate) scatter: bool,
    /// The threads of the pool the product runs in.
    pub(crate) threads: usize,
}

/// What a push runs: `method`, and `otherwise` in its place when `method` is a scatter
/// that finds the order of its terms would show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PushChoice {
    pub(crate) method: PushMethod,
    pub(crate) otherwise: PushMethod,
}

impl PushChoice {
    fn only(method: PushMethod) -> PushChoice {
        PushChoice {
            method,
            otherwise: method,
        }
    }
}

/// The push's method for `z`: `forced` itself unless it is [`PushMethod::Auto`] (a
/// forced scatter that cannot run is the column push, its stand-in).
pub(crate) fn push(forced: PushMethod, z: &PushSize) -> PushChoice {
    use PushMethod::*;
    match forced {
        Scatter | ScatterPrivate if !z.scatter => PushChoice::only(Columns),
        Scatter | ScatterPrivate => PushChoice {
            method: forced,
            otherwise: Columns,
        },
        Auto => {
            if z.work.saturating_mul(SORT_FILL) < z.n {
                return PushChoice::only(Sort);
            }
            let big = z.work.saturating_mul(COLUMNS_FILL) >= z.n;
            if big && z.symmetric && z.work.saturating_mul(PULL_SHARE) >= z.nnz {
                return PushChoice::only(Pull);
            }
            let plain = if big { Columns } else { Gustavson };
            if !z.scatter {
                return PushChoice::only(plain);
            }
            let private = private_pays(z.n, z.work, z.threads, z.nnz);
            PushChoice {
                method: if private { ScatterPrivate } else { Scatter },
                otherwise: plain,
            }
        }
        m => PushChoice::only(m),
    }
}

/// Whether each thread should combine into slots of its own, merged afterwards, instead
/// of compare-and-swapping into shared ones: the private slots cost `threads * n` plain
/// writes to fill and reads to merge, which pays when the product has at least a quarter
/// as many terms (in the shared slots, a term is a locked instruction or a cache line
/// traded between cores), and their memory is bounded by `A`'s entries.
fn private_pays(n: usize, work: usize, threads: usize, nnz: usize) -> bool {
    threads > 1
        && work >= SEQUENTIAL_WORK
        && threads.saturating_mul(n) <= work.saturating_mul(4)
        && threads.saturating_mul(n) <= nnz
}

/// Whether a push reads its sorted-list mask as presence words (see [`MASK_WORDS_FILL`]).
pub(crate) fn push_mask_words(work: usize, n: usize) -> bool {
    work.saturating_mul(MASK_WORDS_FILL) >= n
}

/// How `C<M> = A B` is computed: [`crate::ops::mxm`] chooses per call; forced, every method gives
/// the same result, byte for byte (as SuiteSparse's `GxB_AxB_METHOD` setting forces one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MxmMethod {
    /// Chosen per call by the estimated work (what `ops::mxm` does).
    Auto,
    /// Gustavson saxpy over the rows of `B`.
    Saxpy,
    /// Dot products over the rows of `B'`.
    Dot,
}

/// The method `C<M> = A B` runs: the one with less estimated work. `b` is as given, so
/// `b_is_bt` says that its rows are the rows of `B'`.
pub(crate) fn mxm<A: Scalar, B: Scalar>(
    a: &Csr<A>,
    b: &Csr<B>,
    mask: Option<&MatrixMask>,
    b_is_bt: bool,
) -> MxmMethod {
    let ncols = if b_is_bt { b.nrows() } else { b.ncols() };
    match mask {
        Some(m) if !m.is_complemented() => {
            // A transpose writes every entry of B once, at a random place, into fresh
            // memory.
            let transpose = TRANSPOSE_PER_ENTRY * b.nvals() as u64;
            // The method that needs no transpose wins outright when its whole estimate is
            // below the other's transpose, and then the other's estimate, itself a pass
            // over B, is never made: a product with a small A (a frontier of a few rows)
            // must not cost O(nvals(B)) to plan.
            let (dot, saxpy) = if b_is_bt {
                let dot = DOT_STEP * dot_cost(|i| a.degree(i), |j| b.degree(j) as u64, m);
                // Saxpy costs at least the transpose and the fixed cost of its rows.
                if dot <= transpose + saxpy_rows_cost(a, m) {
                    return MxmMethod::Dot;
                }
                // Saxpy over B's rows: B' transposed back, with the row lengths of B'.
                let mut b_len = vec![0u64; b.ncols()];
                b.indices().iter().for_each(|&k| b_len[k as usize] += 1);
                (dot, transpose + saxpy_cost_from_lengths(a, &b_len, m))
            } else {
                let saxpy = saxpy_cost(a, b, Some(m));
                if saxpy <= transpose {
                    return MxmMethod::Saxpy;
                }
                // The row lengths of B' are B's column counts.
                let mut bt_len = vec![0u64; b.ncols()];
                b.indices().iter().for_each(|&j| bt_len[j as usize] += 1);
                (
                    transpose + DOT_STEP * dot_cost(|i| a.degree(i), |j| bt_len[j], m),
                    saxpy,
                )
            };
            if dot < saxpy {
                MxmMethod::Dot
            } else {
                MxmMethod::Saxpy
            }
        }
        _ if a.nrows() * ncols <= SMALL_OUTPUT => MxmMethod::Dot,
        _ => MxmMethod::Saxpy,
    }
}
