/* The host's reductions over dense float32, float64, int64 and uint64
 * runs, which most calls are: sum, mean, min and max of a contiguous run
 * (sum(x)), or of dense rows into as many outputs (sum(m, axis=0)), and
 * argmin and argmax of a contiguous run.
 *
 * They take the order of host_reduce.c's general grid exactly, so that a
 * result has the same bits whichever path computed it: a run is split into
 * SPLIT interleaved lanes, each lane adds blocks of BLOCK elements in
 * sequence whose sums meet in a binary counter, the lanes fold as a tree
 * and the tail follows in sequence; outputs along rows are lanes of their
 * own.  The loops differ only in that their lane count, step and type are
 * known to the compiler, which then keeps the lanes in vector registers;
 * each is cloned for the CPU's vector extensions and chosen at load time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host/host_kernels.h"
#include "backends/host/host_threads.h"
#include "core/compute/kernels.h"

enum {
    SPLIT = 32,        /* host_reduce.c's lanes of one output */
    BLOCK = 16,        /* its rows added in sequence */
    LEVELS = 64,       /* of the binary counter */
    COLUMNS = 4096,    /* outputs along a row taken at once */
    ARG_BLOCK = 2048,  /* elements whose maximum is found before positions */
    MAX_RUN_PARTS = 64 /* of one split over the threads */
};

#define CLONES UA_HOST_CLONES

/* The combiners: a NaN replaces any number and no number replaces a NaN,
 * as in the general grid (v != v is false for integers). */
#define ADD(a, v) ((a) + (v))
#define MIN(a, v) ((v) < (a) || (v) != (v) ? (v) : (a))
#define MAX(a, v) ((a) < (v) || (v) != (v) ? (v) : (a))

/* A run of n dense elements into one value: SPLIT lanes, BLOCK rows at a
 * time through the binary counter where PAIRWISE (else straight on),
 * folded as a tree, then the tail.  ZERO is the combiner's identity. */
#define DEFINE_RUN(NAME, T, OP, ZERO, PAIRWISE)                               \
    CLONES static T NAME(const T *restrict x, ptrdiff_t n)                    \
    {                                                                         \
        T levels[LEVELS][SPLIT], acc[SPLIT], blk[SPLIT];                      \
        ptrdiff_t rows = n / SPLIT;                                           \
        uint64_t count = 0;                                                   \
        for (int l = 0; l < SPLIT; l++) {                                     \
            acc[l] = ZERO;                                                    \
        }                                                                     \
        for (ptrdiff_t b = 0; b < rows; b += BLOCK) {                         \
            ptrdiff_t m = rows - b < BLOCK ? rows - b : BLOCK;                \
            const T *xb = x + b * SPLIT;                                      \
            T *into = PAIRWISE ? blk : acc;                                   \
            if (PAIRWISE) {                                                   \
                for (int l = 0; l < SPLIT; l++) {                             \
                    blk[l] = ZERO;                                            \
                }                                                             \
            }                                                                 \
            if (m == BLOCK) {                                                 \
                for (int r = 0; r < BLOCK; r++) {                             \
                    for (int l = 0; l < SPLIT; l++) {                         \
                        into[l] = OP(into[l], xb[r * SPLIT + l]);             \
                    }                                                         \
                }                                                             \
            } else {                                                          \
                for (ptrdiff_t r = 0; r < m; r++) {                           \
                    for (int l = 0; l < SPLIT; l++) {                         \
                        into[l] = OP(into[l], xb[r * SPLIT + l]);             \
                    }                                                         \
                }                                                             \
            }                                                                 \
            if (PAIRWISE) {                                                   \
                int k = 0;                                                    \
                for (; count >> k & 1; k++) {                                 \
                    for (int l = 0; l < SPLIT; l++) {                         \
                        blk[l] = blk[l] + levels[k][l];                       \
                    }                                                         \
                }                                                             \
                memcpy(levels[k], blk, sizeof blk);                           \
                count++;                                                      \
            }                                                                 \
        }                                                                     \
        bool have = false;                                                    \
        for (int k = 0; PAIRWISE && k < LEVELS; k++) {                        \
            if (count >> k & 1) {                                             \
                for (int l = 0; l < SPLIT; l++) {                             \
                    acc[l] = have ? acc[l] + levels[k][l] : levels[k][l];     \
                }                                                             \
                have = true;                                                  \
            }                                                                 \
        }                                                                     \
        for (int half = SPLIT / 2; half >= 1; half /= 2) {                    \
            for (int l = 0; l < half; l++) {                                  \
                acc[l] = OP(acc[2 * l], acc[2 * l + 1]);                      \
            }                                                                 \
        }                                                                     \
        for (ptrdiff_t i = rows * SPLIT; i < n; i++) {                        \
            acc[0] = OP(acc[0], x[i]);                                        \
        }                                                                     \
        return acc[0];                                                        \
    }

