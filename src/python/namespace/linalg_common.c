/* What linalg's files share: calls of the namespace's functions, the
 * checks of their operands, and the column-major copies and results the
 * factorizations of linalg_ext.c work on. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/dtypes.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/linalg_ext.h"
#include "python/namespace/reducing.h"
#include "python/namespace/sets.h"
#include "core/compute/library.h"

#include <string.h>

PyObject *
ua_py_ns_call(PyObject *module, const char *fn, PyObject *args,
              PyObject *kwargs)
{
    PyObject *f = NULL, *r = NULL;
    if (args != NULL && !PyErr_Occurred()) {
        f = PyObject_GetAttrString(module, fn);
    }
    if (f != NULL) {
        r = PyObject_Call(f, args, kwargs);
    }
    Py_XDECREF(f);
    Py_XDECREF(args);
    Py_XDECREF(kwargs);
    return r;
}

PyObject *
ua_py_ns_call1(PyObject *module, const char *fn, PyObject *x)
{
    return x == NULL ? NULL
                     : ua_py_ns_call(module, fn, PyTuple_Pack(1, x), NULL);
}

PyObject *
ua_py_ns_call2(PyObject *module, const char *fn, PyObject *x, PyObject *y)
{
    return x == NULL || y == NULL
               ? NULL
               : ua_py_ns_call(module, fn, PyTuple_Pack(2, x, y), NULL);
}

/* The namespace's elementwise functions and reductions are these calls
 * of the C entries they wrap, without the attribute look-up and argument
 * packing of a call through the module: the operands here are arrays
 * this file's callers made or checked. */
static PyObject *
elementwise(ua_state *st, ua_ew_id f, int n, PyObject *const *ops)
{
    for (int i = 0; i < n; i++) {
        if (ops[i] == NULL) {
            return NULL;
        }
    }
    return ua_py_elementwise(st, f, ops, n, NULL, false);
}

PyObject *
ua_py_la_ew1(ua_state *st, ua_ew_id f, PyObject *x)
{
    return elementwise(st, f, 1, &x);
}

PyObject *
ua_py_la_ew2(ua_state *st, ua_ew_id f, PyObject *x, PyObject *y)
{
    PyObject *ops[2] = {x, y};
    return elementwise(st, f, 2, ops);
}

PyObject *
ua_py_la_where(ua_state *st, PyObject *cond, PyObject *x, PyObject *y)
{
    PyObject *ops[3] = {cond, x, y};
    return elementwise(st, UA_EW_where, 3, ops);
}

PyObject *
ua_py_la_reduce(ua_state *st, ua_reduce_op op, PyObject *x, uint64_t axes,
                bool keepdims)
{
    if (x == NULL) {
        return NULL;
    }
    /* linalg reduces floating arrays only (and booleans to count or test):
     * sum, prod, max and min keep a floating type, as the namespace's
     * functions do */
    ua_typenum rtype = op == UA_REDUCE_COUNT ? UA_INT64
                       : op == UA_REDUCE_ANY ? UA_BOOL
                                             : (ua_typenum)ARR(x)->typenum;
    return ua_py_reduce(st, x, op, axes, keepdims, rtype, 0.0);
}

PyObject *
ua_py_la_reduce_last(ua_state *st, ua_reduce_op op, PyObject *x, int count,
                     bool keepdims)
{
    if (x == NULL) {
        return NULL;
    }
    uint64_t axes = 0;
    for (int k = ARR(x)->nd - count; k < ARR(x)->nd; k++) {
        axes |= (uint64_t)1 << k;
    }
    return ua_py_la_reduce(st, op, x, axes, keepdims);
}

ua_typenum
ua_py_real_of(ua_typenum t)
{
    return t == UA_COMPLEX64    ? UA_FLOAT32
           : t == UA_COMPLEX128 ? UA_FLOAT64
                                : t;
}

