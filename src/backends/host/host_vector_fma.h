/* float32 log, log2, log10, cbrt and pow and float64 tan with fused
 * multiply-adds, and the loops that run them where the CPU has FMA (x86-64
 * with AVX2 and FMA, or x86-64-v4), chosen at run time; other CPUs keep
 * the loops of host_vector_mathf.h, host_vector_powf.h and
 * host_vector_trig.h.  host_elementwise_type.c includes this after its
 * loops, for every type: for float32 and float64 it defines the loops and
 * points the catalogue's names (ew_log, ..., ew_tan) at them.  A function compiled for a
 * target_clones clone cannot ask which clone it is in (the preprocessor
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
 * added in two parts, its first product exact inside the FMA. */
#ifndef USMARRAY_BACKENDS_HOST_HOST_VECTOR_FMA_H
#define USMARRAY_BACKENDS_HOST_HOST_VECTOR_FMA_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/host/host_vector_trig.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&        \
    !defined(UA_EW_NO_CLONES)

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

/* pow(x, y) = 2^(y log2 x) for x positive, normal and finite and y
 * finite, in double as ua_vmf_pow, with FMAs: log2 by the same series in
 * s = f / (2 + f) (f and k from the float's bits, so that a subnormal x
 * is scaled first; the double division took less time than float's
 * reciprocal refined by a Newton step), 2^r = 1 + r q(r) with q of degree 7
 * fitted to the relative error on [-1/2, 1/2] (within 2^-38.9, so that
 * the double rounds to the nearest float but for a hair's breadth of
 * ties: x ** 3 by pow is its exact cube rounded once in the tests). */
UA_VMF_FN double
ua_vmf_log2_wide_fma(float x)
{
    int32_t iu = (int32_t)(ua_vm_bitsf(x) - 0x3f3504f3u);
    double k = (double)(iu >> 23);
    float m = ua_vmf_float(((uint32_t)iu & 0x007fffffu) + 0x3f3504f3u);
    double f = (double)(m - 1.0f); /* exact, as 2 + f in double */
    double sl = f / (f + 2.0);
    double z = sl * sl;
    double p = 1.0 / 13.0;
    p = __builtin_fma(p, z, 1.0 / 11.0);
    p = __builtin_fma(p, z, 1.0 / 9.0);
    p = __builtin_fma(p, z, 1.0 / 7.0);
    p = __builtin_fma(p, z, 1.0 / 5.0);
    p = __builtin_fma(p, z, 1.0 / 3.0);
    double s2 = sl * 2.8853900817779268; /* 2 / ln 2 */
    return k + __builtin_fma(s2, z * p, s2);
}

UA_VMF_FN double
ua_vmf_exp2_wide_fma(double t)
{
    double kb = t + UA_VMF_ROUNDER;
    uint64_t kbits = ua_vm_bits(kb);
    double r = t - (kb - UA_VMF_ROUNDER);
    double q = 0x1.62c00c588ffa9p-20;
    q = __builtin_fma(q, r, 0x1.00c0814720aebp-16);
    q = __builtin_fma(q, r, 0x1.43099b5342f59p-13);
    q = __builtin_fma(q, r, 0x1.5d87762d98cc0p-10);
    q = __builtin_fma(q, r, 0x1.3b2ab6a0de2f8p-7);
    q = __builtin_fma(q, r, 0x1.c6b08da69cd08p-5);
    q = __builtin_fma(q, r, 0x1.ebfbdff85f4a4p-3);
    q = __builtin_fma(q, r, 0x1.62e42fef9cdfbp-1);
    uint64_t scale = (uint64_t)((int64_t)(int32_t)(uint32_t)kbits + 1023)
                     << 52;
    return __builtin_fma(r, q, 1.0) * ua_vm_double(scale);
}

/* Whether pow(x, y) needs none of its special cases: x positive, normal
 * and finite, y finite. */
UA_VMF_FN int
ua_vmf_pow_plain(uint32_t bx, uint32_t by)
{
    return (bx - 0x00800000u < 0x7f000000u) &
           ((by & 0x7fffffffu) < 0x7f800000u);
}

UA_VMF_FN float
ua_vmf_pow_fma_core(double l, float y)
{
    /* |t| clamped to 200 on its bits (one unsigned minimum, cheaper than
     * two compares of doubles; a NaN's bits go to 200 too, and such
     * lanes are replaced) */
    uint64_t tb = ua_vm_bits((double)y * l);
    uint64_t mag = tb & 0x7fffffffffffffffu, lim = 0x4069000000000000u;
    mag = mag < lim ? mag : lim;
    return (float)ua_vmf_exp2_wide_fma(
        ua_vm_double(mag | (tb & 0x8000000000000000u)));
}

