/* NumPy's functions called on usmarray arrays (__array_function__): the
 * namespace's counterpart where one exists (of the same name, of the
 * standard's name for it, or composed here: numpy.unique and its flags,
 * atleast_1d/2d/3d, column_stack, iscomplexobj, may_share_memory,
 * squeeze, with the squeeze method Dask calls); for arrays whose memory
 * the host reaches, NumPy's own function on zero-copy views of them,
 * returning what NumPy returns (array_operators.c's __array_ufunc__ does
 * the same for ufuncs); a TypeError naming the function for device memory
 * of a GPU. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"

/* NumPy's functions whose namespace counterpart is named otherwise (Dask
 * joins chunks with numpy.concatenate). */
static const char *const renamed_functions[][2] = {
    {"concatenate", "concat"},
    {"transpose", "permute_dims"},
};

static PyObject *
namespace_counterpart(PyObject *module, PyObject *name)
{
    for (size_t i = 0;
         i < sizeof renamed_functions / sizeof renamed_functions[0]; i++) {
        if (PyUnicode_CompareWithASCIIString(name, renamed_functions[i][0]) ==
            0) {
            return PyObject_GetAttrString(module, renamed_functions[i][1]);
        }
    }
    return PyObject_GetAttr(module, name);
}

/* numpy.transpose(x) and transpose(x, axes=None) reverse every axis,
 * where permute_dims needs the axes named. */
static bool
transposes_all_axes(PyObject *fargs, PyObject *fkwargs)
{
    PyObject *axes = PyTuple_GET_SIZE(fargs) > 1
                         ? PyTuple_GET_ITEM(fargs, 1)
                         : PyDict_GetItemString(fkwargs, "axes");
    return PyTuple_GET_SIZE(fargs) >= 1 && (axes == NULL || axes == Py_None);
}

static PyObject *
reversed_axes_permutation(PyObject *permute_dims, PyObject *fargs)
{
    PyObject *x = PyTuple_GET_ITEM(fargs, 0);
    PyObject *ndim = PyObject_GetAttrString(x, "ndim");
    Py_ssize_t nd = ndim ? PyLong_AsSsize_t(ndim) : -1;
    Py_XDECREF(ndim);
    PyObject *axes = nd >= 0 ? PyTuple_New(nd) : NULL;
    for (Py_ssize_t k = 0; axes != NULL && k < nd; k++) {
        PyObject *axis = PyLong_FromSsize_t(nd - 1 - k);
        if (axis == NULL) {
            Py_CLEAR(axes);
            break;
        }
        PyTuple_SET_ITEM(axes, k, axis);
    }
    PyObject *out =
        axes ? PyObject_CallFunctionObjArgs(permute_dims, x, axes, NULL)
             : NULL;
    Py_XDECREF(axes);
    return out;
}

/* ------------------------------------------ functions composed here */

/* What a composer answers when the call is not one it maps (a keyword
 * NumPy has and the namespace lacks, an operand not ours): the caller
 * goes on to the next way.  Not a reference. */
#define NOT_MAPPED Py_NotImplemented

static bool
is_ours(ua_state *st, PyObject *obj)
{
    return PyObject_TypeCheck(obj, st->USMArray_Type);
}

/* obj as an array of the namespace: itself, or ua.asarray(obj). */
static PyObject *
as_ours(ua_state *st, PyObject *module, PyObject *obj)
{
    return is_ours(st, obj)
               ? Py_NewRef(obj)
               : PyObject_CallMethod(module, "asarray", "(O)", obj);
}

/* ua.reshape(x, shape) for the n ints of shape. */
static PyObject *
reshaped(PyObject *module, PyObject *x, int n, const Py_ssize_t *shape)
{
    PyObject *t = ua_py_int_tuple(n, shape);
    PyObject *out =
        t ? PyObject_CallMethod(module, "reshape", "(OO)", x, t) : NULL;
    Py_XDECREF(t);
    return out;
}

/* One array, or a tuple of them (NumPy 2's atleast_*d). */
static PyObject *
one_or_tuple(PyObject *list)
{
    PyObject *out = PyList_GET_SIZE(list) == 1
                        ? Py_NewRef(PyList_GET_ITEM(list, 0))
                        : PyList_AsTuple(list);
    Py_DECREF(list);
    return out;
}

