/* The host's sort of long rows (host_sort.h): rows whose keys and their
 * copy pass the second-level cache. */
#include <stdlib.h>
#include <string.h>

#include "backends/host/host_sort.h"
#include "backends/host/host_threads.h"

/* Long rows (sort_long): one pass splits the keys into TOP_RADIX buckets
 * by their top digit (TOP_BITS of the range's highest), each part of the
 * row on its own thread; then the buckets are sorted on, spread over the
 * threads, each turning its keys back into values at once, while they
 * are in cache. */

/* Buckets go on by MSD splits, each on a digit as wide as the bucket
 * pays for (digit_for), down to small groups (ua_host_small_keys), which
 * host_sort_small.c sorts; a digit that all of a bucket's keys share
 * moves nothing.  The splits go back and forth between the keys and
 * their scratch, so that no bucket is copied back.  Digits of at most
 * MAX_DIGIT bits: a scatter to more places than the first-level cache
 * holds lines for costs more than the next split (measured on the 2-core
 * Xeon this was tuned on: 8 bits against 11 saved a fifth of the time;
 * radix passes from the bottom, in place of the splits, cost more
 * there, but not where groups go by insertion). */
enum {
    MIN_DIGIT = 3,
    MAX_DIGIT = 8,
    LSD_DIGIT = 11,
    LSD_PASSES = 3,
    LSD_KEYS = 1024
};

/* At most MAX_DIGIT bits, and buckets of about `per` keys on average:
 * counting more buckets costs more than the small groups' sort saves. */
static int
digit_for(ptrdiff_t n, int bits, ptrdiff_t per)
{
    int d = MIN_DIGIT;
    while (d < MAX_DIGIT && (per << d) < n) {
        d++;
    }
    return d < bits ? d : bits;
}

/* A scatter's writes go to many places at once, each missing the cache:
 * the line after the one written is fetched ahead (a prefetch never
 * faults, so it may point past the keys). */
static inline void
fetch_ahead(const void *p)
{
    __builtin_prefetch((const void *)((uintptr_t)p + 64), 1);
}

