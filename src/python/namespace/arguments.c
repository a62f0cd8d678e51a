/* The argument checks that the namespace's functions share: positional-
 * only parameters, array operands and axes, each worded once. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/dtypes.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/namespace/arguments.h"

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
