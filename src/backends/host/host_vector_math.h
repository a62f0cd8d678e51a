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

#include <math.h>
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

/* ------------------------------------------------------------ float64
 *
 * float64 math in double arithmetic, for host_elementwise_type.c's float64
 * loops (UA_M names ua_vmd_* there): what the C library computes one call
 * per element, here in arithmetic, selects and moves between a double and
 * its bits, with no branch a lane could take alone, so that the loops
 * become SIMD code (4 lanes with AVX2, 8 with AVX-512).  Integers stay 64
 * bits wide and reach doubles through the rounder's bits, since AVX2 has
 * no conversion between 64-bit integers and doubles.  Each is within 2 ULP
 * of the correctly rounded result (tools/elementwise_ulp.py and
 * tests/api/test_elementwise.py measure them) and gives C's special
 * values, which are the Array API standard's. */

#if defined(__GNUC__)
#define UA_VMD_FN static inline __attribute__((always_inline))
#else
#define UA_VMD_FN static inline
#endif

/* x with the sign bit of s. */
UA_VMD_FN double
ua_vmd_with_sign(double x, double s)
{
    return ua_vm_double((ua_vm_bits(x) & 0x7fffffffffffffffu) |
                        (ua_vm_bits(s) & 0x8000000000000000u));
}

/* The integer k (|k| < 2^51) as a double, through the rounder's bits. */
UA_VMD_FN double
ua_vmd_int_to_double(int64_t k)
{
    return ua_vm_double(ua_vm_bits(UA_VM_ROUNDER) + (uint64_t)k) -
           UA_VM_ROUNDER;
}

/* exp(x) / 2 for x <= 711 (cosh and sinh reach past exp's overflow at
 * 709.78): ua_vm_exp's steps with 2^(k-1) in two normal factors. */
UA_VMD_FN double
ua_vmd_half_exp(double x)
{
    x = x > 711.0 ? 711.0 : x;
    x = x < -746.0 ? -746.0 : x;
    double kd = x * 1.4426950408889634074 + UA_VM_ROUNDER;
    int64_t k = (int64_t)(ua_vm_bits(kd) - ua_vm_bits(UA_VM_ROUNDER)) - 1;
    kd -= UA_VM_ROUNDER;
    double r = (x - kd * 6.93147180369123816490e-01) -
               kd * 1.90821492927058770002e-10;
    double e = 1.0 + (r + r * r * ua_vm_exp_tail(r));
    int64_t k1 = k / 2;
    return e * ua_vm_pow2(k1) * ua_vm_pow2(k - k1);
}

/* expm1(x): x = k ln 2 + r + c by Cody and Waite's split (r rounded, c
 * its rounding error, both 0 past r where k is 0), expm1(r + c) =
 * e + el with e = r + r^2 times Taylor's tail (ua_vm_exp_tail) rounded,
 * el that sum's rounding error (Knuth's fast two-sum) plus c (1 + e), and
 * expm1(x) = 2^k (e + el) + (2^k - 1), computed as 2 ((t - 1/2) +
 * t (e + el)) with t = 2^(k-1): t - 1/2 is exact for the k that matter
 * (k >= -53; below, the result rounds to -1), and 2^(k-1) is finite up
 * to x = 710, past which the doubling overflows to +inf as it should.
 * k == 0 keeps e + el, whose error is relative however small x is (t e
 * would round a subnormal). */
UA_VMD_FN double
ua_vmd_expm1(double x)
{
    double xc = x > 710.0 ? 710.0 : x;
    xc = xc < -45.0 ? -45.0 : xc;
    double kr = xc * 1.4426950408889634074 + UA_VM_ROUNDER;
    int64_t k = (int64_t)(ua_vm_bits(kr) - ua_vm_bits(UA_VM_ROUNDER));
    double kd = kr - UA_VM_ROUNDER;
    double hi = xc - kd * 6.93147180369123816490e-01; /* exact */
    double lo = kd * 1.90821492927058770002e-10;
    double r = hi - lo;
    double c = (hi - r) - lo;
    double q = r * r * ua_vm_exp_tail(r);
    double e = r + q;
    double el = ((r - e) + q) + c * (1.0 + e); /* e's rounding error, and c */
    double t = ua_vm_pow2(k - 1);
    double y = 2.0 * ((t - 0.5) + (t * e + t * el));
    y = k == 0 ? e + el : y;
    return x == 0.0 ? x : y; /* keeps -0 */
}

/* u > 0 (finite, normal) as 2^k m, m in [sqrt(2)/2, sqrt(2)), k offset
 * by j (a scaling of u done before); with f = m - 1 (exact), s = f / (2 +
 * f), hfsq = f^2 / 2 and R = 2s^2/3 + 2s^4/5 + ... by the minimax
 * polynomial of fdlibm's log (Lg1 .. Lg7, below 2^-58.45 on the range):
 * log(m) = f - hfsq + s (hfsq + R), the rounding errors on the small
 * terms.  What log, log1p, log2 and log10 share. */
typedef struct {
    double k, f, s, hfsq, r;
} ua_vmd_log_parts;

