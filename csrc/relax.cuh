/* The per-element work of a Bellman-Ford round over MIN.PLUS with the argmin, shared by
 * relax.cu and the host build. A round is the CPU's: t(v) = min over frontier u of
 * (dist(u) + w(u, v), u) in lexicographic order; v improves when t(v) < dist(v).
 * Three passes make the 96-bit lexicographic minimum from 64- and 32-bit atomics: the
 * smallest distance (as order-preserving bits), then the smallest u that gives exactly
 * it, then the commit. */
#ifndef EDGEBLAS_RELAX_CUH
#define EDGEBLAS_RELAX_CUH

#include "common.cuh"

/* Bits of a double whose unsigned order is the order of the values (NaN aside). */
EB_HD uint64_t eb_order_key(double x) {
    union { double d; uint64_t u; } c;
    c.d = x == 0.0 ? 0.0 : x; /* -0 and +0 are one distance */
    return (c.u >> 63) ? ~c.u : (c.u | 0x8000000000000000ull);
}

EB_HD double eb_key_value(uint64_t k) {
    union { double d; uint64_t u; } c;
    c.u = (k >> 63) ? (k & 0x7FFFFFFFFFFFFFFFull) : ~k;
    return c.d;
}

/* Candidate of arc e (from u): dist(u) + w(e), or nothing when it does not improve. */
EB_HD int eb_relax_candidate(const EbRelaxParams *p, uint32_t u, uint64_t e, uint32_t *v,
                             uint64_t *key) {
    *v = p->a.indices[e];
    double cand = p->dist[u] + p->weights[e];
    if (!(cand < p->dist[*v])) return 0;
    *key = eb_order_key(cand);
    return 1;
}

/* Pass 1, arc e of frontier vertex u: key(v) = min(key(v), candidate); the first
 * candidate of v lists v as touched. */
EB_HD void eb_relax_min_arc(const EbRelaxParams *p, uint32_t u, uint64_t e) {
    uint32_t v;
    uint64_t key;
    if (!eb_relax_candidate(p, u, e, &v, &key)) return;
    if (p->key[v] <= key) return;
    uint64_t old = eb_atomic_min_u64(&p->key[v], key);
    if (old == EB_EMPTY_KEY) {
        uint64_t slot = eb_emit(&p->counters->touched, (uint64_t *)0, 0);
        p->touched[slot] = v;
    }
}

/* Pass 2, arc e of frontier vertex u: arg(v) = min(arg(v), u) where u gives key(v). */
EB_HD void eb_relax_arg_arc(const EbRelaxParams *p, uint32_t u, uint64_t e) {
    uint32_t v;
    uint64_t key;
    if (!eb_relax_candidate(p, u, e, &v, &key)) return;
    if (key == p->key[v]) eb_atomic_min_u32(&p->arg[v], u);
}

/* Pass 3, touched entry i: commit the improvement, reset the scratch, and list the
 * vertex in the next frontier (the touched list itself). */
EB_HD void eb_relax_commit(const EbRelaxParams *p, uint32_t i) {
    uint32_t v = p->touched[i];
    p->dist[v] = eb_key_value(p->key[v]);
    p->pred[v] = p->arg[v];
    p->key[v] = EB_EMPTY_KEY;
    p->arg[v] = EB_UNREACHED;
}

/* After the rounds, arc e of reached vertex u: pred(v) = min(pred(v), u) when the arc is
 * tight, dist(u) + w(e) == dist(v): the smallest such u is the CPU's predecessor rule
 * (algo::delta_stepping::predecessors), the same for every method. */
EB_HD void eb_relax_tight_arc(const EbRelaxParams *p, uint32_t u, uint64_t e) {
    uint32_t v = p->a.indices[e];
    double dv = p->dist[v];
    /* dv - dv == 0: v is reached (an arc of weight +inf reaches nothing). */
    if (dv - dv == 0.0 && p->dist[u] + p->weights[e] == dv) eb_atomic_min_u32(&p->pred[v], u);
}

#endif
