/* The reductions, scans, sorts, searches, groups and matrix products of
 * the run-time compiled backends (reduce_gpu.h): the type layer of each
 * program, and each plan carried out as launches of reduce_kernels.inc.
 *
 * Elements the kernels cannot read as the accumulator's values by
 * themselves (a conversion other than a widening of integers or float16
 * to float32, or memory not aligned to its elements) are first copied
 * into a dense temporary by the backend's copy engine, which converts as
 * astype does; results of another type than the accumulator's go through
 * a dense temporary the same way. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/compute/reduce_gpu.h"
#include "reduce_kernels_text.h"

const char *const ua_gpu_kernel_names[UA_GPU_NKERNELS] = {
    "ua_red_lanes", "ua_red_chunks", "ua_arg_chunks",
    "ua_scan_rows", "ua_iota",       "ua_merge",
    "ua_search",    "ua_group",      "ua_matmul"};

enum {
    CHUNK = UA_GPU_GROUP * 16, /* elements a group of ua_red_chunks takes */
    BLOCK = 16
};

/* ------------------------------------------------------------ sources */

uint64_t
ua_gpu_types_key(const ua_gpu_types *t)
{
    return (uint64_t)ua_dtype_index(t->x) << 8 |
           (uint64_t)ua_dtype_index(t->a) << 1 | (uint64_t)t->truth;
}

static bool
is_wide(ua_typenum t)
{
    return t == UA_FLOAT64 || t == UA_COMPLEX128;
}

bool
ua_gpu_types_need_fp64(const ua_gpu_types *t)
{
    return is_wide(t->x) || is_wide(t->a);
}

/* The accumulator of values of type t. */
static ua_typenum
accumulator_of(ua_typenum t)
{
    switch (ua_dtype_kind(t)) {
    case 'b':
        return UA_BOOL;
    case 'i':
        return UA_INT64;
    case 'u':
        return UA_UINT64;
    default:
        return t == UA_FLOAT16 ? UA_FLOAT32 : t;
    }
}

/* The identities and constants of the accumulator's arithmetic. */
static void
write_identities(char *s, size_t cap, ua_typenum a)
{
    const char *sum = "0", *prod = "1", *min = "1", *max = "0", *zero = "0";
    switch (a) {
    case UA_FLOAT32:
        sum = "(-0.0f)", prod = "1.0f", min = "INFINITY", max = "(-INFINITY)",
        zero = "0.0f";
        break;
    case UA_FLOAT64:
        sum = "(-0.0)", prod = "1.0", min = "((double)INFINITY)",
        max = "(-(double)INFINITY)", zero = "0.0";
        break;
    case UA_COMPLEX64:
    case UA_COMPLEX128:
        sum = min = max = "a_c((RT)-0.0f, (RT)-0.0f)";
        prod = "a_c((RT)1, (RT)0)", zero = "a_c((RT)0, (RT)0)";
        break;
    case UA_INT64:
        min = "((A)0x7fffffffffffffff)";
        max = "((A)-0x7fffffffffffffff - (A)1)";
        break;
    case UA_UINT64:
        min = "((A)0xffffffffffffffff)";
        break;
    default:
        break;
    }
    snprintf(s, cap,
             "#define A_ID_SUM %s\n#define A_ID_PROD %s\n#define A_ID_MIN "
             "%s\n#define A_ID_MAX %s\n#define A_ZERO %s\n",
             sum, prod, min, max, zero);
}

/* The body of loadx: v (an X) as an A. */
static const char *
load_expression(const ua_gpu_types *t)
{
    char xk = ua_dtype_kind(t->x);
    if (t->truth) {
        return xk == 'c'            ? "(A)(v.re != 0 || v.im != 0)"
               : t->x == UA_FLOAT16 ? "(A)((v & 0x7fff) != 0)"
                                    : "(A)(v != 0)";
    }
    if (t->x == UA_FLOAT16) {
        return "HALF_TO_F(v)";
    }
    return t->x == t->a ? "v" : "(A)v";
}

