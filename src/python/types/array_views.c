/* Indexing and views of usmarray.USMArray: basic indexing (x[key], and
 * x[key] = v through the view it selects), transposes,
 * the real and imaginary parts, reshape.  Every view shares its base
 * Memory and derives its layout from a checked array. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"

/* --------------------------------------------------------------- views */

/* A view of a checked array needs no check of its own: its size is at
 * most its parent's (reshape keeps it), and its strides are the parent's,
 * their products with steps that stay byte counts (slice_stride), 0, or
 * reshape's products of its shape, which fit as its byte count does. */
static PyObject *
view(PyObject *self, int nd, const Py_ssize_t *shape,
     const Py_ssize_t *strides, ua_typenum t, char *data)
{
    return ua_py_array_make(ua_state_of(self), nd, shape, strides, t, data,
                            ARR(self)->base,
                            (ARR(self)->flags & USM_ARRAY_WRITABLE) != 0);
}

PyObject *
ua_py_array_permute(PyObject *self, const int *perm)
{
    Py_ssize_t shape[UA_MAXDIMS], strides[UA_MAXDIMS];
    for (int k = 0; k < ARR(self)->nd; k++) {
        shape[k] = ARR(self)->shape[perm[k]];
        strides[k] = ARR(self)->strides[perm[k]];
    }
    return view(self, ARR(self)->nd, shape, strides,
                (ua_typenum)ARR(self)->typenum, ARR(self)->data);
}

static PyObject *
swap_last_two(PyObject *self, const char *what, int exact_2d)
{
    int nd = ARR(self)->nd, perm[UA_MAXDIMS];
    if (exact_2d ? nd != 2 : nd < 2) {
        PyErr_Format(PyExc_ValueError,
                     "%s needs an array of %s 2 dimensions, not %d", what,
                     exact_2d ? "exactly" : "at least", nd);
        return NULL;
    }
    for (int k = 0; k < nd; k++) {
        perm[k] = k;
    }
    perm[nd - 2] = nd - 1;
    perm[nd - 1] = nd - 2;
    return ua_py_array_permute(self, perm);
}

PyObject *
ua_py_array_get_T(PyObject *self, void *Py_UNUSED(c))
{
    return swap_last_two(self, "T", 1);
}

PyObject *
ua_py_array_get_mT(PyObject *self, void *Py_UNUSED(c))
{
    return swap_last_two(self, "mT", 0);
}

/* The real or imaginary parts of a complex array as a float view. */
static PyObject *
complex_part(PyObject *self, int imag)
{
    ua_typenum t =
        ARR(self)->typenum == UA_COMPLEX64 ? UA_FLOAT32 : UA_FLOAT64;
    Py_ssize_t strides[UA_MAXDIMS];
    for (int k = 0; k < ARR(self)->nd; k++) {
        strides[k] = 2 * ARR(self)->strides[k];
    }
    return view(self, ARR(self)->nd, ARR(self)->shape, strides, t,
                ARR(self)->data + (imag ? ua_dtype_itemsize(t) : 0));
}

static int
is_complex(PyObject *self)
{
    return ua_dtype_kind((ua_typenum)ARR(self)->typenum) == 'c';
}

PyObject *
ua_py_array_get_real(PyObject *self, void *Py_UNUSED(c))
{
    return is_complex(self) ? complex_part(self, 0) : Py_NewRef(self);
}

/* A real array's imaginary part is a new, read-only array of zeros. */
PyObject *
ua_py_array_get_imag(PyObject *self, void *Py_UNUSED(c))
{
    if (is_complex(self)) {
        return complex_part(self, 1);
    }
    ua_state *st = ua_state_of(self);
    PyObject *z = ua_py_array_empty(st, ARR(self)->nd, ARR(self)->shape, NULL,
                                    (ua_typenum)ARR(self)->typenum, 'C',
                                    base_of(self)->kind, base_of(self)->queue);
    if (z == NULL) {
        return NULL;
    }
    ua_py_memory *m = (ua_py_memory *)ARR(z)->base;
    ua_queue *q = ((ua_py_queue *)m->queue)->queue;
    ua_status code = ua_queue_memset(q, m->ptr, 0, (size_t)m->nbytes);
    if (code == UA_OK) {
        code = ua_queue_wait(q);
    }
    if (code != UA_OK) {
        Py_DECREF(z);
        return ua_py_raise_core(st, code);
    }
    ARR(z)->flags &= ~USM_ARRAY_WRITABLE;
    return z;
}

