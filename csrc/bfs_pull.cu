/* Pull (bottom-up) BFS level: masked SpMV over the in-arcs, each unvisited vertex
 * stopping at its first in-neighbour in the bitmap frontier (the terminal of MIN.SECONDI
 * over a sorted row). One thread per vertex: the early exit keeps most rows short. */
#include "bfs.cuh"

extern "C" __global__ void eb_pull(EbPullParams p) {
    const uint64_t n = p.s.a.nrows;
    uint64_t examined = 0;
    for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n;
         v += (uint64_t)gridDim.x * blockDim.x) {
        examined += eb_pull_vertex(&p, (uint32_t)v);
    }
    if (p.s.count_examined) {
        for (int o = 16; o > 0; o >>= 1) examined += __shfl_down_sync(0xFFFFFFFFu, examined, o);
        if ((threadIdx.x & 31u) == 0 && examined)
            atomicAdd((unsigned long long *)&p.counters->examined, (unsigned long long)examined);
    }
}
