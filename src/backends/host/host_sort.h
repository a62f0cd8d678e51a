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
    /* 4-byte elements only (else NULL): the keys and their range; the
     * range, with the counts of the keys' top PREFIX_BITS. */
    key_range (*scan32)(const char *, ptrdiff_t, uint64_t, uint32_t *);
    key_range (*prefix32)(const char *, ptrdiff_t, uint64_t, uint32_t *);
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

/* A scatter's writes go to many places at once, each missing the cache:
 * the line after the one written is fetched ahead (a prefetch never
 * faults, so it may point past the keys). */
static inline void
fetch_ahead(const void *p)
{
    __builtin_prefetch((const void *)((uintptr_t)p + 64), 1);
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

/* Groups of 32-bit keys past the networks (host_sort_small.c): where the
 * CPU has AVX-512, by a quicksort whose steps are vectorized, of up to
 * ua_host_quick_keys() keys (0 elsewhere: the caller splits them on).
 * The n keys of a sorted into b where into_b, else into a; the other is
 * scratch. */
enum { QUICK_KEYS = 1 << 18 };

ptrdiff_t ua_host_quick_keys(void);
void ua_host_sort_quick32(uint32_t *a, uint32_t *b, ptrdiff_t n, bool into_b);

/* The n 32-bit keys of a, which differ in their low `bits` at most,
 * sorted in place as a long row's buckets are (host_sort_long.c), b
 * their scratch. */
void ua_host_sort_keys32(uint32_t *a, uint32_t *b, ptrdiff_t n, int bits);

/* Long rows of 4-byte elements where the CPU has AVX-512
 * (host_sort_long.c).  ua_host_prefix_count counts the keys' top
 * PREFIX_BITS and finds the row's range (into *r) on the way, or returns
 * NULL (another CPU, no memory), where the caller finds the range itself;
 * ua_host_prefix_sort then sorts the row (keys and tmp as
 * ua_host_sort_long's), or returns false where one prefix holds too many
 * of its keys to spread them over the threads, which the other path
 * does; ua_host_prefix_free frees the counts either way. */
enum { PREFIX_BITS = 16, PREFIX_CHUNK = 1024 };

typedef struct prefix_sort prefix_sort;

prefix_sort *ua_host_prefix_count(char *data, ptrdiff_t n, const form *f,
                                  uint64_t flip, key_range *r);
bool ua_host_prefix_sort(prefix_sort *j, void *keys, void *tmp,
                         const char *lost);
void ua_host_prefix_free(prefix_sort *j);

#endif
