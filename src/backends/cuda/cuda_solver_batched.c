/* Batches of small matrices, one library call for the whole batch where
 * a call per matrix would cost more in launches than in arithmetic:
 * Cholesky through cuSOLVER's potrfBatched, LU and solves through
 * cuBLAS's getrfBatched and getrsBatched (cuda_blas.c), Hermitian
 * eigenproblems of order <= 32 through syevjBatched / heevjBatched and
 * SVDs of matrices of <= 32 rows and columns through gesvdjBatched.  The
 * limits are those of the Jacobi routines and, for LU, PyTorch's (where
 * the looped getrf overtakes the batched one).  The Jacobi routines run
 * to machine precision (their default tolerance) and sort their values
 * as the plan wants them (their default: eigenvalues ascending, singular
 * values descending); gesvdjBatched's full U and V are cut to the plan's
 * columns, and V becomes V^H, by copies on the queue. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "backends/cuda/cuda_solver.h"

/* JACOBI_BATCH: the Jacobi routines size their work for the whole
 * batch in one int, which larger batches of 32 x 32 matrices overflow. */
enum {
    LU_LIMIT = 512,
    POTRF_LIMIT = 1024,
    JACOBI_LIMIT = 32,
    JACOBI_BATCH = 65536
};

#define FN UA_CUSOLVER_FN
#define NAME UA_CUSOLVER_NAME

bool
ua_cusolver_batched_takes(const ua_cusolver_job *j)
{
    const ua_solver_plan *p = j->p;
    const ua_cusolver_lib *lib = j->lib;
    if (p->batch < 2 || p->batch > INT_MAX) {
        return false;
    }
    switch (p->op) {
    case UA_SOLVER_CHOLESKY:
        return j->n <= POTRF_LIMIT && j->fn[UA_CUSOLVER_POTRF_BATCHED] != NULL;
    case UA_SOLVER_LU:
    case UA_SOLVER_SOLVE:
        return j->m == j->n && j->n < LU_LIMIT && ua_cuda_blas_has_batched();
    case UA_SOLVER_EIGH:
        return j->n <= JACOBI_LIMIT && p->batch <= JACOBI_BATCH &&
               j->fn[UA_CUSOLVER_EVJ_BATCHED] != NULL &&
               j->fn[UA_CUSOLVER_EVJ_BATCHED_BUF] != NULL &&
               lib->create_evj != NULL && lib->destroy_evj != NULL &&
               lib->sort_evj != NULL;
    case UA_SOLVER_SVD:
        /* complex V^H needs cuBLAS's conjugation */
        return j->m <= JACOBI_LIMIT && j->n <= JACOBI_LIMIT &&
               p->batch <= JACOBI_BATCH &&
               j->fn[UA_CUSOLVER_SVDJ_BATCHED] != NULL &&
               j->fn[UA_CUSOLVER_SVDJ_BATCHED_BUF] != NULL &&
               lib->create_svdj != NULL && lib->destroy_svdj != NULL &&
               lib->sort_svdj != NULL &&
               (j->t < 2 || !p->vectors || ua_cuda_blas_has_batched());
    default:
        return false;
    }
}

/* Device arrays of the addresses of the batch's matrices of a (abytes
 * each) and, where b is not NULL, of b's: one copy for both, since each
 * copy from pageable memory first waits for the stream. */
static ua_status
addresses(ua_cusolver_job *j, char *a, size_t abytes, void ***aptrs, char *b,
          size_t bbytes, void ***bptrs)
{
    size_t batch = j->p->batch, count = b != NULL ? 2 * batch : batch;
    void **host = malloc(count * sizeof *host);
    if (host == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "no memory for a batch's "
                                          "addresses");
    }
    for (size_t k = 0; k < batch; k++) {
        host[k] = a + k * abytes;
        if (b != NULL) {
            host[batch + k] = b + k * bbytes;
        }
    }
    void *dev = NULL;
    ua_status st = ua_cusolver_temp(j, count * sizeof *host, &dev);
    if (st == UA_OK) {
        /* From pageable memory the driver has taken the bytes when it
         * returns: host may go at once. */
        CUresult r = ua_cu.cuMemcpyAsync((CUdeviceptr)(uintptr_t)dev,
                                         (CUdeviceptr)(uintptr_t)host,
                                         count * sizeof *host, j->q->stream);
        st = r == CUDA_SUCCESS ? UA_OK : ua_cuda_failed(r, "cuMemcpyAsync");
    }
    free(host);
    *aptrs = dev;
    if (bptrs != NULL) {
        *bptrs = b != NULL && dev != NULL ? (void **)dev + batch : NULL;
    }
    return st;
}

