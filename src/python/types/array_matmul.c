/* The matrix product of two arrays, for the @ and @= operators and the
 * namespace's matmul, tensordot and vecdot (namespace/linalg.c): NumPy's
 * matmul rules (batches broadcast; a one-dimensional x1 is a row and x2 a
 * column, whose axis the result drops; vecdot's operands are vectors
 * along their last axes), the operands cast to their promoted dtype, then
 * the core's matmul over the batch. */
#include "python/base/pyheaders.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"

#include <string.h>

#include "core/compute/promote.h"
#include "core/compute/reduce.h"

/* x as type t (itself where it is). */
static PyObject *
as_type(ua_state *st, PyObject *x, ua_typenum t)
{
    if (ARR(x)->typenum == (int)t) {
        return Py_NewRef(x);
    }
    return ua_py_array_copy(st, x, t, 'K', base_of(x)->kind,
                            base_of(x)->queue);
}

/* The batch shape a's and b's leading axes broadcast to, and each one's
 * steps (bytes, 0 where broadcast). */
static int
broadcast_batch(PyObject *a, int and, PyObject *b, int bnd, ua_matmul_plan *p)
{
    int nd = and > bnd ? and : bnd;
    for (int k = 0; k < nd; k++) {
        int i = k - (nd - and), j = k - (nd - bnd);
        Py_ssize_t la = i >= 0 ? ARR(a)->shape[i] : 1;
        Py_ssize_t lb = j >= 0 ? ARR(b)->shape[j] : 1;
        if (la != lb && la != 1 && lb != 1) {
            PyErr_Format(PyExc_ValueError,
                         "matmul: the batch axes of shapes %zd and %zd "
                         "cannot be broadcast together (axis %d of the "
                         "batch)",
                         la, lb, k);
            return -1;
        }
        p->shape[k] = la == 1 ? lb : la;
        p->astep[k] =
            la == 1 ? 0
                    : ARR(a)->strides[i] * (ptrdiff_t)ua_py_array_itemsize(a);
        p->bstep[k] =
            lb == 1 ? 0
                    : ARR(b)->strides[j] * (ptrdiff_t)ua_py_array_itemsize(b);
    }
    p->nd = nd;
    return 0;
}

/* Where the product goes: dest (out=, which x1 or x2 must not meet)
 * where given, else a new array in `order` ('C', 'F', 'A' or 'K': dpctl's
 * 'K' and 'A' give 'F' where both operands are F-contiguous and neither
 * is C-contiguous, else 'C'); its dtype, or -1 for the operands'
 * promoted one. */
typedef struct {
    PyObject *dest;
    char order;
    int dtype;
} ua_matmul_into;

/* dtype= of matmul: each operand must cast to it by "same_kind"
 * casting, as dpctl's. */
static int
check_dtype(PyObject *x, const char *which, ua_typenum t)
{
    ua_typenum from = (ua_typenum)ARR(x)->typenum;
    if (from == t || ua_can_cast_same_kind(from, t)) {
        return 0;
    }
    PyErr_Format(PyExc_ValueError,
                 "matmul: input %s cannot be cast from %s to the requested "
                 "dtype %s ('same_kind' casting)",
                 which, ua_dtype_name(from), ua_dtype_name(t));
    return -1;
}

static char
layout_of_product(PyObject *x1, PyObject *x2, char order)
{
    if (order == 'C' || order == 'F') {
        return order;
    }
    int f1 = ARR(x1)->flags, f2 = ARR(x2)->flags;
    bool fortran =
        (f1 & USM_ARRAY_F_CONTIGUOUS) && (f2 & USM_ARRAY_F_CONTIGUOUS) &&
        !(f1 & USM_ARRAY_C_CONTIGUOUS) && !(f2 & USM_ARRAY_C_CONTIGUOUS);
    return fortran ? 'F' : 'C';
}

/* The product of a's and b's matrices over their broadcast batch, into
 * `into`.  With `vectors`, a's and b's last axes are vectors paired up
 * and their other axes all batch: the product of each pair is one
 * element, and no axis of a matrix is ever added (a 64-dimensional
 * operand's batch keeps its 63 axes). */
