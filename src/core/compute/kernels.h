/* The compute-kernel table: the second versioned table of a backend, which
 * every backend fills completely (the core calls each entry without
 * checking).  The core plans the work (compute/index.c for gathers, compress and fills):
 * it drops and merges axes, checks sizes and allocates, so that a kernel
 * sees a few plain steps.  Adding an entry means adding it here and to
 * each backend's file.
 *
 * Every kernel runs on the queue it is given, in order with the queue's
 * other work, and may return before the work is done, except where an
 * entry says it waits.  All memory it touches is memory the queue's
 * kernels reach (the binding gives it arrays of the queue's context). */
#ifndef USMARRAY_CORE_COMPUTE_KERNELS_H
#define USMARRAY_CORE_COMPUTE_KERNELS_H

#include "core/compute/elementwise_catalogue.h"
#include "core/compute/library_kernels.h"
#include "core/compute/reduce_kernels.h"
#include "core/core.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UA_COMPUTE_OPS_VERSION 5

/* What an indexed kernel does for each element of its plan's shape, with
 * v the index element (int64) and a the array's element at
 * array + asteps + v * stride:
 *   GATHER   result <- a
 *   SCATTER  a <- result (where several elements name one a, one of
 *            them wins)
 *   OFFSETS  result (int64) += v * stride: index arrays combined into one
 *            of byte offsets, which a later GATHER or SCATTER takes with
 *            length 0 and stride 1. */
typedef enum ua_index_mode {
    UA_INDEX_GATHER,
    UA_INDEX_SCATTER,
    UA_INDEX_OFFSETS
} ua_index_mode;

/* An indexed kernel's plan: axes of the result's shape (length-1 axes
 * dropped, neighbours merged), steps in bytes.  Where length > 0, an index
 * v < 0 counts from the end (v + length) and one outside [-length, length)
 * is not used: the kernel records it, and the entry waits for the queue
 * and reports it.  Where length == 0 the index values are used as they
 * are. */
typedef struct ua_index_plan {
    int nd;
    ptrdiff_t shape[UA_MAXDIMS];
    ptrdiff_t rstep[UA_MAXDIMS]; /* result */
    ptrdiff_t astep[UA_MAXDIMS]; /* array, 0 along the index's axes */
    ptrdiff_t istep[UA_MAXDIMS]; /* index, 0 along the array's own axes */
    char *result;
    char *array;
    const char *index;
    ptrdiff_t length;
    ptrdiff_t stride;
    size_t itemsize; /* of result and array; 8 under OFFSETS */
} ua_index_plan;

/* A mask's true elements, in C order over the mask, written out densely:
 * where src is not NULL, row i (rowbytes bytes at src + i * sstep) of each
 * true element i; else the mask coordinates of each true element (nd
 * int64 per element, the mask's shape in shape).  The mask is n dense
 * bytes, any nonzero byte true. */
typedef struct ua_compress_plan {
    size_t n;
    const unsigned char *mask;
    const char *src;
    ptrdiff_t sstep;
    size_t rowbytes;
    int nd;
    ptrdiff_t shape[UA_MAXDIMS];
} ua_compress_plan;

/* Where a compress writes: called once with the number of true elements,
 * it gives memory for that many rows (or coordinate tuples), which the
 * queue's kernels reach; a status other than UA_OK ends the compress. */
typedef ua_status (*ua_compress_output)(void *ctx, size_t count, char **dst);

/* A dense vector of n elements of type, each a function of its index i:
 *   ARANGE    i == 0: first; i == 1: second; else first + i * (second -
 *             first) in the type's own arithmetic (integers wrap, float16
 *             computes in float32, complex types per part), as NumPy's
 *             arange fills;
 *   LINSPACE  (divide ? (i / div) * step : i * step) + start in double
 *             precision (complex parts alike), the last element stop
 *             where endpoint, then cast to type as astype does; each
 *             operation rounded on its own, as NumPy's linspace computes.
 * Integer values are in first.i and second.i, floating ones in .f. */
typedef enum ua_affine_mode {
    UA_AFFINE_ARANGE,
    UA_AFFINE_LINSPACE
} ua_affine_mode;
typedef union ua_affine_value {
    int64_t i;
    double f[2];
} ua_affine_value;
typedef struct ua_affine_plan {
    ua_affine_mode mode;
    char *dst;
    size_t n;
    ua_typenum type;
    ua_affine_value first, second;
    double start[2], step[2], stop[2], div;
    bool divide, endpoint;
} ua_affine_plan;

