/* float32 log, log2, log10, cbrt and pow and float64 tan and pow with fused
 * multiply-adds, and the loops that run them where the CPU has FMA (x86-64
 * with AVX2 and FMA, or x86-64-v4), chosen at run time; other CPUs keep
 * the loops of host_vector_mathf.h, host_vector_powf.h,
 * host_vector_pow.h and host_vector_trig.h.  host_elementwise_type.c
 * includes this after its loops, for every type: for float32 and float64
 * it defines the loops and points the catalogue's names (ew_log, ...,
 * ew_tan, ew_pow) at them.  A function compiled for a target_clones
 * clone cannot ask which clone it is in (the preprocessor
 * runs once), so these are functions of their own, compiled for the FMA
 * targets by GCC's target pragma and attribute.  The results are within
 * the same bounds as the loops they replace, but not always the same
 * bits (docs/elementwise.rst): on one CPU every layout of the operands
 * takes the same code, dense or strided (strided ones through a block
 * on the stack).
 *
 * The logarithms: x = 2^k m, m in [sqrt(2)/2, sqrt(2)) found on the bits
 * as in ua_vmf_log_split, f = m - 1 exactly, and log_b(1 + f) = f (c0 +
 * f Q(f)), Q of degree 8 fitted to the relative error on f's interval
 * (the whole within 2^-26.6 of log_b(1 + f) with the coefficients
 * rounded to float, c0 = 1/ln b in two floats): no division (the loops
 * of host_vector_mathf.h divide, for s = f / (2 + f)).  k log_b 2 is
 * added in two parts, its first product exact inside the FMA.
 *
 * pow: host_vector_powf_core.h's text compiled again with FMAs, and on
 * x86-64-v4 a loop of AVX-512 intrinsics for its blocks without special
 * cases that gives the same bits. */
#ifndef USMARRAY_BACKENDS_HOST_HOST_VECTOR_FMA_H
#define USMARRAY_BACKENDS_HOST_HOST_VECTOR_FMA_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/host/host_vector_trig.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&        \
    !defined(UA_EW_NO_CLONES)
#include <immintrin.h>

/* 2 where the CPU is x86-64-v4 (AVX-512), 1 where it has AVX2 and FMA, 0
 * where it lacks FMA. */