UA_VMD_FN ua_vmd_log_parts
ua_vmd_log_split(double u, int64_t j)
{
    ua_vmd_log_parts p;
    uint64_t iu = ua_vm_bits(u) + (0x3ff0000000000000u - 0x3fe6a09e667f3bcdu);
    p.k = ua_vmd_int_to_double((int64_t)(iu >> 52) - 1023 + j);
    double m = ua_vm_double((iu & 0x000fffffffffffffu) + 0x3fe6a09e667f3bcdu);
    p.f = m - 1.0;
    p.s = p.f / (2.0 + p.f);
    double z = p.s * p.s;
    double r = 1.479819860511658591e-01;
    r = r * z + 1.531383769920937332e-01;
    r = r * z + 1.818357216161805012e-01;
    r = r * z + 2.222219843214978396e-01;
    r = r * z + 2.857142874366239149e-01;
    r = r * z + 3.999999999940941908e-01;
    r = r * z + 6.666666666666735130e-01;
    p.r = r * z;
    p.hfsq = 0.5 * p.f * p.f;
    return p;
}

/* log(u) + c / u + j ln 2 for u > 0 normal (or +inf), c far below u: ln 2
 * in two parts, the first with 32 low zero bits so that k times it is
 * exact. */
UA_VMD_FN double
ua_vmd_log_core(double u, double c, int64_t j)
{
    ua_vmd_log_parts p = ua_vmd_log_split(u, j);
    double lo = p.k * 1.90821492927058770002e-10 + c / u;
    double y = p.k * 6.93147180369123816490e-01 +
               (p.f - (p.hfsq - (p.s * (p.hfsq + p.r) + lo)));
    return u == INFINITY ? u : y;
}

/* C's special values of the logarithms of x: NaN below 0 and for NaN,
 * -inf at either zero, +inf at +inf. */
UA_VMD_FN double
ua_vmd_log_special(double x, double y)
{
    y = x == INFINITY ? x : y;
    y = x == 0.0 ? -INFINITY : y;
    y = x < 0.0 ? NAN : y;
    return x != x ? x : y;
}

/* Subnormal x scaled by 2^54 (j = -54), and the lanes the selects of
 * ua_vmd_log_special replace given 1. */
UA_VMD_FN double
ua_vmd_log_input(double x, int64_t *j)
{
    int tiny = x < 0x1p-1022;
    *j = tiny ? -54 : 0;
    double xs = tiny ? x * 0x1p54 : x;
    return xs > 0.0 && xs < INFINITY ? xs : 1.0;
}

UA_VMD_FN double
ua_vmd_log(double x)
{
    int64_t j;
    double u = ua_vmd_log_input(x, &j);
    return ua_vmd_log_special(x, ua_vmd_log_core(u, 0.0, j));
}

/* log1p(x) = log(u) + c / u, u = 1 + x rounded and c its rounding error
 * (Knuth's fast two-sum, the larger of 1 and x first). */
UA_VMD_FN double
ua_vmd_log1p(double x)
{
    double u = 1.0 + x;
    double c = x > 1.0 ? (x - u) + 1.0 : (1.0 - u) + x;
    double uc = u > 0.0 ? u : 1.0; /* lanes that the selects replace */
    double y = ua_vmd_log_core(uc, c, 0);
    y = u == 0.0 ? -INFINITY : y;
    y = x < -1.0 ? NAN : y;
    y = x != x ? x : y;
    return x == 0.0 ? x : y; /* keeps -0 */
}

/* log(m) = hi + lo, hi being f - hfsq cut to its high 21 bits, so that
 * its products with the 33-bit high parts of 1/ln 2 and 1/ln 10 are
 * exact (fdlibm's log2 and log10). */
UA_VMD_FN double
ua_vmd_log_hi(ua_vmd_log_parts p, double *lo)
{
    double hi = p.f - p.hfsq;
    hi = ua_vm_double(ua_vm_bits(hi) & 0xffffffff00000000u);
    *lo = (p.f - hi) - p.hfsq + p.s * (p.hfsq + p.r);
    return hi;
}

/* log2(x) = k + log(m) / ln 2: the product in two parts, and k added by
 * a two-sum (|k| >= 1 exceeds |log2(m)| <= 1/2, or k is 0). */
UA_VMD_FN double
ua_vmd_log2(double x)
{
    int64_t j;
    double u = ua_vmd_log_input(x, &j);
    ua_vmd_log_parts p = ua_vmd_log_split(u, j);
    double lo;
    double hi = ua_vmd_log_hi(p, &lo);
    const double ivln2hi = 1.44269504072144627571e+00;
    const double ivln2lo = 1.67517131648865118353e-10;
    double vhi = hi * ivln2hi;
    double vlo = (lo + hi) * ivln2lo + lo * ivln2hi;
    double w = p.k + vhi;
    vlo += (p.k - w) + vhi;
    return ua_vmd_log_special(x, vlo + w);
}

