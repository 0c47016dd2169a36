//! The algebra: scalars, binary operators, monoids (with an optional terminal value) and
//! semirings (an additive monoid plus a multiply), as in SuiteSparse:GraphBLAS.
//!
//! A product `A (+).(x) u` computes, for every output index, the monoid sum of the
//! products of the entries that meet at an inner index `k`. Every operation of this
//! crate sums the terms of one output entry in ascending order of `k`, so results are
//! deterministic even for monoids that are not commutative (such as [`builtin::Any`],
//! which keeps its first operand).

pub mod builtin;

use std::fmt::Debug;

pub use builtin::*;

/// Vertex and column index type: graphs have at most 2^32 vertices.
pub type Index = u32;

/// A list of indices, the `I` and `J` of extract and assign (GrB_ALL, a range as
/// GxB_RANGE, or an explicit array).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Indices<'a> {
    /// Every index of the dimension, in order: GrB_ALL.
    All,
    /// The indices `start..end`, in order.
    Range(Index, Index),
    /// Exactly these, in this order. Extraction allows repeats; assignment does not.
    List(&'a [Index]),
}

impl Indices<'_> {
    /// How many indices this selects from a dimension of `n`.
    pub fn count(&self, n: usize) -> usize {
        match self {
            Indices::All => n,
            Indices::Range(lo, hi) => hi.saturating_sub(*lo) as usize,
            Indices::List(l) => l.len(),
        }
    }

    /// Checks every selected index against a dimension of `n` (a range's end may be
    /// `n`).
    ///
    /// # Panics
    /// If an index is out of bounds; `what` names the operand.
    pub(crate) fn check(&self, n: usize, what: &str) {
        match *self {
            Indices::All => {}
            Indices::Range(lo, hi) => assert!(
                lo <= hi && hi as usize <= n,
                "{what}: range {lo}..{hi} out of bounds for dimension {n}"
            ),
            Indices::List(l) => {
                // The largest index first: a loop with no exit, which compiles to SIMD
                // (a search that stops at the first bad index does not), so the check
                // of a list of every vertex costs a fraction of the operation it guards.
                if l.iter().copied().max().is_some_and(|m| m as usize >= n) {
                    let bad = l.iter().find(|&&i| i as usize >= n).expect("the largest");
                    panic!("{what}: index {bad} out of bounds for dimension {n}");
                }
            }
        }
    }

    /// The selected indices as a list, after [`check`](Self::check)ing them.
    ///
    /// # Panics
    /// If an index is out of bounds.
    pub(crate) fn resolve(&self, n: usize, what: &str) -> std::borrow::Cow<'_, [Index]> {
        self.check(n, what);
        match *self {
            Indices::All => (0..n as Index).collect(),
            Indices::Range(lo, hi) => (lo..hi).collect(),
            Indices::List(l) => std::borrow::Cow::Borrowed(l),
        }
    }
}

/// A value that can live in a matrix or a vector: plain data, cheap to copy.
///
/// `()` is a scalar: a `Csr<()>` is a pattern-only graph that stores no values at all.
pub trait Scalar: Copy + Send + Sync + PartialEq + Default + Debug + 'static {}
impl<T: Copy + Send + Sync + PartialEq + Default + Debug + 'static> Scalar for T {}

/// A value that can be read as a Boolean: what a valued mask tests, and what `OrAnd`
/// multiplies. Numbers are true when non-zero; `()` (a stored pattern entry) is true.
pub trait Truthy {
    /// `true` when the value counts as present in a valued mask.
    fn truthy(&self) -> bool;
}

impl Truthy for bool {
    #[inline]
    fn truthy(&self) -> bool {
        *self
    }
}

impl Truthy for () {
    #[inline]
    fn truthy(&self) -> bool {
        true
    }
}

macro_rules! truthy_num {
    ($($t:ty),*) => {$(
        impl Truthy for $t {
            #[inline]
            fn truthy(&self) -> bool {
                *self != (0 as $t)
            }
        }
    )*};
}
truthy_num!(i8, i16, i32, i64, u8, u16, u32, u64, usize, isize, f32, f64);

/// A binary operator `z = f(x, y)`: the multiply of a semiring, an accumulator, or the
/// operator of an element-wise operation.
pub trait BinaryOp<X, Y>: Send + Sync {
    /// The result type.
    type Output;
    /// Applies the operator.
    fn apply(&self, x: X, y: Y) -> Self::Output;

