/* The source of run-time compiled elementwise kernels (CUDA C++ under
 * NVRTC, OpenCL C for SYCL devices), generated from the catalogue's
 * expressions (elementwise_catalogue.h), the shared prelude
 * (elementwise_prelude.inc) and, for complex types, the portable complex
 * functions (elementwise_complex.inc).  A backend gives its language's
 * header and the GPU layer's dialect for it (a ua_ew_language); this layer
 * writes the type layer after them and the one kernel text,
 * elementwise_kernels.inc, last, so that nothing is written per function,
 * dtype or language.
 *
 * The type layer defines, for the kernel text:
 *   UA_NIN, UA_SCALAR0..2, UA_PATH (UA_EW_PATH_*), UA_ND, UA_INDEX32,
 *   UA_VEC, UA_ALIGNED   the variant (below);
 *   ua_s0..ua_s2, ua_so  the operands' and the result's storage types;
 *   ua_ld0..2(p), ua_st(p, v)   reads and writes of them at a byte address
 *                  (bytewise where not UA_ALIGNED);
 *   ua_sv0..2(lo, hi)    a scalar operand from the two words it is passed
 *                  as (U64, little end first);
 *   UA_APPLY(OO, O0, O1, O2)   out[OO] <- f(in0[O0], in1[O1], in2[O2])
 *                  (byte offsets; scalar operands read v0..v2, their
 *                  values in registers, which the kernel declares with
 *                  UA_SCALARS). */
#ifndef USMARRAY_GPU_ELEMENTWISE_SOURCE_H
#define USMARRAY_GPU_ELEMENTWISE_SOURCE_H

#include <stddef.h>

#include "core/backend.h"
#include "core/compute/kernels.h"

/* A plan's path through a kernel. */
enum {
    UA_EW_PATH_CONTIGUOUS, /* nd 1, every operand dense: no index arithmetic */
    UA_EW_PATH_STRIDED,    /* nd <= 4, unrolled */
    UA_EW_PATH_GENERAL     /* any nd */
};
#define UA_EW_SMALL_DIMS 4
#define UA_EW_GENERAL_DIMS 64

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
    const ua_fused_expr *fused; /* evaluated in place of `function` */
    int reduce; /* the plan's: the values reduced into partials */
    bool rows;  /* the plan's row > 0: the values reduced a row each, or
                 * a chain's phases run a row each */
    const struct ua_fused_chain *chain; /* the plan's */
    const ua_fused_expr *post;          /* rows of a reduction: the plan's */
    bool per_row[UA_EW_MAX_OPERANDS];   /* rows: one element a row; of all
                                         * values: one element in all */
    int slots;     /* a chain's: elements of its row a thread keeps between
                * phases (UA_CHAIN_SLOTS; 0: the row is read again) */
    bool warp;     /* rows: a warp a row (UA_ROW_WARP), where the dialect
                    * shuffles (ua_ew_variant_rows_for) */
    int local_row; /* a chain's: the longest row its group keeps in local
                    * memory between phases (UA_CHAIN_LOCAL; 0: none) */
    int group;     /* rows: the threads of a group (UA_ROWS_GROUP; 0: the
                    * language's UA_THREADS) */
} ua_ew_variant;

/* The most elements of a chain's row a thread keeps in registers, and the
 * group's threads that the variant's slots assume (a group of fewer reads
 * the row again). */
#define UA_EW_CHAIN_MAX_SLOTS 8
#define UA_EW_CHAIN_THREADS 256
/* A warp a row: the longest rows it takes, a chain's (each thread then
 * keeps up to UA_EW_WARP_MAX_SLOTS of the row) and a reduction's. */
#define UA_EW_WARP_MAX_SLOTS 32
#define UA_EW_WARP_CHAIN_ROW (32 * UA_EW_WARP_MAX_SLOTS)
#define UA_EW_WARP_REDUCE_ROW 1024
/* The local memory a group of a chain keeps its row in, where the
 * registers do not hold it. */
#define UA_EW_CHAIN_LOCAL_BYTES 32768
/* The groups of the rows kernels of ua_ew_variant_rows_for: a chain's
 * group a row, and the others (a warp a row, a reduction's group a row);
 * the fastest of 128, 256 and 512 on the H200 (BENCH=rows). */
#define UA_EW_ROWS_GROUP_CHAIN 256
#define UA_EW_ROWS_GROUP_SMALL 128
/* A chain over one row (all the values of a variance): the group the
 * whole row shares; of 128, 256 and 1,024 on the H100 (BENCH=per_call),
 * the fastest for 4,096 to 32,768 values (6.8 us a call of 32,768, 8.8
 * with 256) and 0.6 us behind 128 for 1,000. */
#define UA_EW_ROWS_GROUP_ONE_ROW 1024

/* The variant of a plan, with vectors of up to max_vector bytes where the
 * pointers allow (1 to have none): along the contiguous path, or along the
 * strided path's last axis where every operand has it dense. */
void ua_ew_variant_of_plan(const ua_elementwise_plan *p, size_t max_vector,
                           ua_ew_variant *v);
/* How a backend takes a plan's rows in groups of their own size (v->group,
 * elementwise_rows.c): a warp a row where the dialect shuffles and the
 * rows are short enough (USMARRAY_WARP_ROWS, the longest row a warp
 * takes, sets both bounds; 0 keeps a group a row), else a group a row, a
 * chain's row in its threads' registers or, with `local`, in the group's
 * local memory where it fits.  The threads a row takes (32 or the group),
 * 0 where the plan has no rows.  Without it, ua_ew_variant_of_plan
 * assumes groups of UA_EW_CHAIN_THREADS, neither warps nor local memory. */
