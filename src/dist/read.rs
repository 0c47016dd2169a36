//! Every rank reads its own rows of a binary graph file ([`read_row_blocks`]): rank 0
//! reads the header and cuts the rows by arcs from a few offsets
//! ([`RowBlocks::by_arcs_lookup`]), and every rank then seeks to its block and reads it
//! alone ([`BinaryFile::read_rows`]). No rank, rank 0 included, holds more of the graph
//! than its rows (and rank 0 the vertex ids, one per vertex, for the outputs).
//!
//! The file must be a regular, uncompressed `.ebg` that every rank can open at the same
//! path (a shared or replicated file system).
//!
//! A text file goes through rank 0 in blocks ([`read_text_row_blocks`]): rank 0 reads it
//! twice, a block at a time, first to check it whole and count each row's arcs (the cut),
//! then to send every record to the rank that owns its row; each rank builds its rows
//! from what it received. Rank 0 holds a block of text and one word per vertex (the
//! counts, and the ids of a Graphalytics graph), never the graph. Anything else (the
//! adjacency form, a named pipe, which cannot be read twice) goes through rank 0 whole
//! ([`super::bfs::scatter_graph`]).

use std::path::Path;

use rayon::prelude::*;

use super::net::{Failed, Net};
use super::partition::{Partition, RowBlocks};
use crate::error::{Error, Result};
use crate::io::binary::{self, BinaryFile, BinaryHeader, RowBlock};
use crate::io::parts::{self, PartHeader};
use crate::io::stream::{Summary, TextStream};
use crate::io::{Format, ReadOptions, ValueType, VertexIds};

/// One rank's rows of a binary graph file, and what every rank knows of the whole.
#[derive(Clone, Debug)]
pub struct RowBlocksRead {
    /// The file's header (the same on every rank).
    pub header: BinaryHeader,
    /// The cut of the rows over the ranks.
    pub part: RowBlocks,
    /// This rank's rows.
    pub rows: RowBlock,
    /// The vertex ids, on rank 0 only (`None` elsewhere).
    pub ids: Option<VertexIds>,
}

fn header_words(h: &BinaryHeader) -> Vec<u64> {
    vec![
        h.vertices as u64,
        h.arcs,
        h.directed as u64,
        h.weighted as u64,
    ]
}

/// Rank 0's part: the header, the ids, and the cut.
fn plan(path: &Path, ranks: usize) -> Result<(BinaryFile, VertexIds, RowBlocks)> {
    let mut f = BinaryFile::open(path)?;
    let h = *f.header();
    if h.vertices < ranks {
        return Err(Error::InvalidArgument(format!(
            "{ranks} ranks for {} vertices: run at most {} ranks (mpirun -np)",
            h.vertices, h.vertices
        )));
    }
    let ids = f.ids()?;
    let part =
        RowBlocks::by_arcs_lookup(h.vertices, h.arcs, ranks, |v| f.offsets(v..v).map(|o| o[0]))?;
    Ok((f, ids, part))
}

/// Reads the binary graph file at `path` in row blocks: this rank's rows of the
/// adjacency (and weights), the cut of the rows by arcs, and on rank 0 the vertex ids.
/// A directory is a graph written in parts ([`crate::io::parts`]), one per rank: rank
/// `r` reads part `r` whole (its checksum checked). Collective: every rank passes the
/// same path.
///
/// # Errors
/// Agreed by all ranks ([`Net::agree`]): rank 0 gets the message of the first failure
/// ([`Failed::Here`]: a file that cannot be opened or read, a bad header, more ranks
/// than vertices, rows that break the CSR invariants, on any rank), the others
/// [`Failed::Elsewhere`].
pub fn read_row_blocks(net: &Net, path: &Path) -> std::result::Result<RowBlocksRead, Failed> {
    if path.is_dir() {
        return read_parts(net, path);
    }
    let planned = if net.is_root() {
        plan(path, net.size()).map(Some)
    } else {
        Ok(None)
    };
    let planned = net.agree(planned)?;
    // [vertices, arcs, directed, weighted, starts...] from rank 0.
    let mut words = Vec::new();
    if let Some((f, _, part)) = &planned {
        words = header_words(f.header());
        words.extend_from_slice(part.starts());
    }
    let words = net.broadcast_u64s(&words);
    let part = RowBlocks::from_starts(words[4..].to_vec());
    let (file, ids) = match planned {
        Some((f, ids, _)) => (Some(f), Some(ids)),
        None => (None, None),
    };
    let range = part.range(net.rank());
    let read = match file {
        Some(mut f) => f.read_rows(range).map(|r| (*f.header(), r)),
        None => BinaryFile::open(path).and_then(|mut f| {
            let h = *f.header();
            if header_words(&h) != words[..4] {
                return Err(Error::parse(
                    f.name(),
                    0,
                    "the file changed while the ranks read it (another header)",
                ));
            }
            f.read_rows(range).map(|r| (h, r))
        }),
    };
    let (header, rows) = net.agree(read)?;
    Ok(RowBlocksRead {
        header,
        part,
        rows,
        ids,
    })
}

