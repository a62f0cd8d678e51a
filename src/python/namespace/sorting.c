/* The standard's sorting functions, sort and argsort, over the core's
 * sort (rows along the axis, radix sorted on the host). */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings_reduce.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/reducing.h"
#include "python/namespace/sorting.h"

PyObject *
ua_py_sorted(ua_state *st, PyObject *x, int axis, bool descending,
             bool argsort)
{
    ua_typenum t = argsort ? UA_INT64 : (ua_typenum)ARR(x)->typenum;
    PyObject *out = ua_py_result_like(st, x, ARR(x)->nd, ARR(x)->shape, t);
    if (out == NULL) {
        return NULL;
    }
    ua_strided xs = ua_py_array_strided(x), rs = ua_py_array_strided(out);
    int nd = ARR(x)->nd;
    const Py_ssize_t *shape = ARR(x)->shape;
    PyThreadState *saved = ua_py_release_if_long((size_t)ua_py_array_size(x) *
                                                 ua_py_array_itemsize(x));
    ua_status code = ua_queue_sort(queue_of_array(x), nd, shape, &xs, axis,
                                   descending, argsort, &rs);
    ua_py_reacquire(saved);
    if (ua_py_run_core(st, code) < 0) {
        Py_CLEAR(out);
    }
    return out;
}

/* dpctl's kind=: None or one of its algorithms' names.  Each is a stable
 * sort of the same order here, so the name is only checked. */
static int
check_sort_kind(PyObject *kind, const char *fn)
{
    static const char *const kinds[] = {"stable", "mergesort", "radixsort"};
    if (kind == NULL || kind == Py_None) {
        return 0;
    }
    for (size_t k = 0; PyUnicode_Check(kind) && k < 3; k++) {
        if (PyUnicode_CompareWithASCIIString(kind, kinds[k]) == 0) {
            return 0;
        }
    }
    PyErr_Format(PyExc_ValueError,
                 "%s: kind must be None, 'stable', 'mergesort' or "
                 "'radixsort', not %R",
                 fn, kind);
    return -1;
}

/* A 0-d x sorts as its one element: axis is 0 or -1, the result a copy
 * of x (sort) or the index 0 (argsort). */
PyObject *
ua_py_sorted_scalar(ua_state *st, PyObject *x, PyObject *axis, const char *fn,
                    bool argsort)
{
    int ax = 0;
    if (axis != NULL && ua_py_parse_axis(st, axis, fn, 1, &ax) < 0) {
        return NULL;
    }
    if (!argsort) {
        return ua_py_array_copy(st, x, (ua_typenum)ARR(x)->typenum, 'C',
                                base_of(x)->kind, base_of(x)->queue);
    }
    PyObject *out = ua_py_result_like(st, x, 0, NULL, UA_INT64);
    PyObject *zero = out ? PyLong_FromLong(0) : NULL;
    if (zero == NULL || ua_py_array_assign(st, out, zero) < 0) {
        Py_CLEAR(out);
    }
    Py_XDECREF(zero);
    return out;
}

static PyObject *
sorting(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
        PyObject *kwnames, const char *fn, bool argsort)
{
    static const char *const kwlist[] = {"x",      "axis", "descending",
                                         "stable", "kind", NULL};
    ua_py_argspec spec = {fn, kwlist, 1, 1};
    PyObject *v[5] = {NULL, NULL, NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    int axis = -1, descending = 0, stable = 1;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], fn) < 0 ||
        ua_py_parse_bool(v[2], fn, "descending", &descending) < 0 ||
        ua_py_parse_bool(v[3], fn, "stable", &stable) < 0 ||
        check_sort_kind(v[4], fn) < 0) {
        return NULL;
    }
    int nd = ARR(v[0])->nd;
    if (nd == 0) {
        return ua_py_sorted_scalar(st, v[0], v[1], fn, argsort);
    }
    if ((v[1] == NULL ? ua_py_normalize_axis(st, fn, -1, nd, &axis)
                      : ua_py_parse_axis(st, v[1], fn, nd, &axis)) < 0) {
        return NULL;
    }
    /* Every sort here is stable: stable=False asks for no less. */
    return ua_py_sorted(st, v[0], axis, descending, argsort);
}

static PyObject *
sort(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return sorting(m, a, n, k, "sort", false);
}

static PyObject *
argsort(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return sorting(m, a, n, k, "argsort", true);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* Their operands as snapshots: their other arguments' hooks run after
 * they read the operands' layouts. */
UA_PY_ON_SNAPSHOTS(sort)
UA_PY_ON_SNAPSHOTS(argsort)

static PyMethodDef sorting_functions[] = {
    {"sort", KW(sort_on_snapshots), UA_DOC_SORT},
    {"argsort", KW(argsort_on_snapshots), UA_DOC_ARGSORT},
    {0},
};

int
ua_py_sorting_add(PyObject *module)
{
    return PyModule_AddFunctions(module, sorting_functions);
}
