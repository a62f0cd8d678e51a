/* The reductions of the run-time compiled backends (launcher.h): each
 * plan carried out as launches of reduce_kernels.inc through a backend's
 * launcher. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu/launch_common.h"

enum {
    CHUNK = UA_GPU_GROUP * 16, /* elements a group of ua_red_chunks takes */
    BLOCK = 16
};

/* ------------------------------------------------------- reductions */

/* The result of a reduction over no elements: the identity of SUM,
 * COUNT, PROD, ALL, ANY, or NaN for MEAN, VAR and STD (whose count less
 * any correction is not positive, as NumPy gives them), in every
 * element. */
static ua_status
write_empty(const ua_gpu_launcher *l, const ua_reduce_plan *p)
{
    bool statistic = p->op == UA_REDUCE_MEAN || p->op == UA_REDUCE_VAR ||
                     p->op == UA_REDUCE_STD;
    double v[2] = {p->op == UA_REDUCE_PROD || p->op == UA_REDUCE_ALL ? 1.0
                   : statistic                                       ? NAN
                                                                     : 0.0,
                   p->op == UA_REDUCE_MEAN ? NAN : 0.0};
    unsigned char bits[16];
    ptrdiff_t zero = 0, one = 1;
    ua_strided hd = {(char *)bits, &one, p->rtype};
    ua_strided hs = {(char *)v, &zero, UA_COMPLEX128};
    ua_copy_strided_host(1, &one, &hd, &hs);
    size_t rsz = ua_dtype_itemsize(p->rtype);
    void *dev;
    ua_status st = l->ops->temporary(l->queue, rsz, &dev);
    if (st != UA_OK) {
        return st;
    }
    st = l->ops->upload(l->queue, dev, bits, rsz);
    ptrdiff_t strides[UA_MAXDIMS], zeros[UA_MAXDIMS] = {0};
    for (int k = 0; k < p->nd; k++) {
        strides[k] = p->rstep[k] / (ptrdiff_t)rsz;
    }
    ua_strided d = {p->result, strides, p->rtype};
    ua_strided s = {dev, zeros, p->rtype};
    st = st == UA_OK ? l->ops->copy_strided(l->queue, p->nd, p->shape, &d, &s)
                     : st;
    ua_gpu_release(l, dev);
    return st;
}

/* One reduction of the kernels' combiners (0 sum, 1 product, 2 minimum,
 * 3 maximum, 4 squared deviations from centre): a plan's runs, their
 * results finished (fin 1: divided by d, 2: then its square root). */
typedef struct red_call {
    const ua_gpu_types *t;
    int nd;
    const ptrdiff_t *shape;
    const void *plan;               /* device: shape, xstep, rstep */
    const ptrdiff_t *xstep, *rstep; /* the same steps, on the host */
    size_t outputs;
    const char *x;
    ptrdiff_t n, step;
    bool lanes_close; /* neighbouring outputs lie closer than a run */
    int op;
    const void *centre;
    int fin;
    double d;
    char *out;
} red_call;

static long long
real_bits(ua_typenum a, double d)
{
    if (a == UA_FLOAT64 || a == UA_COMPLEX128) {
        long long b;
        memcpy(&b, &d, 8);
        return b;
    }
    float f = (float)d;
    int b;
    memcpy(&b, &f, 4);
    return b;
}

static size_t vector_width(ua_typenum x);

/* Whether ua_red_lanes_vec can read the outputs of a plan (nd axes,
 * xstep, last axis `last` long) XVW at a time: the last kept axis dense,
 * its length a multiple of XVW, every other offset 16-byte aligned. */
static bool
lanes_vectorize(ua_typenum x, const char *p, int nd, ptrdiff_t last,
                const ptrdiff_t *xstep, ptrdiff_t step)
{
    size_t xsz = ua_dtype_itemsize(x), w = vector_width(x);
    if (nd < 1 || w < 2 || xstep[nd - 1] != (ptrdiff_t)xsz ||
        last % (ptrdiff_t)w != 0) {
        return false;
    }
    return ua_gpu_aligned(p, nd - 1, xstep, step, 16);
}