static ua_status
copy3(ua_cusolver_job *j, const ptrdiff_t *shape, char *dst,
      const ptrdiff_t *dsteps, char *src, const ptrdiff_t *ssteps)
{
    ua_strided d = {dst, dsteps, j->p->type};
    ua_strided s = {src, ssteps, j->p->type};
    return ua_cuda_copy_strided(j->q, 3, shape, &d, &s);
}

ua_status
ua_cusolver_transpose(ua_cusolver_job *j, char *dst, char *src, ptrdiff_t rows,
                      ptrdiff_t cols, ptrdiff_t ld, ptrdiff_t stride,
                      size_t batch)
{
    ptrdiff_t shape[3] = {(ptrdiff_t)batch, rows, cols};
    ptrdiff_t dsteps[3] = {rows * cols, cols, 1};
    ptrdiff_t ssteps[3] = {stride, 1, ld};
    return copy3(j, shape, dst, dsteps, src, ssteps);
}

static ua_status
cholesky(ua_cusolver_job *j)
{
    const ua_solver_plan *p = j->p;
    void **a = NULL;
    int *info = NULL;
    ua_status st = addresses(j, p->a, (size_t)j->n * (size_t)j->n * j->s, &a,
                             NULL, 0, NULL);
    st = st == UA_OK ? ua_cusolver_statuses(j, &info) : st;
    st = st == UA_OK ? ua_cusolver_called(FN(j, ua_potrf_batched_fn,
                                             UA_CUSOLVER_POTRF_BATCHED)(
                                              j->h, UA_CUSOLVER_LOWER, j->n, a,
                                              j->n, info, (int)p->batch),
                                          NAME(j, UA_CUSOLVER_POTRF_BATCHED))
                     : st;
    return st == UA_OK ? ua_cusolver_check(j, info, p->batch,
                                           NAME(j, UA_CUSOLVER_POTRF_BATCHED),
                                           "is not positive definite")
                       : st;
}

/* LU's statuses are not read: only refused arguments would show. */
static ua_status
lu(ua_cusolver_job *j)
{
    const ua_solver_plan *p = j->p;
    bool solve = p->op == UA_SOLVER_SOLVE;
    size_t n = (size_t)j->n;
    void **a = NULL, **b = NULL;
    void *pivots = p->pivots;
    int *info = NULL;
    ua_status st = addresses(j, p->a, n * n * j->s, &a, solve ? p->b : NULL,
                             n * (size_t)p->nrhs * j->s, &b);
    if (solve) {
        st = st == UA_OK
                 ? ua_cusolver_temp(j, p->batch * n * sizeof(int), &pivots)
                 : st;
    }
    st = st == UA_OK ? ua_cusolver_statuses(j, &info) : st;
    st = st == UA_OK
             ? ua_cuda_blas_lu_batched(j->q, p->type, j->n, a, pivots, info,
                                       (int)p->nrhs, b, (int)p->batch)
             : st;
    if (st != UA_OK || !solve) {
        return st;
    }
    char name[32];
    snprintf(name, sizeof name, "cublas%cgetrfBatched", "SDCZ"[j->t]);
    return ua_cusolver_check(j, info, p->batch, name, "is singular");
}

static ua_status
eigh(ua_cusolver_job *j)
{
    const ua_solver_plan *p = j->p;
    const ua_cusolver_lib *lib = j->lib;
    int n = j->n, batch = (int)p->batch, lwork = 0, *info = NULL;
    int jobz = p->vectors ? UA_CUSOLVER_VECTOR : UA_CUSOLVER_NOVECTOR;
    void *params = NULL, *work = NULL;
    ua_status st = ua_cusolver_called(lib->create_evj(&params),
                                      "cusolverDnCreateSyevjInfo");
    /* ascending, as syevd's: the default, said once more */
    st = st == UA_OK ? ua_cusolver_called(lib->sort_evj(params, 1),
                                          "cusolverDnXsyevjSetSortEig")
                     : st;
    st = st == UA_OK
             ? ua_cusolver_called(
                   FN(j, ua_evj_batched_buf_fn, UA_CUSOLVER_EVJ_BATCHED_BUF)(
                       j->h, jobz, UA_CUSOLVER_LOWER, n, p->a, n, p->w, &lwork,
                       params, batch),
                   NAME(j, UA_CUSOLVER_EVJ_BATCHED_BUF))
             : st;
    st = st == UA_OK ? ua_cusolver_workspace(j, lwork, &work) : st;
    st = st == UA_OK ? ua_cusolver_statuses(j, &info) : st;
    st = st == UA_OK ? ua_cusolver_called(
                           FN(j, ua_evj_batched_fn, UA_CUSOLVER_EVJ_BATCHED)(
                               j->h, jobz, UA_CUSOLVER_LOWER, n, p->a, n, p->w,
                               work, lwork, info, params, batch),
                           NAME(j, UA_CUSOLVER_EVJ_BATCHED))
                     : st;
    if (params != NULL) {
        lib->destroy_evj(params);
    }
    return st == UA_OK
               ? ua_cusolver_check(j, info, p->batch,
                                   NAME(j, UA_CUSOLVER_EVJ_BATCHED),
                                   "has eigenvalues that did not converge")
               : st;
}

