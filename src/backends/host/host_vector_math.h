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
    double z = p.s * p.s, z2 = z * z, z4 = z2 * z2;
    /* Estrin's scheme: the loop's chain of dependent operations, not
     * their number, bounds its time */
    double r = (6.666666666666735130e-01 + z * 3.999999999940941908e-01) +
               z2 * (2.857142874366239149e-01 + z * 2.222219843214978396e-01);
    double r2 = (1.818357216161805012e-01 + z * 1.531383769920937332e-01) +
                z2 * 1.479819860511658591e-01;
    p.r = z * (r + z4 * r2);
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

/* C's nextafter on the bits, one select per case (the C library's is a
 * call per element): NaN gives x + y as C's does, equal operands y (so
 * -0 toward +0 is +0), a zero the least subnormal signed as y, and any
 * other x its neighbour by one step of its bits, away from zero where y
 * lies past x on x's side of zero. */
UA_VMD_FN double
ua_vmd_nextafter(double x, double y)
{
    int64_t away = (y > x) == (x > 0.0) ? 1 : -1;
    double r = ua_vm_double(ua_vm_bits(x) + (uint64_t)away);
    r = x == 0.0 ? ua_vmd_with_sign(0x1p-1074, y) : r;
    r = x == y ? y : r;
    return x != x || y != y ? x + y : r;
}

/* cbrt(1.5 + u) for u in [-1/2, 1/2], within 2^-16.7 relatively: a
 * polynomial of degree 4 fitted to it (minimax, by reweighted least
 * squares). */
UA_VMD_FN double
ua_vmd_cbrt_guess(double u)
{
    double p = -0x1.5b78e9454d58bp-7;
    p = p * u + 0x1.701cca2d4f2e5p-6;
    p = p * u - 0x1.cda5006d86da6p-5;
    p = p * u + 0x1.0462d579e872ep-2;
    return p * u + 0x1.250bbcc2fa6fap+0;
}

/* cbrt(x): |x| = 2^(3q + e) m with m in [1, 2) and e in {0, 1, 2} (a
 * subnormal scaled by 2^54 first; floor division by 3 as a product by
 * 21846 / 2^16, exact for the exponents there are), a = 2^e m, and y its
 * cube root from the polynomial times 2^(e/3), rounded to 17 bits so that
 * y^3 is exact (51 bits) and so is d = a - y^3 (Sterbenz: y^3 is within a
 * factor 2 of a).  Then cbrt(a) = y (1 + t)^(1/3), t = d / y^3 below
 * 2^-14, by the binomial series to t^3 (the first omitted term is below
 * 2^-62): one rounding of note, the last sum's, so within 0.51 ULP.
 * Zeros, infinities and NaN give x, as C's cbrt; their lanes compute
 * nonsense first, since a select that replaced them before the
 * arithmetic would lead GCC to compute the arithmetic twice, once for
 * each side. */
UA_VMD_FN double
ua_vmd_cbrt(double x)
{
    double ax = fabs(x);
    int tiny = ax < 0x1p-1022;
    uint64_t b = ua_vm_bits(ax * (tiny ? 0x1p54 : 1.0));
    /* n = exponent + 1200 > 0, q + 400 = floor(n / 3) */
    int64_t n = (int64_t)(b >> 52) + (tiny ? 123 : 177);
    int64_t q4 = (n * 21846) >> 16;
    int64_t e = n - 3 * q4;
    uint64_t mb = b & 0x000fffffffffffffu;
    double m = ua_vm_double(mb | 0x3ff0000000000000u);
    double a = ua_vm_double(mb | (uint64_t)(e + 1023) << 52);
    double c = e == 0   ? 1.0
               : e == 1 ? 1.25992104989487316477
                        : 1.58740105196819947475;
    double y0 = ua_vmd_cbrt_guess(m - 1.5) * c;
    double y = (y0 + 0x1p36) - 0x1p36; /* 17 bits: y in [1, 2] */
    double y3 = y * y * y;
    double t = (a - y3) / y3;
    double s = t * (1.0 / 3.0 + t * (-1.0 / 9.0 + t * (5.0 / 81.0)));
    double r = (y + y * s) * ua_vm_pow2(q4 - 400);
    r = ua_vmd_with_sign(r, x);
    return ax > 0.0 && ax < INFINITY ? r : x;
}