    /// Which built-in operator this is, as the device kernels number them
    /// ([`op_code`]); 0 for any other (a closure, a user's type), which the CUDA
    /// backend refuses with a clear error. Not for implementing.
    #[doc(hidden)]
    #[inline]
    fn op_code(&self) -> u32 {
        0
    }

    /// `acc[i] = op(acc[i], ys[i])` over two slices of one length (the accumulator's
    /// loop). Through `dyn BinaryOp` this is one dynamic call per slice, and the loop
    /// inside is compiled for the concrete operator, so accumulating a dense vector
    /// costs what a hand-written loop does. Implementations need not override it.
    fn accumulate_slice(&self, acc: &mut [X], ys: &[Y])
    where
        X: Copy,
        Y: Copy,
        Self::Output: Into<X>,
    {
        debug_assert_eq!(acc.len(), ys.len());
        for (a, &y) in acc.iter_mut().zip(ys) {
            *a = self.apply(*a, y).into();
        }
    }
}

/// The numbers of the built-in binary operators on the device (csrc/abi.h's `EB_OP_*`),
/// as [`BinaryOp::op_code`] returns them.
#[doc(hidden)]
pub mod op_code {
    /// Not a built-in operator (or no accumulator).
    pub const NONE: u32 = 0;
    /// [`super::First`].
    pub const FIRST: u32 = 1;
    /// [`super::Second`].
    pub const SECOND: u32 = 2;
    /// [`super::Plus`].
    pub const PLUS: u32 = 3;
    /// [`super::Times`].
    pub const TIMES: u32 = 4;
    /// [`super::Min`].
    pub const MIN: u32 = 5;
    /// [`super::Max`].
    pub const MAX: u32 = 6;
    /// [`super::Minus`].
    pub const MINUS: u32 = 7;
    /// [`super::Rminus`].
    pub const RMINUS: u32 = 8;
    /// [`super::Div`].
    pub const DIV: u32 = 9;
    /// [`super::Rdiv`].
    pub const RDIV: u32 = 10;
    /// [`super::Any`].
    pub const ANY: u32 = 11;
    /// [`super::Lor`].
    pub const LOR: u32 = 12;
    /// [`super::Land`].
    pub const LAND: u32 = 13;
    /// [`super::Lxor`].
    pub const LXOR: u32 = 14;
    /// [`super::Pair`].
    pub const PAIR: u32 = 15;
}

/// Every closure or function `Fn(X, Y) -> Z` is a binary operator, so a closure serves
/// as an accumulator (`Some(&|a: f64, b: f64| a.min(b))`), as the operator of an
/// element-wise operation, or as the multiply of a [`Compose`] semiring.
///
/// This does not clash with the built-in operators: `Fn` is a fundamental trait, so the
/// compiler knows that no type of this crate implements it unless the crate says so.
///
/// ```
/// use edgeblas::algebra::{BinaryOp, Compose, Min, Monoid, Semiring};
/// let absdiff = |x: f64, y: f64| (x - y).abs();
/// assert_eq!(absdiff.apply(1.0, 3.0), 2.0);
/// // MIN.(x * y + 1) over f64: a semiring from a monoid and a closure.
/// let s = Compose(Min::<f64>::new(), |a: f64, u: f64| a * u + 1.0);
/// assert_eq!(s.multiply(2.0, 3.0, 0), 7.0);
/// assert_eq!(s.add().combine(7.0, 4.0), 4.0);
/// ```
impl<X, Y, Z, F> BinaryOp<X, Y> for F
where
    F: Fn(X, Y) -> Z + Send + Sync,
{
    type Output = Z;
    #[inline]
    fn apply(&self, x: X, y: Y) -> Z {
        self(x, y)
    }
}

/// `y -> op(x, y)`: a binary operator with its first operand bound, for `apply`
/// (GrB_apply_BinaryOp1st).
pub fn bind_first<X: Copy + Sync, Y, Z>(
    op: impl BinaryOp<X, Y, Output = Z>,
    x: X,
) -> impl Fn(Y) -> Z + Sync {
    move |y| op.apply(x, y)
}

/// `x -> op(x, y)`: a binary operator with its second operand bound, for `apply`
/// (GrB_apply_BinaryOp2nd).
pub fn bind_second<X, Y: Copy + Sync, Z>(
    op: impl BinaryOp<X, Y, Output = Z>,
    y: Y,
) -> impl Fn(X) -> Z + Sync {
    move |x| op.apply(x, y)
}

