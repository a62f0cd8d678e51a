#include <pthread.h>
#include <stdlib.h>

#include "check.h"
#include "core/memory/registry.h"

static ua_pointer_info
entry(uintptr_t start, size_t n, bool borrowed)
{
    return (ua_pointer_info){.start = start,
                             .nbytes = n,
                             .kind = UA_USM_HOST,
                             .borrowed = borrowed};
}

static void
test_lookup(void)
{
    size_t base = ua_registry_size();
    ua_pointer_info a = entry(0x10000, 0x100, false);
    ua_pointer_info b = entry(0x10100, 0x100, false);
    ua_pointer_info out;
    CHECK_STATUS(ua_registry_insert(&b), UA_OK);
    CHECK_STATUS(ua_registry_insert(&a), UA_OK);
    CHECK(ua_registry_size() == base + 2);
    CHECK(ua_registry_find_range(0x10000, 1, &out) && out.start == 0x10000);
    CHECK(ua_registry_find_range(0x100ff, 1, &out) && out.start == 0x10000);
    CHECK(ua_registry_find_range(0x10100, 1, &out) && out.start == 0x10100);
    CHECK(ua_registry_find_range(0x10000, 0x100, &out));
    CHECK(!ua_registry_find_range(0x10080, 0x100, &out)); /* spans two */
    CHECK(!ua_registry_find_range(0xffff, 1, &out));
    CHECK(!ua_registry_find_range(0x10200, 1, &out));
    /* An empty range may sit at the end, as an end pointer does. */
    CHECK(ua_registry_find_range(0x10200, 0, &out) && out.start == 0x10100);
    ua_registry_remove(0x10000, 0x100, false);
    CHECK(!ua_registry_find_range(0x10010, 1, &out));
    CHECK(ua_registry_find_range(0x10110, 1, &out));
    ua_registry_remove(0x10100, 0x100, false);
    CHECK(ua_registry_size() == base);
}

static void
test_overlapping_borrowed(void)
{
    /* Two borrowed views of one buffer: the outer one must still be found
     * for a range the inner one does not cover. */
    ua_pointer_info outer = entry(0x20000, 0x1000, true);
    ua_pointer_info inner = entry(0x20800, 0x10, true);
    ua_pointer_info out;
    CHECK_STATUS(ua_registry_insert(&outer), UA_OK);
    CHECK_STATUS(ua_registry_insert(&inner), UA_OK);
    CHECK(ua_registry_find_range(0x20900, 0x10, &out) && out.start == 0x20000);
    CHECK(ua_registry_find_range(0x20800, 0x10, &out));
    ua_registry_remove(0x20000, 0x1000, true);
    ua_registry_remove(0x20800, 0x10, true);
    CHECK(!ua_registry_find_range(0x20900, 1, &out));
}

/* A region borrowed over another, empty or small, never hides the one
 * around it; the library's own allocation wins over any borrowed one. */
static void
test_the_real_allocation_is_found_first(void)
{
    ua_pointer_info own = entry(0x30000, 0x100, false);
    ua_pointer_info empty = entry(0x30000, 0, true);
    ua_pointer_info part = entry(0x30010, 0x20, true);
    ua_pointer_info out;
    CHECK_STATUS(ua_registry_insert(&own), UA_OK);
    CHECK_STATUS(ua_registry_insert(&empty), UA_OK);
    CHECK_STATUS(ua_registry_insert(&part), UA_OK);
    CHECK(ua_registry_find_range(0x30000, 0, &out) && !out.borrowed &&
          out.nbytes == 0x100);
    CHECK(ua_registry_find_range(0x30010, 0x10, &out) && !out.borrowed);
    CHECK(ua_registry_overlaps_owned(0x30000, 0));
    CHECK(ua_registry_overlaps_owned(0x2fff0, 0x20));
    CHECK(ua_registry_overlaps_owned(0x300ff, 0x10));
    CHECK(!ua_registry_overlaps_owned(0x30100, 0x10));
    CHECK(!ua_registry_overlaps_owned(0x2ff00, 0x100));
    ua_registry_remove(0x30000, 0x100, false);
    /* Among borrowed regions only, the largest holding the range. */
    ua_pointer_info outer = entry(0x30000, 0x100, true);
    CHECK_STATUS(ua_registry_insert(&outer), UA_OK);
    CHECK(ua_registry_find_range(0x30000, 0, &out) && out.nbytes == 0x100);
    CHECK(!ua_registry_overlaps_owned(0x30000, 0x100));
    ua_registry_remove(0x30000, 0x100, true);
    ua_registry_remove(0x30000, 0, true);
    ua_registry_remove(0x30010, 0x20, true);
}

enum { THREADS = 8, ROUNDS = 2000 };

static void *
churn(void *arg)
{
    ua_queue *q = arg;
    ua_allocation *live[16] = {0};
    long bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        int slot = r % 16;
        if (live[slot] != NULL) {
            ua_pointer_info info;
            uintptr_t p = (uintptr_t)ua_allocation_ptr(live[slot]);
            bad += !ua_pointer_query(p + 3, &info) || info.start != p;
            ua_usm_free(live[slot]);
            live[slot] = NULL;
        }
        if (ua_usm_alloc(q, UA_USM_SHARED, (size_t)(16 + r % 512), 0,
                         &live[slot]) != UA_OK) {
            bad++;
        }
    }
    for (int i = 0; i < 16; i++) {
        ua_usm_free(live[i]);
    }
    return (void *)bad;
}

static void
test_concurrent_use(void)
{
    ua_device *d;
    ua_context *c;
    ua_queue *q;
    CHECK_STATUS(ua_device_select("host", &d), UA_OK);
    CHECK_STATUS(ua_device_default_context(d, &c), UA_OK);
    CHECK_STATUS(ua_context_default_queue(c, &q), UA_OK);
    size_t base = ua_registry_size();
    size_t used = ua_context_used_bytes(c, UA_USM_SHARED);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        pthread_create(&t[i], NULL, churn, q);
    }
    long bad = 0;
    for (int i = 0; i < THREADS; i++) {
        void *r;
        pthread_join(t[i], &r);
        bad += (long)r;
    }
    CHECK(bad == 0);
    CHECK(ua_registry_size() == base); /* nothing lost, nothing left */
    /* The pool's lock also guards the count of live bytes. */
    CHECK(ua_context_used_bytes(c, UA_USM_SHARED) == used);
}

int
main(void)
{
    test_lookup();
    test_overlapping_borrowed();
    test_the_real_allocation_is_found_first();
    test_concurrent_use();
    return check_report("test_registry");
}