/* MIN or MAX of a run of floats without NaN, as the compiler's min and max
 * instructions compute them (which the general formula equals there),
 * beside a sum of the elements that a NaN turns into NaN: where it does
 * (or where infinities of both signs meet), the general formula runs. */
#define DEFINE_FAST_RUN(NAME, EXACT, T, OP, ZERO)                             \
    CLONES static T NAME(const T *restrict x, ptrdiff_t n)                    \
    {                                                                         \
        T acc[SPLIT], watch[SPLIT];                                           \
        ptrdiff_t full = n / SPLIT * SPLIT;                                   \
        for (int l = 0; l < SPLIT; l++) {                                     \
            acc[l] = ZERO;                                                    \
            watch[l] = 0;                                                     \
        }                                                                     \
        for (ptrdiff_t i = 0; i < full; i += SPLIT) {                         \
            for (int l = 0; l < SPLIT; l++) {                                 \
                T v = x[i + l];                                               \
                acc[l] = OP(acc[l], v);                                       \
                watch[l] += v;                                                \
            }                                                                 \
        }                                                                     \
        T seen = 0;                                                           \
        for (int l = 0; l < SPLIT; l++) {                                     \
            seen += watch[l];                                                 \
        }                                                                     \
        for (ptrdiff_t i = full; i < n; i++) {                                \
            seen += x[i];                                                     \
        }                                                                     \
        if (seen != seen) {                                                   \
            return EXACT(x, n);                                               \
        }                                                                     \
        for (int half = SPLIT / 2; half >= 1; half /= 2) {                    \
            for (int l = 0; l < half; l++) {                                  \
                acc[l] = OP(acc[2 * l], acc[2 * l + 1]);                      \
            }                                                                 \
        }                                                                     \
        for (ptrdiff_t i = full; i < n; i++) {                                \
            acc[0] = OP(acc[0], x[i]);                                        \
        }                                                                     \
        return acc[0];                                                        \
    }

#define FMIN(a, v) ((v) < (a) ? (v) : (a))
#define FMAX(a, v) ((a) < (v) ? (v) : (a))

/* Rows of w dense outputs: row r of the n at x + r * rs (bytes) combined
 * into acc[w] (which holds the identity), each output's rows through the
 * binary counter where PAIRWISE; levels holds LEVELS * w elements. */
#define DEFINE_COLUMNS(NAME, T, OP, ZERO, PAIRWISE)                           \
    CLONES static void NAME(const char *x, ptrdiff_t rs, ptrdiff_t n,         \
                            ptrdiff_t w, T *restrict acc, T *restrict blk,    \
                            T *restrict levels)                               \
    {                                                                         \
        uint64_t count = 0;                                                   \
        for (ptrdiff_t b = 0; b < n; b += BLOCK) {                            \
            ptrdiff_t m = n - b < BLOCK ? n - b : BLOCK;                      \
            T *into = PAIRWISE ? blk : acc;                                   \
            for (ptrdiff_t j = 0; PAIRWISE && j < w; j++) {                   \
                blk[j] = ZERO;                                                \
            }                                                                 \
            for (ptrdiff_t r = 0; r < m; r++) {                               \
                const T *restrict row = (const T *)(x + (b + r) * rs);        \
                for (ptrdiff_t j = 0; j < w; j++) {                           \
                    into[j] = OP(into[j], row[j]);                            \
                }                                                             \
            }                                                                 \
            if (PAIRWISE) {                                                   \
                int k = 0;                                                    \
                for (; count >> k & 1; k++) {                                 \
                    const T *restrict lv = levels + (size_t)k * w;            \
                    for (ptrdiff_t j = 0; j < w; j++) {                       \
                        blk[j] = blk[j] + lv[j];                              \
                    }                                                         \
                }                                                             \
                memcpy(levels + (size_t)k * w, blk, (size_t)w * sizeof *blk); \
                count++;                                                      \
            }                                                                 \
        }                                                                     \
        bool have = false;                                                    \
        for (int k = 0; PAIRWISE && k < LEVELS; k++) {                        \
            if (count >> k & 1) {                                             \
                const T *restrict lv = levels + (size_t)k * w;                \
                for (ptrdiff_t j = 0; j < w; j++) {                           \
                    acc[j] = have ? acc[j] + lv[j] : lv[j];                   \
                }                                                             \
                have = true;                                                  \
            }                                                                 \
        }                                                                     \
    }

