/* What cuda_solver.c, which loads cuSOLVER and factors one matrix per
 * call, shares with cuda_solver_batched.c, which factors a batch of small
 * matrices per call; what both take and check of a job is
 * cuda_solver_job.c's.  Not installed. */
#ifndef USMARRAY_CUDA_SOLVER_H
#define USMARRAY_CUDA_SOLVER_H

#include "backends/cuda/cuda_backend.h"

/* The values of cublasFillMode_t, cublasOperation_t and
 * cusolverEigMode_t used. */
enum {
    UA_CUSOLVER_LOWER = 0,
    UA_CUSOLVER_OP_N = 0,
    UA_CUSOLVER_NOVECTOR = 0,
    UA_CUSOLVER_VECTOR = 1
};

/* The routines of each type (S, D, C, Z), as cuSOLVER's legacy dense API
 * names them (cusolverDn<t><name>); _BUF: the workspace size query of
 * the one before.  Those from POTRF_BATCHED on are optional. */
typedef enum {
    UA_CUSOLVER_POTRF,
    UA_CUSOLVER_POTRF_BUF,
    UA_CUSOLVER_GETRF,
    UA_CUSOLVER_GETRF_BUF,
    UA_CUSOLVER_GETRS,
    UA_CUSOLVER_GEQRF,
    UA_CUSOLVER_GEQRF_BUF,
    UA_CUSOLVER_ORGQR,
    UA_CUSOLVER_ORGQR_BUF,
    UA_CUSOLVER_EVD,
    UA_CUSOLVER_EVD_BUF,
    UA_CUSOLVER_GESVD,
    UA_CUSOLVER_GESVD_BUF,
    UA_CUSOLVER_POTRF_BATCHED,
    UA_CUSOLVER_EVJ_BATCHED,
    UA_CUSOLVER_EVJ_BATCHED_BUF,
    UA_CUSOLVER_SVDJ_BATCHED,
    UA_CUSOLVER_SVDJ_BATCHED_BUF,
    UA_CUSOLVER_SVDJ,
    UA_CUSOLVER_SVDJ_BUF,
    UA_CUSOLVER_ROUTINES
} ua_cusolver_routine;

#define UA_CUSOLVER_REQUIRED UA_CUSOLVER_POTRF_BATCHED

/* Their signatures, matrices and real arrays as void *; every one returns
 * a cusolverStatus_t (0: success). */
typedef int (*ua_potrf_buf_fn)(void *h, int uplo, int n, void *a, int lda,
                               int *lwork);
typedef int (*ua_potrf_fn)(void *h, int uplo, int n, void *a, int lda,
                           void *work, int lwork, int *info);
typedef int (*ua_getrf_buf_fn)(void *h, int m, int n, void *a, int lda,
                               int *lwork);
typedef int (*ua_getrf_fn)(void *h, int m, int n, void *a, int lda, void *work,
                           int *ipiv, int *info);
typedef int (*ua_getrs_fn)(void *h, int trans, int n, int nrhs, const void *a,
                           int lda, const int *ipiv, void *b, int ldb,
                           int *info);
typedef int (*ua_geqrf_buf_fn)(void *h, int m, int n, void *a, int lda,
                               int *lwork);
typedef int (*ua_geqrf_fn)(void *h, int m, int n, void *a, int lda, void *tau,
                           void *work, int lwork, int *info);
typedef int (*ua_orgqr_buf_fn)(void *h, int m, int n, int k, const void *a,
                               int lda, const void *tau, int *lwork);
typedef int (*ua_orgqr_fn)(void *h, int m, int n, int k, void *a, int lda,
                           const void *tau, void *work, int lwork, int *info);
typedef int (*ua_evd_buf_fn)(void *h, int jobz, int uplo, int n, const void *a,
                             int lda, const void *w, int *lwork);
typedef int (*ua_evd_fn)(void *h, int jobz, int uplo, int n, void *a, int lda,
                         void *w, void *work, int lwork, int *info);
typedef int (*ua_gesvd_buf_fn)(void *h, int m, int n, int *lwork);
typedef int (*ua_gesvd_fn)(void *h, signed char jobu, signed char jobvt, int m,
                           int n, void *a, int lda, void *s, void *u, int ldu,
                           void *vt, int ldvt, void *work, int lwork,
                           void *rwork, int *info);
typedef int (*ua_potrf_batched_fn)(void *h, int uplo, int n, void **a, int lda,
                                   int *info, int batch);
typedef int (*ua_evj_batched_buf_fn)(void *h, int jobz, int uplo, int n,
                                     const void *a, int lda, const void *w,
                                     int *lwork, void *params, int batch);
typedef int (*ua_evj_batched_fn)(void *h, int jobz, int uplo, int n, void *a,
                                 int lda, void *w, void *work, int lwork,
                                 int *info, void *params, int batch);
typedef int (*ua_svdj_batched_buf_fn)(void *h, int jobz, int m, int n,
                                      const void *a, int lda, const void *s,
                                      const void *u, int ldu, const void *v,
                                      int ldv, int *lwork, void *params,
                                      int batch);
typedef int (*ua_svdj_batched_fn)(void *h, int jobz, int m, int n, void *a,
                                  int lda, void *s, void *u, int ldu, void *v,
                                  int ldv, void *work, int lwork, int *info,
                                  void *params, int batch);

