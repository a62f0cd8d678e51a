/* The host's factorizations (the compute table's solver entry): batches
 * of small matrices without a library call per matrix.
 *
 * Where a LAPACK call costs more than its matrix (argument checks,
 * workspace and dispatch: some 300 ns for a 4 x 4 LU, NumPy's cost per
 * matrix), the square matrices of order up to SMALL_N take loops of their
 * own (host_small_linalg.inc): LU (getf2), solve (getrs), Cholesky
 * (potf2) and the determinants, whose product of the diagonal is taken
 * here rather than by the binding's reductions (whose per-row set-up
 * outweighs a row of four).  Their batches split over the backend's
 * threads.  The other orders and factorizations call LAPACK
 * (host_lapack.c), one workspace for the batch.  A failure names the
 * batch's first failing matrix, as LAPACK's loop does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host/host_kernels.h"
#include "backends/host/host_threads.h"
#include "core/compute/kernels.h"

/* The largest order the own loops take: up to it they outrun LAPACK's
 * call per matrix (measured with benchmarks/host_small_linalg.py). */
#define SMALL_N 32

/* The orders whose real Cholesky takes a batch's matrices several at
 * once, a vector's lanes (host_small_linalg.inc); below them the unrolled
 * copies of orders up to 4 are as fast. */
#define SL_LANES_MIN 5
#define SL_LANES_MAX 16

/* Why a matrix of the own loops failed. */
enum { SL_SINGULAR = 1, SL_NOT_DEFINITE = 2 };

#define SL_LN2 0.69314718055994530942

/* Scales (*re, *im) by a power of two, returned, into [2^-256, 2^256]
 * where outside it; zeros, infinities and NaNs stay as they are. */
static inline int
sl_scale2(double *re, double *im)
{
    double ar = fabs(*re), ai = fabs(*im), big = ar > ai ? ar : ai;
    if ((big <= 0x1p256 && big >= 0x1p-256) || !(big > 0) || big == INFINITY) {
        return 0;
    }
    int e;
    (void)frexp(big, &e);
    *re = ldexp(*re, -e);
    *im = ldexp(*im, -e);
    return e;
}

/* The same of one non-negative number. */
static inline int
sl_scale1(double *x)
{
    if ((*x <= 0x1p256 && *x >= 0x1p-256) || !(*x > 0) || *x == INFINITY) {
        return 0;
    }
    int e;
    (void)frexp(*x, &e);
    *x = ldexp(*x, -e);
    return e;
}

typedef struct sl_cf {
    float re, im;
} sl_cf;
typedef struct sl_cd {
    double re, im;
} sl_cd;

#define SL_T float
#define SL_R float
#define SL_CPLX 0
#define SL_(x) sl_##x##_s
#define SL_ABS fabsf
#define SL_SQRT sqrtf
#define SL_HYPOT hypotf
#define SL_MIN 0x1p-126f
#include "backends/host/host_small_linalg.inc"
#undef SL_T
#undef SL_R
#undef SL_CPLX
#undef SL_
#undef SL_ABS
#undef SL_SQRT
#undef SL_HYPOT
#undef SL_MIN

#define SL_T double
#define SL_R double
#define SL_CPLX 0
#define SL_(x) sl_##x##_d
#define SL_ABS fabs
#define SL_SQRT sqrt
#define SL_HYPOT hypot
#define SL_MIN 0x1p-1022
#include "backends/host/host_small_linalg.inc"
#undef SL_T
#undef SL_R
#undef SL_CPLX
#undef SL_
#undef SL_ABS
#undef SL_SQRT
#undef SL_HYPOT
#undef SL_MIN

#define SL_T sl_cf
#define SL_R float
#define SL_CPLX 1
#define SL_(x) sl_##x##_c
#define SL_ABS fabsf
#define SL_SQRT sqrtf
#define SL_HYPOT hypotf
#define SL_MIN 0x1p-126f
#include "backends/host/host_small_linalg.inc"
#undef SL_T
#undef SL_R
#undef SL_CPLX
#undef SL_
#undef SL_ABS
#undef SL_SQRT
#undef SL_HYPOT
#undef SL_MIN

#define SL_T sl_cd
#define SL_R double
#define SL_CPLX 1
#define SL_(x) sl_##x##_z
#define SL_ABS fabs
#define SL_SQRT sqrt
#define SL_HYPOT hypot
#define SL_MIN 0x1p-1022
#include "backends/host/host_small_linalg.inc"

typedef int (*part_fn)(const ua_solver_plan *, size_t, size_t, size_t *);
typedef void (*det_fn)(const void *, ptrdiff_t, const int32_t *, bool, char *,
                       char *);

static int
slot(ua_typenum t)
{
    return t == UA_FLOAT32     ? 0
           : t == UA_FLOAT64   ? 1
           : t == UA_COMPLEX64 ? 2
                               : 3;
}

