/* The host backend's scans along an axis (cumulative sums and products,
 * differences) and its argmin and argmax (core/compute/reduce_kernels.h).
 *
 * A scan runs in sequence along its axis, as NumPy's accumulate does, so
 * that the bits match NumPy's: a float16 scan rounds to float16 after each
 * step, integers wrap.  Where the axis is not the closest in memory (a
 * scan along axis 0 of a C-ordered matrix), neighbouring columns run
 * together as lanes, one row at a time, which the compiler vectorizes
 * without changing any column's order of operations.  Elements go
 * through tiles of the accumulator's type where the types differ. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host/host_kernels.h"
#include "backends/host/host_threads.h"
#include "core/compute/kernels.h"

enum { WMAX = 256, TILE = 4096 };

typedef float _Complex cf;
typedef double _Complex cd;

/* Signed integers scan as uint64: wrapping arithmetic, with int64's bits. */
static ua_typenum
scan_accumulator_of(ua_typenum t)
{
    ua_typenum a = ua_accumulator_of(t);
    return a == UA_INT64 ? UA_UINT64 : a;
}

static ptrdiff_t
magnitude(ptrdiff_t v)
{
    return v < 0 ? -v : v;
}

/* A tile of m rows by w lanes of elements of type t. */
typedef struct tile {
    char *data;
    ptrdiff_t ls, rs;
} tile;

/* Copies m rows by w lanes between two layouts (strides in bytes),
 * casting as astype does. */
static void
move_tile(ptrdiff_t m, ptrdiff_t w, char *dst, ptrdiff_t dls, ptrdiff_t drs,
          ua_typenum dt, const char *src, ptrdiff_t sls, ptrdiff_t srs,
          ua_typenum st)
{
    ptrdiff_t dsz = (ptrdiff_t)ua_dtype_itemsize(dt);
    ptrdiff_t ssz = (ptrdiff_t)ua_dtype_itemsize(st);
    ptrdiff_t shape[2] = {m, w};
    ptrdiff_t ds[2] = {drs / dsz, dls / dsz}, ss[2] = {srs / ssz, sls / ssz};
    ua_strided d = {dst, ds, dt}, s = {(char *)src, ss, st};
    ua_copy_strided_host(2, shape, &d, &s);
}

#define MUL_REAL(a, b) ((a) * (b))
#define MUL_CF(a, b)                                                          \
    CMPLXF(crealf(a) * crealf(b) - cimagf(a) * cimagf(b),                     \
           crealf(a) * cimagf(b) + cimagf(a) * crealf(b))
#define MUL_CD(a, b)                                                          \
    CMPLX(creal(a) * creal(b) - cimag(a) * cimag(b),                          \
          creal(a) * cimag(b) + cimag(a) * creal(b))
#define SUB_REAL(a, b) ((a) - (b))
#define SUB_BOOL(a, b) ((a) != (b))
/* NumPy's logaddexp, as its float and double loops compute it: equal
 * operands (infinities of one sign included) give a + log 2, a NaN
 * difference the NaN. */
#define LN2 0.693147180559945309417232121458176568
static inline double
logaddexp_f8(double a, double b)
{
    if (a == b) {
        return a + LN2;
    }
    double d = a - b;
    return d > 0 ? a + log1p(exp(-d)) : d <= 0 ? b + log1p(exp(d)) : d;
}

static inline float
logaddexp_f4(float a, float b)
{
    if (a == b) {
        return a + (float)LN2;
    }
    float d = a - b;
    return d > 0 ? a + log1pf(expf(-d)) : d <= 0 ? b + log1pf(expf(d)) : d;
}

/* The other accumulators never take LOGSUMEXP: the core plans it into
 * real floating results only. */
#define NO_LAE(a, v) (a)
#define KEEP(v) (v)
#define HALF(v) ua_half_to_float(ua_half_from_double((double)(v)))