static inline int
ua_vmf_fma_level(void)
{
    if (__builtin_cpu_supports("x86-64-v4")) {
        return 2;
    }
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

#define UA_VMF_FMA_STAGE 256

/* A run of FN over n elements of T (of one operand a, or two a and b; B
 * gives their bits) for one target, in blocks: BLOCK fills the block's
 * first done elements by FN's plain version (the selects of the special
 * cases cost as much as the rest), stopping before inputs that need FN's
 * special cases (PLAIN false on their bits), and FN fills the rest (the
 * output may be an input: what BLOCK leaves is still there).
 * UA_VMF_FMA_EACH scans the block first, then calls FN##_plain element by
 * element or leaves it all; pow (UA_VMF_FMA_POW_V4) and tan
 * (UA_VMD_FMA_TAN_BLOCK) have loops of their own. */
#define UA_VMF_FMA_OPS1(x, w, i) x[i]
#define UA_VMF_FMA_OPS2(x, w, i) x[i], w[i]
#define UA_VMF_FMA_BITS1(B, x, w, i) B(x[i])
#define UA_VMF_FMA_BITS2(B, x, w, i) B(x[i]), B(w[i])
#define UA_VMF_FMA_EACH(FN, PLAIN, B, ARITY, y, x, w, m, done)                \
    int special = 0;                                                          \
    for (ptrdiff_t i = 0; i < m; i++) {                                       \
        special |= !PLAIN(UA_VMF_FMA_BITS##ARITY(B, x, w, i));                \
    }                                                                         \
    if (!special) {                                                           \
        for (ptrdiff_t i = 0; i < m; i++) {                                   \
            y[i] = FN##_plain(UA_VMF_FMA_OPS##ARITY(x, w, i));                \
        }                                                                     \
        done = m;                                                             \
    }
#define UA_VMF_FMA_RUN(NAME, T, B, ARITY, FN, PLAIN, BLOCK, TARGET, SUFFIX)   \
    __attribute__((target(TARGET))) static void ua_vmf_##NAME##_##SUFFIX(     \
        T *restrict o, const T *restrict a, const T *restrict b, ptrdiff_t n) \
    {                                                                         \
        for (ptrdiff_t at = 0; at < n; at += UA_VMF_FMA_STAGE) {              \
            ptrdiff_t m =                                                     \
                n - at < UA_VMF_FMA_STAGE ? n - at : UA_VMF_FMA_STAGE;        \
            const T *restrict x = a + at, *restrict w = b + at;               \
            T *restrict y = o + at;                                           \
            ptrdiff_t done = 0;                                               \
            (void)w;                                                          \
            BLOCK(FN, PLAIN, B, ARITY, y, x, w, m, done)                      \
            for (ptrdiff_t i = done; i < m; i++) {                            \
                y[i] = FN(UA_VMF_FMA_OPS##ARITY(x, w, i));                    \
            }                                                                 \
        }                                                                     \
    }

/* NAME's loop of FN (of ARITY operands) where the CPU has FMA, GEN's
 * elsewhere: dense operands in place, any other steps through blocks on
 * the stack.  BLOCK4, BLOCK3: the blocks' loop on x86-64-v4 and on AVX2
 * with FMA. */
#define UA_VMF_FMA_LOOP(NAME, T, B, ARITY, FN, PLAIN, BLOCK4, BLOCK3, GEN)    \
    UA_VMF_FMA_RUN(NAME, T, B, ARITY, FN, PLAIN, BLOCK4, "arch=x86-64-v4",    \
                   v4)                                                        \
    UA_VMF_FMA_RUN(NAME, T, B, ARITY, FN, PLAIN, BLOCK3, "avx2,fma", v3)      \
    static void ua_vmf_ew_##NAME##_fma(char *o_, ptrdiff_t so,                \
                                       char *const *in, const ptrdiff_t *s,   \
                                       ptrdiff_t n)                           \
    {                                                                         \
        int level = ua_vmf_fma_level();                                       \
        if (level == 0) {                                                     \
            GEN(o_, so, in, s, n);                                            \
            return;                                                           \
        }                                                                     \
        void (*run)(T *, const T *, const T *, ptrdiff_t) =                   \
            level == 2 ? ua_vmf_##NAME##_v4 : ua_vmf_##NAME##_v3;             \
        T *o = (T *)o_;                                                       \
        const T *a = (const T *)in[0];                                        \
        const T *b = (const T *)in[ARITY - 1];                                \
        if (so == 1 && s[0] == 1 && s[ARITY - 1] == 1) {                      \
            run(o, a, b, n);                                                  \
            return;                                                           \
        }                                                                     \
        T ab[UA_VMF_FMA_STAGE], bb[UA_VMF_FMA_STAGE];                         \
        T ob[UA_VMF_FMA_STAGE];                                               \
        for (ptrdiff_t at = 0; at < n; at += UA_VMF_FMA_STAGE) {              \
            ptrdiff_t m =                                                     \
                n - at < UA_VMF_FMA_STAGE ? n - at : UA_VMF_FMA_STAGE;        \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                ab[i] = a[(at + i) * s[0]];                                   \
                bb[i] = ARITY == 2 ? b[(at + i) * s[ARITY - 1]] : 0;          \
            }                                                                 \
            run(ob, ab, bb, m);                                               \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                o[(at + i) * so] = ob[i];                                     \
            }                                                                 \
        }                                                                     \
    }

#if UA_KIND_FLOAT && UA_T_BITS == 32
#include "backends/host/host_vector_mathf.h"
#include "backends/host/host_vector_powf.h"

#pragma GCC push_options
#pragma GCC target("avx2,fma")

#define UA_VMF_MADD(a, b, c) __builtin_fmaf(a, b, c)

