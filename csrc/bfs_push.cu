/* Push (top-down) BFS level: SpMSpV of the sparse frontier over the out-arcs, masked by
 * the complement of the visited set, MIN.SECONDI (the smallest parent, by atomicMin).
 *
 * Load balance for skewed degrees: within a warp, each lane takes one frontier vertex;
 * vertices of at least 32 arcs are expanded by the whole warp, one after another, the
 * rest by their own lane; vertices above EB_BIG_DEGREE arcs are skipped here and
 * expanded by a whole block each in eb_push_big, from the big-vertex list that the
 * previous level wrote. */
#include "bfs.cuh"

extern "C" __global__ void eb_push_small(EbPushParams p) {
    const uint32_t lane = threadIdx.x & 31u;
    const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const uint64_t nwarps = ((uint64_t)gridDim.x * blockDim.x) >> 5;
    for (uint64_t base = warp * 32; base < p.frontier_len; base += nwarps * 32) {
        uint64_t i = base + lane;
        uint32_t u = 0;
        uint64_t lo = 0, hi = 0;
        if (i < p.frontier_len) {
            u = p.frontier[i];
            lo = p.s.a.offsets[u];
            hi = p.s.a.offsets[u + 1];
            if (hi - lo > EB_BIG_DEGREE) hi = lo;
        }
        uint32_t wide = __ballot_sync(0xFFFFFFFFu, hi - lo >= 32);
        while (wide) {
            int leader = __ffs(wide) - 1;
            wide &= wide - 1;
            uint32_t wu = __shfl_sync(0xFFFFFFFFu, u, leader);
            uint64_t wlo = __shfl_sync(0xFFFFFFFFu, lo, leader);
            uint64_t whi = __shfl_sync(0xFFFFFFFFu, hi, leader);
            eb_push_range(&p, wu, wlo + lane, whi, 32);
        }
        if (hi - lo < 32) eb_push_range(&p, u, lo, hi, 1);
    }
}

extern "C" __global__ void eb_push_big(EbPushParams p) {
    for (uint64_t b = blockIdx.x; b < p.big_len; b += gridDim.x) {
        uint32_t u = p.big[b];
        eb_push_range(&p, u, p.s.a.offsets[u] + threadIdx.x, p.s.a.offsets[u + 1], blockDim.x);
    }
}
