//! `--backend mpi`: `bfs`, `sssp`, `pagerank`, `wcc`, `generate chung-lu` and `bench chung-lu` on the ranks of
//! `mpirun -np P`. Rank 0 reads the input, writes the outputs and prints; every error is
//! agreed on by all ranks before the next collective call and printed once, by rank 0,
//! and every rank exits non-zero. Without the `mpi` feature each command says how to
//! get it.

#[cfg(not(feature = "mpi"))]
mod imp {
    use edgeblas::{Error, Result};

    use crate::generate::{BenchChungLuArgs, ChungLuArgs};
    use crate::traverse::BfsArgs;

    fn unbuilt() -> Error {
        Error::Unsupported(
            "--backend mpi: this edgeblas was built without MPI; build it with `cargo build --release --features mpi` (scripts/setup-mpi.sh installs OpenMPI) and run it under mpirun"
                .into(),
        )
    }

    pub fn bfs(_: &BfsArgs) -> Result<()> {
        Err(unbuilt())
    }

    pub fn generate_chung_lu(_: &ChungLuArgs) -> Result<()> {
        Err(unbuilt())
    }

    pub fn bench_chung_lu(_: &BenchChungLuArgs) -> Result<()> {
        Err(unbuilt())
    }

    pub fn pagerank(
        _: &crate::analytics::PageRankArgs,
        _: &edgeblas::algo::PageRankOptions,
    ) -> Result<()> {
        Err(unbuilt())
    }

    pub fn wcc(_: &crate::analytics::WccArgs) -> Result<()> {
        Err(unbuilt())
    }

    pub fn sssp(_: &crate::traverse::SsspArgs) -> Result<()> {
        Err(unbuilt())
    }
}

#[cfg(feature = "mpi")]
mod imp {
    use std::time::Instant;

    use edgeblas::algo::bfs::Policy;
    use edgeblas::algo::bfs::{BfsOptions, BfsResult};
    use edgeblas::algo::validate::validate_bfs;
    use edgeblas::algo::{PageRankOptions, Stop, WccMethod};
    use edgeblas::dist::bfs::LocalGraph;
    use edgeblas::dist::{self, Failed, Net, Partition, Traffic};
    use edgeblas::generate::chung_lu::{Plan, Report};
    use edgeblas::io::binary::{BinaryHeader, RowBlock};
    use edgeblas::io::{Format, Graph, ReadOptions, ValueType, VertexIds, parts};
    use edgeblas::{Error, Result};
    use serde_json::json;

    use crate::analytics::{PageRankArgs, WccArgs};
    use crate::common::{
        InputArgs, index_of, median, set_threads, silence_errors, sources_by_ids, sources_of,
        timed, vertex_index,
    };
    use crate::generate::{BenchChungLuArgs, ChungLuArgs, ChungLuModel, write_outputs};
    use crate::traverse::{
        BfsArgs, PolicyName, SsspArgs, SsspMethod, distance_text, external_violation, prepare,
        teps_edges, write_distances, write_levels_ids, write_parents_ids, write_predecessors,
    };

    /// Starts MPI; ranks other than 0 stop printing errors.
    fn start() -> Result<(dist::Universe, Net)> {
        let (u, net) = dist::init()?;
        if !net.is_root() {
            silence_errors();
        }
        Ok((u, net))
    }

    /// The threads of every rank: `--threads`, or this node's cores shared by its ranks.
    fn threads(flag: Option<usize>) -> Result<usize> {
        let t = match flag {
            Some(t) => t,
            None => {
                let local = std::env::var("OMPI_COMM_WORLD_LOCAL_SIZE")
                    .ok()
                    .and_then(|s| s.parse::<usize>().ok())
                    .unwrap_or(1)
                    .max(1);
                let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
                (cores / local).max(1)
            }
        };
        set_threads(Some(t))?;
        Ok(t)
    }

    /// The outcome of a step that fails on every rank together or on none (the same
    /// flags everywhere, or an error agreed through [`Net::agree`]). On failure rank 0
    /// prints the error before any rank exits (mpirun stops the whole job when the first
    /// process exits non-zero, which could cut rank 0 short), then every rank returns it
    /// (unprinted: main prints nothing more).
    fn together<T>(net: &Net, r: Result<T>) -> Result<T> {
        if let Err(e) = &r {
            if net.is_root() {
                eprintln!("error: {}", crate::common::message(e));
            }
            silence_errors();
            net.barrier();
        }
        r
    }

    fn agreed(f: Failed) -> Error {
        Error::InvalidArgument(f.to_string())
    }

    fn traffic_json(t: Traffic) -> serde_json::Value {
        json!({"bytes": t.bytes, "messages": t.messages})
    }

    /// What rank 0 reads before the search.
    struct Input {
        graph: Graph,
        sources: Vec<u32>,
        target: Option<u32>,
        load_s: f64,
    }

    fn read_input(a: &BfsArgs, ranks: usize) -> Result<Input> {
        let (g, load_s) = timed(|| a.input.load());
        let graph = g?;
        if graph.vertices() < ranks {
            return Err(Error::InvalidArgument(format!(
                "{} ranks for {} vertices: run at most {} ranks (mpirun -np)",
                ranks,
                graph.vertices(),
                graph.vertices()
            )));
        }
        let sources = sources_of(&graph, &a.source, "--source")?;
        let target = a
            .target
            .map(|t| vertex_index(&graph, t, "--target"))
            .transpose()?;
        Ok(Input {
            graph,
            sources,
            target,
            load_s,
        })
    }