/* gesvdj: econ 1 gives U (m x min) and V (n x min), 0 square ones. */
typedef int (*ua_svdj_buf_fn)(void *h, int jobz, int econ, int m, int n,
                              const void *a, int lda, const void *s,
                              const void *u, int ldu, const void *v, int ldv,
                              int *lwork, void *params);
typedef int (*ua_svdj_fn)(void *h, int jobz, int econ, int m, int n, void *a,
                          int lda, void *s, void *u, int ldu, void *v, int ldv,
                          void *work, int lwork, int *info, void *params);

typedef void (*ua_cusolver_fn)(void);

/* The 64-bit API's general eigensolver (cuSOLVER 11.7, CUDA 12.6, on):
 * types as cudaDataType values, workspaces in bytes on the device and on
 * the host. */
typedef int (*ua_xgeev_buf_fn)(void *h, void *params, int jobvl, int jobvr,
                               int64_t n, int ta, const void *a, int64_t lda,
                               int tw, const void *w, int tvl, const void *vl,
                               int64_t ldvl, int tvr, const void *vr,
                               int64_t ldvr, int compute, size_t *dev_bytes,
                               size_t *host_bytes);
typedef int (*ua_xgeev_fn)(void *h, void *params, int jobvl, int jobvr,
                           int64_t n, int ta, void *a, int64_t lda, int tw,
                           void *w, int tvl, void *vl, int64_t ldvl, int tvr,
                           void *vr, int64_t ldvr, int compute, void *dev,
                           size_t dev_bytes, void *host, size_t host_bytes,
                           int *info);

/* What was found of the library: the Jacobi routines' parameter objects
 * (syevjInfo_t, gesvdjInfo_t) come with the batched routines. */
typedef struct {
    int (*create)(void **handle);
    int (*set_stream)(void *handle, CUstream s);
    int (*create_evj)(void **params);
    int (*destroy_evj)(void *params);
    int (*sort_evj)(void *params, int sort);
    int (*create_svdj)(void **params);
    int (*destroy_svdj)(void *params);
    int (*sort_svdj)(void *params, int sort);
    /* optional: cusolverDnXgeev and its parameter object */
    int (*create_params)(void **params);
    int (*destroy_params)(void *params);
    ua_xgeev_buf_fn xgeev_buf;
    ua_xgeev_fn xgeev;
    ua_cusolver_fn fn[4][UA_CUSOLVER_ROUTINES];
    char names[4][UA_CUSOLVER_ROUTINES][40];
} ua_cusolver_lib;

/* One factorization in progress: the plan, on q's stream, with the
 * context's handle, and the stream-ordered temporaries it has taken. */
#define UA_CUSOLVER_TEMPS 8
typedef struct {
    ua_cuda_queue *q;
    const ua_solver_plan *p;
    const ua_cusolver_lib *lib;
    const ua_cusolver_fn *fn; /* the row of p's type */
    void *h;
    int t;        /* 0..3: S, D, C, Z */
    size_t s, rs; /* the type's size and its real type's */
    int m, n;
    int ntemps;
    CUdeviceptr temps[UA_CUSOLVER_TEMPS];
} ua_cusolver_job;

/* Device memory until the job ends, from the context's pool. */
ua_status ua_cusolver_temp(ua_cusolver_job *j, size_t bytes, void **out);
/* A workspace of lwork elements of the job's type; room for one status
 * per matrix of the batch. */
ua_status ua_cusolver_workspace(ua_cusolver_job *j, int lwork, void **out);
ua_status ua_cusolver_statuses(ua_cusolver_job *j, int **out);
/* A status of cuSOLVER's as ours. */
ua_status ua_cusolver_called(int status, const char *routine);
/* Reads count statuses of routine (one per matrix) back, waiting for the
 * queue: the first matrix of the batch whose status is positive fails
 * with `what` (UA_ERR_LINALG), a negative one names the argument that
 * routine (a function's name) refused. */
ua_status ua_cusolver_check(ua_cusolver_job *j, const int *info, size_t count,
                            const char *routine, const char *what);
/* cusolverDn<t><name> of the job's type, for messages. */
const char *ua_cusolver_name(const ua_cusolver_job *j, ua_cusolver_routine r);

#define UA_CUSOLVER_FN(j, type, routine) ((type)(j)->fn[routine])
#define UA_CUSOLVER_NAME(j, routine) ua_cusolver_name(j, routine)

/* cuda_solver_batched.c: whether its routines take the job's plan (a
 * batch of small matrices), and the factorization through them. */
bool ua_cusolver_batched_takes(const ua_cusolver_job *j);
ua_status ua_cusolver_batched(ua_cusolver_job *j);
/* dst (batch cols x rows matrices, dense) <- the transposes of batch
 * rows x cols matrices of src whose columns lie ld elements apart and
 * matrices stride elements apart. */
ua_status ua_cusolver_transpose(ua_cusolver_job *j, char *dst, char *src,
                                ptrdiff_t rows, ptrdiff_t cols, ptrdiff_t ld,
                                ptrdiff_t stride, size_t batch);

#endif /* USMARRAY_CUDA_SOLVER_H */