/* log10(x) = k log10(2) + log(m) / ln 10, each product in two parts. */
UA_VMD_FN double
ua_vmd_log10(double x)
{
    int64_t j;
    double u = ua_vmd_log_input(x, &j);
    ua_vmd_log_parts p = ua_vmd_log_split(u, j);
    double lo;
    double hi = ua_vmd_log_hi(p, &lo);
    const double ivln10hi = 4.34294481878168880939e-01;
    const double ivln10lo = 2.50829467116452752298e-11;
    const double log10_2hi = 3.01029995663611771306e-01;
    const double log10_2lo = 3.69423907715893078616e-13;
    double vhi = hi * ivln10hi;
    double y2 = p.k * log10_2hi;
    double vlo = p.k * log10_2lo + (lo + hi) * ivln10lo + lo * ivln10hi;
    double w = y2 + vhi;
    vlo += (y2 - w) + vhi;
    return ua_vmd_log_special(x, vlo + w);
}

/* cosh(x) = h + 1/(4h) with h = exp(|x|)/2 found without overflow; the
 * second term vanishes where the first is infinite. */
UA_VMD_FN double
ua_vmd_cosh(double x)
{
    double h = ua_vmd_half_exp(fabs(x));
    return h + 0.25 / h;
}

/* sinh(|x|) = a + a^3 P(a^2) below 1, P Taylor's 1/3! .. 1/19! (the first
 * omitted term is below 2^-65 of the result); above, h - 1/(4h) with
 * h = exp(|x|)/2 (the difference loses at most a fifth of a bit at 1). */
UA_VMD_FN double
ua_vmd_sinh(double x)
{
    double a = fabs(x);
    double z = a * a;
    double p = 1.0 / 121645100408832000.0;
    p = p * z + 1.0 / 355687428096000.0;
    p = p * z + 1.0 / 1307674368000.0;
    p = p * z + 1.0 / 6227020800.0;
    p = p * z + 1.0 / 39916800.0;
    p = p * z + 1.0 / 362880.0;
    p = p * z + 1.0 / 5040.0;
    p = p * z + 1.0 / 120.0;
    p = p * z + 1.0 / 6.0;
    double small = a + a * z * p;
    double h = ua_vmd_half_exp(a);
    double y = a < 1.0 ? small : h - 0.25 / h;
    return ua_vmd_with_sign(a != a ? x : y, x);
}

/* tanh(|x|) = a + a^3 P(a^2) below 0.55, P of degree 10 interpolating
 * (tanh(a) - a) / a^3 at the Chebyshev nodes of a^2 in [0, 0.3025]
 * (within 0.05 ULP of the result, the coefficients' rounding included);
 * above, 1 - 2 / (exp(2a) + 1), whose second term is then below the
 * result (tanh(0.55) > 1/2); past 20 it rounds to 1. */
UA_VMD_FN double
ua_vmd_tanh(double x)
{
    double a = fabs(x);
    double z = a * a;
    double p = -0x1.59a834187ce22p-16;
    p = p * z + 0x1.64fd88e9900a4p-14;
    p = p * z - 0x1.ec1091436eb2ap-13;
    p = p * z + 0x1.34c5a8a996cd4p-11;
    p = p * z - 0x1.7d97cfd138c28p-10;
    p = p * z + 0x1.d6d339333f329p-9;
    p = p * z - 0x1.226e32f00cf0cp-7;
    p = p * z + 0x1.664f487713373p-6;
    p = p * z - 0x1.ba1ba1b9fec84p-5;
    p = p * z + 0x1.1111111111032p-3;
    p = p * z - 0x1.5555555555555p-2;
    double small = a + a * z * p;
    double e = ua_vm_exp(2.0 * (a < 20.0 ? a : 20.0));
    double y = a < 0.55 ? small : 1.0 - 2.0 / (e + 1.0);
    return ua_vmd_with_sign(a != a ? x : y, x);
}

/* atanh(|x|) = log1p(2a / (1 - a)) / 2, the argument as 2a + 2a^2 /
 * (1 - a) so that small a keep their digits; 1 gives inf, past 1 NaN. */
UA_VMD_FN double
ua_vmd_atanh(double x)
{
    double a = fabs(x);
    double t = a + a;
    double y = 0.5 * ua_vmd_log1p(t + t * a / (1.0 - a));
    y = a > 1.0 ? NAN : y;
    return ua_vmd_with_sign(a != a ? x : y, x);
}

/* asinh(|x|) = log1p(a + a^2 / (1 + sqrt(1 + a^2))) up to 2^28, above
 * which it is log(2a) within double's precision; below 2^-28 it is a. */
UA_VMD_FN double
ua_vmd_asinh(double x)
{
    double a = fabs(x);
    int large = a > 0x1p28;
    double as = large ? 1.0 : a;
    double t = as + as * as / (1.0 + sqrt(1.0 + as * as));
    double u = 1.0 + t;
    double c = t > 1.0 ? (t - u) + 1.0 : (1.0 - u) + t;
    double y = ua_vmd_log_core(large ? a : u, large ? 0.0 : c, large);
    y = a < 0x1p-28 ? a : y;
    return ua_vmd_with_sign(a != a ? x : y, x);
}

/* atan(t) = t - t S(t) for |t| <= 7/16: S fdlibm's minimax polynomial
 * of atan (aT[0] .. aT[10]), in odd and even halves. */
