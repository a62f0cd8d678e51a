/* Comparisons, isnan, isinf, isfinite, signbit and the logical functions
 * of float32 and float64 on x86-64, chosen at run time.  With AVX2, a
 * vector compare's lane masks packed to bools by saturating packs, 32 at
 * a time (the compiler's own narrowing of a compare to bytes took three
 * times the instructions: 0.72-0.97 of NumPy's speed in cache).  With
 * AVX-512, for all but the comparisons (below), a compare of a vector's
 * lanes to a mask register, the masks of 64 elements joined into one that
 * a masked move turns into 64 bools, one store, and a remainder below 64
 * by masked loads and a masked store: fewer instructions than the packs,
 * which tells where the operands are in L1.  signbit's mask is the sign
 * bit's, isinf's and isfinite's the magnitude's against infinity, a
 * logical function's its operands' truth, each a compare with 0,
 * combined bitwise.  Dense or single-value operands only; other steps
 * and CPUs take the catalogue's loops.  The compares are IEEE's, ordered
 * but not_equal's, so NaN compares as C's operators do (and is true, as
 * NaN != 0 is).
 *
 * host_elementwise_type.c includes this after its loops, for every type:
 * for float32 and float64 it defines the loops and points the catalogue's
 * names (ew_equal, ..., ew_logical_xor) at them.  A target_clones clone
 * cannot ask which clone it is in, and GCC's AVX-512 clone of the
 * catalogue's loops spreads each mask to a vector of 32-bit lanes and
 * narrows those by permutes, so these are functions of their own,
 * compiled for their targets by attributes. */
#ifndef USMARRAY_BACKENDS_HOST_HOST_VECTOR_PREDICATES_H
#define USMARRAY_BACKENDS_HOST_HOST_VECTOR_PREDICATES_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if UA_KIND_FLOAT && (UA_T_BITS == 32 || UA_T_BITS == 64) &&                  \
    defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define UA_EW_AVX2 __attribute__((target("avx2")))
#define UA_EW_AVX512 __attribute__((target("avx512f,avx512bw")))

/* Each predicate's mask in terms of a vector family V: V(CMP), V(SPLAT),
 * ... name the family's own operations (UA_EW_Y: AVX2's lane masks,
 * UA_EW_Z: AVX-512's mask registers), so one list serves both. */
#define UA_EW_Y(op) UA_EW_Y_##op
#define UA_EW_Z(op) UA_EW_Z_##op
#define UA_EW_Y_AND(x, y) _mm256_and_si256(x, y)
#define UA_EW_Y_OR(x, y) _mm256_or_si256(x, y)
#define UA_EW_Y_XOR(x, y) _mm256_xor_si256(x, y)
#define UA_EW_Z_AND(x, y) ((x) & (y))
#define UA_EW_Z_OR(x, y) ((x) | (y))
#define UA_EW_Z_XOR(x, y) ((x) ^ (y))

#if UA_T_BITS == 64
#define UA_EW_LANES 4
typedef __m256d ua_ew_vec;
#define UA_EW_Y_LOAD(p) _mm256_loadu_pd(p)
#define UA_EW_Y_SPLAT(x) _mm256_set1_pd(x)
#define UA_EW_Y_CMP(a, b, P) _mm256_castpd_si256(_mm256_cmp_pd(a, b, P))
#define UA_EW_Y_SIGN(a)                                                       \
    _mm256_cmpgt_epi64(_mm256_setzero_si256(), _mm256_castpd_si256(a))
#define UA_EW_Y_ABS(a) _mm256_andnot_pd(_mm256_set1_pd(-0.0), a)

/* 32 masks of 64 bits in 8 vectors: three rounds of packs (each mask two
 * equal halves, then two equal bytes), a dword permutation that brings
 * each lane's halves together and a byte shuffle inside lanes. */
