#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "host_queue.h"
#include "core/core.h"
#include "core/memory/huge_pages.h"

static void
test_allocate_each_kind(ua_queue *q)
{
    for (int k = UA_USM_DEVICE; k <= UA_USM_HOST; k++) {
        ua_allocation *a;
        CHECK_STATUS(ua_usm_alloc(q, (ua_usm_kind)k, 1000, 0, &a), UA_OK);
        char *p = ua_allocation_ptr(a);
        CHECK((uintptr_t)p % 64 == 0);
        CHECK(ua_allocation_size(a) == 1000);
        CHECK(ua_allocation_kind(a) == (ua_usm_kind)k);
        ua_pointer_info info;
        CHECK(ua_pointer_query((uintptr_t)p + 999, &info));
        CHECK(info.kind == (ua_usm_kind)k && info.start == (uintptr_t)p);
        CHECK(info.nbytes == 1000 && !info.borrowed);
        CHECK(ua_pointer_query_range((uintptr_t)p, 1000, &info));
        CHECK(!ua_pointer_query_range((uintptr_t)p, 1001, &info));
        ua_usm_free(a);
        CHECK(!ua_pointer_query((uintptr_t)p + 10, &info) ||
              info.start != (uintptr_t)p);
    }
}

static void
test_alignment_and_bad_requests(ua_queue *q)
{
    ua_allocation *a;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_SHARED, 10, 4096, &a), UA_OK);
    CHECK((uintptr_t)ua_allocation_ptr(a) % 4096 == 0);
    ua_usm_free(a);
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_SHARED, 10, 24, &a), UA_ERR_VALUE);
    CHECK(strstr(ua_error_message(), "power of two") != NULL);
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_SHARED, 0, 0, &a), UA_ERR_VALUE);
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_UNKNOWN, 8, 0, &a), UA_ERR_VALUE);
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, SIZE_MAX / 2, 0, &a),
                 UA_ERR_ALLOC);
}

/* Alignments beyond the backend's own (2 MiB on the host) come from a
 * larger block: the allocation the library records is the aligned run of
 * exactly the bytes asked for, all of it usable, and freeing it frees the
 * block (ASan and valgrind would report a leak or a bad free). */
static void
test_alignment_beyond_the_backend(ua_queue *q)
{
    for (size_t shift = 21; shift <= 26; shift++) {
        size_t alignment = (size_t)1 << shift;
        for (int k = UA_USM_DEVICE; k <= UA_USM_HOST; k++) {
            ua_allocation *a;
            CHECK_STATUS(ua_usm_alloc(q, (ua_usm_kind)k, 1000, alignment, &a),
                         UA_OK);
            char *p = ua_allocation_ptr(a);
            CHECK((uintptr_t)p % alignment == 0);
            CHECK(ua_allocation_size(a) == 1000);
            memset(p, 0x5a, 1000);
            ua_pointer_info info;
            CHECK(ua_pointer_query_range((uintptr_t)p, 1000, &info));
            CHECK(info.start == (uintptr_t)p && info.nbytes == 1000);
            CHECK(info.kind == (ua_usm_kind)k);
            CHECK(!ua_pointer_query_range((uintptr_t)p, 1001, &info));
            ua_usm_free(a);
        }
    }
    ua_allocation *a;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_SHARED, 16, (size_t)1 << 63, &a),
                 UA_ERR_ALLOC);
}

static void
test_copy_and_fill(ua_queue *q)
{
    ua_allocation *dev, *host;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, 256, 0, &dev), UA_OK);
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_HOST, 256, 0, &host), UA_OK);
    unsigned char src[256], back[256];
    for (int i = 0; i < 256; i++) {
        src[i] = (unsigned char)(255 - i);
    }
    CHECK_STATUS(ua_copy_sync(q, ua_allocation_ptr(dev), src, 256), UA_OK);
    CHECK_STATUS(
        ua_copy_sync(q, ua_allocation_ptr(host), ua_allocation_ptr(dev), 256),
        UA_OK);
    CHECK_STATUS(ua_copy_sync(q, back, ua_allocation_ptr(host), 256), UA_OK);
    CHECK(memcmp(src, back, 256) == 0);
    CHECK_STATUS(ua_queue_memset(q, ua_allocation_ptr(host), 0x5a, 100),
                 UA_OK);
    CHECK_STATUS(ua_queue_wait(q), UA_OK);
    CHECK(((unsigned char *)ua_allocation_ptr(host))[99] == 0x5a);
    CHECK(((unsigned char *)ua_allocation_ptr(host))[100] == 255 - 100);
    /* Overlapping copies behave like memmove. */
    char *h = ua_allocation_ptr(host);
    CHECK_STATUS(ua_copy_sync(q, h + 1, h, 200), UA_OK);
    CHECK((unsigned char)h[100] == 0x5a);
    CHECK((unsigned char)h[150] == 255 - 149);
    ua_usm_free(dev);
    ua_usm_free(host);
}

