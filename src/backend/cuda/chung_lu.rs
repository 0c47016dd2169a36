//! Chung-Lu generation with an executor: the plan's tasks uploaded once, a counting
//! pass, a prefix sum, a filling pass and the row sort, all where the executor runs, into
//! a CSR of offsets and indices left there. The graph equals the CPU generator's byte for
//! byte under every schedule: the per-chunk work is the same, and sorted rows of distinct
//! entries are unique whatever order the atomics placed them in.

use super::abi::*;
use super::exec::{Exec, Launch};
pub(crate) use crate::backend::Schedule;
use crate::error::{Error, Result};
use crate::generate::chung_lu::{Plan, TaskKind};

/// Launches of the dynamic schedule, about: a batch of consecutive tasks is closed once
/// it holds `chunks / DYNAMIC_LAUNCHES` chunks (and at least [`DYNAMIC_MIN_CHUNKS`]).
/// A fixed count of tasks per launch (64, before) made a power law's tens of millions of
/// small inter-group tasks a million launches, 15x slower than one launch.
const DYNAMIC_LAUNCHES: u64 = 512;
/// The fewest chunks in a batch of the dynamic schedule, bar the last.
const DYNAMIC_MIN_CHUNKS: u64 = 1 << 14;

/// The dynamic schedule's batches: `(first chunk, end chunk)` of runs of whole tasks,
/// consecutive and covering every task's chunks.
/// A batch is closed once it holds `chunks / launches` chunks and at least `min_chunks`.
fn dynamic_batches(plan: &Plan, launches: u64, min_chunks: u64) -> Vec<(u64, u64)> {
    let target = plan.chunks.div_ceil(launches).max(min_chunks);
    let mut out = Vec::new();
    let mut begin = None;
    for t in &plan.tasks {
        let b = *begin.get_or_insert(t.first_chunk);
        let end = t.first_chunk + t.chunks();
        if end - b >= target {
            out.push((b, end));
            begin = None;
        }
    }
    if let (Some(b), Some(t)) = (begin, plan.tasks.last()) {
        out.push((b, t.first_chunk + t.chunks()));
    }
    out
}

/// A CSR built by an executor: `n + 1` offsets and `nnz` indices.
pub(crate) struct Generated<E: Exec> {
    pub(crate) offsets: E::Buf<u64>,
    pub(crate) indices: E::Buf<u32>,
    pub(crate) n: usize,
    pub(crate) nnz: usize,
}

/// The exclusive prefix sum of `input[0..len]` into `out[1..=len]` (`out[0]` stays 0).
pub(crate) fn scan<E: Exec>(
    ex: &E,
    input: &E::Buf<u64>,
    len: usize,
    out: &E::Buf<u64>,
) -> Result<()> {
    if len == 0 {
        return Ok(());
    }
    let blocks = len.div_ceil(EB_SCAN_BLOCK as usize);
    let sums = ex.alloc::<u64>(blocks)?;
    let p = EbScanParams {
        in_: ex.addr(input),
        out: ex.addr(out),
        sums: ex.addr(&sums),
        base: std::ptr::null(),
        len: len as u64,
    };
    ex.run(Launch::ScanBlocks(p))?;
    if blocks > 1 {
        let base = ex.alloc::<u64>(blocks + 1)?;
        scan(ex, &sums, blocks, &base)?;
        ex.run(Launch::ScanAdd(EbScanParams {
            base: ex.addr(&base),
            ..p
        }))?;
        // `base` and `sums` must outlive the launches queued on them.
        ex.barrier()?;
    } else {
        ex.barrier()?;
    }
    Ok(())
}