/* x clamped to [-c, c] (c > 0), NaN to +-c: on the bits, by an integer
 * minimum.  GCC turns a floating clamp into branches, finds the result
 * constant past the clamp and computes the rest on the other branch
 * only, where the loads from a table become masked loads, which it does
 * not vectorize (GCC 12 emulates gathers, unmasked only). */
UA_VMD_FN double
ua_vmd_clamp(double x, double c)
{
    uint64_t a = ua_vm_bits(x) & 0x7fffffffffffffffu, cb = ua_vm_bits(c);
    return ua_vm_double((a < cb ? a : cb) |
                        (ua_vm_bits(x) & 0x8000000000000000u));
}

/* (2^f - 1 - f ln 2) / f^2 for |f| <= 1/2: a polynomial of degree 9
 * fitted to it (minimax, by reweighted least squares; f^2 times it within
 * 2^-57.3 of its value, the coefficients' rounding included). */
UA_VMD_FN double
ua_vmd_exp2_poly(double f)
{
    /* Estrin's scheme: the loop's chain of dependent operations is what
     * bounds its time, not their number */
    double f2 = f * f, f4 = f2 * f2;
    double p01 = 0x1.ebfbdff82c5a5p-3 + f * 0x1.c6b08d704a0cfp-5;
    double p23 = 0x1.3b2ab6fb9ffe4p-7 + f * 0x1.5d87fe78a1c0bp-10;
    double p45 = 0x1.4309130f189f7p-13 + f * 0x1.ffcbfc796f3b5p-17;
    double p67 = 0x1.62bfc6fd65488p-20 + f * 0x1.b524d252621f2p-24;
    double p89 = 0x1.e61c5f1613121p-28 + f * 0x1.ea130dc27ba5bp-32;
    return (p01 + f2 * p23) + f4 * ((p45 + f2 * p67) + f4 * p89);
}

/* exp2(x) = 2^k 2^f, k = x rounded (by the rounder) and f = x - k
 * exactly, 2^f = 1 + f ln 2 + f^2 P(f) with no table (GCC 12 emulates
 * gathers, whose loads cost more than the polynomial's extra terms).  So
 * that the last sum is the only rounding of note, f ln 2 is taken apart:
 * ln 2 = L1 + L2 and f = fh + fl with L1 and fh of 26 bits, fh L1 exact,
 * 1 + fh L1 summed with its error kept (Knuth's fast two-sum) and the rest
 * small: within 0.6 ULP.  2^k in two factors, each normal, so that
 * subnormal results round once more at most.  x clamped to [-1100, 1100]
 * on its bits (ua_vmd_clamp), NaN restored after: past -1075 the result
 * is 0, past 1024 +inf. */
UA_VMD_FN double
ua_vmd_exp2(double x)
{
    double xc = ua_vmd_clamp(x, 1100.0);
    double t = xc + UA_VM_ROUNDER;
    int64_t k = (int64_t)(ua_vm_bits(t) - ua_vm_bits(UA_VM_ROUNDER));
    double f = xc - (t - UA_VM_ROUNDER);
    double fh = ua_vm_double(ua_vm_bits(f) & 0xfffffffff8000000u);
    double fl = f - fh;
    const double l1 = 0x1.62e42f8000000p-1, l2 = 0x1.be8e7bcd5e4f2p-27;
    double a = fh * l1;
    double s = 1.0 + a;
    double rest =
        ((1.0 - s) + a) + ((fl * l1 + f * l2) + f * f * ua_vmd_exp2_poly(f));
    double e = s + rest;
    int64_t k1 = k >> 1;
    double y = e * ua_vm_pow2(k1) * ua_vm_pow2(k - k1);
    return x != x ? x : y;
}

