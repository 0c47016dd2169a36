/* The per-element work of a BFS level, shared by the kernels (bfs_push.cu, bfs_pull.cu,
 * frontier.cu) and the sequential host build the tests compare with the CPU backend.
 *
 * Levels and parents start at EB_UNREACHED. A level of depth d finds the vertices of
 * depth d + 1; the parent of each is the smallest vertex of depth d with an arc to it
 * (atomicMin in push, the first frontier in-neighbour of a sorted row in pull), so
 * parents do not depend on the order in which threads run. */
#ifndef EDGEBLAS_BFS_CUH
#define EDGEBLAS_BFS_CUH

#include "common.cuh"

/* Push: the arc u -> v of a frontier vertex u. */
EB_HD void eb_push_arc(const EbPushParams *p, uint32_t u, uint32_t v) {
    const EbBfsState *s = &p->s;
    /* Visited at an earlier level: its level is below next_depth. A vertex found in this
     * level reads next_depth (or still EB_UNREACHED) and may still get a smaller parent. */
    if (s->levels[v] < p->next_depth) return;
    if (s->parents[v] <= u) return;
    uint32_t old = eb_atomic_min_u32(&s->parents[v], u);
    if (old != EB_UNREACHED) return;
    /* First to reach v in this level: it joins the next frontier, once. */
    s->levels[v] = p->next_depth;
    uint64_t deg = eb_degree(&s->a, v);
    uint64_t slot = eb_emit(&p->counters->vertices, &p->counters->out_edges, deg);
    p->next[slot] = v;
    if (deg > EB_BIG_DEGREE) {
        uint64_t b = eb_atomic_add_u64(&p->counters->big, 1);
        p->next_big[b] = v;
    }
    if (v == s->target) p->counters->target_found = 1;
}

/* Push: arcs lo, lo + step, ... below hi of frontier vertex u. */
EB_HD void eb_push_range(const EbPushParams *p, uint32_t u, uint64_t lo, uint64_t hi,
                         uint64_t step) {
    for (uint64_t e = lo; e < hi; e += step) eb_push_arc(p, u, p->s.a.indices[e]);
}

/* Pull: unvisited vertex v scans its in-arcs in ascending order and stops at the first
 * frontier vertex, its parent. Returns the arcs examined. */
EB_HD uint64_t eb_pull_vertex(const EbPullParams *p, uint32_t v) {
    const EbBfsState *s = &p->s;
    if (s->levels[v] != EB_UNREACHED) return 0;
    uint64_t lo = s->at.offsets[v], hi = s->at.offsets[v + 1];
    for (uint64_t e = lo; e < hi; e++) {
        uint32_t u = s->at.indices[e];
        if ((p->frontier_bits[u >> 5] >> (u & 31)) & 1u) {
            s->parents[v] = u;
            s->levels[v] = p->next_depth;
            eb_atomic_or_u32(&p->next_bits[v >> 5], 1u << (v & 31));
            uint64_t deg = eb_degree(&s->a, v);
            uint64_t slot = eb_emit(&p->counters->vertices, &p->counters->out_edges, deg);
            p->next[slot] = v;
            if (deg > EB_BIG_DEGREE) {
                uint64_t k = eb_atomic_add_u64(&p->counters->big, 1);
                p->next_big[k] = v;
            }
            if (v == s->target) p->counters->target_found = 1;
            return e - lo + 1;
        }
    }
    return hi - lo;
}

/* Source i of the first frontier. */
EB_HD void eb_init_source(const EbInitParams *p, uint32_t i) {
    const EbBfsState *s = &p->s;
    uint32_t v = p->sources[i];
    if (eb_atomic_min_u32(&s->parents[v], v) != EB_UNREACHED) return;
    s->levels[v] = 0;
    uint64_t deg = eb_degree(&s->a, v);
    uint64_t slot = eb_emit(&p->counters->vertices, &p->counters->out_edges, deg);
    p->queue[slot] = v;
    if (deg > EB_BIG_DEGREE) {
        uint64_t b = eb_atomic_add_u64(&p->counters->big, 1);
        p->big[b] = v;
    }
    if (v == s->target) p->counters->target_found = 1;
}

/* Sparse to bitmap: entry i of the queue sets its bit. */
EB_HD void eb_queue_entry_to_bits(const EbConvertParams *p, uint32_t i) {
    uint32_t v = p->queue[i];
    eb_atomic_or_u32(&p->bits[v >> 5], 1u << (v & 31));
}

/* Bitmap to sparse: word w appends its vertices to the queue (counted in
 * counters->vertices) and, when `a_offsets` is given, its big vertices to `big`
 * (counters->big). */
EB_HD void eb_bits_word_to_queue(const EbConvertParams *p, uint32_t w) {
    uint32_t x = p->bits[w];
    while (x) {
        uint32_t b = 0;
        while (!((x >> b) & 1u)) b++;
        x &= x - 1;
        uint32_t v = w * 32u + b;
        uint64_t slot = eb_emit(&p->counters->vertices, (uint64_t *)0, 0);
        p->queue[slot] = v;
        if (p->a_offsets && p->a_offsets[v + 1] - p->a_offsets[v] > EB_BIG_DEGREE) {
            uint64_t k = eb_atomic_add_u64(&p->counters->big, 1);
            p->big[k] = v;
        }
    }
}

#endif
