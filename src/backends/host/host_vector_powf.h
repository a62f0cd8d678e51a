/* float32 exp2, cbrt and pow that the host's compilers vectorize, beside
 * host_vector_mathf.h's other float32 functions (in its terms: UA_VMF_FN,
 * the rounders, moves between a float and its bits), which
 * host_elementwise_type.c's float32 loops call through UA_M as
 * ua_vmf_exp2, ua_vmf_cbrt and ua_vmf_pow. */
#ifndef USMARRAY_BACKENDS_HOST_HOST_VECTOR_POWF_H
#define USMARRAY_BACKENDS_HOST_HOST_VECTOR_POWF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "backends/host/host_vector_mathf.h"

/* 2^x = 2^k 2^r: k = rint(x) by the rounder, r = x - k exact
 * (|r| <= 1/2), 2^r = 1 + r q(r) with q of degree 5 fitted to the
 * relative error on [-1/2, 1/2] (below 0.3 of 2^-24 with the coefficients
 * rounded to float), and 2^k in two normal factors as in ua_vm_expf, so
 * that the product rounds once, into the subnormals too.  Integers give
 * r = 0, so their powers are exact; the clamps (which keep NaN) send
 * what lies past 128 to +inf and below -151 to +0. */
UA_VMF_FN float
ua_vmf_exp2(float x)
{
    x = x > 129.0f ? 129.0f : x;
    x = x < -151.0f ? -151.0f : x;
    float kf = x + UA_VM_ROUNDERF;
    int32_t k = (int32_t)(ua_vm_bitsf(kf) - ua_vm_bitsf(UA_VM_ROUNDERF));
    float r = x - (kf - UA_VM_ROUNDERF);
    float q = 0x1.41fbbcp-13f;
    q = q * r + 0x1.5f3e54p-10f;
    q = q * r + 0x1.3b2d4cp-7f;
    q = q * r + 0x1.c6aee8p-5f;
    q = q * r + 0x1.ebfbdcp-3f;
    q = q * r + 0x1.62e43p-1f;
    float e = 1.0f + r * q;
    /* k in [-151, 129]: an arithmetic shift (a floor, fewer instructions
     * than k / 2) leaves both factors normal */
    int32_t k1 = k >> 1;
    return e * ua_vm_pow2f(k1) * ua_vm_pow2f(k - k1);
}

/* cbrt(x) = sign(x) a^(1/3), a = |x|, from y ~ a^(-1/3), which Newton's
 * iteration for y^-3 = a finds without a division: a first guess from
 * a's bits (their integer value divided by 3, taken from a constant: the
 * exponent divided by 3 and the significand roughly, within 3.5%), one
 * step of third order in float, y (1 + e/3 + 2e^2/9) with e = 1 - a y^3
 * (to 2e-4: about 4.7 times the cube of the guess's error), the same in
 * double (to 4e-11), and a y^2 in double rounded once to float: within
 * 0.501 ULP.  a y^3 is formed as ((a y) y) y, whose partial products stay
 * normal for every float; subnormal a is scaled by 2^24 (its cube root
 * by 2^-8).  Zeros, infinities and NaN are their own cube roots. */
UA_VMF_FN float
ua_vmf_cbrt(float x)
{
    float a = fabsf(x);
    int tiny = a < 0x1p-126f;
    float as = tiny ? a * 0x1p24f : a;
    as = as == 0.0f || as == INFINITY ? 1.0f : as; /* lanes replaced below */
    /* the bits' third in float: an error of a few units in the guess */
    float third = (float)(int32_t)ua_vm_bitsf(as) * (1.0f / 3.0f);
    float y = ua_vmf_float(0x54a232a0u - (uint32_t)(int32_t)third);
    float e = 1.0f - ((as * y) * y) * y;
    y = y + y * e * (1.0f / 3.0f + e * (2.0f / 9.0f));
    double ad = (double)as, yd = (double)y;
    double ed = 1.0 - ((ad * yd) * yd) * yd;
    yd = yd + yd * ed * (1.0 / 3.0 + ed * (2.0 / 9.0));
    float c = (float)(ad * yd * yd);
    c = tiny ? c * 0x1p-8f : c;
    c = a == 0.0f || a == INFINITY || a != a ? a : c;
    return ua_vmf_with_sign(c, x);
}

/* log2(a) in double for a positive normal double a (every float is one):
 * a = 2^k m with m in [sqrt(2)/2, sqrt(2)) by the offset bits as in
 * ua_vmf_log_split, k from the exponent's bits put under 2^52 (no integer
 * conversion), f = m - 1 exact, s = f / (2 + f), and log2(m) =
 * 2/ln 2 (s + s^3/3 + ... + s^13/13) (|s| < 0.172: the first omitted
 * term is below 2^-39 of the sum). */
#define UA_VMF_SQRT_HALF_BITS 0x3fe6a09e667f3bcdu /* sqrt(2)/2 */