/* 2^(j/64) for j = 0 .. 63 as hi + lo, hi rounded to nearest. */
__attribute__((unused)) static const double ua_vmd_exp_hi[64] = {
    0x1.0000000000000p+0, 0x1.02c9a3e778061p+0, 0x1.059b0d3158574p+0,
    0x1.0874518759bc8p+0, 0x1.0b5586cf9890fp+0, 0x1.0e3ec32d3d1a2p+0,
    0x1.11301d0125b51p+0, 0x1.1429aaea92de0p+0, 0x1.172b83c7d517bp+0,
    0x1.1a35beb6fcb75p+0, 0x1.1d4873168b9aap+0, 0x1.2063b88628cd6p+0,
    0x1.2387a6e756238p+0, 0x1.26b4565e27cddp+0, 0x1.29e9df51fdee1p+0,
    0x1.2d285a6e4030bp+0, 0x1.306fe0a31b715p+0, 0x1.33c08b26416ffp+0,
    0x1.371a7373aa9cbp+0, 0x1.3a7db34e59ff7p+0, 0x1.3dea64c123422p+0,
    0x1.4160a21f72e2ap+0, 0x1.44e086061892dp+0, 0x1.486a2b5c13cd0p+0,
    0x1.4bfdad5362a27p+0, 0x1.4f9b2769d2ca7p+0, 0x1.5342b569d4f82p+0,
    0x1.56f4736b527dap+0, 0x1.5ab07dd485429p+0, 0x1.5e76f15ad2148p+0,
    0x1.6247eb03a5585p+0, 0x1.6623882552225p+0, 0x1.6a09e667f3bcdp+0,
    0x1.6dfb23c651a2fp+0, 0x1.71f75e8ec5f74p+0, 0x1.75feb564267c9p+0,
    0x1.7a11473eb0187p+0, 0x1.7e2f336cf4e62p+0, 0x1.82589994cce13p+0,
    0x1.868d99b4492edp+0, 0x1.8ace5422aa0dbp+0, 0x1.8f1ae99157736p+0,
    0x1.93737b0cdc5e5p+0, 0x1.97d829fde4e50p+0, 0x1.9c49182a3f090p+0,
    0x1.a0c667b5de565p+0, 0x1.a5503b23e255dp+0, 0x1.a9e6b5579fdbfp+0,
    0x1.ae89f995ad3adp+0, 0x1.b33a2b84f15fbp+0, 0x1.b7f76f2fb5e47p+0,
    0x1.bcc1e904bc1d2p+0, 0x1.c199bdd85529cp+0, 0x1.c67f12e57d14bp+0,
    0x1.cb720dcef9069p+0, 0x1.d072d4a07897cp+0, 0x1.d5818dcfba487p+0,
    0x1.da9e603db3285p+0, 0x1.dfc97337b9b5fp+0, 0x1.e502ee78b3ff6p+0,
    0x1.ea4afa2a490dap+0, 0x1.efa1bee615a27p+0, 0x1.f50765b6e4540p+0,
    0x1.fa7c1819e90d8p+0,
};
__attribute__((unused)) static const double ua_vmd_exp_lo[64] = {
    0x0p+0,
    -0x1.19083535b085dp-56,
    0x1.d73e2a475b465p-55,
    0x1.186be4bb284ffp-57,
    0x1.8a62e4adc610bp-54,
    0x1.03a1727c57b53p-59,
    -0x1.6c51039449b3ap-54,
    -0x1.32fbf9af1369ep-54,
    -0x1.19041b9d78a76p-55,
    0x1.e5b4c7b4968e4p-55,
    0x1.e016e00a2643cp-54,
    0x1.dc775814a8495p-55,
    0x1.9b07eb6c70573p-54,
    0x1.2bd339940e9d9p-55,
    0x1.612e8afad1255p-55,
    0x1.0024754db41d5p-54,
    0x1.6f46ad23182e4p-55,
    0x1.32721843659a6p-54,
    -0x1.63aeabf42eae2p-54,
    -0x1.5e436d661f5e3p-56,
    0x1.ada0911f09ebcp-55,
    -0x1.ef3691c309278p-58,
    0x1.89b7a04ef80d0p-59,
    0x1.3c1a3b69062f0p-56,
    0x1.d4397afec42e2p-56,
    -0x1.4b309d25957e3p-54,
    -0x1.07abe1db13cadp-55,
    0x1.9bb2c011d93adp-54,
    0x1.6324c054647adp-54,
    0x1.ba6f93080e65ep-54,
    -0x1.383c17e40b497p-54,
    -0x1.bb60987591c34p-54,
    -0x1.bdd3413b26456p-54,
    -0x1.bbe3a683c88abp-57,
    -0x1.16e4786887a99p-55,
    -0x1.0245957316dd3p-54,
    -0x1.41577ee04992fp-55,
    0x1.05d02ba15797ep-56,
    -0x1.d4c1dd41532d8p-54,
    -0x1.fc6f89bd4f6bap-54,
    0x1.6e9f156864b27p-54,
    0x1.5cc13a2e3976cp-55,
    -0x1.75fc781b57ebcp-57,
    -0x1.d185b7c1b85d1p-54,
    0x1.c7c46b071f2bep-56,
    -0x1.359495d1cd533p-54,
    -0x1.d2f6edb8d41e1p-54,
    0x1.0fac90ef7fd31p-54,
    0x1.7a1cd345dcc81p-54,
    -0x1.2805e3084d708p-57,
    -0x1.5584f7e54ac3bp-56,
    0x1.23dd07a2d9e84p-55,
    0x1.11065895048ddp-55,
    0x1.2884dff483cadp-54,
    0x1.503cbd1e949dbp-56,
    -0x1.cbc3743797a9cp-54,
    0x1.2ed02d75b3707p-55,
    0x1.c2300696db532p-54,
    -0x1.1a5cd4f184b5cp-54,
    0x1.39e8980a9cc8fp-55,
    -0x1.e9c23179c2893p-54,
    0x1.dc7f486a4b6b0p-54,
    0x1.9d3e12dd8a18bp-54,
    0x1.74853f3a5931ep-55,
};

