/* Indexing by arrays, as NumPy defines it: integer arrays and boolean masks,
 * mixed with integers, slices, None and the ellipsis.  The basic items
 * make a view; the array items are converted to int64 arrays of the
 * array's queue (a mask to the coordinates of its true elements), which
 * the core's gather and scatter (core/compute/compute.h) apply.  A mask
 * over the leading axes of an array whose rows are dense takes the
 * backend's compress instead: one pass, no coordinates. */
#include "python/base/convert.h"
#include "python/base/dtypes.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/types/arrays.h"

#include "core/compute/compute.h"

/* A key taken apart: the view its basic items make, and the index arrays
 * (int64, of the array's queue) for the view's axes axes[k], broadcast to
 * bshape (strides per index in istrides, 0 where broadcast). */
typedef struct {
    int nd;
    Py_ssize_t shape[UA_MAXDIMS], strides[UA_MAXDIMS];
    char *data;
    int count;
    int axes[UA_MAXDIMS];
    PyObject *index[UA_MAXDIMS];
    Py_ssize_t istrides[UA_MAXDIMS][UA_MAXDIMS];
    int bnd;
    Py_ssize_t bshape[UA_MAXDIMS];
    int position;
} advanced;

static void
advanced_clear(advanced *a)
{
    for (int k = 0; k < a->count; k++) {
        Py_CLEAR(a->index[k]);
    }
}

static int
same_queue(PyObject *x, PyObject *y)
{
    return queue_of(base_of(x)->queue) == queue_of(base_of(y)->queue);
}

static int
refuse_queue(PyObject *x, PyObject *idx)
{
    PyErr_Format(PyExc_ValueError,
                 "an index array must be on the indexed array's queue: the "
                 "array is on %R, the index on %R",
                 base_of(x)->queue, base_of(idx)->queue);
    return -1;
}

static int
is_array_item(ua_state *st, PyObject *it)
{
    if (PyObject_TypeCheck(it, st->USMArray_Type)) {
        /* A 0-d integer array is an integer, as in NumPy. */
        char k = ua_dtype_kind((ua_typenum)ARR(it)->typenum);
        return ARR(it)->nd > 0 || k == 'b';
    }
    /* NumPy's arrays have __index__ too, but are sequences. */
    return PyBool_Check(it) || PyList_Check(it) || PyTuple_Check(it) ||
           (!(PyIndex_Check(it) && !PySequence_Check(it)) &&
            !PySlice_Check(it) && it != Py_None && it != Py_Ellipsis);
}

int
ua_py_index_is_advanced(ua_state *st, PyObject *key)
{
    if (!PyTuple_Check(key)) {
        return is_array_item(st, key);
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(key); i++) {
        if (is_array_item(st, PyTuple_GET_ITEM(key, i))) {
            return 1;
        }
    }
    return 0;
}

static PyObject *
refuse_item(PyObject *item, PyObject *dtype)
{
    if (dtype != NULL && !PyUnicode_Check(item) && !PyFloat_Check(item)) {
        PyErr_Format(PyExc_IndexError,
                     "only integers, slices (`:`), ellipsis (`...`), None, "
                     "and integer or boolean arrays are valid indices, not "
                     "an array of %R",
                     dtype);
    } else {
        PyErr_Format(PyExc_IndexError,
                     "only integers, slices (`:`), ellipsis (`...`), None, "
                     "and integer or boolean arrays are valid indices, not "
                     "%.100s",
                     Py_TYPE(item)->tp_name);
    }
    return NULL;
}

/* An index item other than an array of ours, as an array of the queue of
 * x: a bool, a nested sequence, a NumPy array.  An empty sequence is an
 * empty integer index, as NumPy takes it. */
