/* usmarray.USMArray: an N-dimensional strided view of USM memory, with the
 * object layout of the source document (usmarray/usmarray_api.h). */
#include "binding.h"

#include <structmember.h> /* T_PYSSIZET on 3.11 */

#define SUAI "__sycl_usm_array_interface__"

/* ------------------------------------------------------------ creation */

PyObject *
ua_py_array_make(ua_state *st, int nd, const Py_ssize_t *shape,
           const Py_ssize_t *strides, ua_typenum t, char *data,
           PyObject *base, int writable)
{
    PyTypeObject *type = st->USMArray_Type;
    PyUSMArrayObject *a = (PyUSMArrayObject *)type->tp_alloc(type, 0);
    if (a == NULL) {
        return NULL;
    }
    if (nd <= USM_ARRAY_INLINE_DIMS) {
        a->shape = a->inline_dims;
        a->strides = a->inline_dims + USM_ARRAY_INLINE_DIMS;
    }
    else {
        a->shape = PyMem_Malloc(2 * (size_t)nd * sizeof(Py_ssize_t));
        if (a->shape == NULL) {
            Py_DECREF(a);
            return PyErr_NoMemory();
        }
        a->strides = a->shape + nd;
    }
    a->nd = nd;
    if (nd > 0) {
        memcpy(a->shape, shape, (size_t)nd * sizeof(Py_ssize_t));
        memcpy(a->strides, strides, (size_t)nd * sizeof(Py_ssize_t));
    }
    a->typenum = (int)t;
    a->data = data;
    a->base = Py_NewRef(base);
    a->flags = ua_layout_contiguity(nd, shape, strides) |
               (writable && !((ua_py_memory *)base)->readonly
                    ? USM_ARRAY_WRITABLE
                    : 0);
    return (PyObject *)a;
}

PyObject *
ua_py_array_new(ua_state *st, int nd, const Py_ssize_t *shape,
                const Py_ssize_t *strides, ua_typenum t, char *data,
                PyObject *base, int writable)
{
    ptrdiff_t size;
    size_t isz = ua_dtype_itemsize(t);
    /* Every new layout passes here: no shape whose element or byte count
     * overflows, and no stride beyond a byte count, can exist to be
     * multiplied out later. */
    if (ua_layout_check_size(nd, shape, isz, &size) != UA_OK ||
        ua_layout_check_strides(nd, strides, isz) != UA_OK) {
        return ua_py_raise_core(st, ua_error_code());
    }
    return ua_py_array_make(st, nd, shape, strides, t, data, base, writable);
}

static Py_ssize_t
allocation_bytes(int nd, const Py_ssize_t *shape, ua_typenum t)
{
    ptrdiff_t n;
    size_t isz = ua_dtype_itemsize(t);
    if (ua_layout_check_size(nd, shape, isz, &n) != UA_OK) {
        return -1;
    }
    /* An empty array still owns an allocation: one element. */
    return n > 0 ? n * (Py_ssize_t)isz : (Py_ssize_t)isz;
}

PyObject *
ua_py_array_empty(ua_state *st, int nd, const Py_ssize_t *shape,
                  const Py_ssize_t *like, ua_typenum t, char order,
                  ua_usm_kind kind, PyObject *queue)
{
    Py_ssize_t strides[UA_MAXDIMS];
    Py_ssize_t nbytes = allocation_bytes(nd, shape, t);
    if (nbytes < 0) {
        return ua_py_raise_core(st, ua_error_code());
    }
    PyObject *mem = ua_py_memory_new(st, kind, nbytes, 0, queue);
    if (mem == NULL) {
        return NULL;
    }
    if (order == 'K' && like != NULL) {
        ua_layout_strides_like(nd, shape, like, strides);
    }
    else {
        ua_layout_default_strides(nd, shape, order == 'F' ? 'F' : 'C',
                                  strides);
    }
    PyObject *a = ua_py_array_new(st, nd, shape, strides, t,
                                  ((ua_py_memory *)mem)->ptr, mem, 1);
    Py_DECREF(mem);
    return a;
}

/* --------------------------------------------------------- constructor */

typedef struct {
    int nd;
    Py_ssize_t shape[UA_MAXDIMS];
    Py_ssize_t strides[UA_MAXDIMS];
    ua_typenum type;
    Py_ssize_t offset;
    char order;
} layout_args;

static int
parse_strides(PyObject *obj, layout_args *l)
{
    int n;
    if (obj == Py_None) {
        ua_layout_default_strides(l->nd, l->shape, l->order, l->strides);
        return 0;
    }
    if (PyIndex_Check(obj) || ua_py_parse_ints(obj, "strides", l->strides,
                                               &n) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError,
                         "strides must be None or a sequence of integers, "
                         "not %.100s",
                         Py_TYPE(obj)->tp_name);
        }
        return -1;
    }
    if (n != l->nd) {
        PyErr_Format(PyExc_ValueError,
                     "strides has %d entries but shape has %d", n, l->nd);
        return -1;
    }
    return 0;
}

Py_ssize_t
ua_py_layout_span(ua_state *st, int nd, const Py_ssize_t *shape,
                  const Py_ssize_t *strides, ua_typenum t, Py_ssize_t *offset)
{
    ptrdiff_t lo, hi, span;
    bool empty;
    size_t isz = ua_dtype_itemsize(t);
    if (ua_layout_displacements(nd, shape, strides, &lo, &hi, &empty) !=
        UA_OK) {
        return ua_py_fail_core(st, ua_error_code());
    }
    /* lo may be -2**63 (a stride of -2**63 on an axis of two): the span
     * is then beyond any allocation, and -lo does not exist. */
    if (__builtin_sub_overflow(hi, lo, &span) ||
        span >= PY_SSIZE_T_MAX / (Py_ssize_t)isz) {
        PyErr_SetString(PyExc_ValueError,
                        "strides and shape reach more bytes than can be "
                        "addressed");
        return -1;
    }
    *offset = -lo;
    return (span + 1) * (Py_ssize_t)isz;
}

