/* The pool: where USM blocks come from and go back to, and what is
 * counted of them.  It owns the policy (blocks of a size class are cached
 * per context and USM kind, pool_cache.c, and handed out again; large
 * device blocks come from the backend's queue-ordered provider where there
 * is one), the accounting (bytes in use per context and kind, against a
 * limit), the statistics, and its configuration (USMARRAY_POOL).
 * Backends give it raw blocks through their providers
 * (memory/provider.h); when one has no room, the pool gives back what it
 * caches and asks once more. */
#include <stdint.h>
#include <stdlib.h>
#include <strings.h>

#include "core/backend.h"
#include "core/base/lock.h"
#include "core/devices/devices.h"
#include "core/memory/pool.h"
#include "core/memory/pool_cache.h"

/* The backend's providers (memory/provider.h) of a context: the plain
 * one, and the queue-ordered one or NULL. */
static const ua_memory_provider *
plain_provider(const ua_context *c)
{
    return c->device->backend->ops->memory;
}

static const ua_memory_provider *
ordered_provider(const ua_context *c)
{
    return c->device->backend->ops->ordered_memory;
}

/* Whether the pool's blocks are addresses the CPU may poison. */
static bool
pool_host_memory(const ua_context *c, ua_usm_kind kind)
{
    return ua_usm_kind_host_accessible(kind) ||
           (c->device->backend->ops->caps & UA_CAP_CPU_MEMORY);
}

/* Waits for the work enqueued on q, through the backend: the pool needs
 * nothing else of queues. */
static ua_status
wait_queue(ua_queue *q)
{
    return q->context->device->backend->ops->queue_wait(q->handle);
}

/* Frees a block of the plain provider once the work queued on it is
 * done. */
static void
free_block(ua_queue *q, ua_usm_kind kind, void *ptr, size_t nbytes)
{
    wait_queue(q);
    ua_error_clear();
    plain_provider(q->context)
        ->free(q->context->handle, q->handle, kind, ptr, nbytes);
}

/* Uncounts a's block, after offering it to the pool when `block` is not
 * NULL; *record, when not NULL, is kept as a spare if there is room (and
 * *record set to NULL), else left to the caller to free.  Returns whether
 * the pool kept the block; one that it did not keep stays counted, for the
 * caller to free and then discharge. */
static bool
discharge(ua_context *c, const ua_allocation *a, ua_allocation **record,
          const ua_pool_block *block)
{
    ua_pool *p = &c->pools[a->kind];
    ua_usage *u = &c->usage[a->kind];
    ua_lock_acquire(&p->lock);
    bool kept =
        block != NULL &&
        ua_pool_give(p, a->pool_class, pool_host_memory(c, a->kind), block);
    if (block == NULL || kept) {
        u->used -= a->block_bytes;
        u->ordered -= a->ordered ? a->block_bytes : 0;
        if (*record != NULL && u->nspare < UA_SPARE_RECORDS) {
            u->spare[u->nspare++] = *record;
            *record = NULL;
        }
    }
    ua_lock_release(&p->lock);
    return kept;
}

/* Counts a block as live, unless that would pass the kind's limit, and
 * gives the record that will describe it (a spare one, or a new one) and,
 * where a is of a pool class, a cached block of it if there is one
 * (pooled->ptr NULL if not): one lock for all three. */
