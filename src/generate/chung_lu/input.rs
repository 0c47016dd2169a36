//! Degree distributions as users give them: a sequence file, a `degree,count` histogram,
//! a power law, or the degrees of an existing graph; every fault named by file and line.

use std::path::Path;

use crate::error::{Error, Result};
use crate::matrix::Csr;

/// A degree distribution to generate from.
#[derive(Clone, Debug, PartialEq)]
pub enum Degrees {
    /// Vertex `i` has expected degree `seq[i]`; the output keeps this numbering.
    Sequence(Vec<u64>),
    /// `(degree, count)` pairs, ascending by degree, distinct degrees; vertices are
    /// numbered group by group in ascending degree.
    Histogram(Vec<(u64, u64)>),
    /// Vertex `i` has expected out-degree `out[i]` and in-degree `inn[i]` (directed).
    Directed {
        /// Expected out-degrees.
        out: Vec<u64>,
        /// Expected in-degrees, as many as `out`.
        inn: Vec<u64>,
    },
}

impl Degrees {
    /// Number of vertices.
    pub fn vertices(&self) -> u64 {
        match self {
            Degrees::Sequence(s) => s.len() as u64,
            Degrees::Histogram(h) => h.iter().map(|&(_, c)| c).sum(),
            Degrees::Directed { out, .. } => out.len() as u64,
        }
    }

    /// `S`: the sum of expected (out-)degrees.
    pub fn sum_out(&self) -> u128 {
        match self {
            Degrees::Sequence(s) => s.iter().map(|&d| d as u128).sum(),
            Degrees::Histogram(h) => h.iter().map(|&(d, c)| d as u128 * c as u128).sum(),
            Degrees::Directed { out, .. } => out.iter().map(|&d| d as u128).sum(),
        }
    }

    /// The largest expected degree (out or in).
    pub fn max_degree(&self) -> u64 {
        match self {
            Degrees::Sequence(s) => s.iter().copied().max().unwrap_or(0),
            Degrees::Histogram(h) => h
                .iter()
                .filter(|&&(_, c)| c > 0)
                .map(|&(d, _)| d)
                .max()
                .unwrap_or(0),
            Degrees::Directed { out, inn } => out.iter().chain(inn).copied().max().unwrap_or(0),
        }
    }

    /// Checks the distribution built by hand: vertices exist, fewer than 2^32, and every
    /// degree is below the vertex count.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming the fault.
    pub fn validate(&self) -> Result<()> {
        let n = self.vertices();
        if n == 0 {
            return Err(Error::InvalidArgument(
                "the degree distribution is empty".into(),
            ));
        }
        if n > u32::MAX as u64 {
            return Err(Error::InvalidArgument(format!(
                "{n} vertices: at most {} are supported",
                u32::MAX
            )));
        }
        if let Degrees::Directed { out, inn } = self
            && out.len() != inn.len()
        {
            return Err(Error::InvalidArgument(format!(
                "{} out-degrees but {} in-degrees",
                out.len(),
                inn.len()
            )));
        }
        if let Degrees::Histogram(h) = self
            && let Some(w) = h.windows(2).find(|w| w[0].0 >= w[1].0)
        {
            return Err(Error::InvalidArgument(format!(
                "histogram degrees must ascend without repeats: {} then {}",
                w[0].0, w[1].0
            )));
        }
        let d = self.max_degree();
        if d >= n {
            return Err(Error::InvalidArgument(format!(
                "expected degree {d} >= n = {n} vertices: no simple graph has it"
            )));
        }
        Ok(())
    }
}

/// A power-law degree distribution: `n` vertices, `P(d) ~ d^-gamma` from `dmin`, capped
/// at `dmax` (by default `floor(sqrt(S))`, iterated to a fixed point, as the peers'
/// benchmark does, so no probability is clamped).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PowerLaw {
    /// Number of vertices.
    pub n: u64,
    /// The exponent, > 1.
    pub gamma: f64,
    /// The smallest degree, >= 1.
    pub dmin: u64,
    /// The largest degree; `None` for `floor(sqrt(S))`.
    pub dmax: Option<u64>,
}

