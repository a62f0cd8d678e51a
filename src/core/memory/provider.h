/* How a backend gives memory to the core's pool (pool.c), as UMF's memory
 * providers and CuPy's allocators do: raw allocation and free of USM
 * blocks, nothing more.  The pool owns the policy (which blocks are kept
 * and reused), the accounting and the limits.
 *
 * A backend has a plain provider and may have a queue-ordered one, behind
 * this one interface.  A plain provider's blocks may be freed only once
 * the work that used them is done: the pool waits for the block's queue
 * first.  A queue-ordered provider's block is usable by the work enqueued
 * on `queue` from the allocation on, and its free takes effect once the
 * queue's work so far is done, with no host wait; such a provider may keep
 * what is freed for reuse (the driver's stream-ordered pool), given back
 * by trim. */
#ifndef USMARRAY_CORE_MEMORY_PROVIDER_H
#define USMARRAY_CORE_MEMORY_PROVIDER_H

#include "core/core.h"

typedef struct ua_memory_provider {
    /* What the memory comes from, for messages. */
    const char *name;
    bool queue_ordered;
    /* A block of nbytes of `kind` on the backend-relative device `index` of
     * the context, aligned to `alignment` (0: the provider's default);
     * UA_ERR_ALLOC, with the driver's words, when the device has no room. */
    ua_status (*alloc)(void *context, int index, void *queue, ua_usm_kind kind,
                       size_t nbytes, size_t alignment, void **ptr);
    void (*free)(void *context, void *queue, ua_usm_kind kind, void *ptr,
                 size_t nbytes);
    /* Gives back to the driver what the provider keeps unused; NULL where
     * it keeps nothing. */
    void (*trim)(void *context);
    /* The bytes the provider holds, blocks in use included; NULL where it
     * holds no more than what is allocated. */
    size_t (*held_bytes)(void *context);
    /* The largest alignment alloc honours itself (SIZE_MAX: any power of
     * two).  The pool makes larger ones, and every one where this is 0, by
     * over-allocating and aligning within the block: alloc is then asked
     * for alignment 0 only. */
    size_t max_alignment;
} ua_memory_provider;

#endif