/* m rows of w lanes: in (ls, rs) to out (ols, ors); acc and prev hold
 * each lane's running value and previous element.  DIFF writes row i - 1
 * for each row i > 0 of the whole run (first: whether row 0 of the tile
 * is the run's first). */
#define LOOP(T, EXPR)                                                         \
    for (ptrdiff_t i = 0; i < m; i++) {                                       \
        const char *src = in + i * rs;                                        \
        char *dst = out + i * ors;                                            \
        for (ptrdiff_t l = 0; l < w; l++) {                                   \
            T v, *a = (T *)acc + l;                                           \
            memcpy(&v, src + l * ls, sizeof v);                               \
            EXPR;                                                             \
        }                                                                     \
    }

#define DEFINE_SCAN(S, T, MUL, SUB, LAE, ROUND)                               \
    static void scan_##S(ua_scan_op op, ptrdiff_t m, ptrdiff_t w,             \
                         const char *in, ptrdiff_t ls, ptrdiff_t rs,          \
                         char *out, ptrdiff_t ols, ptrdiff_t ors, void *acc,  \
                         bool first)                                          \
    {                                                                         \
        switch (op) {                                                         \
        case UA_SCAN_CUMSUM:                                                  \
            LOOP(T, *a = ROUND(*a + v); memcpy(dst + l * ols, a, sizeof v));  \
            break;                                                            \
        case UA_SCAN_CUMPROD:                                                 \
            LOOP(T, *a = ROUND(MUL(*a, v));                                   \
                 memcpy(dst + l * ols, a, sizeof v));                         \
            break;                                                            \
        case UA_SCAN_LOGSUMEXP:                                               \
            /* The run's first element as it is (a -0.0 keeps its sign), \
             * as NumPy's accumulate starts. */    \
            LOOP(T, *a = i == 0 && first ? v : ROUND(LAE(*a, v));             \
                 memcpy(dst + l * ols, a, sizeof v));                         \
            break;                                                            \
        default:                                                              \
            /* acc holds the previous element; out is one row behind. */      \
            LOOP(                                                             \
                T, if (i > 0 || !first) {                                     \
                    T d = ROUND(SUB(v, *a));                                  \
                    memcpy(dst - ors + l * ols, &d, sizeof d);                \
                } *a = v);                                                    \
        }                                                                     \
    }

DEFINE_SCAN(f2, float, MUL_REAL, SUB_REAL, logaddexp_f4, HALF)
DEFINE_SCAN(f4, float, MUL_REAL, SUB_REAL, logaddexp_f4, KEEP)
DEFINE_SCAN(f8, double, MUL_REAL, SUB_REAL, logaddexp_f8, KEEP)
DEFINE_SCAN(c8, cf, MUL_CF, SUB_REAL, NO_LAE, KEEP)
DEFINE_SCAN(c16, cd, MUL_CD, SUB_REAL, NO_LAE, KEEP)
DEFINE_SCAN(u8, uint64_t, MUL_REAL, SUB_REAL, NO_LAE, KEEP)
DEFINE_SCAN(b1, uint8_t, MUL_REAL, SUB_BOOL, NO_LAE, KEEP)

typedef void (*scan_fn)(ua_scan_op, ptrdiff_t, ptrdiff_t, const char *,
                        ptrdiff_t, ptrdiff_t, char *, ptrdiff_t, ptrdiff_t,
                        void *, bool);

static scan_fn
scan_for(ua_typenum a, ua_typenum rtype)
{
    switch (a) {
    case UA_FLOAT32:
        return rtype == UA_FLOAT16 ? scan_f2 : scan_f4;
    case UA_FLOAT64:
        return scan_f8;
    case UA_COMPLEX64:
        return scan_c8;
    case UA_COMPLEX128:
        return scan_c16;
    case UA_UINT64:
        return scan_u8;
    default:
        return scan_b1;
    }
}