int
ua_py_linalg_type(PyObject *x, const char *fn, ua_typenum *t)
{
    ua_typenum x_t = (ua_typenum)ARR(x)->typenum;
    switch (x_t) {
    case UA_FLOAT32:
    case UA_FLOAT64:
    case UA_COMPLEX64:
    case UA_COMPLEX128:
        *t = x_t;
        return 0;
    case UA_FLOAT16:
        PyErr_Format(PyExc_TypeError,
                     "linalg.%s: float16 is not supported (LAPACK and "
                     "cuSOLVER compute in float32 and float64): convert "
                     "with astype first",
                     fn);
        return -1;
    default:
        *t = ua_py_default_float(x);
        return 0;
    }
}

int
ua_py_linalg_check_matrices(PyObject *x, const char *fn)
{
    if (ARR(x)->nd < 2) {
        PyErr_Format(PyExc_ValueError,
                     "linalg.%s needs an array of at least two dimensions "
                     "(a stack of matrices), not %d",
                     fn, ARR(x)->nd);
        return -1;
    }
    return 0;
}

/* x's matrices are square: their order in *n. */
int
ua_py_la_check_square(PyObject *x, const char *fn, Py_ssize_t *n)
{
    if (ua_py_linalg_check_matrices(x, fn) < 0) {
        return -1;
    }
    int nd = ARR(x)->nd;
    if (ARR(x)->shape[nd - 1] != ARR(x)->shape[nd - 2]) {
        PyErr_Format(PyExc_ValueError,
                     "linalg.%s needs square matrices, not %zd x %zd", fn,
                     ARR(x)->shape[nd - 2], ARR(x)->shape[nd - 1]);
        return -1;
    }
    *n = ARR(x)->shape[nd - 1];
    return 0;
}

/* The number of matrices of an array: its shape but the last two axes. */
size_t
ua_py_la_batch_of(PyObject *x)
{
    size_t b = 1;
    for (int k = 0; k < ARR(x)->nd - 2; k++) {
        b *= (size_t)ARR(x)->shape[k];
    }
    return b;
}

/* An array's matrix transpose, a view. */
PyObject *
ua_py_la_mT(PyObject *x)
{
    return x == NULL ? NULL : ua_py_array_get_mT(x, NULL);
}

/* A copy of x as type t whose matrices are column-major: the C-ordered
 * copy of x's matrix transpose, seen through its own matrix transpose. */
PyObject *
ua_py_la_colmajor_copy(ua_state *st, PyObject *x, ua_typenum t)
{
    PyObject *xt = ua_py_la_mT(x);
    PyObject *c = xt != NULL
                      ? ua_py_array_copy(st, xt, t, 'C', base_of(x)->kind,
                                         base_of(x)->queue)
                      : NULL;
    Py_XDECREF(xt);
    PyObject *r = ua_py_la_mT(c);
    Py_XDECREF(c);
    return r;
}

/* A new array of shape on like's queue whose matrices are column-major. */
PyObject *
ua_py_la_colmajor_empty(ua_state *st, PyObject *like, int nd,
                        const Py_ssize_t *shape, ua_typenum t)
{
    Py_ssize_t s[UA_MAXDIMS];
    memcpy(s, shape, (size_t)nd * sizeof *s);
    s[nd - 2] = shape[nd - 1];
    s[nd - 1] = shape[nd - 2];
    PyObject *c = ua_py_result_like(st, like, nd, s, t);
    PyObject *r = ua_py_la_mT(c);
    Py_XDECREF(c);
    return r;
}

/* like's batch shape followed by rows and cols (cols < 0: none). */
int
ua_py_la_batch_shape(PyObject *like, Py_ssize_t rows, Py_ssize_t cols,
                     Py_ssize_t *shape)
{
    int nd = ARR(like)->nd - 2;
    memcpy(shape, ARR(like)->shape, (size_t)nd * sizeof *shape);
    shape[nd++] = rows;
    if (cols >= 0) {
        shape[nd++] = cols;
    }
    return nd;
}

