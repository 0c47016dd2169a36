/* Bellman-Ford over MIN.PLUS: the three passes of one round (relax.cuh). Frontier
 * vertices are expanded one warp each, lanes striding over the arcs. */
#include "relax.cuh"

#define EB_FOR_FRONTIER_ARCS(body)                                                        \
    const uint32_t lane = threadIdx.x & 31u;                                              \
    const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;         \
    const uint64_t nwarps = ((uint64_t)gridDim.x * blockDim.x) >> 5;                      \
    for (uint64_t i = warp; i < p.frontier_len; i += nwarps) {                            \
        uint32_t u = p.frontier[i];                                                       \
        for (uint64_t e = p.a.offsets[u] + lane; e < p.a.offsets[u + 1]; e += 32) body;  \
    }

extern "C" __global__ void eb_relax_min(EbRelaxParams p) {
    EB_FOR_FRONTIER_ARCS(eb_relax_min_arc(&p, u, e))
}

extern "C" __global__ void eb_relax_arg(EbRelaxParams p) {
    EB_FOR_FRONTIER_ARCS(eb_relax_arg_arc(&p, u, e))
}

extern "C" __global__ void eb_relax_tight(EbRelaxParams p) {
    EB_FOR_FRONTIER_ARCS(eb_relax_tight_arc(&p, u, e))
}

extern "C" __global__ void eb_relax_commit(EbRelaxParams p) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < p.touched_len;
         i += (uint64_t)gridDim.x * blockDim.x)
        eb_relax_commit(&p, (uint32_t)i);
}

extern "C" __global__ void eb_fill_u64(uint64_t *dst, uint64_t n, uint64_t value) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        dst[i] = value;
}
