/* Frontier conversions between the sparse queue (push) and the bitmap (pull), and the
 * fills that reset the search state. */
#include "bfs.cuh"

extern "C" __global__ void eb_queue_to_bits(EbConvertParams p) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < p.queue_len;
         i += (uint64_t)gridDim.x * blockDim.x)
        eb_queue_entry_to_bits(&p, (uint32_t)i);
}

extern "C" __global__ void eb_bits_to_queue(EbConvertParams p) {
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; w < p.nwords;
         w += (uint64_t)gridDim.x * blockDim.x)
        eb_bits_word_to_queue(&p, (uint32_t)w);
}

extern "C" __global__ void eb_init_sources(EbInitParams p) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < p.sources_len;
         i += (uint64_t)gridDim.x * blockDim.x)
        eb_init_source(&p, (uint32_t)i);
}

extern "C" __global__ void eb_fill_u32(EbFillParams p) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < p.n;
         i += (uint64_t)gridDim.x * blockDim.x)
        p.dst[i] = p.value;
}