/// Generates `plan`'s graph under `seed`.
///
/// # Errors
/// The executor's (out of memory, say), or more than u32 vertices.
pub(crate) fn generate<E: Exec>(
    ex: &E,
    plan: &Plan,
    seed: u64,
    schedule: Schedule,
    threads: usize,
    mut phases: Option<&mut Vec<(&'static str, f64)>>,
) -> Result<Generated<E>> {
    let t0 = std::time::Instant::now();
    let timing = phases.is_some();
    let mut lap = |ex: &E, name: &'static str| -> Result<()> {
        if let Some(v) = phases.as_deref_mut() {
            ex.barrier()?;
            let before: f64 = v.iter().map(|p| p.1).sum();
            v.push((name, t0.elapsed().as_secs_f64() - before));
        }
        Ok(())
    };
    let n = plan.n;
    if n >= u32::MAX as usize {
        return Err(Error::Unsupported(format!(
            "CUDA: {n} vertices; the device generator numbers vertices with u32"
        )));
    }
    let rows = &plan.rows;
    let cols = plan.col_groups();
    let tasks: Vec<EbClTask> = plan
        .tasks
        .iter()
        .map(|t| EbClTask {
            id: t.id,
            pairs: t.pairs,
            chunk_pairs: t.chunk_pairs,
            first_chunk: t.first_chunk,
            row_start: rows.start[t.i as usize],
            col_start: cols.start[t.j as usize],
            width: cols.count(t.j as usize),
            p: t.p,
            inv_log_q: t.inv_log_q,
            kind: match t.kind {
                TaskKind::Intra => EB_CL_INTRA,
                TaskKind::Inter => EB_CL_INTER,
                TaskKind::Arcs => EB_CL_ARCS,
            },
            dense: (t.p >= 1.0) as u32,
        })
        .collect();
    let tasks_buf = ex.upload(&tasks)?;
    let row_members = rows.members.as_ref().map(|m| ex.upload(m)).transpose()?;
    let col_members = match (&plan.cols, &cols.members) {
        (None, _) => None,
        (Some(_), Some(m)) => Some(ex.upload(m)?),
        (Some(_), None) => None,
    };
    let col_members_addr = match (&plan.cols, &row_members, &col_members) {
        (None, Some(r), _) => ex.addr(r).cast_const(),
        (Some(_), _, Some(c)) => ex.addr(c).cast_const(),
        _ => std::ptr::null(),
    };
    let degree = ex.alloc::<u64>(n)?;
    let lanes: Vec<u64> = if schedule == Schedule::Balanced {
        let l = plan.lanes(threads.max(1));
        let mut b: Vec<u64> = l.iter().map(|&(c0, _)| c0).collect();
        b.push(l.last().map_or(0, |&(_, c1)| c1));
        b
    } else {
        Vec::new()
    };
    let lanes_buf = ex.upload(&lanes)?;
    let mut p = EbClParams {
        tasks: ex.addr(&tasks_buf),
        row_members: row_members
            .as_ref()
            .map_or(std::ptr::null(), |m| ex.addr(m).cast_const()),
        col_members: col_members_addr,
        lane_bounds: if lanes.is_empty() {
            std::ptr::null()
        } else {
            ex.addr(&lanes_buf)
        },
        degree: ex.addr(&degree),
        cursor: std::ptr::null_mut(),
        indices: std::ptr::null_mut(),
        seed,
        chunk_begin: 0,
        chunk_end: plan.chunks,
        ntasks: tasks.len() as u32,
        n: n as u32,
        lanes: lanes.len().saturating_sub(1) as u32,
        col_reversed: cols.reversed as u32,
        undirected: !plan.directed as u32,
        fill: 0,
    };
    let batches = match schedule {
        Schedule::Dynamic => dynamic_batches(plan, DYNAMIC_LAUNCHES, DYNAMIC_MIN_CHUNKS),
        _ => Vec::new(),
    };
    let pass = |p: &EbClParams| -> Result<()> {
        if tasks.is_empty() {
            return Ok(());
        }
        match schedule {
            Schedule::Uniform | Schedule::Balanced => ex.run(Launch::ClPass(*p, 0))?,
            Schedule::Dynamic => {
                // the other streams need not wait for the main one: finish its work first
                ex.barrier()?;
                for (k, &(chunk_begin, chunk_end)) in batches.iter().enumerate() {
                    let q = EbClParams {
                        chunk_begin,
                        chunk_end,
                        ..*p
                    };
                    ex.run(Launch::ClPass(q, 1 + k % ex.streams()))?;
                }
            }
        }
        ex.barrier()
    };
    lap(ex, "setup")?;
    if timing {
        // the walk alone: what random numbers, skipping and decoding cost
        pass(&EbClParams { fill: 2, ..p })?;
        lap(ex, "walk only (random numbers, skipping, decoding)")?;
    }
    pass(&p)?;
    lap(ex, "count pass")?;

    let offsets = ex.alloc::<u64>(n + 1)?;
    scan(ex, &degree, n, &offsets)?;
    let nnz = ex.read(&offsets, n)? as usize;
    lap(ex, "prefix sum")?;
    let indices = ex.alloc::<u32>(nnz)?;
    // cursor = offsets[0..n], reusing the degree buffer
    ex.run(Launch::CopyU64(EbScanParams {
        in_: ex.addr(&offsets),
        out: ex.addr(&degree),
        sums: std::ptr::null_mut(),
        base: std::ptr::null(),
        len: n as u64,
    }))?;
    p.fill = 1;
    p.cursor = ex.addr(&degree);
    p.indices = ex.addr(&indices);
    pass(&p)?;
    lap(ex, "fill pass")?;

    // Rows sorted: short ones in place, the others by merge passes through `spare`.
    let spare = ex.alloc::<u32>(nnz)?;
    let listed = ex.alloc::<u32>(n)?;
    let counters = ex.alloc::<u64>(2)?;
    let mut s = EbSortParams {
        offsets: ex.addr(&offsets),
        src: ex.addr(&indices),
        dst: ex.addr(&spare),
        rows: ex.addr(&listed),
        counters: ex.addr(&counters),
        width: 1,
        nrows: n as u32,
        pad: 0,
    };
    ex.run(Launch::SortClassify(s))?;
    let longest = ex.read(&counters, 1)?;
    let mut width = 1u64;
    let mut passes = 0;
    while width < longest {
        s.width = width;
        ex.run(Launch::SortMerge(s))?;
        std::mem::swap(&mut s.src, &mut s.dst);
        width *= 2;
        passes += 1;
    }
    if passes % 2 == 1 {
        // the listed rows ended in `spare`: copy them back
        ex.run(Launch::SortCopy(s))?;
    }
    ex.barrier()?;
    lap(ex, "row sort")?;
    drop((
        spare,
        listed,
        counters,
        tasks_buf,
        lanes_buf,
        row_members,
        col_members,
    ));
    Ok(Generated {
        offsets,
        indices,
        n,
        nnz,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::chung_lu::{Degrees, PlanOptions};

    /// Batches are runs of whole tasks, in order, covering every chunk once, and their
    /// count follows the chunks, not the tasks.
    #[test]
    fn dynamic_batches_cover_whole_tasks_in_order() {
        // 299 degree groups: about 45,000 tasks
        let degrees = Degrees::Histogram((1..300u64).map(|d| (d, 1 + 30_000 / (d * d))).collect());
        let plan = Plan::new(&degrees, &PlanOptions::default()).unwrap();
        assert!(plan.tasks.len() > 1000, "{} tasks", plan.tasks.len());
        let starts: std::collections::HashSet<u64> =
            plan.tasks.iter().map(|t| t.first_chunk).collect();
        for (launches, min_chunks) in [(8, 1), (64, 1), (512, 1), (4, 1 << 40), (10_000, 1)] {
            let b = dynamic_batches(&plan, launches, min_chunks);
            assert_eq!(b.first().unwrap().0, 0);
            assert_eq!(b.last().unwrap().1, plan.chunks);
            for w in b.windows(2) {
                assert_eq!(w[0].1, w[1].0, "batches are consecutive");
            }
            for &(c0, c1) in &b {
                assert!(c0 < c1 && starts.contains(&c0), "a batch starts a task");
            }
            assert!(
                b.len() as u64 <= launches + 1,
                "{} batches for {launches}",
                b.len()
            );
            if min_chunks > plan.chunks {
                assert_eq!(b.len(), 1);
            }
        }
    }
}
