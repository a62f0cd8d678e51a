/* Math functions that the host's compilers vectorize: only arithmetic,
 * comparisons, selects and moves between a double and its bits, so that a
 * loop calling them becomes SIMD code (the C library's exp is one call per
 * element).  Each stays within 1 ULP of the correctly rounded result
 * (tools/ew_ulp.py measures it) and gives C's special values: NaN for NaN,
 * +inf and 0 past the ends, exp(-inf) == 0.
 *
 * exp(x) = 2^k * exp(r), r = x - k ln 2 with |r| <= ln 2 / 2 (Cody and
 * Waite's split of ln 2, whose high part times k is exact), exp(r) by its
 * Taylor polynomial, whose first omitted term is below 2^-57 of the
 * result (float's, in float, below 0.05 ULP).  2^k is built from its bits, in two factors where k leaves the
 * normal range, so that subnormal results round once. */
#ifndef USMARRAY_BACKENDS_HOST_HOST_VECTOR_MATH_H
#define USMARRAY_BACKENDS_HOST_HOST_VECTOR_MATH_H

#include <stdint.h>
#include <string.h>

/* 1.5 * 2^52: adding it rounds a double below 2^51 in magnitude to an
 * integer (to nearest, ties to even), which its low bits then hold. */
#define UA_VM_ROUNDER 6755399441055744.0

static inline uint64_t
ua_vm_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline double
ua_vm_double(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* 2^k for -1022 <= k <= 1023. */
static inline double
ua_vm_pow2(int64_t k)
{
    return ua_vm_double((uint64_t)(k + 1023) << 52);
}

/* exp(r) - 1 - r over r*r, for |r| <= ln 2 / 2: Taylor's 1/2!, 1/3!, ...
 * 1/13! (the first omitted term is below 5e-18). */
static inline double
ua_vm_exp_tail(double r)
{
    double p = 1.0 / 6227020800.0;
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    return p * r + 0.5;
}

static inline double
ua_vm_exp(double x)
{
    /* Past these ends the result is +inf or 0; clamping keeps NaN. */
    x = x > 710.0 ? 710.0 : x;
    x = x < -746.0 ? -746.0 : x;
    double kd = x * 1.4426950408889634074 + UA_VM_ROUNDER;
    int64_t k = (int64_t)(ua_vm_bits(kd) - ua_vm_bits(UA_VM_ROUNDER));
    kd -= UA_VM_ROUNDER;
    double r = (x - kd * 6.93147180369123816490e-01) -
               kd * 1.90821492927058770002e-10;
    double e = 1.0 + (r + r * r * ua_vm_exp_tail(r));
    /* k in [-1077, 1025]: two factors, each normal. */
    int64_t k1 = k / 2;
    return e * ua_vm_pow2(k1) * ua_vm_pow2(k - k1);
}

/* float in float arithmetic, 16 lanes to a 512-bit vector where double
 * has 8: k = rint(x / ln 2) by the rounder, r = x - k ln 2 by Cody and
 * Waite's split (the high part, 0x1.62e4p-1, has 9 low zero bits, so k
 * times it is exact for |k| < 512), exp(r) by its Taylor polynomial to
 * r^7 (the first omitted term is below 0.05 ULP on |r| <= ln 2 / 2), and
 * 2^k in two factors, each normal, so that the product rounds once.
 * Within 1 ULP (tests/api/test_elementwise.py holds it there). */
#define UA_VM_ROUNDERF 12582912.0f /* 1.5 * 2^23 */

static inline uint32_t
ua_vm_bitsf(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* 2^k for -126 <= k <= 127. */
static inline float
ua_vm_pow2f(int32_t k)
{
    uint32_t u = ((uint32_t)k + 127u) << 23;
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static inline float
ua_vm_expf(float x)
{
    /* Past these ends the result is +inf or 0; clamping keeps NaN. */
    x = x > 89.0f ? 89.0f : x;
    x = x < -104.0f ? -104.0f : x;
    float kf = x * 1.44269504f + UA_VM_ROUNDERF;
    int32_t k = (int32_t)(ua_vm_bitsf(kf) - ua_vm_bitsf(UA_VM_ROUNDERF));
    kf -= UA_VM_ROUNDERF;
    float r = (x - kf * 0.693145751953125f) - kf * 1.42860677e-6f;
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    float e = 1.0f + (r + r * r * p);
    /* k in [-150, 128]: two factors, each normal. */
    int32_t k1 = k / 2;
    return e * ua_vm_pow2f(k1) * ua_vm_pow2f(k - k1);
}

#endif
