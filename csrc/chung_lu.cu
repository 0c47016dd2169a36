/* Chung-Lu generation on the device (after Alam and Perumalla): the counting and
 * filling passes over the chunks under the uniform or load-balanced static schedule
 * (the dynamic one is the host launching chunk ranges task batch by task batch on
 * several streams), the prefix sum of the row counts, and the row sort. The per-chunk
 * work is chung_lu.cuh's, identical to the CPU generator's. */
#include "chung_lu.cuh"

extern "C" __global__ void eb_cl_pass(EbClParams p) {
    const uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint64_t threads = (uint64_t)gridDim.x * blockDim.x;
    if (p.lane_bounds) {
        for (uint64_t t = tid; t < p.lanes; t += threads)
            for (uint64_t c = p.lane_bounds[t]; c < p.lane_bounds[t + 1]; c++)
                eb_cl_global_chunk(&p, c);
    } else {
        for (uint64_t c = p.chunk_begin + tid; c < p.chunk_end; c += threads)
            eb_cl_global_chunk(&p, c);
    }
}

/* Block-wise inclusive scan: 256 threads, 8 consecutive values each. */
extern "C" __global__ void eb_scan_blocks(EbScanParams p) {
    __shared__ uint64_t part[EB_BLOCK];
    const uint64_t nblocks = (p.len + EB_SCAN_BLOCK - 1) / EB_SCAN_BLOCK;
    for (uint64_t b = blockIdx.x; b < nblocks; b += gridDim.x) {
        const uint64_t lo = b * EB_SCAN_BLOCK + (uint64_t)threadIdx.x * 8;
        uint64_t v[8];
        uint64_t acc = 0;
        for (int k = 0; k < 8; k++) {
            uint64_t i = lo + k;
            acc += i < p.len ? p.in[i] : 0;
            v[k] = acc;
        }
        part[threadIdx.x] = acc;
        __syncthreads();
        for (unsigned o = 1; o < EB_BLOCK; o <<= 1) {
            uint64_t add = threadIdx.x >= o ? part[threadIdx.x - o] : 0;
            __syncthreads();
            part[threadIdx.x] += add;
            __syncthreads();
        }
        const uint64_t before = threadIdx.x ? part[threadIdx.x - 1] : 0;
        for (int k = 0; k < 8; k++) {
            uint64_t i = lo + k;
            if (i < p.len) p.out[i + 1] = before + v[k];
        }
        if (threadIdx.x == EB_BLOCK - 1) p.sums[b] = part[EB_BLOCK - 1];
        __syncthreads();
    }
}

extern "C" __global__ void eb_scan_add(EbScanParams p) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < p.len;
         i += (uint64_t)gridDim.x * blockDim.x)
        eb_scan_add(&p, i);
}

extern "C" __global__ void eb_copy_u64(EbScanParams p) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < p.len;
         i += (uint64_t)gridDim.x * blockDim.x)
        p.out[i] = p.in[i];
}

extern "C" __global__ void eb_sort_classify(EbSortParams p) {
    for (uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; r < p.nrows;
         r += (uint64_t)gridDim.x * blockDim.x)
        eb_sort_classify(&p, (uint32_t)r);
}

/* One merge pass over the listed rows, a block per row. */
extern "C" __global__ void eb_sort_merge(EbSortParams p) {
    for (uint64_t k = blockIdx.x; k < p.counters[0]; k += gridDim.x) {
        uint32_t r = p.rows[k];
        uint64_t lo = p.offsets[r], len = p.offsets[r + 1] - lo;
        for (uint64_t i = threadIdx.x; i < len; i += blockDim.x) {
            if (len <= p.width) p.dst[lo + i] = p.src[lo + i];
            else eb_sort_merge_entry(&p, lo, len, i);
        }
    }
}

/* The listed rows from `src` back into `dst` (after an odd number of passes). */
extern "C" __global__ void eb_sort_copy(EbSortParams p) {
    for (uint64_t k = blockIdx.x; k < p.counters[0]; k += gridDim.x) {
        uint32_t r = p.rows[k];
        uint64_t lo = p.offsets[r], len = p.offsets[r + 1] - lo;
        for (uint64_t i = threadIdx.x; i < len; i += blockDim.x) p.dst[lo + i] = p.src[lo + i];
    }
}