/* Q's Horner steps, highest coefficient first. */
#define UA_VMF_HORNER9(f, c9, c8, c7, c6, c5, c4, c3, c2, c1)                 \
    UA_VMF_MADD(                                                              \
        UA_VMF_MADD(                                                          \
            UA_VMF_MADD(                                                      \
                UA_VMF_MADD(                                                  \
                    UA_VMF_MADD(                                              \
                        UA_VMF_MADD(                                          \
                            UA_VMF_MADD(UA_VMF_MADD(c9, f, c8), f, c7), f,    \
                            c6),                                              \
                        f, c5),                                               \
                    f, c4),                                                   \
                f, c3),                                                       \
            f, c2),                                                           \
        f, c1)

/* f = m - 1 of u = 2^k m (u positive, normal and finite), k + j in *k
 * (the arithmetic shift of the offset bits gives k itself). */
UA_VMF_FN float
ua_vmf_fma_log_reduce(float u, int32_t j, float *k)
{
    int32_t iu = (int32_t)(ua_vm_bitsf(u) - 0x3f3504f3u);
    *k = (float)((iu >> 23) + j);
    return ua_vmf_float(((uint32_t)iu & 0x007fffffu) + 0x3f3504f3u) - 1.0f;
}

/* Whether x is positive, normal and finite: the logarithms' inputs that
 * need none of their special cases. */
UA_VMF_FN int
ua_vmf_log_plain(uint32_t b)
{
    return b - 0x00800000u < 0x7f000000u;
}

/* log(2^(k + j) (1 + f)), log2 and log10 of it, for u = 2^k (1 + f)
 * positive, normal and finite. */
UA_VMF_FN float
ua_vmf_log_fma_core(float u, int32_t j)
{
    float k;
    float f = ua_vmf_fma_log_reduce(u, j, &k);
    float q =
        UA_VMF_HORNER9(f, -0x1.38251ep-4f, 0x1.08488ap-3f, -0x1.0f3a36p-3f,
                       0x1.2271dcp-3f, -0x1.54270cp-3f, 0x1.99a3e8p-3f,
                       -0x1.000428p-2f, 0x1.55555p-2f, -0x1.fffff8p-2f);
    float l = UA_VMF_MADD(f, f * q, f);
    /* k ln 2 in two parts */
    return UA_VMF_MADD(k, 0x1.62e43p-1f, UA_VMF_MADD(k, -0x1.05c61p-29f, l));
}

UA_VMF_FN float
ua_vmf_log2_fma_core(float u, int32_t j)
{
    float k;
    float f = ua_vmf_fma_log_reduce(u, j, &k);
    float q =
        UA_VMF_HORNER9(f, -0x1.c2547cp-4f, 0x1.7d47cp-3f, -0x1.874c66p-3f,
                       0x1.a305f2p-3f, -0x1.eabc82p-3f, 0x1.277e34p-2f,
                       -0x1.715a76p-2f, 0x1.ec7096p-2f, -0x1.71547p-1f);
    /* 1/ln 2 = 0x1.715476p+0 + 0x1.4ae0cp-26 */
    float l =
        UA_VMF_MADD(f, 0x1.715476p+0f, f * UA_VMF_MADD(f, q, 0x1.4ae0cp-26f));
    return k + l;
}

UA_VMF_FN float
ua_vmf_log10_fma_core(float u, int32_t j)
{
    float k;
    float f = ua_vmf_fma_log_reduce(u, j, &k);
    float q =
        UA_VMF_HORNER9(f, -0x1.0f202ep-5f, 0x1.cb1b72p-5f, -0x1.d72b96p-5f,
                       0x1.f88de2p-5f, -0x1.2773e6p-4f, 0x1.63cf1cp-4f,
                       -0x1.bcbeeap-4f, 0x1.287a72p-3f, -0x1.bcb7aap-3f);
    /* 1/ln 10 = 0x1.bcb7b2p-2 - 0x1.5b235ep-27 */
    float l = UA_VMF_MADD(f, 0x1.bcb7b2p-2f,
                          f * UA_VMF_MADD(f, q, -0x1.5b235ep-27f));
    /* log10(2) = 0x1.344136p-2 - 0x1.ec10cp-27 */
    return UA_VMF_MADD(k, 0x1.344136p-2f, UA_VMF_MADD(k, -0x1.ec10cp-27f, l));
}

