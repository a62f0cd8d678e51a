/* The host backend's reductions (core/compute/reduce_kernels.h).
 *
 * Every reduction walks a grid: `w` lanes (outputs, or interleaved
 * partial results of one output) by `rows` elements each.  Where the
 * kept axis lies closer in memory than the reduced one (sum(m, axis=0) of
 * a C-ordered m) the lanes are neighbouring outputs, so that each row of
 * the grid is a run of memory that the compiler vectorizes; otherwise one
 * output is split into 32 interleaved lanes.  Elements whose type is not
 * the accumulator's are converted a tile at a time by the copy engine.
 *
 * Floating sums are pairwise: each lane adds blocks of 16 rows in
 * sequence, and the blocks' partial sums meet in a binary tree (a binary
 * counter of partial sums, one per level), then the 32 lanes of a single
 * output are added as a tree.  The error bound grows as log2(n) ulps, as
 * NumPy's pairwise summation's does; the order depends only on the shape
 * and layout, so that the same call gives the same bits every time. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host/host_kernels.h"
#include "backends/host/host_sort_keys.h"
#include "core/compute/kernels.h"

enum {
    BLOCK = 16,  /* rows added in sequence before the tree takes over */
    WMAX = 256,  /* lanes of neighbouring outputs */
    SPLIT = 32,  /* lanes one output is split into */
    TILE = 4096, /* elements converted at a time */
    LEVELS = 64
};

typedef float _Complex cf;
typedef double _Complex cd;

/* The combiners the grid runs; SQDEV adds squared deviations from the
 * lane's centre. */
typedef enum { OP_SUM, OP_PROD, OP_MIN, OP_MAX, OP_SQDEV } grid_op;

typedef struct grid {
    const char *x;
    ptrdiff_t w, ls, rows, rs;
} grid;

typedef struct reducer {
    const ua_reduce_plan *p;
    ua_typenum a; /* the accumulator's type */
    size_t asz;
    bool truth;   /* x is read as its elements' truth (bool) */
    char *tile;   /* TILE elements of a */
    char *truths; /* TILE bools, on the way to a */
    char *levels; /* LEVELS * WMAX elements of a, the tree's partial sums */
} reducer;

/* Rows [r0, r0 + rows) of g as elements of the accumulator: x's own where
 * the types agree, else converted into the tile. */
static grid
fetch(const reducer *r, const grid *g, ua_typenum xtype, ptrdiff_t r0,
      ptrdiff_t rows)
{
    grid out = {g->x + r0 * g->rs, g->w, g->ls, rows, g->rs};
    if (xtype == r->a && !(r->truth && xtype != UA_BOOL)) {
        return out;
    }
    ptrdiff_t xsz = (ptrdiff_t)ua_dtype_itemsize(xtype);
    ptrdiff_t shape[2] = {rows, g->w};
    ptrdiff_t dstrides[2] = {g->w, 1};
    ptrdiff_t sstrides[2] = {g->rs / xsz, g->ls / xsz};
    ua_strided dst = {r->tile, dstrides, r->a};
    ua_strided src = {(char *)out.x, sstrides, xtype};
    if (r->truth && xtype != UA_BOOL && r->a != UA_BOOL) {
        /* COUNT: a value's truth first, then that truth as a number. */
        ua_strided truths = {r->truths, dstrides, UA_BOOL};
        ua_copy_strided_host(2, shape, &truths, &src);
        src = truths;
    }
    ua_copy_strided_host(2, shape, &dst, &src);
    return (grid){r->tile, g->w, (ptrdiff_t)r->asz, rows,
                  g->w * (ptrdiff_t)r->asz};
}

/* Rows a tile holds: a multiple of BLOCK. */
static ptrdiff_t
tile_rows(ptrdiff_t w)
{
    ptrdiff_t rows = TILE / w;
    return rows - rows % BLOCK;
}

