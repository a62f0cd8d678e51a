/* USM allocations: made through the queue's backend and recorded in the
 * registry for as long as they live. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

static const char *const kind_names[] = {"unknown", "device", "shared",
                                         "host"};

const char *
ua_usm_kind_name(ua_usm_kind kind)
{
    return (kind >= UA_USM_UNKNOWN && kind <= UA_USM_HOST) ? kind_names[kind]
                                                         : "unknown";
}

ua_status
ua_usm_kind_parse(const char *name, ua_usm_kind *out)
{
    for (int k = UA_USM_DEVICE; k <= UA_USM_HOST; k++) {
        if (strcmp(name, kind_names[k]) == 0) {
            *out = (ua_usm_kind)k;
            return UA_OK;
        }
    }
    return ua_error_set(UA_ERR_VALUE,
                        "'%.100s' is not a USM kind (expected 'device', "
                        "'shared' or 'host')",
                        name);
}

bool
ua_usm_kind_host_accessible(ua_usm_kind kind)
{
    return kind == UA_USM_SHARED || kind == UA_USM_HOST;
}

static const ua_backend_ops *
ops_of(const ua_queue *q)
{
    return q->context->device->backend->ops;
}

static ua_status
record(ua_allocation *a)
{
    ua_pointer_info info = {
        .start = (uintptr_t)a->ptr,
        .nbytes = a->nbytes,
        .kind = a->kind,
        .device = a->queue->context->device,
        .context = a->queue->context,
        .borrowed = a->borrowed,
    };
    return ua_registry_insert(&info);
}

/* Whether the pool's blocks are addresses the CPU may poison. */
static bool
pool_host_memory(const ua_context *c, ua_usm_kind kind)
{
    return ua_usm_kind_host_accessible(kind) ||
           (c->device->backend->ops->caps & UA_CAP_CPU_MEMORY);
}