static const part_fn parts_of[4] = {sl_part_s, sl_part_d, sl_part_c,
                                    sl_part_z};
static const det_fn dets_of[4] = {sl_det_void_s, sl_det_void_d, sl_det_void_c,
                                  sl_det_void_z};

static size_t
real_size(ua_typenum t)
{
    return t == UA_FLOAT32 || t == UA_COMPLEX64 ? 4 : 8;
}

static bool
is_det(const ua_solver_plan *p)
{
    return p->op == UA_SOLVER_DET || p->op == UA_SOLVER_SLOGDET;
}

/* Whether the own loops take the plan's matrices. */
static bool
own_loops(const ua_solver_plan *p)
{
    switch (p->op) {
    case UA_SOLVER_CHOLESKY:
    case UA_SOLVER_LU:
    case UA_SOLVER_SOLVE:
    case UA_SOLVER_DET:
    case UA_SOLVER_SLOGDET:
        return p->m == p->n && p->n <= SMALL_N;
    default:
        return false;
    }
}

/* DET and SLOGDET of orders past SMALL_N: LAPACK's LU of the batch, then
 * the determinants of the diagonals. */
static ua_status
lapack_det(void *queue, const ua_solver_plan *p)
{
    size_t n = (size_t)p->n;
    int32_t *piv = malloc(p->batch * n * sizeof *piv);
    if (piv == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "no memory for LU's pivots");
    }
    ua_solver_plan lu = *p;
    lu.op = UA_SOLVER_LU;
    lu.pivots = piv;
    ua_status st = ua_host_lapack_solver(queue, &lu);
    size_t s = ua_dtype_itemsize(p->type), rs = real_size(p->type);
    for (size_t k = 0; st == UA_OK && k < p->batch; k++) {
        dets_of[slot(p->type)](p->a + k * n * n * s, (ptrdiff_t)n, piv + k * n,
                               p->op == UA_SOLVER_SLOGDET, p->det + k * s,
                               p->op == UA_SOLVER_SLOGDET ? p->w + k * rs
                                                          : NULL);
    }
    free(piv);
    return st;
}

/* One part's outcome: where a matrix failed, which and why. */
typedef struct outcome {
    int why;
    size_t bad;
} outcome;

typedef struct job {
    const ua_solver_plan *p;
    outcome *out;
} job;

static void
run_part(void *ctx, int part, int parts)
{
    job *j = ctx;
    const ua_solver_plan *p = j->p;
    size_t begin = p->batch * (size_t)part / (size_t)parts;
    size_t end = p->batch * ((size_t)part + 1) / (size_t)parts;
    outcome *o = &j->out[part];
    o->why = begin < end ? parts_of[slot(p->type)](p, begin, end, &o->bad) : 0;
}

/* Nanoseconds a matrix of p takes in the own loops, roughly: what
 * decides the parts. */
static double
cost_of(const ua_solver_plan *p)
{
    double n = (double)p->n, cube = n * n * n;
    double rhs = p->op == UA_SOLVER_SOLVE ? n * n * (double)p->nrhs : 0;
    double c = p->type == UA_COMPLEX64 || p->type == UA_COMPLEX128 ? 4 : 1;
    return 20 + c * (cube / 2 + rhs);
}

/* The factorizations that LAPACK computes (the others, and orders past
 * SMALL_N) run as one call over the batch, on the calling thread:
 * OpenBLAS starts threads of its own, and calls on several of ours at
 * once made its 16 x 16 solves several times slower. */
ua_status
ua_host_solver(void *queue, const ua_solver_plan *p)
{
    if (!own_loops(p)) {
        return is_det(p) ? lapack_det(queue, p)
                         : ua_host_lapack_solver(queue, p);
    }
    /* about ten bytes of a copy's traffic per nanosecond: a part is worth
     * a thread where it takes tens of microseconds */
    double bytes = (double)p->batch * cost_of(p) * 10;
    int parts = ua_host_parts(bytes > 1e18 ? (size_t)1e18 : (size_t)bytes, 1);
    if ((size_t)parts > p->batch) {
        parts = (int)p->batch;
    }
    outcome one = {0, 0};
    job j = {p, parts > 1 ? calloc((size_t)parts, sizeof(outcome)) : &one};
    if (j.out == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "no memory to split a batch");
    }
    ua_host_parallel(parts, run_part, &j);
    ua_status st = UA_OK;
    for (int i = 0; i < parts && st == UA_OK; i++) {
        /* the first failing part holds the batch's first failure */
        if (j.out[i].why != 0) {
            st = ua_error_set(
                UA_ERR_LINALG, "matrix %zu of the batch %s", j.out[i].bad,
                j.out[i].why == SL_SINGULAR ? "is singular"
                                            : "is not positive definite");
        }
    }
    if (j.out != &one) {
        free(j.out);
    }
    return st;
}
