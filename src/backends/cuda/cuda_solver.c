/* cuSOLVER for the CUDA backend's factorizations (library_kernels.h),
 * loaded at run time as cuBLAS is: USMARRAY_CUSOLVER_LIBRARY (a path),
 * else the system's libcusolver.so.12 (CUDA 13) or .11 (CUDA 12), else
 * the nvidia-cusolver wheels along Python's path.  The legacy dense API
 * (cusolverDn<t>potrf, getrf, ...) factors one matrix per call, on the
 * queue's stream, with LAPACK's conventions, so that results match the
 * host's; batches of small matrices go to the batched routines instead
 * (cuda_solver_batched.c).  Each context has one handle, bound to the
 * queue's stream for each factorization under the context's solver_lock.
 * Workspaces and statuses come from the stream-ordered pool; the statuses
 * are read back, waiting for the queue, only where they can name a matrix
 * that fails. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_solver.h"

static ua_cusolver_lib lib;
static bool loaded;
static char where[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The names of each routine for the real and the complex types. */
static const char *const routine_names[UA_CUSOLVER_ROUTINES][2] = {
    {"potrf", "potrf"},
    {"potrf_bufferSize", "potrf_bufferSize"},
    {"getrf", "getrf"},
    {"getrf_bufferSize", "getrf_bufferSize"},
    {"getrs", "getrs"},
    {"geqrf", "geqrf"},
    {"geqrf_bufferSize", "geqrf_bufferSize"},
    {"orgqr", "ungqr"},
    {"orgqr_bufferSize", "ungqr_bufferSize"},
    {"syevd", "heevd"},
    {"syevd_bufferSize", "heevd_bufferSize"},
    {"gesvd", "gesvd"},
    {"gesvd_bufferSize", "gesvd_bufferSize"},
    {"potrfBatched", "potrfBatched"},
    {"syevjBatched", "heevjBatched"},
    {"syevjBatched_bufferSize", "heevjBatched_bufferSize"},
    {"gesvdjBatched", "gesvdjBatched"},
    {"gesvdjBatched_bufferSize", "gesvdjBatched_bufferSize"},
    {"gesvdj", "gesvdj"},
    {"gesvdj_bufferSize", "gesvdj_bufferSize"}};

static bool
take_symbols(void *h, const char *path)
{
    static const char letters[] = "SDCZ";
    ua_cusolver_lib found;
    memset(&found, 0, sizeof found);
    *(void **)&found.create = dlsym(h, "cusolverDnCreate");
    *(void **)&found.set_stream = dlsym(h, "cusolverDnSetStream");
    *(void **)&found.create_evj = dlsym(h, "cusolverDnCreateSyevjInfo");
    *(void **)&found.destroy_evj = dlsym(h, "cusolverDnDestroySyevjInfo");
    *(void **)&found.sort_evj = dlsym(h, "cusolverDnXsyevjSetSortEig");
    *(void **)&found.create_svdj = dlsym(h, "cusolverDnCreateGesvdjInfo");
    *(void **)&found.sort_svdj = dlsym(h, "cusolverDnXgesvdjSetSortEig");
    *(void **)&found.destroy_svdj = dlsym(h, "cusolverDnDestroyGesvdjInfo");
    *(void **)&found.create_params = dlsym(h, "cusolverDnCreateParams");
    *(void **)&found.destroy_params = dlsym(h, "cusolverDnDestroyParams");
    *(void **)&found.xgeev_buf = dlsym(h, "cusolverDnXgeev_bufferSize");
    *(void **)&found.xgeev = dlsym(h, "cusolverDnXgeev");
    bool all = found.create != NULL && found.set_stream != NULL;
    for (int t = 0; t < 4; t++) {
        for (int r = 0; r < UA_CUSOLVER_ROUTINES; r++) {
            snprintf(found.names[t][r], sizeof found.names[t][r],
                     "cusolverDn%c%s", letters[t], routine_names[r][t >= 2]);
            *(void **)&found.fn[t][r] = dlsym(h, found.names[t][r]);
            all = all && (r >= UA_CUSOLVER_REQUIRED || found.fn[t][r]);
        }
    }
    if (!all) {
        return false;
    }
    lib = found;
    loaded = true;
    /* cusolverGetProperty: MAJOR_VERSION 0, MINOR_VERSION 1,
     * PATCH_LEVEL 2 (libraryPropertyType) */
    int (*property)(int type, int *value);
    *(void **)&property = dlsym(h, "cusolverGetProperty");
    int v[3] = {0, 0, 0};
    for (int i = 0; property != NULL && i < 3; i++) {
        property(i, &v[i]);
    }
    const char *base = strrchr(path, '/');
    snprintf(where, sizeof where, "cuSOLVER %d.%d.%d (%s)", v[0], v[1], v[2],
             base != NULL ? base + 1 : path);
    return true;
}