/* Allocates exactly the elements the layout reaches. */
static PyObject *
allocate_for_layout(ua_state *st, layout_args *l, ua_usm_kind kind,
                    PyObject *ctor_kwargs)
{
    if (l->offset != 0) {
        PyErr_SetString(PyExc_ValueError,
                        "offset must be 0 when buffer asks for a new "
                        "allocation: the offset is then computed");
        return NULL;
    }
    Py_ssize_t nbytes = ua_py_layout_span(st, l->nd, l->shape, l->strides,
                                          l->type, &l->offset);
    if (nbytes < 0) {
        return NULL;
    }
    PyObject *queue = NULL, *alignment = NULL;
    size_t align = 0;
    if (ctor_kwargs != NULL) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(ctor_kwargs, &pos, &key, &value)) {
            const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : "";
            if (k != NULL && strcmp(k, "queue") == 0) {
                queue = value;
            }
            else if (k != NULL && strcmp(k, "alignment") == 0) {
                alignment = value;
            }
            else if (k == NULL || strcmp(k, "copy") != 0) {
                PyErr_Format(PyExc_TypeError,
                             "buffer_ctor_kwargs has unknown key %R (expected "
                             "'queue', 'alignment' or 'copy')",
                             key);
                return NULL;
            }
        }
    }
    if (alignment != NULL &&
        ua_py_parse_alignment(alignment, "buffer_ctor_kwargs['alignment']",
                              &align) < 0) {
        return NULL;
    }
    PyObject *q = ua_py_as_queue(st, queue, "buffer_ctor_kwargs['queue']");
    if (q == NULL) {
        return NULL;
    }
    PyObject *mem = ua_py_memory_new(st, kind, nbytes, align, q);
    Py_DECREF(q);
    return mem;
}

static PyObject *
buffer_memory(ua_state *st, PyObject *buffer, layout_args *l,
              PyObject *ctor_kwargs)
{
    if (buffer == NULL) {
        return allocate_for_layout(st, l, UA_USM_DEVICE, ctor_kwargs);
    }
    if (PyUnicode_Check(buffer)) {
        const char *s = PyUnicode_AsUTF8(buffer);
        ua_usm_kind kind;
        if (s == NULL) {
            return NULL;
        }
        if (ua_usm_kind_parse(s, &kind) != UA_OK) {
            ua_error_clear();
            PyErr_Format(PyExc_ValueError,
                         "buffer must be 'device', 'shared', 'host', a "
                         "usmarray.Memory or a USMArray, not %R",
                         buffer);
            return NULL;
        }
        return allocate_for_layout(st, l, kind, ctor_kwargs);
    }
    if (ctor_kwargs != NULL && PyDict_GET_SIZE(ctor_kwargs) > 0) {
        PyErr_SetString(PyExc_ValueError,
                        "buffer_ctor_kwargs apply only when buffer asks for a "
                        "new allocation");
        return NULL;
    }
    if (PyObject_TypeCheck(buffer, st->Memory_Type)) {
        return Py_NewRef(buffer);
    }
    if (PyObject_TypeCheck(buffer, st->USMArray_Type)) {
        return Py_NewRef(ARR(buffer)->base);
    }
    PyErr_Format(PyExc_TypeError,
                 "buffer must be 'device', 'shared', 'host', a "
                 "usmarray.Memory or a USMArray, not %.100s",
                 Py_TYPE(buffer)->tp_name);
    return NULL;
}

int
ua_py_layout_check_fits(ua_state *st, int nd, const Py_ssize_t *shape,
                        const Py_ssize_t *strides, Py_ssize_t offset,
                        ua_typenum t, PyObject *memory)
{
    ptrdiff_t begin, end;
    Py_ssize_t nbytes = ((ua_py_memory *)memory)->nbytes;
    if (offset < 0) {
        PyErr_Format(PyExc_ValueError, "offset must not be negative, not %zd",
                     offset);
        return -1;
    }
    if (ua_layout_byte_range(nd, shape, strides, offset, ua_dtype_itemsize(t),
                             &begin, &end) != UA_OK) {
        return ua_py_fail_core(st, ua_error_code());
    }
    if (begin < 0 || end > nbytes) {
        PyErr_Format(PyExc_ValueError,
                     "shape, strides and offset reach bytes [%zd, %zd) of a "
                     "buffer of %zd bytes",
                     (Py_ssize_t)begin, (Py_ssize_t)end, nbytes);
        return -1;
    }
    return 0;
}

enum { A_SHAPE, A_DTYPE, A_BUFFER, A_STRIDES, A_OFFSET, A_ORDER, A_CTOR, A_N };
static const char *const array_kwlist[] = {
    "shape", "dtype", "buffer", "strides", "offset", "order",
    "buffer_ctor_kwargs", NULL};
static const ua_py_argspec array_args = {"USMArray", array_kwlist, A_N, 1};

static int
parse_layout(ua_state *st, PyObject **v, layout_args *l)
{
    PyObject *ctor = v[A_CTOR];
    if (ctor != NULL && !PyDict_Check(ctor)) {
        PyErr_Format(PyExc_TypeError,
                     "buffer_ctor_kwargs must be dict, not %.100s",
                     Py_TYPE(ctor)->tp_name);
        return -1;
    }
    if (ua_py_parse_shape(v[A_SHAPE], "shape", l->shape, &l->nd) < 0 ||
        (v[A_DTYPE] != NULL && ua_py_typenum(st, v[A_DTYPE], &l->type) < 0) ||
        (v[A_ORDER] != NULL &&
         ua_py_parse_order(v[A_ORDER], "CF", &l->order) < 0) ||
        (v[A_OFFSET] != NULL &&
         ua_py_index(v[A_OFFSET], "offset", &l->offset) < 0)) {
        return -1;
    }
    return parse_strides(v[A_STRIDES] ? v[A_STRIDES] : Py_None, l);
}

static PyObject *
array_construct(ua_state *st, PyObject **v)
{
    layout_args l; /* not zeroed: its two arrays are 1 KiB */
    l.order = 'C';
    l.type = UA_FLOAT64;
    l.offset = 0;
    if (parse_layout(st, v, &l) < 0) {
        return NULL;
    }
    PyObject *mem = buffer_memory(st, v[A_BUFFER], &l, v[A_CTOR]);
    if (mem == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    ua_py_memory *m = (ua_py_memory *)mem;
    /* A read-only array lends its memory read-only, as NumPy's does. */
    PyObject *buffer = v[A_BUFFER];
    int lent_readonly = buffer != NULL &&
                        PyObject_TypeCheck(buffer, st->USMArray_Type) &&
                        !(ARR(buffer)->flags & USM_ARRAY_WRITABLE);
    /* The fit check ran the checks of ua_py_array_new (byte range). */
    if (ua_py_layout_check_fits(st, l.nd, l.shape, l.strides, l.offset,
                                l.type, mem) == 0) {
        result = ua_py_array_make(
            st, l.nd, l.shape, l.strides, l.type,
            m->ptr + l.offset * (Py_ssize_t)ua_dtype_itemsize(l.type), mem,
            !m->readonly && !lent_readonly);
    }
    Py_DECREF(mem);
    return result;
}

static PyObject *
array_tp_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *v[A_N] = {NULL};
    if (ua_py_parse_tuple(&array_args, args, kwargs, v) < 0) {
        return NULL;
    }
    return array_construct(ua_state_of_type(type), v);
}