/* A dense batch of rows x cols matrices (C order) of elements of itemsize
 * bytes: where set_inside, the elements with lo <= col - row <= hi become
 * `inside`; where set_outside, the others become `outside` (eye, tril,
 * triu). */
typedef struct ua_band_plan {
    char *dst;
    size_t batch;
    ptrdiff_t rows, cols;
    ptrdiff_t lo, hi;
    size_t itemsize;
    bool set_inside, set_outside;
    unsigned char inside[16], outside[16];
} ua_band_plan;

/* An elementwise function of the catalogue (elementwise_catalogue.h)
 * over a planned layout.  For every index i of `shape` (C order; any order
 * of visiting is allowed) the kernel computes
 *     out[i] <- store(EXPR(load(in[0][i]), load(in[1][i]), load(in[2][i])))
 * where, for each of the nin operands k:
 *   - the element is read at in[k] + sum_d i_d * istep[k][d] (bytes; steps
 *     are 0 along broadcast axes and may be negative), or, where
 *     scalar[k], is the value held in value[k] (in[k] is then NULL and the
 *     steps 0: a Python scalar needs no device memory; kernels take it as
 *     an argument);
 *   - it is of dtype in_type[k] in memory and converted at load to the
 *     operand's type in EXPR: `compute` (T), except for the condition of
 *     UA_EW_SELECT (operand 0), converted to bool (non-zero is true).  The
 *     conversion is the copy engine's (astype, casting "unsafe"): complex
 *     to real keeps the real part, float to integer truncates (NaN and
 *     out of range as ua_copy_strided_host does), anything to bool tests
 *     for non-zero.  The planner sets in_type[k] == compute wherever the
 *     operand needs no conversion, and value[k] always holds `compute`'s
 *     bits (bool for SELECT's condition);
 * and the result of EXPR is stored at out + sum_d i_d * ostep[d] as
 * out_type, which is always the output type of the entry's rule for
 * `compute` (elementwise_catalogue.h): compute itself, bool (PREDICATE) or
 * compute's real type (TO_REAL); kernels may rely on it and convert no
 * result, except that float16 (computed in float32) is stored rounded to
 * nearest even.  Elements are not necessarily aligned to
 * their size (NumPy arrays at odd offsets); kernels that need alignment
 * test the pointers and steps and take their strided path otherwise.
 *
 * The plan is reduced: length-1 axes dropped, axes ordered by decreasing
 * |ostep| and neighbours that every operand walks as one merged, so that
 * nd <= UA_MAXDIMS and usually nd <= 2; size == product of shape > 0 (an
 * empty result never reaches a kernel).  Where `contiguous`, nd == 1,
 * ostep[0] == itemsize(out_type) and istep[k][0] == itemsize(in_type[k])
 * for every operand not scalar: a fast path without index arithmetic.
 * Where `small_index`, every byte offset that the plan reaches fits in
 * int32 (32-bit index arithmetic is enough).
 *
 * out never overlaps an input unless both walk the same elements in the
 * same order with the same dtype (in-place: x += y); the planner copies
 * any other overlapping input first.  The kernel runs on the queue in
 * order, and need not wait. */
#define UA_EW_MAX_OPERANDS 3

/* A fused expression (usmarray.fuse on a device that compiles kernels):
 * nodes evaluated in order in one kernel, each a catalogue function
 * computing in the plan's `compute` over the operands a, b, c
 * (UA_FUSED_INPUT(k)), earlier nodes (UA_FUSED_NODE(j)) and constants
 * (UA_FUSED_CONSTANT(c): `compute`'s bits, the low bytes); each node's
 * value is `compute`, or bool where its rule is UA_EW_PREDICATE, which
 * only a UA_EW_SELECT's condition reads.  The last node is the result.
 * Backends without a compiler leave fused plans to the caller (the host
 * evaluates the graph in blocks instead). */