static bool
try_path(const char *path)
{
    return ua_library_open(path, take_symbols);
}

/* Keeps a library that the wheels' libcusolver needs loaded, its symbols
 * global: the loader then finds it by its soname, where it would not
 * search the sibling wheel's folder. */
static bool
keep_global(void *h, const char *path)
{
    (void)h;
    return dlopen(path, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD) != NULL;
}

/* The folder of a library in the wheels of CUDA 12 (one per library) or
 * of CUDA 13 (nvidia/cu13/lib for all). */
static void
folder_of(int layout, const char *library, char *out, size_t len)
{
    if (layout == 0) {
        snprintf(out, len, "nvidia/%s/lib", library);
    } else {
        snprintf(out, len, "nvidia/cu13/lib");
    }
}

/* The last reason the loader gave, kept for the description. */
static void
note_reason(char *why, size_t len)
{
    const char *e = dlerror();
    if (e != NULL) {
        snprintf(why, len, "%s", e);
    }
}

/* libcusolver.so.* from the wheels; where its own folder's fails, what it
 * needs from the sibling wheels is loaded first and it is tried again. */
static bool
try_wheels(char *why, size_t len)
{
    static const char *const needs[][2] = {{"nvjitlink", "libnvJitLink.so"},
                                           {"cublas", "libcublasLt.so"},
                                           {"cublas", "libcublas.so"},
                                           {"cusparse", "libcusparse.so"}};
    for (int layout = 0; layout < 2; layout++) {
        char folder[64];
        folder_of(layout, "cusolver", folder, sizeof folder);
        dlerror();
        if (ua_cuda_open_from_wheels(folder, "libcusolver.so", take_symbols)) {
            return true;
        }
        const char *e = dlerror();
        if (e == NULL) {
            continue; /* no such wheel */
        }
        snprintf(why, len, "%s", e);
        for (size_t i = 0; i < sizeof needs / sizeof needs[0]; i++) {
            char dep[64];
            folder_of(layout, needs[i][0], dep, sizeof dep);
            ua_cuda_open_from_wheels(dep, needs[i][1], keep_global);
        }
        dlerror();
        if (ua_cuda_open_from_wheels(folder, "libcusolver.so", take_symbols)) {
            return true;
        }
        note_reason(why, len);
    }
    return false;
}

static void
find_cusolver(void)
{
    char why[200] = "";
    const char *env = getenv("USMARRAY_CUSOLVER_LIBRARY");
    if (env != NULL && env[0] != '\0') {
        dlerror();
        if (!try_path(env)) {
            note_reason(why, sizeof why);
            snprintf(where, sizeof where,
                     "no cuSOLVER at USMARRAY_CUSOLVER_LIBRARY (%s)",
                     why[0] != '\0' ? why : "its routines are missing");
        }
        return;
    }
    if (try_path("libcusolver.so.12") || try_path("libcusolver.so.11") ||
        try_path("libcusolver.so") || try_wheels(why, sizeof why)) {
        return;
    }
    /* the remedy first: Device.libraries shows 180 characters */
    snprintf(where, sizeof where,
             "no cuSOLVER: pip install nvidia-cusolver-cu12 or set "
             "USMARRAY_CUSOLVER_LIBRARY%s%s%s",
             why[0] != '\0' ? " (" : "", why, why[0] != '\0' ? ")" : "");
}

const char *
ua_cuda_solver_description(void)
{
    pthread_once(&once, find_cusolver);
    return where;
}

static char *
matrix(char *base, size_t k, ptrdiff_t rows, ptrdiff_t cols, size_t s)
{
    return base + k * (size_t)rows * (size_t)cols * s;
}

