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
 * sin, cos and tan have, besides, a loop of their own (UA_VMF_TRIG_LOOP)
 * that picks a cheaper reduction by pi/2 per block of inputs. */
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

/* 2/pi's bits for the reduction of |x| >= 1/2 by pi/2 (Payne and Hanek's
 * method, with no branch): column e - 126, for the floats of biased
 * exponent e, holds the 96 bits of 2/pi from bit e - 151 on (bits before the point
 * are 0) in four parts of 24 bits (exact in a float), scaled so that the 24-bit significand m
 * of |x| times part i is |x| times those bits, exactly in a double, with
 * its last bit at 2^(-22 - 24 i).  The bits before them contribute
 * multiples of 4 (whole turns), those after less than 2^-94. */
static const float ua_vmf_2_over_pi[4][129] = {
    {0x000000p-22, 0x000000p-22, 0x000000p-22, 0x000001p-22, 0x000002p-22,
     0x000005p-22, 0x00000ap-22, 0x000014p-22, 0x000028p-22, 0x000051p-22,
     0x0000a2p-22, 0x000145p-22, 0x00028bp-22, 0x000517p-22, 0x000a2fp-22,
     0x00145fp-22, 0x0028bep-22, 0x00517cp-22, 0x00a2f9p-22, 0x0145f3p-22,
     0x028be6p-22, 0x0517ccp-22, 0x0a2f98p-22, 0x145f30p-22, 0x28be60p-22,
     0x517cc1p-22, 0xa2f983p-22, 0x45f306p-22, 0x8be60dp-22, 0x17cc1bp-22,
     0x2f9836p-22, 0x5f306dp-22, 0xbe60dbp-22, 0x7cc1b7p-22, 0xf9836ep-22,
     0xf306dcp-22, 0xe60db9p-22, 0xcc1b72p-22, 0x9836e4p-22, 0x306dc9p-22,
     0x60db93p-22, 0xc1b727p-22, 0x836e4ep-22, 0x06dc9cp-22, 0x0db939p-22,
     0x1b7272p-22, 0x36e4e4p-22, 0x6dc9c8p-22, 0xdb9391p-22, 0xb72722p-22,
     0x6e4e44p-22, 0xdc9c88p-22, 0xb93910p-22, 0x727220p-22, 0xe4e441p-22,
     0xc9c882p-22, 0x939105p-22, 0x27220ap-22, 0x4e4415p-22, 0x9c882ap-22,
     0x391054p-22, 0x7220a9p-22, 0xe44152p-22, 0xc882a5p-22, 0x91054ap-22,
     0x220a94p-22, 0x441529p-22, 0x882a53p-22, 0x1054a7p-22, 0x20a94fp-22,
     0x41529fp-22, 0x82a53fp-22, 0x054a7fp-22, 0x0a94fep-22, 0x1529fcp-22,
     0x2a53f8p-22, 0x54a7f0p-22, 0xa94fe1p-22, 0x529fc2p-22, 0xa53f84p-22,
     0x4a7f09p-22, 0x94fe13p-22, 0x29fc27p-22, 0x53f84ep-22, 0xa7f09dp-22,
     0x4fe13ap-22, 0x9fc275p-22, 0x3f84eap-22, 0x7f09d5p-22, 0xfe13abp-22,
     0xfc2757p-22, 0xf84eafp-22, 0xf09d5fp-22, 0xe13abep-22, 0xc2757dp-22,
     0x84eafap-22, 0x09d5f4p-22, 0x13abe8p-22, 0x2757d1p-22, 0x4eafa3p-22,
     0x9d5f47p-22, 0x3abe8fp-22, 0x757d1fp-22, 0xeafa3ep-22, 0xd5f47dp-22,
     0xabe8fap-22, 0x57d1f5p-22, 0xafa3eap-22, 0x5f47d4p-22, 0xbe8fa9p-22,
     0x7d1f53p-22, 0xfa3ea6p-22, 0xf47d4dp-22, 0xe8fa9ap-22, 0xd1f534p-22,
     0xa3ea69p-22, 0x47d4d3p-22, 0x8fa9a6p-22, 0x1f534dp-22, 0x3ea69bp-22,
     0x7d4d37p-22, 0xfa9a6ep-22, 0xf534ddp-22, 0xea69bbp-22, 0xd4d377p-22,
     0xa9a6eep-22, 0x534ddcp-22, 0xa69bb8p-22, 0x4d3770p-22},
    {0x28be60p-46, 0x517cc1p-46, 0xa2f983p-46, 0x45f306p-46, 0x8be60dp-46,
     0x17cc1bp-46, 0x2f9836p-46, 0x5f306dp-46, 0xbe60dbp-46, 0x7cc1b7p-46,
     0xf9836ep-46, 0xf306dcp-46, 0xe60db9p-46, 0xcc1b72p-46, 0x9836e4p-46,
     0x306dc9p-46, 0x60db93p-46, 0xc1b727p-46, 0x836e4ep-46, 0x06dc9cp-46,
     0x0db939p-46, 0x1b7272p-46, 0x36e4e4p-46, 0x6dc9c8p-46, 0xdb9391p-46,
     0xb72722p-46, 0x6e4e44p-46, 0xdc9c88p-46, 0xb93910p-46, 0x727220p-46,
     0xe4e441p-46, 0xc9c882p-46, 0x939105p-46, 0x27220ap-46, 0x4e4415p-46,
     0x9c882ap-46, 0x391054p-46, 0x7220a9p-46, 0xe44152p-46, 0xc882a5p-46,
     0x91054ap-46, 0x220a94p-46, 0x441529p-46, 0x882a53p-46, 0x1054a7p-46,
     0x20a94fp-46, 0x41529fp-46, 0x82a53fp-46, 0x054a7fp-46, 0x0a94fep-46,
     0x1529fcp-46, 0x2a53f8p-46, 0x54a7f0p-46, 0xa94fe1p-46, 0x529fc2p-46,
     0xa53f84p-46, 0x4a7f09p-46, 0x94fe13p-46, 0x29fc27p-46, 0x53f84ep-46,
     0xa7f09dp-46, 0x4fe13ap-46, 0x9fc275p-46, 0x3f84eap-46, 0x7f09d5p-46,
     0xfe13abp-46, 0xfc2757p-46, 0xf84eafp-46, 0xf09d5fp-46, 0xe13abep-46,
     0xc2757dp-46, 0x84eafap-46, 0x09d5f4p-46, 0x13abe8p-46, 0x2757d1p-46,
     0x4eafa3p-46, 0x9d5f47p-46, 0x3abe8fp-46, 0x757d1fp-46, 0xeafa3ep-46,
     0xd5f47dp-46, 0xabe8fap-46, 0x57d1f5p-46, 0xafa3eap-46, 0x5f47d4p-46,
     0xbe8fa9p-46, 0x7d1f53p-46, 0xfa3ea6p-46, 0xf47d4dp-46, 0xe8fa9ap-46,
     0xd1f534p-46, 0xa3ea69p-46, 0x47d4d3p-46, 0x8fa9a6p-46, 0x1f534dp-46,
     0x3ea69bp-46, 0x7d4d37p-46, 0xfa9a6ep-46, 0xf534ddp-46, 0xea69bbp-46,
     0xd4d377p-46, 0xa9a6eep-46, 0x534ddcp-46, 0xa69bb8p-46, 0x4d3770p-46,
     0x9a6ee0p-46, 0x34ddc0p-46, 0x69bb81p-46, 0xd37703p-46, 0xa6ee06p-46,
     0x4ddc0dp-46, 0x9bb81bp-46, 0x377036p-46, 0x6ee06dp-46, 0xddc0dbp-46,
     0xbb81b6p-46, 0x77036dp-46, 0xee06dbp-46, 0xdc0db6p-46, 0xb81b6cp-46,
     0x7036d8p-46, 0xe06db1p-46, 0xc0db62p-46, 0x81b6c5p-46, 0x036d8ap-46,
     0x06db14p-46, 0x0db629p-46, 0x1b6c52p-46, 0x36d8a5p-46},
    {0xdb9391p-70, 0xb72722p-70, 0x6e4e44p-70, 0xdc9c88p-70, 0xb93910p-70,
     0x727220p-70, 0xe4e441p-70, 0xc9c882p-70, 0x939105p-70, 0x27220ap-70,
     0x4e4415p-70, 0x9c882ap-70, 0x391054p-70, 0x7220a9p-70, 0xe44152p-70,
     0xc882a5p-70, 0x91054ap-70, 0x220a94p-70, 0x441529p-70, 0x882a53p-70,
     0x1054a7p-70, 0x20a94fp-70, 0x41529fp-70, 0x82a53fp-70, 0x054a7fp-70,
     0x0a94fep-70, 0x1529fcp-70, 0x2a53f8p-70, 0x54a7f0p-70, 0xa94fe1p-70,
     0x529fc2p-70, 0xa53f84p-70, 0x4a7f09p-70, 0x94fe13p-70, 0x29fc27p-70,
     0x53f84ep-70, 0xa7f09dp-70, 0x4fe13ap-70, 0x9fc275p-70, 0x3f84eap-70,
     0x7f09d5p-70, 0xfe13abp-70, 0xfc2757p-70, 0xf84eafp-70, 0xf09d5fp-70,
     0xe13abep-70, 0xc2757dp-70, 0x84eafap-70, 0x09d5f4p-70, 0x13abe8p-70,
     0x2757d1p-70, 0x4eafa3p-70, 0x9d5f47p-70, 0x3abe8fp-70, 0x757d1fp-70,
     0xeafa3ep-70, 0xd5f47dp-70, 0xabe8fap-70, 0x57d1f5p-70, 0xafa3eap-70,
     0x5f47d4p-70, 0xbe8fa9p-70, 0x7d1f53p-70, 0xfa3ea6p-70, 0xf47d4dp-70,
     0xe8fa9ap-70, 0xd1f534p-70, 0xa3ea69p-70, 0x47d4d3p-70, 0x8fa9a6p-70,
     0x1f534dp-70, 0x3ea69bp-70, 0x7d4d37p-70, 0xfa9a6ep-70, 0xf534ddp-70,
     0xea69bbp-70, 0xd4d377p-70, 0xa9a6eep-70, 0x534ddcp-70, 0xa69bb8p-70,
     0x4d3770p-70, 0x9a6ee0p-70, 0x34ddc0p-70, 0x69bb81p-70, 0xd37703p-70,
     0xa6ee06p-70, 0x4ddc0dp-70, 0x9bb81bp-70, 0x377036p-70, 0x6ee06dp-70,
     0xddc0dbp-70, 0xbb81b6p-70, 0x77036dp-70, 0xee06dbp-70, 0xdc0db6p-70,
     0xb81b6cp-70, 0x7036d8p-70, 0xe06db1p-70, 0xc0db62p-70, 0x81b6c5p-70,
     0x036d8ap-70, 0x06db14p-70, 0x0db629p-70, 0x1b6c52p-70, 0x36d8a5p-70,
     0x6db14ap-70, 0xdb6295p-70, 0xb6c52bp-70, 0x6d8a56p-70, 0xdb14acp-70,
     0xb62959p-70, 0x6c52b3p-70, 0xd8a566p-70, 0xb14accp-70, 0x629599p-70,
     0xc52b32p-70, 0x8a5664p-70, 0x14acc9p-70, 0x295993p-70, 0x52b327p-70,
     0xa5664fp-70, 0x4acc9ep-70, 0x95993cp-70, 0x2b3278p-70, 0x5664f1p-70,
     0xacc9e2p-70, 0x5993c4p-70, 0xb32788p-70, 0x664f10p-70},
    {0x054a7fp-94, 0x0a94fep-94, 0x1529fcp-94, 0x2a53f8p-94, 0x54a7f0p-94,
     0xa94fe1p-94, 0x529fc2p-94, 0xa53f84p-94, 0x4a7f09p-94, 0x94fe13p-94,
     0x29fc27p-94, 0x53f84ep-94, 0xa7f09dp-94, 0x4fe13ap-94, 0x9fc275p-94,
     0x3f84eap-94, 0x7f09d5p-94, 0xfe13abp-94, 0xfc2757p-94, 0xf84eafp-94,
     0xf09d5fp-94, 0xe13abep-94, 0xc2757dp-94, 0x84eafap-94, 0x09d5f4p-94,
     0x13abe8p-94, 0x2757d1p-94, 0x4eafa3p-94, 0x9d5f47p-94, 0x3abe8fp-94,
     0x757d1fp-94, 0xeafa3ep-94, 0xd5f47dp-94, 0xabe8fap-94, 0x57d1f5p-94,
     0xafa3eap-94, 0x5f47d4p-94, 0xbe8fa9p-94, 0x7d1f53p-94, 0xfa3ea6p-94,
     0xf47d4dp-94, 0xe8fa9ap-94, 0xd1f534p-94, 0xa3ea69p-94, 0x47d4d3p-94,
     0x8fa9a6p-94, 0x1f534dp-94, 0x3ea69bp-94, 0x7d4d37p-94, 0xfa9a6ep-94,
     0xf534ddp-94, 0xea69bbp-94, 0xd4d377p-94, 0xa9a6eep-94, 0x534ddcp-94,
     0xa69bb8p-94, 0x4d3770p-94, 0x9a6ee0p-94, 0x34ddc0p-94, 0x69bb81p-94,
     0xd37703p-94, 0xa6ee06p-94, 0x4ddc0dp-94, 0x9bb81bp-94, 0x377036p-94,
     0x6ee06dp-94, 0xddc0dbp-94, 0xbb81b6p-94, 0x77036dp-94, 0xee06dbp-94,
     0xdc0db6p-94, 0xb81b6cp-94, 0x7036d8p-94, 0xe06db1p-94, 0xc0db62p-94,
     0x81b6c5p-94, 0x036d8ap-94, 0x06db14p-94, 0x0db629p-94, 0x1b6c52p-94,
     0x36d8a5p-94, 0x6db14ap-94, 0xdb6295p-94, 0xb6c52bp-94, 0x6d8a56p-94,
     0xdb14acp-94, 0xb62959p-94, 0x6c52b3p-94, 0xd8a566p-94, 0xb14accp-94,
     0x629599p-94, 0xc52b32p-94, 0x8a5664p-94, 0x14acc9p-94, 0x295993p-94,
     0x52b327p-94, 0xa5664fp-94, 0x4acc9ep-94, 0x95993cp-94, 0x2b3278p-94,
     0x5664f1p-94, 0xacc9e2p-94, 0x5993c4p-94, 0xb32788p-94, 0x664f10p-94,
     0xcc9e21p-94, 0x993c43p-94, 0x327887p-94, 0x64f10ep-94, 0xc9e21cp-94,
     0x93c439p-94, 0x278872p-94, 0x4f10e4p-94, 0x9e21c8p-94, 0x3c4390p-94,
     0x788720p-94, 0xf10e41p-94, 0xe21c82p-94, 0xc43904p-94, 0x887208p-94,
     0x10e410p-94, 0x21c820p-94, 0x439041p-94, 0x872083p-94, 0x0e4107p-94,
     0x1c820fp-94, 0x39041fp-94, 0x72083fp-94, 0xe4107fp-94},
};