/* exp(hi + lo) for |hi| <= 760 and |lo| below 0.017 (pow's): hi = (i/64)
 * ln 2 + r by Cody and Waite's split of ln 2 / 64 (its high part of 36
 * bits, so that i times it is exact for |i| < 2^17, and hi less it exact
 * too), lo added to r; e^r - 1 by a polynomial of degree 7 fitted on
 * |r| <= 0.0225 (within 2^-64 of it; i from hi alone, so that the table's
 * loads need not wait for lo), times 2^(j/64) (i = 64 k + j) from the
 * table in two parts, which leaves the last sum's rounding the only one
 * of note: within 0.51 ULP.  2^k in two factors, each normal for |k| <=
 * 1100, so that subnormal results round once more at most and past the
 * ends come +inf and 0.  Here the table's emulated gathers (GCC 12 makes
 * no gather instructions) cost less than the polynomial of degree 12
 * that |r| <= ln 2 / 2 would need. */
UA_VMD_FN double
ua_vmd_exp_dd(double hi, double lo)
{
    double t = hi * 0x1.71547652b82fep+6 + UA_VM_ROUNDER;
    int64_t i = (int64_t)(ua_vm_bits(t) - ua_vm_bits(UA_VM_ROUNDER));
    double id = t - UA_VM_ROUNDER;
    double r =
        (hi - id * 0x1.62e42fefa0000p-7) - (id * 0x1.cf79abc9e3b3ap-46 - lo);
    double r2 = r * r; /* Estrin's scheme, as in exp2 */
    double p = (0x1.0000000000005p-1 + r * 0x1.5555555555559p-3) +
               r2 * (0x1.555555545c4f2p-5 + r * 0x1.111111107b9acp-7) +
               (r2 * r2) * (0x1.6c185fc5c9975p-10 + r * 0x1.a01ba388c037cp-13);
    p = r + r2 * p;
    int64_t j = i & 63, k = i >> 6;
    double th = ua_vmd_exp_hi[j];
    double e = th + (ua_vmd_exp_lo[j] + th * p);
    int64_t k1 = k >> 1;
    return e * ua_vm_pow2(k1) * ua_vm_pow2(k - k1);
}

