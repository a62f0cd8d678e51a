/* The host's elementwise kernels for one computation type, compiled once
 * per type by meson (host_elementwise.c's driver picks the table):
 *   UA_EW_CODE   the type's code (f4), naming the table
 *   UA_EW_KIND   BOOL, INT, UINT, FLOAT or COMPLEX
 *   UA_EW_RTYPE  the C type computed in (the part type of a complex one)
 *   UA_EW_UTYPE  the unsigned type of its width (integers)
 *   UA_EW_TBITS, UA_EW_RBITS   bits of a stored real part and of RTYPE
 * Every catalogue entry whose kinds and rule admit the type becomes one
 * inner loop over dense operands (or 0-step ones: scalars and values
 * broadcast along the block), which the compiler vectorizes, cloned for
 * the CPU's vector extensions and chosen at load time. */
#include <complex.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "backends/host/host_elementwise.h"
#include "backends/host/host_kernels.h"
#include "backends/host/host_vector_math.h"
#include "backends/host/host_vector_mathf.h"
#include "backends/host/host_vector_pow.h"
#include "backends/host/host_vector_trig.h"
#include "backends/host/host_vector_trigf.h"
#include "core/compute/elementwise_catalogue.h"

/* ------------------------------------------------- the language header */

#define UA_FN static inline
#define UA_R UA_EW_RTYPE
#define UA_U UA_EW_UTYPE
#define UA_T_BITS UA_EW_TBITS
#define UA_R_BITS UA_EW_RBITS
#define UA_KIND_(K) UA_KIND_IS_##K
#define UA_KIND_IS_BOOL_BOOL 1
#define UA_KIND_IS_INT_INT 1
#define UA_KIND_IS_UINT_UINT 1
#define UA_KIND_IS_FLOAT_FLOAT 1
#define UA_KIND_IS_COMPLEX_COMPLEX 1
#define UA_IS_(A, B) UA_IS__(A, B)
#define UA_IS__(A, B) (UA_KIND_IS_##A##_##B + 0)
#define UA_KIND_BOOL UA_IS_(UA_EW_KIND, BOOL)
#define UA_KIND_INT UA_IS_(UA_EW_KIND, INT)
#define UA_KIND_UINT UA_IS_(UA_EW_KIND, UINT)
#define UA_KIND_FLOAT UA_IS_(UA_EW_KIND, FLOAT)
#define UA_KIND_COMPLEX UA_IS_(UA_EW_KIND, COMPLEX)

#if UA_R_BITS == 32
#define UA_M(name) name##f
#define UA_CM(name) c##name##f
#define UA_CMPLX CMPLXF
#define UA_VM_(name) ua_vmf_##name
typedef float _Complex ua_cnative;
#else
#define UA_M(name) name
#define UA_CM(name) c##name
#define UA_CMPLX CMPLX
#define UA_VM_(name) ua_vmd_##name
typedef double _Complex ua_cnative;
#endif

/* float16 is computed in float32; its neighbours are found on its bits.
 * Only the float16 instantiation calls it (clang warns of the others). */
__attribute__((unused)) static inline float
ua_half_step(float x, bool up)
{
    uint16_t h = ua_half_from_double(x);
    if ((h & 0x7fffu) == 0) {
        return ua_half_to_float(up ? 0x0001u : 0x8001u);
    }
    bool away = (h >> 15 == 0) == up;
    return ua_half_to_float((uint16_t)(away ? h + 1 : h - 1));
}
#define UA_HALF_STEP(x, up) ua_half_step(x, up)

#if UA_KIND_FLOAT && UA_R_BITS == 32
#define UA_FAST_EXP(x) ua_vm_expf(x)
#elif UA_KIND_FLOAT
#define UA_FAST_EXP(x) ua_vm_exp(x)
#endif

/* float32's math of its own where the C library's is one call per element
 * (host_vector_mathf.h); float16, computed in float32 and rounded once,
 * keeps the C library's, whose results round to its nearest value. */
#if UA_KIND_FLOAT && UA_T_BITS == 32
#include "backends/host/host_vector_powf.h"
#undef UA_M
#define UA_M(name) ua_vmf_##name
/* its pow gives x * x for an exponent of 2 already, in its vector loop */
#define UA_POW_SQUARES 1
#endif

/* float64's likewise, in double arithmetic (host_vector_math.h: expm1,
 * the logarithms, sinh, cosh, tanh, asinh, atanh, atan, asin, acos,
 * atan2, sin, cos, tan). */
#if UA_KIND_FLOAT && UA_T_BITS == 64
#undef UA_M
#define UA_M(name) ua_vmd_##name
#define UA_POW_SQUARES 1
#endif

#if UA_KIND_COMPLEX
typedef struct ua_complex {
    UA_R re, im;
} ua_complex;
#define UA_COMPLEX_DECLARED

/* abs and angle: the hypot and atan2 of the parts of host_vector_math*.h
 * (glibc's are a call each). */
