//! A graph as a directory of row-block parts: `DIR/part-00000.ebg`, `part-00001.ebg`,
//! ..., one per MPI rank, each holding a consecutive block of rows, so that rank `r`
//! reads part `r` alone (and checks its CRC) and no process ever holds the whole graph.
//! `edgeblas convert IN DIR --parts P` writes one from any graph, `generate chung-lu
//! --backend mpi -o DIR` writes one part per rank without gathering, and
//! [`read_dir`] (what [`super::read_graph`] does with a directory) puts one together.
//!
//! # Layout of a part (the binary format's version 1 with the part flag, bit 5)
//! | bytes | field |
//! |---|---|
//! | 0..64 | the header of [`super::binary`]: `n` the whole graph's vertices, `nnz` this part's arcs, id base, records and duplicates of the whole graph |
//! | 64..104 | part `r`, parts `P`, first row, rows, the whole graph's arcs: five u64 |
//! | 104.. | offsets `(rows + 1) x u64` from 0; indices `nnz x u32`, padded to 8 bytes; weights `nnz x f64` if weighted; ids `n x u64` if explicit (part 0 only) |
//!
//! The CRC-32 covers bytes 0..60 and everything from 64, as in a whole file.

use std::path::{Path, PathBuf};

use super::binary::{self, BinaryHeader, F_PART, HEADER_BYTES, MAGIC, RowBlock, VERSION};
use super::{Graph, VertexIds};
use crate::algebra::Index;
use crate::error::{Error, Result};
use crate::matrix::Csr;

/// Bytes of the block header after the 64-byte header.
const BLOCK_BYTES: usize = 40;

/// The path of part `r` in `dir`.
pub fn part_path(dir: &Path, r: usize) -> PathBuf {
    dir.join(format!("part-{r:05}.ebg"))
}

/// What a part says of itself and of the whole graph.
#[derive(Clone, Debug, PartialEq)]
pub struct PartHeader {
    /// The whole graph's header (`arcs` the whole graph's arcs).
    pub graph: BinaryHeader,
    /// This part's number.
    pub part: usize,
    /// The parts of the graph.
    pub parts: usize,
}

/// One part as read: its header and its rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// What it says of itself and of the whole.
    pub header: PartHeader,
    /// Its rows, with their weights.
    pub rows: RowBlock,
    /// The explicit vertex ids (part 0 of a graph that lists them), else `None`.
    pub ids: Option<Vec<u64>>,
}

/// The bytes of part `part` of `parts`: `header` describes the whole graph (its
/// `explicit_ids` says whether part 0 lists the ids), `rows` the rows of this part.
///
/// # Panics
/// When the pieces disagree (weights not one per arc, offsets not one per row plus one,
/// part 0 of a graph with explicit ids without one id per vertex): a caller's mistake.
pub fn encode_part(
    header: &BinaryHeader,
    part: usize,
    parts: usize,
    rows: &RowBlock,
    ids: Option<&[u64]>,
) -> Vec<u8> {
    let nnz = rows.indices.len();
    assert_eq!(
        rows.offsets.len(),
        rows.rows.len() + 1,
        "offsets != rows + 1"
    );
    assert_eq!(
        rows.offsets.last().copied(),
        Some(nnz as u64),
        "offsets end"
    );
    assert_eq!(
        rows.weights.as_ref().map(Vec::len),
        header.weighted.then_some(nnz),
        "weights != arcs"
    );
    let ids = ids.filter(|_| part == 0 && header.explicit_ids);
    if part == 0 && header.explicit_ids {
        let ids = ids.expect("part 0 of a graph with explicit ids lists them");
        assert_eq!(ids.len(), header.vertices, "ids != vertices");
    }
    let mut flags = binary::flags_of(header) | F_PART;
    if ids.is_none() {
        flags &= !binary::F_EXPLICIT;
    }
    let mut out = Vec::with_capacity(
        HEADER_BYTES
            + BLOCK_BYTES
            + 8 * rows.offsets.len()
            + 12 * nnz
            + 8
            + ids.map_or(0, |i| 8 * i.len()),
    );
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&flags.to_le_bytes());
    for x in [
        header.vertices as u64,
        nnz as u64,
        header.base(),
        header.records,
        header.duplicates,
    ] {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out.extend_from_slice(&[0u8; 8]);
    for x in [
        part as u64,
        parts as u64,
        rows.rows.start as u64,
        rows.rows.len() as u64,
        header.arcs,
    ] {
        out.extend_from_slice(&x.to_le_bytes());
    }
    for &o in &rows.offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    for &j in &rows.indices {
        out.extend_from_slice(&j.to_le_bytes());
    }
    out.resize(out.len() + (4 * nnz) % 8, 0);
    for &x in rows.weights.iter().flatten() {
        out.extend_from_slice(&x.to_le_bytes());
    }
    for &x in ids.into_iter().flatten() {
        out.extend_from_slice(&x.to_le_bytes());
    }
    let c = binary::crc(&out);
    out[60..64].copy_from_slice(&c.to_le_bytes());
    out
}

