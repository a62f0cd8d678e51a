/* What the host's sort (host_sort.c) and its long rows' sort
 * (host_sort_long.c) share: the forms of the element types' keys and the
 * sizes that pick the long rows' path. */
#ifndef USMARRAY_BACKENDS_HOST_HOST_SORT_H
#define USMARRAY_BACKENDS_HOST_HOST_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/host/host_sort_keys.h"

enum { SHORT_ROW = 64, RADIX = 256 };

/* Long rows (sort_long, below): those whose keys and their copy pass
 * CACHE_BYTES, a core's second-level cache. */
enum {
    CACHE_BYTES = 2 << 20,
    TOP_BITS = 11,
    TOP_RADIX = 1 << TOP_BITS,
    MAX_PARTS = 16,
    GROUPS = 32
};

typedef size_t histogram[RADIX];

/* The range of a row's keys, and whether any key loses its value. */
typedef struct key_range {
    uint64_t lo, hi;
    bool loses;
} key_range;

/* Per element form (host_sort.c's DEFINE_* macros): see there. */
typedef struct form {
    key_range (*range)(const char *, ptrdiff_t, uint64_t);
    void (*fill32)(const char *, ptrdiff_t, uint64_t, uint64_t, int,
                   uint32_t *, histogram *);
    void (*fill64)(const char *, ptrdiff_t, uint64_t, uint64_t, int,
                   uint64_t *, histogram *);
    void (*unkey32)(const uint32_t *, ptrdiff_t, uint64_t, uint64_t, char *,
                    const char *);
    void (*unkey64)(const uint64_t *, ptrdiff_t, uint64_t, uint64_t, char *,
                    const char *);
    void (*top32)(const char *, ptrdiff_t, uint64_t, uint64_t, int, uint32_t *,
                  size_t *);
    void (*top64)(const char *, ptrdiff_t, uint64_t, uint64_t, int, uint64_t *,
                  size_t *);
} form;

/* A histogram of `radix` counts into each bucket's first place. */
static inline void
bucket_starts(size_t *c, size_t radix)
{
    size_t sum = 0;
    for (size_t b = 0; b < radix; b++) {
        size_t count = c[b];
        c[b] = sum;
        sum += count;
    }
}

/* A long row's values sorted: split into buckets by its top digit over
 * the threads, each bucket sorted on in cache; keys and tmp hold 8 bytes
 * an element.  lost, where not NULL, holds the values whose keys lose
 * them (host_sort.c's keep_lost).  false where there is no memory for the
 * plan: the caller sorts the row the plain way. */
bool ua_host_sort_long(char *data, ptrdiff_t n, int w, const form *f,
                       uint64_t flip, key_range r, int bits, void *keys,
                       void *tmp, const char *lost);

/* Small groups of keys (host_sort_small.c): by sorting networks where
 * the CPU has AVX-512, as many keys as NETWORK_REGS registers hold (the
 * larger the groups, the fewer splits before them: eight registers beat
 * two and four), else by insertion, of up to INSERTION_KEYS keys. */
enum {
    INSERTION_KEYS = 32,
    NETWORK_REGS = 8,
    NETWORK_KEYS32 = 16 * NETWORK_REGS,
    NETWORK_KEYS64 = 8 * NETWORK_REGS
};

ptrdiff_t ua_host_small_keys(int key_bytes);

/* The n keys of s sorted into d, which may be s itself; equal keys need
 * not keep their order.  n is at most ua_host_small_keys' count. */
void ua_host_sort_small32(const uint32_t *s, uint32_t *d, ptrdiff_t n);
void ua_host_sort_small64(const uint64_t *s, uint64_t *d, ptrdiff_t n);

#endif
