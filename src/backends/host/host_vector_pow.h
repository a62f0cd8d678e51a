/* float64 cbrt, exp2 and pow that the host's compilers vectorize, beside
 * host_vector_math.h's other float64 functions (in its terms: UA_VMD_FN,
 * the rounder, moves between a double and its bits, the exact sums and
 * products), which host_elementwise_type.c's float64 loops call through
 * UA_M as ua_vmd_cbrt, ua_vmd_exp2 and ua_vmd_pow (host_vector_pow_core.h). */
#ifndef USMARRAY_BACKENDS_HOST_HOST_VECTOR_POW_H
#define USMARRAY_BACKENDS_HOST_HOST_VECTOR_POW_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "backends/host/host_vector_math.h"

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

/* pow in plain arithmetic (host_vector_fma.h compiles the same text again
 * with FMAs, for the CPUs that have them). */
#define UA_VMD_POW_SFX
#define UA_VMD_POW_MADD(a, b, c) ((a) * (b) + (c))
#define UA_VMD_POW_PROD(a, b, h, l)                                           \
    do {                                                                      \
        double ah_ = ua_vm_double(ua_vm_bits(a) & 0xfffffffff8000000u);       \
        double bh_ = ua_vm_double(ua_vm_bits(b) & 0xfffffffff8000000u);       \
        h = ah_ * bh_;                                                        \
        l = ah_ * ((b) - bh_) + ((a) - ah_) * (b);                            \
    } while (0)
#include "backends/host/host_vector_pow_core.h"
#undef UA_VMD_POW_SFX
#undef UA_VMD_POW_MADD
#undef UA_VMD_POW_PROD

#endif