/* One launch of ua_red_lanes: `outputs` threads over the plan (or a
 * thread per XVW of them, vec). */
static ua_status
launch_lanes(const ua_gpu_launcher *l, const red_call *c,
             const ua_gpu_types *t, const void *plan, int nd, size_t outputs,
             const char *x, ptrdiff_t n, ptrdiff_t step, int op, int fin,
             char *out, bool pairwise, long long dbits, bool vec)
{
    ua_gpu_arg a[] = {ptr(x),
                      ptr(out),
                      ptr(plan),
                      i32(nd),
                      i64((long long)outputs),
                      i64(n),
                      i64(step),
                      i32(op),
                      i32(c->centre != NULL && op == 4),
                      ptr(c->centre != NULL ? c->centre : x),
                      i64((long long)c->outputs),
                      i32(fin),
                      i64(dbits),
                      i32(pairwise)};
    if (vec) {
        return l->ops->launch(l->queue, t, UA_GPU_RED_LANES_VEC,
                              groups_for(outputs / vector_width(t->x)), a, 14);
    }
    return l->ops->launch(l->queue, t, UA_GPU_RED_LANES, groups_for(outputs),
                          a, 14);
}

/* Bytes in flight that keep a GPU's memory busy: each thread of
 * ua_red_lanes has BLOCK loads in flight (of 16-byte vectors in
 * ua_red_lanes_vec); fewer outputs split their runs, into as few pieces
 * as reach this, so that the second launch's threads add few partials.
 * 16 MiB is two groups a multiprocessor of an H200 for sum(m, axis=0) of
 * 8192 x 8192 float32 (32 pieces), 1.26x the 8 MiB's speed there. */
#define LANE_BYTES ((size_t)16 << 20)
/* The longest run whose pairwise sum ua_red_lanes keeps in registers
 * (the text's BLOCK << LANE_LEVELS): a longer pairwise run is split into
 * pieces of at most this many, where the plan has room for their axis. */
#define LANE_RUN 4096

/* A thread per output; where there are too few outputs for the device,
 * each run split into pieces of equal length (the last one's rest apart),
 * whose partials a second launch combines in order. */
