/* The standard's indexing functions, take and take_along_axis, and
 * dpctl's put, put_along_axis, place and extract, over the gather and
 * scatter of types/array_index.c.  dpctl's index modes are elementwise
 * passes over the indices before the gather or scatter, so that every
 * backend runs them with the kernels it has. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/objects.h"
#include "python/namespace/arguments.h"
#include "python/namespace/functions.h"
#include "python/namespace/indexing.h"
#include "python/types/arrays.h"

#include "core/compute/compute.h"

/* The index modes: the standard's (out of bounds raises IndexError), and
 * dpctl's "wrap" (clamped to [-n, n), negative ones counted from the end)
 * and "clip" (clamped to [0, n)). */
enum index_mode { MODE_RAISE, MODE_WRAP, MODE_CLIP };

static int
parse_mode(PyObject *obj, const char *fn, enum index_mode dflt,
           enum index_mode *mode)
{
    *mode = dflt;
    if (obj == NULL) {
        return 0;
    }
    if (PyUnicode_Check(obj) &&
        PyUnicode_CompareWithASCIIString(obj, "wrap") == 0) {
        *mode = MODE_WRAP;
        return 0;
    }
    if (PyUnicode_Check(obj) &&
        PyUnicode_CompareWithASCIIString(obj, "clip") == 0) {
        *mode = MODE_CLIP;
        return 0;
    }
    PyErr_Format(PyExc_ValueError, "%s: mode must be 'wrap' or 'clip', not %R",
                 fn, obj);
    return -1;
}

/* f(x, a, b...) for the catalogue's function f of arity 1 + count with
 * Python integers after x (a new reference; steals x). */
static PyObject *
with_ints(ua_state *st, ua_ew_id f, PyObject *x, int count,
          const long long *ints)
{
    PyObject *ops[3] = {x, NULL, NULL};
    PyObject *out = NULL;
    int made = 0;
    while (made < count && (ops[1 + made] = PyLong_FromLongLong(ints[made]))) {
        made++;
    }
    if (x != NULL && made == count) {
        out = ua_py_elementwise(st, f, ops, 1 + count, NULL, false);
    }
    for (int k = 0; k < 3; k++) {
        Py_XDECREF(ops[k]);
    }
    return out;
}

/* indices as int64 of x's queue, each brought into [0, n) as mode says
 * (MODE_RAISE leaves them for the kernels' bounds check). */
static PyObject *
indices_in_mode(ua_state *st, PyObject *x, PyObject *indices, Py_ssize_t n,
                enum index_mode mode, const char *fn)
{
    PyObject *ix = ua_py_integer_indices(st, x, indices, fn);
    if (ix == NULL || mode == MODE_RAISE || ua_py_array_size(ix) == 0) {
        return ix;
    }
    if (n == 0) {
        PyErr_Format(PyExc_IndexError,
                     "%s: cannot take non-empty indices from an empty axis",
                     fn);
        Py_DECREF(ix);
        return NULL;
    }
    if (mode == MODE_CLIP) {
        const long long bounds[2] = {0, n - 1};
        return with_ints(st, UA_EW_clip, ix, 2, bounds);
    }
    /* Clamped first, so that a far index cannot wrap around twice; the
     * remainder then has the divisor's sign, as Python's. */
    const long long bounds[2] = {-(long long)n, n - 1}, modulus = n;
    return with_ints(st, UA_EW_remainder,
                     with_ints(st, UA_EW_clip, ix, 2, bounds), 1, &modulus);
}

/* The axis of take and put: required where x has two dimensions or more;
 * only 0 (or -1) for a 0-d x, which is taken as its one element. */
static int
axis_of_take(ua_state *st, PyObject *x, PyObject *obj, const char *fn,
             int *axis)
{
    int nd = ARR(x)->nd;
    *axis = 0;
    if (obj == Py_None) {
        if (nd > 1) {
            PyErr_Format(PyExc_ValueError,
                         "%s: axis may be omitted only for an array of at "
                         "most one dimension, not one of %d",
                         fn, nd);
            return -1;
        }
        return 0;
    }
    return ua_py_parse_axis(st, obj, fn, nd > 0 ? nd : 1, axis);
}

/* The length of x's axis (1 for a 0-d x). */
static Py_ssize_t
axis_length(PyObject *x, int axis)
{
    return ARR(x)->nd == 0 ? 1 : ARR(x)->shape[axis];
}

/* take's out= (dpctl's): checked for the result's shape, x's axes with
 * the indices' in place of axis, and x's dtype; given the gather directly
 * where it meets neither x nor the indices, else a copy of it. */