static PyObject *
upload_index(ua_state *st, PyObject *x, PyObject *item)
{
    PyObject *np = ua_py_numpy(st);
    if (np == NULL) {
        return NULL;
    }
    PyObject *host = PyObject_CallMethod(np, "asarray", "(O)", item);
    if (host == NULL) {
        PyErr_Clear();
        return refuse_item(item, NULL);
    }
    /* uint64 indices of 2**63 and more saturate (see index_array). */
    PyObject *dt = PyObject_GetAttrString(host, "dtype");
    PyObject *name = dt ? PyObject_GetAttrString(dt, "name") : NULL;
    int unsigned64 = name != NULL && PyUnicode_Check(name) &&
                     PyUnicode_CompareWithASCIIString(name, "uint64") == 0;
    Py_XDECREF(name);
    Py_XDECREF(dt);
    if (unsigned64) {
        PyObject *saturated = PyObject_CallMethod(
            np, "minimum", "OK", host, (unsigned long long)INT64_MAX);
        Py_SETREF(host, saturated);
    }
    if (host == NULL) {
        return NULL;
    }
    PyErr_Clear();
    PyObject *out = NULL;
    PyObject *size = PyObject_GetAttrString(host, "size");
    PyObject *kind = PyObject_GetAttrString(host, "dtype");
    PyObject *kch = kind ? PyObject_GetAttrString(kind, "kind") : NULL;
    if (size != NULL && kch != NULL) {
        int empty = PyLong_AsLong(size) == 0;
        const char *k = PyUnicode_AsUTF8(kch);
        ua_typenum t = UA_INT64;
        if (k != NULL &&
            (k[0] == 'b' || k[0] == 'i' || k[0] == 'u' || empty)) {
            t = k[0] == 'b' ? UA_BOOL : UA_INT64;
            Py_ssize_t shape[UA_MAXDIMS];
            PyObject *shp = PyObject_GetAttrString(host, "shape");
            int nd = shp ? (int)PyTuple_GET_SIZE(shp) : -1;
            for (int j = 0; j < nd && j < UA_MAXDIMS; j++) {
                shape[j] = PyLong_AsSsize_t(PyTuple_GET_ITEM(shp, j));
            }
            Py_XDECREF(shp);
            if (nd >= 0 && nd <= UA_MAXDIMS) {
                out = ua_py_array_empty(st, nd, shape, NULL, t, 'C',
                                        base_of(x)->kind, base_of(x)->queue);
            }
            if (out != NULL && !empty &&
                ua_py_array_assign(st, out, host) < 0) {
                Py_CLEAR(out);
            }
        } else if (k != NULL) {
            refuse_item(item, kind);
        }
    }
    Py_XDECREF(kch);
    Py_XDECREF(kind);
    Py_XDECREF(size);
    Py_DECREF(host);
    return out;
}

/* item as an int64 or bool array of x's queue (a new reference). */
static PyObject *
index_array(ua_state *st, PyObject *x, PyObject *item)
{
    if (!PyObject_TypeCheck(item, st->USMArray_Type)) {
        return upload_index(st, x, item);
    }
    ua_typenum t = (ua_typenum)ARR(item)->typenum;
    char k = ua_dtype_kind(t);
    if (k != 'b' && k != 'i' && k != 'u') {
        PyErr_Format(PyExc_IndexError,
                     "only integers, slices (`:`), ellipsis (`...`), None, "
                     "and integer or boolean arrays are valid indices, not "
                     "an array of %s",
                     ua_dtype_name(t));
        return NULL;
    }
    if (!same_queue(x, item)) {
        refuse_queue(x, item);
        return NULL;
    }
    if (k == 'b' || t == UA_INT64) {
        /* Its layout is read after the key's later items' hooks run. */
        return ua_py_array_snapshot(item);
    }
    /* uint64 indices past int64's (2**63 and more) are out of bounds of
     * every axis: they saturate at INT64_MAX, which the kernels refuse,
     * rather than wrap to negative indices that count from the end. */
    PyObject *saturated = NULL;
    if (t == UA_UINT64) {
        PyObject *ops[2] = {item, PyLong_FromLongLong(INT64_MAX)};
        saturated =
            ops[1] ? ua_py_elementwise(st, UA_EW_minimum, ops, 2, NULL, false)
                   : NULL;
        Py_XDECREF(ops[1]);
        if (saturated == NULL) {
            return NULL;
        }
        item = saturated;
    }
    PyObject *out = ua_py_array_copy(
        st, item, UA_INT64, 'C', base_of(item)->kind, base_of(item)->queue);
    Py_XDECREF(saturated);
    return out;
}

/* ------------------------------------------------------ masks */

/* Each axis of a mask matches the array's, as NumPy 2 has it: but for an
 * axis of length 0, which NumPy takes on an axis of any length (the mask
 * then selects nothing: x[np.array([], bool)] is empty). */