#define DEFINE_BUCKET_SORT(B, KT)                                             \
    /* Keys into buckets by their digit at shift, at[d] the next place of   \
     * digit d's. */ \
    static void split##B(const KT *restrict k, KT *restrict t, ptrdiff_t a,   \
                         ptrdiff_t b, int shift, size_t *restrict at)         \
    {                                                                         \
        for (ptrdiff_t i = a; i < b; i++) {                                   \
            KT v = k[i];                                                      \
            KT *to = t + at[v >> shift & (TOP_RADIX - 1)]++;                  \
            fetch_ahead(to);                                                  \
            *to = v;                                                          \
        }                                                                     \
    }                                                                         \
    /* The places of the digit's buckets in at; false where all n keys      \
     * share one digit. */ \
    static bool places##B(const KT *k, ptrdiff_t n, int shift, int digit,     \
                          size_t *at)                                         \
    {                                                                         \
        size_t radix = (size_t)1 << digit;                                    \
        KT mask = (KT)(radix - 1);                                            \
        memset(at, 0, radix * sizeof *at);                                    \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            at[k[i] >> shift & mask]++;                                       \
        }                                                                     \
        if (at[k[0] >> shift & mask] == (size_t)n) {                          \
            return false;                                                     \
        }                                                                     \
        bucket_starts(at, radix);                                             \
        return true;                                                          \
    }                                                                         \
    static void scatter##B(const KT *restrict s, KT *restrict d, ptrdiff_t n, \
                           int shift, int digit, size_t *restrict at)         \
    {                                                                         \
        KT mask = (KT)(((size_t)1 << digit) - 1);                             \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            KT v = s[i];                                                      \
            KT *to = d + at[v >> shift & mask]++;                             \
            fetch_ahead(to);                                                  \
            *to = v;                                                          \
        }                                                                     \
    }                                                                         \
    /* LSD passes over the low `bits` of n keys, in cache, back and forth  \
     * between k and t; returns the one that holds them sorted. */  \
    static KT *lsd##B(KT *k, KT *t, ptrdiff_t n, int bits)                    \
    {                                                                         \
        int passes = (bits + LSD_DIGIT - 1) / LSD_DIGIT;                      \
        int digit = (bits + passes - 1) / passes;                             \
        size_t radix = (size_t)1 << digit;                                    \
        KT mask = (KT)(radix - 1);                                            \
        size_t counts[LSD_PASSES][1 << LSD_DIGIT];                            \
        for (int d = 0; d < passes; d++) {                                    \
            memset(counts[d], 0, radix * sizeof counts[d][0]);                \
        }                                                                     \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            KT v = k[i];                                                      \
            for (int d = 0; d < passes; d++) {                                \
                counts[d][v >> (digit * d) & mask]++;                         \
            }                                                                 \
        }                                                                     \
        KT *src = k, *dst = t;                                                \
        for (int d = 0; d < passes; d++) {                                    \
            size_t *c = counts[d];                                            \
            int shift = digit * d;                                            \
            if (c[src[0] >> shift & mask] == (size_t)n) {                     \
                continue; /* one digit for all: nothing moves */              \
            }                                                                 \
            bucket_starts(c, radix);                                          \
            for (ptrdiff_t i = 0; i < n; i++) {                               \
                KT v = src[i];                                                \
                dst[c[v >> shift & mask]++] = v;                              \
            }                                                                 \
            KT *x = src;                                                      \
            src = dst;                                                        \
            dst = x;                                                          \
        }                                                                     \
        return src;                                                           \
    }                                                                         \
    /* Without the networks (where groups go by insertion), LSD pays where \
     * the keys and their copy stay in cache, few passes remain and the    \
     * keys outnumber a digit's buckets; MSD splits take the others. */  \
    static bool lsd_pays##B(ptrdiff_t n, int bits)                            \
    {                                                                         \
        return (size_t)n * 2 * sizeof(KT) <= CACHE_BYTES &&                   \
               bits <= LSD_PASSES * LSD_DIGIT && n >= LSD_KEYS;               \
    }                                                                         \
    /* The n keys in a sorted on their low `bits`, into b where into_b,   \
     * else into a; the other is scratch.  A split moves the keys into b,  \
     * where each bucket goes on with the two buffers' roles traded. */   \
    static void sort_keys##B(KT *a, KT *b, ptrdiff_t n, int bits,             \
                             bool into_b, ptrdiff_t small)                    \
    {                                                                         \
        size_t at[1 << MAX_DIGIT];                                            \
        KT *dst = into_b ? b : a;                                             \
        for (;;) {                                                            \
            if (bits <= 0) {                                                  \
                if (into_b) {                                                 \
                    memcpy(b, a, (size_t)n * sizeof *a);                      \
                }                                                             \
                return;                                                       \
            }                                                                 \
            if (n <= small) {                                                 \
                ua_host_sort_small##B(a, dst, n);                             \
                return;                                                       \
            }                                                                 \
            if (small <= INSERTION_KEYS && lsd_pays##B(n, bits)) {            \
                KT *r = lsd##B(a, b, n, bits);                                \
                if (r != dst) {                                               \
                    memcpy(dst, r, (size_t)n * sizeof *dst);                  \
                }                                                             \
                return;                                                       \
            }                                                                 \
            int digit = digit_for(n, bits, small / 2), shift = bits - digit;  \
            if (places##B(a, n, shift, digit, at)) {                          \
                break;                                                        \
            }                                                                 \
            bits = shift;                                                     \
        }                                                                     \
        int digit = digit_for(n, bits, small / 2), shift = bits - digit;      \
        scatter##B(a, b, n, shift, digit, at);                                \
        for (size_t k = 0, from = 0; k < (size_t)1 << digit; k++) {           \
            ptrdiff_t size = (ptrdiff_t)(at[k] - from);                       \
            if (size == 1 && !into_b) {                                       \
                a[from] = b[from];                                            \
            } else if (size > 1) {                                            \
                sort_keys##B(b + from, a + from, size, shift, !into_b,        \
                             small);                                          \
            }                                                                 \
            from = at[k];                                                     \
        }                                                                     \
    }

DEFINE_BUCKET_SORT(32, uint32_t)
DEFINE_BUCKET_SORT(64, uint64_t)

/* A long row's sort, shared by its parts (sort_long). */
typedef struct long_sort {
    char *data;
    ptrdiff_t n;
    int w, wide, shift, parts;
    const form *f;
    uint64_t flip, lo;
    void *keys, *tmp;
    const char *lost;                    /* NULL: each group unkeys its own */
    size_t counts[MAX_PARTS][TOP_RADIX]; /* then each part's offsets */
    size_t size[TOP_RADIX], start[TOP_RADIX]; /* the buckets */
    int group_end[GROUPS], groups;            /* buckets [end[g-1], end[g]) */
} long_sort;

static ptrdiff_t
part_start(const long_sort *j, int part)
{
    return (ptrdiff_t)((double)j->n * part / j->parts);
}

