#include "core/memory/huge_pages.h"

#include <stdint.h>
#include <sys/mman.h>

#define HUGE_PAGE UA_HUGE_PAGE
/* Blocks from this size on: smaller ones would waste most of a page. */
#define HUGE_PAGE_BYTES ((size_t)4 << 20)
/* Blocks from this size on start on a page (4 KiB). */
#define PAGE ((size_t)4096)
#define PAGE_BYTES ((size_t)64 << 10)

size_t
ua_huge_page_alignment(size_t nbytes, size_t alignment)
{
    size_t page = nbytes >= HUGE_PAGE_BYTES ? HUGE_PAGE
                  : nbytes >= PAGE_BYTES    ? PAGE
                                            : alignment;
    return alignment < page ? page : alignment;
}

void
ua_advise_huge_pages(void *ptr, size_t nbytes)
{
#ifdef MADV_HUGEPAGE
    if (ptr == NULL || nbytes < HUGE_PAGE_BYTES) {
        return;
    }
    uintptr_t begin = ((uintptr_t)ptr + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t end = ((uintptr_t)ptr + nbytes) & ~(HUGE_PAGE - 1);
    if (end > begin) {
        /* advice only: a kernel that refuses it leaves the pages small */
        (void)madvise((void *)begin, end - begin, MADV_HUGEPAGE);
    }
#else
    (void)ptr;
    (void)nbytes;
#endif
}
