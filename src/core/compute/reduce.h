/* reduce.c, sort.c: what the binding asks of the core for reductions,
 * scans, sorts, searches and matrix products, which the core plans and
 * runs through the queue's compute-kernel table (reduce_kernels.h).
 * Strides are in elements. */
#ifndef USMARRAY_CORE_COMPUTE_REDUCE_H
#define USMARRAY_CORE_COMPUTE_REDUCE_H

#include "core/compute/kernels.h"
#include "core/core.h"

/* x (nd axes of shape) reduced over the axes whose bit is set in axes
 * into result, whose axes are x's other axes in order and whose type
 * decides the arithmetic (reduce_kernels.h).  An empty reduction of MIN,
 * MAX, ARGMIN, ARGMAX, VAR or STD over a non-empty result raises
 * UA_ERR_VALUE: they have no identity. */
typedef struct ua_reduce_request {
    ua_reduce_op op;
    int nd;
    const ptrdiff_t *shape;
    ua_strided x;
    uint64_t axes;
    ua_strided result;
    double correction;
} ua_reduce_request;

ua_status ua_queue_reduce(ua_queue *q, const ua_reduce_request *r);

/* A scan of x along axis into result (x's shape, with n + initial, or for
 * DIFF n - 1, elements along axis). */
ua_status ua_queue_scan(ua_queue *q, ua_scan_op op, int nd,
                        const ptrdiff_t *shape, const ua_strided *x, int axis,
                        int initial, const ua_strided *result);

/* result <- x sorted along axis (values of x's type), or where argsort the
 * positions (int64) that sort it; stable. */
ua_status ua_queue_sort(ua_queue *q, int nd, const ptrdiff_t *shape,
                        const ua_strided *x, int axis, bool descending,
                        bool argsort, const ua_strided *result);

/* The kernels' entries as they are, for plans the binding makes of dense
 * arrays (search, group) and the batch of a matrix product (planned:
 * length-1 batch axes dropped, neighbours merged). */
ua_status ua_queue_search(ua_queue *q, const ua_search_plan *p);
ua_status ua_queue_group(ua_queue *q, const ua_group_plan *p,
                         ptrdiff_t *count);
ua_status ua_queue_matmul(ua_queue *q, ua_matmul_plan *p);

/* Compiles ahead, side by side, the kernels that the steps of one call
 * will launch on q (kernels.h, prepare); a hint: nothing is run, and a
 * backend that compiles nothing, or a compile that fails, changes
 * nothing (each step then compiles and reports as it would). */
void ua_queue_prepare(ua_queue *q, const ua_prepare_item *items, int n);

#endif
