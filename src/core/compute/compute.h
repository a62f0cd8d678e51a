/* Computing on arrays of a queue: what the binding asks of the core, which
 * plans the work and runs it on the queue's backend through its
 * compute-kernel table (compute/kernels.h). */
#ifndef USMARRAY_CORE_COMPUTE_COMPUTE_H
#define USMARRAY_CORE_COMPUTE_COMPUTE_H

#include "core/compute/kernels.h"
#include "core/compute/promote.h"
#include "core/core.h"

/* An array indexed by integer arrays (NumPy's advanced indexing, take):
 * the array x (strides in elements), and `count` index arrays of int64
 * that index its axes axes[0..count) (distinct), given as strided views of
 * their common broadcast shape bshape (strides in elements, 0 where
 * broadcast).  The result's axes are x's other axes in order, with the
 * bnd axes of bshape inserted before the position-th of them. */
typedef struct ua_index_request {
    char *data;
    int nd;
    const ptrdiff_t *shape;
    const ptrdiff_t *strides;
    size_t itemsize;
    int count;
    const int *axes;
    const ua_strided *index;
    int bnd;
    const ptrdiff_t *bshape;
    int position;
} ua_index_request;

/* The result's shape: *nd axes into shape (UA_MAXDIMS long).  UA_ERR_VALUE
 * past UA_MAXDIMS axes or for a result too large to address. */
ua_status ua_index_result_shape(const ua_index_request *r, int *nd,
                                ptrdiff_t *shape);
/* result (of r's result shape, x's type, strides in elements) <- x[...].
 * UA_ERR_INDEX names an index out of bounds, its axis and the axis's
 * length; it waits for the queue only then, to read the kernels' flag. */
ua_status ua_queue_gather(ua_queue *q, const ua_index_request *r,
                          const ua_strided *result);
/* x[...] <- values (of r's result shape, x's type; strides 0 where
 * broadcast). */
ua_status ua_queue_scatter(ua_queue *q, const ua_index_request *r,
                           const ua_strided *values);

/* result[i] <- x[i with i[axis] replaced by index[i]] over shape (x's
 * strides 0 along its broadcast axes and along axis, whose length and
 * stride in elements are given apart). */
ua_status ua_queue_take_along_axis(ua_queue *q, int nd, const ptrdiff_t *shape,
                                   const ua_strided *x, int axis,
                                   ptrdiff_t length, ptrdiff_t stride,
                                   const ua_strided *index,
                                   const ua_strided *result);

/* The backend's kernels, through the queue's table. */
ua_status ua_queue_compress(ua_queue *q, const ua_compress_plan *p,
                            ua_compress_output out, void *ctx, size_t *count);
ua_status ua_queue_affine(ua_queue *q, const ua_affine_plan *p);
ua_status ua_queue_band(ua_queue *q, const ua_band_plan *p);

/* ------------------------------------------------------- elementwise */

/* One operand of an elementwise function: an array (its zero-index
 * element, nd, shape, strides in elements and dtype), or, where is_scalar,
 * a Python scalar of `kind` whose value is in the matching member (an int
 * in i, or in u where it exceeds INT64_MAX and `positive`; one outside
 * both int64 and uint64 is `huge`, its nearest double in f and its sign in
 * `positive`), which promotes weakly (NEP 50), or, where also `strong`, a
 * NumPy scalar, which promotes as an array of dtype `type` does. */
typedef struct ua_ew_operand {
    bool is_scalar;
    bool strong;
    ua_scalar_kind kind;
    bool positive; /* an int scalar held in u, or a huge positive one */
    bool huge;     /* an int scalar no integer dtype holds */
    union {
        bool b;
        int64_t i;
        uint64_t u;
        double f;
        double c[2];
    } value;
    char *data;
    int nd;
    const ptrdiff_t *shape;
    const ptrdiff_t *strides;
    ua_typenum type;
} ua_ew_operand;

/* What an elementwise call computes: the types of the catalogue's rule and
 * the broadcast shape of the operands. */
