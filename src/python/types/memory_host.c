/* Memory's transfers to and from the host: copy_to_host, copy_from_host,
 * memset, tobytes, __array__, and pickling, which goes through host
 * bytes. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/errors.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/devices.h"
#include "python/types/memory.h"

int
ua_py_memory_check_writable(PyObject *self)
{
    if (mem(self)->readonly) {
        PyErr_SetString(PyExc_ValueError, "the memory is read-only");
        return -1;
    }
    return 0;
}

static PyObject *
new_host_bytes_array(ua_state *st, Py_ssize_t n)
{
    if (st->numpy_empty == NULL) {
        PyObject *np = PyImport_ImportModule("numpy");
        if (np == NULL) {
            return NULL;
        }
        st->numpy_empty = PyObject_GetAttrString(np, "empty");
        Py_DECREF(np);
        if (st->numpy_empty == NULL) {
            return NULL;
        }
    }
    return PyObject_CallFunction(st->numpy_empty, "ns", n, "u1");
}

PyObject *
ua_py_memory_copy_to_host(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"obj", NULL};
    PyObject *obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:copy_to_host", kwlist,
                                     &obj)) {
        return NULL;
    }
    ua_state *st = ua_state_of(self);
    PyObject *dest = obj == Py_None
                         ? new_host_bytes_array(st, mem(self)->nbytes)
                         : Py_NewRef(obj);
    Py_buffer view;
    if (dest == NULL || PyObject_GetBuffer(dest, &view, PyBUF_CONTIG) < 0) {
        Py_XDECREF(dest);
        return NULL;
    }
    int rc = -1;
    if (view.len < mem(self)->nbytes) {
        PyErr_Format(PyExc_ValueError,
                     "destination holds %zd bytes, fewer than the memory's "
                     "%zd",
                     view.len, mem(self)->nbytes);
    } else {
        rc =
            ua_py_memory_copy_bytes(st, mem(self)->queue, view.buf,
                                    mem(self)->ptr, (size_t)mem(self)->nbytes);
    }
    PyBuffer_Release(&view);
    if (rc < 0) {
        Py_CLEAR(dest);
    }
    return dest;
}

int
ua_py_memory_check_fits(PyObject *self, Py_ssize_t n, const char *source)
{
    if (n > mem(self)->nbytes) {
        PyErr_Format(PyExc_ValueError,
                     "%s holds %zd bytes, more than the memory's %zd", source,
                     n, mem(self)->nbytes);
        return -1;
    }
    return 0;
}

PyObject *
ua_py_memory_copy_from_host(PyObject *self, PyObject *obj)
{
    Py_buffer view;
    if (ua_py_memory_check_writable(self) < 0 ||
        PyObject_GetBuffer(obj, &view, PyBUF_CONTIG_RO) < 0) {
        return NULL;
    }
    int rc = ua_py_memory_check_fits(self, view.len, "the source");
    if (rc == 0) {
        rc = ua_py_memory_copy_bytes(ua_state_of(self), mem(self)->queue,
                                     mem(self)->ptr, view.buf,
                                     (size_t)view.len);
    }
    PyBuffer_Release(&view);
    return rc < 0 ? NULL : Py_NewRef(Py_None);
}

PyObject *
ua_py_memory_memset(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"value", NULL};
    PyObject *value_obj = NULL;
    Py_ssize_t value = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:memset", kwlist,
                                     &value_obj) ||
        (value_obj && ua_py_index(value_obj, "value", &value) < 0) ||
        ua_py_memory_check_writable(self) < 0) {
        return NULL;
    }
    if (value < 0 || value > 255) {
        PyErr_Format(PyExc_ValueError,
                     "value must be a byte value in [0, 255], not %zd", value);
        return NULL;
    }
    ua_queue *q = queue_of(mem(self)->queue);
    ua_status code;
    Py_BEGIN_ALLOW_THREADS
    code = ua_queue_memset(q, mem(self)->ptr, (unsigned char)value,
                           (size_t)mem(self)->nbytes);
    if (code == UA_OK) {
        code = ua_queue_wait(q);
    }
    Py_END_ALLOW_THREADS
    if (code != UA_OK) {
        return ua_py_raise_core(ua_state_of(self), code);
    }
    Py_RETURN_NONE;
}

PyObject *
ua_py_memory_tobytes(PyObject *self, PyObject *Py_UNUSED(a))
{
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, mem(self)->nbytes);
    if (bytes != NULL &&
        ua_py_memory_copy_bytes(ua_state_of(self), mem(self)->queue,
                                PyBytes_AS_STRING(bytes), mem(self)->ptr,
                                (size_t)mem(self)->nbytes) < 0) {
        Py_CLEAR(bytes);
    }
    return bytes;
}

/* Pickles by copy: the class, the bytes and the device's filter string. */
PyObject *
ua_py_memory_reduce(PyObject *self, PyObject *Py_UNUSED(a))
{
    ua_state *st = ua_state_of(self);
    if (mem(self)->nbytes == 0) {
        PyErr_SetString(PyExc_ValueError, "cannot pickle an empty Memory");
        return NULL;
    }
    PyObject *data = ua_py_memory_tobytes(self, NULL);
    if (data == NULL) {
        return NULL;
    }
    ua_device *d = ua_queue_device(queue_of(mem(self)->queue));
    PyObject *result =
        Py_BuildValue("O(ONs)", st->rebuild_memory, (PyObject *)Py_TYPE(self),
                      data, ua_device_filter_string(d));
    return result;
}