#define UA_VMF_ROUNDER 6755399441055744.0 /* 1.5 * 2^52 */

/* |x| = (n + f) pi/2 with |f| <= 1/2 (a little more past 2^-22 of it):
 * returns f pi/2 in double and n mod 4 in *q.  The products of the
 * significand with the table's parts are exact; the first is reduced mod
 * 4, the second added to it exactly (both fit 49 bits), the integer of
 * the sum taken off exactly, and only then the smaller parts added, so
 * that a cancellation near a multiple of pi/2 keeps its digits (floats
 * come no closer than 2^-27.8 to one, and f keeps 60 bits past that).
 * |x| below 1/2 is its own remainder. */
UA_VMF_FN double
ua_vmf_reduce_far(float x, int32_t *q)
{
    uint32_t b = ua_vm_bitsf(x) & 0x7fffffffu;
    uint32_t e = b >> 23;
    int32_t col = (int32_t)e - 126;
    col = col < 0 ? 0 : col > 128 ? 128 : col;
    const float (*t)[129] = ua_vmf_2_over_pi;
    double m = (double)(int32_t)((b & 0x007fffffu) | 0x00800000u);
    double p0 = m * (double)t[0][col], p1 = m * (double)t[1][col];
    double p2 = m * (double)t[2][col], p3 = m * (double)t[3][col];
    double turns = (p0 * 0.25 + UA_VMF_ROUNDER) - UA_VMF_ROUNDER;
    double s = (p0 - 4.0 * turns) + p1;
    double n = (s + UA_VMF_ROUNDER) - UA_VMF_ROUNDER;
    double f = ((s - n) + p2) + p3;
    /* all ones where |x| >= 1/2: the quadrant is 0 below (a select
     * there lets the compiler branch on it) */
    int32_t big = ~((int32_t)(e - 126u) >> 31);
    *q = (int32_t)n & big;
    return e < 126u ? (double)fabsf(x) : f * 1.5707963267948966;
}