UA_EW_AVX2 static inline __m256i
ua_ew_pack_masks(const __m256i *m)
{
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256i pairs =
        _mm256_setr_epi8(0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15,
                         0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15);
    __m256i q0 = _mm256_packs_epi16(_mm256_packs_epi32(m[0], m[1]),
                                    _mm256_packs_epi32(m[2], m[3]));
    __m256i q1 = _mm256_packs_epi16(_mm256_packs_epi32(m[4], m[5]),
                                    _mm256_packs_epi32(m[6], m[7]));
    __m256i b = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(q0, q1), order);
    return _mm256_shuffle_epi8(b, pairs);
}

typedef __m512d ua_ew_zvec;
typedef __mmask8 ua_ew_kmask;
#define UA_EW_Z_LOAD(p) _mm512_loadu_pd(p)
#define UA_EW_Z_LOADM(k, p) _mm512_maskz_loadu_pd(k, p)
#define UA_EW_Z_SPLAT(x) _mm512_set1_pd(x)
#define UA_EW_Z_CMP(a, b, P) _mm512_cmp_pd_mask(a, b, P)
#define UA_EW_Z_SIGN(a)                                                       \
    _mm512_cmplt_epi64_mask(_mm512_castpd_si512(a), _mm512_setzero_si512())
#define UA_EW_Z_ABS(a) _mm512_abs_pd(a)

/* The masks of 16 elements from two vectors' (FN of the vectors at AT and
 * AT + 8), element 0's bit lowest. */
#define UA_EW_Z16(FN, A, B, at)                                               \
    _mm512_kunpackb(FN(A((at) + 8), B((at) + 8)), FN(A(at), B(at)))
#else
#define UA_EW_LANES 8
typedef __m256 ua_ew_vec;
#define UA_EW_Y_LOAD(p) _mm256_loadu_ps(p)
#define UA_EW_Y_SPLAT(x) _mm256_set1_ps(x)
#define UA_EW_Y_CMP(a, b, P) _mm256_castps_si256(_mm256_cmp_ps(a, b, P))
#define UA_EW_Y_SIGN(a) _mm256_srai_epi32(_mm256_castps_si256(a), 31)
#define UA_EW_Y_ABS(a) _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a)

/* 32 masks of 32 bits in 4 vectors: two rounds of packs leave each
 * lane's 4-byte groups interleaved, which a dword permutation orders. */
UA_EW_AVX2 static inline __m256i
ua_ew_pack_masks(const __m256i *m)
{
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    __m256i b = _mm256_packs_epi16(_mm256_packs_epi32(m[0], m[1]),
                                   _mm256_packs_epi32(m[2], m[3]));
    return _mm256_permutevar8x32_epi32(b, order);
}

typedef __m512 ua_ew_zvec;
typedef __mmask16 ua_ew_kmask;
#define UA_EW_Z_LOAD(p) _mm512_loadu_ps(p)
#define UA_EW_Z_LOADM(k, p) _mm512_maskz_loadu_ps(k, p)
#define UA_EW_Z_SPLAT(x) _mm512_set1_ps(x)
#define UA_EW_Z_CMP(a, b, P) _mm512_cmp_ps_mask(a, b, P)
#define UA_EW_Z_SIGN(a)                                                       \
    _mm512_cmplt_epi32_mask(_mm512_castps_si512(a), _mm512_setzero_si512())
#define UA_EW_Z_ABS(a) _mm512_abs_ps(a)

#define UA_EW_Z16(FN, A, B, at) FN(A(at), B(at))
#endif

#define UA_EW_MASK_equal(V, a, b) V(CMP)(a, b, _CMP_EQ_OQ)
#define UA_EW_MASK_not_equal(V, a, b) V(CMP)(a, b, _CMP_NEQ_UQ)
#define UA_EW_MASK_less(V, a, b) V(CMP)(a, b, _CMP_LT_OQ)
#define UA_EW_MASK_less_equal(V, a, b) V(CMP)(a, b, _CMP_LE_OQ)
#define UA_EW_MASK_greater(V, a, b) V(CMP)(a, b, _CMP_GT_OQ)
#define UA_EW_MASK_greater_equal(V, a, b) V(CMP)(a, b, _CMP_GE_OQ)
#define UA_EW_MASK_isnan(V, a, b) V(CMP)(a, a, _CMP_UNORD_Q)
#define UA_EW_MASK_signbit(V, a, b) V(SIGN)(a)
#define UA_EW_MASK_isinf(V, a, b)                                             \
    V(CMP)(V(ABS)(a), V(SPLAT)(INFINITY), _CMP_EQ_OQ)
