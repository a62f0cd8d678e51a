/* A C extension built against the installed usmarray's C API by
 * tests/interop/test_capi.py: every function of the table, reached from Python.
 * Its queue functions live in capi_c_queue.c, which shares the table
 * through USMARRAY_API_UNIQUE_SYMBOL. */
#define PY_SSIZE_T_CLEAN
#define USMARRAY_API_UNIQUE_SYMBOL capi_c_API
#include <usmarray/usmarray_api.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern PyMethodDef capi_c_queue_methods[];

/* A shape or strides tuple of at most 8 entries; -1 with an exception. */
static int
read_dims(PyObject *seq, Py_ssize_t *out, int *n)
{
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) > 8) {
        PyErr_SetString(PyExc_TypeError, "expected a tuple of <= 8 ints");
        return -1;
    }
    *n = (int)PyTuple_GET_SIZE(seq);
    for (int k = 0; k < *n; k++) {
        out[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(seq, k));
        if (out[k] == -1 && PyErr_Occurred()) {
            return -1;
        }
    }
    return 0;
}

static PyObject *
dims_tuple(int n, const Py_ssize_t *v)
{
    PyObject *t = PyTuple_New(n);
    for (int k = 0; t != NULL && k < n; k++) {
        PyObject *i = PyLong_FromSsize_t(v[k]);
        if (i == NULL) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, k, i);
    }
    return t;
}

static PyObject *
or_null(PyObject *obj)
{
    return obj == Py_None ? NULL : obj;
}