/* The first position of the maximum (MAX_) or minimum of n > 0 dense
 * elements, the first NaN where there is one, in one pass: in each block
 * SPLIT lanes, which the compiler vectorizes, keep their extreme and the
 * row where it came (strictly better replaces, so that a lane keeps its
 * first); the block's extreme is the lanes', its position the least of the
 * lanes that hold it, and it replaces the best so far where strictly
 * better.  A block whose sum a NaN (or infinities of both signs) makes NaN
 * is walked one element at a time instead.  IT, the rows' type, is as wide
 * as T, so that the lanes of both fill the same vectors. */
#define DEFINE_ARG(NAME, T, IT, MAX_, FLOATS)                                 \
    CLONES static int64_t NAME(const T *restrict x, ptrdiff_t n)              \
    {                                                                         \
        T best = x[0];                                                        \
        int64_t at = 0;                                                       \
        for (ptrdiff_t b = 0; b < n; b += ARG_BLOCK) {                        \
            ptrdiff_t m = n - b < ARG_BLOCK ? n - b : ARG_BLOCK;              \
            const T *xb = x + b;                                              \
            T e[SPLIT], watch[SPLIT];                                         \
            IT row[SPLIT];                                                    \
            IT rows = (IT)(m / SPLIT);                                        \
            for (int l = 0; l < SPLIT; l++) {                                 \
                e[l] = xb[0];                                                 \
                row[l] = 0;                                                   \
                watch[l] = 0;                                                 \
            }                                                                 \
            for (IT r = 0; r < rows; r++) {                                   \
                for (int l = 0; l < SPLIT; l++) {                             \
                    T v = xb[r * SPLIT + l];                                  \
                    IT mask = -(IT)(MAX_ ? v > e[l] : v < e[l]);              \
                    row[l] = (row[l] & ~mask) | (r & mask);                   \
                    e[l] = MAX_ ? FMAX(e[l], v) : FMIN(e[l], v);              \
                    watch[l] += FLOATS ? v : 0;                               \
                }                                                             \
            }                                                                 \
            T top = e[0], seen = 0;                                           \
            for (int l = 0; l < SPLIT; l++) {                                 \
                top = MAX_ ? FMAX(top, e[l]) : FMIN(top, e[l]);               \
                seen += watch[l];                                             \
            }                                                                 \
            ptrdiff_t pos = m;                                                \
            for (int l = 0; l < SPLIT; l++) {                                 \
                ptrdiff_t q = (ptrdiff_t)row[l] * SPLIT + l;                  \
                pos = e[l] == top && q < pos ? q : pos;                       \
            }                                                                 \
            for (ptrdiff_t i = (ptrdiff_t)rows * SPLIT; i < m; i++) {         \
                T v = xb[i];                                                  \
                seen += FLOATS ? v : 0;                                       \
                if (MAX_ ? v > top : v < top) {                               \
                    top = v;                                                  \
                    pos = i;                                                  \
                }                                                             \
            }                                                                 \
            if (seen != seen) {                                               \
                for (ptrdiff_t i = 0; i < m; i++) {                           \
                    T v = xb[i];                                              \
                    if (v != v) {                                             \
                        return b + i;                                         \
                    }                                                         \
                    if (MAX_ ? v > best : v < best) {                         \
                        best = v;                                             \
                        at = b + i;                                           \
                    }                                                         \
                }                                                             \
                continue;                                                     \
            }                                                                 \
            if (b == 0 || (MAX_ ? top > best : top < best)) {                 \
                best = top;                                                   \
                at = b + pos;                                                 \
            }                                                                 \
        }                                                                     \
        return at;                                                            \
    }

