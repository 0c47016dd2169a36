/* The kernels' per-element work (bfs.cuh, relax.cuh) built for the host and run
 * sequentially over the whole index range, in the order of the kernels' launches, so
 * that tests compare it with the CPU backend on a machine without a GPU. */
#define EB_HOST_ONLY 1
#include "../bfs.cuh"
#include "../relax.cuh"

extern "C" {

void eb_host_init_sources(const EbInitParams *p) {
    for (uint32_t i = 0; i < p->sources_len; i++) eb_init_source(p, i);
}

void eb_host_push(const EbPushParams *p) {
    for (uint32_t i = 0; i < p->frontier_len; i++) {
        uint32_t u = p->frontier[i];
        uint64_t lo = p->s.a.offsets[u], hi = p->s.a.offsets[u + 1];
        if (hi - lo <= EB_BIG_DEGREE) eb_push_range(p, u, lo, hi, 1);
    }
    for (uint32_t b = 0; b < p->big_len; b++) {
        uint32_t u = p->big[b];
        eb_push_range(p, u, p->s.a.offsets[u], p->s.a.offsets[u + 1], 1);
    }
}

void eb_host_pull(const EbPullParams *p) {
    uint64_t examined = 0;
    for (uint32_t v = 0; v < p->s.a.nrows; v++) examined += eb_pull_vertex(p, v);
    if (p->s.count_examined) p->counters->examined += examined;
}

void eb_host_queue_to_bits(const EbConvertParams *p) {
    for (uint32_t i = 0; i < p->queue_len; i++) eb_queue_entry_to_bits(p, i);
}

void eb_host_bits_to_queue(const EbConvertParams *p) {
    for (uint32_t w = 0; w < p->nwords; w++) eb_bits_word_to_queue(p, w);
}

void eb_host_relax_min(const EbRelaxParams *p) {
    for (uint32_t i = 0; i < p->frontier_len; i++) {
        uint32_t u = p->frontier[i];
        for (uint64_t e = p->a.offsets[u]; e < p->a.offsets[u + 1]; e++) eb_relax_min_arc(p, u, e);
    }
}

void eb_host_relax_arg(const EbRelaxParams *p) {
    for (uint32_t i = 0; i < p->frontier_len; i++) {
        uint32_t u = p->frontier[i];
        for (uint64_t e = p->a.offsets[u]; e < p->a.offsets[u + 1]; e++) eb_relax_arg_arc(p, u, e);
    }
}

void eb_host_relax_tight(const EbRelaxParams *p) {
    for (uint32_t i = 0; i < p->frontier_len; i++) {
        uint32_t u = p->frontier[i];
        for (uint64_t e = p->a.offsets[u]; e < p->a.offsets[u + 1]; e++) eb_relax_tight_arc(p, u, e);
    }
}

void eb_host_relax_commit(const EbRelaxParams *p) {
    for (uint32_t i = 0; i < p->touched_len; i++) eb_relax_commit(p, i);
}

}

#include "../chung_lu.cuh"

extern "C" {

void eb_host_cl_pass(const EbClParams *p) {
    if (p->lane_bounds) {
        for (uint64_t t = 0; t < p->lanes; t++)
            for (uint64_t c = p->lane_bounds[t]; c < p->lane_bounds[t + 1]; c++)
                eb_cl_global_chunk(p, c);
    } else {
        for (uint64_t c = p->chunk_begin; c < p->chunk_end; c++) eb_cl_global_chunk(p, c);
    }
}

void eb_host_scan_blocks(const EbScanParams *p) {
    for (uint64_t b = 0; b * EB_SCAN_BLOCK < p->len; b++) eb_scan_block_seq(p, b);
}

void eb_host_scan_add(const EbScanParams *p) {
    for (uint64_t i = 0; i < p->len; i++) eb_scan_add(p, i);
}

void eb_host_copy_u64(const EbScanParams *p) {
    for (uint64_t i = 0; i < p->len; i++) p->out[i] = p->in[i];
}

void eb_host_sort_classify(const EbSortParams *p) {
    for (uint32_t r = 0; r < p->nrows; r++) eb_sort_classify(p, r);
}

void eb_host_sort_merge(const EbSortParams *p) {
    for (uint64_t k = 0; k < p->counters[0]; k++) {
        uint32_t r = p->rows[k];
        uint64_t lo = p->offsets[r], len = p->offsets[r + 1] - lo;
        for (uint64_t i = 0; i < len; i++) {
            if (len <= p->width) p->dst[lo + i] = p->src[lo + i];
            else eb_sort_merge_entry(p, lo, len, i);
        }
    }
}

/* The first `len` draws of the PCG stream of (seed, task, chunk), for the tests that
 * compare it with rand_pcg's. */
void eb_host_cl_stream(uint64_t seed, uint64_t task, uint64_t chunk, uint64_t *out, uint64_t len) {
    EbPcg g;
    eb_pcg_init(&g, seed, task, chunk);
    for (uint64_t i = 0; i < len; i++) out[i] = eb_pcg_next(&g);
}

void eb_host_sort_copy(const EbSortParams *p) {
    for (uint64_t k = 0; k < p->counters[0]; k++) {
        uint32_t r = p->rows[k];
        uint64_t lo = p->offsets[r], len = p->offsets[r + 1] - lo;
        for (uint64_t i = 0; i < len; i++) p->dst[lo + i] = p->src[lo + i];
    }
}

}