/* The identity of op in type a, w times: a sum's as +0 (include_initial's
 * value), or as -0.0 where `start` (a running sum's start, so that a run
 * of -0.0 keeps its sign, as NumPy's cumsum, which starts from the first
 * element); logaddexp's -inf, from which the first step gives the first
 * element itself. */
static void
scan_identity(ua_scan_op op, ua_typenum a, ptrdiff_t w, char *acc, bool start)
{
    double z = start ? -0.0 : 0.0;
    double v[2] = {op == UA_SCAN_CUMPROD     ? 1.0
                   : op == UA_SCAN_LOGSUMEXP ? -HUGE_VAL
                                             : z,
                   z};
    ptrdiff_t zero = 0, one = 1;
    ua_strided d = {acc, &one, a}, s = {(char *)v, &zero, UA_COMPLEX128};
    ua_copy_strided_host(1, &w, &d, &s);
}

typedef struct scanner {
    const ua_scan_plan *p;
    ua_typenum a;
    size_t asz;
    scan_fn fn;
    char *in, *out; /* tiles of TILE accumulator elements */
} scanner;

/* Running sums of n dense elements in sequence, kept in a register (a
 * sum read back from memory would wait for its store on every step). */
#define DEFINE_CUMSUM(S, T)                                                   \
    UA_HOST_CLONES static void cumsum_##S(const char *x_, char *out_,         \
                                          ptrdiff_t n, void *acc)             \
    {                                                                         \
        const T *restrict x = (const T *)(const void *)x_;                    \
        T *restrict out = (T *)(void *)out_;                                  \
        T a;                                                                  \
        memcpy(&a, acc, sizeof a);                                            \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            a = a + x[i];                                                     \
            out[i] = a;                                                       \
        }                                                                     \
        memcpy(acc, &a, sizeof a);                                            \
    }

DEFINE_CUMSUM(f4, float)
DEFINE_CUMSUM(f8, double)
DEFINE_CUMSUM(u8, uint64_t)

/* 64-bit integers wrap, so that any grouping of their sums gives the same
 * bits: a long run splits over the threads, each part's total first, then
 * each part's running sums from the totals before it (the output's pages,
 * which the kernel zeroes as they are first written, are then met on every
 * core). */
enum { CUMSUM_PARTS = 64 };

UA_HOST_CLONES static uint64_t
total_u8(const uint64_t *x, ptrdiff_t n)
{
    uint64_t s = 0;
    for (ptrdiff_t i = 0; i < n; i++) {
        s += x[i];
    }
    return s;
}

typedef struct cumsum_job {
    const char *x;
    char *out;
    ptrdiff_t n;
    uint64_t start, total[CUMSUM_PARTS];
} cumsum_job;

static void
cumsum_total_part(void *ctx, int part, int parts)
{
    cumsum_job *j = ctx;
    ptrdiff_t a = j->n * part / parts, b = j->n * (part + 1) / parts;
    j->total[part] = total_u8((const uint64_t *)(const void *)j->x + a, b - a);
}

static void
cumsum_run_part(void *ctx, int part, int parts)
{
    cumsum_job *j = ctx;
    ptrdiff_t a = j->n * part / parts, b = j->n * (part + 1) / parts;
    uint64_t acc = j->start;
    for (int k = 0; k < part; k++) {
        acc += j->total[k];
    }
    cumsum_u8(j->x + a * 8, j->out + a * 8, b - a, &acc);
}

static void
cumsum_u8_threads(const char *x, char *out, ptrdiff_t n, void *acc)
{
    /* four parts a thread, so that on a busy machine a thread that waits
     * for its core holds a small share */
    int parts = ua_host_parts((size_t)n * 24, 1) * 4;
    parts = parts < CUMSUM_PARTS ? parts : CUMSUM_PARTS;
    if (parts <= 4 || n < parts) {
        cumsum_u8(x, out, n, acc);
        return;
    }
    cumsum_job j = {x, out, n, 0, {0}};
    memcpy(&j.start, acc, sizeof j.start);
    ua_host_parallel(parts, cumsum_total_part, &j);
    ua_host_parallel(parts, cumsum_run_part, &j);
    for (int k = 0; k < parts; k++) {
        j.start += j.total[k];
    }
    memcpy(acc, &j.start, sizeof j.start);
}