/// The parts of a graph in directory `dir`, one per rank: rank 0 counts them (there
/// must be one per rank), every rank reads its own, and the ranks check together that
/// the parts are of one graph (part 0's header, rows that follow on, arcs that add up).
fn read_parts(net: &Net, dir: &Path) -> std::result::Result<RowBlocksRead, Failed> {
    let ranks = net.size();
    let counted = if net.is_root() {
        parts::count_parts(dir).and_then(|p| match p == ranks {
            true => Ok(()),
            false => Err(Error::InvalidArgument(format!(
                "{}: {p} parts for {ranks} ranks: run mpirun -np {p}, or write {ranks} parts (edgeblas convert IN DIR --parts {ranks})",
                dir.display()
            ))),
        })
    } else {
        Ok(())
    };
    net.agree(counted)?;
    let path = parts::part_path(dir, net.rank());
    let mine = net.agree(parts::read_part(&path))?;
    // Part 0's header, from rank 0: [vertices, arcs, flags, records, duplicates, base, parts].
    let mut words = Vec::new();
    if net.is_root() {
        let h = &mine.header.graph;
        words = vec![
            h.vertices as u64,
            h.arcs,
            binary::flags_of(h) as u64,
            h.records,
            h.duplicates,
            h.base(),
            mine.header.parts as u64,
        ];
    }
    let words = net.broadcast_u64s(&words);
    let mut first = binary::parse_flags("part 0", words[2] as u32)
        .expect("rank 0 read these flags from a checked part");
    first.vertices = words[0] as usize;
    first.arcs = words[1];
    first.records = words[3];
    first.duplicates = words[4];
    first.set_base(words[5]);
    let first = PartHeader {
        graph: first,
        part: 0,
        parts: words[6] as usize,
    };
    let r = &mine.rows.rows;
    let bounds = net.allgatherv(&[r.start as u64, r.end as u64]);
    let arcs = net.allreduce_sum(&[mine.rows.indices.len() as u64])[0];
    let rank = net.rank();
    let at = if rank == 0 {
        0
    } else {
        bounds[2 * rank - 1] as usize
    };
    let n = first.graph.vertices;
    let checked = parts::check_part(&path, &mine.header, &first, rank, at, r.start).and_then(|()| {
        let end = bounds[2 * ranks - 1] as usize;
        if rank + 1 == ranks && (end != n || arcs != first.graph.arcs) {
            return Err(Error::parse(
                dir.display().to_string(),
                0,
                format!(
                    "the parts end at row {end} with {arcs} arcs; the graph has {n} vertices and {} arcs",
                    first.graph.arcs
                ),
            ));
        }
        Ok(())
    });
    net.agree(checked)?;
    let mut starts: Vec<u64> = bounds.chunks_exact(2).map(|b| b[0]).collect();
    starts.push(n as u64);
    let explicit = mine.ids;
    let ids = net.is_root().then(|| match explicit {
        Some(ids) => VertexIds::Explicit(ids),
        None => VertexIds::Offset(first.graph.base()),
    });
    Ok(RowBlocksRead {
        header: first.graph,
        part: RowBlocks::from_starts(starts),
        rows: mine.rows,
        ids,
    })
}

/// The default block of [`read_text_row_blocks`]: 32 MiB of text.
pub const TEXT_BLOCK: usize = 32 << 20;