impl PowerLaw {
    /// Parses `n=..,gamma=..,dmin=..[,dmax=..]` (the `--power-law` flag).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming the bad or missing key.
    ///
    /// ```
    /// use edgeblas::generate::chung_lu::PowerLaw;
    /// let p = PowerLaw::parse("n=1000,gamma=2.1,dmin=2").unwrap();
    /// assert_eq!((p.n, p.dmin, p.dmax), (1000, 2, None));
    /// assert!(PowerLaw::parse("n=1000,gamma=0.5,dmin=2").is_err());
    /// ```
    pub fn parse(spec: &str) -> Result<PowerLaw> {
        let bad = |m: String| Error::InvalidArgument(format!("--power-law: {m}"));
        let (mut n, mut gamma, mut dmin, mut dmax) = (None, None, None, None);
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| bad(format!("'{part}' is not key=value")))?;
            let int = |v: &str| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| bad(format!("{k}={v}: not a non-negative integer")))
            };
            match k.trim() {
                "n" => n = Some(int(v)?),
                "dmin" => dmin = Some(int(v)?),
                "dmax" => dmax = Some(int(v)?),
                "gamma" => {
                    gamma = Some(
                        v.trim()
                            .parse::<f64>()
                            .map_err(|_| bad(format!("gamma={v}: not a number")))?,
                    )
                }
                other => {
                    return Err(bad(format!(
                        "unknown key '{other}' (use n, gamma, dmin, dmax)"
                    )));
                }
            }
        }
        let p = PowerLaw {
            n: n.ok_or_else(|| bad("n=.. is missing".into()))?,
            gamma: gamma.ok_or_else(|| bad("gamma=.. is missing".into()))?,
            dmin: dmin.ok_or_else(|| bad("dmin=.. is missing".into()))?,
            dmax,
        };
        p.check()?;
        Ok(p)
    }

    fn check(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidArgument(format!("--power-law: {m}")));
        if self.n < 2 || self.n > u32::MAX as u64 {
            return bad(format!("n = {} must be in 2..={}", self.n, u32::MAX));
        }
        if !(self.gamma.is_finite() && self.gamma > 1.0) {
            return bad(format!("gamma = {} must be > 1", self.gamma));
        }
        if self.dmin == 0 || self.dmin >= self.n {
            return bad(format!("dmin = {} must be in 1..n", self.dmin));
        }
        if let Some(m) = self.dmax
            && (m < self.dmin || m >= self.n)
        {
            return bad(format!("dmax = {m} must be in dmin..n"));
        }
        Ok(())
    }

    /// The histogram: vertex `k` (`k = 0..n`) gets `floor(dmin ((k + 1/2) / n)^(-1 /
    /// (gamma - 1)))`, the power law's quantiles at the midpoints (deterministic, no
    /// random draw), then the cap.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] as [`PowerLaw::parse`] for out-of-range fields.
    pub fn histogram(&self) -> Result<Vec<(u64, u64)>> {
        self.check()?;
        let n = self.n as f64;
        let e = self.gamma - 1.0;
        // Vertices with degree >= d: k + 1/2 <= n (dmin / d)^(gamma - 1).
        let at_least = |d: u64| -> u64 {
            if d <= self.dmin {
                return self.n;
            }
            let x = n * (self.dmin as f64 / d as f64).powf(e) - 0.5;
            if x < 0.0 {
                0
            } else {
                ((x.floor() as u64) + 1).min(self.n)
            }
        };
        let hard = self.dmax.unwrap_or(self.n - 1).min(self.n - 1);
        let mut top = hard;
        loop {
            let mut hist = Vec::new();
            let mut d = self.dmin;
            let mut s: u128 = 0;
            while d <= top {
                let (a, b) = (at_least(d), if d == top { 0 } else { at_least(d + 1) });
                if a == 0 {
                    break;
                }
                if a > b {
                    hist.push((d, a - b));
                    s += d as u128 * (a - b) as u128;
                }
                d += 1;
            }
            if self.dmax.is_some() {
                return Ok(hist);
            }
            let cap = ((s as f64).sqrt().floor() as u64).max(self.dmin);
            if cap >= top || hist.last().is_none_or(|&(d, _)| d <= cap) {
                return Ok(hist);
            }
            top = cap;
        }
    }
}

