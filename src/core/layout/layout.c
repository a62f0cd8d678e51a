#include "core/layout/layout.h"

ua_status
ua_layout_check_ndim(const char *fn, long long nd)
{
    const char *sep = fn != NULL ? ": " : "";
    fn = fn != NULL ? fn : "";
    if (nd < 0) {
        return ua_error_set(UA_ERR_VALUE,
                            "%s%s%lld is not a number of dimensions", fn, sep,
                            nd);
    }
    if (nd > UA_MAXDIMS) {
        return ua_error_set(UA_ERR_VALUE,
                            "%s%sthe result would have %lld dimensions; at "
                            "most %d are supported",
                            fn, sep, nd, UA_MAXDIMS);
    }
    return UA_OK;
}

static bool
ndim_fits(int nd)
{
    return nd >= 0 && nd <= UA_MAXDIMS;
}

/* NumPy's rule: the product of the non-zero extents, times the itemsize,
 * must fit in ptrdiff_t.  An axis of length 0 does not excuse the others,
 * or a shape such as (0, 2**62, 4) would pass here and overflow wherever
 * its axes are multiplied later. */
ua_status
ua_layout_check_size(int nd, const ptrdiff_t *shape, size_t itemsize,
                     ptrdiff_t *size)
{
    ptrdiff_t n = 1, bytes;
    bool zero = false;
    for (int k = 0; k < nd; k++) {
        if (shape[k] < 0) {
            return ua_error_set(UA_ERR_VALUE, "shape[%d] is negative (%td)", k,
                                shape[k]);
        }
        zero |= shape[k] == 0;
        if (shape[k] > 0 && __builtin_mul_overflow(n, shape[k], &n)) {
            return ua_error_set(UA_ERR_VALUE,
                                "shape has too many elements to address "
                                "(more than %td)",
                                (ptrdiff_t)PTRDIFF_MAX);
        }
    }
    if (itemsize > (size_t)PTRDIFF_MAX ||
        __builtin_mul_overflow(n, (ptrdiff_t)itemsize, &bytes)) {
        return ua_error_set(UA_ERR_VALUE,
                            "the array needs more bytes than can be "
                            "addressed (%td elements of %zu bytes)",
                            n, itemsize);
    }
    *size = zero ? 0 : n;
    return UA_OK;
}

/* Strides count elements here but bytes in every protocol: each must
 * stay a byte count, even where an empty array reaches nothing with it. */
ua_status
ua_layout_check_strides(int nd, const ptrdiff_t *strides, size_t itemsize)
{
    ptrdiff_t bytes;
    for (int k = 0; k < nd; k++) {
        if (itemsize > (size_t)PTRDIFF_MAX ||
            __builtin_mul_overflow(strides[k], (ptrdiff_t)itemsize, &bytes)) {
            return ua_error_set(UA_ERR_VALUE,
                                "strides[%d] (%td elements of %zu bytes) "
                                "reaches beyond addressable memory",
                                k, strides[k], itemsize);
        }
    }
    return UA_OK;
}

ua_status
ua_layout_size(int nd, const ptrdiff_t *shape, ptrdiff_t *size)
{
    return ua_layout_check_size(nd, shape, 1, size);
}

/* Shapes too large to address saturate rather than overflow: the size and
 * byte-range checks that follow then reject them by name. */
static ptrdiff_t
next_step(ptrdiff_t step, ptrdiff_t extent)
{
    ptrdiff_t out;
    if (__builtin_mul_overflow(step, extent > 0 ? extent : 1, &out)) {
        return PTRDIFF_MAX;
    }
    return out;
}

