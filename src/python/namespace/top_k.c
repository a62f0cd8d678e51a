/* dpctl's top_k and its result type TopKResult, over the stable sort of
 * sorting.c: the first k positions of the sorted axis and the values
 * they take. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings_reduce.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/sets.h"
#include "python/namespace/sorting.h"
#include "python/namespace/top_k.h"

/* dpctl's top_k mode: whether the k largest are asked for. */
static int
parse_top_k_mode(PyObject *obj, int *largest)
{
    *largest = 1;
    if (obj == NULL) {
        return 0;
    }
    if (PyUnicode_Check(obj) &&
        PyUnicode_CompareWithASCIIString(obj, "largest") == 0) {
        return 0;
    }
    if (PyUnicode_Check(obj) &&
        PyUnicode_CompareWithASCIIString(obj, "smallest") == 0) {
        *largest = 0;
        return 0;
    }
    PyErr_Format(PyExc_ValueError,
                 "top_k: mode must be 'largest' or 'smallest', not %R", obj);
    return -1;
}

/* The first k along axis of a (a view, then its own copy). */
static PyObject *
leading(ua_state *st, PyObject *a, int axis, Py_ssize_t k)
{
    PyObject *key = PyTuple_New(axis + 1);
    for (int j = 0; key != NULL && j <= axis; j++) {
        PyObject *end = j == axis ? PyLong_FromSsize_t(k) : NULL;
        PyObject *sl = PySlice_New(NULL, end, NULL);
        Py_XDECREF(end);
        if (sl == NULL) {
            Py_CLEAR(key);
            break;
        }
        PyTuple_SET_ITEM(key, j, sl);
    }
    PyObject *view = key ? PyObject_GetItem(a, key) : NULL;
    Py_XDECREF(key);
    PyObject *out =
        view ? ua_py_array_copy(st, view, (ua_typenum)ARR(view)->typenum, 'C',
                                base_of(view)->kind, base_of(view)->queue)
             : NULL;
    Py_XDECREF(view);
    return out;
}

/* dpctl's top_k: the k largest (or smallest) along axis, or of the
 * flattened x, in sort's stable order (equal values by position), from
 * the stable sort's positions: correctness first, on every backend. */
static PyObject *
top_k(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
      PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "k", "axis", "mode", NULL};
    static const ua_py_argspec spec = {"top_k", kwlist, 2, 2};
    PyObject *v[4] = {NULL, NULL, Py_None, NULL};
    ua_state *st = PyModule_GetState(module);
    int largest = 1, axis = 0;
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "top_k") < 0 ||
        parse_top_k_mode(v[3], &largest) < 0) {
        return NULL;
    }
    PyObject *kobj = PyNumber_Index(v[1]);
    Py_ssize_t k = kobj ? PyLong_AsSsize_t(kobj) : -1;
    Py_XDECREF(kobj);
    if (k == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (k < 0) {
        PyErr_Format(PyExc_ValueError,
                     "top_k: k must be a non-negative integer, not %zd", k);
        return NULL;
    }
    PyObject *x = v[0];
    int nd = ARR(x)->nd;
    Py_ssize_t n = ua_py_array_size(x);
    PyObject *items[2] = {NULL, NULL};
    if (v[2] != Py_None) {
        if (ua_py_parse_axis(st, v[2], "top_k", nd, &axis) < 0) {
            return NULL;
        }
        n = ARR(x)->shape[axis];
    }
    if (k > n || (nd == 0 && k > 1)) {
        PyErr_Format(PyExc_ValueError,
                     "top_k: k=%zd is out of bounds for %zd elements", k,
                     nd == 0 ? (Py_ssize_t)1 : n);
        return NULL;
    }
    if (nd == 0) {
        items[0] = ua_py_sorted_scalar(st, x, NULL, "top_k", false);
        items[1] = ua_py_sorted_scalar(st, x, NULL, "top_k", true);
        return ua_py_result_tuple(module, "TopKResult", 2, items);
    }
    PyObject *flat = v[2] == Py_None
                         ? ua_py_array_reshape(st, x, 1, &n, 'C', -1)
                         : Py_NewRef(x);
    PyObject *order =
        flat ? ua_py_sorted(st, flat, axis, largest, true) : NULL;
    items[1] = order ? leading(st, order, axis, k) : NULL;
    items[0] = items[1] ? ua_py_array_take_along_axis(st, flat, items[1], axis)
                        : NULL;
    Py_XDECREF(order);
    Py_XDECREF(flat);
    return ua_py_result_tuple(module, "TopKResult", 2, items);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* Its operand as a snapshot: k's and axis's hooks run after it reads the
 * operand's layout. */
UA_PY_ON_SNAPSHOTS(top_k)

static PyMethodDef top_k_functions[] = {
    {"top_k", KW(top_k_on_snapshots), UA_DOC_TOP_K},
    {0},
};

int
ua_py_top_k_add(PyObject *module)
{
    static PyStructSequence_Field fields[] = {
        {"values", NULL}, {"indices", NULL}, {NULL, NULL}};
    if (ua_py_add_result_type(module, "usmarray", "TopKResult",
                              "top_k's result", fields, 2, NULL) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, top_k_functions);
}