/* numpy.atleast_1d/2d/3d(*arys): views with length-1 axes added as NumPy
 * places them ((n,) is (1, n) in 2-D and (1, n, 1) in 3-D; (m, n) is
 * (m, n, 1)). */
static PyObject *
atleast_nd(ua_state *st, PyObject *module, PyObject *fargs, PyObject *fkwargs,
           int want)
{
    if (PyDict_GET_SIZE(fkwargs) != 0) {
        return Py_NewRef(NOT_MAPPED);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(fargs);
    PyObject *list = PyList_New(n);
    for (Py_ssize_t i = 0; list != NULL && i < n; i++) {
        PyObject *x = as_ours(st, module, PyTuple_GET_ITEM(fargs, i));
        const PyUSMArrayObject *a = x ? ARR(x) : NULL;
        PyObject *item = NULL;
        if (a != NULL && a->nd >= want) {
            item = Py_NewRef(x);
        } else if (a != NULL) {
            Py_ssize_t shape[3] = {1, 1, 1};
            if (a->nd == 1) {
                shape[want == 1 ? 0 : 1] = a->shape[0];
            } else if (a->nd == 2) {
                shape[0] = a->shape[0];
                shape[1] = a->shape[1];
            }
            item = reshaped(module, x, want, shape);
        }
        Py_XDECREF(x);
        if (item == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list ? one_or_tuple(list) : NULL;
}

/* numpy.column_stack(tup): arrays of fewer than 2 dimensions become
 * columns; all are joined along axis 1. */
static PyObject *
column_stack(ua_state *st, PyObject *module, PyObject *fargs,
             PyObject *fkwargs)
{
    if (PyDict_GET_SIZE(fkwargs) != 0 || PyTuple_GET_SIZE(fargs) != 1) {
        return Py_NewRef(NOT_MAPPED);
    }
    /* A tuple of the items: converting one may run user code that
     * changes a list. */
    PyObject *seq = PySequence_Tuple(PyTuple_GET_ITEM(fargs, 0));
    Py_ssize_t n = seq ? PyTuple_GET_SIZE(seq) : 0;
    PyObject *list = seq ? PyList_New(n) : NULL;
    for (Py_ssize_t i = 0; list != NULL && i < n; i++) {
        PyObject *x = as_ours(st, module, PyTuple_GET_ITEM(seq, i));
        Py_ssize_t column[2] = {-1, 1};
        PyObject *item = x == NULL        ? NULL
                         : ARR(x)->nd < 2 ? reshaped(module, x, 2, column)
                                          : Py_NewRef(x);
        Py_XDECREF(x);
        if (item == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, item);
    }
    Py_XDECREF(seq);
    if (list == NULL) {
        return NULL;
    }
    PyObject *concat = PyObject_GetAttrString(module, "concat");
    PyObject *kw = concat ? Py_BuildValue("{s:i}", "axis", 1) : NULL;
    PyObject *args = kw ? PyTuple_Pack(1, list) : NULL;
    PyObject *out = args ? PyObject_Call(concat, args, kw) : NULL;
    Py_XDECREF(args);
    Py_XDECREF(kw);
    Py_XDECREF(concat);
    Py_DECREF(list);
    return out;
}

/* numpy.iscomplexobj(x): whether x's dtype is complex. */
static PyObject *
iscomplexobj(PyObject *fargs, PyObject *fkwargs)
{
    if (PyDict_GET_SIZE(fkwargs) != 0 || PyTuple_GET_SIZE(fargs) != 1) {
        return Py_NewRef(NOT_MAPPED);
    }
    PyObject *dtype =
        PyObject_GetAttrString(PyTuple_GET_ITEM(fargs, 0), "dtype");
    PyObject *kind = dtype ? PyObject_GetAttrString(dtype, "kind") : NULL;
    PyObject *out =
        kind
            ? PyBool_FromLong(PyUnicode_Check(kind) &&
                              PyUnicode_CompareWithASCIIString(kind, "c") == 0)
            : NULL;
    Py_XDECREF(kind);
    Py_XDECREF(dtype);
    return out;
}

/* The [low, high) bytes an array reaches (empty for size 0). */
static void
byte_span(PyObject *x, uintptr_t *low, uintptr_t *high)
{
    const PyUSMArrayObject *a = ARR(x);
    Py_ssize_t isz = (Py_ssize_t)ua_py_array_itemsize(x);
    uintptr_t lo = (uintptr_t)a->data, hi = lo + (uintptr_t)isz;
    for (int k = 0; k < a->nd; k++) {
        if (a->shape[k] == 0) {
            *low = *high = lo;
            return;
        }
        Py_ssize_t reach = (a->shape[k] - 1) * a->strides[k] * isz;
        if (reach < 0) {
            lo -= (uintptr_t)(-reach);
        } else {
            hi += (uintptr_t)reach;
        }
    }
    *low = lo;
    *high = hi;
}

bool
ua_py_arrays_may_overlap(PyObject *a, PyObject *b)
{
    uintptr_t lo[2], hi[2];
    byte_span(a, &lo[0], &hi[0]);
    byte_span(b, &lo[1], &hi[1]);
    return lo[0] < hi[0] && lo[1] < hi[1] && lo[0] < hi[1] && lo[1] < hi[0];
}

/* numpy.may_share_memory(a, b, max_work=None) of two of our arrays:
 * whether the bytes they reach overlap (NumPy's bounds test). */
static PyObject *
may_share_memory(ua_state *st, PyObject *fargs, PyObject *fkwargs)
{
    Py_ssize_t n = PyTuple_GET_SIZE(fargs);
    if (n != 2 || PyDict_GET_SIZE(fkwargs) != 0 ||
        !is_ours(st, PyTuple_GET_ITEM(fargs, 0)) ||
        !is_ours(st, PyTuple_GET_ITEM(fargs, 1))) {
        return Py_NewRef(NOT_MAPPED);
    }
    return PyBool_FromLong(ua_py_arrays_may_overlap(
        PyTuple_GET_ITEM(fargs, 0), PyTuple_GET_ITEM(fargs, 1)));
}

/* numpy.unique(ar, return_index=False, return_inverse=False,
 * return_counts=False, axis=None, *, equal_nan=True, sorted=True) with
 * axis None: unique_values, or unique_all's parts that the flags ask for.
 * NaNs stay distinct, as the standard has them. */
static PyObject *
unique(ua_state *st, PyObject *module, PyObject *fargs, PyObject *fkwargs)
{
    static char *kwlist[] = {
        "ar",   "return_index", "return_inverse", "return_counts",
        "axis", "equal_nan",    "sorted",         NULL};
    PyObject *x, *axis = Py_None, *equal_nan = Py_True, *sorted = Py_True;
    int flag[3] = {0, 0, 0};
    if (!PyArg_ParseTupleAndKeywords(fargs, fkwargs, "O|pppO$OO:unique",
                                     kwlist, &x, &flag[0], &flag[1], &flag[2],
                                     &axis, &equal_nan, &sorted)) {
        return NULL;
    }
    if (axis != Py_None || !is_ours(st, x) || !PyObject_IsTrue(sorted)) {
        return Py_NewRef(NOT_MAPPED);
    }
    if (!flag[0] && !flag[1] && !flag[2]) {
        return PyObject_CallMethod(module, "unique_values", "(O)", x);
    }
    PyObject *all = PyObject_CallMethod(module, "unique_all", "(O)", x);
    if (all == NULL || !PyTuple_Check(all) || PyTuple_GET_SIZE(all) != 4) {
        Py_XDECREF(all);
        return all ? Py_NewRef(NOT_MAPPED) : NULL;
    }
    PyObject *list = PyList_New(0);
    int ok =
        list != NULL && PyList_Append(list, PyTuple_GET_ITEM(all, 0)) == 0;
    for (int k = 0; ok && k < 3; k++) {
        ok =
            !flag[k] || PyList_Append(list, PyTuple_GET_ITEM(all, k + 1)) == 0;
    }
    Py_DECREF(all);
    PyObject *out = ok ? PyList_AsTuple(list) : NULL;
    Py_XDECREF(list);
    return out;
}

/* x.squeeze(axis=None), as NumPy's and CuPy's arrays have it (Dask calls
 * it on chunks): the namespace's squeeze, every length-1 axis where axis
 * is None. */
PyObject *
ua_py_array_squeeze(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"axis", NULL};
    PyObject *axis = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:squeeze", kwlist,
                                     &axis)) {
        return NULL;
    }
    PyObject *axes = NULL;
    if (axis == Py_None) {
        const PyUSMArrayObject *a = ARR(self);
        Py_ssize_t count = 0;
        for (int k = 0; k < a->nd; k++) {
            count += a->shape[k] == 1;
        }
        if ((axes = PyTuple_New(count)) == NULL) {
            return NULL;
        }
        for (int k = 0, i = 0; k < a->nd; k++) {
            PyObject *v = a->shape[k] == 1 ? PyLong_FromLong(k) : NULL;
            if (a->shape[k] == 1 && v == NULL) {
                Py_DECREF(axes);
                return NULL;
            }
            if (v != NULL) {
                PyTuple_SET_ITEM(axes, i++, v);
            }
        }
        axis = axes;
    }
    PyObject *module = PyType_GetModuleByDef(Py_TYPE(self), &ua_module_def);
    PyObject *squeeze =
        module ? PyObject_GetAttrString(module, "squeeze") : NULL;
    PyObject *out =
        squeeze ? PyObject_CallFunctionObjArgs(squeeze, self, axis, NULL)
                : NULL;
    Py_XDECREF(squeeze);
    Py_XDECREF(axes);
    return out;
}