/* Calls of USMArray itself skip building an argument tuple and dict. */
static PyObject *
array_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf,
                 PyObject *kwnames)
{
    PyObject *v[A_N] = {NULL};
    if (ua_py_parse_fast(&array_args, args, (Py_ssize_t)nargsf, kwnames, v) <
        0) {
        return NULL;
    }
    return array_construct(ua_state_of_type((PyTypeObject *)type), v);
}

/* ---------------------------------------------------------- attributes */

PyObject *
ua_py_int_tuple(int n, const Py_ssize_t *v)
{
    PyObject *t = PyTuple_New(n);
    for (int k = 0; t != NULL && k < n; k++) {
        PyObject *x = PyLong_FromSsize_t(v[k]);
        if (x == NULL) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, k, x);
    }
    return t;
}

static PyObject *
get_shape(PyObject *self, void *Py_UNUSED(c))
{
    return ua_py_int_tuple(ARR(self)->nd, ARR(self)->shape);
}

static PyObject *
get_strides(PyObject *self, void *Py_UNUSED(c))
{
    return ua_py_int_tuple(ARR(self)->nd, ARR(self)->strides);
}

static PyObject *
get_ndim(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(ARR(self)->nd);
}

static PyObject *
get_size(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromSsize_t(ua_py_array_size(self));
}

static PyObject *
get_itemsize(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromSize_t(ua_py_array_itemsize(self));
}

static PyObject *
get_nbytes(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromSsize_t(ua_py_array_size(self) * (Py_ssize_t)ua_py_array_itemsize(self));
}

static PyObject *
get_dtype(PyObject *self, void *Py_UNUSED(c))
{
    PyObject *dt = ua_py_dtype(ua_state_of(self), (ua_typenum)ARR(self)->typenum);
    return Py_XNewRef(dt);
}

static PyObject *
get_usm_type(PyObject *self, void *Py_UNUSED(c))
{
    return PyUnicode_FromString(ua_usm_kind_name(base_of(self)->kind));
}

static PyObject *
get_queue(PyObject *self, void *Py_UNUSED(c))
{
    return Py_NewRef(base_of(self)->queue);
}

static PyObject *
get_device(PyObject *self, void *Py_UNUSED(c))
{
    return Py_NewRef(((ua_py_queue *)base_of(self)->queue)->device);
}

static PyObject *
get_base(PyObject *self, void *Py_UNUSED(c))
{
    return Py_NewRef(ARR(self)->base);
}

static PyObject *
get_flags(PyObject *self, void *Py_UNUSED(c))
{
    return ua_py_flags_new(ua_state_of(self), self);
}

static PyObject *
get_pointer(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromVoidPtr(ARR(self)->data);
}

static PyObject *
get_element_offset(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromSsize_t(ua_py_array_element_offset(self));
}

static PyObject *
get_byte_bounds(PyObject *self, void *Py_UNUSED(c))
{
    ptrdiff_t begin, end;
    ua_layout_byte_range(ARR(self)->nd, ARR(self)->shape, ARR(self)->strides,
                         0, ua_py_array_itemsize(self), &begin, &end);
    uintptr_t p = (uintptr_t)ARR(self)->data;
    return Py_BuildValue("(NN)", PyLong_FromSize_t(p + (uintptr_t)begin),
                         PyLong_FromSize_t(p + (uintptr_t)end));
}

/* ------------------------------------------------- host-side protocols */

static int
host_accessible(PyObject *self)
{
    return ua_usm_kind_host_accessible(base_of(self)->kind);
}

PyObject *
ua_py_array_byte_strides(PyObject *self)
{
    Py_ssize_t b[UA_MAXDIMS], isz = (Py_ssize_t)ua_py_array_itemsize(self);
    for (int k = 0; k < ARR(self)->nd; k++) {
        b[k] = ARR(self)->strides[k] * isz;
    }
    return ua_py_int_tuple(ARR(self)->nd, b);
}

int
ua_py_array_layout_tuples(PyObject *self, int in_bytes, PyObject **shape,
                          PyObject **strides)
{
    PyUSMArrayObject *a = ARR(self);
    *strides = (a->flags & USM_ARRAY_C_CONTIGUOUS) ? Py_NewRef(Py_None)
               : in_bytes ? ua_py_array_byte_strides(self)
                          : ua_py_int_tuple(a->nd, a->strides);
    *shape = ua_py_int_tuple(a->nd, a->shape);
    if (*strides == NULL || *shape == NULL) {
        Py_CLEAR(*strides);
        Py_CLEAR(*shape);
        return -1;
    }
    return 0;
}

/* Present only for host-accessible memory: hasattr() is False otherwise. */
static PyObject *
get_array_interface(PyObject *self, void *Py_UNUSED(c))
{
    if (!host_accessible(self)) {
        PyErr_SetString(PyExc_AttributeError,
                        "USM device memory has no __array_interface__; copy "
                        "it with usmarray.asnumpy()");
        return NULL;
    }
    PyUSMArrayObject *a = ARR(self);
    PyObject *shape, *strides;
    if (ua_py_array_layout_tuples(self, 1, &shape, &strides) < 0) {
        return NULL;
    }
    return Py_BuildValue("{s:N,s:s,s:(NO),s:N,s:i}", "shape", shape,
                         "typestr", ua_dtype_typestr((ua_typenum)a->typenum),
                         "data", PyLong_FromVoidPtr(a->data),
                         (a->flags & USM_ARRAY_WRITABLE) ? Py_False : Py_True,
                         "strides", strides, "version", 3);
}

static int
buffer_refuse(Py_buffer *view, const char *message)
{
    PyErr_SetString(PyExc_BufferError, message);
    view->obj = NULL;
    return -1;
}

