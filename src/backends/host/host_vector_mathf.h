/* float32 math that the host's compilers vectorize, in float arithmetic
 * (16 lanes to a 512-bit vector): only arithmetic, sqrt, comparisons,
 * selects and moves between a float and its bits, with no branch that a
 * lane could take alone.  Each is within 4 ULP of the correctly rounded
 * result (tools/elementwise_ulp.py measures them; docs/elementwise.rst
 * keeps the numbers) and gives the special values of the Array API
 * standard and C.
 *
 * host_elementwise_type.c names them through UA_M for float32, so that
 * the prelude's ua_tanh and the rest call these; the names below that map
 * to the C library are those whose C versions already vectorize (fabs,
 * sqrt, copysign, rint, floor) or that are not among the ones done here.
 * sin, cos and tan, with their loop that picks a cheaper reduction by
 * pi/2 per block of inputs, are host_vector_trigf.h's. */
#ifndef USMARRAY_BACKENDS_HOST_HOST_VECTOR_MATHF_H
#define USMARRAY_BACKENDS_HOST_HOST_VECTOR_MATHF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "backends/host/host_vector_math.h"

/* Inlined into every loop, even the five of a binary function, so that
 * none is left a call that keeps its loop scalar. */
#if defined(__GNUC__)
#define UA_VMF_FN static inline __attribute__((always_inline))
#else
#define UA_VMF_FN static inline
#endif

#define ua_vmf_ceil ceilf
#define ua_vmf_copysign copysignf
#define ua_vmf_fabs fabsf
#define ua_vmf_floor floorf
#define ua_vmf_fma fmaf
#define ua_vmf_fmod fmodf
#define ua_vmf_ldexp ldexpf
#define ua_vmf_rint rintf
#define ua_vmf_sqrt sqrtf
#define ua_vmf_trunc truncf
#define ua_vmf_exp ua_vm_expf

