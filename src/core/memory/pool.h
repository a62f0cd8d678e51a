/* pool.c: where USM blocks come from and go back to (the cache of
 * pool_cache.c, or the backend's memory providers), the bytes counted
 * against each kind's limit, the statistics (core.h's ua_context_*_bytes,
 * ua_context_release_pool and the limits) and the configuration
 * (USMARRAY_POOL, read as each context is made). */
#ifndef USMARRAY_CORE_MEMORY_POOL_H
#define USMARRAY_CORE_MEMORY_POOL_H

#include "core/core.h"

/* The record of an allocation: the pool makes it with its block, usm.c
 * registers it, or fills one in for a borrowed region. */
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

/* Sets up the pools and the accounting of a new context, as USMARRAY_POOL
 * says (UA_ERR_VALUE for a value it does not take). */
ua_status ua_pool_init_context(ua_context *c);
/* A block for nbytes of `kind` on q, aligned to `alignment` (0: the
 * provider's default), counted against the context's limit, and a new
 * record of it (ptr, block and sizes; usm.c fills in the rest).  The block
 * comes from the cache, or from the backend's provider, which is asked
 * once more after the pool gives back what it caches when it has no room:
 * UA_ERR_ALLOC then, or over the limit. */
ua_status ua_pool_allocate(ua_queue *q, ua_usm_kind kind, size_t nbytes,
                           size_t alignment, ua_allocation **out);
/* Gives a's block back (to the cache, or to the provider) and uncounts
 * it; a is freed or kept as a spare record. */
void ua_pool_release(ua_allocation *a);
/* Before queue q of c is destroyed, its work done: the blocks the pool
 * caches for q go to heir (c's default queue), and the call returns once
 * no allocation still waits on q. */
void ua_pool_retire_queue(ua_context *c, const ua_queue *q, ua_queue *heir);

#endif