/* x = n pi/2 + r for |x| <= 2^20 in double: n = x 2/pi rounded (n mod 4
 * in *q, from the rounding constant's low bits), r by Cody and Waite's
 * two parts of pi/2, the first of 30 bits so that n times it is exact
 * (|n| < 2^21), the two within 2^-85 of pi/2: r keeps 30 bits past the
 * 2^-27.8 that floats come to a multiple of pi/2. */
#define UA_VMF_TRIG_MID 1048576.0f

UA_VMF_FN float
ua_vmf_reduce_mid(float x, int32_t *q)
{
    double xd = (double)x;
    double t = xd * 0.63661977236758134308 + UA_VMF_ROUNDER;
    uint64_t u;
    memcpy(&u, &t, sizeof u);
    *q = (int32_t)(uint32_t)u;
    double n = t - UA_VMF_ROUNDER;
    return (float)((xd - n * 1.570796325802803) - n * 9.920935796805404e-10);
}

/* The same for |x| <= 8192 in float (half the work): |n| < 2^13, so n
 * times each of pi/2's first four parts of 11 bits is exact, and the
 * fifth, of 24, makes them pi/2 within 2^-78.  The first two differences
 * are exact (r has no bit below 2^-24 and is below 1 after them), the
 * last three each exact where r is small (the cancellations near a
 * multiple of pi/2) and rounded where it is not: up to 1.5 ULP of r
 * (sin and cos within 2.4 ULP, tan 3.3, over every float it serves).
 * n comes from a float product, up to 2^-11 from x 2/pi:
 * |r| <= pi/4 (1 + 2^-10). */
