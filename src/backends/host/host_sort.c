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
 * first, and each bucket sorted on in cache (sort_long); rows of 4-byte
 * elements, where the CPU has AVX-512, by buckets of their keys' top bits
 * instead, joined to about the same size (host_sort_long.c).
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
#include "backends/host/host_sort.h"
#include "backends/host/host_threads.h"
#include "core/compute/kernels.h"

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

/* The histograms of the first `digits` digits of n keys. */
#define DEFINE_COUNT(B, KT)                                                   \
    static void count##B(const KT *keys, ptrdiff_t n, int digits,             \
                         histogram *counts)                                   \
    {                                                                         \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            for (int d = 0; d < digits; d++) {                                \
                counts[d][keys[i] >> (8 * d) & (RADIX - 1)]++;                \
            }                                                                 \
        }                                                                     \
    }

DEFINE_COUNT(32, uint32_t)
DEFINE_COUNT(64, uint64_t)

/* keys: the keys less lo alone, in a loop without branches that the
 * compiler vectorizes (a histogram's increments in it keep it scalar);
 * fill: then their histograms.  unkey turns keys back into values: where
 * none is lost, in a loop that vectorizes too. */
#define DEFINE_KEYS(S, W, K, KT, B)                                           \
    UA_HOST_CLONES static void keys##B##_##S(const char *data, ptrdiff_t n,   \
                                             uint64_t flip, uint64_t lo,      \
                                             KT *restrict keys)               \
    {                                                                         \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            keys[i] =                                                         \
                (KT)((key_of(load(data + i * W, W), W, K) ^ flip) - lo);      \
        }                                                                     \
    }                                                                         \
    static void fill##B##_##S(const char *data, ptrdiff_t n, uint64_t flip,   \
                              uint64_t lo, int digits, KT *restrict keys,     \
                              histogram *counts)                              \
    {                                                                         \
        keys##B##_##S(data, n, flip, lo, keys);                               \
        count##B(keys, n, digits, counts);                                    \
    }                                                                         \
    UA_HOST_CLONES static void values##B##_##S(                               \
        const KT *restrict keys, ptrdiff_t n, uint64_t lo, uint64_t flip,     \
        char *restrict data)                                                  \
    {                                                                         \
        if (W == 4) { /* in 32-bit lanes, twice the others' */                \
            uint32_t l = (uint32_t)lo, f = (uint32_t)flip;                    \
            for (ptrdiff_t i = 0; i < n; i++) {                               \
                uint32_t v = value32_of(((uint32_t)keys[i] + l) ^ f, K);      \
                memcpy(data + i * 4, &v, 4);                                  \
            }                                                                 \
            return;                                                           \
        }                                                                     \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            uint64_t k = (((uint64_t)keys[i] + lo) ^ flip) & key_mask(W);     \
            store(data + i * W, W, value_of(k, W, K));                        \
        }                                                                     \
    }                                                                         \
    static void unkey##B##_##S(const KT *restrict keys, ptrdiff_t n,          \
                               uint64_t lo, uint64_t flip, char *data,        \
                               const char *lost)                              \
    {                                                                         \
        if (lost == NULL) {                                                   \
            values##B##_##S(keys, n, lo, flip, data);                         \
            return;                                                           \
        }                                                                     \
        uint64_t nan = key_mask(W), zero = key_of(0, W, K);                   \
        ptrdiff_t zi = 0, ni = n;                                             \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            uint64_t k = (((uint64_t)keys[i] + lo) ^ flip) & nan;             \
            uint64_t v = value_of(k, W, K);                                   \
            if (k == zero) {                                                  \
                v = load(lost + zi++ * W, W);                                 \
            } else if (k == nan) {                                            \
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

/* 4-byte elements' keys (host_sort_long.c): scan, the keys of n
 * elements and their range, in a loop that vectorizes with 32-bit lanes;
 * prefix, the range with the counts of the keys' top PREFIX_BITS, a
 * chunk's keys at a time. */
#define DEFINE_FOUR(S, K)                                                     \
    UA_HOST_CLONES static key_range scan32_##S(const char *data, ptrdiff_t n, \
                                               uint64_t flip,                 \
                                               uint32_t *restrict keys)       \
    {                                                                         \
        uint32_t lo = ~0u, hi = 0, loses = 0, f = (uint32_t)flip;             \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            uint32_t v;                                                       \
            memcpy(&v, data + i * 4, 4);                                      \
            uint32_t k = key32_of(v, K) ^ f;                                  \
            keys[i] = k;                                                      \
            lo = k < lo ? k : lo;                                             \
            hi = k > hi ? k : hi;                                             \
            loses |= key32_loses(v, K);                                       \
        }                                                                     \
        return (key_range){lo, hi, loses != 0};                               \
    }                                                                         \
    static key_range prefix32_##S(const char *data, ptrdiff_t n,              \
                                  uint64_t flip, uint32_t *counts)            \
    {                                                                         \
        uint32_t keys[PREFIX_CHUNK];                                          \
        key_range r = {~(uint64_t)0, 0, false};                               \
        for (ptrdiff_t a = 0; a < n; a += PREFIX_CHUNK) {                     \
            ptrdiff_t m = n - a < PREFIX_CHUNK ? n - a : PREFIX_CHUNK;        \
            key_range c = scan32_##S(data + a * 4, m, flip, keys);            \
            r.lo = c.lo < r.lo ? c.lo : r.lo;                                 \
            r.hi = c.hi > r.hi ? c.hi : r.hi;                                 \
            r.loses |= c.loses;                                               \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                counts[keys[i] >> (32 - PREFIX_BITS)]++;                      \
            }                                                                 \
        }                                                                     \
        return r;                                                             \
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
DEFINE_FOUR(u4, 'u')
DEFINE_FOUR(i4, 'i')
DEFINE_FOUR(f4, 'f')
DEFINE_WIDE(u8, 8, 'u')
DEFINE_WIDE(i8, 8, 'i')
DEFINE_WIDE(f8, 8, 'f')

