/* promote.c: type promotion, built once as a table that the binding and
 * the kernels share.  Inside a kind it is the Array API standard's table;
 * across kinds (integers with floating types, signed integers with
 * uint64, bool with anything) NumPy 2's, so that code moved from NumPy
 * gets the same dtypes.  Python scalars are weak (NEP 50): they take the
 * array's dtype where their kind allows. */
#ifndef USMARRAY_CORE_COMPUTE_PROMOTE_H
#define USMARRAY_CORE_COMPUTE_PROMOTE_H

#include "core/core.h"

/* The kinds of Python scalars, which promote weakly. */
typedef enum ua_scalar_kind {
    UA_SCALAR_BOOL,
    UA_SCALAR_INT,
    UA_SCALAR_FLOAT,
    UA_SCALAR_COMPLEX
} ua_scalar_kind;

/* The dtypes a device computes in by default: int64, and float64 and
 * complex128 where it has double precision, else float32 and complex64. */
typedef struct ua_default_dtypes {
    ua_typenum integral, real_floating, complex_floating, indexing;
} ua_default_dtypes;

/* The dtype two dtypes promote to; every pair of supported dtypes has
 * one. */
ua_typenum ua_promote(ua_typenum a, ua_typenum b);
/* The dtype several dtypes promote to together, given as a set (bit i for
 * ua_dtype_at(i)); 0 for the empty set.  It is no fold of ua_promote over
 * pairs: as in NumPy, it is the first dtype of the list that each of them
 * casts to safely (int8, uint8 and float16 give float16, where pairs would
 * give int16, then float32). */
ua_typenum ua_promote_set(uint32_t set);
/* The dtype an array of dtype t and a Python scalar of kind k give. */
ua_typenum ua_promote_scalar(ua_typenum t, ua_scalar_kind k,
                             const ua_default_dtypes *defaults);
/* Whether every value of `from` is a value of `to` (NumPy's "safe"
 * casting). */
bool ua_can_cast(ua_typenum from, ua_typenum to);
/* NumPy's "same_kind" casting: a safe cast, or one to a kind no lower in
 * bool, unsigned, signed, floating, complex (uint64 to int8 is one,
 * int8 to uint64 and float16 to int8 are not). */
bool ua_can_cast_same_kind(ua_typenum from, ua_typenum to);
ua_default_dtypes ua_default_dtypes_for(bool double_precision);

#endif