typedef struct ua_ew_resolved {
    ua_ew_id function;
    int nin;
    ua_typenum compute;
    ua_typenum out_type;
    int nd;
    ptrdiff_t shape[UA_MAXDIMS];
    const ua_fused_expr *fused; /* in place of `function`, or NULL */
} ua_ew_resolved;

/* The catalogue's entries, by id. */
const char *ua_ew_name(ua_ew_id f);
int ua_ew_arity(ua_ew_id f);
ua_ew_rule ua_ew_rule_of(ua_ew_id f);
unsigned ua_ew_kinds(ua_ew_id f);
/* t's kind as a UA_EW_K_* bit, which ua_ew_kinds' masks hold. */
unsigned ua_ew_kind_bit(ua_typenum t);
/* Looks a function up by name; false when the catalogue has none. */
bool ua_ew_find(const char *name, ua_ew_id *f);

/* Checks the operands (nin, the function's arity) against the function's
 * kinds (UA_ERR_TYPE naming the function and the dtype), resolves the
 * types (defaults: the device's default dtypes, for scalars) and
 * broadcasts the shapes (UA_ERR_VALUE naming both where they do not). */
ua_status ua_elementwise_resolve(ua_ew_id f, int nin, const ua_ew_operand *ops,
                                 const ua_default_dtypes *defaults,
                                 ua_ew_resolved *r);
/* ua_elementwise_resolve for an in-place call whose result goes into an
 * array of dtype `into` (x op= y): where the operands' result type is not
 * `into`, the call computes in `into` instead when each operand's dtype
 * (a Python scalar's, as it promotes with `into`) casts to it by NumPy's
 * "same_kind" rule and the function's rule gives `into` for it, as
 * dpctl's in-place operators do; UA_ERR_VALUE naming the dtypes where
 * not. */
ua_status ua_elementwise_resolve_into(ua_ew_id f, int nin,
                                      const ua_ew_operand *ops,
                                      const ua_default_dtypes *defaults,
                                      ua_typenum into, ua_ew_resolved *r);
/* A fused expression over nin operands (arrays of dtype `compute` and
 * Python scalars) resolved for ua_queue_elementwise: each node checked
 * (its arity, that it takes `compute`, which it then computes in, and
 * that only a selection's condition reads a predicate), the operands
 * broadcast; the result's dtype is `compute`'s, or bool where the last
 * node is a predicate.  UA_ERR_TYPE or UA_ERR_VALUE naming the node
 * otherwise.  e must outlive the call. */
ua_status ua_fused_resolve(const ua_fused_expr *e, int nin,
                           const ua_ew_operand *ops, ua_typenum compute,
                           ua_ew_resolved *r);
/* Whether q's elementwise calls run compiled kernels (CUDA, SYCL GPUs, a
 * SYCL CPU device under USMARRAY_DEVICE_KERNELS=1), which take fused
 * expressions; the host's loops do not. */
bool ua_queue_compiles_elementwise(const ua_queue *q);
/* The kernel's plan of r over ops into out (its shape and out_type), the
 * axes walked by the operands' steps (elementwise.c). */
ua_status ua_elementwise_plan_of(const ua_ew_resolved *r,
                                 const ua_ew_operand *ops,
                                 const ua_strided *out,
                                 ua_elementwise_plan *p);
/* The values of fused expression r (float32 or float64) reduced: op a
 * UA_EW_REDUCE_* (kernels.h; UA_EW_REDUCE_MEAN: the sum rounded to r's
 * type, then divided by the count in that type, as the eager mean).
 * Where row is 0, all of them: out receives their one value of r's type;
 * the arrays have r's shape, dense in one memory order.  Where row > 0,
 * rows of row elements in C order (their axes end r's shape): out
 * receives one value of r's type a row, and each array, dense in C
 * order, has r's shape or one element a row (r's shape with 1 along the
 * row's axes: a reduction's kept dimensions).  The values hold at least
 * one element.  A device that runs the host's loops reduces all the
 * values, or rows that divide them, its arrays of any layout and
 * broadcast, with no post.  post (else NULL): an expression of one input
 * of r's type, each value's before it is written. */
