/* float64 sin, cos and tan that the host's compilers vectorize, beside
 * host_vector_math.h's other float64 functions (in its terms: UA_VMD_FN,
 * the rounder, moves between a double and its bits), and the loop that
 * host_elementwise_type.c takes for them on dense operands. */
#ifndef USMARRAY_BACKENDS_HOST_HOST_VECTOR_TRIG_H
#define USMARRAY_BACKENDS_HOST_HOST_VECTOR_TRIG_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/host/host_vector_math.h"

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

/* o[i] = NEAR(a[i]) over n dense elements, in blocks: each computed with
 * the near reduction into a buffer while finding whether any input is
 * past it, then copied out, those inputs' results replaced by ANY(x,
 * WHICH) (still there: the output may be the input). */
#define UA_VMD_BLOCK 1024
#define UA_VMD_TRIG_BLOCKS(o, a, n, NEAR, ANY, WHICH)                         \
    do {                                                                      \
        double buf_[UA_VMD_BLOCK];                                            \
        for (ptrdiff_t at_ = 0; at_ < n; at_ += UA_VMD_BLOCK) {               \
            ptrdiff_t m_ = n - at_ < UA_VMD_BLOCK ? n - at_ : UA_VMD_BLOCK;   \
            uint64_t far_ = 0;                                                \
            for (ptrdiff_t i_ = 0; i_ < m_; i_++) {                           \
                double v_ = a[at_ + i_];                                      \
                far_ |= (uint64_t)!ua_vmd_trig_near(v_);                      \
                buf_[i_] = NEAR(v_);                                          \
            }                                                                 \
            if (!far_) {                                                      \
                for (ptrdiff_t i_ = 0; i_ < m_; i_++) {                       \
                    o[at_ + i_] = buf_[i_];                                   \
                }                                                             \
                continue;                                                     \
            }                                                                 \
            for (ptrdiff_t i_ = 0; i_ < m_; i_++) {                           \
                double v_ = a[at_ + i_];                                      \
                o[at_ + i_] =                                                 \
                    ua_vmd_trig_near(v_) ? buf_[i_] : ANY(v_, WHICH);         \
            }                                                                 \
        }                                                                     \
    } while (0)

/* A float64 loop of sin, cos or tan (NAME, WHICH as ua_vmd_trig_any's)
 * for host_elementwise_type.c, in place of the catalogue's loop GEN for
 * dense operands, by UA_VMD_TRIG_BLOCKS. */
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
        UA_VMD_TRIG_BLOCKS(o, a, n, ua_vmd_##NAME##_near, ua_vmd_trig_any,    \
                           WHICH);                                            \
    }

#endif
