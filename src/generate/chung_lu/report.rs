//! The quality report of a generated Chung-Lu graph: edges against the expectation, every
//! group's mean degree against its exact expectation under the model (with a z-score),
//! K-L divergences of the output degree histogram from the ideal one and from the input,
//! as JSON and as a log-log plot.
//!
//! Definitions (those of the peers' benchmark, `peers/chunglu_bench.py`, so the numbers
//! compare):
//! - `p_ij = min(1, w_i w_j / S)`. A vertex of group `i` has expected degree
//!   `E_i = sum_j n_j p_ij - p_ii` (`= w_i (1 - w_i / S)` when nothing is clamped); a
//!   group's degree sum has variance `4 N_ii p_ii (1 - p_ii) + sum_{j != i} n_i n_j p_ij
//!   (1 - p_ij)` (an edge inside the group adds 2), so the z-score of its mean degree is
//!   exact. Directed: out-groups against in-groups, self pairs taken out exactly.
//! - The ideal histogram is the Poisson mixture with `lambda = E_i` per vertex: what a
//!   perfect sampler gives, up to the Poisson approximation of a sum of Bernoullis.
//! - `KL(P || Q) = sum P log(P / Q)` with `P` normalised and `Q` smoothed by 0.5 per bin,
//!   over exact degrees and over log2 bins (bin 0 = degree 0, bin `k` = `[2^(k-1), 2^k)`).

use std::fmt::Write as _;
use std::path::Path;

use super::plan::{Groups, Plan, TaskKind};
use crate::error::{Error, Result};
use crate::matrix::Csr;

/// One group's line of the report.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupReport {
    /// The group's expected degree (weight) `w`.
    pub weight: f64,
    /// Vertices in the group.
    pub count: u64,
    /// The mean output degree of its vertices.
    pub mean_degree: f64,
    /// The exact expected mean degree under the model.
    pub expected: f64,
    /// `(mean_degree - expected) / sd`, `sd` the exact standard deviation of the mean.
    pub z: f64,
}

/// The report of one side (degrees, or out-degrees / in-degrees when directed).
#[derive(Clone, Debug, PartialEq)]
pub struct SideReport {
    /// `"degree"`, `"out_degree"` or `"in_degree"`.
    pub name: &'static str,
    /// Per-group lines, ascending weight.
    pub groups: Vec<GroupReport>,
    /// The largest |z| over groups.
    pub max_abs_z: f64,
    /// Input histogram `(degree, count)`, before coarsening.
    pub input_hist: Vec<(u64, u64)>,
    /// Output histogram, index = degree.
    pub output_hist: Vec<u64>,
    /// Ideal histogram (expected counts), index = degree.
    pub ideal_hist: Vec<f64>,
    /// KL(ideal || output), exact degrees.
    pub kl_ideal_out_exact: f64,
    /// KL(ideal || output), log2 bins.
    pub kl_ideal_out_log2: f64,
    /// KL(input || output), exact degrees.
    pub kl_in_out_exact: f64,
    /// KL(input || output), log2 bins.
    pub kl_in_out_log2: f64,
    /// Mean relative error of group means, `mean |mean_degree - weight| / weight` over the
    /// input's log2 degree groups (the peers' MARE).
    pub mare_log2_groups: f64,
}

/// The quality report of a generated graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Vertices.
    pub n: usize,
    /// Whether arcs were generated.
    pub directed: bool,
    /// `S`.
    pub s: f64,
    /// Groups before and after coarsening (rows side; columns side when directed).
    pub groups_before: (usize, usize),
    /// Groups after coarsening.
    pub groups_after: (usize, usize),
    /// Whether some probability was clamped to 1 (`w_i w_j > S`).
    pub clamped: bool,
    /// Tasks with work.
    pub tasks: usize,
    /// Chunks.
    pub chunks: u64,
    /// Edges generated (undirected edges counted once; arcs when directed).
    pub edges: u64,
    /// Expected edges under the model.
    pub expected_edges: f64,
    /// The standard deviation of the edge count under the model.
    pub edges_sd: f64,
    /// `(edges - expected) / sd`.
    pub edges_z: f64,
    /// Degrees (undirected) or out-degrees.
    pub rows: SideReport,
    /// In-degrees when directed.
    pub cols: Option<SideReport>,
}

