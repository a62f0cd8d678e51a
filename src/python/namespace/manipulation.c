/* The Array API's manipulation functions that return views of x:
 * broadcast_arrays, broadcast_to, expand_dims, flip, moveaxis,
 * permute_dims, reshape, squeeze and unstack.  A view shares x's Memory;
 * its layout is derived from x's checked one (stride 0 for broadcast and
 * inserted axes, negated strides for flipped ones), and a broadcast shape
 * is checked for size before it becomes an array.  The functions that copy
 * are in manipulation_copies.c; this file adds both to the module. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/errors.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/manipulation.h"
#include "python/namespace/manipulation_copies.h"

#include <string.h>

/* A view of x; writable only where x is and `writable` allows. */
static PyObject *
view_of(ua_state *st, PyObject *x, int nd, const Py_ssize_t *shape,
        const Py_ssize_t *strides, char *data, int writable)
{
    return ua_py_array_make(
        st, nd, shape, strides, (ua_typenum)ARR(x)->typenum, data,
        ARR(x)->base, writable && (ARR(x)->flags & USM_ARRAY_WRITABLE) != 0);
}

/* ---------------------------------------------------------- broadcasting */

static int
cannot_broadcast(const char *fn, int nd, const Py_ssize_t *shape, int tnd,
                 const Py_ssize_t *tshape)
{
    PyObject *from = ua_py_int_tuple(nd, shape);
    PyObject *to = ua_py_int_tuple(tnd, tshape);
    if (from != NULL && to != NULL) {
        PyErr_Format(PyExc_ValueError,
                     "%s: an array of shape %R cannot be broadcast to shape "
                     "%R",
                     fn, from, to);
    }
    Py_XDECREF(from);
    Py_XDECREF(to);
    return -1;
}

/* The strides that show x with the shape (tnd, tshape): x's where an axis
 * keeps its length, 0 where a length-1 or a missing axis is repeated. */
static int
broadcast_strides(const char *fn, PyObject *x, int tnd,
                  const Py_ssize_t *tshape, Py_ssize_t *out)
{
    int nd = ARR(x)->nd;
    const Py_ssize_t *shape = ARR(x)->shape;
    if (nd > tnd) {
        return cannot_broadcast(fn, nd, shape, tnd, tshape);
    }
    for (int k = tnd - 1, j = nd - 1; k >= 0; k--, j--) {
        if (j < 0 || (shape[j] == 1 && tshape[k] != 1)) {
            out[k] = 0;
        } else if (shape[j] == tshape[k]) {
            out[k] = ARR(x)->strides[j];
        } else {
            return cannot_broadcast(fn, nd, shape, tnd, tshape);
        }
    }
    return 0;
}

/* 0 when an array of nd axes of this shape can be addressed with x's
 * items (a broadcast view has as many elements as its shape). */
static int
check_size(ua_state *st, PyObject *x, int nd, const Py_ssize_t *shape)
{
    Py_ssize_t n;
    if (ua_layout_check_size(nd, shape, ua_py_array_itemsize(x), &n) !=
        UA_OK) {
        return ua_py_fail_core(st, ua_error_code());
    }
    return 0;
}

static PyObject *
broadcast_to(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
             PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "shape", NULL};
    static const ua_py_argspec spec = {"broadcast_to", kwlist, 2, 2};
    PyObject *v[2] = {NULL, NULL};
    Py_ssize_t shape[UA_MAXDIMS], strides[UA_MAXDIMS];
    int nd;
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "broadcast_to") < 0 ||
        ua_py_parse_shape(v[1], "shape", shape, &nd) < 0 ||
        check_size(st, v[0], nd, shape) < 0 ||
        broadcast_strides("broadcast_to", v[0], nd, shape, strides) < 0) {
        return NULL;
    }
    /* As in NumPy, the result is read-only: its elements repeat. */
    return view_of(st, v[0], nd, shape, strides, ARR(v[0])->data, 0);
}

/* Broadcasts shape i, (snd, s), into the common shape (*nd, shape), in
 * which from[k] names the shape that set axis k's length (-1: none yet):
 * -1 where a length conflicts, *other then naming that earlier shape. */
static int
broadcast_into(int *nd, Py_ssize_t *shape, Py_ssize_t *from, int snd,
               const Py_ssize_t *s, Py_ssize_t i, Py_ssize_t *other)
{
    if (snd > *nd) {
        int grow = snd - *nd;
        memmove(shape + grow, shape, (size_t)*nd * sizeof *shape);
        memmove(from + grow, from, (size_t)*nd * sizeof *from);
        for (int k = 0; k < grow; k++) {
            shape[k] = 1;
            from[k] = -1;
        }
        *nd = snd;
    }
    for (int j = snd - 1, k = *nd - 1; j >= 0; j--, k--) {
        if (s[j] == 1 || s[j] == shape[k]) {
            continue;
        }
        if (shape[k] != 1) {
            *other = from[k];
            return -1;
        }
        shape[k] = s[j];
        from[k] = i;
    }
    return 0;
}