/* For log(z), z in [0.707, 1.414) cut into 64 intervals by the top six
 * bits of its bits less 0x3fe6a: 1/c for a c in each, a multiple of 2^-9
 * (so that z's 21-bit head times it is exact), 1 for the interval of 1;
 * and -log(1/c) as hi + lo, hi a multiple of 2^-42 like ln 2's high part
 * below, so that k ln 2 + hi is exact. */
__attribute__((unused)) static const double ua_vmd_log_invc[64] = {
    0x1.6800000000000p+0, 0x1.6400000000000p+0, 0x1.6080000000000p+0,
    0x1.5c80000000000p+0, 0x1.5900000000000p+0, 0x1.5580000000000p+0,
    0x1.5200000000000p+0, 0x1.4e80000000000p+0, 0x1.4b00000000000p+0,
    0x1.4780000000000p+0, 0x1.4480000000000p+0, 0x1.4180000000000p+0,
    0x1.3e00000000000p+0, 0x1.3b00000000000p+0, 0x1.3800000000000p+0,
    0x1.3500000000000p+0, 0x1.3200000000000p+0, 0x1.2f80000000000p+0,
    0x1.2c80000000000p+0, 0x1.2a00000000000p+0, 0x1.2700000000000p+0,
    0x1.2480000000000p+0, 0x1.2200000000000p+0, 0x1.1f80000000000p+0,
    0x1.1d00000000000p+0, 0x1.1a80000000000p+0, 0x1.1800000000000p+0,
    0x1.1580000000000p+0, 0x1.1380000000000p+0, 0x1.1100000000000p+0,
    0x1.0f00000000000p+0, 0x1.0c80000000000p+0, 0x1.0a80000000000p+0,
    0x1.0880000000000p+0, 0x1.0600000000000p+0, 0x1.0400000000000p+0,
    0x1.0200000000000p+0, 0x1.0000000000000p+0, 0x1.f800000000000p-1,
    0x1.f000000000000p-1, 0x1.e900000000000p-1, 0x1.e200000000000p-1,
    0x1.db00000000000p-1, 0x1.d400000000000p-1, 0x1.ce00000000000p-1,
    0x1.c700000000000p-1, 0x1.c100000000000p-1, 0x1.bb00000000000p-1,
    0x1.b500000000000p-1, 0x1.af00000000000p-1, 0x1.aa00000000000p-1,
    0x1.a400000000000p-1, 0x1.9f00000000000p-1, 0x1.9a00000000000p-1,
    0x1.9500000000000p-1, 0x1.9000000000000p-1, 0x1.8b00000000000p-1,
    0x1.8600000000000p-1, 0x1.8200000000000p-1, 0x1.7d00000000000p-1,
    0x1.7900000000000p-1, 0x1.7400000000000p-1, 0x1.7000000000000p-1,
    0x1.6c00000000000p-1,
};
__attribute__((unused)) static const double ua_vmd_log_ch[64] = {
    -0x1.5d1bdbf581000p-2, -0x1.51aad872e0000p-2,
    -0x1.478cd5959b000p-2, -0x1.3bdd24eb15000p-2,
    -0x1.31871c9544000p-2, -0x1.27161913f8000p-2,
    -0x1.1c898c169a000p-2, -0x1.11e0e2dada000p-2,
    -0x1.071b85fcd6000p-2, -0x1.f871b28956000p-3,
    -0x1.e598ed5a88000p-3, -0x1.d293581b6c000p-3,
    -0x1.bc286742d8000p-3, -0x1.a8becfc882000p-3,
    -0x1.9525a9cf46000p-3, -0x1.815c0a1436000p-3,
    -0x1.6d60fe719e000p-3, -0x1.5c94007598000p-3,
    -0x1.483bccce6e000p-3, -0x1.371fc201e8000p-3,
    -0x1.2266f190a6000p-3, -0x1.10f8e42254000p-3,
    -0x1.fec9131dc0000p-4, -0x1.db5270187c000p-4,
    -0x1.b78c82bb10000p-4, -0x1.9375e55594000p-4,
    -0x1.6f0d28ae58000p-4, -0x1.4a50d3aa1c000p-4,
    -0x1.2cb0283f5c000p-4, -0x1.0759835990000p-4,
    -0x1.d276b8adb0000p-5, -0x1.868a830840000p-5,
    -0x1.494acc34d8000p-5, -0x1.0b94f7c198000p-5,
    -0x1.7b91b07d60000p-6, -0x1.fc0a8b0fc0000p-7,
    -0x1.fe02a6b100000p-8, 0x0p+0,
    0x1.0205658930000p-6,  0x1.0415d89e78000p-5,
    0x1.788595a358000p-5,  0x1.eea31c0068000p-5,
    0x1.333d7f8184000p-4,  0x1.700d30aeac000p-4,
    0x1.a4e7640b1c000p-4,  0x1.e3707ee304000p-4,
    0x1.0ce7ecdccc000p-3,  0x1.28753bc11a000p-3,
    0x1.4462b9dc9c000p-3,  0x1.60b3100b0a000p-3,
    0x1.7898d85444000p-3,  0x1.95a5adcf70000p-3,
    0x1.ae2ca6f672000p-3,  0x1.c6ffbc6f00000p-3,
    0x1.e020cc6236000p-3,  0x1.f991c6cb3c000p-3,
    0x1.09aa572e6c000p-2,  0x1.16b5ccbad0000p-2,
    0x1.214456d0ec000p-2,  0x1.2e9e2bce12000p-2,
    0x1.396ce359bc000p-2,  0x1.4718dc271c000p-2,
    0x1.522ae0738a000p-2,  0x1.5d5bddf596000p-2,
};
__attribute__((unused)) static const double ua_vmd_log_cl[64] = {
    0x1.8d6bdc9c7c238p-44,  0x1.f4bd8db0a7cc1p-44,
    -0x1.ec89bf0c8d098p-45, 0x1.257b4970e6ed9p-44,
    -0x1.84fab94cecfd9p-46, -0x1.4f4f1f61564b4p-44,
    0x1.81410e5c62affp-44,  0x1.a47f88fcce5bap-45,
    0x1.bcb8ba3e01a11p-44,  0x1.f75fd6a526efep-44,
    0x1.d134bcf1e98a1p-47,  0x1.83270128aaa5fp-44,
    -0x1.9ac53f39d121cp-44, -0x1.e3185cf21b9cfp-44,
    0x1.297137d9f158fp-44,  0x1.02a52f9201ce8p-44,
    0x1.bc6e557134767p-44,  0x1.a8d948cd23322p-44,
    -0x1.eea52723f6369p-46, -0x1.ee8779b2d8abcp-44,
    0x1.4d20ab840e7f6p-45,  0x1.93b3843396307p-45,
    0x1.54555d1ae6607p-44,  -0x1.9277856ae181fp-44,
    0x1.25ef7bc3987e7p-44,  -0x1.eddc37380c364p-44,
    0x1.4b4641b664613p-44,  0x1.f7fe1308973e2p-45,
    -0x1.e1ee2ca657021p-44, 0x1.b8ecfe4b59987p-44,
    -0x1.6a423c78a64b0p-46, 0x1.2623a134ac693p-46,
    -0x1.11c78a56fd247p-45, 0x1.e89896f022783p-45,
    0x1.3b955b602ace4p-44,  -0x1.f1e7cf6d3a69cp-50,
    -0x1.9e23f0dda40e4p-46, 0x0p+0,
    0x1.611d27c8e8417p-44,  -0x1.dddc7f461c516p-44,
    -0x1.08b0d083b3a4cp-46, 0x1.c3dd83606d891p-44,
    -0x1.692b6a81b8848p-49, 0x1.c1e8da99ded32p-49,
    -0x1.e42b6b94407c8p-47, 0x1.0f684e6766abdp-45,
    0x1.4652dabff5447p-46,  0x1.7494e359302e6p-44,
    -0x1.84858a711b062p-44, -0x1.71456c988f814p-44,
    0x1.8e67be3dbaf3fp-44,  0x1.7f22858a0ff6fp-47,
    0x1.7a8d5ae54f550p-44,  0x1.ee138d3a69d43p-44,
    -0x1.52b00adb91424p-45, -0x1.90d04cd7cc834p-44,
    0x1.b50a1e1734342p-44,  -0x1.23299042d74bfp-44,
    -0x1.caf0428b728a3p-44, 0x1.4300c128d1dc2p-45,
    -0x1.5839c5663663dp-47, 0x1.06c18fb4c14c5p-44,
    0x1.ebe708164c759p-45,  -0x1.a0b2a08a465dcp-47,
};