fn pij(s: f64, a: f64, b: f64) -> f64 {
    (a * b / s).min(1.0)
}

impl Report {
    /// The report of `g`, generated from `plan`.
    ///
    /// # Panics
    /// If `g` is not `plan.n x plan.n` (it was not generated from this plan).
    pub fn new(plan: &Plan, g: &Csr<()>) -> Report {
        assert!(
            g.nrows() == plan.n && g.ncols() == plan.n,
            "Report::new: the graph is not n x n for this plan"
        );
        let n = plan.n;
        let out_deg: Vec<u64> = (0..n).map(|i| g.degree(i) as u64).collect();
        let (mut expected, mut var) = (0.0, 0.0);
        let edges;
        let rows;
        let mut cols = None;
        match &plan.cols {
            None => {
                for t in &plan.tasks {
                    expected += t.expected_edges();
                    var += t.expected_edges() * (1.0 - t.p);
                }
                edges = g.nnz() as u64 / 2;
                let (e, v) = undirected_moments(plan);
                rows = side_report("degree", &plan.rows, &out_deg, &e, &v);
            }
            Some(cg) => {
                let rg = &plan.rows;
                let rgv = rg.group_of_vertices(n);
                let cgv = cg.group_of_vertices(n);
                let s = plan.s;
                // Self pairs, dropped by the generator: their mass leaves both sides.
                let mut self_r = vec![(0.0f64, 0.0f64); rg.len()];
                let mut self_c = vec![(0.0f64, 0.0f64); cg.len()];
                for u in 0..n {
                    let (i, j) = (rgv[u] as usize, cgv[u] as usize);
                    let p = pij(s, rg.weight[i], cg.weight[j]);
                    self_r[i].0 += p;
                    self_r[i].1 += p * (1.0 - p);
                    self_c[j].0 += p;
                    self_c[j].1 += p * (1.0 - p);
                    expected -= p;
                    var -= p * (1.0 - p);
                }
                for t in &plan.tasks {
                    debug_assert_eq!(t.kind, TaskKind::Arcs);
                    expected += t.expected_edges();
                    var += t.expected_edges() * (1.0 - t.p);
                }
                edges = g.nnz() as u64;
                let moments = |a: &Groups, b: &Groups, selfm: &[(f64, f64)]| {
                    let mut e = vec![0.0; a.len()];
                    let mut v = vec![0.0; a.len()];
                    for i in 0..a.len() {
                        for j in 0..b.len() {
                            let p = pij(s, a.weight[i], b.weight[j]);
                            let k = (a.count(i) * b.count(j)) as f64;
                            e[i] += k * p;
                            v[i] += k * p * (1.0 - p);
                        }
                        e[i] -= selfm[i].0;
                        v[i] -= selfm[i].1;
                    }
                    (e, v)
                };
                let (e, v) = moments(rg, cg, &self_r);
                rows = side_report("out_degree", rg, &out_deg, &e, &v);
                let mut in_deg = vec![0u64; n];
                for &j in g.indices() {
                    in_deg[j as usize] += 1;
                }
                let (e, v) = moments(cg, rg, &self_c);
                cols = Some(side_report("in_degree", cg, &in_deg, &e, &v));
            }
        }
        Report {
            n,
            directed: plan.directed,
            s: plan.s,
            groups_before: plan.groups_before,
            groups_after: (plan.rows.len(), plan.cols.as_ref().map_or(0, |c| c.len())),
            clamped: plan.clamped,
            tasks: plan.tasks.len(),
            chunks: plan.chunks,
            edges,
            expected_edges: expected,
            edges_sd: var.max(0.0).sqrt(),
            edges_z: (edges as f64 - expected) / var.max(1e-300).sqrt(),
            rows,
            cols,
        }
    }