/* Each part's keys and its histogram of their top digits. */
static void
fill_part(void *ctx, int part, int parts)
{
    (void)parts;
    long_sort *j = ctx;
    ptrdiff_t a = part_start(j, part), b = part_start(j, part + 1);
    size_t *c = j->counts[part];
    memset(c, 0, sizeof j->counts[part]);
    if (j->wide) {
        j->f->top64(j->data + a * j->w, b - a, j->flip, j->lo, j->shift,
                    (uint64_t *)j->keys + a, c);
    } else {
        j->f->top32(j->data + a * j->w, b - a, j->flip, j->lo, j->shift,
                    (uint32_t *)j->keys + a, c);
    }
}

/* Each part's keys into the buckets, after those of the parts before
 * it: the split keeps equal keys in their order. */
static void
scatter_part(void *ctx, int part, int parts)
{
    (void)parts;
    long_sort *j = ctx;
    ptrdiff_t a = part_start(j, part), b = part_start(j, part + 1);
    if (j->wide) {
        split64(j->keys, j->tmp, a, b, j->shift, j->counts[part]);
    } else {
        split32(j->keys, j->tmp, a, b, j->shift, j->counts[part]);
    }
}

/* One group of buckets sorted (into tmp) and, where no value is lost,
 * turned back into values. */
static void
sort_group(void *ctx, int group, int groups)
{
    (void)groups;
    long_sort *j = ctx;
    for (int b = group ? j->group_end[group - 1] : 0; b < j->group_end[group];
         b++) {
        size_t from = j->start[b], n = j->size[b];
        if (n == 0) {
            continue;
        }
        if (j->wide) {
            uint64_t *t = (uint64_t *)j->tmp + from;
            sort_keys64(t, (uint64_t *)j->keys + from, (ptrdiff_t)n, j->shift,
                        false, ua_host_small_keys(8));
            if (j->lost == NULL) {
                j->f->unkey64(t, (ptrdiff_t)n, j->lo, j->flip,
                              j->data + from * (size_t)j->w, NULL);
            }
        } else {
            uint32_t *t = (uint32_t *)j->tmp + from;
            sort_keys32(t, (uint32_t *)j->keys + from, (ptrdiff_t)n, j->shift,
                        false, ua_host_small_keys(4));
            if (j->lost == NULL) {
                j->f->unkey32(t, (ptrdiff_t)n, j->lo, j->flip,
                              j->data + from * (size_t)j->w, NULL);
            }
        }
    }
}

/* The buckets' places, each part's offsets in them, and the groups of
 * buckets of about n / GROUPS keys that the threads take in turn. */
static void
plan_buckets(long_sort *j)
{
    size_t sum = 0;
    for (int b = 0; b < TOP_RADIX; b++) {
        j->start[b] = sum;
        j->size[b] = 0;
        for (int p = 0; p < j->parts; p++) {
            size_t c = j->counts[p][b];
            j->counts[p][b] = sum;
            sum += c;
            j->size[b] += c;
        }
    }
    size_t per = (size_t)j->n / GROUPS + 1, in = 0;
    j->groups = 0;
    for (int b = 0; b < TOP_RADIX; b++) {
        in += j->size[b];
        if ((in >= per && j->groups < GROUPS - 1) || b == TOP_RADIX - 1) {
            j->group_end[j->groups++] = b + 1;
            in = 0;
        }
    }
}

bool
ua_host_sort_long(char *data, ptrdiff_t n, int w, const form *f, uint64_t flip,
                  key_range r, int bits, void *keys, void *tmp,
                  const char *lost)
{
    long_sort *j = calloc(1, sizeof *j);
    if (j == NULL) {
        return false;
    }
    int parts = ua_host_parts((size_t)n * (size_t)w, 4);
    j->data = data;
    j->n = n;
    j->w = w;
    j->wide = bits > 32;
    j->shift = bits - TOP_BITS;
    j->parts = parts < MAX_PARTS ? parts : MAX_PARTS;
    j->f = f;
    j->flip = flip;
    j->lo = r.lo;
    j->keys = keys;
    j->tmp = tmp;
    j->lost = lost;
    ua_host_parallel(j->parts, fill_part, j);
    plan_buckets(j);
    ua_host_parallel(j->parts, scatter_part, j);
    ua_host_parallel(j->groups, sort_group, j);
    if (j->lost != NULL) {
        if (j->wide) {
            f->unkey64((uint64_t *)j->tmp, n, r.lo, flip, data, j->lost);
        } else {
            f->unkey32((uint32_t *)j->tmp, n, r.lo, flip, data, j->lost);
        }
    }
    free(j);
    return true;
}