#define UA_FUSED_MAX_NODES 64
#define UA_FUSED_MAX_CONSTANTS 32
#define UA_FUSED_INPUT(k) (k)
#define UA_FUSED_NODE(j) (0x100 + (j))
#define UA_FUSED_CONSTANT(c) (0x200 + (c))
/* A chain's row value of phase j before the node's (ua_fused_chain). */
#define UA_FUSED_ROW(j) (0x300 + (j))
#define UA_FUSED_MAX_PHASES 4
typedef struct ua_fused_node {
    ua_ew_id function;
    int operand[UA_EW_MAX_OPERANDS];
} ua_fused_node;
typedef struct ua_fused_expr {
    int count, nconst;
    ua_fused_node node[UA_FUSED_MAX_NODES];
    unsigned long long constant[UA_FUSED_MAX_CONSTANTS];
    uint64_t key; /* distinct expressions (and computation types): distinct
                   * keys */
    int nrow;     /* the row values (UA_FUSED_ROW) its nodes may read: a
               * chain's phase; 0 elsewhere */
} ua_fused_expr;
typedef struct ua_elementwise_plan {
    ua_ew_id function;
    int nin;            /* the entry's arity */
    ua_typenum compute; /* T */
    ua_typenum out_type;
    ua_typenum in_type[UA_EW_MAX_OPERANDS];
    bool scalar[UA_EW_MAX_OPERANDS];
    bool contiguous;
    bool small_index;
    int nd;
    size_t size;
    char *out;
    const char *in[UA_EW_MAX_OPERANDS];
    ptrdiff_t shape[UA_MAXDIMS];
    ptrdiff_t ostep[UA_MAXDIMS];
    ptrdiff_t istep[UA_EW_MAX_OPERANDS][UA_MAXDIMS];
    /* Scalar operands' values, in the bits of `compute` (native byte
     * order, the low bytes of the buffer). */
    union {
        unsigned char bytes[16];
        double align_;
    } value[UA_EW_MAX_OPERANDS];
    /* A fused expression in place of `function`, or NULL. */
    const ua_fused_expr *fused;
    /* 0, or a reduction of the fused expression's values (UA_EW_REDUCE_*):
     * the plan is then contiguous (every operand dense or a scalar; on the
     * host's loops, any layout, the walk's ostep aside), and out
     * receives the values' one value of out_type (MEAN: the sum divided
     * by their count; a compiling backend's kernel makes two launches,
     * the second reducing the first's UA_EW_REDUCE_PARTS partials).
     * Where row > 0, the values
     * are instead rows of row elements in the operands' C order (size a
     * multiple of row), out receives one value of out_type a row (MEAN:
     * the sum divided by row), and an operand marked per_row holds one
     * element a row, dense, which every element of its row reads; where
     * row == 0, an operand marked per_row is one element that every
     * value reads. */
    int reduce;
    ptrdiff_t row;
    bool per_row[UA_EW_MAX_OPERANDS];
    /* A reduction (or a chain whose last phase reduces): NULL, or an
     * expression of input 0 alone (the row's value, rounded to
     * out_type) and constants, which each row's value goes through before
     * it is written (row norms' square root), so that no second kernel
     * reads the rows' values back. */
    const ua_fused_expr *post;
    /* A chain over rows of row elements in place of fused (which is then
     * its last phase), or NULL: out receives the last phase's values,
     * dense in C order (or where that phase reduces, one value a row),
     * and every array operand has the values' shape. */
    const struct ua_fused_chain *chain;
} ua_elementwise_plan;
/* Fused expressions over each row of row elements, one group a row
 * (usmarray.fuse's softmax): each phase p but the last reduces its values
 * over the row (reduce[p], a UA_EW_REDUCE_*: in double, then rounded to
 * the computation type), which the later phases read as UA_FUSED_ROW(p);
 * the last phase's values are the result, or where the last reduces too
 * (reduce[count - 1] != 0: a variance) its row value, through the plan's
 * post.  The phases share the operands. */
typedef struct ua_fused_chain {
    int count;
    const ua_fused_expr *phase[UA_FUSED_MAX_PHASES];
    int reduce[UA_FUSED_MAX_PHASES];
    uint64_t key; /* of the phases' keys and reductions */
} ua_fused_chain;
#define UA_EW_REDUCE_SUM 1
#define UA_EW_REDUCE_MAX 2
#define UA_EW_REDUCE_MIN 3
#define UA_EW_REDUCE_MEAN 4 /* rows alone */
#define UA_EW_REDUCE_PARTS 1024

/* A kernel that a call composed of several will launch (ua_queue_prepare):
 *   SORT         the sort of rows of n elements of type (positions: an
 *                argsort)
 *   GATHER       a one-dimensional gather of elements of type
 *   GROUP        the groups of equal neighbours of sorted elements of type
 *   ELEMENTWISE  the kernel of plan (a fused expression's, its reduction's
 *                or chain's), whose data pointers it does not read */