/// The degree histogram of a graph's rows (out-degrees; for a graph stored both ways, the
/// degrees), as `(degree, count)` ascending, degree 0 included.
pub fn degree_histogram_of(a: &Csr<()>) -> Vec<(u64, u64)> {
    let mut counts: Vec<u64> = Vec::new();
    for i in 0..a.nrows() {
        let d = a.degree(i);
        if d >= counts.len() {
            counts.resize(d + 1, 0);
        }
        counts[d] += 1;
    }
    counts
        .into_iter()
        .enumerate()
        .filter(|&(_, c)| c > 0)
        .map(|(d, c)| (d as u64, c))
        .collect()
}

/// Reads a degree file (see [`parse_degrees`]).
///
/// # Errors
/// [`Error::Io`] when the file cannot be read, else as [`parse_degrees`].
pub fn read_degrees(path: &Path, directed: bool) -> Result<Degrees> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    parse_degrees(&path.display().to_string(), &bytes, directed)
}

/// Reads a directed distribution from two files, one of out-degrees and one of
/// in-degrees (see [`parse_degree_pair`]).
///
/// # Errors
/// [`Error::Io`] when a file cannot be read, else as [`parse_degree_pair`].
pub fn read_degree_pair(out: &Path, inn: &Path) -> Result<Degrees> {
    let ob = std::fs::read(out).map_err(|e| Error::io(out, e))?;
    let ib = std::fs::read(inn).map_err(|e| Error::io(inn, e))?;
    parse_degree_pair(
        (&out.display().to_string(), &ob),
        (&inn.display().to_string(), &ib),
    )
}

/// A directed distribution from two undirected-style inputs `(name, bytes)`: the
/// out-degrees and the in-degrees, each a sequence (one degree per line, vertex `i` on
/// the `i+1`-th data line) or a `degree,count` histogram, as [`parse_degrees`] reads them.
/// Vertex `i` gets the `i`-th out-degree and the `i`-th in-degree, a histogram listing its
/// vertices in ascending degree (so two histograms pair the `k`-th smallest out-degree
/// with the `k`-th smallest in-degree). Both must describe the same number of vertices.
///
/// # Errors
/// As [`parse_degrees`], naming the file and line; an input with two values per line or
/// three columns (already directed) is refused, and so are inputs of different lengths.
///
/// ```
/// use edgeblas::generate::chung_lu::{parse_degree_pair, Degrees};
/// let d = parse_degree_pair(("out.txt", b"1\n0\n2\n"), ("in.csv", b"degree,count\n1,3\n")).unwrap();
/// assert_eq!(d, Degrees::Directed { out: vec![1, 0, 2], inn: vec![1, 1, 1] });
/// let e = parse_degree_pair(("out.txt", b"1\n1\n"), ("in.txt", b"1\n1\n1\n")).unwrap_err();
/// assert!(e.to_string().contains("out.txt has 2 vertices but in.txt has 3"));
/// ```
pub fn parse_degree_pair(out: (&str, &[u8]), inn: (&str, &[u8])) -> Result<Degrees> {
    let one = |(name, bytes): (&str, &[u8]), what: &str| -> Result<Vec<u64>> {
        match parse(name, bytes, true, crate::limits::MIN_VERTEX_LIMIT)? {
            Degrees::Sequence(s) => Ok(s),
            Degrees::Histogram(h) => {
                let n: u64 = h.iter().map(|&(_, c)| c).sum();
                let limit = crate::limits::vertex_limit(bytes.len());
                if n > limit {
                    return Err(Error::parse(
                        name,
                        0,
                        format!(
                            "the counts add up to {n} vertices, more than the {limit} a file of \
                             {} bytes may expand to",
                            bytes.len()
                        ),
                    ));
                }
                let mut v = Vec::with_capacity(n as usize);
                for (d, c) in h {
                    v.extend(std::iter::repeat_n(d, c as usize));
                }
                Ok(v)
            }
            Degrees::Directed { .. } => Err(Error::parse(
                name,
                0,
                format!(
                    "{what} takes one degree per vertex (a sequence, or a degree,count \
                     histogram), but this file gives out- and in-degrees together"
                ),
            )),
        }
    };
    let o = one(out, "--out-degrees")?;
    let i = one(inn, "--in-degrees")?;
    if o.len() != i.len() {
        return Err(Error::InvalidArgument(format!(
            "{} has {} vertices but {} has {}: out- and in-degrees must describe the same \
             vertices",
            out.0,
            o.len(),
            inn.0,
            i.len()
        )));
    }
    Ok(Degrees::Directed { out: o, inn: i })
}

