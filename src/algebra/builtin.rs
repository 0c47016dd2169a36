//! The built-in operators, monoids and semirings, named add-then-multiply.
//!
//! | semiring | add (identity, terminal) | multiply | types |
//! |---|---|---|---|
//! | [`OrAnd`] | OR (false, true) | AND | any [`Truthy`] matrix, `bool` vector |
//! | [`AnyPair`] | ANY (true, every value) | PAIR (= true) | any |
//! | [`MinPlus`] | MIN (+inf, -inf) | PLUS (inf + x = inf) | f32 f64 i32 i64 u32 u64 |
//! | [`MaxPlus`] | MAX (-inf, +inf) | PLUS (-inf + x = -inf) | same |
//! | [`PlusTimes`] | PLUS (0, none) | TIMES | same (integers wrap) |
//! | [`MaxTimes`] | MAX (-inf, +inf) | TIMES | same |
//! | [`MinMax`] | MIN (+inf, -inf) | MAX | same |
//! | [`MinSecondI`] | MIN over u32 (MAX, 0) | k (the vector entry's index) | any |
//! | [`AnySecondI`] | ANY over u32 (keeps the first) | k | any |
//! | [`PlusPair`] | PLUS (0, none) | PAIR (= 1) | any operands (patterns), numeric output |
//! | [`PlusFirst`] | PLUS (0, none) | FIRST (the left entry) | numeric left, any right |
//! | [`PlusSecond`] | PLUS (0, none) | SECOND (the right entry) | any left (patterns), numeric right |
//! | [`MinFirst`] | MIN (+inf, -inf) | FIRST | numeric left, any right |
//! | [`MinSecond`] | MIN (+inf, -inf) | SECOND | any left, numeric right |
//! | [`MaxFirst`] | MAX (-inf, +inf) | FIRST | numeric left, any right |
//! | [`MaxSecond`] | MAX (-inf, +inf) | SECOND | any left, numeric right |
//! | [`LorLand`] | another name for [`OrAnd`] | | |
//!
//! The binary operators: [`First`], [`Second`], [`Pair`], [`Any`], [`Min`], [`Max`],
//! [`Plus`], [`Minus`], [`Rminus`], [`Times`], [`Div`], [`Rdiv`], [`EqOp`], [`NeOp`], [`LtOp`],
//! [`LeOp`], [`GtOp`], [`GeOp`], [`Lor`], [`Land`], [`Lxor`]; the monoids among them carry
//! their identity and terminal value.
//!
//! For integers, "inf" is the type's largest value and "-inf" its smallest.
//!
//! Every one of them is built the same way, `X::new()` (`MinPlus::new()`,
//! `OrAnd::new()`, `Min::new()`), a `const fn` giving a zero-sized value; the type
//! parameter of the arithmetic ones is inferred from the operands. `Default` gives the
//! same value.

use std::marker::PhantomData;

use num_traits::{Bounded, One, Zero};

use super::{BinaryOp, Index, Monoid, Scalar, Semiring, Truthy};