    /// The report as one JSON object (histograms included).
    pub fn to_json(&self) -> String {
        let mut o = String::new();
        let _ = write!(
            o,
            "{{\"vertices\":{},\"directed\":{},\"S\":{},\"groups_before\":{},\"groups_after\":{},",
            self.n,
            self.directed,
            num(self.s),
            self.groups_before.0,
            self.groups_after.0
        );
        if self.directed {
            let _ = write!(
                o,
                "\"in_groups_before\":{},\"in_groups_after\":{},",
                self.groups_before.1, self.groups_after.1
            );
        }
        let _ = write!(
            o,
            "\"clamped\":{},\"tasks\":{},\"chunks\":{},\"edges\":{},\"expected_edges\":{},\
             \"edges_sd\":{},\"edges_z\":{},",
            self.clamped,
            self.tasks,
            self.chunks,
            self.edges,
            num(self.expected_edges),
            num(self.edges_sd),
            num(self.edges_z)
        );
        o.push_str("\"sides\":[");
        side_json(&mut o, &self.rows);
        if let Some(c) = &self.cols {
            o.push(',');
            side_json(&mut o, c);
        }
        o.push_str("]}");
        o
    }

    /// Draws the input, output and ideal degree distributions (log-log) beside each
    /// group's mean degree against its expectation; SVG when `path` ends in `.svg`, PNG
    /// otherwise.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be written or drawn, or when the crate was
    /// built without its `plot` feature (plotters).
    #[cfg(not(feature = "plot"))]
    pub fn plot(&self, path: &Path) -> Result<()> {
        Err(Error::io(
            path,
            std::io::Error::other(
                "cannot draw the plot: edgeblas was built without its `plot` feature",
            ),
        ))
    }

    /// Draws the input, output and ideal degree distributions (log-log) beside each
    /// group's mean degree against its expectation; SVG when `path` ends in `.svg`, PNG
    /// otherwise.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be written or drawn.
    #[cfg(feature = "plot")]
    pub fn plot(&self, path: &Path) -> Result<()> {
        let svg = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
        // plotters opens a path itself: it draws into the temporary file (which keeps the
        // destination's extension, that the PNG encoder goes by), renamed on success.
        let file = crate::io::AtomicFile::create(path)?;
        let target = file.temp_path().to_path_buf();
        // plotters panics when no font can draw text; that is an error here, not a crash.
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if svg {
                draw(
                    self,
                    plotters::prelude::SVGBackend::new(&target, (1280, 560)),
                )
            } else {
                draw(
                    self,
                    plotters::prelude::BitMapBackend::new(&target, (1280, 560)),
                )
            }
        }))
        .unwrap_or_else(|_| Err("the plotting library could not draw (no usable font?)".into()));
        r.map_err(|m| {
            Error::io(
                path,
                std::io::Error::other(format!("cannot draw the plot: {m}")),
            )
        })?;
        file.commit()
    }
}

/// Exact moments of each group's vertex degree (undirected): mean `E_i` and the variance
/// of the group's degree sum.
fn undirected_moments(plan: &Plan) -> (Vec<f64>, Vec<f64>) {
    let g = &plan.rows;
    let s = plan.s;
    let k = g.len();
    let mut e = vec![0.0; k];
    let mut v = vec![0.0; k];
    for i in 0..k {
        let ni = g.count(i) as f64;
        for j in 0..k {
            let p = pij(s, g.weight[i], g.weight[j]);
            let nj = g.count(j) as f64;
            if i == j {
                e[i] += (nj - 1.0) * p;
                let pairs = ni * (ni - 1.0) / 2.0;
                v[i] += 4.0 * pairs * p * (1.0 - p);
            } else {
                e[i] += nj * p;
                v[i] += ni * nj * p * (1.0 - p);
            }
        }
        // e was a vertex's mean; the group sum's mean is n_i times it.
        e[i] *= ni;
    }
    (e, v)
}