#define FN UA_CUSOLVER_FN
#define NAME UA_CUSOLVER_NAME

static ua_status
cholesky(ua_cusolver_job *j)
{
    const ua_solver_plan *p = j->p;
    int n = j->n, lwork = 0, *info = NULL;
    void *work = NULL;
    ua_status st =
        ua_cusolver_called(FN(j, ua_potrf_buf_fn, UA_CUSOLVER_POTRF_BUF)(
                               j->h, UA_CUSOLVER_LOWER, n, p->a, n, &lwork),
                           NAME(j, UA_CUSOLVER_POTRF_BUF));
    st = st == UA_OK ? ua_cusolver_workspace(j, lwork, &work) : st;
    st = st == UA_OK ? ua_cusolver_statuses(j, &info) : st;
    ua_potrf_fn potrf = FN(j, ua_potrf_fn, UA_CUSOLVER_POTRF);
    for (size_t k = 0; st == UA_OK && k < p->batch; k++) {
        st = ua_cusolver_called(potrf(j->h, UA_CUSOLVER_LOWER, n,
                                      matrix(p->a, k, n, n, j->s), n, work,
                                      lwork, info + k),
                                NAME(j, UA_CUSOLVER_POTRF));
    }
    return st == UA_OK ? ua_cusolver_check(j, info, p->batch,
                                           NAME(j, UA_CUSOLVER_POTRF),
                                           "is not positive definite")
                       : st;
}

/* LU and SOLVE.  LU's statuses could only refuse arguments, which the
 * plan's checks rule out: it does not wait for them. */
static ua_status
lu(ua_cusolver_job *j)
{
    const ua_solver_plan *p = j->p;
    bool solve = p->op == UA_SOLVER_SOLVE;
    int m = j->m, n = j->n, mn = m < n ? m : n, lwork = 0;
    int *info = NULL, *solved = NULL;
    void *work = NULL, *pivots = NULL;
    ua_status st =
        ua_cusolver_called(FN(j, ua_getrf_buf_fn, UA_CUSOLVER_GETRF_BUF)(
                               j->h, m, n, p->a, m, &lwork),
                           NAME(j, UA_CUSOLVER_GETRF_BUF));
    st = st == UA_OK ? ua_cusolver_workspace(j, lwork, &work) : st;
    st = st == UA_OK ? ua_cusolver_statuses(j, &info) : st;
    if (solve) {
        /* one matrix's pivots at a time: getrs uses them at once */
        st = st == UA_OK
                 ? ua_cusolver_temp(j, (size_t)mn * sizeof(int), &pivots)
                 : st;
        st = st == UA_OK ? ua_cusolver_statuses(j, &solved) : st;
    }
    ua_getrf_fn getrf = FN(j, ua_getrf_fn, UA_CUSOLVER_GETRF);
    ua_getrs_fn getrs = FN(j, ua_getrs_fn, UA_CUSOLVER_GETRS);
    for (size_t k = 0; st == UA_OK && k < p->batch; k++) {
        char *a = matrix(p->a, k, m, n, j->s);
        int *ipiv = solve ? pivots : p->pivots + k * (size_t)mn;
        st = ua_cusolver_called(getrf(j->h, m, n, a, m, work, ipiv, info + k),
                                NAME(j, UA_CUSOLVER_GETRF));
        if (st == UA_OK && solve) {
            st = ua_cusolver_called(
                getrs(j->h, UA_CUSOLVER_OP_N, n, (int)p->nrhs, a, n, ipiv,
                      matrix(p->b, k, n, p->nrhs, j->s), n, solved + k),
                NAME(j, UA_CUSOLVER_GETRS));
        }
    }
    if (st != UA_OK || !solve) {
        return st;
    }
    st = ua_cusolver_check(j, info, p->batch, NAME(j, UA_CUSOLVER_GETRF),
                           "is singular");
    return st == UA_OK ? ua_cusolver_check(j, solved, p->batch,
                                           NAME(j, UA_CUSOLVER_GETRS), "")
                       : st;
}

/* QR and QR_Q: their statuses could only refuse arguments, so that
 * neither waits. */
