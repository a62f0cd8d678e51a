/* Indexing by integer arrays, planned once for every backend: the result's
 * axes are laid out, each given its steps in the result, the array and the
 * index, and reduced by the iteration planner (length-1 axes dropped,
 * neighbours merged, the order kept) before the backend's index kernel
 * sees them.  One index array goes to the kernel as it is; several are
 * first combined into one array of byte offsets, each pass checking its
 * own bounds. */
#include <inttypes.h>
#include <string.h>

#include "core/backend.h"
#include "core/compute/compute.h"
#include "core/devices/devices.h"
#include "core/layout/iter_plan.h"

static bool
is_indexed(const ua_index_request *r, int axis)
{
    for (int k = 0; k < r->count; k++) {
        if (r->axes[k] == axis) {
            return true;
        }
    }
    return false;
}

/* The result's axes: for each, the array axis it walks (-1 - b for axis b
 * of the broadcast shape). */
static int
result_axes(const ua_index_request *r, int *from)
{
    int n = 0, kept = 0;
    for (int a = 0; a <= r->nd; a++) {
        if (kept == r->position) {
            for (int b = 0; b < r->bnd; b++) {
                from[n++] = -1 - b;
            }
            kept = -1; /* inserted */
        }
        if (a < r->nd && !is_indexed(r, a)) {
            from[n++] = a;
            kept += kept >= 0;
        }
    }
    return n;
}

/* The array's axes, the broadcast shape's and the result's each fit in an
 * array: the broadcast shape alone fills plans of UA_MAXDIMS axes where
 * several indices combine their offsets. */
static ua_status
check_request_ndim(const ua_index_request *r)
{
    if (r->count < 0 || r->count > r->nd) {
        return ua_error_set(UA_ERR_VALUE,
                            "indexing: %d index arrays for %d dimensions",
                            r->count, r->nd);
    }
    ua_status st = ua_layout_check_ndim("indexing", r->nd);
    if (st == UA_OK) {
        st = ua_layout_check_ndim("indexing", r->bnd);
    }
    return st != UA_OK ? st
                       : ua_layout_check_ndim(
                             "indexing", (long long)r->nd - r->count + r->bnd);
}

ua_status
ua_index_result_shape(const ua_index_request *r, int *nd, ptrdiff_t *shape)
{
    ua_status st = check_request_ndim(r);
    if (st != UA_OK) {
        return st;
    }
    int from[UA_MAXDIMS];
    *nd = result_axes(r, from);
    for (int j = 0; j < *nd; j++) {
        shape[j] = from[j] >= 0 ? r->shape[from[j]] : r->bshape[-1 - from[j]];
    }
    ptrdiff_t size;
    return ua_layout_check_size(*nd, shape, r->itemsize, &size);
}

/* The plan's axes through the iteration planner, in their own order
 * (which of several writes to one element wins follows it). */
static ua_status
reduce_plan(ua_index_plan *p)
{
    ua_iter_operand io[3] = {{UA_ITER_OUTPUT, p->nd, p->shape, p->rstep, 1},
                             {UA_ITER_INPUT, p->nd, p->shape, p->astep, 1},
                             {UA_ITER_INPUT, p->nd, p->shape, p->istep, 1}};
    ua_iter_plan walk;
    ua_status st =
        ua_iter_plan_make("indexing", 3, io, 0, UA_ITER_KEEP_ORDER, &walk);
    if (st != UA_OK) {
        return st;
    }
    ua_iter_plan_export(&walk, &p->nd, p->shape,
                        (ptrdiff_t *const[]){p->rstep, p->astep, p->istep});
    return UA_OK;
}

/* The plan over the result's axes; index steps from istrides (elements of
 * int64, over the broadcast axes). */
static void
plan_over_result(const ua_index_request *r, const ua_strided *result,
                 const char *index, const ptrdiff_t *istrides,
                 ua_index_plan *p)
{
    int from[UA_MAXDIMS];
    memset(p, 0, sizeof *p);
    p->nd = result_axes(r, from);
    ptrdiff_t isz = (ptrdiff_t)r->itemsize;
    for (int j = 0; j < p->nd; j++) {
        int a = from[j];
        p->shape[j] = a >= 0 ? r->shape[a] : r->bshape[-1 - a];
        p->rstep[j] = result->strides[j] * isz;
        p->astep[j] = a >= 0 ? r->strides[a] * isz : 0;
        p->istep[j] = a >= 0 ? 0 : istrides[-1 - a] * 8;
    }
    p->result = result->data;
    p->array = r->data;
    p->index = index;
    p->itemsize = r->itemsize;
}