static int
check_mask_shape(PyObject *mask, int axis, const Py_ssize_t *xs)
{
    for (int j = 0; j < ARR(mask)->nd; j++) {
        if (ARR(mask)->shape[j] != xs[axis + j] && ARR(mask)->shape[j] != 0) {
            PyErr_Format(PyExc_IndexError,
                         "boolean index did not match indexed array along "
                         "axis %d; size of axis is %zd but size of "
                         "corresponding boolean axis is %zd",
                         axis + j, xs[axis + j], ARR(mask)->shape[j]);
            return -1;
        }
    }
    return 0;
}

/* A mask's axes as index arrays: columns of its coordinates. */
static int
add_mask_indices(ua_state *st, advanced *a, PyObject *mask, int axis)
{
    PyObject *coords = ua_py_mask_coordinates(st, mask);
    if (coords == NULL) {
        return -1;
    }
    int k = ARR(mask)->nd;
    Py_ssize_t count = ARR(coords)->shape[0], stride = k;
    for (int j = 0; j < k; j++) {
        PyObject *col =
            ua_py_array_new(st, 1, &count, &stride, UA_INT64,
                            ARR(coords)->data + 8 * j, ARR(coords)->base, 0);
        if (col == NULL) {
            Py_DECREF(coords);
            return -1;
        }
        a->axes[a->count] = axis + j;
        a->index[a->count++] = col;
    }
    Py_DECREF(coords);
    return 0;
}

/* ------------------------------------------------------ taking a key apart */

enum item_kind { IT_NONE, IT_ELLIPSIS, IT_SLICE, IT_INT, IT_INDEX, IT_MASK };

typedef struct {
    int count;
    enum item_kind kind[UA_MAXDIMS + 1];
    PyObject *item[UA_MAXDIMS + 1]; /* new references */
    /* A slice's start, stop and step; an integer's value in [0].  Read as
     * the items are, before the layout: their __index__ is user code, which
     * may reshape the array in place. */
    Py_ssize_t numbers[UA_MAXDIMS + 1][3];
} items;

static void
items_clear(items *it)
{
    for (int i = 0; i < it->count; i++) {
        Py_CLEAR(it->item[i]);
    }
}

static int
classify(ua_state *st, PyObject *self, PyObject *obj, enum item_kind *kind,
         PyObject **out, Py_ssize_t *numbers)
{
    if (obj == Py_None || obj == Py_Ellipsis) {
        *kind = obj == Py_None ? IT_NONE : IT_ELLIPSIS;
        *out = Py_NewRef(obj);
        return 0;
    }
    if (PySlice_Check(obj)) {
        if (PySlice_Unpack(obj, &numbers[0], &numbers[1], &numbers[2]) < 0) {
            return -1;
        }
        *kind = IT_SLICE;
        *out = Py_NewRef(obj);
        return 0;
    }
    if (!is_array_item(st, obj)) {
        numbers[0] = ua_py_item_index(obj);
        if (numbers[0] == -1 && PyErr_Occurred()) {
            return -1;
        }
        *kind = IT_INT;
        *out = Py_NewRef(obj);
        return 0;
    }
    *out = index_array(st, self, obj);
    if (*out == NULL) {
        return -1;
    }
    *kind = ARR(*out)->typenum == UA_BOOL ? IT_MASK : IT_INDEX;
    return 0;
}

static int
collect_items(ua_state *st, PyObject *self, PyObject *key, items *it)
{
    PyObject *const *objs = &key;
    Py_ssize_t n = 1;
    if (PyTuple_Check(key)) {
        objs = &PyTuple_GET_ITEM(key, 0);
        n = PyTuple_GET_SIZE(key);
    }
    if (n > UA_MAXDIMS + 1) {
        PyErr_Format(PyExc_IndexError, "an index of %zd items is too long", n);
        return -1;
    }
    it->count = 0;
    int ellipses = 0, used = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int c = it->count;
        if (classify(st, self, objs[i], &it->kind[c], &it->item[c],
                     it->numbers[c]) < 0) {
            return -1;
        }
        it->count++;
        enum item_kind k = it->kind[c];
        ellipses += k == IT_ELLIPSIS;
        used += k == IT_SLICE || k == IT_INT || k == IT_INDEX
                    ? 1
                    : (k == IT_MASK ? ARR(it->item[c])->nd : 0);
    }
    if (ellipses > 1) {
        PyErr_SetString(PyExc_IndexError,
                        "an index can only have a single ellipsis ('...')");
        return -1;
    }
    if (used > ARR(self)->nd) {
        PyErr_Format(PyExc_IndexError,
                     "too many indices for array: array is %d-dimensional, "
                     "but %d were indexed",
                     ARR(self)->nd, used);
        return -1;
    }
    return ARR(self)->nd - used;
}

