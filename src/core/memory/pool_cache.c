/* The pool's cache of freed blocks, per context and USM kind (pool.c
 * decides what enters it).  Allocating from
 * a driver costs microseconds (and, on the host, page faults on first
 * touch); a freed block of the same size class is handed out again
 * instead.  Only allocations with the backend's default alignment enter,
 * and the cache holds at most UA_POOL_LIMIT bytes per context and kind. */
#include "core/base/lock.h"
#include "core/memory/pool_cache.h"

#if defined(__SANITIZE_ADDRESS__)
#define UA_POOL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UA_POOL_ASAN 1
#endif
#endif
#ifdef UA_POOL_ASAN
#include <sanitizer/asan_interface.h>
#endif

/* Four classes per power of two: a block wastes at most a fifth of itself. */
static int
floor_log2(size_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    return (int)(8 * sizeof(unsigned long long) - 1) -
           __builtin_clzll((unsigned long long)n);
#else
    int k = 0;
    while (n >>= 1) {
        k++;
    }
    return k;
#endif
}

int
ua_pool_class(size_t nbytes, size_t *class_bytes)
{
    if (nbytes > UA_POOL_MAX_BLOCK) {
        return -1;
    }
    if (nbytes <= ((size_t)1 << UA_POOL_MIN_SHIFT)) {
        *class_bytes = (size_t)1 << UA_POOL_MIN_SHIFT;
        return 0;
    }
    int k = floor_log2(nbytes - 1); /* 2^k < nbytes <= 2^(k+1) */
    size_t quarter = (size_t)1 << (k - 2);
    size_t steps = (nbytes - ((size_t)1 << k) + quarter - 1) / quarter;
    *class_bytes = ((size_t)1 << k) + steps * quarter;
    return 1 + (k - UA_POOL_MIN_SHIFT) * 4 + (int)(steps - 1);
}

void
ua_pool_init(ua_pool *p, bool enabled)
{
    atomic_init(&p->lock.held, false);
    atomic_init(&p->in_flight, 0);
    p->disabled = !enabled;
}

static void
poison(void *ptr, size_t n, bool on, bool host_memory)
{
#ifdef UA_POOL_ASAN
    /* A block in the pool is freed memory to the program: a use of it
     * should be reported as one. */
    if (host_memory) {
        if (on) {
            ASAN_POISON_MEMORY_REGION(ptr, n);
        } else {
            ASAN_UNPOISON_MEMORY_REGION(ptr, n);
        }
    }
#else
    (void)ptr, (void)n, (void)on, (void)host_memory;
#endif
}

bool
ua_pool_take(ua_pool *p, int cls, bool host_memory, ua_pool_block *out)
{
    ua_pool_bin *b = &p->bins[cls];
    if (p->disabled || b->count == 0) {
        return false;
    }
    *out = b->blocks[--b->count];
    p->cached_bytes -= out->bytes;
    poison(out->ptr, out->bytes, false, host_memory);
    return true;
}

bool
ua_pool_give(ua_pool *p, int cls, bool host_memory, const ua_pool_block *block)
{
    ua_pool_bin *b = &p->bins[cls];
    if (p->disabled || b->count >= UA_POOL_BIN_DEPTH ||
        p->cached_bytes + block->bytes > UA_POOL_LIMIT) {
        return false;
    }
    b->blocks[b->count++] = *block;
    p->cached_bytes += block->bytes;
    poison(block->ptr, block->bytes, true, host_memory);
    return true;
}

void
ua_pool_hold_queue(ua_pool *p)
{
    atomic_fetch_add_explicit(&p->in_flight, 1, memory_order_relaxed);
}

void
ua_pool_release_queue(ua_pool *p)
{
    atomic_fetch_sub_explicit(&p->in_flight, 1, memory_order_release);
}

/* Pops one cached block into *out, held in flight; false when none is
 * left. */
static bool
pop_any(ua_pool *p, bool host_memory, ua_pool_block *out)
{
    bool found = false;
    ua_lock_acquire(&p->lock);
    for (int c = 0; c < UA_POOL_CLASSES && !found; c++) {
        found = ua_pool_take(p, c, host_memory, out);
    }
    if (found) {
        ua_pool_hold_queue(p);
    }
    ua_lock_release(&p->lock);
    return found;
}

void
ua_pool_drain(ua_pool *p, bool host_memory,
              void (*release)(const ua_pool_block *block))
{
    /* Each block is released outside the lock: a driver's free may wait
     * for the device. */
    ua_pool_block block;
    while (pop_any(p, host_memory, &block)) {
        release(&block);
        ua_pool_release_queue(p);
    }
}

size_t
ua_pool_cached_bytes(ua_pool *p)
{
    ua_lock_acquire(&p->lock);
    size_t n = p->cached_bytes;
    ua_lock_release(&p->lock);
    return n;
}

void
ua_pool_rebind(ua_pool *p, const ua_queue *from, ua_queue *to)
{
    ua_lock_acquire(&p->lock);
    for (int c = 0; c < UA_POOL_CLASSES; c++) {
        ua_pool_bin *b = &p->bins[c];
        for (size_t i = 0; i < b->count; i++) {
            if (b->blocks[i].queue == from) {
                b->blocks[i].queue = to;
            }
        }
    }
    ua_lock_release(&p->lock);
    /* A block taken out before the rebinding may still be waited on
     * through `from`, which its caller is about to free. */
    while (atomic_load_explicit(&p->in_flight, memory_order_acquire) > 0) {
        sched_yield();
    }
}
