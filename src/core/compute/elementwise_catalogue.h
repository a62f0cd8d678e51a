/* The catalogue of elementwise functions: every function once, from which
 * the kernels of every backend and dtype, the Python functions and
 * operators, and the README's table are generated.  Adding a function is
 * one entry here, its helper in the prelude (elementwise_prelude.inc) and
 * its tests.
 *
 * UA_ELEMENTWISE(X) expands X(NAME, ARITY, KINDS, RULE, EXPR) per entry:
 *   NAME   the standard's name; UA_EW_<NAME> is its id, the entry's
 *          position (0, 1, ...), which plans carry as `function`.
 *   ARITY  1, 2 or 3 operands, called a, b, c in EXPR.
 *   KINDS  the dtype kinds each operand may have (UA_EW_K_* bits); other
 *          operands are a TypeError before planning (where's condition
 *          excepted: see UA_EW_SELECT).
 *   RULE   how the computation type T and the output type follow from the
 *          operands' dtypes (UA_EW_* of ua_ew_rule below).
 *   EXPR   the result of one element, in the C subset that compiles as C,
 *          CUDA C++ and OpenCL C: operands a, b, c of type T (where's a:
 *          bool), helpers ua_*() of the prelude, ?:, !, &&, ||.  Its value
 *          has the output type of RULE (T, bool, or UA_R: the real type
 *          of T).  Backends that compile at run time take #EXPR.
 *
 * Ids are positions, so entries are only ever appended, never reordered,
 * within a version of the compute-kernel table (kernels.h). */
#ifndef USMARRAY_CORE_COMPUTE_ELEMENTWISE_CATALOGUE_H
#define USMARRAY_CORE_COMPUTE_ELEMENTWISE_CATALOGUE_H

/* Kinds of dtypes, as bits. */
#define UA_EW_K_BOOL 0x01u
#define UA_EW_K_INT 0x02u     /* signed integers */
#define UA_EW_K_UINT 0x04u    /* unsigned integers */
#define UA_EW_K_FLOAT 0x08u   /* real floating (float16, 32, 64) */
#define UA_EW_K_COMPLEX 0x10u /* complex64, complex128 */

#define UA_EW_INTEGRAL (UA_EW_K_INT | UA_EW_K_UINT)
#define UA_EW_BITWISE (UA_EW_K_BOOL | UA_EW_INTEGRAL)
#define UA_EW_REAL (UA_EW_INTEGRAL | UA_EW_K_FLOAT)
#define UA_EW_NUMERIC (UA_EW_REAL | UA_EW_K_COMPLEX)
/* Real operands as NumPy takes them, bool included (it computes in
 * floating point). */
#define UA_EW_REAL_B (UA_EW_K_BOOL | UA_EW_REAL)
#define UA_EW_ANY (UA_EW_K_BOOL | UA_EW_NUMERIC)

/* Type rules.  P is the promotion of the operands' dtypes (promote.c,
 * Python scalars weak); T the type every operand is cast to at load and
 * EXPR computes in (float16 is stored as binary16 and computed in float32:
 * see the prelude); O the output dtype.
 *   SAME       T = P, O = T.
 *   TO_FLOAT   T = P where floating, else the floating type NumPy 2 gives
 *              it (promote(P, float16): bool and 8-bit integers float16,
 *              16-bit float32, wider float64); O = T.
 *   PREDICATE  T = P, O = bool.
 *   TO_REAL    T = P, O = the real type of T (complex64: float32,
 *              complex128: float64, else T).
 *   SELECT     (where) operand a is the condition, loaded as bool (non-zero
 *              is true) whatever its dtype; T = promote(b, c); O = T.
 *   LIKE_FIRST (clip) T = a's dtype, the others cast to it; O = T.
 *   TO_COMPLEX T = the complex type P casts to safely (promote(P,
 *              complex64): bool, 8- and 16-bit integers, float16 and
 *              float32 complex64, the others complex128), as dpctl computes
 *              real operands of its complex functions; O = T.
 *   COMPLEX_TO_REAL  T as TO_COMPLEX; O = the real type of T. */
