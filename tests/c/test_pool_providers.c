/* The pool and the backends' memory providers, on a machine without GPUs:
 * this test links its own list of backends (in place of
 * src/backends/list.c), the host and a made-up GPU backend, "deep", whose
 * providers are malloc: a plain one, and a queue-ordered one that keeps
 * what is freed until it is trimmed, as CUDA's stream-ordered pool does.
 * Either provider runs out of memory on demand.  The pool must take large
 * device blocks of the default alignment from the ordered provider, all
 * others from the plain one, count both, trim the ordered provider when
 * it gives back its cache, and, when a provider has no room, give back
 * what it caches and ask once more. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "backends/host/host_kernels.h"
#include "core/backend.h"
#include "core/memory/pool_cache.h"

/* ------------------------------------------------- the made-up provider */

/* What a provider was asked, and the allocations it refuses next, as a
 * device out of memory would. */
typedef struct {
    int allocs, frees, refusals;
    void *last_queue;
    size_t last_free_bytes;
} provider_log;

static provider_log plain_log, ordered_log;

static ua_status
refuse(provider_log *log, void **ptr)
{
    log->refusals--;
    *ptr = NULL;
    return ua_error_set(UA_ERR_ALLOC, "the made-up device is full");
}

static ua_status
plain_alloc(void *context, int index, void *queue, ua_usm_kind kind,
            size_t nbytes, size_t alignment, void **ptr)
{
    (void)context, (void)index, (void)kind, (void)alignment;
    if (plain_log.refusals > 0) {
        return refuse(&plain_log, ptr);
    }
    plain_log.allocs++;
    plain_log.last_queue = queue;
    *ptr = malloc(nbytes);
    return *ptr ? UA_OK : ua_error_set(UA_ERR_ALLOC, "out of memory");
}

static void
plain_free(void *context, void *queue, ua_usm_kind kind, void *ptr,
           size_t nbytes)
{
    (void)context, (void)queue, (void)kind;
    plain_log.frees++;
    plain_log.last_free_bytes = nbytes;
    free(ptr);
}

static const ua_memory_provider plain_memory = {
    .name = "malloc",
    .alloc = plain_alloc,
    .free = plain_free,
    .max_alignment = 16,
};

/* The ordered provider keeps freed blocks, one at a time, until trim. */
static void *kept;
static size_t kept_bytes, live_ordered_bytes;
static int trims;

static ua_status
ordered_alloc(void *context, int index, void *queue, ua_usm_kind kind,
              size_t nbytes, size_t alignment, void **ptr)
{
    (void)context, (void)index;
    CHECK(kind == UA_USM_DEVICE && alignment == 0);
    if (ordered_log.refusals > 0) {
        return refuse(&ordered_log, ptr);
    }
    ordered_log.allocs++;
    ordered_log.last_queue = queue;
    *ptr = malloc(nbytes);
    if (*ptr == NULL) {
        return ua_error_set(UA_ERR_ALLOC, "out of memory");
    }
    live_ordered_bytes += nbytes;
    return UA_OK;
}

static void
ordered_trim(void *context)
{
    (void)context;
    trims++;
    free(kept);
    kept = NULL;
    kept_bytes = 0;
}

static void
ordered_free(void *context, void *queue, ua_usm_kind kind, void *ptr,
             size_t nbytes)
{
    (void)context, (void)kind;
    CHECK(queue == ordered_log.last_queue);
    ordered_log.frees++;
    ordered_log.last_free_bytes = nbytes;
    live_ordered_bytes -= nbytes;
    free(kept);
    kept = ptr;
    kept_bytes = nbytes;
}

static size_t
ordered_held_bytes(void *context)
{
    (void)context;
    return live_ordered_bytes + kept_bytes;
}

static const ua_memory_provider ordered_memory = {
    .name = "a made-up ordered pool",
    .queue_ordered = true,
    .alloc = ordered_alloc,
    .free = ordered_free,
    .trim = ordered_trim,
    .held_bytes = ordered_held_bytes,
    .max_alignment = 16,
};

/* ---------------------------------------------------- the made-up GPU */

static int queue_token;

static ua_status
deep_initialize(void)
{
    return UA_OK;
}

static int
deep_device_count(void)
{
    return 1;
}

static ua_status
deep_describe(int index, ua_device_type *type, char *name, size_t len)
{
    *type = UA_DEVICE_GPU;
    snprintf(name, len, "made-up GPU %d", index);
    return UA_OK;
}

static ua_status
deep_context_create(int index, void **context)
{
    *context = (void *)(intptr_t)(index + 1);
    return UA_OK;
}

static ua_status
deep_queue_create(void *context, int index, const ua_queue_props *props,
                  void **queue)
{
    (void)context, (void)index, (void)props;
    *queue = &queue_token;
    return UA_OK;
}

