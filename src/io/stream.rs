//! Text graph files read in blocks ([`TextStream`]): the header first, then the records
//! block by block, each block handed to the caller and dropped, so that a reader never
//! holds more of the file than a block (and what it keeps of the records). The records,
//! their counts and every error (file and line) are those of [`super::read_graph`].
//!
//! What a stream gives is the records as written: `--undirected` is the caller's to
//! apply (the distributed reader applies it as it does for a binary file). A Matrix
//! Market `symmetric` file says its records are undirected edges ([`Header::symmetric`]).
//!
//! Edge lists, Matrix Market, DIMACS and Graphalytics (`.e` with its `.v`, which is read
//! whole: it holds one id per vertex) stream; the adjacency form does not (its vertex ids
//! are the heads of its lines, known only at the end).

use std::io::Read;
use std::path::Path;

use flate2::read::MultiGzDecoder;

use super::graphalytics::{self, Explicit};
use super::source::{self, DeclaredSize, GZIP_MAGIC, has_gz_suffix};
use super::text::{Below, Declared, IdMap, LineSpec, Part, Range, RecordStream};
use super::{Format, ReadOptions, ValueType, VertexIds, dimacs, edge_list, matrix_market};
use crate::error::{Error, Result};

/// What a text graph file's header (or, for an edge list, its records) says of the graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    /// Vertices; `None` for an edge list until its records are read.
    pub vertices: Option<usize>,
    /// Each record is an undirected edge stored as both arcs (Matrix Market symmetric).
    pub symmetric: bool,
}

/// What the whole section of records said, once read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Vertices.
    pub vertices: usize,
    /// Records read.
    pub records: u64,
    /// Whether the records carry values.
    pub weighted: bool,
    /// What the values are.
    pub value_type: ValueType,
    /// How indices map to the file's ids.
    pub ids: VertexIds,
}

/// How the ids of the records map to indices.
enum Ids {
    Range(Range),
    Below(Below),
    Explicit { ids: Vec<u64>, v_name: String },
}

/// A text graph file opened to be read in blocks.
pub(crate) struct TextStream {
    name: String,
    format: Format,
    blocks: Blocks,
    /// The rest of the first blocks, after the header.
    head: Vec<u8>,
    first_line: u64,
    spec: LineSpec,
    declared: Option<Declared>,
    ids: Ids,
    /// Matrix Market's field (its values' type whatever the records say).
    field: Option<ValueType>,
    /// What the header says.
    pub header: Header,
}

/// Whether files in `format` can be read in blocks.
pub(crate) fn streams(format: Format) -> bool {
    matches!(
        format,
        Format::EdgeList | Format::MatrixMarket | Format::Dimacs | Format::Graphalytics
    )
}

/// `path` opened, and its first two bytes (fewer for a shorter file), read past.
fn open_with_magic(path: &Path) -> Result<(std::fs::File, Vec<u8>)> {
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut magic = Vec::with_capacity(2);
    (&mut file)
        .take(2)
        .read_to_end(&mut magic)
        .map_err(|e| Error::io(path, e))?;
    Ok((file, magic))
}

/// The size of the decompressed text of `path`: the file's size, or for gzip data the
/// length of its decompression, which (as when it is read whole) may not pass what the
/// header declares.
fn text_size(path: &Path, format: Format) -> Result<usize> {
    let name = path.display().to_string();
    let (file, magic) = open_with_magic(path)?;
    if magic != GZIP_MAGIC {
        let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
        return Ok(usize::try_from(len).unwrap_or(usize::MAX));
    }
    let raw = std::io::Cursor::new(magic).chain(std::io::BufReader::with_capacity(1 << 20, file));
    let mut stream = MultiGzDecoder::new(raw);
    let broken = |e: std::io::Error| Error::parse(&name, 0, format!("broken gzip data: {e}"));
    let mut head = Vec::new();
    (&mut stream)
        .take(1 << 20)
        .read_to_end(&mut head)
        .map_err(broken)?;
    let bound: Option<DeclaredSize> = match format {
        Format::MatrixMarket => matrix_market::declared(&head),
        Format::Dimacs => dimacs::declared(&head),
        _ => None,
    };
    let limit = bound.as_ref().map_or(u64::MAX, |d| d.bytes as u64);
    let more = (limit.saturating_sub(head.len() as u64)).saturating_add(1);
    let rest =
        std::io::copy(&mut (&mut stream).take(more), &mut std::io::sink()).map_err(broken)?;
    let total = head.len() as u64 + rest;
    if let Some(d) = bound
        && total > d.bytes as u64
    {
        return Err(Error::parse(
            &name,
            0,
            format!(
                "the data decompresses to more than {} bytes, more than its header allows \
                 ({}); refused as corrupt",
                d.bytes, d.what
            ),
        ));
    }
    Ok(usize::try_from(total).unwrap_or(usize::MAX))
}

