/* The host protocols of usmarray.USMArray, for host-accessible memory:
 * the buffer protocol, __array_interface__ and __array__. */
#include "binding.h"

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
PyObject *
ua_py_array_get_array_interface(PyObject *self, void *Py_UNUSED(c))
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
int
ua_py_array_getbuffer(PyObject *self, Py_buffer *view, int flags)
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