#define UA_EW_MASK_isfinite(V, a, b)                                          \
    V(CMP)(V(ABS)(a), V(SPLAT)(INFINITY), _CMP_LT_OQ)
#define UA_EW_TRUTH(V, a) V(CMP)(a, V(SPLAT)(0), _CMP_NEQ_UQ)
#define UA_EW_MASK_logical_not(V, a, b) V(CMP)(a, V(SPLAT)(0), _CMP_EQ_OQ)
#define UA_EW_MASK_logical_and(V, a, b)                                       \
    V(AND)(UA_EW_TRUTH(V, a), UA_EW_TRUTH(V, b))
#define UA_EW_MASK_logical_or(V, a, b)                                        \
    V(OR)(UA_EW_TRUTH(V, a), UA_EW_TRUTH(V, b))
#define UA_EW_MASK_logical_xor(V, a, b)                                       \
    V(XOR)(UA_EW_TRUTH(V, a), UA_EW_TRUTH(V, b))

/* NAME's first elements, 32 at a time, the lane masks of a (pa, sa) and b
 * (pb, sb), steps 0 or 1; returns how many it wrote. */
#define UA_EW_PACKED_RUN(NAME)                                                \
    UA_EW_AVX2 static ptrdiff_t ew_##NAME##_avx2(bool *o, const T *pa,        \
                                                 ptrdiff_t sa, const T *pb,   \
                                                 ptrdiff_t sb, ptrdiff_t n)   \
    {                                                                         \
        const __m256i one = _mm256_set1_epi8(1);                              \
        ua_ew_vec a0 = UA_EW_Y_SPLAT(pa[0]), b0 = UA_EW_Y_SPLAT(pb[0]);       \
        ptrdiff_t i = 0;                                                      \
        for (; i + 32 <= n; i += 32) {                                        \
            __m256i m[32 / UA_EW_LANES];                                      \
            for (int k = 0; k < 32 / UA_EW_LANES; k++) {                      \
                ptrdiff_t at = i + k * UA_EW_LANES;                           \
                ua_ew_vec a = sa ? UA_EW_Y_LOAD(pa + at) : a0;                \
                ua_ew_vec b = sb ? UA_EW_Y_LOAD(pb + at) : b0;                \
                (void)b;                                                      \
                m[k] = UA_EW_MASK_##NAME(UA_EW_Y, a, b);                      \
            }                                                                 \
            __m256i bools = _mm256_and_si256(ua_ew_pack_masks(m), one);       \
            _mm256_storeu_si256((__m256i *)(o + i), bools);                   \
        }                                                                     \
        return i;                                                             \
    }

/* Operand a's or b's vector at element at of a wide run (below): dense or
 * its single value; in the remainder, the lanes before n alone (LIVE's
 * bits from element i on), a vector wholly past n reading nothing. */
/* The masks of the 64 elements from `at`, each 16's joined as it is made
 * (all 16 made first spilled them to the stack). */
#define UA_EW_Z64(FN, A, B, at)                                               \
    _mm512_kunpackd(_mm512_kunpackw(UA_EW_Z16(FN, A, B, (at) + 48),           \
                                    UA_EW_Z16(FN, A, B, (at) + 32)),          \
                    _mm512_kunpackw(UA_EW_Z16(FN, A, B, (at) + 16),           \
                                    UA_EW_Z16(FN, A, B, at)))
