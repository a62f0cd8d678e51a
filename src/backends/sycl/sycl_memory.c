/* The SYCL backend's memory provider: USM of each kind through dpctl's
 * allocation functions, on a queue of the context's own; a CPU device's
 * large blocks on huge pages, since its memory is this process's. */
#include <pthread.h>
#include <stdatomic.h>

#include "backends/sycl/sycl_backend.h"
#include "core/memory/huge_pages.h"

/* Alignment USM allocations of the SYCL runtimes are given at least. */
#define SYCL_DEFAULT_ALIGNMENT 64

/* dpctl allocates with a queue; a context's memory needs one of its own
 * for that, made once per device. */
static DPCTLSyclQueueRef
allocation_queue(sycl_context *c, int index)
{
    static DPCTLSyclQueueRef queues[SYCL_MAX_DEVICES];
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    if (queues[index] == NULL) {
        queues[index] = ua_dpctl.Queue_Create(c->ctx, ua_sycl_devices[index],
                                              NULL, DPCTL_IN_ORDER);
    }
    DPCTLSyclQueueRef q = queues[index];
    pthread_mutex_unlock(&lock);
    return q;
}

/* USM of `kind` aligned to `alignment`, or NULL. */
static void *
allocate(DPCTLSyclQueueRef q, ua_usm_kind kind, size_t nbytes,
         size_t alignment)
{
    switch (kind) {
    case UA_USM_SHARED:
        return ua_dpctl.aligned_alloc_shared(alignment, nbytes, q);
    case UA_USM_HOST:
        return ua_dpctl.aligned_alloc_host(alignment, nbytes, q);
    default:
        return ua_dpctl.aligned_alloc_device(alignment, nbytes, q);
    }
}

/* Whether device `index` is a CPU device, asked of the runtime once. */
static bool
is_cpu_device(int index)
{
    static _Atomic signed char known[SYCL_MAX_DEVICES]; /* 0, 1 no, 2 yes */
    signed char k = known[index];
    if (k == 0) {
        k = ua_dpctl.Device_GetDeviceType(ua_sycl_devices[index]) == DPCTL_CPU
                ? 2
                : 1;
        known[index] = k;
    }
    return k == 2;
}

static ua_status
sycl_alloc(void *context, int index, void *queue, ua_usm_kind kind,
           size_t nbytes, size_t alignment, void **ptr)
{
    (void)queue; /* allocations are the context's, through its own queue */
    DPCTLSyclQueueRef q = allocation_queue(context, index);
    if (q == NULL) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime could not create a queue for "
                            "device %d",
                            index);
    }
    if (alignment < SYCL_DEFAULT_ALIGNMENT) {
        alignment = SYCL_DEFAULT_ALIGNMENT;
    }
    /* A CPU device's memory is this process's: large blocks on pages and
     * huge pages, as the host backend's, so that its loops on them run as
     * fast.  Only a hint: a runtime that refuses that alignment gives the
     * block at the one asked for. */
    size_t paged = is_cpu_device(index)
                       ? ua_huge_page_alignment(nbytes, alignment)
                       : alignment;
    *ptr = allocate(q, kind, nbytes, paged);
    if (*ptr == NULL && paged != alignment) {
        paged = alignment;
        *ptr = allocate(q, kind, nbytes, alignment);
    }
    if (*ptr == NULL) {
        return ua_error_set(UA_ERR_ALLOC,
                            "the SYCL runtime could not allocate %zu bytes "
                            "of USM %s memory aligned to %zu",
                            nbytes, ua_usm_kind_name(kind), alignment);
    }
    if (paged != alignment) {
        ua_advise_huge_pages(*ptr, nbytes);
    }
    return UA_OK;
}

static void
sycl_free(void *context, void *queue, ua_usm_kind kind, void *ptr,
          size_t nbytes)
{
    (void)queue;
    (void)kind;
    (void)nbytes;
    ua_dpctl.free_with_context(ptr, ((sycl_context *)context)->ctx);
}

const ua_memory_provider ua_sycl_memory = {
    .name = "SYCL USM",
    .alloc = sycl_alloc,
    .free = sycl_free,
    /* aligned_alloc_* take any power of two. */
    .max_alignment = SIZE_MAX,
};