/// Writes part `part` of `parts` to [`part_path`]`(dir, part)`, whole or not at all
/// ([`super::write_atomically`]).
///
/// # Errors
/// [`Error::Io`] when the file cannot be written.
pub fn write_part(
    dir: &Path,
    header: &BinaryHeader,
    part: usize,
    parts: usize,
    rows: &RowBlock,
    ids: Option<&[u64]>,
) -> Result<()> {
    let bytes = encode_part(header, part, parts, rows, ids);
    super::write_atomically(&part_path(dir, part), |w| w.write_all(&bytes))
}

/// Decodes the bytes of a part (`name` for messages).
///
/// # Errors
/// [`Error::Parse`] (line 0, naming the file) for a wrong magic, version or flags (a
/// whole-graph file is not a part), sizes other than the file's, a checksum mismatch,
/// rows that break the CSR invariants, or ids that do not increase.
pub fn decode_part(name: &str, b: &[u8]) -> Result<Part> {
    let err = |m: String| Err(Error::parse(name, 0, m));
    if b.len() < HEADER_BYTES + BLOCK_BYTES || b[..8] != MAGIC {
        return err("not a part of an edgeblas graph (wrong magic bytes or truncated)".into());
    }
    let (flags, version) = (binary::u32_at(b, 12), binary::u32_at(b, 8));
    if version != VERSION {
        return err(format!(
            "binary graph version {version} is not supported (this build reads version {VERSION})"
        ));
    }
    if flags & F_PART == 0 {
        return err("a whole binary graph, not a part of one (read it as a file)".into());
    }
    let h = binary::parse_flags(name, flags & !F_PART)?;
    let w = |at: usize| binary::u64_at(b, at);
    let (n, nnz, base, records, duplicates) = (w(16), w(24), w(32), w(40), w(48));
    let [part, parts, first, rows, total] = [0, 1, 2, 3, 4].map(|i| w(HEADER_BYTES + 8 * i));
    let weighted = h.weighted;
    let size = (|| {
        let offsets = rows.checked_add(1)?.checked_mul(8)?;
        let indices = nnz.checked_mul(4)?;
        let weights = if weighted { nnz.checked_mul(8)? } else { 0 };
        let ids = if h.explicit_ids { n.checked_mul(8)? } else { 0 };
        (HEADER_BYTES as u64 + BLOCK_BYTES as u64)
            .checked_add(offsets)?
            .checked_add(indices)?
            .checked_add(indices % 8)?
            .checked_add(weights)?
            .checked_add(ids)
    })();
    if size != Some(b.len() as u64) {
        return err(format!(
            "the header declares {rows} rows and {nnz} arcs, which do not fit the file's {} bytes (truncated or corrupt)",
            b.len()
        ));
    }
    if n > u32::MAX as u64 || part >= parts || first.checked_add(rows).is_none_or(|e| e > n) {
        return err(format!(
            "part {part} of {parts}, rows {first}.. ({rows}) of {n} vertices: inconsistent"
        ));
    }
    let (stored, actual) = (binary::u32_at(b, 60), binary::crc(b));
    if stored != actual {
        return err(format!(
            "checksum mismatch (stored {stored:08x}, computed {actual:08x}): the file is corrupt"
        ));
    }
    let mut at = HEADER_BYTES + BLOCK_BYTES;
    let mut take = |len: usize| {
        let piece = &b[at..at + len];
        at += len;
        piece
    };
    let (rows, nnz) = (rows as usize, nnz as usize);
    let offsets = binary::decode_words::<u64, 8>(take(8 * (rows + 1)), u64::from_le_bytes);
    let indices: Vec<Index> = binary::decode_words::<u32, 4>(take(4 * nnz), u32::from_le_bytes);
    take((4 * nnz) % 8);
    let weights =
        weighted.then(|| binary::decode_words::<f64, 8>(take(8 * nnz), f64::from_le_bytes));
    let ids = h
        .explicit_ids
        .then(|| binary::decode_words::<u64, 8>(take(8 * n as usize), u64::from_le_bytes));
    if let Some(i) = ids
        .as_ref()
        .and_then(|ids| (1..ids.len()).find(|&i| ids[i - 1] >= ids[i]))
    {
        return err(format!(
            "explicit vertex ids are not strictly increasing at index {i}"
        ));
    }
    // The rows' invariants, as a matrix of `rows` rows and all `n` columns.
    let checked = Csr::new_checked(rows, n as usize, offsets, indices, vec![(); nnz])
        .map_err(|e| Error::parse(name, 0, format!("corrupt adjacency: {e}")))?;
    let (_, _, offsets, indices, _) = checked.into_parts();
    let first = first as usize;
    Ok(Part {
        header: PartHeader {
            graph: BinaryHeader::new(
                n as usize,
                total,
                h.directed,
                weighted,
                h.value_type,
                h.explicit_ids,
                records,
                duplicates,
                base,
            ),
            part: part as usize,
            parts: parts as usize,
        },
        rows: RowBlock {
            rows: first..first + rows,
            first_arc: 0,
            offsets,
            indices,
            weights,
        },
        ids,
    })
}