static PyObject *
reimport(PyObject *m, PyObject *a)
{
    (void)m, (void)a;
    if (import_usmarray() < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* Forgets the table, so that the next call shows what using the API
 * before import_usmarray() does. */
static PyObject *
forget(PyObject *m, PyObject *a)
{
    (void)m, (void)a;
    capi_c_API = NULL;
    Py_RETURN_NONE;
}

static PyObject *
table_size(PyObject *m, PyObject *a)
{
    (void)m, (void)a;
    return PyLong_FromSize_t(sizeof(UsmArray_CAPI));
}

static PyObject *
checks(PyObject *m, PyObject *obj)
{
    (void)m;
    int a = UsmArray_Check(obj), mem = UsmMemory_Check(obj),
        q = UsmQueue_Check(obj);
    if (PyErr_Occurred()) {
        return NULL;
    }
    return Py_BuildValue("(OOO)", a ? Py_True : Py_False,
                         mem ? Py_True : Py_False, q ? Py_True : Py_False);
}

/* The accessors, and the struct read directly: both must agree. */
static PyObject *
describe(PyObject *m, PyObject *arr)
{
    (void)m;
    int nd, typenum, flags;
    char *data;
    Py_ssize_t *shape, *strides;
    PyObject *base, *queue;
    if ((nd = UsmArray_GetNDim(arr)) < 0 ||
        (data = UsmArray_GetData(arr)) == NULL ||
        (shape = UsmArray_GetShape(arr)) == NULL ||
        (strides = UsmArray_GetStrides(arr)) == NULL ||
        (typenum = UsmArray_GetTypeNum(arr)) < 0 ||
        (flags = UsmArray_GetFlags(arr)) < 0 ||
        (base = UsmArray_GetBase(arr)) == NULL ||
        (queue = UsmArray_GetQueue(arr)) == NULL) {
        return NULL;
    }
    PyUSMArrayObject *s = (PyUSMArrayObject *)arr;
    int direct = s->nd == nd && s->data == data && s->shape == shape &&
                 s->strides == strides && s->typenum == typenum &&
                 s->flags == flags && s->base == base;
    PyObject *shp = dims_tuple(nd, shape), *str = dims_tuple(nd, strides);
    PyObject *out = NULL;
    if (shp != NULL && str != NULL) {
        out = Py_BuildValue("{s:i,s:N,s:O,s:O,s:i,s:i,s:O,s:O,s:O}", "nd", nd,
                            "data", PyLong_FromVoidPtr(data), "shape", shp,
                            "strides", str, "typenum", typenum, "flags", flags,
                            "base", base, "queue", queue, "struct_agrees",
                            direct ? Py_True : Py_False);
    }
    Py_XDECREF(shp);
    Py_XDECREF(str);
    return out;
}

/* new(shape, typenum, strides or None, usm_type or None, queue or None) */
static PyObject *
new_array(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *shape, *strides, *queue;
    const char *usm_type;
    int typenum, nd, ns;
    Py_ssize_t shp[8], str[8];
    if (!PyArg_ParseTuple(args, "OiOzO", &shape, &typenum, &strides, &usm_type,
                          &queue) ||
        read_dims(shape, shp, &nd) < 0 ||
        (strides != Py_None && read_dims(strides, str, &ns) < 0)) {
        return NULL;
    }
    return UsmArray_New(nd, shp, typenum, strides == Py_None ? NULL : str,
                        usm_type, or_null(queue));
}

/* from_memory(memory, shape, typenum, strides or None, offset) */
static PyObject *
from_memory(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *mem, *shape, *strides;
    int typenum, nd, ns;
    Py_ssize_t offset, shp[8], str[8];
    if (!PyArg_ParseTuple(args, "OOiOn", &mem, &shape, &typenum, &strides,
                          &offset) ||
        read_dims(shape, shp, &nd) < 0 ||
        (strides != Py_None && read_dims(strides, str, &ns) < 0)) {
        return NULL;
    }
    return UsmArray_FromMemory(mem, nd, shp, typenum,
                               strides == Py_None ? NULL : str, offset);
}

static PyObject *
copy_into(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *dst, *src;
    if (!PyArg_ParseTuple(args, "OO", &dst, &src) ||
        UsmArray_CopyInto(dst, src) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* Native work on the elements: writes 0, 1, 2, ... in index order through
 * data and the strides (in elements) of a host-accessible float64 array. */
static PyObject *
fill_iota(PyObject *m, PyObject *arr)
{
    (void)m;
    if (UsmArray_GetNDim(arr) < 0) {
        return NULL;
    }
    if (UsmArray_GetTypeNum(arr) != 12 ||
        strcmp(UsmMemory_GetUsmType(UsmArray_GetBase(arr)), "device") == 0) {
        PyErr_SetString(PyExc_TypeError, "needs host-accessible float64");
        return NULL;
    }
    int nd = UsmArray_GetNDim(arr);
    Py_ssize_t *shape = UsmArray_GetShape(arr);
    Py_ssize_t *strides = UsmArray_GetStrides(arr);
    double *data = (double *)UsmArray_GetData(arr);
    Py_ssize_t index[8] = {0}, size = 1;
    for (int k = 0; k < nd; k++) {
        size *= shape[k];
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        Py_ssize_t at = 0;
        for (int k = 0; k < nd; k++) {
            at += index[k] * strides[k];
        }
        data[at] = (double)i;
        for (int k = nd - 1; k >= 0 && ++index[k] == shape[k]; k--) {
            index[k] = 0;
        }
    }
    Py_RETURN_NONE;
}

static PyObject *
memory_new(PyObject *m, PyObject *args)
{
    (void)m;
    Py_ssize_t nbytes;
    const char *usm_type;
    PyObject *queue;
    if (!PyArg_ParseTuple(args, "nzO", &nbytes, &usm_type, &queue)) {
        return NULL;
    }
    return UsmMemory_New((size_t)nbytes, usm_type, or_null(queue));
}

static PyObject *
memory_info(PyObject *m, PyObject *mem)
{
    (void)m;
    void *ptr;
    size_t size;
    const char *kind;
    if ((ptr = UsmMemory_GetPointer(mem)) == NULL ||
        (size = UsmMemory_GetSize(mem)) == (size_t)-1 ||
        (kind = UsmMemory_GetUsmType(mem)) == NULL) {
        return NULL;
    }
    return Py_BuildValue("(Nns)", PyLong_FromVoidPtr(ptr), (Py_ssize_t)size,
                         kind);
}

/* wrap_pointer(address, nbytes, queue or None, owner) */
static PyObject *
wrap_pointer(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *addr, *queue, *owner;
    Py_ssize_t nbytes;
    if (!PyArg_ParseTuple(args, "OnOO", &addr, &nbytes, &queue, &owner)) {
        return NULL;
    }
    void *ptr = PyLong_AsVoidPtr(addr);
    if (ptr == NULL && PyErr_Occurred()) {
        return NULL;
    }
    return UsmMemory_FromPointer(ptr, (size_t)nbytes, or_null(queue), owner);
}

/* ------------------------------- host memory of the extension's own */

static int freed;

static void
free_buffer(PyObject *capsule)
{
    free(PyCapsule_GetPointer(capsule, "capi_c.buffer"));
    freed++;
}

/* A float64 array of n elements over memory this extension malloc()s,
 * freed when the last array over it goes: the owner is a capsule. */
static PyObject *
host_array(PyObject *m, PyObject *arg)
{
    (void)m;
    Py_ssize_t n = PyLong_AsSsize_t(arg);
    if (n <= 0) {
        return PyErr_Occurred() ? NULL
                                : PyErr_Format(PyExc_ValueError, "n <= 0");
    }
    double *buf = malloc((size_t)n * sizeof(double));
    if (buf == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *owner = PyCapsule_New(buf, "capi_c.buffer", free_buffer);
    if (owner == NULL) {
        free(buf);
        return NULL;
    }
    PyObject *mem =
        UsmMemory_FromPointer(buf, (size_t)n * sizeof(double), NULL, owner);
    Py_DECREF(owner);
    if (mem == NULL) {
        return NULL;
    }
    PyObject *arr = UsmArray_FromMemory(mem, 1, &n, 12, NULL, 0);
    Py_DECREF(mem);
    return arr;
}

static PyObject *
freed_count(PyObject *m, PyObject *a)
{
    (void)m, (void)a;
    return PyLong_FromLong(freed);
}

/* Appends (call, exception type, exception) for the exception the call
 * left, cleared; (call, None, None) when it left none. */
static int
take_error(PyObject *list, const char *call)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *row = Py_BuildValue("(sOO)", call, type ? type : Py_None,
                                  value ? value : Py_None);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    int rc = row != NULL ? PyList_Append(list, row) : -1;
    Py_XDECREF(row);
    return rc;
}

#define OBJECT_CALL(call)                                                     \
    do {                                                                      \
        Py_XDECREF(call);                                                     \
        if (list != NULL && take_error(list, #call) < 0) {                    \
            Py_CLEAR(list);                                                   \
        }                                                                     \
    } while (0)
#define STATUS_CALL(call)                                                     \
    do {                                                                      \
        (void)(call);                                                         \
        if (list != NULL && take_error(list, #call) < 0) {                    \
            Py_CLEAR(list);                                                   \
        }                                                                     \
    } while (0)

/* Arguments a Python caller cannot pass: NULL objects, bad dimensions and
 * types.  Returns [(call, exception type, exception), ...]. */
static PyObject *
bad_calls(PyObject *m, PyObject *arr)
{
    (void)m;
    PyObject *list = PyList_New(0), *mem = UsmArray_GetBase(arr);
    if (list == NULL || mem == NULL) {
        Py_XDECREF(list);
        return NULL;
    }
    Py_ssize_t shape[2] = {2, -3}, one = 1;
    char byte;
    STATUS_CALL(UsmArray_GetNDim(NULL));
    STATUS_CALL(UsmArray_GetData(Py_None));
    STATUS_CALL(UsmArray_GetFlags(mem));
    OBJECT_CALL(UsmArray_New(-1, shape, 12, NULL, NULL, NULL));
    OBJECT_CALL(UsmArray_New(65, shape, 12, NULL, NULL, NULL));
    OBJECT_CALL(UsmArray_New(1, NULL, 12, NULL, NULL, NULL));
    OBJECT_CALL(UsmArray_New(2, shape, 12, NULL, NULL, NULL));
    OBJECT_CALL(UsmArray_New(1, &one, 9, NULL, NULL, NULL));
    OBJECT_CALL(UsmArray_New(1, &one, 12, NULL, "pinned", NULL));
    OBJECT_CALL(UsmArray_New(1, &one, 12, NULL, NULL, mem));
    OBJECT_CALL(UsmArray_FromMemory(arr, 1, &one, 12, NULL, 0));
    OBJECT_CALL(UsmArray_FromMemory(mem, 1, &one, 12, NULL, -1));
    STATUS_CALL(UsmArray_CopyInto(arr, NULL));
    STATUS_CALL(UsmArray_CopyInto(mem, arr));
    OBJECT_CALL(UsmMemory_New(0, "device", NULL));
    OBJECT_CALL(UsmMemory_New(SIZE_MAX, NULL, NULL));
    OBJECT_CALL(UsmMemory_FromPointer(NULL, 8, NULL, Py_None));
    OBJECT_CALL(UsmMemory_FromPointer(&byte, 1, NULL, NULL));
    OBJECT_CALL(UsmMemory_FromPointer(&byte, 1, mem, Py_None));
    STATUS_CALL(UsmMemory_GetSize(NULL));
    STATUS_CALL(UsmMemory_GetUsmType(arr));
    STATUS_CALL(UsmQueue_GetBackend(mem));
    STATUS_CALL(UsmQueue_Wait(NULL));
    return list;
}

static PyMethodDef methods[] = {
    {"reimport", reimport, METH_NOARGS, NULL},
    {"forget", forget, METH_NOARGS, NULL},
    {"table_size", table_size, METH_NOARGS, NULL},
    {"checks", checks, METH_O, NULL},
    {"describe", describe, METH_O, NULL},
    {"new", new_array, METH_VARARGS, NULL},
    {"from_memory", from_memory, METH_VARARGS, NULL},
    {"copy_into", copy_into, METH_VARARGS, NULL},
    {"fill_iota", fill_iota, METH_O, NULL},
    {"memory_new", memory_new, METH_VARARGS, NULL},
    {"memory_info", memory_info, METH_O, NULL},
    {"wrap_pointer", wrap_pointer, METH_VARARGS, NULL},
    {"host_array", host_array, METH_O, NULL},
    {"freed_count", freed_count, METH_NOARGS, NULL},
    {"bad_calls", bad_calls, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "capi_c",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit_capi_c(void)
{
    if (import_usmarray() < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddFunctions(m, capi_c_queue_methods) < 0) {
        Py_CLEAR(m);
    }
    return m;
}