static int
contiguity_refusal(PyObject *self, int flags, Py_buffer *view)
{
    int f = ARR(self)->flags;
    int c = f & USM_ARRAY_C_CONTIGUOUS, fo = f & USM_ARRAY_F_CONTIGUOUS;
    if ((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !c) {
        return buffer_refuse(view, "the array is not C-contiguous");
    }
    if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !fo) {
        return buffer_refuse(view, "the array is not Fortran-contiguous");
    }
    if ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !c && !fo) {
        return buffer_refuse(view, "the array is not contiguous");
    }
    if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !c) {
        return buffer_refuse(view, "the array is not C-contiguous and the "
                                   "request does not take strides");
    }
    return 0;
}

/* PEP 3118: shape and byte strides live in view->internal until release. */
static int
array_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    PyUSMArrayObject *a = ARR(self);
    if (!host_accessible(self)) {
        return buffer_refuse(view, "USM device memory is not accessible from "
                                   "the host; copy it with usmarray.asnumpy()");
    }
    if ((flags & PyBUF_WRITABLE) && !(a->flags & USM_ARRAY_WRITABLE)) {
        return buffer_refuse(view, "the array is read-only");
    }
    if (contiguity_refusal(self, flags, view) < 0) {
        return -1;
    }
    Py_ssize_t *dims = PyMem_Malloc(2 * (size_t)(a->nd ? a->nd : 1) *
                                    sizeof(Py_ssize_t));
    if (dims == NULL) {
        PyErr_NoMemory();
        view->obj = NULL;
        return -1;
    }
    Py_ssize_t isz = (Py_ssize_t)ua_py_array_itemsize(self);
    for (int k = 0; k < a->nd; k++) {
        dims[k] = a->shape[k];
        dims[a->nd + k] = a->strides[k] * isz;
    }
    view->buf = a->data;
    view->obj = Py_NewRef(self);
    view->len = ua_py_array_size(self) * isz;
    view->itemsize = isz;
    view->readonly = !(a->flags & USM_ARRAY_WRITABLE);
    view->ndim = a->nd;
    view->format = (flags & PyBUF_FORMAT)
                       ? (char *)ua_dtype_buffer_format((ua_typenum)a->typenum)
                       : NULL;
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? dims : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? dims + a->nd
                                                              : NULL;
    view->suboffsets = NULL;
    view->internal = dims;
    return 0;
}

static void
array_releasebuffer(PyObject *self, Py_buffer *view)
{
    (void)self;
    PyMem_Free(view->internal);
}

/* NumPy's hook: zero-copy for host-accessible memory, a TypeError that
 * points to asnumpy() for device memory. */
static PyObject *
array_dunder_array(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"dtype", "copy", NULL};
    PyObject *dtype = Py_None, *copy = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:__array__", kwlist,
                                     &dtype, &copy)) {
        return NULL;
    }
    if (!host_accessible(self)) {
        PyErr_SetString(PyExc_TypeError,
                        "USM device memory cannot be converted to a NumPy "
                        "array implicitly; use usmarray.asnumpy(x) to copy it "
                        "to the host");
        return NULL;
    }
    return ua_py_numpy_of_buffer(ua_state_of(self), self, dtype, copy);
}

/* --------------------------------------------------------------- views */

/* A view of a checked array needs no check of its own: its size is at
 * most its parent's (reshape keeps it), and its strides are the parent's,
 * their products with steps that stay byte counts (slice_stride), 0, or
 * reshape's products of its shape, which fit as its byte count does. */
static PyObject *
view(PyObject *self, int nd, const Py_ssize_t *shape, const Py_ssize_t *strides,
     ua_typenum t, char *data)
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

static PyObject *
get_T(PyObject *self, void *Py_UNUSED(c))
{
    return swap_last_two(self, "T", 1);
}

static PyObject *
get_mT(PyObject *self, void *Py_UNUSED(c))
{
    return swap_last_two(self, "mT", 0);
}

