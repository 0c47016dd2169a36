//! The native binary graph format (`.ebg`): the CSR arrays as they are in memory,
//! little-endian, behind a fixed header, with a CRC-32 over everything.
//!
//! # Layout (version 1)
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `\x89EBG\r\n\x1a\n` (a text-mode transfer or a truncation to 7 bits breaks it) |
//! | 8..12 | version, u32 = 1 |
//! | 12..16 | flags, u32: bit 0 weighted, bit 1 directed, bits 2..4 value type (0 pattern, 1 integer, 2 real), bit 4 explicit ids; other bits 0 |
//! | 16..24 | `n`, vertices, u64 (at most `u32::MAX`) |
//! | 24..32 | `nnz`, arcs, u64 |
//! | 32..40 | id base (offset ids), u64; 0 with explicit ids |
//! | 40..48 | records, u64 |
//! | 48..56 | duplicates, u64 |
//! | 56..60 | reserved, u32 = 0 |
//! | 60..64 | CRC-32 (crc32fast, IEEE) of bytes 0..60 and of the payload |
//! | 64.. | payload: offsets `(n + 1) x u64`; indices `nnz x u32`, padded with zeros to a multiple of 8 bytes; weights `nnz x f64` if weighted; ids `n x u64` if explicit |
//!
//! The reader computes the size the header implies (with overflow checks) and requires
//! it to equal the file's size before it allocates anything, then checks the CRC, then
//! the CSR invariants ([`Csr::new_checked`]) and that explicit ids strictly increase.

use rayon::prelude::*;

use super::{Graph, ValueType, VertexIds};
use crate::algebra::Index;
use crate::error::{Error, Result};
use crate::matrix::Csr;

/// The first eight bytes of every binary graph file.
pub const MAGIC: [u8; 8] = *b"\x89EBG\r\n\x1a\n";

/// The version this build writes and reads.
pub const VERSION: u32 = 1;

/// Size of the fixed header, in bytes.
pub const HEADER_BYTES: usize = 64;

const F_WEIGHTED: u32 = 1;
const F_DIRECTED: u32 = 1 << 1;
const F_VALUE_SHIFT: u32 = 2;
const F_VALUE_MASK: u32 = 3 << F_VALUE_SHIFT;
pub(crate) const F_EXPLICIT: u32 = 1 << 4;
/// A part of a graph cut in row blocks ([`super::parts`]), not a whole graph.
pub(crate) const F_PART: u32 = 1 << 5;
const F_KNOWN: u32 = F_WEIGHTED | F_DIRECTED | F_VALUE_MASK | F_EXPLICIT;

/// Byte sizes of the payload sections, from the header's counts; `None` on overflow.
struct Sections {
    offsets: usize,
    indices: usize,
    pad: usize,
    weights: usize,
    ids: usize,
}

impl Sections {
    fn new(n: u64, nnz: u64, weighted: bool, explicit: bool) -> Option<Self> {
        let offsets = n.checked_add(1)?.checked_mul(8)?;
        let indices = nnz.checked_mul(4)?;
        let pad = indices % 8;
        let weights = if weighted { nnz.checked_mul(8)? } else { 0 };
        let ids = if explicit { n.checked_mul(8)? } else { 0 };
        let u = |x: u64| usize::try_from(x).ok();
        Some(Sections {
            offsets: u(offsets)?,
            indices: u(indices)?,
            pad: u(pad)?,
            weights: u(weights)?,
            ids: u(ids)?,
        })
    }

    fn total(&self) -> Option<usize> {
        HEADER_BYTES
            .checked_add(self.offsets)?
            .checked_add(self.indices)?
            .checked_add(self.pad)?
            .checked_add(self.weights)?
            .checked_add(self.ids)
    }
}

pub(crate) fn crc(bytes: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&bytes[..60]);
    h.update(&bytes[HEADER_BYTES..]);
    h.finalize()
}