/* numpy.squeeze(a, axis=None): the array's squeeze method. */
static PyObject *
squeeze(ua_state *st, PyObject *fargs, PyObject *fkwargs)
{
    Py_ssize_t n = PyTuple_GET_SIZE(fargs);
    if (n < 1 || !is_ours(st, PyTuple_GET_ITEM(fargs, 0))) {
        return Py_NewRef(NOT_MAPPED);
    }
    PyObject *rest = PyTuple_GetSlice(fargs, 1, n);
    PyObject *out =
        rest ? ua_py_array_squeeze(PyTuple_GET_ITEM(fargs, 0), rest, fkwargs)
             : NULL;
    Py_XDECREF(rest);
    return out;
}

static PyObject *
composed(ua_state *st, PyObject *module, const char *name, PyObject *fargs,
         PyObject *fkwargs)
{
    if (strcmp(name, "unique") == 0) {
        return unique(st, module, fargs, fkwargs);
    }
    if (strncmp(name, "atleast_", 8) == 0 && name[8] >= '1' &&
        name[8] <= '3' && strcmp(name + 9, "d") == 0) {
        return atleast_nd(st, module, fargs, fkwargs, name[8] - '0');
    }
    if (strcmp(name, "column_stack") == 0) {
        return column_stack(st, module, fargs, fkwargs);
    }
    if (strcmp(name, "iscomplexobj") == 0) {
        return iscomplexobj(fargs, fkwargs);
    }
    if (strcmp(name, "may_share_memory") == 0) {
        return may_share_memory(st, fargs, fkwargs);
    }
    if (strcmp(name, "squeeze") == 0) {
        return squeeze(st, fargs, fkwargs);
    }
    return Py_NewRef(NOT_MAPPED);
}

