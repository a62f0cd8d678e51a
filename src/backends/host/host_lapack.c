/* LAPACK for the host's factorizations (library_kernels.h), from the
 * library that host_blas.c found the BLAS in: OpenBLAS holds both, under
 * the same prefix (scipy_ in the scipy-openblas wheels and NumPy's copy)
 * and with the same integers (64-bit in scipy-openblas64, whose names end
 * in 64_).  Fortran's conventions: every argument by address, and each
 * character argument's length after the others.  Integer arguments are
 * passed as void * to the library's width (struct lint). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>
#include <pthread.h>

#include "backends/host/host_kernels.h"
#include "core/compute/kernels.h"

typedef void *IP; /* an integer of the library's width, by address */
typedef void (*potrf_fn)(const char *, IP, void *, IP, IP, size_t);
typedef void (*getrf_fn)(IP, IP, void *, IP, IP, IP);
typedef void (*getrs_fn)(const char *, IP, IP, void *, IP, IP, void *, IP, IP,
                         size_t);
typedef void (*geqrf_fn)(IP, IP, void *, IP, void *, void *, IP, IP);
typedef void (*orgqr_fn)(IP, IP, IP, void *, IP, void *, void *, IP, IP);
typedef void (*syevd_fn)(const char *, const char *, IP, void *, IP, void *,
                         void *, IP, IP, IP, IP, size_t, size_t);
typedef void (*heevd_fn)(const char *, const char *, IP, void *, IP, void *,
                         void *, IP, void *, IP, IP, IP, IP, size_t, size_t);
typedef void (*geev_real_fn)(const char *, const char *, IP, void *, IP,
                             void *, void *, void *, IP, void *, IP, void *,
                             IP, IP, size_t, size_t);
typedef void (*geev_cplx_fn)(const char *, const char *, IP, void *, IP,
                             void *, void *, IP, void *, IP, void *, IP,
                             void *, IP, size_t, size_t);
typedef void (*gesdd_real_fn)(const char *, IP, IP, void *, IP, void *, void *,
                              IP, void *, IP, void *, IP, IP, IP, size_t);
typedef void (*gesdd_cplx_fn)(const char *, IP, IP, void *, IP, void *, void *,
                              IP, void *, IP, void *, IP, void *, IP, IP,
                              size_t);

/* The routines of each type, s, d, c, z. */
enum { POTRF, GETRF, GETRS, GEQRF, ORGQR, EVD, GEEV, GESDD, ROUTINES };
static const char *const routine_names[ROUTINES][2] = {
    {"potrf", "potrf"}, {"getrf", "getrf"}, {"getrs", "getrs"},
    {"geqrf", "geqrf"}, {"orgqr", "ungqr"}, {"syevd", "heevd"},
    {"geev", "geev"},   {"gesdd", "gesdd"}};

static struct {
    void (*fn[4][ROUTINES])(void);
    bool ilp64;
    bool found;
    char names[48]; /* e.g. scipy_?potrf_64_ */
} lapack;

static pthread_once_t lapack_once = PTHREAD_ONCE_INIT;

/* LAPACK's routines from the BLAS's library, with its prefix and
 * integers. */
static void
take_lapack(void)
{
    const char *prefix;
    bool ilp64;
    void *h = ua_host_blas_library(&prefix, &ilp64);
    if (h == NULL) {
        return;
    }
    static const char letters[] = "sdcz";
    const char *suffix = ilp64 ? "_64_" : "_";
    bool all = true;
    for (int t = 0; t < 4; t++) {
        for (int r = 0; r < ROUTINES; r++) {
            char sym[64];
            snprintf(sym, sizeof sym, "%s%c%s%s", prefix, letters[t],
                     routine_names[r][t >= 2], suffix);
            *(void **)&lapack.fn[t][r] = dlsym(h, sym);
            all = all && lapack.fn[t][r] != NULL;
        }
    }
    lapack.found = all;
    lapack.ilp64 = ilp64;
    snprintf(lapack.names, sizeof lapack.names, "%s?potrf%s", prefix, suffix);
}

/* Loads the BLAS (once) and LAPACK from its library. */
static void
lapack_load(void)
{
    pthread_once(&lapack_once, take_lapack);
}