static ua_status
charge(ua_context *c, const ua_allocation *a, ua_allocation **record,
       ua_pool_block *pooled)
{
    ua_pool *p = &c->pools[a->kind];
    ua_usage *u = &c->usage[a->kind];
    ua_allocation *r = NULL;
    pooled->ptr = NULL;
    ua_lock_acquire(&p->lock);
    bool over = a->block_bytes > u->limit - u->used;
    if (!over) {
        u->used += a->block_bytes;
        u->ordered += a->ordered ? a->block_bytes : 0;
        r = u->nspare > 0 ? u->spare[--u->nspare] : NULL;
        if (a->pool_class >= 0 &&
            !ua_pool_take(p, a->pool_class, pool_host_memory(c, a->kind),
                          pooled)) {
            pooled->ptr = NULL;
        }
        /* alloc_block waits on the block's last queue when it is another:
         * that queue must not be destroyed meanwhile. */
        if (pooled->ptr != NULL && pooled->queue != a->queue) {
            ua_pool_hold_queue(p);
        }
    }
    size_t used = u->used, limit = u->limit;
    ua_lock_release(&p->lock);
    if (over) {
        char want[32], most[32], taken[32];
        return ua_error_set(UA_ERR_ALLOC,
                            "allocating %s (%zu bytes) of USM %s memory would "
                            "pass the context's limit of %s (%zu bytes; %s in "
                            "use)",
                            ua_format_bytes(a->nbytes, want), a->nbytes,
                            ua_usm_kind_name(a->kind),
                            ua_format_bytes(limit, most), limit,
                            ua_format_bytes(used, taken));
    }
    if (r == NULL && (r = malloc(sizeof(*r))) == NULL) {
        bool held = pooled->ptr != NULL && pooled->queue != a->queue;
        if (pooled->ptr == NULL || !discharge(c, a, &r, pooled)) {
            if (pooled->ptr != NULL) {
                free_block(pooled->queue, a->kind, pooled->ptr, pooled->bytes);
            }
            discharge(c, a, &r, NULL);
        }
        if (held) {
            ua_pool_release_queue(p);
        }
        return ua_error_set(UA_ERR_NOMEM, "out of memory");
    }
    *r = *a;
    *record = r;
    return UA_OK;
}

/* Device memory of the default alignment too large for the core's pool
 * comes from the backend's pool ordered by the queue, where it has one: no
 * host wait on either side.  Smaller blocks stay in the core's pool, which
 * makes no driver call, cheaper than the backend's pool for them. */
static bool
use_ordered_pool(const ua_queue *q, ua_usm_kind kind, size_t nbytes,
                 size_t alignment)
{
    return kind == UA_USM_DEVICE && alignment == 0 &&
           nbytes > UA_POOL_MAX_BLOCK &&
           ordered_provider(q->context) != NULL &&
           !q->context->pools[kind].disabled;
}

/* Whether the alignment is beyond what the backend honours itself: the
 * core then takes a block larger by alignment - 1 bytes, which always holds
 * an aligned run of nbytes. */
static bool
over_aligned(const ua_queue *q, size_t alignment)
{
    return alignment > plain_provider(q->context)->max_alignment;
}

/* Where a's block comes from and how large it is.  Blocks of the core's
 * pool are of the class size, so that any block of a class serves any
 * request. */
static ua_status
plan_block(ua_allocation *a, size_t alignment)
{
    size_t class_bytes;
    if (over_aligned(a->queue, alignment)) {
        size_t pad = alignment - 1;
        if (pad > (size_t)PTRDIFF_MAX ||
            a->nbytes > (size_t)PTRDIFF_MAX - pad) {
            return ua_error_set(UA_ERR_ALLOC,
                                "cannot allocate %zu bytes aligned to %zu: "
                                "the block would be larger than can be "
                                "addressed",
                                a->nbytes, alignment);
        }
        a->ordered = false;
        a->pool_class = -1;
        a->block_bytes = a->nbytes + pad;
        return UA_OK;
    }
    a->ordered = use_ordered_pool(a->queue, a->kind, a->nbytes, alignment);
    a->pool_class = a->ordered || alignment != 0
                        ? -1
                        : ua_pool_class(a->nbytes, &class_bytes);
    a->block_bytes = a->pool_class >= 0 ? class_bytes : a->nbytes;
    return UA_OK;
}

/* A block from the provider.  Where the device has no room, the pool
 * gives back every block it keeps for the context (and the ordered
 * provider what it keeps), then asks once more: memory cached for other
 * sizes or kinds must not make an allocation fail. */
static ua_status
provider_alloc(const ua_memory_provider *m, ua_queue *q, ua_usm_kind kind,
               size_t nbytes, size_t alignment, void **ptr)
{
    ua_context *c = q->context;
    ua_status st = m->alloc(c->handle, c->device->index, q->handle, kind,
                            nbytes, alignment, ptr);
    if (st != UA_ERR_ALLOC) {
        return st;
    }
    size_t cached = ua_context_pooled_bytes(c);
    ua_context_release_pool(c);
    ua_error_clear();
    st = m->alloc(c->handle, c->device->index, q->handle, kind, nbytes,
                  alignment, ptr);
    if (st != UA_ERR_ALLOC) {
        return st;
    }
    /* The size as a person reads it first, then the backend's words. */
    char size[32];
    ua_format_bytes(nbytes, size);
    if (cached > 0) {
        return ua_error_set(st,
                            "could not allocate %s of USM %s memory: %s "
                            "(after giving back the %zu bytes cached)",
                            size, ua_usm_kind_name(kind), ua_error_message(),
                            cached);
    }
    return ua_error_set(st, "could not allocate %s of USM %s memory: %s", size,
                        ua_usm_kind_name(kind), ua_error_message());
}

