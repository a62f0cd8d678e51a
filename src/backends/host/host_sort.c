/* The host backend's sort and argsort (core/compute/reduce_kernels.h): an
 * LSD radix sort on 8-bit digits of the order-preserving keys of
 * host_sort_keys.h, of the element's own width (32-bit keys for elements
 * of up to 4 bytes, 64-bit for the others).
 *
 * A first pass finds the smallest and largest key; keys are stored less
 * the smallest, so that the digits above the range's highest bit are zero
 * and cost nothing (int64 values within +-5,000 take two passes, not
 * eight).  The second pass stores the keys and counts every digit's
 * histogram at once, as Onesweep does; a digit that all keys share moves
 * nothing and is skipped.  Passes go back and forth between two buffers.
 * Rows past the cache are split by their top digit over the threads
 * first, and each bucket sorted on in cache (sort_long).
 *
 * sort keeps only keys and turns them back into values, which gives back
 * every value except -0.0 (whose key is 0.0's) and NaN payloads: where a
 * row has those, they are kept in their order and put back into the run
 * of their key, which a stable sort leaves in that order.  argsort moves
 * positions beside the keys: packed under 32-bit keys into one 64-bit
 * word, beside 64-bit keys as 32-bit positions where rows are shorter than
 * 2^32.  Rows of up to SHORT_ROW elements go by insertion, and complex
 * rows by a merge sort in NumPy's order for them (complex_key_of). */
#include <stdlib.h>
#include <string.h>

#include "backends/host/host_kernels.h"
#include "backends/host/host_sort_keys.h"
#include "backends/host/host_threads.h"
#include "core/compute/kernels.h"

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

/* Per element form (w bytes, kind k): the range of its keys (flipped where
 * descending); its keys less lo into keys (of 32 bits where w <= 4 or the
 * range fits them, else of 64), with the histograms of their first
 * `digits` digits; and the values of sorted keys back into data, where
 * `lost` holds the values whose keys lose them, zeros from the front and
 * NaNs from the back, each in their order in the row.  A 64-bit key less
 * lo that fits 32 bits is its lower 32 bits less lo's, modulo 2^32. */
#define DEFINE_RANGE(S, W, K)                                                 \
    UA_HOST_CLONES static key_range range_##S(const char *data, ptrdiff_t n,  \
                                              uint64_t flip)                  \
    {                                                                         \
        uint64_t lo = ~(uint64_t)0, hi = 0;                                   \
        uint64_t loses = 0;                                                   \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            uint64_t v = load(data + i * W, W);                               \
            uint64_t k = key_of(v, W, K) ^ flip;                              \
            lo = k < lo ? k : lo;                                             \
            hi = k > hi ? k : hi;                                             \
            loses |= key_loses(v, W, K);                                      \
        }                                                                     \
        return (key_range){lo, hi, loses != 0};                               \
    }

#define DEFINE_KEYS(S, W, K, KT, B)                                           \
    static void fill##B##_##S(const char *data, ptrdiff_t n, uint64_t flip,   \
                              uint64_t lo, int digits, KT *restrict keys,     \
                              histogram *counts)                              \
    {                                                                         \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            KT k = (KT)((key_of(load(data + i * W, W), W, K) ^ flip) - lo);   \
            keys[i] = k;                                                      \
            for (int d = 0; d < digits; d++) {                                \
                counts[d][k >> (8 * d) & (RADIX - 1)]++;                      \
            }                                                                 \
        }                                                                     \
    }                                                                         \
    static void unkey##B##_##S(const KT *restrict keys, ptrdiff_t n,          \
                               uint64_t lo, uint64_t flip, char *data,        \
                               const char *lost)                              \
    {                                                                         \
        uint64_t nan = key_mask(W), zero = key_of(0, W, K);                   \
        ptrdiff_t zi = 0, ni = n;                                             \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            uint64_t k = (((uint64_t)keys[i] + lo) ^ flip) & nan;             \
            uint64_t v = value_of(k, W, K);                                   \
            if (lost != NULL && k == zero) {                                  \
                v = load(lost + zi++ * W, W);                                 \
            } else if (lost != NULL && k == nan) {                            \
                v = load(lost + --ni * W, W);                                 \
            }                                                                 \
            store(data + i * W, W, v);                                        \
        }                                                                     \
    }

/* The keys less lo into keys, with the histogram of their digit at
 * shift: the first pass of a long row's sort (sort_long). */