static int
refuse_axes_beyond_limit(void)
{
    PyErr_Format(PyExc_IndexError, "an index adds axes beyond %d", UA_MAXDIMS);
    return -1;
}

static int
add_axis(advanced *a, Py_ssize_t n, Py_ssize_t stride)
{
    if (a->nd >= UA_MAXDIMS) {
        return refuse_axes_beyond_limit();
    }
    a->shape[a->nd] = n;
    a->strides[a->nd++] = stride;
    return 0;
}

/* A 0-d mask: an index of one zero (true) or none (false) into a new axis
 * of length 1. */
static int
add_scalar_mask(ua_state *st, PyObject *self, advanced *a, PyObject *mask)
{
    int truth = ua_py_array_bool(mask);
    Py_ssize_t n = truth > 0;
    PyObject *zero = truth < 0 ? NULL
                               : ua_py_array_empty(st, 1, &n, NULL, UA_INT64,
                                                   'C', base_of(self)->kind,
                                                   base_of(self)->queue);
    if (zero == NULL || add_axis(a, 1, 0) < 0) {
        Py_XDECREF(zero);
        return -1;
    }
    if (n > 0) {
        ua_queue *q = queue_of(base_of(zero)->queue);
        ua_status code = ua_queue_memset(q, ARR(zero)->data, 0, 8);
        if (code != UA_OK) {
            Py_DECREF(zero);
            return ua_py_fail_core(st, code);
        }
    }
    a->axes[a->count] = a->nd - 1;
    a->index[a->count++] = zero;
    return 0;
}

static int
apply_int(PyObject *self, Py_ssize_t i, int axis, advanced *a)
{
    Py_ssize_t n = ARR(self)->shape[axis];
    if (i < -n || i >= n) {
        PyErr_Format(PyExc_IndexError,
                     "index %zd is out of bounds for axis %d with size %zd", i,
                     axis, n);
        return -1;
    }
    a->data += (i < 0 ? i + n : i) * ARR(self)->strides[axis] *
               (Py_ssize_t)ua_py_array_itemsize(self);
    return 0;
}

static int
apply_slice(PyObject *self, const Py_ssize_t *numbers, int axis, advanced *a)
{
    Py_ssize_t start = numbers[0], stop = numbers[1], step = numbers[2];
    Py_ssize_t n = ARR(self)->shape[axis];
    Py_ssize_t len = PySlice_AdjustIndices(n, &start, &stop, step);
    Py_ssize_t stride = ARR(self)->strides[axis];
    if (len > 0) {
        a->data += start * stride * (Py_ssize_t)ua_py_array_itemsize(self);
    }
    return add_axis(a, len, len > 1 ? stride * step : stride);
}