static ua_status
run_lanes(const ua_gpu_launcher *l, const red_call *c, bool pairwise,
          long long dbits)
{
    int nd = c->nd;
    ptrdiff_t last = nd > 0 ? c->shape[nd - 1] : 1;
    bool vec = lanes_vectorize(c->t->x, c->x, nd, last, c->xstep, c->step);
    size_t threads = vec ? c->outputs / vector_width(c->t->x) : c->outputs;
    size_t load = vec ? 16 : ua_dtype_itemsize(c->t->x);
    size_t in_flight = threads * BLOCK * load;
    ptrdiff_t pieces = 1;
    size_t lane_bytes = ua_gpu_lane_bytes(LANE_BYTES);
    if (in_flight < lane_bytes && c->n >= 256) {
        pieces = (ptrdiff_t)(lane_bytes / in_flight);
        pieces = pieces < c->n / 64 ? pieces : c->n / 64;
    }
    if (pairwise && pieces < (c->n + LANE_RUN - 1) / LANE_RUN) {
        pieces = (c->n + LANE_RUN - 1) / LANE_RUN;
    }
    pieces = pieces < 4096 ? pieces : 4096;
    if (pieces <= 1 || c->nd + 1 > UA_MAXDIMS) {
        return launch_lanes(l, c, c->t, c->plan, c->nd, c->outputs, c->x, c->n,
                            c->step, c->op, c->fin, c->out, pairwise, dbits,
                            vec);
    }
    /* whole blocks of BLOCK a piece, whose loads go out together (a
     * piece of 171 rows, 24 MiB's, ran at 0.74x the 256 of 16 MiB's) */
    ptrdiff_t len = (c->n + pieces - 1) / pieces;
    len = (len + BLOCK - 1) / BLOCK * BLOCK;
    ptrdiff_t full = c->n / len, rest = c->n - full * len;
    ptrdiff_t count = full + (rest > 0);
    size_t asz = ua_dtype_itemsize(c->t->a);
    /* Pass 1's plan: the pieces, then the kept axes; partials dense, a row
     * of outputs per piece.  Pass 2's: the kept axes, read densely.  Both
     * in one upload (each a copy the stream runs before the kernels). */
    long long both[3 * (UA_MAXDIMS + 1) + 3 * UA_MAXDIMS];
    long long *p1 = both, *p2 = both + 3 * (nd + 1);
    long long dense = (long long)asz;
    for (int k = nd - 1; k >= 0; k--) {
        p1[1 + k] = c->shape[k];
        p1[nd + 2 + k] = c->xstep[k];
        p1[2 * nd + 3 + k] = dense;
        p2[k] = c->shape[k];
        p2[nd + k] = dense;
        p2[2 * nd + k] = c->rstep[k];
        dense *= c->shape[k];
    }
    p1[0] = full;
    p1[nd + 1] = (long long)len * c->step;
    p1[2 * nd + 2] = dense;
    void *plan1 = NULL, *plan2 = NULL, *part = NULL;
    ua_status st =
        ua_gpu_upload_longs(l, both, 3 * (size_t)(2 * nd + 1), &plan1);
    plan2 = st == UA_OK ? (long long *)plan1 + 3 * (nd + 1) : NULL;
    st = st == UA_OK ? l->ops->temporary(
                           l->queue, (size_t)count * c->outputs * asz, &part)
                     : st;
    if (st == UA_OK) {
        st = launch_lanes(l, c, c->t, plan1, nd + 1, (size_t)full * c->outputs,
                          c->x, len, c->step, c->op, 0, part, pairwise, dbits,
                          vec);
    }
    if (st == UA_OK && rest > 0) {
        st = launch_lanes(l, c, c->t, plan1, nd + 1, c->outputs,
                          c->x + full * len * c->step, rest, c->step, c->op, 0,
                          (char *)part + (size_t)full * c->outputs * asz,
                          pairwise, dbits, vec);
    }
    if (st == UA_OK) {
        /* The partials are the accumulator's values, read as they are. */
        ua_gpu_types partials = {c->t->a, c->t->a, false};
        ptrdiff_t dense_steps[UA_MAXDIMS];
        for (int k = 0; k < nd; k++) {
            dense_steps[k] = (ptrdiff_t)p2[nd + k];
        }
        bool vec2 = lanes_vectorize(c->t->a, part, nd, last, dense_steps,
                                    (ptrdiff_t)(c->outputs * asz));
        st =
            launch_lanes(l, c, &partials, plan2, nd, c->outputs, part, count,
                         (ptrdiff_t)(c->outputs * asz), c->op == 4 ? 0 : c->op,
                         c->fin, c->out, pairwise, dbits, vec2);
    }
    ua_gpu_release(l, part);
    ua_gpu_release(l, plan1);
    return st;
}

/* Vectors each thread of ua_red_dense reads per lane: a lane adds at
 * most this many elements in sequence. */
#define DENSE_VECTORS 32
/* Groups that keep a GPU's memory busy: a shorter run is split into
 * pieces of fewer vectors a thread, down to one, until it has as many
 * (a run of 1 Mi float32 in 512 groups rather than 32). */
#define DENSE_GROUPS 512

/* How ua_red_dense and ua_arg_dense split a plan's dense runs: pieces of
 * len elements, per per run, read as vectors where vec.  Sizes depend on
 * the types, lengths and output count alone, so every call adds in the
 * same order. */
typedef struct dense_split {
    ptrdiff_t len, per;
    int vec;
} dense_split;

