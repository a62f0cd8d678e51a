/* Sorting along an axis, planned for every backend: the kernel sorts
 * dense rows in place, so x is copied into rows along the axis (into the
 * result itself where the result is those rows), sorted, and copied out. */
#include <string.h>

#include "core/backend.h"
#include "core/compute/reduce.h"
#include "core/devices/devices.h"

/* The strides of a layout that has axis moved last, dense in C order,
 * as strides of the original axes. */
static void
rows_strides(int nd, const ptrdiff_t *shape, int axis, ptrdiff_t *out)
{
    ptrdiff_t s = shape[axis] > 0 ? shape[axis] : 1;
    out[axis] = 1;
    for (int k = nd - 1; k >= 0; k--) {
        if (k != axis) {
            out[k] = s;
            s *= shape[k] > 0 ? shape[k] : 1;
        }
    }
}

/* Whether s walks the layout rows_strides gives (length-1 axes aside). */
static bool
is_rows(int nd, const ptrdiff_t *shape, int axis, const ptrdiff_t *s)
{
    ptrdiff_t want[UA_MAXDIMS];
    rows_strides(nd, shape, axis, want);
    for (int k = 0; k < nd; k++) {
        if (shape[k] > 1 && s[k] != want[k]) {
            return false;
        }
    }
    return true;
}

/* Real values sort on keys and their copy, 8 bytes each at most (the
 * pool keeps 4 Mi elements' worth); argsort adds positions and theirs,
 * complex rows a copy of the row, and both a 32-bit key or a value an
 * element. */
size_t
ua_sort_scratch_bytes(size_t n, ua_typenum type, bool argsort)
{
    size_t w = ua_dtype_itemsize(type);
    if (!argsort && ua_dtype_kind(type) != 'c') {
        return n * 16;
    }
    return n * (32 + (w > 4 ? w : 4));
}

ua_status
ua_queue_sort(ua_queue *q, int nd, const ptrdiff_t *shape, const ua_strided *x,
              int axis, bool descending, bool argsort,
              const ua_strided *result)
{
    ptrdiff_t size;
    ua_status st = ua_layout_check_ndim("sort", nd);
    if (st == UA_OK) {
        st = ua_layout_size(nd, shape, &size);
    }
    if (st != UA_OK || size == 0) {
        return st;
    }
    if (nd == 0) {
        /* One element: itself, or position 0. */
        int64_t zero = 0;
        return argsort ? ua_queue_memcpy(q, result->data, &zero, 8)
                       : ua_queue_copy_strided(q, 0, NULL, result, x);
    }
    size_t xsz = ua_dtype_itemsize(x->type);
    ptrdiff_t rows[UA_MAXDIMS];
    rows_strides(nd, shape, axis, rows);
    bool in_place = !argsort && is_rows(nd, shape, axis, result->strides);
    bool index_in_place = argsort && is_rows(nd, shape, axis, result->strides);
    ua_allocation *values = NULL, *index = NULL;
    char *data = result->data;
    if (!in_place) {
        st = ua_usm_alloc(q, UA_USM_DEVICE, (size_t)size * xsz, 0, &values);
        data = st == UA_OK ? ua_allocation_ptr(values) : NULL;
    }
    int64_t *ix = NULL;
    if (st == UA_OK && argsort) {
        if (index_in_place) {
            ix = (int64_t *)(void *)result->data;
        } else {
            st = ua_usm_alloc(q, UA_USM_DEVICE, (size_t)size * 8, 0, &index);
            ix = st == UA_OK ? ua_allocation_ptr(index) : NULL;
        }
    }
    /* Only the CPU's sort reads scratch (the GPUs' make their own). */
    ua_allocation *scratch = NULL;
    if (st == UA_OK && shape[axis] > 1 &&
        ua_compute_on_cpu(ua_queue_compute_table(q))) {
        st = ua_usm_alloc(
            q, UA_USM_DEVICE,
            ua_sort_scratch_bytes((size_t)shape[axis], x->type, argsort), 0,
            &scratch);
    }
    ua_strided dense = {data, rows, x->type};
    if (st == UA_OK) {
        st = ua_queue_copy_strided(q, nd, shape, &dense, x);
    }
    const ua_compute_ops *k = NULL;
    if (st == UA_OK) {
        st = ua_queue_compute_kernels(q, &k);
    }
    if (st == UA_OK) {
        ua_sort_plan p = {data,
                          ix,
                          size / shape[axis],
                          shape[axis],
                          x->type,
                          descending,
                          scratch ? ua_allocation_ptr(scratch) : NULL};
        st = k->sort(q->handle, &p);
    }
    if (st == UA_OK && !in_place && !argsort) {
        st = ua_queue_copy_strided(q, nd, shape, result, &dense);
    }
    if (st == UA_OK && argsort && !index_in_place) {
        ua_strided from = {(char *)ix, rows, UA_INT64};
        st = ua_queue_copy_strided(q, nd, shape, result, &from);
    }
    if (scratch != NULL) {
        ua_usm_free(scratch);
    }
    if (values != NULL) {
        ua_usm_free(values);
    }
    if (index != NULL) {
        ua_usm_free(index);
    }
    return st;
}