static void
deep_queue_destroy(void *queue)
{
    (void)queue;
}

static void *
deep_native_handle(void *queue)
{
    return queue;
}

static ua_status
deep_memcpy(void *queue, void *dst, const void *src, size_t n)
{
    (void)queue;
    memmove(dst, src, n);
    return UA_OK;
}

static ua_status
deep_memset(void *queue, void *dst, unsigned char value, size_t n)
{
    (void)queue;
    memset(dst, value, n);
    return UA_OK;
}

static ua_status
deep_wait(void *queue)
{
    (void)queue;
    return UA_OK;
}

static ua_status
deep_copy_strided(void *queue, int nd, const ptrdiff_t *shape,
                  const ua_strided *dst, const ua_strided *src)
{
    (void)queue;
    return ua_copy_strided_host(nd, shape, dst, src);
}

static ua_status
deep_event_record(void *queue, void **event)
{
    *event = queue;
    return UA_OK;
}

static ua_status
deep_event_wait(void *queue, void *event)
{
    (void)queue, (void)event;
    return UA_OK;
}

static ua_status
deep_event_synchronize(void *event)
{
    (void)event;
    return UA_OK;
}

static void
deep_event_destroy(void *event)
{
    (void)event;
}

static ua_dl_device
deep_dlpack_device(int index, ua_usm_kind kind)
{
    (void)kind;
    return (ua_dl_device){UA_DL_CUDA, index};
}

static bool
deep_dlpack_owns(ua_dl_device dl, int *index, ua_usm_kind *kind)
{
    (void)dl, (void)index, (void)kind;
    return false;
}

static const ua_backend_ops deep_ops = {
    .version = UA_BACKEND_OPS_VERSION,
    .name = "deep",
    .initialize = deep_initialize,
    .device_count = deep_device_count,
    .device_describe = deep_describe,
    .context_create = deep_context_create,
    .queue_create = deep_queue_create,
    .queue_destroy = deep_queue_destroy,
    .queue_native_handle = deep_native_handle,
    .memory = &plain_memory,
    .compute = &ua_host_compute_ops,
    .memcpy = deep_memcpy,
    .memset = deep_memset,
    .queue_wait = deep_wait,
    .copy_strided = deep_copy_strided,
    .event_record = deep_event_record,
    .event_wait = deep_event_wait,
    .event_synchronize = deep_event_synchronize,
    .event_destroy = deep_event_destroy,
    .dlpack_device = deep_dlpack_device,
    .dlpack_owns = deep_dlpack_owns,
    .ordered_memory = &ordered_memory,
};

/* The list this executable is built with. */
extern const ua_backend_ops ua_host_backend_ops;
static const ua_backend_ops *const list[] = {&ua_host_backend_ops, &deep_ops};

const ua_backend_ops *const *
ua_backends_of_build(size_t *count)
{
    *count = sizeof(list) / sizeof(list[0]);
    return list;
}

/* ---------------------------------------------------------------- tests */

/* Larger than any class of the core's cache. */
#define LARGE (UA_POOL_MAX_BLOCK + 4096)

static ua_queue *
deep_queue(void)
{
    ua_device *d = NULL;
    ua_context *c = NULL;
    ua_queue *q = NULL;
    CHECK_STATUS(ua_device_select("deep:gpu:0", &d), UA_OK);
    CHECK_STATUS(ua_device_default_context(d, &c), UA_OK);
    CHECK_STATUS(ua_context_default_queue(c, &q), UA_OK);
    return q;
}

static void
reset_logs(void)
{
    plain_log = (provider_log){0};
    ordered_log = (provider_log){0};
    trims = 0;
}

/* Large device blocks of the default alignment: the ordered provider, on
 * the queue, with its bytes in held_nbytes until trimmed. */
static void
test_large_device_blocks_come_from_the_ordered_provider(ua_queue *q)
{
    ua_context *c = ua_queue_context(q);
    ua_allocation *a = NULL;
    reset_logs();
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, LARGE, 0, &a), UA_OK);
    CHECK(ordered_log.allocs == 1 && plain_log.allocs == 0);
    CHECK(ordered_log.last_queue == &queue_token);
    CHECK(ua_context_used_bytes(c, UA_USM_DEVICE) == LARGE);
    CHECK(ua_context_held_bytes(c, UA_USM_DEVICE) == LARGE);
    ua_usm_free(a);
    CHECK(ordered_log.frees == 1 && ordered_log.last_free_bytes == LARGE);
    CHECK(ua_context_used_bytes(c, UA_USM_DEVICE) == 0);
    /* What the provider keeps is held, not cached by the core. */
    CHECK(ua_context_pooled_bytes(c) == 0);
    CHECK(ua_context_held_bytes(c, UA_USM_DEVICE) == LARGE);
    ua_context_release_pool(c);
    CHECK(trims == 1);
    CHECK(ua_context_held_bytes(c, UA_USM_DEVICE) == 0);
}