/* A cumulative sum of one dense run into a dense result of x's type, for
 * float32, float64 and 64-bit integers (which wrap alike); false for
 * the others. */
static bool
cumsum_dense(const ua_scan_plan *p, const char *x, char *res, void *acc)
{
    ptrdiff_t sz = (ptrdiff_t)ua_dtype_itemsize(p->xtype);
    if (p->op != UA_SCAN_CUMSUM || p->xtype != p->rtype || p->step != sz ||
        p->rstep_axis != sz) {
        return false;
    }
    switch (p->xtype) {
    case UA_FLOAT32:
        cumsum_f4(x, res, p->n, acc);
        return true;
    case UA_FLOAT64:
        cumsum_f8(x, res, p->n, acc);
        return true;
    case UA_INT64:
    case UA_UINT64:
        cumsum_u8_threads(x, res, p->n, acc);
        return true;
    default:
        return false;
    }
}

/* One group of w lanes: x at x (lane step ls), result at res (lane step
 * rls), the axis walked by p->step and p->rstep_axis. */
static void
scan_group(const scanner *s, const char *x, ptrdiff_t w, ptrdiff_t ls,
           char *res, ptrdiff_t rls)
{
    const ua_scan_plan *p = s->p;
    char acc[WMAX * 16];
    ptrdiff_t asz = (ptrdiff_t)s->asz, step = p->step, rstep = p->rstep_axis;
    ptrdiff_t outn = p->op == UA_SCAN_DIFF ? p->n - 1 : p->n;
    bool direct = p->xtype == s->a && p->rtype == s->a;
    scan_identity(p->op, s->a, w, acc, false);
    if (p->initial) {
        move_tile(1, w, res, rls, 0, p->rtype, acc, asz, 0, s->a);
        res += rstep;
    }
    scan_identity(p->op, s->a, w, acc, true);
    if (outn <= 0 || (w == 1 && cumsum_dense(p, x, res, acc))) {
        return;
    }
    ptrdiff_t rows = direct ? p->n : TILE / w;
    for (ptrdiff_t r0 = 0; r0 < p->n; r0 += rows) {
        ptrdiff_t m = p->n - r0 < rows ? p->n - r0 : rows;
        const char *in = x + r0 * step;
        ptrdiff_t il = ls, ir = step;
        /* DIFF's rows are one behind x's (the loop writes row i's
         * difference one output row back). */
        ptrdiff_t o0 = p->op == UA_SCAN_DIFF ? r0 - 1 : r0;
        char *dst = res + r0 * rstep;
        ptrdiff_t ol = rls, orow = rstep;
        if (!direct) {
            move_tile(m, w, s->in, asz, w * asz, s->a, in, ls, step, p->xtype);
            in = s->in;
            il = asz;
            ir = w * asz;
            dst = s->out;
            ol = asz;
            orow = w * asz;
        }
        s->fn(p->op, m, w, in, il, ir, dst, ol, orow, acc, r0 == 0);
        if (!direct) {
            ptrdiff_t from = p->op == UA_SCAN_DIFF && r0 == 0 ? 1 : 0;
            ptrdiff_t k = m - from;
            if (p->op == UA_SCAN_DIFF) {
                /* The tile's rows wrote from s->out - orow on. */
                move_tile(k, w, res + (o0 + from) * rstep, rls, rstep,
                          p->rtype, s->out - orow + from * orow, asz, orow,
                          s->a);
            } else {
                move_tile(k, w, res + o0 * rstep, rls, rstep, p->rtype, s->out,
                          asz, orow, s->a);
            }
        }
    }
}