/* One combiner over a grid's rows into acc[w], for one type. */
#define LANES(T, EXPR)                                                        \
    for (ptrdiff_t r = 0; r < g->rows; r++) {                                 \
        const char *row = g->x + r * g->rs;                                   \
        for (ptrdiff_t l = 0; l < g->w; l++) {                                \
            T v;                                                              \
            memcpy(&v, row + l * g->ls, sizeof v);                            \
            EXPR;                                                             \
        }                                                                     \
    }

#define MUL_REAL(a, b) ((a) * (b))
#define MUL_CF(a, b)                                                          \
    CMPLXF(crealf(a) * crealf(b) - cimagf(a) * cimagf(b),                     \
           crealf(a) * cimagf(b) + cimagf(a) * crealf(b))
#define MUL_CD(a, b)                                                          \
    CMPLX(creal(a) * creal(b) - cimag(a) * cimag(b),                          \
          creal(a) * cimag(b) + cimag(a) * creal(b))
#define LESS_REAL(a, b) ((a) < (b))
#define LESS_NONE(a, b) 0
#define SQ_REAL(d) ((d) * (d))
#define SQ_CF(d) (crealf(d) * crealf(d) + cimagf(d) * cimagf(d))
#define SQ_CD(d) (creal(d) * creal(d) + cimag(d) * cimag(d))

/* A NaN propagates through MIN and MAX: once the accumulator holds one,
 * no comparison replaces it. */
#define DEFINE_LANES(S, T, MUL, LESS, SQ)                                     \
    static void lanes_##S(grid_op op, const grid *g, T *restrict acc,         \
                          const T *restrict c)                                \
    {                                                                         \
        switch (op) {                                                         \
        case OP_SUM:                                                          \
            LANES(T, acc[l] = acc[l] + v);                                    \
            break;                                                            \
        case OP_PROD:                                                         \
            LANES(T, acc[l] = MUL(acc[l], v));                                \
            break;                                                            \
        case OP_MIN:                                                          \
            LANES(T, acc[l] = LESS(v, acc[l]) || v != v ? v : acc[l]);        \
            break;                                                            \
        case OP_MAX:                                                          \
            LANES(T, acc[l] = LESS(acc[l], v) || v != v ? v : acc[l]);        \
            break;                                                            \
        case OP_SQDEV:                                                        \
            LANES(T, T d = v - c[l]; acc[l] = acc[l] + SQ(d));                \
            break;                                                            \
        }                                                                     \
    }

DEFINE_LANES(f4, float, MUL_REAL, LESS_REAL, SQ_REAL)
DEFINE_LANES(f8, double, MUL_REAL, LESS_REAL, SQ_REAL)
DEFINE_LANES(c8, cf, MUL_CF, LESS_NONE, SQ_CF)
DEFINE_LANES(c16, cd, MUL_CD, LESS_NONE, SQ_CD)
DEFINE_LANES(i8, int64_t, MUL_REAL, LESS_REAL, SQ_REAL)
DEFINE_LANES(u8, uint64_t, MUL_REAL, LESS_REAL, SQ_REAL)
DEFINE_LANES(b1, uint8_t, MUL_REAL, LESS_REAL, SQ_REAL)

/* Integer sums and products wrap: they run on uint64 bits, whose
 * arithmetic is that of int64 too. */
static void
lanes_of(ua_typenum a, grid_op op, const grid *g, void *acc, const void *c)
{
    switch (a) {
    case UA_FLOAT32:
        lanes_f4(op, g, acc, c);
        break;
    case UA_FLOAT64:
        lanes_f8(op, g, acc, c);
        break;
    case UA_COMPLEX64:
        lanes_c8(op, g, acc, c);
        break;
    case UA_COMPLEX128:
        lanes_c16(op, g, acc, c);
        break;
    case UA_INT64:
        if (op == OP_MIN || op == OP_MAX) {
            lanes_i8(op, g, acc, c);
            break;
        }
        lanes_u8(op, g, acc, c);
        break;
    case UA_UINT64:
        lanes_u8(op, g, acc, c);
        break;
    default:
        lanes_b1(op, g, acc, c);
    }
}

