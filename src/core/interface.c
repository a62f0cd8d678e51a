/* Validators of what the array interfaces describe, once their Python
 * dictionaries are turned into C values by the binding. */
#include "usmarray/core.h"

ua_status
ua_locate_region(uintptr_t ptr, int nd, const ptrdiff_t *shape,
                 const ptrdiff_t *strides, ptrdiff_t offset, size_t itemsize,
                 ua_pointer_info *alloc, ptrdiff_t *begin, ptrdiff_t *end)
{
    if (nd < 0 || nd > UA_MAXDIMS) {
        return ua_error_set(UA_ERR_VALUE,
                            "shape has %d dimensions; at most %d are "
                            "supported",
                            nd, UA_MAXDIMS);
    }
    ptrdiff_t size;
    ua_status st = ua_layout_size(nd, shape, &size);
    if (st != UA_OK ||
        (st = ua_layout_byte_range(nd, shape, strides, offset, itemsize,
                                   begin, end)) != UA_OK) {
        return st;
    }
    if (!ua_pointer_query_range(ptr, 0, alloc)) {
        return ua_error_set(UA_ERR_VALUE,
                            "data pointer 0x%zx is not inside any USM "
                            "allocation known to usmarray or to a driver",
                            (size_t)ptr);
    }
    /* Positions relative to the allocation's start: ptr lies within it. */
    ptrdiff_t base = (ptrdiff_t)(ptr - alloc->start), lo, hi;
    if (__builtin_add_overflow(base, *begin, &lo) ||
        __builtin_add_overflow(base, *end, &hi) || lo < 0 ||
        hi > (ptrdiff_t)alloc->nbytes) {
        return ua_error_set(UA_ERR_VALUE,
                            "shape, strides and offset reach bytes [%td, %td) "
                            "from data pointer 0x%zx, outside the %zu-byte "
                            "allocation at 0x%zx that holds it",
                            *begin, *end, (size_t)ptr, alloc->nbytes,
                            (size_t)alloc->start);
    }
    return UA_OK;
}