/// The numeric types the arithmetic semirings are defined over.
///
/// Its bounds are num-traits' [`Zero`], [`One`] and [`Bounded`] (which bring `+` and
/// `*`), and every item has a default built on them: a type of your own that already
/// implements those traits needs one empty line, `impl Number for MyType {}`, to get
/// every built-in arithmetic operator, monoid and semiring ([`Min`], [`Plus`],
/// [`MinPlus`], [`PlusTimes`] and the rest). PLUS's identity is [`Zero::zero`], TIMES's
/// [`One::one`], MIN's [`Number::highest`] (by default [`Bounded::max_value`]) and MAX's
/// [`Number::lowest`]. Here, prices in whole cents and the cheapest routes by MIN.PLUS:
///
/// ```
/// use edgeblas::algebra::Number;
/// use edgeblas::prelude::*;
/// use num_traits::{Bounded, One, Zero};
/// use std::ops::{Add, Mul};
///
/// #[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
/// struct Cents(i64);
///
/// // What a numeric type usually implements already:
/// impl Add for Cents {
///     type Output = Cents;
///     fn add(self, o: Cents) -> Cents { Cents(self.0 + o.0) }
/// }
/// impl Mul for Cents {
///     type Output = Cents;
///     fn mul(self, o: Cents) -> Cents { Cents(self.0 * o.0) }
/// }
/// impl Zero for Cents {
///     fn zero() -> Cents { Cents(0) }
///     fn is_zero(&self) -> bool { self.0 == 0 }
/// }
/// impl One for Cents {
///     fn one() -> Cents { Cents(1) }
/// }
/// impl Bounded for Cents {
///     fn min_value() -> Cents { Cents(i64::MIN) }
///     fn max_value() -> Cents { Cents(i64::MAX) }
/// }
///
/// // All that edgeblas asks for:
/// impl Number for Cents {}
///
/// let mut b = CooBuilder::new(3, 3);
/// for (i, j, c) in [(0, 1, 250), (1, 2, 100), (0, 2, 400)] {
///     b.push(i, j, Cents(c)).unwrap();
/// }
/// let a = b.build(Duplicates::Error).unwrap();
/// let mut d = Vector::full(3, Cents::highest());
/// d.set(0, Cents(0));
/// let min = Min::<Cents>::new();
/// for _ in 0..2 {
///     ops::vxm_inplace(&mut d, None, Some(&min), MinPlus::new(), &a, &Descriptor::DEFAULT);
/// }
/// assert_eq!(d.get(2), Some(Cents(350)));
/// ```
///
/// The defaults are what a type without a notion of infinity or of wrapping needs; the
/// built-in numbers override them where GraphBLAS's semantics differ. Floats:
/// [`Number::lowest`] and [`Number::highest`] are -inf and +inf (num-traits' `Bounded`
/// gives floats their finite extremes, which would not be MIN's identity). Integers: `+`
/// and `*` wrap, MIN.PLUS saturates, and zero annihilates in TIMES. A type of your own
/// may override any of them the same way (a float-like type: its infinities).
pub trait Number: Scalar + PartialOrd + Zero + One + Bounded {
    /// The lowest value: MAX's identity and MIN's terminal. By default
    /// [`Bounded::min_value`]; -inf for floats.
    #[inline]
    fn lowest() -> Self {
        <Self as Bounded>::min_value()
    }
    /// The highest value: MIN's identity and MAX's terminal. By default
    /// [`Bounded::max_value`]; +inf for floats.
    #[inline]
    fn highest() -> Self {
        <Self as Bounded>::max_value()
    }
    /// PLUS. By default `+`; wrapping for integers.
    #[inline]
    fn ring_add(self, other: Self) -> Self {
        self + other
    }
    /// TIMES. By default `*`; wrapping for integers.
    #[inline]
    fn ring_mul(self, other: Self) -> Self {
        self * other
    }
    /// The addition of MIN.PLUS and MAX.PLUS for operands other than
    /// [`Number::highest`] and [`Number::lowest`] (those absorb). By default `+`;
    /// saturating for integers.
    #[inline]
    fn sat_add(self, other: Self) -> Self {
        self + other
    }
    /// Which of two equal operands (`self == other`) MIN and MAX keep. By default
    /// `self`; floats keep `-0.0` when either is `-0.0` (`0.0 == -0.0`), so that a sum
    /// does not depend on the order of its terms. A type whose equal values differ
    /// otherwise (a float-like one: its signed zeros) chooses here, and must choose the
    /// same whichever operand comes first.
    #[inline]
    fn tie(self, other: Self) -> Self {
        let _ = other;
        self
    }
    /// Whether multiplication by zero always gives zero, so that zero is TIMES's
    /// terminal value. By default `false` (never wrong, only slower); `true` for
    /// integers (not for floats: `0 * NaN` is NaN).
    const ZERO_ANNIHILATES: bool = false;
}

macro_rules! number_int {
    ($($t:ty),*) => {$(
        impl Number for $t {
            const ZERO_ANNIHILATES: bool = true;
            #[inline] fn ring_add(self, o: Self) -> Self { self.wrapping_add(o) }
            #[inline] fn ring_mul(self, o: Self) -> Self { self.wrapping_mul(o) }
            #[inline] fn sat_add(self, o: Self) -> Self { self.saturating_add(o) }
        }
    )*};
}
number_int!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! number_float {
    ($($t:ty),*) => {$(
        impl Number for $t {
            #[inline] fn lowest() -> Self { <$t>::NEG_INFINITY }
            #[inline] fn highest() -> Self { <$t>::INFINITY }
            #[inline]
            fn tie(self, o: Self) -> Self {
                if o.is_sign_negative() { o } else { self }
            }
        }
    )*};
}
number_float!(f32, f64);

