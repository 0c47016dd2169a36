//! Line-oriented text parsing shared by the formats: cutting text into chunks at line
//! ends, hand-written number parsing, and the parallel `src dst [value]` record parser.
//!
//! Every parser here returns a message and a line *within its chunk*; the drivers add the
//! lines before the chunk and keep the earliest error, so the number is the file's.

use memchr::memchr;
use rayon::prelude::*;

use crate::error::{Error, Result};

/// Space, tab and carriage return separate tokens (so CRLF line ends need no special case).
#[inline(always)]
pub(crate) fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t' || c == b'\r'
}

#[inline(always)]
fn is_delim(c: u8) -> bool {
    is_blank(c) || c == b'\n'
}

/// The blank-separated tokens of one line.
pub(crate) fn tokens(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|&c| is_blank(c)).filter(|t| !t.is_empty())
}

/// A token as a message quotes it: escaped, at most 40 bytes.
pub(crate) fn show(tok: &[u8]) -> String {
    let cut = &tok[..tok.len().min(40)];
    let mut s = cut.escape_ascii().to_string();
    if tok.len() > cut.len() {
        s.push_str("...");
    }
    s
}

/// Cuts `text` into pieces that end just after a newline (the last may not), sized so
/// that every thread gets several.
pub(crate) fn split_chunks(text: &[u8]) -> Vec<&[u8]> {
    let threads = rayon::current_num_threads().max(1);
    let target = (text.len() / (threads * 4)).clamp(1 << 18, 1 << 23);
    let mut out = Vec::with_capacity(text.len() / target + 1);
    let mut start = 0;
    while start < text.len() {
        let mut end = start + target;
        if end >= text.len() {
            end = text.len();
        } else {
            end = memchr(b'\n', &text[end..]).map_or(text.len(), |k| end + k + 1);
        }
        out.push(&text[start..end]);
        start = end;
    }
    out
}

/// Why a token is not an unsigned integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UintError {
    Negative,
    NotInteger,
    TooLarge,
}

/// Parses a non-negative decimal integer token (digits only; leading zeros allowed).
pub(crate) fn parse_uint(tok: &[u8]) -> std::result::Result<u64, UintError> {
    if tok.is_empty() {
        return Err(UintError::NotInteger);
    }
    if !tok.iter().all(u8::is_ascii_digit) {
        let negative = tok[0] == b'-' && tok.len() > 1 && tok[1].is_ascii_digit();
        return Err(if negative {
            UintError::Negative
        } else {
            UintError::NotInteger
        });
    }
    let mut v: u64 = 0;
    for &d in tok {
        v = v
            .checked_mul(10)
            .and_then(|x| x.checked_add((d - b'0') as u64))
            .ok_or(UintError::TooLarge)?;
    }
    Ok(v)
}

/// The message for a token that is not a valid id.
pub(crate) fn uint_message(what: &str, tok: &[u8], e: UintError) -> String {
    let t = show(tok);
    match e {
        UintError::Negative => format!("{what} '{t}' is negative"),
        UintError::NotInteger => format!("{what} '{t}' is not a non-negative integer"),
        UintError::TooLarge => format!("{what} '{t}' is too large"),
    }
}

/// Parses one id token, with a message naming the field on failure.
pub(crate) fn parse_id(what: &str, tok: &[u8]) -> std::result::Result<u64, String> {
    parse_uint(tok).map_err(|e| uint_message(what, tok, e))
}

/// What a value token holds.
enum Num {
    /// An integer literal with `|v| <= 2^53`: exact as an f64.
    Int(f64),
    /// An integer literal beyond 2^53, rounded.
    BigInt(f64),
    /// Anything else that reads as an f64: `inf`, `-inf` and `nan` included (as
    /// Matrix Market files written by SuiteSparse and others hold them).
    Real(f64),
    Bad,
}

const EXACT_INT: u64 = 1 << 53;

fn parse_num(tok: &[u8]) -> Num {
    let digits = match tok.first() {
        Some(b'-') | Some(b'+') => &tok[1..],
        _ => tok,
    };
    let as_float = || {
        std::str::from_utf8(tok)
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
    };
    if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
        let mut v: u64 = 0;
        let mut exact = true;
        for &d in digits {
            match v
                .checked_mul(10)
                .and_then(|x| x.checked_add((d - b'0') as u64))
            {
                Some(x) if x <= EXACT_INT => v = x,
                _ => {
                    exact = false;
                    break;
                }
            }
        }
        if exact {
            let f = v as f64;
            return Num::Int(if tok[0] == b'-' { -f } else { f });
        }
        return match as_float() {
            Some(f) => Num::BigInt(f),
            None => Num::Bad,
        };
    }
    match as_float() {
        Some(f) => Num::Real(f),
        None => Num::Bad,
    }
}

