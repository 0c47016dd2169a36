//! Writing graphs: rows formatted in parallel blocks, written in order, gzip when the
//! path ends in `.gz`.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::write::GzEncoder;
use rayon::prelude::*;

use super::source::has_gz_suffix;
use super::{AtomicFile, Format, Graph, ValueType, VertexIds, binary};
use crate::error::{Error, Result};

/// A file being written, compressed or not; a file sink writes a temporary file that
/// [`Sink::commit`] renames into place ([`AtomicFile`]).
enum Sink {
    Plain(AtomicFile),
    Gz(Box<GzEncoder<AtomicFile>>),
    Memory(Vec<u8>),
}

impl Sink {
    fn create(path: &Path) -> Result<Sink> {
        let f = AtomicFile::create(path)?;
        let gz = path.to_str().is_some_and(has_gz_suffix);
        Ok(if gz {
            Sink::Gz(Box::new(GzEncoder::new(f, Compression::default())))
        } else {
            Sink::Plain(f)
        })
    }

    fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        match self {
            Sink::Plain(w) => w.write_all(b),
            Sink::Gz(w) => w.write_all(b),
            Sink::Memory(v) => {
                v.extend_from_slice(b);
                Ok(())
            }
        }
    }

    /// Ends the stream and flushes it (so that a write error shows here, on this
    /// file); the file, written whole, still waits for its commit.
    fn finish(self) -> io::Result<Option<AtomicFile>> {
        let mut f = match self {
            Sink::Plain(f) => f,
            Sink::Gz(w) => w.finish()?,
            Sink::Memory(_) => return Ok(None),
        };
        f.flush()?;
        Ok(Some(f))
    }

    /// Ends the stream and renames the file into place (errors name `path`).
    fn commit(self, path: &Path) -> Result<()> {
        match self.finish().map_err(|e| Error::io(path, e))? {
            Some(f) => f.commit(),
            None => Ok(()),
        }
    }
}

