/* The pool of freed allocations: size classes, reuse, what bypasses it,
 * and giving blocks back. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "core/memory/pool_cache.h"

static ua_queue *
host_queue(void)
{
    ua_device *d;
    ua_context *c;
    ua_queue *q;
    if (ua_device_select("host", &d) != UA_OK ||
        ua_device_default_context(d, &c) != UA_OK ||
        ua_context_default_queue(c, &q) != UA_OK) {
        return NULL;
    }
    return q;
}

static void
test_classes(void)
{
    size_t prev = 0, bytes;
    int prev_class = -1;
    for (size_t n = 1; n <= ((size_t)1 << 22); n += 1 + n / 7) {
        int cls = ua_pool_class(n, &bytes);
        CHECK(cls >= 0 && cls < UA_POOL_CLASSES);
        CHECK(bytes >= n);
        /* A block wastes at most a quarter of its request beyond 512 B. */
        CHECK(n <= 512 || bytes - n <= n / 4);
        CHECK(cls >= prev_class && bytes >= prev);
        /* Every size of a class gets the same block size. */
        size_t again;
        CHECK(ua_pool_class(bytes, &again) == cls && again == bytes);
        prev_class = cls;
        prev = bytes;
    }
    CHECK(ua_pool_class(UA_POOL_MAX_BLOCK, &bytes) == UA_POOL_CLASSES - 1);
    CHECK(ua_pool_class(UA_POOL_MAX_BLOCK + 1, &bytes) == -1);
}

static void
test_reuse(ua_queue *q)
{
    ua_context *c = ua_queue_context(q);
    ua_context_release_pool(c);
    ua_allocation *a, *b;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, 1000, 0, &a), UA_OK);
    void *p = ua_allocation_ptr(a);
    ua_usm_free(a);
    CHECK(ua_context_pooled_bytes(c) >= 1000);
    /* Freed: a pointer query no longer finds it. */
    ua_pointer_info info;
    CHECK(!ua_pointer_query((uintptr_t)p, &info));
    /* Another size of the same class, same kind: the same block. */
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, 990, 0, &b), UA_OK);
    CHECK(ua_allocation_ptr(b) == p);
    CHECK(ua_allocation_size(b) == 990);
    CHECK(ua_context_pooled_bytes(c) == 0);
    CHECK(ua_pointer_query((uintptr_t)p + 989, &info) && info.nbytes == 990);
    ua_usm_free(b);
    /* Another kind never gets it. */
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_SHARED, 1000, 0, &b), UA_OK);
    CHECK(ua_allocation_ptr(b) != p);
    ua_usm_free(b);
    ua_context_release_pool(c);
    CHECK(ua_context_pooled_bytes(c) == 0);
}

static void
test_bypass(ua_queue *q)
{
    ua_context *c = ua_queue_context(q);
    ua_context_release_pool(c);
    ua_allocation *a;
    /* An explicit alignment is honoured by the backend, never the pool. */
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_HOST, 4096, 4096, &a), UA_OK);
    CHECK((uintptr_t)ua_allocation_ptr(a) % 4096 == 0);
    ua_usm_free(a);
    CHECK(ua_context_pooled_bytes(c) == 0);
    /* Too large to pool. */
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_HOST, UA_POOL_MAX_BLOCK + 1, 0, &a),
                 UA_OK);
    ua_usm_free(a);
    CHECK(ua_context_pooled_bytes(c) == 0);
}

static void
test_limits(ua_queue *q)
{
    ua_context *c = ua_queue_context(q);
    ua_context_release_pool(c);
    enum { N = UA_POOL_BIN_DEPTH + 4 };
    ua_allocation *a[N];
    for (int i = 0; i < N; i++) {
        CHECK_STATUS(ua_usm_alloc(q, UA_USM_HOST, 64, 0, &a[i]), UA_OK);
    }
    for (int i = 0; i < N; i++) {
        ua_usm_free(a[i]);
    }
    /* A bin keeps at most its depth; the rest went back to the backend. */
    CHECK(ua_context_pooled_bytes(c) == UA_POOL_BIN_DEPTH * 512);
    /* The bytes kept per kind stay under the limit. */
    size_t big = UA_POOL_MAX_BLOCK;
    int count = (int)(UA_POOL_LIMIT / big) + 2;
    ua_allocation *b[16];
    for (int i = 0; i < count; i++) {
        CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, big, 0, &b[i]), UA_OK);
    }
    for (int i = 0; i < count; i++) {
        ua_usm_free(b[i]);
    }
    CHECK(ua_context_pooled_bytes(c) <=
          UA_POOL_LIMIT + UA_POOL_BIN_DEPTH * 512);
    ua_context_release_pool(c);
    CHECK(ua_context_pooled_bytes(c) == 0);
}

static void *
drain(void *context)
{
    ua_context_release_pool(context);
    return NULL;
}

/* A queue destroyed while another thread drains the pool of blocks it
 * last used: the drain waits on each block's queue outside the pool's
 * lock, so the destroy must wait for those waits (ASan reports a use of
 * the freed queue otherwise, when the two meet). */
static void
test_drain_beside_queue_destroy(ua_queue *dflt)
{
    ua_context *c = ua_queue_context(dflt);
    ua_queue_props props = {.in_order = true};
    int made = 0;
    for (int round = 0; round < 200; round++) {
        ua_queue *q;
        if (ua_queue_create(c, &props, &q) != UA_OK) {
            continue;
        }
        made++;
        ua_allocation *a[8] = {NULL};
        for (int i = 0; i < 8; i++) {
            CHECK_STATUS(ua_usm_alloc(q, UA_USM_HOST, 256, 0, &a[i]), UA_OK);
        }
        for (int i = 0; i < 8; i++) {
            ua_usm_free(a[i]);
        }
        pthread_t t;
        pthread_create(&t, NULL, drain, c);
        ua_queue_destroy(q);
        pthread_join(t, NULL);
    }
    CHECK(made == 200);
    CHECK(ua_context_pooled_bytes(c) == 0);
    CHECK(ua_context_used_bytes(c, UA_USM_HOST) == 0);
}

int
main(void)
{
    ua_queue *q = host_queue();
    CHECK(q != NULL);
    test_classes();
    test_reuse(q);
    test_bypass(q);
    test_limits(q);
    test_drain_beside_queue_destroy(q);
    ua_context_release_pool(ua_queue_context(q));
    return check_report("test_pool");
}
