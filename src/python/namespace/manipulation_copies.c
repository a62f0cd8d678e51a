/* The Array API's manipulation functions whose result is new memory:
 * concat, stack, roll, tile and repeat.  Each allocates its result once on
 * its inputs' queue and fills it with strided copies of the copy engine,
 * reading each input element once: a repeated element is read through a
 * stride of 0, a rolled array in blocks, never through a temporary.  The
 * copies of one call are enqueued together and not waited for. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/dtypes.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/block_copies.h"
#include "python/namespace/manipulation_copies.h"

#include <string.h>

#include "core/compute/promote.h"

/* ---------------------------------------------------- concat and stack */

/* The arrays of a sequence, as a tuple that their hooks cannot change,
 * of snapshots whose layouts nothing else can change either. */
static PyObject *
array_tuple(ua_state *st, PyObject *seq, const char *fn)
{
    if (PyObject_TypeCheck(seq, st->USMArray_Type) || PyUnicode_Check(seq) ||
        !PySequence_Check(seq)) {
        PyErr_Format(PyExc_TypeError,
                     "%s expects a tuple or list of USMArrays, not %.100s", fn,
                     Py_TYPE(seq)->tp_name);
        return NULL;
    }
    PyObject *items = PySequence_Tuple(seq);
    if (items != NULL && PyTuple_GET_SIZE(items) == 0) {
        PyErr_Format(PyExc_ValueError, "%s needs at least one array", fn);
        Py_CLEAR(items);
    }
    for (Py_ssize_t i = 0; items != NULL && i < PyTuple_GET_SIZE(items); i++) {
        PyObject *a = PyTuple_GET_ITEM(items, i);
        if (!PyObject_TypeCheck(a, st->USMArray_Type)) {
            PyErr_Format(PyExc_TypeError,
                         "%s: arrays[%zd] is a %.100s, not a USMArray", fn, i,
                         Py_TYPE(a)->tp_name);
            Py_CLEAR(items);
        }
    }
    PyObject *snaps = items ? PyTuple_New(PyTuple_GET_SIZE(items)) : NULL;
    for (Py_ssize_t i = 0; snaps != NULL && i < PyTuple_GET_SIZE(items); i++) {
        PyObject *snap = ua_py_array_snapshot(PyTuple_GET_ITEM(items, i));
        if (snap == NULL) {
            Py_CLEAR(snaps);
        } else {
            PyTuple_SET_ITEM(snaps, i, snap);
        }
    }
    Py_XDECREF(items);
    return snaps;
}

/* The dtype the arrays promote to and the USM kind of the result (device
 * before shared before host, as dpctl coerces them); all must be on one
 * queue. */
static int
join_common(const char *fn, PyObject *items, ua_typenum *t, ua_usm_kind *kind)
{
    PyObject *first = PyTuple_GET_ITEM(items, 0);
    uint32_t set = 0;
    *kind = base_of(first)->kind;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(items); i++) {
        PyObject *a = PyTuple_GET_ITEM(items, i);
        if (base_of(a)->queue != base_of(first)->queue) {
            PyErr_Format(PyExc_ValueError,
                         "%s: arrays[0] is on %R but arrays[%zd] is on %R; "
                         "move them to one queue first (to_device)",
                         fn, base_of(first)->queue, i, base_of(a)->queue);
            return -1;
        }
        set |= 1u << ua_dtype_index((ua_typenum)ARR(a)->typenum);
        *kind = base_of(a)->kind < *kind ? base_of(a)->kind : *kind;
    }
    *t = ua_promote_set(set);
    return 0;
}

static int
shapes_differ(const char *fn, PyObject *items, Py_ssize_t i, const char *how)
{
    PyObject *a = PyTuple_GET_ITEM(items, 0), *b = PyTuple_GET_ITEM(items, i);
    PyObject *s1 = ua_py_int_tuple(ARR(a)->nd, ARR(a)->shape);
    PyObject *s2 = ua_py_int_tuple(ARR(b)->nd, ARR(b)->shape);
    if (s1 != NULL && s2 != NULL) {
        PyErr_Format(PyExc_ValueError,
                     "%s: arrays[0] has shape %R but arrays[%zd] has shape "
                     "%R; %s",
                     fn, s1, i, s2, how);
    }
    Py_XDECREF(s1);
    Py_XDECREF(s2);
    return -1;
}

