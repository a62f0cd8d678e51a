/* pool_cache.c: the pool's cache of freed blocks, per context and USM
 * kind, and what a context counts of its blocks (ua_usage, which pool.c
 * keeps).  Contexts hold both (devices.h). */
#ifndef USMARRAY_CORE_MEMORY_POOL_CACHE_H
#define USMARRAY_CORE_MEMORY_POOL_CACHE_H

#include <stdatomic.h>

#include "core/base/lock.h"
#include "core/core.h"

/* Blocks of 2^MIN_SHIFT bytes or less form one class; above, four classes
 * per power of two up to 2^MAX_SHIFT.  Larger blocks go straight back. */
#define UA_POOL_MIN_SHIFT 9
#define UA_POOL_MAX_SHIFT 26
#define UA_POOL_MAX_BLOCK ((size_t)1 << UA_POOL_MAX_SHIFT)
#define UA_POOL_CLASSES (1 + 4 * (UA_POOL_MAX_SHIFT - UA_POOL_MIN_SHIFT))
#define UA_POOL_LIMIT ((size_t)256 << 20) /* bytes cached per context, kind */
#define UA_POOL_BIN_DEPTH 8

typedef struct {
    void *ptr;
    size_t bytes; /* the class size it was allocated with */
    ua_usm_kind kind;
    ua_queue *queue; /* the queue whose work last used it */
} ua_pool_block;

typedef struct {
    size_t count;
    ua_pool_block blocks[UA_POOL_BIN_DEPTH];
} ua_pool_bin;

typedef struct {
    ua_lock lock;
    bool disabled; /* USMARRAY_POOL=0, false, no or off */
    size_t cached_bytes;
    /* Blocks taken out whose last queue is still to be waited on (by a
     * drain, or an allocation on another queue): ua_pool_rebind waits for
     * them, so that the queue outlives every such wait. */
    atomic_int in_flight;
    ua_pool_bin bins[UA_POOL_CLASSES];
} ua_pool;

/* The class of an allocation of nbytes and the bytes a block of it has;
 * -1 when nbytes is too large to pool. */
int ua_pool_class(size_t nbytes, size_t *class_bytes);
void ua_pool_init(ua_pool *p, bool enabled);
/* Takes a cached block of class cls; false when there is none.  The
 * caller holds p->lock, as for ua_pool_give: pool.c counts the block's
 * bytes under the same lock. */
bool ua_pool_take(ua_pool *p, int cls, bool host_memory, ua_pool_block *out);
/* Counts a taken block as in flight (the caller holds p->lock), and ends
 * that once the caller is done with the block's queue (any thread). */
void ua_pool_hold_queue(ua_pool *p);
void ua_pool_release_queue(ua_pool *p);
/* Caches a block; false when the pool is full and the caller frees it. */
bool ua_pool_give(ua_pool *p, int cls, bool host_memory,
                  const ua_pool_block *block);
size_t ua_pool_cached_bytes(ua_pool *p);
/* Empties the pool, calling release on every block. */
void ua_pool_drain(ua_pool *p, bool host_memory,
                   void (*release)(const ua_pool_block *block));

/* Bytes of live allocations and the most allowed, per USM kind; guarded
 * by the lock of the kind's pool. */
#define UA_SPARE_RECORDS 8

typedef struct {
    size_t used;
    size_t ordered; /* of used, what the backend's ordered pool holds */
    size_t limit;   /* SIZE_MAX: none */
    /* Records of freed allocations kept for the next ones, which then
     * skip malloc and free on the per-call path. */
    int nspare;
    ua_allocation *spare[UA_SPARE_RECORDS];
} ua_usage;

/* Gives the cached blocks that `from` last used to `to`, and waits until
 * no block taken out is still to be waited on through `from`; the caller
 * has waited for `from`'s work. */
void ua_pool_rebind(ua_pool *p, const ua_queue *from, ua_queue *to);

#endif
