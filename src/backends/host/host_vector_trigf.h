/* float32 sin, cos and tan in arithmetic that vectorizes, for
 * host_elementwise_type.c's float32 loops (UA_M names ua_vmf_* there), in
 * host_vector_mathf.h's terms: a reduction by pi/2 chosen per block of
 * dense elements by the largest input in it (Cody and Waite's in float up
 * to 8192, two parts in double up to 2^20, Payne and Hanek's past it),
 * then polynomials fitted to the relative error on [-pi/4, pi/4]. */
#ifndef USMARRAY_BACKENDS_HOST_HOST_VECTOR_TRIGF_H
#define USMARRAY_BACKENDS_HOST_HOST_VECTOR_TRIGF_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/host/host_vector_mathf.h"

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

#endif
