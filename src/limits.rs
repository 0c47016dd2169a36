//! How many vertices an input of a given size may declare before anything is allocated:
//! the guard shared by the graph readers (`io`) and the degree-file reader of the
//! generators (`generate`), which know nothing of each other.

/// A vertex count above this needs a file of at least one byte per [`VERTICES_PER_BYTE`]
/// vertices (see [`vertex_limit`]).
pub const MIN_VERTEX_LIMIT: u64 = 1 << 24;

/// How many vertices one byte of input may declare once a count exceeds
/// [`MIN_VERTEX_LIMIT`].
pub const VERTICES_PER_BYTE: u64 = 64;

/// The largest vertex count a text input of `bytes` bytes may declare or imply:
/// `min(u32::MAX, max(2^24, 64 * bytes))`.
///
/// Every vertex costs CSR offsets (8 bytes and more while building) whether or not it has
/// an arc, so a count is checked against the input before it is allocated.
///
/// ```
/// use edgeblas::io::vertex_limit;
/// assert_eq!(vertex_limit(50), 1 << 24);
/// assert_eq!(vertex_limit(1 << 20), 64 << 20);
/// assert_eq!(vertex_limit(1 << 40), u32::MAX as u64);
/// ```
pub fn vertex_limit(bytes: usize) -> u64 {
    limit_for(MIN_VERTEX_LIMIT, bytes)
}

/// `min(u32::MAX, max(floor, 64 * bytes))`.
pub(crate) fn limit_for(floor: u64, bytes: usize) -> u64 {
    let by_size = (bytes as u64).saturating_mul(VERTICES_PER_BYTE);
    by_size.max(floor).min(u32::MAX as u64)
}