/* Frees a block through the backend once the work queued on it is done. */
static void
free_block(ua_queue *q, ua_usm_kind kind, void *ptr)
{
    ua_queue_wait(q);
    ua_error_clear();
    ops_of(q)->free(q->context->handle, kind, ptr);
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
    bool kept = block != NULL &&
                ua_pool_give(p, a->pool_class, pool_host_memory(c, a->kind),
                             block);
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
        return ua_error_set(UA_ERR_ALLOC,
                            "allocating %zu bytes of USM %s memory would pass "
                            "the context's limit of %zu bytes (%zu in use)",
                            a->nbytes, ua_usm_kind_name(a->kind), limit, used);
    }
    if (r == NULL && (r = malloc(sizeof(*r))) == NULL) {
        bool held = pooled->ptr != NULL && pooled->queue != a->queue;
        if (pooled->ptr == NULL || !discharge(c, a, &r, pooled)) {
            if (pooled->ptr != NULL) {
                free_block(pooled->queue, a->kind, pooled->ptr);
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
 * makes no driver call (0.8 µs per empty() on the H100 against 1.3 µs). */
static bool
use_ordered_pool(const ua_queue *q, ua_usm_kind kind, size_t nbytes,
                 size_t alignment)
{
    return kind == UA_USM_DEVICE && alignment == 0 &&
           nbytes > UA_POOL_MAX_BLOCK && ops_of(q)->alloc_ordered != NULL &&
           !q->context->pools[kind].disabled;
}

/* Whether the alignment is beyond what the backend honours itself: the
 * core then takes a block larger by alignment - 1 bytes, which always holds
 * an aligned run of nbytes. */
static bool
over_aligned(const ua_queue *q, size_t alignment)
{
    return alignment > ops_of(q)->max_alignment;
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

/* Fills a->block with the pooled block charge took, or from the backend,
 * and a->ptr with the start of the allocation within it. */
static ua_status
alloc_block(ua_allocation *a, size_t alignment, const ua_pool_block *pooled)
{
    ua_queue *q = a->queue;
    ua_context *c = q->context;
    ua_status st;
    if (a->ordered) {
        st = ops_of(q)->alloc_ordered(q->handle, a->nbytes, &a->block);
        a->ptr = a->block;
        return st;
    }
    if (over_aligned(q, alignment)) {
        uintptr_t pad = alignment - 1;
        st = ops_of(q)->alloc(c->handle, c->device->index, a->kind,
                              a->block_bytes, 0, &a->block);
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
        st = ua_queue_wait(pooled->queue);
        if (st != UA_OK) {
            free_block(pooled->queue, a->kind, pooled->ptr);
        }
        ua_pool_release_queue(&c->pools[a->kind]);
        a->ptr = a->block = st == UA_OK ? pooled->ptr : NULL;
        return st == UA_OK ? UA_OK : ua_error_code();
    }
    st = ops_of(q)->alloc(c->handle, c->device->index, a->kind,
                          a->block_bytes, alignment, &a->block);
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
        ops_of(q)->free_ordered(q->handle, block, a->nbytes);
        discharge(q->context, a, record, NULL);
        return;
    }
    ua_pool_block b = {block, a->block_bytes, kind, q};
    if (a->pool_class >= 0 && discharge(q->context, a, record, &b)) {
        return;
    }
    free_block(q, kind, block);
    discharge(q->context, a, record, NULL);
}

ua_status
ua_usm_alloc(ua_queue *q, ua_usm_kind kind, size_t nbytes, size_t alignment,
             ua_allocation **out)
{
    if (kind < UA_USM_DEVICE || kind > UA_USM_HOST) {
        return ua_error_set(UA_ERR_VALUE, "cannot allocate USM kind %d",
                            (int)kind);
    }
    if (nbytes == 0) {
        return ua_error_set(UA_ERR_VALUE,
                            "a USM allocation needs a positive size");
    }
    if (alignment & (alignment - 1)) {
        return ua_error_set(UA_ERR_VALUE,
                            "alignment %zu is not a power of two", alignment);
    }
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
    if ((st = record(a)) != UA_OK) {
        release(a, &a);
        free(a);
        return st;
    }
    *out = a;
    return UA_OK;
}

ua_status
ua_usm_borrow(ua_context *c, ua_usm_kind kind, void *ptr, size_t nbytes,
              ua_allocation **out)
{
    ua_queue *q;
    ua_status st = ua_context_default_queue(c, &q);
    if (st != UA_OK) {
        return st;
    }
    /* A borrowed region over the library's own memory would be found in
     * its place and give it another kind: callers resolve such memory to
     * its allocation (ua_pointer_query_range) instead of borrowing it. */
    if (ua_registry_overlaps_owned((uintptr_t)ptr, nbytes)) {
        return ua_error_set(UA_ERR_VALUE,
                            "cannot borrow %zu bytes at %p as %s memory: "
                            "they overlap an allocation of usmarray's own",
                            nbytes, ptr, ua_usm_kind_name(kind));
    }
    ua_allocation *a = calloc(1, sizeof(*a));
    if (a == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory");
    }
    *a = (ua_allocation){.ptr = ptr, .block = ptr, .nbytes = nbytes,
                         .kind = kind, .borrowed = true, .queue = q,
                         .pool_class = -1};
    if ((st = record(a)) != UA_OK) {
        free(a);
        return st;
    }
    *out = a;
    return UA_OK;
}

void
ua_usm_free(ua_allocation *a)
{
    if (a == NULL) {
        return;
    }
    ua_registry_remove((uintptr_t)a->ptr, a->nbytes, a->borrowed);
    if (!a->borrowed) {
        release(a, &a);
    }
    free(a);
}

void *
ua_allocation_ptr(const ua_allocation *a)
{
    return a->ptr;
}

size_t
ua_allocation_size(const ua_allocation *a)
{
    return a->nbytes;
}

ua_usm_kind
ua_allocation_kind(const ua_allocation *a)
{
    return a->kind;
}

ua_queue *
ua_allocation_queue(const ua_allocation *a)
{
    return a->queue;
}

/* Memory of other libraries, as far as some backend's driver knows it.  A
 * driver that cannot tell an allocation's range answers nbytes 0; the
 * region [addr, addr + len) then counts as one allocation when its last
 * byte is memory of the same kind and device as its first. */
static bool
query_backend(ua_backend *be, uintptr_t addr, size_t len,
              ua_pointer_info *out)
{
    ua_backend_pointer_attrs attrs, last;
    if (!be->available || be->ops->pointer_attributes == NULL ||
        be->ops->pointer_attributes((const void *)addr, &attrs) != UA_OK) {
        return false;
    }
    if (attrs.nbytes == 0) {
        if (len > 1 &&
            (be->ops->pointer_attributes((const void *)(addr + len - 1),
                                         &last) != UA_OK ||
             last.kind != attrs.kind ||
             last.device_index != attrs.device_index)) {
            return false;
        }
        attrs.start = addr;
        attrs.nbytes = len;
    }
    ua_device *d = ua_backend_device(be, attrs.device_index);
    ua_context *c;
    if (d == NULL || ua_device_default_context(d, &c) != UA_OK ||
        addr < attrs.start || addr - attrs.start > attrs.nbytes ||
        len > attrs.start + attrs.nbytes - addr) {
        return false;
    }
    *out = (ua_pointer_info){.start = attrs.start,
                             .nbytes = attrs.nbytes,
                             .kind = attrs.kind,
                             .device = d,
                             .context = c,
                             .borrowed = true};
    return true;
}

static bool
query_backends(uintptr_t addr, size_t len, ua_pointer_info *out)
{
    for (size_t b = 0; b < ua_backend_count(); b++) {
        if (query_backend(ua_backend_at(b), addr, len, out)) {
            return true;
        }
        ua_error_clear();
    }
    return false;
}

bool
ua_pointer_query_range(uintptr_t addr, size_t len, ua_pointer_info *out)
{
    ua_devices_initialize();
    if (ua_registry_find_range(addr, len, out)) {
        return true;
    }
    /* An allocation the library knows answers for its own bytes alone: the
     * driver's view of the block it came from (a pool's class-sized block,
     * an over-aligned one) must not stretch it. */
    ua_pointer_info known;
    return !ua_registry_find_range(addr, 1, &known) &&
           query_backends(addr, len, out);
}

bool
ua_pointer_query(uintptr_t addr, ua_pointer_info *out)
{
    return ua_pointer_query_range(addr, 1, out);
}

static bool
backend_reaches(const ua_backend *runner, const ua_backend *owner)
{
    return runner == owner ||
           ((owner->ops->caps & UA_CAP_CPU_MEMORY) &&
            (runner->ops->caps & UA_CAP_REACHES_CPU_MEMORY));
}

/* The default queue of the device that holds ptr when q's backend cannot
 * reach that device's memory; NULL otherwise. */
static ua_queue *
owner_queue(const ua_queue *q, const void *ptr)
{
    ua_pointer_info info;
    ua_context *c;
    ua_queue *other;
    if (ptr == NULL || !ua_pointer_query((uintptr_t)ptr, &info) ||
        info.device == NULL ||
        backend_reaches(q->context->device->backend, info.device->backend) ||
        ua_device_default_context(info.device, &c) != UA_OK ||
        ua_context_default_queue(c, &other) != UA_OK) {
        ua_error_clear();
        return NULL;
    }
    return other;
}

ua_queue *
ua_queue_reaching(ua_queue *q, const void *a, const void *b)
{
    if (ua_device_count() < 2) {
        return q;
    }
    ua_queue *other = owner_queue(q, a);
    if (other == NULL) {
        other = owner_queue(q, b);
    }
    return other != NULL ? other : q;
}

/* ------------------------------------------ memory of other devices */

ua_status
ua_device_peer_access(ua_device *from, ua_device *to, bool *direct)
{
    const ua_backend_ops *ops = from->backend->ops;
    if (from == to || from->backend != to->backend) {
        *direct = from == to || backend_reaches(from->backend, to->backend);
        return UA_OK;
    }
    /* Without a route of the backend's own, copies are relayed through
     * host memory (relay.c). */
    *direct = ops->peer_access != NULL &&
              ops->peer_access(from->index, to->index);
    return UA_OK;
}

/* Later work on `to` runs after what `from` has enqueued: an event, not a
 * host wait.  Both queues are of one backend. */
ua_status
ua_queues_order(ua_queue *from, ua_queue *to)
{
    const ua_backend_ops *ops = ops_of(from);
    void *event;
    ua_status st = ops->event_record(from->handle, &event);
    if (st == UA_OK) {
        st = ops->event_wait(to->handle, event);
        ops->event_destroy(event);
    }
    return st;
}

/* Whether copies on queues of `here` can touch the memory `info`
 * describes: memory of another device of its backend when the backend
 * runs copies between them, host-accessible memory of any device, and
 * device memory of another backend whose memory it reaches. */
static bool
device_reaches(const ua_device *here, const ua_pointer_info *info)
{
    const ua_backend *owner = info->device->backend;
    if (info->device == here || info->kind != UA_USM_DEVICE) {
        return true;
    }
    return owner == here->backend ? owner->ops->peer_access != NULL
                                  : backend_reaches(here->backend, owner);
}

/* The default queue of the device that holds ptr when that is another
 * device of the runner's backend (a peer); NULL for memory of the runner's
 * device, memory the runner reaches anyway and memory no one knows.
 * *reached is false, and *out NULL, for device memory the runner cannot
 * reach. */
static ua_status
peer_queue_of(ua_queue *runner, const void *ptr, ua_queue **out,
              bool *reached)
{
    ua_device *here = runner->context->device;
    ua_pointer_info info;
    ua_context *c;
    *out = NULL;
    *reached = true;
    if (ptr == NULL || !ua_pointer_query((uintptr_t)ptr, &info) ||
        info.device == NULL || info.device == here) {
        return UA_OK;
    }
    *reached = device_reaches(here, &info);
    if (!*reached || info.device->backend != here->backend) {
        return UA_OK;
    }
    ua_status st = ua_device_default_context(info.device, &c);
    return st == UA_OK ? ua_context_default_queue(c, out) : st;
}

ua_status
ua_peers_before(ua_queue *runner, const void *dst, const void *src,
                ua_queue *peers[2], bool *relay)
{
    bool reached[2] = {true, true};
    peers[0] = peers[1] = NULL;
    *relay = false;
    if (ua_device_count() < 2) {
        return UA_OK;
    }
    ua_status st = peer_queue_of(runner, dst, &peers[0], &reached[0]);
    if (st == UA_OK) {
        st = peer_queue_of(runner, src, &peers[1], &reached[1]);
    }
    if (!reached[0] || !reached[1]) {
        peers[0] = peers[1] = NULL;
        *relay = st == UA_OK;
        return st;
    }
    if (peers[1] == peers[0]) {
        peers[1] = NULL;
    }
    for (int i = 0; i < 2 && st == UA_OK; i++) {
        st = peers[i] != NULL ? ua_queues_order(peers[i], runner) : UA_OK;
    }
    return st;
}

ua_status
ua_peers_after(ua_queue *runner, ua_queue *const peers[2])
{
    ua_status st = UA_OK;
    for (int i = 0; i < 2 && st == UA_OK; i++) {
        st = peers[i] != NULL ? ua_queues_order(runner, peers[i]) : UA_OK;
    }
    return st;
}

ua_status
ua_queue_memcpy(ua_queue *q, void *dst, const void *src, size_t n)
{
    if (n == 0) {
        return UA_OK;
    }
    ua_queue *runner = ua_queue_reaching(q, dst, src), *peers[2];
    bool relay;
    ua_status st = ua_peers_before(runner, dst, src, peers, &relay);
    if (st == UA_OK && relay) {
        return ua_relay_memcpy(q, dst, src, n);
    }
    if (st == UA_OK) {
        st = ops_of(runner)->memcpy(runner->handle, dst, src, n);
    }
    if (st == UA_OK) {
        st = ua_peers_after(runner, peers);
    }
    /* Work moved to another queue is finished here: q's waits cannot see
     * it. */
    return st == UA_OK && runner != q ? ua_queue_wait(runner) : st;
}

ua_status
ua_queue_memset(ua_queue *q, void *dst, unsigned char value, size_t n)
{
    if (n == 0) {
        return UA_OK;
    }
    return ops_of(q)->memset(q->handle, dst, value, n);
}

uintptr_t
ua_queue_stream_handle(ua_queue *q)
{
    const ua_backend_ops *ops = ops_of(q);
    return ops->queue_stream ? ops->queue_stream(q->handle) : 0;
}

void *
ua_queue_native_handle(ua_queue *q)
{
    const ua_backend_ops *ops = ops_of(q);
    return ops->queue_native_handle ? ops->queue_native_handle(q->handle)
                                    : NULL;
}

ua_status
ua_queue_order_with_stream(ua_queue *q, uintptr_t stream, bool stream_waits)
{
    const ua_backend_ops *ops = ops_of(q);
    if (ops->order_with_stream == NULL) {
        return ua_error_set(UA_ERR_VALUE,
                            "stream %#zx: the %s backend has no streams",
                            (size_t)stream, ops->name);
    }
    return ops->order_with_stream(q->handle, stream, stream_waits);
}

ua_status
ua_copy_sync(ua_queue *q, void *dst, const void *src, size_t n)
{
    ua_status st = ua_queue_memcpy(q, dst, src, n);
    return st != UA_OK ? st : ua_queue_wait(q);
}

static void
free_pooled(const ua_pool_block *b)
{
    free_block(b->queue, b->kind, b->ptr);
}

static const ua_backend_ops *
context_ops(const ua_context *c)
{
    return c->device->backend->ops;
}

void
ua_context_release_pool(ua_context *c)
{
    for (int k = UA_USM_DEVICE; k <= UA_USM_HOST; k++) {
        ua_pool_drain(&c->pools[k], pool_host_memory(c, k),
                      free_pooled);
    }
    if (context_ops(c)->trim_ordered != NULL) {
        context_ops(c)->trim_ordered(c->handle);
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
    if (kind == UA_USM_DEVICE && context_ops(c)->ordered_held_bytes != NULL) {
        n += context_ops(c)->ordered_held_bytes(c->handle);
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
