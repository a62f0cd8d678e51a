/* The standard's searching functions: argmax, argmin and count_nonzero
 * (reductions), nonzero (the compress kernel's coordinates) and
 * searchsorted (the search kernel over dense copies in a common dtype).
 * where belongs to the elementwise functions. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings_reduce.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/reducing.h"
#include "python/namespace/searching.h"
#include "python/namespace/utility.h"

#include "core/compute/promote.h"

static PyObject *
arg_reduction(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
              PyObject *kwnames, const char *fn, ua_reduce_op op)
{
    static const char *const kwlist[] = {"x", "axis", "keepdims", "out", NULL};
    ua_py_argspec spec = {fn, kwlist, 1, 1};
    PyObject *v[4] = {NULL, NULL, NULL, Py_None};
    ua_state *st = PyModule_GetState(module);
    uint64_t axes;
    int keepdims = 0, axis;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], fn) < 0 ||
        ua_py_parse_bool(v[2], fn, "keepdims", &keepdims) < 0) {
        return NULL;
    }
    if (v[1] == NULL || v[1] == Py_None) {
        ua_py_reduce_axes(st, Py_None, fn, ARR(v[0])->nd, &axes);
    } else if (ua_py_parse_axis(st, v[1], fn, ARR(v[0])->nd, &axis) < 0) {
        return NULL;
    } else {
        axes = (uint64_t)1 << axis;
    }
    return ua_py_reduce_out(st, fn, v[0], op, axes, keepdims, UA_INT64, 0.0,
                            v[3] == Py_None ? NULL : v[3]);
}

static PyObject *
argmax(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return arg_reduction(m, a, n, k, "argmax", UA_REDUCE_ARGMAX);
}

static PyObject *
argmin(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return arg_reduction(m, a, n, k, "argmin", UA_REDUCE_ARGMIN);
}

static PyObject *
count_nonzero(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return ua_py_truth_reduction(m, a, n, k, "count_nonzero", UA_REDUCE_COUNT);
}

/* A tuple of the columns of coordinates (count, nd), as views. */
static PyObject *
columns(ua_state *st, PyObject *coords, int nd)
{
    PyObject *out = PyTuple_New(nd);
    Py_ssize_t count = ARR(coords)->shape[0];
    Py_ssize_t stride = count > 0 ? ARR(coords)->strides[0] : nd;
    for (int k = 0; out != NULL && k < nd; k++) {
        PyObject *col =
            ua_py_array_make(st, 1, &count, &stride, UA_INT64,
                             ARR(coords)->data + 8 * k, ARR(coords)->base, 1);
        if (col == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, k, col);
    }
    return out;
}

static PyObject *
nonzero(PyObject *module, PyObject *x)
{
    ua_state *st = PyModule_GetState(module);
    if (ua_py_check_array(st, x, "nonzero") < 0) {
        return NULL;
    }
    if (ARR(x)->nd == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "nonzero needs an array of at least one dimension; "
                        "for a 0-d array use nonzero(x[None])");
        return NULL;
    }
    PyObject *mask =
        ARR(x)->typenum == UA_BOOL && (ARR(x)->flags & USM_ARRAY_C_CONTIGUOUS)
            ? Py_NewRef(x)
            : ua_py_array_copy(st, x, UA_BOOL, 'C', base_of(x)->kind,
                               base_of(x)->queue);
    PyObject *coords = mask ? ua_py_mask_coordinates(st, mask) : NULL;
    Py_XDECREF(mask);
    PyObject *out = coords ? columns(st, coords, ARR(x)->nd) : NULL;
    Py_XDECREF(coords);
    return out;
}

PyObject *
ua_py_dense_as(ua_state *st, PyObject *a, ua_typenum t)
{
    if (ARR(a)->typenum == (int)t &&
        (ARR(a)->flags & USM_ARRAY_C_CONTIGUOUS)) {
        return Py_NewRef(a);
    }
    return ua_py_array_copy(st, a, t, 'C', base_of(a)->kind,
                            base_of(a)->queue);
}

static int
parse_side(PyObject *side, bool *right)
{
    *right = false;
    if (side == NULL) {
        return 0;
    }
    if (PyUnicode_Check(side) &&
        (PyUnicode_CompareWithASCIIString(side, "left") == 0 ||
         PyUnicode_CompareWithASCIIString(side, "right") == 0)) {
        *right = PyUnicode_CompareWithASCIIString(side, "right") == 0;
        return 0;
    }
    PyErr_Format(PyExc_ValueError,
                 "searchsorted: side must be 'left' or 'right', not %R", side);
    return -1;
}

/* A Python scalar needle: a 0-d array on x1's queue of the dtype that x1's
 * and the scalar's promote to (the scalar weak, as in x1 < s). */
