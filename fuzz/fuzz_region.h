/* What the harnesses share: a real allocation to point into, and the check
 * that a layout the validators accepted stays inside it. */
#ifndef USMARRAY_FUZZ_REGION_H
#define USMARRAY_FUZZ_REGION_H

#include <stdio.h>
#include <stdlib.h>

#include "core/core.h"

#define FUZZ_ARENA_BYTES 4096
/* Layouts of more elements are validated but not walked. */
#define FUZZ_MAX_WALK 100000

static inline void
fuzz_require(bool ok, const char *invariant)
{
    if (!ok) {
        fprintf(stderr, "invariant broken: %s\n", invariant);
        abort();
    }
}

/* A host allocation made once, as the registry knows every USM one. */
static inline uintptr_t
fuzz_arena(void)
{
    static ua_allocation *arena;
    if (arena == NULL) {
        ua_device *d;
        ua_context *c;
        ua_queue *q;
        fuzz_require(ua_device_select("host", &d) == UA_OK &&
                         ua_device_default_context(d, &c) == UA_OK &&
                         ua_context_default_queue(c, &q) == UA_OK &&
                         ua_usm_alloc(q, UA_USM_HOST, FUZZ_ARENA_BYTES, 0,
                                      &arena) == UA_OK,
                     "the host backend allocates");
    }
    return (uintptr_t)ua_allocation_ptr(arena);
}

/* Reads every byte of every element of a layout ua_locate_region accepted:
 * each must lie in the allocation it named, and ASan checks the reads. */
static inline void
fuzz_walk_elements(uintptr_t ptr, int nd, const ptrdiff_t *shape,
                   const ptrdiff_t *strides, ptrdiff_t offset, size_t itemsize,
                   const ua_pointer_info *alloc)
{
    ptrdiff_t size;
    if (ua_layout_size(nd, shape, &size) != UA_OK || size == 0 ||
        size > FUZZ_MAX_WALK || itemsize == 0) {
        return;
    }
    ptrdiff_t idx[UA_MAXDIMS] = {0};
    volatile unsigned char sink = 0;
    for (ptrdiff_t n = 0; n < size; n++) {
        ptrdiff_t disp = offset;
        for (int k = 0; k < nd; k++) {
            disp += idx[k] * strides[k];
        }
        uintptr_t e = ptr + (uintptr_t)(disp * (ptrdiff_t)itemsize);
        fuzz_require(e >= alloc->start &&
                         e + itemsize <= alloc->start + alloc->nbytes,
                     "an accepted element lies inside its allocation");
        for (size_t b = 0; b < itemsize; b++) {
            sink ^= *(const unsigned char *)(e + b);
        }
        for (int k = nd - 1; k >= 0 && ++idx[k] == shape[k]; k--) {
            idx[k] = 0;
        }
    }
    (void)sink;
}

#endif
