/* The device algebra's per-element code: monoids, multiplies and the kernel families of
 * `edgeblas::cuda::ops` (pull, push, write-back, ewise, apply, reduce), written once as
 * templates. build.rs instantiates them for every built-in semiring and primitive type,
 * as kernels (one thread per item, grid-stride) and as host functions (a loop over the
 * items) that the tests compare with the CPU's `ops`.
 *
 * The rules are the Rust built-ins' (src/algebra/builtin.rs), operation for operation:
 * integer PLUS and TIMES wrap, MIN.PLUS and MAX.PLUS saturate and let their identity
 * absorb, MIN and MAX ignore a NaN operand and keep -0.0 of two equal zeros, a sum
 * starts from its first term and stops at the monoid's terminal value. */
#ifndef EDGEBLAS_OPS_CUH
#define EDGEBLAS_OPS_CUH

#include "common.cuh"

#ifdef __CUDACC__
#define EB_SM __host__ __device__ __forceinline__ static
#else
#define EB_SM static inline
#endif

/* ---- numbers ---------------------------------------------------------------------- */

EB_HD float eb_f32_bits(uint32_t b) {
    union { float f; uint32_t u; } c;
    c.u = b;
    return c.f;
}
EB_HD double eb_f64_bits(uint64_t b) {
    union { double f; uint64_t u; } c;
    c.u = b;
    return c.f;
}
EB_HD bool eb_sign_f32(float x) {
    union { float f; uint32_t u; } c;
    c.f = x;
    return c.u >> 31;
}
EB_HD bool eb_sign_f64(double x) {
    union { double f; uint64_t u; } c;
    c.f = x;
    return c.u >> 63;
}

/* The Number and Arith traits of the Rust side, per type. */
template <class T> struct EbNum;

#define EB_NUM_UNSIGNED(T, MAX)                                                           \
    template <> struct EbNum<T> {                                                         \
        EB_SM T lowest() { return 0; }                                                    \
        EB_SM T highest() { return MAX; }                                                 \
        EB_SM T add(T a, T b) { return (T)(a + b); }                                      \
        EB_SM T sub(T a, T b) { return (T)(a - b); }                                      \
        EB_SM T mul(T a, T b) { return (T)(a * b); }                                      \
        EB_SM T div(T a, T b) { return b == 0 ? (T)0 : (T)(a / b); }                      \
        EB_SM T sat_add(T a, T b) { T r = (T)(a + b); return r < a ? (T)MAX : r; }        \
        EB_SM T tie(T a, T) { return a; }                                                 \
        EB_SM T neg(T a) { return (T)(0 - a); }                                           \
        EB_SM T abs(T a) { return a; }                                                    \
        static const bool zero_annihilates = true;                                        \
    };
EB_NUM_UNSIGNED(uint32_t, 0xFFFFFFFFu)
EB_NUM_UNSIGNED(uint64_t, 0xFFFFFFFFFFFFFFFFull)

#define EB_NUM_SIGNED(T, U, MIN, MAX)                                                     \
    template <> struct EbNum<T> {                                                         \
        EB_SM T lowest() { return MIN; }                                                  \
        EB_SM T highest() { return MAX; }                                                 \
        EB_SM T add(T a, T b) { return (T)((U)a + (U)b); }                                \
        EB_SM T sub(T a, T b) { return (T)((U)a - (U)b); }                                \
        EB_SM T mul(T a, T b) { return (T)((U)a * (U)b); }                                \
        EB_SM T div(T a, T b) {                                                           \
            if (b == 0) return 0;                                                         \
            if (b == -1) return neg(a);                                                   \
            return (T)(a / b);                                                            \
        }                                                                                 \
        EB_SM T sat_add(T a, T b) {                                                       \
            if (b > 0 && a > (T)(MAX - b)) return MAX;                                    \
            if (b < 0 && a < (T)(MIN - b)) return MIN;                                    \
            return (T)(a + b);                                                            \
        }                                                                                 \
        EB_SM T tie(T a, T) { return a; }                                                 \
        EB_SM T neg(T a) { return (T)((U)0 - (U)a); }                                     \
        EB_SM T abs(T a) { return a < 0 ? neg(a) : a; }                                   \
        static const bool zero_annihilates = true;                                        \
    };
EB_NUM_SIGNED(int32_t, uint32_t, (int32_t)0x80000000, (int32_t)0x7FFFFFFF)
EB_NUM_SIGNED(int64_t, uint64_t, (int64_t)0x8000000000000000ll, (int64_t)0x7FFFFFFFFFFFFFFFll)

#define EB_NUM_FLOAT(T, INF, SIGN)                                                        \
    template <> struct EbNum<T> {                                                         \
        EB_SM T lowest() { return -INF; }                                                 \
        EB_SM T highest() { return INF; }                                                 \
        EB_SM T add(T a, T b) { return a + b; }                                           \
        EB_SM T sub(T a, T b) { return a - b; }                                           \
        EB_SM T mul(T a, T b) { return a * b; }                                           \
        EB_SM T div(T a, T b) { return a / b; }                                           \
        EB_SM T sat_add(T a, T b) { return a + b; }                                       \
        EB_SM T tie(T a, T b) { return SIGN(b) ? b : a; }                                 \
        EB_SM T neg(T a) { return -a; }                                                   \
        EB_SM T abs(T a) { return SIGN(a) ? -a : a; }                                     \
        static const bool zero_annihilates = false;                                       \
    };
