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
 * a two-sum (|k| >= 1 exceeds |log2(m)| <= 1/2, or k is 0); of u > 0
 * normal and finite, scaled by 2^-j before. */
UA_VMD_FN double
ua_vmd_log2_core(double u, int64_t j)
{
    ua_vmd_log_parts p = ua_vmd_log_split(u, j);
    double lo;
    double hi = ua_vmd_log_hi(p, &lo);
    const double ivln2hi = 1.44269504072144627571e+00;
    const double ivln2lo = 1.67517131648865118353e-10;
    double vhi = hi * ivln2hi;
    double vlo = (lo + hi) * ivln2lo + lo * ivln2hi;
    double w = p.k + vhi;
    vlo += (p.k - w) + vhi;
    return vlo + w;
}

UA_VMD_FN double
ua_vmd_log2(double x)
{
    int64_t j;
    double u = ua_vmd_log_input(x, &j);
    return ua_vmd_log_special(x, ua_vmd_log2_core(u, j));
}

/* log10(x) = k log10(2) + log(m) / ln 10, each product in two parts;
 * of u > 0 normal and finite, scaled by 2^-j before. */
UA_VMD_FN double
ua_vmd_log10_core(double u, int64_t j)
{
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
    return vlo + w;
}

UA_VMD_FN double
ua_vmd_log10(double x)
{
    int64_t j;
    double u = ua_vmd_log_input(x, &j);
    return ua_vmd_log_special(x, ua_vmd_log10_core(u, j));
}

/* The logarithms of an x known positive, normal and finite
 * (UA_VMD_LOG_RANGE): their cores without the scaling of subnormals and
 * the selects of the special values, which took a third of their loops'
 * time. */
UA_VMD_FN double
ua_vmd_log_normal(double x)
{
    return ua_vmd_log_core(x, 0.0, 0);
}

UA_VMD_FN double
ua_vmd_log2_normal(double x)
{
    return ua_vmd_log2_core(x, 0);
}

UA_VMD_FN double
ua_vmd_log10_normal(double x)
{
    return ua_vmd_log10_core(x, 0);
}

/* A loop of NAME (PFX ua_vmd or ua_vmf, T its type) for
 * host_elementwise_type.c, in place of the catalogue's loop GEN for dense
 * operands: blocks of 1,024 elements whose inputs all pass IN_RANGE (one
 * vectorized pass over the block finds it; NaN must fail it) take
 * PFX_NAME_normal, the function without the selects of the inputs outside
 * that range, which give the same bits inside it; other blocks the whole
 * function. */
#define UA_VM_RANGE_BLOCK 1024
#define UA_VM_RANGE_LOOP(T, PFX, NAME, IN_RANGE, GEN, CLONES)                 \
    CLONES static void PFX##_ew_##NAME(char *o_, ptrdiff_t so,                \
                                       char *const *in, const ptrdiff_t *s,   \
                                       ptrdiff_t n)                           \
    {                                                                         \
        if (so != 1 || s[0] != 1) {                                           \
            GEN(o_, so, in, s, n);                                            \
            return;                                                           \
        }                                                                     \
        T *o = (T *)o_;                                                       \
        const T *a = (const T *)in[0];                                        \
        for (ptrdiff_t at = 0; at < n; at += UA_VM_RANGE_BLOCK) {             \
            ptrdiff_t m =                                                     \
                n - at < UA_VM_RANGE_BLOCK ? n - at : UA_VM_RANGE_BLOCK;      \
            uint64_t odd = 0;                                                 \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                T v = a[at + i];                                              \
                odd |= (uint64_t)!(IN_RANGE(v));                              \
            }                                                                 \
            if (odd) {                                                        \
                for (ptrdiff_t i = 0; i < m; i++) {                           \
                    o[at + i] = PFX##_##NAME(a[at + i]);                      \
                }                                                             \
            } else {                                                          \
                for (ptrdiff_t i = 0; i < m; i++) {                           \
                    o[at + i] = PFX##_##NAME##_normal(a[at + i]);             \
                }                                                             \
            }                                                                 \
        }                                                                     \
    }

/* The logarithms' range: positive, normal and finite. */
#define UA_VMD_LOG_RANGE(v) ((v) >= 0x1p-1022 && (v) < INFINITY)

/* cosh(x) = h + 1/(4h) with h = exp(|x|)/2 found without overflow; the
 * second term vanishes where the first is infinite. */
UA_VMD_FN double
ua_vmd_cosh(double x)
{
    double h = ua_vmd_half_exp(fabs(x));
    return h + 0.25 / h;
}