impl TextStream {
    /// Opens the text graph file `path` in `format` and reads its header (and, for a
    /// Graphalytics edge file, the whole vertex file beside it), to be read on in blocks
    /// of about `block` bytes. `opts.undirected` is not applied (see the module).
    ///
    /// # Errors
    /// As [`super::read_graph`] for the header: the file cannot be read, is empty, is
    /// Matrix Market read as another format, has a bad header; [`Error::InvalidArgument`]
    /// for a format that does not stream ([`streams`]).
    pub(crate) fn open(
        path: &Path,
        format: Format,
        opts: &ReadOptions,
        block: usize,
    ) -> Result<TextStream> {
        let name = path.display().to_string();
        if !streams(format) {
            return Err(Error::InvalidArgument(format!(
                "{name}: {format} cannot be read in blocks; convert it first (edgeblas convert IN OUT.ebg)"
            )));
        }
        // A Graphalytics vertex file first, as the whole-file reader reads it.
        let explicit = if format == Format::Graphalytics {
            let vpath = graphalytics::vertex_path(path)?;
            let v_name = vpath.display().to_string();
            let raw = source::read_file(&vpath)?;
            let v = source::decompress(&v_name, &raw)?;
            super::refuse_banner(&v_name, &v, Format::Graphalytics)?;
            let ids = graphalytics::parse_vertices(&v_name, &v)?;
            Some((ids, v_name))
        } else {
            None
        };
        let size = text_size(path, format)?;
        let mut blocks = Blocks::open(path, block)?;
        let mut head = blocks.next_block()?.unwrap_or_default();
        if head.is_empty() {
            return Err(Error::parse(&name, 0, "the file is empty"));
        }
        super::refuse_banner(&name, &head, format)?;
        let limit = || Below {
            limit: opts.vertex_limit(size),
            bytes: size,
            floor: opts.min_vertex_limit.min(u32::MAX as u64),
        };
        // The header may need more than the first block (long comments).
        let mut complete = false;
        let (body, first_line, spec, declared, ids, field, header) = loop {
            match format {
                Format::MatrixMarket => {
                    if let Some(h) = matrix_market::header(&name, &head, complete, size, opts)? {
                        let header = Header {
                            vertices: Some(h.n as usize),
                            symmetric: h.symmetric,
                        };
                        let ids = Ids::Range(Range { base: 1, n: h.n });
                        break (
                            h.body,
                            h.line,
                            h.spec,
                            Some(h.declared),
                            ids,
                            Some(h.field),
                            header,
                        );
                    }
                }
                Format::Dimacs => {
                    if let Some(h) = dimacs::header(&name, &head, complete, size, opts)? {
                        let header = Header {
                            vertices: Some(h.n as usize),
                            symmetric: false,
                        };
                        let ids = Ids::Range(Range { base: 1, n: h.n });
                        break (
                            h.body,
                            h.line,
                            dimacs::SPEC,
                            Some(h.declared),
                            ids,
                            None,
                            header,
                        );
                    }
                }
                Format::Graphalytics => {
                    let (ids, v_name) = explicit.expect("read above");
                    let header = Header {
                        vertices: Some(ids.len()),
                        symmetric: false,
                    };
                    let ids = Ids::Explicit { ids, v_name };
                    break (0, 1, edge_list::SPEC, None, ids, None, header);
                }
                _ => {
                    let header = Header {
                        vertices: None,
                        symmetric: false,
                    };
                    break (
                        0,
                        1,
                        edge_list::SPEC,
                        None,
                        Ids::Below(limit()),
                        None,
                        header,
                    );
                }
            }
            match blocks.next_block()? {
                Some(more) => head.extend_from_slice(&more),
                None => complete = true,
            }
        };
        head.drain(..body);
        Ok(TextStream {
            name,
            format,
            blocks,
            head,
            first_line,
            spec,
            declared,
            ids,
            field,
            header,
        })
    }