EB_NUM_FLOAT(float, eb_f32_bits(0x7F800000u), eb_sign_f32)
EB_NUM_FLOAT(double, eb_f64_bits(0x7FF0000000000000ull), eb_sign_f64)

/* Booleans take only the logical operators; the arithmetic is never asked for (the Rust
 * types forbid it) and is here so that the run-time operator switch compiles. */
template <> struct EbNum<bool> {
    EB_SM bool lowest() { return false; }
    EB_SM bool highest() { return true; }
    EB_SM bool add(bool a, bool b) { return a != b; }
    EB_SM bool sub(bool a, bool b) { return a != b; }
    EB_SM bool mul(bool a, bool b) { return a && b; }
    EB_SM bool div(bool a, bool) { return a; }
    EB_SM bool sat_add(bool a, bool b) { return a || b; }
    EB_SM bool tie(bool a, bool) { return a; }
    EB_SM bool neg(bool a) { return a; }
    EB_SM bool abs(bool a) { return a; }
    static const bool zero_annihilates = true;
};

/* The pattern type `()`: no values are ever read or written. */
typedef uint8_t EbUnit;
template <> struct EbNum<uint8_t> {
    EB_SM uint8_t lowest() { return 0; }
    EB_SM uint8_t highest() { return 0; }
    EB_SM uint8_t add(uint8_t a, uint8_t) { return a; }
    EB_SM uint8_t sub(uint8_t a, uint8_t) { return a; }
    EB_SM uint8_t mul(uint8_t a, uint8_t) { return a; }
    EB_SM uint8_t div(uint8_t a, uint8_t) { return a; }
    EB_SM uint8_t sat_add(uint8_t a, uint8_t) { return a; }
    EB_SM uint8_t tie(uint8_t a, uint8_t) { return a; }
    EB_SM uint8_t neg(uint8_t a) { return a; }
    EB_SM uint8_t abs(uint8_t a) { return a; }
    static const bool zero_annihilates = false;
};

/* MIN and MAX as in Rust: a NaN operand gives way, of equal values `tie` chooses. */
template <class T> EB_HD T eb_min(T x, T y) {
    if (y < x || x != x) return y;
    if (y == x) return EbNum<T>::tie(x, y);
    return x;
}
template <class T> EB_HD T eb_max(T x, T y) {
    if (y > x || x != x) return y;
    if (y == x) return EbNum<T>::tie(x, y);
    return x;
}

/* ---- monoids ---------------------------------------------------------------------- */
/* identity, combine, terminal; `any`: ANY (keep the first term); `order_free`: the sum is
 * the same in any order, so device threads may combine terms as they come. */

template <class T> struct EbMinM {
    EB_SM T identity() { return EbNum<T>::highest(); }
    EB_SM T combine(T a, T b) { return eb_min(a, b); }
    EB_SM bool terminal(T x) { return x == EbNum<T>::lowest(); }
    static const bool any = false;
};
template <class T> struct EbMaxM {
    EB_SM T identity() { return EbNum<T>::lowest(); }
    EB_SM T combine(T a, T b) { return eb_max(a, b); }
    EB_SM bool terminal(T x) { return x == EbNum<T>::highest(); }
    static const bool any = false;
};
template <class T> struct EbPlusM {
    EB_SM T identity() { return (T)0; }
    EB_SM T combine(T a, T b) { return EbNum<T>::add(a, b); }
    EB_SM bool terminal(T) { return false; }
    static const bool any = false;
};
template <class T> struct EbTimesM {
    EB_SM T identity() { return (T)1; }
    EB_SM T combine(T a, T b) { return EbNum<T>::mul(a, b); }
    EB_SM bool terminal(T x) { return EbNum<T>::zero_annihilates && x == (T)0; }
    static const bool any = false;
};
template <class T> struct EbAnyM {
    EB_SM T identity() { return T(); }
    EB_SM T combine(T a, T) { return a; }
    EB_SM bool terminal(T) { return true; }
    static const bool any = true;
};
struct EbLorM {
    EB_SM bool identity() { return false; }
    EB_SM bool combine(bool a, bool b) { return a || b; }
    EB_SM bool terminal(bool x) { return x; }
    static const bool any = false;
};
struct EbLandM {
    EB_SM bool identity() { return true; }
    EB_SM bool combine(bool a, bool b) { return a && b; }
    EB_SM bool terminal(bool x) { return !x; }
    static const bool any = false;
};
struct EbLxorM {
    EB_SM bool identity() { return false; }
    EB_SM bool combine(bool a, bool b) { return a != b; }
    EB_SM bool terminal(bool) { return false; }
    static const bool any = false;
};

/* ---- multiplies ------------------------------------------------------------------- */
/* z = a (x) u at inner index k, the matrix entry first; `reads_a`, `reads_u`: whether the
 * operand's value is read (a pattern operand reads as 1 / true). */