/* sinh(|x|) = a + a^3 P(a^2) below 1.25, P Taylor's 1/3! .. 1/19! (the
 * first omitted term is below 2^-58 of the result).  Above, with |x| = k
 * ln 2 + r, exp(r) = 1 + r + (w_o + w_e) and exp(-r) = (1 - r) + (w_e -
 * w_o), w_o and w_e the odd and even terms past r of Taylor's expm1(r)
 * (ua_vm_exp_tail's), so with q = 2^(k-2) and t = 2^(-k-2), sinh(|x|) =
 * 2 (q + (q expm1(r) - t exp(-r))): the small terms added before r, as
 * exp adds them, and t exp(-r) (half an ULP of the result at k = 27) in
 * the same sum, not lost to a rounding of q - t; t's exponent clamped to
 * stay normal past 2^-55 of the result.  No division, and one reduction
 * where exp's beside the series took another.  |x| clamped to 710.5, past
 * which sinh overflows, keeps q finite; the last doubling overflows where
 * sinh does. */
UA_VMD_FN double
ua_vmd_sinh(double x)
{
    double a = fabs(x);
    double ac = a < 710.5 ? a : 710.5;
    double kd = ac * 1.4426950408889634074 + UA_VM_ROUNDER;
    int64_t k = (int64_t)(ua_vm_bits(kd) - ua_vm_bits(UA_VM_ROUNDER));
    kd -= UA_VM_ROUNDER;
    double r = (ac - kd * 6.93147180369123816490e-01) -
               kd * 1.90821492927058770002e-10;
    int series = a < 1.25;
    k = series ? 0 : k;
    r = series ? a : r;
    double z = r * r;
    double odd = 1.0 / 121645100408832000.0;
    odd = odd * z + 1.0 / 355687428096000.0;
    odd = odd * z + 1.0 / 1307674368000.0;
    odd = odd * z + 1.0 / 6227020800.0;
    odd = odd * z + 1.0 / 39916800.0;
    odd = odd * z + 1.0 / 362880.0;
    odd = odd * z + 1.0 / 5040.0;
    odd = odd * z + 1.0 / 120.0;
    odd = odd * z + 1.0 / 6.0;
    double wo = r * z * odd;
    double even = 1.0 / 479001600.0;
    even = even * z + 1.0 / 3628800.0;
    even = even * z + 1.0 / 40320.0;
    even = even * z + 1.0 / 720.0;
    even = even * z + 1.0 / 24.0;
    even = even * z + 0.5;
    double we = z * even;
    double q = ua_vm_pow2(k - 2), t = ua_vm_pow2(-(k < 1000 ? k : 1000) - 2);
    double y = 2.0 * (q + (q * (r + (wo + we)) - t * ((1.0 - r) + (we - wo))));
    y = series ? r + wo : y;
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

/* sqrt(x^2 + y^2) within 1.5 ULP: the squares' and the sum's roundings,
 * halved by the root, and its own (1.1-1.2 measured).  The C library's
 * hypot is a call per element, and complex abs is this function; a Newton
 * step on the exact sum of squares, within a rounding, took twice the
 * time, past NumPy's abs.  The larger magnitude is scaled by a power of
 * two into [2^-500, 2^500] when it lies outside, so that no square
 * overflows or loses bits.  An infinite operand gives +inf, NaN beside it
 * included; NaN otherwise gives NaN; zeros give +0.  The selects are on
 * the bits, so that the loops of complex types, compiled with trapping
 * math, vectorize too (a compare of doubles there is a branch). */
#define UA_VMD_MAGNITUDE 0x7fffffffffffffffu
#define UA_VMD_INF_BITS 0x7ff0000000000000u
UA_VMD_FN double
ua_vmd_hypot(double x, double y)
{
    uint64_t bx = ua_vm_bits(x) & UA_VMD_MAGNITUDE;
    uint64_t by = ua_vm_bits(y) & UA_VMD_MAGNITUDE;
    uint64_t bm = bx > by ? bx : by, bn = bx > by ? by : bx;
    int high = bm > ua_vm_bits(0x1p500), low = bm < ua_vm_bits(0x1p-500);
    uint64_t scale = high  ? ua_vm_bits(0x1p-600)
                     : low ? ua_vm_bits(0x1p600)
                           : ua_vm_bits(1.0);
    uint64_t back = high  ? ua_vm_bits(0x1p600)
                    : low ? ua_vm_bits(0x1p-600)
                          : ua_vm_bits(1.0);
    double m = ua_vm_double(bm) * ua_vm_double(scale);
    double n = ua_vm_double(bn) * ua_vm_double(scale);
    uint64_t br = ua_vm_bits(sqrt(m * m + n * n) * ua_vm_double(back));
    return ua_vm_double(
        bx == UA_VMD_INF_BITS || by == UA_VMD_INF_BITS ? UA_VMD_INF_BITS : br);
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

/* The names that host_elementwise_type.c's float64 loops call through
 * UA_M: the functions above, and the C library's where its function
 * already vectorizes or none is done here. */
#define ua_vmd_ceil ceil
#define ua_vmd_copysign copysign
#define ua_vmd_exp ua_vm_exp
#define ua_vmd_fabs fabs
#define ua_vmd_floor floor
#define ua_vmd_fmod fmod
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