static PyObject *
product(ua_state *st, PyObject *a, PyObject *b, bool vectors, bool conj_a,
        const ua_matmul_into *into)
{
    PyUSMArrayObject *x = ARR(a), *y = ARR(b);
    bool row = vectors || x->nd == 1, col = vectors || y->nd == 1;
    ptrdiff_t sa = (ptrdiff_t)ua_py_array_itemsize(a);
    ua_matmul_plan p;
    memset(&p, 0, sizeof p);
    p.m = row ? 1 : x->shape[x->nd - 2];
    p.k = x->shape[x->nd - 1];
    ptrdiff_t k2 = col ? y->shape[y->nd - 1] : y->shape[y->nd - 2];
    p.n = col ? 1 : y->shape[y->nd - 1];
    if (p.k != k2) {
        PyErr_Format(PyExc_ValueError,
                     "matmul: x1's last axis has %zd elements but x2's %s "
                     "has %zd",
                     (Py_ssize_t)p.k, col ? "only axis" : "second-to-last",
                     (Py_ssize_t)k2);
        return NULL;
    }
    p.ak = x->strides[x->nd - 1] * sa;
    p.am = row ? 0 : x->strides[x->nd - 2] * sa;
    p.bk = (col ? y->strides[y->nd - 1] : y->strides[y->nd - 2]) * sa;
    p.bn = col ? 0 : y->strides[y->nd - 1] * sa;
    if (broadcast_batch(a, x->nd - (row ? 1 : 2), b, y->nd - (col ? 1 : 2),
                        &p) < 0) {
        return NULL;
    }
    Py_ssize_t shape[UA_MAXDIMS + 2];
    int nd = p.nd;
    memcpy(shape, p.shape, (size_t)nd * sizeof(Py_ssize_t));
    if (!row) {
        shape[nd++] = p.m;
    }
    if (!col) {
        shape[nd++] = p.n;
    }
    ua_usm_kind kind = base_of(a)->kind < base_of(b)->kind ? base_of(a)->kind
                                                           : base_of(b)->kind;
    ua_typenum t = (ua_typenum)x->typenum;
    PyObject *out =
        into->dest != NULL
            ? (ua_py_check_out(st, "matmul", into->dest, nd, shape, t, a) < 0
                   ? NULL
                   : Py_NewRef(into->dest))
            : ua_py_array_empty(st, nd, shape, NULL, t,
                                layout_of_product(a, b, into->order), kind,
                                base_of(a)->queue);
    if (out == NULL) {
        return NULL;
    }
    const Py_ssize_t *cs = ARR(out)->strides;
    for (int k = 0; k < p.nd; k++) {
        p.cstep[k] = cs[k] * sa;
    }
    /* The result's last axes, where it has them: m's then n's. */
    p.cn = col ? sa : cs[nd - 1] * sa;
    p.cm = row ? p.cn : cs[nd - (col ? 1 : 2)] * sa;
    p.a = x->data;
    p.b = y->data;
    p.c = ARR(out)->data;
    p.type = t;
    p.conj_a = conj_a && ua_dtype_kind(t) == 'c';
    size_t work = (size_t)(p.m * p.n) * (size_t)(p.k > 0 ? p.k : 1);
    PyThreadState *saved = ua_py_release_if_long(work * (size_t)sa);
    ua_status code = ua_queue_matmul(queue_of_array(a), &p);
    ua_py_reacquire(saved);
    if (code != UA_OK) {
        Py_DECREF(out);
        return ua_py_raise_core(st, code);
    }
    return out;
}

static PyObject *
multiply(ua_state *st, PyObject *x1, PyObject *x2, bool vectors, bool conj_a,
         const ua_matmul_into *into)
{
    if (ARR(x1)->nd == 0 || ARR(x2)->nd == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "matmul: an operand is zero-dimensional; use "
                        "multiplication for scalars");
        return NULL;
    }
    if (base_of(x1)->queue != base_of(x2)->queue) {
        PyErr_Format(PyExc_ValueError,
                     "matmul: x1 is on %R but x2 is on %R; move them to "
                     "one queue first (to_device)",
                     base_of(x1)->queue, base_of(x2)->queue);
        return NULL;
    }
    ua_typenum t = into->dtype >= 0 ? (ua_typenum)into->dtype
                                    : ua_promote((ua_typenum)ARR(x1)->typenum,
                                                 (ua_typenum)ARR(x2)->typenum);
    if (into->dtype >= 0 &&
        (check_dtype(x1, "x1", t) < 0 || check_dtype(x2, "x2", t) < 0)) {
        return NULL;
    }
    if (into->dest != NULL &&
        !PyObject_TypeCheck(into->dest, st->USMArray_Type)) {
        /* Raises TypeError naming out's type. */
        ua_py_check_out(st, "matmul", into->dest, 0, NULL, t, x1);
        return NULL;
    }
    PyObject *a = as_type(st, x1, t);
    PyObject *b = a ? as_type(st, x2, t) : NULL;
    /* An out that an operand's bytes meet takes the product once it is
     * whole: the kernel reads each operand's rows many times. */
    PyObject *dest = into->dest;
    bool direct = dest == NULL || !(ua_py_arrays_may_overlap(x1, dest) ||
                                    ua_py_arrays_may_overlap(x2, dest));
    ua_matmul_into first = {NULL, into->order, into->dtype};
    PyObject *out =
        b ? product(st, a, b, vectors, conj_a, direct ? into : &first) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    if (out == NULL || direct) {
        return out;
    }
    /* The product's shape and dtype, checked against out's as a direct
     * product is. */
    int bad =
        ua_py_check_out(st, "matmul", dest, ARR(out)->nd, ARR(out)->shape,
                        (ua_typenum)ARR(out)->typenum, x1) < 0 ||
        ua_py_array_assign(st, dest, out) < 0;
    Py_DECREF(out);
    return bad ? NULL : Py_NewRef(dest);
}