macro_rules! unit_struct {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name<T>(PhantomData<fn() -> T>);
        impl<T> $name<T> {
            /// The operator (a zero-sized value).
            pub const fn new() -> Self {
                $name(PhantomData)
            }
        }
        impl<T> Clone for $name<T> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<T> Copy for $name<T> {}
        impl<T> Default for $name<T> {
            fn default() -> Self {
                Self::new()
            }
        }
    };
}

unit_struct!(
    /// `min(x, y)`; as a monoid, identity +inf and terminal -inf. Floats follow C's
    /// `fmin` (GraphBLAS's `GrB_MIN_FP64`): a NaN operand is ignored and the other
    /// kept, so a sum is the least of its terms that are not NaN, NaN only when all
    /// are.
    ///
    /// The tie rule ([`Number::tie`]): of `0.0` and `-0.0`, equal values, MIN and MAX
    /// both keep `-0.0`, in either order. C leaves `fmin(0.0, -0.0)` unspecified and
    /// SuiteSparse keeps whichever operand its kernel passes second (the later term of
    /// a product, the first of a reduction), which would make a sum depend on the order
    /// of its terms and so on the thread count; `-0.0` is the commutative rule that
    /// agrees with SuiteSparse on `max(0.0, -0.0)` in a product (`-0.0`).
    Min
);
unit_struct!(
    /// `max(x, y)`; as a monoid, identity -inf and terminal +inf. Floats follow C's
    /// `fmax`: a NaN operand is ignored and the other kept. Of `0.0` and `-0.0`, `-0.0`
    /// (the tie rule at [`Min`]).
    Max
);
unit_struct!(
    /// `x + y` (wrapping for integers); as a monoid, identity 0.
    Plus
);
unit_struct!(
    /// `x * y` (wrapping for integers); as a monoid, identity 1, terminal 0 for integers.
    Times
);
unit_struct!(
    /// `x`: keeps the first operand. As a monoid it is ANY: every value is terminal, so a
    /// reduction stops at its first term (with terms in ascending order: the smallest index).
    /// Its identity, `T::default()`, is a placeholder and only a right identity
    /// (`e (+) x = e`): every sum in this crate starts from its first term, not from it.
    Any
);
unit_struct!(
    /// `y`: keeps the second operand (the "overwrite" accumulator).
    Second
);

impl<T: Number> BinaryOp<T, T> for Min<T> {
    type Output = T;
    #[inline]
    fn apply(&self, x: T, y: T) -> T {
        // `x != x`: x is NaN, and y is kept (never true of an integer).
        #[allow(clippy::eq_op)]
        let x_nan = x != x;
        if y < x || x_nan {
            y
        } else if y == x {
            x.tie(y)
        } else {
            x
        }
    }
    #[inline]
    fn op_code(&self) -> u32 {
        super::op_code::MIN
    }
}
impl<T: Number> Monoid<T> for Min<T> {
    /// `true`: the smallest (largest) term wins in any order and any grouping. Floats:
    /// NaN terms are ignored (a sum of NaNs only is the last of them); of `0.0` and
    /// `-0.0`, equal values, `-0.0` wins in any order ([`Number::tie`]).
    #[inline]
    fn order_free(&self) -> bool {
        true
    }
    #[inline]
    fn identity(&self) -> T {
        T::highest()
    }
    #[inline]
    fn combine(&self, a: T, b: T) -> T {
        self.apply(a, b)
    }
    #[inline]
    fn terminal(&self) -> Option<T> {
        Some(T::lowest())
    }
}