typedef enum ua_prepare_kind {
    UA_PREPARE_SORT,
    UA_PREPARE_GATHER,
    UA_PREPARE_GROUP,
    UA_PREPARE_ELEMENTWISE
} ua_prepare_kind;
typedef struct ua_prepare_item {
    ua_prepare_kind kind;
    ua_typenum type;
    ptrdiff_t n;
    bool positions;
    const ua_elementwise_plan *plan;
} ua_prepare_item;

typedef struct ua_compute_ops {
    uint32_t version; /* UA_COMPUTE_OPS_VERSION */
    /* UA_ERR_INDEX when an index was out of bounds (*bad, one of those
     * found, then holds it); the array and result may then be partly
     * written. */
    ua_status (*index)(void *queue, ua_index_mode mode, const ua_index_plan *p,
                       int64_t *bad);
    /* Counts (waiting for the queue), asks out for memory, writes. */
    ua_status (*compress)(void *queue, const ua_compress_plan *p,
                          ua_compress_output out, void *ctx, size_t *count);
    ua_status (*affine)(void *queue, const ua_affine_plan *p);
    ua_status (*band)(void *queue, const ua_band_plan *p);
    /* One elementwise function over a plan (above).  A backend whose
     * kernels for a function or type are not built answers
     * UA_ERR_UNAVAILABLE saying so, having written nothing. */
    ua_status (*elementwise)(void *queue, const ua_elementwise_plan *p);

    /* Reductions, scans, sorting and products (plans in
     * reduce_kernels.h). */
    ua_status (*reduce)(void *queue, const ua_reduce_plan *p);
    ua_status (*scan)(void *queue, const ua_scan_plan *p);
    ua_status (*sort)(void *queue, const ua_sort_plan *p);
    ua_status (*search)(void *queue, const ua_search_plan *p);
    /* Waits for the queue: the number of groups sizes the results. */
    ua_status (*group)(void *queue, const ua_group_plan *p, ptrdiff_t *count);
    ua_status (*matmul)(void *queue, const ua_matmul_plan *p);

    /* The platform's libraries (plans in library_kernels.h): a backend
     * without one answers UA_ERR_UNAVAILABLE naming it, having written
     * nothing. */
    ua_status (*solver)(void *queue, const ua_solver_plan *p);
    ua_status (*fft)(void *queue, const ua_fft_plan *p);

    /* Makes ready, where the backend compiles kernels on first use, the
     * kernels of items, compiled side by side, so that a call composed
     * of several steps waits once for the compiler rather than once a
     * step; NULL where nothing compiles.  A failure leaves the steps to
     * compile their kernels (and report it) as they would. */
    ua_status (*prepare)(void *queue, const ua_prepare_item *items, int n);
} ua_compute_ops;

/* The table that runs q's work: its backend's (route.c). */
const ua_compute_ops *ua_queue_kernels(const ua_queue *q);
/* The table that runs q's kernels (elementwise functions, gathers and
 * scatters, compress, fills, reductions, scans, sorts, searches, groups
 * and products): the host backend's for a CPU device of another backend,
 * whose memory the host addresses, after waiting for q's earlier work;
 * such a device compiles nothing (USMARRAY_DEVICE_KERNELS=1 keeps its
 * own kernels). */
ua_status ua_queue_compute_kernels(ua_queue *q, const ua_compute_ops **ops);
/* That table, decided without waiting. */
const ua_compute_ops *ua_queue_compute_table(const ua_queue *q);
/* Whether a table is the CPU backend's (loops on this process's memory,
 * the host sort's scratch among what they use). */
bool ua_compute_on_cpu(const ua_compute_ops *ops);
/* Whether d's queues run their kernels on the CPU backend's table (the
 * host, and a CPU device of another backend unless
 * USMARRAY_DEVICE_KERNELS=1): what usmarray.fuse plans for. */
bool ua_device_runs_host_loops(const ua_device *d);
/* The table that runs q's library calls: the host backend's for every
 * CPU device (whatever USMARRAY_DEVICE_KERNELS says: there are no device
 * kernels of these), after waiting for q's earlier work. */
ua_status ua_queue_library_kernels(ua_queue *q, const ua_compute_ops **ops);

#ifdef __cplusplus
}
#endif

#endif /* USMARRAY_CORE_COMPUTE_KERNELS_H */
