/* The source of run-time compiled elementwise kernels (CUDA C++ under
 * NVRTC, OpenCL C for SYCL devices), generated from the catalogue's
 * expressions (elementwise_catalogue.h), the shared prelude
 * (elementwise_prelude.inc) and, for complex types, the portable complex
 * functions (elementwise_complex.inc).  A backend gives its language's
 * header and kernel bodies (a ua_ew_language); this layer writes the type
 * layer between them, so that nothing is written per function or dtype.
 *
 * The text it writes defines, for the language's kernel bodies:
 *   UA_NIN, UA_SCALAR0..2, UA_PATH (UA_EW_PATH_*), UA_ND, UA_INDEX32,
 *   UA_VEC, UA_ALIGNED   the variant (below);
 *   ua_s0..ua_s2, ua_so  the operands' and the result's storage types;
 *   ua_ld0..2(p), ua_st(p, v)   reads and writes of them at a byte address
 *                  (bytewise where not UA_ALIGNED);
 *   ua_sv0..2(lo, hi)    a scalar operand from the two words it is passed
 *                  as (ua_word, little end first);
 *   UA_APPLY(OO, O0, O1, O2)   out[OO] <- f(in0[O0], in1[O1], in2[O2])
 *                  (byte offsets; scalar operands read v0..v2, their
 *                  values in registers, which the body declares with
 *                  UA_SCALARS). */
#ifndef USMARRAY_GPU_ELEMENTWISE_SOURCE_H
#define USMARRAY_GPU_ELEMENTWISE_SOURCE_H

#include "core/backend.h"
#include "core/compute/kernels.h"

/* A plan's path through a kernel. */
enum {
    UA_EW_PATH_CONTIGUOUS, /* nd 1, every operand dense: no index arithmetic */
    UA_EW_PATH_STRIDED,    /* nd <= 4, unrolled */
    UA_EW_PATH_GENERAL     /* any nd */
};
#define UA_EW_SMALL_DIMS 4

/* One compiled kernel: what its source depends on. */
typedef struct ua_ew_variant {
    ua_ew_id function;
    int nin;
    ua_typenum compute, out_type;
    ua_typenum in_type[UA_EW_MAX_OPERANDS];
    bool scalar[UA_EW_MAX_OPERANDS];
    int path;
    int nd;       /* UA_EW_PATH_STRIDED: the plan's; else 0 */
    bool index32; /* UA_EW_PATH_STRIDED: 32-bit offsets */
    int vec;      /* elements a thread loads as one aligned vector: the
                   * contiguous path's, or the strided path's along its
                   * last axis, dense in every operand (ua_ew_row_vector) */
    bool aligned; /* every element at a multiple of its alignment */
} ua_ew_variant;

/* The variant of a plan, with vectors of up to max_vector bytes where the
 * pointers allow (1 to have none): along the contiguous path, or along the
 * strided path's last axis where every operand has it dense. */
void ua_ew_variant_of_plan(const ua_elementwise_plan *p, size_t max_vector,
                           ua_ew_variant *v);
/* Elements per vector along the last axis of a plan of the strided path:
 * e > 1 where that axis is dense in the output and in every operand not
 * scalar, its length a multiple of e, and every pointer and every other
 * step a multiple of e elements of its type (rows of a matrix with a row
 * broadcast, or slices of rows).  A kernel then takes the last axis e
 * elements at a time: its length divided by e, its steps multiplied. */
int ua_ew_row_vector(const ua_elementwise_plan *p, size_t max_vector);
/* Distinct variants give distinct keys (a hash table's key). */
uint64_t ua_ew_variant_key(const ua_ew_variant *v);

/* A run-time compiled language: its header (before the type layer: UA_FN,
 * UA_GLOBAL, the fixed-width integer names, bool, ua_word, c64, c128,
 * float16 helpers named by cvt and UA_HALF_BITS(x)/UA_HALF_VALUE(h) between
 * a float and binary16 bits), its kernel bodies (after), how its
 * conversions are spelt (cvt), its storage types, and whether its math
 * library names float functions with an f suffix (C, CUDA) or overloads
 * them (OpenCL).  Texts are NULL-ended arrays of parts. */
typedef struct ua_ew_language {
    const char *const *header;
    const char *const *body;
    ua_kernel_dialect cvt;
    const char *(*storage)(ua_typenum t);
    bool float_suffix;
} ua_ew_language;

/* The kernels a context has compiled, by variant key: an open-addressed
 * table, kept at most half full, which the backend guards with its lock.
 * Each entry holds two pointers (a kernel and what owns it). */
typedef struct ua_ew_slot {
    uint64_t key;
    bool used;
    void *kernel, *owner;
} ua_ew_slot;
typedef struct ua_ew_table {
    ua_ew_slot *slots;
    size_t cap, count;
} ua_ew_table;

/* The entry of key, or NULL. */
const ua_ew_slot *ua_ew_table_find(const ua_ew_table *t, uint64_t key);
/* Adds an entry (UA_ERR_NOMEM where the table cannot grow). */
ua_status ua_ew_table_add(ua_ew_table *t, uint64_t key, void *kernel,
                          void *owner);

/* The kernel's whole source (malloc'd), or NULL when out of memory. */
char *ua_ew_kernel_source(const ua_ew_language *l, const ua_ew_variant *v);

#endif