template <class Z> struct EbMulMinPlus {
    EB_SM Z apply(Z a, Z u, uint32_t) {
        Z hi = EbNum<Z>::highest();
        return (a == hi || u == hi) ? hi : EbNum<Z>::sat_add(a, u);
    }
    static const bool reads_a = true, reads_u = true;
};
template <class Z> struct EbMulMaxPlus {
    EB_SM Z apply(Z a, Z u, uint32_t) {
        Z lo = EbNum<Z>::lowest();
        return (a == lo || u == lo) ? lo : EbNum<Z>::sat_add(a, u);
    }
    static const bool reads_a = true, reads_u = true;
};
template <class Z> struct EbMulTimes {
    EB_SM Z apply(Z a, Z u, uint32_t) { return EbNum<Z>::mul(a, u); }
    static const bool reads_a = true, reads_u = true;
};
template <class Z> struct EbMulMax {
    EB_SM Z apply(Z a, Z u, uint32_t) { return u > a ? u : a; }
    static const bool reads_a = true, reads_u = true;
};
template <class Z> struct EbMulPair {
    EB_SM Z apply(Z, Z, uint32_t) { return (Z)1; }
    static const bool reads_a = false, reads_u = false;
};
template <class Z> struct EbMulFirst {
    EB_SM Z apply(Z a, Z, uint32_t) { return a; }
    static const bool reads_a = true, reads_u = false;
};
template <class Z> struct EbMulSecond {
    EB_SM Z apply(Z, Z u, uint32_t) { return u; }
    static const bool reads_a = false, reads_u = true;
};
template <class Z> struct EbMulSecondI {
    EB_SM Z apply(Z, Z, uint32_t k) { return (Z)k; }
    static const bool reads_a = false, reads_u = false;
};
template <class Z> struct EbMulAnd {
    EB_SM Z apply(Z a, Z u, uint32_t) { return a && u; }
    static const bool reads_a = true, reads_u = true;
};

/* ---- vectors and masks ------------------------------------------------------------ */

EB_HD bool eb_bit(const uint32_t *b, uint64_t i) { return (b[i >> 5] >> (i & 31)) & 1u; }

EB_HD void eb_set_bit(uint32_t *b, uint64_t i) { eb_atomic_or_u32(&b[i >> 5], 1u << (i & 31)); }

/* Slot `i` of `v`, or 1 (true) when the operand is a pattern. */
template <class T> EB_HD T eb_load(const void *v, uint64_t i) {
    return v ? ((const T *)v)[i] : (T)1;
}

EB_HD bool eb_truthy(const void *v, uint32_t type, uint64_t i) {
    switch (type) {
    case EB_TYPE_BOOL: return ((const bool *)v)[i];
    case EB_TYPE_U32: return ((const uint32_t *)v)[i] != 0;
    case EB_TYPE_U64: return ((const uint64_t *)v)[i] != 0;
    case EB_TYPE_I32: return ((const int32_t *)v)[i] != 0;
    case EB_TYPE_I64: return ((const int64_t *)v)[i] != 0;
    case EB_TYPE_F32: return ((const float *)v)[i] != 0.0f;
    case EB_TYPE_F64: return ((const double *)v)[i] != 0.0;
    default: return true;
    }
}

/* Whether the operation may write index i: the mask vector's entry (present, and true
 * unless structural), complemented if asked. */
EB_HD bool eb_mask_allows(const EbOpParams *p, uint64_t i) {
    if (!(p->m_flags & EB_MASK_ON)) return true;
    bool in = eb_bit(p->m_bits, i) &&
              ((p->m_flags & EB_MASK_STRUCTURE) || !p->m_values || eb_truthy(p->m_values, p->m_type, i));
    return in != ((p->m_flags & EB_MASK_COMPLEMENT) != 0);
}

/* The binary operators chosen at run time (EB_OP_*). */
template <class Z> EB_HD Z eb_binop(uint32_t op, Z x, Z y) {
    typedef EbNum<Z> N;
    switch (op) {
    case EB_OP_FIRST: return x;
    case EB_OP_SECOND: return y;
    case EB_OP_PLUS: return N::add(x, y);
    case EB_OP_TIMES: return N::mul(x, y);
    case EB_OP_MIN: return eb_min(x, y);
    case EB_OP_MAX: return eb_max(x, y);
    case EB_OP_MINUS: return N::sub(x, y);
    case EB_OP_RMINUS: return N::sub(y, x);
    case EB_OP_DIV: return N::div(x, y);
    case EB_OP_RDIV: return N::div(y, x);
    case EB_OP_ANY: return x;
    case EB_OP_LOR: return (Z)(x || y);
    case EB_OP_LAND: return (Z)(x && y);
    case EB_OP_LXOR: return (Z)((x != 0) != (y != 0));
    case EB_OP_PAIR: return (Z)1;
    default: return y;
    }
}

template <class Z> EB_HD Z eb_unary(const EbOpParams *p, Z x) {
    Z s;
    union { uint64_t u; Z z; } c;
    c.u = p->scalar;
    s = c.z;
    switch (p->op) {
    case EB_UNARY_AINV: return EbNum<Z>::neg(x);
    case EB_UNARY_ABS: return EbNum<Z>::abs(x);
    case EB_UNARY_ONE: return (Z)1;
    case EB_UNARY_BIND_FIRST: return eb_binop<Z>(p->op2, s, x);
    case EB_UNARY_BIND_SECOND: return eb_binop<Z>(p->op2, x, s);
    default: return x;
    }
}

/* *p = combine(*p, v) with other threads doing the same: a compare-and-swap loop on the
 * value's bits (a one-byte Boolean is only ever moved away from the identity, so a plain
 * store is enough). Sequential on the host. */