#define UA_HYPOT_PARTS UA_VM_(hypot)
#define UA_ATAN2_PARTS UA_VM_(atan2)

/* glibc's complex functions, which NumPy calls too. */
static inline ua_complex
ua_from_native(ua_cnative w)
{
    ua_complex z = {UA_CM(real)(w), UA_CM(imag)(w)};
    return z;
}
#define UA_C_FN_(NAME)                                                        \
    static inline ua_complex ua_c_##NAME(ua_complex z)                        \
    {                                                                         \
        return ua_from_native(UA_CM(NAME)(UA_CMPLX(z.re, z.im)));             \
    }
UA_C_FN_(exp)
UA_C_FN_(log)
UA_C_FN_(sqrt)
UA_C_FN_(sin)
UA_C_FN_(cos)
UA_C_FN_(tan)
UA_C_FN_(sinh)
UA_C_FN_(cosh)
UA_C_FN_(tanh)
UA_C_FN_(asin)
UA_C_FN_(acos)
UA_C_FN_(atan)
UA_C_FN_(asinh)
UA_C_FN_(acosh)
UA_C_FN_(atanh)
static inline ua_complex
ua_c_pow(ua_complex a, ua_complex b)
{
    return ua_from_native(
        UA_CM(pow)(UA_CMPLX(a.re, a.im), UA_CMPLX(b.re, b.im)));
}
#endif

#include "core/compute/elementwise_prelude.inc"

/* -------------------------------------- which entries admit this type */

/* UA_EW_IF(c)(code) keeps code where c expands to 1. */
#define UA_EW_IF(c) UA_EW_IF_(c)
#define UA_EW_IF_(c) UA_EW_IF_##c
#define UA_EW_IF_1(...) __VA_ARGS__
#define UA_EW_IF_0(...)
#define UA_EW_AND(a, b) UA_EW_AND_(a, b)
#define UA_EW_AND_(a, b) UA_EW_AND_##a##b
#define UA_EW_AND_00 0
#define UA_EW_AND_01 0
#define UA_EW_AND_10 0
#define UA_EW_AND_11 1

/* UA_EW_KIND_IN(SET) is SET_<kind of this type>: the tables below say
 * which kinds each KINDS column takes (UA_EW_IN_<column>_<kind>) and which
 * computation types each rule yields (UA_EW_YIELDS_<rule>_<kind>).  The
 * columns are pasted, never expanded, so they are matched by name. */
#define UA_EW_KIND_IN(SET) UA_EW_KIND_IN_(SET, UA_EW_KIND)
#define UA_EW_KIND_IN_(SET, K) UA_EW_KIND_IN__(SET, K)
#define UA_EW_KIND_IN__(SET, K) SET##_##K
#define UA_EW_IN_UA_EW_ANY_BOOL 1
#define UA_EW_IN_UA_EW_ANY_INT 1
#define UA_EW_IN_UA_EW_ANY_UINT 1
#define UA_EW_IN_UA_EW_ANY_FLOAT 1
#define UA_EW_IN_UA_EW_ANY_COMPLEX 1
#define UA_EW_IN_UA_EW_NUMERIC_BOOL 0
#define UA_EW_IN_UA_EW_NUMERIC_INT 1
#define UA_EW_IN_UA_EW_NUMERIC_UINT 1
#define UA_EW_IN_UA_EW_NUMERIC_FLOAT 1
#define UA_EW_IN_UA_EW_NUMERIC_COMPLEX 1
#define UA_EW_IN_UA_EW_REAL_B_BOOL 1
#define UA_EW_IN_UA_EW_REAL_B_INT 1
#define UA_EW_IN_UA_EW_REAL_B_UINT 1
#define UA_EW_IN_UA_EW_REAL_B_FLOAT 1
#define UA_EW_IN_UA_EW_REAL_B_COMPLEX 0
#define UA_EW_IN_UA_EW_REAL_BOOL 0
#define UA_EW_IN_UA_EW_REAL_INT 1
#define UA_EW_IN_UA_EW_REAL_UINT 1
#define UA_EW_IN_UA_EW_REAL_FLOAT 1
#define UA_EW_IN_UA_EW_REAL_COMPLEX 0
#define UA_EW_IN_UA_EW_BITWISE_BOOL 1
#define UA_EW_IN_UA_EW_BITWISE_INT 1
#define UA_EW_IN_UA_EW_BITWISE_UINT 1
#define UA_EW_IN_UA_EW_BITWISE_FLOAT 0
#define UA_EW_IN_UA_EW_BITWISE_COMPLEX 0
#define UA_EW_IN_UA_EW_INTEGRAL_BOOL 0
#define UA_EW_IN_UA_EW_INTEGRAL_INT 1
#define UA_EW_IN_UA_EW_INTEGRAL_UINT 1
#define UA_EW_IN_UA_EW_INTEGRAL_FLOAT 0
#define UA_EW_IN_UA_EW_INTEGRAL_COMPLEX 0