static size_t
vector_width(ua_typenum x)
{
    size_t xsz = ua_dtype_itemsize(x);
    return xsz < 16 ? 16 / xsz : 1;
}

/* Whether c's runs are dense, and if so how to split them. */
static bool
dense_split_of(const red_call *c, dense_split *d)
{
    size_t xsz = ua_dtype_itemsize(c->t->x);
    if (c->step != (ptrdiff_t)xsz) {
        return false;
    }
    ptrdiff_t w = (ptrdiff_t)vector_width(c->t->x);
    ptrdiff_t vectors = DENSE_VECTORS;
    for (;;) {
        d->len = UA_GPU_GROUP * w * vectors;
        d->per = (c->n + d->len - 1) / d->len;
        if (vectors == 1 ||
            (double)c->outputs * (double)d->per >= DENSE_GROUPS) {
            break;
        }
        vectors /= 2;
    }
    d->vec = ua_gpu_aligned(c->x, c->nd, c->xstep, 0, 16);
    return true;
}

/* One launch of ua_red_dense: c's runs (or partials of xrow bytes per
 * output), results or partials to out. */
static ua_status
launch_dense(const ua_gpu_launcher *l, const red_call *c,
             const ua_gpu_types *t, const char *x, long long xrow, ptrdiff_t n,
             int op, const void *centre, const dense_split *d, char *out,
             long long dbits)
{
    ua_gpu_arg a[] = {ptr(x),
                      ptr(out),
                      ptr(c->plan),
                      i32(c->nd),
                      i64(xrow),
                      i64(d->per),
                      i64(d->len),
                      i64(n),
                      i32(op),
                      i32(centre != NULL),
                      ptr(centre != NULL ? centre : x),
                      i32(d->per > 1 ? 0 : c->fin),
                      i64(dbits),
                      i32(d->vec)};
    return l->ops->launch(l->queue, t, UA_GPU_RED_DENSE,
                          c->outputs * (size_t)d->per, a, 14);
}

/* Dense runs: ua_red_dense over the runs, then over each output's
 * partials (a dense row of them) until one is left. */
static ua_status
run_dense(const ua_gpu_launcher *l, const red_call *c, dense_split d,
          long long dbits)
{
    size_t asz = ua_dtype_itemsize(c->t->a);
    ua_gpu_types partials = {c->t->a, c->t->a, false};
    const ua_gpu_types *t = c->t;
    const char *x = c->x;
    long long xrow = 0;
    ptrdiff_t n = c->n;
    int op = c->op;
    const void *centre = c->centre;
    void *prev = NULL;
    ua_status st = UA_OK;
    for (;;) {
        void *part = NULL;
        if (d.per > 1) {
            st = l->ops->temporary(l->queue, c->outputs * (size_t)d.per * asz,
                                   &part);
            if (st != UA_OK) {
                break;
            }
        }
        st = launch_dense(l, c, t, x, xrow, n, op, centre, &d,
                          d.per > 1 ? part : c->out, dbits);
        ua_gpu_release(l, prev);
        prev = part;
        if (st != UA_OK || d.per == 1) {
            break;
        }
        /* The partials are the accumulator's values, summed (not
         * squared) on; temporaries are aligned for vectors when their
         * rows are. */
        x = part;
        n = d.per;
        xrow = (long long)(n * (ptrdiff_t)asz);
        op = op == 4 ? 0 : op;
        centre = NULL;
        t = &partials;
        d.len =
            UA_GPU_GROUP * (ptrdiff_t)vector_width(c->t->a) * DENSE_VECTORS;
        d.per = (n + d.len - 1) / d.len;
        d.vec = xrow % 16 == 0;
    }
    ua_gpu_release(l, prev);
    return st;
}

