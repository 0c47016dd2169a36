//! Reduce a vector to a scalar with a monoid.

use crate::algebra::{Monoid, Scalar};
use crate::backend::cpu::ewise;
use crate::vector::Vector;

/// `s = (+)_i u(i)` -- the monoid sum of the present entries (the identity when there
/// are none), summed in index order and stopping at a terminal value. This is how the
/// switching policies of BFS count frontier sizes and edges.
pub fn reduce<T: Scalar, M: Monoid<T>>(monoid: M, u: &Vector<T>) -> T {
    ewise::reduce(&monoid, u)
}