template <class Add, class Z> EB_HD void eb_atomic_combine(Z *p, Z v) {
#ifdef EB_DEVICE
    if (sizeof(Z) == 1) {
        if (v != Add::identity()) *p = v;
    } else if (sizeof(Z) == 4) {
        unsigned int *a = (unsigned int *)p;
        unsigned int old = *a, assumed;
        do {
            assumed = old;
            union { unsigned int u; Z z; } c, n;
            c.u = assumed;
            n.z = Add::combine(c.z, v);
            if (n.u == assumed) break;
            old = atomicCAS(a, assumed, n.u);
        } while (old != assumed);
    } else {
        unsigned long long *a = (unsigned long long *)p;
        unsigned long long old = *a, assumed;
        do {
            assumed = old;
            union { unsigned long long u; Z z; } c, n;
            c.u = assumed;
            n.z = Add::combine(c.z, v);
            if (n.u == assumed) break;
            old = atomicCAS(a, assumed, n.u);
        } while (old != assumed);
    }
#else
    *p = Add::combine(*p, v);
#endif
}

/* ---- the families ----------------------------------------------------------------- */

/* mxv, pull: row i of A against u, t(i) = (+)_k A(i, k) (x) u(k) in ascending k, from the
 * first term, stopping at the monoid's terminal (or after the first term when it is the
 * sum: MIN.SECONDI over a sorted row). Output bits must start clear. */
template <class Add, class Mul, class Z, bool FirstIsSum>
EB_HD void eb_mxv_pull_row(const EbOpParams *p, uint64_t i) {
    if (!eb_mask_allows(p, i)) return;
    uint64_t lo = p->a.offsets[i], hi = p->a.offsets[i + 1];
    bool has = false;
    Z s = Add::identity();
    for (uint64_t e = lo; e < hi; e++) {
        uint32_t k = p->a.indices[e];
        if (!eb_bit(p->u_bits, k)) continue;
        Z av = Mul::reads_a ? eb_load<Z>(p->a_values, e) : Z();
        Z uv = Mul::reads_u ? eb_load<Z>(p->u_values, k) : Z();
        Z term = Mul::apply(av, uv, k);
        s = has ? Add::combine(s, term) : term;
        has = true;
        if (FirstIsSum || Add::terminal(s)) break;
    }
    if (has) {
        ((Z *)p->w_values)[i] = s;
        eb_set_bit(p->w_bits, i);
    }
}

/* vxm, push, before the scatter: every output slot at the monoid's identity. */
template <class Add, class Z> EB_HD void eb_vxm_init_slot(const EbOpParams *p, uint64_t j) {
    ((Z *)p->w_values)[j] = Add::identity();
}

/* vxm, push: entry e of u's list (index k) scatters A(k, j) (x) u(k) to every j of row k
 * the mask allows. Under ANY, pass 0 keeps the smallest k per j and pass 1 writes that
 * k's term (so the result is the first term in ascending k, as on the CPU). */
template <class Add, class Mul, class Z> EB_HD void eb_vxm_push_entry(const EbOpParams *p, uint64_t e) {
    uint32_t k = p->list[e];
    Z uv = Mul::reads_u ? eb_load<Z>(p->u_values, k) : Z();
    for (uint64_t x = p->a.offsets[k]; x < p->a.offsets[k + 1]; x++) {
        uint32_t j = p->a.indices[x];
        if (!eb_mask_allows(p, j)) continue;
        if (Add::any && p->pass == 0) {
            eb_atomic_min_u32(&p->stamp[j], k);
            continue;
        }
        if (Add::any && p->stamp[j] != k) continue;
        Z av = Mul::reads_a ? eb_load<Z>(p->a_values, x) : Z();
        Z term = Mul::apply(av, uv, k);
        if (Add::any) ((Z *)p->w_values)[j] = term;
        else eb_atomic_combine<Add, Z>(&((Z *)p->w_values)[j], term);
        eb_set_bit(p->w_bits, j);
    }
}

/* The write-back of word wi: w<m> = w (.) t, t in (v_bits, v_values); z = accum(w, t)
 * where both are present, t where only t is (the accumulator's union), w where only w
 * is (with an accumulator; without one, w(i) is deleted where t has nothing); outside
 * the mask w is kept, or deleted under replace. */
template <class Z> EB_HD void eb_write_word(const EbOpParams *p, uint64_t wi) {
    uint32_t wb = p->w_bits[wi], tb = p->v_bits[wi];
    Z *wv = (Z *)p->w_values;
    const Z *tv = (const Z *)p->v_values;
    for (uint32_t b = 0; b < 32; b++) {
        uint64_t i = wi * 32 + b;
        if (i >= p->n) break;
        uint32_t bit = 1u << b;
        if (eb_mask_allows(p, i)) {
            if (tb & bit) {
                if (wv) wv[i] = (p->op != EB_OP_NONE && (wb & bit)) ? eb_binop<Z>(p->op, wv[i], tv[i]) : tv[i];
                wb |= bit;
            } else if (p->op == EB_OP_NONE) {
                wb &= ~bit;
            }
        } else if (p->replace) {
            wb &= ~bit;
        }
    }
    p->w_bits[wi] = wb;
}

/* ewise_add, word wi: t = op(u, v) where both are present, the present one elsewhere. */
template <class Z> EB_HD void eb_ewise_add_word(const EbOpParams *p, uint64_t wi) {
    uint32_t ub = p->u_bits[wi], vb = p->v_bits[wi];
    const Z *uv = (const Z *)p->u_values, *vv = (const Z *)p->v_values;
    Z *tv = (Z *)p->w_values;
    if (tv) {
        for (uint32_t b = 0; b < 32; b++) {
            uint64_t i = wi * 32 + b;
            if (i >= p->n) break;
            uint32_t bit = 1u << b;
            if ((ub & bit) && (vb & bit)) tv[i] = eb_binop<Z>(p->op, uv[i], vv[i]);
            else if (ub & bit) tv[i] = uv[i];
            else if (vb & bit) tv[i] = vv[i];
        }
    }
    p->w_bits[wi] = ub | vb;
}