static int
too_many_elements(const char *fn)
{
    PyErr_Format(PyExc_ValueError,
                 "%s: the result would have more elements than can be "
                 "addressed",
                 fn);
    return -1;
}

/* The result's shape: the arrays' joined along axis, or, for axis -1
 * (axis=None), their sizes added up. */
static int
concat_shape(PyObject *items, int axis, int *nd, Py_ssize_t *shape)
{
    PyObject *first = PyTuple_GET_ITEM(items, 0);
    *nd = axis < 0 ? 1 : ARR(first)->nd;
    if (axis >= 0) {
        memcpy(shape, ARR(first)->shape, (size_t)*nd * sizeof(Py_ssize_t));
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(items); i++) {
        PyObject *a = PyTuple_GET_ITEM(items, i);
        if (axis >= 0 && ARR(a)->nd != *nd) {
            PyErr_Format(PyExc_ValueError,
                         "concat: arrays[0] has %d dimensions but arrays[%zd] "
                         "has %d; all must have the same number",
                         *nd, i, ARR(a)->nd);
            return -1;
        }
        for (int k = 0; axis >= 0 && k < *nd; k++) {
            if (k != axis && ARR(a)->shape[k] != shape[k]) {
                return shapes_differ("concat", items, i,
                                     "they may differ along the axis of "
                                     "concatenation only");
            }
        }
        Py_ssize_t n = axis >= 0 ? ARR(a)->shape[axis] : ua_py_array_size(a);
        if (__builtin_add_overflow(total, n, &total)) {
            return too_many_elements("concat");
        }
    }
    shape[axis >= 0 ? axis : 0] = total;
    return 0;
}

static PyObject *
concat(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
       PyObject *kwnames)
{
    static const char *const kwlist[] = {"arrays", "axis", NULL};
    static const ua_py_argspec spec = {"concat", kwlist, 1, 1};
    PyObject *v[2] = {NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0) {
        return NULL;
    }
    PyObject *items = array_tuple(st, v[0], "concat");
    if (items == NULL) {
        return NULL;
    }
    PyObject *first = PyTuple_GET_ITEM(items, 0), *out = NULL;
    Py_ssize_t shape[UA_MAXDIMS];
    ua_typenum t;
    ua_usm_kind kind;
    int axis = 0, nd, rc = 0;
    if (v[1] == Py_None) {
        axis = -1; /* the arrays flattened, joined */
    } else if (ARR(first)->nd == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "concat: 0-dimensional arrays cannot be joined along "
                        "an axis (stack makes a new one; axis=None joins "
                        "them flattened)");
        rc = -1;
    } else if (v[1] != NULL) {
        rc = ua_py_parse_axis(st, v[1], "concat", ARR(first)->nd, &axis);
    }
    if (rc == 0 && join_common("concat", items, &t, &kind) == 0 &&
        concat_shape(items, axis, &nd, shape) == 0) {
        out = ua_py_array_empty(st, nd, shape, NULL, t, 'C', kind,
                                base_of(first)->queue);
    }
    if (out == NULL) {
        Py_DECREF(items);
        return NULL;
    }
    Py_ssize_t isz = (Py_ssize_t)ua_dtype_itemsize(t), pos = 0;
    Py_ssize_t step = axis >= 0 ? ARR(out)->strides[axis] : 1;
    ua_py_batch b = ua_py_batch_begin(out);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(items); i++) {
        PyObject *a = PyTuple_GET_ITEM(items, i);
        Py_ssize_t n = axis >= 0 ? ARR(a)->shape[axis] : ua_py_array_size(a);
        if (ua_py_array_size(a) > 0) {
            Py_ssize_t flat[UA_MAXDIMS];
            ua_layout_default_strides(ARR(a)->nd, ARR(a)->shape, 'C', flat);
            ua_strided d = {ARR(out)->data + pos * step * isz,
                            axis >= 0 ? ARR(out)->strides : flat, t};
            ua_strided s = ua_py_array_strided(a);
            ua_py_batch_copy(&b, ARR(a)->nd, ARR(a)->shape, &d, &s);
        }
        pos += n;
    }
    out = ua_py_batch_end(st, &b, out);
    Py_DECREF(items);
    return out;
}