/* Walks the items: basic ones into the view, array ones into indices. */
static int
walk_items(ua_state *st, PyObject *self, const items *it, int rest,
           advanced *a)
{
    int axis = 0, kept = 0, first = -1, last = -1, adjacent = 1;
    a->nd = 0;
    a->data = ARR(self)->data;
    int any_array = 0;
    for (int i = 0; i < it->count; i++) {
        any_array |= it->kind[i] == IT_INDEX || it->kind[i] == IT_MASK;
    }
    for (int i = 0; i < it->count; i++) {
        PyObject *obj = it->item[i];
        enum item_kind k = it->kind[i];
        int rc = 0,
            adv = k == IT_INDEX || k == IT_MASK || (k == IT_INT && any_array);
        if (adv) {
            first = first < 0 ? kept : first;
            adjacent &= last < 0 || last == i - 1;
            last = i;
        }
        if (k == IT_NONE) {
            rc = add_axis(a, 1, 0);
            kept++;
        } else if (k == IT_ELLIPSIS) {
            for (int j = 0; j < rest && rc == 0; j++, axis++, kept++) {
                rc = add_axis(a, ARR(self)->shape[axis],
                              ARR(self)->strides[axis]);
            }
        } else if (k == IT_SLICE) {
            rc = apply_slice(self, it->numbers[i], axis++, a);
            kept++;
        } else if (k == IT_INT) {
            rc = apply_int(self, it->numbers[i][0], axis++, a);
        } else if (k == IT_INDEX) {
            rc = add_axis(a, ARR(self)->shape[axis], ARR(self)->strides[axis]);
            if (rc == 0) {
                a->axes[a->count] = a->nd - 1;
                a->index[a->count++] = Py_NewRef(obj);
            }
            axis++;
        } else if (ARR(obj)->nd == 0) {
            rc = add_scalar_mask(st, self, a, obj);
        } else {
            int m = ARR(obj)->nd, at = a->nd;
            rc = check_mask_shape(obj, axis, ARR(self)->shape);
            for (int j = 0; j < m && rc == 0; j++, axis++) {
                rc = add_axis(a, ARR(self)->shape[axis],
                              ARR(self)->strides[axis]);
            }
            rc = rc < 0 ? rc : add_mask_indices(st, a, obj, at);
        }
        if (rc < 0) {
            return -1;
        }
    }
    while (axis < ARR(self)->nd) {
        if (add_axis(a, ARR(self)->shape[axis], ARR(self)->strides[axis]) <
            0) {
            return -1;
        }
        axis++;
    }
    a->position = adjacent ? first : 0;
    return 0;
}

/* Broadcasts the index arrays' shapes together, as NumPy does. */
static int
broadcast_indices(advanced *a)
{
    a->bnd = 0;
    for (int k = 0; k < a->count; k++) {
        a->bnd = ARR(a->index[k])->nd > a->bnd ? ARR(a->index[k])->nd : a->bnd;
    }
    for (int b = 0; b < a->bnd; b++) {
        a->bshape[b] = 1;
    }
    for (int k = 0; k < a->count; k++) {
        PyUSMArrayObject *ix = ARR(a->index[k]);
        int off = a->bnd - ix->nd;
        for (int b = 0; b < a->bnd; b++) {
            a->istrides[k][b] = 0;
        }
        for (int j = 0; j < ix->nd; j++) {
            Py_ssize_t n = ix->shape[j], *m = &a->bshape[off + j];
            if (n != 1 && *m != 1 && n != *m) {
                PyErr_SetString(PyExc_IndexError,
                                "shape mismatch: indexing arrays could not "
                                "be broadcast together");
                return -1;
            }
            if (n != 1) {
                *m = n;
                a->istrides[k][off + j] = ix->strides[j];
            }
        }
    }
    /* The indexed axes give way to the broadcast ones. */
    return a->nd - a->count + a->bnd > UA_MAXDIMS ? refuse_axes_beyond_limit()
                                                  : 0;
}

/* x[mask] by compress: one mask, alone or with trailing full slices, over
 * leading axes that merge into one and rows that are dense. */
static int
compress_applies(PyObject *self, const items *it)
{
    if (it->count < 1 || it->kind[0] != IT_MASK || ARR(it->item[0])->nd == 0) {
        return 0;
    }
    for (int i = 1; i < it->count; i++) {
        PyObject *s = it->item[i];
        if (it->kind[i] == IT_ELLIPSIS) {
            continue;
        }
        if (it->kind[i] != IT_SLICE ||
            ((PySliceObject *)s)->start != Py_None ||
            ((PySliceObject *)s)->stop != Py_None ||
            ((PySliceObject *)s)->step != Py_None) {
            return 0;
        }
    }
    PyUSMArrayObject *x = ARR(self);
    int m = ARR(it->item[0])->nd;
    Py_ssize_t dense = 1;
    for (int j = x->nd - 1; j >= m; j--) {
        if (x->shape[j] != 1 && x->strides[j] != dense) {
            return 0;
        }
        dense *= x->shape[j];
    }
    for (int j = m - 1; j >= 0; j--) {
        if (x->shape[j] != 1 && x->strides[j] != dense) {
            return 0;
        }
        dense *= x->shape[j];
    }
    return 1;
}

