/* Definitions shared by the core's translation units; not installed. */
#ifndef USMARRAY_CORE_INTERNAL_H
#define USMARRAY_CORE_INTERNAL_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "core/backend.h"
#include "core/core.h"

/* The lock of the pools and of the registry, whose critical sections are a
 * few loads and stores (a bisection, a short memmove) taken several times
 * per allocation: an atomic exchange, where a mutex costs some thirty
 * instructions to lock and as many to unlock, a tenth of an empty() on the
 * host.  A waiter yields after a few spins, as the holder may have been
 * preempted; nothing that waits on a driver runs under it. */
typedef struct {
    atomic_bool held;
} ua_lock;

#define UA_LOCK_INIT {false}

static inline void
ua_lock_acquire(ua_lock *l)
{
    while (atomic_exchange_explicit(&l->held, true, memory_order_acquire)) {
        for (int spins = 0;
             atomic_load_explicit(&l->held, memory_order_relaxed); spins++) {
            if (spins >= 64) {
                sched_yield();
            }
        }
    }
}

static inline void
ua_lock_release(ua_lock *l)
{
    atomic_store_explicit(&l->held, false, memory_order_release);
}


struct ua_backend {
    const ua_backend_ops *ops;
    bool available;
    char reason[256];
    size_t first_device; /* global id of its first device */
    size_t ndevices;
};

struct ua_device {
    ua_backend *backend;
    int index; /* backend-relative */
    size_t id; /* global */
    int relative_id;
    ua_device_type type;
    char name[256];
    char filter[64];
    ua_context *default_context; /* created on first use */
};

/* ------------------------------------------------------ the pool (pool.c) */

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
    size_t bytes;    /* the class size it was allocated with */
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
/* Whether USMARRAY_POOL leaves pooling on (unset, empty, 1, true, yes, on;
 * any case) or turns it off (0, false, no, off); UA_ERR_VALUE naming the
 * accepted values otherwise. */
ua_status ua_pool_enabled_by_env(bool *enabled);
/* Takes a cached block of class cls; false when there is none.  The
 * caller holds p->lock, as for ua_pool_give: usm.c counts the block's bytes
 * under the same lock. */
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

struct ua_context {
    ua_device *device;
    void *handle;
    ua_queue *default_queue; /* created on first use */
    ua_pool pools[UA_USM_HOST + 1]; /* indexed by USM kind */
    ua_usage usage[UA_USM_HOST + 1];
};

struct ua_queue {
    ua_context *context;
    void *handle;
    bool wrapped;      /* over a stream of another library */
    bool has_priority;
    int priority;
};

/* Gives the pooled blocks of c that `from` last used to c's default queue
 * (pool.c); the caller has waited for `from`. */
void ua_pool_rebind(ua_pool *p, const ua_queue *from, ua_queue *to);

struct ua_allocation {
    void *ptr;   /* the start of the allocation the library hands out */
    void *block; /* what the backend allocated, to free: ptr, or a larger
                    block that ptr lies in when the core aligned it */
    size_t nbytes;
    ua_usm_kind kind;
    bool borrowed;
    int pool_class; /* its class in the context's pool, or -1 */
    bool ordered;   /* from the backend's queue-ordered pool */
    size_t block_bytes; /* the bytes of block: a class size when pooled */
    ua_queue *queue;
};

/* Builds the backend and device tables once; safe to call from any thread. */
void ua_devices_initialize(void);

/* A variable of the environment watched for changes (environ.c): the
 * environment's entries as last seen, and the variable's text. */
#define UA_ENV_WATCH_ENTRIES 128
typedef struct {
    bool valid;
    char **environ_seen;
    size_t count;
    char *entries[UA_ENV_WATCH_ENTRIES + 1];
    ptrdiff_t index; /* the variable's entry, or -1 where it is absent */
    char name[32];
    size_t name_len;
    char value[96];
} ua_env_watch;

/* Whether variable `name` may have changed since *w last saw it: false
 * where it cannot have; else true, with *value getenv's answer now. */
bool ua_env_changed(ua_env_watch *w, const char *name, const char **value);
/* Makes the next ua_env_changed on *w read the variable again. */
void ua_env_forget(ua_env_watch *w);

/* The registry of live allocations, keyed by start address. */
ua_status ua_registry_insert(const ua_pointer_info *info);
void ua_registry_remove(uintptr_t start, size_t nbytes, bool borrowed);
bool ua_registry_find_range(uintptr_t addr, size_t len, ua_pointer_info *out);
/* Whether [addr, addr + len) (the address alone when len is 0) meets an
 * allocation the library made. */
bool ua_registry_overlaps_owned(uintptr_t addr, size_t len);
size_t ua_registry_size(void);

/* Sorts axes[0..n) in place by decreasing |strides[axis]|, keeping the
 * order of ties. */
void ua_layout_sort_axes(int n, int *axes, const ptrdiff_t *strides);

/* Global index of the device of a backend-relative index, or NULL. */
ua_device *ua_backend_device(ua_backend *b, int index);
/* The queue to run work touching a and b on: q, unless q's backend cannot
 * reach the memory of a or b, in which case the default queue of the
 * device that holds it.  A backend reaches its own memory, and plain CPU
 * memory where it has UA_CAP_REACHES_CPU_MEMORY. */
ua_queue *ua_queue_reaching(ua_queue *q, const void *a, const void *b);
/* A copy on `runner` touching dst and src, where either is memory of
 * another device of the runner's backend (a peer), is ordered after the
 * work enqueued on that device's default queue (ua_peers_before, which
 * fills peers) and that queue's later work after the copy
 * (ua_peers_after), by events.  Where the runner cannot reach device
 * memory of dst or src, ua_peers_before orders nothing and sets *relay:
 * the copy is then for ua_relay_memcpy or ua_relay_copy_strided. */
ua_status ua_peers_before(ua_queue *runner, const void *dst, const void *src,
                          ua_queue *peers[2], bool *relay);
ua_status ua_peers_after(ua_queue *runner, ua_queue *const peers[2]);
/* Later work on `to` runs after what `from` has enqueued, by an event;
 * both queues are of one backend. */
ua_status ua_queues_order(ua_queue *from, ua_queue *to);

/* Copies issued on q between memory of two devices that cannot reach each
 * other's (relay.c): the source's device copies into a host buffer, the
 * destination's device copies from it, each leg waited for.  They return
 * once the copy is done. */
ua_status ua_relay_memcpy(ua_queue *q, void *dst, const void *src, size_t n);
ua_status ua_relay_copy_strided(ua_queue *q, int nd, const ptrdiff_t *shape,
                                const ua_strided *dst, const ua_strided *src);

#endif