/// Parses a degree file named `name`:
///
/// - a histogram: a header line `degree,count` (any names, two comma-separated columns),
///   then `degree,count` per line; or, for a directed distribution, a header with three
///   columns and `out,in,count` per line;
/// - a sequence: one expected degree per line (vertex `i` on the `i+1`-th data line), or
///   `out in` (whitespace or a comma between) per line for a directed one.
///
/// `#` and `%` start comment lines; blank lines are skipped. With `directed`, a
/// one-column input gives every vertex the same out- and in-degree.
///
/// # Errors
/// [`Error::Parse`] with the line for a negative, fractional or non-numeric value, a
/// wrong number of columns, a repeated histogram degree, or a degree `>= n`; an empty
/// input is an error too.
///
/// ```
/// use edgeblas::generate::chung_lu::{parse_degrees, Degrees};
/// let h = parse_degrees("h.csv", b"degree,count\n1,3\n2,1\n", false).unwrap();
/// assert_eq!(h, Degrees::Histogram(vec![(1, 3), (2, 1)]));
/// let e = parse_degrees("s.txt", b"1\n2\n-1\n", false).unwrap_err();
/// assert_eq!(e.to_string(), "s.txt:3: '-1' is negative: a degree is a count of edges");
/// ```
pub fn parse_degrees(name: &str, bytes: &[u8], directed: bool) -> Result<Degrees> {
    Degrees::parse_with_limit(name, bytes, directed, crate::limits::MIN_VERTEX_LIMIT)
}

impl Degrees {
    /// [`parse_degrees`] with the allocation guard's floor `min_vertex_limit` (as
    /// [`ReadOptions::min_vertex_limit`](crate::io::ReadOptions::min_vertex_limit) for
    /// graph files; [`parse_degrees`] uses [`MIN_VERTEX_LIMIT`](crate::io::MIN_VERTEX_LIMIT),
    /// 2^24). A three-column histogram is expanded to one `(out, in)` pair per vertex, so
    /// its vertex count must be at most `max(min_vertex_limit, 64 * bytes.len())`; the other
    /// forms take memory in proportion to the input only.
    ///
    /// # Errors
    /// As [`parse_degrees`], and for a directed histogram over that limit.
    ///
    /// ```
    /// use edgeblas::generate::chung_lu::Degrees;
    /// let big = b"out,in,count\n1,1,100000\n";
    /// assert!(Degrees::parse_with_limit("h.csv", big, true, 1 << 16).is_err());
    /// assert!(Degrees::parse_with_limit("h.csv", big, true, 1 << 24).is_ok());
    /// ```
    pub fn parse_with_limit(
        name: &str,
        bytes: &[u8],
        directed: bool,
        min_vertex_limit: u64,
    ) -> Result<Degrees> {
        parse(name, bytes, directed, min_vertex_limit)
    }
}