UA_VMF_FN float
ua_vmf_pow_fma_plain(float x, float y)
{
    float r = ua_vmf_pow_fma_core(ua_vmf_log2_wide_fma(x), y);
    return y == 2.0f ? x * x : r; /* as ua_vmf_pow */
}

/* Any x and y: ua_vmf_pow's special cases around the core. */
UA_VMF_FN float
ua_vmf_pow_fma(float x, float y)
{
    float ax = fabsf(x), ay = fabsf(y);
    float yi = ay < 0x1p23f ? (ay + 0x1p23f) - 0x1p23f : ay;
    float hy = 0.5f * ay;
    float yh = hy < 0x1p23f ? (hy + 0x1p23f) - 0x1p23f : hy;
    int y_frac = yi != ay;
    int y_odd = yi == ay && yh != hy;
    int tiny = ax < 0x1p-126f;
    float as = tiny ? ax * 0x1p24f : ax;
    as = as > 0.0f && as < INFINITY ? as : 1.0f;
    double l = ua_vmf_log2_wide_fma(as) - (tiny ? 24.0 : 0.0);
    l = ax == 0.0f ? -(double)INFINITY : l;
    l = ax == INFINITY ? (double)INFINITY : l;
    float r = ua_vmf_pow_fma_core(l, y);
    r = y_odd ? copysignf(r, x) : r;
    r = x < 0.0f && ax != INFINITY && y_frac ? NAN : r;
    r = x != x || y != y ? x + y : r;
    r = y == 2.0f ? x * x : r;
    r = x == 1.0f || y == 0.0f ? 1.0f : r;
    return x == -1.0f && ay == INFINITY ? 1.0f : r;
}

#pragma GCC pop_options

/* A run of FN over n elements for one target: in blocks, each scanned
 * first for inputs that need FN's special cases (PLAIN false on their
 * bits), so that blocks without them take FN's plain version (the
 * selects of the special cases cost as much as the rest). */
#define UA_VMF_FMA_RUN(NAME, FN, PLAIN, TARGET, SUFFIX)                       \
    __attribute__((target(TARGET))) static void ua_vmf_##NAME##_##SUFFIX(     \
        float *restrict o, const float *restrict a, ptrdiff_t n)              \
    {                                                                         \
        for (ptrdiff_t at = 0; at < n; at += UA_VMF_FMA_STAGE) {              \
            ptrdiff_t m =                                                     \
                n - at < UA_VMF_FMA_STAGE ? n - at : UA_VMF_FMA_STAGE;        \
            const float *restrict x = a + at;                                 \
            float *restrict y = o + at;                                       \
            int special = 0;                                                  \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                special |= !PLAIN(ua_vm_bitsf(x[i]));                         \
            }                                                                 \
            if (special) {                                                    \
                for (ptrdiff_t i = 0; i < m; i++) {                           \
                    y[i] = FN(x[i]);                                          \
                }                                                             \
            } else {                                                          \
                for (ptrdiff_t i = 0; i < m; i++) {                           \
                    y[i] = FN##_plain(x[i]);                                  \
                }                                                             \
            }                                                                 \
        }                                                                     \
    }

/* NAME's loop of FN where the CPU has FMA, GEN's elsewhere: dense
 * operands in place, any other steps through blocks on the stack. */
#define UA_VMF_FMA_LOOP1(NAME, FN, PLAIN, GEN)                                \
    UA_VMF_FMA_RUN(NAME, FN, PLAIN, "arch=x86-64-v4", v4)                     \
    UA_VMF_FMA_RUN(NAME, FN, PLAIN, "avx2,fma", v3)                           \
    static void ua_vmf_ew_##NAME##_fma(char *o_, ptrdiff_t so,                \
                                       char *const *in, const ptrdiff_t *s,   \
                                       ptrdiff_t n)                           \
    {                                                                         \
        int level = ua_vmf_fma_level();                                       \
        if (level == 0) {                                                     \
            GEN(o_, so, in, s, n);                                            \
            return;                                                           \
        }                                                                     \
        void (*run)(float *, const float *, ptrdiff_t) =                      \
            level == 2 ? ua_vmf_##NAME##_v4 : ua_vmf_##NAME##_v3;             \
        float *o = (float *)o_;                                               \
        const float *a = (const float *)in[0];                                \
        if (so == 1 && s[0] == 1) {                                           \
            run(o, a, n);                                                     \
            return;                                                           \
        }                                                                     \
        float ab[UA_VMF_FMA_STAGE], ob[UA_VMF_FMA_STAGE];                     \
        for (ptrdiff_t at = 0; at < n; at += UA_VMF_FMA_STAGE) {              \
            ptrdiff_t m =                                                     \
                n - at < UA_VMF_FMA_STAGE ? n - at : UA_VMF_FMA_STAGE;        \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                ab[i] = a[(at + i) * s[0]];                                   \
            }                                                                 \
            run(ob, ab, m);                                                   \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                o[(at + i) * so] = ob[i];                                     \
            }                                                                 \
        }                                                                     \
    }

