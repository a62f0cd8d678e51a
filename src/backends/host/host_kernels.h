/* host_kernels.c: the host backend's compute-kernel table, whose
 * reductions are in host_reduce.c (dense runs in
 * host_reduce_dense.c), scans and argmin/argmax in
 * host_scan.c, sorts in host_sort.c, searches in host_search.c and matrix products in host_matmul.c
 * over host_blas.c. */
#ifndef USMARRAY_HOST_KERNELS_H
#define USMARRAY_HOST_KERNELS_H

#include <complex.h>

#include "core/backend.h"
#include "core/compute/kernels.h"

extern const ua_compute_ops ua_host_compute_ops;

/* glibc defines C11's CMPLX and CMPLXF for GCC only; clang has the same
 * builtin. */
#ifndef CMPLXF
#define CMPLXF(x, y) __builtin_complex((float)(x), (float)(y))
#endif
#ifndef CMPLX
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#endif

/* A loop cloned for the vector extensions of x86-64 (GCC's ifunc
 * dispatch, resolved once at load time), where the compiler makes them. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define UA_HOST_CLONES                                                        \
    __attribute__((target_clones("default", "avx2", "arch=x86-64-v4")))
#else
#define UA_HOST_CLONES
#endif

/* Runs the body for every position of the first nd axes of a plan p
 * (fields x, result, shape, xstep, rstep), with X and R the positions in
 * x and in the result (the reductions' and scans' outer loop). */
#define FOR_EACH_OUTER(p, nd, X, R, ...)                                      \
    do {                                                                      \
        ptrdiff_t idx_[UA_MAXDIMS] = {0};                                     \
        const char *X = (p)->x;                                               \
        char *R = (p)->result;                                                \
        for (;;) {                                                            \
            __VA_ARGS__;                                                      \
            int k_ = (nd) - 1;                                                \
            for (; k_ >= 0; k_--) {                                           \
                X += (p)->xstep[k_];                                          \
                R += (p)->rstep[k_];                                          \
                if (++idx_[k_] < (p)->shape[k_]) {                            \
                    break;                                                    \
                }                                                             \
                X -= (p)->xstep[k_] * (p)->shape[k_];                         \
                R -= (p)->rstep[k_] * (p)->shape[k_];                         \
                idx_[k_] = 0;                                                 \
            }                                                                 \
            if (k_ < 0) {                                                     \
                break;                                                        \
            }                                                                 \
        }                                                                     \
    } while (0)

ua_status ua_host_reduce(void *queue, const ua_reduce_plan *p);
ua_status ua_host_arg_reduce(const ua_reduce_plan *p);
/* The loops of host_reduce_dense.c for dense float32, float64, int64 and
 * uint64 runs and rows, with the general loops' bits; false where they do
 * not take the plan (*st is then untouched). */
bool ua_host_reduce_dense(const ua_reduce_plan *p, ua_status *st);
bool ua_host_arg_dense(const ua_reduce_plan *p);
ua_status ua_host_scan(void *queue, const ua_scan_plan *p);
ua_status ua_host_sort(void *queue, const ua_sort_plan *p);
ua_status ua_host_search(void *queue, const ua_search_plan *p);
ua_status ua_host_group(void *queue, const ua_group_plan *p, ptrdiff_t *count);
ua_status ua_host_matmul(void *queue, const ua_matmul_plan *p);
/* One product of p's batch through the BLAS; false where there is none
 * or it cannot take the type or layout. */
bool ua_host_blas_gemm(const ua_matmul_plan *p, const char *a, const char *b,
                       char *c);
/* Where the BLAS was found, how its gemm are named, its integers, thread
 * count and build; or why none was found (then the loops compute). */
void ua_host_blas_describe(char *out, size_t len);
/* The library the BLAS was found in (loaded once; NULL where none), its
 * symbols' prefix ("scipy_" or "") and integers (64-bit where ilp64):
 * host_lapack.c asks for it, rather than the BLAS handing it up, so that
 * the two files do not call each other. */
void *ua_host_blas_library(const char **prefix, bool *ilp64);

/* host_small_linalg.c: the factorizations, small matrices by loops of its
 * own, batches split over the threads, the rest through LAPACK. */
ua_status ua_host_solver(void *queue, const ua_solver_plan *p);
/* host_lapack.c: the factorizations of LAPACK, from the library the BLAS
 * was found in (OpenBLAS holds both), one call per matrix. */
ua_status ua_host_lapack_solver(void *queue, const ua_solver_plan *p);
/* Which LAPACK the factorizations call, and which FFT. */
void ua_host_libraries_describe(char *out, size_t len);

#endif