/* acc[0..w) <- the identity of op in type a: -0.0 for floating sums, so
 * that a sum of -0.0 stays -0.0 as NumPy's does (an empty sum is written
 * apart, as 0). */
static void
identity(ua_typenum a, grid_op op, ptrdiff_t w, void *acc)
{
    for (ptrdiff_t l = 0; l < w; l++) {
        switch (a) {
        case UA_FLOAT32:
            ((float *)acc)[l] = op == OP_PROD  ? 1.0f
                                : op == OP_MIN ? INFINITY
                                : op == OP_MAX ? -INFINITY
                                               : -0.0f;
            break;
        case UA_FLOAT64:
            ((double *)acc)[l] = op == OP_PROD  ? 1.0
                                 : op == OP_MIN ? INFINITY
                                 : op == OP_MAX ? -INFINITY
                                                : -0.0;
            break;
        case UA_COMPLEX64:
            ((cf *)acc)[l] =
                op == OP_PROD ? CMPLXF(1.0f, 0.0f) : CMPLXF(-0.0f, -0.0f);
            break;
        case UA_COMPLEX128:
            ((cd *)acc)[l] =
                op == OP_PROD ? CMPLX(1.0, 0.0) : CMPLX(-0.0, -0.0);
            break;
        case UA_INT64:
            ((int64_t *)acc)[l] = op == OP_PROD  ? 1
                                  : op == OP_MIN ? INT64_MAX
                                  : op == OP_MAX ? INT64_MIN
                                                 : 0;
            break;
        case UA_UINT64:
            ((uint64_t *)acc)[l] = op == OP_PROD  ? 1
                                   : op == OP_MIN ? UINT64_MAX
                                                  : 0;
            break;
        default:
            ((uint8_t *)acc)[l] = op == OP_MIN || op == OP_PROD;
        }
    }
}

/* dst[l] <- a[l] + dst[l] over w elements of type t (a floating type). */
static void
add_into(ua_typenum t, ptrdiff_t w, void *dst, const void *a)
{
    grid g = {a, w, (ptrdiff_t)ua_dtype_itemsize(t), 1, 0};
    lanes_of(t, OP_SUM, &g, dst, NULL);
}

static bool
pairwise(const reducer *r, grid_op op)
{
    char k = ua_dtype_kind(r->a);
    return (op == OP_SUM || op == OP_SQDEV) && (k == 'f' || k == 'c');
}

/* The grid's rows combined into acc[w] (already the identity). */
static void
run_grid(const reducer *r, grid_op op, const grid *g, void *acc, const void *c)
{
    ua_typenum xtype = r->p->xtype;
    size_t w = (size_t)g->w, asz = r->asz;
    bool tree = pairwise(r, op);
    uint64_t count = 0;
    char blk[WMAX * 16];
    bool direct = xtype == r->a && !(r->truth && xtype != UA_BOOL);
    ptrdiff_t step = direct ? BLOCK * 64 : tile_rows(g->w);
    for (ptrdiff_t r0 = 0; r0 < g->rows; r0 += step) {
        ptrdiff_t m = g->rows - r0 < step ? g->rows - r0 : step;
        grid t = fetch(r, g, xtype, r0, m);
        if (!tree) {
            lanes_of(r->a, op, &t, acc, c);
            continue;
        }
        for (ptrdiff_t b = 0; b < m; b += BLOCK) {
            grid bg = {t.x + b * t.rs, t.w, t.ls,
                       m - b < BLOCK ? m - b : BLOCK, t.rs};
            identity(r->a, OP_SUM, g->w, blk);
            lanes_of(r->a, op, &bg, blk, c);
            /* A binary counter: level k holds the sum of 2^k blocks. */
            int k = 0;
            for (; count >> k & 1; k++) {
                add_into(r->a, g->w, blk, r->levels + (size_t)k * w * asz);
            }
            memcpy(r->levels + (size_t)k * w * asz, blk, w * asz);
            count++;
        }
    }
    if (tree) {
        bool have = false;
        for (int k = 0; k < LEVELS; k++) {
            if (count >> k & 1) {
                char *level = r->levels + (size_t)k * w * asz;
                if (have) {
                    add_into(r->a, g->w, acc, level);
                } else {
                    memcpy(acc, level, w * asz);
                }
                have = true;
            }
        }
    }
}