PyObject *
ua_py_array_matmul_of(ua_state *st, PyObject *x1, PyObject *x2, bool conj_a)
{
    static const ua_matmul_into fresh = {NULL, 'C', -1};
    return multiply(st, x1, x2, false, conj_a, &fresh);
}

PyObject *
ua_py_array_matmul_out(ua_state *st, PyObject *x1, PyObject *x2, PyObject *out,
                       char order, int dtype)
{
    const ua_matmul_into into = {out, order, dtype};
    return multiply(st, x1, x2, false, false, &into);
}

PyObject *
ua_py_array_vecdot_of(ua_state *st, PyObject *x1, PyObject *x2)
{
    static const ua_matmul_into fresh = {NULL, 'C', -1};
    return multiply(st, x1, x2, true, true, &fresh);
}

/* An operand of @ that is not a USMArray: NotImplemented for unknown
 * types, TypeError for NumPy arrays and Python scalars. */
static PyObject *
foreign_operand(ua_state *st, PyObject *other)
{
    (void)st;
    if (PyLong_Check(other) || PyFloat_Check(other) ||
        PyComplex_Check(other) ||
        PyObject_HasAttrString(other, "__array_interface__")) {
        PyErr_Format(PyExc_TypeError,
                     "matmul: a %.100s operand is not a USMArray; convert it "
                     "with ua.asarray first",
                     Py_TYPE(other)->tp_name);
        return NULL;
    }
    Py_RETURN_NOTIMPLEMENTED;
}

PyObject *
ua_py_array_matmul(PyObject *a, PyObject *b)
{
    /* One of them is ours (the slot is USMArray's); the other may be
     * anything, a @ b or b @ a. */
    ua_state *st = ua_state_of(a);
    if (st == NULL) {
        PyErr_Clear();
        st = ua_state_of(b);
    }
    if (st == NULL) {
        return NULL;
    }
    PyObject *other = PyObject_TypeCheck(a, st->USMArray_Type) ? b : a;
    if (!PyObject_TypeCheck(other, st->USMArray_Type)) {
        return foreign_operand(st, other);
    }
    return ua_py_array_matmul_of(st, a, b, false);
}

PyObject *
ua_py_array_imatmul(PyObject *self, PyObject *other)
{
    PyObject *r = ua_py_array_matmul(self, other);
    if (r == NULL || r == Py_NotImplemented) {
        return r;
    }
    int same = ARR(r)->nd == ARR(self)->nd &&
               memcmp(ARR(r)->shape, ARR(self)->shape,
                      (size_t)ARR(r)->nd * sizeof(Py_ssize_t)) == 0;
    if (!same) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_ValueError,
                        "@=: the product's shape differs from the left "
                        "operand's, which cannot change in place");
        return NULL;
    }
    /* dpctl's rule for every in-place operator: the right operand must
     * cast to the left's dtype by NumPy's "same_kind" casting. */
    ua_typenum left = (ua_typenum)ARR(self)->typenum;
    ua_typenum product = (ua_typenum)ARR(r)->typenum;
    /* An operand of another type was converted by the product: its
     * dtype is then the product's. */
    ua_state *state = ua_state_of(self);
    ua_typenum right =
        state != NULL && PyObject_TypeCheck(other, state->USMArray_Type)
            ? (ua_typenum)ARR(other)->typenum
            : product;
    if (!ua_can_cast_same_kind(right, left) ||
        !ua_can_cast_same_kind(product, left)) {
        Py_DECREF(r);
        PyErr_Format(PyExc_ValueError,
                     "@=: the right operand's dtype %s (a product of dtype "
                     "%s) cannot be cast to the left operand's dtype %s "
                     "('same_kind' casting)",
                     ua_dtype_name(right), ua_dtype_name(product),
                     ua_dtype_name(left));
        return NULL;
    }
    int rc = ua_py_array_assign(state, self, r);
    Py_DECREF(r);
    return rc < 0 ? NULL : Py_NewRef(self);
}
