/* The order-preserving keys of the host's sorting kernels (host_sort.c,
 * host_search.c): every element becomes an unsigned key of its own width
 * whose order is the sort's: integers with the sign bit flipped, floating
 * numbers by their sign and magnitude, every NaN the largest key and -0.0
 * the key of 0.0 (they are equal, so a stable sort keeps their order, as
 * NumPy's stable sort does).  Descending order flips every bit of the key,
 * which puts NaNs first and keeps equal elements in their order. */
#ifndef USMARRAY_HOST_SORT_KEYS_H
#define USMARRAY_HOST_SORT_KEYS_H

#include <string.h>

#include "core/core.h"

/* The key of the w-byte value v of kind k ('b', 'i', 'u' or 'f'). */
static inline uint64_t
key_of(uint64_t v, int w, char k)
{
    uint64_t sign = (uint64_t)1 << (8 * w - 1);
    uint64_t all = w == 8 ? ~(uint64_t)0 : (sign << 1) - 1;
    if (k == 'i') {
        return v ^ sign;
    }
    if (k != 'f') {
        return v;
    }
    uint64_t exp = w == 2 ? 0x7c00u : w == 4 ? 0x7f800000u : 0x7ffULL << 52;
    /* Without branches, so that the loops over keys vectorize: negative
     * numbers flip every bit, the others their sign. */
    uint64_t neg = (uint64_t)0 - (v >> (8 * w - 1) & 1);
    uint64_t key = v ^ ((neg & all) | sign);
    key = v == sign ? sign : key;               /* -0.0 as 0.0 */
    return (v & ~sign & all) > exp ? all : key; /* NaN after all */
}

/* key_of for 4-byte values, in 32-bit arithmetic: a loop over them then
 * vectorizes with 32-bit lanes, twice key_of's. */
static inline uint32_t
key32_of(uint32_t v, char k)
{
    if (k == 'i') {
        return v ^ 0x80000000u;
    }
    if (k != 'f') {
        return v;
    }
    uint32_t neg = 0u - (v >> 31);
    uint32_t key = v ^ (neg | 0x80000000u);
    key = v == 0x80000000u ? 0x80000000u : key;         /* -0.0 as 0.0 */
    return (v & 0x7fffffffu) > 0x7f800000u ? ~0u : key; /* NaN after all */
}

/* The value whose key is key, where the key is one to one. */
static inline uint64_t
value_of(uint64_t key, int w, char k)
{
    uint64_t sign = (uint64_t)1 << (8 * w - 1);
    uint64_t all = w == 8 ? ~(uint64_t)0 : (sign << 1) - 1;
    if (k == 'i') {
        return key ^ sign;
    }
    if (k != 'f') {
        return key;
    }
    return key & sign ? key & ~sign : ~key & all;
}

/* value_of for 4-byte values, in 32-bit arithmetic (key32_of). */
static inline uint32_t
value32_of(uint32_t key, char k)
{
    if (k == 'i') {
        return key ^ 0x80000000u;
    }
    if (k != 'f') {
        return key;
    }
    return key & 0x80000000u ? key & 0x7fffffffu : ~key;
}

static inline uint64_t
load(const char *p, int w)
{
    switch (w) {
    case 1:
        return *(const uint8_t *)p;
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

static inline void
store(char *p, int w, uint64_t v)
{
    switch (w) {
    case 1:
        *(uint8_t *)p = (uint8_t)v;
        break;
    case 2: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, 2);
        break;
    }
    case 4: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
        break;
    }
    default:
        memcpy(p, &v, 8);
    }
}

static inline char
sort_kind(ua_typenum t)
{
    char k = ua_dtype_kind(t);
    return k == 'b' ? 'u' : k;
}

/* The w bytes of all ones: the key of every NaN. */
static inline uint64_t
key_mask(int w)
{
    return w == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * w)) - 1;
}

/* Whether the w-byte value v of kind k has a key that does not give it
 * back: -0.0 and NaNs. */
static inline uint64_t
key_loses(uint64_t v, int w, char k)
{
    uint64_t sign = (uint64_t)1 << (8 * w - 1);
    uint64_t exp = w == 2 ? 0x7c00u : w == 4 ? 0x7f800000u : 0x7ffULL << 52;
    uint64_t x = v ^ sign, abs = v & ~sign & key_mask(w);
    /* Top bits of differences, not comparisons, which keep GCC from
     * vectorizing the loops that call this: abs > exp (NaN), x == 0
     * (-0.0). */
    uint64_t nan = (exp - abs) >> 63, negzero = ((x - 1) & ~x) >> 63;
    return (uint64_t)(k == 'f') & (nan | negzero);
}

/* key_loses for 4-byte values, in 32-bit arithmetic (key32_of). */
static inline uint32_t
key32_loses(uint32_t v, char k)
{
    uint32_t nan = (0x7f800000u - (v & 0x7fffffffu)) >> 31;
    uint32_t negzero = v == 0x80000000u;
    return (uint32_t)(k == 'f') & (nan | negzero);
}

/* The order NumPy sorts complex numbers in: by real part, then imaginary
 * part, each by the float keys above (so -0.0 equals 0.0), with the
 * numbers that hold a NaN after all others, in three classes: a NaN
 * imaginary part (ordered by the real part), then a NaN real part
 * (ordered by the imaginary part), then both NaN.  A complex key is the
 * class and the one or two keys that order it. */
typedef struct complex_key {
    unsigned cls;
    uint64_t first, second;
} complex_key;

/* The key of the w-byte complex number at p (w = 8 or 16). */
static inline complex_key
complex_key_of(const char *p, int w)
{
    int h = w / 2;
    uint64_t nan = key_mask(h);
    uint64_t re = key_of(load(p, h), h, 'f');
    uint64_t im = key_of(load(p + h, h), h, 'f');
    unsigned cls = (re == nan) * 2u + (im == nan);
    switch (cls) {
    case 0:
        return (complex_key){0, re, im};
    case 1:
        return (complex_key){1, re, 0};
    case 2:
        return (complex_key){2, im, 0};
    default:
        return (complex_key){3, 0, 0};
    }
}

/* -1, 0 or 1 as a sorts before, with or after b. */
static inline int
complex_key_cmp(complex_key a, complex_key b)
{
    if (a.cls != b.cls) {
        return a.cls < b.cls ? -1 : 1;
    }
    if (a.first != b.first) {
        return a.first < b.first ? -1 : 1;
    }
    if (a.second != b.second) {
        return a.second < b.second ? -1 : 1;
    }
    return 0;
}

/* Whether the key is of a number with a NaN part, which equals nothing. */
static inline bool
complex_key_is_nan(complex_key a)
{
    return a.cls != 0;
}

#endif