void
ua_host_libraries_describe(char *out, size_t len)
{
    lapack_load();
    if (lapack.found) {
        snprintf(out, len,
                 "LAPACK of the BLAS's library (%s, %d-bit integers); FFT: "
                 "NumPy's pocketfft on the same memory",
                 lapack.names, lapack.ilp64 ? 64 : 32);
    } else {
        snprintf(out, len,
                 "no LAPACK (pip install scipy-openblas64, or set "
                 "USMARRAY_BLAS_LIBRARY): usmarray.linalg's factorizations "
                 "raise; FFT: NumPy's pocketfft on the same memory");
    }
}

/* An integer argument: its value kept at both widths, passed at the
 * library's. */
typedef struct lint {
    int64_t w;
    int32_t n;
} lint;

static IP
arg(lint *x, int64_t v)
{
    x->w = v;
    x->n = (int32_t)v;
    return lapack.ilp64 ? (IP)&x->w : (IP)&x->n;
}

static int64_t
value(const lint *x)
{
    return lapack.ilp64 ? x->w : x->n;
}

/* Element i of an integer array of the library's width. */
static int64_t
int_at(const void *a, size_t i)
{
    return lapack.ilp64 ? ((const int64_t *)a)[i] : ((const int32_t *)a)[i];
}

static int
slot(ua_typenum t)
{
    return t == UA_FLOAT32     ? 0
           : t == UA_FLOAT64   ? 1
           : t == UA_COMPLEX64 ? 2
                               : 3;
}

/* A work size that a query left in the real part of work[0]. */
static int64_t
queried(const void *work, int t)
{
    double v = (t == 0 || t == 2) ? (double)*(const float *)work
                                  : *(const double *)work;
    return v < 1 ? 1 : (int64_t)v + 1;
}

/* The memory a factorization of one matrix works in: elements of the
 * matrix type, of its real type and integers of the library's width. */
typedef struct work {
    void *w, *r, *i;
    int64_t nw, nr, ni;
} work;

static ua_status
work_alloc(work *wk, int64_t nw, int64_t nr, int64_t ni, size_t s, size_t rs)
{
    wk->nw = nw;
    wk->nr = nr;
    wk->ni = ni;
    wk->w = malloc((size_t)(nw > 0 ? nw : 1) * s);
    wk->r = malloc((size_t)(nr > 0 ? nr : 1) * rs);
    wk->i = malloc((size_t)(ni > 0 ? ni : 1) * 8);
    if (wk->w == NULL || wk->r == NULL || wk->i == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "no memory for LAPACK's work");
    }
    return UA_OK;
}

static void
work_free(work *wk)
{
    free(wk->w);
    free(wk->r);
    free(wk->i);
}

static ua_status
failed(const char *routine, int64_t info, size_t k, const char *what)
{
    if (info < 0) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "LAPACK's %s refused its argument %lld", routine,
                            (long long)-info);
    }
    return ua_error_set(UA_ERR_LINALG, "matrix %zu of the batch %s", k, what);
}

typedef struct job {
    const ua_solver_plan *p;
    int t;        /* slot */
    size_t s, rs; /* the type's size and its real type's */
    int64_t m, n;
} job;

static char *
matrix(char *base, size_t k, int64_t rows, int64_t cols, size_t s)
{
    return base + k * (size_t)rows * (size_t)cols * s;
}

static ua_status
cholesky(const job *j)
{
    potrf_fn f = (potrf_fn)lapack.fn[j->t][POTRF];
    for (size_t k = 0; k < j->p->batch; k++) {
        lint n, lda, info;
        f("L", arg(&n, j->n), matrix(j->p->a, k, j->n, j->n, j->s),
          arg(&lda, j->n), arg(&info, 0), 1);
        if (value(&info) != 0) {
            return failed("potrf", value(&info), k,
                          "is not positive definite");
        }
    }
    return UA_OK;
}