char *
ua_gpu_program_source(const ua_gpu_language *l, const ua_gpu_types *t)
{
    char ids[512], layer[2048];
    char ak = ua_dtype_kind(t->a);
    write_identities(ids, sizeof ids, t->a);
    bool wide = t->a == UA_FLOAT64 || t->a == UA_COMPLEX128;
    snprintf(layer, sizeof layer,
             "typedef %s X;\ntypedef %s A;\n#define RT %s\n"
             "#define RT_FROM_BITS(b) %s\n"
             "#define A_COMPLEX %d\n#define A_FLOAT %d\n#define A_SIGNED %d\n"
             "#define A_BOOL %d\n#define X_HALF %d\n%s"
             "FN A loadx(GLOBAL const char *p) {\n"
             "  X v = *(GLOBAL const X *)p;\n  return %s;\n}\n",
             l->storage(t->x), l->storage(t->a), wide ? "double" : "float",
             wide ? "BITS_F64(b)" : "BITS_F32((int)(b))", ak == 'c', ak == 'f',
             ak == 'i', ak == 'b', t->x == UA_FLOAT16, ids,
             load_expression(t));
    size_t n = strlen(layer) + 1;
    for (int i = 0; l->header[i] != NULL; i++) {
        n += strlen(l->header[i]);
    }
    for (int i = 0; ua_reduce_kernel_text[i] != NULL; i++) {
        n += strlen(ua_reduce_kernel_text[i]);
    }
    char *s = malloc(n);
    if (s == NULL) {
        return NULL;
    }
    s[0] = '\0';
    for (int i = 0; l->header[i] != NULL; i++) {
        strcat(s, l->header[i]);
    }
    strcat(s, layer);
    for (int i = 0; ua_reduce_kernel_text[i] != NULL; i++) {
        strcat(s, ua_reduce_kernel_text[i]);
    }
    return s;
}

/* ----------------------------------------------------------- helpers */

static ua_gpu_arg
ptr(const void *p)
{
    return (ua_gpu_arg){UA_GPU_PTR, p, 0, 0};
}

static ua_gpu_arg
i64(long long v)
{
    return (ua_gpu_arg){UA_GPU_I64, NULL, v, 0};
}

static ua_gpu_arg
i32(int v)
{
    return (ua_gpu_arg){UA_GPU_I32, NULL, 0, v};
}

static size_t
groups_for(size_t items)
{
    return (items + UA_GPU_GROUP - 1) / UA_GPU_GROUP;
}

static size_t
product(int nd, const ptrdiff_t *shape)
{
    size_t n = 1;
    for (int k = 0; k < nd; k++) {
        n *= (size_t)shape[k];
    }
    return n;
}

/* Whether loadx reads x's elements as values of t's accumulator. */
static bool
loads_directly(const ua_gpu_types *t)
{
    char xk = ua_dtype_kind(t->x);
    if (t->truth || t->x == t->a) {
        return true;
    }
    if (t->x == UA_FLOAT16) {
        return t->a == UA_FLOAT32;
    }
    return (xk == 'b' || xk == 'i' || xk == 'u') &&
           (t->a == UA_INT64 || t->a == UA_UINT64);
}

/* Whether p and every step are multiples of size. */
static bool
aligned(const void *p, int nd, const ptrdiff_t *steps, ptrdiff_t step,
        size_t size)
{
    bool ok = (uintptr_t)p % size == 0 && step % (ptrdiff_t)size == 0;
    for (int k = 0; k < nd; k++) {
        ok = ok && steps[k] % (ptrdiff_t)size == 0;
    }
    return ok;
}

/* Device memory holding the longs of a plan (at least one). */
static ua_status
upload_longs(const ua_gpu_launcher *l, const long long *v, size_t n,
             void **dev)
{
    size_t bytes = (n ? n : 1) * sizeof(long long);
    ua_status st = l->temporary(l->queue, bytes, dev);
    if (st == UA_OK && n > 0) {
        st = l->upload(l->queue, *dev, v, bytes);
        if (st != UA_OK) {
            l->release_temporary(l->queue, *dev);
        }
    }
    return st;
}

/* A run of elements along one axis of x for each element of the other
 * axes' shape, as the kernels read it. */
typedef struct run_input {
    const char *x;
    ptrdiff_t xstep[UA_MAXDIMS];
    ptrdiff_t step;
    void *staged; /* a temporary to release, or NULL */
} run_input;

/* x as elements the program of t reads: where loadx cannot, copied into a
 * dense temporary of type `to` (C order, the run's axis last), which t
 * then reads instead. */