#define UA_VMF_TRIG_NEAR 8192.0f

UA_VMF_FN float
ua_vmf_reduce_near(float x, int32_t *q)
{
    float t = x * 0.636619772f + UA_VM_ROUNDERF;
    *q = (int32_t)ua_vm_bitsf(t);
    float n = t - UA_VM_ROUNDERF;
    float r = x - n * 0x1.92p+0f;
    r = r - n * 0x1.fb4p-12f;
    r = r - n * 0x1.444p-24f;
    r = r - n * 0x1.68cp-39f;
    return r - n * 0x1.1a6264p-54f;
}

/* sin(r) and cos(r) for |r| <= pi/4 (1 + 2^-9) in float: r + r^3 P(r^2)
 * and 1 - r^2/2 + r^4 Q(r^2), P and Q fitted to the relative error
 * (below 2^-26 and 2^-29); 1 - r^2/2 with its rounding error added back.
 * By quadrant q, sin(x) is sin(r), cos(r), -sin(r), -cos(r), and cos(x)
 * is sin(x) a quadrant on.  r = x for +-0 keeps the sign; infinities and
 * NaN give NaN. */
UA_VMF_FN float
ua_vmf_sin_poly(float r, float z)
{
    float p = -1.9587002e-04f;
    p = p * z + 8.332744e-03f;
    p = p * z - 1.6666664e-01f;
    return z == 0.0f ? r : r + r * z * p; /* keeps -0 (-0 + 0 is 0) */
}