fn parse(name: &str, bytes: &[u8], directed: bool, floor: u64) -> Result<Degrees> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| Error::parse(name, 0, format!("not UTF-8 text: {e}")))?;
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(k, l)| (k as u64 + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#') && !l.starts_with('%'))
        .peekable();
    let Some(&(first_no, first)) = lines.peek() else {
        return Err(Error::parse(name, 0, "no degrees: the input is empty"));
    };
    let is_header = first
        .chars()
        .any(|c| c.is_ascii_alphabetic() && c != 'e' && c != 'E');
    let fields = |l: &str| -> Vec<String> {
        l.split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect()
    };
    let value = |no: u64, t: &str| -> Result<u64> {
        if let Ok(v) = t.parse::<u64>() {
            return Ok(v);
        }
        let msg = if t.starts_with('-') {
            format!("'{t}' is negative: a degree is a count of edges")
        } else if t.parse::<f64>().is_ok() {
            format!("'{t}' is not an integer: expected degrees are whole numbers")
        } else {
            format!("'{t}' is not a non-negative integer")
        };
        Err(Error::parse(name, no, msg))
    };
    if is_header {
        let cols = fields(first).len();
        lines.next();
        if cols != 2 && cols != 3 {
            return Err(Error::parse(
                name,
                first_no,
                format!(
                    "a histogram header has 2 columns (degree,count) or 3 (out,in,count), not {cols}"
                ),
            ));
        }
        let mut rows: Vec<(u64, Vec<u64>)> = Vec::new();
        for (no, l) in lines {
            let f = fields(l);
            if f.len() != cols {
                return Err(Error::parse(
                    name,
                    no,
                    format!("expected {cols} comma-separated values, found {}", f.len()),
                ));
            }
            let v = f.iter().map(|t| value(no, t)).collect::<Result<Vec<_>>>()?;
            rows.push((no, v));
        }
        if rows.is_empty() {
            return Err(Error::parse(name, first_no, "no degrees after the header"));
        }
        let n: u128 = rows.iter().map(|(_, v)| v[cols - 1] as u128).sum();
        if n == 0 {
            return Err(Error::parse(name, 0, "every count is 0: no vertices"));
        }
        if n > u32::MAX as u128 {
            return Err(Error::parse(
                name,
                0,
                format!("{n} vertices: at most {} are supported", u32::MAX),
            ));
        }
        let n = n as u64;
        for (no, v) in &rows {
            if let Some(&d) = v[..cols - 1].iter().find(|&&d| d >= n) {
                return Err(Error::parse(
                    name,
                    *no,
                    format!("degree {d} >= n = {n} vertices: no simple graph has it"),
                ));
            }
        }
        if cols == 2 {
            let mut seen = std::collections::HashMap::new();
            for (no, v) in &rows {
                if let Some(prev) = seen.insert(v[0], *no) {
                    return Err(Error::parse(
                        name,
                        *no,
                        format!("degree {} is listed twice (first at line {prev})", v[0]),
                    ));
                }
            }
            let mut h: Vec<(u64, u64)> = rows.iter().map(|(_, v)| (v[0], v[1])).collect();
            h.sort_unstable();
            return Ok(Degrees::Histogram(h));
        }
        let limit = crate::limits::limit_for(floor, bytes.len());
        if n > limit {
            return Err(Error::parse(
                name,
                0,
                format!(
                    "the counts add up to {n} vertices, but the file has only {} bytes (a \
                     directed histogram is expanded to one (out, in) pair per vertex, and \
                     more than {} vertices need at least one byte of file per {} vertices)",
                    bytes.len(),
                    floor.min(u32::MAX as u64),
                    crate::limits::VERTICES_PER_BYTE
                ),
            ));
        }
        let (mut out, mut inn) = (
            Vec::with_capacity(n as usize),
            Vec::with_capacity(n as usize),
        );
        for (_, v) in &rows {
            for _ in 0..v[2] {
                out.push(v[0]);
                inn.push(v[1]);
            }
        }
        return Ok(Degrees::Directed { out, inn });
    }
    let mut cols = 0usize;
    let (mut out, mut inn) = (Vec::new(), Vec::new());
    let mut where_line: Vec<u64> = Vec::new();
    for (no, l) in lines {
        let f = fields(l);
        if cols == 0 {
            cols = f.len();
            if cols != 1 && cols != 2 {
                return Err(Error::parse(
                    name,
                    no,
                    format!(
                        "a degree sequence has 1 value per line (or 2: out in), not {}",
                        f.len()
                    ),
                ));
            }
            if cols == 2 && !directed {
                return Err(Error::parse(
                    name,
                    no,
                    "two values per line (out in) need --directed",
                ));
            }
        } else if f.len() != cols {
            return Err(Error::parse(
                name,
                no,
                format!(
                    "expected {cols} values as on the first line, found {}",
                    f.len()
                ),
            ));
        }
        out.push(value(no, &f[0])?);
        if cols == 2 {
            inn.push(value(no, &f[1])?);
        }
        where_line.push(no);
    }
    let n = out.len() as u64;
    if n > u32::MAX as u64 {
        return Err(Error::parse(name, 0, "more than 2^32 - 1 vertices"));
    }
    for (k, &d) in out.iter().enumerate() {
        let m = if cols == 2 { d.max(inn[k]) } else { d };
        if m >= n {
            return Err(Error::parse(
                name,
                where_line[k],
                format!("degree {m} >= n = {n} vertices: no simple graph has it"),
            ));
        }
    }
    Ok(if cols == 2 {
        Degrees::Directed { out, inn }
    } else {
        Degrees::Sequence(out)
    })
}
