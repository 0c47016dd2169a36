/* The per-chunk work of Chung-Lu generation, bit for bit the CPU's
 * (src/generate/chung_lu/{rng,cpu,plan}.rs): the PCG stream of a chunk (rand_pcg's
 * Pcg64 in two 64-bit halves), the
 * fdlibm logarithm built from basic IEEE operations only (compiled with -fmad=false so no
 * multiply-add is fused), edge skipping, exact pair decoding, and the placement of each
 * edge in its rows; then the prefix sum and row sorting steps. Shared by the kernels of
 * chung_lu.cu and the host build the tests compare with the CPU generator. */
#ifndef EDGEBLAS_CHUNG_LU_CUH
#define EDGEBLAS_CHUNG_LU_CUH

#include <math.h>

#include "common.cuh"

#define EB_GOLDEN 0x9E3779B97F4A7C15ull
#define EB_M1 0xBF58476D1CE4E5B9ull
#define EB_M2 0x94D049BB133111EBull
#define EB_K0 0x243F6A8885A308D3ull
#define EB_K1 0x13198A2E03707344ull

EB_HD uint64_t eb_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * EB_M1;
    z = (z ^ (z >> 27)) * EB_M2;
    return z ^ (z >> 31);
}

EB_HD uint64_t eb_stream_key(uint64_t seed, uint64_t task, uint64_t chunk) {
    return eb_mix(eb_mix(eb_mix(seed ^ EB_K0) ^ task) ^ chunk ^ EB_K1);
}

/* PCG XSL RR 128/64 (rand_pcg's Pcg64, O'Neill 2014) with the 128-bit state and
 * increment held as 64-bit halves, so that the same code runs on the device (__umul64hi)
 * and in the host build (a 128-bit product from the compiler). */
#define EB_PCG_MUL_HI 0x2360ED051FC65DA4ull
#define EB_PCG_MUL_LO 0x4385DF649FCCF645ull

typedef struct EbPcg {
    uint64_t hi, lo;         /* state */
    uint64_t inc_hi, inc_lo; /* increment, odd */
} EbPcg;

EB_HD uint64_t eb_mulhi64(uint64_t a, uint64_t b) {
#ifdef __CUDA_ARCH__
    return __umul64hi(a, b);
#else
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
#endif
}

/* state = state * a + inc (mod 2^128). */
EB_HD void eb_pcg_step(EbPcg *g) {
    uint64_t lo = g->lo * EB_PCG_MUL_LO;
    uint64_t hi = eb_mulhi64(g->lo, EB_PCG_MUL_LO) + g->lo * EB_PCG_MUL_HI + g->hi * EB_PCG_MUL_LO;
    uint64_t sum = lo + g->inc_lo;
    g->hi = hi + g->inc_hi + (sum < lo);
    g->lo = sum;
}

/* The stream of (seed, task, chunk), as rng.rs's Stream::new: the state key * 2^64 +
 * mix(key + GOLDEN) with key = eb_stream_key(...), the stream task * 2^64 + chunk, so the
 * increment is 2 stream + 1; then Pcg64::new's own start (state += inc, one step). */
EB_HD void eb_pcg_init(EbPcg *g, uint64_t seed, uint64_t task, uint64_t chunk) {
    uint64_t key = eb_stream_key(seed, task, chunk);
    g->hi = key;
    g->lo = eb_mix(key + EB_GOLDEN);
    g->inc_hi = (task << 1) | (chunk >> 63);
    g->inc_lo = (chunk << 1) | 1;
    uint64_t sum = g->lo + g->inc_lo;
    g->hi = g->hi + g->inc_hi + (sum < g->lo);
    g->lo = sum;
    eb_pcg_step(g);
}

/* The next 64 bits: step, then rotr64(hi ^ lo, hi >> 58). */
EB_HD uint64_t eb_pcg_next(EbPcg *g) {
    eb_pcg_step(g);
    uint64_t x = g->hi ^ g->lo;
    unsigned r = (unsigned)(g->hi >> 58);
    return (x >> r) | (x << ((64 - r) & 63));
}

/* The next value in (0, 1] of the stream. */
EB_HD double eb_next_unit(EbPcg *g) {
    uint64_t x = eb_pcg_next(g);
    return (double)((x >> 11) + 1) * (1.0 / 9007199254740992.0);
}

EB_HD uint64_t eb_bits(double x) {
    union { double d; uint64_t u; } c;
    c.d = x;
    return c.u;
}

EB_HD double eb_from_bits(uint64_t u) {
    union { double d; uint64_t u; } c;
    c.u = u;
    return c.d;
}

/* ln x for x in (0, 1]: fdlibm's e_log.c for normal arguments (src/generate/chung_lu/
 * rng.rs::ln_unit), operation for operation. */