static PyObject *
stack(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
      PyObject *kwnames)
{
    static const char *const kwlist[] = {"arrays", "axis", NULL};
    static const ua_py_argspec spec = {"stack", kwlist, 1, 1};
    PyObject *v[2] = {NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0) {
        return NULL;
    }
    PyObject *items = array_tuple(st, v[0], "stack");
    if (items == NULL) {
        return NULL;
    }
    PyObject *first = PyTuple_GET_ITEM(items, 0), *out = NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(items), shape[UA_MAXDIMS];
    int nd = ARR(first)->nd + 1, axis = 0;
    ua_typenum t;
    ua_usm_kind kind;
    int rc = join_common("stack", items, &t, &kind);
    for (Py_ssize_t i = 1; rc == 0 && i < n; i++) {
        PyObject *a = PyTuple_GET_ITEM(items, i);
        if (ARR(a)->nd != nd - 1 ||
            memcmp(ARR(a)->shape, ARR(first)->shape,
                   (size_t)(nd - 1) * sizeof(Py_ssize_t)) != 0) {
            rc = shapes_differ("stack", items, i,
                               "stack needs arrays of one shape");
        }
    }
    if (rc == 0) {
        rc = ua_py_check_ndim(st, "stack", nd);
    }
    if (rc == 0 && v[1] != NULL) {
        rc = ua_py_parse_axis(st, v[1], "stack", nd, &axis);
    }
    if (rc == 0) {
        for (int k = 0, j = 0; k < nd; k++) {
            shape[k] = k == axis ? n : ARR(first)->shape[j++];
        }
        out = ua_py_array_empty(st, nd, shape, NULL, t, 'C', kind,
                                base_of(first)->queue);
    }
    if (out == NULL) {
        Py_DECREF(items);
        return NULL;
    }
    Py_ssize_t strides[UA_MAXDIMS], isz = (Py_ssize_t)ua_dtype_itemsize(t);
    for (int k = 0, j = 0; k < nd; k++) {
        if (k != axis) {
            strides[j++] = ARR(out)->strides[k];
        }
    }
    ua_py_batch b = ua_py_batch_begin(out);
    for (Py_ssize_t i = 0; ua_py_array_size(out) > 0 && i < n; i++) {
        PyObject *a = PyTuple_GET_ITEM(items, i);
        ua_strided d = {ARR(out)->data + i * ARR(out)->strides[axis] * isz,
                        strides, t};
        ua_strided s = ua_py_array_strided(a);
        ua_py_batch_copy(&b, nd - 1, ARR(a)->shape, &d, &s);
    }
    out = ua_py_batch_end(st, &b, out);
    Py_DECREF(items);
    return out;
}

/* ---------------------------------------------------------------- roll */

/* (total + s) modulo n, for total in [0, n) and n > 0, without overflow. */
static Py_ssize_t
add_modulo(Py_ssize_t total, Py_ssize_t s, Py_ssize_t n)
{
    Py_ssize_t r = s % n;
    r = r < 0 ? r + n : r;
    return r >= n - total ? r - (n - total) : total + r;
}

/* The shifts per axis: shift and axis broadcast against each other, the
 * shifts of one axis added up, each reduced modulo its axis' length. */
static int
roll_shifts(ua_state *st, PyObject *x, PyObject *shift_obj, PyObject *axis_obj,
            Py_ssize_t *shifts)
{
    Py_ssize_t sh[UA_MAXDIMS], ax[UA_MAXDIMS];
    int ns, na, nd = ARR(x)->nd;
    if (ua_py_parse_ints(shift_obj, "shift", sh, &ns) < 0 ||
        ua_py_parse_ints(axis_obj, "axis", ax, &na) < 0) {
        return -1;
    }
    if (ns != na && ns != 1 && na != 1) {
        PyErr_Format(PyExc_ValueError,
                     "roll: shift has %d entries but axis has %d; give as "
                     "many or one",
                     ns, na);
        return -1;
    }
    for (int k = 0; k < nd; k++) {
        shifts[k] = 0;
    }
    /* As NumPy broadcasts them: one entry repeats, an empty side rolls
     * nothing. */
    int n = ns == na ? ns : ns == 1 ? na : ns;
    for (int k = 0; k < n; k++) {
        int a;
        if (ua_py_normalize_axis(st, "roll", ax[na == 1 ? 0 : k], nd, &a) <
            0) {
            return -1;
        }
        Py_ssize_t n = ARR(x)->shape[a], s = sh[ns == 1 ? 0 : k];
        if (n > 0) {
            shifts[a] = add_modulo(shifts[a], s, n);
        }
    }
    return 0;
}