/// What the value column of a record may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Values {
    /// Integers only (Matrix Market `integer`).
    Integer,
    /// Any number, `inf`, `-inf` and `nan` included (Matrix Market `real`).
    Real,
    /// Any number as [`Values::Real`]; the graph is `Integer` when every value is an
    /// integer literal.
    Infer,
}

/// Parses a value token: `(value, is_real)`, or the message saying why not.
fn value_of(tok: &[u8], values: Values) -> std::result::Result<(f64, bool), String> {
    let bad = |why: &str| Err(format!("value '{}' {why}", show(tok)));
    match parse_num(tok) {
        Num::Int(v) => Ok((v, false)),
        Num::BigInt(_) if values == Values::Integer => {
            bad("is too large to hold exactly (integer values must be at most 2^53)")
        }
        Num::Real(_) if values == Values::Integer => {
            bad("is not an integer (the header says integer)")
        }
        Num::BigInt(v) | Num::Real(v) => Ok((v, true)),
        Num::Bad => bad("is not a number"),
    }
}

/// How many columns a record has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Columns {
    Two,
    Three,
    TwoOrThree,
}

impl Columns {
    fn text(self) -> &'static str {
        match self {
            Columns::Two => "2",
            Columns::Three => "3",
            Columns::TwoOrThree => "2 or 3",
        }
    }
}