    /// Reads every record, block by block, handing each block's records (in file order)
    /// to `visit`, and returns what they said.
    ///
    /// # Errors
    /// As [`super::read_graph`] for the records (file and line), or what `visit` returns.
    pub(crate) fn for_each(
        self,
        mut visit: impl FnMut(Vec<Part>) -> Result<()>,
    ) -> Result<Summary> {
        let TextStream {
            name,
            format,
            mut blocks,
            head,
            first_line,
            spec,
            declared,
            ids,
            field,
            header,
        } = self;
        let mut stream = RecordStream::new(&name, first_line, &spec, declared.as_ref());
        match &ids {
            Ids::Range(r) => feed_all(&mut stream, &head, &mut blocks, r, &mut visit)?,
            Ids::Below(r) => feed_all(&mut stream, &head, &mut blocks, r, &mut visit)?,
            Ids::Explicit { ids, v_name } => {
                let map = Explicit::new(ids, v_name);
                feed_all(&mut stream, &head, &mut blocks, &map, &mut visit)?
            }
        }
        let edges = stream.finish(Vec::new())?;
        let vertices = match header.vertices {
            Some(n) => n,
            None => {
                if edges.records == 0 {
                    return Err(Error::parse(
                        &name,
                        0,
                        "no edges: an edge list needs at least one 'src dst' line",
                    ));
                }
                edges.max as usize + 1
            }
        };
        let weighted = edges.weighted || format == Format::Dimacs;
        let value_type = field.unwrap_or(edge_list::value_type(weighted, edges.real));
        let ids = match ids {
            Ids::Range(r) => VertexIds::Offset(r.base),
            Ids::Below(_) => VertexIds::Offset(0),
            Ids::Explicit { ids, .. } => VertexIds::Explicit(ids),
        };
        Ok(Summary {
            vertices,
            records: edges.records,
            weighted,
            value_type,
            ids,
        })
    }
}

/// Feeds `head` and then every block left to `stream`, handing each piece's records to
/// `visit`.
fn feed_all<M: IdMap>(
    stream: &mut RecordStream<'_>,
    head: &[u8],
    blocks: &mut Blocks,
    ids: &M,
    visit: &mut impl FnMut(Vec<Part>) -> Result<()>,
) -> Result<()> {
    visit(stream.feed(head, ids)?)?;
    while let Some(b) = blocks.next_block()? {
        visit(stream.feed(&b, ids)?)?;
    }
    Ok(())
}

/// A text file read in blocks of whole lines, decompressed on the fly when it is gzip
/// data (the name ends in `.gz` or the bytes begin with the gzip magic, as for
/// [`decompress`]): what a reader that must not hold the whole file parses piece by piece.
pub(crate) struct Blocks {
    name: String,
    reader: Box<dyn Read + Send>,
    /// Bytes read past the last newline handed out.
    carry: Vec<u8>,
    /// The least bytes a block holds, but at the end of the file.
    block: usize,
    eof: bool,
    /// Whether the file is gzip data (a read error is then broken data).
    gz: bool,
    /// Decompressed bytes handed out so far.
    pub bytes: u64,
}

impl Blocks {
    /// Opens `path` to be read in blocks of at least `block` bytes (whole lines).
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be opened or read; [`Error::Parse`] (line 0)
    /// for an empty `.gz` file or a `.gz` name on bytes that are not gzip data.
    pub(crate) fn open(path: &Path, block: usize) -> Result<Blocks> {
        let name = path.display().to_string();
        let (file, magic) = open_with_magic(path)?;
        let gz = magic == GZIP_MAGIC;
        if !gz && has_gz_suffix(&name) {
            let what = if magic.is_empty() {
                "the file is empty (a .gz file must hold gzip data)"
            } else {
                "not gzip data, though the name ends in .gz"
            };
            return Err(Error::parse(&name, 0, what));
        }
        let head = std::io::Cursor::new(magic);
        let raw = head.chain(std::io::BufReader::with_capacity(1 << 20, file));
        let reader: Box<dyn Read + Send> = if gz {
            Box::new(MultiGzDecoder::new(raw))
        } else {
            Box::new(raw)
        };
        Ok(Blocks {
            name,
            reader,
            carry: Vec::new(),
            block: block.max(1),
            eof: false,
            gz,
            bytes: 0,
        })
    }