static ua_status
stage_input(const ua_gpu_launcher *l, ua_gpu_types *t, ua_typenum to, int nd,
            const ptrdiff_t *shape, const ptrdiff_t *xstep, ptrdiff_t n,
            ptrdiff_t step, const char *x, run_input *in)
{
    memcpy(in->xstep, xstep, sizeof(ptrdiff_t) * (size_t)nd);
    in->x = x;
    in->step = step;
    in->staged = NULL;
    size_t xsz = ua_dtype_itemsize(t->x);
    if (loads_directly(t) && aligned(x, nd, xstep, step, xsz)) {
        return UA_OK;
    }
    size_t tsz = ua_dtype_itemsize(to);
    ptrdiff_t full[UA_MAXDIMS + 1], dst_st[UA_MAXDIMS + 1],
        src_st[UA_MAXDIMS + 1];
    size_t count = product(nd, shape) * (size_t)n;
    ua_status st =
        l->temporary(l->queue, (count ? count : 1) * tsz, &in->staged);
    if (st != UA_OK) {
        return st;
    }
    ptrdiff_t dense = 1;
    full[nd] = n;
    dst_st[nd] = 1;
    src_st[nd] = step / (ptrdiff_t)xsz;
    dense = n;
    for (int k = nd - 1; k >= 0; k--) {
        full[k] = shape[k];
        dst_st[k] = dense;
        src_st[k] = xstep[k] / (ptrdiff_t)xsz;
        in->xstep[k] = dense * (ptrdiff_t)tsz;
        dense *= shape[k];
    }
    ua_strided d = {in->staged, dst_st, to};
    ua_strided s = {(char *)x, src_st, t->x};
    st = l->copy_strided(l->queue, nd + 1, full, &d, &s);
    in->x = in->staged;
    in->step = (ptrdiff_t)tsz;
    t->x = to;
    return st;
}

static void
release(const ua_gpu_launcher *l, void *p)
{
    if (p != NULL) {
        l->release_temporary(l->queue, p);
    }
}

/* Where a kernel writes results of type a that the plan wants as rtype at
 * result (steps rstep): there where the types agree, else a dense
 * temporary that finish_output converts from. */
typedef struct run_output {
    char *out;
    ptrdiff_t rstep[UA_MAXDIMS];
    void *temp;
} run_output;

static ua_status
prepare_output(const ua_gpu_launcher *l, bool same, size_t asz, int nd,
               const ptrdiff_t *shape, const ptrdiff_t *rstep, char *result,
               run_output *o)
{
    o->temp = NULL;
    o->out = result;
    memcpy(o->rstep, rstep, sizeof(ptrdiff_t) * (size_t)nd);
    if (same) {
        return UA_OK;
    }
    size_t count = product(nd, shape);
    ua_status st = l->temporary(l->queue, (count ? count : 1) * asz, &o->temp);
    ptrdiff_t dense = (ptrdiff_t)asz;
    for (int k = nd - 1; k >= 0; k--) {
        o->rstep[k] = dense;
        dense *= shape[k];
    }
    o->out = o->temp;
    return st;
}

static ua_status
finish_output(const ua_gpu_launcher *l, run_output *o, ua_typenum a, int nd,
              const ptrdiff_t *shape, const ptrdiff_t *rstep, char *result,
              ua_typenum rtype)
{
    if (o->temp == NULL) {
        return UA_OK;
    }
    size_t asz = ua_dtype_itemsize(a), rsz = ua_dtype_itemsize(rtype);
    ptrdiff_t ds[UA_MAXDIMS], ss[UA_MAXDIMS];
    for (int k = 0; k < nd; k++) {
        ds[k] = rstep[k] / (ptrdiff_t)rsz;
        ss[k] = o->rstep[k] / (ptrdiff_t)asz;
    }
    ua_strided d = {result, ds, rtype}, s = {o->temp, ss, a};
    ua_status st = l->copy_strided(l->queue, nd, shape, &d, &s);
    release(l, o->temp);
    return st;
}

/* ------------------------------------------------------- reductions */

/* The result of a reduction over no elements: the identity of SUM,
 * COUNT, PROD, ALL, ANY, or NaN for MEAN, in every element. */