PyObject *
ua_py_rebuild_memory(PyObject *module, PyObject *args)
{
    PyObject *type;
    Py_buffer data;
    const char *filter;
    ua_state *st = PyModule_GetState(module);
    if (!PyArg_ParseTuple(args, "Oy*s:_rebuild_memory", &type, &data,
                          &filter)) {
        return NULL;
    }
    PyObject *result = NULL, *queue = NULL;
    PyObject *filter_obj = PyUnicode_FromString(filter);
    if (!PyType_Check(type) ||
        ua_py_memory_kind_of_type(st, (PyTypeObject *)type) ==
            UA_USM_UNKNOWN) {
        PyErr_SetString(PyExc_TypeError,
                        "_rebuild_memory needs a USM memory class");
    } else if (filter_obj != NULL &&
               (queue = ua_py_as_queue(st, filter_obj, "device")) != NULL) {
        ua_usm_kind kind = ua_py_memory_kind_of_type(st, (PyTypeObject *)type);
        result = ua_py_memory_allocate(st, (PyTypeObject *)type, kind,
                                       data.len, 0, queue);
        if (result != NULL &&
            ua_py_memory_copy_bytes(st, queue, mem(result)->ptr, data.buf,
                                    (size_t)data.len) < 0) {
            Py_CLEAR(result);
        }
    }
    Py_XDECREF(queue);
    Py_XDECREF(filter_obj);
    PyBuffer_Release(&data);
    return result;
}

/* NumPy's hook: without it NumPy makes a 0-d object array of memory whose
 * buffer it cannot have.  Host-accessible memory is a uint8 view. */
PyObject *
ua_py_memory_dunder_array(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"dtype", "copy", NULL};
    PyObject *dtype = Py_None, *copy = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:__array__", kwlist,
                                     &dtype, &copy)) {
        return NULL;
    }
    if (!ua_usm_kind_host_accessible(mem(self)->kind)) {
        PyErr_Format(PyExc_TypeError,
                     "USM %s memory cannot be converted to a NumPy array "
                     "implicitly: the host cannot access it; use "
                     "copy_to_host() to copy it",
                     ua_usm_kind_name(mem(self)->kind));
        return NULL;
    }
    return ua_py_numpy_of_buffer(ua_state_of(self), self, dtype, copy);
}
