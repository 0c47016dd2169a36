//! Getting a file's bytes into memory: whole-file reads and transparent gzip.

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

use flate2::read::MultiGzDecoder;

use crate::error::{Error, Result};

/// The two bytes every gzip member starts with.
pub(crate) const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Reads the whole file (compressed or not: decompression is [`decompress`]'s job).
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::io(path, e))
}

/// Whether a name ends in `.gz` (any case).
pub(crate) fn has_gz_suffix(name: &str) -> bool {
    name.len() >= 3 && name[name.len() - 3..].eq_ignore_ascii_case(".gz")
}

/// What a format's header says of the whole (decompressed) file: at most `bytes` bytes,
/// because it is `what` (for the message).
pub(crate) struct DeclaredSize {
    /// The most bytes the file may have.
    pub bytes: usize,
    /// What the header declares, e.g. `a Matrix Market file of 12 entries`.
    pub what: String,
}

/// How much of a decompressed stream is read before its header is asked for its size.
const HEAD_BYTES: u64 = 1 << 20;

/// The bytes themselves, or their decompression when they are gzip data: the name ends
/// in `.gz` or the bytes begin with the gzip magic. A `.gz` name on bytes that are not
/// gzip is an error, as is a broken or truncated stream.
pub(crate) fn decompress<'a>(name: &str, bytes: &'a [u8]) -> Result<Cow<'a, [u8]>> {
    decompress_declared(name, bytes, |_| None)
}

/// [`decompress`], refusing a stream that grows past what its header declares: the first
/// MiB is decompressed, `declared` reads the header in it, and decompression stops (an
/// error) one byte past the declared size, so a small file that inflates without end
/// costs what its header says, not what the stream holds. `declared` returning `None`
/// (no header in the first MiB, or one the format's reader will refuse) sets no bound.
pub(crate) fn decompress_declared<'a>(
    name: &str,
    bytes: &'a [u8],
    declared: impl Fn(&[u8]) -> Option<DeclaredSize>,
) -> Result<Cow<'a, [u8]>> {
    let magic = bytes.starts_with(&GZIP_MAGIC);
    if !magic {
        if has_gz_suffix(name) {
            let what = if bytes.is_empty() {
                "the file is empty (a .gz file must hold gzip data)"
            } else {
                "not gzip data, though the name ends in .gz"
            };
            return Err(Error::parse(name, 0, what));
        }
        return Ok(Cow::Borrowed(bytes));
    }
    // ISIZE, the last four bytes, is the size of the last member mod 2^32: a capacity
    // hint only, capped by deflate's largest ratio (about 1032:1) and 1 GiB.
    let hint = bytes
        .len()
        .checked_sub(4)
        .map(|k| u32::from_le_bytes([bytes[k], bytes[k + 1], bytes[k + 2], bytes[k + 3]]) as usize)
        .unwrap_or(0)
        .min(bytes.len().saturating_mul(1032))
        .min(1 << 30);
    let broken = |e: std::io::Error| Error::parse(name, 0, format!("broken gzip data: {e}"));
    let mut out = Vec::with_capacity(hint.min(HEAD_BYTES as usize));
    let mut stream = MultiGzDecoder::new(bytes);
    (&mut stream)
        .take(HEAD_BYTES)
        .read_to_end(&mut out)
        .map_err(broken)?;
    let bound = declared(&out);
    let limit = bound.as_ref().map_or(usize::MAX, |d| d.bytes);
    if out.len() <= limit {
        out.reserve(hint.min(limit).saturating_sub(out.len()));
        let more = (limit - out.len()).saturating_add(1) as u64;
        (&mut stream)
            .take(more)
            .read_to_end(&mut out)
            .map_err(broken)?;
    }
    if let Some(d) = bound
        && out.len() > d.bytes
    {
        return Err(Error::parse(
            name,
            0,
            format!(
                "the data decompresses to more than {} bytes, more than its header allows \
                 ({}); refused as corrupt",
                d.bytes, d.what
            ),
        ));
    }
    Ok(Cow::Owned(out))
}
