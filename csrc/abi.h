/* The parameter structs and constants shared by the Rust side (through bindgen) and
 * the CUDA kernels. Plain C: fixed-width integers and pointers only, so both compilers
 * agree on the layout (bindgen's layout tests check it on the Rust side). */
#ifndef EDGEBLAS_ABI_H
#define EDGEBLAS_ABI_H

#include <stdint.h>

/* The marker of an unreached vertex, in levels and parents alike. */
#define EB_UNREACHED 0xFFFFFFFFu
/* Threads per block of every kernel. */
#define EB_BLOCK 256
/* Push: a frontier vertex of more out-arcs than this is expanded by a whole block, the
 * others by one warp each. */
#define EB_BIG_DEGREE 2048u
/* Bellman-Ford: the empty value of a tentative distance (the ordered bits of +inf
 * are below it). */
static const uint64_t EB_EMPTY_KEY = 0xFFFFFFFFFFFFFFFFull;

/* A CSR matrix on the device: `nrows + 1` offsets, `offsets[nrows]` column indices. */
typedef struct EbCsr {
    const uint64_t *offsets;
    const uint32_t *indices;
    uint32_t nrows;
    uint32_t ncols;
} EbCsr;

/* What one BFS level reports back: the one small read back per level. */
typedef struct EbLevelCounters {
    /* Vertices of the new frontier. */
    uint64_t vertices;
    /* Sum of their out-degrees. */
    uint64_t out_edges;
    /* Arcs looked at (pull, when asked for). */
    uint64_t examined;
    /* Entries of the new frontier's big-vertex list (push). */
    uint64_t big;
    /* Nonzero once the target vertex is reached. */
    uint64_t target_found;
} EbLevelCounters;

/* The state of a search, shared by every level kernel. */
typedef struct EbBfsState {
    /* Out-arcs (push) and the out-degrees of every direction. */
    EbCsr a;
    /* In-arcs (pull): `a` itself for a symmetric graph. */
    EbCsr at;
    uint32_t *levels;
    uint32_t *parents;
    /* The vertex whose discovery ends the search, or EB_UNREACHED. */
    uint32_t target;
    /* 1: pull counts the arcs it examines (for the trace). */
    uint32_t count_examined;
} EbBfsState;

/* One push level: expand `frontier` (and its big vertices, `big`), write the next
 * frontier to `next` and its big vertices to `next_big`. */
typedef struct EbPushParams {
    EbBfsState s;
    const uint32_t *frontier;
    const uint32_t *big;
    uint32_t *next;
    uint32_t *next_big;
    EbLevelCounters *counters;
    uint32_t frontier_len;
    uint32_t big_len;
    uint32_t next_depth;
    uint32_t pad;
} EbPushParams;

/* One pull level: every unvisited vertex looks for a parent in `frontier_bits` (one bit
 * per vertex, 32 per word) and joins `next_bits`, and the queue `next` (with its big
 * vertices in `next_big`), so that either direction can follow without a conversion. */
typedef struct EbPullParams {
    EbBfsState s;
    const uint32_t *frontier_bits;
    uint32_t *next_bits;
    uint32_t *next;
    uint32_t *next_big;
    EbLevelCounters *counters;
    uint32_t next_depth;
    uint32_t pad;
} EbPullParams;

/* Frontier conversion: a queue to bits (`bits` zeroed first), or bits to a queue with
 * its big-vertex list (out-degrees from `a_offsets`; none when it is null). */
typedef struct EbConvertParams {
    const uint64_t *a_offsets;
    uint32_t *queue;
    uint32_t *big;
    uint32_t *bits;
    EbLevelCounters *counters;
    uint32_t queue_len;
    uint32_t nwords;
} EbConvertParams;

/* The first frontier: each source (duplicates allowed) at level 0, its own parent,
 * listed once in `queue` (and in `big` when its out-degree is above EB_BIG_DEGREE). */
typedef struct EbInitParams {
    EbBfsState s;
    const uint32_t *sources;
    uint32_t *queue;
    uint32_t *big;
    EbLevelCounters *counters;
    uint32_t sources_len;
    uint32_t pad;
} EbInitParams;

/* What one Bellman-Ford round reports back. */
typedef struct EbRelaxCounters {
    /* Vertices some arc of the round reached (candidates). */
    uint64_t touched;
    /* Vertices whose distance the round lowered: the next frontier. */
    uint64_t improved;
} EbRelaxCounters;

/* One Bellman-Ford round over MIN.PLUS, with the argmin: the frontier (vertices changed
 * last round) relaxes its out-arcs; `key[v]` collects the smallest candidate distance
 * (as ordered bits), `arg[v]` the smallest vertex giving it; `commit` keeps the
 * improvements. */
