//! Degree-distribution coarsening (Alam and Perumalla, section 3.3): neighbouring groups
//! above a cut whose degrees lie within a factor `1 + delta` become one group, weighted so
//! that the sum of expected degrees `S` does not change.

use crate::error::{Error, Result};

/// The coarsening parameters: groups of degree above `cut` whose degrees lie within a
/// factor `1 + delta` of the first group of a run merge into one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coarsen {
    /// Relative tolerance: a run starting at degree `d0` takes every following group of
    /// degree at most `d0 (1 + delta)`.
    pub delta: f64,
    /// Groups of degree at most `cut` are never merged (the low degrees, where merging
    /// would visibly shift the distribution, stay exact).
    pub cut: f64,
}

impl Coarsen {
    /// Checks the parameters.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `delta` is negative or not finite, or `cut` is
    /// negative or not finite.
    pub fn new(delta: f64, cut: f64) -> Result<Self> {
        if !(delta.is_finite() && delta >= 0.0) {
            return Err(Error::InvalidArgument(format!(
                "--coarsen: delta must be a finite number >= 0, not {delta}"
            )));
        }
        if !(cut.is_finite() && cut >= 0.0) {
            return Err(Error::InvalidArgument(format!(
                "--coarsen-cut: must be a finite number >= 0, not {cut}"
            )));
        }
        Ok(Coarsen { delta, cut })
    }
}

/// The runs of groups that merge: `runs[k]..runs[k + 1]` is merged group `k` (so
/// `runs[0] == 0` and the last entry is `degrees.len()`). `degrees` ascend.
///
/// A run starts at the first group not yet taken; when its degree is above `cut`, it takes
/// every following group whose degree is at most `d0 (1 + delta)`.
///
/// ```
/// use edgeblas::generate::chung_lu::{coarsen_runs, Coarsen};
/// let c = Coarsen::new(0.1, 10.0).unwrap();
/// // 1, 5 and 10 stay; 20, 21, 22 merge; 30 and 32 merge.
/// let runs = coarsen_runs(&[1.0, 5.0, 10.0, 20.0, 21.0, 22.0, 30.0, 32.0], &c);
/// assert_eq!(runs, vec![0, 1, 2, 3, 6, 8]);
/// ```
pub fn coarsen_runs(degrees: &[f64], c: &Coarsen) -> Vec<usize> {
    let mut runs = vec![0usize];
    let mut g = 0usize;
    while g < degrees.len() {
        let d0 = degrees[g];
        let mut e = g + 1;
        if d0 > c.cut {
            let limit = d0 * (1.0 + c.delta);
            while e < degrees.len() && degrees[e] <= limit {
                e += 1;
            }
        }
        runs.push(e);
        g = e;
    }
    runs
}

/// The weight of a merged group: `sum(n_k d_k) / sum(n_k)`, so the merged group's
/// vertices carry the same total expected degree as before.
pub fn merged_weight(degrees: &[f64], counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return degrees.first().copied().unwrap_or(0.0);
    }
    let sum: f64 = degrees
        .iter()
        .zip(counts)
        .map(|(&d, &c)| d * c as f64)
        .sum();
    sum / total as f64
}