/* acc[0] <- the SPLIT lanes of acc added as a tree, then the tail's
 * elements in sequence (floating sums); other combiners take them in any
 * order, which gives the same result. */
static void
fold_split(const reducer *r, grid_op op, void *acc, ptrdiff_t lanes,
           const void *tail, ptrdiff_t ntail)
{
    size_t asz = r->asz;
    char *a = acc;
    for (ptrdiff_t half = lanes / 2; half >= 1; half /= 2) {
        for (ptrdiff_t l = 0; l < half; l++) {
            grid g = {a + (size_t)(2 * l + 1) * asz, 1, 0, 1, 0};
            char pair[16];
            memcpy(pair, a + (size_t)(2 * l) * asz, asz);
            lanes_of(r->a, op == OP_SQDEV ? OP_SUM : op, &g, pair, NULL);
            memcpy(a + (size_t)l * asz, pair, asz);
        }
    }
    grid g = {tail, 1, 0, ntail, (ptrdiff_t)asz};
    lanes_of(r->a, op == OP_SQDEV ? OP_SUM : op, &g, acc, NULL);
}

/* The combiners of a plan's op. */
static grid_op
grid_op_of(ua_reduce_op op)
{
    switch (op) {
    case UA_REDUCE_PROD:
        return OP_PROD;
    case UA_REDUCE_MIN:
    case UA_REDUCE_ALL:
        return OP_MIN;
    case UA_REDUCE_MAX:
    case UA_REDUCE_ANY:
        return OP_MAX;
    default:
        return OP_SUM;
    }
}

/* acc[l] <- acc[l] / d, in the accumulator's floating type. */
static void
divide(ua_typenum a, ptrdiff_t w, void *acc, double d)
{
    for (ptrdiff_t l = 0; l < w; l++) {
        switch (a) {
        case UA_FLOAT32:
            ((float *)acc)[l] /= (float)d;
            break;
        case UA_FLOAT64:
            ((double *)acc)[l] /= d;
            break;
        case UA_COMPLEX64:
            ((cf *)acc)[l] /= (float)d;
            break;
        default:
            ((cd *)acc)[l] /= d;
        }
    }
}

static void
square_root(ua_typenum a, ptrdiff_t w, void *acc)
{
    for (ptrdiff_t l = 0; l < w; l++) {
        if (a == UA_FLOAT32) {
            ((float *)acc)[l] = sqrtf(((float *)acc)[l]);
        } else {
            ((double *)acc)[l] = sqrt(((double *)acc)[l]);
        }
    }
}

/* The op's combiner over one group of lanes, which are outputs (split
 * false) or the parts of one output.  tail: the elements after the
 * split's rows, one lane each. */
static void
combine(const reducer *r, grid_op op, const grid *g, bool split,
        const grid *tail, void *acc, const void *c)
{
    char tacc[SPLIT * 16];
    identity(r->a, op, g->w, acc);
    run_grid(r, op, g, acc, c);
    if (split) {
        /* A run of a multiple of SPLIT elements has no tail (and a tile
         * of no lanes holds no rows). */
        identity(r->a, op, tail->w, tacc);
        if (tail->w > 0) {
            run_grid(r, op, tail, tacc, c);
        }
        fold_split(r, op, acc, g->w, tacc, tail->w);
    }
}