/* Each logarithm of a plain x (_plain) and of any x, with C's special
 * values (ua_vmf_log_special) and subnormal x scaled by 2^24. */
#define UA_VMF_LOG_FMA(NAME)                                                  \
    UA_VMF_FN float ua_vmf_##NAME##_fma_plain(float x)                        \
    {                                                                         \
        return ua_vmf_##NAME##_fma_core(x, 0);                                \
    }                                                                         \
    UA_VMF_FN float ua_vmf_##NAME##_fma(float x)                              \
    {                                                                         \
        int32_t j;                                                            \
        float u = ua_vmf_log_input(x, &j);                                    \
        return ua_vmf_log_special(x, ua_vmf_##NAME##_fma_core(u, j));         \
    }
UA_VMF_LOG_FMA(log)
UA_VMF_LOG_FMA(log2)
UA_VMF_LOG_FMA(log10)

/* cbrt(x) = sign(x) a^(1/3), a = |x|: y ~ a^(-1/3) from the bits as in
 * ua_vmf_cbrt, one Newton step of third order for y^-3 = a (to 2e-4) and
 * one of second order (to some 2^-22), c = a y^2 ~ a^(1/3), then one
 * Newton step on c itself, c + (a - c^3) y^2 / 3, with a - c^3 from c^2's
 * exact product (the FMA's), within about 0.5 ULP.  a below 2^-100 is
 * scaled by 2^48 (its cube root by 2^-16), so that a - c^3 and c^2's
 * rounding error stay normal; zeros, infinities and NaN are their own
 * cube roots. */
UA_VMF_FN float
ua_vmf_cbrt_fma_core(float as)
{
    float third = (float)(int32_t)ua_vm_bitsf(as) * (1.0f / 3.0f);
    float y = ua_vmf_float(0x54a232a0u - (uint32_t)(int32_t)third);
    float e = UA_VMF_MADD(-((as * y) * y), y, 1.0f);
    y = UA_VMF_MADD(y * e, UA_VMF_MADD(e, 2.0f / 9.0f, 1.0f / 3.0f), y);
    e = UA_VMF_MADD(-((as * y) * y), y, 1.0f);
    y = UA_VMF_MADD(y * e, 1.0f / 3.0f, y);
    float c = (as * y) * y;
    float h = c * c;
    float hl = UA_VMF_MADD(c, c, -h);
    float r = UA_VMF_MADD(-h, c, as) - hl * c; /* a - c^3 */
    return UA_VMF_MADD(r, (y * y) * (1.0f / 3.0f), c);
}

/* Whether |x| is finite and at least 2^-100 (cbrt's plain inputs). */
UA_VMF_FN int
ua_vmf_cbrt_plain(uint32_t b)
{
    return (b & 0x7fffffffu) - 0x0d800000u < 0x72000000u;
}

UA_VMF_FN float
ua_vmf_cbrt_fma_plain(float x)
{
    return ua_vmf_with_sign(ua_vmf_cbrt_fma_core(fabsf(x)), x);
}

UA_VMF_FN float
ua_vmf_cbrt_fma(float x)
{
    float a = fabsf(x);
    int tiny = a < 0x1p-100f;
    float as = tiny ? a * 0x1p48f : a;
    as = as == 0.0f || as == INFINITY ? 1.0f : as; /* lanes replaced below */
    float c = ua_vmf_cbrt_fma_core(as);
    c = tiny ? c * 0x1p-16f : c;
    c = a == 0.0f || a == INFINITY || a != a ? a : c;
    return ua_vmf_with_sign(c, x);
}

/* float32 pow: host_vector_powf_core.h's text again, with FMAs. */
#define UA_VMF_POWF_SFX _fma
#define UA_VMF_POWF_MADD(a, b, c) __builtin_fma(a, b, c)
#include "backends/host/host_vector_powf_core.h"
#undef UA_VMF_POWF_SFX
#undef UA_VMF_POWF_MADD

/* Whether pow(x, y) needs none of its special cases: x positive, normal
 * and finite, y finite. */
UA_VMF_FN int
ua_vmf_pow_bits_plain(uint32_t bx, uint32_t by)
{
    return (bx - 0x00800000u < 0x7f000000u) &
           ((by & 0x7fffffffu) < 0x7f800000u);
}

#pragma GCC pop_options

/* ua_vmf_pow_fma_plain over m elements in AVX-512's registers, the same
 * operations in the same order but for a few that give the same values:
 * the tables' lookups by permutes of registers (vpermt2ps over the 32
 * floats, on the index's low five bits; vpermt2pd over the 16 doubles, on
 * the low four, which are kb's), where the compiler's vector code for the
 * scalar text loads lane by lane; r by a float FMA (exact, as the scalar
 * text's double product); the clamp of t by one vrangepd.  Eight
 * doubles at a time, each half of the sixteen floats.  Returns how many
 * elements it filled: all, or those before the first sixteen with an
 * input that needs the special cases (whose lanes compute nonsense,
 * stored nowhere). */
__attribute__((target("arch=x86-64-v4"))) static inline __m512d
ua_vmf_pow_v4_half(__m256 r8, __m256i k8, __m256 ch8, __m256 cl8, __m512d y,
                   __m512d t0, __m512d t1)
{
    __m512d r = _mm512_cvtps_pd(r8), k = _mm512_cvtepi32_pd(k8);
    __m512d p = _mm512_set1_pd(0x1.a1f6c782e986bp-3);
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(-0x1.ecb7bf62aab77p-3));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(0x1.277714a88e9f6p-2));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(-0x1.71547451c46e2p-2));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(0x1.ec709dc0c9f61p-2));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(-0x1.71547652bbe56p-1));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(0x1.71547652b830dp+0));
    __m512d l = _mm512_add_pd(_mm512_add_pd(k, _mm512_cvtps_pd(ch8)),
                              _mm512_fmadd_pd(r, p, _mm512_cvtps_pd(cl8)));
    /* the smaller magnitude of t and 200, with t's sign */
    __m512d t = _mm512_range_pd(_mm512_mul_pd(y, l), _mm512_set1_pd(200.0), 2);
    const __m512d rd = _mm512_set1_pd(UA_VMF_POW_ROUNDER16);
    __m512d kb = _mm512_add_pd(t, rd), kd = _mm512_sub_pd(kb, rd);
    __m512d rr = _mm512_sub_pd(t, kd);
    __m512d tj = _mm512_permutex2var_pd(t0, _mm512_castpd_si512(kb), t1);
    __m512d q = _mm512_set1_pd(0x1.5d893e5f2c1b9p-10);
    q = _mm512_fmadd_pd(q, rr, _mm512_set1_pd(0x1.3b2c4ace78132p-7));
    q = _mm512_fmadd_pd(q, rr, _mm512_set1_pd(0x1.c6b08d6faa13bp-5));
    q = _mm512_fmadd_pd(q, rr, _mm512_set1_pd(0x1.ebfbdff6987f4p-3));
    q = _mm512_fmadd_pd(q, rr, _mm512_set1_pd(0x1.62e42fefa39efp-1));
    __m512d e = _mm512_fmadd_pd(_mm512_mul_pd(tj, rr), q, tj);
    /* 2^k added to the exponent: k = m >> 4, m's low 16 bits kb's */
    __m512i kk =
        _mm512_slli_epi64(_mm512_srli_epi64(_mm512_castpd_si512(kb), 4), 52);
    return _mm512_castsi512_pd(_mm512_add_epi64(_mm512_castpd_si512(e), kk));
}

