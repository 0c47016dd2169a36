//! Graph generators that write [`crate::matrix::Csr`] directly: Chung-Lu graphs from a
//! degree distribution ([`chung_lu`], the method of Alam and Perumalla) and Graph500
//! Kronecker / R-MAT graphs ([`rmat`]). Every generator is seeded, and the same seed gives
//! the same graph for any number of threads.

pub mod chung_lu;
pub mod rmat;