static PyObject *
take_into(ua_state *st, PyObject *x, PyObject *ix, int axis, PyObject *dest)
{
    Py_ssize_t shape[2 * UA_MAXDIMS];
    int nd = 0, xnd = ARR(x)->nd;
    for (int j = 0; j < xnd || (xnd == 0 && j == 0); j++) {
        for (int k = 0; j == axis && k < ARR(ix)->nd; k++) {
            shape[nd++] = ARR(ix)->shape[k];
        }
        if (j != axis && j < xnd) {
            shape[nd++] = ARR(x)->shape[j];
        }
    }
    if (ua_py_check_out(st, "take", dest, nd, shape,
                        (ua_typenum)ARR(x)->typenum, x) < 0) {
        return NULL;
    }
    if (!ua_py_arrays_may_overlap(x, dest) &&
        !ua_py_arrays_may_overlap(ix, dest)) {
        return ua_py_array_take_out(st, x, ix, axis, dest);
    }
    PyObject *r = ua_py_array_take(st, x, ix, axis);
    int rc = r != NULL ? ua_py_array_assign(st, dest, r) : -1;
    Py_XDECREF(r);
    return rc < 0 ? NULL : Py_NewRef(dest);
}

static PyObject *
take(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
     PyObject *kwnames)
{
    static const char *const kwlist[] = {"x",   "indices", "axis",
                                         "out", "mode",    NULL};
    static const ua_py_argspec spec = {"take", kwlist, 2, 2};
    PyObject *v[5] = {NULL, NULL, Py_None, Py_None, NULL};
    ua_state *st = PyModule_GetState(module);
    int axis = 0;
    enum index_mode mode;
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "take") < 0 ||
        parse_mode(v[4], "take", MODE_RAISE, &mode) < 0 ||
        axis_of_take(st, v[0], v[2], "take", &axis) < 0) {
        return NULL;
    }
    PyObject *x = v[0];
    PyObject *ix =
        indices_in_mode(st, x, v[1], axis_length(x, axis), mode, "take");
    PyObject *out = ix == NULL        ? NULL
                    : v[3] == Py_None ? ua_py_array_take(st, x, ix, axis)
                                      : take_into(st, x, ix, axis, v[3]);
    Py_XDECREF(ix);
    return out;
}

static PyObject *
put(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
    PyObject *kwnames)
{
    static const char *const kwlist[] = {"x",    "indices", "vals",
                                         "axis", "mode",    NULL};
    static const ua_py_argspec spec = {"put", kwlist, 3, 3};
    PyObject *v[5] = {NULL, NULL, NULL, Py_None, NULL};
    ua_state *st = PyModule_GetState(module);
    int axis = 0;
    enum index_mode mode;
    if (ua_py_parse_posonly(&spec, 3, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "put") < 0 ||
        ua_py_check_array(st, v[1], "put") < 0 ||
        parse_mode(v[4], "put", MODE_WRAP, &mode) < 0 ||
        axis_of_take(st, v[0], v[3], "put", &axis) < 0) {
        return NULL;
    }
    PyObject *x = v[0];
    if (ARR(v[1])->nd != 1) {
        PyErr_Format(PyExc_ValueError,
                     "put: the indices must be one-dimensional, not of %d "
                     "dimensions",
                     ARR(v[1])->nd);
        return NULL;
    }
    PyObject *ix =
        indices_in_mode(st, x, v[1], axis_length(x, axis), mode, "put");
    int rc = ix ? ua_py_array_put(st, x, ix, v[2], axis) : -1;
    Py_XDECREF(ix);
    return rc < 0 ? NULL : Py_NewRef(Py_None);
}

/* The axis of take_along_axis and put_along_axis, for an x of at least
 * one dimension. */
static int
axis_along(ua_state *st, PyObject *x, PyObject *obj, const char *fn, int *axis)
{
    int nd = ARR(x)->nd;
    if (nd == 0) {
        PyErr_Format(PyExc_ValueError,
                     "%s needs an array of at least one dimension", fn);
        return -1;
    }
    *axis = nd - 1;
    return obj == NULL ? 0 : ua_py_parse_axis(st, obj, fn, nd, axis);
}