    /// How the ranks read an input.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Reading {
        /// Every rank its own rows of a binary file or of a directory of parts.
        Blocks,
        /// Rank 0 streams a text file in blocks of about this many bytes, each record
        /// sent to its row's rank.
        Text(Format, usize),
        /// Rank 0 reads the whole graph (a named pipe, the adjacency form, gzipped
        /// binary): only `bfs` does.
        Whole,
    }

    /// The formats that stream, in the order their codes follow.
    const STREAMED: [Format; 4] = [
        Format::EdgeList,
        Format::MatrixMarket,
        Format::Dimacs,
        Format::Graphalytics,
    ];

    /// How the ranks can read `i`, as rank 0 sees it: a regular, uncompressed binary file
    /// or a directory of parts (`edgeblas convert IN DIR --parts P`) in row blocks; a
    /// regular text file (gzipped or not) streamed by rank 0; anything else whole.
    /// `EDGEBLAS_TEXT_BLOCK` sets the text block in bytes (default 32 MiB).
    fn reading(i: &InputArgs) -> Result<Reading> {
        let format = match &i.format {
            Some(f) => Some(Format::from_name(f)?),
            None => Format::from_path(&i.file),
        };
        let name = i.file.to_string_lossy().to_ascii_lowercase();
        if i.file.is_dir()
            || (format == Some(Format::Binary)
                && !name.ends_with(".gz")
                && std::fs::metadata(&i.file).is_ok_and(|m| m.is_file()))
        {
            return Ok(Reading::Blocks);
        }
        let Some(format) = format.filter(|&f| dist::read::text_streams(&i.file, f)) else {
            return Ok(Reading::Whole);
        };
        let block = match std::env::var("EDGEBLAS_TEXT_BLOCK") {
            Err(_) => dist::read::TEXT_BLOCK,
            Ok(v) => v.parse::<usize>().ok().filter(|&b| b > 0).ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "EDGEBLAS_TEXT_BLOCK={v}: expected a positive number of bytes"
                ))
            })?,
        };
        Ok(Reading::Text(format, block))
    }

    /// Rank 0's [`reading`] on every rank (the block size is rank 0's alone), or its
    /// error agreed. With `refuse_whole`, an input only rank 0 could read whole is an
    /// error naming what `command` reads.
    fn agree_reading(net: &Net, i: &InputArgs, refuse_whole: Option<&str>) -> Result<Reading> {
        let mine = if net.is_root() {
            reading(i).and_then(|r| match (r, refuse_whole) {
                (Reading::Whole, Some(command)) => Err(Error::InvalidArgument(format!(
                    "{}: {command} --backend mpi reads a binary graph (.ebg, uncompressed) or a regular text file (edge list, Matrix Market, DIMACS, Graphalytics; gzipped or not) in row blocks; convert it first (edgeblas convert IN OUT.ebg)",
                    i.file.display()
                ))),
                _ => Ok(r),
            })
        } else {
            Ok(Reading::Whole)
        };
        let mine = together(net, net.agree(mine).map_err(agreed))?;
        let code = match mine {
            Reading::Whole => vec![0],
            Reading::Blocks => vec![1],
            Reading::Text(f, block) => {
                let k = STREAMED
                    .iter()
                    .position(|&g| g == f)
                    .expect("a streamed format");
                vec![2 + k as u64, block as u64]
            }
        };
        let code = net.broadcast_u64s(&code);
        Ok(match code[0] {
            0 => Reading::Whole,
            1 => Reading::Blocks,
            k => Reading::Text(STREAMED[k as usize - 2], code[1] as usize),
        })
    }

    /// Every rank's rows of `i`, read as `how` says (not [`Reading::Whole`]).
    fn read_rows(net: &Net, i: &InputArgs, how: Reading) -> Result<dist::read::RowBlocksRead> {
        let read = match how {
            Reading::Text(format, block) => {
                let opts = ReadOptions {
                    format: Some(format),
                    ..ReadOptions::default()
                };
                dist::read::read_text_row_blocks(net, &i.file, format, &opts, block)
            }
            _ => dist::read::read_row_blocks(net, &i.file),
        };
        together(net, read.map_err(agreed))
    }

    /// `mpirun -np P edgeblas pagerank FILE.ebg --backend mpi`: every rank reads its rows,
    /// builds its rows of `A'`, and the sweep's product is the distributed `mxv`.
    pub fn pagerank(a: &PageRankArgs, opts: &PageRankOptions) -> Result<()> {
        let (_universe, net) = start()?;
        let threads = together(&net, threads(a.common.threads))?;
        let checked = if a.precision != "f64" {
            Err(Error::InvalidArgument(
                "--precision f32: --backend mpi sweeps in f64".into(),
            ))
        } else {
            Ok(())
        };
        together(&net, net.agree(checked).map_err(agreed))?;
        let how = agree_reading(&net, &a.common.input, Some("pagerank"))?;
        let t_load = Instant::now();
        let read = read_rows(&net, &a.common.input, how)?;
        let h = read.header;
        let local = LocalGraph::from_rows(
            &net,
            read.part,
            h.directed,
            a.common.input.undirected,
            true,
            read.rows.offsets,
            read.rows.indices,
        );
        let load_s = t_load.elapsed().as_secs_f64();
        let at = local.in_rows();
        let degrees = local.out_degrees();
        net.barrier();
        let before = net.sent();
        let t0 = Instant::now();
        let pr = together(
            &net,
            dist::pagerank::pagerank(&net, local.partition(), &at, &degrees, opts),
        )?;
        let seconds = t0.elapsed().as_secs_f64();
        let sent = net.sent() - before;
        let traffic = net.allreduce_sum(&[sent.bytes, sent.messages]);
        let (Some(pr), Some(ids)) = (pr, &read.ids) else {
            return Ok(());
        };
        if let Some(p) = &a.ranks {
            edgeblas::io::write_atomically(p, |w| {
                for (v, x) in pr.ranks.iter().enumerate() {
                    writeln!(w, "{} {x:?}", ids.external(v))?;
                }
                Ok(())
            })?;
        }
        let sum: f64 = pr.ranks.iter().sum::<f64>() + 0.0;
        let converged = match opts.stop {
            Stop::Iterations(_) => None,
            Stop::Tolerance { tolerance, .. } => Some(pr.change < tolerance),
        };
        if a.common.json {
            let out = json!({
                "file": a.common.input.file.display().to_string(),
                "vertices": h.vertices,
                "arcs": local.arcs(),
                "directed": h.directed && !a.common.input.undirected,
                "symmetric": local.is_symmetric(),
                "threads": threads,
                "load_seconds": load_s,
                "damping": a.damping,
                "precision": a.precision,
                "iterations": pr.iterations,
                "change": pr.change,
                "converged": converged,
                "sum": sum,
                "seconds": seconds,
                "backend": "mpi",
                "ranks": net.size(),
                "bytes_sent": traffic[0],
                "messages": traffic[1],
            });
            println!("{out}");
        } else {
            println!(
                "pagerank: {} iterations (last L1 change {:.3e}), rank sum {sum:.12}, {seconds:.6} s, {} ranks, {} bytes in {} messages",
                pr.iterations,
                pr.change,
                net.size(),
                traffic[0],
                traffic[1]
            );
        }
        Ok(())
    }

    /// What the outputs say of the graph, on rank 0.
    struct Meta<'a> {
        ids: &'a VertexIds,
        vertices: usize,
        arcs: u64,
        directed: bool,
        sources: &'a [u32],
        load_s: f64,
        /// Graph500's traversed edges.
        edges: u64,
        valid: Option<bool>,
    }

    /// `mpirun -np P edgeblas bfs FILE --source ID --backend mpi`.
    pub fn bfs(a: &BfsArgs) -> Result<()> {
        let (_universe, net) = start()?;
        let threads = together(&net, threads(a.threads))?;
        let policy = together(&net, a.policy.build())?;
        // The layout's flags before any reading (the same verdict on every rank).
        together(&net, layout_grid(a, net.size()))?;
        // `--validate` checks against the whole graph, which rank 0 then reads.
        let how = match a.validate {
            true => Reading::Whole,
            false => agree_reading(&net, &a.input, None)?,
        };
        if how != Reading::Whole {
            return bfs_row_blocks(a, &net, how, threads, policy.as_ref());
        }
        let input = if net.is_root() {
            read_input(a, net.size()).map(Some)
        } else {
            Ok(None)
        };
        let input = together(&net, net.agree(input).map_err(agreed))?;
        let t_prep = Instant::now();
        let bg = input.as_ref().map(|i| prepare(&i.graph, a.policy.policy));
        let may_pull = a.policy.policy != PolicyName::Push;
        let before = net.sent();
        let local = dist::bfs::scatter_graph(&net, bg.as_ref().map(|b| (b, may_pull)));
        let scatter = net.sent() - before;
        let scatter = net.allreduce_sum(&[scatter.bytes, scatter.messages]);
        // Sources and target, as rank 0 resolved them: [target + 1 or 0, sources...].
        let mut words = Vec::new();
        if let Some(i) = &input {
            words.push(i.target.map_or(0, |t| t as u64 + 1));
            words.extend(i.sources.iter().map(|&s| s as u64));
        }
        let words = net.broadcast_u64s(&words);
        let target = (words[0] > 0).then(|| (words[0] - 1) as u32);
        let sources: Vec<u32> = words[1..].iter().map(|&s| s as u32).collect();
        let opts = BfsOptions {
            trace: true,
            max_depth: a.max_depth,
            target,
        };
        let laid = together(&net, lay_out(a, &net, local))?;
        net.barrier();
        let prep_s = t_prep.elapsed().as_secs_f64();
        let t0 = Instant::now();
        let r = together(&net, search(&net, &laid, &sources, policy.as_ref(), &opts))?;
        let secs = t0.elapsed().as_secs_f64();
        let (Some(input), Some(bg), Some(res)) = (&input, &bg, &r.result) else {
            return Ok(());
        };
        let g = &input.graph;
        let valid = if a.validate {
            validate_bfs(&g.adjacency, &input.sources, res).map_err(|v| {
                Error::InvalidStructure(format!("--validate: {}", external_violation(g, &v)))
            })?;
            Some(true)
        } else {
            None
        };
        let meta = Meta {
            ids: &g.ids,
            vertices: g.vertices(),
            arcs: g.arcs() as u64,
            directed: g.directed,
            sources: &input.sources,
            load_s: input.load_s,
            edges: teps_edges(g, bg, res),
            valid,
        };
        finish_bfs(
            a,
            &net,
            &meta,
            res,
            &r.level_traffic,
            r.traffic,
            scatter,
            secs,
            prep_s,
            threads,
            policy.name(),
        )
    }

    /// The grid of `--layout 2d` (`--grid`, or the squarest for the run's ranks); `None`
    /// for 1-D. The same on every rank (the same flags), checked before any exchange.
    fn layout_grid(a: &BfsArgs, ranks: usize) -> Result<Option<dist::bfs2d::Grid>> {
        use crate::traverse::Layout;
        let grid = match (a.layout, &a.grid) {
            (Layout::OneD, None) => return Ok(None),
            (Layout::OneD, Some(_)) => {
                return Err(Error::InvalidArgument("--grid: needs --layout 2d".into()));
            }
            (Layout::TwoD, None) => dist::bfs2d::Grid::squarest(ranks),
            (Layout::TwoD, Some(g)) => dist::bfs2d::Grid::parse(g).map_err(|_| {
                Error::InvalidArgument(format!("--grid {g}: expected ROWSxCOLS, as 2x2"))
            })?,
        };
        if grid.ranks() != ranks {
            return Err(Error::InvalidArgument(format!(
                "--grid {grid}: {} ranks, the run has {ranks} (mpirun -np)",
                grid.ranks()
            )));
        }
        Ok(Some(grid))
    }

    /// The graph as the search reads it: the 1-D rows, or the 2-D blocks.
    enum Laid {
        OneD(LocalGraph),
        TwoD(dist::bfs2d::Local2d, dist::bfs2d::GridNets),
    }

    /// The graph in the layout the flags ask for: the 1-D rows as they are, or
    /// redistributed over the grid (before the timing, as the scatter is), the rows then
    /// dropped, so that a rank holds its block alone.
    fn lay_out(a: &BfsArgs, net: &Net, local: LocalGraph) -> Result<Laid> {
        Ok(match layout_grid(a, net.size())? {
            None => Laid::OneD(local),
            Some(grid) => {
                let (g2, nets) = dist::bfs2d::Local2d::from_local(net, &local, grid)?;
                Laid::TwoD(g2, nets)
            }
        })
    }

    /// The search over the graph as laid out.
    fn search(
        net: &Net,
        laid: &Laid,
        sources: &[u32],
        policy: &dyn Policy,
        opts: &BfsOptions,
    ) -> Result<dist::bfs::DistBfs> {
        match laid {
            Laid::OneD(local) => dist::bfs::bfs(net, local, sources, policy, opts),
            Laid::TwoD(g2, nets) => dist::bfs2d::bfs(net, nets, g2, sources, policy, opts),
        }
    }

    /// Rank 0's reading of `--source` and `--target` against the ids (and, for
    /// `random:K`, the out-degrees of every vertex, gathered from the ranks).
    fn resolve_ids(
        a: &BfsArgs,
        ids: &VertexIds,
        n: usize,
        degrees: Option<&[u64]>,
    ) -> Result<(Vec<u32>, Option<u32>)> {
        let sources = if let Some(d) = degrees {
            sources_by_ids(ids, n, |v| d[v], &a.source, "--source")?
        } else {
            sources_by_ids(ids, n, |_| 0, &a.source, "--source")?
        };
        let target = a
            .target
            .map(|t| index_of(ids, n, t, "--target"))
            .transpose()?;
        Ok((sources, target))
    }

    /// BFS over a graph every rank gets its own rows of: no rank holds the graph.
    fn bfs_row_blocks(
        a: &BfsArgs,
        net: &Net,
        how: Reading,
        threads: usize,
        policy: &dyn Policy,
    ) -> Result<()> {
        let t_load = Instant::now();
        let read = read_rows(net, &a.input, how)?;
        let h = read.header;
        let load_s = t_load.elapsed().as_secs_f64();
        // `random:K` draws among the vertices with arcs: their out-degrees, on rank 0.
        let degrees = if a.source.starts_with("random:") {
            let o = &read.rows.offsets;
            let mine: Vec<u64> = o.windows(2).map(|w| w[1] - w[0]).collect();
            net.gatherv_root(&mine)
        } else {
            None
        };
        let resolved = match &read.ids {
            Some(ids) => resolve_ids(a, ids, h.vertices, degrees.as_deref()).map(Some),
            None => Ok(None),
        };
        drop(degrees);
        let resolved = together(net, net.agree(resolved).map_err(agreed))?;
        let t_prep = Instant::now();
        let may_pull = a.policy.policy != PolicyName::Push;
        let before = net.sent();
        let local = LocalGraph::from_rows(
            net,
            read.part,
            h.directed,
            a.input.undirected,
            may_pull,
            read.rows.offsets,
            read.rows.indices,
        );
        let scatter = net.sent() - before;
        let scatter = net.allreduce_sum(&[scatter.bytes, scatter.messages]);
        let mut words = Vec::new();
        if let Some((sources, target)) = &resolved {
            words.push(target.map_or(0, |t| t as u64 + 1));
            words.extend(sources.iter().map(|&s| s as u64));
        }
        let words = net.broadcast_u64s(&words);
        let target = (words[0] > 0).then(|| (words[0] - 1) as u32);
        let sources: Vec<u32> = words[1..].iter().map(|&s| s as u32).collect();
        let opts = BfsOptions {
            trace: true,
            max_depth: a.max_depth,
            target,
        };
        let (arcs, symmetric) = (local.arcs(), local.is_symmetric());
        let laid = together(net, lay_out(a, net, local))?;
        net.barrier();
        let prep_s = t_prep.elapsed().as_secs_f64();
        let t0 = Instant::now();
        let r = together(net, search(net, &laid, &sources, policy, &opts))?;
        let secs = t0.elapsed().as_secs_f64();
        let (Some(ids), Some(res)) = (&read.ids, &r.result) else {
            return Ok(());
        };
        let directed = h.directed && !a.input.undirected;
        let meta = Meta {
            ids,
            vertices: h.vertices,
            arcs,
            directed,
            sources: &sources,
            load_s,
            edges: if directed && !symmetric {
                r.reached_arcs
            } else {
                r.reached_arcs / 2
            },
            valid: None,
        };
        finish_bfs(
            a,
            net,
            &meta,
            res,
            &r.level_traffic,
            r.traffic,
            scatter,
            secs,
            prep_s,
            threads,
            policy.name(),
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn finish_bfs(
        a: &BfsArgs,
        net: &Net,
        g: &Meta<'_>,
        r: &BfsResult,
        level_traffic: &[Traffic],
        traffic: Traffic,
        scatter: Vec<u64>,
        secs: f64,
        prep_s: f64,
        threads: usize,
        policy: String,
    ) -> Result<()> {
        let valid = g.valid;
        if let Some(p) = &a.levels {
            write_levels_ids(p, g.ids, g.vertices, r)?;
        }
        if let Some(p) = &a.parents {
            write_parents_ids(p, g.ids, g.vertices, r)?;
        }
        let edges = g.edges;
        if a.json {
            // Checked before the search (the same flags), so known to be valid here.
            let grid = layout_grid(a, net.size()).ok().flatten();
            let trace: Vec<_> = r
                .trace
                .iter()
                .zip(level_traffic)
                .map(|(t, c)| {
                    let mut level = crate::traverse::level_json(t);
                    level["bytes_sent"] = json!(c.bytes);
                    level["messages"] = json!(c.messages);
                    level
                })
                .collect();
            let out = json!({
                "file": a.input.file.display().to_string(),
                "vertices": g.vertices,
                "arcs": g.arcs,
                "directed": g.directed,
                "sources": g.sources.iter().map(|&s| g.ids.external(s as usize)).collect::<Vec<_>>(),
                "policy": policy,
                "backend": "mpi",
                "device": null,
                "ranks": net.size(),
                "layout": if grid.is_some() { "2d" } else { "1d" },
                "grid": grid.map(|g| g.to_string()),
                "threads": threads,
                "reached": r.reached,
                "max_depth": r.max_depth,
                "depth_sum": r.depth_sum(),
                "complete": r.complete,
                "seconds": secs,
                "load_seconds": g.load_s,
                "prepare_seconds": prep_s,
                "traversed_edges": edges,
                "gteps": edges as f64 / secs / 1e9,
                "bytes_sent": traffic.bytes,
                "messages": traffic.messages,
                "distribute": traffic_json(Traffic { bytes: scatter[0], messages: scatter[1] }),
                "valid": valid,
                "trace": trace,
            });
            println!("{out}");
        } else {
            println!(
                "reached {} vertices, max depth {}, depth sum {}, {:.6} s ({:.3} GTEPS), policy {}, {} ranks, {} bytes in {} messages",
                r.reached,
                r.max_depth,
                r.depth_sum(),
                secs,
                edges as f64 / secs / 1e9,
                policy,
                net.size(),
                traffic.bytes,
                traffic.messages
            );
            if a.trace {
                println!("level direction frontier  frontier_edges  examined  seconds  bytes_sent");
                for (t, c) in r.trace.iter().zip(level_traffic) {
                    println!(
                        "{:>5} {:<9} {:>9} {:>15} {:>9} {:.6} {:>11}",
                        t.level,
                        t.direction.name(),
                        t.frontier_vertices,
                        t.frontier_edges,
                        t.edges_examined,
                        t.seconds,
                        c.bytes
                    );
                }
            }
            if valid.is_some() {
                println!("validation passed");
            }
        }
        Ok(())
    }

    /// `mpirun -np P edgeblas sssp FILE.ebg --source ID --backend mpi`: every rank reads
    /// its rows and builds its rows of `A'` with their weights; Bellman-Ford's rounds by
    /// the distributed `mxv`, and the predecessors (the CPU's rule) by one more.
    pub fn sssp(a: &SsspArgs) -> Result<()> {
        let (_universe, net) = start()?;
        let threads = together(&net, threads(a.threads))?;
        let file = a.input.file.display();
        let checked = if a.input.undirected {
            Err(Error::InvalidArgument(format!(
                "--undirected: sssp --backend mpi reads the arcs as the file has them; write the undirected graph first (edgeblas convert {file} OUT.ebg --undirected)"
            )))
        } else {
            Ok(())
        };
        together(&net, net.agree(checked).map_err(agreed))?;
        let how = agree_reading(&net, &a.input, Some("sssp"))?;
        let t_load = Instant::now();
        let mut read = read_rows(&net, &a.input, how)?;
        let h = read.header;
        let source = match &read.ids {
            Some(ids) => index_of(ids, h.vertices, a.source, "--source").map(|s| vec![s as u64]),
            None => Ok(Vec::new()),
        };
        let source = together(&net, net.agree(source).map_err(agreed))?;
        let source = net.broadcast_u64s(&source)[0] as u32;
        let weights = read.rows.weights.as_deref();
        let nan = match weights.and_then(|w| w.iter().find(|x| x.is_nan())) {
            Some(bad) => Err(Error::InvalidArgument(format!(
                "{file}: weight {bad} is not a number"
            ))),
            None => Ok(()),
        };
        together(&net, net.agree(nan).map_err(agreed))?;
        if let Some(d) = a.delta
            && !(d > 0.0 && d.is_finite())
        {
            return together(
                &net,
                Err(Error::InvalidArgument(format!(
                    "--delta: {d} is not a positive number"
                ))),
            );
        }
        // The CPU's choice of method, on every rank's weights.
        let negative = weights.is_some_and(|w| w.iter().any(|&x| x < 0.0));
        let negative = net.allreduce_max(negative as u64) == 1;
        let method = match a.method {
            SsspMethod::Auto if negative => SsspMethod::BellmanFord,
            SsspMethod::Auto => SsspMethod::DeltaStepping,
            SsspMethod::DeltaStepping if negative => {
                return together(
                    &net,
                    Err(Error::InvalidArgument(format!(
                        "--method delta-stepping: {file} has a negative weight (use --method bellman-ford)"
                    ))),
                );
            }
            m => m,
        };
        let delta_stepping = method == SsspMethod::DeltaStepping;
        // A' (in-arcs with weights) for the predecessors; A's own rows for the rounds
        // (both methods push).
        let at = a.predecessors.is_some().then(|| {
            dist::sssp::in_rows_weighted(
                &net,
                &read.part,
                &read.rows.offsets,
                &read.rows.indices,
                weights,
            )
        });
        let arcs = h.arcs;
        let out_rows = {
            let rows = read.rows.offsets.len() - 1;
            let w = match read.rows.weights.take() {
                Some(w) => w,
                None => vec![1.0; read.rows.indices.len()],
            };
            let (o, i) = (
                std::mem::take(&mut read.rows.offsets),
                std::mem::take(&mut read.rows.indices),
            );
            // SAFETY: the rows were read and checked (sorted, unrepeated, below n), with
            // `rows + 1` offsets rising to their count, and one weight per arc.
            unsafe { edgeblas::matrix::Csr::new_unchecked(rows, h.vertices, o, i, w) }
        };
        drop(read.rows);
        let delta = delta_stepping.then(|| match a.delta {
            Some(d) => d,
            None => dist::sssp::default_delta(&net, &read.part, &out_rows),
        });
        let load_s = t_load.elapsed().as_secs_f64();
        net.barrier();
        let before = net.sent();
        let t0 = Instant::now();
        let found = match delta {
            Some(d) => {
                let p = dist::sssp::delta_stepping(&net, &read.part, &out_rows, source, d);
                Ok(together(&net, p)?)
            }
            None => dist::sssp::bellman_ford(&net, &read.part, &out_rows, source),
        };
        let seconds = t0.elapsed().as_secs_f64();
        let mut paths = match found {
            Ok(p) => p,
            Err(c) => {
                let e = match (&c.cycle, &read.ids) {
                    (Some(c), Some(ids)) => format!(
                        "negative cycle reachable from source {} through vertex {}",
                        a.source,
                        ids.external(c.vertex as usize)
                    ),
                    _ => "a negative cycle (rank 0 names it)".into(),
                };
                return together(&net, Err(Error::InvalidArgument(e)));
            }
        };
        if let Some(at) = at.as_ref().filter(|_| a.predecessors.is_some()) {
            // One rule for every method and backend (the CLI's): from the distances.
            paths.predecessors =
                dist::sssp::predecessors(&net, &read.part, at, &paths.distances, source);
        }
        let sent = net.sent() - before;
        let traffic = net.allreduce_sum(&[sent.bytes, sent.messages]);
        let sp = paths.gather(&net);
        let (Some(sp), Some(ids)) = (sp, &read.ids) else {
            return Ok(());
        };
        if let Some(p) = &a.distances {
            write_distances(p, ids, &sp)?;
        }
        if let Some(p) = &a.predecessors {
            write_predecessors(p, ids, &sp)?;
        }
        let finite = sp.distances.iter().filter(|d| d.is_finite());
        let max = finite.clone().fold(f64::NEG_INFINITY, |m, &d| m.max(d));
        let sum: f64 = finite.sum();
        if a.json {
            let out = json!({
                "file": a.input.file.display().to_string(),
                "vertices": h.vertices,
                "arcs": arcs,
                "weighted": h.weighted,
                "source": a.source,
                "backend": "mpi",
                "threads": threads,
                "reached": sp.reached(),
                "max_distance": max,
                "distance_sum": sum,
                "rounds": sp.rounds,
                "method": if delta_stepping { "delta-stepping" } else { "bellman-ford" },
                "delta": delta,
                "seconds": seconds,
                "load_seconds": load_s,
                "ranks": net.size(),
                "bytes_sent": traffic[0],
                "messages": traffic[1],
            });
            println!("{out}");
        } else {
            println!(
                "{}: reached {} vertices, largest distance {}, sum of distances {}, {} rounds, {seconds:.6} s, {} ranks, {} bytes in {} messages",
                if delta_stepping {
                    "delta-stepping"
                } else {
                    "bellman-ford"
                },
                sp.reached(),
                distance_text(max),
                distance_text(sum),
                sp.rounds,
                net.size(),
                traffic[0],
                traffic[1]
            );
        }
        Ok(())
    }

    /// `mpirun -np P edgeblas wcc FILE.ebg --backend mpi`: every rank reads its rows and
    /// builds its rows of `A ∪ A'`; Afforest (or FastSV) over the row blocks.
    pub fn wcc(a: &WccArgs) -> Result<()> {
        let (_universe, net) = start()?;
        let threads = together(&net, threads(a.common.threads))?;
        let method = crate::analytics::wcc_method(a);
        let method = together(&net, net.agree(method).map_err(agreed))?;
        let how = agree_reading(&net, &a.common.input, Some("wcc"))?;
        let t_load = Instant::now();
        let read = read_rows(&net, &a.common.input, how)?;
        let h = read.header;
        let local = LocalGraph::from_rows(
            &net,
            read.part,
            h.directed,
            true,
            false,
            read.rows.offsets,
            read.rows.indices,
        );
        let load_s = t_load.elapsed().as_secs_f64();
        let s = local.out_rows();
        net.barrier();
        let before = net.sent();
        let t0 = Instant::now();
        let c = match method {
            WccMethod::Afforest => dist::components::wcc_afforest(&net, local.partition(), &s),
            WccMethod::FastSv => dist::components::wcc(&net, local.partition(), &s),
        };
        let seconds = t0.elapsed().as_secs_f64();
        let sent = net.sent() - before;
        let traffic = net.allreduce_sum(&[sent.bytes, sent.messages]);
        let (Some(c), Some(ids)) = (c, &read.ids) else {
            return Ok(());
        };
        if let Some(p) = &a.labels {
            edgeblas::io::write_atomically(p, |w| {
                for (v, &x) in c.labels.iter().enumerate() {
                    writeln!(w, "{} {}", ids.external(v), ids.external(x as usize))?;
                }
                Ok(())
            })?;
        }
        let (components, largest) = (c.count(), c.largest());
        if a.common.json {
            // The file's arcs (A ∪ A' under --undirected); A' = A exactly when the union
            // adds none.
            let undirected = a.common.input.undirected;
            let out = json!({
                "file": a.common.input.file.display().to_string(),
                "vertices": h.vertices,
                "arcs": if undirected { local.arcs() } else { h.arcs },
                "directed": h.directed && !undirected,
                "symmetric": undirected || !h.directed || local.arcs() == h.arcs,
                "threads": threads,
                "load_seconds": load_s,
                "components": components,
                "largest": largest,
                "rounds": c.rounds,
                "method": method.name(),
                "seconds": seconds,
                "backend": "mpi",
                "ranks": net.size(),
                "bytes_sent": traffic[0],
                "messages": traffic[1],
            });
            println!("{out}");
        } else {
            println!(
                "wcc: {components} components, the largest of {largest} vertices, {} rounds, {seconds:.6} s, {} ranks, {} bytes in {} messages",
                c.rounds,
                net.size(),
                traffic[0],
                traffic[1]
            );
        }
        Ok(())
    }

    /// Rank 0 reads the degrees, every rank gets them and makes the same plan.
    fn plan(net: &Net, m: &ChungLuModel) -> Result<Plan> {
        if m.schedule.is_some() {
            return Err(Error::InvalidArgument(
                "--schedule applies to --backend cuda (the ranks split the chunks by cost)".into(),
            ));
        }
        let d = if net.is_root() {
            m.degrees().map(Some)
        } else {
            Ok(None)
        };
        let d = net.agree(d).map_err(agreed)?;
        let bytes = net.broadcast_bytes(
            d.as_ref()
                .map(dist::chung_lu::encode_degrees)
                .unwrap_or_default(),
        );
        let degrees = dist::chung_lu::decode_degrees(&bytes)?;
        // The same degrees and flags on every rank: the same plan, or the same error.
        let plan = m.plan_from(&degrees)?;
        if plan.n < net.size() {
            return Err(Error::InvalidArgument(format!(
                "{} ranks for {} vertices: run at most {} ranks (mpirun -np)",
                net.size(),
                plan.n,
                plan.n
            )));
        }
        Ok(plan)
    }

    /// One distributed generation, timed from a barrier to a barrier.
    fn generate(
        net: &Net,
        plan: &Plan,
        seed: u64,
        threads: usize,
    ) -> (dist::chung_lu::CsrBlock, f64) {
        net.barrier();
        let t0 = Instant::now();
        let b = dist::chung_lu::generate(net, plan, seed, threads);
        net.barrier();
        (b, t0.elapsed().as_secs_f64())
    }

    /// `mpirun -np P edgeblas generate chung-lu ... --backend mpi -o OUT`.
    pub fn generate_chung_lu(a: &ChungLuArgs) -> Result<()> {
        let (_universe, net) = start()?;
        let threads = together(&net, threads(a.model.threads))?;
        // `-o DIR` (an existing directory, or a name ending in `/`): one part per rank,
        // written by that rank; nothing gathered.
        let to_parts = a.output.is_dir() || a.output.as_os_str().to_string_lossy().ends_with('/');
        if to_parts {
            let checked = if a.report.is_some() || a.plot.is_some() {
                Err(Error::InvalidArgument(format!(
                    "--report and --plot need the whole graph on one rank; -o {} writes one part per rank without gathering (give -o FILE to gather)",
                    a.output.display()
                )))
            } else if net.is_root() {
                std::fs::create_dir_all(&a.output).map_err(|e| Error::io(&a.output, e))
            } else {
                Ok(())
            };
            together(&net, net.agree(checked).map_err(agreed))?;
        }
        let plan = together(&net, plan(&net, &a.model))?;
        let (block, secs) = generate(&net, &plan, a.model.seed, threads);
        if to_parts {
            return write_parts(a, &net, &plan, block, secs, threads);
        }
        let g = dist::chung_lu::gather(&net, &block)?;
        let Some(g) = g else { return Ok(()) };
        let report = Report::new(&plan, &g);
        let kind = if plan.directed { "arcs" } else { "edges" };
        eprintln!(
            "generated {} vertices, {} {kind} (expected {:.0}, z {:+.2}) in {:.3} s on {} ranks of {} threads, {} bytes exchanged in {} messages",
            plan.n,
            report.edges,
            report.expected_edges,
            report.edges_z,
            secs,
            net.size(),
            threads,
            block.traffic.bytes,
            block.traffic.messages
        );
        write_outputs(a, &report, g, plan.directed)
    }

    /// Every rank writes its block of a generated graph as its part of the directory
    /// `a.output` ([`edgeblas::io::parts`]), as one process would write the graph (the
    /// same header); rank 0 then removes parts of an earlier, larger run.
    fn write_parts(
        a: &ChungLuArgs,
        net: &Net,
        plan: &Plan,
        block: dist::chung_lu::CsrBlock,
        secs: f64,
        threads: usize,
    ) -> Result<()> {
        let header = BinaryHeader::new(
            plan.n,
            block.arcs,
            plan.directed,
            false,
            ValueType::Pattern,
            false,
            block.arcs,
            0,
            0,
        );
        let rows = RowBlock {
            rows: block.part.range(net.rank()),
            first_arc: 0,
            offsets: block.offsets,
            indices: block.indices,
            weights: None,
        };
        let wrote = parts::write_part(&a.output, &header, net.rank(), net.size(), &rows, None);
        together(net, net.agree(wrote).map_err(agreed))?;
        if !net.is_root() {
            return Ok(());
        }
        parts::remove_stale(&a.output, net.size())?;
        let kind = if plan.directed { "arcs" } else { "stored arcs" };
        eprintln!(
            "generated {} vertices, {} {kind} in {secs:.3} s on {} ranks of {threads} threads, {} bytes exchanged in {} messages",
            plan.n,
            block.arcs,
            net.size(),
            block.traffic.bytes,
            block.traffic.messages
        );
        eprintln!(
            "wrote {} ({} parts, one per rank)",
            a.output.display(),
            net.size()
        );
        Ok(())
    }

    /// `mpirun -np P edgeblas bench chung-lu ... --backend mpi`: median seconds of the
    /// distributed generation into per-rank CSR blocks (nothing gathered or written),
    /// the edge rate and the bytes exchanged.
    pub fn bench_chung_lu(a: &BenchChungLuArgs) -> Result<()> {
        if a.reps == 0 {
            return Err(Error::InvalidArgument("--reps: must be at least 1".into()));
        }
        let (_universe, net) = start()?;
        let threads = together(&net, threads(a.model.threads))?;
        let (plan, plan_secs) = timed(|| plan(&net, &a.model));
        let plan = together(&net, plan)?;
        // Warm-up, untimed.
        let (first, _) = generate(&net, &plan, a.model.seed, threads);
        let mut samples = Vec::with_capacity(a.reps);
        let mut edges = Vec::with_capacity(a.reps);
        let mut traffic = first.traffic;
        drop(first);
        for rep in 0..a.reps {
            let seed = a.model.seed.wrapping_add(rep as u64 + 1);
            let (b, s) = generate(&net, &plan, seed, threads);
            samples.push(s);
            edges.push(if plan.directed { b.arcs } else { b.arcs / 2 });
            traffic = b.traffic;
        }
        let med = median(&mut samples.clone());
        let med_edges = median(&mut edges.iter().map(|&e| e as f64).collect::<Vec<_>>());
        if !net.is_root() {
            return Ok(());
        }
        let out = json!({
            "vertices": plan.n,
            "directed": plan.directed,
            "edges": med_edges,
            "tasks": plan.tasks.len(),
            "chunks": plan.chunks,
            "backend": "mpi",
            "ranks": net.size(),
            "threads": threads,
            "reps": a.reps,
            "seed": a.model.seed,
            "plan_seconds": plan_secs,
            "seconds_median": med,
            "medges_per_s": med_edges / med / 1e6,
            "seconds": samples,
            "bytes_sent": traffic.bytes,
            "messages": traffic.messages,
            "bytes_per_edge": traffic.bytes as f64 / med_edges.max(1.0),
        });
        if a.json {
            println!("{out}");
        } else {
            println!(
                "{} vertices, {} edges: median {:.4} s over {} runs, {:.1} M edges/s, {} ranks of {} threads, {} bytes exchanged in {} messages",
                plan.n,
                med_edges,
                med,
                a.reps,
                med_edges / med / 1e6,
                net.size(),
                threads,
                traffic.bytes,
                traffic.messages
            );
        }
        Ok(())
    }
}

pub use imp::{bench_chung_lu, bfs, generate_chung_lu, pagerank, sssp, wcc};