/* Each rolled axis is two blocks, [0, n - s) moved to s and [n - s, n)
 * moved to 0: 2**k copies for k rolled axes (at most the size of x). */
static void
roll_axes(ua_py_batch *b, PyObject *x, PyObject *out, const Py_ssize_t *shifts)
{
    int nd = ARR(x)->nd, rolled[UA_MAXDIMS], k = 0;
    for (int a = 0; a < nd; a++) {
        if (shifts[a] != 0) {
            rolled[k++] = a;
        }
    }
    Py_ssize_t isz = (Py_ssize_t)ua_py_array_itemsize(x), shape[UA_MAXDIMS];
    uint64_t count = k < 64 ? (uint64_t)1 << k : 0;
    for (uint64_t m = 0; m < count && b->code == UA_OK; m++) {
        Py_ssize_t src = 0, dst = 0;
        memcpy(shape, ARR(x)->shape, (size_t)nd * sizeof(Py_ssize_t));
        for (int j = 0; j < k; j++) {
            int a = rolled[j];
            Py_ssize_t n = shape[a], s = shifts[a];
            bool tail = (m >> j) & 1;
            shape[a] = tail ? s : n - s;
            src += (tail ? n - s : 0) * ARR(x)->strides[a];
            dst += (tail ? 0 : s) * ARR(out)->strides[a];
        }
        ua_strided d = {ARR(out)->data + dst * isz, ARR(out)->strides,
                        (ua_typenum)ARR(out)->typenum};
        ua_strided from = {ARR(x)->data + src * isz, ARR(x)->strides,
                           (ua_typenum)ARR(x)->typenum};
        ua_py_batch_copy(b, nd, shape, &d, &from);
    }
}

static PyObject *
roll(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
     PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "shift", "axis", NULL};
    static const ua_py_argspec spec = {"roll", kwlist, 2, 2};
    PyObject *v[3] = {NULL, NULL, Py_None};
    Py_ssize_t shifts[UA_MAXDIMS], sh[UA_MAXDIMS], total = 0;
    int ns;
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "roll") < 0) {
        return NULL;
    }
    /* The shifts' hooks may reshape the array, and the copies read its
     * layout without the GIL. */
    PyObject *x = ua_py_array_snapshot(v[0]);
    if (x == NULL) {
        return NULL;
    }
    Py_ssize_t size = ua_py_array_size(x);
    PyObject *out = NULL;
    if (v[2] == Py_None) {
        /* The flattened array rolls by the shifts added up. */
        if (ua_py_parse_ints(v[1], "shift", sh, &ns) < 0) {
            Py_DECREF(x);
            return NULL;
        }
        for (int k = 0; k < ns && size > 0; k++) {
            total = add_modulo(total, sh[k], size);
        }
    } else if (roll_shifts(st, x, v[1], v[2], shifts) < 0) {
        Py_DECREF(x);
        return NULL;
    }
    out = ua_py_array_empty(st, ARR(x)->nd, ARR(x)->shape, NULL,
                            (ua_typenum)ARR(x)->typenum, 'C', base_of(x)->kind,
                            base_of(x)->queue);
    if (out != NULL && size > 0) {
        ua_py_batch b = ua_py_batch_begin(out);
        if (v[2] != Py_None) {
            roll_axes(&b, x, out, shifts);
            out = ua_py_batch_end(st, &b, out);
        } else {
            ua_py_flat_copy f;
            ua_py_flat_init(&f, &b, x, out);
            ua_py_flat_copy_range(&f, 0, size - total, 1, total);
            ua_py_flat_copy_range(&f, size - total, size, 1, 0);
            out = ua_py_flat_end(st, &f, out);
        }
    }
    Py_DECREF(x);
    return out;
}

/* ---------------------------------------------------------------- tile */