/* The real or imaginary parts of a complex array as a float view. */
static PyObject *
complex_part(PyObject *self, int imag)
{
    ua_typenum t = ARR(self)->typenum == UA_COMPLEX64 ? UA_FLOAT32 : UA_FLOAT64;
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

static PyObject *
get_real(PyObject *self, void *Py_UNUSED(c))
{
    return is_complex(self) ? complex_part(self, 0) : Py_NewRef(self);
}

/* A real array's imaginary part is a new, read-only array of zeros. */
static PyObject *
get_imag(PyObject *self, void *Py_UNUSED(c))
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
        }
        else if (is_integer_index(it) || PySlice_Check(it)) {
            used++;
        }
        else if (it != Py_None) {
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

static int
apply_item(PyObject *self, PyObject *it, int *axis, index_result *r)
{
    PyUSMArrayObject *a = ARR(self);
    Py_ssize_t isz = (Py_ssize_t)ua_py_array_itemsize(self);
    if (it == Py_None) {
        if (r->nd >= UA_MAXDIMS) {
            PyErr_Format(PyExc_IndexError, "an index adds axes beyond %d",
                         UA_MAXDIMS);
            return -1;
        }
        r->shape[r->nd] = 1;
        r->strides[r->nd++] = 0;
        return 0;
    }
    Py_ssize_t n = a->shape[*axis], stride = a->strides[*axis];
    if (PySlice_Check(it)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(it, &start, &stop, &step) < 0) {
            return -1;
        }
        Py_ssize_t len = PySlice_AdjustIndices(n, &start, &stop, step);
        move_data(r, len > 0 ? start : 0, stride, isz);
        r->shape[r->nd] = len;
        r->strides[r->nd++] = slice_stride(stride, step, isz);
    }
    else {
        Py_ssize_t i = PyNumber_AsSsize_t(it, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            /* An array of several elements has __index__ but refuses it. */
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                return index_error_type(it);
            }
            return -1;
        }
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
resolve_index(PyObject *self, PyObject *key, index_result *r)
{
    PyObject *const *items = &key;
    Py_ssize_t n = 1;
    if (PyTuple_Check(key)) {
        items = &PyTuple_GET_ITEM(key, 0);
        n = PyTuple_GET_SIZE(key);
    }
    int ellipses, used = consumed_axes(items, n, &ellipses);
    if (used < 0) {
        return -1;
    }
    if (used > ARR(self)->nd) {
        PyErr_Format(PyExc_IndexError,
                     "too many indices for array: array is %d-dimensional, "
                     "but %d were indexed",
                     ARR(self)->nd, used);
        return -1;
    }
    int axis = 0;
    r->nd = 0;
    r->data = ARR(self)->data;
    for (Py_ssize_t i = 0; i < n; i++) {
        int rc = items[i] == Py_Ellipsis
                     ? copy_axes(self, &axis, ARR(self)->nd - used, r)
                     : apply_item(self, items[i], &axis, r);
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

static PyObject *
array_subscript(PyObject *self, PyObject *key)
{
    index_result r;
    if (resolve_index(self, key, &r) < 0) {
        return NULL;
    }
    return view(self, r.nd, r.shape, r.strides,
                (ua_typenum)ARR(self)->typenum, r.data);
}

/* ------------------------------------------------------------- copying */

int
ua_py_copy_strided(ua_state *st, PyObject *queue, int nd,
                   const Py_ssize_t *shape, const ua_strided *dst,
                   const ua_strided *src)
{
    ua_queue *q = ((ua_py_queue *)queue)->queue;
    ptrdiff_t n = 1;
    for (int k = 0; k < nd; k++) {
        n *= shape[k];
    }
    size_t bytes = (size_t)n * ua_dtype_itemsize(dst->type);
    PyThreadState *saved = ua_py_release_if_long(bytes);
    ua_status code = ua_queue_copy_strided(q, nd, shape, dst, src);
    if (code == UA_OK) {
        code = ua_queue_wait(q);
    }
    ua_py_reacquire(saved);
    return code == UA_OK ? 0 : ua_py_fail_core(st, code);
}

PyObject *
ua_py_array_copy(ua_state *st, PyObject *src, ua_typenum t, char order,
                 ua_usm_kind kind, PyObject *queue)
{
    PyUSMArrayObject *s = ARR(src);
    PyObject *out = ua_py_array_empty(st, s->nd, s->shape, s->strides, t,
                                      ua_layout_resolve_order(s->flags, order),
                                      kind, queue);
    if (out == NULL) {
        return NULL;
    }
    ua_strided d = ua_py_array_strided(out), from = ua_py_array_strided(src);
    if (ua_py_copy_strided(st, queue, s->nd, s->shape, &d, &from) < 0) {
        Py_CLEAR(out);
    }
    return out;
}

PyObject *
ua_py_array_to_numpy(ua_state *st, PyObject *self)
{
    PyObject *np = ua_py_numpy(st);
    PyObject *shape = get_shape(self, NULL);
    PyObject *dtype = ua_py_dtype(st, (ua_typenum)ARR(self)->typenum);
    PyObject *out = NULL;
    if (np != NULL && shape != NULL && dtype != NULL) {
        out = PyObject_CallMethod(np, "empty", "OO", shape, dtype);
    }
    Py_XDECREF(shape);
    Py_buffer view;
    if (out == NULL || PyObject_GetBuffer(out, &view, PyBUF_CONTIG) < 0) {
        Py_XDECREF(out);
        return NULL;
    }
    Py_ssize_t strides[UA_MAXDIMS];
    ua_layout_default_strides(ARR(self)->nd, ARR(self)->shape, 'C', strides);
    ua_strided d = {view.buf, strides, (ua_typenum)ARR(self)->typenum};
    ua_strided s = ua_py_array_strided(self);
    int rc = ua_py_copy_strided(st, base_of(self)->queue, ARR(self)->nd,
                                ARR(self)->shape, &d, &s);
    PyBuffer_Release(&view);
    if (rc < 0) {
        Py_CLEAR(out);
    }
    return out;
}

/* ---------------------------------------------------------- assignment */

static int
broadcast_error(int nd, const Py_ssize_t *shape, int snd,
                const Py_ssize_t *sshape)
{
    PyObject *to = ua_py_int_tuple(nd, shape), *from = ua_py_int_tuple(snd, sshape);
    if (to != NULL && from != NULL) {
        PyErr_Format(PyExc_ValueError,
                     "could not broadcast input array from shape %R into "
                     "shape %R",
                     from, to);
    }
    Py_XDECREF(to);
    Py_XDECREF(from);
    return -1;
}

/* Source strides that broadcast (snd, sshape) to (nd, shape). */
static int
broadcast_strides(int nd, const Py_ssize_t *shape, int snd,
                  const Py_ssize_t *sshape, const Py_ssize_t *sstrides,
                  Py_ssize_t *out)
{
    for (int k = 0; k < snd - nd; k++) { /* extra leading axes must be 1 */
        if (sshape[k] != 1) {
            return broadcast_error(nd, shape, snd, sshape);
        }
    }
    for (int k = nd - 1, j = snd - 1; k >= 0; k--, j--) {
        if (j < 0 || sshape[j] == 1) {
            out[k] = 0;
        }
        else if (sshape[j] == shape[k]) {
            out[k] = sstrides[j];
        }
        else {
            return broadcast_error(nd, shape, snd, sshape);
        }
    }
    return 0;
}

static int
assign_from(ua_state *st, PyObject *dst, int snd, const Py_ssize_t *sshape,
            const Py_ssize_t *sstrides, char *sdata, ua_typenum stype)
{
    Py_ssize_t strides[UA_MAXDIMS];
    if (broadcast_strides(ARR(dst)->nd, ARR(dst)->shape, snd, sshape,
                          sstrides, strides) < 0) {
        return -1;
    }
    ua_strided d = ua_py_array_strided(dst), s = {sdata, strides, stype};
    return ua_py_copy_strided(st, base_of(dst)->queue, ARR(dst)->nd,
                              ARR(dst)->shape, &d, &s);
}

/* Python scalars follow NumPy 2's rules for the destination's type. */
static int
assign_scalar(ua_state *st, PyObject *dst, PyObject *value)
{
    ua_py_scalar v;
    if (ua_py_scalar_for(st, value, (ua_typenum)ARR(dst)->typenum, &v) < 0) {
        return -1;
    }
    return assign_from(st, dst, 0, NULL, NULL, (char *)&v.v, v.type);
}

static PyObject *
host_array_for(ua_state *st, PyObject *dst, PyObject *value)
{
    PyObject *np = ua_py_numpy(st);
    if (np == NULL) {
        return NULL;
    }
    /* Nested sequences are read as the destination's type, as NumPy reads
     * them, so that the Python scalars in them follow its rules too. */
    if (PyList_Check(value) || PyTuple_Check(value)) {
        return PyObject_CallMethod(
            np, "asarray", "OO", value,
            ua_py_dtype(st, (ua_typenum)ARR(dst)->typenum));
    }
    PyObject *host = PyObject_CallMethod(np, "asarray", "O", value);
    ua_typenum t;
    if (host == NULL) {
        return NULL;
    }
    PyObject *dt = PyObject_GetAttrString(host, "dtype");
    int supported = dt != NULL && ua_py_typenum(st, dt, &t) == 0;
    Py_XDECREF(dt);
    if (!supported) {
        PyErr_Clear();
        Py_DECREF(host);
        host = PyObject_CallMethod(
            np, "asarray", "OO", value,
            ua_py_dtype(st, (ua_typenum)ARR(dst)->typenum));
    }
    return host;
}

static int
assign_host(ua_state *st, PyObject *dst, PyObject *value)
{
    PyObject *host = host_array_for(st, dst, value);
    Py_buffer v;
    if (host == NULL || PyObject_GetBuffer(host, &v, PyBUF_RECORDS_RO) < 0) {
        Py_XDECREF(host);
        return -1;
    }
    ua_typenum t;
    Py_ssize_t strides[UA_MAXDIMS];
    int rc = -1;
    if (ua_dtype_from_buffer_format(v.format, &t) != UA_OK) {
        ua_py_raise_core(st, UA_ERR_TYPE);
    }
    else {
        Py_ssize_t isz = (Py_ssize_t)ua_dtype_itemsize(t);
        int aligned = 1;
        for (int k = 0; k < v.ndim; k++) {
            aligned &= v.strides[k] % isz == 0;
            strides[k] = v.strides[k] / isz;
        }
        if (aligned) {
            rc = assign_from(st, dst, v.ndim, v.shape, strides, v.buf, t);
        }
        else {
            PyErr_SetString(PyExc_ValueError,
                            "the source's strides are not multiples of its "
                            "item size");
        }
    }
    PyBuffer_Release(&v);
    Py_DECREF(host);
    return rc;
}

int
ua_py_array_assign(ua_state *st, PyObject *dst, PyObject *value)
{
    if (!(ARR(dst)->flags & USM_ARRAY_WRITABLE)) {
        PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
        return -1;
    }
    if (PyObject_TypeCheck(value, st->USMArray_Type)) {
        return assign_from(st, dst, ARR(value)->nd, ARR(value)->shape,
                           ARR(value)->strides, ARR(value)->data,
                           (ua_typenum)ARR(value)->typenum);
    }
    if (ua_py_is_python_scalar(value)) {
        return assign_scalar(st, dst, value);
    }
    int has = ua_suai_has(st, value);
    if (has < 0) {
        return -1;
    }
    if (has) {
        PyObject *src = ua_py_array_from_suai(st, value);
        int rc = src ? ua_py_array_assign(st, dst, src) : -1;
        Py_XDECREF(src);
        return rc;
    }
    return assign_host(st, dst, value);
}

static int
array_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_ValueError, "cannot delete array elements");
        return -1;
    }
    PyObject *target = array_subscript(self, key);
    if (target == NULL) {
        return -1;
    }
    int rc = ua_py_array_assign(ua_state_of(self), target, value);
    Py_DECREF(target);
    return rc;
}