/// The shape of one record line: `[prefix] id id [value]`.
pub(crate) struct LineSpec {
    /// Bytes that, first on a line, make it a comment.
    pub comment: [u8; 2],
    /// A token every record line starts with (DIMACS `a`).
    pub prefix: Option<u8>,
    pub columns: Columns,
    pub values: Values,
    /// The two id columns, as messages name them.
    pub fields: [&'static str; 2],
    /// The columns, as a column-count message shows them: `src dst [weight]`.
    pub describe: &'static str,
    /// What records are called in count messages: `entries`, `arcs`.
    pub plural: &'static str,
}

/// Maps an id read from a file to a vertex index, or says why it cannot.
pub(crate) trait IdMap: Sync {
    fn map(&self, field: &str, id: u64) -> std::result::Result<u32, String>;
}

/// Ids `base .. base + n` (Matrix Market, DIMACS).
pub(crate) struct Range {
    pub base: u64,
    pub n: u64,
}

impl IdMap for Range {
    #[inline(always)]
    fn map(&self, field: &str, id: u64) -> std::result::Result<u32, String> {
        match id.checked_sub(self.base) {
            Some(i) if i < self.n => Ok(i as u32),
            _ if self.n == 0 => Err(format!(
                "{field} {id} out of range: the graph has no vertices"
            )),
            _ => Err(format!(
                "{field} {id} out of range {}..{}",
                self.base,
                self.base + self.n - 1
            )),
        }
    }
}

/// Ids `0 .. limit` where `limit` comes from [`super::ReadOptions::vertex_limit`] (edge
/// lists: the vertex count is the largest id + 1).
pub(crate) struct Below {
    pub limit: u64,
    pub bytes: usize,
    /// [`super::ReadOptions::min_vertex_limit`], for the message.
    pub floor: u64,
}

impl IdMap for Below {
    #[inline(always)]
    fn map(&self, field: &str, id: u64) -> std::result::Result<u32, String> {
        if id < self.limit {
            return Ok(id as u32);
        }
        if id >= u32::MAX as u64 {
            return Err(format!(
                "{field} {id} is too large: vertex ids must be below {}",
                u32::MAX
            ));
        }
        Err(format!(
            "{field} {id} implies {} vertices, but the file has only {} bytes (more than \
             {} vertices need at least one byte of file per {} vertices)",
            id + 1,
            self.bytes,
            self.floor,
            super::VERTICES_PER_BYTE
        ))
    }
}

/// One chunk's records, as parallel arrays of vertex indices (and values).
#[derive(Default)]
pub(crate) struct Part {
    pub src: Vec<u32>,
    pub dst: Vec<u32>,
    pub w: Vec<f64>,
}

/// A parsed record before its ids are mapped.
struct Rec {
    a: u64,
    b: u64,
    v: Option<(f64, bool)>,
}

/// What parsing one chunk gave.
struct ChunkOut {
    part: Part,
    /// Newlines consumed (complete when there is no error).
    lines: u64,
    records: u64,
    /// Local line of the first record, and whether it had a value.
    first: Option<(u64, bool)>,
    real: bool,
    max: u32,
    error: Option<(u64, String)>,
}

#[inline(always)]
fn skip_blanks(b: &[u8], i: &mut usize) {
    while *i < b.len() && is_blank(b[*i]) {
        *i += 1;
    }
}

/// Digits at `*i` followed by a delimiter; at most 19 digits (no overflow possible). Any
/// other case returns `None`, and the careful path decides.
#[inline(always)]
fn fast_uint(b: &[u8], i: &mut usize) -> Option<u64> {
    let start = *i;
    let mut j = start;
    let mut v: u64 = 0;
    while j < b.len() {
        let d = b[j].wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        v = v.wrapping_mul(10).wrapping_add(d as u64);
        j += 1;
    }
    let len = j - start;
    if len == 0 || len > 19 || (j < b.len() && !is_delim(b[j])) {
        return None;
    }
    *i = j;
    Some(v)
}

/// The common case of a record line starting at `p` (after leading blanks): returns the
/// record and the position of its newline (or the end). `None` means "ask the careful
/// parser", never "the line is wrong".
#[inline(always)]
fn fast_line(b: &[u8], p: usize, spec: &LineSpec) -> Option<(Rec, usize)> {
    let n = b.len();
    let mut i = p;
    if let Some(x) = spec.prefix {
        if b[i] != x || i + 1 >= n || !is_blank(b[i + 1]) {
            return None;
        }
        i += 1;
        skip_blanks(b, &mut i);
    }
    let a = fast_uint(b, &mut i)?;
    if i >= n || !is_blank(b[i]) {
        return None;
    }
    skip_blanks(b, &mut i);
    let c = fast_uint(b, &mut i)?;
    skip_blanks(b, &mut i);
    let v = if i == n || b[i] == b'\n' {
        None
    } else {
        let s = i;
        while i < n && !is_delim(b[i]) {
            i += 1;
        }
        let v = value_of(&b[s..i], spec.values).ok()?;
        skip_blanks(b, &mut i);
        if i < n && b[i] != b'\n' {
            return None;
        }
        Some(v)
    };
    Some((Rec { a, b: c, v }, i))
}

/// The careful parser of one record line (without its newline): the record, or the
/// message that says what is wrong.
fn slow_line(line: &[u8], spec: &LineSpec) -> std::result::Result<Rec, String> {
    let mut toks: Vec<&[u8]> = tokens(line).collect();
    if let Some(x) = spec.prefix {
        match toks.first() {
            Some(t) if t.len() == 1 && t[0] == x => {
                toks.remove(0);
            }
            Some(t) if *t == b"p" => {
                return Err("a second problem line; only one is allowed".into());
            }
            Some(t) => {
                return Err(format!(
                    "expected a line '{} {}', found '{}'",
                    x as char,
                    spec.describe,
                    show(t)
                ));
            }
            None => return Err("empty line".into()),
        }
    }
    let k = toks.len();
    let fits = matches!(
        (spec.columns, k),
        (Columns::Two, 2) | (Columns::Three, 3) | (Columns::TwoOrThree, 2 | 3)
    );
    if !fits {
        return Err(format!(
            "expected {} columns ({}), found {k}",
            spec.columns.text(),
            spec.describe
        ));
    }
    let a = parse_id(spec.fields[0], toks[0])?;
    let b = parse_id(spec.fields[1], toks[1])?;
    let v = match toks.get(2) {
        Some(t) => Some(value_of(t, spec.values)?),
        None => None,
    };
    Ok(Rec { a, b, v })
}

impl ChunkOut {
    fn new(bytes: usize, weighted: bool) -> Self {
        let cap = bytes / 10 + 4;
        ChunkOut {
            part: Part {
                src: Vec::with_capacity(cap),
                dst: Vec::with_capacity(cap),
                w: if weighted {
                    Vec::with_capacity(cap)
                } else {
                    Vec::new()
                },
            },
            lines: 0,
            records: 0,
            first: None,
            real: false,
            max: 0,
            error: None,
        }
    }