static PyObject *
take_along_axis(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "indices", "axis", "mode", NULL};
    static const ua_py_argspec spec = {"take_along_axis", kwlist, 2, 2};
    PyObject *v[4] = {NULL, NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    int axis = 0;
    enum index_mode mode;
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "take_along_axis") < 0 ||
        ua_py_check_array(st, v[1], "take_along_axis") < 0 ||
        parse_mode(v[3], "take_along_axis", MODE_RAISE, &mode) < 0 ||
        axis_along(st, v[0], v[2], "take_along_axis", &axis) < 0) {
        return NULL;
    }
    PyObject *x = v[0];
    PyObject *ix = indices_in_mode(st, x, v[1], ARR(x)->shape[axis], mode,
                                   "take_along_axis");
    PyObject *out = ix ? ua_py_array_take_along_axis(st, x, ix, axis) : NULL;
    Py_XDECREF(ix);
    return out;
}

/* 0, 1, ..., n - 1 as int64 on x's queue, along axis j of nd (length 1
 * along the others), to index x's axis j whole beside an index array. */
static PyObject *
range_along(ua_state *st, PyObject *x, Py_ssize_t n, int j, int nd)
{
    PyObject *r = ua_py_array_empty(st, 1, &n, NULL, UA_INT64, 'C',
                                    base_of(x)->kind, base_of(x)->queue);
    PyObject *values =
        r ? PyObject_CallFunction((PyObject *)&PyRange_Type, "n", n) : NULL;
    if (values == NULL || (n > 0 && ua_py_array_assign(st, r, values) < 0)) {
        Py_XDECREF(values);
        Py_XDECREF(r);
        return NULL;
    }
    Py_DECREF(values);
    Py_ssize_t shape[UA_MAXDIMS];
    for (int k = 0; k < nd; k++) {
        shape[k] = k == j ? n : 1;
    }
    PyObject *out = ua_py_array_reshape(st, r, nd, shape, 'C', 0);
    Py_DECREF(r);
    return out;
}