/* The same for a binary FN, PLAIN of both operands' bits. */
#define UA_VMF_FMA_RUN2(NAME, FN, PLAIN, TARGET, SUFFIX)                      \
    __attribute__((target(TARGET))) static void ua_vmf_##NAME##_##SUFFIX(     \
        float *restrict o, const float *restrict a, const float *restrict b,  \
        ptrdiff_t n)                                                          \
    {                                                                         \
        for (ptrdiff_t at = 0; at < n; at += UA_VMF_FMA_STAGE) {              \
            ptrdiff_t m =                                                     \
                n - at < UA_VMF_FMA_STAGE ? n - at : UA_VMF_FMA_STAGE;        \
            const float *restrict x = a + at, *restrict w = b + at;           \
            float *restrict y = o + at;                                       \
            int special = 0;                                                  \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                special |= !PLAIN(ua_vm_bitsf(x[i]), ua_vm_bitsf(w[i]));      \
            }                                                                 \
            if (special) {                                                    \
                for (ptrdiff_t i = 0; i < m; i++) {                           \
                    y[i] = FN(x[i], w[i]);                                    \
                }                                                             \
            } else {                                                          \
                for (ptrdiff_t i = 0; i < m; i++) {                           \
                    y[i] = FN##_plain(x[i], w[i]);                            \
                }                                                             \
            }                                                                 \
        }                                                                     \
    }

#define UA_VMF_FMA_LOOP2(NAME, FN, PLAIN, GEN)                                \
    UA_VMF_FMA_RUN2(NAME, FN, PLAIN, "arch=x86-64-v4", v4)                    \
    UA_VMF_FMA_RUN2(NAME, FN, PLAIN, "avx2,fma", v3)                          \
    static void ua_vmf_ew_##NAME##_fma(char *o_, ptrdiff_t so,                \
                                       char *const *in, const ptrdiff_t *s,   \
                                       ptrdiff_t n)                           \
    {                                                                         \
        int level = ua_vmf_fma_level();                                       \
        if (level == 0) {                                                     \
            GEN(o_, so, in, s, n);                                            \
            return;                                                           \
        }                                                                     \
        void (*run)(float *, const float *, const float *, ptrdiff_t) =       \
            level == 2 ? ua_vmf_##NAME##_v4 : ua_vmf_##NAME##_v3;             \
        float *o = (float *)o_;                                               \
        const float *a = (const float *)in[0], *b = (const float *)in[1];     \
        if (so == 1 && s[0] == 1 && s[1] == 1) {                              \
            run(o, a, b, n);                                                  \
            return;                                                           \
        }                                                                     \
        float ab[UA_VMF_FMA_STAGE], bb[UA_VMF_FMA_STAGE];                     \
        float ob[UA_VMF_FMA_STAGE];                                           \
        for (ptrdiff_t at = 0; at < n; at += UA_VMF_FMA_STAGE) {              \
            ptrdiff_t m =                                                     \
                n - at < UA_VMF_FMA_STAGE ? n - at : UA_VMF_FMA_STAGE;        \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                ab[i] = a[(at + i) * s[0]];                                   \
                bb[i] = b[(at + i) * s[1]];                                   \
            }                                                                 \
            run(ob, ab, bb, m);                                               \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                o[(at + i) * so] = ob[i];                                     \
            }                                                                 \
        }                                                                     \
    }