/// Builds one side's report from the group sums' means `esum` and variances `vsum`.
fn side_report(
    name: &'static str,
    groups: &Groups,
    deg: &[u64],
    esum: &[f64],
    vsum: &[f64],
) -> SideReport {
    let mut rows = Vec::with_capacity(groups.len());
    let mut max_abs_z: f64 = 0.0;
    let mut lam = Vec::with_capacity(groups.len());
    for g in 0..groups.len() {
        let c = groups.count(g);
        let sum: u64 = (groups.start[g]..groups.start[g + 1])
            .map(|k| deg[groups.vertex(k) as usize])
            .sum();
        let cf = c.max(1) as f64;
        let mean = sum as f64 / cf;
        let expected = esum[g] / cf;
        let sd = vsum[g].max(0.0).sqrt() / cf;
        let z = if sd > 0.0 {
            (mean - expected) / sd
        } else if (mean - expected).abs() < 1e-9 {
            0.0
        } else {
            f64::INFINITY
        };
        if z.is_finite() {
            max_abs_z = max_abs_z.max(z.abs());
        }
        lam.push((expected, c));
        rows.push(GroupReport {
            weight: groups.weight[g],
            count: c,
            mean_degree: mean,
            expected,
            z,
        });
    }
    let maxd = deg.iter().copied().max().unwrap_or(0) as usize;
    let mut output_hist = vec![0u64; maxd + 1];
    for &d in deg {
        output_hist[d as usize] += 1;
    }
    let ideal_hist = poisson_mixture(&lam);
    let in_max = groups.input_hist.last().map_or(0, |&(d, _)| d) as usize;
    let mut input_dense = vec![0.0; in_max + 1];
    for &(d, c) in &groups.input_hist {
        input_dense[d as usize] += c as f64;
    }
    let out_f: Vec<f64> = output_hist.iter().map(|&c| c as f64).collect();
    let kl_ideal_out_exact = kl(&ideal_hist, &out_f);
    let kl_in_out_exact = kl(&input_dense, &out_f);
    let kl_ideal_out_log2 = kl(&log2_bins(&ideal_hist), &log2_bins(&out_f));
    let kl_in_out_log2 = kl(&log2_bins(&input_dense), &log2_bins(&out_f));
    // MARE over the input's log2 groups of degree (degree 0 excluded), as the peers do:
    // per-vertex input degrees are group weights before coarsening; use the input
    // histogram's groups, mapping vertices through positions (input order is the same).
    let mut mare_num = 0.0;
    let mut mare_groups = 0usize;
    {
        // Positions are in ascending input degree; walk them with the input histogram.
        let mut pos = 0u64;
        let mut acc: Option<(i64, f64, f64, u64)> = None; // (bin, in sum, out sum, count)
        let mut flush = |a: &mut Option<(i64, f64, f64, u64)>| {
            if let Some((_, si, so, c)) = a.take()
                && c > 0
                && si > 0.0
            {
                let (mi, mo) = (si / c as f64, so / c as f64);
                mare_num += (mo - mi).abs() / mi;
                mare_groups += 1;
            }
        };
        for &(d, c) in &groups.input_hist {
            let range = pos..pos + c;
            pos += c;
            if d == 0 {
                continue;
            }
            let bin = 63 - d.leading_zeros() as i64;
            let so: u64 = range.map(|k| deg[groups.vertex(k) as usize]).sum();
            match &mut acc {
                Some(a) if a.0 == bin => {
                    a.1 += (d * c) as f64;
                    a.2 += so as f64;
                    a.3 += c;
                }
                _ => {
                    flush(&mut acc);
                    acc = Some((bin, (d * c) as f64, so as f64, c));
                }
            }
        }
        flush(&mut acc);
    }
    SideReport {
        name,
        groups: rows,
        max_abs_z,
        input_hist: groups.input_hist.clone(),
        output_hist,
        ideal_hist,
        kl_ideal_out_exact,
        kl_ideal_out_log2,
        kl_in_out_exact,
        kl_in_out_log2,
        mare_log2_groups: if mare_groups == 0 {
            0.0
        } else {
            mare_num / mare_groups as f64
        },
    }
}