/* -------------------------------------------------------------- import */

/* ------------------------------------------------------------ reshape */

PyObject *
ua_py_array_reshape(ua_state *st, PyObject *self, int nd,
                    const Py_ssize_t *shape, char order, int copy)
{
    Py_ssize_t strides[UA_MAXDIMS];
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
    PyObject *c = ua_py_array_copy(st, self, (ua_typenum)ARR(self)->typenum,
                                   order, base_of(self)->kind,
                                   base_of(self)->queue);
    if (c == NULL) {
        return NULL;
    }
    ua_layout_default_strides(nd, shape, order, strides);
    PyObject *r = ua_py_array_new(st, nd, shape, strides,
                                  (ua_typenum)ARR(self)->typenum,
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
        }
        else if (shape[k] < 0) {
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

static PyObject *
array_reshape(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *order = NULL, *copy = NULL;
    static char *kwlist[] = {"order", "copy", NULL};
    PyObject *empty = PyTuple_New(0);
    int ok = empty && PyArg_ParseTupleAndKeywords(empty, kwargs,
                                                  "|$OO:reshape", kwlist,
                                                  &order, &copy);
    Py_XDECREF(empty);
    if (!ok) {
        return NULL;
    }
    PyObject *shape = PyTuple_GET_SIZE(args) == 1 ? PyTuple_GET_ITEM(args, 0)
                                                  : args;
    return ua_py_reshape_call(ua_state_of(self), self, shape, order, copy);
}

static PyObject *
array_transpose(PyObject *self, PyObject *args)
{
    int nd = ARR(self)->nd, perm[UA_MAXDIMS];
    PyObject *axes = PyTuple_GET_SIZE(args) == 1 ? PyTuple_GET_ITEM(args, 0)
                                                 : args;
    if (PyTuple_GET_SIZE(args) == 0 || axes == Py_None) {
        for (int k = 0; k < nd; k++) {
            perm[k] = nd - 1 - k;
        }
    }
    else if (ua_py_parse_axes(axes, nd, perm) < 0) {
        return NULL;
    }
    return ua_py_array_permute(self, perm);
}

/* ------------------------------------------------------- copy methods */

static PyObject *
array_copy_method(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"order", NULL};
    PyObject *order_obj = NULL;
    char order = 'C';
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:copy", kwlist,
                                     &order_obj) ||
        (order_obj && ua_py_parse_order(order_obj, "CFAK", &order) < 0)) {
        return NULL;
    }
    return ua_py_array_copy(ua_state_of(self), self,
                            (ua_typenum)ARR(self)->typenum,
                            order, base_of(self)->kind, base_of(self)->queue);
}

/* Whether the layout already is what order asks of a copy, as NumPy's
 * astype(copy=False) decides: 'A' asks for either contiguity. */
static int
has_order(PyObject *self, char order)
{
    int f = ARR(self)->flags;
    switch (order) {
    case 'C':
        return (f & USM_ARRAY_C_CONTIGUOUS) != 0;
    case 'F':
        return (f & USM_ARRAY_F_CONTIGUOUS) != 0;
    case 'A':
        return (f & (USM_ARRAY_C_CONTIGUOUS | USM_ARRAY_F_CONTIGUOUS)) != 0;
    default:
        return 1;
    }
}