__attribute__((target("arch=x86-64-v4"))) static ptrdiff_t
ua_vmf_pow_v4_block(float *restrict o, const float *restrict a,
                    const float *restrict b, ptrdiff_t m)
{
    const __m512 ic0 = _mm512_loadu_ps(ua_vmf_pow_invc),
                 ic1 = _mm512_loadu_ps(ua_vmf_pow_invc + 16);
    const __m512 ch0 = _mm512_loadu_ps(ua_vmf_pow_chi),
                 ch1 = _mm512_loadu_ps(ua_vmf_pow_chi + 16);
    const __m512 cl0 = _mm512_loadu_ps(ua_vmf_pow_clo),
                 cl1 = _mm512_loadu_ps(ua_vmf_pow_clo + 16);
    const __m512d t0 = _mm512_loadu_pd(ua_vmf_pow_exp2t),
                  t1 = _mm512_loadu_pd(ua_vmf_pow_exp2t + 8);
    const __m512i bottom = _mm512_set1_epi32((int)UA_VMF_POW_BOTTOM);
    for (ptrdiff_t i = 0; i < m; i += 16) {
        __mmask16 live =
            m - i >= 16 ? 0xffff : (__mmask16)((1u << (m - i)) - 1);
        __m512 x = _mm512_maskz_loadu_ps(live, a + i);
        __m512 y = _mm512_maskz_loadu_ps(live, b + i);
        /* not ua_vmf_pow_bits_plain: x zero, subnormal, negative,
         * infinite or NaN, or y infinite or NaN */
        __mmask16 odd = live & (_mm512_fpclass_ps_mask(x, 0xff) |
                                _mm512_fpclass_ps_mask(y, 0x99));
        __m512i iu = _mm512_sub_epi32(_mm512_castps_si512(x), bottom);
        __m512i idx = _mm512_srli_epi32(iu, 18);
        __m512i k = _mm512_srai_epi32(iu, 23);
        __m512 z = _mm512_castsi512_ps(_mm512_add_epi32(
            _mm512_and_si512(iu, _mm512_set1_epi32(0x007fffff)), bottom));
        __m512 r = _mm512_fmsub_ps(z, _mm512_permutex2var_ps(ic0, idx, ic1),
                                   _mm512_set1_ps(1.0f));
        __m512 ch = _mm512_permutex2var_ps(ch0, idx, ch1);
        __m512 cl = _mm512_permutex2var_ps(cl0, idx, cl1);
        __m512d ylo = _mm512_cvtps_pd(_mm256_maskz_loadu_ps(live, b + i));
        __m512d yhi =
            _mm512_cvtps_pd(_mm256_maskz_loadu_ps(live >> 8, b + i + 8));
        __m512d lo = ua_vmf_pow_v4_half(
            _mm512_castps512_ps256(r), _mm512_castsi512_si256(k),
            _mm512_castps512_ps256(ch), _mm512_castps512_ps256(cl), ylo, t0,
            t1);
        __m512d hi = ua_vmf_pow_v4_half(
            _mm512_extractf32x8_ps(r, 1), _mm512_extracti32x8_epi32(k, 1),
            _mm512_extractf32x8_ps(ch, 1), _mm512_extractf32x8_ps(cl, 1), yhi,
            t0, t1);
        __m512 res =
            _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)),
                               _mm512_cvtpd_ps(hi), 1);
        /* y == 2: x * x, as the scalar text */
        __mmask16 two = _mm512_cmpeq_ps_mask(y, _mm512_set1_ps(2.0f));
        res = _mm512_mask_mul_ps(res, two, x, x);
        if (odd) {
            return i;
        }
        _mm512_mask_storeu_ps(o + i, live, res);
    }
    return m;
}

