/* usm.c: the record of an allocation the library made or borrowed. */
#ifndef USMARRAY_CORE_MEMORY_USM_H
#define USMARRAY_CORE_MEMORY_USM_H

#include "core/core.h"

struct ua_allocation {
    void *ptr;   /* the start of the allocation the library hands out */
    void *block; /* what the backend allocated, to free: ptr, or a larger
                    block that ptr lies in when the core aligned it */
    size_t nbytes;
    ua_usm_kind kind;
    bool borrowed;
    int pool_class;     /* its class in the context's pool, or -1 */
    bool ordered;       /* from the backend's queue-ordered pool */
    size_t block_bytes; /* the bytes of block: a class size when pooled */
    ua_queue *queue;
};

#endif