/* The core's request for a taken-apart key. */
static void
make_request(PyObject *self, const advanced *a, ua_strided *index,
             ua_index_request *r)
{
    for (int k = 0; k < a->count; k++) {
        index[k] =
            (ua_strided){ARR(a->index[k])->data, a->istrides[k], UA_INT64};
    }
    *r = (ua_index_request){.data = a->data,
                            .nd = a->nd,
                            .shape = a->shape,
                            .strides = a->strides,
                            .itemsize = ua_py_array_itemsize(self),
                            .count = a->count,
                            .axes = a->axes,
                            .index = index,
                            .bnd = a->bnd,
                            .bshape = a->bshape,
                            .position = a->position};
}

static int
take_apart(ua_state *st, PyObject *self, PyObject *key, advanced *a, items *it)
{
    memset(a, 0, sizeof *a);
    it->count = 0;
    int rest = collect_items(st, self, key, it);
    if (rest < 0 || walk_items(st, self, it, rest, a) < 0 ||
        broadcast_indices(a) < 0) {
        return -1;
    }
    return 0;
}

/* Runs gather or scatter, without the GIL when the work is long. */
static int
run_request(ua_state *st, PyObject *self, const advanced *a, int gather,
            PyObject *other)
{
    ua_strided index[UA_MAXDIMS];
    ua_index_request r;
    make_request(self, a, index, &r);
    ua_strided s = ua_py_array_strided(other);
    ua_queue *q = queue_of(base_of(self)->queue);
    PyThreadState *saved = ua_py_release_if_long(
        (size_t)ua_py_array_size(other) * ua_py_array_itemsize(self));
    ua_status code =
        gather ? ua_queue_gather(q, &r, &s) : ua_queue_scatter(q, &r, &s);
    ua_py_reacquire(saved);
    return code == UA_OK ? 0 : ua_py_fail_core(st, code);
}

/* A new C-ordered array of the indexing's result shape, of self's type,
 * USM kind and queue. */
static PyObject *
result_array(ua_state *st, PyObject *self, const advanced *a)
{
    ua_strided index[UA_MAXDIMS];
    ua_index_request r;
    int nd;
    ptrdiff_t shape[UA_MAXDIMS];
    make_request(self, a, index, &r);
    ua_status code = ua_index_result_shape(&r, &nd, shape);
    if (code != UA_OK) {
        return ua_py_raise_core(st, code);
    }
    return ua_py_array_empty(st, nd, shape, NULL,
                             (ua_typenum)ARR(self)->typenum, 'C',
                             base_of(self)->kind, base_of(self)->queue);
}

/* self[...] gathered into a new array. */
static PyObject *
gather_new(ua_state *st, PyObject *self, const advanced *a)
{
    PyObject *out = result_array(st, self, a);
    if (out != NULL && run_request(st, self, a, 1, out) < 0) {
        Py_CLEAR(out);
    }
    return out;
}

/* The values to scatter: value as an array of self's type and queue, of
 * the result's shape. */
static PyObject *
scatter_values(ua_state *st, PyObject *self, const advanced *a,
               PyObject *value)
{
    PyObject *v = result_array(st, self, a);
    if (v != NULL && ua_py_array_assign(st, v, value) < 0) {
        Py_CLEAR(v);
    }
    return v;
}

/* The values must be on x's queue: nothing moves implicitly. */
static int
check_values_queue(ua_state *st, PyObject *x, PyObject *vals)
{
    if (PyObject_TypeCheck(vals, st->USMArray_Type) && !same_queue(x, vals)) {
        PyErr_Format(PyExc_ValueError,
                     "the values must be on the array's queue: the array is "
                     "on %R, the values on %R",
                     base_of(x)->queue, base_of(vals)->queue);
        return -1;
    }
    return 0;
}

PyObject *
ua_py_array_advanced_get(PyObject *self, PyObject *key)
{
    ua_state *st = ua_state_of(self);
    advanced a;
    items it;
    memset(&a, 0, sizeof a);
    it.count = 0;
    int rest = collect_items(st, self, key, &it);
    PyObject *out = NULL;
    if (rest >= 0 && compress_applies(self, &it)) {
        out = check_mask_shape(it.item[0], 0, ARR(self)->shape) < 0
                  ? NULL
                  : ua_py_mask_rows(st, self, it.item[0]);
        items_clear(&it);
        return out;
    }
    if (rest >= 0 && walk_items(st, self, &it, rest, &a) == 0 &&
        broadcast_indices(&a) == 0) {
        out = gather_new(st, self, &a);
    }
    advanced_clear(&a);
    items_clear(&it);
    return out;
}