/// Expected histogram of a mixture of Poisson laws: `count` vertices of mean `lambda` each.
fn poisson_mixture(lam: &[(f64, u64)]) -> Vec<f64> {
    let lmax = lam.iter().map(|&(l, _)| l).fold(0.0, f64::max);
    let kmax = (lmax + 10.0 * lmax.sqrt() + 20.0).ceil() as usize;
    let mut h = vec![0.0; kmax + 1];
    let ln_k: Vec<f64> = (0..=kmax).map(|k| (k.max(1) as f64).ln()).collect();
    for &(l, c) in lam {
        if c == 0 {
            continue;
        }
        if l <= 0.0 {
            h[0] += c as f64;
            continue;
        }
        let ll = l.ln();
        // log pmf by recursion from the mode outwards keeps every term in range.
        let mode = (l.floor() as usize).min(kmax);
        let mut log_mode = -l;
        for lk in ln_k.iter().take(mode + 1).skip(1) {
            log_mode += ll - lk;
        }
        let span = (12.0 * l.sqrt() + 30.0) as usize;
        let mut lp = log_mode;
        for k in mode..=(mode + span).min(kmax) {
            if k > mode {
                lp += ll - ln_k[k];
            }
            h[k] += c as f64 * lp.exp();
        }
        let mut lp = log_mode;
        for k in (mode.saturating_sub(span)..mode).rev() {
            lp -= ll - ln_k[k + 1];
            h[k] += c as f64 * lp.exp();
        }
    }
    h
}

fn log2_bins(h: &[f64]) -> Vec<f64> {
    let mut b = vec![0.0; 66];
    for (d, &c) in h.iter().enumerate() {
        let k = if d == 0 {
            0
        } else {
            1 + (63 - (d as u64).leading_zeros()) as usize
        };
        b[k] += c;
    }
    while b.len() > 1 && b.last() == Some(&0.0) {
        b.pop();
    }
    b
}

/// `KL(P || Q)` with `P` normalised and `Q` smoothed by 0.5 per bin (the peers' `kl`).
fn kl(p: &[f64], q: &[f64]) -> f64 {
    let k = p.len().max(q.len());
    let ps: f64 = p.iter().sum();
    let qs: f64 = q.iter().sum::<f64>() + 0.5 * k as f64;
    if ps <= 0.0 {
        return 0.0;
    }
    let mut s = 0.0;
    for x in 0..k {
        let pp = p.get(x).copied().unwrap_or(0.0) / ps;
        if pp > 0.0 {
            let qq = (q.get(x).copied().unwrap_or(0.0) + 0.5) / qs;
            s += pp * (pp / qq).ln();
        }
    }
    s
}

/// A JSON number (non-finite values as null).
fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".into()
    }
}

fn side_json(o: &mut String, s: &SideReport) {
    let _ = write!(
        o,
        "{{\"name\":\"{}\",\"kl_ideal_out_exact\":{},\"kl_ideal_out_log2\":{},\
         \"kl_in_out_exact\":{},\"kl_in_out_log2\":{},\"mare_log2_groups\":{},\"max_abs_z\":{},\"groups\":[",
        s.name,
        num(s.kl_ideal_out_exact),
        num(s.kl_ideal_out_log2),
        num(s.kl_in_out_exact),
        num(s.kl_in_out_log2),
        num(s.mare_log2_groups),
        num(s.max_abs_z)
    );
    for (k, g) in s.groups.iter().enumerate() {
        if k > 0 {
            o.push(',');
        }
        let _ = write!(
            o,
            "{{\"weight\":{},\"count\":{},\"mean_degree\":{},\"expected\":{},\"z\":{}}}",
            num(g.weight),
            g.count,
            num(g.mean_degree),
            num(g.expected),
            num(g.z)
        );
    }
    o.push_str("],\"input_hist\":[");
    for (k, &(d, c)) in s.input_hist.iter().enumerate() {
        if k > 0 {
            o.push(',');
        }
        let _ = write!(o, "[{d},{c}]");
    }
    o.push_str("],\"output_hist\":[");
    let mut first = true;
    for (d, &c) in s.output_hist.iter().enumerate() {
        if c > 0 {
            if !first {
                o.push(',');
            }
            first = false;
            let _ = write!(o, "[{d},{c}]");
        }
    }
    o.push_str("]}");
}

