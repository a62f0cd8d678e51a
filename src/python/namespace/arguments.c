/* The argument checks that the namespace's functions share: positional-
 * only parameters, array operands and axes, each worded once. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/dtypes.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/namespace/arguments.h"
#include "python/types/arrays.h"

#include <string.h>

int
ua_py_parse_posonly(const ua_py_argspec *spec, int posonly,
                    PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                    PyObject **out)
{
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        for (int i = 0; i < posonly && PyUnicode_Check(key); i++) {
            if (PyUnicode_CompareWithASCIIString(key, spec->names[i]) == 0) {
                PyErr_Format(PyExc_TypeError,
                             "%s() got some positional-only arguments "
                             "passed as keyword arguments: '%s'",
                             spec->fname, spec->names[i]);
                return -1;
            }
        }
    }
    return ua_py_parse_fast(spec, args, nargs, kwnames, out);
}

int
ua_py_check_nargs(const char *fn, Py_ssize_t nargs, Py_ssize_t n)
{
    if (nargs == n) {
        return 0;
    }
    PyErr_Format(PyExc_TypeError,
                 "%s() takes %zd positional argument%s but %zd %s given", fn,
                 n, n == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
    return -1;
}

int
ua_py_check_array(ua_state *st, PyObject *x, const char *fn)
{
    if (PyObject_TypeCheck(x, st->USMArray_Type)) {
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s expects a USMArray, not %.100s", fn,
                 Py_TYPE(x)->tp_name);
    return -1;
}

/* numpy.exceptions.AxisError (numpy.AxisError before NumPy 1.25), or
 * NULL without an exception set. */
static PyObject *
axis_error_type(ua_state *st)
{
    PyObject *np = ua_py_numpy(st), *type = NULL;
    PyObject *mod = np ? PyObject_GetAttrString(np, "exceptions") : NULL;
    if (mod != NULL) {
        type = PyObject_GetAttrString(mod, "AxisError");
        Py_DECREF(mod);
    }
    if (type == NULL && np != NULL) {
        PyErr_Clear();
        type = PyObject_GetAttrString(np, "AxisError");
    }
    if (type != NULL &&
        !(PyType_Check(type) &&
          PyType_IsSubtype((PyTypeObject *)type,
                           (PyTypeObject *)PyExc_IndexError))) {
        Py_CLEAR(type);
    }
    PyErr_Clear();
    return type;
}

int
ua_py_axis_error(ua_state *st, const char *fn, Py_ssize_t axis, int nd)
{
    PyObject *msg =
        PyUnicode_FromFormat("%s: axis %zd is out of bounds for an array of "
                             "%d dimensions",
                             fn, axis, nd);
    if (msg == NULL) {
        return -1;
    }
    PyObject *type = axis_error_type(st);
    PyErr_SetObject(type ? type : PyExc_IndexError, msg);
    Py_XDECREF(type);
    Py_DECREF(msg);
    return -1;
}

int
ua_py_normalize_axis(ua_state *st, const char *fn, Py_ssize_t axis, int nd,
                     int *out)
{
    if (axis < -(Py_ssize_t)nd || axis >= nd) {
        return ua_py_axis_error(st, fn, axis, nd);
    }
    *out = (int)(axis < 0 ? axis + nd : axis);
    return 0;
}

int
ua_py_parse_axis(ua_state *st, PyObject *obj, const char *fn, int nd, int *out)
{
    Py_ssize_t axis;
    if (ua_py_index(obj, "axis", &axis) < 0) {
        return -1;
    }
    return ua_py_normalize_axis(st, fn, axis, nd, out);
}

int
ua_py_parse_trailing_axis(PyObject *obj, const char *fn, PyObject *x1,
                          PyObject *x2, Py_ssize_t *axis)
{
    *axis = -1;
    if (obj != NULL && ua_py_index(obj, "axis", axis) < 0) {
        return -1;
    }
    int n1 = ARR(x1)->nd, n2 = ARR(x2)->nd;
    int least = n1 < n2 ? n1 : n2;
    if (*axis >= 0 || *axis < -least) {
        PyErr_Format(PyExc_ValueError,
                     "%s: axis must count from the end, between %d and -1, "
                     "not %zd",
                     fn, -least, *axis);
        return -1;
    }
    return 0;
}