/* ------------------------------------------ NumPy on host memory */

/* The deepest nesting of lists and tuples searched for our arrays. */
#define NESTING 8

/* 1 when every array of ours in obj (itself, or in the lists and tuples
 * it holds) is in memory the host reaches, 0 if one is not. */
static int
all_host(ua_state *st, PyObject *obj, int depth)
{
    if (is_ours(st, obj)) {
        return ua_py_array_host_accessible(obj);
    }
    if ((PyList_CheckExact(obj) || PyTuple_CheckExact(obj)) && depth > 0) {
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(obj); i++) {
            if (!all_host(st, PySequence_Fast_ITEMS(obj)[i], depth - 1)) {
                return 0;
            }
        }
    }
    return 1;
}

/* obj with each array of ours replaced by a NumPy view of it. */
static PyObject *
as_numpy(ua_state *st, PyObject *obj, int depth)
{
    if (is_ours(st, obj)) {
        return ua_py_numpy_of_buffer(st, obj, Py_None, Py_None);
    }
    bool list = PyList_CheckExact(obj);
    if ((!list && !PyTuple_CheckExact(obj)) || depth == 0) {
        return Py_NewRef(obj);
    }
    /* A tuple of the items: a view's making may run user code (a
     * finalizer) that changes a list. */
    PyObject *items = PySequence_Tuple(obj);
    Py_ssize_t n = items ? PyTuple_GET_SIZE(items) : 0;
    PyObject *out = items == NULL ? NULL
                    : list        ? PyList_New(n)
                                  : PyTuple_New(n);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *item = as_numpy(st, PyTuple_GET_ITEM(items, i), depth - 1);
        if (item == NULL) {
            Py_CLEAR(out);
            break;
        }
        if (list) {
            PyList_SET_ITEM(out, i, item);
        } else {
            PyTuple_SET_ITEM(out, i, item);
        }
    }
    Py_XDECREF(items);
    return out;
}

