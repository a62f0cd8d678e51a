/* The CUDA backend's launcher (gpu/launcher.h), through which the GPU
 * layer runs reductions, scans, sorts, searches, groups and matrix
 * products: its kernels as CUDA C++, which NVRTC compiles once per
 * context, pair of types, family of kernels and operation, each of the
 * family's kernels alone and side by side with the others (kept on disk
 * between processes), launched in blocks of UA_GPU_GROUP threads on the
 * queue's stream.  Temporaries come from the stream-ordered pool and go
 * back to it in stream order, so that nothing waits for the device but a
 * group count.  Sorts go to the one-sweep radix sort (cuda_sort.c) and
 * matrix products of more than SMALL_PRODUCT multiply-adds to cuBLAS
 * (cuda_blas.c) where they take the plan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/cuda_language.h"
#include "gpu/dialect_cuda_text.h"
#include "gpu/launcher.h"

static const char *const header[] = {ua_cuda_kernel_prelude, NULL};
static const ua_gpu_language language = {header, ua_gpu_cuda_dialect_text,
                                         ua_cuda_type_name};

char *
ua_cuda_reduce_source(ua_typenum x, ua_typenum a, bool truth)
{
    ua_gpu_program p = {{x, a, truth}, UA_GPU_F_ALL, -1, -1};
    return ua_gpu_program_source(&language, &p);
}

char *
ua_cuda_reduce_program_source(const ua_gpu_program *p)
{
    return ua_gpu_program_source(&language, p);
}

/* A kernel's full module in place of its fast one (under c->lock): where
 * holds the program's functions and the kernel's index among them. */
static ua_status
install_kernel(ua_cuda_context *c, CUmodule m, const long long where[2])
{
    (void)c;
    CUfunction *f = (CUfunction *)(intptr_t)where[0];
    const char *name = ua_gpu_kernel_names[where[1]];
    CU_CHECK(ua_cu.cuModuleGetFunction(&f[where[1]], m, name), name);
    return UA_OK;
}

int
ua_cuda_family_jobs(ua_cuda_context *c, const ua_gpu_program *p, CUfunction *f,
                    ua_cuda_job *jobs, int cap)
{
    (void)c;
    int n = 0;
    for (int i = 0; i < UA_GPU_NKERNELS; i++) {
        if (ua_gpu_family_of((ua_gpu_kernel)i) != p->family) {
            continue;
        }
        if (n == cap) {
            ua_error_set(UA_ERR_RUNTIME,
                         "the %s family has more kernels than "
                         "UA_CUDA_COMPILE_MAX",
                         ua_gpu_family_names[p->family]);
            return ua_cuda_jobs_drop(jobs, n);
        }
        ua_gpu_program one = *p;
        one.kernel = i;
        snprintf(jobs[n].what, sizeof jobs[n].what, "%s kernel",
                 ua_gpu_kernel_names[i]);
        jobs[n].tier =
            (ua_cuda_tier){install_kernel, {(long long)(intptr_t)f, i}};
        jobs[n].source = ua_gpu_program_source(&language, &one);
        if (jobs[n++].source == NULL) {
            return ua_cuda_jobs_out_of_memory(jobs, n);
        }
    }
    return n;
}

ua_status
ua_cuda_family_add(ua_cuda_context *c, const ua_gpu_program *p, CUfunction *f)
{
    /* The modules live as long as the context, as every module does. */
    return ua_ew_table_add(&c->reduce, ua_gpu_program_key(p), f, NULL);
}

/* Compiles program p, each of its family's kernels a program of its own,
 * side by side; called under c->lock.  Every kernel of the text combines
 * in a fixed order and rounds each product (mul_rn): no compiler level
 * changes its results, so that a first call may take the fast one. */
static ua_status
build(ua_cuda_context *c, const ua_gpu_program *p, CUfunction **out)
{
    CUfunction *f = calloc(UA_GPU_NKERNELS, sizeof *f);
    if (f == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a kernel");
    }
    ua_cuda_job jobs[UA_CUDA_COMPILE_MAX];
    int n = ua_cuda_family_jobs(c, p, f, jobs, UA_CUDA_COMPILE_MAX);
    bool compiled = false;
    ua_status st =
        n < 0 ? ua_error_code() : ua_cuda_jobs_run(c, jobs, n, &compiled);
    st = st == UA_OK ? ua_cuda_family_add(c, p, f) : st;
    if (st != UA_OK) {
        /* A full compile, where one started, installs into f: it stays. */
        if (!compiled) {
            free(f);
        }
        return st;
    }
    *out = f;
    return UA_OK;
}