/* gesvdjBatched writes m x m U and n x n V whatever the plan wants, and
 * without vectors too: its documentation does not say that it leaves
 * them alone then. */
static ua_status
svd(ua_cusolver_job *j)
{
    const ua_solver_plan *p = j->p;
    const ua_cusolver_lib *lib = j->lib;
    int m = j->m, n = j->n, mn = m < n ? m : n, batch = (int)p->batch;
    int ucols = p->full ? m : mn, vtrows = p->full ? n : mn;
    int jobz = p->vectors ? UA_CUSOLVER_VECTOR : UA_CUSOLVER_NOVECTOR;
    int lwork = 0, *info = NULL;
    size_t s = j->s, count = p->batch;
    bool direct = p->vectors && ucols == m;
    void *u = direct ? p->u : NULL, *v = NULL, *params = NULL, *work = NULL;
    ua_status st =
        direct ? UA_OK
               : ua_cusolver_temp(j, count * (size_t)m * (size_t)m * s, &u);
    st = st == UA_OK
             ? ua_cusolver_temp(j, count * (size_t)n * (size_t)n * s, &v)
             : st;
    st = st == UA_OK ? ua_cusolver_called(lib->create_svdj(&params),
                                          "cusolverDnCreateGesvdjInfo")
                     : st;
    /* descending: the default, said once more */
    st = st == UA_OK ? ua_cusolver_called(lib->sort_svdj(params, 1),
                                          "cusolverDnXgesvdjSetSortEig")
                     : st;
    st = st == UA_OK
             ? ua_cusolver_called(
                   FN(j, ua_svdj_batched_buf_fn, UA_CUSOLVER_SVDJ_BATCHED_BUF)(
                       j->h, jobz, m, n, p->a, m, p->w, u, m, v, n, &lwork,
                       params, batch),
                   NAME(j, UA_CUSOLVER_SVDJ_BATCHED_BUF))
             : st;
    st = st == UA_OK ? ua_cusolver_workspace(j, lwork, &work) : st;
    st = st == UA_OK ? ua_cusolver_statuses(j, &info) : st;
    st = st == UA_OK ? ua_cusolver_called(
                           FN(j, ua_svdj_batched_fn, UA_CUSOLVER_SVDJ_BATCHED)(
                               j->h, jobz, m, n, p->a, m, p->w, u, m, v, n,
                               work, lwork, info, params, batch),
                           NAME(j, UA_CUSOLVER_SVDJ_BATCHED))
                     : st;
    if (params != NULL) {
        lib->destroy_svdj(params);
    }
    if (st == UA_OK && p->vectors && !direct) {
        /* U's first ucols columns are its first m * ucols elements */
        ptrdiff_t shape[3] = {batch, 1, (ptrdiff_t)m * ucols};
        ptrdiff_t dsteps[3] = {(ptrdiff_t)m * ucols, 0, 1};
        ptrdiff_t ssteps[3] = {(ptrdiff_t)m * m, 0, 1};
        st = copy3(j, shape, p->u, dsteps, u, ssteps);
    }
    if (st == UA_OK && p->vectors) {
        /* vt = (V's first vtrows columns)^H */
        st = ua_cusolver_transpose(j, p->vt, v, n, vtrows, n, (ptrdiff_t)n * n,
                                   count);
        st = st == UA_OK ? ua_cuda_blas_conj(j->q, p->type, p->vt,
                                             count * (size_t)vtrows * n)
                         : st;
    }
    return st == UA_OK ? ua_cusolver_check(j, info, count,
                                           NAME(j, UA_CUSOLVER_SVDJ_BATCHED),
                                           "did not converge (SVD)")
                       : st;
}

ua_status
ua_cusolver_batched(ua_cusolver_job *j)
{
    switch (j->p->op) {
    case UA_SOLVER_CHOLESKY:
        return cholesky(j);
    case UA_SOLVER_LU:
    case UA_SOLVER_SOLVE:
        return lu(j);
    case UA_SOLVER_EIGH:
        return eigh(j);
    case UA_SOLVER_SVD:
        return svd(j);
    default:
        return ua_error_set(UA_ERR_VALUE,
                            "no batched routine for factorization %d",
                            (int)j->p->op);
    }
}
