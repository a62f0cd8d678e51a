/* The standard's indexing functions, take and take_along_axis, over the
 * gather of types/array_index.c. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/namespace/arguments.h"
#include "python/namespace/functions.h"
#include "python/namespace/indexing.h"
#include "python/types/arrays.h"

static PyObject *
take(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
     PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "indices", "axis", NULL};
    static const ua_py_argspec spec = {"take", kwlist, 2, 2};
    PyObject *v[3] = {NULL, NULL, Py_None};
    ua_state *st = PyModule_GetState(module);
    int axis = 0;
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "take") < 0) {
        return NULL;
    }
    PyObject *x = v[0];
    if (v[2] == Py_None) {
        if (ARR(x)->nd != 1) {
            PyErr_Format(PyExc_ValueError,
                         "take: axis may be omitted only for a "
                         "one-dimensional array, not one of %d dimensions",
                         ARR(x)->nd);
            return NULL;
        }
    } else if (ua_py_parse_axis(st, v[2], "take", ARR(x)->nd, &axis) < 0) {
        return NULL;
    }
    return ua_py_array_take(st, x, v[1], axis);
}

static PyObject *
take_along_axis(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "indices", "axis", NULL};
    static const ua_py_argspec spec = {"take_along_axis", kwlist, 2, 2};
    PyObject *v[3] = {NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    int axis = 0;
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "take_along_axis") < 0) {
        return NULL;
    }
    PyObject *x = v[0];
    if (ARR(x)->nd == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "take_along_axis needs an array of at least one "
                        "dimension");
        return NULL;
    }
    if (v[2] == NULL) {
        axis = ARR(x)->nd - 1;
    } else if (ua_py_parse_axis(st, v[2], "take_along_axis", ARR(x)->nd,
                                &axis) < 0) {
        return NULL;
    }
    return ua_py_array_take_along_axis(st, x, v[1], axis);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* Their operands as snapshots: their other arguments' hooks run after
 * they read the operands' layouts. */
UA_PY_ON_SNAPSHOTS(take)
UA_PY_ON_SNAPSHOTS(take_along_axis)

static PyMethodDef indexing_functions[] = {
    {"take", KW(take_on_snapshots), UA_DOC_TAKE},
    {"take_along_axis", KW(take_along_axis_on_snapshots),
     UA_DOC_TAKE_ALONG_AXIS},
    {0},
};

int
ua_py_indexing_add(PyObject *module)
{
    return PyModule_AddFunctions(module, indexing_functions);
}
