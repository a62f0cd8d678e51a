/* cuBLAS for the CUDA backend's matrix products, loaded at run time as the
 * driver and NVRTC are: USMARRAY_CUBLAS_LIBRARY (a path), else the
 * system's libcublas.so.13 or .12, else the nvidia-cublas wheels along
 * Python's path (nvidia/cublas/lib, as CuPy's and PyTorch's users have
 * them).  float32, float64, complex64 and complex128 products whose
 * matrices have a unit stride along one axis go to gemm (one call per
 * batch, strided), in cuBLAS's default math mode: no TF32, which would
 * round float32 inputs to 10 bits.  cuda_solver.c's batches of small
 * matrices take cuBLAS's batched LU and a conjugation from here.  Each
 * context has one handle, bound to the queue's stream for each call under
 * the context's lock. */
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"

enum { OP_N = 0, OP_T = 1, DEFAULT_MATH = 0 };

typedef int (*create_fn)(void **handle);
typedef int (*set_stream_fn)(void *handle, CUstream s);
typedef int (*set_math_fn)(void *handle, int mode);
/* The four gemmStridedBatched share one shape: scalars by pointer. */
typedef int (*gemm_fn)(void *h, int ta, int tb, int m, int n, int k,
                       const void *alpha, const void *a, int lda, long long sa,
                       const void *b, int ldb, long long sb, const void *beta,
                       void *c, int ldc, long long sc, int batch);

/* The batched LU (cuda_solver.c's small matrices): arrays of matrix
 * addresses in device memory; getrs's info is one host integer. */
typedef int (*getrf_batched_fn)(void *h, int n, void *const *a, int lda,
                                int *pivots, int *info, int batch);
typedef int (*getrs_batched_fn)(void *h, int trans, int n, int nrhs,
                                void *const *a, int lda, const int *pivots,
                                void *const *b, int ldb, int *info, int batch);
/* Sscal_v2 and Dscal_v2: alpha by host pointer. */
typedef int (*scal_fn)(void *h, int n, const void *alpha, void *x, int incx);

static struct {
    create_fn create;
    set_stream_fn set_stream;
    set_math_fn set_math;
    gemm_fn gemm[4]; /* S, D, C, Z */
    getrf_batched_fn getrf_batched[4];
    getrs_batched_fn getrs_batched[4];
    scal_fn scal[2]; /* S, D */
    bool batched;    /* all of the three above */
    char where[200];
} cublas;
static pthread_once_t cublas_once = PTHREAD_ONCE_INIT;

/* The solver's routines are optional: products need none of them. */
static void
take_batched(void *h)
{
    static const char letters[] = "SDCZ";
    bool all = true;
    for (int t = 0; t < 4; t++) {
        char name[32];
        snprintf(name, sizeof name, "cublas%cgetrfBatched", letters[t]);
        *(void **)&cublas.getrf_batched[t] = dlsym(h, name);
        snprintf(name, sizeof name, "cublas%cgetrsBatched", letters[t]);
        *(void **)&cublas.getrs_batched[t] = dlsym(h, name);
        all = all && cublas.getrf_batched[t] && cublas.getrs_batched[t];
    }
    *(void **)&cublas.scal[0] = dlsym(h, "cublasSscal_v2");
    *(void **)&cublas.scal[1] = dlsym(h, "cublasDscal_v2");
    cublas.batched = all && cublas.scal[0] && cublas.scal[1];
}

static bool
take_symbols(void *h, const char *path)
{
    static const char *const gemms[4] = {
        "cublasSgemmStridedBatched", "cublasDgemmStridedBatched",
        "cublasCgemmStridedBatched", "cublasZgemmStridedBatched"};
    *(void **)&cublas.create = dlsym(h, "cublasCreate_v2");
    *(void **)&cublas.set_stream = dlsym(h, "cublasSetStream_v2");
    *(void **)&cublas.set_math = dlsym(h, "cublasSetMathMode");
    bool all = cublas.create && cublas.set_stream && cublas.set_math;
    for (int t = 0; t < 4; t++) {
        *(void **)&cublas.gemm[t] = dlsym(h, gemms[t]);
        all = all && cublas.gemm[t] != NULL;
    }
    if (!all) {
        memset(&cublas, 0, sizeof cublas);
        return false;
    }
    take_batched(h);
    const char *base = strrchr(path, '/');
    snprintf(cublas.where, sizeof cublas.where, "cuBLAS (%s)",
             base != NULL ? base + 1 : path);
    return true;
}

static bool
try_path(const char *path)
{
    return ua_library_open(path, take_symbols);
}

/* Wheels put a library's files in one folder under site-packages, which
 * the loader does not search: each of Python's paths is tried in turn. */