static ua_status
write_empty(const ua_gpu_launcher *l, const ua_reduce_plan *p)
{
    double v[2] = {p->op == UA_REDUCE_PROD || p->op == UA_REDUCE_ALL ? 1.0
                   : p->op == UA_REDUCE_MEAN                         ? NAN
                                                                     : 0.0,
                   p->op == UA_REDUCE_MEAN ? NAN : 0.0};
    unsigned char bits[16];
    ptrdiff_t zero = 0, one = 1;
    ua_strided hd = {(char *)bits, &one, p->rtype};
    ua_strided hs = {(char *)v, &zero, UA_COMPLEX128};
    ua_copy_strided_host(1, &one, &hd, &hs);
    size_t rsz = ua_dtype_itemsize(p->rtype);
    void *dev;
    ua_status st = l->temporary(l->queue, rsz, &dev);
    if (st != UA_OK) {
        return st;
    }
    st = l->upload(l->queue, dev, bits, rsz);
    ptrdiff_t strides[UA_MAXDIMS], zeros[UA_MAXDIMS] = {0};
    for (int k = 0; k < p->nd; k++) {
        strides[k] = p->rstep[k] / (ptrdiff_t)rsz;
    }
    ua_strided d = {p->result, strides, p->rtype};
    ua_strided s = {dev, zeros, p->rtype};
    st = st == UA_OK ? l->copy_strided(l->queue, p->nd, p->shape, &d, &s) : st;
    release(l, dev);
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

/* One launch of ua_red_lanes: `outputs` threads over the plan. */
static ua_status
launch_lanes(const ua_gpu_launcher *l, const red_call *c, const void *plan,
             int nd, size_t outputs, const char *x, ptrdiff_t n,
             ptrdiff_t step, int op, int fin, char *out, bool pairwise,
             long long dbits)
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
    return l->launch(l->queue, c->t, UA_GPU_RED_LANES, groups_for(outputs), a,
                     14);
}

/* Threads that keep a GPU busy; fewer outputs split their runs. */
#define LANE_THREADS (1 << 17)

/* A thread per output; where there are too few outputs for the device,
 * each run split into pieces of equal length (the last one's rest apart),
 * whose partials a second launch combines in order. */