static void
test_borrowed_memory(void)
{
    ua_device *d;
    ua_context *c;
    ua_device_select("host", &d);
    ua_device_default_context(d, &c);
    char *buf = malloc(128);
    ua_allocation *a;
    CHECK_STATUS(ua_usm_borrow(c, UA_USM_HOST, buf, 128, &a), UA_OK);
    ua_pointer_info info;
    CHECK(ua_pointer_query((uintptr_t)buf + 5, &info) && info.borrowed);
    ua_usm_free(a); /* forgets, does not free */
    CHECK(!ua_pointer_query((uintptr_t)buf + 5, &info));
    buf[0] = 1; /* still ours: valgrind and ASan would object otherwise */
    free(buf);
}

static void
test_locate_region(ua_queue *q)
{
    ua_allocation *a;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, 64, 0, &a), UA_OK);
    uintptr_t p = (uintptr_t)ua_allocation_ptr(a);
    ua_pointer_info info;
    ptrdiff_t b, e;
    /* f8 (4,) strides (-2,) offset 7 in 64 bytes: the document's example. */
    ptrdiff_t shape[] = {4}, strides[] = {-2};
    CHECK_STATUS(ua_locate_region(p, 1, shape, strides, 7, 8, &info, &b, &e),
                 UA_OK);
    CHECK(info.start == p && b == 8 && e == 64);
    CHECK_STATUS(ua_locate_region(p, 1, shape, strides, 8, 8, &info, &b, &e),
                 UA_ERR_VALUE);
    CHECK_STATUS(ua_locate_region(p, 1, shape, strides, 5, 8, &info, &b, &e),
                 UA_ERR_VALUE);
    /* From p + 8, offset 6 reaches bytes 8..63 of the allocation; offset 7
     * one element past its end; offset 0 six elements before its start. */
    CHECK_STATUS(
        ua_locate_region(p + 8, 1, shape, strides, 6, 8, &info, &b, &e),
        UA_OK);
    CHECK_STATUS(
        ua_locate_region(p + 8, 1, shape, strides, 7, 8, &info, &b, &e),
        UA_ERR_VALUE);
    CHECK_STATUS(
        ua_locate_region(p + 8, 1, shape, strides, 0, 8, &info, &b, &e),
        UA_ERR_VALUE);
    /* Unknown pointers and out-of-range shapes are refused. */
    CHECK_STATUS(ua_locate_region(16, 1, shape, strides, 7, 8, &info, &b, &e),
                 UA_ERR_VALUE);
    CHECK(strstr(ua_error_message(), "not inside") != NULL);
    ptrdiff_t neg[] = {-1};
    CHECK_STATUS(ua_locate_region(p, 1, neg, strides, 0, 8, &info, &b, &e),
                 UA_ERR_VALUE);
    ua_usm_free(a);
}

/* Blocks from 4 MiB on start on a 2 MiB boundary, where the kernel's
 * transparent huge pages can back them, and from 64 KiB on a page; the
 * advice takes any block, misaligned, small or NULL, without a fault (the
 * advice never changes the block's bytes: the check below is that the
 * block is still the program's to read). */
static void
test_large_blocks_on_huge_pages(ua_queue *q)
{
    CHECK(ua_huge_page_alignment(4 << 20, 64) == UA_HUGE_PAGE);
    CHECK(ua_huge_page_alignment((4 << 20) - 1, 64) == 4096);
    CHECK(ua_huge_page_alignment(64 << 10, 64) == 4096);
    CHECK(ua_huge_page_alignment((64 << 10) - 1, 64) == 64);
    CHECK(ua_huge_page_alignment(8 << 20, 8 << 20) == (8 << 20));
    size_t sizes[] = {(64 << 10) - 64, 64 << 10, (1 << 20) + 8,
                      (4 << 20) - 64,  4 << 20,  (4 << 20) + 64};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        ua_allocation *a;
        CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, n, 0, &a), UA_OK);
        uintptr_t p = (uintptr_t)ua_allocation_ptr(a);
        size_t page = n >= (4 << 20)    ? UA_HUGE_PAGE
                      : n >= (64 << 10) ? 4096
                                        : 64;
        CHECK(p % page == 0);
        ua_usm_free(a);
    }
    char *block = malloc((6 << 20) + 3);
    CHECK(block != NULL);
    if (block != NULL) {
        memset(block, 7, (6 << 20) + 3);
        ua_advise_huge_pages(block + 1, 6 << 20);
        ua_advise_huge_pages(block, 100);
        ua_advise_huge_pages(NULL, 8 << 20);
        CHECK(block[0] == 7 && block[(6 << 20) + 2] == 7);
        free(block);
    }
}

/* Native code gets no driver handle of a host queue, and no stream. */
static void
test_no_native_handle(ua_queue *q)
{
    CHECK(ua_queue_native_handle(q) == NULL);
    CHECK(ua_queue_stream_handle(q) == 0);
}

int
main(void)
{
    ua_queue *q = host_queue();
    CHECK(q != NULL);
    test_allocate_each_kind(q);
    test_alignment_and_bad_requests(q);
    test_alignment_beyond_the_backend(q);
    test_copy_and_fill(q);
    test_borrowed_memory();
    test_locate_region(q);
    test_no_native_handle(q);
    test_large_blocks_on_huge_pages(q);
    return check_report("test_host_backend");
}