static PyObject *
tile(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t reps[UA_MAXDIMS], rs[UA_MAXDIMS], xs[UA_MAXDIMS];
    Py_ssize_t xst[UA_MAXDIMS], shape[UA_MAXDIMS];
    int nr;
    ua_state *st = PyModule_GetState(module);
    if (ua_py_check_nargs("tile", nargs, 2) < 0 ||
        ua_py_check_array(st, args[0], "tile") < 0 ||
        ua_py_parse_shape(args[1], "repetitions", reps, &nr) < 0) {
        return NULL;
    }
    PyObject *x = args[0];
    int nd = ARR(x)->nd, d = nd > nr ? nd : nr;
    /* Both padded with leading 1s to d axes. */
    for (int k = 0; k < d; k++) {
        int i = k - (d - nd), j = k - (d - nr);
        xs[k] = i >= 0 ? ARR(x)->shape[i] : 1;
        xst[k] = i >= 0 ? ARR(x)->strides[i] : 0;
        rs[k] = j >= 0 ? reps[j] : 1;
        if (__builtin_mul_overflow(xs[k], rs[k], &shape[k])) {
            too_many_elements("tile");
            return NULL;
        }
    }
    PyObject *out =
        ua_py_array_empty(st, d, shape, NULL, (ua_typenum)ARR(x)->typenum, 'C',
                          base_of(x)->kind, base_of(x)->queue);
    if (out == NULL || ua_py_array_size(out) == 0) {
        return out;
    }
    /* Axis k of the result, of C stride O, is (repetition, element) with
     * steps (xs[k] * O, O) in the result and (0, x's) in x. */
    ua_py_copy_axes c = {0};
    bool ok = true;
    for (int k = 0; ok && k < d; k++) {
        Py_ssize_t o = ARR(out)->strides[k];
        ok = ua_py_add_axis(&c, rs[k], 0, xs[k] * o) &&
             ua_py_add_axis(&c, xs[k], xst[k], o);
    }
    if (!ok) {
        Py_DECREF(out);
        too_many_elements("tile");
        return NULL;
    }
    ua_py_batch b = ua_py_batch_begin(out);
    ua_py_copy_of(&b, &c, ARR(out)->data, ARR(x)->data,
                  (ua_typenum)ARR(out)->typenum, (ua_typenum)ARR(x)->typenum);
    return ua_py_batch_end(st, &b, out);
}

/* -------------------------------------------------------------- repeat */

/* Reads one count of a host integer buffer. */
static int
count_at(const char *p, ua_typenum t, Py_ssize_t i, Py_ssize_t *out)
{
    long long v = 0;
    unsigned long long u = 0;
    switch (t) {
    case UA_INT8:
        v = ((const int8_t *)p)[i];
        break;
    case UA_INT16:
        v = ((const int16_t *)p)[i];
        break;
    case UA_INT32:
        v = ((const int32_t *)p)[i];
        break;
    case UA_INT64:
        v = ((const int64_t *)p)[i];
        break;
    case UA_UINT8:
        v = ((const uint8_t *)p)[i];
        break;
    case UA_UINT16:
        v = ((const uint16_t *)p)[i];
        break;
    case UA_UINT32:
        v = ((const uint32_t *)p)[i];
        break;
    default:
        u = ((const uint64_t *)p)[i];
        v = u > (unsigned long long)PY_SSIZE_T_MAX ? -1 : (long long)u;
        if (v < 0) {
            PyErr_Format(PyExc_ValueError,
                         "repeat: repeats[%zd] is %llu, too large", i, u);
            return -1;
        }
    }
    if (v < 0) {
        PyErr_Format(PyExc_ValueError,
                     "repeat: repeats[%zd] is %lld; repeats must be "
                     "non-negative",
                     i, v);
        return -1;
    }
    *out = (Py_ssize_t)v;
    return 0;
}

/* The counts of an array or a sequence of integers, read to the host:
 * *counts, of *m entries, to be freed with PyMem_Free. */