/// The accumulator argument of every operation: `None` overwrites, `Some(op)` combines
/// the old value with the new one, `z = op(old, new)`, where both are present.
pub type Accum<'a, Z> = Option<&'a dyn BinaryOp<Z, Z, Output = Z>>;

/// A monoid: an associative operator with an identity and, optionally, a terminal
/// (annihilating) value `t` with `t (+) x = t` for every `x`.
///
/// A reduction may stop as soon as its running value is terminal: that is the early exit
/// of bottom-up BFS, and it comes from here, not from special cases in the algorithms.
pub trait Monoid<T>: Copy + Send + Sync {
    /// The identity `e`: `e (+) x = x (+) e = x`.
    fn identity(&self) -> T;
    /// Combines two values.
    fn combine(&self, a: T, b: T) -> T;
    /// The terminal value, if the monoid has one.
    fn terminal(&self) -> Option<T> {
        None
    }
    /// Whether `x` is terminal: no further term can change a sum that has reached it.
    /// The default compares with [`Monoid::terminal`]; [`builtin::Any`] says yes to all.
    #[inline]
    fn is_terminal(&self, x: &T) -> bool
    where
        T: PartialEq,
    {
        match self.terminal() {
            Some(t) => t == *x,
            None => false,
        }
    }
    /// Whether a sum is the same whatever the order and grouping of its terms, to the
    /// bit (MIN, MAX, LOR, LAND; for floats, up to NaN payloads, and up to ties of `0.0`
    /// and `-0.0` in a monoid of a user's that keeps the first of equal values -- the
    /// built-in MIN and MAX keep `-0.0` in any order -- which a kernel that combines in
    /// any order must watch for): then threads may combine
    /// terms into one place in any order ([`crate::ops::vxm_accumulate`] does). `false`
    /// by default, and for float PLUS (rounding depends on the order) and ANY (which
    /// keeps the first term).
    #[inline]
    fn order_free(&self) -> bool {
        false
    }
}

/// A semiring over a matrix entry type `A` and a vector entry type `U`: an additive
/// monoid over `Output` and a multiply `a (x) u` of a matrix entry and a vector entry
/// that meet at inner index `k`.
///
/// The multiply always takes the matrix entry first, in `vxm` as in `mxv`. Positional
/// semirings ([`builtin::MinSecondI`], [`builtin::AnySecondI`]) return `k`: the index of
/// the vector entry, which in BFS is the frontier vertex, i.e. the parent.
pub trait Semiring<A, U>: Copy + Send + Sync {
    /// The type of a product and of a sum.
    type Output: Scalar;
    /// The additive monoid.
    type Add: Monoid<Self::Output>;
    /// The additive monoid.
    fn add(&self) -> Self::Add;
    /// The product of matrix entry `a` and vector entry `u` meeting at inner index `k`.
    fn multiply(&self, a: A, u: U, k: Index) -> Self::Output;
    /// `true` when, over terms taken in ascending `k`, the sum always equals the first
    /// term (a MIN of products that grow with `k`): a pull row, whose entries are sorted,
    /// may then stop at its first term. That is how `MinSecondI` gets the early exit of
    /// an ANY monoid while still choosing the smallest parent.
    const FIRST_TERM_IS_SUM: bool = false;
}

/// A semiring made from any monoid and any binary operator: the few-lines way to
/// define one. The operator receives the matrix entry first.
///
/// ```
/// use edgeblas::algebra::{Compose, Max, Plus, Semiring, Monoid};
/// // MAX.PLUS over i64, built from parts.
/// let s = Compose(Max::<i64>::new(), Plus::<i64>::new());
/// assert_eq!(s.multiply(2, 3, 0), 5);
/// assert_eq!(s.add().combine(5, 7), 7);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Compose<M, Op>(pub M, pub Op);

impl<A, U, Z, M, Op> Semiring<A, U> for Compose<M, Op>
where
    Z: Scalar,
    M: Monoid<Z>,
    Op: BinaryOp<A, U, Output = Z> + Copy,
{
    type Output = Z;
    type Add = M;
    #[inline]
    fn add(&self) -> M {
        self.0
    }
    #[inline]
    fn multiply(&self, a: A, u: U, _k: Index) -> Z {
        self.1.apply(a, u)
    }
}