/// Whether the file at `path` in `format` can be read by [`read_text_row_blocks`]: a
/// regular file (it is read twice) in a text format that streams (edge list, Matrix
/// Market, DIMACS, Graphalytics), gzipped or not.
pub fn text_streams(path: &Path, format: Format) -> bool {
    crate::io::stream::streams(format) && std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

fn value_code(v: ValueType) -> u64 {
    match v {
        ValueType::Pattern => 0,
        ValueType::Integer => 1,
        ValueType::Real => 2,
    }
}

fn value_of_code(c: u64) -> ValueType {
    match c {
        0 => ValueType::Pattern,
        1 => ValueType::Integer,
        _ => ValueType::Real,
    }
}

/// The arc key `(row, column)`, ordered row-major.
fn key(s: u32, d: u32) -> u64 {
    ((s as u64) << 32) | d as u64
}

/// Rank 0's first pass: the whole file checked, and the cut of its rows by arcs.
/// Also each rank's number of records to come (its rows' arcs before repeats merge).
fn text_plan(
    path: &Path,
    format: Format,
    opts: &ReadOptions,
    ranks: usize,
    block: usize,
) -> Result<(Summary, bool, RowBlocks, Vec<u64>)> {
    let stream = TextStream::open(path, format, opts, block)?;
    let symmetric = stream.header.symmetric;
    // Arcs per row, at v + 1 (made offsets below); grown as the ids come for an edge list.
    let mut counts: Vec<u64> = vec![0; stream.header.vertices.map_or(1, |n| n + 1)];
    let summary = stream.for_each(|parts| {
        for p in &parts {
            let top = p.src.iter().chain(&p.dst).copied().max().unwrap_or(0) as usize;
            if counts.len() < top + 2 {
                counts.resize(top + 2, 0);
            }
            for (&s, &d) in p.src.iter().zip(&p.dst) {
                counts[s as usize + 1] += 1;
                if symmetric && s != d {
                    counts[d as usize + 1] += 1;
                }
            }
        }
        Ok(())
    })?;
    let n = summary.vertices;
    if n < ranks {
        return Err(Error::InvalidArgument(format!(
            "{ranks} ranks for {n} vertices: run at most {n} ranks (mpirun -np)"
        )));
    }
    counts.resize(n + 1, 0);
    for v in 0..n {
        counts[v + 1] += counts[v];
    }
    let part = RowBlocks::by_arcs(&counts, ranks);
    let to_come = (0..ranks)
        .map(|r| {
            let rows = part.range(r);
            counts[rows.end] - counts[rows.start]
        })
        .collect();
    Ok((summary, symmetric, part, to_come))
}

/// Reads the text graph file at `path` in `format` (edge list, Matrix Market, DIMACS,
/// Graphalytics; gzipped or not) in row blocks, through rank 0 in blocks of about
/// `block` bytes of text ([`TEXT_BLOCK`] is the default): each rank gets its rows of
/// the graph [`crate::io::read_graph`] reads (as written: `opts.undirected` is not
/// applied, as for a binary file), the cut of the rows by arcs, and rank 0 the vertex
/// ids. Rank 0 reads the file twice (so it must be a regular file: [`text_streams`])
/// and never holds more of it than a block. Collective: every rank passes the same
/// arguments; only rank 0 opens the file.
///
/// # Errors
/// Agreed by all ranks ([`Net::agree`]): rank 0 gets the message of
/// [`crate::io::read_graph`] for a bad file (file and line), or of more ranks than
/// vertices, or of a file that changed between the two passes; the others
/// [`Failed::Elsewhere`].
pub fn read_text_row_blocks(
    net: &Net,
    path: &Path,
    format: Format,
    opts: &ReadOptions,
    block: usize,
) -> std::result::Result<RowBlocksRead, Failed> {
    let ranks = net.size();
    let planned = if net.is_root() {
        text_plan(path, format, opts, ranks, block).map(Some)
    } else {
        Ok(None)
    };
    let planned = net.agree(planned)?;
    // [vertices, records, weighted, value type, symmetric, to come..., starts...] from
    // rank 0.
    let mut words = Vec::new();
    if let Some((sum, symmetric, part, to_come)) = &planned {
        words = vec![
            sum.vertices as u64,
            sum.records,
            sum.weighted as u64,
            value_code(sum.value_type),
            *symmetric as u64,
        ];
        words.extend_from_slice(to_come);
        words.extend_from_slice(part.starts());
    }
    let words = net.broadcast_u64s(&words);
    let (n, records, weighted) = (words[0] as usize, words[1], words[2] != 0);
    let (value_type, symmetric) = (value_of_code(words[3]), words[4] != 0);
    let to_come = words[5 + net.rank()] as usize;
    let part = RowBlocks::from_starts(words[5 + ranks..].to_vec());
    let ids = planned.map(|(sum, _, _, _)| sum.ids);

    // The second pass: rank 0 sends each block's arcs to their rows' owners, a round a
    // block (flag 1), then ends the rounds (flag 0); the others receive.
    // Sized once: what the first pass counted for this rank's rows.
    let mut keys: Vec<u64> = Vec::with_capacity(to_come);
    let mut values: Vec<f64> = Vec::with_capacity(if weighted { to_come } else { 0 });
    let mut receive = |sent_keys: &[Vec<u64>], sent_values: &[Vec<f64>]| {
        keys.extend(net.alltoallv(sent_keys));
        if weighted {
            values.extend(net.alltoallv(sent_values));
        }
    };
    let sent = if net.is_root() {
        let changed = || {
            Error::parse(
                path.display().to_string(),
                0,
                "the file changed while it was read (another vertex count)",
            )
        };
        let pass = TextStream::open(path, format, opts, block).and_then(|stream| {
            stream.for_each(|parts| {
                let mut out_k: Vec<Vec<u64>> = vec![Vec::new(); ranks];
                let mut out_v: Vec<Vec<f64>> = vec![Vec::new(); ranks];
                let mut bad = false;
                for p in &parts {
                    for k in 0..p.src.len() {
                        let (s, d) = (p.src[k], p.dst[k]);
                        if s as usize >= n || d as usize >= n {
                            bad = true;
                            continue;
                        }
                        let w = if weighted { p.w[k] } else { 0.0 };
                        let r = part.owner(s);
                        out_k[r].push(key(s, d));
                        if weighted {
                            out_v[r].push(w);
                        }
                        if symmetric && s != d {
                            let r = part.owner(d);
                            out_k[r].push(key(d, s));
                            if weighted {
                                out_v[r].push(w);
                            }
                        }
                    }
                }
                drop(parts);
                net.broadcast_u64s(&[1]);
                receive(&out_k, &out_v);
                if bad { Err(changed()) } else { Ok(()) }
            })
        });
        net.broadcast_u64s(&[0]);
        match pass {
            Ok(again) if again.vertices != n || again.records != records => Err(changed()),
            Ok(_) => Ok(()),
            Err(e) => Err(e),
        }
    } else {
        let empty_k = vec![Vec::new(); ranks];
        let empty_v = vec![Vec::new(); ranks];
        while net.broadcast_u64s(&[])[0] == 1 {
            receive(&empty_k, &empty_v);
        }
        Ok(())
    };
    net.agree(sent)?;

    let rows = part.range(net.rank());
    let block = build_rows(rows, keys, weighted.then_some(values));
    // The whole graph's counts: arcs, and the diagonal (which a symmetric file's
    // duplicate count needs: each kept edge is one arc on the diagonal or two off it).
    let diagonal = (0..block.rows.len())
        .map(|lv| {
            let row = &block.indices[block.offsets[lv] as usize..block.offsets[lv + 1] as usize];
            row.binary_search(&((block.rows.start + lv) as u32)).is_ok() as u64
        })
        .sum::<u64>();
    let arcs_here = block.indices.len() as u64;
    let before = net.allgatherv(&[arcs_here]);
    let first_arc: u64 = before[..net.rank()].iter().sum();
    let totals = net.allreduce_sum(&[arcs_here, diagonal]);
    let (arcs, diagonal) = (totals[0], totals[1]);
    let kept = if symmetric {
        (arcs + diagonal) / 2
    } else {
        arcs
    };
    let (explicit, base) = match &ids {
        Some(VertexIds::Explicit(_)) => (true, 0),
        Some(VertexIds::Offset(b)) => (false, *b),
        None => (false, 0),
    };
    // The ids' kind travels too: the other ranks' headers match rank 0's.
    let idw = net.broadcast_u64s(&[explicit as u64, base]);
    let header = BinaryHeader::new(
        n,
        arcs,
        !symmetric,
        weighted,
        value_type,
        idw[0] != 0,
        records,
        records - kept,
        idw[1],
    );
    Ok(RowBlocksRead {
        header,
        part,
        rows: RowBlock { first_arc, ..block },
        ids,
    })
}

/// This rank's rows from the arcs it received (`keys`, global `(row, column)` keys of
/// rows in `rows`, with their `values`): each row's columns ascending, repeats merged,
/// a repeated arc keeping its least value in IEEE total order (as the whole-file reader
/// does).
fn build_rows(rows: std::ops::Range<usize>, keys: Vec<u64>, values: Option<Vec<f64>>) -> RowBlock {
    let (keys, weights) = match values {
        None => {
            let mut keys = keys;
            keys.par_sort_unstable();
            keys.dedup();
            (keys, None)
        }
        Some(values) => {
            let mut pairs: Vec<(u64, f64)> = keys.into_iter().zip(values).collect();
            pairs.par_sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
            pairs.dedup_by_key(|p| p.0);
            let (k, w): (Vec<u64>, Vec<f64>) = pairs.into_iter().unzip();
            (k, Some(w))
        }
    };
    let mut offsets = vec![0u64; rows.len() + 1];
    for &k in &keys {
        let lv = (k >> 32) as usize - rows.start;
        offsets[lv + 1] += 1;
    }
    for lv in 0..rows.len() {
        offsets[lv + 1] += offsets[lv];
    }
    let indices = keys.iter().map(|&k| k as u32).collect();
    RowBlock {
        rows,
        first_arc: 0,
        offsets,
        indices,
        weights,
    }
}