/* ValueError: shapes a (what[ia]) and b (what[ib]) do not broadcast. */
static void
conflict(const char *fn, const char *what, PyObject *a, Py_ssize_t ia,
         PyObject *b, Py_ssize_t ib)
{
    if (a != NULL && b != NULL) {
        PyErr_Format(PyExc_ValueError,
                     "%s: shapes %R (%s[%zd]) and %R (%s[%zd]) cannot be "
                     "broadcast together",
                     fn, a, what, ia, b, what, ib);
    }
}

/* The shape the arrays broadcast to together. */
static int
common_shape(ua_state *st, PyObject *const *arrays, Py_ssize_t n, int *nd,
             Py_ssize_t *shape)
{
    Py_ssize_t from[UA_MAXDIMS], other = -1;
    *nd = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (ua_py_check_array(st, arrays[i], "broadcast_arrays") < 0) {
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyUSMArrayObject *a = ARR(arrays[i]);
        if (broadcast_into(nd, shape, from, a->nd, a->shape, i, &other) < 0) {
            PyUSMArrayObject *b = ARR(arrays[other]);
            PyObject *s1 = ua_py_int_tuple(b->nd, b->shape);
            PyObject *s2 = ua_py_int_tuple(a->nd, a->shape);
            conflict("broadcast_arrays", "arrays", s1, other, s2, i);
            Py_XDECREF(s1);
            Py_XDECREF(s2);
            return -1;
        }
    }
    return n > 0 ? check_size(st, arrays[0], *nd, shape) : 0;
}

/* broadcast_shapes(*shapes): the shape they broadcast to, as a tuple;
 * each shape an integer or a sequence of non-negative integers. */
static PyObject *
broadcast_shapes(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    Py_ssize_t shape[UA_MAXDIMS], from[UA_MAXDIMS], s[UA_MAXDIMS];
    Py_ssize_t other = -1;
    int nd = 0;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        char what[32];
        int snd;
        snprintf(what, sizeof what, "shapes[%zd]", i);
        if (ua_py_parse_shape(args[i], what, s, &snd) < 0) {
            return NULL;
        }
        if (broadcast_into(&nd, shape, from, snd, s, i, &other) < 0) {
            conflict("broadcast_shapes", "shapes", args[other], other, args[i],
                     i);
            return NULL;
        }
    }
    return ua_py_int_tuple(nd, shape);
}

static PyObject *
broadcast_arrays(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ua_state *st = PyModule_GetState(module);
    Py_ssize_t shape[UA_MAXDIMS], strides[UA_MAXDIMS];
    int nd;
    if (common_shape(st, args, nargs, &nd, shape) < 0) {
        return NULL;
    }
    PyObject *views = PyTuple_New(nargs);
    for (Py_ssize_t i = 0; views != NULL && i < nargs; i++) {
        PyObject *x = args[i];
        int same = ARR(x)->nd == nd &&
                   (nd == 0 || memcmp(ARR(x)->shape, shape,
                                      (size_t)nd * sizeof(Py_ssize_t)) == 0);
        /* The arrays whose elements repeat are read-only, as
         * broadcast_to's result is; the others keep x's writability. */
        PyObject *view =
            broadcast_strides("broadcast_arrays", x, nd, shape, strides) < 0
                ? NULL
                : view_of(st, x, nd, shape, strides, ARR(x)->data, same);
        if (view == NULL) {
            Py_CLEAR(views);
            break;
        }
        PyTuple_SET_ITEM(views, i, view);
    }
    return views;
}

/* ------------------------------------------------------------ new axes */

static PyObject *
expand_dims(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
            PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "axis", NULL};
    static const ua_py_argspec spec = {"expand_dims", kwlist, 2, 1};
    PyObject *v[2] = {NULL, NULL};
    Py_ssize_t given[UA_MAXDIMS], shape[UA_MAXDIMS], strides[UA_MAXDIMS];
    bool added[UA_MAXDIMS] = {false};
    int n = 1;
    given[0] = 0;
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "expand_dims") < 0 ||
        (v[1] != NULL && ua_py_parse_ints(v[1], "axis", given, &n) < 0)) {
        return NULL;
    }
    PyObject *x = v[0];
    int nd = ARR(x)->nd + n;
    if (ua_py_check_ndim(st, "expand_dims", nd) < 0) {
        return NULL;
    }
    for (int k = 0; k < n; k++) {
        int a;
        if (ua_py_normalize_axis(st, "expand_dims", given[k], nd, &a) < 0) {
            return NULL;
        }
        if (added[a]) {
            PyErr_Format(PyExc_ValueError, "expand_dims: axis %d is repeated",
                         a);
            return NULL;
        }
        added[a] = true;
    }
    for (int k = 0, j = 0; k < nd; k++) {
        shape[k] = added[k] ? 1 : ARR(x)->shape[j];
        strides[k] = added[k] ? 0 : ARR(x)->strides[j++];
    }
    return view_of(st, x, nd, shape, strides, ARR(x)->data, 1);
}