UA_VMF_FN float
ua_vmf_cos_poly(float z)
{
    float p = 2.4547031e-05f;
    p = p * z - 1.3888299e-03f;
    p = p * z + 4.1666664e-02f;
    float h = 0.5f * z, w = 1.0f - h;
    return w + (((1.0f - w) - h) + z * z * p);
}

UA_VMF_FN float
ua_vmf_sin_quadrant(float r, int32_t q)
{
    float z = r * r;
    float y = (q & 1) ? ua_vmf_cos_poly(z) : ua_vmf_sin_poly(r, z);
    return ua_vmf_float(ua_vm_bitsf(y) ^ ((uint32_t)(q & 2) << 30));
}

/* tan(r) = r + r^3 T(r^2), T fitted to the relative error (below 2^-29),
 * and -1 / tan(r) in odd quadrants. */
UA_VMF_FN float
ua_vmf_tan_quadrant(float r, int32_t q)
{
    float z = r * r;
    float p = 4.3979026e-03f;
    p = p * z + 4.6792196e-05f;
    p = p * z + 1.0868629e-02f;
    p = p * z + 2.126989e-02f;
    p = p * z + 5.4062225e-02f;
    p = p * z + 1.3332644e-01f;
    p = p * z + 3.333335e-01f;
    float t = r + r * z * p;
    return (q & 1) ? -1.0f / t : t;
}