static ua_status
launch(void *queue, const ua_gpu_types *t, ua_gpu_kernel which, size_t groups,
       const ua_gpu_arg *args, int nargs)
{
    ua_cuda_queue *q = queue;
    ua_cuda_context *c = q->c;
    ua_status st = ua_cuda_bind(c);
    if (st != UA_OK) {
        return st;
    }
    double t0 = ua_cuda_tracing() ? ua_cuda_now_ms() : 0;
    ua_gpu_program program = ua_gpu_program_for(t, which, args, nargs);
    pthread_mutex_lock(&c->lock);
    ua_cuda_upgrades_install(c);
    const ua_ew_slot *e =
        ua_ew_table_find(&c->reduce, ua_gpu_program_key(&program));
    CUfunction *f = e != NULL ? e->kernel : NULL;
    st = f != NULL ? UA_OK : build(c, &program, &f);
    CUfunction kernel = st == UA_OK ? f[which] : NULL;
    pthread_mutex_unlock(&c->lock);
    if (st != UA_OK) {
        return st;
    }
    if (groups > 0x7fffffff) {
        return ua_error_set(UA_ERR_VALUE,
                            "a reduction of %zu blocks is more than one "
                            "launch takes",
                            groups);
    }
    void *params[24];
    for (int i = 0; i < nargs; i++) {
        params[i] = args[i].kind == UA_GPU_PTR   ? (void *)&args[i].p
                    : args[i].kind == UA_GPU_I64 ? (void *)&args[i].i64
                                                 : (void *)&args[i].i32;
    }
    double t1 = t0 > 0 ? ua_cuda_now_ms() : 0;
    CU_CHECK(ua_cu.cuLaunchKernel(kernel, (unsigned)groups, 1, 1, UA_GPU_GROUP,
                                  1, 1, 0, q->stream, params, NULL),
             ua_gpu_kernel_names[which]);
    /* a launch that took long: where a first call's time went */
    if (t0 > 0 && ua_cuda_now_ms() - t0 > 1.0) {
        fprintf(stderr, "usmarray: %s: kernel %.1f ms, launch %.1f ms\n",
                ua_gpu_kernel_names[which], t1 - t0, ua_cuda_now_ms() - t1);
    }
    return UA_OK;
}

static ua_status
temporary(void *queue, size_t nbytes, void **ptr)
{
    ua_cuda_queue *q = queue;
    ua_status st = ua_cuda_bind(q->c);
    if (st != UA_OK) {
        return st;
    }
    CUdeviceptr d = 0;
    double t0 = ua_cuda_tracing() ? ua_cuda_now_ms() : 0;
    st = ua_cuda_scratch(q, nbytes, &d);
    *ptr = st == UA_OK ? (void *)(uintptr_t)d : NULL;
    if (t0 > 0 && ua_cuda_now_ms() - t0 > 1.0) {
        fprintf(stderr, "usmarray: a temporary of %zu bytes: %.1f ms\n",
                nbytes, ua_cuda_now_ms() - t0);
    }
    return st;
}

static void
release_temporary(void *queue, void *ptr)
{
    ua_cu.cuMemFreeAsync((CUdeviceptr)(uintptr_t)ptr,
                         ((ua_cuda_queue *)queue)->stream);
}

/* From pageable host memory the driver stages the bytes before it
 * returns, so that they may go at once. */
static ua_status
upload(void *queue, void *dst, const void *src, size_t n)
{
    ua_cuda_queue *q = queue;
    ua_status st = ua_cuda_bind(q->c);
    if (st != UA_OK) {
        return st;
    }
    double t0 = ua_cuda_tracing() ? ua_cuda_now_ms() : 0;
    CU_CHECK(ua_cu.cuMemcpyAsync((CUdeviceptr)(uintptr_t)dst,
                                 (CUdeviceptr)(uintptr_t)src, n, q->stream),
             "cuMemcpyAsync");
    if (t0 > 0 && ua_cuda_now_ms() - t0 > 1.0) {
        fprintf(stderr, "usmarray: an upload of %zu bytes: %.1f ms\n", n,
                ua_cuda_now_ms() - t0);
    }
    return UA_OK;
}

static ua_status
download(void *queue, void *dst, const void *src, size_t n)
{
    ua_cuda_queue *q = queue;
    ua_status st = upload(queue, dst, src, n);
    CU_CHECK(ua_cu.cuStreamSynchronize(q->stream), "cuStreamSynchronize");
    return st;
}

const ua_gpu_launcher_ops ua_cuda_launcher = {
    .launch = launch,
    .temporary = temporary,
    .release_temporary = release_temporary,
    .upload = upload,
    .download = download,
    .copy_strided = ua_cuda_copy_strided};

/* The radix sort and cuBLAS first, where they take the plan. */
ua_status
ua_cuda_sort(void *queue, const ua_sort_plan *p)
{
    bool done = false;
    ua_status st = ua_cuda_radix_sort(queue, p, &done);
    return st != UA_OK || done ? st : ua_gpu_sort(queue, p);
}

/* Products of at most this many multiply-adds (128 x 128 x 128), each
 * result a sum of at most SMALL_DEPTH products, take the GPU layer's tile
 * kernel: microseconds either way, and a process's first small product
 * then waits neither for cuBLAS's load (about 190 ms) nor for the lazy
 * load of the cuBLAS kernel its shape picks (about 50 ms, paid again per
 * new kernel).  A tile's group walks k 16 at a time alone, so a longer
 * sum (a dot product of long vectors) goes to cuBLAS. */
#define SMALL_PRODUCT ((size_t)1 << 21)
#define SMALL_DEPTH 2048

static bool
is_small_product(const ua_matmul_plan *p)
{
    /* in double: exact below 2**53, and past it far from the bound */
    double size = (double)p->m * (double)p->n * (double)p->k;
    for (int d = 0; d < p->nd; d++) {
        size *= (double)p->shape[d];
    }
    return p->k <= SMALL_DEPTH && size <= (double)SMALL_PRODUCT;
}

ua_status
ua_cuda_matmul(void *queue, const ua_matmul_plan *p)
{
    bool done = false;
    ua_status st =
        is_small_product(p) ? UA_OK : ua_cuda_blas_gemm(queue, p, &done);
    return st != UA_OK || done ? st : ua_gpu_matmul(queue, p);
}