/* ---------------------------------------------------- axes rearranged */

static PyObject *
flip(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
     PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "axis", NULL};
    static const ua_py_argspec spec = {"flip", kwlist, 1, 1};
    PyObject *v[2] = {NULL, Py_None};
    int axes[UA_MAXDIMS], n;
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "flip") < 0) {
        return NULL;
    }
    PyObject *x = v[0];
    int nd = ARR(x)->nd;
    if (v[1] == Py_None) {
        n = nd;
        for (int k = 0; k < nd; k++) {
            axes[k] = k;
        }
    } else if (ua_py_parse_axis_set(st, v[1], "flip", nd, axes, &n) < 0) {
        return NULL;
    }
    Py_ssize_t strides[UA_MAXDIMS];
    memcpy(strides, ARR(x)->strides, (size_t)nd * sizeof(Py_ssize_t));
    Py_ssize_t offset = 0, size = ua_py_array_size(x);
    for (int k = 0; k < n; k++) {
        int a = axes[k];
        /* Within the checked extent of x, the sum fits; an empty view
         * reaches no element and keeps x's pointer. */
        offset += size > 0 ? (ARR(x)->shape[a] - 1) * strides[a] : 0;
        strides[a] = -strides[a];
    }
    char *data = ARR(x)->data + offset * (Py_ssize_t)ua_py_array_itemsize(x);
    return view_of(st, x, nd, ARR(x)->shape, strides, data, 1);
}

static PyObject *
moveaxis(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int src[UA_MAXDIMS], dst[UA_MAXDIMS], ns, nds, perm[UA_MAXDIMS];
    ua_state *st = PyModule_GetState(module);
    if (ua_py_check_nargs("moveaxis", nargs, 3) < 0 ||
        ua_py_check_array(st, args[0], "moveaxis") < 0) {
        return NULL;
    }
    PyObject *x = args[0];
    int nd = ARR(x)->nd;
    if (ua_py_parse_axis_set(st, args[1], "moveaxis", nd, src, &ns) < 0 ||
        ua_py_parse_axis_set(st, args[2], "moveaxis", nd, dst, &nds) < 0) {
        return NULL;
    }
    if (ns != nds) {
        PyErr_Format(PyExc_ValueError,
                     "moveaxis: source has %d axes but destination has %d; "
                     "they must have the same number",
                     ns, nds);
        return NULL;
    }
    /* Each destination takes its source; the other axes fill the rest
     * in their order. */
    bool moved[UA_MAXDIMS] = {false}, placed[UA_MAXDIMS] = {false};
    for (int k = 0; k < ns; k++) {
        perm[dst[k]] = src[k];
        moved[src[k]] = placed[dst[k]] = true;
    }
    for (int k = 0, j = 0; k < nd; k++) {
        if (placed[k]) {
            continue;
        }
        while (moved[j]) {
            j++;
        }
        perm[k] = j++;
    }
    return ua_py_array_permute(x, perm);
}

static PyObject *
permute_dims(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
             PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "axes", NULL};
    static const ua_py_argspec spec = {"permute_dims", kwlist, 2, 2};
    PyObject *v[2] = {NULL, NULL};
    int perm[UA_MAXDIMS];
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "permute_dims") < 0 ||
        ua_py_parse_axes(v[1], ARR(v[0])->nd, perm) < 0) {
        return NULL;
    }
    return ua_py_array_permute(v[0], perm);
}

/* ---------------------------------------------------- axes taken away */