UA_VMF_FN double
ua_vmf_log2_wide(double a)
{
    uint64_t iu =
        ua_vm_bits(a) + (0x3ff0000000000000u - UA_VMF_SQRT_HALF_BITS);
    double k =
        ua_vm_double((iu >> 52) | 0x4330000000000000u) - (0x1p52 + 1023.0);
    double f =
        ua_vm_double((iu & 0x000fffffffffffffu) + UA_VMF_SQRT_HALF_BITS) - 1.0;
    double s = f / (2.0 + f);
    double z = s * s;
    double p = 1.0 / 13.0;
    p = p * z + 1.0 / 11.0;
    p = p * z + 1.0 / 9.0;
    p = p * z + 1.0 / 7.0;
    p = p * z + 1.0 / 5.0;
    p = p * z + 1.0 / 3.0;
    double s2 = s * 2.8853900817779268; /* 2 / ln 2 */
    return k + (s2 + s2 * (z * p));
}

/* 2^t in double for |t| <= 200: t = k + r by the rounder (|r| <= 1/2,
 * exact), 2^r = 1 + r q(r) with q of degree 5 fitted to the relative
 * error (below 2^-28.9), 2^k put in the exponent's bits. */
UA_VMF_FN double
ua_vmf_exp2_wide(double t)
{
    double kb = t + UA_VMF_ROUNDER;
    uint64_t kbits;
    memcpy(&kbits, &kb, sizeof kbits);
    double r = t - (kb - UA_VMF_ROUNDER);
    double q = 0x1.41fbbbe7fea4fp-13;
    q = q * r + 0x1.5f3e52faa182fp-10;
    q = q * r + 0x1.3b2d4cf1f9bd2p-7;
    q = q * r + 0x1.c6aee88e7efb5p-5;
    q = q * r + 0x1.ebfbdc3c301b0p-3;
    q = q * r + 0x1.62e430af2725cp-1;
    uint64_t scale = (uint64_t)((int64_t)(int32_t)(uint32_t)kbits + 1023)
                     << 52;
    double s;
    memcpy(&s, &scale, sizeof s);
    return (1.0 + r * q) * s;
}

/* pow(x, y) = 2^(y log2 |x|) in double, rounded once to float: the
 * product's error (2^-40 of it, at most 200 where it matters) and the two
 * polynomials' keep the result within 0.53 ULP (GCC 12; another build
 * measured 1.73, docs/elementwise.rst), into the subnormals and
 * to overflow (the double 2^t rounds to +inf or 0 past them).  Then C99's
 * special cases by selects: the sign of x where y is an odd integer (an
 * integer whose half is not one), NaN for a negative finite x and a finite
 * y that is not an integer, NaN from NaN but pow(x, +-0) and pow(1, y) are
 * 1, and pow(-1, +-inf) is 1.  x = +-0 and +-inf take log2 |x| = -inf and
 * +inf, whose products with y give the zeros and infinities that C asks
 * for; y = +-inf, the same with log2 |x| of either sign. */
UA_VMF_FN float
ua_vmf_pow(float x, float y)
{
    float ax = fabsf(x), ay = fabsf(y);
    /* |y| and |y|/2 rounded to integers (by the rounder below 2^23, past
     * which every float is one) */
    float yi = ay < 0x1p23f ? (ay + 0x1p23f) - 0x1p23f : ay;
    float hy = 0.5f * ay;
    float yh = hy < 0x1p23f ? (hy + 0x1p23f) - 0x1p23f : hy;
    int y_frac = yi != ay;
    int y_odd = yi == ay && yh != hy;
    float as = ax > 0.0f && ax < INFINITY ? ax : 1.0f;
    double l = ua_vmf_log2_wide((double)as); /* lanes replaced next */
    l = ax == 0.0f ? -(double)INFINITY : l;
    l = ax == INFINITY ? (double)INFINITY : l;
    /* the clamps as minimum and maximum (one instruction each), which
     * send a NaN of 0 times inf to 200: such lanes are replaced below */
    double t = (double)y * l;
    t = t < 200.0 ? t : 200.0;
    t = t > -200.0 ? t : -200.0;
    /* the special cases on float lanes, 16 to a vector */
    float r = (float)ua_vmf_exp2_wide(t);
    r = y_odd ? copysignf(r, x) : r; /* -0 and -inf keep their sign */
    r = x < 0.0f && ax != INFINITY && y_frac ? NAN : r;
    r = x != x || y != y ? x + y : r;
    /* an exponent of 2 gives x * x, the bits of the eager x ** 2 with a
     * scalar 2 (elementwise_rewrite.c) whatever operand holds the 2 */
    r = y == 2.0f ? x * x : r;
    r = x == 1.0f || y == 0.0f ? 1.0f : r;
    return x == -1.0f && ay == INFINITY ? 1.0f : r;
}

#endif
