/* float32 pow's text, included once per target by host_vector_powf.h (in
 * plain arithmetic) and host_vector_fma.h (with fused multiply-adds):
 *   UA_VMF_POWF_SFX         the suffix of its names (empty, or _fma)
 *   UA_VMF_POWF_MADD(a, b, c)   a b + c in double, fused or not
 * Its tables (host_vector_powf.h) index the same way in scalar code, which
 * the compilers vectorize, and in host_vector_fma.h's AVX-512 loop, which
 * permutes registers for them: the two give the same bits. */

#define UA_VMF_POWF_CAT(a, b, c) a##b##c
#define UA_VMF_POWF_N_(a, s, c) UA_VMF_POWF_CAT(a, s, c)
#define UA_VMF_POWF_N(a, c) UA_VMF_POWF_N_(a, UA_VMF_POWF_SFX, c)
#define UA_VMF_POWF_M UA_VMF_POWF_MADD

/* log2(x 2^j) in double for x positive, normal and finite: x = 2^k z with
 * z in [0x1.6cp-1, 0x1.6cp+0) by its bits less those of the bottom (k
 * their arithmetic shift), the next five bits an interval i of z (the one
 * about 1 centred there: 1/c = 1), r = z/c - 1 = z (1/c) - 1 with 1/c of
 * six bits (a float of 24 bits times it has 30, down to 2^-29, and |r| <
 * 2^-5.4: r is exact, in float too), and log2 x = k + log2 c + r P(r),
 * log2 c in two floats (to 2^-48 of it), P of degree 6 fitted to log2(1 +
 * r)/r (within 2^-47.7 relatively, in Chebyshev's nodes). */
UA_VMF_FN double
UA_VMF_POWF_N(ua_vmf_pow_log2, )(float x, int32_t j)
{
    int32_t iu = (int32_t)(ua_vm_bitsf(x) - UA_VMF_POW_BOTTOM);
    int32_t i = (iu >> 18) & 31;
    double k = (double)((iu >> 23) + j);
    float z = ua_vmf_float(((uint32_t)iu & 0x007fffffu) + UA_VMF_POW_BOTTOM);
    double r = (double)z * (double)ua_vmf_pow_invc[i] - 1.0;
    double p = 0x1.a1f6c782e986bp-3;
    p = UA_VMF_POWF_M(p, r, -0x1.ecb7bf62aab77p-3);
    p = UA_VMF_POWF_M(p, r, 0x1.277714a88e9f6p-2);
    p = UA_VMF_POWF_M(p, r, -0x1.71547451c46e2p-2);
    p = UA_VMF_POWF_M(p, r, 0x1.ec709dc0c9f61p-2);
    p = UA_VMF_POWF_M(p, r, -0x1.71547652bbe56p-1);
    p = UA_VMF_POWF_M(p, r, 0x1.71547652b830dp+0);
    return (k + (double)ua_vmf_pow_chi[i]) +
           UA_VMF_POWF_M(r, p, (double)ua_vmf_pow_clo[i]);
}

/* 2^t in double for t clamped to [-200, 200] first (NaN to +-200): t = k +
 * j/16 + r by the rounder of sixteenths (|r| <= 1/32, exact), 2^(j/16)
 * from the table, 2^r = 1 + r Q(r), Q of degree 4 fitted to (2^r - 1)/r
 * (within 2^-46.6 relatively), and 2^k added to the exponent's bits (the
 * result is normal). */
UA_VMF_FN double
UA_VMF_POWF_N(ua_vmf_pow_exp2, )(double t)
{
    double at = fabs(t);
    t = copysign(at < 200.0 ? at : 200.0, t);
    double kb = t + UA_VMF_POW_ROUNDER16;
    uint64_t m = ua_vm_bits(kb) - ua_vm_bits(UA_VMF_POW_ROUNDER16);
    double r = t - (kb - UA_VMF_POW_ROUNDER16);
    double tj = ua_vmf_pow_exp2t[m & 15];
    double q = 0x1.5d893e5f2c1b9p-10;
    q = UA_VMF_POWF_M(q, r, 0x1.3b2c4ace78132p-7);
    q = UA_VMF_POWF_M(q, r, 0x1.c6b08d6faa13bp-5);
    q = UA_VMF_POWF_M(q, r, 0x1.ebfbdff6987f4p-3);
    q = UA_VMF_POWF_M(q, r, 0x1.62e42fefa39efp-1);
    double e = UA_VMF_POWF_M(tj * r, q, tj);
    return ua_vm_double(ua_vm_bits(e) + ((uint64_t)((int64_t)m >> 4) << 52));
}

/* pow(x, y) = 2^(y log2 x) for x positive, normal and finite and y
 * finite: in double, rounded once to float. */
UA_VMF_FN float
UA_VMF_POWF_N(ua_vmf_pow, _plain)(float x, float y)
{
    double l = UA_VMF_POWF_N(ua_vmf_pow_log2, )(x, 0);
    float r = (float)UA_VMF_POWF_N(ua_vmf_pow_exp2, )((double)y * l);
    /* an exponent of 2 gives x * x, the bits of the eager x ** 2 with a
     * scalar 2 (elementwise_rewrite.c) whatever operand holds the 2 */
    return y == 2.0f ? x * x : r;
}

/* Any x and y: |x| scaled by 2^24 where subnormal, log2 |x| of zeros and
 * infinities -inf and +inf, whose products with y give the zeros and
 * infinities that C asks for (y infinite: the same by the sign of log2
 * |x|); then C99's special cases by selects: the sign of x where y is an
 * odd integer (an integer whose half is not one), NaN for a negative
 * finite x and a finite y that is not an integer, NaN from NaN but
 * pow(x, +-0) and pow(1, y) are 1, and pow(-1, +-inf) is 1. */
UA_VMF_FN float
UA_VMF_POWF_N(ua_vmf_pow, )(float x, float y)
{
    float ax = fabsf(x), ay = fabsf(y);
    /* |y| and |y|/2 rounded to integers (by the rounder below 2^23, past
     * which every float is one) */
    float yi = ay < 0x1p23f ? (ay + 0x1p23f) - 0x1p23f : ay;
    float hy = 0.5f * ay;
    float yh = hy < 0x1p23f ? (hy + 0x1p23f) - 0x1p23f : hy;
    int y_frac = yi != ay;
    int y_odd = yi == ay && yh != hy;
    int tiny = ax < 0x1p-126f;
    float as = tiny ? ax * 0x1p24f : ax;
    as = as > 0.0f && as < INFINITY ? as : 1.0f; /* lanes replaced next */
    double l = UA_VMF_POWF_N(ua_vmf_pow_log2, )(as, tiny ? -24 : 0);
    l = ax == 0.0f ? -(double)INFINITY : l;
    l = ax == INFINITY ? (double)INFINITY : l;
    float r = (float)UA_VMF_POWF_N(ua_vmf_pow_exp2, )((double)y * l);
    r = y_odd ? copysignf(r, x) : r; /* -0 and -inf keep their sign */
    r = x < 0.0f && ax != INFINITY && y_frac ? NAN : r;
    r = x != x || y != y ? x + y : r;
    r = y == 2.0f ? x * x : r;
    r = x == 1.0f || y == 0.0f ? 1.0f : r;
    return x == -1.0f && ay == INFINITY ? 1.0f : r;
}

#undef UA_VMF_POWF_M
#undef UA_VMF_POWF_N
#undef UA_VMF_POWF_N_
#undef UA_VMF_POWF_CAT