static ua_status
out_of_bounds(int64_t bad, int axis, ptrdiff_t length)
{
    /* INT64_MAX stands for the uint64 indices past it too (the binding
     * saturates them rather than let them wrap to negative ones). */
    return ua_error_set(UA_ERR_INDEX,
                        "index %" PRId64 "%s is out of bounds for axis %d "
                        "with size %td",
                        bad, bad == INT64_MAX ? " or more" : "", axis, length);
}

static ptrdiff_t
broadcast_size(const ua_index_request *r)
{
    ptrdiff_t n = 1;
    for (int b = 0; b < r->bnd; b++) {
        n *= r->bshape[b];
    }
    return n;
}

/* Runs p, whose index checks the bounds of axis `axis`. */
static ua_status
run_checked(ua_queue *q, ua_index_mode mode, ua_index_plan *p, int axis)
{
    int64_t bad = 0;
    const ua_compute_ops *k = NULL;
    ua_status st = reduce_plan(p);
    if (st == UA_OK) {
        st = ua_queue_compute_kernels(q, &k);
    }
    if (st == UA_OK) {
        st = k->index(q->handle, mode, p, &bad);
    }
    return st == UA_ERR_INDEX ? out_of_bounds(bad, axis, p->length) : st;
}

/* One index array: the kernel reads it as it is. */
static ua_status
run_single(ua_queue *q, ua_index_mode mode, const ua_index_request *r,
           const ua_strided *result)
{
    ua_index_plan p;
    int axis = r->axes[0];
    plan_over_result(r, result, r->index[0].data, r->index[0].strides, &p);
    p.length = r->shape[axis];
    p.stride = r->strides[axis] * (ptrdiff_t)r->itemsize;
    return run_checked(q, mode, &p, axis);
}

/* offsets (dense int64 over the broadcast shape) <- the byte offset in x of
 * each combination of indices. */
static ua_status
combine_offsets(ua_queue *q, const ua_index_request *r, char *offsets)
{
    ptrdiff_t dense[UA_MAXDIMS];
    ua_layout_default_strides(r->bnd, r->bshape, 'C', dense);
    ua_status st =
        ua_queue_memset(q, offsets, 0, (size_t)broadcast_size(r) * 8);
    for (int k = 0; k < r->count && st == UA_OK; k++) {
        ua_index_plan p;
        memset(&p, 0, sizeof p);
        p.nd = r->bnd;
        for (int b = 0; b < r->bnd; b++) {
            p.shape[b] = r->bshape[b];
            p.rstep[b] = dense[b] * 8;
            p.istep[b] = r->index[k].strides[b] * 8;
        }
        p.result = offsets;
        /* Never read under OFFSETS; not NULL, which kernels offset. */
        p.array = offsets;
        p.index = r->index[k].data;
        p.length = r->shape[r->axes[k]];
        p.stride = r->strides[r->axes[k]] * (ptrdiff_t)r->itemsize;
        p.itemsize = 8;
        st = run_checked(q, UA_INDEX_OFFSETS, &p, r->axes[k]);
    }
    return st;
}

static ua_status
run_indexed(ua_queue *q, ua_index_mode mode, const ua_index_request *r,
            const ua_strided *result)
{
    ptrdiff_t nb = broadcast_size(r);
    for (int k = 0; k < r->count; k++) {
        if (nb > 0 && r->shape[r->axes[k]] == 0) {
            return ua_error_set(UA_ERR_INDEX,
                                "index out of bounds for axis %d with size 0",
                                r->axes[k]);
        }
    }
    int nd = 0;
    ptrdiff_t shape[UA_MAXDIMS], size;
    ua_status st = ua_index_result_shape(r, &nd, shape);
    if (st != UA_OK || ua_layout_size(nd, shape, &size) != UA_OK ||
        size == 0) {
        return st;
    }
    if (r->count == 1) {
        return run_single(q, mode, r, result);
    }
    ua_allocation *tmp;
    st = ua_usm_alloc(q, UA_USM_DEVICE, (size_t)nb * 8, 0, &tmp);
    if (st != UA_OK) {
        return st;
    }
    char *offsets = ua_allocation_ptr(tmp);
    st = combine_offsets(q, r, offsets);
    if (st == UA_OK) {
        ptrdiff_t dense[UA_MAXDIMS];
        ua_layout_default_strides(r->bnd, r->bshape, 'C', dense);
        ua_index_plan p;
        plan_over_result(r, result, offsets, dense, &p);
        p.length = 0;
        p.stride = 1;
        int64_t bad;
        const ua_compute_ops *k = NULL;
        st = reduce_plan(&p);
        if (st == UA_OK) {
            st = ua_queue_compute_kernels(q, &k);
        }
        if (st == UA_OK) {
            st = k->index(q->handle, mode, &p, &bad);
        }
    }
    /* The pool hands the block out again only to work ordered after this
     * on the queue. */
    ua_usm_free(tmp);
    return st;
}