#define DEFINE_TOP(S, W, K, KT, B)                                            \
    static void top##B##_##S(const char *data, ptrdiff_t n, uint64_t flip,    \
                             uint64_t lo, int shift, KT *restrict keys,       \
                             size_t *counts)                                  \
    {                                                                         \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            KT k = (KT)((key_of(load(data + i * W, W), W, K) ^ flip) - lo);   \
            keys[i] = k;                                                      \
            counts[k >> shift & (TOP_RADIX - 1)]++;                           \
        }                                                                     \
    }

#define DEFINE_NARROW(S, W, K)                                                \
    DEFINE_RANGE(S, W, K)                                                     \
    DEFINE_KEYS(S, W, K, uint32_t, 32)                                        \
    DEFINE_TOP(S, W, K, uint32_t, 32)
#define DEFINE_WIDE(S, W, K)                                                  \
    DEFINE_NARROW(S, W, K)                                                    \
    DEFINE_KEYS(S, W, K, uint64_t, 64)                                        \
    DEFINE_TOP(S, W, K, uint64_t, 64)

DEFINE_NARROW(u1, 1, 'u')
DEFINE_NARROW(i1, 1, 'i')
DEFINE_NARROW(u2, 2, 'u')
DEFINE_NARROW(i2, 2, 'i')
DEFINE_NARROW(f2, 2, 'f')
DEFINE_NARROW(u4, 4, 'u')
DEFINE_NARROW(i4, 4, 'i')
DEFINE_NARROW(f4, 4, 'f')
DEFINE_WIDE(u8, 8, 'u')
DEFINE_WIDE(i8, 8, 'i')
DEFINE_WIDE(f8, 8, 'f')

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