static PyObject *
scalar_needle(ua_state *st, PyObject *x1, PyObject *s)
{
    ua_scalar_kind k = PyBool_Check(s)    ? UA_SCALAR_BOOL
                       : PyLong_Check(s)  ? UA_SCALAR_INT
                       : PyFloat_Check(s) ? UA_SCALAR_FLOAT
                                          : UA_SCALAR_COMPLEX;
    ua_queue *q = queue_of_array(x1);
    ua_default_dtypes d =
        ua_default_dtypes_for(ua_device_has_fp64(ua_queue_device(q)));
    ua_typenum t = ua_promote_scalar((ua_typenum)ARR(x1)->typenum, k, &d);
    PyObject *a = ua_py_result_like(st, x1, 0, NULL, t);
    if (a != NULL && ua_py_array_assign(st, a, s) < 0) {
        Py_CLEAR(a);
    }
    return a;
}

/* x1 in the order sorter gives, where there is one. */
static PyObject *
ordered(ua_state *st, PyObject *x1, PyObject *sorter)
{
    if (sorter == NULL || sorter == Py_None) {
        return Py_NewRef(x1);
    }
    if (ua_py_check_array(st, sorter, "searchsorted: sorter") < 0) {
        return NULL;
    }
    char kind = ua_dtype_kind((ua_typenum)ARR(sorter)->typenum);
    if ((kind != 'i' && kind != 'u') || ARR(sorter)->nd != 1 ||
        ARR(sorter)->shape[0] != ARR(x1)->shape[0]) {
        PyErr_SetString(PyExc_ValueError,
                        "searchsorted: sorter must be a one-dimensional "
                        "integer array of x1's length");
        return NULL;
    }
    return ua_py_array_take(st, x1, sorter, 0);
}

/* searchsorted of the arrays x1 (one-dimensional) and x2. */
static PyObject *
search(ua_state *st, PyObject *x1, PyObject *x2, PyObject *sorter, bool right)
{
    if (base_of(x1)->queue != base_of(x2)->queue) {
        PyErr_Format(PyExc_ValueError,
                     "searchsorted: x1 is on %R but x2 is on %R; move them "
                     "to one queue first (to_device)",
                     base_of(x1)->queue, base_of(x2)->queue);
        return NULL;
    }
    ua_typenum t =
        ua_promote((ua_typenum)ARR(x1)->typenum, (ua_typenum)ARR(x2)->typenum);
    PyObject *sorted = ordered(st, x1, sorter);
    PyObject *a = sorted ? ua_py_dense_as(st, sorted, t) : NULL;
    PyObject *b = a ? ua_py_dense_as(st, x2, t) : NULL;
    PyObject *out =
        b ? ua_py_result_like(st, x2, ARR(x2)->nd, ARR(x2)->shape, UA_INT64)
          : NULL;
    if (out != NULL) {
        ua_search_plan p = {ARR(a)->data,
                            ARR(a)->shape[0],
                            ARR(b)->data,
                            ua_py_array_size(b),
                            ARR(out)->data,
                            t,
                            right ? UA_SEARCH_RIGHT : UA_SEARCH_LEFT};
        if (ua_py_run_core(st, ua_queue_search(queue_of_array(x1), &p)) < 0) {
            Py_CLEAR(out);
        }
    }
    Py_XDECREF(sorted);
    Py_XDECREF(a);
    Py_XDECREF(b);
    return out;
}

static PyObject *
searchsorted(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
             PyObject *kwnames)
{
    static const char *const kwlist[] = {"x1", "x2", "side", "sorter", NULL};
    static const ua_py_argspec spec = {"searchsorted", kwlist, 2, 2};
    PyObject *v[4] = {NULL, NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    bool right;
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "searchsorted") < 0 ||
        (!ua_py_is_python_scalar(v[1]) &&
         ua_py_check_array(st, v[1], "searchsorted") < 0) ||
        parse_side(v[2], &right) < 0) {
        return NULL;
    }
    PyObject *x1 = v[0];
    if (ARR(x1)->nd != 1) {
        PyErr_Format(PyExc_ValueError,
                     "searchsorted: x1 must be one-dimensional, not of %d "
                     "dimensions",
                     ARR(x1)->nd);
        return NULL;
    }
    PyObject *x2 = ua_py_is_python_scalar(v[1]) ? scalar_needle(st, x1, v[1])
                                                : Py_NewRef(v[1]);
    if (x2 == NULL) {
        return NULL;
    }
    PyObject *out = search(st, x1, x2, v[3], right);
    Py_DECREF(x2);
    return out;
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* Their operands as snapshots: their other arguments' hooks run after
 * they read the operands' layouts. */
UA_PY_ON_SNAPSHOTS(argmax)
UA_PY_ON_SNAPSHOTS(argmin)
UA_PY_ON_SNAPSHOTS(count_nonzero)
UA_PY_ON_SNAPSHOTS(searchsorted)

static PyMethodDef searching_functions[] = {
    {"argmax", KW(argmax_on_snapshots), UA_DOC_ARGMAX},
    {"argmin", KW(argmin_on_snapshots), UA_DOC_ARGMIN},
    {"count_nonzero", KW(count_nonzero_on_snapshots), UA_DOC_COUNT_NONZERO},
    {"nonzero", (PyCFunction)nonzero, METH_O, UA_DOC_NONZERO},
    {"searchsorted", KW(searchsorted_on_snapshots), UA_DOC_SEARCHSORTED},
    {0},
};

int
ua_py_searching_add(PyObject *module)
{
    return PyModule_AddFunctions(module, searching_functions);
}
