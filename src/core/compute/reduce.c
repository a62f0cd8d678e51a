/* Reductions and scans, planned once for every backend by the iteration
 * planner (layout/iter_plan.h): the kept axes (length-1 ones dropped,
 * ordered by decreasing step in x, neighbours merged) become the plan's
 * outer axes, and the reduced axes one run.
 * Where the reduced axes do not merge into one run of memory, x is first
 * copied into a dense temporary with them last.  Sorting is planned here
 * too: rows along the sorted axis, made dense where they are not. */
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/compute/reduce.h"
#include "core/devices/devices.h"
#include "core/layout/iter_plan.h"

/* The kept axes of a plan of x (operand 0) and the result (operand 1) as
 * the kernel's outer axes. */
static void
take_kept_axes(const ua_iter_plan *walk, int *nd, ptrdiff_t *shape,
               ptrdiff_t *xstep, ptrdiff_t *rstep)
{
    *nd = walk->nd - walk->nreduced;
    size_t bytes = (size_t)*nd * sizeof *shape;
    memcpy(shape, walk->shape, bytes);
    memcpy(xstep, walk->steps[0], bytes);
    memcpy(rstep, walk->steps[1], bytes);
}

/* The plan of x over (nd, shape, xstrides) into a result of that shape
 * (rstrides), axes ordered by x's steps: the outer axes of scans and of
 * reductions over a dense copy. */
static ua_status
plan_outer(const char *fn, int nd, const ptrdiff_t *shape,
           const ptrdiff_t *xstrides, ua_typenum xtype,
           const ptrdiff_t *rstrides, ua_typenum rtype, ua_iter_plan *walk)
{
    ua_iter_operand io[2] = {{UA_ITER_INPUT, nd, shape, xstrides,
                              (ptrdiff_t)ua_dtype_itemsize(xtype)},
                             {UA_ITER_OUTPUT, nd, shape, rstrides,
                              (ptrdiff_t)ua_dtype_itemsize(rtype)}};
    return ua_iter_plan_make(fn, 2, io, 0, UA_ITER_BY_STEPS, walk);
}

static bool
needs_elements(ua_reduce_op op)
{
    return op == UA_REDUCE_MIN || op == UA_REDUCE_MAX ||
           op == UA_REDUCE_ARGMIN || op == UA_REDUCE_ARGMAX;
}

static const char *
op_name(ua_reduce_op op)
{
    switch (op) {
    case UA_REDUCE_MIN:
        return "minimum";
    case UA_REDUCE_MAX:
        return "maximum";
    case UA_REDUCE_ARGMIN:
        return "argmin";
    default:
        return "argmax";
    }
}

/* x copied into a dense temporary, kept axes first (C order), then the
 * reduced ones; the plan's steps then walk it. */
static ua_status
densify(ua_queue *q, const ua_reduce_request *r, ua_reduce_plan *p,
        ua_allocation **tmp)
{
    ptrdiff_t shape[UA_MAXDIMS], src[UA_MAXDIMS], dense[UA_MAXDIMS];
    int n = 0, kept = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < r->nd; k++) {
            if ((int)(r->axes >> k & 1) == pass) {
                shape[n] = r->shape[k];
                src[n] = r->x.strides[k];
                n++;
            }
        }
        kept = pass == 0 ? n : kept;
    }
    ua_layout_default_strides(n, shape, 'C', dense);
    size_t xsz = ua_dtype_itemsize(r->x.type);
    ptrdiff_t size;
    ua_layout_size(n, shape, &size);
    ua_status st = ua_usm_alloc(q, UA_USM_DEVICE, (size_t)size * xsz, 0, tmp);
    if (st != UA_OK) {
        return st;
    }
    ua_strided d = {ua_allocation_ptr(*tmp), dense, r->x.type};
    ua_strided s = {r->x.data, src, r->x.type};
    st = ua_queue_copy_strided(q, n, shape, &d, &s);
    p->x = d.data;
    p->step = (ptrdiff_t)xsz;
    /* The kept axes walk the temporary by its dense strides. */
    ua_iter_plan walk;
    if (st == UA_OK) {
        st = plan_outer("reduction", kept, shape, dense, r->x.type,
                        r->result.strides, r->result.type, &walk);
    }
    if (st == UA_OK) {
        take_kept_axes(&walk, &p->nd, p->shape, p->xstep, p->rstep);
    }
    return st;
}