/* LU and SOLVE: getrf, then for SOLVE getrs. */
static ua_status
lu(const job *j)
{
    const ua_solver_plan *p = j->p;
    int64_t mn = j->m < j->n ? j->m : j->n;
    void *ipiv = malloc((size_t)mn * 8);
    if (ipiv == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "no memory for LU's pivots");
    }
    ua_status st = UA_OK;
    for (size_t k = 0; k < p->batch && st == UA_OK; k++) {
        lint m, n, lda, info, nrhs, ldb;
        char *a = matrix(p->a, k, j->m, j->n, j->s);
        ((getrf_fn)lapack.fn[j->t][GETRF])(arg(&m, j->m), arg(&n, j->n), a,
                                           arg(&lda, j->m), ipiv,
                                           arg(&info, 0));
        if (value(&info) < 0) {
            st = failed("getrf", value(&info), k, "");
        } else if (p->op == UA_SOLVER_LU) {
            for (int64_t i = 0; i < mn; i++) {
                p->pivots[k * (size_t)mn + (size_t)i] =
                    (int32_t)int_at(ipiv, (size_t)i);
            }
        } else if (value(&info) > 0) {
            st = failed("getrf", value(&info), k, "is singular");
        } else {
            ((getrs_fn)lapack.fn[j->t][GETRS])(
                "N", arg(&n, j->n), arg(&nrhs, p->nrhs), a, arg(&lda, j->n),
                ipiv, matrix(p->b, k, j->n, p->nrhs, j->s), arg(&ldb, j->n),
                arg(&info, 0), 1);
            if (value(&info) != 0) {
                st = failed("getrs", value(&info), k, "");
            }
        }
    }
    free(ipiv);
    return st;
}

static ua_status
qr(const job *j)
{
    const ua_solver_plan *p = j->p;
    bool q = p->op == UA_SOLVER_QR_Q;
    int64_t k = q ? p->k : (j->m < j->n ? j->m : j->n);
    unsigned char query[16];
    lint m, n, kk, lda, lwork, info;
    if (q) {
        ((orgqr_fn)lapack.fn[j->t][ORGQR])(
            arg(&m, j->m), arg(&n, j->n), arg(&kk, k), p->a, arg(&lda, j->m),
            p->tau, query, arg(&lwork, -1), arg(&info, 0));
    } else {
        ((geqrf_fn)lapack.fn[j->t][GEQRF])(arg(&m, j->m), arg(&n, j->n), p->a,
                                           arg(&lda, j->m), p->tau, query,
                                           arg(&lwork, -1), arg(&info, 0));
    }
    work wk;
    ua_status st = work_alloc(&wk, queried(query, j->t), 0, 0, j->s, j->rs);
    for (size_t b = 0; b < p->batch && st == UA_OK; b++) {
        char *a = matrix(p->a, b, j->m, j->n, j->s);
        char *tau = p->tau + b * (size_t)k * j->s;
        if (q) {
            ((orgqr_fn)lapack.fn[j->t][ORGQR])(
                arg(&m, j->m), arg(&n, j->n), arg(&kk, k), a, arg(&lda, j->m),
                tau, wk.w, arg(&lwork, wk.nw), arg(&info, 0));
        } else {
            ((geqrf_fn)lapack.fn[j->t][GEQRF])(
                arg(&m, j->m), arg(&n, j->n), a, arg(&lda, j->m), tau, wk.w,
                arg(&lwork, wk.nw), arg(&info, 0));
        }
        if (value(&info) != 0) {
            st = failed(q ? "orgqr" : "geqrf", value(&info), b, "");
        }
    }
    work_free(&wk);
    return st;
}

static void
call_evd(const job *j, const char *jobz, void *a, void *w, work *wk,
         lint *info)
{
    lint n, lda, lw, lr, li;
    if (j->t < 2) {
        ((syevd_fn)lapack.fn[j->t][EVD])(
            jobz, "L", arg(&n, j->n), a, arg(&lda, j->n), w, wk->w,
            arg(&lw, wk->nw), wk->i, arg(&li, wk->ni), arg(info, 0), 1, 1);
    } else {
        ((heevd_fn)lapack.fn[j->t][EVD])(
            jobz, "L", arg(&n, j->n), a, arg(&lda, j->n), w, wk->w,
            arg(&lw, wk->nw), wk->r, arg(&lr, wk->nr), wk->i, arg(&li, wk->ni),
            arg(info, 0), 1, 1);
    }
}

