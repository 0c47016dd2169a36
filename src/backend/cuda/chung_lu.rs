//! Chung-Lu generation with an executor: the plan's tasks uploaded once, a counting
//! pass, a prefix sum, a filling pass and the row sort, all where the executor runs, into
//! a CSR of offsets and indices left there. The graph equals the CPU generator's byte for
//! byte under every schedule: the per-chunk work is the same, and sorted rows of distinct
//! entries are unique whatever order the atomics placed them in.

use super::abi::*;
use super::exec::{Exec, Launch};
pub(crate) use crate::cuda::Schedule;
use crate::error::{Error, Result};
use crate::generate::chung_lu::{Plan, TaskKind};

/// Tasks per launch of the dynamic schedule.
const DYNAMIC_BATCH: usize = 64;

/// A CSR built by an executor: `n + 1` offsets and `nnz` indices.
pub(crate) struct Generated<E: Exec> {
    pub(crate) offsets: E::Buf<u64>,
    pub(crate) indices: E::Buf<u32>,
    pub(crate) n: usize,
    pub(crate) nnz: usize,
}

/// The exclusive prefix sum of `input[0..len]` into `out[1..=len]` (`out[0]` stays 0).
fn scan<E: Exec>(ex: &E, input: &E::Buf<u64>, len: usize, out: &E::Buf<u64>) -> Result<()> {
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
    let pass = |p: &EbClParams| -> Result<()> {
        if tasks.is_empty() {
            return Ok(());
        }
        match schedule {
            Schedule::Uniform | Schedule::Balanced => ex.run(Launch::ClPass(*p, 0))?,
            Schedule::Dynamic => {
                // the other streams need not wait for the main one: finish its work first
                ex.barrier()?;
                for (k, batch) in plan.tasks.chunks(DYNAMIC_BATCH).enumerate() {
                    let first = batch[0].first_chunk;
                    let last = batch.last().expect("non-empty");
                    let q = EbClParams {
                        chunk_begin: first,
                        chunk_end: last.first_chunk + last.chunks(),
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
