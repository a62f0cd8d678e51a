/* USM allocations: blocks from the pool (pool.c), recorded in the registry
 * for as long as they live, and regions of others' host memory borrowed. */
#include <stdint.h>
#include <stdlib.h>

#include "core/devices/devices.h"
#include "core/memory/pool.h"
#include "core/memory/registry.h"

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
    ua_allocation *a;
    ua_status st = ua_pool_allocate(q, kind, nbytes, alignment, &a);
    if (st == UA_OK && (st = record(a)) != UA_OK) {
        ua_pool_release(a);
    }
    if (st == UA_OK) {
        *out = a;
    }
    return st;
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
    *a = (ua_allocation){.ptr = ptr,
                         .block = ptr,
                         .nbytes = nbytes,
                         .kind = kind,
                         .borrowed = true,
                         .queue = q,
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
    if (a->borrowed) {
        free(a);
    } else {
        ua_pool_release(a);
    }
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
