/* Reductions and scans, planned once for every backend: the kept axes
 * (length-1 ones dropped, ordered by decreasing step in x, neighbours
 * merged) become the plan's outer axes, and the reduced axes one run.
 * Where the reduced axes do not merge into one run of memory, x is first
 * copied into a dense temporary with them last.  Sorting is planned here
 * too: rows along the sorted axis, made dense where they are not. */
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/compute/reduce.h"
#include "core/devices/devices.h"

static ptrdiff_t
magnitude(ptrdiff_t v)
{
    return v < 0 ? -v : v;
}

/* Axes with their steps in x (and in the result, where there is one). */
typedef struct axis_set {
    int n;
    ptrdiff_t shape[UA_MAXDIMS], xstep[UA_MAXDIMS], rstep[UA_MAXDIMS];
} axis_set;

static void
add_axis(axis_set *s, ptrdiff_t len, ptrdiff_t xstep, ptrdiff_t rstep)
{
    s->shape[s->n] = len;
    s->xstep[s->n] = xstep;
    s->rstep[s->n] = rstep;
    s->n++;
}

/* Length-1 axes dropped, the rest ordered by decreasing step in x
 * (stable) where reorder, and neighbours that walk x and the result as
 * one merged. */
static void
simplify(axis_set *s, bool reorder)
{
    axis_set t = {0};
    for (int j = 0; j < s->n; j++) {
        if (s->shape[j] != 1) {
            add_axis(&t, s->shape[j], s->xstep[j], s->rstep[j]);
        }
    }
    for (int j = 1; reorder && j < t.n; j++) {
        for (int i = j;
             i > 0 && magnitude(t.xstep[i - 1]) < magnitude(t.xstep[i]); i--) {
            axis_set one = {0};
            add_axis(&one, t.shape[i], t.xstep[i], t.rstep[i]);
            t.shape[i] = t.shape[i - 1];
            t.xstep[i] = t.xstep[i - 1];
            t.rstep[i] = t.rstep[i - 1];
            t.shape[i - 1] = one.shape[0];
            t.xstep[i - 1] = one.xstep[0];
            t.rstep[i - 1] = one.rstep[0];
        }
    }
    s->n = 0;
    for (int j = 0; j < t.n; j++) {
        int k = s->n - 1;
        if (k >= 0 && s->xstep[k] == t.xstep[j] * t.shape[j] &&
            s->rstep[k] == t.rstep[j] * t.shape[j]) {
            s->shape[k] *= t.shape[j];
            s->xstep[k] = t.xstep[j];
            s->rstep[k] = t.rstep[j];
        } else {
            add_axis(s, t.shape[j], t.xstep[j], t.rstep[j]);
        }
    }
}

static ptrdiff_t
count_of(const axis_set *s)
{
    ptrdiff_t n = 1;
    for (int j = 0; j < s->n; j++) {
        n *= s->shape[j];
    }
    return n;
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
    ptrdiff_t shape[UA_MAXDIMS], dst[UA_MAXDIMS], src[UA_MAXDIMS];
    ptrdiff_t dense[UA_MAXDIMS];
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < r->nd; k++) {
            if ((int)(r->axes >> k & 1) == pass) {
                shape[n] = r->shape[k];
                src[n] = r->x.strides[k];
                n++;
            }
        }
    }
    ua_layout_default_strides(n, shape, 'C', dense);
    size_t xsz = ua_dtype_itemsize(r->x.type);
    ptrdiff_t size;
    ua_layout_size(n, shape, &size);
    ua_status st = ua_usm_alloc(q, UA_USM_DEVICE, (size_t)size * xsz, 0, tmp);
    if (st != UA_OK) {
        return st;
    }
    for (int k = 0; k < n; k++) {
        dst[k] = dense[k];
    }
    ua_strided d = {ua_allocation_ptr(*tmp), dst, r->x.type};
    ua_strided s = {r->x.data, src, r->x.type};
    st = ua_queue_copy_strided(q, n, shape, &d, &s);
    p->x = d.data;
    p->step = (ptrdiff_t)xsz;
    /* The kept axes walk the temporary by its dense strides. */
    axis_set outer = {0};
    int j = 0;
    for (int k = 0; k < r->nd; k++) {
        if (!(r->axes >> k & 1)) {
            add_axis(&outer, r->shape[k], dense[j] * (ptrdiff_t)xsz,
                     r->result.strides[j] *
                         (ptrdiff_t)ua_dtype_itemsize(r->result.type));
            j++;
        }
    }
    simplify(&outer, true);
    p->nd = outer.n;
    memcpy(p->shape, outer.shape, sizeof outer.shape);
    memcpy(p->xstep, outer.xstep, sizeof outer.xstep);
    memcpy(p->rstep, outer.rstep, sizeof outer.rstep);
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