impl<T: Number> BinaryOp<T, T> for Max<T> {
    type Output = T;
    #[inline]
    fn apply(&self, x: T, y: T) -> T {
        #[allow(clippy::eq_op)]
        let x_nan = x != x;
        if y > x || x_nan {
            y
        } else if y == x {
            x.tie(y)
        } else {
            x
        }
    }
    #[inline]
    fn op_code(&self) -> u32 {
        super::op_code::MAX
    }
}
impl<T: Number> Monoid<T> for Max<T> {
    /// `true`: the smallest (largest) term wins in any order and any grouping. Floats:
    /// NaN terms are ignored (a sum of NaNs only is the last of them); of `0.0` and
    /// `-0.0`, equal values, `-0.0` wins in any order ([`Number::tie`]).
    #[inline]
    fn order_free(&self) -> bool {
        true
    }
    #[inline]
    fn identity(&self) -> T {
        T::lowest()
    }
    #[inline]
    fn combine(&self, a: T, b: T) -> T {
        self.apply(a, b)
    }
    #[inline]
    fn terminal(&self) -> Option<T> {
        Some(T::highest())
    }
}

impl<T: Number> BinaryOp<T, T> for Plus<T> {
    type Output = T;
    #[inline]
    fn apply(&self, x: T, y: T) -> T {
        x.ring_add(y)
    }
    #[inline]
    fn op_code(&self) -> u32 {
        super::op_code::PLUS
    }
}
impl<T: Number> Monoid<T> for Plus<T> {
    #[inline]
    fn identity(&self) -> T {
        T::zero()
    }
    #[inline]
    fn combine(&self, a: T, b: T) -> T {
        a.ring_add(b)
    }
}

impl<T: Number> BinaryOp<T, T> for Times<T> {
    type Output = T;
    #[inline]
    fn apply(&self, x: T, y: T) -> T {
        x.ring_mul(y)
    }
    #[inline]
    fn op_code(&self) -> u32 {
        super::op_code::TIMES
    }
}
impl<T: Number> Monoid<T> for Times<T> {
    #[inline]
    fn identity(&self) -> T {
        T::one()
    }
    #[inline]
    fn combine(&self, a: T, b: T) -> T {
        a.ring_mul(b)
    }
    #[inline]
    fn terminal(&self) -> Option<T> {
        if T::ZERO_ANNIHILATES {
            Some(T::zero())
        } else {
            None
        }
    }
}

impl<T: Scalar> BinaryOp<T, T> for Any<T> {
    type Output = T;
    #[inline]
    fn apply(&self, x: T, _y: T) -> T {
        x
    }
    #[inline]
    fn op_code(&self) -> u32 {
        super::op_code::ANY
    }
}
impl<T: Scalar> Monoid<T> for Any<T> {
    #[inline]
    fn identity(&self) -> T {
        T::default()
    }
    #[inline]
    fn combine(&self, a: T, _b: T) -> T {
        a
    }
    #[inline]
    fn is_terminal(&self, _x: &T) -> bool {
        true
    }
}

impl<X, Y> BinaryOp<X, Y> for Second<Y> {
    type Output = Y;
    #[inline]
    fn apply(&self, _x: X, y: Y) -> Y {
        y
    }
    #[inline]
    fn op_code(&self) -> u32 {
        super::op_code::SECOND
    }
}

/// Logical OR; as a monoid, identity `false` and terminal `true`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lor;
impl BinaryOp<bool, bool> for Lor {
    type Output = bool;
    #[inline]
    fn apply(&self, x: bool, y: bool) -> bool {
        x | y
    }
    #[inline]
    fn op_code(&self) -> u32 {
        super::op_code::LOR
    }
}
impl Monoid<bool> for Lor {
    #[inline]
    fn order_free(&self) -> bool {
        true
    }
    #[inline]
    fn identity(&self) -> bool {
        false
    }
    #[inline]
    fn combine(&self, a: bool, b: bool) -> bool {
        a | b
    }
    #[inline]
    fn terminal(&self) -> Option<bool> {
        Some(true)
    }
}

/// Logical AND; as a monoid, identity `true` and terminal `false`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Land;
impl BinaryOp<bool, bool> for Land {
    type Output = bool;
    #[inline]
    fn apply(&self, x: bool, y: bool) -> bool {
        x & y
    }
    #[inline]
    fn op_code(&self) -> u32 {
        super::op_code::LAND
    }
}
impl Monoid<bool> for Land {
    #[inline]
    fn order_free(&self) -> bool {
        true
    }
    #[inline]
    fn identity(&self) -> bool {
        true
    }
    #[inline]
    fn combine(&self, a: bool, b: bool) -> bool {
        a & b
    }
    #[inline]
    fn terminal(&self) -> Option<bool> {
        Some(false)
    }
}

