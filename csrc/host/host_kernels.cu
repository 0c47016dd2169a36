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

void eb_host_relax_commit(const EbRelaxParams *p) {
    for (uint32_t i = 0; i < p->touched_len; i++) eb_relax_commit(p, i);
}

}