/// Encodes a graph as the bytes of a binary graph file.
///
/// # Panics
/// If the graph breaks a [`Graph`] invariant (weights not one per arc, explicit ids not
/// one per vertex).
pub fn encode(g: &Graph) -> Vec<u8> {
    let a = &g.adjacency;
    let (n, nnz) = (a.nrows() as u64, a.nnz() as u64);
    let explicit = matches!(g.ids, VertexIds::Explicit(_));
    if let Some(w) = &g.weights {
        assert_eq!(w.len(), a.nnz(), "Graph::weights.len() != Graph::arcs()");
    }
    if let VertexIds::Explicit(ids) = &g.ids {
        assert_eq!(
            ids.len(),
            a.nrows(),
            "explicit ids.len() != Graph::vertices()"
        );
    }
    let s = Sections::new(n, nnz, g.weights.is_some(), explicit)
        .expect("a graph in memory has a size that fits memory");
    let total = s
        .total()
        .expect("a graph in memory has a size that fits memory");
    let mut out = Vec::with_capacity(total);
    let h = BinaryHeader::of(g);
    let (flags, base) = (flags_of(&h), h.base);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&flags.to_le_bytes());
    for x in [n, nnz, base, g.records, g.duplicates] {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out.extend_from_slice(&[0u8; 8]);
    for &o in a.offsets() {
        out.extend_from_slice(&o.to_le_bytes());
    }
    for &j in a.indices() {
        out.extend_from_slice(&j.to_le_bytes());
    }
    out.resize(out.len() + s.pad, 0);
    if let Some(w) = &g.weights {
        for &x in w {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    if let VertexIds::Explicit(ids) = &g.ids {
        for &x in ids {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    debug_assert_eq!(out.len(), total);
    let c = crc(&out);
    out[60..64].copy_from_slice(&c.to_le_bytes());
    out
}

/// The flags word of a header.
pub(crate) fn flags_of(h: &BinaryHeader) -> u32 {
    let value_bits = match h.value_type {
        ValueType::Pattern => 0,
        ValueType::Integer => 1,
        ValueType::Real => 2,
    };
    let bit = |on: bool, f: u32| if on { f } else { 0 };
    bit(h.weighted, F_WEIGHTED)
        | bit(h.directed, F_DIRECTED)
        | (value_bits << F_VALUE_SHIFT)
        | bit(h.explicit_ids, F_EXPLICIT)
}

/// What a flags word says (a part's, with [`F_PART`] cleared), checked as a whole
/// file's header is; the counts of the returned header are 0.
pub(crate) fn parse_flags(name: &str, flags: u32) -> Result<BinaryHeader> {
    let err = |m: String| Err(Error::parse(name, 0, m));
    if flags & !F_KNOWN != 0 {
        return err(format!("unknown flags {flags:#x} in the header"));
    }
    let weighted = flags & F_WEIGHTED != 0;
    let value_type = match (flags & F_VALUE_MASK) >> F_VALUE_SHIFT {
        0 => ValueType::Pattern,
        1 => ValueType::Integer,
        2 => ValueType::Real,
        v => return err(format!("unknown value type {v} in the header")),
    };
    if weighted == (value_type == ValueType::Pattern) {
        return err("the header's weighted flag and value type disagree".into());
    }
    Ok(BinaryHeader::new(
        0,
        0,
        flags & F_DIRECTED != 0,
        weighted,
        value_type,
        flags & F_EXPLICIT != 0,
        0,
        0,
        0,
    ))
}

/// The exact size of the file whose first bytes are `head`, as its header declares it;
/// `None` when `head` has no whole header of this version (the decoder says what is
/// wrong). Sizes no file can have declare just the header, so that nothing past it is
/// decompressed before the decoder refuses them.
pub(crate) fn declared(head: &[u8]) -> Option<super::source::DeclaredSize> {
    if head.len() < HEADER_BYTES || head[..8] != MAGIC || u32_at(head, 8) != VERSION {
        return None;
    }
    let flags = u32_at(head, 12);
    let (n, nnz) = (u64_at(head, 16), u64_at(head, 24));
    let total = Sections::new(n, nnz, flags & F_WEIGHTED != 0, flags & F_EXPLICIT != 0)
        .and_then(|s| s.total())
        .filter(|_| n <= u32::MAX as u64);
    Some(super::source::DeclaredSize {
        bytes: total.unwrap_or(HEADER_BYTES),
        what: match total {
            Some(t) => format!("a binary graph of {n} vertices and {nnz} arcs is {t} bytes"),
            None => format!("{n} vertices and {nnz} arcs are more than any file holds"),
        },
    })
}

pub(crate) fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

pub(crate) fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

/// Little-endian words of `W` bytes, decoded in parallel for large arrays.
pub(crate) fn decode_words<T: Send, const W: usize>(bytes: &[u8], f: fn([u8; W]) -> T) -> Vec<T> {
    let word = |w: &[u8]| {
        let mut x = [0u8; W];
        x.copy_from_slice(w);
        f(x)
    };
    if bytes.len() < 1 << 20 {
        return bytes.chunks_exact(W).map(word).collect();
    }
    bytes
        .par_chunks_exact(W)
        .with_min_len(1 << 16)
        .map(word)
        .collect()
}

/// What the 64-byte header says, checked: the sizes agree with the file's length.
struct Header {
    n: u64,
    nnz: u64,
    base: u64,
    records: u64,
    duplicates: u64,
    weighted: bool,
    explicit: bool,
    directed: bool,
    value_type: ValueType,
    sections: Sections,
}

impl Header {
    /// Checks the header at the start of `b` (at least [`HEADER_BYTES`] bytes with the
    /// magic) against a file of `len` bytes.
    fn parse(name: &str, b: &[u8], len: u64) -> Result<Header> {
        let err = |m: String| Err(Error::parse(name, 0, m));
        let version = u32_at(b, 8);
        if version != VERSION {
            return err(format!(
                "binary graph version {version} is not supported (this build reads version {VERSION})"
            ));
        }
        let flags = u32_at(b, 12);
        if flags & F_PART != 0 {
            return err(
                "a part of a graph cut in row blocks, not a whole graph: read its directory".into(),
            );
        }
        if u32_at(b, 56) != 0 {
            return err(format!("unknown flags {flags:#x} in the header"));
        }
        let f = parse_flags(name, flags)?;
        let (n, nnz, base, records, duplicates) = (
            u64_at(b, 16),
            u64_at(b, 24),
            u64_at(b, 32),
            u64_at(b, 40),
            u64_at(b, 48),
        );
        let (weighted, explicit, value_type) = (f.weighted, f.explicit_ids, f.value_type);
        if n > u32::MAX as u64 {
            return err(format!("{n} vertices; at most {} are supported", u32::MAX));
        }
        let sections = Sections::new(n, nnz, weighted, explicit);
        let expected = sections.as_ref().and_then(Sections::total);
        let (Some(sections), Some(expected)) = (sections, expected) else {
            return err(format!(
                "the header declares {n} vertices and {nnz} arcs, more than any file can hold"
            ));
        };
        if expected as u64 != len {
            return err(format!(
                "the header declares {n} vertices and {nnz} arcs, which take {expected} bytes, \
                 but the file has {len} (truncated or corrupt)"
            ));
        }
        Ok(Header {
            n,
            nnz,
            base,
            records,
            duplicates,
            weighted,
            explicit,
            directed: f.directed,
            value_type,
            sections,
        })
    }
}

/// Decodes the bytes of a binary graph file (`name` for messages).
///
/// # Errors
/// [`Error::Parse`] (line 0) for a wrong magic or version, unknown flags, sizes that do
/// not match the file's length, a checksum mismatch, or arrays that break the CSR
/// invariants.
pub fn decode(name: &str, b: &[u8]) -> Result<Graph> {
    let err = |m: String| Err(Error::parse(name, 0, m));
    if b.len() < HEADER_BYTES || b[..8] != MAGIC {
        if b.len() >= 8 && b[..8] == MAGIC {
            return err(format!(
                "truncated: {} bytes, shorter than the {HEADER_BYTES}-byte header",
                b.len()
            ));
        }
        return err("not an edgeblas binary graph (wrong magic bytes)".into());
    }
    let h = Header::parse(name, b, b.len() as u64)?;
    let (n, weighted, explicit, s) = (h.n, h.weighted, h.explicit, h.sections);
    let (base, records, duplicates, value_type) = (h.base, h.records, h.duplicates, h.value_type);
    let stored = u32_at(b, 60);
    let actual = crc(b);
    if stored != actual {
        return err(format!(
            "checksum mismatch (stored {stored:08x}, computed {actual:08x}): the file is corrupt"
        ));
    }
    let mut at = HEADER_BYTES;
    let mut take = |len: usize| {
        let piece = &b[at..at + len];
        at += len;
        piece
    };
    let offsets: Vec<u64> = decode_words::<u64, 8>(take(s.offsets), u64::from_le_bytes);
    let indices: Vec<Index> = decode_words::<u32, 4>(take(s.indices), u32::from_le_bytes);
    take(s.pad);
    let weights = weighted.then(|| decode_words::<f64, 8>(take(s.weights), f64::from_le_bytes));
    let ids = if explicit {
        let ids = decode_words::<u64, 8>(take(s.ids), u64::from_le_bytes);
        if let Some(i) = (1..ids.len()).find(|&i| ids[i - 1] >= ids[i]) {
            return err(format!(
                "explicit vertex ids are not strictly increasing at index {i}"
            ));
        }
        VertexIds::Explicit(ids)
    } else {
        VertexIds::Offset(base)
    };
    // NaN and the infinities are weights as the text formats hold them (an algorithm that
    // cannot take one says so itself, as delta-stepping does).
    let unit = vec![(); indices.len()];
    let adjacency = Csr::new_checked(n as usize, n as usize, offsets, indices, unit)
        .map_err(|e| Error::parse(name, 0, format!("corrupt adjacency: {e}")))?;
    Ok(Graph {
        adjacency,
        weights,
        value_type,
        ids,
        directed: h.directed,
        records,
        duplicates,
    })
}

/// A binary graph file opened for reading pieces of it: the header checked, nothing else
/// read. [`BinaryFile::read_rows`] reads one block of rows (their offsets, indices and
/// weights) by seeking past the rest, so that a process (an MPI rank) can hold its rows
/// without ever holding the graph.
///
/// # What is checked
/// The header as [`decode`] checks it, and that the file's length is the one it
/// declares; the rows read, as [`Csr::new_checked`] checks a whole graph (offsets that
/// rise within `0..=nnz`, columns sorted, unrepeated and below `n`); explicit ids read by
/// [`BinaryFile::ids`], that they strictly increase. The CRC-32 covers the whole file,
/// so a piece cannot be checked against it: [`read_graph`](super::read_graph) checks it.
///
/// The file must be a regular, uncompressed file (a `.gz` or a pipe cannot seek): read it
/// whole with [`read_graph`](super::read_graph) instead.
#[derive(Debug)]
pub struct BinaryFile {
    file: std::fs::File,
    name: String,
    header: BinaryHeader,
}

/// What a binary graph file's header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BinaryHeader {
    /// Vertices.
    pub vertices: usize,
    /// Arcs (stored entries).
    pub arcs: u64,
    /// Whether the arcs are directed.
    pub directed: bool,
    /// Whether every arc has a weight.
    pub weighted: bool,
    /// What the values are.
    pub value_type: ValueType,
    /// Whether the file lists explicit vertex ids (else ids are index + base).
    pub explicit_ids: bool,
    /// Records read when the file was made.
    pub records: u64,
    /// Repeated records when the file was made.
    pub duplicates: u64,
    base: u64,
}

impl BinaryHeader {
    /// A header from its fields (`base`: the id of vertex 0 when the ids are not
    /// explicit).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        vertices: usize,
        arcs: u64,
        directed: bool,
        weighted: bool,
        value_type: ValueType,
        explicit_ids: bool,
        records: u64,
        duplicates: u64,
        base: u64,
    ) -> BinaryHeader {
        BinaryHeader {
            vertices,
            arcs,
            directed,
            weighted,
            value_type,
            explicit_ids,
            records,
            duplicates,
            base,
        }
    }

    /// The header of a file holding `g`.
    pub fn of(g: &Graph) -> BinaryHeader {
        let (explicit_ids, base) = match g.ids {
            VertexIds::Offset(b) => (false, b),
            VertexIds::Explicit(_) => (true, 0),
        };
        BinaryHeader::new(
            g.vertices(),
            g.arcs() as u64,
            g.directed,
            g.weights.is_some(),
            g.value_type,
            explicit_ids,
            g.records,
            g.duplicates,
            base,
        )
    }

    /// The id of vertex 0 when the ids are not explicit (0 when they are).
    pub fn base(&self) -> u64 {
        self.base
    }

    pub(crate) fn set_base(&mut self, base: u64) {
        self.base = base;
    }
}

/// Rows `rows` of a binary graph file, as [`BinaryFile::read_rows`] returns them.
#[derive(Clone, Debug, PartialEq)]
pub struct RowBlock {
    /// The rows, in the whole graph's numbering.
    pub rows: std::ops::Range<usize>,
    /// Where row `rows.start` begins among the whole graph's arcs.
    pub first_arc: u64,
    /// `rows.len() + 1` offsets into `indices`, from 0 (the file's offsets less
    /// `first_arc`).
    pub offsets: Vec<u64>,
    /// Column indices of the rows, each row ascending.
    pub indices: Vec<Index>,
    /// The weights of those arcs, when the file is weighted.
    pub weights: Option<Vec<f64>>,
}

impl BinaryFile {
    /// Opens `path` and checks its header.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be opened or read; [`Error::Parse`] (line 0)
    /// for what [`decode`] refuses in a header, for a length other than the declared one,
    /// and for a gzip file (which cannot be read in pieces).
    pub fn open(path: &std::path::Path) -> Result<BinaryFile> {
        use std::io::Read;
        let name = path.display().to_string();
        let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
        let mut head = [0u8; HEADER_BYTES];
        let mut got = 0;
        while got < HEADER_BYTES {
            let k = file
                .read(&mut head[got..])
                .map_err(|e| Error::io(path, e))?;
            if k == 0 {
                break;
            }
            got += k;
        }
        let err = |m: String| Err(Error::parse(&name, 0, m));
        if got >= 2 && head[..2] == [0x1f, 0x8b] {
            return err("gzip data cannot be read in row blocks; decompress it first".into());
        }
        if got < 8 || head[..8] != MAGIC {
            return err("not an edgeblas binary graph (wrong magic bytes)".into());
        }
        if got < HEADER_BYTES {
            return err(format!(
                "truncated: {got} bytes, shorter than the {HEADER_BYTES}-byte header"
            ));
        }
        let h = Header::parse(&name, &head, len)?;
        let header = BinaryHeader {
            vertices: h.n as usize,
            arcs: h.nnz,
            directed: h.directed,
            weighted: h.weighted,
            value_type: h.value_type,
            explicit_ids: h.explicit,
            records: h.records,
            duplicates: h.duplicates,
            base: h.base,
        };
        Ok(BinaryFile { file, name, header })
    }

    /// The header.
    pub fn header(&self) -> &BinaryHeader {
        &self.header
    }

    /// The name messages give the file.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn sections(&self) -> Sections {
        let h = &self.header;
        Sections::new(h.vertices as u64, h.arcs, h.weighted, h.explicit_ids)
            .expect("checked by open")
    }

    /// `len` bytes from byte `at` of the file.
    fn bytes_at(&mut self, at: u64, len: usize) -> Result<Vec<u8>> {
        use std::io::{Read, Seek, SeekFrom};
        let mut buf = vec![0u8; len];
        let name = self.name.clone();
        let io = |e| Error::io(std::path::Path::new(&name), e);
        self.file.seek(SeekFrom::Start(at)).map_err(io)?;
        self.file.read_exact(&mut buf).map_err(io)?;
        Ok(buf)
    }

    /// The offsets `rows.start..=rows.end` as stored (where each row begins among all
    /// arcs), checked to rise within `0..=arcs`.
    ///
    /// # Errors
    /// [`Error::Io`] on a failed read; [`Error::Parse`] for offsets that fall or pass
    /// the arc count.
    ///
    /// # Panics
    /// When `rows` is not within `0..vertices` (a caller's mistake, not the file's).
    pub fn offsets(&mut self, rows: std::ops::Range<usize>) -> Result<Vec<u64>> {
        let n = self.header.vertices;
        assert!(
            rows.start <= rows.end && rows.end <= n,
            "rows {rows:?} outside 0..{n}"
        );
        let at = HEADER_BYTES as u64 + 8 * rows.start as u64;
        let bytes = self.bytes_at(at, 8 * (rows.len() + 1))?;
        let offsets = decode_words::<u64, 8>(&bytes, u64::from_le_bytes);
        let arcs = self.header.arcs;
        if rows.start == 0 && offsets[0] != 0 {
            return Err(Error::parse(
                &self.name,
                0,
                format!("corrupt adjacency: offsets[0] = {}, expected 0", offsets[0]),
            ));
        }
        if rows.end == n && offsets[rows.len()] != arcs {
            return Err(Error::parse(
                &self.name,
                0,
                format!(
                    "corrupt adjacency: the offsets end at {}, the header declares {arcs} arcs",
                    offsets[rows.len()]
                ),
            ));
        }
        if let Some(i) = (0..rows.len()).find(|&i| offsets[i] > offsets[i + 1]) {
            return Err(Error::parse(
                &self.name,
                0,
                format!(
                    "corrupt adjacency: offsets decrease at row {}",
                    rows.start + i
                ),
            ));
        }
        if offsets[rows.len()] > arcs {
            return Err(Error::parse(
                &self.name,
                0,
                format!(
                    "corrupt adjacency: offsets pass the {arcs} arcs the header declares at row {}",
                    rows.end
                ),
            ));
        }
        Ok(offsets)
    }

    /// Rows `rows` of the adjacency (and their weights): reads their `rows.len() + 1`
    /// offsets, then only the indices and weights between the first and the last.
    ///
    /// # Errors
    /// [`Error::Io`] on a failed read; [`Error::Parse`] (line 0, naming the file) for
    /// rows that break the CSR invariants.
    ///
    /// # Panics
    /// When `rows` is not within `0..vertices`.
    ///
    /// # Example
    /// ```
    /// use edgeblas::io::{read_graph, write_graph, ReadOptions, binary::BinaryFile};
    /// let dir = tempfile::tempdir().unwrap();
    /// let (txt, ebg) = (dir.path().join("g.txt"), dir.path().join("g.ebg"));
    /// std::fs::write(&txt, "0 1\n0 2\n1 2\n2 0\n3 1\n").unwrap();
    /// let g = read_graph(&txt, &ReadOptions::default()).unwrap();
    /// write_graph(&ebg, &g, None).unwrap();
    /// let mut f = BinaryFile::open(&ebg).unwrap();
    /// let b = f.read_rows(1..3).unwrap();
    /// assert_eq!((b.first_arc, b.offsets, b.indices), (2, vec![0, 1, 2], vec![2, 0]));
    /// ```
    pub fn read_rows(&mut self, rows: std::ops::Range<usize>) -> Result<RowBlock> {
        let global = self.offsets(rows.clone())?;
        let (first, last) = (global[0], global[rows.len()]);
        let count = usize::try_from(last - first).expect("a block that fits memory");
        let s = self.sections();
        let idx_at = (HEADER_BYTES + s.offsets) as u64 + 4 * first;
        let bytes = self.bytes_at(idx_at, 4 * count)?;
        let indices = decode_words::<u32, 4>(&bytes, u32::from_le_bytes);
        drop(bytes);
        let weights = if self.header.weighted {
            let at = (HEADER_BYTES + s.offsets + s.indices + s.pad) as u64 + 8 * first;
            let bytes = self.bytes_at(at, 8 * count)?;
            Some(decode_words::<f64, 8>(&bytes, f64::from_le_bytes))
        } else {
            None
        };
        let offsets: Vec<u64> = global.iter().map(|&o| o - first).collect();
        let n = self.header.vertices;
        let broken = (0..rows.len()).into_par_iter().find_first(|&i| {
            let row = &indices[offsets[i] as usize..offsets[i + 1] as usize];
            row.windows(2).any(|w| w[0] >= w[1]) || row.last().is_some_and(|&c| c as usize >= n)
        });
        if let Some(i) = broken {
            return Err(Error::parse(
                &self.name,
                0,
                format!(
                    "corrupt adjacency: row {} has column indices that are unsorted, repeated or >= ncols = {n}",
                    rows.start + i
                ),
            ));
        }
        Ok(RowBlock {
            rows,
            first_arc: first,
            offsets,
            indices,
            weights,
        })
    }

    /// The vertex ids: read from the file when it lists them (checked to strictly
    /// increase), else the base the header gives.
    ///
    /// # Errors
    /// [`Error::Io`] on a failed read; [`Error::Parse`] for ids that do not increase.
    pub fn ids(&mut self) -> Result<VertexIds> {
        if !self.header.explicit_ids {
            return Ok(VertexIds::Offset(self.header.base));
        }
        let s = self.sections();
        let at = (HEADER_BYTES + s.offsets + s.indices + s.pad + s.weights) as u64;
        let bytes = self.bytes_at(at, s.ids)?;
        let ids = decode_words::<u64, 8>(&bytes, u64::from_le_bytes);
        if let Some(i) = (1..ids.len()).find(|&i| ids[i - 1] >= ids[i]) {
            return Err(Error::parse(
                &self.name,
                0,
                format!("explicit vertex ids are not strictly increasing at index {i}"),
            ));
        }
        Ok(VertexIds::Explicit(ids))
    }
}