typedef enum ua_ew_rule {
    UA_EW_SAME,
    UA_EW_TO_FLOAT,
    UA_EW_PREDICATE,
    UA_EW_TO_REAL,
    UA_EW_SELECT,
    UA_EW_LIKE_FIRST,
    UA_EW_TO_COMPLEX,
    UA_EW_COMPLEX_TO_REAL
} ua_ew_rule;

/* clang-format off */
#define UA_ELEMENTWISE(X)                                                      \
    X(abs, 1, UA_EW_ANY, UA_EW_TO_REAL, ua_abs(a))                            \
    X(acos, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_acos(a))                          \
    X(acosh, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_acosh(a))                        \
    X(add, 2, UA_EW_ANY, UA_EW_SAME, ua_add(a, b))                            \
    X(asin, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_asin(a))                          \
    X(asinh, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_asinh(a))                        \
    X(atan, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_atan(a))                          \
    X(atan2, 2, UA_EW_REAL_B, UA_EW_TO_FLOAT, ua_atan2(a, b))                  \
    X(atanh, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_atanh(a))                        \
    X(bitwise_and, 2, UA_EW_BITWISE, UA_EW_SAME, ua_bitwise_and(a, b))         \
    X(bitwise_left_shift, 2, UA_EW_INTEGRAL, UA_EW_SAME,                       \
      ua_left_shift(a, b))                                                     \
    X(bitwise_invert, 1, UA_EW_BITWISE, UA_EW_SAME, ua_bitwise_invert(a))      \
    X(bitwise_or, 2, UA_EW_BITWISE, UA_EW_SAME, ua_bitwise_or(a, b))           \
    X(bitwise_right_shift, 2, UA_EW_INTEGRAL, UA_EW_SAME,                      \
      ua_right_shift(a, b))                                                    \
    X(bitwise_xor, 2, UA_EW_BITWISE, UA_EW_SAME, ua_bitwise_xor(a, b))         \
    X(cbrt, 1, UA_EW_REAL_B, UA_EW_TO_FLOAT, ua_cbrt(a))                        \
    X(ceil, 1, UA_EW_REAL_B, UA_EW_SAME, ua_ceil(a))                          \
    X(clip, 3, UA_EW_ANY, UA_EW_LIKE_FIRST, ua_clip(a, b, c))                 \
    X(conj, 1, UA_EW_NUMERIC, UA_EW_SAME, ua_conj(a))                          \
    X(copysign, 2, UA_EW_REAL_B, UA_EW_TO_FLOAT, ua_copysign(a, b))            \
    X(cos, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_cos(a))                            \
    X(cosh, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_cosh(a))                          \
    X(divide, 2, UA_EW_ANY, UA_EW_TO_FLOAT, ua_divide(a, b))                   \
    X(equal, 2, UA_EW_ANY, UA_EW_PREDICATE, ua_equal(a, b))                    \
    X(exp, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_exp(a))                            \
    X(exp2, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_exp2(a))                          \
    X(expm1, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_expm1(a))                        \
    X(floor, 1, UA_EW_REAL_B, UA_EW_SAME, ua_floor(a))                        \
    X(floor_divide, 2, UA_EW_REAL, UA_EW_SAME, ua_floor_divide(a, b))          \
    X(greater, 2, UA_EW_ANY, UA_EW_PREDICATE, ua_less(b, a))                   \
    X(greater_equal, 2, UA_EW_ANY, UA_EW_PREDICATE, ua_less_equal(b, a))       \
    X(hypot, 2, UA_EW_REAL_B, UA_EW_TO_FLOAT, ua_hypot(a, b))                  \
    X(imag, 1, UA_EW_NUMERIC, UA_EW_TO_REAL, ua_imag(a))                       \
    X(isfinite, 1, UA_EW_ANY, UA_EW_PREDICATE, ua_isfinite(a))                 \
    X(isinf, 1, UA_EW_ANY, UA_EW_PREDICATE, ua_isinf(a))                       \
    X(isnan, 1, UA_EW_ANY, UA_EW_PREDICATE, ua_isnan(a))                       \
    X(less, 2, UA_EW_ANY, UA_EW_PREDICATE, ua_less(a, b))                      \
    X(less_equal, 2, UA_EW_ANY, UA_EW_PREDICATE, ua_less_equal(a, b))          \
    X(log, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_log(a))                            \
    X(log1p, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_log1p(a))                        \
    X(log2, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_log2(a))                          \
    X(log10, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_log10(a))                        \
    X(logaddexp, 2, UA_EW_REAL_B, UA_EW_TO_FLOAT, ua_logaddexp(a, b))          \
    X(logical_and, 2, UA_EW_ANY, UA_EW_PREDICATE,                              \
      ua_truth(a) && ua_truth(b))                                              \
    X(logical_not, 1, UA_EW_ANY, UA_EW_PREDICATE, !ua_truth(a))                \
    X(logical_or, 2, UA_EW_ANY, UA_EW_PREDICATE, ua_truth(a) || ua_truth(b))   \
    X(logical_xor, 2, UA_EW_ANY, UA_EW_PREDICATE, ua_truth(a) != ua_truth(b))  \
    X(maximum, 2, UA_EW_ANY, UA_EW_SAME, ua_maximum(a, b))                     \
    X(minimum, 2, UA_EW_ANY, UA_EW_SAME, ua_minimum(a, b))                     \
    X(multiply, 2, UA_EW_ANY, UA_EW_SAME, ua_multiply(a, b))                  \
    X(negative, 1, UA_EW_NUMERIC, UA_EW_SAME, ua_negative(a))                  \
    X(nextafter, 2, UA_EW_REAL_B, UA_EW_TO_FLOAT, ua_nextafter(a, b))          \
    X(not_equal, 2, UA_EW_ANY, UA_EW_PREDICATE, !ua_equal(a, b))               \
    X(positive, 1, UA_EW_NUMERIC, UA_EW_SAME, a)                               \
    X(pow, 2, UA_EW_NUMERIC, UA_EW_SAME, ua_pow(a, b))                         \
    X(real, 1, UA_EW_NUMERIC, UA_EW_TO_REAL, ua_real(a))                       \
    X(reciprocal, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_reciprocal(a))              \
    X(remainder, 2, UA_EW_REAL, UA_EW_SAME, ua_remainder(a, b))                \
    X(round, 1, UA_EW_NUMERIC, UA_EW_SAME, ua_round(a))                        \
    X(rsqrt, 1, UA_EW_REAL_B, UA_EW_TO_FLOAT, ua_rsqrt(a))                      \
    X(sign, 1, UA_EW_NUMERIC, UA_EW_SAME, ua_sign(a))                          \
    X(signbit, 1, UA_EW_REAL_B, UA_EW_PREDICATE, ua_signbit(a))                \
    X(sin, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_sin(a))                            \
    X(sinh, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_sinh(a))                          \
    X(square, 1, UA_EW_NUMERIC, UA_EW_SAME, ua_multiply(a, a))                 \
    X(sqrt, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_sqrt(a))                          \
    X(subtract, 2, UA_EW_NUMERIC, UA_EW_SAME, ua_subtract(a, b))               \
    X(tan, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_tan(a))                            \
    X(tanh, 1, UA_EW_ANY, UA_EW_TO_FLOAT, ua_tanh(a))                          \
    X(trunc, 1, UA_EW_REAL_B, UA_EW_SAME, ua_trunc(a))                        \
    X(where, 3, UA_EW_ANY, UA_EW_SELECT, a ? b : c)                           \
    X(angle, 1, UA_EW_ANY, UA_EW_COMPLEX_TO_REAL, ua_angle(a))                 \
    X(proj, 1, UA_EW_ANY, UA_EW_TO_COMPLEX, ua_proj(a))
/* clang-format on */

#define UA_EW_ID_(NAME, ...) UA_EW_##NAME,
typedef enum ua_ew_id { UA_ELEMENTWISE(UA_EW_ID_) UA_EW_COUNT } ua_ew_id;
#undef UA_EW_ID_

#endif /* USMARRAY_CORE_COMPUTE_ELEMENTWISE_CATALOGUE_H */