#define UA_VMF_FMA_POW_V4(FN, PLAIN, B, ARITY, y, x, w, m, done)              \
    done = ua_vmf_pow_v4_block(y, x, w, m);

/* The loops, each falling back to the catalogue's loop given. */
#define UA_VMF_FMA_LOOPS(LOG, LOG2, LOG10, CBRT, POW)                         \
    UA_VMF_FMA_LOOP(pow, float, ua_vm_bitsf, 2, ua_vmf_pow_fma,               \
                    ua_vmf_pow_bits_plain, UA_VMF_FMA_POW_V4,                 \
                    UA_VMF_FMA_EACH, POW)                                     \
    UA_VMF_FMA_LOOP(log, float, ua_vm_bitsf, 1, ua_vmf_log_fma,               \
                    ua_vmf_log_plain, UA_VMF_FMA_EACH, UA_VMF_FMA_EACH, LOG)  \
    UA_VMF_FMA_LOOP(log2, float, ua_vm_bitsf, 1, ua_vmf_log2_fma,             \
                    ua_vmf_log_plain, UA_VMF_FMA_EACH, UA_VMF_FMA_EACH, LOG2) \
    UA_VMF_FMA_LOOP(log10, float, ua_vm_bitsf, 1, ua_vmf_log10_fma,           \
                    ua_vmf_log_plain, UA_VMF_FMA_EACH, UA_VMF_FMA_EACH,       \
                    LOG10)                                                    \
    UA_VMF_FMA_LOOP(cbrt, float, ua_vm_bitsf, 1, ua_vmf_cbrt_fma,             \
                    ua_vmf_cbrt_plain, UA_VMF_FMA_EACH, UA_VMF_FMA_EACH,      \
                    CBRT)