/* ewise_mult, word wi: t = op(u, v) where both are present. */
template <class Z> EB_HD void eb_ewise_mult_word(const EbOpParams *p, uint64_t wi) {
    uint32_t both = p->u_bits[wi] & p->v_bits[wi];
    const Z *uv = (const Z *)p->u_values, *vv = (const Z *)p->v_values;
    Z *tv = (Z *)p->w_values;
    if (tv) {
        for (uint32_t b = 0; b < 32; b++) {
            uint64_t i = wi * 32 + b;
            if (i >= p->n) break;
            if (both & (1u << b)) tv[i] = eb_binop<Z>(p->op, uv[i], vv[i]);
        }
    }
    p->w_bits[wi] = both;
}

/* apply, word wi: t = f(u) where u is present. */
template <class Z> EB_HD void eb_apply_word(const EbOpParams *p, uint64_t wi) {
    uint32_t ub = p->u_bits[wi];
    const Z *uv = (const Z *)p->u_values;
    Z *tv = (Z *)p->w_values;
    if (tv) {
        for (uint32_t b = 0; b < 32; b++) {
            uint64_t i = wi * 32 + b;
            if (i >= p->n) break;
            if (ub & (1u << b)) tv[i] = eb_unary<Z>(p, uv[i]);
        }
    }
    p->w_bits[wi] = ub;
}

/* select, word wi: t = u where the predicate p->op (EB_SELECT_*) holds. */
template <class Z> EB_HD void eb_select_word(const EbOpParams *p, uint64_t wi) {
    uint32_t ub = p->u_bits[wi], keep = 0;
    const Z *uv = (const Z *)p->u_values;
    Z *tv = (Z *)p->w_values;
    union { uint64_t u; Z z; } c;
    c.u = p->scalar;
    Z s = c.z;
    for (uint32_t b = 0; b < 32; b++) {
        uint64_t i = wi * 32 + b;
        if (i >= p->n) break;
        if (!(ub & (1u << b))) continue;
        bool k;
        switch (p->op) {
        case EB_SELECT_VALUE_EQ: k = uv && uv[i] == s; break;
        case EB_SELECT_VALUE_NE: k = uv && uv[i] != s; break;
        case EB_SELECT_VALUE_LT: k = uv && uv[i] < s; break;
        case EB_SELECT_VALUE_LE: k = uv && uv[i] <= s; break;
        case EB_SELECT_VALUE_GT: k = uv && uv[i] > s; break;
        case EB_SELECT_VALUE_GE: k = uv && uv[i] >= s; break;
        case EB_SELECT_INDEX_LT: k = i < (uint32_t)p->scalar; break;
        default: k = i >= (uint32_t)p->scalar; break;
        }
        if (k) {
            if (tv) tv[i] = uv[i];
            keep |= 1u << b;
        }
    }
    p->w_bits[wi] = keep;
}

/* assign_scalar, word wi: t = the scalar (p->scalar's bits) at every index. */
template <class Z> EB_HD void eb_fill_word(const EbOpParams *p, uint64_t wi) {
    Z *tv = (Z *)p->w_values;
    union { uint64_t u; Z z; } c;
    c.u = p->scalar;
    uint32_t bits = 0;
    for (uint32_t b = 0; b < 32; b++) {
        uint64_t i = wi * 32 + b;
        if (i >= p->n) break;
        if (tv) tv[i] = c.z;
        bits |= 1u << b;
    }
    p->w_bits[wi] = bits;
}

/* extract, word wi: t(i) = u(I(i)) where u(I(i)) is present, I in p->list (p->n
 * entries, each below u's length: the caller checks). A gather: every output word is
 * written by one thread, so no atomics. */
template <class Z> EB_HD void eb_gather_word(const EbOpParams *p, uint64_t wi) {
    const Z *uv = (const Z *)p->u_values;
    Z *tv = (Z *)p->w_values;
    uint32_t keep = 0;
    for (uint32_t b = 0; b < 32; b++) {
        uint64_t i = wi * 32 + b;
        if (i >= p->n) break;
        uint32_t j = p->list[i];
        if (!eb_bit(p->u_bits, j)) continue;
        if (tv) tv[i] = uv[j];
        keep |= 1u << b;
    }
    p->w_bits[wi] = keep;
}

/* assign_reduce, entry i of u (p->items = u's length): t(I(i)) (+)= u(i), I in p->list.
 * t's slots start at the monoid's identity (eb_vxm_init_slot) and its bits clear; the
 * terms that land on one slot meet by compare-and-swap, in any order, so only monoids
 * whose result does not depend on the order are instantiated (build.rs). */
template <class Add, class Z> EB_HD void eb_scatter_entry(const EbOpParams *p, uint64_t i) {
    if (!eb_bit(p->u_bits, i)) return;
    uint32_t j = p->list[i];
    eb_atomic_combine<Add, Z>(&((Z *)p->w_values)[j], ((const Z *)p->u_values)[i]);
    eb_set_bit(p->w_bits, j);
}

/* reduce, segment s: the monoid sum of u's entries s * EB_REDUCE_SEG .. in index order,
 * from the first, stopping at the terminal; into w(s) (absent when there is none). The
 * segments' sums are reduced again the same way until one is left. */
