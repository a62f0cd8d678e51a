/* The host protocols of usmarray.USMArray, for host-accessible memory:
 * the buffer protocol, __array_interface__ and __array__. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/types/devices.h"

/* ------------------------------------------------- host-side protocols */

/* Shared and host memory everywhere; and every kind on a backend whose
 * memory is the process's own (the host backend), as DLPack has it: CPU
 * libraries call np.asarray on what they are given.  A Memory of device
 * kind keeps the seeds' rule (memory.c); GPU device memory refuses. */
static int
host_accessible(PyObject *self)
{
    ua_py_memory *m = base_of(self);
    return ua_usm_kind_host_accessible(m->kind) ||
           (ua_backend_caps(
                ua_device_backend(ua_queue_device(queue_of_array(self)))) &
            UA_CAP_CPU_MEMORY);
}

int
ua_py_array_host_accessible(PyObject *self)
{
    return host_accessible(self);
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

/* The typestr of t as a str, made once: every protocol dictionary has one. */
static PyObject *
typestr_of(ua_state *st, ua_typenum t)
{
    int i = ua_dtype_index(t);
    if (st->typestrs[i] == NULL) {
        st->typestrs[i] = PyUnicode_InternFromString(ua_dtype_typestr(t));
    }
    return st->typestrs[i];
}

/* A dictionary of the shared keys and then `extra` (NULL-terminated), all
 * None, made once in *slot: an export of more keys than a new dictionary
 * holds without growing copies it and replaces the values.  The keys are
 * the module's interned strings, whose hashes are kept: Py_BuildValue
 * parsed its format and hashed new key strings on every call, and grew the
 * dictionary key by key, most of an export's cost. */
static PyObject *
new_interface_dict(ua_state *st, PyObject **slot, PyObject *const *extra)
{
    if (slot == NULL) {
        return PyDict_New();
    }
    if (*slot != NULL) {
        return PyDict_Copy(*slot);
    }
    PyObject *keys[] = {st->s_shape, st->s_typestr, st->s_data, st->s_strides,
                        st->s_version};
    PyObject *d = PyDict_New();
    for (size_t i = 0; d != NULL && i < sizeof(keys) / sizeof(*keys); i++) {
        if (PyDict_SetItem(d, keys[i], Py_None) < 0) {
            Py_CLEAR(d);
        }
    }
    for (; d != NULL && *extra != NULL; extra++) {
        if (PyDict_SetItem(d, *extra, Py_None) < 0) {
            Py_CLEAR(d);
        }
    }
    *slot = d;
    return d ? PyDict_Copy(d) : NULL;
}

PyObject *
ua_py_array_interface_dict(ua_state *st, PyObject *self, int in_bytes,
                           const void *data, int version, PyObject **slot,
                           PyObject *const *extra)
{
    PyUSMArrayObject *a = ARR(self);
    PyObject *d = new_interface_dict(st, slot, extra);
    PyObject *shape, *strides;
    if (d == NULL ||
        ua_py_array_layout_tuples(self, in_bytes, &shape, &strides) < 0) {
        Py_XDECREF(d);
        return NULL;
    }
    PyObject *typestr = typestr_of(st, (ua_typenum)a->typenum);
    PyObject *readonly = (a->flags & USM_ARRAY_WRITABLE) ? Py_False : Py_True;
    PyObject *pointer = PyLong_FromVoidPtr((void *)data);
    PyObject *pair = pointer ? PyTuple_Pack(2, pointer, readonly) : NULL;
    PyObject *number = PyLong_FromLong(version);
    int ok = typestr != NULL && pair != NULL && number != NULL &&
             PyDict_SetItem(d, st->s_shape, shape) == 0 &&
             PyDict_SetItem(d, st->s_typestr, typestr) == 0 &&
             PyDict_SetItem(d, st->s_data, pair) == 0 &&
             PyDict_SetItem(d, st->s_strides, strides) == 0 &&
             PyDict_SetItem(d, st->s_version, number) == 0;
    Py_DECREF(shape);
    Py_DECREF(strides);
    Py_XDECREF(pointer);
    Py_XDECREF(pair);
    Py_XDECREF(number);
    if (!ok) {
        Py_CLEAR(d);
    }
    return d;
}

/* Present only for host-accessible memory: hasattr() is False otherwise. */
PyObject *
ua_py_array_get_array_interface(PyObject *self, void *Py_UNUSED(c))
{
    if (!host_accessible(self)) {
        PyErr_SetString(PyExc_AttributeError,
                        "USM device memory has no __array_interface__; copy "
                        "it with usmarray.asnumpy()");
        return NULL;
    }
    ua_state *st = ua_state_of(self);
    if (ua_py_queue_settle(st, base_of(self)->queue) < 0) {
        return NULL;
    }
    /* Its five keys fit a new dictionary: no template. */
    return ua_py_array_interface_dict(st, self, 1, ARR(self)->data, 3, NULL,
                                      NULL);
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
int
ua_py_array_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    PyUSMArrayObject *a = ARR(self);
    if (!host_accessible(self)) {
        return buffer_refuse(view,
                             "USM device memory is not accessible from "
                             "the host; copy it with usmarray.asnumpy()");
    }
    if ((flags & PyBUF_WRITABLE) && !(a->flags & USM_ARRAY_WRITABLE)) {
        return buffer_refuse(view, "the array is read-only");
    }
    if (contiguity_refusal(self, flags, view) < 0) {
        return -1;
    }
    if (ua_py_queue_settle(ua_state_of(self), base_of(self)->queue) < 0) {
        view->obj = NULL;
        return -1;
    }
    Py_ssize_t *dims =
        PyMem_Malloc(2 * (size_t)(a->nd ? a->nd : 1) * sizeof(Py_ssize_t));
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
    view->strides =
        (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? dims + a->nd : NULL;
    view->suboffsets = NULL;
    view->internal = dims;
    return 0;
}

void
ua_py_array_releasebuffer(PyObject *self, Py_buffer *view)
{
    (void)self;
    PyMem_Free(view->internal);
}

/* NumPy's hook: zero-copy for host-accessible memory, a TypeError that
 * points to asnumpy() for device memory. */
PyObject *
ua_py_array_dunder_array(PyObject *self, PyObject *args, PyObject *kwargs)
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