UA_VMF_FMA_LOOPS(ew_log, ew_log2, ew_log10, ew_cbrt, ew_pow)
#define ew_log ua_vmf_ew_log_fma
#define ew_log2 ua_vmf_ew_log2_fma
#define ew_log10 ua_vmf_ew_log10_fma
#define ew_cbrt ua_vmf_ew_cbrt_fma
#define ew_pow ua_vmf_ew_pow_fma

#elif UA_KIND_FLOAT && UA_T_BITS == 64
#include "backends/host/host_vector_pow.h"

#pragma GCC push_options
#pragma GCC target("avx2,fma")

/* float64 pow: host_vector_pow_core.h's text again, with FMAs. */
#define UA_VMD_POW_SFX _fma
#define UA_VMD_POW_MADD(a, b, c) __builtin_fma(a, b, c)
#define UA_VMD_POW_PROD(a, b, h, l)                                           \
    do {                                                                      \
        h = (a) * (b);                                                        \
        l = __builtin_fma(a, b, -h);                                          \
    } while (0)
#include "backends/host/host_vector_pow_core.h"
#undef UA_VMD_POW_SFX
#undef UA_VMD_POW_MADD
#undef UA_VMD_POW_PROD

/* Whether pow(x, y) needs none of its special cases: x positive, normal
 * and finite, y finite. */
UA_VMD_FN int
ua_vmd_pow_bits_plain(uint64_t bx, uint64_t by)
{
    return (bx - 0x0010000000000000u < 0x7fe0000000000000u) &
           ((by & 0x7fffffffffffffffu) < 0x7ff0000000000000u);
}

/* float64 tan as ua_vmd_tan_of, its polynomials and Dekker's product
 * by FMAs (t v - p is one). */
UA_VMD_FN double
ua_vmd_tan_of_fma(double hi, double lo, uint64_t q)
{
    double z = hi * hi, hz = 0.5 * z;
    double sp = -0x1.ab17d3985bccep-41;
    sp = __builtin_fma(sp, z, 0x1.61217f0ac7f98p-33);
    sp = __builtin_fma(sp, z, -0x1.ae645412c4787p-26);
    sp = __builtin_fma(sp, z, 0x1.71de3a5460952p-19);
    sp = __builtin_fma(sp, z, -0x1.a01a01a019938p-13);
    sp = __builtin_fma(sp, z, 0x1.1111111111110p-7);
    sp = __builtin_fma(sp, z, -0x1.5555555555555p-3);
    double cp = -0x1.907da304ce77bp-37;
    cp = __builtin_fma(cp, z, 0x1.1eeb68e8b2372p-29);
    cp = __builtin_fma(cp, z, -0x1.27e4fa17d9864p-22);
    cp = __builtin_fma(cp, z, 0x1.a01a019f4eafap-16);
    cp = __builtin_fma(cp, z, -0x1.6c16c16c16967p-10);
    cp = __builtin_fma(cp, z, 0x1.5555555555555p-5);
    double stail = __builtin_fma(hi * z, sp, lo * (1.0 - hz));
    double s = hi + stail;
    double st = (hi - s) + stail;
    double w = 1.0 - hz;
    double ctail = ((1.0 - w) - hz) + __builtin_fma(z * z, cp, -(hi * lo));
    double c = w + ctail;
    double ct = (w - c) + ctail;
    uint64_t odd = q & 1;
    double u = odd ? c : s, ut = odd ? ct : st;
    double v = odd ? s : c, vt = odd ? st : ct;
    double inv = 1.0 / v;
    double t = u * inv;
    double res = __builtin_fma(-t, v, u) + __builtin_fma(-t, vt, ut);
    double y = __builtin_fma(res, inv, t);
    return odd ? -y : y;
}

