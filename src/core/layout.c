#include "usmarray/core.h"

ua_status
ua_layout_size(int nd, const ptrdiff_t *shape, ptrdiff_t *size)
{
    bool zero = false;
    for (int k = 0; k < nd; k++) {
        if (shape[k] < 0) {
            return ua_error_set(UA_ERR_VALUE,
                                "shape[%d] is negative (%td)", k, shape[k]);
        }
        zero |= shape[k] == 0;
    }
    ptrdiff_t n = 1;
    for (int k = 0; k < nd && !zero; k++) {
        if (__builtin_mul_overflow(n, shape[k], &n)) {
            return ua_error_set(UA_ERR_VALUE,
                                "shape has too many elements to address");
        }
    }
    *size = zero ? 0 : n;
    return UA_OK;
}

void
ua_layout_default_strides(int nd, const ptrdiff_t *shape, char order,
                          ptrdiff_t *strides)
{
    ptrdiff_t step = 1;
    if (order == 'F') {
        for (int k = 0; k < nd; k++) {
            strides[k] = step;
            step *= shape[k] > 0 ? shape[k] : 1;
        }
    }
    else {
        for (int k = nd - 1; k >= 0; k--) {
            strides[k] = step;
            step *= shape[k] > 0 ? shape[k] : 1;
        }
    }
}

static bool
has_zero_extent(int nd, const ptrdiff_t *shape)
{
    for (int k = 0; k < nd; k++) {
        if (shape[k] == 0) {
            return true;
        }
    }
    return false;
}

static bool
is_contiguous_in(int nd, const ptrdiff_t *shape, const ptrdiff_t *strides,
                 int first, int step)
{
    ptrdiff_t expected = 1;
    for (int i = 0, k = first; i < nd; i++, k += step) {
        if (shape[k] == 1) {
            continue;
        }
        if (strides[k] != expected) {
            return false;
        }
        expected *= shape[k];
    }
    return true;
}

int
ua_layout_contiguity(int nd, const ptrdiff_t *shape, const ptrdiff_t *strides)
{
    if (has_zero_extent(nd, shape)) {
        return UA_LAYOUT_C_CONTIGUOUS | UA_LAYOUT_F_CONTIGUOUS;
    }
    int flags = 0;
    if (is_contiguous_in(nd, shape, strides, nd - 1, -1)) {
        flags |= UA_LAYOUT_C_CONTIGUOUS;
    }
    if (is_contiguous_in(nd, shape, strides, 0, 1)) {
        flags |= UA_LAYOUT_F_CONTIGUOUS;
    }
    return flags;
}

ua_status
ua_layout_displacements(int nd, const ptrdiff_t *shape,
                        const ptrdiff_t *strides, ptrdiff_t *lo,
                        ptrdiff_t *hi, bool *empty)
{
    *lo = *hi = 0;
    *empty = has_zero_extent(nd, shape);
    if (*empty) {
        return UA_OK;
    }
    for (int k = 0; k < nd; k++) {
        ptrdiff_t reach;
        if (shape[k] < 0) {
            return ua_error_set(UA_ERR_VALUE,
                                "shape[%d] is negative (%td)", k, shape[k]);
        }
        if (__builtin_mul_overflow(shape[k] - 1, strides[k], &reach)) {
            goto overflow;
        }
        ptrdiff_t *side = reach < 0 ? lo : hi;
        if (__builtin_add_overflow(*side, reach, side)) {
            goto overflow;
        }
    }
    return UA_OK;
overflow:
    return ua_error_set(UA_ERR_VALUE,
                        "strides and shape reach beyond addressable memory");
}

ua_status
ua_layout_byte_range(int nd, const ptrdiff_t *shape, const ptrdiff_t *strides,
                     ptrdiff_t offset, size_t itemsize, ptrdiff_t *begin,
                     ptrdiff_t *end)
{
    ptrdiff_t lo, hi, first, last;
    bool empty;
    ptrdiff_t isz = (ptrdiff_t)itemsize;
    ua_status st = ua_layout_displacements(nd, shape, strides, &lo, &hi,
                                           &empty);
    if (st != UA_OK) {
        return st;
    }
    if (__builtin_add_overflow(offset, lo, &first) ||
        __builtin_add_overflow(offset, hi, &last) ||
        __builtin_mul_overflow(first, isz, begin) ||
        __builtin_mul_overflow(last, isz, end) ||
        __builtin_add_overflow(*end, empty ? 0 : isz, end)) {
        return ua_error_set(UA_ERR_VALUE,
                            "offset, strides and shape reach beyond "
                            "addressable memory");
    }
    return UA_OK;
}