/// Boolean OR.AND: `w(i) = OR_k (truthy(A(i,k)) AND u(k))`; reachability.
#[derive(Clone, Copy, Debug, Default)]
pub struct OrAnd;
impl<A: Truthy, U: Truthy> Semiring<A, U> for OrAnd {
    type Output = bool;
    type Add = Lor;
    #[inline]
    fn add(&self) -> Lor {
        Lor
    }
    #[inline]
    fn multiply(&self, a: A, u: U, _k: Index) -> bool {
        a.truthy() & u.truthy()
    }
}

/// ANY.PAIR: `w(i) = true` wherever any term exists; structure only, stops at the first term.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnyPair;
impl<A, U> Semiring<A, U> for AnyPair {
    type Output = bool;
    type Add = Any<bool>;
    #[inline]
    fn add(&self) -> Any<bool> {
        Any::new()
    }
    #[inline]
    fn multiply(&self, _a: A, _u: U, _k: Index) -> bool {
        true
    }
}

macro_rules! arith_semiring {
    ($(#[$doc:meta])* $name:ident, $add:ident, |$a:ident, $u:ident| $mul:expr) => {
        unit_struct!($(#[$doc])* $name);
        impl<T: Number> Semiring<T, T> for $name<T> {
            type Output = T;
            type Add = $add<T>;
            #[inline]
            fn add(&self) -> $add<T> {
                $add::new()
            }
            #[inline]
            fn multiply(&self, $a: T, $u: T, _k: Index) -> T {
                $mul
            }
        }
    };
}

arith_semiring!(
    /// MIN.PLUS (tropical): `w(i) = min_k (A(i,k) + u(k))`; shortest paths. The
    /// identity (+inf) absorbs in the sum: `inf + x = inf`.
    MinPlus,
    Min,
    |a, u| if a == T::highest() || u == T::highest() {
        T::highest()
    } else {
        a.sat_add(u)
    }
);
arith_semiring!(
    /// MAX.PLUS: `w(i) = max_k (A(i,k) + u(k))`; longest paths. `-inf + x = -inf`.
    MaxPlus,
    Max,
    |a, u| if a == T::lowest() || u == T::lowest() {
        T::lowest()
    } else {
        a.sat_add(u)
    }
);
arith_semiring!(
    /// PLUS.TIMES: the ordinary product (wrapping for integers).
    PlusTimes,
    Plus,
    |a, u| a.ring_mul(u)
);
arith_semiring!(
    /// MAX.TIMES: `w(i) = max_k A(i,k) * u(k)`; most reliable paths.
    MaxTimes,
    Max,
    |a, u| a.ring_mul(u)
);
arith_semiring!(
    /// MIN.MAX: `w(i) = min_k max(A(i,k), u(k))`; bottleneck (minimax) paths.
    MinMax,
    Min,
    |a, u| if u > a { u } else { a }
);

/// MIN.SECONDI: `w(i) = min { k : A(i,k) and u(k) present }`, the smallest frontier
/// index: in BFS, the smallest parent. Like SuiteSparse's MIN_SECONDI in `u' A`.
#[derive(Clone, Copy, Debug, Default)]
pub struct MinSecondI;
impl<A, U> Semiring<A, U> for MinSecondI {
    type Output = Index;
    type Add = Min<Index>;
    #[inline]
    fn add(&self) -> Min<Index> {
        Min::new()
    }
    #[inline]
    fn multiply(&self, _a: A, _u: U, k: Index) -> Index {
        k
    }
    const FIRST_TERM_IS_SUM: bool = true;
}

/// ANY.SECONDI: some frontier index `k` with `A(i,k)` and `u(k)` present. Because every
/// operation sums terms in ascending `k`, it is the smallest one, as for [`MinSecondI`].
#[derive(Clone, Copy, Debug, Default)]
pub struct AnySecondI;
impl<A, U> Semiring<A, U> for AnySecondI {
    type Output = Index;
    type Add = Any<Index>;
    #[inline]
    fn add(&self) -> Any<Index> {
        Any::new()
    }
    #[inline]
    fn multiply(&self, _a: A, _u: U, k: Index) -> Index {
        k
    }
}

macro_rules! number_binop {
    ($(#[$doc:meta])* $name:ident, $out:ty, |$x:ident, $y:ident| $body:expr) => {
        unit_struct!($(#[$doc])* $name);
        impl<T: Number> BinaryOp<T, T> for $name<T> {
            type Output = $out;
            #[inline]
            fn apply(&self, $x: T, $y: T) -> $out {
                $body
            }
        }
    };
}

/// Ring subtraction and division for [`Number`]s (wrapping for integers; an integer
/// division by zero gives zero rather than a panic, as in SuiteSparse).
pub trait Arith: Number {
    /// `x - y` (wrapping for integers).
    fn ring_sub(self, other: Self) -> Self;
    /// `x / y`; for integers 0 when `y` is 0.
    fn ring_div(self, other: Self) -> Self;
}
macro_rules! arith_int {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline] fn ring_sub(self, o: Self) -> Self { self.wrapping_sub(o) }
            #[inline] fn ring_div(self, o: Self) -> Self {
                if o == 0 { 0 } else { self.wrapping_div(o) }
            }
        }
    )*};
}
arith_int!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);
impl Arith for f32 {
    #[inline]
    fn ring_sub(self, o: Self) -> Self {
        self - o
    }
    #[inline]
    fn ring_div(self, o: Self) -> Self {
        self / o
    }
}
impl Arith for f64 {
    #[inline]
    fn ring_sub(self, o: Self) -> Self {
        self - o
    }
    #[inline]
    fn ring_div(self, o: Self) -> Self {
        self / o
    }
}