/* Fills a->block with the pooled block charge took, or from the backend,
 * and a->ptr with the start of the allocation within it. */
static ua_status
alloc_block(ua_allocation *a, size_t alignment, const ua_pool_block *pooled)
{
    ua_queue *q = a->queue;
    ua_context *c = q->context;
    ua_status st;
    if (a->ordered) {
        st = provider_alloc(ordered_provider(c), q, a->kind, a->nbytes, 0,
                            &a->block);
        a->ptr = a->block;
        return st;
    }
    if (over_aligned(q, alignment)) {
        uintptr_t pad = alignment - 1;
        st = provider_alloc(plain_provider(c), q, a->kind, a->block_bytes, 0,
                            &a->block);
        if (st != UA_OK) {
            /* The backend saw only the padded size: say why it is so. */
            return ua_error_set(st,
                                "cannot allocate %zu bytes aligned to %zu "
                                "(a block of %zu bytes): %s",
                                a->nbytes, alignment, a->block_bytes,
                                ua_error_message());
        }
        a->ptr = (void *)(((uintptr_t)a->block + pad) & ~pad);
        return st;
    }
    if (pooled->ptr != NULL) {
        if (pooled->queue == q) {
            a->ptr = a->block = pooled->ptr;
            return UA_OK;
        }
        /* Work on another queue may still use it: order after it. */
        st = wait_queue(pooled->queue);
        if (st != UA_OK) {
            free_block(pooled->queue, a->kind, pooled->ptr, pooled->bytes);
        }
        ua_pool_release_queue(&c->pools[a->kind]);
        a->ptr = a->block = st == UA_OK ? pooled->ptr : NULL;
        return st == UA_OK ? UA_OK : ua_error_code();
    }
    st = provider_alloc(plain_provider(c), q, a->kind, a->block_bytes,
                        alignment, &a->block);
    a->ptr = a->block;
    return st;
}

/* Gives a's block back (to the pool, or to the backend) and uncounts it;
 * *record as discharge takes it. */
static void
release(ua_allocation *a, ua_allocation **record)
{
    ua_queue *q = a->queue;
    ua_usm_kind kind = a->kind;
    void *block = a->block;
    if (a->ordered) {
        ordered_provider(q->context)
            ->free(q->context->handle, q->handle, kind, block, a->nbytes);
        discharge(q->context, a, record, NULL);
        return;
    }
    ua_pool_block b = {block, a->block_bytes, kind, q};
    if (a->pool_class >= 0 && discharge(q->context, a, record, &b)) {
        return;
    }
    free_block(q, kind, block, a->block_bytes);
    discharge(q->context, a, record, NULL);
}

static void
free_pooled(const ua_pool_block *b)
{
    free_block(b->queue, b->kind, b->ptr, b->bytes);
}

void
ua_context_release_pool(ua_context *c)
{
    for (int k = UA_USM_DEVICE; k <= UA_USM_HOST; k++) {
        ua_pool_drain(&c->pools[k], pool_host_memory(c, k), free_pooled);
    }
    const ua_memory_provider *ordered = ordered_provider(c);
    if (ordered != NULL && ordered->trim != NULL) {
        ordered->trim(c->handle);
    }
}

static bool
valid_kind(ua_usm_kind kind)
{
    return kind >= UA_USM_DEVICE && kind <= UA_USM_HOST;
}

size_t
ua_context_used_bytes(ua_context *c, ua_usm_kind kind)
{
    if (!valid_kind(kind)) {
        return 0;
    }
    ua_lock_acquire(&c->pools[kind].lock);
    size_t n = c->usage[kind].used;
    ua_lock_release(&c->pools[kind].lock);
    return n;
}