typedef struct EbRelaxParams {
    EbCsr a;
    const double *weights;
    const uint32_t *frontier;
    double *dist;
    uint32_t *pred;
    uint64_t *key;
    uint32_t *arg;
    uint32_t *touched;
    uint32_t *next;
    EbRelaxCounters *counters;
    uint32_t frontier_len;
    uint32_t touched_len;
} EbRelaxParams;

/* Fill `n` words with `value`. */
typedef struct EbFillParams {
    uint32_t *dst;
    uint64_t n;
    uint32_t value;
    uint32_t pad;
} EbFillParams;

/* Chung-Lu generation. A task T(i, j) as the kernels see it: its pair range cut into
 * chunks, each with its own random stream (seed, task id, chunk), and where its pairs'
 * positions start in the vertex order (rows of group i, columns of group j). */
#define EB_CL_INTRA 0u
#define EB_CL_INTER 1u
#define EB_CL_ARCS 2u

typedef struct EbClTask {
    uint64_t id;
    uint64_t pairs;
    uint64_t chunk_pairs;
    uint64_t first_chunk;
    uint64_t row_start;
    uint64_t col_start;
    /* Vertices of the column group (inter and arc tasks). */
    uint64_t width;
    double p;
    double inv_log_q;
    uint32_t kind;
    /* 1 when p == 1: every pair is an edge. */
    uint32_t dense;
} EbClTask;

/* One pass (count or fill) over the chunks `chunk_begin..chunk_end`: by the uniform
 * static schedule when `lane_bounds` is null (thread t takes chunks begin + t, begin + t
 * + threads, ...), or the load-balanced one (thread t takes lane_bounds[t] ..
 * lane_bounds[t + 1], ranges of equal cost under c = alpha + beta m). */
typedef struct EbClParams {
    const EbClTask *tasks;
    /* Vertex at each row position, or null for the identity. */
    const uint32_t *row_members;
    /* Vertex at each column position, or null: then `col_reversed` says whether position
     * k is vertex n - 1 - k, else k. */
    const uint32_t *col_members;
    const uint64_t *lane_bounds;
    /* Count pass: entries per row (by vertex). */
    uint64_t *degree;
    /* Fill pass: the next free slot of every row (by vertex), starting at its offset. */
    uint64_t *cursor;
    uint32_t *indices;
    uint64_t seed;
    uint64_t chunk_begin;
    uint64_t chunk_end;
    uint32_t ntasks;
    uint32_t n;
    uint32_t lanes;
    uint32_t col_reversed;
    uint32_t undirected;
    /* 0: count pass, 1: fill pass, 2: the walk alone (timing). */
    uint32_t fill;
} EbClParams;

/* Prefix sums of u64 values in blocks of EB_SCAN_BLOCK: `out[i + 1]` = sum of `in[0..=i]`
 * within the block, `sums[b]` = block b's total; then `out[i + 1] += base[b]`. */
#define EB_SCAN_BLOCK 2048u

typedef struct EbScanParams {
    const uint64_t *in;
    uint64_t *out;
    uint64_t *sums;
    const uint64_t *base;
    uint64_t len;
} EbScanParams;

/* Row sorting after the fill: rows of at most EB_SMALL_ROW entries are sorted by one
 * thread; the others are listed (`rows`, `counters[0]` of them, the longest
 * `counters[1]`) and sorted by merge passes of run width `width`, from `src` into
 * `dst`, one block per row. */
#define EB_SMALL_ROW 16u

typedef struct EbSortParams {
    const uint64_t *offsets;
    uint32_t *src;
    uint32_t *dst;
    uint32_t *rows;
    uint64_t *counters;
    uint64_t width;
    uint32_t nrows;
    uint32_t pad;
} EbSortParams;

/* The device algebra (csrc/ops.cuh, instantiated by build.rs): one parameter struct for
 * every kernel family. A vector is presence bits (32 per word) plus a slot per index
 * (`values`, null for a pattern vector). `items` is the launch's range: rows (pull),
 * entries of `list` (push), words (write-back, ewise, apply) or segments (reduce). */
#define EB_MASK_ON 1u
#define EB_MASK_STRUCTURE 2u
#define EB_MASK_COMPLEMENT 4u
/* Entries one thread of a reduction sums, in index order. */
#define EB_REDUCE_SEG 2048u