ua_status
ua_queue_gather(ua_queue *q, const ua_index_request *r,
                const ua_strided *result)
{
    return run_indexed(q, UA_INDEX_GATHER, r, result);
}

ua_status
ua_queue_scatter(ua_queue *q, const ua_index_request *r,
                 const ua_strided *values)
{
    return run_indexed(q, UA_INDEX_SCATTER, r, values);
}

ua_status
ua_queue_take_along_axis(ua_queue *q, int nd, const ptrdiff_t *shape,
                         const ua_strided *x, int axis, ptrdiff_t length,
                         ptrdiff_t stride, const ua_strided *index,
                         const ua_strided *result)
{
    ptrdiff_t size;
    ua_status st = ua_layout_check_ndim("take_along_axis", nd);
    if (st == UA_OK) {
        st = ua_layout_size(nd, shape, &size);
    }
    if (st != UA_OK || size == 0) {
        return st;
    }
    if (length == 0) {
        return ua_error_set(
            UA_ERR_INDEX, "index out of bounds for axis %d with size 0", axis);
    }
    ptrdiff_t isz = (ptrdiff_t)ua_dtype_itemsize(x->type);
    ua_index_plan p;
    memset(&p, 0, sizeof p);
    p.nd = nd;
    for (int j = 0; j < nd; j++) {
        p.shape[j] = shape[j];
        p.rstep[j] = result->strides[j] * isz;
        p.astep[j] = x->strides[j] * isz;
        p.istep[j] = index->strides[j] * 8;
    }
    p.result = result->data;
    p.array = x->data;
    p.index = index->data;
    p.length = length;
    p.stride = stride * isz;
    p.itemsize = (size_t)isz;
    return run_checked(q, UA_INDEX_GATHER, &p, axis);
}

ua_status
ua_queue_compress(ua_queue *q, const ua_compress_plan *p,
                  ua_compress_output out, void *ctx, size_t *count)
{
    const ua_compute_ops *k = NULL;
    ua_status st = ua_queue_compute_kernels(q, &k);
    return st == UA_OK ? k->compress(q->handle, p, out, ctx, count) : st;
}

/* linspace computes in double precision: into a temporary of float64 or
 * complex128 where the result has another type, which the copy engine
 * then casts (backends' linspace writes those two types only). */
static ua_status
linspace_through_double(ua_queue *q, const ua_affine_plan *p)
{
    ua_typenum wide =
        ua_dtype_kind(p->type) == 'c' ? UA_COMPLEX128 : UA_FLOAT64;
    ua_allocation *tmp;
    ua_status st = ua_usm_alloc(q, UA_USM_DEVICE,
                                p->n * ua_dtype_itemsize(wide), 0, &tmp);
    if (st != UA_OK) {
        return st;
    }
    ua_affine_plan w = *p;
    w.type = wide;
    w.dst = ua_allocation_ptr(tmp);
    const ua_compute_ops *k = NULL;
    st = ua_queue_compute_kernels(q, &k);
    if (st == UA_OK) {
        st = k->affine(q->handle, &w);
    }
    if (st == UA_OK) {
        ptrdiff_t n = (ptrdiff_t)p->n, one = 1;
        ua_strided dst = {p->dst, &one, p->type};
        ua_strided src = {w.dst, &one, wide};
        st = ua_queue_copy_strided(q, 1, &n, &dst, &src);
    }
    ua_usm_free(tmp);
    return st;
}

ua_status
ua_queue_affine(ua_queue *q, const ua_affine_plan *p)
{
    if (p->n == 0) {
        return UA_OK;
    }
    if (p->mode == UA_AFFINE_LINSPACE && p->type != UA_FLOAT64 &&
        p->type != UA_COMPLEX128) {
        return linspace_through_double(q, p);
    }
    const ua_compute_ops *k = NULL;
    ua_status st = ua_queue_compute_kernels(q, &k);
    return st == UA_OK ? k->affine(q->handle, p) : st;
}

ua_status
ua_queue_band(ua_queue *q, const ua_band_plan *p)
{
    if (p->batch == 0 || p->rows == 0 || p->cols == 0) {
        return UA_OK;
    }
    const ua_compute_ops *k = NULL;
    ua_status st = ua_queue_compute_kernels(q, &k);
    return st == UA_OK ? k->band(q->handle, p) : st;
}