/* log(x) as hi + *lo for x > 0 normal (scaled by 2^-j before), to some
 * 2^-68 relatively (what pow needs: y log x up to 745 in magnitude, its
 * error times y the result's relative error), *lo below 2^-15 of hi.
 * x = 2^k z, z in the table's interval of c; r = z/c - 1 = rh + rl, rh =
 * zh/c - 1 exact (zh z rounded to 21 bits, zh/c 31 bits, then Sterbenz)
 * and of at most 24 bits, so that rh^2/2 is exact too, rl = (z - zh)/c.
 * log(x) = (k ln 2 + log c) + r - rh^2/2 (the rounded sum r of rh and rl
 * and the sums after it with their errors, by two-sums) + the rest:
 * -rl (rh + rl/2), and r^3 times a polynomial of degree 6 fitted to
 * (log1p(r) - r + r^2/2) / r^3 on |r| < 2^-6.8, relatively (r^3 times it
 * within 2^-69.7 of |r|: where x is near 1, log x is r's and keeps its
 * relative accuracy; rl, up to 2^-20 there, must be in the head for
 * that). */
UA_VMD_FN double
ua_vmd_log_dd(double x, int64_t j, double *lo)
{
    uint64_t ix = ua_vm_bits(x);
    uint64_t tmp = ix - 0x3fe6a00000000000u;
    int64_t i = (int64_t)((tmp >> 46) & 63);
    int64_t k = (int64_t)tmp >> 52;
    double z = ua_vm_double(ix - (tmp & 0xfff0000000000000u));
    double kd = ua_vmd_int_to_double(k + j);
    double invc = ua_vmd_log_invc[i];
    /* z's head rounded to nearest, so that rh is 0 where |r| < 2^-22 and
     * within twice |r| elsewhere: rh^2/2 stays far below log x */
    double zh =
        ua_vm_double((ua_vm_bits(z) + 0x80000000u) & 0xffffffff00000000u);
    double rh = zh * invc - 1.0;
    double rl = (z - zh) * invc;
    double r = rh + rl;
    double re = ua_vmd_sum_err(rh, rl, r);
    double t1 = kd * 0x1.62e42fefa3800p-1 + ua_vmd_log_ch[i];
    double t2 = t1 + r;
    double e2 = ua_vmd_sum_err(t1, r, t2);
    double a2 = -0.5 * rh * rh;
    double hi = t2 + a2;
    double e3 = (t2 - hi) + a2; /* |t2| >= |a2| */
    double r2 = r * r;          /* Estrin's scheme, as in exp2 */
    double p = (0x1.5555555555555p-2 - r * 0x1.000000000009bp-2) +
               r2 * (0x1.99999999a0756p-3 - r * 0x1.5555553f673a4p-3);
    double p2 = (0x1.249245d953e2dp-3 - r * 0x1.00078016c5edbp-3) +
                r2 * 0x1.c809607263da6p-4;
    p += (r2 * r2) * p2;
    double tail = kd * 0x1.ef35793c76730p-45 + ua_vmd_log_cl[i] -
                  rl * (rh + 0.5 * rl) + r * r2 * p;
    *lo = (e2 + e3 + re) + tail;
    return hi;
}