static ua_status
qr(ua_cusolver_job *j)
{
    const ua_solver_plan *p = j->p;
    bool q = p->op == UA_SOLVER_QR_Q;
    int m = j->m, n = j->n, lwork = 0, *info = NULL;
    int k = q ? (int)p->k : (m < n ? m : n);
    void *work = NULL;
    ua_cusolver_routine r = q ? UA_CUSOLVER_ORGQR : UA_CUSOLVER_GEQRF;
    int status = q ? FN(j, ua_orgqr_buf_fn, UA_CUSOLVER_ORGQR_BUF)(
                         j->h, m, n, k, p->a, m, p->tau, &lwork)
                   : FN(j, ua_geqrf_buf_fn,
                        UA_CUSOLVER_GEQRF_BUF)(j->h, m, n, p->a, m, &lwork);
    ua_status st = ua_cusolver_called(
        status, NAME(j, q ? UA_CUSOLVER_ORGQR_BUF : UA_CUSOLVER_GEQRF_BUF));
    st = st == UA_OK ? ua_cusolver_workspace(j, lwork, &work) : st;
    st = st == UA_OK ? ua_cusolver_statuses(j, &info) : st;
    for (size_t b = 0; st == UA_OK && b < p->batch; b++) {
        char *a = matrix(p->a, b, m, n, j->s);
        char *tau = p->tau + b * (size_t)k * j->s;
        status = q ? FN(j, ua_orgqr_fn, r)(j->h, m, n, k, a, m, tau, work,
                                           lwork, info + b)
                   : FN(j, ua_geqrf_fn, r)(j->h, m, n, a, m, tau, work, lwork,
                                           info + b);
        st = ua_cusolver_called(status, NAME(j, r));
    }
    return st;
}

static ua_status
eigh(ua_cusolver_job *j)
{
    const ua_solver_plan *p = j->p;
    int n = j->n, lwork = 0, *info = NULL;
    int jobz = p->vectors ? UA_CUSOLVER_VECTOR : UA_CUSOLVER_NOVECTOR;
    void *work = NULL;
    ua_status st = ua_cusolver_called(
        FN(j, ua_evd_buf_fn, UA_CUSOLVER_EVD_BUF)(
            j->h, jobz, UA_CUSOLVER_LOWER, n, p->a, n, p->w, &lwork),
        NAME(j, UA_CUSOLVER_EVD_BUF));
    st = st == UA_OK ? ua_cusolver_workspace(j, lwork, &work) : st;
    st = st == UA_OK ? ua_cusolver_statuses(j, &info) : st;
    ua_evd_fn evd = FN(j, ua_evd_fn, UA_CUSOLVER_EVD);
    for (size_t k = 0; st == UA_OK && k < p->batch; k++) {
        st = ua_cusolver_called(
            evd(j->h, jobz, UA_CUSOLVER_LOWER, n, matrix(p->a, k, n, n, j->s),
                n, p->w + k * (size_t)n * j->rs, work, lwork, info + k),
            NAME(j, UA_CUSOLVER_EVD));
    }
    return st == UA_OK
               ? ua_cusolver_check(j, info, p->batch, NAME(j, UA_CUSOLVER_EVD),
                                   "has eigenvalues that did not converge")
               : st;
}

/* The general eigensolver, one matrix a call through the 64-bit API: a
 * real matrix's eigenvalues come as complex numbers, its vectors as
 * LAPACK's real pairs (library_kernels.h).  It takes a host workspace
 * too, released once the statuses have been read. */