static PyObject *
array_astype(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"dtype", "order", "copy", NULL};
    PyObject *dtype, *order_obj = NULL, *copy_obj = NULL;
    ua_state *st = ua_state_of(self);
    ua_typenum t;
    char order = 'K';
    int copy = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O$O:astype", kwlist,
                                     &dtype, &order_obj, &copy_obj) ||
        ua_py_typenum(st, dtype, &t) < 0 ||
        (order_obj && ua_py_parse_order(order_obj, "CFAK", &order) < 0) ||
        ua_py_parse_copy(copy_obj, &copy) < 0) {
        return NULL;
    }
    if (copy == 0 && t == (ua_typenum)ARR(self)->typenum &&
        has_order(self, order)) {
        return Py_NewRef(self);
    }
    return ua_py_array_copy(st, self, t, order, base_of(self)->kind,
                            base_of(self)->queue);
}

/* The queue to_device copies on: the target's, or the stream, a Queue of
 * the target's device.  A driver's stream handle (an int) orders the copy
 * after the work that stream has enqueued; the copy is complete on return,
 * so the stream's later work sees it. */
static PyObject *
to_device_queue(ua_state *st, PyObject *target, PyObject *stream)
{
    PyObject *queue = ua_py_as_queue(st, target, "device");
    if (queue == NULL || stream == Py_None) {
        return queue;
    }
    ua_queue *q = ((ua_py_queue *)queue)->queue;
    if (PyObject_TypeCheck(stream, st->Queue_Type)) {
        ua_queue *s = ((ua_py_queue *)stream)->queue;
        if (ua_queue_device(s) != ua_queue_device(q)) {
            PyErr_Format(PyExc_ValueError,
                         "stream is a queue of %s, not of the target device "
                         "%s",
                         ua_device_filter_string(ua_queue_device(s)),
                         ua_device_filter_string(ua_queue_device(q)));
            Py_DECREF(queue);
            return NULL;
        }
        Py_SETREF(queue, Py_NewRef(stream));
        return queue;
    }
    if (PyLong_Check(stream) && !PyBool_Check(stream)) {
        uintptr_t handle = (uintptr_t)PyLong_AsUnsignedLongLong(stream);
        ua_status code = PyErr_Occurred()
                             ? UA_OK
                             : ua_queue_order_with_stream(q, handle, false);
        if (PyErr_Occurred() || code != UA_OK) {
            if (code != UA_OK) {
                ua_py_raise_core(st, code);
            }
            else {
                PyErr_Format(PyExc_ValueError,
                             "stream %R is not a stream handle", stream);
            }
            Py_DECREF(queue);
            return NULL;
        }
        return queue;
    }
    PyErr_Format(PyExc_TypeError,
                 "stream must be None, a usmarray.Queue of the target device "
                 "or an integer stream handle of its driver, not %.100s",
                 Py_TYPE(stream)->tp_name);
    Py_DECREF(queue);
    return NULL;
}

static PyObject *
array_to_device(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"device", "stream", NULL};
    PyObject *target, *stream = Py_None;
    ua_state *st = ua_state_of(self);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$O:to_device", kwlist,
                                     &target, &stream)) {
        return NULL;
    }
    PyObject *queue = to_device_queue(st, target, stream);
    if (queue == NULL) {
        return NULL;
    }
    PyObject *result = queue == base_of(self)->queue
                           ? Py_NewRef(self)
                           : ua_py_array_copy(st, self,
                                              (ua_typenum)ARR(self)->typenum,
                                              'K', base_of(self)->kind, queue);
    Py_DECREF(queue);
    return result;
}