ua_status
ua_host_scan(void *queue, const ua_scan_plan *p)
{
    (void)queue;
    scanner s = {p, scan_accumulator_of(p->rtype), 0, NULL, NULL, NULL};
    s.asz = ua_dtype_itemsize(s.a);
    s.fn = scan_for(s.a, p->rtype);
    /* One row of the output tile before it, where DIFF writes first. */
    char *mem = malloc((2 * TILE + WMAX) * 16);
    if (mem == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "no host memory for a scan");
    }
    s.in = mem;
    s.out = mem + (TILE + WMAX) * 16;
    bool lanes = p->nd > 0 && p->n > 1 &&
                 magnitude(p->xstep[p->nd - 1]) < magnitude(p->step);
    if (lanes) {
        int nd = p->nd - 1;
        ptrdiff_t len = p->shape[nd], ls = p->xstep[nd], rs = p->rstep[nd];
        FOR_EACH_OUTER(p, nd, x, res, {
            for (ptrdiff_t l0 = 0; l0 < len; l0 += WMAX) {
                ptrdiff_t w = len - l0 < WMAX ? len - l0 : WMAX;
                scan_group(&s, x + l0 * ls, w, ls, res + l0 * rs, rs);
            }
        });
    } else {
        FOR_EACH_OUTER(p, p->nd, x, res, scan_group(&s, x, 1, 0, res, 0));
    }
    free(mem);
    return UA_OK;
}

/* ------------------------------------------------------ argmin, argmax */

/* Whether v replaces the best b so far: strictly better, so that the
 * first of equal elements stays; a NaN replaces any number and nothing
 * replaces a NaN. */
#define BETTER(max, v, b)                                                     \
    (((max) ? (v) > (b) : (v) < (b)) || ((v) != (v) && (b) == (b)))

#define DEFINE_ARG(S, T)                                                      \
    static void arg_##S(bool max, const char *x, ptrdiff_t w, ptrdiff_t ls,   \
                        ptrdiff_t rows, ptrdiff_t rs, ptrdiff_t r0, T *best,  \
                        int64_t *at)                                          \
    {                                                                         \
        for (ptrdiff_t r = 0; r < rows; r++) {                                \
            const char *row = x + r * rs;                                     \
            for (ptrdiff_t l = 0; l < w; l++) {                               \
                T v;                                                          \
                memcpy(&v, row + l * ls, sizeof v);                           \
                if ((r0 == 0 && r == 0) || BETTER(max, v, best[l])) {         \
                    best[l] = v;                                              \
                    at[l] = r0 + r;                                           \
                }                                                             \
            }                                                                 \
        }                                                                     \
    }

DEFINE_ARG(f4, float)
DEFINE_ARG(f8, double)
DEFINE_ARG(i8, int64_t)
DEFINE_ARG(u8, uint64_t)
DEFINE_ARG(b1, uint8_t)

static void
arg_rows(ua_typenum a, bool max, const char *x, ptrdiff_t w, ptrdiff_t ls,
         ptrdiff_t rows, ptrdiff_t rs, ptrdiff_t r0, void *best, int64_t *at)
{
    switch (a) {
    case UA_FLOAT32:
        arg_f4(max, x, w, ls, rows, rs, r0, best, at);
        break;
    case UA_FLOAT64:
        arg_f8(max, x, w, ls, rows, rs, r0, best, at);
        break;
    case UA_INT64:
        arg_i8(max, x, w, ls, rows, rs, r0, best, at);
        break;
    case UA_UINT64:
        arg_u8(max, x, w, ls, rows, rs, r0, best, at);
        break;
    default:
        arg_b1(max, x, w, ls, rows, rs, r0, best, at);
    }
}

/* The first maximum of n contiguous floats: a block's maximum by a loop
 * the compiler vectorizes, then, where it beats the best so far, its first
 * position. */