static ua_status
eig(ua_cusolver_job *j)
{
    const ua_solver_plan *p = j->p;
    if (j->lib->xgeev == NULL || j->lib->xgeev_buf == NULL ||
        j->lib->create_params == NULL || j->lib->destroy_params == NULL) {
        return ua_error_set(UA_ERR_UNAVAILABLE,
                            "%s has no cusolverDnXgeev, which linalg.eig and "
                            "eigvals need (cuSOLVER 11.7 of CUDA 12.6 and "
                            "later have it)",
                            where);
    }
    /* cudaDataType: CUDA_R_32F, CUDA_R_64F, CUDA_C_32F, CUDA_C_64F */
    static const int types[4] = {0, 1, 4, 5};
    int ta = types[j->t], tw = types[j->t | 2];
    int jobvr = p->vectors ? UA_CUSOLVER_VECTOR : UA_CUSOLVER_NOVECTOR;
    int64_t n = j->n, ldv = p->vectors ? n : 1;
    size_t dev_bytes = 0, host_bytes = 0, ws = 2 * (size_t)n * j->rs;
    void *params = NULL, *dev = NULL, *host = NULL;
    int *info = NULL;
    ua_status st = ua_cusolver_called(j->lib->create_params(&params),
                                      "cusolverDnCreateParams");
    st = st == UA_OK
             ? ua_cusolver_called(
                   j->lib->xgeev_buf(j->h, params, UA_CUSOLVER_NOVECTOR, jobvr,
                                     n, ta, p->a, n, tw, p->w, ta, NULL, 1, ta,
                                     p->v, ldv, ta, &dev_bytes, &host_bytes),
                   "cusolverDnXgeev_bufferSize")
             : st;
    st = st == UA_OK ? ua_cusolver_temp(j, dev_bytes ? dev_bytes : 1, &dev)
                     : st;
    st = st == UA_OK ? ua_cusolver_statuses(j, &info) : st;
    if (st == UA_OK && (host = malloc(host_bytes ? host_bytes : 1)) == NULL) {
        st = ua_error_set(UA_ERR_NOMEM, "no memory for cuSOLVER's workspace");
    }
    for (size_t k = 0; st == UA_OK && k < p->batch; k++) {
        st = ua_cusolver_called(
            j->lib->xgeev(j->h, params, UA_CUSOLVER_NOVECTOR, jobvr, n, ta,
                          matrix(p->a, k, n, n, j->s), n, tw, p->w + k * ws,
                          ta, NULL, 1, ta,
                          p->vectors ? matrix(p->v, k, n, n, j->s) : NULL, ldv,
                          ta, dev, dev_bytes, host, host_bytes, info + k),
            "cusolverDnXgeev");
    }
    st = st == UA_OK ? ua_cusolver_check(j, info, p->batch, "cusolverDnXgeev",
                                         "has eigenvalues that did not "
                                         "converge")
                     : st;
    if (params != NULL) {
        j->lib->destroy_params(params);
    }
    free(host);
    return st;
}

/* The Jacobi SVD (gesvdj), one matrix a call, of any shape: on large
 * matrices it is the faster of the two (benchmarks/gpu_linalg_fft.py's
 * svd row).  It gives V, whose conjugate transpose is vt; without vectors
 * it still writes U and V, which go to temporaries. */
static bool
has_jacobi_svd(const ua_cusolver_job *j)
{
    /* complex V^H needs cuBLAS's conjugation */
    return j->fn[UA_CUSOLVER_SVDJ] != NULL &&
           j->fn[UA_CUSOLVER_SVDJ_BUF] != NULL &&
           j->lib->create_svdj != NULL && j->lib->destroy_svdj != NULL &&
           (j->t < 2 || !j->p->vectors || ua_cuda_blas_has_batched());
}

