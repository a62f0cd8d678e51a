/* Validators of what the array interfaces describe, once their Python
 * dictionaries are turned into C values by the binding. */
#include "core/core.h"

/* The allocation holding bytes [ptr + begin, ptr + end), begin < end. */
static bool
query_region(uintptr_t ptr, ptrdiff_t begin, ptrdiff_t end,
             ua_pointer_info *alloc)
{
    /* Unsigned arithmetic: begin may be PTRDIFF_MIN, end - begin beyond
     * PTRDIFF_MAX; both are refused as outside the address space. */
    uintptr_t below = begin < 0 ? (uintptr_t)0 - (uintptr_t)begin : 0;
    uintptr_t len = (uintptr_t)end - (uintptr_t)begin;
    if (ptr < below || len > (uintptr_t)PTRDIFF_MAX) {
        return false;
    }
    return ua_pointer_query_range(ptr + (uintptr_t)begin, (size_t)len, alloc);
}

/* The allocation that holds data[0] and, where one does, every byte
 * reached: borrowed regions may lie over each other, and the one that holds
 * data[0] alone may be an empty region borrowed inside a larger one.  When
 * none holds all, the one holding data[0] is returned for the message. */
static bool
find_holder(uintptr_t ptr, ptrdiff_t begin, ptrdiff_t end,
            ua_pointer_info *alloc)
{
    ptrdiff_t lo = begin < 0 ? begin : 0, hi = end > 0 ? end : 0;
    return (hi > lo && query_region(ptr, lo, hi, alloc)) ||
           ua_pointer_query_range(ptr, 0, alloc);
}

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
        (st = ua_layout_byte_range(nd, shape, strides, offset, itemsize, begin,
                                   end)) != UA_OK) {
        return st;
    }
    if (!find_holder(ptr, *begin, *end, alloc)) {
        return ua_error_set(UA_ERR_VALUE,
                            "data pointer 0x%zx is not inside any USM "
                            "allocation known to usmarray or to a driver",
                            (size_t)ptr);
    }
    /* A driver that cannot tell allocation ranges answers size 0: the
     * region reached is then asked about as a whole, and both its ends
     * must be memory of one kind and device. */
    if (alloc->nbytes == 0 && *end > *begin &&
        !query_region(ptr, *begin, *end, alloc)) {
        return ua_error_set(UA_ERR_VALUE,
                            "shape, strides and offset reach bytes [%td, %td) "
                            "from data pointer 0x%zx, which do not lie in "
                            "USM of one kind and device",
                            *begin, *end, (size_t)ptr);
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