/// Appends the decimal form of `x`.
#[inline]
fn put_u64(out: &mut Vec<u8>, mut x: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends a weight: an integer for integer graphs, else Rust's shortest round-trip form
/// (`{:?}`, which always shows a `.` or an exponent, so it reads back as real).
#[inline]
fn put_value(out: &mut Vec<u8>, x: f64, integer: bool) {
    if integer {
        if x < 0.0 {
            out.push(b'-');
        }
        put_u64(out, x.abs() as u64);
    } else if x.is_nan() {
        // Rust's form is `NaN`; Matrix Market writers (SuiteSparse's among them) write
        // `nan`, and every reader here takes either.
        out.extend_from_slice(b"nan");
    } else {
        // Writing to a Vec cannot fail; infinities are `inf` and `-inf`.
        let _ = write!(out, "{x:?}");
    }
}

/// The value type a writer uses: none without weights, integer only when claimed.
fn field(g: &Graph) -> ValueType {
    match (&g.weights, g.value_type) {
        (None, _) => ValueType::Pattern,
        (Some(_), ValueType::Integer) => ValueType::Integer,
        (Some(_), _) => ValueType::Real,
    }
}

/// Checks what a writer relies on before any file is created.
fn check(g: &Graph) -> Result<()> {
    let n = g.vertices();
    if let Some(w) = &g.weights {
        if w.len() != g.arcs() {
            return Err(Error::InvalidArgument(format!(
                "the graph has {} weights for {} arcs",
                w.len(),
                g.arcs()
            )));
        }
        if field(g) == ValueType::Integer
            && w.par_iter()
                .any(|x| x.fract() != 0.0 || x.abs() > (1u64 << 53) as f64)
        {
            return Err(Error::InvalidArgument(
                "the graph says its weights are integers, but one is not an integer of at most 2^53"
                    .into(),
            ));
        }
    }
    if let VertexIds::Explicit(ids) = &g.ids
        && ids.len() != n
    {
        return Err(Error::InvalidArgument(format!(
            "the graph has {} explicit ids for {n} vertices",
            ids.len()
        )));
    }
    Ok(())
}

/// Row ranges holding about `ARCS_PER_BLOCK` arcs each (at least one row).
fn blocks(offsets: &[u64]) -> Vec<(usize, usize)> {
    const ARCS_PER_BLOCK: u64 = 1 << 16;
    let n = offsets.len() - 1;
    let mut out = Vec::new();
    let mut r0 = 0;
    while r0 < n {
        let target = offsets[r0] + ARCS_PER_BLOCK;
        let r1 = offsets.partition_point(|&o| o <= target).clamp(r0 + 1, n);
        let r1 = r1.min(r0 + (1 << 16)).max(r0 + 1);
        out.push((r0, r1));
        r0 = r1;
    }
    out
}

/// Formats rows with `f(row, out)` in parallel blocks and writes them in row order.
fn write_rows(
    sink: &mut Sink,
    offsets: &[u64],
    f: impl Fn(usize, &mut Vec<u8>) + Sync,
) -> io::Result<()> {
    let blocks = blocks(offsets);
    let batch = rayon::current_num_threads() * 4;
    for group in blocks.chunks(batch) {
        let bufs: Vec<Vec<u8>> = group
            .par_iter()
            .map(|&(r0, r1)| {
                let arcs = (offsets[r1] - offsets[r0]) as usize;
                let mut out = Vec::with_capacity(arcs * 16 + (r1 - r0) * 8);
                for i in r0..r1 {
                    f(i, &mut out);
                }
                out
            })
            .collect();
        for b in &bufs {
            sink.write_all(b)?;
        }
    }
    Ok(())
}

/// Writes `g` to `path` as `format` (see [`super::write_graph`]): each file to a
/// temporary file renamed into place once it is whole. A Graphalytics pair is renamed
/// only when both files are written, the `.v` file first.
pub(crate) fn write(path: &Path, g: &Graph, format: Format) -> Result<()> {
    check(g)?;
    let io = |e: io::Error| Error::io(path, e);
    if format == Format::Graphalytics {
        let vpath = graphalytics_vertex_path(path)?;
        let mut s = Sink::create(path)?;
        edges(&mut s, g).map_err(io)?;
        let e_file = s.finish().map_err(io)?;
        let mut v = Sink::create(&vpath)?;
        let vio = |e: io::Error| Error::io(&vpath, e);
        let mut offs: Vec<u64> = (0..=g.vertices() as u64).collect();
        offs.shrink_to_fit();
        write_rows(&mut v, &offs, |i, out| {
            put_u64(out, g.ids.external(i));
            out.push(b'\n');
        })
        .map_err(vio)?;
        v.commit(&vpath)?;
        return e_file.map_or(Ok(()), AtomicFile::commit);
    }
    single_file_format(g, format)?;
    let mut s = Sink::create(path)?;
    write_one(&mut s, g, format).map_err(io)?;
    s.commit(path)
}

/// The bytes of `g` written as `format`, uncompressed, in memory (see
/// [`super::write_graph_bytes`]).
pub(crate) fn write_bytes(g: &Graph, format: Format) -> Result<Vec<u8>> {
    check(g)?;
    if format == Format::Graphalytics {
        return Err(Error::Unsupported(
            "Graphalytics graphs are two files (.e and .v); write them with write_graph".into(),
        ));
    }
    single_file_format(g, format)?;
    let mut s = Sink::Memory(Vec::new());
    write_one(&mut s, g, format).map_err(|e| Error::io("<memory>", e))?;
    match s {
        Sink::Memory(v) => Ok(v),
        _ => unreachable!("a memory sink stays one"),
    }
}

/// Refuses what a single-file format cannot hold.
fn single_file_format(g: &Graph, format: Format) -> Result<()> {
    if format == Format::Dimacs && field(g) == ValueType::Real {
        return Err(Error::Unsupported(
            "DIMACS .gr files hold integer weights; this graph's are real".into(),
        ));
    }
    Ok(())
}

/// Writes the single-file formats into a sink.
fn write_one(s: &mut Sink, g: &Graph, format: Format) -> io::Result<()> {
    match format {
        Format::Binary => s.write_all(&binary::encode(g)),
        Format::MatrixMarket => matrix_market(s, g),
        Format::EdgeList => {
            let head = format!(
                "# edgeblas edge list: {} vertices, {} arcs{}\n",
                g.vertices(),
                g.arcs(),
                if g.directed {
                    ""
                } else {
                    " (undirected: both arcs of every edge)"
                }
            );
            s.write_all(head.as_bytes())?;
            edges(s, g)
        }
        Format::Dimacs => dimacs(s, g),
        Format::Adjacency => {
            let a = &g.adjacency;
            write_rows(s, a.offsets(), |i, out| {
                put_u64(out, g.ids.external(i));
                for &j in a.row(i).0 {
                    out.push(b' ');
                    put_u64(out, g.ids.external(j as usize));
                }
                out.push(b'\n');
            })
        }
        Format::Graphalytics => unreachable!("two files: handled by the callers"),
    }
}

/// `X.v` beside `X.e` (`X.v.gz` beside `X.e.gz`).
fn graphalytics_vertex_path(path: &Path) -> Result<PathBuf> {
    let name = path.file_name().and_then(|s| s.to_str()).unwrap_or("");
    let lower = name.to_ascii_lowercase();
    let v = if lower.ends_with(".e.gz") {
        format!("{}.v.gz", &name[..name.len() - 5])
    } else if lower.ends_with(".e") {
        format!("{}.v", &name[..name.len() - 2])
    } else {
        return Err(Error::InvalidArgument(format!(
            "{}: a Graphalytics edge file's name must end in .e (the vertex file is written \
             beside it as .v)",
            path.display()
        )));
    };
    Ok(path.with_file_name(v))
}

/// Every arc as `src dst [w]`, with external ids.
fn edges(s: &mut Sink, g: &Graph) -> io::Result<()> {
    let a = &g.adjacency;
    let integer = field(g) == ValueType::Integer;
    let w = g.weights.as_deref();
    write_rows(s, a.offsets(), |i, out| {
        let src = g.ids.external(i);
        let start = a.offsets()[i] as usize;
        for (k, &j) in a.row(i).0.iter().enumerate() {
            put_u64(out, src);
            out.push(b' ');
            put_u64(out, g.ids.external(j as usize));
            if let Some(w) = w {
                out.push(b' ');
                put_value(out, w[start + k], integer);
            }
            out.push(b'\n');
        }
    })
}

fn matrix_market(s: &mut Sink, g: &Graph) -> io::Result<()> {
    let a = &g.adjacency;
    let f = field(g);
    let symmetric = !g.directed
        && match g.weighted_csr() {
            Some(m) => m.is_symmetric(),
            None => a.is_symmetric(),
        };
    let stored = if symmetric {
        (a.nnz() + a.count_diagonal()) / 2
    } else {
        a.nnz()
    };
    let field_name = match f {
        ValueType::Pattern => "pattern",
        ValueType::Integer => "integer",
        ValueType::Real => "real",
    };
    let head = format!(
        "%%MatrixMarket matrix coordinate {field_name} {}\n% written by edgeblas\n{} {} {stored}\n",
        if symmetric { "symmetric" } else { "general" },
        a.nrows(),
        a.ncols()
    );
    s.write_all(head.as_bytes())?;
    let integer = f == ValueType::Integer;
    let w = g.weights.as_deref();
    write_rows(s, a.offsets(), |i, out| {
        let start = a.offsets()[i] as usize;
        for (k, &j) in a.row(i).0.iter().enumerate() {
            if symmetric && j as usize > i {
                break;
            }
            put_u64(out, i as u64 + 1);
            out.push(b' ');
            put_u64(out, j as u64 + 1);
            if let Some(w) = w {
                out.push(b' ');
                put_value(out, w[start + k], integer);
            }
            out.push(b'\n');
        }
    })
}

fn dimacs(s: &mut Sink, g: &Graph) -> io::Result<()> {
    let a = &g.adjacency;
    let head = format!("c written by edgeblas\np sp {} {}\n", a.nrows(), a.nnz());
    s.write_all(head.as_bytes())?;
    let w = g.weights.as_deref();
    write_rows(s, a.offsets(), |i, out| {
        let start = a.offsets()[i] as usize;
        for (k, &j) in a.row(i).0.iter().enumerate() {
            out.extend_from_slice(b"a ");
            put_u64(out, i as u64 + 1);
            out.push(b' ');
            put_u64(out, j as u64 + 1);
            out.push(b' ');
            match w {
                Some(w) => put_value(out, w[start + k], true),
                None => out.push(b'1'),
            }
            out.push(b'\n');
        }
    })
}