static ua_status
svd_jacobi(ua_cusolver_job *j)
{
    const ua_solver_plan *p = j->p;
    int m = (int)j->m, n = (int)j->n, mn = m < n ? m : n;
    int ucols = p->full ? m : mn, vcols = p->full ? n : mn;
    int jobz = p->vectors ? UA_CUSOLVER_VECTOR : UA_CUSOLVER_NOVECTOR;
    int econ = p->full ? 0 : 1, lwork = 0, *info = NULL;
    size_t batch = p->batch, s = j->s;
    void *u = p->vectors ? (void *)p->u : NULL, *v = NULL, *work = NULL;
    void *params = NULL;
    ua_status st =
        u != NULL
            ? UA_OK
            : ua_cusolver_temp(j, batch * (size_t)m * (size_t)ucols * s, &u);
    st = st == UA_OK
             ? ua_cusolver_temp(j, batch * (size_t)n * (size_t)vcols * s, &v)
             : st;
    st = st == UA_OK ? ua_cusolver_called(j->lib->create_svdj(&params),
                                          "cusolverDnCreateGesvdjInfo")
                     : st;
    st = st == UA_OK
             ? ua_cusolver_called(FN(j, ua_svdj_buf_fn, UA_CUSOLVER_SVDJ_BUF)(
                                      j->h, jobz, econ, m, n, p->a, m, p->w, u,
                                      m, v, n, &lwork, params),
                                  NAME(j, UA_CUSOLVER_SVDJ_BUF))
             : st;
    st = st == UA_OK ? ua_cusolver_workspace(j, lwork, &work) : st;
    st = st == UA_OK ? ua_cusolver_statuses(j, &info) : st;
    ua_svdj_fn gesvdj = FN(j, ua_svdj_fn, UA_CUSOLVER_SVDJ);
    for (size_t k = 0; st == UA_OK && k < batch; k++) {
        st = ua_cusolver_called(
            gesvdj(j->h, jobz, econ, m, n, matrix(p->a, k, m, n, s), m,
                   p->w + k * (size_t)mn * j->rs, matrix(u, k, m, ucols, s), m,
                   matrix(v, k, n, vcols, s), n, work, lwork, info + k,
                   params),
            NAME(j, UA_CUSOLVER_SVDJ));
    }
    if (params != NULL) {
        j->lib->destroy_svdj(params);
    }
    if (st == UA_OK && p->vectors) {
        /* vt = V^H, V's vcols columns being vt's rows */
        st = ua_cusolver_transpose(j, p->vt, v, n, vcols, n,
                                   (ptrdiff_t)n * vcols, batch);
        st = st == UA_OK ? ua_cuda_blas_conj(j->q, p->type, p->vt,
                                             batch * (size_t)vcols * n)
                         : st;
    }
    return st == UA_OK
               ? ua_cusolver_check(j, info, batch, NAME(j, UA_CUSOLVER_SVDJ),
                                   "did not converge (SVD)")
               : st;
}

/* gesvd takes only m >= n: a wide A is factored as A^T = U' S V'^T, so
 * that A = V' S U'^T, whose vectors are plain transposes of those (and
 * unitary, complex or not). */
static ua_status
svd(ua_cusolver_job *j)
{
    const ua_solver_plan *p = j->p;
    bool wide = j->m < j->n, vectors = p->vectors;
    int m = wide ? j->n : j->m, n = wide ? j->m : j->n; /* gesvd's */
    int ucols = p->full ? m : n, lwork = 0, *info = NULL;
    size_t batch = p->batch, s = j->s;
    char *a = p->a, *u = p->u, *vt = p->vt;
    void *work = NULL, *rwork = NULL, *tmp = NULL;
    ua_status st = UA_OK;
    if (wide) {
        st = ua_cusolver_temp(j, batch * (size_t)m * (size_t)n * s, &tmp);
        a = tmp;
        st = st == UA_OK ? ua_cusolver_transpose(j, a, p->a, n, m, n,
                                                 (ptrdiff_t)m * n, batch)
                         : st;
        if (vectors) {
            st = st == UA_OK
                     ? ua_cusolver_temp(
                           j, batch * (size_t)m * (size_t)ucols * s, &tmp)
                     : st;
            u = tmp;
            st = st == UA_OK ? ua_cusolver_temp(
                                   j, batch * (size_t)n * (size_t)n * s, &tmp)
                             : st;
            vt = tmp;
        }
    }
    st =
        st == UA_OK
            ? ua_cusolver_called(FN(j, ua_gesvd_buf_fn,
                                    UA_CUSOLVER_GESVD_BUF)(j->h, m, n, &lwork),
                                 NAME(j, UA_CUSOLVER_GESVD_BUF))
            : st;
    st = st == UA_OK ? ua_cusolver_workspace(j, lwork, &work) : st;
    /* rwork: the superdiagonal that did not converge, where one did not */
    st = st == UA_OK ? ua_cusolver_temp(j, (size_t)n * j->rs, &rwork) : st;
    st = st == UA_OK ? ua_cusolver_statuses(j, &info) : st;
    signed char jobu = !vectors ? 'N' : p->full ? 'A' : 'S';
    signed char jobvt = !vectors ? 'N' : 'A';
    ua_gesvd_fn gesvd = FN(j, ua_gesvd_fn, UA_CUSOLVER_GESVD);
    for (size_t k = 0; st == UA_OK && k < batch; k++) {
        st = ua_cusolver_called(
            gesvd(j->h, jobu, jobvt, m, n, matrix(a, k, m, n, s), m,
                  p->w + k * (size_t)n * j->rs,
                  vectors ? matrix(u, k, m, ucols, s) : NULL, m,
                  vectors ? matrix(vt, k, n, n, s) : NULL, n, work, lwork,
                  rwork, info + k),
            NAME(j, UA_CUSOLVER_GESVD));
    }
    if (st == UA_OK && wide && vectors) {
        st = ua_cusolver_transpose(j, p->vt, u, m, ucols, m,
                                   (ptrdiff_t)m * ucols, batch);
        st = st == UA_OK ? ua_cusolver_transpose(j, p->u, vt, n, n, n,
                                                 (ptrdiff_t)n * n, batch)
                         : st;
    }
    return st == UA_OK
               ? ua_cusolver_check(j, info, batch, NAME(j, UA_CUSOLVER_GESVD),
                                   "did not converge (SVD)")
               : st;
}