UA_VMD_FN double
ua_vmd_atan_poly(double t)
{
    double z = t * t, w = z * z;
    double s1 = 1.62858201153657823623e-02;
    s1 = s1 * w + 4.97687799461593236017e-02;
    s1 = s1 * w + 6.66107313738753120669e-02;
    s1 = s1 * w + 9.09088713343650656196e-02;
    s1 = s1 * w + 1.42857142725034663711e-01;
    s1 = s1 * w + 3.33333333333329318027e-01;
    s1 = s1 * z;
    double s2 = -3.65315727442169155270e-02;
    s2 = s2 * w - 5.83357013379057348645e-02;
    s2 = s2 * w - 7.69187620504482999495e-02;
    s2 = s2 * w - 1.11111104054623557880e-01;
    s2 = s2 * w - 1.99999999998764832476e-01;
    s2 = s2 * w;
    return s1 + s2;
}

/* atan(|x|) = atan(c) + atan(t), t = (|x| - c) / (1 + c |x|) for the
 * nearest of c = 1/2, 1, 3/2 and inf past 7/16 (fdlibm's atan: the
 * breakpoints 11/16, 19/16, 39/16, the divisions of its cases written
 * so that each is exact but for its last rounding), atan(c) in two
 * parts; the sign is x's. */
UA_VMD_FN double
ua_vmd_atan(double x)
{
    double a = fabs(x);
    int i0 = a >= 0.4375, i1 = a >= 0.6875, i2 = a >= 1.1875, i3 = a >= 2.4375;
    double num = i3   ? -1.0
                 : i2 ? a - 1.5
                 : i1 ? a - 1.0
                 : i0 ? 2.0 * a - 1.0
                      : a;
    double den = i3   ? a
                 : i2 ? 1.0 + 1.5 * a
                 : i1 ? a + 1.0
                 : i0 ? 2.0 + a
                      : 1.0;
    double t = num / den;
    double hi = i3   ? 1.57079632679489655800e+00
                : i2 ? 9.82793723247329054082e-01
                : i1 ? 7.85398163397448278999e-01
                     : 4.63647609000806093515e-01;
    double lo = i3   ? 6.12323399573676603587e-17
                : i2 ? 1.39033110312309984516e-17
                : i1 ? 3.06161699786838301793e-17
                     : 2.26987774529616870924e-17;
    double sum = ua_vmd_atan_poly(t);
    double small = t - t * sum;
    double big = hi - ((t * sum - lo) - t);
    double y = i0 ? big : small;
    return ua_vmd_with_sign(a != a ? x : y, x);
}

/* asin(x) - x over x for |x| <= 1/2 of z = x^2: fdlibm's rational
 * minimax p(z) / q(z) of asin (pS0 .. pS5, qS1 .. qS4). */
UA_VMD_FN double
ua_vmd_asin_ratio(double z)
{
    double p = 3.47933107596021167570e-05;
    p = p * z + 7.91534994289814532176e-04;
    p = p * z - 4.00555345006794114027e-02;
    p = p * z + 2.01212532134862925881e-01;
    p = p * z - 3.25565818622400915405e-01;
    p = p * z + 1.66666666666666657415e-01;
    p = p * z;
    double q = 7.70381505559019352791e-02;
    q = q * z - 6.88283971605453293030e-01;
    q = q * z + 2.02094576023350569471e+00;
    q = q * z - 2.40339491173441421878e+00;
    q = q * z + 1.0;
    return p / q;
}

#define UA_VMD_PIO2_HI 1.57079632679489655800e+00
#define UA_VMD_PIO2_LO 6.12323399573676603587e-17
#define UA_VMD_PIO4_HI 7.85398163397448278999e-01

/* asin(|x|) = x + x r(x^2) below 1/2; above, pi/2 - 2 asin(s) with
 * s = sqrt((1 - |x|) / 2) (1 - |x| exact), s split into a 21-bit head
 * and the rest below 0.975 so that the cancellation keeps its digits
 * (fdlibm's asin); past 1 the sqrt gives NaN. */
UA_VMD_FN double
ua_vmd_asin(double x)
{
    double a = fabs(x);
    int big = a >= 0.5;
    double z = big ? 0.5 * (1.0 - a) : a * a;
    double r = ua_vmd_asin_ratio(z);
    double small = a + a * r;
    double s = sqrt(z);
    double near1 = UA_VMD_PIO2_HI - (2.0 * (s + s * r) - UA_VMD_PIO2_LO);
    double w = ua_vm_double(ua_vm_bits(s) & 0xffffffff00000000u);
    double c = (z - w * w) / (s + w);
    double p = 2.0 * s * r - (UA_VMD_PIO2_LO - 2.0 * c);
    double q = UA_VMD_PIO4_HI - 2.0 * w;
    double mid = UA_VMD_PIO4_HI - (p - q);
    double y = !big ? small : a >= 0.975 ? near1 : mid;
    y = a > 1.0 ? NAN : y;
    return ua_vmd_with_sign(a != a ? x : y, x);
}

/* acos(x) = pi/2 - (x + x r(x^2)) below 1/2 in magnitude; above 1/2,
 * 2 asin(s), s = sqrt((1 - x) / 2), with s's head and rest apart; below
 * -1/2, pi - 2 asin(sqrt((1 + x) / 2)) (fdlibm's acos); +-1 give 0 and
 * pi, past them NaN. */
