//! The CUDA kernels' per-element code (csrc/*.cuh), built for the host by nvcc and run
//! sequentially through the same search loops as the GPU, against the CPU backend:
//! BFS parents, levels and traces under every policy, Bellman-Ford distances,
//! predecessors and negative cycles, and the frontier conversions. Runs on any machine
//! with the `cuda` feature; no GPU needed.

#![cfg(feature = "cuda")]

#[path = "common/cuda_cases.rs"]
mod cuda_cases;
#[path = "common/oracle.rs"]
mod oracle;
#[path = "common/random.rs"]
mod random;

use edgeblas::algebra::Index;
use edgeblas::cuda::host;

#[test]
fn bfs_through_the_host_kernels_equals_the_cpu() {
    cuda_cases::bfs_cases(&|g, s, p, o| host::bfs(g, s, p, o));
}

#[test]
fn bad_sources_are_errors() {
    cuda_cases::bfs_errors(&|g, s, p, o| host::bfs(g, s, p, o));
}

#[test]
fn bellman_ford_through_the_host_kernels_equals_the_cpu() {
    cuda_cases::bellman_ford_cases(&host::bellman_ford);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
fn real_graphs_through_the_host_kernels() {
    cuda_cases::real_graph_cases(&|g, s, p, o| host::bfs(g, s, p, o), &host::bellman_ford);
}

#[test]
fn frontier_conversions_round_trip() {
    for (len, idx) in [
        (1usize, vec![0 as Index]),
        (31, vec![30, 0, 5]),
        (32, vec![31]),
        (33, vec![32, 0, 31]),
        (100, (0..100).rev().collect()),
        (1000, vec![999, 3, 64, 65, 500]),
        (5, vec![]),
    ] {
        let (words, back) = host::convert(len, &idx).unwrap();
        assert_eq!(words.len(), len.div_ceil(32));
        for v in 0..len {
            let set = words[v / 32] >> (v % 32) & 1 == 1;
            assert_eq!(set, idx.contains(&(v as Index)), "bit {v} of {len}");
        }
        let mut want = idx.clone();
        want.sort_unstable();
        assert_eq!(back, want, "bits to queue lists the set bits in order");
    }
}

#[path = "common/chung_lu_cases.rs"]
mod chung_lu_cases;

#[test]
fn chung_lu_through_the_host_kernels_equals_the_cpu_byte_for_byte() {
    chung_lu_cases::same_graphs(1, &host::chung_lu);
}

/// The device generator's random stream is rand_pcg's Pcg64 under the same seeding, draw
/// for draw: first draws, long runs, and keys at the ends of their ranges (the carries of
/// the 128-bit arithmetic in 64-bit halves).
#[test]
fn chung_lu_stream_is_rand_pcgs_bit_for_bit() {
    use edgeblas::generate::chung_lu::rng::Stream;
    let keys = [
        (0u64, 0u64, 0u64, 10usize),
        (1, 2, 3, 10_000),
        (u64::MAX, 1 << 40, 77, 1000),
        (5, 123_456_789, u64::MAX, 1000),
        (42, (1 << 63) - 1, 9, 1000),
        (7, (1 << 63) - 2, u64::MAX - 1, 1000),
    ];
    for (seed, task, chunk, len) in keys {
        let got = host::chung_lu_stream(seed, task, chunk, len);
        let mut s = Stream::new(seed, task, chunk);
        let want: Vec<u64> = (0..len).map(|_| s.next_u64()).collect();
        assert_eq!(got, want, "stream ({seed}, {task}, {chunk})");
    }
}