/* The loops, each falling back to the catalogue's loop given. */
#define UA_VMF_FMA_LOOPS(LOG, LOG2, LOG10, CBRT, POW)                         \
    UA_VMF_FMA_LOOP2(pow, ua_vmf_pow_fma, ua_vmf_pow_plain, POW)              \
    UA_VMF_FMA_LOOP1(log, ua_vmf_log_fma, ua_vmf_log_plain, LOG)              \
    UA_VMF_FMA_LOOP1(log2, ua_vmf_log2_fma, ua_vmf_log_plain, LOG2)           \
    UA_VMF_FMA_LOOP1(log10, ua_vmf_log10_fma, ua_vmf_log_plain, LOG10)        \
    UA_VMF_FMA_LOOP1(cbrt, ua_vmf_cbrt_fma, ua_vmf_cbrt_plain, CBRT)

UA_VMF_FMA_LOOPS(ew_log, ew_log2, ew_log10, ew_cbrt, ew_pow)
#define ew_log ua_vmf_ew_log_fma
#define ew_log2 ua_vmf_ew_log2_fma
#define ew_log10 ua_vmf_ew_log10_fma
#define ew_cbrt ua_vmf_ew_cbrt_fma
#define ew_pow ua_vmf_ew_pow_fma

#elif UA_KIND_FLOAT && UA_T_BITS == 64

#pragma GCC push_options
#pragma GCC target("avx2,fma")

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

/* float64 tan over n dense elements for one target, as
 * UA_VMD_TRIG_LOOP's blocks: the near reduction for every input into a
 * buffer, the inputs past it replaced one at a time. */
#define UA_VMD_FMA_TAN_RUN(TARGET, SUFFIX)                                    \
    __attribute__((target(TARGET))) static void ua_vmd_tan_##SUFFIX(          \
        double *restrict o, const double *restrict a, ptrdiff_t n)            \
    {                                                                         \
        double buf[UA_VMD_BLOCK];                                             \
        for (ptrdiff_t at = 0; at < n; at += UA_VMD_BLOCK) {                  \
            ptrdiff_t m = n - at < UA_VMD_BLOCK ? n - at : UA_VMD_BLOCK;      \
            uint64_t far = 0;                                                 \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                double x = a[at + i];                                         \
                far |= (uint64_t)!ua_vmd_trig_near(x);                        \
                buf[i] = ua_vmd_tan_near_fma(x);                              \
            }                                                                 \
            if (!far) {                                                       \
                for (ptrdiff_t i = 0; i < m; i++) {                           \
                    o[at + i] = buf[i];                                       \
                }                                                             \
                continue;                                                     \
            }                                                                 \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                double x = a[at + i];                                         \
                o[at + i] =                                                   \
                    ua_vmd_trig_near(x) ? buf[i] : ua_vmd_tan_any_fma(x);     \
            }                                                                 \
        }                                                                     \
    }

UA_VMD_FMA_TAN_RUN("arch=x86-64-v4", v4)
UA_VMD_FMA_TAN_RUN("avx2,fma", v3)

/* float64 tan's loop where the CPU has FMA, GEN's elsewhere; other steps
 * than dense through blocks on the stack. */
static void
ua_vmd_ew_tan_fma(char *o_, ptrdiff_t so, char *const *in, const ptrdiff_t *s,
                  ptrdiff_t n,
                  void (*gen)(char *, ptrdiff_t, char *const *,
                              const ptrdiff_t *, ptrdiff_t))
{
    int level = ua_vmf_fma_level();
    if (level == 0) {
        gen(o_, so, in, s, n);
        return;
    }
    void (*run)(double *, const double *, ptrdiff_t) =
        level == 2 ? ua_vmd_tan_v4 : ua_vmd_tan_v3;
    double *o = (double *)o_;
    const double *a = (const double *)in[0];
    if (so == 1 && s[0] == 1) {
        run(o, a, n);
        return;
    }
    double ab[UA_VMF_FMA_STAGE], ob[UA_VMF_FMA_STAGE];
    for (ptrdiff_t at = 0; at < n; at += UA_VMF_FMA_STAGE) {
        ptrdiff_t m = n - at < UA_VMF_FMA_STAGE ? n - at : UA_VMF_FMA_STAGE;
        for (ptrdiff_t i = 0; i < m; i++) {
            ab[i] = a[(at + i) * s[0]];
        }
        run(ob, ab, m);
        for (ptrdiff_t i = 0; i < m; i++) {
            o[(at + i) * so] = ob[i];
        }
    }
}

static void
ua_vmd_ew_tan_fma_loop(char *o_, ptrdiff_t so, char *const *in,
                       const ptrdiff_t *s, ptrdiff_t n)
{
    ua_vmd_ew_tan_fma(o_, so, in, s, n, ew_tan);
}
#undef ew_tan
#define ew_tan ua_vmd_ew_tan_fma_loop

#endif
#endif
#endif