static form
form_of(int w, char k)
{
/* Per element form: what 8-byte and 4-byte elements have beside the
 * others'. */
#define FORM(S, FILL64, UNKEY64, TOP64, SCAN32, PREFIX32)                     \
    (form){range_##S, fill32_##S, FILL64, unkey32_##S, UNKEY64,               \
           top32_##S, TOP64,      SCAN32, PREFIX32}
#define NARROW(S) FORM(S, NULL, NULL, NULL, NULL, NULL)
#define FOUR(S) FORM(S, NULL, NULL, NULL, scan32_##S, prefix32_##S)
#define WIDE(S) FORM(S, fill64_##S, unkey64_##S, top64_##S, NULL, NULL)
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
        return FOUR(i4);
    case 4 * 256 + 'u':
        return FOUR(u4);
    case 4 * 256 + 'f':
        return FOUR(f4);
    case 8 * 256 + 'i':
        return WIDE(i8);
    case 8 * 256 + 'u':
        return WIDE(u8);
    default:
        return WIDE(f8);
    }
#undef FORM
#undef NARROW
#undef FOUR
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
            size_t *c = counts[d - d0];                                       \
            int shift = 8 * d;                                                \
            if (c[(*keys)[0] >> shift & (RADIX - 1)] == (size_t)n) {          \
                continue; /* one digit for all: nothing moves */              \
            }                                                                 \
            bucket_starts(c, RADIX);                                          \
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

static key_range range_of(const form *f, const char *data, ptrdiff_t n, int w,
                          uint64_t flip);

/* The values whose keys lose them kept, where the row has any: *lost
 * NULL where it has none; false where there is no memory for them. */
static bool
keep_lost_of(const char *data, ptrdiff_t n, int w, key_range r, workspace *ws,
             const char **lost)
{
    *lost = NULL;
    if (r.loses) {
        char *keep = lost_of(ws);
        if (keep == NULL) {
            return false;
        }
        keep_lost(data, n, w, keep);
        *lost = keep;
    }
    return true;
}

/* sort: keys only, turned back into values; false where there is no
 * memory for the lost values.  Long rows of 4-byte elements go by their
 * keys' prefixes where they can (host_sort_long.c), whose count finds
 * the range on the way. */
static bool
sort_values(char *data, ptrdiff_t n, int w, const form *f, uint64_t flip,
            workspace *ws)
{
    key_range r;
    prefix_sort *pre = NULL;
    if (f->prefix32 != NULL && (size_t)n * 2 * 4 > CACHE_BYTES) {
        pre = ua_host_prefix_count(data, n, f, flip, &r);
    }
    if (pre == NULL) {
        r = range_of(f, data, n, w, flip);
    }
    const char *lost;
    bool kept = keep_lost_of(data, n, w, r, ws, &lost);
    bool done = kept && pre != NULL &&
                ua_host_prefix_sort(pre, ws->keys, ws->tmp, lost);
    ua_host_prefix_free(pre);
    if (!kept || done) {
        return kept;
    }
    int digits = digits_of(r.hi - r.lo);
    int bits = 64 - (r.hi == r.lo ? 64 : __builtin_clzll(r.hi - r.lo));
    size_t ksz = digits <= 4 ? 4 : 8;
    if ((size_t)n * 2 * ksz > CACHE_BYTES && bits > TOP_BITS &&
        ua_host_sort_long(data, n, w, f, flip, r, bits, ws->keys, ws->tmp,
                          lost)) {
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
    if (index == NULL) {
        return sort_values(data, n, w, &f, flip, ws);
    }
    key_range r = range_of(&f, data, n, w, flip);
    bool narrow = digits_of(r.hi - r.lo) <= 4;
    if (narrow && (uint64_t)n <= UINT32_MAX) {
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