EB_HD double eb_ln_unit(double x) {
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10,
                 lg1 = 6.666666666666735130e-01, lg2 = 3.999999999940941908e-01,
                 lg3 = 2.857142874366239149e-01, lg4 = 2.222219843214978396e-01,
                 lg5 = 1.818357216161805012e-01, lg6 = 1.531383769920937332e-01,
                 lg7 = 1.479819860511658591e-01;
    uint64_t bits = eb_bits(x);
    int64_t k = (int64_t)((bits >> 52) & 0x7ff) - 1023;
    uint64_t hx = bits & 0x000fffffffffffffull;
    uint64_t i = (hx + (0x95f64ull << 32)) & (0x00100000ull << 32);
    hx |= i ^ (0x3ff00000ull << 32);
    k += (int64_t)(i >> 52);
    double m = eb_from_bits(hx);
    double f = m - 1.0;
    double dk = (double)k;
    double s = f / (2.0 + f);
    double z = s * s;
    double w = z * z;
    double t1 = w * (lg2 + w * (lg4 + w * lg6));
    double t2 = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7)));
    double r = t2 + t1;
    double hfsq = 0.5 * f * f;
    return dk * ln2_hi - ((hfsq - (s * (hfsq + r) + dk * ln2_lo)) - f);
}

typedef unsigned __int128 eb_u128;

EB_HD eb_u128 eb_tri(uint64_t a) {
    return (eb_u128)a * (eb_u128)(a - 1) / 2;
}

/* The pair (a, b), a > b >= 0, numbered pos = a (a - 1) / 2 + b, exactly. */
EB_HD void eb_decode_triangle(uint64_t pos, uint64_t *a_out, uint64_t *b_out) {
    double x = 8.0 * (double)pos + 1.0;
    uint64_t a = (uint64_t)((1.0 + sqrt(x)) * 0.5);
    eb_u128 p = pos;
    while (a > 1 && eb_tri(a) > p) a--;
    while (eb_tri(a + 1) <= p) a++;
    *a_out = a;
    *b_out = (uint64_t)(p - eb_tri(a));
}

/* The skipping walk over one chunk's pair offsets. */
typedef struct EbSkipper {
    EbPcg rng;
    double inv_log_q;
    uint64_t len;
    uint64_t off;
    uint32_t dense;
} EbSkipper;

/* The next edge's offset in the chunk, or 0 when the chunk is done (1 + offset else). */
EB_HD uint64_t eb_next_offset(EbSkipper *k) {
    if (k->off >= k->len) return 0;
    if (k->dense) return 1 + k->off++;
    double skip = eb_ln_unit(eb_next_unit(&k->rng)) * k->inv_log_q;
    uint64_t rem = k->len - k->off;
    if (!(skip < (double)rem)) {
        k->off = k->len;
        return 0;
    }
    uint64_t s = (uint64_t)skip;
    if (s >= rem) {
        k->off = k->len;
        return 0;
    }
    uint64_t o = k->off + s;
    k->off = o + 1;
    return 1 + o;
}

EB_HD uint32_t eb_row_vertex(const EbClParams *p, uint64_t x) {
    return p->row_members ? p->row_members[x] : (uint32_t)x;
}

/* A column position as the vertex stored in the row. */
EB_HD uint32_t eb_col_vertex(const EbClParams *p, uint64_t y) {
    if (p->col_members) return p->col_members[y];
    return p->col_reversed ? p->n - 1 - (uint32_t)y : (uint32_t)y;
}

/* The vertex at column position y for the self-pair test (members or the identity, as
 * the CPU's Groups::vertex). */
EB_HD uint32_t eb_col_identity(const EbClParams *p, uint64_t y) {
    return p->col_members ? p->col_members[y] : (uint32_t)y;
}

/* One edge between positions x (row side) and y (column side): counted in its rows, or
 * placed there. */
EB_HD void eb_cl_edge(const EbClParams *p, uint64_t x, uint64_t y) {
    if (p->fill == 2) {
        /* The walk alone (random numbers, skipping, decoding), for timing: a store the
         * compiler cannot prove dead keeps the walk, and it never happens. */
        if (x == ~0ull) p->degree[0] = y;
        return;
    }
    uint32_t rx = eb_row_vertex(p, x);
    if (!p->fill) {
#ifdef EB_DEVICE
        atomicAdd((unsigned long long *)&p->degree[rx], 1ull);
        if (p->undirected) atomicAdd((unsigned long long *)&p->degree[eb_row_vertex(p, y)], 1ull);
#else
        p->degree[rx]++;
        if (p->undirected) p->degree[eb_row_vertex(p, y)]++;
#endif
        return;
    }
    uint64_t q = eb_atomic_add_u64(&p->cursor[rx], 1);
    p->indices[q] = eb_col_vertex(p, y);
    if (p->undirected) {
        uint64_t q2 = eb_atomic_add_u64(&p->cursor[eb_row_vertex(p, y)], 1);
        p->indices[q2] = eb_col_vertex(p, x);
    }
}

