/* float32 exp2, cbrt and pow that the host's compilers vectorize, beside
 * host_vector_mathf.h's other float32 functions (in its terms: UA_VMF_FN,
 * the rounders, moves between a float and its bits), which
 * host_elementwise_type.c's float32 loops call through UA_M as
 * ua_vmf_exp2, ua_vmf_cbrt and ua_vmf_pow (host_vector_powf_core.h). */
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

/* float32 pow's tables (host_vector_powf_core.h): for each of the 32
 * intervals of z in [0x1.6cp-1, 0x1.6cp+0), 1/c (a float near the
 * reciprocal of its middle, 1 for the interval about 1) and -log2(1/c)
 * in two floats; 2^(j/16) for j = 0 .. 15 rounded to double.  Made by a
 * script at the time from 80-bit logarithms and powers. */
#define UA_VMF_POW_BOTTOM 0x3f360000u /* 0x1.6cp-1's bits */
#define UA_VMF_POW_ROUNDER16 0x1.8p48 /* rounds to sixteenths */
static const float ua_vmf_pow_invc[32] = {
    0x1.68p+0f, 0x1.6p+0f,  0x1.58p+0f, 0x1.5p+0f,  0x1.48p+0f, 0x1.4p+0f,
    0x1.38p+0f, 0x1.38p+0f, 0x1.3p+0f,  0x1.28p+0f, 0x1.28p+0f, 0x1.2p+0f,
    0x1.18p+0f, 0x1.18p+0f, 0x1.1p+0f,  0x1.1p+0f,  0x1.08p+0f, 0x1.08p+0f,
    0x1p+0f,    0x1.fp-1f,  0x1.ep-1f,  0x1.d8p-1f, 0x1.c8p-1f, 0x1.b8p-1f,
    0x1.bp-1f,  0x1.a8p-1f, 0x1.98p-1f, 0x1.9p-1f,  0x1.88p-1f, 0x1.8p-1f,
    0x1.78p-1f, 0x1.7p-1f};
static const float ua_vmf_pow_chi[32] = {
    -0x1.f7a856p-2f, -0x1.d6753ep-2f, -0x1.b47ecp-2f,  -0x1.91bba8p-2f,
    -0x1.6e221cp-2f, -0x1.49a784p-2f, -0x1.24407ap-2f, -0x1.24407ap-2f,
    -0x1.fbc16cp-3f, -0x1.acf5e2p-3f, -0x1.acf5e2p-3f, -0x1.5c01a4p-3f,
    -0x1.08c588p-3f, -0x1.08c588p-3f, -0x1.663f7p-4f,  -0x1.663f7p-4f,
    -0x1.6bad38p-5f, -0x1.6bad38p-5f, 0x0p+0f,         0x1.77394cp-5f,
    0x1.7d604ap-4f,  0x1.e0b1aep-4f,  0x1.563dc2p-3f,  0x1.bfc67ap-3f,
    0x1.f5fd8ap-3f,  0x1.169c06p-2f,  0x1.4f6fbcp-2f,  0x1.6cb0f6p-2f,
    0x1.8a898p-2f,   0x1.a8ff98p-2f,  0x1.c819dcp-2f,  0x1.e7df6p-2f};
static const float ua_vmf_pow_clo[32] = {
    -0x1.1960dap-27f, -0x1.975078p-33f, 0x1.18efacp-27f,  -0x1.23e2e2p-27f,
    -0x1.b3a19cp-27f, -0x1.79a372p-27f, -0x1.61c0e8p-27f, -0x1.61c0e8p-27f,
    0x1.bf65fep-29f,  -0x1.b69d92p-28f, -0x1.b69d92p-28f, 0x1.810a5ep-29f,
    -0x1.9b4f3cp-28f, -0x1.9b4f3cp-28f, 0x1.4dbb3ap-30f,  0x1.4dbb3ap-30f,
    0x1.4e205p-30f,   0x1.4e205p-30f,   0x0p+0f,          0x1.3b2b1ap-30f,
    -0x1.260896p-29f, 0x1.1e5faap-29f,  0x1.3ff596p-28f,  0x1.fffd34p-29f,
    0x1.20c7c6p-28f,  -0x1.9381d4p-27f, -0x1.a6274cp-27f, 0x1.0cb91ep-27f,
    0x1.57f7a6p-27f,  -0x1.cfdeb4p-27f, 0x1.6a2ff2p-29f,  -0x1.ac754cp-30f};
static const double ua_vmf_pow_exp2t[16] = {
    0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0,
    0x1.2387a6e756238p+0, 0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0,
    0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0, 0x1.6a09e667f3bcdp+0,
    0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
    0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0,
    0x1.ea4afa2a490dap+0};

/* pow in plain arithmetic (host_vector_fma.h compiles the same text again
 * with FMAs, for the CPUs that have them). */
#define UA_VMF_POWF_SFX
#define UA_VMF_POWF_MADD(a, b, c) ((a) * (b) + (c))
#include "backends/host/host_vector_powf_core.h"
#undef UA_VMF_POWF_SFX
#undef UA_VMF_POWF_MADD

#endif