static PyObject *
put_along_axis(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames)
{
    static const char *const kwlist[] = {"x",    "indices", "vals",
                                         "axis", "mode",    NULL};
    static const ua_py_argspec spec = {"put_along_axis", kwlist, 3, 3};
    PyObject *v[5] = {NULL, NULL, NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    int axis = 0;
    enum index_mode mode;
    if (ua_py_parse_posonly(&spec, 3, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "put_along_axis") < 0 ||
        ua_py_check_array(st, v[1], "put_along_axis") < 0 ||
        parse_mode(v[4], "put_along_axis", MODE_WRAP, &mode) < 0 ||
        axis_along(st, v[0], v[3], "put_along_axis", &axis) < 0) {
        return NULL;
    }
    PyObject *x = v[0];
    int nd = ARR(x)->nd;
    if (ARR(v[1])->nd != nd) {
        PyErr_Format(PyExc_ValueError,
                     "put_along_axis: the indices must have the array's %d "
                     "dimensions, not %d",
                     nd, ARR(v[1])->nd);
        return NULL;
    }
    /* x[i0, ..., indices, ..., ik] = vals with ranges over the other axes,
     * which broadcast against the indices as NumPy's put_along_axis. */
    PyObject *key = PyTuple_New(nd);
    for (int j = 0; key != NULL && j < nd; j++) {
        PyObject *item = j == axis
                             ? indices_in_mode(st, x, v[1], ARR(x)->shape[j],
                                               mode, "put_along_axis")
                             : range_along(st, x, ARR(x)->shape[j], j, nd);
        if (item == NULL) {
            Py_CLEAR(key);
            break;
        }
        PyTuple_SET_ITEM(key, j, item);
    }
    int rc = key ? ua_py_array_advanced_set(x, key, v[2]) : -1;
    Py_XDECREF(key);
    return rc < 0 ? NULL : Py_NewRef(Py_None);
}

/* ---------------------------------------------------- place and extract */

/* The arrays of place and extract: all on one queue, the first two of one
 * shape. */
static int
check_masked(ua_state *st, PyObject *const *arrays, int n, const char *fn)
{
    for (int k = 0; k < n; k++) {
        if (ua_py_check_array(st, arrays[k], fn) < 0) {
            return -1;
        }
    }
    for (int k = 1; k < n; k++) {
        if (queue_of_array(arrays[k]) != queue_of_array(arrays[0])) {
            PyErr_Format(PyExc_ValueError,
                         "%s: the arrays must be on one queue, not on %R and "
                         "%R",
                         fn, base_of(arrays[0])->queue,
                         base_of(arrays[k])->queue);
            return -1;
        }
    }
    PyUSMArrayObject *a = ARR(arrays[0]), *b = ARR(arrays[1]);
    if (a->nd != b->nd ||
        memcmp(a->shape, b->shape, sizeof(Py_ssize_t) * (size_t)a->nd) != 0) {
        PyErr_Format(PyExc_ValueError,
                     "%s: the array and the mask must have one shape", fn);
        return -1;
    }
    return 0;
}

/* mask as a boolean array: its elements that are not zero. */
static PyObject *
as_mask(ua_state *st, PyObject *mask)
{
    if (ARR(mask)->typenum == UA_BOOL) {
        return Py_NewRef(mask);
    }
    const long long zero = 0;
    return with_ints(st, UA_EW_not_equal, Py_NewRef(mask), 1, &zero);
}

static PyObject *
extract(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ua_state *st = PyModule_GetState(module);
    if (ua_py_check_nargs("extract", nargs, 2) < 0) {
        return NULL;
    }
    PyObject *arrays[2] = {args[1], args[0]};
    if (check_masked(st, arrays, 2, "extract") < 0) {
        return NULL;
    }
    PyObject *mask = as_mask(st, args[0]);
    PyObject *out = mask ? ua_py_array_advanced_get(args[1], mask) : NULL;
    Py_XDECREF(mask);
    return out;
}

/* vals repeated to count elements of x's dtype, as place writes them. */
static PyObject *
cycled(ua_state *st, PyObject *x, PyObject *vals, Py_ssize_t count)
{
    const long long size = ua_py_array_size(vals);
    PyObject *ix = with_ints(st, UA_EW_remainder,
                             range_along(st, vals, count, 0, 1), 1, &size);
    PyObject *r = ix ? ua_py_array_take(st, vals, ix, 0) : NULL;
    Py_XDECREF(ix);
    if (r != NULL && ARR(r)->typenum != ARR(x)->typenum) {
        Py_SETREF(r, ua_py_array_copy(st, r, (ua_typenum)ARR(x)->typenum, 'C',
                                      base_of(r)->kind, base_of(r)->queue));
    }
    return r;
}

static PyObject *
place(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ua_state *st = PyModule_GetState(module);
    if (ua_py_check_nargs("place", nargs, 3) < 0 ||
        check_masked(st, args, 3, "place") < 0) {
        return NULL;
    }
    PyObject *x = args[0], *vals = args[2];
    if (ARR(vals)->nd != 1) {
        PyErr_Format(PyExc_ValueError,
                     "place: the values must be one-dimensional, not of %d "
                     "dimensions",
                     ARR(vals)->nd);
        return NULL;
    }
    if (!(ARR(x)->flags & USM_ARRAY_WRITABLE)) {
        PyErr_SetString(PyExc_ValueError, "place: the array is read-only");
        return NULL;
    }
    PyObject *mask = as_mask(st, args[1]);
    PyObject *where = mask ? ua_py_mask_coordinates(st, mask) : NULL;
    Py_ssize_t count = where ? ARR(where)->shape[0] : 0;
    Py_XDECREF(where);
    int rc = where == NULL ? -1 : 0;
    if (rc == 0 && count > 0 && ua_py_array_size(vals) == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "place: cannot place values from an empty array");
        rc = -1;
    }
    if (rc == 0 && count > 0) {
        PyObject *v = cycled(st, x, vals, count);
        rc = v ? ua_py_array_advanced_set(x, mask, v) : -1;
        Py_XDECREF(v);
    }
    Py_XDECREF(mask);
    return rc < 0 ? NULL : Py_NewRef(Py_None);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

#define POS(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL

/* Their operands as snapshots: their other arguments' hooks run after
 * they read the operands' layouts. */
UA_PY_ON_SNAPSHOTS(take)
UA_PY_ON_SNAPSHOTS(take_along_axis)
UA_PY_ON_SNAPSHOTS(put)
UA_PY_ON_SNAPSHOTS(put_along_axis)

static PyMethodDef indexing_functions[] = {
    {"take", KW(take_on_snapshots), UA_DOC_TAKE},
    {"take_along_axis", KW(take_along_axis_on_snapshots),
     UA_DOC_TAKE_ALONG_AXIS},
    {"put", KW(put_on_snapshots), UA_DOC_PUT},
    {"put_along_axis", KW(put_along_axis_on_snapshots), UA_DOC_PUT_ALONG_AXIS},
    {"place", POS(place), UA_DOC_PLACE},
    {"extract", POS(extract), UA_DOC_EXTRACT},
    {0},
};

int
ua_py_indexing_add(PyObject *module)
{
    return PyModule_AddFunctions(module, indexing_functions);
}
