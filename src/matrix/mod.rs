//! Sparse matrices: [`Csr`] (compressed sparse rows, the adjacency of a graph), its
//! transpose for in-edges, and the [`CooBuilder`] that assembles one from triples.

mod coo;
mod csr;

pub use coo::{CooBuilder, Duplicates};
pub use csr::Csr;