int
ua_py_parse_axis_set(ua_state *st, PyObject *obj, const char *fn, int nd,
                     int *axes, int *n)
{
    Py_ssize_t given[UA_MAXDIMS];
    bool seen[UA_MAXDIMS] = {false};
    if (ua_py_parse_ints(obj, "axis", given, n) < 0) {
        return -1;
    }
    for (int k = 0; k < *n; k++) {
        if (ua_py_normalize_axis(st, fn, given[k], nd, &axes[k]) < 0) {
            return -1;
        }
        if (seen[axes[k]]) {
            PyErr_Format(PyExc_ValueError, "%s: axis %d is repeated", fn,
                         axes[k]);
            return -1;
        }
        seen[axes[k]] = true;
    }
    return 0;
}

/* ------------------------------------------------ operands as snapshots */

#define UA_PY_INLINE_ARGS 16

/* args with each USMArray replaced by a new snapshot in out (the others
 * borrowed); -1 with an exception, out then holding nothing of ours. */
static int
take_snapshots(ua_state *st, PyObject *const *args, Py_ssize_t n,
               PyObject **out)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = args[i];
        if (PyObject_TypeCheck(args[i], st->USMArray_Type)) {
            out[i] = ua_py_array_snapshot(args[i]);
        }
        if (out[i] == NULL) {
            for (Py_ssize_t j = 0; j < i; j++) {
                if (out[j] != args[j]) {
                    Py_DECREF(out[j]);
                }
            }
            return -1;
        }
    }
    return 0;
}

static bool
same_layout(PyObject *a, PyObject *b)
{
    PyUSMArrayObject *x = ARR(a), *y = ARR(b);
    size_t bytes = (size_t)x->nd * sizeof(Py_ssize_t);
    return x->nd == y->nd && x->data == y->data &&
           (bytes == 0 || (memcmp(x->shape, y->shape, bytes) == 0 &&
                           memcmp(x->strides, y->strides, bytes) == 0));
}

/* Releases the snapshots; a result that is one is its operand again. */
static PyObject *
drop_snapshots(PyObject *const *args, Py_ssize_t n, PyObject **snaps,
               PyObject *result)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (snaps[i] == args[i]) {
            continue;
        }
        if (result == snaps[i] && same_layout(snaps[i], args[i])) {
            Py_SETREF(result, Py_NewRef(args[i]));
        }
        Py_DECREF(snaps[i]);
    }
    return result;
}

static PyObject **
snapshot_room(PyObject **inline_room, Py_ssize_t n)
{
    if (n <= UA_PY_INLINE_ARGS) {
        return inline_room;
    }
    PyObject **room = PyMem_Malloc((size_t)n * sizeof(PyObject *));
    if (room == NULL) {
        PyErr_NoMemory();
    }
    return room;
}

PyObject *
ua_py_call_on_snapshots(ua_py_fastcall_kw fn, PyObject *module,
                        PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames)
{
    ua_state *st = PyModule_GetState(module);
    Py_ssize_t n = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    PyObject *inline_room[UA_PY_INLINE_ARGS];
    PyObject **snaps = snapshot_room(inline_room, n);
    if (snaps == NULL || take_snapshots(st, args, n, snaps) < 0) {
        if (snaps != inline_room) {
            PyMem_Free(snaps);
        }
        return NULL;
    }
    PyObject *result = fn(module, snaps, nargs, kwnames);
    result = drop_snapshots(args, n, snaps, result);
    if (snaps != inline_room) {
        PyMem_Free(snaps);
    }
    return result;
}

PyObject *
ua_py_call_on_snapshots_pos(ua_py_fastcall fn, PyObject *module,
                            PyObject *const *args, Py_ssize_t nargs)
{
    ua_state *st = PyModule_GetState(module);
    PyObject *inline_room[UA_PY_INLINE_ARGS];
    PyObject **snaps = snapshot_room(inline_room, nargs);
    if (snaps == NULL || take_snapshots(st, args, nargs, snaps) < 0) {
        if (snaps != inline_room) {
            PyMem_Free(snaps);
        }
        return NULL;
    }
    PyObject *result = fn(module, snaps, nargs);
    result = drop_snapshots(args, nargs, snaps, result);
    if (snaps != inline_room) {
        PyMem_Free(snaps);
    }
    return result;
}