/* Computation types a rule yields: TO_FLOAT only floating ones. */
#define UA_EW_YIELDS_UA_EW_TO_FLOAT_BOOL 0
#define UA_EW_YIELDS_UA_EW_TO_FLOAT_INT 0
#define UA_EW_YIELDS_UA_EW_TO_FLOAT_UINT 0
#define UA_EW_YIELDS_UA_EW_TO_FLOAT_FLOAT 1
#define UA_EW_YIELDS_UA_EW_TO_FLOAT_COMPLEX 1
#define UA_EW_YIELDS_UA_EW_SAME_BOOL 1
#define UA_EW_YIELDS_UA_EW_SAME_INT 1
#define UA_EW_YIELDS_UA_EW_SAME_UINT 1
#define UA_EW_YIELDS_UA_EW_SAME_FLOAT 1
#define UA_EW_YIELDS_UA_EW_SAME_COMPLEX 1
#define UA_EW_YIELDS_UA_EW_PREDICATE_BOOL 1
#define UA_EW_YIELDS_UA_EW_PREDICATE_INT 1
#define UA_EW_YIELDS_UA_EW_PREDICATE_UINT 1
#define UA_EW_YIELDS_UA_EW_PREDICATE_FLOAT 1
#define UA_EW_YIELDS_UA_EW_PREDICATE_COMPLEX 1
#define UA_EW_YIELDS_UA_EW_TO_REAL_BOOL 1
#define UA_EW_YIELDS_UA_EW_TO_REAL_INT 1
#define UA_EW_YIELDS_UA_EW_TO_REAL_UINT 1
#define UA_EW_YIELDS_UA_EW_TO_REAL_FLOAT 1
#define UA_EW_YIELDS_UA_EW_TO_REAL_COMPLEX 1
#define UA_EW_YIELDS_UA_EW_SELECT_BOOL 1
#define UA_EW_YIELDS_UA_EW_SELECT_INT 1
#define UA_EW_YIELDS_UA_EW_SELECT_UINT 1
#define UA_EW_YIELDS_UA_EW_SELECT_FLOAT 1
#define UA_EW_YIELDS_UA_EW_SELECT_COMPLEX 1
#define UA_EW_YIELDS_UA_EW_LIKE_FIRST_BOOL 1
#define UA_EW_YIELDS_UA_EW_LIKE_FIRST_INT 1
#define UA_EW_YIELDS_UA_EW_LIKE_FIRST_UINT 1
#define UA_EW_YIELDS_UA_EW_LIKE_FIRST_FLOAT 1
#define UA_EW_YIELDS_UA_EW_LIKE_FIRST_COMPLEX 1
/* TO_COMPLEX and COMPLEX_TO_REAL only complex ones. */
#define UA_EW_YIELDS_UA_EW_TO_COMPLEX_BOOL 0
#define UA_EW_YIELDS_UA_EW_TO_COMPLEX_INT 0
#define UA_EW_YIELDS_UA_EW_TO_COMPLEX_UINT 0
#define UA_EW_YIELDS_UA_EW_TO_COMPLEX_FLOAT 0
#define UA_EW_YIELDS_UA_EW_TO_COMPLEX_COMPLEX 1
#define UA_EW_YIELDS_UA_EW_COMPLEX_TO_REAL_BOOL 0
#define UA_EW_YIELDS_UA_EW_COMPLEX_TO_REAL_INT 0
#define UA_EW_YIELDS_UA_EW_COMPLEX_TO_REAL_UINT 0
#define UA_EW_YIELDS_UA_EW_COMPLEX_TO_REAL_FLOAT 0
#define UA_EW_YIELDS_UA_EW_COMPLEX_TO_REAL_COMPLEX 1

/* Whether an entry has a loop for this type (where's condition is of any
 * kind: its column is for the values). */
#define UA_EW_ADMITS(IN, YIELDS)                                              \
    UA_EW_AND(UA_EW_KIND_IN(IN), UA_EW_KIND_IN(YIELDS))

/* -------------------------------------------------------- inner loops */

/* The register types of operands and results, by rule. */
#define UA_EW_OUT_UA_EW_SAME T
#define UA_EW_OUT_UA_EW_TO_FLOAT T
#define UA_EW_OUT_UA_EW_PREDICATE bool
#define UA_EW_OUT_UA_EW_TO_REAL UA_R
#define UA_EW_OUT_UA_EW_SELECT T
#define UA_EW_OUT_UA_EW_LIKE_FIRST T
#define UA_EW_OUT_UA_EW_TO_COMPLEX T
#define UA_EW_OUT_UA_EW_COMPLEX_TO_REAL UA_R
#define UA_EW_A_UA_EW_SELECT bool
#define UA_EW_A_UA_EW_SAME T
#define UA_EW_A_UA_EW_TO_FLOAT T
#define UA_EW_A_UA_EW_PREDICATE T
#define UA_EW_A_UA_EW_TO_REAL T
#define UA_EW_A_UA_EW_LIKE_FIRST T
#define UA_EW_A_UA_EW_TO_COMPLEX T
#define UA_EW_A_UA_EW_COMPLEX_TO_REAL T