int
ua_py_array_advanced_set(PyObject *self, PyObject *key, PyObject *value)
{
    ua_state *st = ua_state_of(self);
    if (!(ARR(self)->flags & USM_ARRAY_WRITABLE)) {
        PyErr_SetString(PyExc_ValueError,
                        "assignment destination is read-only");
        return -1;
    }
    if (check_values_queue(st, self, value) < 0) {
        return -1;
    }
    advanced a;
    items it;
    int rc = take_apart(st, self, key, &a, &it);
    PyObject *v = rc < 0 ? NULL : scatter_values(st, self, &a, value);
    rc = v == NULL ? -1 : run_request(st, self, &a, 0, v);
    Py_XDECREF(v);
    advanced_clear(&a);
    items_clear(&it);
    return rc;
}

/* ------------------------------------------------------ take */

/* indices as an int64 array of x's queue. */
static PyObject *
integer_indices(ua_state *st, PyObject *x, PyObject *indices, const char *fn)
{
    PyObject *ix = index_array(st, x, indices);
    if (ix != NULL && ARR(ix)->typenum == UA_BOOL) {
        PyErr_Format(PyExc_IndexError,
                     "%s takes integer indices, not a boolean array", fn);
        Py_CLEAR(ix);
    }
    return ix;
}

PyObject *
ua_py_integer_indices(ua_state *st, PyObject *x, PyObject *indices,
                      const char *fn)
{
    return integer_indices(st, x, indices, fn);
}

/* The request of indices (int64, of x's queue) along axis of x, whose
 * other axes are whole; a 0-d x is taken as its one element. */
static int
along_axis(ua_state *st, PyObject *x, PyObject *indices, int axis,
           const char *fn, advanced *a)
{
    memset(a, 0, sizeof *a);
    PyObject *ix = integer_indices(st, x, indices, fn);
    if (ix == NULL) {
        return -1;
    }
    int nd = ARR(x)->nd;
    if (ua_py_check_ndim(st, fn, (nd > 0 ? nd - 1 : 0) + ARR(ix)->nd) < 0) {
        Py_DECREF(ix);
        return -1;
    }
    if (nd == 0) {
        a->nd = 1;
        a->shape[0] = 1;
        a->strides[0] = 0;
    } else {
        a->nd = nd;
        memcpy(a->shape, ARR(x)->shape, sizeof(Py_ssize_t) * (size_t)nd);
        memcpy(a->strides, ARR(x)->strides, sizeof(Py_ssize_t) * (size_t)nd);
    }
    a->data = ARR(x)->data;
    a->count = 1;
    a->axes[0] = axis;
    a->index[0] = ix;
    a->position = axis;
    if (broadcast_indices(a) < 0) {
        advanced_clear(a);
        return -1;
    }
    return 0;
}

PyObject *
ua_py_array_take(ua_state *st, PyObject *x, PyObject *indices, int axis)
{
    return ua_py_array_take_out(st, x, indices, axis, NULL);
}

PyObject *
ua_py_array_take_out(ua_state *st, PyObject *x, PyObject *indices, int axis,
                     PyObject *dest)
{
    advanced a;
    if (along_axis(st, x, indices, axis, "take", &a) < 0) {
        return NULL;
    }
    PyObject *out = dest == NULL ? gather_new(st, x, &a) : Py_NewRef(dest);
    if (dest != NULL && run_request(st, x, &a, 1, dest) < 0) {
        Py_CLEAR(out);
    }
    advanced_clear(&a);
    return out;
}

int
ua_py_array_put(ua_state *st, PyObject *x, PyObject *indices, PyObject *vals,
                int axis)
{
    if (!(ARR(x)->flags & USM_ARRAY_WRITABLE)) {
        PyErr_SetString(PyExc_ValueError, "put: the array is read-only");
        return -1;
    }
    if (check_values_queue(st, x, vals) < 0) {
        return -1;
    }
    advanced a;
    if (along_axis(st, x, indices, axis, "put", &a) < 0) {
        return -1;
    }
    PyObject *v = scatter_values(st, x, &a, vals);
    int rc = v == NULL ? -1 : run_request(st, x, &a, 0, v);
    Py_XDECREF(v);
    advanced_clear(&a);
    return rc;
}