/* ------------------------------------------------------------ indexing */

typedef struct {
    int nd;
    Py_ssize_t shape[UA_MAXDIMS];
    Py_ssize_t strides[UA_MAXDIMS];
    char *data;
} index_result;

static int
index_error_type(PyObject *item)
{
    PyErr_Format(PyExc_IndexError,
                 "only integers, slices (`:`), ellipsis (`...`), None and "
                 "tuples of them are valid indices, not %.100s",
                 Py_TYPE(item)->tp_name);
    return -1;
}

static int
is_integer_index(PyObject *item)
{
    return !PyBool_Check(item) && PyIndex_Check(item);
}

/* How many axes of the array the items consume; -1 on a bad item. */
static int
consumed_axes(PyObject *const *items, Py_ssize_t n, int *ellipses)
{
    int used = 0;
    *ellipses = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = items[i];
        if (it == Py_Ellipsis) {
            ++*ellipses;
        } else if (is_integer_index(it) || PySlice_Check(it)) {
            used++;
        } else if (it != Py_None) {
            return index_error_type(it);
        }
    }
    if (*ellipses > 1) {
        PyErr_SetString(PyExc_IndexError,
                        "an index can only have a single ellipsis ('...')");
        return -1;
    }
    return used;
}

/* The strides of an empty array reach nothing and are not bounded by any
 * allocation, so the product may not fit: it is taken modulo 2**64, and
 * resolve_index puts the pointer of an empty view back. */
static void
move_data(index_result *r, Py_ssize_t i, Py_ssize_t stride, Py_ssize_t isz)
{
    r->data = (char *)((uintptr_t)r->data +
                       (uintptr_t)i * (uintptr_t)stride * (uintptr_t)isz);
}

/* stride * step, as NumPy gives it, where its byte count fits.  It can
 * only overflow where it means nothing: on an axis of one element (a step
 * such as 2**62) or of an empty array; the axis keeps its stride there. */
static Py_ssize_t
slice_stride(Py_ssize_t stride, Py_ssize_t step, Py_ssize_t isz)
{
    Py_ssize_t out, bytes;
    if (__builtin_mul_overflow(stride, step, &out) ||
        __builtin_mul_overflow(out, isz, &bytes)) {
        return stride;
    }
    return out;
}

/* An item's numbers, read before the array's layout is: their __index__
 * is user code, which may reshape the array in place. */
typedef struct {
    Py_ssize_t start, stop, step; /* a slice's; an integer's is start */
} item_numbers;

static int
read_numbers(PyObject *it, item_numbers *out)
{
    if (PySlice_Check(it)) {
        return PySlice_Unpack(it, &out->start, &out->stop, &out->step);
    }
    if (it == Py_None || it == Py_Ellipsis) {
        return 0;
    }
    out->start = ua_py_item_index(it);
    if (out->start == -1 && PyErr_Occurred()) {
        /* An array of several elements has __index__ but refuses it. */
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            return index_error_type(it);
        }
        return -1;
    }
    return 0;
}