ua_typenum
ua_accumulator_of(ua_typenum t)
{
    switch (ua_dtype_kind(t)) {
    case 'b':
        return UA_BOOL;
    case 'i':
        return UA_INT64;
    case 'u':
        return UA_UINT64;
    default:
        return t == UA_FLOAT16 ? UA_FLOAT32 : t;
    }
}

/* The result over x's axes as the planner takes it: length 1, and no
 * step, along the reduced axes (NumPy's keepdims). */
static void
keepdims(const ua_reduce_request *r, ptrdiff_t *shape, ptrdiff_t *strides)
{
    for (int k = 0, j = 0; k < r->nd; k++) {
        bool reduced = r->axes >> k & 1;
        shape[k] = reduced ? 1 : r->shape[k];
        strides[k] = reduced ? 0 : r->result.strides[j++];
    }
}

ua_status
ua_queue_reduce(ua_queue *q, const ua_reduce_request *r)
{
    ua_status fits = ua_layout_check_ndim("reduction", r->nd);
    if (fits != UA_OK) {
        return fits;
    }
    ptrdiff_t xsz = (ptrdiff_t)ua_dtype_itemsize(r->x.type);
    ptrdiff_t rshape[UA_MAXDIMS], rstrides[UA_MAXDIMS];
    keepdims(r, rshape, rstrides);
    ua_iter_operand io[2] = {
        {UA_ITER_INPUT, r->nd, r->shape, r->x.strides, xsz},
        {UA_ITER_REDUCED, r->nd, rshape, rstrides,
         (ptrdiff_t)ua_dtype_itemsize(r->result.type)}};
    /* argmin and argmax count positions in C order over the reduced
     * axes: those keep their order. */
    bool positions = r->op == UA_REDUCE_ARGMIN || r->op == UA_REDUCE_ARGMAX;
    ua_iter_plan walk;
    ua_status st = ua_iter_plan_make(
        "reduction", 2, io, 0,
        positions ? UA_ITER_KEEP_REDUCED_ORDER : UA_ITER_BY_STEPS, &walk);
    if (st != UA_OK || walk.size == 0) {
        return st;
    }
    if (walk.count == 0 && needs_elements(r->op)) {
        return ua_error_set(UA_ERR_VALUE,
                            "zero-size array to reduction operation %s "
                            "which has no identity",
                            op_name(r->op));
    }
    ua_reduce_plan p;
    memset(&p, 0, sizeof p);
    p.op = r->op;
    p.n = walk.count;
    p.x = r->x.data;
    p.result = r->result.data;
    p.xtype = r->x.type;
    p.rtype = r->result.type;
    p.correction = r->correction;
    take_kept_axes(&walk, &p.nd, p.shape, p.xstep, p.rstep);
    p.step = walk.nreduced == 1 ? walk.steps[0][p.nd] : xsz;
    ua_allocation *tmp = NULL;
    if (walk.nreduced > 1 && walk.count > 0) {
        st = densify(q, r, &p, &tmp);
    }
    const ua_compute_ops *k = NULL;
    if (st == UA_OK) {
        st = ua_queue_compute_kernels(q, &k);
    }
    if (st == UA_OK) {
        st = k->reduce(q->handle, &p);
    }
    if (tmp != NULL) {
        ua_usm_free(tmp);
    }
    return st;
}