/* Every edge of chunk `chunk` (local to task t), in increasing pair order. */
EB_HD void eb_cl_chunk(const EbClParams *p, const EbClTask *t, uint64_t chunk) {
    uint64_t start = chunk * t->chunk_pairs;
    uint64_t len = t->pairs - start < t->chunk_pairs ? t->pairs - start : t->chunk_pairs;
    EbSkipper k;
    eb_pcg_init(&k.rng, p->seed, t->id, chunk);
    k.inv_log_q = t->inv_log_q;
    k.len = len;
    k.off = 0;
    k.dense = t->dense;
    uint64_t ri = t->row_start, cj = t->col_start;
    uint64_t o = eb_next_offset(&k);
    if (!o) return;
    uint64_t pos = start + o - 1;
    if (t->kind == EB_CL_INTRA) {
        uint64_t a, b;
        eb_decode_triangle(pos, &a, &b);
        for (;;) {
            eb_cl_edge(p, ri + a, ri + b);
            o = eb_next_offset(&k);
            if (!o) return;
            uint64_t np = start + o - 1;
            b += np - pos;
            pos = np;
            if (b >= a) {
                if (b - a < 4 * a) {
                    while (b >= a) {
                        b -= a;
                        a += 1;
                    }
                } else {
                    eb_decode_triangle(pos, &a, &b);
                }
            }
        }
    } else {
        uint64_t width = t->width;
        uint64_t a = pos / width, b = pos % width;
        int arcs = t->kind == EB_CL_ARCS;
        for (;;) {
            uint64_t x = ri + a, y = cj + b;
            if (!arcs || eb_row_vertex(p, x) != eb_col_identity(p, y)) eb_cl_edge(p, x, y);
            o = eb_next_offset(&k);
            if (!o) return;
            uint64_t np = start + o - 1;
            b += np - pos;
            pos = np;
            if (b >= width) {
                if (b < 4 * width) {
                    while (b >= width) {
                        b -= width;
                        a += 1;
                    }
                } else {
                    a += b / width;
                    b %= width;
                }
            }
        }
    }
}

/* Global chunk c: finds its task (binary search over first_chunk) and walks it. */
EB_HD void eb_cl_global_chunk(const EbClParams *p, uint64_t c) {
    uint32_t lo = 0, hi = p->ntasks;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (p->tasks[mid].first_chunk <= c) lo = mid;
        else hi = mid;
    }
    const EbClTask *t = &p->tasks[lo];
    eb_cl_chunk(p, t, c - t->first_chunk);
}

/* Prefix sum, step 1 for block b (sequential form; the kernel does it in shared memory):
 * out[i + 1] = in[b * B] + ... + in[i] for i in the block, sums[b] = the block's total. */
EB_HD void eb_scan_block_seq(const EbScanParams *p, uint64_t b) {
    uint64_t lo = b * EB_SCAN_BLOCK, hi = lo + EB_SCAN_BLOCK < p->len ? lo + EB_SCAN_BLOCK : p->len;
    uint64_t acc = 0;
    for (uint64_t i = lo; i < hi; i++) {
        acc += p->in[i];
        p->out[i + 1] = acc;
    }
    p->sums[b] = acc;
}

/* Step 2, element i: add the total of the blocks before its own. */
EB_HD void eb_scan_add(const EbScanParams *p, uint64_t i) {
    p->out[i + 1] += p->base[i / EB_SCAN_BLOCK];
}

/* Sorting, row r: a short row is sorted here (insertion), a longer one is listed. */
EB_HD void eb_sort_classify(const EbSortParams *p, uint32_t r) {
    uint64_t lo = p->offsets[r], hi = p->offsets[r + 1];
    uint64_t len = hi - lo;
    if (len <= EB_SMALL_ROW) {
        uint32_t *x = p->src + lo;
        for (uint64_t i = 1; i < len; i++) {
            uint32_t v = x[i];
            uint64_t j = i;
            while (j > 0 && x[j - 1] > v) {
                x[j] = x[j - 1];
                j--;
            }
            x[j] = v;
        }
        return;
    }
    uint64_t slot = eb_emit(&p->counters[0], (uint64_t *)0, 0);
    p->rows[slot] = r;
#ifdef EB_DEVICE
    atomicMax((unsigned long long *)&p->counters[1], (unsigned long long)len);
#else
    if (len > p->counters[1]) p->counters[1] = len;
#endif
}

/* A merge pass, element i of a listed row (entries distinct): runs of `width` sorted
 * entries pair up, and each entry goes to its rank in the merged pair (its index in its
 * run plus the entries of the other run below it, by binary search). */
EB_HD void eb_sort_merge_entry(const EbSortParams *p, uint64_t lo, uint64_t len, uint64_t i) {
    uint64_t w = p->width;
    uint64_t run = i / w;
    uint64_t base = (run & ~1ull) * w;
    uint64_t other = (run ^ 1ull) * w;
    uint32_t v = p->src[lo + i];
    uint64_t rank = 0;
    if (other < len) {
        uint64_t a = other, b = other + w < len ? other + w : len;
        while (a < b) {
            uint64_t m = a + (b - a) / 2;
            if (p->src[lo + m] < v) a = m + 1;
            else b = m;
        }
        rank = a - other;
    }
    p->dst[lo + base + (i - run * w) + rank] = v;
}

#endif