UA_VMD_FN double
ua_vmd_acos(double x)
{
    double a = fabs(x);
    int big = a >= 0.5;
    double z = big ? 0.5 * (1.0 - a) : x * x;
    double r = ua_vmd_asin_ratio(z);
    double mid = UA_VMD_PIO2_HI - (x - (UA_VMD_PIO2_LO - x * r));
    double s = sqrt(z);
    double neg =
        3.14159265358979311600e+00 - 2.0 * (s + (r * s - UA_VMD_PIO2_LO));
    double df = ua_vm_double(ua_vm_bits(s) & 0xffffffff00000000u);
    double c = (z - df * df) / (s + df);
    double pos = 2.0 * (df + (r * s + c));
    double y = !big ? mid : x > 0.0 ? pos : neg;
    y = x == 1.0 ? 0.0 : y;
    y = x == -1.0 ? 3.14159265358979311600e+00 : y;
    y = a > 1.0 ? NAN : y;
    return a != a ? x : y;
}

/* a a - p, exactly, for p the rounded a a (Dekker's product, without
 * fma: a split into two halves of 26 bits, whose products are exact). */
UA_VMD_FN double
ua_vmd_square_err(double a, double p)
{
    double c = a * 134217729.0;
    double hi = c - (c - a), lo = a - hi;
    return ((hi * hi - p) + 2.0 * hi * lo) + lo * lo;
}

/* acosh(x) = log(x + s), s = sqrt(x^2 - 1), with every rounding error
 * carried into the log's core as its correction: x^2 - 1 = 2t + t^2 for
 * t = x - 1 (exact), summed exactly as w + we (t^2 exact by Dekker's
 * product), s corrected by (w + we - s^2) / 2s (s^2 exact), and x + s by
 * a two-sum (log1p(t + sqrt(2t + t^2)) of the rounded sums, fdlibm's and
 * glibc's, reaches 2.1 ULP near 1); log(x) + ln 2 past 2^28.  One log
 * for every lane.  Below 1 NaN, 1 gives +0. */
UA_VMD_FN double
ua_vmd_acosh(double x)
{
    int large = x > 0x1p28;
    double xm = large || !(x >= 1.0) ? 1.0 : x; /* lanes replaced below */
    double t = xm - 1.0, t2 = t * t, tt = 2.0 * t;
    double w = tt + t2;
    double b = w - tt;
    double we = ((tt - (w - b)) + (t2 - b)) + ua_vmd_square_err(t, t2);
    double s = sqrt(w);
    double s2 = s * s;
    double sl = (((w - s2) - ua_vmd_square_err(s, s2)) + we) / (2.0 * s);
    sl = s > 0.0 ? sl : 0.0;
    double u = xm + s; /* xm >= s */
    double c = ((xm - u) + s) + sl;
    double y = ua_vmd_log_core(large ? x : u, large ? 0.0 : c, large);
    y = x == 1.0 ? 0.0 : y;
    y = x < 1.0 ? NAN : y;
    return x != x ? x : y;
}

/* atan2(y, x) = q pi/4 + s atan(t) with t <= 1 the ratio of the smaller
 * magnitude to the larger: pi/2 minus its atan where y is the larger,
 * and pi minus that where x is negative (or -0), q pi/4 in two parts (q
 * 0, 2 or 4: the high part's product exact).  Zeros and infinities
 * together give ratio 0 and 1, which the reflections carry to the
 * standard's multiples of pi/4; the sign is y's. */
UA_VMD_FN double
ua_vmd_atan2(double y, double x)
{
    double ax = fabs(x), ay = fabs(y);
    int swap = ay > ax;
    double num = swap ? ax : ay, den = swap ? ay : ax;
    double t = num / den;
    t = num == 0.0 ? 0.0 : t;
    t = (ax == INFINITY && ay == INFINITY) ? 1.0 : t;
    double q = swap ? 2.0 : 0.0, s = swap ? -1.0 : 1.0;
    int neg = (ua_vm_bits(x) >> 63) != 0;
    q = neg ? 4.0 - q : q;
    s = neg ? -s : s;
    double r = q * UA_VMD_PIO4_HI +
               (q * 3.06161699786838301793e-17 + s * ua_vmd_atan(t));
    r = (x != x || y != y) ? x + y : r;
    return ua_vmd_with_sign(r, y);
}

/* ------------------------------------------------------ sin, cos, tan
 *
 * x = n pi/2 + r, |r| <= pi/4 (a hair more: n is x 2/pi rounded in
 * double), r carried as hi + lo; sin(x) is sin(r), cos(r), -sin(r) or
 * -cos(r) by n mod 4, cos(x) the same a quadrant on, tan(x) sin(r) /
 * cos(r) or -cos(r) / sin(r).  Doubles come within about 2^-61 of a
 * multiple of pi/2, so r is found to some 2^-120 absolutely, whatever
 * the cancellation: up to 2^20 by Cody and Waite's reduction with pi/2
 * in four parts (vectorized, ua_vmd_reduce_pio2), beyond by Payne and
 * Hanek's with 2/pi's bits (ua_vmd_reduce_far, one element at a time:
 * inputs that large are rare, and their blocks pay for them alone). */