/* Clones for the vector extensions of x86-64, where the compiler makes
 * them (GCC's ifunc dispatch, resolved once at load time). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&        \
    !defined(UA_EW_NO_CLONES)
#define UA_EW_CLONES                                                          \
    __attribute__((                                                           \
        target_clones("default", "avx2", "arch=x86-64-v4"))) UA_EW_FLATTEN
#else
#define UA_EW_CLONES
#endif

/* float32's and float64's own math (a binary one's body five times in
 * one function) outgrows GCC's inlining budget, and a helper left a call
 * keeps its loop scalar: their loops inline everything they call. */
#if UA_KIND_FLOAT && (UA_T_BITS == 32 || UA_T_BITS == 64)
#define UA_EW_FLATTEN __attribute__((flatten))
#else
#define UA_EW_FLATTEN
#endif

/* o[i * so] <- EXPR over n elements; operand k's element i is
 * p_k[i * s[k]].  Dense operands (step 1) and single values (step 0) have
 * loops of their own, so that each vectorizes; any other step takes the
 * general loop. */
#define UA_EW_DENSE_OR_ONE(s) ((s) == 0 || (s) == 1)

/* Element i of an operand: a bool one (a bool type's, where's condition)
 * as a byte compared with 0.  GCC 12 leaves scalar a loop that negates a
 * bool loaded as one (logical_not, bitwise_invert: its BIT_NOT_EXPR on a
 * boolean does not vectorize) or selects on one (where: 2 ns an element,
 * a mispredicted branch for each random condition); loaded as a byte
 * compared with 0, the same loops become SIMD code. */
#define UA_EW_LOAD(p, i)                                                      \
    _Generic((p),                                                             \
        const bool *: (((const unsigned char *)(p))[i] != 0),                 \
        default: (p)[i])

#define UA_EW_LOOP1(NAME, RULE, EXPR)                                         \
    UA_EW_CLONES static void ew_##NAME(char *o_, ptrdiff_t so,                \
                                       char *const *in, const ptrdiff_t *s,   \
                                       ptrdiff_t n)                           \
    {                                                                         \
        UA_EW_OUT_##RULE *restrict o = (UA_EW_OUT_##RULE *)o_;                \
        const T *restrict pa = (const T *)in[0];                              \
        if (so == 1 && s[0] == 1) {                                           \
            for (ptrdiff_t i = 0; i < n; i++) {                               \
                T a = UA_EW_LOAD(pa, i);                                      \
                o[i] = EXPR;                                                  \
            }                                                                 \
        } else if (so == 1 && s[0] == 0) {                                    \
            T a = pa[0];                                                      \
            UA_EW_OUT_##RULE v = EXPR;                                        \
            for (ptrdiff_t i = 0; i < n; i++) {                               \
                o[i] = v;                                                     \
            }                                                                 \
        } else {                                                              \
            for (ptrdiff_t i = 0; i < n; i++) {                               \
                T a = UA_EW_LOAD(pa, i * s[0]);                               \
                o[i * so] = EXPR;                                             \
            }                                                                 \
        }                                                                     \
    }

/* A dense operand beside one broadcast value ONE (from P[0]): float32's
 * and float64's own math gives the value's lanes to the compiler spread
 * over a block on the stack, the dense loop of two operands, which it
 * vectorizes where a value held apart left pow's loop scalar (GCC 12:
 * 4x slower); the other types keep the value in a register. */
#if UA_KIND_FLOAT && (UA_T_BITS == 32 || UA_T_BITS == 64)
#define UA_EW_WITH_ONE(ONE, P, LOAD_OTHER, EXPR)                              \
    T spread_[256];                                                           \
    for (int k = 0; k < 256; k++) {                                           \
        spread_[k] = P[0];                                                    \
    }                                                                         \
    for (ptrdiff_t i0 = 0; i0 < n; i0 += 256) {                               \
        ptrdiff_t m = n - i0 < 256 ? n - i0 : 256;                            \
        for (ptrdiff_t i = 0; i < m; i++) {                                   \
            T a, b;                                                           \
            ONE = spread_[i];                                                 \
            LOAD_OTHER;                                                       \
            o[i0 + i] = EXPR;                                                 \
        }                                                                     \
    }
#else
#define UA_EW_WITH_ONE(ONE, P, LOAD_OTHER, EXPR)                              \
    T ONE = P[0];                                                             \
    for (ptrdiff_t i0 = 0, i = 0; i < n; i++) {                               \
        T LOAD_OTHER;                                                         \
        o[i] = EXPR;                                                          \
    }
#endif

