/* The host's sort of long rows (host_sort.h): rows whose keys and their
 * copy pass the second-level cache, by the top digit of their key range
 * (ua_host_sort_long) or, for 4-byte elements where the CPU has AVX-512,
 * by their keys' prefixes (ua_host_prefix_count, below). */
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
 * host_sort_small.c sorts, or, for 32-bit keys where the CPU has
 * AVX-512, down to groups its quicksort takes (quick_group32); a digit
 * that all of a bucket's keys share moves nothing, and the bits they all
 * share are found in one pass and skipped.  The splits go back and forth
 * between the keys and their scratch, so that no bucket is copied back.
 * Digits of at most MAX_DIGIT bits: a scatter to more places than the
 * first-level cache holds lines for costs more than the next split
 * (measured on the 2-core Xeon this was tuned on: 8 bits against 11
 * saved a fifth of the time; radix passes from the bottom, in place of
 * the splits, cost more there, but not where groups go by insertion). */
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

/* Groups of 32-bit keys of up to ua_host_quick_keys() go by the
 * quicksort (host_sort_small.c): a step of it moves the keys once, where
 * a split counts them, then moves them, and it takes a run of equal keys
 * in a step or two.  64-bit keys go on by splits, which measured faster
 * for normally distributed float64 (a register holds half as many of
 * them).  true where the quicksort took the group. */
static bool
quick_group32(uint32_t *a, uint32_t *b, ptrdiff_t n, bool into_b)
{
    if (n < 2 || n > ua_host_quick_keys()) {
        return false;
    }
    ua_host_sort_quick32(a, b, n, into_b);
    return true;
}