void
ua_layout_default_strides(int nd, const ptrdiff_t *shape, char order,
                          ptrdiff_t *strides)
{
    ptrdiff_t step = 1;
    if (order == 'F') {
        for (int k = 0; k < nd; k++) {
            strides[k] = step;
            step = next_step(step, shape[k]);
        }
    } else {
        for (int k = nd - 1; k >= 0; k--) {
            strides[k] = step;
            step = next_step(step, shape[k]);
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

/* The reach of a shape already checked (ua_layout_check_size): size is its
 * element count. */
static ua_status
reach_of(int nd, const ptrdiff_t *shape, const ptrdiff_t *strides,
         ptrdiff_t size, ptrdiff_t *lo, ptrdiff_t *hi, bool *empty)
{
    *lo = *hi = 0;
    *empty = size == 0;
    if (*empty) {
        return UA_OK;
    }
    for (int k = 0; k < nd; k++) {
        ptrdiff_t reach;
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
ua_layout_displacements(int nd, const ptrdiff_t *shape,
                        const ptrdiff_t *strides, ptrdiff_t *lo, ptrdiff_t *hi,
                        bool *empty)
{
    ptrdiff_t size;
    *lo = *hi = 0;
    *empty = true;
    if (ua_layout_size(nd, shape, &size) != UA_OK) {
        return UA_ERR_VALUE;
    }
    return reach_of(nd, shape, strides, size, lo, hi, empty);
}

/* The checks of ua_layout_check_size, reach_of and
 * ua_layout_check_strides in one pass, for the layouts that pass them all
 * (every per-call import and view): false sends a layout to those three,
 * which name its first problem or, where the pass was stricter (the reach
 * of an empty array), accept it. */
static bool
reach_in_one_pass(int nd, const ptrdiff_t *shape, const ptrdiff_t *strides,
                  ptrdiff_t isz, ptrdiff_t *lo, ptrdiff_t *hi, bool *empty)
{
    ptrdiff_t n = 1, bytes, reach;
    *lo = *hi = 0;
    for (int k = 0; k < nd; k++) {
        if (shape[k] <= 0 || __builtin_mul_overflow(n, shape[k], &n) ||
            __builtin_mul_overflow(strides[k], isz, &bytes) ||
            __builtin_mul_overflow(shape[k] - 1, strides[k], &reach) ||
            __builtin_add_overflow(reach < 0 ? *lo : *hi, reach,
                                   reach < 0 ? lo : hi)) {
            return false;
        }
    }
    *empty = false;
    return !__builtin_mul_overflow(n, isz, &bytes);
}

ua_status
ua_layout_byte_range(int nd, const ptrdiff_t *shape, const ptrdiff_t *strides,
                     ptrdiff_t offset, size_t itemsize, ptrdiff_t *begin,
                     ptrdiff_t *end)
{
    ptrdiff_t lo, hi, first, last, size;
    bool empty;
    ptrdiff_t isz = (ptrdiff_t)itemsize;
    ua_status st = UA_OK;
    if (itemsize > (size_t)PTRDIFF_MAX ||
        !reach_in_one_pass(nd, shape, strides, isz, &lo, &hi, &empty)) {
        if ((st = ua_layout_check_size(nd, shape, itemsize, &size)) != UA_OK ||
            (st = reach_of(nd, shape, strides, size, &lo, &hi, &empty)) !=
                UA_OK ||
            (st = ua_layout_check_strides(nd, strides, itemsize)) != UA_OK) {
            return st;
        }
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

/* C order: group old and new axes into runs of equal element count; each
 * run of old axes must be contiguous within itself to be re-split. */
static bool
reshape_c(int nd, const ptrdiff_t *shape, const ptrdiff_t *strides, int new_nd,
          const ptrdiff_t *new_shape, ptrdiff_t *new_strides)
{
    ptrdiff_t od[UA_MAXDIMS], os[UA_MAXDIMS];
    int ond = 0;
    for (int k = 0; k < nd; k++) {
        if (shape[k] != 1) {
            od[ond] = shape[k];
            os[ond++] = strides[k];
        }
    }
    int oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < new_nd && oi < ond) {
        ptrdiff_t np = new_shape[ni], op = od[oi];
        while (np != op) {
            if (np < op) {
                np *= new_shape[nj++];
            } else {
                op *= od[oj++];
            }
        }
        /* A product that overflows cannot equal a stride: no view. */
        ptrdiff_t span;
        for (int ok = oi; ok < oj - 1; ok++) {
            if (__builtin_mul_overflow(od[ok + 1], os[ok + 1], &span) ||
                os[ok] != span) {
                return false;
            }
        }
        new_strides[nj - 1] = os[oj - 1];
        for (int nk = nj - 1; nk > ni; nk--) {
            if (__builtin_mul_overflow(new_strides[nk], new_shape[nk],
                                       &new_strides[nk - 1])) {
                return false;
            }
        }
        ni = nj++;
        oi = oj++;
    }
    ptrdiff_t last = ni > 0 ? new_strides[ni - 1] : 1;
    for (int nk = ni; nk < new_nd; nk++) {
        new_strides[nk] = last;
    }
    return true;
}

static void
reverse(int n, const ptrdiff_t *in, ptrdiff_t *out)
{
    for (int k = 0; k < n; k++) {
        out[k] = in[n - 1 - k];
    }
}

bool
ua_layout_reshape(int nd, const ptrdiff_t *shape, const ptrdiff_t *strides,
                  int new_nd, const ptrdiff_t *new_shape, char order,
                  ptrdiff_t *new_strides)
{
    ptrdiff_t size = 0;
    if (!ndim_fits(nd) || !ndim_fits(new_nd)) {
        return false;
    }
    if (ua_layout_size(nd, shape, &size) != UA_OK) {
        ua_error_clear();
        return false;
    }
    if (size == 0) {
        ua_layout_default_strides(new_nd, new_shape, order, new_strides);
        return true;
    }
    if (order != 'F') {
        return reshape_c(nd, shape, strides, new_nd, new_shape, new_strides);
    }
    ptrdiff_t rs[UA_MAXDIMS], rst[UA_MAXDIMS], out[UA_MAXDIMS];
    ptrdiff_t rn[UA_MAXDIMS] = {0}; /* only to quiet -Wmaybe-uninitialized */
    reverse(nd, shape, rs);
    reverse(nd, strides, rst);
    reverse(new_nd, new_shape, rn);
    if (!reshape_c(nd, rs, rst, new_nd, rn, out)) {
        return false;
    }
    reverse(new_nd, out, new_strides);
    return true;
}

char
ua_layout_resolve_order(int contiguity, char order)
{
    if (order != 'A') {
        return order;
    }
    return (contiguity & UA_LAYOUT_F_CONTIGUOUS) &&
                   !(contiguity & UA_LAYOUT_C_CONTIGUOUS)
               ? 'F'
               : 'C';
}

/* Unsigned, so that the magnitude of PTRDIFF_MIN (an empty array's
 * stride may be anything) is not an overflow. */
static size_t
magnitude(ptrdiff_t x)
{
    return x < 0 ? (size_t)0 - (size_t)x : (size_t)x;
}

void
ua_layout_sort_axes(int n, int *axes, const ptrdiff_t *strides)
{
    for (int i = 1; i < n; i++) { /* insertion sort, stable: n is small */
        int k = axes[i], j = i;
        while (j > 0 &&
               magnitude(strides[axes[j - 1]]) < magnitude(strides[k])) {
            axes[j] = axes[j - 1];
            j--;
        }
        axes[j] = k;
    }
}

void
ua_layout_strides_like(int nd, const ptrdiff_t *shape, const ptrdiff_t *like,
                       ptrdiff_t *out)
{
    if (!ndim_fits(nd)) {
        ua_layout_default_strides(nd, shape, 'C', out);
        return;
    }
    int order[UA_MAXDIMS];
    for (int i = 0; i < nd; i++) {
        order[i] = i;
    }
    ua_layout_sort_axes(nd, order, like);
    ua_layout_dense_strides(nd, shape, order, out);
}

void
ua_layout_dense_strides(int nd, const ptrdiff_t *shape, const int *order,
                        ptrdiff_t *strides)
{
    ptrdiff_t step = 1;
    for (int i = nd - 1; i >= 0; i--) {
        strides[order[i]] = step;
        step = next_step(step, shape[order[i]]);
    }
}
