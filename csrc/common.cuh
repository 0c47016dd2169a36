/* What every kernel header shares: the host/device qualifiers and the atomic operations,
 * which are real atomics on the device and plain reads and writes in the sequential host
 * build that the tests drive (csrc/host/host_kernels.cu). */
#ifndef EDGEBLAS_COMMON_CUH
#define EDGEBLAS_COMMON_CUH

#include "abi.h"

#ifdef __CUDACC__
#define EB_HD __host__ __device__ __forceinline__
#else
#define EB_HD static inline
#endif

/* EB_DEVICE: compiling device code for a kernel. The host build (EB_HOST_ONLY) takes the
 * sequential branch in both of nvcc's passes, so it needs no CUDA runtime. */
#if defined(__CUDA_ARCH__) && !defined(EB_HOST_ONLY)
#define EB_DEVICE 1
#endif

#if defined(__CUDACC__) && !defined(EB_HOST_ONLY)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#endif

/* *p = min(*p, v); returns the old value. */
EB_HD uint32_t eb_atomic_min_u32(uint32_t *p, uint32_t v) {
#ifdef EB_DEVICE
    return atomicMin(p, v);
#else
    uint32_t old = *p;
    if (v < old) *p = v;
    return old;
#endif
}

EB_HD uint64_t eb_atomic_min_u64(uint64_t *p, uint64_t v) {
#ifdef EB_DEVICE
    return (uint64_t)atomicMin((unsigned long long *)p, (unsigned long long)v);
#else
    uint64_t old = *p;
    if (v < old) *p = v;
    return old;
#endif
}

EB_HD uint64_t eb_atomic_add_u64(uint64_t *p, uint64_t v) {
#ifdef EB_DEVICE
    return (uint64_t)atomicAdd((unsigned long long *)p, (unsigned long long)v);
#else
    uint64_t old = *p;
    *p = old + v;
    return old;
#endif
}

EB_HD void eb_atomic_or_u32(uint32_t *p, uint32_t v) {
#ifdef EB_DEVICE
    atomicOr(p, v);
#else
    *p |= v;
#endif
}

/* Reserve one slot of a list whose length is `*count`, and add `weight` to `*sum`
 * (when `sum` is not null). On the device the threads that call it together are
 * combined into one atomic per counter (warp-aggregated). Returns the slot. */
EB_HD uint64_t eb_emit(uint64_t *count, uint64_t *sum, uint64_t weight) {
#ifdef EB_DEVICE
    namespace cg = cooperative_groups;
    cg::coalesced_group g = cg::coalesced_threads();
    unsigned long long base = 0;
    unsigned long long total = sum ? cg::reduce(g, (unsigned long long)weight, cg::plus<unsigned long long>()) : 0;
    if (g.thread_rank() == 0) {
        base = atomicAdd((unsigned long long *)count, (unsigned long long)g.size());
        if (sum) atomicAdd((unsigned long long *)sum, total);
    }
    base = g.shfl(base, 0);
    return (uint64_t)base + g.thread_rank();
#else
    uint64_t slot = *count;
    *count = slot + 1;
    if (sum) *sum += weight;
    return slot;
#endif
}

EB_HD uint64_t eb_degree(const EbCsr *a, uint32_t v) {
    return a->offsets[v + 1] - a->offsets[v];
}

#endif
