/* The plans of the compute-kernel table's reductions, scans, sorts and
 * matrix products (kernels.h includes this header; compute/reduce.c,
 * products among them, and compute/sort.c make the plans).  As for every
 * entry, the core has dropped and merged axes, checked sizes and
 * allocated, so that a kernel sees a few plain steps, in bytes. */
#ifndef USMARRAY_CORE_COMPUTE_REDUCE_KERNELS_H
#define USMARRAY_CORE_COMPUTE_REDUCE_KERNELS_H

#include "core/core.h"

/* A reduction's combiner.  The first six are the elementwise catalogue's
 * add, multiply, minimum, maximum, logical_and and logical_or folded over
 * an axis; the others are built on them:
 *   SUM     add; floating sums are pairwise (blocks of 16 sequential
 *           additions per lane, then a binary tree), integers wrap
 *   PROD    multiply (integers wrap)
 *   MIN     minimum, MAX maximum: a NaN propagates
 *   ALL     logical_and, ANY logical_or of the elements' truth (bool)
 *   COUNT   the number of true elements (add over truth, into int64)
 *   MEAN    SUM, then divided by the count (NaN for none)
 *   VAR     the mean of squared deviations from the MEAN, divided by
 *           count - correction (NaN where that is not positive)
 *   STD     the square root of VAR
 *   ARGMIN, ARGMAX  the index (int64) of the first minimum or maximum
 *           along the reduced run; the first NaN where there is one. */
typedef enum ua_reduce_op {
    UA_REDUCE_SUM,
    UA_REDUCE_PROD,
    UA_REDUCE_MIN,
    UA_REDUCE_MAX,
    UA_REDUCE_ALL,
    UA_REDUCE_ANY,
    UA_REDUCE_COUNT,
    UA_REDUCE_MEAN,
    UA_REDUCE_VAR,
    UA_REDUCE_STD,
    UA_REDUCE_ARGMIN,
    UA_REDUCE_ARGMAX
} ua_reduce_op;

/* A reduction's plan: for each element of the kept axes' shape (nd axes,
 * none of length 1), the n elements of x at x + xstep . index + i * step
 * are combined into one element of result, at result + rstep . index.
 * x's elements have type xtype and are read as values of rtype's
 * arithmetic (the accumulator: int64 or uint64 for integers, float32 for
 * float16, else rtype itself); the result has type rtype.  n > 0 except
 * for SUM, PROD, ALL, ANY, COUNT and MEAN, whose empty result is their
 * identity (NaN for MEAN). */
typedef struct ua_reduce_plan {
    ua_reduce_op op;
    int nd;
    ptrdiff_t shape[UA_MAXDIMS];
    ptrdiff_t xstep[UA_MAXDIMS];
    ptrdiff_t rstep[UA_MAXDIMS];
    ptrdiff_t n;
    ptrdiff_t step;
    const char *x;
    char *result;
    ua_typenum xtype, rtype;
    double correction; /* VAR and STD */
} ua_reduce_plan;

/* A scan along one axis: for each element of the other axes' shape,
 *   CUMSUM, CUMPROD  result[j] = x[0] op ... op x[j - initial] in
 *                    sequence (NumPy's order), result[0] the identity
 *                    where initial is 1;
 *   DIFF             result[j] = x[j + 1] - x[j] (j < n - 1), the
 *                    catalogue's subtract; for bool, not_equal.
 *   LOGSUMEXP        as CUMSUM with NumPy's logaddexp for op (the larger
 *                    plus log1p(exp(-|a - b|))), real floating rtype
 *                    only; the identity -inf.
 * x is read as rtype's arithmetic (as for reductions), and result has n +
 * initial elements (n - 1 for DIFF) along the axis. */
typedef enum ua_scan_op {
    UA_SCAN_CUMSUM,
    UA_SCAN_CUMPROD,
    UA_SCAN_DIFF,
    UA_SCAN_LOGSUMEXP
} ua_scan_op;

typedef struct ua_scan_plan {
    ua_scan_op op;
    int nd;
    ptrdiff_t shape[UA_MAXDIMS];
    ptrdiff_t xstep[UA_MAXDIMS];
    ptrdiff_t rstep[UA_MAXDIMS];
    ptrdiff_t n;
    ptrdiff_t step, rstep_axis;
    int initial;
    const char *x;
    char *result;
    ua_typenum xtype, rtype;
} ua_scan_plan;

/* Sorting rows of n dense elements of type (rows after each other), in
 * place: ascending, or descending where asked, stably, NaNs after every
 * number (before them when descending), -0.0 equal to 0.0.  Where index
 * is not NULL it holds rows of n int64, which the sort writes with the
 * positions the sorted elements came from (argsort).  scratch, where not
 * NULL, is ua_sort_scratch_bytes(n, type, index != NULL) bytes of memory
 * the queue's kernels reach, for the kernel's own use while it runs (the
 * core takes it from its pool, so that a sort pays no fresh pages); NULL
 * where the kernel is to find its own. */
size_t ua_sort_scratch_bytes(size_t n, ua_typenum type, bool argsort);

/* The type reductions and scans of values of type t accumulate in, on
 * every backend: bool for bool, int64 or uint64 for integers, float32 for
 * float16, else t (argmin and argmax compare x's values in it). */
ua_typenum ua_accumulator_of(ua_typenum t);

typedef struct ua_sort_plan {
    char *data;
    int64_t *index;
    ptrdiff_t rows, n;
    ua_typenum type;
    bool descending;
    char *scratch;
} ua_sort_plan;

/* For each of m dense needles, against the n dense sorted elements (same
 * type, the sort's order):
 *   LEFT, RIGHT  the position at which it would go, before equal elements
 *                (left) or after them (right), into result as int64[m]
 *   IN, NOT_IN   whether an element equals it in value (==: a needle with
 *                a NaN equals nothing, -0.0 equals 0.0, as in the sort's
 *                order), or not, into result as bool[m] */
typedef enum ua_search_mode {
    UA_SEARCH_LEFT,
    UA_SEARCH_RIGHT,
    UA_SEARCH_IN,
    UA_SEARCH_NOT_IN
} ua_search_mode;

typedef struct ua_search_plan {
    const char *sorted;
    ptrdiff_t n;
    const char *needles;
    ptrdiff_t m;
    void *result;
    ua_typenum type;
    ua_search_mode mode;
} ua_search_plan;

/* The groups of n sorted elements (dense, the sort's order), each NaN its
 * own group: group (int64[n]) gets each element's group number, starts
 * (int64[n], may be NULL) the position where each group begins, and
 * *count the number of groups.  The entry waits for the queue. */
typedef struct ua_group_plan {
    const char *sorted;
    ptrdiff_t n;
    ua_typenum type;
    int64_t *group;
    int64_t *starts;
} ua_group_plan;

/* A batch of matrix products c = a b, with a of m x k, b of k x n and c
 * of m x n elements of type, strides in bytes, for each element of the
 * batch's shape (nd axes); a's elements conjugated where conj_a (complex
 * types, for vecdot). */
typedef struct ua_matmul_plan {
    int nd;
    ptrdiff_t shape[UA_MAXDIMS];
    ptrdiff_t astep[UA_MAXDIMS], bstep[UA_MAXDIMS], cstep[UA_MAXDIMS];
    ptrdiff_t m, n, k;
    ptrdiff_t am, ak, bk, bn, cm, cn;
    const char *a, *b;
    char *c;
    ua_typenum type;
    bool conj_a;
} ua_matmul_plan;

#endif