/* For every float: sin and tan are odd, cos even, computed at |x|. */
UA_VMF_FN float
ua_vmf_sin(float x)
{
    int32_t q;
    float r = (float)ua_vmf_reduce_far(x, &q);
    float y = ua_vmf_sin_quadrant(r, q);
    y = ua_vmf_float(ua_vm_bitsf(y) ^ (ua_vm_bitsf(x) & 0x80000000u));
    return fabsf(x) <= 3.40282347e+38f ? y : x - x;
}

UA_VMF_FN float
ua_vmf_cos(float x)
{
    int32_t q;
    float r = (float)ua_vmf_reduce_far(x, &q);
    float y = ua_vmf_sin_quadrant(r, q + 1);
    return fabsf(x) <= 3.40282347e+38f ? y : x - x;
}

UA_VMF_FN float
ua_vmf_tan(float x)
{
    int32_t q;
    float r = (float)ua_vmf_reduce_far(x, &q);
    float y = ua_vmf_tan_quadrant(r, q);
    y = ua_vmf_float(ua_vm_bitsf(y) ^ (ua_vm_bitsf(x) & 0x80000000u));
    return fabsf(x) <= 3.40282347e+38f ? y : x - x;
}

/* The same where |x| <= 2^20 (or x is infinite or NaN), and where
 * |x| <= 8192 (or NaN). */