#define UA_EW_ZA(at) (sa ? UA_EW_Z_LOAD(pa + (at)) : a0)
#define UA_EW_ZB(at) (sb ? UA_EW_Z_LOAD(pb + (at)) : b0)
#define UA_EW_ZLIVE(at) ((ua_ew_kmask)(live >> ((at) - i)))
#define UA_EW_ZAM(at)                                                         \
    (!sa               ? a0                                                   \
     : UA_EW_ZLIVE(at) ? UA_EW_Z_LOADM(UA_EW_ZLIVE(at), pa + (at))            \
                       : UA_EW_Z_SPLAT(0))
#define UA_EW_ZBM(at)                                                         \
    (!sb               ? b0                                                   \
     : UA_EW_ZLIVE(at) ? UA_EW_Z_LOADM(UA_EW_ZLIVE(at), pb + (at))            \
                       : UA_EW_Z_SPLAT(0))

/* All n (at least 1) of NAME's elements, 64 at a time, then the rest by
 * masked loads (which read nothing past the operands) and a masked
 * store; a lane past the end computes from 0, and is not written.  The
 * steps SA and SB are constants in each caller below, so that no loop
 * tests them.  Each
 * 16 elements' masks are joined as soon as they are made, as the eight
 * mask registers hold no more: float64's logical functions, whose 16
 * masks were all made first, spilled them to the stack, at 0.7 of the
 * AVX2 loop's speed. */
#define UA_EW_WIDE_RUN(NAME)                                                  \
    UA_EW_AVX512 static inline ua_ew_kmask ew_##NAME##_zmask(ua_ew_zvec a,    \
                                                             ua_ew_zvec b)    \
    {                                                                         \
        (void)b;                                                              \
        return UA_EW_MASK_##NAME(UA_EW_Z, a, b);                              \
    }                                                                         \
    UA_EW_AVX512 static inline __attribute__((always_inline)) void            \
    ew_##NAME##_wide(bool *o, const T *pa, int sa, const T *pb, int sb,       \
                     ptrdiff_t n)                                             \
    {                                                                         \
        const __m512i one = _mm512_set1_epi8(1);                              \
        ua_ew_zvec a0 = UA_EW_Z_SPLAT(pa[0]), b0 = UA_EW_Z_SPLAT(pb[0]);      \
        ptrdiff_t i = 0;                                                      \
        for (; i + 64 <= n; i += 64) {                                        \
            __mmask64 m =                                                     \
                UA_EW_Z64(ew_##NAME##_zmask, UA_EW_ZA, UA_EW_ZB, i);          \
            _mm512_storeu_si512(o + i, _mm512_maskz_mov_epi8(m, one));        \
        }                                                                     \
        if (i == n) {                                                         \
            return;                                                           \
        }                                                                     \
        __mmask64 live = ~(uint64_t)0 >> (64 - (n - i));                      \
        __mmask64 m = UA_EW_Z64(ew_##NAME##_zmask, UA_EW_ZAM, UA_EW_ZBM, i);  \
        _mm512_mask_storeu_epi8(o + i, live, _mm512_maskz_mov_epi8(m, one));  \
    }                                                                         \
    UA_EW_AVX512 static void ew_##NAME##_avx512(bool *o, const T *pa,         \
                                                ptrdiff_t sa, const T *pb,    \
                                                ptrdiff_t sb, ptrdiff_t n)    \
    {                                                                         \
        if (sa && sb) {                                                       \
            ew_##NAME##_wide(o, pa, 1, pb, 1, n);                             \
        } else if (sa) {                                                      \
            ew_##NAME##_wide(o, pa, 1, pb, 0, n);                             \
        } else if (sb) {                                                      \
            ew_##NAME##_wide(o, pa, 0, pb, 1, n);                             \
        } else {                                                              \
            ew_##NAME##_wide(o, pa, 0, pb, 0, n);                             \
        }                                                                     \
    }

/* Where AVX-512's bytes and masks are (the OS saving their registers
 * included, as __builtin_cpu_supports checks). */
static inline bool
ua_ew_has_avx512(void)
{
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512bw");
}

/* NAME's loop: the AVX-512 run where it applies and WIDE asks for it,
 * else the packed run and the catalogue's loop for the rest; a unary
 * NAME reads its operand as both.  The six comparisons keep the packs:
 * through the mask registers they took 1.1 times as long on float64
 * operands in L3 (NumPy's speed there), 1.02-1.05 on float32, whatever
 * the loads' order, width or the stores' size; the functions below gain
 * in L1 (isnan 1.4 times as fast, the logical functions of float32 1.2)
 * and the logical functions of float32 in L3 too (1.15). */
#define UA_EW_TRY_WIDE_0(NAME)                                                \
    do {                                                                      \
    } while (0)
#define UA_EW_TRY_WIDE_1(NAME)                                                \
    do {                                                                      \
        if (ua_ew_has_avx512()) {                                             \
            ew_##NAME##_avx512((bool *)o_, pa, sa, pb, sb, n);                \
            return;                                                           \
        }                                                                     \
    } while (0)
#define UA_EW_PACKED(NAME, ARITY, WIDE)                                       \
    UA_EW_PACKED_RUN(NAME)                                                    \
    static void ew_##NAME##_packed(char *o_, ptrdiff_t so, char *const *in,   \
                                   const ptrdiff_t *s, ptrdiff_t n)           \
    {                                                                         \
        ptrdiff_t sa = s[0], sb = s[ARITY - 1];                               \
        ptrdiff_t done = 0;                                                   \
        if (so == 1 && sa >= 0 && sa <= 1 && sb >= 0 && sb <= 1 && n > 0) {   \
            const T *pa = (const T *)in[0], *pb = (const T *)in[ARITY - 1];   \
            UA_EW_TRY_WIDE_##WIDE(NAME);                                      \
            if (__builtin_cpu_supports("avx2")) {                             \
                done = ew_##NAME##_avx2((bool *)o_, pa, sa, pb, sb, n);       \
            }                                                                 \
        }                                                                     \
        if (done == n) {                                                      \
            return;                                                           \
        }                                                                     \
        char *rest[2] = {in[0] + done * sa * (ptrdiff_t)sizeof(T),            \
                         in[ARITY - 1] + done * sb * (ptrdiff_t)sizeof(T)};   \
        ew_##NAME(o_ + done * so, so, rest, s, n - done);                     \
    }