ua_status
ua_queue_scan(ua_queue *q, ua_scan_op op, int nd, const ptrdiff_t *shape,
              const ua_strided *x, int axis, int initial,
              const ua_strided *result)
{
    ua_status fits = ua_layout_check_ndim("scan", nd);
    if (fits != UA_OK) {
        return fits;
    }
    if (op == UA_SCAN_LOGSUMEXP && ua_dtype_kind(result->type) != 'f') {
        return ua_error_set(UA_ERR_TYPE,
                            "cumulative_logsumexp: the result is %s, not a "
                            "real floating dtype",
                            ua_dtype_name(result->type));
    }
    ptrdiff_t xsz = (ptrdiff_t)ua_dtype_itemsize(x->type);
    ptrdiff_t rsz = (ptrdiff_t)ua_dtype_itemsize(result->type);
    ptrdiff_t oshape[UA_MAXDIMS], xs[UA_MAXDIMS], rs[UA_MAXDIMS];
    int n_outer = 0;
    for (int k = 0; k < nd; k++) {
        if (k != axis) {
            oshape[n_outer] = shape[k];
            xs[n_outer] = x->strides[k];
            rs[n_outer++] = result->strides[k];
        }
    }
    ptrdiff_t n = shape[axis];
    ptrdiff_t outn = op == UA_SCAN_DIFF ? n - 1 : n + initial;
    ua_iter_plan walk;
    ua_status st = plan_outer("scan", n_outer, oshape, xs, x->type, rs,
                              result->type, &walk);
    if (st != UA_OK || walk.size == 0 || outn <= 0) {
        return st;
    }
    ua_scan_plan p;
    memset(&p, 0, sizeof p);
    p.op = op;
    take_kept_axes(&walk, &p.nd, p.shape, p.xstep, p.rstep);
    p.n = n;
    p.step = x->strides[axis] * xsz;
    p.rstep_axis = result->strides[axis] * rsz;
    p.initial = initial;
    p.x = x->data;
    p.result = result->data;
    p.xtype = x->type;
    p.rtype = result->type;
    const ua_compute_ops *k = NULL;
    st = ua_queue_compute_kernels(q, &k);
    return st != UA_OK ? st : k->scan(q->handle, &p);
}

ua_status
ua_queue_search(ua_queue *q, const ua_search_plan *p)
{
    const ua_compute_ops *k = NULL;
    ua_status st = p->m == 0 ? UA_OK : ua_queue_compute_kernels(q, &k);
    return st != UA_OK || p->m == 0 ? st : k->search(q->handle, p);
}

ua_status
ua_queue_group(ua_queue *q, const ua_group_plan *p, ptrdiff_t *count)
{
    *count = 0;
    const ua_compute_ops *k = NULL;
    ua_status st = p->n == 0 ? UA_OK : ua_queue_compute_kernels(q, &k);
    return st != UA_OK || p->n == 0 ? st : k->group(q->handle, p, count);
}

void
ua_queue_prepare(ua_queue *q, const ua_prepare_item *items, int n)
{
    const ua_compute_ops *k = ua_queue_compute_table(q);
    if (k != NULL && k->prepare != NULL && n > 0 &&
        k->prepare(q->handle, items, n) != UA_OK) {
        ua_error_clear();
    }
}

ua_status
ua_queue_matmul(ua_queue *q, ua_matmul_plan *p)
{
    ua_status fits = ua_layout_check_ndim("matmul", p->nd);
    if (fits != UA_OK) {
        return fits;
    }
    if (p->m == 0 || p->n == 0) {
        return UA_OK;
    }
    /* The batch axes in their own order (the steps are bytes already). */
    ua_iter_operand io[3] = {{UA_ITER_INPUT, p->nd, p->shape, p->astep, 1},
                             {UA_ITER_INPUT, p->nd, p->shape, p->bstep, 1},
                             {UA_ITER_OUTPUT, p->nd, p->shape, p->cstep, 1}};
    ua_iter_plan walk;
    ua_status planned =
        ua_iter_plan_make("matmul", 3, io, 2, UA_ITER_KEEP_ORDER, &walk);
    if (planned != UA_OK || walk.size == 0) {
        return planned;
    }
    ua_iter_plan_export(&walk, &p->nd, p->shape,
                        (ptrdiff_t *const[]){p->astep, p->bstep, p->cstep});
    const ua_compute_ops *k = NULL;
    ua_status st = ua_queue_compute_kernels(q, &k);
    return st != UA_OK ? st : k->matmul(q->handle, p);
}