    #[inline(always)]
    fn push<M: IdMap>(
        &mut self,
        rec: Rec,
        spec: &LineSpec,
        ids: &M,
        line: u64,
    ) -> std::result::Result<(), String> {
        let has_v = rec.v.is_some();
        match (spec.columns, has_v) {
            (Columns::Two, true) => {
                return Err(format!("expected 2 columns ({}), found 3", spec.describe));
            }
            (Columns::Three, false) => {
                return Err(format!("expected 3 columns ({}), found 2", spec.describe));
            }
            (Columns::TwoOrThree, _) => match self.first {
                None => self.first = Some((line, has_v)),
                Some((_, f)) if f != has_v => return Err(mixed_columns(has_v)),
                Some(_) => {}
            },
            _ => {}
        }
        let s = ids.map(spec.fields[0], rec.a)?;
        let d = ids.map(spec.fields[1], rec.b)?;
        self.part.src.push(s);
        self.part.dst.push(d);
        if let Some((v, real)) = rec.v {
            self.part.w.push(v);
            self.real |= real;
        }
        self.max = self.max.max(s).max(d);
        self.records += 1;
        Ok(())
    }
}

fn mixed_columns(has_v: bool) -> String {
    let (this, other) = if has_v { (3, 2) } else { (2, 3) };
    format!(
        "{this} columns, but the first record has {other}: give a weight on every line or on none"
    )
}

/// Parses the records of one chunk, stopping at the first error, or at a record beyond
/// `stop_after` (reported as an error).
fn parse_chunk<M: IdMap>(b: &[u8], spec: &LineSpec, ids: &M, stop_after: u64) -> ChunkOut {
    let weighted = spec.columns != Columns::Two;
    let mut o = ChunkOut::new(b.len(), weighted);
    let n = b.len();
    let mut p = 0usize;
    let mut line = 1u64;
    while p < n {
        let start = p;
        skip_blanks(b, &mut p);
        if p == n {
            break;
        }
        let c = b[p];
        if c == b'\n' {
            p += 1;
            line += 1;
            continue;
        }
        if c == spec.comment[0] || c == spec.comment[1] {
            match memchr(b'\n', &b[p..]) {
                Some(k) => {
                    p += k + 1;
                    line += 1;
                }
                None => p = n,
            }
            continue;
        }
        if o.records == stop_after {
            // An empty message marks "past the declared count" for the caller.
            o.error = Some((line, String::new()));
            break;
        }
        let rec = match fast_line(b, p, spec) {
            Some((rec, end)) => {
                p = end;
                rec
            }
            None => {
                let end = memchr(b'\n', &b[p..]).map_or(n, |k| p + k);
                match slow_line(&b[start..end], spec) {
                    Ok(r) => {
                        p = end;
                        r
                    }
                    Err(m) => {
                        o.error = Some((line, m));
                        break;
                    }
                }
            }
        };
        if let Err(m) = o.push(rec, spec, ids, line) {
            o.error = Some((line, m));
            break;
        }
        if p < n {
            p += 1;
            line += 1;
        }
    }
    o.lines = line - 1;
    o
}

/// The records of a text section, every id mapped.
pub(crate) struct Edges {
    pub parts: Vec<Part>,
    pub records: u64,
    /// Records carry a value.
    pub weighted: bool,
    /// Some value was not an integer literal.
    pub real: bool,
    /// The largest vertex index (0 when there are no records).
    pub max: u32,
}

/// A record count a header declares, and the line that declares it.
pub(crate) struct Declared {
    pub count: u64,
    pub line: u64,
    /// What declares it: `the size line`, `the problem line`.
    pub what: &'static str,
}

/// Parses every record of `text`, whose first byte is on line `first_line` of the file
/// `name`, in parallel chunks. With `declared`, the number of records must equal it.
pub(crate) fn parse_records<M: IdMap>(
    name: &str,
    text: &[u8],
    first_line: u64,
    spec: &LineSpec,
    ids: &M,
    declared: Option<&Declared>,
) -> Result<Edges> {
    let mut stream = RecordStream::new(name, first_line, spec, declared);
    let parts = stream.feed(text, ids)?;
    stream.finish(parts)
}

/// The records of a text section read in pieces ([`RecordStream::feed`]), each piece
/// whole lines that follow the last: the same records, counts and errors (with their file
/// lines) as [`parse_records`] on the whole section.
pub(crate) struct RecordStream<'a> {
    name: &'a str,
    spec: &'a LineSpec,
    declared: Option<&'a Declared>,
    /// The file line of the next piece's first byte.
    line0: u64,
    /// Whether the section's first record had a value.
    first: Option<bool>,
    /// Records so far.
    pub records: u64,
    /// Some value so far was not an integer literal.
    pub real: bool,
    /// The largest vertex index so far (0 before any record).
    pub max: u32,
}