#define UA_EW_LOOP2(NAME, RULE, EXPR)                                         \
    UA_EW_CLONES static void ew_##NAME(char *o_, ptrdiff_t so,                \
                                       char *const *in, const ptrdiff_t *s,   \
                                       ptrdiff_t n)                           \
    {                                                                         \
        UA_EW_OUT_##RULE *restrict o = (UA_EW_OUT_##RULE *)o_;                \
        const T *restrict pa = (const T *)in[0];                              \
        const T *restrict pb = (const T *)in[1];                              \
        if (so != 1 || !UA_EW_DENSE_OR_ONE(s[0]) ||                           \
            !UA_EW_DENSE_OR_ONE(s[1])) {                                      \
            ptrdiff_t sa = s[0], sb = s[1];                                   \
            for (ptrdiff_t i = 0; i < n; i++) {                               \
                T a = UA_EW_LOAD(pa, i * sa), b = UA_EW_LOAD(pb, i * sb);     \
                o[i * so] = EXPR;                                             \
            }                                                                 \
        } else if (s[0] && s[1]) {                                            \
            for (ptrdiff_t i = 0; i < n; i++) {                               \
                T a = UA_EW_LOAD(pa, i), b = UA_EW_LOAD(pb, i);               \
                o[i] = EXPR;                                                  \
            }                                                                 \
        } else if (s[0]) {                                                    \
            UA_EW_WITH_ONE(b, pb, a = UA_EW_LOAD(pa, i0 + i), EXPR)           \
        } else if (s[1]) {                                                    \
            UA_EW_WITH_ONE(a, pa, b = UA_EW_LOAD(pb, i0 + i), EXPR)           \
        } else {                                                              \
            T a = pa[0], b = pb[0];                                           \
            UA_EW_OUT_##RULE v = EXPR;                                        \
            for (ptrdiff_t i = 0; i < n; i++) {                               \
                o[i] = v;                                                     \
            }                                                                 \
        }                                                                     \
    }

/* Three operands, each dense or broadcast: a dense one between two
 * broadcast ones (clip's bounds) has its own loop; in any other mix the
 * broadcast ones are spread over a block on the stack, so that one dense
 * loop, which the compiler vectorizes, serves it. */
#define UA_EW_SPREAD 256
#define UA_EW_LOOP3(NAME, RULE, EXPR)                                         \
    UA_EW_CLONES static void ew_##NAME##_dense(                               \
        UA_EW_OUT_##RULE *restrict o, const UA_EW_A_##RULE *restrict pa,      \
        const T *restrict pb, const T *restrict pc, ptrdiff_t n)              \
    {                                                                         \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            UA_EW_A_##RULE a = UA_EW_LOAD(pa, i);                             \
            T b = UA_EW_LOAD(pb, i), c = UA_EW_LOAD(pc, i);                   \
            o[i] = EXPR;                                                      \
        }                                                                     \
    }                                                                         \
    UA_EW_CLONES static void ew_##NAME##_bounds(                              \
        UA_EW_OUT_##RULE *restrict o, const UA_EW_A_##RULE *restrict pa, T b, \
        T c, ptrdiff_t n)                                                     \
    {                                                                         \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            UA_EW_A_##RULE a = UA_EW_LOAD(pa, i);                             \
            o[i] = EXPR;                                                      \
        }                                                                     \
    }                                                                         \
    static void ew_##NAME##_spread(                                           \
        UA_EW_OUT_##RULE *o, const UA_EW_A_##RULE *pa, const T *pb,           \
        const T *pc, const ptrdiff_t *s, ptrdiff_t n)                         \
    {                                                                         \
        UA_EW_A_##RULE ab[UA_EW_SPREAD];                                      \
        T bb[UA_EW_SPREAD], cb[UA_EW_SPREAD];                                 \
        ptrdiff_t fill = n < UA_EW_SPREAD ? n : UA_EW_SPREAD;                 \
        for (ptrdiff_t i = 0; i < fill; i++) {                                \
            ab[i] = pa[0], bb[i] = pb[0], cb[i] = pc[0];                      \
        }                                                                     \
        for (ptrdiff_t at = 0; at < n; at += UA_EW_SPREAD) {                  \
            ptrdiff_t m = n - at < UA_EW_SPREAD ? n - at : UA_EW_SPREAD;      \
            ew_##NAME##_dense(o + at, s[0] ? pa + at : ab,                    \
                              s[1] ? pb + at : bb, s[2] ? pc + at : cb, m);   \
        }                                                                     \
    }                                                                         \
    static void ew_##NAME(char *o_, ptrdiff_t so, char *const *in,            \
                          const ptrdiff_t *s, ptrdiff_t n)                    \
    {                                                                         \
        UA_EW_OUT_##RULE *o = (UA_EW_OUT_##RULE *)o_;                         \
        const UA_EW_A_##RULE *pa = (const UA_EW_A_##RULE *)in[0];             \
        const T *pb = (const T *)in[1], *pc = (const T *)in[2];               \
        if (so == 1 && s[0] == 1 && s[1] == 1 && s[2] == 1) {                 \
            ew_##NAME##_dense(o, pa, pb, pc, n);                              \
            return;                                                           \
        }                                                                     \
        if (so == 1 && s[0] == 1 && s[1] == 0 && s[2] == 0) {                 \
            ew_##NAME##_bounds(o, pa, pb[0], pc[0], n);                       \
            return;                                                           \
        }                                                                     \
        if (so == 1 && UA_EW_DENSE_OR_ONE(s[0]) &&                            \
            UA_EW_DENSE_OR_ONE(s[1]) && UA_EW_DENSE_OR_ONE(s[2])) {           \
            ew_##NAME##_spread(o, pa, pb, pc, s, n);                          \
            return;                                                           \
        }                                                                     \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            UA_EW_A_##RULE a = pa[i * s[0]];                                  \
            T b = pb[i * s[1]], c = pc[i * s[2]];                             \
            o[i * so] = EXPR;                                                 \
        }                                                                     \
    }