/* The context's handle, made on first use (under c->solver_lock). */
static ua_status
handle_of(ua_cuda_context *c, void **h)
{
    if (c->cusolver == NULL) {
        int r = lib.create(&c->cusolver);
        if (r != 0) {
            c->cusolver = NULL;
            return ua_cusolver_called(r, "cusolverDnCreate");
        }
    }
    *h = c->cusolver;
    return UA_OK;
}

static int
slot(ua_typenum t)
{
    return t == UA_FLOAT32     ? 0
           : t == UA_FLOAT64   ? 1
           : t == UA_COMPLEX64 ? 2
                               : 3;
}

static ua_status
run(ua_cusolver_job *j)
{
    if (ua_cusolver_batched_takes(j)) {
        return ua_cusolver_batched(j);
    }
    switch (j->p->op) {
    case UA_SOLVER_CHOLESKY:
        return cholesky(j);
    case UA_SOLVER_LU:
    case UA_SOLVER_SOLVE:
        return lu(j);
    case UA_SOLVER_QR:
    case UA_SOLVER_QR_Q:
        return qr(j);
    case UA_SOLVER_EIGH:
        return eigh(j);
    case UA_SOLVER_EIG:
        return eig(j);
    case UA_SOLVER_SVD:
        return has_jacobi_svd(j) ? svd_jacobi(j) : svd(j);
    case UA_SOLVER_DET:
    case UA_SOLVER_SLOGDET:
        break; /* the host's only (ua_queue_solver_takes) */
    }
    return ua_error_set(UA_ERR_VALUE, "unknown factorization %d",
                        (int)j->p->op);
}

ua_status
ua_cuda_solver(void *queue, const ua_solver_plan *p)
{
    pthread_once(&once, find_cusolver);
    if (!loaded) {
        return ua_error_set(UA_ERR_UNAVAILABLE, "%s", where);
    }
    if (p->m > INT_MAX || p->n > INT_MAX ||
        (p->op == UA_SOLVER_SOLVE && p->nrhs > INT_MAX)) {
        return ua_error_set(UA_ERR_VALUE,
                            "cuSOLVER factors matrices of at most %d rows "
                            "and columns",
                            INT_MAX);
    }
    ua_cusolver_job j;
    memset(&j, 0, sizeof j);
    j.q = queue;
    j.p = p;
    j.lib = &lib;
    j.t = slot(p->type);
    j.fn = lib.fn[j.t];
    j.s = ua_dtype_itemsize(p->type);
    j.rs = j.t == 0 || j.t == 2 ? 4 : 8;
    j.m = (int)p->m;
    j.n = (int)p->n;
    ua_cuda_context *c = j.q->c;
    ua_status st = ua_cuda_bind(c);
    if (st != UA_OK) {
        return st;
    }
    pthread_mutex_lock(&c->solver_lock);
    st = handle_of(c, &j.h);
    if (st == UA_OK) {
        st = ua_cusolver_called(lib.set_stream(j.h, j.q->stream),
                                "cusolverDnSetStream");
    }
    st = st == UA_OK ? run(&j) : st;
    for (int i = 0; i < j.ntemps; i++) {
        ua_cu.cuMemFreeAsync(j.temps[i], j.q->stream);
    }
    pthread_mutex_unlock(&c->solver_lock);
    return st;
}