#define DEFINE_ARG_DENSE(S, T)                                                \
    static int64_t arg_dense_##S(bool max, const T *x, ptrdiff_t n)           \
    {                                                                         \
        enum { B = 1024 };                                                    \
        T best = x[0];                                                        \
        int64_t at = 0;                                                       \
        for (ptrdiff_t b = 0; b < n && best == best; b += B) {                \
            ptrdiff_t m = n - b < B ? n - b : B;                              \
            T e = x[b];                                                       \
            bool nan = false;                                                 \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                T v = x[b + i];                                               \
                e = max ? (v > e ? v : e) : (v < e ? v : e);                  \
                nan |= v != v;                                                \
            }                                                                 \
            if (!nan && !BETTER(max, e, best)) {                              \
                continue;                                                     \
            }                                                                 \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                T v = x[b + i];                                               \
                if (nan ? v != v : v == e) {                                  \
                    best = v;                                                 \
                    at = b + i;                                               \
                    break;                                                    \
                }                                                             \
            }                                                                 \
        }                                                                     \
        return at;                                                            \
    }

DEFINE_ARG_DENSE(f4, float)
DEFINE_ARG_DENSE(f8, double)
DEFINE_ARG_DENSE(i8, int64_t)

/* One group of w lanes (outputs) over the reduced run. */
static void
arg_group(const ua_reduce_plan *p, ua_typenum a, char *tile, const char *x,
          ptrdiff_t w, ptrdiff_t ls, char *res, ptrdiff_t rls)
{
    bool max = p->op == UA_REDUCE_ARGMAX;
    char best[WMAX * 8];
    int64_t at[WMAX];
    size_t asz = ua_dtype_itemsize(a);
    if (w == 1 && p->xtype == a && p->step == (ptrdiff_t)asz &&
        (a == UA_FLOAT32 || a == UA_FLOAT64 || a == UA_INT64)) {
        const void *d = x;
        at[0] = a == UA_FLOAT32   ? arg_dense_f4(max, d, p->n)
                : a == UA_FLOAT64 ? arg_dense_f8(max, d, p->n)
                                  : arg_dense_i8(max, d, p->n);
    } else if (p->xtype == a) {
        arg_rows(a, max, x, w, ls, p->n, p->step, 0, best, at);
    } else {
        ptrdiff_t rows = TILE / w;
        for (ptrdiff_t r0 = 0; r0 < p->n; r0 += rows) {
            ptrdiff_t m = p->n - r0 < rows ? p->n - r0 : rows;
            move_tile(m, w, tile, (ptrdiff_t)asz, w * (ptrdiff_t)asz, a,
                      x + r0 * p->step, ls, p->step, p->xtype);
            arg_rows(a, max, tile, w, (ptrdiff_t)asz, m, w * (ptrdiff_t)asz,
                     r0, best, at);
        }
    }
    for (ptrdiff_t l = 0; l < w; l++) {
        memcpy(res + l * rls, &at[l], 8);
    }
}

ua_status
ua_host_arg_reduce(const ua_reduce_plan *p)
{
    if (ua_host_arg_dense(p)) {
        return UA_OK;
    }
    ua_typenum a = ua_accumulator_of(p->xtype);
    char *tile = malloc(TILE * 8);
    if (tile == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "no host memory for a reduction");
    }
    bool lanes = p->nd > 0 && p->n > 1 &&
                 magnitude(p->xstep[p->nd - 1]) < magnitude(p->step);
    if (lanes) {
        int nd = p->nd - 1;
        ptrdiff_t len = p->shape[nd], ls = p->xstep[nd], rs = p->rstep[nd];
        FOR_EACH_OUTER(p, nd, x, res, {
            for (ptrdiff_t l0 = 0; l0 < len; l0 += WMAX) {
                ptrdiff_t w = len - l0 < WMAX ? len - l0 : WMAX;
                arg_group(p, a, tile, x + l0 * ls, w, ls, res + l0 * rs, rs);
            }
        });
    } else {
        FOR_EACH_OUTER(p, p->nd, x, res,
                       arg_group(p, a, tile, x, 1, 0, res, 0));
    }
    free(tile);
    return UA_OK;
}