ua_status
ua_queue_reduce(ua_queue *q, const ua_reduce_request *r)
{
    ua_status fits = ua_layout_check_ndim("reduction", r->nd);
    if (fits != UA_OK) {
        return fits;
    }
    ptrdiff_t xsz = (ptrdiff_t)ua_dtype_itemsize(r->x.type);
    ptrdiff_t rsz = (ptrdiff_t)ua_dtype_itemsize(r->result.type);
    axis_set outer = {0}, inner = {0};
    for (int k = 0, j = 0; k < r->nd; k++) {
        if (r->axes >> k & 1) {
            add_axis(&inner, r->shape[k], r->x.strides[k] * xsz, 0);
        } else {
            add_axis(&outer, r->shape[k], r->x.strides[k] * xsz,
                     r->result.strides[j++] * rsz);
        }
    }
    ptrdiff_t n = count_of(&inner), outputs = count_of(&outer);
    if (outputs == 0) {
        return UA_OK;
    }
    if (n == 0 && needs_elements(r->op)) {
        return ua_error_set(UA_ERR_VALUE,
                            "zero-size array to reduction operation %s "
                            "which has no identity",
                            op_name(r->op));
    }
    /* argmin and argmax count positions in C order over the reduced
     * axes: those keep their order. */
    simplify(&outer, true);
    simplify(&inner, r->op != UA_REDUCE_ARGMIN && r->op != UA_REDUCE_ARGMAX);
    ua_reduce_plan p;
    memset(&p, 0, sizeof p);
    p.op = r->op;
    p.n = n;
    p.x = r->x.data;
    p.result = r->result.data;
    p.xtype = r->x.type;
    p.rtype = r->result.type;
    p.correction = r->correction;
    p.nd = outer.n;
    memcpy(p.shape, outer.shape, sizeof outer.shape);
    memcpy(p.xstep, outer.xstep, sizeof outer.xstep);
    memcpy(p.rstep, outer.rstep, sizeof outer.rstep);
    p.step = inner.n == 1 ? inner.xstep[0] : xsz;
    ua_allocation *tmp = NULL;
    ua_status st = UA_OK;
    if (inner.n > 1 && n > 0) {
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
    ptrdiff_t xsz = (ptrdiff_t)ua_dtype_itemsize(x->type);
    ptrdiff_t rsz = (ptrdiff_t)ua_dtype_itemsize(result->type);
    axis_set outer = {0};
    for (int k = 0; k < nd; k++) {
        if (k != axis) {
            add_axis(&outer, shape[k], x->strides[k] * xsz,
                     result->strides[k] * rsz);
        }
    }
    ptrdiff_t n = shape[axis];
    ptrdiff_t outn = op == UA_SCAN_DIFF ? n - 1 : n + initial;
    if (count_of(&outer) == 0 || outn <= 0) {
        return UA_OK;
    }
    simplify(&outer, true);
    ua_scan_plan p;
    memset(&p, 0, sizeof p);
    p.op = op;
    p.nd = outer.n;
    memcpy(p.shape, outer.shape, sizeof outer.shape);
    memcpy(p.xstep, outer.xstep, sizeof outer.xstep);
    memcpy(p.rstep, outer.rstep, sizeof outer.rstep);
    p.n = n;
    p.step = x->strides[axis] * xsz;
    p.rstep_axis = result->strides[axis] * rsz;
    p.initial = initial;
    p.x = x->data;
    p.result = result->data;
    p.xtype = x->type;
    p.rtype = result->type;
    const ua_compute_ops *k = NULL;
    ua_status st = ua_queue_compute_kernels(q, &k);
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
    int n = 0;
    for (int j = 0; j < p->nd; j++) {
        if (p->shape[j] == 0) {
            return UA_OK;
        }
        if (p->shape[j] == 1) {
            continue;
        }
        if (n > 0 && p->astep[n - 1] == p->astep[j] * p->shape[j] &&
            p->bstep[n - 1] == p->bstep[j] * p->shape[j] &&
            p->cstep[n - 1] == p->cstep[j] * p->shape[j]) {
            p->shape[n - 1] *= p->shape[j];
            p->astep[n - 1] = p->astep[j];
            p->bstep[n - 1] = p->bstep[j];
            p->cstep[n - 1] = p->cstep[j];
            continue;
        }
        p->shape[n] = p->shape[j];
        p->astep[n] = p->astep[j];
        p->bstep[n] = p->bstep[j];
        p->cstep[n] = p->cstep[j];
        n++;
    }
    p->nd = n;
    const ua_compute_ops *k = NULL;
    ua_status st = ua_queue_compute_kernels(q, &k);
    return st != UA_OK ? st : k->matmul(q->handle, p);
}