static ua_status
run_lanes(const ua_gpu_launcher *l, const red_call *c, bool pairwise,
          long long dbits)
{
    ptrdiff_t pieces = 1;
    if (c->outputs < LANE_THREADS && c->n >= 256) {
        pieces = (ptrdiff_t)(LANE_THREADS / c->outputs);
        pieces = pieces < c->n / 64 ? pieces : c->n / 64;
        pieces = pieces < 4096 ? pieces : 4096;
    }
    if (pieces <= 1 || c->nd + 1 > UA_MAXDIMS) {
        return launch_lanes(l, c, c->plan, c->nd, c->outputs, c->x, c->n,
                            c->step, c->op, c->fin, c->out, pairwise, dbits);
    }
    ptrdiff_t len = (c->n + pieces - 1) / pieces;
    ptrdiff_t full = c->n / len, rest = c->n - full * len;
    ptrdiff_t count = full + (rest > 0);
    size_t asz = ua_dtype_itemsize(c->t->a);
    int nd = c->nd;
    /* Pass 1's plan: the pieces, then the kept axes; partials dense, a row
     * of outputs per piece.  Pass 2's: the kept axes, read densely. */
    long long p1[3 * (UA_MAXDIMS + 1)], p2[3 * UA_MAXDIMS];
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
    ua_status st = upload_longs(l, p1, 3 * (size_t)(nd + 1), &plan1);
    st = st == UA_OK ? upload_longs(l, p2, 3 * (size_t)nd, &plan2) : st;
    st = st == UA_OK
             ? l->temporary(l->queue, (size_t)count * c->outputs * asz, &part)
             : st;
    if (st == UA_OK) {
        st = launch_lanes(l, c, plan1, nd + 1, (size_t)full * c->outputs, c->x,
                          len, c->step, c->op, 0, part, pairwise, dbits);
    }
    if (st == UA_OK && rest > 0) {
        st = launch_lanes(l, c, plan1, nd + 1, c->outputs,
                          c->x + full * len * c->step, rest, c->step, c->op, 0,
                          (char *)part + (size_t)full * c->outputs * asz,
                          pairwise, dbits);
    }
    if (st == UA_OK) {
        st =
            launch_lanes(l, c, plan2, nd, c->outputs, part, count,
                         (ptrdiff_t)(c->outputs * asz), c->op == 4 ? 0 : c->op,
                         c->fin, c->out, pairwise, dbits);
    }
    release(l, part);
    release(l, plan2);
    release(l, plan1);
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
            st = l->temporary(l->queue, c->outputs * (size_t)chunks * asz,
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
        st = l->launch(l->queue, t, UA_GPU_RED_CHUNKS,
                       c->outputs * (size_t)chunks, a, 13);
        release(l, prev);
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
    release(l, prev);
    return st;
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
    for (;;) {
        ptrdiff_t chunks = (n + CHUNK - 1) / CHUNK;
        void *part[2] = {NULL, NULL};
        if (chunks > 1) {
            size_t count = c->outputs * (size_t)chunks;
            st = l->temporary(l->queue, count * asz, &part[0]);
            st =
                st == UA_OK ? l->temporary(l->queue, count * 8, &part[1]) : st;
            if (st != UA_OK) {
                release(l, part[0]);
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
        st = l->launch(l->queue, t, UA_GPU_ARG_CHUNKS,
                       c->outputs * (size_t)chunks, a, 12);
        release(l, prev[0]);
        release(l, prev[1]);
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
    release(l, prev[0]);
    release(l, prev[1]);
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

/* A plan's axes for the kernels, on the device. */
static ua_status
upload_reduce_plan(const ua_gpu_launcher *l, int nd, const ptrdiff_t *shape,
                   const ptrdiff_t *xstep, const ptrdiff_t *rstep, void **dev)
{
    long long v[3 * UA_MAXDIMS];
    for (int k = 0; k < nd; k++) {
        v[k] = shape[k];
        v[nd + k] = xstep[k];
        v[2 * nd + k] = rstep[k];
    }
    return upload_longs(l, v, 3 * (size_t)nd, dev);
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
    ua_status st = l->temporary(l->queue, c->outputs * asz, &centre);
    if (st != UA_OK) {
        return st;
    }
    st = upload_reduce_plan(l, p->nd, p->shape, in->xstep, dense, &plan);
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
    release(l, plan);
    release(l, centre);
    return st;
}

ua_status
ua_gpu_reduce(const ua_gpu_launcher *l, const ua_reduce_plan *p)
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
                      : arg                    ? accumulator_of(p->xtype)
                                               : accumulator_of(p->rtype),
                      truth};
    run_input in;
    ua_status st = stage_input(l, &t, truth ? UA_BOOL : t.a, p->nd, p->shape,
                               p->xstep, p->n, p->step, p->x, &in);
    /* COUNT's uint64 sum is the int64 result's bits. */
    bool same = arg || p->rtype == t.a ||
                (p->op == UA_REDUCE_COUNT && p->rtype == UA_INT64);
    size_t asz = ua_dtype_itemsize(t.a);
    run_output o = {NULL, {0}, NULL};
    st = st == UA_OK ? prepare_output(l, same, asz, p->nd, p->shape, p->rstep,
                                      p->result, &o)
                     : st;
    void *plan = NULL;
    st = st == UA_OK
             ? upload_reduce_plan(l, p->nd, p->shape, in.xstep, o.rstep, &plan)
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
        } else if (p->op == UA_REDUCE_VAR || p->op == UA_REDUCE_STD) {
            st = reduce_deviations(l, p, &in, &c);
        } else {
            st = run_reduction(l, &c);
        }
    }
    release(l, plan);
    release(l, in.staged);
    if (st != UA_OK) {
        release(l, o.temp);
        return st;
    }
    return finish_output(l, &o, t.a, p->nd, p->shape, p->rstep, p->result,
                         p->rtype);
}

/* ------------------------------------------------------------ scans */

ua_status
ua_gpu_scan(const ua_gpu_launcher *l, const ua_scan_plan *p)
{
    ptrdiff_t outlen = p->op == UA_SCAN_DIFF ? p->n - 1 : p->n + p->initial;
    size_t rows = product(p->nd, p->shape);
    if (outlen <= 0 || rows == 0) {
        return UA_OK;
    }
    ua_gpu_types t = {p->xtype, accumulator_of(p->rtype), false};
    run_input in;
    ua_status st = stage_input(l, &t, t.a, p->nd, p->shape, p->xstep, p->n,
                               p->step, p->x, &in);
    /* The result's shape with the scanned axis last. */
    int nd = p->nd;
    ptrdiff_t shape[UA_MAXDIMS + 1], rstep[UA_MAXDIMS + 1];
    memcpy(shape, p->shape, sizeof(ptrdiff_t) * (size_t)nd);
    memcpy(rstep, p->rstep, sizeof(ptrdiff_t) * (size_t)nd);
    shape[nd] = outlen;
    rstep[nd] = p->rstep_axis;
    size_t asz = ua_dtype_itemsize(t.a);
    run_output o = {NULL, {0}, NULL};
    st = st == UA_OK ? prepare_output(l, p->rtype == t.a, asz, nd + 1, shape,
                                      rstep, p->result, &o)
                     : st;
    void *plan = NULL;
    st = st == UA_OK
             ? upload_reduce_plan(l, nd, p->shape, in.xstep, o.rstep, &plan)
             : st;
    if (st == UA_OK) {
        int op = p->op == UA_SCAN_CUMSUM    ? 0
                 : p->op == UA_SCAN_CUMPROD ? 1
                                            : 2;
        ua_gpu_arg a[] = {ptr(in.x),
                          ptr(o.out),
                          ptr(plan),
                          i32(nd),
                          i64((long long)rows),
                          i64(p->n),
                          i64(in.step),
                          i64(o.rstep[nd]),
                          i32(op),
                          i32(p->initial),
                          i32(p->rtype == UA_FLOAT16)};
        st =
            l->launch(l->queue, &t, UA_GPU_SCAN_ROWS, groups_for(rows), a, 11);
    }
    release(l, plan);
    release(l, in.staged);
    if (st != UA_OK) {
        release(l, o.temp);
        return st;
    }
    return finish_output(l, &o, t.a, nd + 1, shape, rstep, p->result,
                         p->rtype);
}

/* ---------------------------------------------------------- sorting */

static ua_gpu_types
order_types(ua_typenum type)
{
    return (ua_gpu_types){type, accumulator_of(type), false};
}

ua_status
ua_gpu_sort(const ua_gpu_launcher *l, const ua_sort_plan *p)
{
    ua_gpu_types t = order_types(p->type);
    size_t total = (size_t)p->rows * (size_t)p->n;
    if (total == 0) {
        return UA_OK;
    }
    ua_status st = UA_OK;
    if (p->index != NULL) {
        ua_gpu_arg a[] = {ptr(p->index), i64(p->rows), i64(p->n)};
        st = l->launch(l->queue, &t, UA_GPU_IOTA, groups_for(total), a, 3);
    }
    if (st != UA_OK || p->n < 2) {
        return st;
    }
    size_t isz = ua_dtype_itemsize(p->type);
    void *tmp = NULL, *itmp = NULL;
    st = l->temporary(l->queue, total * isz, &tmp);
    if (st == UA_OK && p->index != NULL) {
        st = l->temporary(l->queue, total * 8, &itmp);
    }
    char *src = p->data, *dst = tmp;
    int64_t *isrc = p->index, *idst = itmp;
    for (ptrdiff_t w = 1; st == UA_OK && w < p->n; w *= 2) {
        ua_gpu_arg a[] = {ptr(src),
                          ptr(dst),
                          i32(p->index != NULL),
                          ptr(isrc != NULL ? (void *)isrc : src),
                          ptr(idst != NULL ? (void *)idst : dst),
                          i64(p->rows),
                          i64(p->n),
                          i64(w),
                          i32(p->descending)};
        st = l->launch(l->queue, &t, UA_GPU_MERGE, groups_for(total), a, 9);
        char *ts = src;
        src = dst;
        dst = ts;
        int64_t *ti = isrc;
        isrc = idst;
        idst = ti;
    }
    if (st == UA_OK && src != p->data) {
        ptrdiff_t one = 1, n = (ptrdiff_t)total;
        ua_strided d = {p->data, &one, p->type}, s = {src, &one, p->type};
        st = l->copy_strided(l->queue, 1, &n, &d, &s);
        if (st == UA_OK && p->index != NULL) {
            ua_strided di = {(char *)p->index, &one, UA_INT64};
            ua_strided si = {(char *)isrc, &one, UA_INT64};
            st = l->copy_strided(l->queue, 1, &n, &di, &si);
        }
    }
    release(l, tmp);
    release(l, itmp);
    return st;
}

ua_status
ua_gpu_search(const ua_gpu_launcher *l, const ua_search_plan *p)
{
    if (p->m == 0) {
        return UA_OK;
    }
    ua_gpu_types t = order_types(p->type);
    ua_gpu_arg a[] = {ptr(p->n > 0 ? p->sorted : p->needles),
                      i64(p->n),
                      ptr(p->needles),
                      i64(p->m),
                      ptr(p->result),
                      i32(p->right)};
    return l->launch(l->queue, &t, UA_GPU_SEARCH, groups_for((size_t)p->m), a,
                     6);
}

ua_status
ua_gpu_group(const ua_gpu_launcher *l, const ua_group_plan *p,
             ptrdiff_t *count)
{
    *count = 0;
    if (p->n == 0) {
        return UA_OK;
    }
    ua_gpu_types t = order_types(p->type);
    void *dev = NULL;
    ua_status st = l->temporary(l->queue, 8, &dev);
    if (st != UA_OK) {
        return st;
    }
    ua_gpu_arg a[] = {ptr(p->sorted),
                      i64(p->n),
                      ptr(p->group),
                      i32(p->starts != NULL),
                      ptr(p->starts != NULL ? p->starts : p->group),
                      ptr(dev)};
    st = l->launch(l->queue, &t, UA_GPU_GROUP_RUNS, 1, a, 6);
    long long c = 0;
    st = st == UA_OK ? l->download(l->queue, &c, dev, 8) : st;
    *count = (ptrdiff_t)c;
    release(l, dev);
    return st;
}

/* --------------------------------------------------------- products */

ua_status
ua_gpu_matmul(const ua_gpu_launcher *l, const ua_matmul_plan *p)
{
    size_t batch = product(p->nd, p->shape);
    size_t total = batch * (size_t)p->m * (size_t)p->n;
    if (total == 0) {
        return UA_OK;
    }
    ua_gpu_types t = order_types(p->type);
    size_t asz = ua_dtype_itemsize(t.a), isz = ua_dtype_itemsize(p->type);
    bool direct = t.a == p->type;
    int nd = p->nd;
    /* The whole result's shape (batch, m, n) and steps. */
    ptrdiff_t shape[UA_MAXDIMS + 2], cstep[UA_MAXDIMS + 2];
    memcpy(shape, p->shape, sizeof(ptrdiff_t) * (size_t)nd);
    memcpy(cstep, p->cstep, sizeof(ptrdiff_t) * (size_t)nd);
    shape[nd] = p->m;
    shape[nd + 1] = p->n;
    cstep[nd] = p->cm;
    cstep[nd + 1] = p->cn;
    bool ok = aligned(p->a, nd, p->astep, p->am, isz) &&
              aligned(p->a, 0, NULL, p->ak, isz) &&
              aligned(p->b, nd, p->bstep, p->bk, isz) &&
              aligned(p->b, 0, NULL, p->bn, isz) &&
              aligned(p->c, nd, p->cstep, p->cm, isz) &&
              aligned(p->c, 0, NULL, p->cn, isz);
    if (!ok) {
        return ua_error_set(UA_ERR_VALUE,
                            "matmul on this device needs operands aligned "
                            "to their elements");
    }
    run_output o = {NULL, {0}, NULL};
    ua_status st =
        prepare_output(l, direct, asz, nd + 2, shape, cstep, p->c, &o);
    long long v[4 * UA_MAXDIMS];
    for (int k = 0; k < nd; k++) {
        v[k] = p->shape[k];
        v[nd + k] = p->astep[k];
        v[2 * nd + k] = p->bstep[k];
        v[3 * nd + k] = o.rstep[k];
    }
    void *plan = NULL;
    st = st == UA_OK ? upload_longs(l, v, 4 * (size_t)nd, &plan) : st;
    if (st == UA_OK) {
        long long tm = (p->m + 15) / 16, tn = (p->n + 15) / 16;
        ua_gpu_arg a[] = {
            ptr(p->a),     ptr(p->b),  ptr(o.out),       ptr(plan),
            i32(nd),       i64(tm),    i64(tn),          i64(p->m),
            i64(p->n),     i64(p->k),  i64(p->am),       i64(p->ak),
            i64(p->bk),    i64(p->bn), i64(o.rstep[nd]), i64(o.rstep[nd + 1]),
            i32(p->conj_a)};
        /* Tiles of 16 x 16 (the kernel's TILE): a group each. */
        st = l->launch(l->queue, &t, UA_GPU_MATMUL,
                       batch * (size_t)tm * (size_t)tn, a, 17);
    }
    release(l, plan);
    if (st != UA_OK) {
        release(l, o.temp);
        return st;
    }
    return finish_output(l, &o, t.a, nd + 2, shape, cstep, p->c, p->type);
}