impl<'a> RecordStream<'a> {
    /// A section of `name` that starts on line `first_line`.
    pub(crate) fn new(
        name: &'a str,
        first_line: u64,
        spec: &'a LineSpec,
        declared: Option<&'a Declared>,
    ) -> Self {
        RecordStream {
            name,
            spec,
            declared,
            line0: first_line,
            first: None,
            records: 0,
            real: false,
            max: 0,
        }
    }

    /// Whether the records carry a value (known once a record was read, or from the spec).
    pub(crate) fn weighted(&self) -> bool {
        match self.spec.columns {
            Columns::Two => false,
            Columns::Three => true,
            Columns::TwoOrThree => self.first == Some(true),
        }
    }

    /// Parses the next piece of the section (whole lines, the last one's newline
    /// optional only at the end of the section), in parallel chunks, and returns its
    /// records chunk by chunk.
    ///
    /// # Errors
    /// The first error of the piece, at its line in the file: a bad record, records past
    /// the declared count, a record whose column count differs from the first's.
    pub(crate) fn feed<M: IdMap>(&mut self, text: &[u8], ids: &M) -> Result<Vec<Part>> {
        let (name, spec) = (self.name, self.spec);
        let chunks = split_chunks(text);
        let outs: Vec<ChunkOut> = if chunks.len() == 1 {
            vec![parse_chunk(chunks[0], spec, ids, u64::MAX)]
        } else {
            chunks
                .par_iter()
                .map(|c| parse_chunk(c, spec, ids, u64::MAX))
                .collect()
        };
        let mut parts = Vec::with_capacity(outs.len());
        for (k, o) in outs.into_iter().enumerate() {
            let line0 = self.line0;
            let at = |local: u64| line0 + local - 1;
            if let Some(d) = self.declared
                && self.records + o.records > d.count
            {
                // The count is passed inside this chunk: find the line where, sequentially.
                let again = parse_chunk(chunks[k], spec, ids, d.count - self.records);
                let (local, message) = again.error.unwrap_or((1, String::new()));
                let message = if message.is_empty() {
                    format!(
                        "more {} than the {} declared on line {}",
                        spec.plural, d.count, d.line
                    )
                } else {
                    message
                };
                return Err(Error::parse(name, at(local), message));
            }
            let mismatch = match (self.first, o.first) {
                (Some(f), Some((l, h))) if f != h => Some((l, mixed_columns(h))),
                _ => None,
            };
            let err = match (mismatch, o.error) {
                (Some(m), Some(e)) => Some(if m.0 <= e.0 { m } else { e }),
                (m, e) => m.or(e),
            };
            if let Some((local, message)) = err {
                return Err(Error::parse(name, at(local), message));
            }
            if self.first.is_none() {
                self.first = o.first.map(|f| f.1);
            }
            self.records += o.records;
            self.real |= o.real;
            if o.records > 0 {
                self.max = self.max.max(o.max);
            }
            self.line0 += o.lines;
            parts.push(o.part);
        }
        Ok(parts)
    }

    /// The section's end: its records (`parts`, all that [`RecordStream::feed`] gave, in
    /// order) and what they say.
    ///
    /// # Errors
    /// Fewer records than declared, at the declaring line.
    pub(crate) fn finish(self, parts: Vec<Part>) -> Result<Edges> {
        if let Some(d) = self.declared
            && self.records < d.count
        {
            return Err(Error::parse(
                self.name,
                d.line,
                format!(
                    "{} declares {} {}, but the file has {}",
                    d.what, d.count, self.spec.plural, self.records
                ),
            ));
        }
        Ok(Edges {
            parts,
            records: self.records,
            weighted: self.weighted(),
            real: self.real,
            max: self.max,
        })
    }
}

/// One chunk of a line-by-line parse: what it built, its newlines, and its first error.
pub(crate) struct Lines<T> {
    pub value: T,
    pub lines: u64,
    pub error: Option<(u64, String)>,
}

