//! Primitive numbers viewed as atomic words: the compare-and-swap combine of the
//! kernels whose terms meet in any order (the in-place accumulate and the scatter).

use std::any::TypeId;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// The atomic word a primitive number is combined through in place.
pub(crate) enum Width {
    /// `f64`, `u64`, `i64` (where they are aligned as `AtomicU64`).
    W64,
    /// `f32`, `u32`, `i32`.
    W32,
}

/// The width of `Z` when it is a 4- or 8-byte primitive number that can be viewed as an
/// atomic word of that width; `None` for any other type.
pub(crate) fn atomic_width<Z: 'static>() -> Option<Width> {
    let z = TypeId::of::<Z>();
    let wide = [
        TypeId::of::<f64>(),
        TypeId::of::<u64>(),
        TypeId::of::<i64>(),
    ];
    let narrow = [
        TypeId::of::<f32>(),
        TypeId::of::<u32>(),
        TypeId::of::<i32>(),
    ];
    if wide.contains(&z) && std::mem::align_of::<Z>() >= std::mem::align_of::<AtomicU64>() {
        Some(Width::W64)
    } else if narrow.contains(&z) {
        Some(Width::W32)
    } else {
        None
    }
}

/// Whether `Z` is one of the integer types [`atomic_width`] accepts: one bit pattern per
/// value and no NaN, so an order-free monoid gives the same bytes in any order.
pub(crate) fn is_integer<Z: 'static>() -> bool {
    let z = TypeId::of::<Z>();
    [
        TypeId::of::<u32>(),
        TypeId::of::<i32>(),
        TypeId::of::<u64>(),
        TypeId::of::<i64>(),
    ]
    .contains(&z)
}

/// `v` viewed as atomic words `W`: every access through the view is atomic, and `v`
/// stays borrowed mutably while it lasts.
///
/// # Panics
/// If `Z` is not a primitive number of `W`'s size and at least its alignment (callers
/// pick `W` by [`atomic_width`]).
pub(crate) fn as_words<Z: Copy + 'static, W: Word>(v: &mut [Z]) -> &[W] {
    assert!(
        atomic_width::<Z>().is_some()
            && std::mem::size_of::<Z>() == std::mem::size_of::<W>()
            && std::mem::align_of::<Z>() >= std::mem::align_of::<W>(),
        "not a primitive number of the atomic word's size and alignment"
    );
    // SAFETY: a primitive number (no padding, every bit pattern valid) of the same
    // size, aligned at least as the atomic (asserted); the mutable borrow of `v`
    // excludes any other access for the view's life.
    unsafe { std::slice::from_raw_parts(v.as_mut_ptr().cast::<W>(), v.len()) }
}

/// The bits of `z` as a word of `W`.
///
/// # Safety
/// `Z` is a primitive number of `W`'s size: one [`atomic_width`] accepts for `W`.
#[inline(always)]
pub(crate) unsafe fn to_bits<Z: Copy, W: Word>(z: Z) -> W::Bits {
    // SAFETY: the caller's contract.
    unsafe { std::mem::transmute_copy(&z) }
}

/// The value whose bits [`to_bits`] gave.
///
/// # Safety
/// As for [`to_bits`].
#[inline(always)]
pub(crate) unsafe fn from_bits<Z: Copy, W: Word>(b: W::Bits) -> Z {
    // SAFETY: the caller's contract.
    unsafe { std::mem::transmute_copy(&b) }
}

/// An atomic word of the output type's width.
pub(crate) trait Word: Sync {
    type Bits: Copy + Eq + Send + Sync;
    fn load(&self) -> Self::Bits;
    /// Compare-and-swap; `Err` carries the current bits.
    fn swap_if(&self, old: Self::Bits, new: Self::Bits) -> Result<(), Self::Bits>;
}

impl Word for AtomicU64 {
    type Bits = u64;
    #[inline(always)]
    fn load(&self) -> u64 {
        AtomicU64::load(self, Ordering::Relaxed)
    }
    #[inline(always)]
    fn swap_if(&self, old: u64, new: u64) -> Result<(), u64> {
        self.compare_exchange_weak(old, new, Ordering::Relaxed, Ordering::Relaxed)
            .map(|_| ())
    }
}

impl Word for AtomicU32 {
    type Bits = u32;
    #[inline(always)]
    fn load(&self) -> u32 {
        AtomicU32::load(self, Ordering::Relaxed)
    }
    #[inline(always)]
    fn swap_if(&self, old: u32, new: u32) -> Result<(), u32> {
        self.compare_exchange_weak(old, new, Ordering::Relaxed, Ordering::Relaxed)
            .map(|_| ())
    }
}