static form
form_of(int w, char k)
{
#define NARROW(S)                                                             \
    (form){range_##S, fill32_##S, NULL, unkey32_##S, NULL, top32_##S, NULL}
#define WIDE(S)                                                               \
    (form)                                                                    \
    {                                                                         \
        range_##S, fill32_##S, fill64_##S, unkey32_##S, unkey64_##S,          \
            top32_##S, top64_##S                                              \
    }
    switch (w * 256 + k) {
    case 1 * 256 + 'i':
        return NARROW(i1);
    case 1 * 256 + 'u':
        return NARROW(u1);
    case 2 * 256 + 'i':
        return NARROW(i2);
    case 2 * 256 + 'u':
        return NARROW(u2);
    case 2 * 256 + 'f':
        return NARROW(f2);
    case 4 * 256 + 'i':
        return NARROW(i4);
    case 4 * 256 + 'u':
        return NARROW(u4);
    case 4 * 256 + 'f':
        return NARROW(f4);
    case 8 * 256 + 'i':
        return WIDE(i8);
    case 8 * 256 + 'u':
        return WIDE(u8);
    default:
        return WIDE(f8);
    }
#undef NARROW
#undef WIDE
}

/* LSD passes over digits [d0, d1) of n keys (counts[d - d0] their
 * histograms), a payload moving beside them where PAYLOAD; the sorted
 * keys end in *keys (and *pay), which may have traded places with *tmp
 * (and *ptmp). */
#define DEFINE_RADIX(NAME, KT, PT, PAYLOAD)                                   \
    static void NAME(KT **keys, KT **tmp, PT **pay, PT **ptmp, ptrdiff_t n,   \
                     int d0, int d1, histogram *counts)                       \
    {                                                                         \
        for (int d = d0; d < d1; d++) {                                       \
            size_t *c = counts[d - d0], sum = 0;                              \
            int shift = 8 * d;                                                \
            if (c[(*keys)[0] >> shift & (RADIX - 1)] == (size_t)n) {          \
                continue; /* one digit for all: nothing moves */              \
            }                                                                 \
            for (int b = 0; b < RADIX; b++) {                                 \
                size_t t = c[b];                                              \
                c[b] = sum;                                                   \
                sum += t;                                                     \
            }                                                                 \
            const KT *restrict src = *keys;                                   \
            KT *restrict dst = *tmp;                                          \
            const PT *restrict psrc = PAYLOAD ? *pay : NULL;                  \
            PT *restrict pdst = PAYLOAD ? *ptmp : NULL;                       \
            for (ptrdiff_t i = 0; i < n; i++) {                               \
                KT k = src[i];                                                \
                size_t to = c[k >> shift & (RADIX - 1)]++;                    \
                dst[to] = k;                                                  \
                if (PAYLOAD) {                                                \
                    pdst[to] = psrc[i];                                       \
                }                                                             \
            }                                                                 \
            KT *kt = *keys;                                                   \
            *keys = *tmp;                                                     \
            *tmp = kt;                                                        \
            if (PAYLOAD) {                                                    \
                PT *pt = *pay;                                                \
                *pay = *ptmp;                                                 \
                *ptmp = pt;                                                   \
            }                                                                 \
        }                                                                     \
    }

DEFINE_RADIX(radix32, uint32_t, uint32_t, false)
DEFINE_RADIX(radix64, uint64_t, uint32_t, false)
DEFINE_RADIX(radix64_p32, uint64_t, uint32_t, true)
DEFINE_RADIX(radix64_p64, uint64_t, int64_t, true)

/* The bytes of a key range: the digits that can differ. */
static int
digits_of(uint64_t range)
{
    int d = 0;
    for (; range != 0; range >>= 8) {
        d++;
    }
    return d;
}

/* What one row's sort needs, sized for the longest row. */
typedef struct workspace {
    char *keys, *tmp, *pay, *ptmp, *lost;
    size_t lost_bytes; /* lost is malloc'ed at first need where not 0 */
    histogram counts[8];
} workspace;

/* The buffer of lost values: in the scratch of argsort and complex rows;
 * for real values, whose scratch holds keys alone, malloc'ed at the first
 * row that loses any (only the pages it writes are touched). */
static char *
lost_of(workspace *ws)
{
    if (ws->lost == NULL && ws->lost_bytes != 0) {
        ws->lost = malloc(ws->lost_bytes);
    }
    return ws->lost;
}

/* The values whose keys lose them (-0.0, NaN), in their order: zeros from
 * the front of lost, NaNs from the back. */
static void
keep_lost(const char *data, ptrdiff_t n, int w, char *lost)
{
    uint64_t zero = key_of(0, w, 'f'), nan = key_mask(w);
    ptrdiff_t zi = 0, ni = n;
    for (ptrdiff_t i = 0; i < n; i++) {
        uint64_t v = load(data + i * w, w), k = key_of(v, w, 'f');
        if (k == zero) {
            memcpy(lost + zi++ * w, data + i * w, (size_t)w);
        } else if (k == nan) {
            memcpy(lost + --ni * w, data + i * w, (size_t)w);
        }
    }
}

/* Long rows (sort_long): one pass splits the keys into TOP_RADIX buckets
 * by their top digit (TOP_BITS of the range's highest), each part of the
 * row on its own thread; then the buckets are sorted on, spread over the
 * threads, each turning its keys back into values at once, while they
 * are in cache. */

/* Buckets go on by MSD splits, each on a digit as wide as the bucket
 * pays for (digit_for), down to INSERTION_KEYS keys, which go by
 * insertion; a digit that all of a bucket's keys share moves nothing.
 * The splits go back and forth between the keys and their scratch, so
 * that no bucket is copied back. */
enum {
    INSERTION_KEYS = 32,
    MIN_DIGIT = 3,
    MAX_DIGIT = 11,
    LSD_PASSES = 3,
    LSD_KEYS = 1024
};

/* At most MAX_DIGIT bits (the histogram stays in the first-level cache),
 * and buckets of about INSERTION_KEYS / 2 keys on average: counting
 * more buckets costs more than insertion saves. */
static int
digit_for(ptrdiff_t n, int bits)
{
    int d = MIN_DIGIT;
    while (d < MAX_DIGIT && ((ptrdiff_t)INSERTION_KEYS << d) < 2 * n) {
        d++;
    }
    return d < bits ? d : bits;
}

#define DEFINE_BUCKET_SORT(B, KT)                                             \
    /* Keys into buckets by their digit at shift, at[d] the next place of   \
     * digit d's. */ \
    static void split##B(const KT *restrict k, KT *restrict t, ptrdiff_t a,   \
                         ptrdiff_t b, int shift, size_t *restrict at)         \
    {                                                                         \
        for (ptrdiff_t i = a; i < b; i++) {                                   \
            KT v = k[i];                                                      \
            t[at[v >> shift & (TOP_RADIX - 1)]++] = v;                        \
        }                                                                     \
    }                                                                         \
    static void insertion##B(KT *k, ptrdiff_t n)                              \
    {                                                                         \
        for (ptrdiff_t i = 1; i < n; i++) {                                   \
            KT v = k[i];                                                      \
            ptrdiff_t j = i;                                                  \
            for (; j > 0 && k[j - 1] > v; j--) {                              \
                k[j] = k[j - 1];                                              \
            }                                                                 \
            k[j] = v;                                                         \
        }                                                                     \
    }                                                                         \
    /* insertion, of the n keys of s into d. */                               \
    static void insert_into##B(const KT *restrict s, KT *restrict d,          \
                               ptrdiff_t n)                                   \
    {                                                                         \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            KT v = s[i];                                                      \
            ptrdiff_t j = i;                                                  \
            for (; j > 0 && d[j - 1] > v; j--) {                              \
                d[j] = d[j - 1];                                              \
            }                                                                 \
            d[j] = v;                                                         \
        }                                                                     \
    }                                                                         \
    /* The places of the digit's buckets in at; false where all n keys      \
     * share one digit. */ \
    static bool places##B(const KT *k, ptrdiff_t n, int shift, int digit,     \
                          size_t *at)                                         \
    {                                                                         \
        size_t radix = (size_t)1 << digit, sum = 0;                           \
        KT mask = (KT)(radix - 1);                                            \
        memset(at, 0, radix * sizeof *at);                                    \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            at[k[i] >> shift & mask]++;                                       \
        }                                                                     \
        if (at[k[0] >> shift & mask] == (size_t)n) {                          \
            return false;                                                     \
        }                                                                     \
        for (size_t b = 0; b < radix; b++) {                                  \
            size_t c = at[b];                                                 \
            at[b] = sum;                                                      \
            sum += c;                                                         \
        }                                                                     \
        return true;                                                          \
    }                                                                         \
    static void scatter##B(const KT *restrict s, KT *restrict d, ptrdiff_t n, \
                           int shift, int digit, size_t *restrict at)         \
    {                                                                         \
        KT mask = (KT)(((size_t)1 << digit) - 1);                             \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            KT v = s[i];                                                      \
            d[at[v >> shift & mask]++] = v;                                   \
        }                                                                     \
    }                                                                         \
    /* LSD passes over the low `bits` of n keys, in cache, back and forth  \
     * between k and t; returns the one that holds them sorted. */  \
    static KT *lsd##B(KT *k, KT *t, ptrdiff_t n, int bits)                    \
    {                                                                         \
        int passes = (bits + MAX_DIGIT - 1) / MAX_DIGIT;                      \
        int digit = (bits + passes - 1) / passes;                             \
        size_t radix = (size_t)1 << digit;                                    \
        KT mask = (KT)(radix - 1);                                            \
        size_t counts[LSD_PASSES][1 << MAX_DIGIT];                            \
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
            size_t *c = counts[d], sum = 0;                                   \
            int shift = digit * d;                                            \
            if (c[src[0] >> shift & mask] == (size_t)n) {                     \
                continue; /* one digit for all: nothing moves */              \
            }                                                                 \
            for (size_t b = 0; b < radix; b++) {                              \
                size_t x = c[b];                                              \
                c[b] = sum;                                                   \
                sum += x;                                                     \
            }                                                                 \
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
    /* LSD pays where the keys and their copy stay in cache, few passes    \
     * remain and the keys outnumber a digit's buckets; MSD splits and     \
     * insertion take the others. */  \
    static bool lsd_pays##B(ptrdiff_t n, int bits)                            \
    {                                                                         \
        return (size_t)n * 2 * sizeof(KT) <= CACHE_BYTES &&                   \
               bits <= LSD_PASSES * MAX_DIGIT && n >= LSD_KEYS;               \
    }                                                                         \
    static void msd_to##B(KT *s, KT *d, ptrdiff_t n, int bits);               \
    /* The n keys in k sorted on their low `bits`, into k (t: scratch). */    \
    static void msd_in##B(KT *k, KT *t, ptrdiff_t n, int bits)                \
    {                                                                         \
        size_t at[1 << MAX_DIGIT];                                            \
        for (;;) {                                                            \
            if (bits <= 0) {                                                  \
                return;                                                       \
            }                                                                 \
            if (n <= INSERTION_KEYS) {                                        \
                insertion##B(k, n);                                           \
                return;                                                       \
            }                                                                 \
            if (lsd_pays##B(n, bits)) {                                       \
                KT *r = lsd##B(k, t, n, bits);                                \
                if (r != k) {                                                 \
                    memcpy(k, r, (size_t)n * sizeof *k);                      \
                }                                                             \
                return;                                                       \
            }                                                                 \
            int digit = digit_for(n, bits), shift = bits - digit;             \
            if (places##B(k, n, shift, digit, at)) {                          \
                break;                                                        \
            }                                                                 \
            bits = shift;                                                     \
        }                                                                     \
        int digit = digit_for(n, bits), shift = bits - digit;                 \
        scatter##B(k, t, n, shift, digit, at);                                \
        for (size_t b = 0, from = 0; b < (size_t)1 << digit; b++) {           \
            ptrdiff_t size = (ptrdiff_t)(at[b] - from);                       \
            if (size == 1) {                                                  \
                k[from] = t[from];                                            \
            } else if (size > 1) {                                            \
                msd_to##B(t + from, k + from, size, shift);                   \
            }                                                                 \
            from = at[b];                                                     \
        }                                                                     \
    }                                                                         \
    /* The n keys in s sorted on their low `bits`, into d (s: scratch). */    \
    static void msd_to##B(KT *s, KT *d, ptrdiff_t n, int bits)                \
    {                                                                         \
        size_t at[1 << MAX_DIGIT];                                            \
        for (;;) {                                                            \
            if (bits <= 0) {                                                  \
                memcpy(d, s, (size_t)n * sizeof *s);                          \
                return;                                                       \
            }                                                                 \
            if (n <= INSERTION_KEYS) {                                        \
                insert_into##B(s, d, n);                                      \
                return;                                                       \
            }                                                                 \
            if (lsd_pays##B(n, bits)) {                                       \
                KT *r = lsd##B(s, d, n, bits);                                \
                if (r != d) {                                                 \
                    memcpy(d, r, (size_t)n * sizeof *d);                      \
                }                                                             \
                return;                                                       \
            }                                                                 \
            int digit = digit_for(n, bits), shift = bits - digit;             \
            if (places##B(s, n, shift, digit, at)) {                          \
                break;                                                        \
            }                                                                 \
            bits = shift;                                                     \
        }                                                                     \
        int digit = digit_for(n, bits), shift = bits - digit;                 \
        scatter##B(s, d, n, shift, digit, at);                                \
        for (size_t b = 0, from = 0; b < (size_t)1 << digit; b++) {           \
            ptrdiff_t size = (ptrdiff_t)(at[b] - from);                       \
            if (size > 1) {                                                   \
                msd_in##B(d + from, s + from, size, shift);                   \
            }                                                                 \
            from = at[b];                                                     \
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
            msd_in64(t, (uint64_t *)j->keys + from, (ptrdiff_t)n, j->shift);
            if (j->lost == NULL) {
                j->f->unkey64(t, (ptrdiff_t)n, j->lo, j->flip,
                              j->data + from * (size_t)j->w, NULL);
            }
        } else {
            uint32_t *t = (uint32_t *)j->tmp + from;
            msd_in32(t, (uint32_t *)j->keys + from, (ptrdiff_t)n, j->shift);
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

/* false where there is no memory for the plan: the caller sorts the row
 * the plain way. */
static bool
sort_long(char *data, ptrdiff_t n, int w, const form *f, uint64_t flip,
          key_range r, int bits, workspace *ws, const char *lost)
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
    j->keys = ws->keys;
    j->tmp = ws->tmp;
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

/* sort: keys only, turned back into values; false where there is no
 * memory for the lost values. */
static bool
sort_values(char *data, ptrdiff_t n, int w, const form *f, uint64_t flip,
            key_range r, workspace *ws)
{
    int digits = digits_of(r.hi - r.lo);
    int bits = 64 - (r.hi == r.lo ? 64 : __builtin_clzll(r.hi - r.lo));
    size_t ksz = digits <= 4 ? 4 : 8;
    const char *lost = NULL;
    if (r.loses) {
        char *keep = lost_of(ws);
        if (keep == NULL) {
            return false;
        }
        keep_lost(data, n, w, keep);
        lost = keep;
    }
    if ((size_t)n * 2 * ksz > CACHE_BYTES && bits > TOP_BITS &&
        sort_long(data, n, w, f, flip, r, bits, ws, lost)) {
        return true;
    }
    memset(ws->counts, 0, sizeof ws->counts);
    if (digits <= 4) {
        uint32_t *keys = (uint32_t *)(void *)ws->keys;
        uint32_t *tmp = (uint32_t *)(void *)ws->tmp, *none = NULL;
        f->fill32(data, n, flip, r.lo, digits, keys, ws->counts);
        radix32(&keys, &tmp, &none, &none, n, 0, digits, ws->counts);
        f->unkey32(keys, n, r.lo, flip, data, lost);
    } else {
        uint64_t *keys = (uint64_t *)(void *)ws->keys;
        uint64_t *tmp = (uint64_t *)(void *)ws->tmp;
        uint32_t *none = NULL;
        f->fill64(data, n, flip, r.lo, digits, keys, ws->counts);
        radix64(&keys, &tmp, &none, &none, n, 0, digits, ws->counts);
        f->unkey64(keys, n, r.lo, flip, data, lost);
    }
    return true;
}

/* argsort of keys (less the smallest) of up to 32 bits: key << 32 |
 * position, sorted on the key's digits (the upper word's). */
static void
argsort_packed(const char *data, ptrdiff_t n, const form *f, uint64_t flip,
               key_range r, workspace *ws, int64_t *index)
{
    int digits = digits_of(r.hi - r.lo);
    uint32_t *k32 = (uint32_t *)(void *)ws->tmp;
    uint64_t *keys = (uint64_t *)(void *)ws->keys;
    uint64_t *tmp = (uint64_t *)(void *)ws->tmp;
    uint32_t *none = NULL;
    memset(ws->counts, 0, sizeof ws->counts);
    /* The 32-bit keys pass through tmp's first half on their way. */
    f->fill32(data, n, flip, r.lo, digits, k32, ws->counts);
    for (ptrdiff_t i = 0; i < n; i++) {
        keys[i] = (uint64_t)k32[i] << 32 | (uint64_t)i;
    }
    radix64(&keys, &tmp, &none, &none, n, 4, 4 + digits, ws->counts);
    for (ptrdiff_t i = 0; i < n; i++) {
        index[i] = (int64_t)(keys[i] & 0xffffffffu);
    }
}

/* argsort of 64-bit keys: positions beside them, 32-bit where they fit. */
static void
argsort_wide(const char *data, ptrdiff_t n, const form *f, uint64_t flip,
             key_range r, workspace *ws, int64_t *index)
{
    int digits = digits_of(r.hi - r.lo);
    uint64_t *keys = (uint64_t *)(void *)ws->keys;
    uint64_t *tmp = (uint64_t *)(void *)ws->tmp;
    memset(ws->counts, 0, sizeof ws->counts);
    f->fill64(data, n, flip, r.lo, digits, keys, ws->counts);
    if ((uint64_t)n <= UINT32_MAX) {
        uint32_t *pay = (uint32_t *)(void *)ws->pay;
        uint32_t *ptmp = (uint32_t *)(void *)ws->ptmp;
        for (ptrdiff_t i = 0; i < n; i++) {
            pay[i] = (uint32_t)i;
        }
        radix64_p32(&keys, &tmp, &pay, &ptmp, n, 0, digits, ws->counts);
        for (ptrdiff_t i = 0; i < n; i++) {
            index[i] = pay[i];
        }
        return;
    }
    int64_t *pay = (int64_t *)(void *)ws->pay;
    int64_t *ptmp = (int64_t *)(void *)ws->ptmp;
    for (ptrdiff_t i = 0; i < n; i++) {
        pay[i] = i;
    }
    radix64_p64(&keys, &tmp, &pay, &ptmp, n, 0, digits, ws->counts);
    memcpy(index, pay, (size_t)n * sizeof *index);
}

/* A short row by insertion, on 64-bit keys beside positions; sort puts
 * the row's own values back in that order (from a copy of the row). */
static void
sort_short(char *data, ptrdiff_t n, int w, char k, uint64_t flip,
           workspace *ws, int64_t *index)
{
    uint64_t *keys = (uint64_t *)(void *)ws->keys;
    int64_t *pos = index != NULL ? index : (int64_t *)(void *)ws->tmp;
    char copy[SHORT_ROW * 8];
    for (ptrdiff_t i = 0; i < n; i++) {
        uint64_t key = key_of(load(data + i * w, w), w, k) ^ flip;
        ptrdiff_t j = i;
        for (; j > 0 && keys[j - 1] > key; j--) {
            keys[j] = keys[j - 1];
            pos[j] = pos[j - 1];
        }
        keys[j] = key;
        pos[j] = i;
    }
    if (index == NULL) {
        memcpy(copy, data, (size_t)(n * w));
        for (ptrdiff_t i = 0; i < n; i++) {
            memcpy(data + i * w, copy + pos[i] * w, (size_t)w);
        }
    }
}

/* Complex numbers have no one-word key in NumPy's order (a class, then
 * two keys), so their rows go by a stable merge sort of positions,
 * comparing keys made on the way: runs of MERGE_RUN by insertion, then
 * merges back and forth between pos and tmp.  Returns the buffer that
 * holds the sorted positions. */
enum { MERGE_RUN = 16 };

static bool
complex_before(const char *data, int w, bool descending, int64_t a, int64_t b)
{
    int c = complex_key_cmp(complex_key_of(data + a * w, w),
                            complex_key_of(data + b * w, w));
    return descending ? c > 0 : c < 0;
}

static void
merge_runs(const char *data, int w, bool descending, const int64_t *src,
           int64_t *dst, ptrdiff_t lo, ptrdiff_t mid, ptrdiff_t hi)
{
    ptrdiff_t i = lo, j = mid, o = lo;
    while (i < mid && j < hi) {
        /* The right run's element goes first only where strictly before:
         * equal elements keep their order. */
        bool right = complex_before(data, w, descending, src[j], src[i]);
        dst[o++] = right ? src[j++] : src[i++];
    }
    while (i < mid) {
        dst[o++] = src[i++];
    }
    while (j < hi) {
        dst[o++] = src[j++];
    }
}

static int64_t *
merge_sort_complex(const char *data, ptrdiff_t n, int w, bool descending,
                   int64_t *pos, int64_t *tmp)
{
    for (ptrdiff_t lo = 0; lo < n; lo += MERGE_RUN) {
        ptrdiff_t hi = lo + MERGE_RUN < n ? lo + MERGE_RUN : n;
        for (ptrdiff_t i = lo; i < hi; i++) {
            ptrdiff_t j = i;
            for (;
                 j > lo && complex_before(data, w, descending, i, pos[j - 1]);
                 j--) {
                pos[j] = pos[j - 1];
            }
            pos[j] = i;
        }
    }
    for (ptrdiff_t run = MERGE_RUN; run < n; run *= 2) {
        for (ptrdiff_t lo = 0; lo < n; lo += 2 * run) {
            ptrdiff_t mid = lo + run < n ? lo + run : n;
            ptrdiff_t hi = lo + 2 * run < n ? lo + 2 * run : n;
            merge_runs(data, w, descending, pos, tmp, lo, mid, hi);
        }
        int64_t *t = pos;
        pos = tmp;
        tmp = t;
    }
    return pos;
}

static void
sort_complex_row(char *data, ptrdiff_t n, int w, bool descending,
                 workspace *ws, int64_t *index)
{
    int64_t *pos = index != NULL ? index : (int64_t *)(void *)ws->pay;
    int64_t *tmp = index != NULL ? (int64_t *)(void *)ws->pay
                                 : (int64_t *)(void *)ws->ptmp;
    int64_t *sorted = merge_sort_complex(data, n, w, descending, pos, tmp);
    if (index != NULL) {
        if (sorted != index) {
            memcpy(index, sorted, (size_t)n * sizeof *index);
        }
        return;
    }
    /* keys and tmp lie together: 16 bytes an element, a copy's room. */
    for (ptrdiff_t i = 0; i < n; i++) {
        memcpy(ws->keys + i * w, data + sorted[i] * w, (size_t)w);
    }
    memcpy(data, ws->keys, (size_t)(n * w));
}

/* A row's key range, its parts on the threads. */
typedef struct range_job {
    const form *f;
    const char *data;
    ptrdiff_t n;
    int w;
    uint64_t flip;
    key_range part[MAX_PARTS];
} range_job;

static void
range_part(void *ctx, int part, int parts)
{
    range_job *j = ctx;
    ptrdiff_t a = (ptrdiff_t)((double)j->n * part / parts);
    ptrdiff_t b = (ptrdiff_t)((double)j->n * (part + 1) / parts);
    j->part[part] = j->f->range(j->data + a * j->w, b - a, j->flip);
}

static key_range
range_of(const form *f, const char *data, ptrdiff_t n, int w, uint64_t flip)
{
    int parts = ua_host_parts((size_t)n * (size_t)w, 2);
    if (parts > MAX_PARTS) {
        parts = MAX_PARTS;
    }
    if (parts <= 1) {
        return f->range(data, n, flip);
    }
    range_job j = {f, data, n, w, flip, {{0}}};
    ua_host_parallel(parts, range_part, &j);
    key_range r = j.part[0];
    for (int p = 1; p < parts; p++) {
        r.lo = j.part[p].lo < r.lo ? j.part[p].lo : r.lo;
        r.hi = j.part[p].hi > r.hi ? j.part[p].hi : r.hi;
        r.loses |= j.part[p].loses;
    }
    return r;
}

/* false where there is no memory for a real row's lost values. */
static bool
sort_row(const ua_sort_plan *p, char *data, int64_t *index, workspace *ws)
{
    ptrdiff_t n = p->n;
    int w = (int)ua_dtype_itemsize(p->type);
    char k = sort_kind(p->type);
    if (k == 'c') {
        sort_complex_row(data, n, w, p->descending, ws, index);
        return true;
    }
    uint64_t flip = p->descending ? key_mask(w) : 0;
    if (n <= SHORT_ROW) {
        sort_short(data, n, w, k, flip, ws, index);
        return true;
    }
    form f = form_of(w, k);
    key_range r = range_of(&f, data, n, w, flip);
    bool narrow = digits_of(r.hi - r.lo) <= 4;
    if (index == NULL) {
        return sort_values(data, n, w, &f, flip, r, ws);
    } else if (narrow && (uint64_t)n <= UINT32_MAX) {
        argsort_packed(data, n, &f, flip, r, ws, index);
    } else if (narrow) {
        /* Rows past 2^32 elements: 32-bit keys as 64-bit ones. */
        uint32_t *k32 = (uint32_t *)(void *)ws->lost;
        int digits = digits_of(r.hi - r.lo);
        uint64_t *keys = (uint64_t *)(void *)ws->keys;
        uint64_t *tmp = (uint64_t *)(void *)ws->tmp;
        int64_t *pay = (int64_t *)(void *)ws->pay;
        int64_t *ptmp = (int64_t *)(void *)ws->ptmp;
        memset(ws->counts, 0, sizeof ws->counts);
        f.fill32(data, n, flip, r.lo, digits, k32, ws->counts);
        for (ptrdiff_t i = 0; i < n; i++) {
            keys[i] = k32[i];
            pay[i] = i;
        }
        radix64_p64(&keys, &tmp, &pay, &ptmp, n, 0, digits, ws->counts);
        memcpy(index, pay, (size_t)n * sizeof *index);
    } else {
        argsort_wide(data, n, &f, flip, r, ws, index);
    }
    return true;
}

ua_status
ua_host_sort(void *queue, const ua_sort_plan *p)
{
    (void)queue;
    if (p->rows == 0 || p->n == 0) {
        return UA_OK;
    }
    size_t n = (size_t)p->n, w = ua_dtype_itemsize(p->type);
    bool argsort = p->index != NULL;
    /* keys and tmp: 8 bytes each (64-bit keys, or packed positions); for
     * argsort and complex rows, positions and theirs, and the lost values
     * (or a 32-bit key each). */
    size_t bytes = ua_sort_scratch_bytes(n, p->type, argsort);
    char *mem = p->scratch;
    if (mem == NULL) {
        mem = malloc(bytes);
    }
    workspace *ws = malloc(sizeof *ws);
    if (mem == NULL || ws == NULL) {
        if (mem != p->scratch) {
            free(mem);
        }
        free(ws);
        return ua_error_set(UA_ERR_NOMEM,
                            "no host memory to sort %zu elements", n);
    }
    ws->keys = mem;
    ws->tmp = ws->keys + n * 8;
    bool compact = bytes == n * 16;
    ws->pay = compact ? NULL : ws->tmp + n * 8;
    ws->ptmp = compact ? NULL : ws->pay + n * 8;
    ws->lost = compact ? NULL : ws->ptmp + n * 8;
    ws->lost_bytes = compact ? n * w : 0;
    bool ok = true;
    for (ptrdiff_t i = 0; ok && i < p->rows; i++) {
        ok = sort_row(p, p->data + i * p->n * (ptrdiff_t)w,
                      argsort ? p->index + i * p->n : NULL, ws);
    }
    if (compact) {
        free(ws->lost);
    }
    if (mem != p->scratch) {
        free(mem);
    }
    free(ws);
    return ok ? UA_OK
              : ua_error_set(UA_ERR_NOMEM,
                             "no host memory to sort %zu elements", n);
}