unit_struct!(
    /// `x`: keeps the first operand (GrB_FIRST).
    First
);
impl<X, Y> BinaryOp<X, Y> for First<X> {
    type Output = X;
    #[inline]
    fn apply(&self, x: X, _y: Y) -> X {
        x
    }
    #[inline]
    fn op_code(&self) -> u32 {
        super::op_code::FIRST
    }
}

unit_struct!(
    /// `1`: the PAIR (ONEB) operator, whatever the operands.
    Pair
);
impl<X, Y, T: Number> BinaryOp<X, Y> for Pair<T> {
    type Output = T;
    #[inline]
    fn apply(&self, _x: X, _y: Y) -> T {
        T::one()
    }
    #[inline]
    fn op_code(&self) -> u32 {
        super::op_code::PAIR
    }
}

// Subtraction and division: GrB_MINUS, GxB_RMINUS, GrB_DIV, GxB_RDIV. The comparisons
// GrB_EQ ... GrB_GE are `EqOp` ... `GeOp` (so that a glob import does not shadow `Eq`).
macro_rules! arith_binop {
    ($(#[$doc:meta])* $name:ident, $code:ident, |$x:ident, $y:ident| $body:expr) => {
        unit_struct!($(#[$doc])* $name);
        impl<T: Arith> BinaryOp<T, T> for $name<T> {
            type Output = T;
            #[inline]
            fn apply(&self, $x: T, $y: T) -> T {
                $body
            }
            #[inline]
            fn op_code(&self) -> u32 {
                super::op_code::$code
            }
        }
    };
}
arith_binop!(
    /// `x - y` (GrB_MINUS).
    Minus,
    MINUS,
    |x, y| x.ring_sub(y)
);
arith_binop!(
    /// `y - x` (GxB_RMINUS).
    Rminus,
    RMINUS,
    |x, y| y.ring_sub(x)
);
arith_binop!(
    /// `x / y` (GrB_DIV; an integer division by zero gives 0).
    Div,
    DIV,
    |x, y| x.ring_div(y)
);
arith_binop!(
    /// `y / x` (GxB_RDIV).
    Rdiv,
    RDIV,
    |x, y| y.ring_div(x)
);
number_binop!(
    /// `x == y` (GrB_EQ).
    EqOp,
    bool,
    |x, y| x == y
);
number_binop!(
    /// `x != y` (GrB_NE).
    NeOp,
    bool,
    |x, y| x != y
);
number_binop!(
    /// `x < y` (GrB_LT).
    LtOp,
    bool,
    |x, y| x < y
);
number_binop!(
    /// `x <= y` (GrB_LE).
    LeOp,
    bool,
    |x, y| x <= y
);
number_binop!(
    /// `x > y` (GrB_GT).
    GtOp,
    bool,
    |x, y| x > y
);
number_binop!(
    /// `x >= y` (GrB_GE).
    GeOp,
    bool,
    |x, y| x >= y
);

/// Logical XOR; as a monoid, identity `false` (no terminal).
#[derive(Clone, Copy, Debug, Default)]
pub struct Lxor;
impl BinaryOp<bool, bool> for Lxor {
    type Output = bool;
    #[inline]
    fn apply(&self, x: bool, y: bool) -> bool {
        x ^ y
    }
    #[inline]
    fn op_code(&self) -> u32 {
        super::op_code::LXOR
    }
}
impl Monoid<bool> for Lxor {
    #[inline]
    fn identity(&self) -> bool {
        false
    }
    #[inline]
    fn combine(&self, a: bool, b: bool) -> bool {
        a ^ b
    }
}

unit_struct!(
    /// PLUS.PAIR: `C(i, j) = |{k : A(i, k) and B(k, j) present}|`, the count of the inner
    /// indices where both operands have an entry; the values are never read, so pattern
    /// matrices work. Triangle counting is `C<L> = L L'` over it.
    PlusPair
);
impl<A, B, T: Number> Semiring<A, B> for PlusPair<T> {
    type Output = T;
    type Add = Plus<T>;
    #[inline]
    fn add(&self) -> Plus<T> {
        Plus::new()
    }
    #[inline]
    fn multiply(&self, _a: A, _b: B, _k: Index) -> T {
        T::one()
    }
}

macro_rules! first_semiring {
    ($(#[$doc:meta])* $name:ident, $add:ident) => {
        unit_struct!($(#[$doc])* $name);
        impl<B, T: Number> Semiring<T, B> for $name<T> {
            type Output = T;
            type Add = $add<T>;
            #[inline]
            fn add(&self) -> $add<T> {
                $add::new()
            }
            #[inline]
            fn multiply(&self, a: T, _b: B, _k: Index) -> T {
                a
            }
        }
    };
}

first_semiring!(
    /// PLUS.FIRST: `C(i, j) = sum_k A(i, k)` over the `k` where `B(k, j)` is present: the
    /// right operand gives only the structure.
    PlusFirst,
    Plus
);
first_semiring!(
    /// MIN.FIRST: `C(i, j) = min_k A(i, k)` over the `k` where `B(k, j)` is present.
    MinFirst,
    Min
);
first_semiring!(
    /// MAX.FIRST: `C(i, j) = max_k A(i, k)` over the `k` where `B(k, j)` is present.
    MaxFirst,
    Max
);

macro_rules! second_semiring {
    ($(#[$doc:meta])* $name:ident, $add:ident) => {
        unit_struct!($(#[$doc])* $name);
        impl<A, T: Number> Semiring<A, T> for $name<T> {
            type Output = T;
            type Add = $add<T>;
            #[inline]
            fn add(&self) -> $add<T> {
                $add::new()
            }
            #[inline]
            fn multiply(&self, _a: A, u: T, _k: Index) -> T {
                u
            }
        }
    };
}

second_semiring!(
    /// PLUS.SECOND: `w(i) = sum_k u(k)` over the `k` where `A(i,k)` is present; with a
    /// pattern matrix this is PLUS.TIMES with an implicit 1 (PageRank over `Csr<()>`).
    PlusSecond,
    Plus
);
second_semiring!(
    /// MIN.SECOND: `w(i) = min_k u(k)` over the `k` where `A(i,k)` is present: the matrix
    /// entry only gives the structure, so a pattern `Csr<()>` works (label propagation).
    MinSecond,
    Min
);
second_semiring!(
    /// MAX.SECOND: `w(i) = max_k u(k)` over the `k` where `A(i, k)` is present.
    MaxSecond,
    Max
);

/// LOR.LAND, GraphBLAS's name for [`OrAnd`].
pub type LorLand = OrAnd;

/// `X::new()` for the operators that have no type parameter, so that every built-in
/// operator, monoid and semiring is built the same way, `X::new()` (these also are unit
/// values, `OrAnd` as well as `OrAnd::new()`, which stays valid).
macro_rules! unit_new {
    ($($name:ident),*) => {$(
        impl $name {
            /// The operator (a zero-sized value), built as every built-in is.
            pub const fn new() -> Self {
                $name
            }
        }
    )*};
}
unit_new!(Lor, Land, Lxor, OrAnd, AnyPair, MinSecondI, AnySecondI);