/// Calls `f(local_line, line)` on every line of `b` that is neither blank nor a comment
/// (first non-blank byte in `comment`), the newline excluded, until `f` fails.
pub(crate) fn each_line<T>(
    b: &[u8],
    comment: [u8; 2],
    mut value: T,
    mut f: impl FnMut(&mut T, u64, &[u8]) -> std::result::Result<(), String>,
) -> Lines<T> {
    let mut line = 1u64;
    let mut p = 0usize;
    let mut error = None;
    while p < b.len() {
        let end = memchr(b'\n', &b[p..]).map_or(b.len(), |k| p + k);
        let text = &b[p..end];
        let first = text.iter().position(|&c| !is_blank(c));
        if let Some(i) = first
            && text[i] != comment[0]
            && text[i] != comment[1]
            && let Err(m) = f(&mut value, line, text)
        {
            error = Some((line, m));
            break;
        }
        if end < b.len() {
            line += 1;
        }
        p = end + 1;
    }
    Lines {
        value,
        lines: line - 1,
        error,
    }
}

/// Runs `f` on every chunk of `text` in parallel and returns, in order, each chunk's
/// value with the file line its first line is (`text` starts on line `first_line`); or
/// the earliest error, with its line in the file.
pub(crate) fn par_lines<T: Send>(
    name: &str,
    text: &[u8],
    first_line: u64,
    f: impl Fn(&[u8]) -> Lines<T> + Sync,
) -> Result<Vec<(u64, T)>> {
    let outs: Vec<Lines<T>> = split_chunks(text).into_par_iter().map(&f).collect();
    let mut line0 = first_line;
    let mut values = Vec::with_capacity(outs.len());
    for o in outs {
        if let Some((local, m)) = o.error {
            return Err(Error::parse(name, line0 + local - 1, m));
        }
        values.push((line0, o.value));
        line0 += o.lines;
    }
    Ok(values)
}

/// Checks a vertex count a header declares against [`super::ReadOptions::vertex_limit`].
pub(crate) fn check_vertex_count(
    name: &str,
    line: u64,
    n: u64,
    bytes: usize,
    opts: &super::ReadOptions,
) -> Result<()> {
    if n <= opts.vertex_limit(bytes) {
        return Ok(());
    }
    let why = if n > u32::MAX as u64 {
        format!("at most {} vertices are supported", u32::MAX)
    } else {
        format!(
            "the file has only {bytes} bytes (more than {} vertices need at least one byte \
             of file per {} vertices)",
            opts.min_vertex_limit.min(u32::MAX as u64),
            super::VERTICES_PER_BYTE
        )
    };
    Err(Error::parse(
        name,
        line,
        format!("declared {n} vertices, but {why}"),
    ))
}

/// Bytes one declared record may take in a decompressed text file: far more than any
/// real line (`i j value` is under 64 bytes), so that only a stream that is mostly not
/// its records is refused.
pub(crate) const BYTES_PER_RECORD: usize = 1024;

/// Bytes a decompressed text file may hold beyond its records: comments, blank lines.
pub(crate) const TEXT_SLACK: usize = 1 << 20;

/// The most bytes a text file whose header ends at `header_end` and declares `count`
/// records may have: the header, [`BYTES_PER_RECORD`] per record, [`TEXT_SLACK`].
pub(crate) fn declared_text_bytes(header_end: usize, count: u64) -> usize {
    usize::try_from(count)
        .unwrap_or(usize::MAX)
        .saturating_mul(BYTES_PER_RECORD)
        .saturating_add(header_end)
        .saturating_add(TEXT_SLACK)
}

/// The next line of `head` that `next_line` would take, only when a newline ends it (a
/// header cut at the end of a decompressed head is not read), with the offset after it.
pub(crate) fn whole_line<'a>(
    head: &'a [u8],
    p: &mut usize,
    is_comment: impl Fn(&[u8]) -> bool,
) -> Option<&'a [u8]> {
    let mut line = 0;
    let (_, text) = next_line(head, p, &mut line, is_comment)?;
    (*p > 0 && head[*p - 1] == b'\n').then_some(text)
}

/// The first line of `b` from `*p` that is neither blank nor a comment: `(its 1-based
/// number, its text without the newline)`, advancing `*p` past it and `*line` to the
/// number of the line after it. Used for headers, read one line at a time.
pub(crate) fn next_line<'a>(
    b: &'a [u8],
    p: &mut usize,
    line: &mut u64,
    is_comment: impl Fn(&[u8]) -> bool,
) -> Option<(u64, &'a [u8])> {
    while *p < b.len() {
        let end = memchr(b'\n', &b[*p..]).map_or(b.len(), |k| *p + k);
        let text = &b[*p..end];
        let this = *line;
        *p = (end + 1).min(b.len());
        if end < b.len() {
            *line += 1;
        }
        if tokens(text).next().is_some() && !is_comment(text) {
            return Some((this, text));
        }
    }
    None
}