/* pi/2 = P1 + P2 + P3 + P4: the first three of 33 bits each (truncated),
 * so that n times each is exact for |n| < 2^20, P4 the rest rounded. */
#define UA_VMD_PIO2_P1 0x1.921fb544p+0
#define UA_VMD_PIO2_P2 0x1.0b4611a6p-34
#define UA_VMD_PIO2_P3 0x1.3198a2ep-69
#define UA_VMD_PIO2_P4 0x1.b839a252049c1p-104
#define UA_VMD_TRIG_NEAR 0x1p20

/* The rounding error of s = a + b, exactly (Knuth's two-sum). */
UA_VMD_FN double
ua_vmd_sum_err(double a, double b, double s)
{
    double bv = s - a, av = s - bv;
    return (a - av) + (b - bv);
}

/* a b - p, exactly, for p the rounded a b (Dekker's product). */
UA_VMD_FN double
ua_vmd_prod_err(double a, double b, double p)
{
    double ca = a * 134217729.0, cb = b * 134217729.0;
    double ah = ca - (ca - a), al = a - ah;
    double bh = cb - (cb - b), bl = b - bh;
    return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

/* x = n pi/2 + hi + lo for |x| <= 2^20, n mod 4 in the low bits of *q:
 * x - n P1 is exact (both within a factor 2, or n is 0), n P2 and n P3
 * are exact and taken off with their rounding errors kept, n P4 goes
 * into the low part. */
UA_VMD_FN double
ua_vmd_reduce_pio2(double x, double *lo, uint64_t *q)
{
    double t = x * 0.63661977236758134308 + UA_VM_ROUNDER;
    *q = ua_vm_bits(t);
    double n = t - UA_VM_ROUNDER;
    double a = x - n * UA_VMD_PIO2_P1;
    double b = -(n * UA_VMD_PIO2_P2);
    double s1 = a + b;
    double e1 = ua_vmd_sum_err(a, b, s1);
    double c = -(n * UA_VMD_PIO2_P3);
    double s2 = s1 + c;
    double e2 = ua_vmd_sum_err(s1, c, s2);
    double l = (e1 + e2) - n * UA_VMD_PIO2_P4;
    double hi = s2 + l;
    *lo = (s2 - hi) + l;
    return hi;
}

/* sin(r) - r over r^3 and (cos(r) - 1 + r^2/2) over r^4, of z = r^2 on
 * [0, (pi/4)^2 (1 + 2^-19)]: polynomials interpolating them at the
 * Chebyshev nodes (within 2^-57 and 2^-60 of them, times z and z^2: of
 * sin and cos relatively, the coefficients' rounding included). */
UA_VMD_FN double
ua_vmd_sin_poly(double z)
{
    double p = -0x1.ab17d3985bccep-41;
    p = p * z + 0x1.61217f0ac7f98p-33;
    p = p * z - 0x1.ae645412c4787p-26;
    p = p * z + 0x1.71de3a5460952p-19;
    p = p * z - 0x1.a01a01a019938p-13;
    p = p * z + 0x1.1111111111110p-7;
    return p * z - 0x1.5555555555555p-3;
}

UA_VMD_FN double
ua_vmd_cos_poly(double z)
{
    double p = -0x1.907da304ce77bp-37;
    p = p * z + 0x1.1eeb68e8b2372p-29;
    p = p * z - 0x1.27e4fa17d9864p-22;
    p = p * z + 0x1.a01a019f4eafap-16;
    p = p * z - 0x1.6c16c16c16967p-10;
    return p * z + 0x1.5555555555555p-5;
}

/* sin(hi + lo) = hi + (hi^3 S + lo cos(hi)) and cos(hi + lo) = w +
 * ((1 - w - z/2) + z^2 C - lo hi) with w = 1 - z/2 rounded (1 - w - z/2
 * is w's rounding error, exactly), each returned rounded with the error
 * of its last sum in *st, *ct. */
UA_VMD_FN double
ua_vmd_sin_cos_parts(double hi, double lo, double *st, double *c, double *ct)
{
    double z = hi * hi, hz = 0.5 * z;
    double stail = hi * z * ua_vmd_sin_poly(z) + lo * (1.0 - hz);
    double s = hi + stail;
    *st = (hi - s) + stail;
    double w = 1.0 - hz;
    double ctail = ((1.0 - w) - hz) + (z * z * ua_vmd_cos_poly(z) - hi * lo);
    *c = w + ctail;
    *ct = (w - *c) + ctail;
    return s;
}

/* sin(n pi/2 + hi + lo), q holding n mod 4 in its low bits. */
UA_VMD_FN double
ua_vmd_sin_of(double hi, double lo, uint64_t q)
{
    double st, c, ct;
    double s = ua_vmd_sin_cos_parts(hi, lo, &st, &c, &ct);
    double y = (q & 1) ? c : s;
    return ua_vm_double(ua_vm_bits(y) ^ ((q & 2) << 62));
}

/* tan(n pi/2 + hi + lo): u / v with u, v = sin(r), cos(r) (-cos(r),
 * sin(r) where n is odd), each a head and a tail: t = u v^-1 corrected
 * by (u - t v) v^-1, u - t v from t v's exact product. */
UA_VMD_FN double
ua_vmd_tan_of(double hi, double lo, uint64_t q)
{
    double st, c, ct;
    double s = ua_vmd_sin_cos_parts(hi, lo, &st, &c, &ct);
    uint64_t odd = q & 1;
    double u = odd ? c : s, ut = odd ? ct : st;
    double v = odd ? s : c, vt = odd ? st : ct;
    double inv = 1.0 / v;
    double t = u * inv;
    double p = t * v;
    double res = ((u - p) - ua_vmd_prod_err(t, v, p)) + (ut - t * vt);
    double y = t + res * inv;
    return odd ? -y : y;
}

/* |x| <= 2^20: the reduction in four parts serves it. */
UA_VMD_FN int
ua_vmd_trig_near(double x)
{
    return fabs(x) <= UA_VMD_TRIG_NEAR;
}

UA_VMD_FN double
ua_vmd_sin_near(double x)
{
    double lo;
    uint64_t q;
    double hi = ua_vmd_reduce_pio2(x, &lo, &q);
    double y = ua_vmd_sin_of(hi, lo, q);
    return x == 0.0 ? x : y; /* keeps -0 */
}

UA_VMD_FN double
ua_vmd_cos_near(double x)
{
    double lo;
    uint64_t q;
    double hi = ua_vmd_reduce_pio2(x, &lo, &q);
    return ua_vmd_sin_of(hi, lo, q + 1);
}

UA_VMD_FN double
ua_vmd_tan_near(double x)
{
    double lo;
    uint64_t q;
    double hi = ua_vmd_reduce_pio2(x, &lo, &q);
    double y = ua_vmd_tan_of(hi, lo, q);
    return x == 0.0 ? x : y;
}

/* 2/pi's bits, 32 to a word, most significant first, after 64 zero bits
 * (2/pi's integer part and the bits before it): bit i after the point
 * (i >= 1) is at position i + 63.  Enough for the largest double. */
__attribute__((unused)) static const uint32_t ua_vmd_2_over_pi_bits[42] = {
    0x00000000, 0x00000000, 0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0,
    0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561, 0xb7246e3a, 0x424dd2e0,
    0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484,
    0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b,
    0x1ff897ff, 0xde05980f, 0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7,
    0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea,
    0x6bfb5fb1, 0x1f8d5d08, 0x56033046, 0xfc7b6bab, 0xf0cfbc20, 0x9af4361d};

/* 32 bits of 2/pi from position pos on. */
static inline uint32_t
ua_vmd_2_over_pi_at(int pos)
{
    const uint32_t *w = ua_vmd_2_over_pi_bits + pos / 32;
    uint64_t two = ((uint64_t)w[0] << 32) | w[1];
    return (uint32_t)(two >> (32 - pos % 32));
}

/* x = n pi/2 + hi + lo for finite |x| > 2^20 (Payne and Hanek): |x| =
 * m 2^e with m an integer of 53 bits, so the bits of 2/pi before
 * position e + 62 (weights 2^(e-2) and up) contribute multiples of 4 to
 * |x| 2/pi, and the 192 from there give n mod 4 (the product's top two
 * bits) and 190 bits of the fraction; the fraction rounded to the
 * nearest (n goes up where it is past 1/2) is normalized, 117 of its
 * bits taken as a double and a tail, and multiplied by pi/2.  The bits
 * after the 192 add below 2^-137. */
__attribute__((unused, noinline)) static double
ua_vmd_reduce_far(double x, double *lo, uint64_t *q)
{
    uint64_t b = ua_vm_bits(x);
    int e = (int)((b >> 52) & 0x7ff) - 1075;
    uint64_t m = (b & 0x000fffffffffffffu) | 0x0010000000000000u;
    uint32_t v[6], r[6];
    for (int k = 0; k < 6; k++) {
        v[5 - k] = ua_vmd_2_over_pi_at(e + 62 + 32 * k);
    }
    /* r = m v mod 2^192, m in two halves, column by column */
    uint64_t ml = m & 0xffffffffu, mh = m >> 32, col[7] = {0};
    for (int k = 0; k < 6; k++) {
        uint64_t pl = ml * v[k], ph = mh * v[k];
        col[k] += pl & 0xffffffffu;
        col[k + 1] += (pl >> 32) + (ph & 0xffffffffu);
        if (k + 2 < 7) {
            col[k + 2] += ph >> 32;
        }
    }
    uint64_t carry = 0;
    for (int k = 0; k < 6; k++) {
        col[k] += carry;
        r[k] = (uint32_t)col[k];
        carry = col[k] >> 32;
    }
    uint64_t n = r[5] >> 30;
    uint64_t fa = ((uint64_t)(r[5] & 0x3fffffffu) << 34) |
                  ((uint64_t)r[4] << 2) | (r[3] >> 30);
    uint64_t fb = ((uint64_t)(r[3] & 0x3fffffffu) << 34) |
                  ((uint64_t)r[2] << 2) | (r[1] >> 30);
    int neg = (fa >> 63) != 0;
    if (neg) { /* f - 1, negated: the 128 bits' two's complement */
        n += 1;
        fb = ~fb + 1;
        fa = ~fa + (fb == 0);
    }
    int shift = 0;
    if (fa == 0) {
        fa = fb, fb = 0, shift = 64;
    }
    while (!(fa >> 63)) {
        fa = (fa << 1) | (fb >> 63), fb <<= 1, shift++;
    }
    double fh = (double)(fa >> 11) * ua_vm_pow2(-53 - shift);
    double fl = ((double)(fa & 0x7ff) + (double)(fb >> 11) * 0x1p-53) *
                ua_vm_pow2(-64 - shift);
    const double pio2h = 0x1.921fb54442d18p+0, pio2l = 0x1.1a62633145c07p-54;
    double ph = fh * pio2h;
    double pl = ua_vmd_prod_err(fh, pio2h, ph) + (fh * pio2l + fl * pio2h);
    double hi = ph + pl;
    double l = (ph - hi) + pl;
    /* the sign of the fraction, then x's (sin and tan odd, n negated) */
    int flip = neg != (x < 0.0);
    *lo = flip ? -l : l;
    *q = x < 0.0 ? 0 - n : n;
    return flip ? -hi : hi;
}

/* sin, cos (which 0, 1) or tan (2) of any x, one at a time: the near
 * reduction where it serves, the far one past it, NaN for infinities
 * and NaN. */
__attribute__((unused, noinline)) static double
ua_vmd_trig_any(double x, int which)
{
    if (!(fabs(x) <= 1.7976931348623157e308)) {
        return x - x;
    }
    double lo;
    uint64_t q;
    double hi = ua_vmd_trig_near(x) ? ua_vmd_reduce_pio2(x, &lo, &q)
                                    : ua_vmd_reduce_far(x, &lo, &q);
    double y = which == 2 ? ua_vmd_tan_of(hi, lo, q)
                          : ua_vmd_sin_of(hi, lo, q + (uint64_t)which);
    return x == 0.0 && which != 1 ? x : y;
}

UA_VMD_FN double
ua_vmd_sin(double x)
{
    return ua_vmd_trig_near(x) ? ua_vmd_sin_near(x) : ua_vmd_trig_any(x, 0);
}

UA_VMD_FN double
ua_vmd_cos(double x)
{
    return ua_vmd_trig_near(x) ? ua_vmd_cos_near(x) : ua_vmd_trig_any(x, 1);
}

UA_VMD_FN double
ua_vmd_tan(double x)
{
    return ua_vmd_trig_near(x) ? ua_vmd_tan_near(x) : ua_vmd_trig_any(x, 2);
}

/* A float64 loop of sin, cos or tan (NAME, WHICH as ua_vmd_trig_any's)
 * for host_elementwise_type.c, in place of the catalogue's loop GEN for
 * dense operands: each block computed with the near reduction into a
 * buffer while finding whether any input is past it, then copied out,
 * those inputs' results replaced (still there: the output may be the
 * input). */
#define UA_VMD_BLOCK 1024
#define UA_VMD_TRIG_LOOP(NAME, WHICH, GEN, CLONES)                            \
    CLONES static void ua_vmd_ew_##NAME(char *o_, ptrdiff_t so,               \
                                        char *const *in, const ptrdiff_t *s,  \
                                        ptrdiff_t n)                          \
    {                                                                         \
        if (so != 1 || s[0] != 1) {                                           \
            GEN(o_, so, in, s, n);                                            \
            return;                                                           \
        }                                                                     \
        double *restrict o = (double *)o_;                                    \
        const double *restrict a = (const double *)in[0];                     \
        double buf[UA_VMD_BLOCK];                                             \
        for (ptrdiff_t at = 0; at < n; at += UA_VMD_BLOCK) {                  \
            ptrdiff_t m = n - at < UA_VMD_BLOCK ? n - at : UA_VMD_BLOCK;      \
            uint64_t far = 0;                                                 \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                double x = a[at + i];                                         \
                far |= (uint64_t)!ua_vmd_trig_near(x);                        \
                buf[i] = ua_vmd_##NAME##_near(x);                             \
            }                                                                 \
            if (!far) {                                                       \
                for (ptrdiff_t i = 0; i < m; i++) {                           \
                    o[at + i] = buf[i];                                       \
                }                                                             \
                continue;                                                     \
            }                                                                 \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                double x = a[at + i];                                         \
                o[at + i] =                                                   \
                    ua_vmd_trig_near(x) ? buf[i] : ua_vmd_trig_any(x, WHICH); \
            }                                                                 \
        }                                                                     \
    }

/* The names that host_elementwise_type.c's float64 loops call through
 * UA_M: the functions above, and the C library's where its function
 * already vectorizes or none is done here. */
#define ua_vmd_ceil ceil
#define ua_vmd_copysign copysign
#define ua_vmd_exp ua_vm_exp
#define ua_vmd_fabs fabs
#define ua_vmd_floor floor
#define ua_vmd_fmod fmod
#define ua_vmd_hypot hypot
#define ua_vmd_nextafter nextafter
#define ua_vmd_pow pow
#define ua_vmd_rint rint
#define ua_vmd_sqrt sqrt
#define ua_vmd_trunc trunc

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