/// Reads the part at `path`.
///
/// # Errors
/// [`Error::Io`] when it cannot be read; as [`decode_part`].
pub fn read_part(path: &Path) -> Result<Part> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    decode_part(&path.display().to_string(), &bytes)
}

/// The number of parts in `dir`: `part-00000.ebg` to `part-{P-1}.ebg`, all present.
///
/// # Errors
/// [`Error::Io`] when the directory cannot be listed; [`Error::InvalidArgument`] when it
/// holds no part or misses one.
pub fn count_parts(dir: &Path) -> Result<usize> {
    let mut numbers = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let e = e.map_err(|e| Error::io(dir, e))?;
        let name = e.file_name();
        let name = name.to_string_lossy();
        if let Some(r) = name
            .strip_prefix("part-")
            .and_then(|s| s.strip_suffix(".ebg"))
            .filter(|s| s.len() >= 5 && s.bytes().all(|c| c.is_ascii_digit()))
            .and_then(|s| s.parse::<usize>().ok())
        {
            numbers.push(r);
        }
    }
    numbers.sort_unstable();
    if numbers.is_empty() {
        return Err(Error::InvalidArgument(format!(
            "{}: a directory with no part-NNNNN.ebg files (write one with edgeblas convert IN DIR --parts P)",
            dir.display()
        )));
    }
    if let Some(missing) = (0..numbers.len()).find(|&i| numbers[i] != i) {
        return Err(Error::InvalidArgument(format!(
            "{}: part {} is missing",
            part_path(dir, missing).display(),
            missing
        )));
    }
    Ok(numbers.len())
}

/// Checks that `p` (read from `path`, its rows from `start`) is part `r` of the graph
/// part 0 (`first`) describes, and that it starts at row `at`, where the part before
/// ended.
pub(crate) fn check_part(
    path: &Path,
    p: &PartHeader,
    first: &PartHeader,
    r: usize,
    at: usize,
    start: usize,
) -> Result<()> {
    let mut whole = p.graph;
    whole.explicit_ids = first.graph.explicit_ids;
    whole.set_base(first.graph.base());
    let why = if p.part != r {
        Some(format!("says it is part {}", p.part))
    } else if p.parts != first.parts {
        Some(format!(
            "says the graph has {} parts, part 0 says {}",
            p.parts, first.parts
        ))
    } else if whole != first.graph {
        Some("describes another graph than part 0 (vertices, arcs, flags)".into())
    } else if start != at {
        Some(format!(
            "starts at row {start}, the part before ends at row {at}"
        ))
    } else {
        None
    };
    match why {
        Some(w) => Err(Error::parse(path.display().to_string(), 0, w)),
        None => Ok(()),
    }
}