/* Small device blocks, other kinds and explicit alignments: the plain
 * provider. */
static void
test_other_blocks_come_from_the_plain_provider(ua_queue *q)
{
    ua_context *c = ua_queue_context(q);
    ua_allocation *a = NULL;
    reset_logs();
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, 4096, 0, &a), UA_OK);
    ua_usm_free(a);
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_HOST, LARGE, 0, &a), UA_OK);
    ua_usm_free(a);
    CHECK(plain_log.frees == 1 && plain_log.last_free_bytes == LARGE);
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, LARGE, 16, &a), UA_OK);
    ua_usm_free(a);
    CHECK(plain_log.allocs == 3 && ordered_log.allocs == 0);
    ua_context_release_pool(c);
}

/* The ordered provider has no room while the core caches a block and
 * the provider keeps one: both are given back, and the second ask
 * succeeds. */
static void
test_ordered_allocation_retried_after_giving_back(ua_queue *q)
{
    ua_context *c = ua_queue_context(q);
    ua_allocation *a = NULL, *small = NULL;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, 4096, 0, &small), UA_OK);
    ua_usm_free(small);
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, LARGE, 0, &a), UA_OK);
    ua_usm_free(a);
    CHECK(ua_context_pooled_bytes(c) == 4096 && kept != NULL);
    reset_logs();
    ordered_log.refusals = 1;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, LARGE, 0, &a), UA_OK);
    CHECK(ordered_log.refusals == 0 && ordered_log.allocs == 1);
    CHECK(trims == 1 && kept == NULL);
    CHECK(plain_log.frees == 1 && ua_context_pooled_bytes(c) == 0);
    ua_usm_free(a);
    ua_context_release_pool(c);
}

/* Still no room after giving back: UA_ERR_ALLOC with the provider's words
 * and what was given back, and nothing left counted. */
static void
test_ordered_allocation_fails_when_the_retry_fails(ua_queue *q)
{
    ua_context *c = ua_queue_context(q);
    ua_allocation *a = NULL, *small = NULL;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, 4096, 0, &small), UA_OK);
    ua_usm_free(small);
    reset_logs();
    ordered_log.refusals = 2;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, LARGE, 0, &a), UA_ERR_ALLOC);
    CHECK(a == NULL && ordered_log.refusals == 0);
    CHECK(strstr(ua_error_message(), "the made-up device is full") != NULL);
    CHECK(strstr(ua_error_message(), "after giving back the 4096 bytes") !=
          NULL);
    CHECK(ua_context_used_bytes(c, UA_USM_DEVICE) == 0);
    CHECK(ua_context_pooled_bytes(c) == 0);
    ua_error_clear();
}

/* An over-aligned block (padded by the core) from a plain provider with
 * no room: retried after the cache is given back; when the retry fails
 * too, the message says why the block was larger than asked. */
static void
test_over_aligned_allocation_retried(ua_queue *q)
{
    ua_context *c = ua_queue_context(q);
    ua_allocation *a = NULL, *small = NULL;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_SHARED, 512, 0, &small), UA_OK);
    ua_usm_free(small);
    reset_logs();
    plain_log.refusals = 1;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_SHARED, 1000, 4096, &a), UA_OK);
    CHECK((uintptr_t)ua_allocation_ptr(a) % 4096 == 0);
    CHECK(plain_log.refusals == 0 && plain_log.frees == 1);
    CHECK(ua_context_pooled_bytes(c) == 0);
    ua_usm_free(a);
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_SHARED, 512, 0, &small), UA_OK);
    ua_usm_free(small);
    plain_log.refusals = 2;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_SHARED, 1000, 4096, &a), UA_ERR_ALLOC);
    CHECK(plain_log.refusals == 0);
    CHECK(strstr(ua_error_message(), "aligned to 4096") != NULL);
    CHECK(strstr(ua_error_message(), "the made-up device is full") != NULL);
    CHECK(ua_context_used_bytes(c, UA_USM_SHARED) == 0);
    ua_error_clear();
}

int
main(void)
{
    ua_queue *q = deep_queue();
    CHECK(q != NULL);
    test_large_device_blocks_come_from_the_ordered_provider(q);
    test_other_blocks_come_from_the_plain_provider(q);
    test_ordered_allocation_retried_after_giving_back(q);
    test_ordered_allocation_fails_when_the_retry_fails(q);
    test_over_aligned_allocation_retried(q);
    ua_context_release_pool(ua_queue_context(q));
    return check_report("test_pool_providers");
}
