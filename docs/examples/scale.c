/* scale: a C extension over usmarray's C API (docs/extension.rst).
 *
 *   scale(x, factor)      multiplies a float64 USMArray by factor, in place
 *   host_range(n, queue)  a float64 array 0, 1, ..., n-1 over memory this
 *                         extension allocates, lent to a CPU device's
 *                         queue and freed with the last array over it
 */
#define PY_SSIZE_T_CLEAN
#include <usmarray/usmarray_api.h>

#include <stdlib.h>
#include <string.h>

#define NPY_FLOAT64 12 /* NumPy's type number; usmarray uses NumPy's */

/* Multiplies every element of a host-accessible float64 array, walking
 * its strides (counted in elements, not bytes). */
static void
scale_on_host(PyObject *x, double factor)
{
    int nd = UsmArray_GetNDim(x);
    const Py_ssize_t *shape = UsmArray_GetShape(x);
    const Py_ssize_t *strides = UsmArray_GetStrides(x);
    double *data = (double *)UsmArray_GetData(x);
    Py_ssize_t index[USM_ARRAY_MAX_NDIM] = {0}, size = 1;
    for (int k = 0; k < nd; k++) {
        size *= shape[k];
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        Py_ssize_t at = 0;
        for (int k = 0; k < nd; k++) {
            at += index[k] * strides[k];
        }
        data[at] *= factor;
        /* the next multi-index, last axis fastest */
        for (int k = nd - 1; k >= 0 && ++index[k] == shape[k]; k--) {
            index[k] = 0;
        }
    }
}

static PyObject *
scale(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *x;
    double factor;
    if (!PyArg_ParseTuple(args, "Od:scale", &x, &factor)) {
        return NULL;
    }
    if (!UsmArray_Check(x) || UsmArray_GetTypeNum(x) != NPY_FLOAT64) {
        PyErr_SetString(PyExc_TypeError, "scale() needs a float64 USMArray");
        return NULL;
    }
    if (!(UsmArray_GetFlags(x) & USM_ARRAY_WRITABLE)) {
        PyErr_SetString(PyExc_ValueError, "scale() needs a writable array");
        return NULL;
    }
    const char *usm_type = UsmMemory_GetUsmType(UsmArray_GetBase(x));
    if (strcmp(usm_type, "device") != 0) {
        /* Shared and host memory: the CPU reads and writes it directly. */
        UsmQueue_Wait(UsmArray_GetQueue(x));
        scale_on_host(x, factor);
        Py_RETURN_NONE;
    }
    /* Device memory is not for the CPU: an extension would launch a
     * kernel on UsmQueue_GetNativeHandle(queue).  This one stages the
     * elements through a shared array on the same queue instead. */
    PyObject *staging =
        UsmArray_New(UsmArray_GetNDim(x), UsmArray_GetShape(x), NPY_FLOAT64,
                     NULL, "shared", UsmArray_GetQueue(x));
    if (staging == NULL) {
        return NULL;
    }
    if (UsmArray_CopyInto(staging, x) < 0) {
        Py_DECREF(staging);
        return NULL;
    }
    scale_on_host(staging, factor);
    int rc = UsmArray_CopyInto(x, staging);
    Py_DECREF(staging);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static void
free_buffer(PyObject *capsule)
{
    free(PyCapsule_GetPointer(capsule, "scale.buffer"));
}

static PyObject *
host_range(PyObject *Py_UNUSED(module), PyObject *args)
{
    Py_ssize_t n;
    PyObject *queue;
    if (!PyArg_ParseTuple(args, "nO:host_range", &n, &queue)) {
        return NULL;
    }
    if (n <= 0) {
        PyErr_SetString(PyExc_ValueError, "n must be positive");
        return NULL;
    }
    double *buf = malloc((size_t)n * sizeof(double));
    if (buf == NULL) {
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        buf[i] = (double)i;
    }
    /* The capsule owns the buffer; the Memory keeps the capsule alive, and
     * every array over the Memory keeps the Memory alive. */
    PyObject *owner = PyCapsule_New(buf, "scale.buffer", free_buffer);
    if (owner == NULL) {
        free(buf);
        return NULL;
    }
    PyObject *memory =
        UsmMemory_FromPointer(buf, (size_t)n * sizeof(double), queue, owner);
    Py_DECREF(owner);
    if (memory == NULL) {
        return NULL;
    }
    PyObject *x = UsmArray_FromMemory(memory, 1, &n, NPY_FLOAT64, NULL, 0);
    Py_DECREF(memory);
    return x;
}

static PyMethodDef methods[] = {
    {"scale", scale, METH_VARARGS, "scale(x, factor): x *= factor."},
    {"host_range", host_range, METH_VARARGS,
     "host_range(n, queue): 0.0 .. n-1 in host memory this extension owns."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "scale",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit_scale(void)
{
    if (import_usmarray() < 0) {
        return NULL;
    }
    return PyModule_Create(&module);
}