static int
apply_item(PyObject *self, PyObject *it, const item_numbers *num, int *axis,
           index_result *r)
{
    PyUSMArrayObject *a = ARR(self);
    Py_ssize_t isz = (Py_ssize_t)ua_py_array_itemsize(self);
    if ((it == Py_None || PySlice_Check(it)) && r->nd >= UA_MAXDIMS) {
        PyErr_Format(PyExc_IndexError, "an index adds axes beyond %d",
                     UA_MAXDIMS);
        return -1;
    }
    if (it == Py_None) {
        r->shape[r->nd] = 1;
        r->strides[r->nd++] = 0;
        return 0;
    }
    Py_ssize_t n = a->shape[*axis], stride = a->strides[*axis];
    if (PySlice_Check(it)) {
        Py_ssize_t start = num->start, stop = num->stop, step = num->step;
        Py_ssize_t len = PySlice_AdjustIndices(n, &start, &stop, step);
        move_data(r, len > 0 ? start : 0, stride, isz);
        r->shape[r->nd] = len;
        /* An empty slice steps by 1 from the start, as NumPy's does. */
        r->strides[r->nd++] = slice_stride(stride, len > 0 ? step : 1, isz);
    } else {
        Py_ssize_t i = num->start;
        if (i < -n || i >= n) {
            PyErr_Format(PyExc_IndexError,
                         "index %zd is out of bounds for axis %d with size "
                         "%zd",
                         i, *axis, n);
            return -1;
        }
        move_data(r, i < 0 ? i + n : i, stride, isz);
    }
    ++*axis;
    return 0;
}

static int
copy_axes(PyObject *self, int *axis, int count, index_result *r)
{
    if (r->nd + count > UA_MAXDIMS) {
        PyErr_Format(PyExc_IndexError, "an index adds axes beyond %d",
                     UA_MAXDIMS);
        return -1;
    }
    for (int k = 0; k < count; k++, ++*axis) {
        r->shape[r->nd] = ARR(self)->shape[*axis];
        r->strides[r->nd++] = ARR(self)->strides[*axis];
    }
    return 0;
}

static int
too_many_indices(PyObject *self, int used)
{
    if (used <= ARR(self)->nd) {
        return 0;
    }
    PyErr_Format(PyExc_IndexError,
                 "too many indices for array: array is %d-dimensional, but "
                 "%d were indexed",
                 ARR(self)->nd, used);
    return -1;
}

static int
resolve_index(PyObject *self, PyObject *key, index_result *r)
{
    PyObject *const *items = &key;
    Py_ssize_t n = 1;
    if (PyTuple_Check(key)) {
        items = &PyTuple_GET_ITEM(key, 0);
        n = PyTuple_GET_SIZE(key);
    }
    int ellipses, used = consumed_axes(items, n, &ellipses);
    if (used < 0 || too_many_indices(self, used) < 0) {
        return -1;
    }
    /* A key that any array takes has at most UA_MAXDIMS integers and
     * slices, UA_MAXDIMS None and one ellipsis. */
    item_numbers num[2 * UA_MAXDIMS + 1];
    if (n > (Py_ssize_t)(sizeof num / sizeof num[0])) {
        PyErr_Format(PyExc_IndexError, "an index of %zd items is too long", n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_numbers(items[i], &num[i]) < 0) {
            return -1;
        }
    }
    /* The layout is read from here on, and no user code runs: the hooks
     * may have taken axes away. */
    if (too_many_indices(self, used) < 0) {
        return -1;
    }
    int axis = 0;
    r->nd = 0;
    r->data = ARR(self)->data;
    for (Py_ssize_t i = 0; i < n; i++) {
        int rc = items[i] == Py_Ellipsis
                     ? copy_axes(self, &axis, ARR(self)->nd - used, r)
                     : apply_item(self, items[i], &num[i], &axis, r);
        if (rc < 0) {
            return -1;
        }
    }
    if (copy_axes(self, &axis, ARR(self)->nd - axis, r) < 0) {
        return -1;
    }
    /* An empty view reaches no element: keep the parent's pointer, which
     * lies inside the memory, rather than one moved past its end. */
    for (int k = 0; k < r->nd; k++) {
        if (r->shape[k] == 0) {
            r->data = ARR(self)->data;
        }
    }
    return 0;
}

PyObject *
ua_py_array_subscript(PyObject *self, PyObject *key)
{
    index_result r;
    int adv = ua_py_index_is_advanced(ua_state_of(self), key);
    if (adv != 0) {
        return adv < 0 ? NULL : ua_py_array_advanced_get(self, key);
    }
    if (resolve_index(self, key, &r) < 0) {
        return NULL;
    }
    return view(self, r.nd, r.shape, r.strides, (ua_typenum)ARR(self)->typenum,
                r.data);
}

/* ------------------------------------------------------------ reshape */