#[cfg(feature = "plot")]
fn draw<DB: plotters::prelude::DrawingBackend>(
    r: &Report,
    backend: DB,
) -> std::result::Result<(), String>
where
    DB::ErrorType: 'static,
{
    use plotters::prelude::*;
    let e = |x: &dyn std::fmt::Display| x.to_string();
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let (left, right) = root.split_horizontally(640);
    let side = &r.rows;
    // Left: the distributions, count against degree, degree 0 left out (log axes).
    let pts = |h: &mut dyn Iterator<Item = (f64, f64)>| -> Vec<(f64, f64)> {
        h.filter(|&(d, c)| d >= 1.0 && c > 0.0).collect()
    };
    let input = pts(&mut side.input_hist.iter().map(|&(d, c)| (d as f64, c as f64)));
    let output = pts(&mut side
        .output_hist
        .iter()
        .enumerate()
        .map(|(d, &c)| (d as f64, c as f64)));
    let ideal: Vec<(f64, f64)> = side
        .ideal_hist
        .iter()
        .enumerate()
        .map(|(d, &c)| (d as f64, c))
        .filter(|&(d, c)| d >= 1.0 && c >= 0.5)
        .collect();
    let xmax = input.iter().chain(&output).map(|p| p.0).fold(2.0, f64::max) * 1.5;
    let ymax = input.iter().chain(&output).map(|p| p.1).fold(2.0, f64::max) * 2.0;
    let title = format!(
        "{} distribution: {} edges (expected {:.0}, z {:.2})",
        side.name.replace('_', "-"),
        r.edges,
        r.expected_edges,
        r.edges_z
    );
    let mut c = ChartBuilder::on(&left)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((1.0..xmax).log_scale(), (0.5..ymax).log_scale())
        .map_err(|x| e(&x))?;
    c.configure_mesh()
        .x_desc("degree")
        .y_desc("vertices")
        .draw()
        .map_err(|x| e(&x))?;
    c.draw_series(LineSeries::new(ideal, BLACK.stroke_width(2)))
        .map_err(|x| e(&x))?
        .label(format!(
            "ideal (KL ideal||out {:.2e})",
            side.kl_ideal_out_log2
        ))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLACK));
    c.draw_series(input.iter().map(|&p| Circle::new(p, 3, BLUE.filled())))
        .map_err(|x| e(&x))?
        .label(format!("input (KL in||out {:.3})", side.kl_in_out_log2))
        .legend(|(x, y)| Circle::new((x + 8, y), 3, BLUE.filled()));
    c.draw_series(output.iter().map(|&p| Cross::new(p, 3, RED)))
        .map_err(|x| e(&x))?
        .label("output")
        .legend(|(x, y)| Cross::new((x + 8, y), 3, RED));
    c.configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|x| e(&x))?;
    // Right: mean degree per group against its exact expectation.
    let gp: Vec<(f64, f64)> = side
        .groups
        .iter()
        .filter(|g| g.expected > 0.0 && g.mean_degree > 0.0)
        .map(|g| (g.expected, g.mean_degree))
        .collect();
    let hi = gp.iter().map(|p| p.0.max(p.1)).fold(2.0, f64::max) * 1.5;
    let lo = gp.iter().map(|p| p.0.min(p.1)).fold(hi, f64::min).max(1e-3) / 1.5;
    let mut c = ChartBuilder::on(&right)
        .caption(
            format!(
                "group mean degree vs expected (max |z| {:.2}, {} groups)",
                side.max_abs_z,
                side.groups.len()
            ),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
        .map_err(|x| e(&x))?;
    c.configure_mesh()
        .x_desc("expected mean degree d(1 - d/S)")
        .y_desc("output mean degree")
        .draw()
        .map_err(|x| e(&x))?;
    c.draw_series(LineSeries::new(vec![(lo, lo), (hi, hi)], BLACK))
        .map_err(|x| e(&x))?;
    c.draw_series(gp.iter().map(|&p| Circle::new(p, 3, RED.filled())))
        .map_err(|x| e(&x))?;
    root.present().map_err(|x| e(&x))?;
    Ok(())
}