UA_VMF_FN float
ua_vmf_sin_mid(float x)
{
    int32_t q;
    float r = ua_vmf_reduce_mid(x, &q);
    return ua_vmf_sin_quadrant(r, q);
}

UA_VMF_FN float
ua_vmf_cos_mid(float x)
{
    int32_t q;
    float r = ua_vmf_reduce_mid(x, &q);
    return ua_vmf_sin_quadrant(r, q + 1);
}

UA_VMF_FN float
ua_vmf_tan_mid(float x)
{
    int32_t q;
    float r = ua_vmf_reduce_mid(x, &q);
    return ua_vmf_tan_quadrant(r, q);
}

UA_VMF_FN float
ua_vmf_sin_near(float x)
{
    int32_t q;
    float r = ua_vmf_reduce_near(x, &q);
    return ua_vmf_sin_quadrant(r, q);
}

UA_VMF_FN float
ua_vmf_cos_near(float x)
{
    int32_t q;
    float r = ua_vmf_reduce_near(x, &q);
    return ua_vmf_sin_quadrant(r, q + 1);
}

UA_VMF_FN float
ua_vmf_tan_near(float x)
{
    int32_t q;
    float r = ua_vmf_reduce_near(x, &q);
    return ua_vmf_tan_quadrant(r, q);
}

/* 0 where the near reduction serves x, 1 where the mid one, 3 where only
 * the far one (infinities and NaN: 0, the near one gives NaN). */
UA_VMF_FN uint32_t
ua_vmf_trig_need(float x)
{
    float a = fabsf(x);
    int finite = a <= 3.40282347e+38f;
    return (uint32_t)((a > UA_VMF_TRIG_NEAR) & finite) |
           (uint32_t)((a > UA_VMF_TRIG_MID) & finite) << 1;
}

/* A float32 loop of sin, cos or tan (NAME) for host_elementwise_type.c,
 * in place of the catalogue's loop GEN (ew_NAME, which takes operands
 * with other steps, with the reduction for every float): dense operands
 * in blocks, each computed with the near reduction into a buffer while
 * finding what its inputs need, and copied out where that was enough,
 * or computed again from its inputs (still there: the output may be the
 * input) with the reduction that all of them allow. */
#define UA_VMF_BLOCK 2048
#define UA_VMF_TRIG_LOOP(NAME, GEN, CLONES)                                   \
    CLONES static void ua_vmf_ew_##NAME(char *o_, ptrdiff_t so,               \
                                        char *const *in, const ptrdiff_t *s,  \
                                        ptrdiff_t n)                          \
    {                                                                         \
        if (so != 1 || s[0] != 1) {                                           \
            GEN(o_, so, in, s, n);                                            \
            return;                                                           \
        }                                                                     \
        float *restrict o = (float *)o_;                                      \
        const float *restrict a = (const float *)in[0];                       \
        float buf[UA_VMF_BLOCK];                                              \
        for (ptrdiff_t at = 0; at < n; at += UA_VMF_BLOCK) {                  \
            ptrdiff_t m = n - at < UA_VMF_BLOCK ? n - at : UA_VMF_BLOCK;      \
            uint32_t need = 0;                                                \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                float x = a[at + i];                                          \
                need |= ua_vmf_trig_need(x);                                  \
                buf[i] = ua_vmf_##NAME##_near(x);                             \
            }                                                                 \
            if (need == 0) {                                                  \
                for (ptrdiff_t i = 0; i < m; i++) {                           \
                    o[at + i] = buf[i];                                       \
                }                                                             \
            } else if (need == 1) {                                           \
                for (ptrdiff_t i = 0; i < m; i++) {                           \
                    o[at + i] = ua_vmf_##NAME##_mid(a[at + i]);               \
                }                                                             \
            } else {                                                          \
                for (ptrdiff_t i = 0; i < m; i++) {                           \
                    o[at + i] = ua_vmf_##NAME(a[at + i]);                     \
                }                                                             \
            }                                                                 \
        }                                                                     \
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