static ua_status
run_reduction(const ua_gpu_launcher *l, const red_call *c)
{
    char ak = ua_dtype_kind(c->t->a);
    bool pairwise = (ak == 'f' || ak == 'c') && (c->op == 0 || c->op == 4);
    long long dbits = real_bits(c->t->a, c->d);
    bool lanes = c->n <= BLOCK || (c->lanes_close && c->outputs >= 1024) ||
                 (c->outputs >= 16384 && c->n <= 64);
    if (lanes) {
        return run_lanes(l, c, pairwise, dbits);
    }
    dense_split d;
    if (dense_split_of(c, &d)) {
        return run_dense(l, c, d, dbits);
    }
    size_t asz = ua_dtype_itemsize(c->t->a);
    const char *x = c->x;
    ptrdiff_t n = c->n, step = c->step;
    long long xrow = 0;
    int op = c->op;
    const void *centre = c->centre;
    void *prev = NULL;
    ua_status st = UA_OK;
    /* Partials are the accumulator's values: the program that reads them
     * as they are. */
    const ua_gpu_types *t = c->t;
    ua_gpu_types partials = {c->t->a, c->t->a, false};
    for (;;) {
        ptrdiff_t chunks = (n + CHUNK - 1) / CHUNK;
        void *part = NULL;
        if (chunks > 1) {
            st = l->ops->temporary(l->queue, c->outputs * (size_t)chunks * asz,
                                   &part);
            if (st != UA_OK) {
                break;
            }
        }
        ua_gpu_arg a[] = {ptr(x),
                          ptr(chunks > 1 ? part : c->out),
                          ptr(c->plan),
                          i32(c->nd),
                          i64(xrow),
                          i64(chunks),
                          i64(n),
                          i64(step),
                          i32(op),
                          i32(centre != NULL),
                          ptr(centre != NULL ? centre : x),
                          i32(c->fin),
                          i64(dbits)};
        st = l->ops->launch(l->queue, t, UA_GPU_RED_CHUNKS,
                            c->outputs * (size_t)chunks, a, 13);
        ua_gpu_release(l, prev);
        prev = part;
        if (st != UA_OK || chunks == 1) {
            break;
        }
        /* The partials: a dense row per output, summed (not squared) on. */
        x = part;
        xrow = (long long)(chunks * (ptrdiff_t)asz);
        n = chunks;
        step = (ptrdiff_t)asz;
        op = op == 4 ? 0 : op;
        centre = NULL;
        t = &partials;
    }
    ua_gpu_release(l, prev);
    return st;
}

/* ua_arg_dense over c's dense runs: the results, or each piece's value
 * and index into part[0] and part[1] (temporaries) where d->per > 1. */
static ua_status
arg_dense_pass(const ua_gpu_launcher *l, const red_call *c,
               const dense_split *d, void *part[2])
{
    ua_status st = UA_OK;
    if (d->per > 1) {
        size_t count = c->outputs * (size_t)d->per;
        st = l->ops->temporary(l->queue, count * ua_dtype_itemsize(c->t->a),
                               &part[0]);
        st = st == UA_OK ? l->ops->temporary(l->queue, count * 8, &part[1])
                         : st;
        if (st != UA_OK) {
            return st;
        }
    }
    ua_gpu_arg a[] = {ptr(c->x),
                      ptr(d->per > 1 ? part[0] : c->out),
                      ptr(d->per > 1 ? part[1] : c->out),
                      ptr(c->plan),
                      i32(c->nd),
                      i64(d->per),
                      i64(d->len),
                      i64(c->n),
                      i32(c->op),
                      i32(d->vec)};
    return l->ops->launch(l->queue, c->t, UA_GPU_ARG_DENSE,
                          c->outputs * (size_t)d->per, a, 10);
}