/* MIN and MAX of runs: fast where a NaN can be (floats), exact else. */
#define FAST_FLOAT(S, T, LOWEST, HIGHEST)                                     \
    DEFINE_FAST_RUN(min_run_##S, min_exact_##S, T, FMIN, HIGHEST)             \
    DEFINE_FAST_RUN(max_run_##S, max_exact_##S, T, FMAX, LOWEST)
#define FAST_INT(S, T, LOWEST, HIGHEST)                                       \
    static T min_run_##S(const T *x, ptrdiff_t n)                             \
    {                                                                         \
        return min_exact_##S(x, n);                                           \
    }                                                                         \
    static T max_run_##S(const T *x, ptrdiff_t n)                             \
    {                                                                         \
        return max_exact_##S(x, n);                                           \
    }

/* Each type's loops behind one signature. */
#define DEFINE_TYPE(S, T, IT, PAIRWISE, LOWEST, HIGHEST, NEG_ZERO, FAST,      \
                    FLOATS)                                                   \
    DEFINE_RUN(sum_run_##S, T, ADD, NEG_ZERO, PAIRWISE)                       \
    DEFINE_RUN(min_exact_##S, T, MIN, HIGHEST, false)                         \
    DEFINE_RUN(max_exact_##S, T, MAX, LOWEST, false)                          \
    FAST(S, T, LOWEST, HIGHEST)                                               \
    DEFINE_COLUMNS(sum_cols_##S, T, ADD, NEG_ZERO, PAIRWISE)                  \
    DEFINE_COLUMNS(min_cols_##S, T, MIN, HIGHEST, false)                      \
    DEFINE_COLUMNS(max_cols_##S, T, MAX, LOWEST, false)                       \
    DEFINE_ARG(argmin_##S, T, IT, false, FLOATS)                              \
    DEFINE_ARG(argmax_##S, T, IT, true, FLOATS)                               \
    static void run_##S(dense_op op, const char *x, ptrdiff_t n, void *out)   \
    {                                                                         \
        const T *d = (const T *)(const void *)x;                              \
        T v = op == DENSE_SUM   ? sum_run_##S(d, n)                           \
              : op == DENSE_MIN ? min_run_##S(d, n)                           \
                                : max_run_##S(d, n);                          \
        memcpy(out, &v, sizeof v);                                            \
    }                                                                         \
    static void cols_##S(dense_op op, const char *x, ptrdiff_t rs,            \
                         ptrdiff_t n, ptrdiff_t w, void *acc, void *blk,      \
                         void *levels)                                        \
    {                                                                         \
        T *a = acc, zero = op == DENSE_SUM   ? NEG_ZERO                       \
                           : op == DENSE_MIN ? HIGHEST                        \
                                             : LOWEST;                        \
        for (ptrdiff_t j = 0; j < w; j++) {                                   \
            a[j] = zero;                                                      \
        }                                                                     \
        if (op == DENSE_SUM) {                                                \
            sum_cols_##S(x, rs, n, w, a, blk, levels);                        \
        } else if (op == DENSE_MIN) {                                         \
            min_cols_##S(x, rs, n, w, a, blk, levels);                        \
        } else {                                                              \
            max_cols_##S(x, rs, n, w, a, blk, levels);                        \
        }                                                                     \
    }                                                                         \
    static int64_t arg_##S(bool max, const char *x, ptrdiff_t n)              \
    {                                                                         \
        const T *d = (const T *)(const void *)x;                              \
        return max ? argmax_##S(d, n) : argmin_##S(d, n);                     \
    }

/* The loops here take these reductions; MEAN is SUM, then divided. */
typedef enum { DENSE_SUM, DENSE_MIN, DENSE_MAX, DENSE_NONE } dense_op;

DEFINE_TYPE(f4, float, int32_t, true, -INFINITY, INFINITY, -0.0f, FAST_FLOAT,
            true)
DEFINE_TYPE(f8, double, int64_t, true, -INFINITY, INFINITY, -0.0, FAST_FLOAT,
            true)
DEFINE_TYPE(i8, int64_t, int64_t, false, INT64_MIN, INT64_MAX, 0, FAST_INT,
            false)
DEFINE_TYPE(u8, uint64_t, int64_t, false, 0, UINT64_MAX, 0, FAST_INT, false)

/* int64 sums wrap as NumPy's do: added as uint64, the same bits without
 * signed overflow (undefined in C); min and max compare signed. */
static void
run_i8_wrapping(dense_op op, const char *x, ptrdiff_t n, void *out)
{
    (op == DENSE_SUM ? run_u8 : run_i8)(op, x, n, out);
}

static void
cols_i8_wrapping(dense_op op, const char *x, ptrdiff_t rs, ptrdiff_t n,
                 ptrdiff_t w, void *acc, void *blk, void *levels)
{
    (op == DENSE_SUM ? cols_u8 : cols_i8)(op, x, rs, n, w, acc, blk, levels);
}

typedef struct dense_loops {
    void (*run)(dense_op, const char *, ptrdiff_t, void *);
    void (*cols)(dense_op, const char *, ptrdiff_t, ptrdiff_t, ptrdiff_t,
                 void *, void *, void *);
    int64_t (*arg)(bool, const char *, ptrdiff_t);
} dense_loops;

/* The loops of a type, NULL for a type without them. */
static const dense_loops *
loops_of(ua_typenum t)
{
    static const dense_loops f4 = {run_f4, cols_f4, arg_f4};
    static const dense_loops f8 = {run_f8, cols_f8, arg_f8};
    static const dense_loops i8 = {run_i8_wrapping, cols_i8_wrapping, arg_i8};
    static const dense_loops u8 = {run_u8, cols_u8, arg_u8};
    switch (t) {
    case UA_FLOAT32:
        return &f4;
    case UA_FLOAT64:
        return &f8;
    case UA_INT64:
        return &i8;
    case UA_UINT64:
        return &u8;
    default:
        return NULL;
    }
}

static dense_op
dense_op_of(const ua_reduce_plan *p)
{
    switch (p->op) {
    case UA_REDUCE_SUM:
        return DENSE_SUM;
    case UA_REDUCE_MEAN:
        return ua_dtype_kind(p->rtype) == 'f' ? DENSE_SUM : DENSE_NONE;
    case UA_REDUCE_MIN:
        return DENSE_MIN;
    case UA_REDUCE_MAX:
        return DENSE_MAX;
    default:
        return DENSE_NONE;
    }
}

/* w values of the accumulator into the result (lane step rs bytes), a
 * mean divided as host_reduce.c divides it, in the type's precision. */
static void
store_values(const ua_reduce_plan *p, const char *acc, ptrdiff_t w,
             char *result, ptrdiff_t rs)
{
    size_t sz = ua_dtype_itemsize(p->rtype);
    for (ptrdiff_t j = 0; j < w; j++) {
        const char *v = acc + (size_t)j * sz;
        char *dst = result + j * rs;
        if (p->op != UA_REDUCE_MEAN) {
            memcpy(dst, v, sz);
        } else if (p->rtype == UA_FLOAT32) {
            float f;
            memcpy(&f, v, sizeof f);
            f /= (float)p->n;
            memcpy(dst, &f, sizeof f);
        } else {
            double d;
            memcpy(&d, v, sizeof d);
            d /= (double)p->n;
            memcpy(dst, &d, sizeof d);
        }
    }
}

/* Outputs along dense rows (the last kept axis dense in x, the reduced
 * run across rows), cols of them from column c0 of the row at x: at most
 * COLUMNS at a time, so that each row is read as one stretch of memory.
 * A column's value does not depend on how many are taken with it. */
typedef struct cols_job {
    const ua_reduce_plan *p;
    const dense_loops *f;
    dense_op op;
    const char *x;
    char *res;
    ptrdiff_t len, width; /* the columns, and a part's chunk of them */
    char *scratch;        /* the calling thread's, for COLUMNS columns */
    bool failed;
} cols_job;

/* Bytes of the accumulators of cols columns of size sz. */
static size_t
scratch_bytes(ptrdiff_t cols, size_t sz)
{
    return (size_t)(LEVELS + 2) * (size_t)(cols < COLUMNS ? cols : COLUMNS) *
           sz;
}

/* Columns c0 to c1 into the result, in mem's accumulators (NULL: its
 * own). */
static bool
reduce_column_range(const cols_job *j, ptrdiff_t c0, ptrdiff_t c1, char *mem)
{
    size_t sz = ua_dtype_itemsize(j->p->xtype);
    ptrdiff_t rs = j->p->rstep[j->p->nd - 1];
    ptrdiff_t cols = c1 - c0 < COLUMNS ? c1 - c0 : COLUMNS;
    char *own = mem != NULL ? NULL : malloc(scratch_bytes(cols, sz));
    mem = mem != NULL ? mem : own;
    if (mem == NULL) {
        return false;
    }
    char *acc = mem, *blk = mem + (size_t)cols * sz,
         *levels = blk + (size_t)cols * sz;
    for (ptrdiff_t c = c0; c < c1; c += COLUMNS) {
        ptrdiff_t w = c1 - c < COLUMNS ? c1 - c : COLUMNS;
        j->f->cols(j->op, j->x + c * (ptrdiff_t)sz, j->p->step, j->p->n, w,
                   acc, blk, levels);
        store_values(j->p, acc, w, j->res + c * rs, rs);
    }
    free(own);
    return true;
}

static void
cols_part(void *ctx, int part, int parts)
{
    cols_job *j = ctx;
    (void)parts;
    ptrdiff_t c0 = part * j->width;
    ptrdiff_t c1 = c0 + j->width < j->len ? c0 + j->width : j->len;
    if (c0 < c1 && !reduce_column_range(j, c0, c1, NULL)) {
        j->failed = true; /* a flag only ever set: any part may */
    }
}

/* Parts for a split whose parts' results meet exactly whatever their
 * number: four a thread where it pays to split at all, so that on a busy
 * machine a thread that waits for its core holds a small share, which
 * the others take over as they finish theirs. */
static int
finer(int parts)
{
    return parts <= 1                  ? 1
           : parts * 4 < MAX_RUN_PARTS ? parts * 4
                                       : MAX_RUN_PARTS;
}

/* min and max of the columns on the threads by rows: each part the
 * columns' extremes over a range of whole rows, read as one stretch of
 * memory, which then meet in order through the same loop (min and max
 * keep the first of equal values and the last NaN, so the parts' meeting
 * gives what one pass over the rows gives). */
typedef struct rows_job {
    const cols_job *j;
    ptrdiff_t c, w; /* the columns */
    char *acc;      /* each part's row of w, then the result's */
} rows_job;

static void
rows_part(void *ctx, int part, int parts)
{
    const rows_job *r = ctx;
    const ua_reduce_plan *p = r->j->p;
    ptrdiff_t sz = (ptrdiff_t)ua_dtype_itemsize(p->xtype);
    ptrdiff_t a = p->n * part / parts, b = p->n * (part + 1) / parts;
    r->j->f->cols(r->j->op, r->j->x + r->c * sz + a * p->step, p->step, b - a,
                  r->w, r->acc + part * r->w * sz, NULL, NULL);
}

static bool
reduce_rows_split(const cols_job *j, int parts)
{
    ptrdiff_t sz = (ptrdiff_t)ua_dtype_itemsize(j->p->xtype);
    ptrdiff_t rs = j->p->rstep[j->p->nd - 1];
    ptrdiff_t cols = j->len < COLUMNS ? j->len : COLUMNS;
    rows_job r = {j, 0, 0, malloc((size_t)(parts + 1) * (size_t)(cols * sz))};
    if (r.acc == NULL) {
        return false;
    }
    for (ptrdiff_t c = 0; c < j->len; c += COLUMNS) {
        r.c = c;
        r.w = j->len - c < COLUMNS ? j->len - c : COLUMNS;
        ua_host_parallel(parts, rows_part, &r);
        char *out = r.acc + parts * r.w * sz;
        j->f->cols(j->op, r.acc, r.w * sz, parts, r.w, out, NULL, NULL);
        store_values(j->p, out, r.w, j->res + c * rs, rs);
    }
    free(r.acc);
    return true;
}

/* The columns of one outer position, on the threads where they pay: each
 * part a range of whole columns, 64 at least. */
static bool
reduce_row_block(cols_job *j)
{
    size_t sz = ua_dtype_itemsize(j->p->xtype);
    int parts = ua_host_parts((size_t)j->p->n * (size_t)j->len * sz, 1);
    if (j->op != DENSE_SUM && parts > 1 && j->p->n >= 4 * finer(parts)) {
        return reduce_rows_split(j, finer(parts));
    }
    ptrdiff_t width = (j->len + parts - 1) / parts;
    width = (width + 63) / 64 * 64;
    parts = (int)((j->len + width - 1) / width);
    if (parts <= 1) {
        return reduce_column_range(j, 0, j->len, j->scratch);
    }
    j->width = width;
    j->failed = false;
    ua_host_parallel(parts, cols_part, j);
    return !j->failed;
}

static ua_status
reduce_columns(const ua_reduce_plan *p, const dense_loops *f, dense_op op)
{
    int nd = p->nd - 1;
    size_t sz = ua_dtype_itemsize(p->xtype);
    cols_job j = {p, f, op, NULL, NULL, p->shape[nd], 0, NULL, false};
    j.scratch = malloc(scratch_bytes(j.len, sz));
    bool ok = j.scratch != NULL;
    FOR_EACH_OUTER(p, nd, x, res, {
        j.x = x;
        j.res = res;
        ok = ok && reduce_row_block(&j);
    });
    free(j.scratch);
    return ok ? UA_OK
              : ua_error_set(UA_ERR_NOMEM, "no host memory for a reduction");
}

/* One long run on the threads: each part's result, then the parts'
 * results reduced by the same loop, in order.  min and max come out as
 * one pass gives them, NaNs and signed zeros included; a sum is pairwise
 * within each part, then over the parts, whose count depends on the
 * run's size alone: the same bits on every machine and with any number
 * of threads (it followed the threads, and USMARRAY_HOST_THREADS=1, 2
 * and 3 gave three sums of one array). */

typedef struct run_job {
    const dense_loops *f;
    dense_op op;
    const char *x;
    ptrdiff_t n, sz;
    char part[MAX_RUN_PARTS][8];
} run_job;

static void
run_part(void *ctx, int part, int parts)
{
    run_job *j = ctx;
    ptrdiff_t a = (ptrdiff_t)((double)j->n * part / parts);
    ptrdiff_t b = (ptrdiff_t)((double)j->n * (part + 1) / parts);
    j->f->run(j->op, j->x + a * j->sz, b - a, j->part[part]);
}

/* false where one thread takes it. */
static bool
run_parallel(const dense_loops *f, dense_op op, const char *x, ptrdiff_t n,
             ptrdiff_t sz, char *acc)
{
    int parts = ua_host_parts_by_size((size_t)n * (size_t)sz, MAX_RUN_PARTS);
    if (parts <= 1 || n < parts) {
        return false;
    }
    run_job j = {f, op, x, n, sz, {{0}}};
    ua_host_parallel(parts, run_part, &j);
    char packed[MAX_RUN_PARTS * 8];
    for (int k = 0; k < parts; k++) {
        memcpy(packed + k * sz, j.part[k], (size_t)sz);
    }
    f->run(op, packed, parts, acc);
    return true;
}

/* A run's reduction at each outer position, the positions on the threads
 * where they pay: each part a range of them.  run_at's and arg_at's
 * part of one job (the same bits as one thread gives). */
typedef struct outer_job {
    const ua_reduce_plan *p;
    const dense_loops *f;
    dense_op op;
    bool max;
    ptrdiff_t outer; /* positions of the kept axes */
    void (*one)(const struct outer_job *, const char *, char *);
    int64_t at[MAX_RUN_PARTS]; /* the parts of one long run (argmax) */
} outer_job;

static void
outer_part(void *ctx, int part, int parts)
{
    const outer_job *j = ctx;
    const ua_reduce_plan *p = j->p;
    ptrdiff_t a = j->outer * part / parts, b = j->outer * (part + 1) / parts;
    ptrdiff_t idx[UA_MAXDIMS] = {0}, rest = a;
    const char *x = p->x;
    char *res = p->result;
    for (int k = p->nd - 1; k >= 0; k--) {
        idx[k] = rest % p->shape[k];
        rest /= p->shape[k];
        x += idx[k] * p->xstep[k];
        res += idx[k] * p->rstep[k];
    }
    for (ptrdiff_t o = a; o < b; o++) {
        j->one(j, x, res);
        for (int k = p->nd - 1; k >= 0; k--) {
            x += p->xstep[k];
            res += p->rstep[k];
            if (++idx[k] < p->shape[k]) {
                break;
            }
            x -= p->xstep[k] * p->shape[k];
            res -= p->rstep[k] * p->shape[k];
            idx[k] = 0;
        }
    }
}

/* The positions of p's kept axes. */
static ptrdiff_t
outer_of(const ua_reduce_plan *p)
{
    ptrdiff_t outer = 1;
    for (int k = 0; k < p->nd; k++) {
        outer *= p->shape[k];
    }
    return outer;
}

/* The outer positions of j in parts (at most one a position). */
static void
for_each_outer(outer_job *j, int parts)
{
    parts = j->outer < parts ? (int)j->outer : parts;
    ua_host_parallel(parts < 1 ? 1 : parts, outer_part, j);
}

static void
run_at(const outer_job *j, const char *x, char *res)
{
    char acc[8];
    j->f->run(j->op, x, j->p->n, acc);
    store_values(j->p, acc, 1, res, 0);
}

bool
ua_host_reduce_dense(const ua_reduce_plan *p, ua_status *st)
{
    const dense_loops *f = loops_of(p->xtype);
    dense_op op = dense_op_of(p);
    ptrdiff_t sz = (ptrdiff_t)ua_dtype_itemsize(p->xtype);
    if (f == NULL || op == DENSE_NONE || p->rtype != p->xtype || p->n == 0) {
        return false;
    }
    if (p->nd > 0 && p->n > 1 && p->xstep[p->nd - 1] == sz &&
        (p->step < 0 ? -p->step : p->step) > sz) {
        *st = reduce_columns(p, f, op);
        return true;
    }
    if (p->step != sz) {
        return false;
    }
    *st = UA_OK;
    outer_job j = {
        .p = p, .f = f, .op = op, .outer = outer_of(p), .one = run_at};
    char acc[8];
    if (p->nd == 0 && run_parallel(f, op, p->x, p->n, sz, acc)) {
        store_values(p, acc, 1, p->result, 0);
        return true;
    }
    size_t bytes = (size_t)j.outer * (size_t)p->n * (size_t)sz;
    for_each_outer(&j, finer(ua_host_parts(bytes, 1)));
    return true;
}

/* argmin and argmax on the threads: with several outer positions, each
 * part a range of them; one long run split into parts whose positions
 * then meet through the same loop over their elements, in order, which
 * picks the first extreme, or the first NaN, as one pass over the run
 * does. */
static void
arg_at(const outer_job *j, const char *x, char *res)
{
    int64_t at = j->f->arg(j->max, x, j->p->n);
    memcpy(res, &at, sizeof at);
}

/* Part of the run, its bounds on whole blocks. */
static ptrdiff_t
arg_bound(ptrdiff_t n, int part, int parts)
{
    return part == parts ? n : n * part / parts / ARG_BLOCK * ARG_BLOCK;
}

static void
arg_run_part(void *ctx, int part, int parts)
{
    outer_job *j = ctx;
    size_t sz = ua_dtype_itemsize(j->p->xtype);
    ptrdiff_t a = arg_bound(j->p->n, part, parts);
    ptrdiff_t b = arg_bound(j->p->n, part + 1, parts);
    j->at[part] = a + j->f->arg(j->max, j->p->x + a * (ptrdiff_t)sz, b - a);
}

bool
ua_host_arg_dense(const ua_reduce_plan *p)
{
    const dense_loops *f = loops_of(p->xtype);
    size_t sz = ua_dtype_itemsize(p->xtype);
    if (f == NULL || p->n == 0 || p->step != (ptrdiff_t)sz) {
        return false;
    }
    outer_job j = {.p = p,
                   .f = f,
                   .max = p->op == UA_REDUCE_ARGMAX,
                   .outer = outer_of(p),
                   .one = arg_at};
    size_t bytes = (size_t)j.outer * (size_t)p->n * sz;
    int parts = finer(ua_host_parts(bytes, 1));
    if (j.outer > 1 || parts <= 1 || p->n < (ptrdiff_t)parts * ARG_BLOCK) {
        for_each_outer(&j, parts);
        return true;
    }
    ua_host_parallel(parts, arg_run_part, &j);
    char packed[MAX_RUN_PARTS * 8];
    for (int k = 0; k < parts; k++) {
        memcpy(packed + (size_t)k * sz, p->x + j.at[k] * (ptrdiff_t)sz, sz);
    }
    int64_t at = j.at[f->arg(j.max, packed, parts)];
    memcpy(p->result, &at, sizeof at);
    return true;
}