UA_VMF_FN float
ua_vmf_float(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* sqrt(x^2 + y^2) in double, where the squares are exact and neither
 * overflows nor underflows: within a rounding of the float result (the
 * C library's hypotf is a call per element).  An infinite operand gives
 * +inf, NaN beside it included. */
UA_VMF_FN float
ua_vmf_hypot(float x, float y)
{
    double dx = x, dy = y;
    float r = (float)sqrt(dx * dx + dy * dy);
    uint32_t bx = ua_vm_bitsf(x) & 0x7fffffffu;
    uint32_t by = ua_vm_bitsf(y) & 0x7fffffffu;
    /* a mask, not a select: GCC 12 leaves a select of it a branch */
    uint32_t inf = -(uint32_t)((bx == 0x7f800000u) | (by == 0x7f800000u));
    return ua_vmf_float((ua_vm_bitsf(r) & ~inf) | (0x7f800000u & inf));
}

/* x with the sign bit of s. */
UA_VMF_FN float
ua_vmf_with_sign(float x, float s)
{
    return ua_vmf_float((ua_vm_bitsf(x) & 0x7fffffffu) |
                        (ua_vm_bitsf(s) & 0x80000000u));
}

/* C's nextafterf on the bits, as ua_vmd_nextafter does it. */
UA_VMF_FN float
ua_vmf_nextafter(float x, float y)
{
    int32_t away = (y > x) == (x > 0.0f) ? 1 : -1;
    float r = ua_vmf_float(ua_vm_bitsf(x) + (uint32_t)away);
    r = x == 0.0f ? ua_vmf_with_sign(0x1p-149f, y) : r;
    r = x == y ? y : r;
    return x != x || y != y ? x + y : r;
}

/* exp(r) - 1 for |r| <= ln 2 / 2, with the relative error of r's own
 * rounding: r + r^2 times Taylor's 1/2! .. 1/7! (the first omitted term
 * is below 0.05 ULP). */
UA_VMF_FN float
ua_vmf_expm1_reduced(float r)
{
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    return r + r * r * p;
}

/* x = k ln 2 + r by Cody and Waite's split of ln 2 (the high part has 9
 * low zero bits, so k times it is exact for |k| < 512); k returned. */
UA_VMF_FN int32_t
ua_vmf_reduce_ln2(float x, float *r)
{
    float kf = x * 1.44269504f + UA_VM_ROUNDERF;
    int32_t k = (int32_t)(ua_vm_bitsf(kf) - ua_vm_bitsf(UA_VM_ROUNDERF));
    kf -= UA_VM_ROUNDERF;
    *r = (x - kf * 0.693145751953125f) - kf * 1.42860677e-6f;
    return k;
}

/* exp(x) / 2 for x <= 90, without the overflow of exp(x) between 88.7
 * and 89.4 (cosh and sinh reach there); 2^(k-1) in two normal factors. */
UA_VMF_FN float
ua_vmf_half_exp(float x)
{
    x = x > 90.0f ? 90.0f : x;
    float r;
    int32_t k = ua_vmf_reduce_ln2(x, &r) - 1;
    float e = 1.0f + ua_vmf_expm1_reduced(r);
    int32_t k1 = k / 2;
    return e * ua_vm_pow2f(k1) * ua_vm_pow2f(k - k1);
}

/* expm1(x) = 2^k (expm1(r) + 1) - 1 = 2^k expm1(r) + (2^k - 1): 2^k - 1
 * is exact for the k reached below 88, and k == 0 leaves expm1(r), whose
 * error is relative to the result however small: this for -30 <= x <= 88
 * (where tanh and sinh call it, without the exp beside it that the select
 * below costs every element); past 88 expm1 is exp; below -30 it rounds
 * to -1. */
UA_VMF_FN float
ua_vmf_expm1_below_88(float x)
{
    float r;
    int32_t k = ua_vmf_reduce_ln2(x, &r);
    float s = ua_vm_pow2f(k);
    return s * ua_vmf_expm1_reduced(r) + (s - 1.0f);
}

/* Past 88, exp(x) = 2 (2^(k-1) (1 + expm1(r))) from the same reduction
 * and polynomial (2^k alone may overflow there, from 88.03), x clamped to
 * 89, past which it overflows: no exp beside it for every element. */
UA_VMF_FN float
ua_vmf_expm1(float x)
{
    float xc = x > 89.0f ? 89.0f : x;
    xc = xc < -30.0f ? -30.0f : xc;
    float r;
    int32_t k = ua_vmf_reduce_ln2(xc, &r);
    float p = ua_vmf_expm1_reduced(r);
    float h = ua_vm_pow2f(k - 1), s = h + h;
    float y = x > 88.0f ? 2.0f * (h * (1.0f + p)) : s * p + (s - 1.0f);
    return x == 0.0f ? x : y; /* keeps -0 */
}

/* log(u) + c / u + j ln 2 for u > 0 (u may be +inf), c a correction far
 * below u (the rounding error of 1 + x in log1p).  u = 2^k m with m in
 * [sqrt(2)/2, sqrt(2)), f = m - 1 exactly, and with s = f / (2 + f),
 * log(1 + f) = f - f^2/2 + s (f^2/2 + R), R = 2s^2/3 + 2s^4/5 + ... by
 * its series to s^8 (|s| < 0.172: the first omitted term is below 2^-28
 * of the result), so that the rounding errors fall on the small terms. */
/* u > 0 as 2^k m, m in [sqrt(2)/2, sqrt(2)), k offset by j; of f = m - 1,
 * s = f / (2 + f), hfsq = f^2 / 2 and rr the series' terms past 2s:
 * log(m) = f - hfsq + s (hfsq + rr).  What log and log10 share. */
typedef struct {
    int32_t k;
    float f, s, hfsq, rr;
} ua_vmf_log_parts;

UA_VMF_FN ua_vmf_log_parts
ua_vmf_log_split(float u, int32_t j)
{
    ua_vmf_log_parts p;
    uint32_t iu = ua_vm_bitsf(u) + (0x3f800000u - 0x3f3504f3u);
    p.k = (int32_t)(iu >> 23) - 127 + j;
    float m = ua_vmf_float((iu & 0x007fffffu) + 0x3f3504f3u);
    p.f = m - 1.0f;
    p.s = p.f / (2.0f + p.f);
    float z = p.s * p.s;
    float rr = 2.0f / 9.0f;
    rr = rr * z + 2.0f / 7.0f;
    rr = rr * z + 2.0f / 5.0f;
    rr = rr * z + 2.0f / 3.0f;
    p.rr = rr * z;
    p.hfsq = 0.5f * p.f * p.f;
    return p;
}

UA_VMF_FN float
ua_vmf_log_core(float u, float c, int32_t j)
{
    ua_vmf_log_parts p = ua_vmf_log_split(u, j);
    float kf = (float)p.k;
    /* ln 2 split so that kf times its high part is exact (|k| < 256) */
    float lo = kf * 1.42860677e-6f + c / u;
    float y = kf * 0.693145751953125f +
              (p.f - (p.hfsq - (p.s * (p.hfsq + p.rr) + lo)));
    return u == INFINITY ? u : y;
}

/* log1p(x) = log(u) + c / u, u = 1 + x rounded and c its rounding error
 * (Knuth's fast two-sum, the larger of 1 and x first). */
UA_VMF_FN float
ua_vmf_log1p(float x)
{
    float u = 1.0f + x;
    float c = x > 1.0f ? (x - u) + 1.0f : (1.0f - u) + x;
    float uc = u > 0.0f ? u : 1.0f; /* lanes that the selects replace */
    float y = ua_vmf_log_core(uc, c, 0);
    y = u == 0.0f ? -INFINITY : y;
    y = x < -1.0f ? NAN : y;
    y = x != x ? x : y;
    return x == 0.0f ? x : y; /* keeps -0 */
}

/* log10(x) = log(x) / ln 10: the log of the core times 1/ln 10 in two
 * parts, the product of the large part with k log10(2) exact.
 * Subnormal x is scaled by 2^24 first. */
UA_VMF_FN float
ua_vmf_log10(float x)
{
    int32_t j = x < 0x1p-126f ? -24 : 0;
    float xs = x < 0x1p-126f ? x * 0x1p24f : x;
    ua_vmf_log_parts p = ua_vmf_log_split(xs > 0.0f ? xs : 1.0f, j);
    /* log(1 + f) = hi + lo with hi f - hfsq cut to its high 12 bits */
    float hi = p.f - p.hfsq;
    hi = ua_vmf_float(ua_vm_bitsf(hi) & 0xfffff000u);
    float lo = (p.f - hi) - p.hfsq + p.s * (p.hfsq + p.rr);
    float kf = (float)p.k;
    const float ivln10hi = 4.3432617188e-01f, ivln10lo = -3.1689971365e-05f;
    const float log10_2hi = 3.0102920532e-01f, log10_2lo = 7.9034151668e-07f;
    float y = kf * log10_2lo + (lo + hi) * ivln10lo + lo * ivln10hi +
              hi * ivln10hi + kf * log10_2hi;
    y = x == INFINITY ? x : y;
    y = x == 0.0f ? -INFINITY : y;
    y = x < 0.0f ? NAN : y;
    return x != x ? x : y;
}

/* C's special values of the logarithms of x (NaN below 0 and for NaN,
 * -inf at either zero, +inf at +inf), and the input they compute from:
 * subnormal x scaled by 2^24 (j = -24), the lanes the selects replace
 * given 1. */
UA_VMF_FN float
ua_vmf_log_special(float x, float y)
{
    y = x == INFINITY ? x : y;
    y = x == 0.0f ? -INFINITY : y;
    y = x < 0.0f ? NAN : y;
    return x != x ? x : y;
}

UA_VMF_FN float
ua_vmf_log_input(float x, int32_t *j)
{
    int tiny = x < 0x1p-126f;
    *j = tiny ? -24 : 0;
    float xs = tiny ? x * 0x1p24f : x;
    return xs > 0.0f && xs < INFINITY ? xs : 1.0f;
}

UA_VMF_FN float
ua_vmf_log(float x)
{
    int32_t j;
    float u = ua_vmf_log_input(x, &j);
    return ua_vmf_log_special(x, ua_vmf_log_core(u, 0.0f, j));
}

/* log2(x) = k + log(m) / ln 2, log(m) as hi + lo as in log10, 1/ln 2 in
 * two parts. */
UA_VMF_FN float
ua_vmf_log2(float x)
{
    int32_t j;
    float u = ua_vmf_log_input(x, &j);
    ua_vmf_log_parts p = ua_vmf_log_split(u, j);
    float hi = p.f - p.hfsq;
    hi = ua_vmf_float(ua_vm_bitsf(hi) & 0xfffff000u);
    float lo = (p.f - hi) - p.hfsq + p.s * (p.hfsq + p.rr);
    const float ivln2hi = 1.4428710938e+00f, ivln2lo = -1.7605285393e-04f;
    float y = (lo + hi) * ivln2lo + lo * ivln2hi + hi * ivln2hi + (float)p.k;
    return ua_vmf_log_special(x, y);
}

/* cosh(x) = e/2 + 1/(2e) with e/2 = exp(|x|)/2 found without overflow;
 * the second term vanishes where the first is infinite. */
UA_VMF_FN float
ua_vmf_cosh(float x)
{
    float h = ua_vmf_half_exp(fabsf(x));
    return h + 0.25f / h;
}

/* sinh(|x|), |x| = k ln 2 + r: exp(+-|x|) = 2^(+-k) (1 +- O + E), O and
 * E the odd and even parts of expm1(r)'s polynomial (ua_vmf_expm1_reduced's),
 * so with q = 2^(k-2) and t = 2^(-k-2), sinh(|x|) = 2 ((q - t) + (q + t) O
 * + (q - t) E): O alone where k is 0 (its error relative however small
 * x, down to the subnormals), no division and one form for every |x|, past 2^-26 of the result t
 * no more than a rounding (its exponent clamped where it would leave the
 * normal range).  |x| clamped to 89.5, past which sinh overflows, keeps q
 * finite; the last doubling overflows where sinh does. */
UA_VMF_FN float
ua_vmf_sinh(float x)
{
    float a = fabsf(x), r;
    int32_t k = ua_vmf_reduce_ln2(a < 89.5f ? a : 89.5f, &r);
    /* below 0.55 the series of r = |x| itself (its first omitted term
     * under 0.2 ULP), where k = 1 would cancel a bit in q - t + (q + t) O */
    k = a < 0.55f ? 0 : k;
    r = a < 0.55f ? a : r;
    float z = r * r;
    float odd = 1.0f / 5040.0f;
    odd = odd * z + 1.0f / 120.0f;
    odd = odd * z + 1.0f / 6.0f;
    odd = r + r * z * odd;
    float even = 1.0f / 720.0f;
    even = even * z + 1.0f / 24.0f;
    even = even * z + 0.5f;
    even = z * even;
    float q = ua_vm_pow2f(k - 2), t = ua_vm_pow2f(-(k < 64 ? k : 64) - 2);
    float d = q - t;
    float y = 2.0f * (d + ((q + t) * odd + d * even));
    y = k == 0 ? odd : y; /* the same value, without halving a subnormal */
    return ua_vmf_with_sign(a != a ? x : y, x);
}

/* tanh(|x|) = e / (e + 2) with e = expm1(2|x|); past 9.1 it rounds to 1. */
UA_VMF_FN float
ua_vmf_tanh(float x)
{
    float a = fabsf(x);
    float e = ua_vmf_expm1_below_88(2.0f * (a < 10.0f ? a : 10.0f));
    float y = e / (e + 2.0f);
    return ua_vmf_with_sign(a != a ? x : y, x);
}

/* atanh(|x|) = log1p(2|x| / (1 - |x|)) / 2, the argument as
 * 2a + 2a^2 / (1 - a) so that small a keep their digits; 1 gives inf and
 * past 1 the argument falls below -1 (NaN). */
UA_VMF_FN float
ua_vmf_atanh(float x)
{
    float a = fabsf(x);
    float t = a + a;
    float y = 0.5f * ua_vmf_log1p(t + t * a / (1.0f - a));
    y = a > 1.0f ? NAN : y;
    return ua_vmf_with_sign(a != a ? x : y, x);
}

/* atanh of |x| < 1 (UA_VMF_ATANH_RANGE): log1p's steps on an argument
 * known finite and not negative, without its selects and atanh's, which
 * took half of the loop's time; the same bits. */
#define UA_VMF_ATANH_RANGE(v) ((v) > -1.0f && (v) < 1.0f)
UA_VMF_FN float
ua_vmf_atanh_normal(float x)
{
    float a = fabsf(x);
    float t = a + a;
    float w = t + t * a / (1.0f - a);
    float u = 1.0f + w;
    float c = w > 1.0f ? (w - u) + 1.0f : (1.0f - u) + w;
    return ua_vmf_with_sign(0.5f * ua_vmf_log_core(u, c, 0), x);
}

/* asinh(|x|) = log1p(a + a^2 / (1 + sqrt(1 + a^2))) up to 2^12, above
 * which it is log(2a) within float's precision. */
UA_VMF_FN float
ua_vmf_asinh(float x)
{
    float a = fabsf(x);
    int large = a > 4096.0f;
    float as = large ? 1.0f : a;
    float t = as + as * as / (1.0f + sqrtf(1.0f + as * as));
    float u = 1.0f + t;
    float c = (1.0f - u) + t;
    float y = ua_vmf_log_core(large ? a : u, large ? 0.0f : c, large);
    y = a < 0x1p-12f ? a : y;
    return ua_vmf_with_sign(a != a ? x : y, x);
}

/* acosh(x) = log(x + s), s = sqrt(t (2 + t)) for t = x - 1 (exact),
 * the sum's rounding error carried into the log's core, up to 2^12;
 * log(x) + ln 2 above: one log for every lane.  NaN below 1. */
UA_VMF_FN float
ua_vmf_acosh(float x)
{
    int large = x > 4096.0f;
    float xm = large || !(x >= 1.0f) ? 1.0f : x; /* lanes replaced below */
    float t = xm - 1.0f;
    float s = sqrtf(t * (2.0f + t));
    float u = xm + s;
    float c = (xm - u) + s; /* xm >= s */
    float y = ua_vmf_log_core(large ? x : u, large ? 0.0f : c, large);
    y = x < 1.0f ? NAN : y;
    return x != x ? x : y;
}

/* atan(t) for |t| <= tan(pi/8): t + t z P(z), z = t^2, P Cephes's
 * minimax coefficients of atanf. */
UA_VMF_FN float
ua_vmf_atan_small(float t)
{
    float z = t * t;
    float p = 8.05374449538e-2f;
    p = p * z - 1.38776856032e-1f;
    p = p * z + 1.99777106478e-1f;
    p = p * z - 3.33329491539e-1f;
    return t + t * z * p;
}

/* atan2(y, x) = q pi/4 + s atan(t) with |t| <= tan(pi/8): the ratio of
 * the smaller magnitude to the larger (pi/2 minus its atan where y is
 * the larger), reduced by atan(t) = pi/4 + atan((t - 1) / (t + 1)) past
 * tan(pi/8), and reflected to pi minus it where x is negative (or -0).
 * q pi/4 is added in two parts, the high one exact times q <= 4.  Zeros
 * and infinities together give ratio 0 and 1, which the reflections
 * carry to the standard's multiples of pi/4; the sign is y's. */
UA_VMF_FN float
ua_vmf_atan2(float y, float x)
{
    float ax = fabsf(x), ay = fabsf(y);
    int swap = ay > ax;
    float num = swap ? ax : ay, den = swap ? ay : ax;
    float t = num / den;
    t = num == 0.0f ? 0.0f : t;
    t = (ax == INFINITY && ay == INFINITY) ? 1.0f : t;
    int mid = t > 0.414213562f;
    float tr = mid ? (t - 1.0f) / (t + 1.0f) : t;
    float q = mid ? 1.0f : 0.0f, s = 1.0f;
    q = swap ? 2.0f - q : q;
    s = swap ? -s : s;
    int neg = (ua_vm_bitsf(x) >> 31) != 0;
    q = neg ? 4.0f - q : q;
    s = neg ? -s : s;
    const float pio4hi = 0.78539812564849853515625f;
    const float pio4lo = 3.7748947079307981e-08f;
    float r = q * pio4hi + (q * pio4lo + s * ua_vmf_atan_small(tr));
    r = (x != x || y != y) ? x + y : r;
    return ua_vmf_with_sign(r, y);
}

UA_VMF_FN float
ua_vmf_atan(float x)
{
    return ua_vmf_atan2(x, 1.0f);
}

/* asin(a) for |a| <= 1/2: a + a z P(z), z = a^2, P Cephes's minimax
 * coefficients of asinf. */
UA_VMF_FN float
ua_vmf_asin_small(float a)
{
    float z = a * a;
    float p = 4.2163199048e-2f;
    p = p * z + 2.4181311049e-2f;
    p = p * z + 4.5470025998e-2f;
    p = p * z + 7.4953002686e-2f;
    p = p * z + 1.6666752422e-1f;
    return a + a * z * p;
}

#define UA_VMF_PIO2HI 1.57079625129699707031f
#define UA_VMF_PIO2LO 7.54978995489188216e-08f

/* asin(a) = pi/2 - 2 asin(sqrt((1 - a) / 2)) past 1/2, where 1 - a is
 * exact; past 1 the sqrt gives NaN. */
UA_VMF_FN float
ua_vmf_asin(float x)
{
    float a = fabsf(x);
    int big = a > 0.5f;
    float w = sqrtf(0.5f * (1.0f - a));
    float p = ua_vmf_asin_small(big ? w : a);
    float y = big ? UA_VMF_PIO2HI - (2.0f * p - UA_VMF_PIO2LO) : p;
    return ua_vmf_with_sign(a != a ? x : y, x);
}

/* acos(x) = 2 asin(sqrt((1 - x) / 2)) past 1/2, pi - the same of -x
 * below -1/2, pi/2 - asin(x) between. */
UA_VMF_FN float
ua_vmf_acos(float x)
{
    float a = fabsf(x);
    int big = a > 0.5f;
    float w = sqrtf(0.5f * (1.0f - a));
    float p = ua_vmf_asin_small(big ? w : x);
    float y = UA_VMF_PIO2HI - (p - UA_VMF_PIO2LO);
    float twice = 2.0f * p;
    y = big && x > 0.0f ? twice : y;
    y = big && x < 0.0f ? 2.0f * UA_VMF_PIO2HI - (twice - 2.0f * UA_VMF_PIO2LO)
                        : y;
    return a != a ? x : y;
}

#endif