size_t
ua_context_held_bytes(ua_context *c, ua_usm_kind kind)
{
    if (!valid_kind(kind)) {
        return 0;
    }
    ua_pool *p = &c->pools[kind];
    ua_lock_acquire(&p->lock);
    /* Live blocks of the ordered pool are counted in what it holds. */
    size_t n = c->usage[kind].used - c->usage[kind].ordered + p->cached_bytes;
    ua_lock_release(&p->lock);
    const ua_memory_provider *ordered = ordered_provider(c);
    if (kind == UA_USM_DEVICE && ordered != NULL &&
        ordered->held_bytes != NULL) {
        n += ordered->held_bytes(c->handle);
    }
    return n;
}

void
ua_context_set_limit(ua_context *c, ua_usm_kind kind, size_t limit)
{
    if (valid_kind(kind)) {
        ua_lock_acquire(&c->pools[kind].lock);
        c->usage[kind].limit = limit;
        ua_lock_release(&c->pools[kind].lock);
    }
}

size_t
ua_context_limit(ua_context *c, ua_usm_kind kind)
{
    if (!valid_kind(kind)) {
        return SIZE_MAX;
    }
    ua_lock_acquire(&c->pools[kind].lock);
    size_t n = c->usage[kind].limit;
    ua_lock_release(&c->pools[kind].lock);
    return n;
}

size_t
ua_context_pooled_bytes(ua_context *c)
{
    size_t n = 0;
    for (int k = UA_USM_DEVICE; k <= UA_USM_HOST; k++) {
        n += ua_pool_cached_bytes(&c->pools[k]);
    }
    return n;
}

static bool
is_one_of(const char *value, const char *const *words)
{
    for (; *words != NULL; words++) {
        if (strcasecmp(value, *words) == 0) {
            return true;
        }
    }
    return false;
}

/* Whether USMARRAY_POOL leaves pooling on (unset, empty, 1, true, yes, on;
 * any case) or turns it off (0, false, no, off); UA_ERR_VALUE naming the
 * accepted values otherwise.  Read as each context is made. */
static ua_status
enabled_by_env(bool *enabled)
{
    static const char *const on[] = {"1", "true", "yes", "on", NULL};
    static const char *const off[] = {"0", "false", "no", "off", NULL};
    const char *env = getenv("USMARRAY_POOL");
    *enabled = true;
    if (env == NULL || env[0] == '\0' || is_one_of(env, on)) {
        return UA_OK;
    }
    if (is_one_of(env, off)) {
        *enabled = false;
        return UA_OK;
    }
    return ua_error_set(UA_ERR_VALUE,
                        "environment variable USMARRAY_POOL is '%.100s'; "
                        "expected 1, true, yes or on (keep freed allocations "
                        "for reuse, the default) or 0, false, no or off (free "
                        "them at once), in any case",
                        env);
}

ua_status
ua_pool_init_context(ua_context *c)
{
    bool pooled;
    ua_status st = enabled_by_env(&pooled);
    for (int k = 0; st == UA_OK && k <= UA_USM_HOST; k++) {
        ua_pool_init(&c->pools[k], pooled);
        c->usage[k].limit = SIZE_MAX;
    }
    return st;
}

ua_status
ua_pool_allocate(ua_queue *q, ua_usm_kind kind, size_t nbytes,
                 size_t alignment, ua_allocation **out)
{
    ua_allocation plan = {.nbytes = nbytes, .kind = kind, .queue = q};
    ua_allocation *a = NULL;
    ua_pool_block pooled;
    ua_status st = plan_block(&plan, alignment);
    if (st != UA_OK ||
        (st = charge(q->context, &plan, &a, &pooled)) != UA_OK) {
        return st;
    }
    if ((st = alloc_block(a, alignment, &pooled)) != UA_OK) {
        discharge(q->context, a, &a, NULL);
        free(a);
        return st;
    }
    *out = a;
    return UA_OK;
}

void
ua_pool_release(ua_allocation *a)
{
    release(a, &a);
    free(a);
}

void
ua_pool_retire_queue(ua_context *c, const ua_queue *q, ua_queue *heir)
{
    for (int k = UA_USM_DEVICE; k <= UA_USM_HOST; k++) {
        ua_pool_rebind(&c->pools[k], q, heir);
    }
}