/* pow(x, y) = exp(y log|x|): the log in two parts (ua_vmd_log_dd), y
 * times it in two parts, exp of the two parts (ua_vmd_exp_dd):
 * within 0.52 ULP but for subnormal results (0.75).  Negative x: NaN for
 * non-integral y, the sign for odd y.  C99's cases (F.9.4.4) by selects
 * on the lanes they concern: pow(x, +-0) and pow(1, y) are 1 even for
 * NaN, pow(-1, +-inf) 1; else NaN propagates; zero and infinite x and
 * infinite y give 0 or +inf as |x| > 1 agrees with y > 0 or not, the
 * sign again for odd y; finite overflow and underflow come from exp's
 * clamp. */
UA_VMD_FN double
ua_vmd_pow(double x, double y)
{
    double ax = fabs(x), ay = fabs(y);
    /* y's integer part: y + 2^52 rounds y below 2^52 to an integer, whose
     * parity its last bit holds; from 2^52 on every double is an integer,
     * from 2^53 an even one (infinities count as even integers, which is
     * what the cases below want).  odd: the sign bit where y is odd. */
    double u = ay < 0x1p52 ? ay + 0x1p52 : ay;
    double yi = ay < 0x1p52 ? u - 0x1p52 : ay;
    uint64_t odd = yi == ay && ay < 0x1p53 ? ua_vm_bits(u) << 63 : 0;
    int tiny = ax < 0x1p-1022;
    double xs = tiny ? ax * 0x1p52 : ax;
    double llo; /* zero, infinite and NaN x or y: lanes replaced below */
    double lhi = ua_vmd_log_dd(xs, tiny ? -52 : 0, &llo);
    /* y lhi = yh lh + the rest, yh and lh the high 26 bits of each (their
     * product exact) */
    double yh = ua_vm_double(ua_vm_bits(y) & 0xfffffffff8000000u);
    double lh = ua_vm_double(ua_vm_bits(lhi) & 0xfffffffff8000000u);
    double yl = y - yh, ll = lhi - lh;
    double eh = yh * lh;
    double el = (yh * ll + yl * lhi) + y * llo;
    /* past exp's ends: clamped, and the low part (NaN where y lhi
     * overflows) dropped */
    el = fabs(eh) < 760.0 ? el : 0.0;
    eh = ua_vmd_clamp(eh, 760.0);
    double r = ua_vmd_exp_dd(eh, el);
    /* the special lanes' value, found beside exp's chain, and one select
     * at its end */
    uint64_t sign = ua_vm_bits(x) & odd;
    double sp = (ax > 1.0) == (y > 0.0) ? INFINITY : 0.0;
    sp = ua_vm_double(ua_vm_bits(sp) ^ sign);
    sp = x < 0.0 && x > -INFINITY && yi != ay ? NAN : sp;
    sp = x != x || y != y ? x + y : sp;
    sp = y == 0.0 || x == 1.0 || (x == -1.0 && ay == INFINITY) ? 1.0 : sp;
    int regular = ax > 0.0 && ax < INFINITY && ay < INFINITY && x != 1.0 &&
                  y != 0.0 && (x > 0.0 || yi == ay);
    return regular ? ua_vm_double(ua_vm_bits(r) ^ sign) : sp;
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