static ua_status
run_arg_reduction(const ua_gpu_launcher *l, const red_call *c)
{
    size_t asz = ua_dtype_itemsize(c->t->a);
    const char *x = c->x;
    const long long *xi = NULL;
    ptrdiff_t n = c->n, step = c->step;
    long long xrow = 0;
    void *prev[2] = {NULL, NULL};
    ua_status st = UA_OK;
    const ua_gpu_types *t = c->t;
    ua_gpu_types partials = {c->t->a, c->t->a, false};
    dense_split d;
    if (dense_split_of(c, &d)) {
        st = arg_dense_pass(l, c, &d, prev);
        if (st != UA_OK || d.per == 1) {
            ua_gpu_release(l, prev[0]);
            ua_gpu_release(l, prev[1]);
            return st;
        }
        x = prev[0];
        xi = prev[1];
        t = &partials;
        n = d.per;
        xrow = (long long)(n * (ptrdiff_t)asz);
        step = (ptrdiff_t)asz;
    }
    for (;;) {
        ptrdiff_t chunks = (n + CHUNK - 1) / CHUNK;
        void *part[2] = {NULL, NULL};
        if (chunks > 1) {
            size_t count = c->outputs * (size_t)chunks;
            st = l->ops->temporary(l->queue, count * asz, &part[0]);
            st = st == UA_OK ? l->ops->temporary(l->queue, count * 8, &part[1])
                             : st;
            if (st != UA_OK) {
                ua_gpu_release(l, part[0]);
                break;
            }
        }
        ua_gpu_arg a[] = {ptr(x),
                          i32(xi != NULL),
                          ptr(xi != NULL ? (const void *)xi : x),
                          ptr(chunks > 1 ? part[0] : c->out),
                          ptr(chunks > 1 ? part[1] : c->out),
                          ptr(c->plan),
                          i32(c->nd),
                          i64(xrow),
                          i64(chunks),
                          i64(n),
                          i64(step),
                          i32(c->op)};
        st = l->ops->launch(l->queue, t, UA_GPU_ARG_CHUNKS,
                            c->outputs * (size_t)chunks, a, 12);
        ua_gpu_release(l, prev[0]);
        ua_gpu_release(l, prev[1]);
        prev[0] = part[0];
        prev[1] = part[1];
        if (st != UA_OK || chunks == 1) {
            break;
        }
        x = part[0];
        xi = part[1];
        t = &partials;
        xrow = (long long)(chunks * (ptrdiff_t)asz);
        n = chunks;
        step = (ptrdiff_t)asz;
    }
    ua_gpu_release(l, prev[0]);
    ua_gpu_release(l, prev[1]);
    return st;
}

static int
combiner_of(ua_reduce_op op)
{
    switch (op) {
    case UA_REDUCE_PROD:
        return 1;
    case UA_REDUCE_MIN:
    case UA_REDUCE_ALL:
    case UA_REDUCE_ARGMIN:
        return 2;
    case UA_REDUCE_MAX:
    case UA_REDUCE_ANY:
    case UA_REDUCE_ARGMAX:
        return 3;
    default:
        return 0;
    }
}

static ptrdiff_t
magnitude(ptrdiff_t v)
{
    return v < 0 ? -v : v;
}

/* VAR and STD: the mean of each run into a dense temporary (centre),
 * then the mean of the squared deviations from it. */
static ua_status
reduce_deviations(const ua_gpu_launcher *l, const ua_reduce_plan *p,
                  const run_input *in, red_call *c)
{
    size_t asz = ua_dtype_itemsize(c->t->a);
    ptrdiff_t dense[UA_MAXDIMS], s = (ptrdiff_t)asz;
    for (int k = p->nd - 1; k >= 0; k--) {
        dense[k] = s;
        s *= p->shape[k];
    }
    void *centre = NULL, *plan = NULL;
    ua_status st = l->ops->temporary(l->queue, c->outputs * asz, &centre);
    if (st != UA_OK) {
        return st;
    }
    st =
        ua_gpu_upload_reduce_plan(l, p->nd, p->shape, in->xstep, dense, &plan);
    if (st == UA_OK) {
        red_call m = *c;
        m.plan = plan;
        m.rstep = dense;
        m.op = 0;
        m.fin = 1;
        m.d = (double)p->n;
        m.out = centre;
        st = run_reduction(l, &m);
    }
    if (st == UA_OK) {
        double d = (double)p->n - p->correction;
        c->op = 4;
        c->centre = centre;
        c->fin = p->op == UA_REDUCE_STD ? 2 : 1;
        c->d = d > 0 ? d : NAN;
        st = run_reduction(l, c);
    }
    ua_gpu_release(l, plan);
    ua_gpu_release(l, centre);
    return st;
}