static int
read_counts(ua_state *st, PyObject *obj, Py_ssize_t **counts, Py_ssize_t *m)
{
    if (!PyObject_TypeCheck(obj, st->USMArray_Type) &&
        (!PySequence_Check(obj) || PyUnicode_Check(obj) ||
         PyBytes_Check(obj))) {
        PyErr_Format(PyExc_TypeError,
                     "repeat: repeats must be an integer, a USMArray or a "
                     "sequence of integers, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyObject *np = ua_py_numpy(st), *host = NULL;
    if (np != NULL) {
        host = PyObject_TypeCheck(obj, st->USMArray_Type)
                   ? ua_py_array_to_numpy(st, obj)
                   : PyObject_CallMethod(np, "ascontiguousarray", "(O)", obj);
    }
    Py_buffer v;
    if (host == NULL || PyObject_GetBuffer(host, &v, PyBUF_RECORDS_RO) < 0) {
        Py_XDECREF(host);
        return -1;
    }
    ua_typenum t;
    int rc = -1, known = ua_dtype_from_buffer_format(v.format, &t) == UA_OK;
    ua_error_clear();
    if (v.ndim > 1) {
        PyErr_Format(PyExc_ValueError,
                     "repeat: repeats must be 0- or 1-dimensional, not "
                     "%d-dimensional",
                     v.ndim);
    } else if (!known && v.len > 0) {
        PyErr_Format(PyExc_TypeError,
                     "repeat: repeats must be integers, not data of buffer "
                     "format '%s'",
                     v.format);
    } else if (v.len > 0 && ua_dtype_kind(t) != 'i' &&
               ua_dtype_kind(t) != 'u') {
        PyErr_Format(PyExc_TypeError,
                     "repeat: repeats must be integers, not %s",
                     ua_dtype_name(t));
    } else if (!PyBuffer_IsContiguous(&v, 'C')) {
        PyErr_SetString(PyExc_ValueError, "repeat: repeats is not contiguous");
    } else {
        /* An empty sequence (float64 to NumPy) counts nothing. */
        *m = v.len == 0 ? 0 : v.ndim == 0 ? 1 : v.shape[0];
        *counts = PyMem_Malloc((size_t)(*m > 0 ? *m : 1) * sizeof(Py_ssize_t));
        rc = *counts ? 0 : (PyErr_NoMemory(), -1);
        for (Py_ssize_t i = 0; rc == 0 && i < *m; i++) {
            rc = count_at(v.buf, t, i, &(*counts)[i]);
        }
        if (rc < 0) {
            PyMem_Free(*counts);
            *counts = NULL;
        }
    }
    PyBuffer_Release(&v);
    Py_DECREF(host);
    return rc;
}

/* Whether repeats is one integer rather than an array or a sequence. */
static int
is_one_count(ua_state *st, PyObject *obj)
{
    return !PyObject_TypeCheck(obj, st->USMArray_Type) && PyIndex_Check(obj) &&
           !PySequence_Check(obj);
}

/* Elements [i, j) of x's axis (or of flat x for axis -1), each repeated
 * r times, written from position `at` of the result's axis. */
static void
repeat_run(ua_py_flat_copy *f, PyObject *out, int axis, Py_ssize_t i,
           Py_ssize_t j, Py_ssize_t r, Py_ssize_t at)
{
    PyUSMArrayObject *x = ARR(f->x);
    if (axis < 0) {
        ua_py_flat_copy_range(f, i, j, r, at);
        return;
    }
    ua_py_copy_axes c = {0};
    bool ok = true;
    for (int k = 0; ok && k < x->nd; k++) {
        Py_ssize_t o = ARR(out)->strides[k];
        ok = k != axis ? ua_py_add_axis(&c, x->shape[k], x->strides[k], o)
                       : ua_py_add_axis(&c, j - i, x->strides[k], r * o) &&
                             ua_py_add_axis(&c, r, 0, o);
    }
    if (!ok) {
        f->failed = true;
        return;
    }
    Py_ssize_t isz = (Py_ssize_t)ua_py_array_itemsize(f->x);
    ua_py_copy_of(f->b, &c,
                  ARR(out)->data + at * ARR(out)->strides[axis] * isz,
                  x->data + i * x->strides[axis] * isz, (ua_typenum)x->typenum,
                  (ua_typenum)x->typenum);
}

static PyObject *
repeat_into(ua_state *st, PyObject *x, int axis, const Py_ssize_t *counts,
            Py_ssize_t m, Py_ssize_t total)
{
    Py_ssize_t shape[UA_MAXDIMS];
    int nd = axis < 0 ? 1 : ARR(x)->nd;
    memcpy(shape, ARR(x)->shape, (size_t)ARR(x)->nd * sizeof(Py_ssize_t));
    shape[axis < 0 ? 0 : axis] = total;
    PyObject *out =
        ua_py_array_empty(st, nd, shape, NULL, (ua_typenum)ARR(x)->typenum,
                          'C', base_of(x)->kind, base_of(x)->queue);
    if (out == NULL || ua_py_array_size(out) == 0) {
        return out;
    }
    ua_py_batch b = ua_py_batch_begin(out);
    ua_py_flat_copy f;
    ua_py_flat_init(&f, &b, x, out);
    Py_ssize_t n = axis < 0 ? ua_py_array_size(x) : ARR(x)->shape[axis];
    Py_ssize_t at = 0;
    /* One copy per run of equal counts (flat: per block of the run). */
    for (Py_ssize_t i = 0, j; i < n; i = j) {
        Py_ssize_t r = counts[m == 1 ? 0 : i];
        for (j = i + 1; m != 1 && j < n && counts[j] == r; j++) {
        }
        if (m == 1) {
            j = n;
        }
        if (r > 0) {
            repeat_run(&f, out, axis, i, j, r, at);
        }
        at += (j - i) * r;
    }
    return ua_py_flat_end(st, &f, out);
}

static PyObject *
repeat_of(ua_state *st, PyObject *x, PyObject *repeats, PyObject *axis_obj)
{
    int axis = -1;
    if (axis_obj != Py_None &&
        ua_py_parse_axis(st, axis_obj, "repeat", ARR(x)->nd, &axis) < 0) {
        return NULL;
    }
    Py_ssize_t one, *counts = &one, m = 1, total = 0;
    Py_ssize_t n = axis < 0 ? ua_py_array_size(x) : ARR(x)->shape[axis];
    if (is_one_count(st, repeats)) {
        if (ua_py_index(repeats, "repeats", &one) < 0) {
            return NULL;
        }
        if (one < 0) {
            PyErr_Format(PyExc_ValueError,
                         "repeat: repeats is %zd; repeats must be "
                         "non-negative",
                         one);
            return NULL;
        }
    } else if (read_counts(st, repeats, &counts, &m) < 0) {
        return NULL;
    }
    PyObject *out = NULL;
    if (m != 1 && m != n) {
        PyErr_Format(PyExc_ValueError,
                     "repeat: repeats has %zd entries but the %s has %zd "
                     "elements; give one count or one for each",
                     m, axis < 0 ? "flattened array" : "axis", n);
    } else {
        bool over = m == 1 && __builtin_mul_overflow(counts[0], n, &total);
        for (Py_ssize_t i = 0; m != 1 && !over && i < m; i++) {
            over = __builtin_add_overflow(total, counts[i], &total);
        }
        if (over) {
            too_many_elements("repeat");
        } else {
            out = repeat_into(st, x, axis, counts, m, total);
        }
    }
    if (counts != &one) {
        PyMem_Free(counts);
    }
    return out;
}

static PyObject *
repeat(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
       PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "repeats", "axis", NULL};
    static const ua_py_argspec spec = {"repeat", kwlist, 2, 2};
    PyObject *v[3] = {NULL, NULL, Py_None};
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "repeat") < 0) {
        return NULL;
    }
    /* The counts' and the axis's hooks may reshape the array, and the
     * copies read its layout without the GIL. */
    PyObject *x = ua_py_array_snapshot(v[0]);
    if (x == NULL) {
        return NULL;
    }
    PyObject *out = repeat_of(st, x, v[1], v[2]);
    Py_DECREF(x);
    return out;
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

PyMethodDef ua_py_manipulation_copies[] = {
    {"concat", KW(concat), UA_DOC_CONCAT},
    {"stack", KW(stack), UA_DOC_STACK},
    {"roll", KW(roll), UA_DOC_ROLL},
    {"tile", (PyCFunction)(void (*)(void))tile, METH_FASTCALL, UA_DOC_TILE},
    {"repeat", KW(repeat), UA_DOC_REPEAT},
    {0},
};