static ua_status
eigh(const job *j)
{
    const ua_solver_plan *p = j->p;
    const char *jobz = p->vectors ? "V" : "N";
    unsigned char qw[16], qr[16], qi[16];
    work query = {qw, qr, qi, -1, -1, -1};
    lint info;
    call_evd(j, jobz, p->a, p->w, &query, &info);
    work wk;
    int64_t nr = j->t < 2 ? 0 : queried(qr, j->t - 2);
    ua_status st =
        work_alloc(&wk, queried(qw, j->t), nr, int_at(qi, 0), j->s, j->rs);
    for (size_t b = 0; b < p->batch && st == UA_OK; b++) {
        call_evd(j, jobz, matrix(p->a, b, j->n, j->n, j->s),
                 p->w + b * (size_t)j->n * j->rs, &wk, &info);
        if (value(&info) != 0) {
            st = failed("syevd", value(&info), b,
                        "has eigenvalues that did not converge");
        }
    }
    work_free(&wk);
    return st;
}

/* geev of one matrix: the real types' eigenvalues into wr and wi, the
 * complex types' into wr. */
static void
call_geev(const job *j, bool vectors, void *a, void *wr, void *wi, void *v,
          work *wk, lint *info)
{
    lint n, lda, ldvl, ldvr, lw;
    const char *jobvr = vectors ? "V" : "N";
    int64_t ldv = vectors ? j->n : 1;
    unsigned char unused[16];
    if (j->t < 2) {
        ((geev_real_fn)lapack.fn[j->t][GEEV])(
            "N", jobvr, arg(&n, j->n), a, arg(&lda, j->n), wr, wi, unused,
            arg(&ldvl, 1), vectors ? v : unused, arg(&ldvr, ldv), wk->w,
            arg(&lw, wk->nw), arg(info, 0), 1, 1);
    } else {
        ((geev_cplx_fn)lapack.fn[j->t][GEEV])(
            "N", jobvr, arg(&n, j->n), a, arg(&lda, j->n), wr, unused,
            arg(&ldvl, 1), vectors ? v : unused, arg(&ldvr, ldv), wk->w,
            arg(&lw, wk->nw), wk->r, arg(info, 0), 1, 1);
    }
}

/* The real types' eigenvalues, (wr, wi), as n complex numbers. */
static void
interleave(const job *j, const void *wr, const void *wi, char *w)
{
    for (int64_t k = 0; k < j->n; k++) {
        if (j->t == 0) {
            ((float *)(void *)w)[2 * k] = ((const float *)wr)[k];
            ((float *)(void *)w)[2 * k + 1] = ((const float *)wi)[k];
        } else {
            ((double *)(void *)w)[2 * k] = ((const double *)wr)[k];
            ((double *)(void *)w)[2 * k + 1] = ((const double *)wi)[k];
        }
    }
}

/* EIG: geev per matrix, one workspace for the batch; the real types'
 * eigenvalues through wr and wi (after the workspace in wk.r). */
static ua_status
eig(const job *j)
{
    const ua_solver_plan *p = j->p;
    size_t cs = 2 * j->rs; /* the eigenvalues' complex type */
    unsigned char qw[16], qr[16];
    /* the complex query writes rwork[0] too */
    work query = {qw, qr, NULL, -1, 0, 0};
    lint info;
    call_geev(j, p->vectors, p->a, qw, qw, p->v, &query, &info);
    work wk;
    /* real: wr and wi; complex: geev's rwork of 2n */
    ua_status st =
        work_alloc(&wk, queried(qw, j->t), 2 * j->n, 0, j->s, j->rs);
    char *wi = (char *)wk.r + (size_t)j->n * j->rs;
    for (size_t b = 0; b < p->batch && st == UA_OK; b++) {
        char *w = p->w + b * (size_t)j->n * cs;
        char *v = p->vectors ? matrix(p->v, b, j->n, j->n, j->s) : NULL;
        call_geev(j, p->vectors, matrix(p->a, b, j->n, j->n, j->s),
                  j->t < 2 ? wk.r : (void *)w, wi, v, &wk, &info);
        if (value(&info) != 0) {
            st = failed("geev", value(&info), b,
                        "has eigenvalues that did not converge");
        } else if (j->t < 2) {
            interleave(j, wk.r, wi, w);
        }
    }
    work_free(&wk);
    return st;
}