static bool
quick_group64(uint64_t *a, uint64_t *b, ptrdiff_t n, bool into_b)
{
    (void)a, (void)b, (void)n, (void)into_b;
    return false;
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
    /* The low bits in which n keys differ (those above them all share),   \
     * in a loop that vectorizes: one pass, where a split at a time would  \
     * count the keys again for every digit they share. */  \
    static int differing##B(const KT *k, ptrdiff_t n)                         \
    {                                                                         \
        KT x = 0;                                                             \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            x |= k[i] ^ k[0];                                                 \
        }                                                                     \
        return x == 0 ? 0 : 64 - __builtin_clzll((unsigned long long)x);      \
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
            if (quick_group##B(a, b, n, into_b)) {                            \
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
            bits = differing##B(a, n);                                        \
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

void
ua_host_sort_keys32(uint32_t *a, uint32_t *b, ptrdiff_t n, int bits)
{
    sort_keys32(a, b, n, bits, false, ua_host_small_keys(4));
}

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

/* Long rows of 4-byte elements where the CPU has AVX-512 (host_sort.h's
 * ua_host_prefix_count): buckets of adjacent prefixes of the keys, about
 * as many keys each, sorted in cache by the quicksort of
 * host_sort_small.c.
 *
 * The split by the top digit of the key range (sort_long, above) puts
 * normally distributed floats, whose keys share their sign and exponent
 * bits, into a few dozen of its 2,048 buckets, which then take many more
 * steps each.  Here a first pass counts the keys' top PREFIX_BITS (and
 * finds the range on the way, which the other path needs where it takes
 * the row after all); adjacent prefixes are joined into buckets of about
 * the same number of keys, few enough that the split's writes stay
 * cheap (MAX_DIGIT tells why many cost more); and a second pass moves
 * each key to its bucket through a table of the prefixes' buckets, each
 * part of the row on its own thread after the parts before it.  The
 * buckets are then sorted spread over the threads, and turned back into
 * values while they are in cache.  Two passes over the row where the
 * other path makes three (range, keys, split). */

/* Buckets of up to about 2n / BUCKETS keys but where one prefix holds
 * more, fewer than BUCKETS + 1 of them (measured on the 2-core Xeon: 128
 * to 512 all did about as well for 1 to 16 Mi float32).  A row one of
 * whose prefixes holds more than a CROWD-th of its keys goes by the other
 * path, whose buckets are digits of the range: one bucket would hold too
 * much of the work for the threads to share (a narrow range of integers,
 * many equal keys). */
enum { BINS = 1 << PREFIX_BITS, BUCKETS = 256, CROWD = 8 };

/* The plan looks at blocks of BLOCK prefixes (a cache line of counts)
 * that hold any key: a row fills few of them (4 Mi normally distributed
 * floats 320 of 4,096), and the others' buckets are never looked up. */
enum { BLOCK = 16, BLOCKS = BINS / BLOCK };

typedef uint16_t bucket_id;

struct prefix_sort {
    char *data;
    ptrdiff_t n;
    int parts, buckets, groups;
    const form *f;
    uint64_t flip;
    uint32_t *keys, *tmp;
    const char *lost;
    uint32_t *bins; /* parts x BINS counts, then their sums */
    key_range range[MAX_PARTS];
    bucket_id bucket[BINS]; /* of each prefix that holds keys */
    bool filled[BLOCKS];
    size_t at[MAX_PARTS][BUCKETS + 1]; /* each part's first place */
    size_t start[BUCKETS + 2];
    int group_end[GROUPS];
};

static ptrdiff_t
prefix_part_start(const prefix_sort *j, int part)
{
    return (ptrdiff_t)((double)j->n * part / j->parts);
}

static uint32_t *
prefix_bins(const prefix_sort *j, int part)
{
    return j->bins + (size_t)part * BINS;
}

/* Each part's range and its prefixes' counts. */
static void
count_prefixes(void *ctx, int part, int parts)
{
    (void)parts;
    prefix_sort *j = ctx;
    ptrdiff_t a = prefix_part_start(j, part),
              b = prefix_part_start(j, part + 1);
    uint32_t *bins = prefix_bins(j, part);
    memset(bins, 0, BINS * sizeof *bins);
    j->range[part] = j->f->prefix32(j->data + a * 4, b - a, j->flip, bins);
}

/* The prefixes' counts summed over the parts (after the parts' own);
 * returns the largest. */
static uint32_t
sum_bins(prefix_sort *j)
{
    uint32_t *sums = prefix_bins(j, j->parts);
    memcpy(sums, prefix_bins(j, 0), BINS * sizeof *sums);
    for (int part = 1; part < j->parts; part++) {
        const uint32_t *bins = prefix_bins(j, part);
        for (size_t p = 0; p < BINS; p++) {
            sums[p] += bins[p];
        }
    }
    uint32_t most = 0;
    for (size_t k = 0; k < BLOCKS; k++) {
        uint32_t block = 0;
        for (size_t p = k * BLOCK; p < (k + 1) * BLOCK; p++) {
            most = sums[p] > most ? sums[p] : most;
            block |= sums[p];
        }
        j->filled[k] = block != 0;
    }
    return most;
}

/* Adjacent prefixes joined into buckets of about `per` keys: a bucket
 * closes before the prefix that would take it past per, so that two
 * buckets after each other hold more than per keys, and a bucket of more
 * than per keys has them all in one prefix. */
static void
join_prefixes(prefix_sort *j, size_t per)
{
    const uint32_t *sums = prefix_bins(j, j->parts);
    size_t in = 0, sum = 0;
    int b = 0;
    j->start[0] = 0;
    for (size_t k = 0; k < BLOCKS; k++) {
        for (size_t p = k * BLOCK; j->filled[k] && p < (k + 1) * BLOCK; p++) {
            size_t c = sums[p];
            if (in > 0 && in + c > per && b < BUCKETS) {
                j->start[++b] = sum;
                in = 0;
            }
            j->bucket[p] = (bucket_id)b;
            in += c;
            sum += c;
        }
    }
    j->buckets = b + 1;
    j->start[j->buckets] = sum;
}

/* Each part's first place in every bucket: after the parts before it. */
static void
plan_places(prefix_sort *j)
{
    for (int b = 0; b < j->buckets; b++) {
        j->at[0][b] = j->start[b];
    }
    for (int part = 1; part < j->parts; part++) {
        size_t *at = j->at[part];
        const uint32_t *prev = prefix_bins(j, part - 1);
        memcpy(at, j->at[part - 1], (size_t)j->buckets * sizeof *at);
        for (size_t k = 0; k < BLOCKS; k++) {
            for (size_t p = k * BLOCK; j->filled[k] && p < (k + 1) * BLOCK;
                 p++) {
                at[j->bucket[p]] += prev[p];
            }
        }
    }
}

/* Groups of buckets of about n / GROUPS keys, which the threads take in
 * turn. */
static void
plan_groups(prefix_sort *j)
{
    size_t per = (size_t)j->n / GROUPS + 1, in = 0;
    j->groups = 0;
    for (int b = 0; b < j->buckets; b++) {
        in += j->start[b + 1] - j->start[b];
        if ((in >= per && j->groups < GROUPS - 1) || b == j->buckets - 1) {
            j->group_end[j->groups++] = b + 1;
            in = 0;
        }
    }
}

/* Each part's keys into their buckets, a chunk at a time: the chunk's
 * keys in a loop that vectorizes, then each to its place, the line after
 * it fetched ahead (fetch_ahead).  The places are counted in the
 * part's own array: in one that parts share, the lines at their borders
 * would go back and forth between the cores. */
static void
scatter_prefixes(void *ctx, int part, int parts)
{
    (void)parts;
    prefix_sort *j = ctx;
    ptrdiff_t a = prefix_part_start(j, part),
              b = prefix_part_start(j, part + 1);
    size_t at[BUCKETS + 1];
    memcpy(at, j->at[part], (size_t)j->buckets * sizeof *at);
    const bucket_id *bucket = j->bucket;
    uint32_t *tmp = j->tmp;
    uint32_t keys[PREFIX_CHUNK];
    for (ptrdiff_t i = a; i < b; i += PREFIX_CHUNK) {
        ptrdiff_t m = b - i < PREFIX_CHUNK ? b - i : PREFIX_CHUNK;
        j->f->scan32(j->data + i * 4, m, j->flip, keys);
        for (ptrdiff_t k = 0; k < m; k++) {
            uint32_t v = keys[k];
            uint32_t *to = tmp + at[bucket[v >> (32 - PREFIX_BITS)]]++;
            fetch_ahead(to);
            *to = v;
        }
    }
}

/* One group of buckets sorted (in tmp, keys their scratch) and, where
 * no value is lost, turned back into values. */
static void
sort_prefix_group(void *ctx, int group, int groups)
{
    (void)groups;
    prefix_sort *j = ctx;
    for (int b = group ? j->group_end[group - 1] : 0; b < j->group_end[group];
         b++) {
        size_t from = j->start[b], n = j->start[b + 1] - from;
        if (n == 0) {
            continue;
        }
        ua_host_sort_keys32(j->tmp + from, j->keys + from, (ptrdiff_t)n, 32);
        if (j->lost == NULL) {
            j->f->unkey32(j->tmp + from, (ptrdiff_t)n, 0, j->flip,
                          j->data + from * 4, NULL);
        }
    }
}

/* Whether a sample of the row's keys crowds a prefix (CROWD), which
 * would leave the count to waste: SAMPLES keys in runs of SAMPLE_RUN
 * spread over the row, sorted, their longest run of one prefix.  Rows
 * of one value, or of a few thousand integers, go to the other path at
 * once. */
enum { SAMPLES = 2048, SAMPLE_RUN = 32 };

static bool
crowded(const char *data, ptrdiff_t n, const form *f, uint64_t flip)
{
    uint32_t keys[SAMPLES], tmp[SAMPLES];
    if (n < SAMPLES * 2) {
        return true; /* too short to sample: the other way takes it */
    }
    ptrdiff_t runs = SAMPLES / SAMPLE_RUN, step = n / runs;
    for (ptrdiff_t k = 0; k < runs; k++) {
        f->scan32(data + k * step * 4, SAMPLE_RUN, flip,
                  keys + k * SAMPLE_RUN);
    }
    ua_host_sort_quick32(keys, tmp, SAMPLES, false);
    ptrdiff_t longest = 0, run = 0;
    for (ptrdiff_t i = 0; i < SAMPLES; i++) {
        bool same =
            i > 0 && (keys[i] ^ keys[i - 1]) >> (32 - PREFIX_BITS) == 0;
        run = same ? run + 1 : 1;
        longest = run > longest ? run : longest;
    }
    return longest * CROWD > SAMPLES;
}

prefix_sort *
ua_host_prefix_count(char *data, ptrdiff_t n, const form *f, uint64_t flip,
                     key_range *r)
{
    if (ua_host_quick_keys() == 0 || (uint64_t)n > UINT32_MAX ||
        crowded(data, n, f, flip)) {
        return NULL;
    }
    prefix_sort *j = malloc(sizeof *j);
    int parts = ua_host_parts((size_t)n * 4, 2);
    parts = parts < MAX_PARTS ? parts : MAX_PARTS;
    uint32_t *bins = malloc((size_t)(parts + 1) * BINS * sizeof *bins);
    if (j == NULL || bins == NULL) {
        free(j);
        free(bins);
        return NULL;
    }
    j->data = data;
    j->n = n;
    j->parts = parts;
    j->f = f;
    j->flip = flip;
    j->bins = bins;
    ua_host_parallel(parts, count_prefixes, j);
    *r = j->range[0];
    for (int p = 1; p < parts; p++) {
        r->lo = j->range[p].lo < r->lo ? j->range[p].lo : r->lo;
        r->hi = j->range[p].hi > r->hi ? j->range[p].hi : r->hi;
        r->loses |= j->range[p].loses;
    }
    return j;
}

bool
ua_host_prefix_sort(prefix_sort *j, void *keys, void *tmp, const char *lost)
{
    if (sum_bins(j) > (size_t)j->n / CROWD) {
        return false;
    }
    join_prefixes(j, 2 * (size_t)j->n / BUCKETS + 1);
    plan_places(j);
    plan_groups(j);
    j->keys = keys;
    j->tmp = tmp;
    j->lost = lost;
    ua_host_parallel(j->parts, scatter_prefixes, j);
    ua_host_parallel(j->groups, sort_prefix_group, j);
    if (lost != NULL) {
        j->f->unkey32(j->tmp, j->n, 0, j->flip, j->data, lost);
    }
    return true;
}

void
ua_host_prefix_free(prefix_sort *j)
{
    if (j != NULL) {
        free(j->bins);
        free(j);
    }
}