bool
ua_cuda_open_from_wheels(const char *folder, const char *prefix,
                         bool (*take)(void *handle, const char *path))
{
    size_t prefix_len = strlen(prefix);
    const char *paths = ua_library_search_path();
    while (paths != NULL && *paths != '\0') {
        size_t n = strcspn(paths, ":");
        char dir[3800];
        if (n > 0 && n < sizeof dir - 32) {
            snprintf(dir, sizeof dir, "%.*s/%s", (int)n, paths, folder);
            DIR *d = opendir(dir);
            struct dirent *e;
            bool found = false;
            while (d != NULL && !found && (e = readdir(d)) != NULL) {
                if (strncmp(e->d_name, prefix, prefix_len) == 0) {
                    char path[4096];
                    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                    found = ua_library_open(path, take);
                }
            }
            if (d != NULL) {
                closedir(d);
            }
            if (found) {
                return true;
            }
        }
        paths += n + (paths[n] == ':');
    }
    return false;
}

static void
find_cublas(void)
{
    const char *env = getenv("USMARRAY_CUBLAS_LIBRARY");
    if (env != NULL && env[0] != '\0') {
        if (!try_path(env)) {
            snprintf(cublas.where, sizeof cublas.where,
                     "no cuBLAS at USMARRAY_CUBLAS_LIBRARY");
        }
        return;
    }
    if (try_path("libcublas.so.13") || try_path("libcublas.so.12") ||
        try_path("libcublas.so") ||
        ua_cuda_open_from_wheels("nvidia/cublas/lib", "libcublas.so",
                                 take_symbols)) {
        return;
    }
    snprintf(cublas.where, sizeof cublas.where,
             "no cuBLAS: products use a kernel");
}

const char *
ua_cuda_blas_description(void)
{
    pthread_once(&cublas_once, find_cublas);
    return cublas.where;
}

/* A matrix of rows x cols with strides rs, cs (elements) as cuBLAS's
 * column-major operand of the transposed product: a row-major matrix is
 * its transpose in column-major order (op N), a column-major one needs
 * op T. */
static bool
operand(ptrdiff_t rows, ptrdiff_t cols, ptrdiff_t rs, ptrdiff_t cs, int *op,
        ptrdiff_t *ld)
{
    if (cs == 1 && rs >= cols && rs > 0) {
        *op = OP_N;
        *ld = rs;
        return true;
    }
    if (rs == 1 && cs >= rows && cs > 0) {
        *op = OP_T;
        *ld = cs;
        return true;
    }
    return false;
}

static int
type_slot(ua_typenum t)
{
    return t == UA_FLOAT32      ? 0
           : t == UA_FLOAT64    ? 1
           : t == UA_COMPLEX64  ? 2
           : t == UA_COMPLEX128 ? 3
                                : -1;
}

static bool
fits_int(ptrdiff_t v)
{
    return v >= 0 && v <= INT_MAX;
}

/* The context's handle, made on first use (under c->lock). */
static ua_status
handle_of(ua_cuda_context *c, void **h)
{
    if (c->cublas == NULL) {
        if (cublas.create(&c->cublas) != 0) {
            c->cublas = NULL;
            return ua_error_set(UA_ERR_RUNTIME, "cublasCreate failed");
        }
        cublas.set_math(c->cublas, DEFAULT_MATH);
    }
    *h = c->cublas;
    return UA_OK;
}

ua_status
ua_cuda_blas_gemm(ua_cuda_queue *q, const ua_matmul_plan *p, bool *done)
{
    *done = false;
    int t = type_slot(p->type);
    if (t < 0 || p->conj_a || p->nd > 1 ||
        getenv("USMARRAY_NO_BLAS") != NULL) {
        return UA_OK;
    }
    pthread_once(&cublas_once, find_cublas);
    if (cublas.gemm[t] == NULL) {
        return UA_OK;
    }
    ptrdiff_t s = (ptrdiff_t)ua_dtype_itemsize(p->type);
    ptrdiff_t st[9] = {p->am, p->ak, p->bk, p->bn, p->cm, p->cn, 0, 0, 0};
    if (p->nd == 1) {
        st[6] = p->astep[0];
        st[7] = p->bstep[0];
        st[8] = p->cstep[0];
    }
    for (int i = 0; i < 9; i++) {
        if (st[i] % s != 0) {
            return UA_OK;
        }
        st[i] /= s;
    }
    int oa, ob;
    ptrdiff_t lda, ldb;
    /* c (m x n, row-major) = a b is, column-major, c^T = b^T a^T. */
    if (st[5] != 1 || st[4] < p->n ||
        !operand(p->m, p->k, st[0], st[1], &oa, &lda) ||
        !operand(p->k, p->n, st[2], st[3], &ob, &ldb)) {
        return UA_OK;
    }
    ptrdiff_t batch = p->nd == 1 ? p->shape[0] : 1;
    if (!fits_int(p->m) || !fits_int(p->n) || !fits_int(p->k) ||
        !fits_int(lda) || !fits_int(ldb) || !fits_int(st[4]) ||
        !fits_int(batch) || st[6] < 0 || st[7] < 0 || st[8] < 0) {
        return UA_OK;
    }
    static const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
    static const float one_f[2] = {1.0f, 0.0f}, zero_f[2] = {0.0f, 0.0f};
    bool single = t == 0 || t == 2;
    ua_cuda_context *c = q->c;
    ua_status status = ua_cuda_bind(c);
    if (status != UA_OK) {
        return status;
    }
    pthread_mutex_lock(&c->lock);
    void *h = NULL;
    status = handle_of(c, &h);
    int r = 0;
    if (status == UA_OK) {
        cublas.set_stream(h, q->stream);
        r = cublas.gemm[t](h, ob, oa, (int)p->n, (int)p->m, (int)p->k,
                           single ? (const void *)one_f : one, p->b, (int)ldb,
                           st[7], p->a, (int)lda, st[6],
                           single ? (const void *)zero_f : zero, p->c,
                           (int)st[4], st[8], (int)batch);
    }
    pthread_mutex_unlock(&c->lock);
    if (status == UA_OK && r != 0) {
        status =
            ua_error_set(UA_ERR_RUNTIME, "cuBLAS gemm failed (status %d)", r);
    }
    *done = status == UA_OK;
    return status;
}