/* Complex min or max: run as argmin or argmax that write the value. */
static bool
complex_extreme(const ua_reduce_plan *p)
{
    return (p->op == UA_REDUCE_MIN || p->op == UA_REDUCE_MAX) &&
           ua_dtype_kind(p->xtype) == 'c';
}

static ua_status
reduce_with(const ua_gpu_launcher *l, const ua_reduce_plan *p)
{
    if (p->n == 0) {
        return write_empty(l, p);
    }
    bool arg = p->op == UA_REDUCE_ARGMIN || p->op == UA_REDUCE_ARGMAX;
    bool truth = p->op == UA_REDUCE_ALL || p->op == UA_REDUCE_ANY ||
                 p->op == UA_REDUCE_COUNT;
    ua_gpu_types t = {p->xtype,
                      p->op == UA_REDUCE_COUNT ? UA_UINT64
                      : truth                  ? UA_BOOL
                      : arg                    ? ua_accumulator_of(p->xtype)
                                               : ua_accumulator_of(p->rtype),
                      truth};
    run_input in;
    ua_status st =
        ua_gpu_stage_input(l, &t, truth ? UA_BOOL : t.a, p->nd, p->shape,
                           p->xstep, p->n, p->step, p->x, &in);
    /* COUNT's uint64 sum is the int64 result's bits. */
    bool same = arg || p->rtype == t.a ||
                (p->op == UA_REDUCE_COUNT && p->rtype == UA_INT64);
    size_t asz = ua_dtype_itemsize(t.a);
    run_output o = {NULL, {0}, NULL};
    st = st == UA_OK ? ua_gpu_prepare_output(l, same, asz, p->nd, p->shape,
                                             p->rstep, p->result, &o)
                     : st;
    void *plan = NULL;
    st = st == UA_OK ? ua_gpu_upload_reduce_plan(l, p->nd, p->shape, in.xstep,
                                                 o.rstep, &plan)
                     : st;
    if (st == UA_OK) {
        int nd = p->nd;
        red_call c = {&t,
                      nd,
                      p->shape,
                      plan,
                      in.xstep,
                      o.rstep,
                      product(nd, p->shape),
                      in.x,
                      p->n,
                      in.step,
                      nd > 0 &&
                          magnitude(in.xstep[nd - 1]) < magnitude(in.step),
                      combiner_of(p->op),
                      NULL,
                      p->op == UA_REDUCE_MEAN,
                      (double)p->n,
                      o.out};
        if (arg) {
            c.op = p->op == UA_REDUCE_ARGMIN ? 0 : 1;
            st = run_arg_reduction(l, &c);
        } else if (complex_extreme(p)) {
            /* The value of the first extreme, which partials combined
             * out of order lose among NaNs and equal values. */
            c.op = p->op == UA_REDUCE_MIN ? 2 : 3;
            st = run_arg_reduction(l, &c);
        } else if (p->op == UA_REDUCE_VAR || p->op == UA_REDUCE_STD) {
            st = reduce_deviations(l, p, &in, &c);
        } else {
            st = run_reduction(l, &c);
        }
    }
    ua_gpu_release(l, plan);
    ua_gpu_release(l, in.staged);
    if (st != UA_OK) {
        ua_gpu_release(l, o.temp);
        return st;
    }
    return ua_gpu_finish_output(l, &o, t.a, p->nd, p->shape, p->rstep,
                                p->result, p->rtype);
}

ua_status
ua_gpu_reduce(void *queue, const ua_reduce_plan *p)
{
    ua_gpu_launcher l = ua_gpu_bind(queue);
    return reduce_with(&l, p);
}