/* One group's results, written at result with lane step rstep. */
static void
reduce_group(const reducer *r, const grid *g, bool split, const grid *tail,
             char *result, ptrdiff_t rstep)
{
    const ua_reduce_plan *p = r->p;
    char acc[WMAX * 16];
    ptrdiff_t w = split ? 1 : g->w;
    combine(r, grid_op_of(p->op), g, split, tail, acc, NULL);
    if (p->op == UA_REDUCE_MEAN || p->op == UA_REDUCE_VAR ||
        p->op == UA_REDUCE_STD) {
        divide(r->a, w, acc, (double)p->n);
    }
    if (p->op == UA_REDUCE_VAR || p->op == UA_REDUCE_STD) {
        /* Each lane's mean (a split run's one mean in every lane). */
        char centre[WMAX * 16] = {0};
        for (ptrdiff_t l = 0; l < g->w; l++) {
            memcpy(centre + (size_t)l * r->asz,
                   acc + (size_t)(split ? 0 : l) * r->asz, r->asz);
        }
        combine(r, OP_SQDEV, g, split, tail, acc, centre);
        double d = (double)p->n - p->correction;
        divide(r->a, w, acc, d > 0 ? d : NAN);
        if (p->op == UA_REDUCE_STD) {
            square_root(r->a, w, acc);
        }
    }
    ptrdiff_t rsz = (ptrdiff_t)ua_dtype_itemsize(p->rtype);
    ptrdiff_t rstrides = rstep / rsz, one = 1;
    /* COUNT's sum of truths is uint64, which int64 holds. */
    ua_typenum from = p->op == UA_REDUCE_COUNT ? UA_INT64 : r->a;
    ua_strided dst = {result, &rstrides, p->rtype};
    ua_strided src = {acc, &one, from};
    ua_copy_strided_host(1, &w, &dst, &src);
}

/* The grid of lanes and the tail of one output whose reduced run is split
 * into SPLIT lanes. */
static void
split_run(const ua_reduce_plan *p, const char *x, grid *g, grid *tail)
{
    ptrdiff_t rows = p->n / SPLIT;
    *g = (grid){x, SPLIT, p->step, rows, SPLIT * p->step};
    *tail =
        (grid){x + rows * SPLIT * p->step, p->n - rows * SPLIT, p->step, 1, 0};
}

static ptrdiff_t
magnitude(ptrdiff_t v)
{
    return v < 0 ? -v : v;
}

/* Whether neighbouring outputs are the grid's lanes: the last kept axis
 * walks memory closer than the reduced one. */
static bool
outputs_are_lanes(const ua_reduce_plan *p)
{
    return p->nd > 0 && p->n > 1 &&
           magnitude(p->xstep[p->nd - 1]) < magnitude(p->step);
}

/* The result of a reduction over no elements: 0 for SUM and COUNT, 1 for
 * PROD, true for ALL, false for ANY; NaN for MEAN, VAR and STD, whose
 * count (less any correction) is not positive, as NumPy gives them. */
static void
write_empty(const ua_reduce_plan *p)
{
    bool statistic = p->op == UA_REDUCE_MEAN || p->op == UA_REDUCE_VAR ||
                     p->op == UA_REDUCE_STD;
    double v[2] = {p->op == UA_REDUCE_PROD || p->op == UA_REDUCE_ALL ? 1.0
                   : statistic                                       ? NAN
                                                                     : 0.0,
                   p->op == UA_REDUCE_MEAN ? NAN : 0.0};
    ptrdiff_t rsz = (ptrdiff_t)ua_dtype_itemsize(p->rtype);
    ptrdiff_t strides[UA_MAXDIMS], zeros[UA_MAXDIMS] = {0};
    for (int k = 0; k < p->nd; k++) {
        strides[k] = p->rstep[k] / rsz;
    }
    ua_strided dst = {p->result, strides, p->rtype};
    ua_strided src = {(char *)v, zeros, UA_COMPLEX128};
    ua_copy_strided_host(p->nd, p->shape, &dst, &src);
}