bool
ua_cuda_blas_has_batched(void)
{
    pthread_once(&cublas_once, find_cublas);
    return cublas.batched;
}

/* The context's handle bound to q's stream; c->lock is held from here to
 * unbound. */
static ua_status
bound(ua_cuda_queue *q, void **h)
{
    pthread_once(&cublas_once, find_cublas);
    if (!cublas.batched) {
        return ua_error_set(UA_ERR_UNAVAILABLE,
                            "cuBLAS's batched LU is missing (%s)",
                            cublas.where);
    }
    ua_status st = ua_cuda_bind(q->c);
    if (st != UA_OK) {
        return st;
    }
    pthread_mutex_lock(&q->c->lock);
    st = handle_of(q->c, h);
    if (st != UA_OK) {
        pthread_mutex_unlock(&q->c->lock);
        return st;
    }
    cublas.set_stream(*h, q->stream);
    return UA_OK;
}

static void
unbound(ua_cuda_queue *q)
{
    pthread_mutex_unlock(&q->c->lock);
}

ua_status
ua_cuda_blas_lu_batched(ua_cuda_queue *q, ua_typenum type, int n,
                        void *const *a, int *pivots, int *info, int nrhs,
                        void *const *b, int batch)
{
    int t = type_slot(type);
    void *h = NULL;
    ua_status st =
        t < 0 ? ua_error_set(UA_ERR_VALUE, "no batched LU of this type")
              : bound(q, &h);
    if (st != UA_OK) {
        return st;
    }
    int r = cublas.getrf_batched[t](h, n, a, n, pivots, info, batch);
    int refused = 0;
    if (r == 0 && b != NULL) {
        r = cublas.getrs_batched[t](h, OP_N, n, nrhs, a, n, pivots, b, n,
                                    &refused, batch);
    }
    unbound(q);
    if (r != 0) {
        return ua_error_set(
            UA_ERR_RUNTIME, "cuBLAS %s failed (status %d)",
            b != NULL ? "getrfBatched or getrsBatched" : "getrfBatched", r);
    }
    if (refused < 0) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "cuBLAS getrsBatched refused its argument %d",
                            -refused);
    }
    return UA_OK;
}

/* Negates the imaginary parts, every other real of the array: a scal
 * with stride 2 does what a kernel of our own would, without NVRTC. */
ua_status
ua_cuda_blas_conj(ua_cuda_queue *q, ua_typenum type, void *x, size_t count)
{
    if (type != UA_COMPLEX64 && type != UA_COMPLEX128) {
        return UA_OK;
    }
    bool single = type == UA_COMPLEX64;
    size_t real = single ? 4 : 8;
    static const float minus_f = -1.0f;
    static const double minus = -1.0;
    void *h = NULL;
    ua_status st = bound(q, &h);
    if (st != UA_OK) {
        return st;
    }
    int r = 0;
    char *imag = (char *)x + real;
    for (size_t done = 0; done < count && r == 0;) {
        size_t part = count - done < (size_t)INT_MAX / 2 ? count - done
                                                         : (size_t)INT_MAX / 2;
        r = cublas.scal[single ? 0 : 1](
            h, (int)part, single ? (const void *)&minus_f : &minus,
            imag + done * 2 * real, 2);
        done += part;
    }
    unbound(q);
    return r == 0 ? UA_OK
                  : ua_error_set(UA_ERR_RUNTIME,
                                 "cuBLAS scal failed (status %d)", r);
}
