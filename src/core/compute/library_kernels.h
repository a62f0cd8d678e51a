/* The plans of the compute-kernel table's entries that call the platform's
 * libraries rather than kernels of their own: dense factorizations
 * (LAPACK from the host's OpenBLAS, cuSOLVER) and fast Fourier transforms
 * (NumPy's pocketfft on host memory, cuFFT).  kernels.h includes this
 * header; compute/library.c makes the plans.  The binding composes the
 * standard's linalg and fft functions from these few operations.
 *
 * Every matrix here is dense and column-major, as LAPACK's are: element
 * (i, j) of matrix k of a batch of rows x cols matrices lies at
 * base + (k * rows * cols + i + j * rows) * itemsize, with leading
 * dimension rows (at least 1). */
#ifndef USMARRAY_CORE_COMPUTE_LIBRARY_KERNELS_H
#define USMARRAY_CORE_COMPUTE_LIBRARY_KERNELS_H

#include "core/core.h"

/* A factorization of each matrix a (m x n) of a batch:
 *   CHOLESKY  a (n x n, Hermitian, its lower triangle read) <- L in its
 *             lower triangle (the strict upper triangle left as it was),
 *             a = L L^H; a matrix that is not positive definite is an
 *             error (UA_ERR_LINALG)
 *   LU        a <- its LU factors with partial pivoting (P a = L U, L's
 *             unit diagonal not stored), pivots (min(m, n) int32 per
 *             matrix, 1-based: row i was swapped with row pivots[i]); a
 *             singular matrix is not an error here
 *   SOLVE     a (n x n) <- its LU factors, b (n x nrhs) <- a^-1 b; a
 *             singular a is an error (UA_ERR_LINALG)
 *   QR        a (m x n) <- R in its upper triangle and Householder
 *             reflectors below it (LAPACK's geqrf), tau (min(m, n)
 *             elements of type per matrix) <- their scales
 *   QR_Q      a (m x n, n <= m), whose first k (<= n) columns hold
 *             QR's reflectors, with their tau (k per matrix) <- the first
 *             n columns of Q (orgqr / ungqr)
 *   EIGH      a (n x n, Hermitian, its lower triangle read) -> w (n real
 *             elements per matrix, ascending) and, where vectors, a <- the
 *             eigenvectors as columns (a is otherwise destroyed)
 *   EIG       a (n x n, destroyed) -> w (n elements per matrix of the
 *             complex type of a's precision: the eigenvalues) and, where
 *             vectors, v (n x n of a's type) <- the right eigenvectors as
 *             columns, each of norm 1 with its largest component real
 *             (LAPACK's geev); for a real a, a complex conjugate pair of
 *             eigenvalues comes positive imaginary part first, and its
 *             vectors are v[:, j] + i v[:, j + 1] and their conjugate, as
 *             LAPACK gives them
 *   SVD       a (m x n, destroyed) -> s (min(m, n) real elements,
 *             descending) and, where vectors, u (m x ucols) and vt
 *             (vtrows x n) with ucols = vtrows = full ? m and n : min(m,
 *             n)
 *   DET       a (n x n) <- its LU factors as LU's (pivots not kept), det
 *             (one element of type per matrix) <- the determinant, 0 for a
 *             singular matrix (not an error)
 *   SLOGDET   as DET, det <- the determinant's sign (of type: a unit
 *             complex number for complex types, 0 where singular) and w
 *             (one real element per matrix) <- log |det| (-inf where
 *             singular)
 * DET and SLOGDET are the host's (its loops, one pass without the
 * reductions a composition would need): ua_queue_solver_takes says where
 * a queue's library calls take them.
 * Each entry waits for the queue where it must read a library's status,
 * and answers UA_ERR_LINALG naming the matrix of the batch that fails, or
 * UA_ERR_UNAVAILABLE naming the library that is missing. */
typedef enum ua_solver_op {
    UA_SOLVER_CHOLESKY,
    UA_SOLVER_LU,
    UA_SOLVER_SOLVE,
    UA_SOLVER_QR,
    UA_SOLVER_QR_Q,
    UA_SOLVER_EIGH,
    UA_SOLVER_SVD,
    UA_SOLVER_EIG,
    UA_SOLVER_DET,
    UA_SOLVER_SLOGDET
} ua_solver_op;

typedef struct ua_solver_plan {
    ua_solver_op op;
    ua_typenum type; /* float32, float64, complex64 or complex128 */
    size_t batch;    /* > 0 */
    ptrdiff_t m, n;  /* a's rows and columns, > 0 */
    ptrdiff_t nrhs;  /* SOLVE: b's columns, > 0 */
    ptrdiff_t k;     /* QR_Q: the reflectors, 0 < k <= n */
    bool vectors;    /* EIGH, EIG, SVD */
    bool full;       /* SVD: full_matrices */
    char *a;
    char *b;         /* SOLVE */
    char *tau;       /* QR, QR_Q */
    char *w;         /* EIGH, EIG: eigenvalues; SVD: singular values;
                        SLOGDET: log |det| */
    char *u, *vt;    /* SVD, where vectors */
    char *v;         /* EIG, where vectors */
    int32_t *pivots; /* LU */
    char *det;       /* DET: determinants; SLOGDET: their signs */
} ua_solver_plan;

/* A batch of discrete Fourier transforms over the last `rank` axes of
 * dense C-ordered arrays, unnormalized in both directions (the binding
 * scales):
 *   C2C  complex to complex, exp(-2 pi i jk / n) forward, exp(+...) where
 *        inverse
 *   R2C  real to complex, forward: the complex side's last axis holds
 *        n[rank - 1] / 2 + 1 elements
 *   C2R  complex to real, inverse: the complex side as R2C's; its
 *        imaginary parts where Hermitian symmetry would make them 0 are
 *        ignored, as pocketfft and cuFFT ignore them
 * n holds the lengths of the real (or complex, for C2C) side.  in and out
 * do not overlap; C2R may overwrite in (cuFFT does). */
typedef enum ua_fft_kind { UA_FFT_C2C, UA_FFT_R2C, UA_FFT_C2R } ua_fft_kind;

typedef struct ua_fft_plan {
    ua_fft_kind kind;
    bool inverse;    /* C2C only */
    ua_typenum type; /* the complex side's: complex64 or complex128 */
    int rank;        /* 1, 2 or 3 */
    ptrdiff_t n[3];  /* > 0 */
    size_t batch;    /* > 0 */
    const char *in;
    char *out;
} ua_fft_plan;

#endif /* USMARRAY_CORE_COMPUTE_LIBRARY_KERNELS_H */
