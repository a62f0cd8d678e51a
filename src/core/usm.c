/* USM allocations: made through the queue's backend and recorded in the
 * registry for as long as they live. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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

/* Fills a->ptr from the context's pool or the backend.  Pooled blocks are
 * of the class size, so that any block of a class serves any request. */
static ua_status
alloc_block(ua_allocation *a, size_t alignment)
{
    ua_queue *q = a->queue;
    ua_context *c = q->context;
    size_t class_bytes;
    int cls = alignment == 0 ? ua_pool_class(a->nbytes, &class_bytes) : -1;
    if (cls >= 0) {
        ua_pool_block b;
        a->pool_class = cls;
        a->block_bytes = class_bytes;
        if (ua_pool_take(&c->pools[a->kind], cls,
                         pool_host_memory(q->context, a->kind), &b)) {
            /* Work on another queue may still use it: order after it. */
            if (b.queue != q && ua_queue_wait(b.queue) != UA_OK) {
                free_block(b.queue, a->kind, b.ptr);
                return ua_error_code();
            }
            a->ptr = b.ptr;
            return UA_OK;
        }
    }
    return ops_of(q)->alloc(c->handle, c->device->index, a->kind,
                            a->block_bytes, alignment, &a->ptr);
}

static void
release_block(ua_allocation *a)
{
    ua_queue *q = a->queue;
    ua_pool_block b = {a->ptr, a->block_bytes, a->kind, q};
    if (a->pool_class < 0 ||
        !ua_pool_give(&q->context->pools[a->kind], a->pool_class,
                      pool_host_memory(q->context, a->kind), &b)) {
        free_block(q, a->kind, a->ptr);
    }
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
    ua_allocation *a = calloc(1, sizeof(*a));
    if (a == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory");
    }
    *a = (ua_allocation){.nbytes = nbytes, .kind = kind, .queue = q,
                         .pool_class = -1, .block_bytes = nbytes};
    ua_status st = alloc_block(a, alignment);
    if (st != UA_OK) {
        free(a);
        return st;
    }
    if ((st = record(a)) != UA_OK) {
        release_block(a);
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
    ua_allocation *a = calloc(1, sizeof(*a));
    if (a == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory");
    }
    *a = (ua_allocation){.ptr = ptr, .nbytes = nbytes, .kind = kind,
                         .borrowed = true, .queue = q, .pool_class = -1};
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
        release_block(a);
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
    return ua_registry_find_range(addr, len, out) ||
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

ua_status
ua_queue_memcpy(ua_queue *q, void *dst, const void *src, size_t n)
{
    if (n == 0) {
        return UA_OK;
    }
    ua_queue *runner = ua_queue_reaching(q, dst, src);
    ua_status st = ops_of(runner)->memcpy(runner->handle, dst, src, n);
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

void
ua_context_release_pool(ua_context *c)
{
    for (int k = UA_USM_DEVICE; k <= UA_USM_HOST; k++) {
        ua_pool_drain(&c->pools[k], pool_host_memory(c, k),
                      free_pooled);
    }
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