UA_EW_WIDE_RUN(isnan)
UA_EW_WIDE_RUN(signbit)
UA_EW_WIDE_RUN(isinf)
UA_EW_WIDE_RUN(isfinite)
UA_EW_WIDE_RUN(logical_not)
UA_EW_WIDE_RUN(logical_and)
UA_EW_WIDE_RUN(logical_or)
UA_EW_WIDE_RUN(logical_xor)
UA_EW_PACKED(equal, 2, 0)
UA_EW_PACKED(not_equal, 2, 0)
UA_EW_PACKED(less, 2, 0)
UA_EW_PACKED(less_equal, 2, 0)
UA_EW_PACKED(greater, 2, 0)
UA_EW_PACKED(greater_equal, 2, 0)
UA_EW_PACKED(isnan, 1, 1)
UA_EW_PACKED(signbit, 1, 1)
UA_EW_PACKED(isinf, 1, 1)
UA_EW_PACKED(isfinite, 1, 1)
UA_EW_PACKED(logical_not, 1, 1)
UA_EW_PACKED(logical_and, 2, 1)
UA_EW_PACKED(logical_or, 2, 1)
UA_EW_PACKED(logical_xor, 2, 1)
#undef ew_signbit
#define ew_signbit ew_signbit_packed
#define ew_equal ew_equal_packed
#define ew_not_equal ew_not_equal_packed
#define ew_less ew_less_packed
#define ew_less_equal ew_less_equal_packed
#define ew_greater ew_greater_packed
#define ew_greater_equal ew_greater_equal_packed
#define ew_isnan ew_isnan_packed
#define ew_isinf ew_isinf_packed
#define ew_isfinite ew_isfinite_packed
#define ew_logical_not ew_logical_not_packed
#define ew_logical_and ew_logical_and_packed
#define ew_logical_or ew_logical_or_packed
#define ew_logical_xor ew_logical_xor_packed
#endif

#endif
