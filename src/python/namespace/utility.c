/* The standard's utility functions: all, any (reductions of truth) and
 * diff (the core's difference scan, applied n times). */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings_reduce.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/reducing.h"
#include "python/namespace/utility.h"

/* (x, /, *, axis=None, keepdims=False) of all, any and count_nonzero. */
PyObject *
ua_py_truth_reduction(PyObject *module, PyObject *const *args,
                      Py_ssize_t nargs, PyObject *kwnames, const char *fn,
                      ua_reduce_op op)
{
    static const char *const kwlist[] = {"x", "axis", "keepdims", NULL};
    ua_py_argspec spec = {fn, kwlist, 1, 1};
    PyObject *v[3] = {NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    uint64_t axes;
    int keepdims = 0;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], fn) < 0 ||
        ua_py_reduce_axes(st, v[1], fn, ARR(v[0])->nd, &axes) < 0 ||
        ua_py_parse_bool(v[2], fn, "keepdims", &keepdims) < 0) {
        return NULL;
    }
    return ua_py_reduce(st, v[0], op, axes, keepdims,
                        op == UA_REDUCE_COUNT ? UA_INT64 : UA_BOOL, 0.0);
}

static PyObject *
all(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return ua_py_truth_reduction(m, a, n, k, "all", UA_REDUCE_ALL);
}

static PyObject *
any(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return ua_py_truth_reduction(m, a, n, k, "any", UA_REDUCE_ANY);
}

/* One difference along axis: x[1:] - x[:-1]. */
static PyObject *
difference(ua_state *st, PyObject *x, int axis)
{
    Py_ssize_t shape[UA_MAXDIMS];
    memcpy(shape, ARR(x)->shape, (size_t)ARR(x)->nd * sizeof(Py_ssize_t));
    shape[axis] = shape[axis] > 0 ? shape[axis] - 1 : 0;
    ua_typenum t = (ua_typenum)ARR(x)->typenum;
    PyObject *out = ua_py_result_like(st, x, ARR(x)->nd, shape, t);
    if (out == NULL) {
        return NULL;
    }
    ua_strided xs = ua_py_array_strided(x), rs = ua_py_array_strided(out);
    int nd = ARR(x)->nd;
    const Py_ssize_t *xshape = ARR(x)->shape;
    PyThreadState *saved = ua_py_release_if_long((size_t)ua_py_array_size(x) *
                                                 ua_py_array_itemsize(x));
    ua_status code = ua_queue_scan(queue_of_array(x), UA_SCAN_DIFF, nd, xshape,
                                   &xs, axis, 0, &rs);
    ua_py_reacquire(saved);
    if (ua_py_run_core(st, code) < 0) {
        Py_CLEAR(out);
    }
    return out;
}

/* x with prepend and append joined along axis, by the namespace's concat
 * (which promotes their dtypes and checks their shapes). */
static PyObject *
joined(PyObject *module, PyObject *x, PyObject *prepend, PyObject *append,
       int axis)
{
    if ((prepend == NULL || prepend == Py_None) &&
        (append == NULL || append == Py_None)) {
        return Py_NewRef(x);
    }
    PyObject *parts = PyList_New(0);
    PyObject *items[3] = {prepend, x, append};
    for (int i = 0; parts != NULL && i < 3; i++) {
        if (items[i] != NULL && items[i] != Py_None &&
            PyList_Append(parts, items[i]) < 0) {
            Py_CLEAR(parts);
        }
    }
    PyObject *concat = parts ? PyObject_GetAttrString(module, "concat") : NULL;
    PyObject *out = NULL,
             *kw = concat ? Py_BuildValue("{si}", "axis", axis) : NULL;
    PyObject *pos = kw ? PyTuple_Pack(1, parts) : NULL;
    if (pos != NULL) {
        out = PyObject_Call(concat, pos, kw);
    }
    Py_XDECREF(pos);
    Py_XDECREF(kw);
    Py_XDECREF(concat);
    Py_XDECREF(parts);
    return out;
}

static PyObject *
diff(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
     PyObject *kwnames)
{
    static const char *const kwlist[] = {"x",       "axis",   "n",
                                         "prepend", "append", NULL};
    static const ua_py_argspec spec = {"diff", kwlist, 1, 1};
    PyObject *v[5] = {NULL, NULL, NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    int axis = -1;
    Py_ssize_t n = 1;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "diff") < 0) {
        return NULL;
    }
    if (ARR(v[0])->nd == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "diff needs an array of at least one dimension");
        return NULL;
    }
    if ((v[1] == NULL
             ? ua_py_normalize_axis(st, "diff", -1, ARR(v[0])->nd, &axis)
             : ua_py_parse_axis(st, v[1], "diff", ARR(v[0])->nd, &axis)) < 0 ||
        (v[2] != NULL && ua_py_index(v[2], "n", &n) < 0)) {
        return NULL;
    }
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "diff: n must be non-negative, not %zd",
                     n);
        return NULL;
    }
    PyObject *x = joined(module, v[0], v[3], v[4], axis);
    for (Py_ssize_t i = 0; x != NULL && i < n && ARR(x)->shape[axis] > 0;
         i++) {
        PyObject *next = difference(st, x, axis);
        Py_SETREF(x, next);
    }
    return x;
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* Their operands as snapshots: their other arguments' hooks run after
 * they read the operands' layouts. */
UA_PY_ON_SNAPSHOTS(all)
UA_PY_ON_SNAPSHOTS(any)
UA_PY_ON_SNAPSHOTS(diff)

static PyMethodDef utility_functions[] = {
    {"all", KW(all_on_snapshots), UA_DOC_ALL},
    {"any", KW(any_on_snapshots), UA_DOC_ANY},
    {"diff", KW(diff_on_snapshots), UA_DOC_DIFF},
    {0},
};

int
ua_py_utility_add(PyObject *module)
{
    return PyModule_AddFunctions(module, utility_functions);
}