#define UA_EW_KERNEL_(NAME, ARITY, KINDS, RULE, EXPR)                         \
    UA_EW_IF(UA_EW_ADMITS(UA_EW_IN_##KINDS, UA_EW_YIELDS_##RULE))(            \
        UA_EW_LOOP##ARITY(NAME, RULE, EXPR))
UA_ELEMENTWISE(UA_EW_KERNEL_)

/* signbit of floats: the sign bit itself, shifted down (the catalogue's
 * copysign(1, a) < 0 is three operations a lane before the narrowing to
 * bools); float16 is computed in float, whose sign its own is. */
#if UA_KIND_FLOAT && UA_R_BITS == 64
#define UA_EW_SIGN_BIT(a) ((bool)(ua_vm_bits(a) >> 63))
#elif UA_KIND_FLOAT
#define UA_EW_SIGN_BIT(a) ((bool)(ua_vm_bitsf(a) >> 31))
#endif
#ifdef UA_EW_SIGN_BIT
UA_EW_CLONES static void
ew_sign_bit(char *o_, ptrdiff_t so, char *const *in, const ptrdiff_t *s,
            ptrdiff_t n)
{
    if (so != 1 || s[0] != 1) {
        ew_signbit(o_, so, in, s, n);
        return;
    }
    bool *restrict o = (bool *)o_;
    const T *restrict pa = (const T *)in[0];
    for (ptrdiff_t i = 0; i < n; i++) {
        o[i] = UA_EW_SIGN_BIT(pa[i]);
    }
}
#define ew_signbit ew_sign_bit
#endif

/* Comparisons, isnan, isinf, isfinite, signbit and the logical functions
 * of float32 and float64 by vector compares where the CPU has AVX2 or
 * AVX-512: loops in place of those above. */
#include "backends/host/host_vector_predicates.h"

/* float32 sin, cos and tan: dense operands in blocks, each with the
 * cheapest reduction by pi/2 that its inputs allow (host_vector_trigf.h);
 * other steps take the loops above, with the one for every float. */
#if UA_KIND_FLOAT && UA_T_BITS == 32
UA_VMF_TRIG_LOOP(sin, ew_sin, UA_EW_CLONES)
UA_VMF_TRIG_LOOP(cos, ew_cos, UA_EW_CLONES)
UA_VMF_TRIG_LOOP(tan, ew_tan, UA_EW_CLONES)
#define ew_sin ua_vmf_ew_sin
#define ew_cos ua_vmf_ew_cos
#define ew_tan ua_vmf_ew_tan
#endif

/* float64's likewise, with Cody and Waite's reduction up to 2^20 and
 * Payne and Hanek's past it (host_vector_math.h). */
#if UA_KIND_FLOAT && UA_T_BITS == 64
UA_VMD_TRIG_LOOP(sin, 0, ew_sin, UA_EW_CLONES)
UA_VMD_TRIG_LOOP(cos, 1, ew_cos, UA_EW_CLONES)
UA_VMD_TRIG_LOOP(tan, 2, ew_tan, UA_EW_CLONES)
#define ew_sin ua_vmd_ew_sin
#define ew_cos ua_vmd_ew_cos
#define ew_tan ua_vmd_ew_tan
#endif

/* float64 log, log2 and log10: dense operands in blocks, those of
 * positive normal inputs alone without the special values' selects
 * (host_vector_math.h's UA_VM_RANGE_LOOP). */
#if UA_KIND_FLOAT && UA_T_BITS == 64
UA_VM_RANGE_LOOP(double, ua_vmd, log, UA_VMD_LOG_RANGE, ew_log, UA_EW_CLONES)
UA_VM_RANGE_LOOP(double, ua_vmd, log2, UA_VMD_LOG_RANGE, ew_log2, UA_EW_CLONES)
UA_VM_RANGE_LOOP(double, ua_vmd, log10, UA_VMD_LOG_RANGE, ew_log10,
                 UA_EW_CLONES)
#define ew_log ua_vmd_ew_log
#define ew_log2 ua_vmd_ew_log2
#define ew_log10 ua_vmd_ew_log10
#endif

/* float32 atanh likewise, in blocks of |x| < 1. */
#if UA_KIND_FLOAT && UA_T_BITS == 32
UA_VM_RANGE_LOOP(float, ua_vmf, atanh, UA_VMF_ATANH_RANGE, ew_atanh,
                 UA_EW_CLONES)
#define ew_atanh ua_vmf_ew_atanh
#endif

/* float32 log, log2, log10, cbrt and pow and float64 tan with FMAs where
 * the CPU has them: loops in place of those above. */
#include "backends/host/host_vector_fma.h"

/* float32 and float64 remainder: the C library's fmod is a loop of its
 * own per element, so where the quotient is small the result comes from
 * a - q b with q = a / b rounded to the nearest integer and q b exact
 * (float32 in double, q < 2^29; float64 by Dekker's product, q < 2^51,
 * b far from double's ends): a - q b is then exactly the remainder of
 * either sign, so the divisor's sign is had by adding b once, rounded as
 * NumPy's fmod plus b is.  floor_divide, which NumPy computes from fmod
 * too, takes fmod from the same a - q b (the dividend's sign by adding b
 * once) and then NumPy's steps.  Blocks holding other operands (zeros,
 * infinities, NaN, large quotients) take ua_remainder or ua_floor_divide
 * for those. */
#if UA_KIND_FLOAT && UA_T_BITS == 64
static inline int
ua_ew_rem_slow(double a, double b)
{
    double ab = fabs(b);
    return !(ab >= 0x1p-969 && ab <= 0x1p995 && fabs(a) <= 0x1p50 * ab);
}

static inline double
ua_ew_remainder_fast(double a, double b)
{
    double q = (a / b + UA_VM_ROUNDER) - UA_VM_ROUNDER;
    double p = q * b;
    double r = (a - p) - ua_vmd_prod_err(q, b, p);
    double m = (r != 0.0 && (r < 0.0) != (b < 0.0)) ? r + b : r;
    return r == 0.0 ? ua_vmd_with_sign(0.0, b) : m;
}

/* fmod(a, b) from the same exact a - q b: one b more toward a's side
 * where its sign is not a's (exact too, as fmod's value is). */
static inline double
ua_ew_fmod_fast(double a, double b)
{
    double q = (a / b + UA_VM_ROUNDER) - UA_VM_ROUNDER;
    double p = q * b;
    double r = (a - p) - ua_vmd_prod_err(q, b, p);
    double m =
        (r != 0.0 && (r < 0.0) != (a < 0.0)) ? r + ua_vmd_with_sign(b, a) : r;
    return r == 0.0 ? ua_vmd_with_sign(0.0, a) : m;
}
#define UA_EW_REM_FAST 1
#define UA_EW_FLOOR_DIVIDE_FAST 1
#elif UA_KIND_FLOAT && UA_T_BITS == 32
static inline int
ua_ew_rem_slow(float a, float b)
{
    double ab = fabs((double)b);
    return !(ab > 0.0 && ab <= 3.40282347e+38 &&
             fabs((double)a) <= 0x1p28 * ab);
}

static inline float
ua_ew_remainder_fast(float a, float b)
{
    double ad = a, bd = b;
    double q = (ad / bd + UA_VM_ROUNDER) - UA_VM_ROUNDER;
    double r = ad - q * bd;
    double m = (r != 0.0 && (r < 0.0) != (bd < 0.0)) ? r + bd : r;
    return r == 0.0 ? ua_vmf_with_sign(0.0f, b) : (float)m;
}

static inline float
ua_ew_fmod_fast(float a, float b)
{
    double ad = a, bd = b;
    double q = (ad / bd + UA_VM_ROUNDER) - UA_VM_ROUNDER;
    double r = ad - q * bd;
    double m = (r != 0.0 && (r < 0.0) != (ad < 0.0))
                   ? r + ua_vmd_with_sign(bd, ad)
                   : r;
    return r == 0.0 ? ua_vmf_with_sign(0.0f, a) : (float)m;
}
#define UA_EW_REM_FAST 1
#define UA_EW_FLOOR_DIVIDE_FAST 1
#elif UA_KIND_UINT && (UA_T_BITS == 32 || UA_T_BITS == 64)
/* Unsigned integers below 2^51 likewise in double (reached through the
 * rounder's bits, AVX2 converting no 64-bit integer), the remainder of
 * the nearest quotient made nonnegative by adding b once: the division
 * is one instruction for a vector, where the integer one is one per
 * element.  A zero divisor (whose remainder is 0) and larger operands
 * take ua_remainder. */
static inline int
ua_ew_rem_slow(T a, T b)
{
    const uint64_t big = (uint64_t)1 << 51;
    return b == 0 || (uint64_t)a >= big || (uint64_t)b >= big;
}

static inline T
ua_ew_remainder_fast(T a, T b)
{
    uint64_t ua = a, ub = b, one = ua_vm_bits(UA_VM_ROUNDER);
    double ad = ua_vm_double(one + ua) - UA_VM_ROUNDER;
    double bd = ua_vm_double(one + ub) - UA_VM_ROUNDER;
    /* unsigned, wrapping: the lanes that ua_remainder replaces overflow */
    uint64_t q = ua_vm_bits(ad / bd + UA_VM_ROUNDER) - one;
    uint64_t r = ua - q * ub;
    return (T)((int64_t)r < 0 ? r + ub : r);
}
#define UA_EW_REM_FAST 1
#endif

#ifdef UA_EW_FLOOR_DIVIDE_FAST
/* ua_floor_divide's steps, NumPy's divmod, on the fmod above. */
static inline T
ua_ew_floor_divide_fast(T a, T b)
{
    T m = ua_ew_fmod_fast(a, b);
    T d = (a - m) / b;
    d = (m != 0 && (b < 0) != (m < 0)) ? d - 1 : d;
    T f = UA_M(floor)(d);
    f = d - f > (T)0.5 ? f + 1 : f;
    return d == 0 ? UA_M(copysign)((T)0, a / b) : f;
}
#endif

#ifdef UA_EW_REM_FAST
#define UA_EW_REM_BLOCK 1024
/* One block loop of OP (remainder, floor_divide) per mix of dense (A, B:
 * pa[i], pb[i]) and broadcast (a0, b0, read once) operands: the fast
 * form throughout, and the exact one for a block's slow lanes. */
#define UA_EW_REM_LOOP(OP, SUFFIX, A, B)                                      \
    UA_EW_CLONES static void ua_ew_##OP##_##SUFFIX(                           \
        T *restrict o, const T *restrict pa, const T *restrict pb,            \
        ptrdiff_t n)                                                          \
    {                                                                         \
        if (n <= 0) {                                                         \
            return;                                                           \
        }                                                                     \
        T a0 = pa[0], b0 = pb[0], buf[UA_EW_REM_BLOCK];                       \
        (void)a0, (void)b0;                                                   \
        for (ptrdiff_t at = 0; at < n; at += UA_EW_REM_BLOCK) {               \
            ptrdiff_t m =                                                     \
                n - at < UA_EW_REM_BLOCK ? n - at : UA_EW_REM_BLOCK;          \
            UA_U slow = 0;                                                    \
            for (ptrdiff_t i = 0; i < m; i++) {                               \
                T a = A, b = B;                                               \
                slow |= (UA_U)ua_ew_rem_slow(a, b);                           \
                buf[i] = ua_ew_##OP##_fast(a, b);                             \
            }                                                                 \
            for (ptrdiff_t i = 0; i < m && !slow; i++) {                      \
                o[at + i] = buf[i];                                           \
            }                                                                 \
            for (ptrdiff_t i = 0; i < m && slow; i++) {                       \
                T a = A, b = B;                                               \
                o[at + i] = ua_ew_rem_slow(a, b) ? ua_##OP(a, b) : buf[i];    \
            }                                                                 \
        }                                                                     \
    }

/* OP's loop: dense or broadcast operands by the block loops, any other
 * step by the catalogue's. */
#define UA_EW_REM_DRIVER(OP)                                                  \
    UA_EW_REM_LOOP(OP, vv, pa[at + i], pb[at + i])                            \
    UA_EW_REM_LOOP(OP, vs, pa[at + i], b0)                                    \
    UA_EW_REM_LOOP(OP, sv, a0, pb[at + i])                                    \
    static void ua_ew_##OP(char *o_, ptrdiff_t so, char *const *in,           \
                           const ptrdiff_t *s, ptrdiff_t n)                   \
    {                                                                         \
        T *o = (T *)o_;                                                       \
        const T *pa = (const T *)in[0], *pb = (const T *)in[1];               \
        if (so == 1 && s[0] == 1 && s[1] == 1) {                              \
            ua_ew_##OP##_vv(o, pa, pb, n);                                    \
        } else if (so == 1 && s[0] == 1 && s[1] == 0) {                       \
            ua_ew_##OP##_vs(o, pa, pb, n);                                    \
        } else if (so == 1 && s[0] == 0 && s[1] == 1) {                       \
            ua_ew_##OP##_sv(o, pa, pb, n);                                    \
        } else {                                                              \
            ew_##OP(o_, so, in, s, n);                                        \
        }                                                                     \
    }
UA_EW_REM_DRIVER(remainder)
#define ew_remainder ua_ew_remainder
#ifdef UA_EW_FLOOR_DIVIDE_FAST
UA_EW_REM_DRIVER(floor_divide)
#define ew_floor_divide ua_ew_floor_divide
#endif
#endif

#define UA_EW_ENTRY_(NAME, ARITY, KINDS, RULE, EXPR)                          \
    UA_EW_IF(UA_EW_ADMITS(UA_EW_IN_##KINDS, UA_EW_YIELDS_##RULE))(            \
        [UA_EW_##NAME] = ew_##NAME, )
#define UA_EW_TABLE_(CODE) UA_EW_TABLE__(CODE)
#define UA_EW_TABLE__(CODE) ua_host_ew_##CODE
const ua_host_ew_loop UA_EW_TABLE_(UA_EW_CODE)[UA_EW_COUNT] = {
    UA_ELEMENTWISE(UA_EW_ENTRY_)};