template <class Add, class Z> EB_HD void eb_reduce_segment(const EbOpParams *p, uint64_t s) {
    uint64_t lo = s * EB_REDUCE_SEG, hi = lo + EB_REDUCE_SEG;
    if (hi > p->n) hi = p->n;
    const Z *uv = (const Z *)p->u_values;
    bool has = false;
    Z acc = Add::identity();
    for (uint64_t i = lo; i < hi; i++) {
        if (!eb_bit(p->u_bits, i)) continue;
        acc = has ? Add::combine(acc, uv[i]) : uv[i];
        has = true;
        if (Add::terminal(acc)) break;
    }
    if (has) {
        ((Z *)p->w_values)[s] = acc;
        eb_set_bit(p->w_bits, s);
    }
}

/* ---- matrices --------------------------------------------------------------------- */
/* The matrix families build a CSR result in two passes where its size is not known:
 * pass 0 counts each row's entries into `counts`, the host scans them into `c_offsets`,
 * pass 1 writes the row at its offset. One thread per row, so a row's terms are combined
 * in ascending inner index k, from the first, exactly as the CPU's `ops::mxm` does. */

/* Whether entry e of the mask matrix counts: a structural mask, a pattern, or a true
 * value. */
EB_HD bool eb_mmask_entry(const EbOpParams *p, uint64_t e) {
    return (p->m_flags & EB_MASK_STRUCTURE) || !p->m_values || eb_truthy(p->m_values, p->m_type, e);
}

/* Whether the operation may write position (i, j) under the matrix mask. */
EB_HD bool eb_mmask_allows(const EbOpParams *p, uint64_t i, uint32_t j) {
    if (!(p->m_flags & EB_MASK_ON)) return true;
    uint64_t lo = p->mm.offsets[i], end = p->mm.offsets[i + 1], hi = end;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (p->mm.indices[mid] < j) lo = mid + 1;
        else hi = mid;
    }
    bool in = lo < end && p->mm.indices[lo] == j && eb_mmask_entry(p, lo);
    return in != ((p->m_flags & EB_MASK_COMPLEMENT) != 0);
}

/* Sorts n (key, value) pairs by key (the keys of a row are distinct; `v` may be null):
 * insertion for a short row, heapsort for a long one; nothing when already sorted (a
 * transpose on the host places rows in order). */
template <class Z> EB_HD void eb_sort_pairs(uint32_t *k, Z *v, uint64_t n) {
    bool sorted = true;
    for (uint64_t x = 1; x < n && sorted; x++) sorted = k[x - 1] < k[x];
    if (sorted) return;
    if (n <= EB_INSERTION_SORT) {
        for (uint64_t x = 1; x < n; x++) {
            uint32_t key = k[x];
            Z val = v ? v[x] : Z();
            uint64_t y = x;
            while (y > 0 && k[y - 1] > key) {
                k[y] = k[y - 1];
                if (v) v[y] = v[y - 1];
                y--;
            }
            k[y] = key;
            if (v) v[y] = val;
        }
        return;
    }
    /* Heapsort: sift down from `root` within `len`. */
    for (uint64_t start = n / 2; start-- > 0;) {
        uint64_t root = start;
        for (;;) {
            uint64_t c = 2 * root + 1;
            if (c >= n) break;
            if (c + 1 < n && k[c + 1] > k[c]) c++;
            if (k[root] >= k[c]) break;
            uint32_t tk = k[root]; k[root] = k[c]; k[c] = tk;
            if (v) { Z tv = v[root]; v[root] = v[c]; v[c] = tv; }
            root = c;
        }
    }
    for (uint64_t end = n; end-- > 1;) {
        uint32_t tk = k[0]; k[0] = k[end]; k[end] = tk;
        if (v) { Z tv = v[0]; v[0] = v[end]; v[end] = tv; }
        uint64_t root = 0;
        for (;;) {
            uint64_t c = 2 * root + 1;
            if (c >= end) break;
            if (c + 1 < end && k[c + 1] > k[c]) c++;
            if (k[root] >= k[c]) break;
            uint32_t t2 = k[root]; k[root] = k[c]; k[c] = t2;
            if (v) { Z tv = v[root]; v[root] = v[c]; v[c] = tv; }
            root = c;
        }
    }
}

/* Row r of the output: its indices sorted, values carried along. */
template <class Z> EB_HD void eb_sort_row(const EbOpParams *p, uint64_t r) {
    uint64_t lo = p->c_offsets[r], hi = p->c_offsets[r + 1];
    eb_sort_pairs<Z>(p->c_indices + lo, p->c_values ? (Z *)p->c_values + lo : (Z *)0, hi - lo);
}

/* CDLP (Graphalytics label propagation), row i of the count matrix M (u32 values:
 * how often each neighbour counts, 2 for one both ways): w(i) = the label (u's value)
 * with the largest total count over the row, the smallest such label on a tie; a row
 * without entries keeps u(i). The row's (label, count) pairs are sorted by label in
 * its own positions of the workspace (ws_keys, and u64 counts in ws_values: nnz slots
 * each), then summed run by run. The mode is no monoid, so this is one kernel of its
 * own rather than a product (LAGraph's CDLP sorts and scans rows as well). */