PyObject *
ua_py_array_reshape(ua_state *st, PyObject *self, int nd,
                    const Py_ssize_t *shape, char order, int copy)
{
    Py_ssize_t strides[UA_MAXDIMS];
    /* To its own shape: the array itself, as dpctl's reshape returns it. */
    if (copy != 1 && nd == ARR(self)->nd &&
        memcmp(shape, ARR(self)->shape, (size_t)nd * sizeof(Py_ssize_t)) ==
            0) {
        return Py_NewRef(self);
    }
    if (copy != 1 &&
        ua_layout_reshape(ARR(self)->nd, ARR(self)->shape, ARR(self)->strides,
                          nd, shape, order, strides)) {
        return view(self, nd, shape, strides, (ua_typenum)ARR(self)->typenum,
                    ARR(self)->data);
    }
    if (copy == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "reshape(copy=False): this layout cannot be reshaped "
                        "without a copy");
        return NULL;
    }
    PyObject *c =
        ua_py_array_copy(st, self, (ua_typenum)ARR(self)->typenum, order,
                         base_of(self)->kind, base_of(self)->queue);
    if (c == NULL) {
        return NULL;
    }
    ua_layout_default_strides(nd, shape, order, strides);
    PyObject *r =
        ua_py_array_new(st, nd, shape, strides, (ua_typenum)ARR(self)->typenum,
                        ARR(c)->data, ARR(c)->base, 1);
    Py_DECREF(c);
    return r;
}

/* Fills in one -1 and checks that the size is kept. */
static int
infer_shape(PyObject *self, int nd, Py_ssize_t *shape)
{
    Py_ssize_t known, size = ua_py_array_size(self), others[UA_MAXDIMS];
    int unknown = -1;
    for (int k = 0; k < nd; k++) {
        if (shape[k] == -1 && unknown < 0) {
            unknown = k;
        } else if (shape[k] < 0) {
            PyErr_Format(PyExc_ValueError,
                         "shape[%d] is %zd; only one -1 is allowed", k,
                         shape[k]);
            return -1;
        }
        others[k] = shape[k] == -1 ? 1 : shape[k];
    }
    if (ua_layout_check_size(nd, others, ua_py_array_itemsize(self), &known) !=
        UA_OK) {
        return ua_py_fail_core(ua_state_of(self), ua_error_code());
    }
    if (unknown >= 0) {
        if (known == 0 || size % known != 0) {
            PyErr_Format(PyExc_ValueError,
                         "cannot reshape an array of size %zd: the other "
                         "axes hold %zd elements",
                         size, known);
            return -1;
        }
        shape[unknown] = size / known;
        known = size;
    }
    if (known != size) {
        PyErr_Format(PyExc_ValueError,
                     "cannot reshape an array of size %zd into a shape of "
                     "size %zd",
                     size, known);
        return -1;
    }
    return 0;
}

PyObject *
ua_py_reshape_call(ua_state *st, PyObject *self, PyObject *shape_obj,
                   PyObject *order_obj, PyObject *copy_obj)
{
    Py_ssize_t shape[UA_MAXDIMS];
    int nd, copy;
    char order = 'C';
    if (ua_py_parse_ints(shape_obj, "shape", shape, &nd) < 0 ||
        infer_shape(self, nd, shape) < 0 ||
        (order_obj && ua_py_parse_order(order_obj, "CF", &order) < 0) ||
        ua_py_parse_copy(copy_obj, &copy) < 0) {
        return NULL;
    }
    return ua_py_array_reshape(st, self, nd, shape, order, copy);
}

/* x.shape = new_shape: a reshape in place, which keeps x the same view of
 * the same memory, as NumPy and dpctl allow; a layout that would need a
 * copy raises AttributeError, as theirs do. */
/* Gives a the layout (nd, shape, strides).  Work running without the GIL
 * may be reading the current one: its storage then stays as it is, and the
 * new layout takes new storage. */