/* x = n pi/2 + hi + lo for |x| <= 2^20 as ua_vmd_reduce_pio2, with pi/2
 * = C1 + C2 + C3 in three doubles: x - n C1 is exact in one FMA (it has
 * at most 53 bits from 2^-53 up), n C2 is taken off with its product's
 * error (an FMA) and the sum's (two-sum) kept, n C3 goes into the low
 * part; pi/2 - C1 - C2 - C3 is 2^-164. */
UA_VMD_FN double
ua_vmd_reduce_pio2_fma(double x, double *lo, uint64_t *q)
{
    double t = __builtin_fma(x, 0.63661977236758134308, UA_VM_ROUNDER);
    *q = ua_vm_bits(t);
    double n = t - UA_VM_ROUNDER;
    double r1 = __builtin_fma(-n, 0x1.921fb54442d18p+0, x);
    double p = n * 0x1.1a62633145c07p-54;
    double pe = __builtin_fma(n, 0x1.1a62633145c07p-54, -p);
    double h = r1 - p;
    double e = ua_vmd_sum_err(r1, -p, h);
    double l = (e - pe) - n * -0x1.f1976b7ed8fbcp-110;
    double hi = h + l;
    *lo = (h - hi) + l;
    return hi;
}

UA_VMD_FN double
ua_vmd_tan_near_fma(double x)
{
    double lo;
    uint64_t q;
    double hi = ua_vmd_reduce_pio2_fma(x, &lo, &q);
    double y = ua_vmd_tan_of_fma(hi, lo, q);
    return x == 0.0 ? x : y; /* keeps -0 */
}

#pragma GCC pop_options

/* float64 tan of any x, one at a time (ua_vmd_trig_any's way). */
__attribute__((target("avx2,fma"), noinline)) static double
ua_vmd_tan_any_fma(double x)
{
    if (!(fabs(x) <= 1.7976931348623157e308)) {
        return x - x;
    }
    double lo;
    uint64_t q;
    double hi = ua_vmd_trig_near(x) ? ua_vmd_reduce_pio2_fma(x, &lo, &q)
                                    : ua_vmd_reduce_far(x, &lo, &q);
    double y = ua_vmd_tan_of_fma(hi, lo, q);
    return x == 0.0 ? x : y;
}

/* float64 tan's loop where the CPU has FMA, GEN's elsewhere: the blocks
 * of UA_VMD_TRIG_BLOCKS (special never set, FN and PLAIN unused). */
#define UA_VMD_TAN_ANY_FMA(x, which) ua_vmd_tan_any_fma(x)
#define UA_VMD_FMA_TAN_BLOCK(FN, PLAIN, B, ARITY, y, x, w, m, done)           \
    UA_VMD_TRIG_BLOCKS(y, x, m, ua_vmd_tan_near_fma, UA_VMD_TAN_ANY_FMA, 2);  \
    done = m;
UA_VMF_FMA_LOOP(tan, double, ua_vm_bits, 1, ua_vmd_tan_any_fma,
                ua_vmd_trig_near, UA_VMD_FMA_TAN_BLOCK, UA_VMD_FMA_TAN_BLOCK,
                ew_tan)
#undef ew_tan
#define ew_tan ua_vmf_ew_tan_fma

UA_VMF_FMA_LOOP(pow, double, ua_vm_bits, 2, ua_vmd_pow_fma,
                ua_vmd_pow_bits_plain, UA_VMF_FMA_EACH, UA_VMF_FMA_EACH,
                ew_pow)
#define ew_pow ua_vmf_ew_pow_fma

#endif
#endif
#endif
