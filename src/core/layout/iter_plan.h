/* The iteration planner: how every computation of the core walks its
 * operands.  Operands come in with their roles; the planner broadcasts
 * their shapes, drops length-1 axes, orders the axes by one operand's
 * strides, merges neighbours that every operand walks as one, keeps the
 * axes reduced into an operand apart from the kept ones, and tells
 * whether every byte offset fits in 32 bits.  It also chooses the layout
 * of a result of order 'K'.  Kernels then see a few plain steps in
 * bytes; how a GPU launch covers them is the GPU layer's business. */
#ifndef USMARRAY_CORE_LAYOUT_ITER_PLAN_H
#define USMARRAY_CORE_LAYOUT_ITER_PLAN_H

#include "core/core.h"

/* A copy has two operands, an elementwise function up to four. */
#define UA_ITER_MAX_OPERANDS 4

typedef enum ua_iter_role {
    /* Read; broadcast against the others (a Python scalar is an input of
     * no axes). */
    UA_ITER_INPUT,
    /* Written; of the whole shape. */
    UA_ITER_OUTPUT,
    /* Written by a reduction: of the whole shape, save length 1 along the
     * axes reduced into it (NumPy's keepdims), where its strides do not
     * matter. */
    UA_ITER_REDUCED
} ua_iter_role;

/* An operand's layout, aligned with the last nd axes of the whole shape.
 * Strides count elements; the plan's steps count bytes. */
typedef struct ua_iter_operand {
    ua_iter_role role;
    int nd;
    const ptrdiff_t *shape;
    const ptrdiff_t *strides;
    ptrdiff_t itemsize;
} ua_iter_operand;

/* How the planner orders the axes. */
typedef enum ua_iter_order {
    /* By decreasing |step| of the ordering operand, reduced axes too. */
    UA_ITER_BY_STEPS,
    /* Kept axes so; reduced axes in their own order (positions that
     * argmin and argmax count in C order). */
    UA_ITER_KEEP_REDUCED_ORDER,
    /* Every axis in its own order (where duplicate indices decide which
     * write wins). */
    UA_ITER_KEEP_ORDER
} ua_iter_order;

/* The plan: nd axes, the kept ones first and the last nreduced those
 * reduced into a UA_ITER_REDUCED operand (each of them 0 steps there).
 * No axis has length 1; none of the kept ones merges with a reduced one.
 * size counts the elements of the kept axes, count those of the reduced
 * ones (1 where none); either may be 0, and nothing is dropped for it.
 * Where fits32, every byte offset that each operand's steps reach, plus
 * an element of up to 16 bytes, and size * count fit in int32. */
typedef struct ua_iter_plan {
    int nop;
    int nd;
    int nreduced;
    bool fits32;
    ptrdiff_t size;
    ptrdiff_t count;
    ptrdiff_t shape[UA_MAXDIMS];
    ptrdiff_t steps[UA_ITER_MAX_OPERANDS][UA_MAXDIMS];
} ua_iter_plan;

/* The shape the operands broadcast to (NumPy's rules; an output takes
 * part as an input does): *nd axes into shape (UA_MAXDIMS long).
 * UA_ERR_VALUE, naming fn, past UA_MAXDIMS axes or where two lengths
 * differ and neither is 1. */
ua_status ua_iter_broadcast(const char *fn, int nop,
                            const ua_iter_operand *ops, int *nd,
                            ptrdiff_t *shape);

/* Plans the walk of nop operands (at most UA_ITER_MAX_OPERANDS) over the
 * shape they broadcast to, the axes ordered by operand order_by's steps
 * (ignored under UA_ITER_KEEP_ORDER).  UA_ERR_VALUE, naming fn, where the
 * shapes do not broadcast, an output's shape is not the whole shape, the
 * whole shape is too large to address, or an operand's strides reach
 * beyond addressable memory. */
ua_status ua_iter_plan_make(const char *fn, int nop,
                            const ua_iter_operand *ops, int order_by,
                            ua_iter_order order, ua_iter_plan *p);

/* The plan's axes as a kernel's plan holds them: *nd, their lengths into
 * shape and operand k's steps into steps[k], for each of p's operands. */
void ua_iter_plan_export(const ua_iter_plan *p, int *nd, ptrdiff_t *shape,
                         ptrdiff_t *const *steps);

/* The bytes operand k reaches, relative to its first element: from *lo
 * (<= 0) to *hi (>= 0), that last element's own bytes not counted.  0, 0
 * for a plan of no elements. */
void ua_iter_plan_reach(const ua_iter_plan *p, int k, ptrdiff_t *lo,
                        ptrdiff_t *hi);

/* Whether writing operand 0 (at out, elements of osize bytes) could change
 * operand k (at in, of isize) before a walk reads it: their bytes meet,
 * and they are not the same elements in the same layout and size (which
 * an elementwise kernel reads before it writes). */
bool ua_iter_plan_write_meets(const ua_iter_plan *p, int k, const char *out,
                              ptrdiff_t osize, const char *in,
                              ptrdiff_t isize);

/* Dense strides (elements) for a result of the inputs' shape (nd,
 * shape) laid out in order 'K', as NumPy's iterator lays out an output:
 * axes ordered by the inputs' strides, a pair of axes decided by the
 * inputs that step along both (C order wins where they disagree, and
 * where none does).  Broadcast axes step along nothing.  Past UA_MAXDIMS
 * axes, C order. */
void ua_iter_result_strides(int nop, const ua_iter_operand *ops, int nd,
                            const ptrdiff_t *shape, ptrdiff_t *strides);

#endif