static PyObject *
squeeze(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
        PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "axis", NULL};
    static const ua_py_argspec spec = {"squeeze", kwlist, 2, 1};
    PyObject *v[2] = {NULL, Py_None};
    int axes[UA_MAXDIMS], n = 0;
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "squeeze") < 0) {
        return NULL;
    }
    PyObject *x = v[0];
    if (v[1] == Py_None) {
        /* dpctl's squeeze(x): every axis of length 1. */
        for (int k = 0; k < ARR(x)->nd; k++) {
            if (ARR(x)->shape[k] == 1) {
                axes[n++] = k;
            }
        }
    } else if (ARR(x)->nd == 0) {
        /* A 0-d x stays itself for axis 0 or -1, as NumPy's and dpctl's
         * squeeze take it. */
        if (ua_py_parse_axis_set(st, v[1], "squeeze", 1, axes, &n) < 0) {
            return NULL;
        }
        n = 0;
    } else if (ua_py_parse_axis_set(st, v[1], "squeeze", ARR(x)->nd, axes,
                                    &n) < 0) {
        return NULL;
    }
    bool dropped[UA_MAXDIMS] = {false};
    for (int k = 0; k < n; k++) {
        if (ARR(x)->shape[axes[k]] != 1) {
            PyErr_Format(PyExc_ValueError,
                         "squeeze: axis %d has length %zd; only axes of "
                         "length 1 can be removed",
                         axes[k], ARR(x)->shape[axes[k]]);
            return NULL;
        }
        dropped[axes[k]] = true;
    }
    Py_ssize_t shape[UA_MAXDIMS], strides[UA_MAXDIMS];
    int nd = 0;
    for (int k = 0; k < ARR(x)->nd; k++) {
        if (!dropped[k]) {
            shape[nd] = ARR(x)->shape[k];
            strides[nd++] = ARR(x)->strides[k];
        }
    }
    return view_of(st, x, nd, shape, strides, ARR(x)->data, 1);
}

static PyObject *
unstack(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
        PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "axis", NULL};
    static const ua_py_argspec spec = {"unstack", kwlist, 1, 1};
    PyObject *v[2] = {NULL, NULL};
    int axis = 0;
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "unstack") < 0) {
        return NULL;
    }
    PyObject *x = v[0];
    int nd = ARR(x)->nd;
    if (nd == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "unstack needs an array of at least 1 dimension, "
                        "not a 0-dimensional one");
        return NULL;
    }
    if (v[1] != NULL && ua_py_parse_axis(st, v[1], "unstack", nd, &axis) < 0) {
        return NULL;
    }
    Py_ssize_t shape[UA_MAXDIMS], strides[UA_MAXDIMS];
    for (int k = 0, j = 0; k < nd; k++) {
        if (k != axis) {
            shape[j] = ARR(x)->shape[k];
            strides[j++] = ARR(x)->strides[k];
        }
    }
    Py_ssize_t n = ARR(x)->shape[axis];
    /* The parts of an empty array reach no element and keep x's pointer;
     * the others' offsets lie within x's checked extent. */
    Py_ssize_t step =
        ua_py_array_size(x) == 0
            ? 0
            : ARR(x)->strides[axis] * (Py_ssize_t)ua_py_array_itemsize(x);
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *part =
            view_of(st, x, nd - 1, shape, strides, ARR(x)->data + i * step, 1);
        if (part == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, i, part);
    }
    return out;
}

static PyObject *
reshape(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
        PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "shape", "copy", "order", NULL};
    static const ua_py_argspec spec = {"reshape", kwlist, 2, 2};
    PyObject *v[4] = {NULL, NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "reshape") < 0) {
        return NULL;
    }
    return ua_py_reshape_call(st, v[0], v[1], v[3], v[2]);
}

/* ---------------------------------------------------------- the module */

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS
#define POS(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL

/* Their operands as snapshots: their other arguments' hooks run after
 * they read the operands' layouts. */
UA_PY_ON_SNAPSHOTS(broadcast_to)
UA_PY_ON_SNAPSHOTS(expand_dims)
UA_PY_ON_SNAPSHOTS(flip)
UA_PY_ON_SNAPSHOTS(permute_dims)
UA_PY_ON_SNAPSHOTS(reshape)
UA_PY_ON_SNAPSHOTS(squeeze)
UA_PY_ON_SNAPSHOTS(unstack)
UA_PY_ON_SNAPSHOTS_POS(moveaxis)

static PyMethodDef manipulation_views[] = {
    {"broadcast_arrays", POS(broadcast_arrays), UA_DOC_BROADCAST_ARRAYS},
    {"broadcast_shapes", POS(broadcast_shapes), UA_DOC_BROADCAST_SHAPES},
    {"broadcast_to", KW(broadcast_to_on_snapshots), UA_DOC_BROADCAST_TO},
    {"expand_dims", KW(expand_dims_on_snapshots), UA_DOC_EXPAND_DIMS},
    {"flip", KW(flip_on_snapshots), UA_DOC_FLIP},
    {"moveaxis", POS(moveaxis_on_snapshots), UA_DOC_MOVEAXIS},
    {"permute_dims", KW(permute_dims_on_snapshots), UA_DOC_PERMUTE_DIMS},
    {"reshape", KW(reshape_on_snapshots), UA_DOC_RESHAPE},
    {"squeeze", KW(squeeze_on_snapshots), UA_DOC_SQUEEZE},
    {"unstack", KW(unstack_on_snapshots), UA_DOC_UNSTACK},
    {0},
};

int
ua_py_manipulation_add(PyObject *module, ua_state *st)
{
    (void)st;
    if (PyModule_AddFunctions(module, manipulation_views) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, ua_py_manipulation_copies);
}