static void
call_gesdd(const job *j, const char *jobz, void *a, void *s, void *u, void *vt,
           int64_t ucols, int64_t vtrows, work *wk, lint *info)
{
    lint m, n, lda, ldu, ldvt, lw;
    (void)ucols;
    if (j->t < 2) {
        ((gesdd_real_fn)lapack.fn[j->t][GESDD])(
            jobz, arg(&m, j->m), arg(&n, j->n), a, arg(&lda, j->m), s, u,
            arg(&ldu, j->m), vt, arg(&ldvt, vtrows), wk->w, arg(&lw, wk->nw),
            wk->i, arg(info, 0), 1);
    } else {
        ((gesdd_cplx_fn)lapack.fn[j->t][GESDD])(
            jobz, arg(&m, j->m), arg(&n, j->n), a, arg(&lda, j->m), s, u,
            arg(&ldu, j->m), vt, arg(&ldvt, vtrows), wk->w, arg(&lw, wk->nw),
            wk->r, wk->i, arg(info, 0), 1);
    }
}

static ua_status
svd(const job *j)
{
    const ua_solver_plan *p = j->p;
    int64_t mn = j->m < j->n ? j->m : j->n, mx = j->m + j->n - mn;
    int64_t ucols = p->full ? j->m : mn, vtrows = p->full ? j->n : mn;
    const char *jobz = !p->vectors ? "N" : p->full ? "A" : "S";
    /* u and vt are not read where jobz is N, but their leading
     * dimensions must still be at least 1. */
    if (!p->vectors) {
        vtrows = 1;
    }
    unsigned char qw[16];
    /* complex gesdd's rwork, as LAPACK's documentation sizes it */
    int64_t nr = 0;
    if (j->t >= 2) {
        int64_t sizes[3] = {7 * mn, 5 * mn * mn + 5 * mn,
                            2 * mx * mn + 2 * mn * mn + mn};
        for (int i = 0; i < 3; i++) {
            nr = sizes[i] > nr ? sizes[i] : nr;
        }
    }
    /* The query reads none of rwork and iwork. */
    unsigned char spare[16];
    work query = {qw, spare, spare, -1, 0, 0};
    lint info;
    call_gesdd(j, jobz, p->a, p->w, p->u, p->vt, ucols, vtrows, &query, &info);
    work wk;
    ua_status st = work_alloc(&wk, queried(qw, j->t), nr, 8 * mn, j->s, j->rs);
    for (size_t b = 0; b < p->batch && st == UA_OK; b++) {
        lint info;
        call_gesdd(j, jobz, matrix(p->a, b, j->m, j->n, j->s),
                   p->w + b * (size_t)mn * j->rs,
                   p->vectors ? matrix(p->u, b, j->m, ucols, j->s) : NULL,
                   p->vectors ? matrix(p->vt, b, vtrows, j->n, j->s) : NULL,
                   ucols, vtrows, &wk, &info);
        /* gesdd refuses a matrix holding a NaN as its argument 4 */
        if (value(&info) == -4) {
            st = ua_error_set(UA_ERR_LINALG,
                              "matrix %zu of the batch holds a NaN: its SVD "
                              "did not converge",
                              b);
        } else if (value(&info) != 0) {
            st = failed("gesdd", value(&info), b, "did not converge (SVD)");
        }
    }
    work_free(&wk);
    return st;
}

ua_status
ua_host_lapack_solver(void *queue, const ua_solver_plan *p)
{
    (void)queue;
    lapack_load();
    if (!lapack.found) {
        return ua_error_set(UA_ERR_UNAVAILABLE,
                            "no LAPACK on the host: usmarray.linalg calls "
                            "the OpenBLAS that NumPy or scipy-openblas64 "
                            "ships (pip install scipy-openblas64, or set "
                            "USMARRAY_BLAS_LIBRARY)");
    }
    job j = {p, slot(p->type), ua_dtype_itemsize(p->type), 0, p->m, p->n};
    j.rs = j.t == 0 || j.t == 2 ? 4 : 8;
    switch (p->op) {
    case UA_SOLVER_CHOLESKY:
        return cholesky(&j);
    case UA_SOLVER_LU:
    case UA_SOLVER_SOLVE:
        return lu(&j);
    case UA_SOLVER_QR:
    case UA_SOLVER_QR_Q:
        return qr(&j);
    case UA_SOLVER_EIGH:
        return eigh(&j);
    case UA_SOLVER_EIG:
        return eig(&j);
    case UA_SOLVER_SVD:
        return svd(&j);
    case UA_SOLVER_DET:
    case UA_SOLVER_SLOGDET:
        break; /* host_small_linalg.c's own */
    }
    return ua_error_set(UA_ERR_VALUE, "unknown factorization %d", (int)p->op);
}