static PyObject *
numpy_call(ua_state *st, PyObject *func, PyObject *fargs, PyObject *fkwargs)
{
    PyObject *args = as_numpy(st, fargs, NESTING);
    PyObject *kwargs = args ? PyDict_New() : NULL;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (kwargs != NULL && PyDict_Next(fkwargs, &pos, &key, &value)) {
        PyObject *v = as_numpy(st, value, NESTING - 1);
        if (v == NULL || PyDict_SetItem(kwargs, key, v) < 0) {
            Py_CLEAR(kwargs);
        }
        Py_XDECREF(v);
    }
    PyObject *out = kwargs ? PyObject_Call(func, args, kwargs) : NULL;
    Py_XDECREF(kwargs);
    Py_XDECREF(args);
    return out;
}

static int
host_call(ua_state *st, PyObject *fargs, PyObject *fkwargs)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    if (!all_host(st, fargs, NESTING)) {
        return 0;
    }
    while (PyDict_Next(fkwargs, &pos, &key, &value)) {
        if (!all_host(st, value, NESTING - 1)) {
            return 0;
        }
    }
    return 1;
}

PyObject *
ua_py_numpy_on_host(PyObject *self, PyObject *callable, PyObject *args,
                    PyObject *kwargs)
{
    ua_state *st = ua_state_of(self);
    PyObject *none = kwargs ? NULL : PyDict_New();
    PyObject *kw = kwargs ? kwargs : none;
    if (kw == NULL) {
        return NULL;
    }
    PyObject *out = host_call(st, args, kw)
                        ? numpy_call(st, callable, args, kw)
                        : Py_NewRef(Py_NotImplemented);
    Py_XDECREF(none);
    return out;
}

/* __array_function__(func, types, args, kwargs). */
PyObject *
ua_py_array_function(PyObject *self, PyObject *args)
{
    PyObject *func, *types, *fargs, *fkwargs;
    if (!PyArg_ParseTuple(args, "OOO!O!:__array_function__", &func, &types,
                          &PyTuple_Type, &fargs, &PyDict_Type, &fkwargs)) {
        return NULL;
    }
    ua_state *st = ua_state_of(self);
    PyObject *module = PyType_GetModuleByDef(Py_TYPE(self), &ua_module_def);
    PyObject *name = PyObject_GetAttrString(func, "__name__");
    const char *s = name ? PyUnicode_AsUTF8(name) : NULL;
    if (module == NULL || s == NULL) {
        Py_XDECREF(name);
        return NULL;
    }
    PyObject *out = composed(st, module, s, fargs, fkwargs);
    if (out != NOT_MAPPED) {
        Py_DECREF(name);
        return out;
    }
    Py_DECREF(out);
    out = NULL;
    bool host = host_call(st, fargs, fkwargs);
    PyObject *ours = namespace_counterpart(module, name);
    if (ours != NULL && PyCallable_Check(ours)) {
        bool all_axes =
            strcmp(s, "transpose") == 0 && transposes_all_axes(fargs, fkwargs);
        out = all_axes ? reversed_axes_permutation(ours, fargs)
                       : PyObject_Call(ours, fargs, fkwargs);
        /* NumPy's arguments that the namespace's function does not take
         * (np.std(x, ddof=1)): NumPy's function, where it can. */
        if (out == NULL && host && PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            out = numpy_call(st, func, fargs, fkwargs);
        }
    } else if (host) {
        PyErr_Clear();
        out = numpy_call(st, func, fargs, fkwargs);
    } else {
        PyErr_Clear();
        out = NULL;
        PyErr_Format(PyExc_TypeError,
                     "numpy.%U has no counterpart in usmarray, and NumPy "
                     "cannot reach device memory: convert the array with "
                     "ua.asnumpy(x) to use it",
                     name);
    }
    Py_XDECREF(ours);
    Py_DECREF(name);
    return out;
}