/// Reads a directory of parts into one graph (on one process).
///
/// # Errors
/// As [`count_parts`] and [`read_part`]; [`Error::Parse`] naming the part when the parts
/// do not make one graph (another graph's part, a gap or overlap of rows, arcs that do
/// not add up).
pub fn read_dir(dir: &Path) -> Result<Graph> {
    let parts = count_parts(dir)?;
    let p0 = read_part(&part_path(dir, 0))?;
    let h = p0.header.graph;
    let n = h.vertices;
    let mut offsets: Vec<u64> = Vec::with_capacity(n + 1);
    offsets.push(0);
    let mut indices: Vec<Index> = Vec::with_capacity(h.arcs.min(1 << 30) as usize);
    let mut weights: Option<Vec<f64>> = h.weighted.then(Vec::new);
    let ids = p0.ids.clone();
    let first = p0.header.clone();
    let mut at = 0;
    let mut take = |p: Part, r: usize| -> Result<()> {
        check_part(
            &part_path(dir, r),
            &p.header,
            &first,
            r,
            at,
            p.rows.rows.start,
        )?;
        let base = indices.len() as u64;
        offsets.extend(p.rows.offsets[1..].iter().map(|&o| o + base));
        indices.extend_from_slice(&p.rows.indices);
        if let (Some(w), Some(pw)) = (weights.as_mut(), p.rows.weights) {
            w.extend_from_slice(&pw);
        }
        at = p.rows.rows.end;
        Ok(())
    };
    take(p0, 0)?;
    for r in 1..parts {
        take(read_part(&part_path(dir, r))?, r)?;
    }
    let name = dir.display().to_string();
    if at != n || indices.len() as u64 != h.arcs {
        return Err(Error::parse(
            &name,
            0,
            format!(
                "the parts end at row {at} with {} arcs; the graph has {n} vertices and {} arcs",
                indices.len(),
                h.arcs
            ),
        ));
    }
    let nnz = indices.len();
    let adjacency = Csr::new_checked(n, n, offsets, indices, vec![(); nnz])
        .map_err(|e| Error::parse(&name, 0, format!("corrupt adjacency: {e}")))?;
    Ok(Graph {
        adjacency,
        weights,
        value_type: h.value_type,
        ids: match ids {
            Some(ids) => VertexIds::Explicit(ids),
            None => VertexIds::Offset(h.base()),
        },
        directed: h.directed,
        records: h.records,
        duplicates: h.duplicates,
    })
}

/// The first row of each of `parts` blocks of `offsets`' rows, cut by arcs (each block
/// about `arcs / parts` arcs, and at least one row), then `n`.
///
/// # Panics
/// When `parts` is 0 or more than the rows.
pub fn cut_by_arcs(offsets: &[u64], parts: usize) -> Vec<usize> {
    let n = offsets.len() - 1;
    assert!(parts >= 1 && parts <= n, "parts {parts} for {n} rows");
    let arcs = offsets[n] as u128;
    let mut starts = vec![0usize];
    for r in 1..parts {
        let target = (arcs * r as u128 / parts as u128) as u64;
        let at = offsets.partition_point(|&o| o < target);
        // At least one row per part, and room for the parts after.
        let lo = starts[r - 1] + 1;
        let hi = n - (parts - r);
        starts.push(at.clamp(lo, hi));
    }
    starts.push(n);
    starts
}

/// Writes `g` as `parts` parts in `dir` (created if missing), cut by arcs
/// ([`cut_by_arcs`]); parts of an earlier, larger cut left in `dir` are removed after
/// the new ones are written, so that the directory holds exactly this graph.
///
/// # Errors
/// [`Error::InvalidArgument`] for 0 parts or more parts than vertices; [`Error::Io`]
/// when the directory or a part cannot be written.
pub fn write_dir(dir: &Path, g: &Graph, parts: usize) -> Result<()> {
    let n = g.vertices();
    if parts == 0 || parts > n {
        return Err(Error::InvalidArgument(format!(
            "--parts {parts}: give 1 to {n} parts (one per rank, at most one per vertex)"
        )));
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let header = BinaryHeader::of(g);
    let a = &g.adjacency;
    let o = a.offsets();
    let starts = cut_by_arcs(o, parts);
    let ids = match &g.ids {
        VertexIds::Explicit(ids) => Some(&ids[..]),
        VertexIds::Offset(_) => None,
    };
    for r in 0..parts {
        let (s, e) = (starts[r], starts[r + 1]);
        let (first, last) = (o[s] as usize, o[e] as usize);
        let rows = RowBlock {
            rows: s..e,
            first_arc: first as u64,
            offsets: o[s..=e].iter().map(|&x| x - first as u64).collect(),
            indices: a.indices()[first..last].to_vec(),
            weights: g.weights.as_ref().map(|w| w[first..last].to_vec()),
        };
        write_part(dir, &header, r, parts, &rows, ids)?;
    }
    remove_stale(dir, parts)
}

/// Removes `part-NNNNN.ebg` files numbered `parts` and up from `dir`.
///
/// # Errors
/// [`Error::Io`] when one cannot be removed.
pub fn remove_stale(dir: &Path, parts: usize) -> Result<()> {
    let mut r = parts;
    loop {
        let p = part_path(dir, r);
        match std::fs::remove_file(&p) {
            Ok(()) => r += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(Error::io(&p, e)),
        }
    }
}