/* Value types, for a valued mask's truth test. */
#define EB_TYPE_UNIT 0u
#define EB_TYPE_BOOL 1u
#define EB_TYPE_U32 2u
#define EB_TYPE_U64 3u
#define EB_TYPE_I32 4u
#define EB_TYPE_I64 5u
#define EB_TYPE_F32 6u
#define EB_TYPE_F64 7u

/* Binary operators chosen at run time (accumulators, ewise, apply with a bound
 * operand); `EB_OP_NONE`: no accumulator. */
#define EB_OP_NONE 0u
#define EB_OP_FIRST 1u
#define EB_OP_SECOND 2u
#define EB_OP_PLUS 3u
#define EB_OP_TIMES 4u
#define EB_OP_MIN 5u
#define EB_OP_MAX 6u
#define EB_OP_MINUS 7u
#define EB_OP_RMINUS 8u
#define EB_OP_DIV 9u
#define EB_OP_RDIV 10u
#define EB_OP_ANY 11u
#define EB_OP_LOR 12u
#define EB_OP_LAND 13u
#define EB_OP_LXOR 14u
#define EB_OP_PAIR 15u

/* Unary operators of apply. */
#define EB_UNARY_IDENTITY 0u
#define EB_UNARY_AINV 1u
#define EB_UNARY_ABS 2u
#define EB_UNARY_ONE 3u
#define EB_UNARY_BIND_FIRST 4u
#define EB_UNARY_BIND_SECOND 5u

/* Predicates of select: the entry's value against the bound scalar, or its index
 * against the scalar's low 32 bits. */
#define EB_SELECT_VALUE_EQ 0u
#define EB_SELECT_VALUE_NE 1u
#define EB_SELECT_VALUE_LT 2u
#define EB_SELECT_VALUE_LE 3u
#define EB_SELECT_VALUE_GT 4u
#define EB_SELECT_VALUE_GE 5u
#define EB_SELECT_INDEX_LT 6u
#define EB_SELECT_INDEX_GE 7u

typedef struct EbOpParams {
    /* The matrix operand and its values (null: a pattern matrix). */
    EbCsr a;
    const void *a_values;
    /* First vector operand. */
    const uint32_t *u_bits;
    const void *u_values;
    /* Second operand: ewise's `v`, the write-back's `t`. */
    const uint32_t *v_bits;
    const void *v_values;
    /* The output. */
    uint32_t *w_bits;
    void *w_values;
    /* The mask (when `m_flags & EB_MASK_ON`), a vector of type `m_type`. */
    const uint32_t *m_bits;
    const void *m_values;
    /* Push: the entries of `u`, as indices. */
    const uint32_t *list;
    /* Push under ANY: the smallest inner index per output. */
    uint32_t *stamp;
    /* apply's bound operand, as the bits of a value of the vector's type. */
    uint64_t scalar;
    uint64_t items;
    /* Length of the vectors. */
    uint32_t n;
    uint32_t m_type;
    uint32_t m_flags;
    /* EB_OP_* (accumulator, ewise operator) or EB_UNARY_* (apply). */
    uint32_t op;
    /* apply's bound operator. */
    uint32_t op2;
    /* Write-back: delete what the mask does not allow. */
    uint32_t replace;
    /* Push under ANY: 0 finds the smallest inner index, 1 writes its term; the matrix
     * families: 0 counts a row's entries into `counts`, 1 writes them. */
    uint32_t pass;
    uint32_t pad;
    /* The matrix families (mxm, transpose, the matrix write-back). `b`: the second
     * operand (`B`'s rows for saxpy, `B'`'s for the dot product, `T` for the write-back,
     * whose `a` is the old `C`). */
    EbCsr b;
    const void *b_values;
    /* The matrix mask's structure (when `m_flags & EB_MASK_ON`); its values, type and
     * flags are `m_values`, `m_type` and `m_flags`. */
    EbCsr mm;
    /* The output matrix: offsets (the scan of the count pass), indices and values. */
    const uint64_t *c_offsets;
    uint32_t *c_indices;
    void *c_values;
    /* One counter per row (count passes, the transpose's cursors). */
    uint64_t *counts;
    /* saxpy's workspace: row i owns slots ws_offsets[i] .. ws_offsets[i + 1], a dense
     * one (slot j for column j) when it has as many slots as columns, else a hash
     * table (a power of two, at most half full). */
    const uint64_t *ws_offsets;
    uint32_t *ws_keys;
    void *ws_values;
} EbOpParams;

/* An empty slot of saxpy's workspace. */
#define EB_WS_EMPTY 0xFFFFFFFFu
/* A row sorted by one thread is sorted by insertion up to this length, else heapsort. */
#define EB_INSERTION_SORT 32u

#endif