EB_HD void eb_cdlp_mode_row(const EbOpParams *p, uint64_t i) {
    const uint32_t *label = (const uint32_t *)p->u_values;
    uint32_t *out = (uint32_t *)p->w_values;
    uint64_t lo = p->a.offsets[i], hi = p->a.offsets[i + 1], n = hi - lo;
    if (n == 0) {
        out[i] = label[i];
        return;
    }
    uint32_t *k = p->ws_keys + lo;
    uint64_t *c = (uint64_t *)p->ws_values + lo;
    for (uint64_t e = 0; e < n; e++) {
        k[e] = label[p->a.indices[lo + e]];
        c[e] = ((const uint32_t *)p->a_values)[lo + e];
    }
    eb_sort_pairs<uint64_t>(k, c, n);
    uint32_t best = k[0];
    uint64_t best_count = 0;
    for (uint64_t x = 0; x < n;) {
        uint32_t l = k[x];
        uint64_t sum = 0;
        for (; x < n && k[x] == l; x++) sum += c[x];
        if (sum > best_count) {
            best_count = sum;
            best = l;
        }
    }
    out[i] = best;
}

/* transpose, step 1, row i of A: counts[j] += 1 for every entry A(i, j). */
EB_HD void eb_transpose_count_row(const EbOpParams *p, uint64_t i) {
    for (uint64_t e = p->a.offsets[i]; e < p->a.offsets[i + 1]; e++)
        eb_atomic_add_u64(&p->counts[p->a.indices[e]], 1);
}

/* transpose, step 2, row i of A: entry A(i, j) goes to the next free slot of row j of
 * A' (`counts`: the cursors, starting at the offsets). On the device the slots of a row
 * come in any order: step 3 sorts each row (eb_sort_row). */
template <class Z> EB_HD void eb_transpose_place_row(const EbOpParams *p, uint64_t i) {
    for (uint64_t e = p->a.offsets[i]; e < p->a.offsets[i + 1]; e++) {
        uint64_t slot = eb_atomic_add_u64(&p->counts[p->a.indices[e]], 1);
        p->c_indices[slot] = (uint32_t)i;
        if (p->c_values) ((Z *)p->c_values)[slot] = ((const Z *)p->a_values)[e];
    }
}

/* saxpy, step 1, row i: the workspace slots the row needs (counts[i]): as many as B has
 * columns (dense) when a hash table of twice the row's terms would be as large, else
 * that power of two. */
EB_HD void eb_saxpy_slots_row(const EbOpParams *p, uint64_t i) {
    uint64_t terms = 0;
    for (uint64_t e = p->a.offsets[i]; e < p->a.offsets[i + 1]; e++) {
        uint32_t k = p->a.indices[e];
        terms += p->b.offsets[k + 1] - p->b.offsets[k];
    }
    uint64_t ncols = p->b.ncols, cap = 0;
    if (terms > 0) {
        cap = 1;
        while (cap < 2 * terms && cap < ncols) cap <<= 1;
        if (cap >= ncols) cap = ncols;
    }
    p->counts[i] = cap;
}

/* saxpy, step 2, row i: T(i, j) = (+)_k A(i, k) (x) B(k, j) over the positions the mask
 * allows, the terms in ascending k (A's row is sorted) from the first, into the row's
 * workspace; counts[i] = the row's entries. The workspace keys start empty. */
template <class Add, class Mul, class Z, bool FirstIsSum>
EB_HD void eb_saxpy_row(const EbOpParams *p, uint64_t i) {
    uint64_t lo = p->ws_offsets[i], cap = p->ws_offsets[i + 1] - lo;
    uint64_t n = 0;
    if (cap > 0) {
        bool dense = cap == p->b.ncols;
        uint32_t *keys = p->ws_keys + lo;
        Z *vals = (Z *)p->ws_values + lo;
        for (uint64_t e = p->a.offsets[i]; e < p->a.offsets[i + 1]; e++) {
            uint32_t k = p->a.indices[e];
            Z av = Mul::reads_a ? eb_load<Z>(p->a_values, e) : Z();
            for (uint64_t x = p->b.offsets[k]; x < p->b.offsets[k + 1]; x++) {
                uint32_t j = p->b.indices[x];
                uint64_t s;
                if (dense) {
                    s = j;
                } else {
                    uint32_t h = j * 0x9E3779B1u;
                    s = (h ^ (h >> 16)) & (cap - 1);
                    while (keys[s] != EB_WS_EMPTY && keys[s] != j) s = (s + 1) & (cap - 1);
                }
                if (keys[s] == j) {
                    if (!FirstIsSum) {
                        Z bv = Mul::reads_u ? eb_load<Z>(p->b_values, x) : Z();
                        vals[s] = Add::combine(vals[s], Mul::apply(av, bv, k));
                    }
                } else if (eb_mmask_allows(p, i, j)) {
                    Z bv = Mul::reads_u ? eb_load<Z>(p->b_values, x) : Z();
                    keys[s] = j;
                    vals[s] = Mul::apply(av, bv, k);
                    n++;
                }
            }
        }
    }
    p->counts[i] = n;
}

/* saxpy, step 3, row i: the workspace's entries into the output row, sorted. */
template <class Z> EB_HD void eb_saxpy_gather_row(const EbOpParams *p, uint64_t i) {
    uint64_t lo = p->ws_offsets[i], cap = p->ws_offsets[i + 1] - lo;
    uint64_t out = p->c_offsets[i], n = 0;
    const uint32_t *keys = p->ws_keys + lo;
    const Z *vals = (const Z *)p->ws_values + lo;
    Z *cv = (Z *)p->c_values;
    for (uint64_t s = 0; s < cap; s++) {
        if (keys[s] == EB_WS_EMPTY) continue;
        p->c_indices[out + n] = keys[s];
        if (cv) cv[out + n] = vals[s];
        n++;
    }
    if (cap != p->b.ncols) eb_sort_pairs<Z>(p->c_indices + out, cv ? cv + out : (Z *)0, n);
}