int
ua_py_la_run_solver(ua_state *st, PyObject *x, const ua_solver_plan *p)
{
    size_t bytes =
        p->batch * (size_t)p->m * (size_t)p->n * ua_dtype_itemsize(p->type);
    PyThreadState *saved = ua_py_release_if_long(bytes);
    ua_status code = ua_queue_solver(queue_of_array(x), p);
    ua_py_reacquire(saved);
    return ua_py_run_core(st, code);
}

PyObject *
ua_py_la_beside(PyObject *module, PyObject *x, const char *dtype_name,
                ua_typenum t)
{
    ua_state *st = PyModule_GetState(module);
    PyObject *kind = PyObject_GetAttrString(x, "usm_type");
    PyObject *dtype = dtype_name != NULL ? PyUnicode_FromString(dtype_name)
                                         : Py_XNewRef(ua_py_dtype(st, t));
    PyObject *kw =
        kind != NULL && dtype != NULL
            ? Py_BuildValue("{s:O,s:O,s:O}", "dtype", dtype, "queue",
                            base_of(x)->queue, "usm_type", kind)
            : NULL;
    Py_XDECREF(kind);
    Py_XDECREF(dtype);
    return kw;
}

/* The identity of order n as type t, broadcast to like's batch and
 * copied: what a factorization of empty matrices leaves for Q, U, V. */
PyObject *
ua_py_la_identities(PyObject *module, PyObject *like, Py_ssize_t n,
                    ua_typenum t)
{
    ua_state *st = PyModule_GetState(module);
    PyObject *eye = ua_py_ns_call(module, "eye", Py_BuildValue("(n)", n),
                                  ua_py_la_beside(module, like, NULL, t));
    Py_ssize_t shape[UA_MAXDIMS];
    int nd = ua_py_la_batch_shape(like, n, n, shape);
    PyObject *out =
        eye != NULL ? ua_py_la_colmajor_empty(st, like, nd, shape, t) : NULL;
    if (out != NULL && ua_py_array_assign(st, out, eye) < 0) {
        Py_CLEAR(out);
    }
    Py_XDECREF(eye);
    return out;
}

/* The operand of a one-array function: parsed, checked to be an array
 * of matrices, its factorization type in *t. */
int
ua_py_la_operand(ua_state *st, PyObject *x, const char *fn, ua_typenum *t)
{
    return ua_py_check_array(st, x, fn) < 0 ||
                   ua_py_linalg_check_matrices(x, fn) < 0 ||
                   ua_py_linalg_type(x, fn, t) < 0
               ? -1
               : 0;
}

PyObject *
ua_py_diagonal_view(ua_state *st, PyObject *x, Py_ssize_t offset)
{
    PyUSMArrayObject *a = ARR(x);
    int nd = a->nd;
    Py_ssize_t rows = a->shape[nd - 2], cols = a->shape[nd - 1];
    Py_ssize_t r0 = offset < 0 ? -offset : 0, c0 = offset > 0 ? offset : 0;
    Py_ssize_t len = rows - r0 < cols - c0 ? rows - r0 : cols - c0;
    Py_ssize_t shape[UA_MAXDIMS], strides[UA_MAXDIMS];
    memcpy(shape, a->shape, (size_t)(nd - 2) * sizeof *shape);
    memcpy(strides, a->strides, (size_t)(nd - 2) * sizeof *strides);
    shape[nd - 2] = len > 0 ? len : 0;
    strides[nd - 2] = a->strides[nd - 2] + a->strides[nd - 1];
    char *data = a->data;
    if (shape[nd - 2] > 0) {
        data += (r0 * a->strides[nd - 2] + c0 * a->strides[nd - 1]) *
                (Py_ssize_t)ua_py_array_itemsize(x);
    }
    PyObject *out = ua_py_array_make(st, nd - 1, shape, strides,
                                     (ua_typenum)a->typenum, data, a->base, 0);
    if (out != NULL) {
        ARR(out)->flags |= a->flags & USM_ARRAY_WRITABLE;
    }
    return out;
}