static int
replace_layout(PyUSMArrayObject *a, int nd, const Py_ssize_t *shape,
               const Py_ssize_t *strides)
{
    bool in_use = ua_py_layout_may_be_read();
    Py_ssize_t *storage = a->inline_dims;
    if (nd > USM_ARRAY_INLINE_DIMS || in_use) {
        storage =
            PyMem_Malloc(2 * (size_t)(nd > 0 ? nd : 1) * sizeof(Py_ssize_t));
        if (storage == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    if (a->shape != a->inline_dims) {
        if (!in_use) {
            PyMem_Free(a->shape);
        } else if (ua_py_retire_layout(a->shape) < 0) {
            PyMem_Free(storage);
            return -1;
        }
    }
    a->nd = nd;
    a->shape = storage;
    a->strides = storage + (storage == a->inline_dims ? USM_ARRAY_INLINE_DIMS
                                                      : (nd > 0 ? nd : 1));
    if (nd > 0) {
        memcpy(a->shape, shape, (size_t)nd * sizeof(Py_ssize_t));
        memcpy(a->strides, strides, (size_t)nd * sizeof(Py_ssize_t));
    }
    return 0;
}

int
ua_py_array_set_shape(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    Py_ssize_t shape[UA_MAXDIMS], strides[UA_MAXDIMS];
    int nd;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError,
                        "cannot delete an array's shape");
        return -1;
    }
    if (ua_py_parse_ints(value, "shape", shape, &nd) < 0 ||
        infer_shape(self, nd, shape) < 0) {
        return -1;
    }
    PyUSMArrayObject *a = ARR(self);
    if (!ua_layout_reshape(a->nd, a->shape, a->strides, nd, shape, 'C',
                           strides)) {
        PyErr_SetString(PyExc_AttributeError,
                        "incompatible shape for in-place modification: this "
                        "layout cannot take it without a copy; use "
                        "reshape() to make one");
        return -1;
    }
    if (replace_layout(a, nd, shape, strides) < 0) {
        return -1;
    }
    a->flags = ua_layout_contiguity(nd, shape, strides) |
               (a->flags & USM_ARRAY_WRITABLE);
    return 0;
}

PyObject *
ua_py_array_reshape_method(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *order = NULL, *copy = NULL;
    static char *kwlist[] = {"order", "copy", NULL};
    PyObject *empty = PyTuple_New(0);
    int ok =
        empty && PyArg_ParseTupleAndKeywords(empty, kwargs, "|$OO:reshape",
                                             kwlist, &order, &copy);
    Py_XDECREF(empty);
    if (!ok) {
        return NULL;
    }
    PyObject *shape =
        PyTuple_GET_SIZE(args) == 1 ? PyTuple_GET_ITEM(args, 0) : args;
    return ua_py_reshape_call(ua_state_of(self), self, shape, order, copy);
}

static PyObject *
transpose_of(PyObject *x, PyObject *args)
{
    int nd = ARR(x)->nd, perm[UA_MAXDIMS];
    PyObject *axes =
        PyTuple_GET_SIZE(args) == 1 ? PyTuple_GET_ITEM(args, 0) : args;
    if (PyTuple_GET_SIZE(args) == 0 || axes == Py_None) {
        for (int k = 0; k < nd; k++) {
            perm[k] = nd - 1 - k;
        }
    } else if (ua_py_parse_axes(axes, nd, perm) < 0) {
        return NULL;
    }
    return ua_py_array_permute(x, perm);
}

PyObject *
ua_py_array_transpose(PyObject *self, PyObject *args)
{
    /* The axes' hooks may reshape self after its axes were counted. */
    PyObject *x = ua_py_array_snapshot(self);
    PyObject *out = x != NULL ? transpose_of(x, args) : NULL;
    Py_XDECREF(x);
    return out;
}

/* x[key] = value: the view key selects, then an assignment into it. */
int
ua_py_array_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_ValueError, "cannot delete array elements");
        return -1;
    }
    int adv = ua_py_index_is_advanced(ua_state_of(self), key);
    if (adv != 0) {
        return adv < 0 ? -1 : ua_py_array_advanced_set(self, key, value);
    }
    PyObject *target = ua_py_array_subscript(self, key);
    if (target == NULL) {
        return -1;
    }
    int rc = ua_py_array_assign(ua_state_of(self), target, value);
    Py_DECREF(target);
    return rc;
}