/* min, max, argmin and argmax of complex values in NumPy's order (the
 * sort's keys): the first element with a NaN part wins, else the first
 * of the smallest (largest), as NumPy's loops walk the elements. */
static void
complex_extremes(const ua_reduce_plan *p)
{
    bool max = p->op == UA_REDUCE_MAX || p->op == UA_REDUCE_ARGMAX;
    bool arg = p->op == UA_REDUCE_ARGMIN || p->op == UA_REDUCE_ARGMAX;
    int w = (int)ua_dtype_itemsize(p->xtype);
    FOR_EACH_OUTER(p, p->nd, x, res, {
        int64_t best = 0;
        complex_key bk = complex_key_of(x, w);
        for (ptrdiff_t i = 1; i < p->n && !complex_key_is_nan(bk); i++) {
            complex_key k = complex_key_of(x + i * p->step, w);
            int c = complex_key_cmp(k, bk);
            if (complex_key_is_nan(k) || (max ? c > 0 : c < 0)) {
                best = i;
                bk = k;
            }
        }
        if (arg) {
            memcpy(res, &best, sizeof best);
        } else {
            memcpy(res, x + best * p->step, (size_t)w);
        }
    });
}

ua_status
ua_host_reduce(void *queue, const ua_reduce_plan *p)
{
    (void)queue;
    if (ua_dtype_kind(p->xtype) == 'c' &&
        (p->op == UA_REDUCE_MIN || p->op == UA_REDUCE_MAX ||
         p->op == UA_REDUCE_ARGMIN || p->op == UA_REDUCE_ARGMAX)) {
        complex_extremes(p);
        return UA_OK;
    }
    if (p->op == UA_REDUCE_ARGMIN || p->op == UA_REDUCE_ARGMAX) {
        return ua_host_arg_reduce(p);
    }
    if (p->n == 0) {
        write_empty(p);
        return UA_OK;
    }
    ua_status st;
    if (ua_host_reduce_dense(p, &st)) {
        return st;
    }
    bool truth = p->op == UA_REDUCE_ALL || p->op == UA_REDUCE_ANY ||
                 p->op == UA_REDUCE_COUNT;
    reducer r = {p, UA_BOOL, 0, truth, NULL, NULL, NULL};
    r.a = p->op == UA_REDUCE_COUNT ? UA_UINT64
          : truth                  ? UA_BOOL
                                   : ua_accumulator_of(p->rtype);
    r.asz = ua_dtype_itemsize(r.a);
    r.tile = malloc(TILE * 17 + (size_t)LEVELS * WMAX * 16);
    if (r.tile == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "no host memory for a reduction");
    }
    r.levels = r.tile + TILE * 16;
    r.truths = r.levels + (size_t)LEVELS * WMAX * 16;
    if (outputs_are_lanes(p)) {
        int nd = p->nd - 1;
        ptrdiff_t len = p->shape[nd], ls = p->xstep[nd], rs = p->rstep[nd];
        FOR_EACH_OUTER(p, nd, x, res, {
            for (ptrdiff_t l0 = 0; l0 < len; l0 += WMAX) {
                ptrdiff_t w = len - l0 < WMAX ? len - l0 : WMAX;
                grid g = {x + l0 * ls, w, ls, p->n, p->step};
                reduce_group(&r, &g, false, NULL, res + l0 * rs, rs);
            }
        });
    } else {
        FOR_EACH_OUTER(p, p->nd, x, res, {
            grid g, tail;
            split_run(p, x, &g, &tail);
            reduce_group(&r, &g, true, &tail, res, 0);
        });
    }
    free(r.tile);
    return UA_OK;
}