int ua_ew_variant_rows_for(const ua_elementwise_plan *p, ua_ew_variant *v,
                           bool shuffles, bool local);
/* The registers a thread of a group of `group` keeps a chain's row of
 * `row` elements in (UA_CHAIN_SLOTS), or 0 where they do not hold it. */
int ua_ew_chain_slots(ptrdiff_t row, int group);
/* Whether a chain whose group keeps its row (registers or local memory)
 * keeps the last reducing phase's values in the row's place for its last
 * phase, which reads its operand only through them (softmax's exp(x -
 * max) / sum: the exp and the subtraction not computed twice); then *rest
 * is the last phase's other nodes, the kept value its operand a. */
bool ua_ew_chain_keeps_value(const ua_ew_variant *v, ua_fused_expr *rest);
/* Elements per vector along the last axis of a plan of the strided path:
 * e > 1 where that axis is dense in the output and in every operand not
 * scalar, its length a multiple of e, and every pointer and every other
 * step a multiple of e elements of its type (rows of a matrix with a row
 * broadcast, or slices of rows).  A kernel then takes the last axis e
 * elements at a time: its length divided by e, its steps multiplied. */
int ua_ew_row_vector(const ua_elementwise_plan *p, size_t max_vector);
/* Distinct variants give distinct keys (a hash table's key). */
uint64_t ua_ew_variant_key(const ua_ew_variant *v);

/* A run-time compiled language: its header (before the GPU layer's
 * dialect: c64, c128, float16 helpers named by cvt, and the backend's
 * choices of UA_THREADS, UA_UNROLL or UA_ONE_PER_ITEM), the dialect
 * (dialect_cuda.inc or dialect_opencl.inc), how its conversions are spelt
 * (cvt), its storage types, and whether its math library names float
 * functions with an f suffix (C, CUDA) or overloads them (OpenCL).  Texts
 * are NULL-ended arrays of parts. */
typedef struct ua_ew_language {
    const char *const *header;
    const char *const *dialect;
    ua_kernel_dialect cvt;
    const char *(*storage)(ua_typenum t);
    bool float_suffix;
} ua_ew_language;

/* The kernel's plan, the text's ewplan, with room for D axes: UA_EW_SMALL_DIMS
 * on the contiguous and strided paths, UA_EW_GENERAL_DIMS on the general
 * one (on the 64-bit devices the backends run, a pointer is 8 bytes).
 * A backend passes it by value where the language passes a struct, in
 * device-visible memory where it passes a pointer (PLAN_ARG). */
#define UA_EW_PLAN(D)                                                         \
    struct {                                                                  \
        char *out;                                                            \
        const char *in[UA_EW_MAX_OPERANDS];                                   \
        unsigned long long sv[2 * UA_EW_MAX_OPERANDS];                        \
        long long n;                                                          \
        int nd;                                                               \
        int finish;                                                           \
        long long shape[D], ostep[D], step[UA_EW_MAX_OPERANDS][D];            \
    }
typedef UA_EW_PLAN(UA_EW_SMALL_DIMS) ua_ew_small_plan;
typedef UA_EW_PLAN(UA_EW_GENERAL_DIMS) ua_ew_general_plan;
typedef union ua_ew_plan {
    ua_ew_small_plan small;
    ua_ew_general_plan general;
} ua_ew_plan;

_Static_assert(sizeof(void *) == 8 && UA_EW_MAX_OPERANDS == 3 &&
                   offsetof(ua_ew_small_plan, n) == 80 &&
                   offsetof(ua_ew_small_plan, shape) == 96 &&
                   offsetof(ua_ew_small_plan, finish) == 92 &&
                   offsetof(ua_ew_general_plan, shape) == 96,
               "the elementwise plan is the text's ewplan");

/* Fills the kernel's plan of p for variant v (the strided path's last
 * axis in vectors where v has them) and gives its size in bytes: the
 * general path's or the small one's. */
size_t ua_ew_plan_fill(const ua_elementwise_plan *p, const ua_ew_variant *v,
                       ua_ew_plan *plan);

/* A reduction of all the values (v->reduce, not v->rows) is two launches
 * of its kernel: UA_EW_REDUCE_PARTS groups write their partials to
 * `parts` (UA_EW_REDUCE_PARTS doubles of the device's memory) under
 * *plan, then one group reduces them into the plan's out under *finish
 * (the text's PLAN->finish), of the same threads a group. */
void ua_ew_plan_reduce_in_two(ua_ew_plan *plan, ua_ew_plan *finish,
                              void *parts);

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

/* Its parts of the catalogue's expressions (expression_source.c): the
 * expression of function f as C text over operands a, b, c; and, appended
 * to t, ua_eval of v's fused expression (its ua_constant, and for a rows
 * reduction UA_REDUCE_POST) or each phase of v's chain (UA_PHASE<p>,
 * UA_PHASE_OP<p>, UA_CHAIN_ROWS, UA_PHASEL, UA_REDUCE_POST, and where the
 * chain keeps a value UA_CHAIN_KEPT, UA_CHAIN_LAST_KEPT and
 * UA_KEPT_VALUE). */
const char *ua_ew_expression(ua_ew_id f);
struct ua_gpu_text;
void ua_ew_add_fused_eval(struct ua_gpu_text *t, const ua_ew_variant *v);

#endif