    /// The next block: at least the block size, cut just after a newline (a line longer
    /// than a block makes a longer block), or the rest of the file; `None` at its end.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be read; [`Error::Parse`] (line 0) for broken
    /// gzip data.
    pub(crate) fn next_block(&mut self) -> Result<Option<Vec<u8>>> {
        let mut buf = std::mem::take(&mut self.carry);
        let mut scanned = 0;
        let mut need = self.block;
        loop {
            if !self.eof && buf.len() < need {
                let want = (need - buf.len()) as u64;
                let got = (&mut self.reader)
                    .take(want)
                    .read_to_end(&mut buf)
                    .map_err(|e| self.failed(e))?;
                if got == 0 {
                    self.eof = true;
                }
                continue;
            }
            if self.eof {
                break;
            }
            // A full block: cut after its last newline, or read on to find one.
            match memchr::memrchr(b'\n', &buf[scanned..]) {
                Some(k) => {
                    self.carry = buf.split_off(scanned + k + 1);
                    break;
                }
                None => {
                    scanned = buf.len();
                    need = need.saturating_mul(2);
                }
            }
        }
        if buf.is_empty() {
            return Ok(None);
        }
        self.bytes += buf.len() as u64;
        Ok(Some(buf))
    }

    fn failed(&self, e: std::io::Error) -> Error {
        if self.gz {
            Error::parse(&self.name, 0, format!("broken gzip data: {e}"))
        } else {
            Error::io(&self.name, e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::{Graph, parse_graph, read_graph};
    use crate::matrix::Csr;

    /// The graph the records of `path` make, read in blocks of `block` bytes and built by
    /// the whole-file reader's assembly (directed, or symmetric for Matrix Market).
    fn streamed(path: &Path, format: Format, block: usize) -> Result<Graph> {
        let s = TextStream::open(path, format, &ReadOptions::default(), block)?;
        let header = s.header.clone();
        let mut parts = Vec::new();
        let sum = s.for_each(|p| {
            parts.extend(p);
            Ok(())
        })?;
        let shape = if header.symmetric {
            super::super::assemble::Shape::Symmetric
        } else {
            super::super::assemble::Shape::Directed
        };
        let (adjacency, weights, duplicates) =
            super::super::assemble::build(sum.vertices, parts, sum.weighted, shape);
        Ok(Graph {
            adjacency,
            weights,
            value_type: sum.value_type,
            ids: sum.ids,
            directed: !header.symmetric,
            records: sum.records,
            duplicates,
        })
    }

    /// Checks `text` read in blocks against the whole-file reader; `ok`: whether it is a
    /// graph (else an error), so that a broken reader cannot pass by failing both ways.
    fn check(text: &str, file: &str, format: Format, ok: bool) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(file);
        std::fs::write(&path, text).unwrap();
        if format == Format::Graphalytics {
            std::fs::write(dir.path().join("g.v"), "5\n7\n9\n11\n30\n").unwrap();
        }
        let opts = ReadOptions {
            format: Some(format),
            ..ReadOptions::default()
        };
        let whole = read_graph(&path, &opts);
        assert_eq!(whole.is_ok(), ok, "{file}: {whole:?}");
        for block in [1, 3, 7, 16, 1 << 20] {
            let s = streamed(&path, format, block);
            match (&whole, &s) {
                (Ok(w), Ok(s)) => assert_eq!(w, s, "{file} in blocks of {block}"),
                (Err(w), Err(s)) => {
                    assert_eq!(w.to_string(), s.to_string(), "{file} in blocks of {block}")
                }
                _ => panic!("{file} in blocks of {block}: {whole:?} against {s:?}"),
            }
        }
        // And gzipped.
        let gz = dir.path().join(format!("{file}.gz"));
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut e, text.as_bytes()).unwrap();
        std::fs::write(&gz, e.finish().unwrap()).unwrap();
        let whole = read_graph(&gz, &opts).map_err(|e| e.to_string());
        let s = streamed(&gz, format, 5).map_err(|e| e.to_string());
        assert_eq!(whole, s, "{file}.gz");
    }

    #[test]
    fn blocks_give_the_whole_file_readers_graphs_and_errors() {
        let el = Format::EdgeList;
        check("# c\n0 1\n1 2\n\n2 0\n2 0\n5 5\n", "g.el", el, true);
        check("0 1 2.5\n1 2 -1\n2 0 7\n2 0 3\n", "g.el", el, true);
        check("0 1 2\n1 2 3\n2 0\n", "g.el", el, false);
        check("0 1\n1 2\n2 x\n", "g.el", el, false);
        check("0 1\n1 2\n2 0 4\n", "g.el", el, false);
        check("# only a comment\n", "g.el", el, false);
        check(
            "%%MatrixMarket matrix coordinate pattern general\n1 2\n",
            "g.el",
            el,
            false,
        );
        check("0 1\n1 99999999999\n", "g.el", el, false);
        let mm = Format::MatrixMarket;
        check(
            "%%MatrixMarket matrix coordinate real symmetric\n% c\n%\n4 4 5\n2 1 0.5\n3 3 1\n1 2 0.25\n4 1 -0\n1 4 0\n",
            "g.mtx",
            mm,
            true,
        );
        check(
            "%%MatrixMarket matrix coordinate integer general\n3 3 3\n1 2 4\n2 3 5\n3 1 6",
            "g.mtx",
            mm,
            true,
        );
        check(
            "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n",
            "g.mtx",
            mm,
            false,
        );
        check(
            "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n",
            "g.mtx",
            mm,
            false,
        );
        check(
            "%%MatrixMarket matrix coordinate pattern general\n% only comments\n",
            "g.mtx",
            mm,
            false,
        );
        check(
            "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 4\n",
            "g.mtx",
            mm,
            false,
        );
        let dm = Format::Dimacs;
        check(
            "c road\nc more\np sp 4 4\na 1 2 7\na 2 3 1\na 3 4 2\na 4 1 0\n",
            "g.gr",
            dm,
            true,
        );
        check("c only\nc comments\n", "g.gr", dm, false);
        check("p sp 3 1\na 1 2 1\na 2 3 1\n", "g.gr", dm, false);
        let ga = Format::Graphalytics;
        check("5 7 2\n7 9 1.5\n9 5 -3\n", "g.e", ga, true);
        check("5 7\n7 9\n30 5\n11 11\n", "g.e", ga, true);
        check("5 7\n7 8\n", "g.e", ga, false);
    }

    #[test]
    fn long_and_cut_lines_across_blocks() {
        // Lines longer than a block, comments before the header, no final newline.
        let mut text = String::from("%%MatrixMarket matrix coordinate real general\n");
        for _ in 0..50 {
            text.push_str(&format!("%{}\n", "x".repeat(100)));
        }
        text.push_str("6 6 8\n");
        for k in 0..8u32 {
            let pad = " ".repeat(40 * (k as usize % 3));
            text.push_str(&format!("{}{pad} {} {}.5\n", 1 + k % 6, 1 + (k * 5) % 6, k));
        }
        text.pop();
        check(&text, "long.mtx", Format::MatrixMarket, true);
        let whole = parse_graph(
            "long.mtx",
            text.as_bytes(),
            Format::MatrixMarket,
            &ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(whole.records, 8);
        let _: &Csr<()> = &whole.adjacency;
    }

    #[test]
    fn many_lines_in_small_blocks_and_an_error_deep_in() {
        // 5,000 weighted arcs (repeats among them) in blocks far smaller than the file,
        // then the same with line 4,321 broken.
        let mut x = 12345u64;
        let mut lines = Vec::new();
        for _ in 0..5000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (s, d, w) = ((x >> 33) % 300, (x >> 17) % 300, (x >> 50) % 9);
            lines.push(format!("{s} {d} {w}"));
        }
        check(&lines.join("\n"), "big.el", Format::EdgeList, true);
        lines[4320] = "17 -3 1".into();
        check(&lines.join("\n"), "big.el", Format::EdgeList, false);
    }

    #[test]
    fn adjacency_and_binary_do_not_stream() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.adj");
        std::fs::write(&path, "1 2\n2 1\n").unwrap();
        let e = TextStream::open(&path, Format::Adjacency, &ReadOptions::default(), 16)
            .err()
            .expect("refused");
        assert!(e.to_string().contains("cannot be read in blocks"), "{e}");
    }
}
