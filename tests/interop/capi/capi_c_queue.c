/* The queue functions of the test extension, in a second file: it uses the
 * table capi_c.c imported, through the shared symbol. */
#define PY_SSIZE_T_CLEAN
#define USMARRAY_API_UNIQUE_SYMBOL capi_c_API
#define USMARRAY_NO_IMPORT
#include <usmarray/usmarray_api.h>

/* (backend, native handle or None, device) of a queue. */
static PyObject *
queue_info(PyObject *m, PyObject *queue)
{
    (void)m;
    const char *backend;
    void *handle;
    PyObject *device;
    if ((backend = UsmQueue_GetBackend(queue)) == NULL ||
        ((handle = UsmQueue_GetNativeHandle(queue)) == NULL &&
         PyErr_Occurred()) ||
        (device = UsmQueue_GetDevice(queue)) == NULL) {
        return NULL;
    }
    PyObject *h = handle ? PyLong_FromVoidPtr(handle) : Py_NewRef(Py_None);
    return h ? Py_BuildValue("(sNO)", backend, h, device) : NULL;
}

static PyObject *
queue_wait(PyObject *m, PyObject *queue)
{
    (void)m;
    if (UsmQueue_Wait(queue) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

PyMethodDef capi_c_queue_methods[] = {
    {"queue_info", queue_info, METH_O, NULL},
    {"queue_wait", queue_wait, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};
