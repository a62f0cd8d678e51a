/* Computing on arrays of a queue: what the binding asks of the core, which
 * plans the work and runs it on the queue's backend through its
 * compute-kernel table (compute/kernels.h). */
#ifndef USMARRAY_CORE_COMPUTE_COMPUTE_H
#define USMARRAY_CORE_COMPUTE_COMPUTE_H

#include "core/compute/kernels.h"
#include "core/core.h"

/* An array indexed by integer arrays (NumPy's advanced indexing, take):
 * the array x (strides in elements), and `count` index arrays of int64
 * that index its axes axes[0..count) (distinct), given as strided views of
 * their common broadcast shape bshape (strides in elements, 0 where
 * broadcast).  The result's axes are x's other axes in order, with the
 * bnd axes of bshape inserted before the position-th of them. */
typedef struct ua_index_request {
    char *data;
    int nd;
    const ptrdiff_t *shape;
    const ptrdiff_t *strides;
    size_t itemsize;
    int count;
    const int *axes;
    const ua_strided *index;
    int bnd;
    const ptrdiff_t *bshape;
    int position;
} ua_index_request;

/* The result's shape: *nd axes into shape (UA_MAXDIMS long).  UA_ERR_VALUE
 * past UA_MAXDIMS axes or for a result too large to address. */
ua_status ua_index_result_shape(const ua_index_request *r, int *nd,
                                ptrdiff_t *shape);
/* result (of r's result shape, x's type, strides in elements) <- x[...].
 * UA_ERR_INDEX names an index out of bounds, its axis and the axis's
 * length; it waits for the queue only then, to read the kernels' flag. */
ua_status ua_queue_gather(ua_queue *q, const ua_index_request *r,
                          const ua_strided *result);
/* x[...] <- values (of r's result shape, x's type; strides 0 where
 * broadcast). */
ua_status ua_queue_scatter(ua_queue *q, const ua_index_request *r,
                           const ua_strided *values);

/* result[i] <- x[i with i[axis] replaced by index[i]] over shape (x's
 * strides 0 along its broadcast axes and along axis, whose length and
 * stride in elements are given apart). */
ua_status ua_queue_take_along_axis(ua_queue *q, int nd, const ptrdiff_t *shape,
                                   const ua_strided *x, int axis,
                                   ptrdiff_t length, ptrdiff_t stride,
                                   const ua_strided *index,
                                   const ua_strided *result);

/* The backend's kernels, through the queue's table. */
ua_status ua_queue_compress(ua_queue *q, const ua_compress_plan *p,
                            ua_compress_output out, void *ctx, size_t *count);
ua_status ua_queue_affine(ua_queue *q, const ua_affine_plan *p);
ua_status ua_queue_band(ua_queue *q, const ua_band_plan *p);

#endif