/* The dot product A(i, :) . B'(j, :) (b holds the rows of B'): the terms of the common
 * k in ascending order, from the first, stopping at the monoid's terminal value (or at
 * the first term: `first`, which the count pass asks for). A row ten times longer than
 * the other is searched instead of merged. Returns whether there was a term. */
template <class Add, class Mul, class Z, bool FirstIsSum>
EB_HD bool eb_dot(const EbOpParams *p, uint64_t i, uint32_t j, bool first, Z *out) {
    uint64_t pa = p->a.offsets[i], ea = p->a.offsets[i + 1];
    uint64_t pb = p->b.offsets[j], eb = p->b.offsets[j + 1];
    if (pa == ea || pb == eb) return false;
    const uint32_t *ai = p->a.indices, *bi = p->b.indices;
    if (ai[ea - 1] < bi[pb] || bi[eb - 1] < ai[pa]) return false;
    bool has = false;
    Z s = Add::identity();
    uint64_t la = ea - pa, lb = eb - pb;
    while (pa < ea && pb < eb) {
        uint32_t x = ai[pa], y = bi[pb];
        if (x < y) {
            if (la > 8 * lb) {
                /* first index of a at or after y */
                uint64_t lo = pa + 1, hi = ea;
                while (lo < hi) { uint64_t m = lo + (hi - lo) / 2; if (ai[m] < y) lo = m + 1; else hi = m; }
                pa = lo;
            } else {
                pa++;
            }
            continue;
        }
        if (y < x) {
            if (lb > 8 * la) {
                uint64_t lo = pb + 1, hi = eb;
                while (lo < hi) { uint64_t m = lo + (hi - lo) / 2; if (bi[m] < x) lo = m + 1; else hi = m; }
                pb = lo;
            } else {
                pb++;
            }
            continue;
        }
        if (first) return true;
        Z av = Mul::reads_a ? eb_load<Z>(p->a_values, pa) : Z();
        Z bv = Mul::reads_u ? eb_load<Z>(p->b_values, pb) : Z();
        Z term = Mul::apply(av, bv, x);
        s = has ? Add::combine(s, term) : term;
        has = true;
        if (FirstIsSum || Add::terminal(s)) break;
        pa++;
        pb++;
    }
    if (has) *out = s;
    return has;
}

/* The masked dot product, row i: T(i, j) for the (i, j) of an uncomplemented mask (its
 * true entries when valued). Pass 0 counts the entries that have a term, pass 1 writes
 * them in the mask's (sorted) order. */
template <class Add, class Mul, class Z, bool FirstIsSum>
EB_HD void eb_dot_row(const EbOpParams *p, uint64_t i) {
    uint64_t n = 0, out = p->pass ? p->c_offsets[i] : 0;
    for (uint64_t e = p->mm.offsets[i]; e < p->mm.offsets[i + 1]; e++) {
        if (!eb_mmask_entry(p, e)) continue;
        uint32_t j = p->mm.indices[e];
        Z z = Z();
        if (!eb_dot<Add, Mul, Z, FirstIsSum>(p, i, j, p->pass == 0, &z)) continue;
        if (p->pass) {
            p->c_indices[out + n] = j;
            ((Z *)p->c_values)[out + n] = z;
        }
        n++;
    }
    if (!p->pass) p->counts[i] = n;
}

/* The matrix write-back, row i: C<M> = C (.) T with C's old row in `a` and T's in `b`,
 * as the vector write-back: accum(C, T) where both are present, T where only T is, C
 * where only C is (with an accumulator; without one, C(i, j) is deleted where T has
 * nothing); outside the mask C is kept, or deleted under replace. Pass 0 counts the
 * row's entries, pass 1 writes them. */
template <class Z> EB_HD void eb_matrix_write_row(const EbOpParams *p, uint64_t i) {
    uint64_t x = p->a.offsets[i], xe = p->a.offsets[i + 1];
    uint64_t y = p->b.offsets[i], ye = p->b.offsets[i + 1];
    uint64_t n = 0, out = p->pass ? p->c_offsets[i] : 0;
    const Z *cv = (const Z *)p->a_values, *tv = (const Z *)p->b_values;
    Z *ov = (Z *)p->c_values;
    while (x < xe || y < ye) {
        uint32_t jx = x < xe ? p->a.indices[x] : 0xFFFFFFFFu;
        uint32_t jy = y < ye ? p->b.indices[y] : 0xFFFFFFFFu;
        bool old = x < xe && jx <= jy, neu = y < ye && jy <= jx;
        uint32_t j = old ? jx : jy;
        uint64_t xo = x, yo = y;
        if (old) x++;
        if (neu) y++;
        /* 0: nothing, 1: the old value, 2: the new one, 3: accum(old, new). */
        int keep;
        if (eb_mmask_allows(p, i, j)) {
            if (p->op != EB_OP_NONE) keep = old && neu ? 3 : old ? 1 : 2;
            else keep = neu ? 2 : 0;
        } else {
            keep = p->replace ? 0 : old ? 1 : 0;
        }
        if (!keep) continue;
        if (p->pass) {
            p->c_indices[out + n] = j;
            if (ov) ov[out + n] = keep == 1 ? cv[xo] : keep == 2 ? tv[yo] : eb_binop<Z>(p->op, cv[xo], tv[yo]);
        }
        n++;
    }
    if (!p->pass) p->counts[i] = n;
}

#endif
