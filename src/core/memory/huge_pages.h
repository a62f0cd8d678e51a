/* Large blocks of process memory on pages and on the kernel's transparent
 * huge pages, as NumPy puts its large arrays: the host backend's memory,
 * and a SYCL CPU device's, which is this process's memory too. */
#ifndef USMARRAY_CORE_MEMORY_HUGE_PAGES_H
#define USMARRAY_CORE_MEMORY_HUGE_PAGES_H

#include <stddef.h>

/* The huge page of x86-64 and arm64's usual granule. */
#define UA_HUGE_PAGE ((size_t)2 << 20)

/* The alignment to ask of an allocator for nbytes: a huge page's, from
 * the size on which blocks are advised onto them; a page's from 64 KiB on,
 * so that two arrays' elements of one index share their offset in a page
 * (a result 64-256 bytes past its operand in a page made a loop's loads
 * wait on its stores to the same offset: bool logical_and of 1e6 values
 * at 0.84 of NumPy's speed, 1.04 on pages); else `alignment`. */
size_t ua_huge_page_alignment(size_t nbytes, size_t alignment);

/* Advises the whole huge pages of a block that large onto huge pages (a
 * smaller one, or a system without the advice, is left as it is).  Large
 * buffers on huge pages fault in 512 times less often, and walk the TLB
 * less: a SYCL CPU device's sum of 16 Mi float32 took 1.2 times the
 * host's without them. */
void ua_advise_huge_pages(void *ptr, size_t nbytes);

#endif