ua_status ua_queue_fused_reduce(ua_queue *q, const ua_ew_resolved *r,
                                const ua_ew_operand *ops, int op,
                                ptrdiff_t row, const ua_fused_expr *post,
                                char *out);
/* The plans of the kernels that ua_queue_fused_reduce,
 * ua_queue_fused_chain and a fused expression's ua_queue_elementwise (into
 * a new result, laid out as ua_elementwise_result_strides says) would
 * launch on a device that compiles them, after the same checks, their
 * result's pointer NULL; the chain's key is set.  For
 * ua_queue_fused_prepare. */
ua_status ua_fused_reduce_plan(const ua_ew_resolved *r,
                               const ua_ew_operand *ops, int op, ptrdiff_t row,
                               const ua_fused_expr *post,
                               ua_elementwise_plan *p);
ua_status ua_fused_chain_plan(ua_fused_chain *c, const ua_ew_operand *ops,
                              int nin, ua_typenum compute, ptrdiff_t row,
                              const ua_fused_expr *post,
                              ua_elementwise_plan *p);
ua_status ua_fused_elementwise_plan(const ua_ew_resolved *r,
                                    const ua_ew_operand *ops,
                                    ua_elementwise_plan *p);
/* Compiles, where q's device compiles kernels and lacks them, the kernels
 * of plans (at most UA_FUSED_PREPARE_MAX; the rest are left to their
 * calls) side by side: a call of several fused kernels (a variance's
 * mean, then its squares' mean) waits once for the compiler rather than
 * once a kernel.  A failure is left for the calls to meet and report. */
#define UA_FUSED_PREPARE_MAX 6
void ua_queue_fused_prepare(ua_queue *q, const ua_elementwise_plan *plans,
                            int n);
/* Chain c (kernels.h) over operands ops (nin of them, computing in
 * compute) into out, the last phase's values of the operands' broadcast
 * shape, dense in C order, or where that phase reduces its row value a
 * row, through post (else NULL): a group a row of row elements (the
 * values' last axes), each array dense in C order of the values' shape.
 * Sets c->key.  A device that compiles nothing refuses
 * (UA_ERR_UNAVAILABLE). */
ua_status ua_queue_fused_chain(ua_queue *q, ua_fused_chain *c,
                               const ua_ew_operand *ops, int nin,
                               ua_typenum compute, ptrdiff_t row,
                               const ua_fused_expr *post, char *out);
/* Sets e->key from its nodes, its constants and the computation type t,
 * which the kernels of the expression are cached under. */
void ua_fused_seal(ua_fused_expr *e, ua_typenum t);
/* A Python scalar's bits as dtype t (as a scalar operand travels), into
 * out (16 bytes). */
ua_status ua_fused_constant_bits(const ua_ew_operand *o, ua_typenum t,
                                 unsigned long long *bits);
/* Rewrites a resolved call into a cheaper one with the same result
 * (r's function and ops; the types and shape stay): x ** 2 as x * x. */
void ua_elementwise_rewrite(ua_ew_resolved *r, ua_ew_operand *ops);
/* Dense strides (elements) of a result of r's shape in order 'K': the
 * memory order of the operands, as NumPy lays out a new result
 * (layout/iter_plan.h, ua_iter_result_strides). */
void ua_elementwise_result_strides(const ua_ew_resolved *r,
                                   const ua_ew_operand *ops,
                                   ptrdiff_t *strides);
/* out (r's shape and out_type, UA_ERR_TYPE otherwise; strides in
 * elements) <- the function of the operands, on q's backend.  out may be
 * one of the operands (in-place): other operands that overlap it are read
 * as they were before the call.  Returns without waiting, except where a
 * temporary was needed (an overlapping operand's copy, or the mask of a
 * comparison of signed integers with uint64, which runs in three steps). */
ua_status ua_queue_elementwise(ua_queue *q, const ua_ew_resolved *r,
                               const ua_ew_operand *ops,
                               const ua_strided *out);

#endif