static PyObject *
array_fill(PyObject *self, PyObject *value)
{
    if (ua_py_array_assign(ua_state_of(self), self, value) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- repr */

static PyObject *
array_repr(PyObject *self)
{
    ua_state *st = ua_state_of(self);
    PyObject *host = ua_py_array_to_numpy(st, self);
    PyObject *text = host ? PyObject_CallMethod(st->numpy, "array_repr", "O",
                                                host)
                          : NULL;
    Py_XDECREF(host);
    if (text == NULL) {
        return NULL;
    }
    /* "array(BODY)" -> "USMArray(BODY, usm_type=..., device=...)", with
     * continuation lines shifted by the longer name. */
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    PyObject *body = PyUnicode_Substring(text, 6, n - 1);
    PyObject *nl = PyUnicode_FromString("\n"), *shifted = NULL;
    PyObject *indent = PyUnicode_FromString("\n   "), *result = NULL;
    if (body && nl && indent &&
        (shifted = PyUnicode_Replace(body, nl, indent, -1)) != NULL) {
        ua_device *d = ua_queue_device(
            ((ua_py_queue *)base_of(self)->queue)->queue);
        result = PyUnicode_FromFormat(
            "USMArray(%U, usm_type='%s', device='%s')", shifted,
            ua_usm_kind_name(base_of(self)->kind),
            ua_device_filter_string(d));
    }
    Py_XDECREF(text);
    Py_XDECREF(body);
    Py_XDECREF(nl);
    Py_XDECREF(indent);
    Py_XDECREF(shifted);
    return result;
}

static PyObject *
array_str(PyObject *self)
{
    PyObject *host = ua_py_array_to_numpy(ua_state_of(self), self);
    PyObject *text = host ? PyObject_Str(host) : NULL;
    Py_XDECREF(host);
    return text;
}

/* ------------------------------------------------------------ lifetime */

static int
array_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(ARR(self)->base);
    return 0;
}

static void
array_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (ARR(self)->weakreflist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    if (ARR(self)->shape != NULL && ARR(self)->shape != ARR(self)->inline_dims) {
        PyMem_Free(ARR(self)->shape);
    }
    Py_CLEAR(ARR(self)->base);
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* ---------------------------------------------------------------- type */

static PyGetSetDef array_getset[] = {
    {"shape", get_shape, NULL, "Extent of each axis.", NULL},
    {"strides", get_strides, NULL, "Strides in elements.", NULL},
    {"ndim", get_ndim, NULL, "Number of axes.", NULL},
    {"size", get_size, NULL, "Number of elements.", NULL},
    {"itemsize", get_itemsize, NULL, "Bytes per element.", NULL},
    {"nbytes", get_nbytes, NULL, "size * itemsize.", NULL},
    {"dtype", get_dtype, NULL, "The element type, a numpy.dtype.", NULL},
    {"usm_type", get_usm_type, NULL, "'device', 'shared' or 'host'.", NULL},
    {"queue", get_queue, NULL, "The Queue of the memory.", NULL},
    {"device", get_device, NULL, "The Device of the memory.", NULL},
    {"base", get_base, NULL, "The Memory that owns the elements.", NULL},
    {"flags", get_flags, NULL, "C-/F-contiguity and writability.", NULL},
    {"_pointer", get_pointer, NULL, "Address of the zero-index element.",
     NULL},
    {"_element_offset", get_element_offset, NULL,
     "Elements from the start of base to the zero-index element.", NULL},
    {"_byte_bounds", get_byte_bounds, NULL,
     "(first, one past last) byte addresses the elements occupy.", NULL},
    {"T", get_T, NULL, "The transpose of a 2-D array.", NULL},
    {"mT", get_mT, NULL, "The last two axes swapped.", NULL},
    {"real", get_real, NULL, "The real part (a view for complex).", NULL},
    {"imag", get_imag, NULL,
     "The imaginary part (a view for complex, read-only zeros otherwise).",
     NULL},
    {SUAI, ua_py_array_get_suai, NULL, "The array's __sycl_usm_array_interface__.",
     NULL},
    {"__cuda_array_interface__", ua_py_array_cai, NULL,
     "The array's __cuda_array_interface__ (version 3), for memory a CUDA "
     "device reaches; absent otherwise.",
     NULL},
    {"__array_interface__", get_array_interface, NULL,
     "NumPy's array interface (v3), for host-accessible memory only.", NULL},
    {NULL},
};

static PyMethodDef array_methods[] = {
    {"reshape", (PyCFunction)(void (*)(void))array_reshape,
     METH_VARARGS | METH_KEYWORDS,
     UA_DOC_ARRAY_RESHAPE},
    {"transpose", array_transpose, METH_VARARGS,
     UA_DOC_ARRAY_TRANSPOSE},
    {"copy", (PyCFunction)(void (*)(void))array_copy_method,
     METH_VARARGS | METH_KEYWORDS,
     UA_DOC_ARRAY_COPY},
    {"astype", (PyCFunction)(void (*)(void))array_astype,
     METH_VARARGS | METH_KEYWORDS,
     UA_DOC_ARRAY_ASTYPE},
    {"to_device", (PyCFunction)(void (*)(void))array_to_device,
     METH_VARARGS | METH_KEYWORDS,
     UA_DOC_ARRAY_TO_DEVICE},
    {"__array__", (PyCFunction)(void (*)(void))array_dunder_array,
     METH_VARARGS | METH_KEYWORDS,
     UA_DOC_ARRAY_DUNDER_ARRAY},
    {"__dlpack__", (PyCFunction)(void (*)(void))ua_py_array_dlpack,
     METH_FASTCALL | METH_KEYWORDS,
     UA_DOC_ARRAY_DLPACK},
    {"__dlpack_device__", ua_py_array_dlpack_device, METH_NOARGS,
     UA_DOC_ARRAY_DLPACK_DEVICE},
    {"fill", array_fill, METH_O, UA_DOC_ARRAY_FILL},
    {"item", ua_py_array_item, METH_VARARGS, UA_DOC_ARRAY_ITEM},
    {"tolist", ua_py_array_tolist, METH_NOARGS, UA_DOC_ARRAY_TOLIST},
    {"__complex__", ua_py_array_complex, METH_NOARGS,
     "__complex__($self, /)\n--\n\nThe element of a 0-d array as a complex."},
    {"__format__", ua_py_array_format, METH_O,
     "__format__($self, spec, /)\n--\n\nA 0-d array formats as its element."},
    {"__copy__", ua_py_array_copy_protocol, METH_NOARGS,
     "__copy__($self, /)\n--\n\nA copy in new memory of the same USM kind, on the "
     "same queue."},
    {"__deepcopy__", ua_py_array_copy_protocol, METH_O,
     "__deepcopy__($self, memo, /)\n--\n\nAs __copy__: elements hold no "
     "references."},
    {"__reduce__", ua_py_array_reduce, METH_NOARGS,
     "__reduce__($self, /)\n--\n\nPickles by copy: unpickling allocates memory of "
     "the same USM kind on the same device."},
    {NULL},
};

static PyMemberDef array_members[] = {
    {"__weaklistoffset__", T_PYSSIZET,
     offsetof(PyUSMArrayObject, weakreflist), READONLY, NULL},
    {NULL},
};

static PyType_Slot array_slots[] = {
    {Py_tp_doc, UA_DOC_USMARRAY},
    {Py_tp_new, array_tp_new},
    {Py_tp_dealloc, array_dealloc},
    {Py_tp_traverse, array_traverse},
    {Py_tp_repr, array_repr},
    {Py_tp_str, array_str},
    {Py_tp_getset, array_getset},
    {Py_tp_methods, array_methods},
    {Py_tp_members, array_members},
    {Py_mp_subscript, array_subscript},
    {Py_mp_ass_subscript, array_ass_subscript},
    {Py_mp_length, ua_py_array_sq_length},
    {Py_sq_length, ua_py_array_sq_length},
    {Py_sq_item, ua_py_array_sq_item},
    {Py_tp_iter, ua_py_array_iter},
    {Py_tp_richcompare, ua_py_array_richcompare},
    {Py_tp_hash, PyObject_HashNotImplemented},
    {Py_nb_bool, ua_py_array_bool},
    {Py_nb_int, ua_py_array_int},
    {Py_nb_float, ua_py_array_float},
    {Py_nb_index, ua_py_array_index},
    {Py_bf_getbuffer, array_getbuffer},
    {Py_bf_releasebuffer, array_releasebuffer},
    {0, NULL},
};

static PyType_Spec array_spec = {
    .name = "usmarray.USMArray",
    .basicsize = sizeof(PyUSMArrayObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC |
             Py_TPFLAGS_IMMUTABLETYPE,
    .slots = array_slots,
};

int
ua_py_array_add_type(PyObject *module, ua_state *st)
{
    st->USMArray_Type = (PyTypeObject *)PyType_FromModuleAndSpec(
        module, &array_spec, NULL);
    if (st->USMArray_Type == NULL) {
        return -1;
    }
    st->USMArray_Type->tp_vectorcall = array_vectorcall;
    return PyModule_AddType(module, st->USMArray_Type);
}
