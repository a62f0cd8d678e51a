/* from_dlpack() of PyTorch's CUDA tensors: one partner's quirks, worked
 * around where they cost the most (see each function). */
#include "python/base/pyheaders.h"
#include "python/base/state.h"
#include "python/protocols/dlpack_torch.h"

/* DLPack's name of CUDA's legacy default stream. */
#define DLPACK_CUDA_LEGACY_STREAM 1

/* obj.name (a new reference), or NULL with no error where obj is NULL or
 * has no such attribute. */
static PyObject *
optional_attr(PyObject *obj, const char *name)
{
    PyObject *value = obj ? PyObject_GetAttrString(obj, name) : NULL;
    if (value == NULL) {
        PyErr_Clear();
    }
    return value;
}

/* PyTorch's current-stream function when obj is one of its tensors, else
 * NULL (no error): torch.Tensor and torch._C._cuda_getCurrentRawStream
 * are looked up once torch is imported (None where the function is
 * missing, so as not to look again). */
static PyObject *
torch_raw_stream_of(ua_state *st, PyObject *obj)
{
    if (st->torch_raw_stream == NULL) {
        /* sys.modules itself: PyImport_GetModule also asks the module's
         * spec whether it is being imported, on every call of every
         * producer for as long as torch is not imported. */
        PyObject *torch =
            PyDict_GetItemWithError(PyImport_GetModuleDict(), st->s_torch);
        if (torch == NULL || !PyModule_Check(torch)) {
            PyErr_Clear();
            return NULL;
        }
        Py_INCREF(torch);
        PyObject *tensor = optional_attr(torch, "Tensor");
        PyObject *c = optional_attr(torch, "_C");
        PyObject *f = optional_attr(c, "_cuda_getCurrentRawStream");
        /* A ROCm build calls its GPUs CUDA devices: leave it to DLPack. */
        PyObject *version = optional_attr(torch, "version");
        PyObject *hip = optional_attr(version, "hip");
        int cuda_build = version != NULL && hip == Py_None;
        Py_DECREF(torch);
        Py_XDECREF(c);
        Py_XDECREF(version);
        Py_XDECREF(hip);
        if (tensor == NULL || !PyType_Check(tensor) || f == NULL ||
            !PyCallable_Check(f) || !cuda_build) {
            Py_XDECREF(tensor);
            Py_XSETREF(f, Py_NewRef(Py_None));
            tensor = NULL;
        }
        /* The lookups may run Python code, and another thread may have
         * filled the fields meanwhile. */
        if (st->torch_raw_stream == NULL) {
            st->torch_tensor = tensor;
            st->torch_raw_stream = f;
        } else {
            Py_XDECREF(tensor);
            Py_DECREF(f);
        }
    }
    if (st->torch_tensor == NULL ||
        !PyObject_TypeCheck(obj, (PyTypeObject *)st->torch_tensor)) {
        return NULL;
    }
    return st->torch_raw_stream;
}

/* A producer library's quirk, PyTorch's: its __dlpack__ spends several
 * times a plain export's time in Python whenever it is given a stream (it
 * builds stream objects to compare them), and more than it needs given
 * -1.  For a CUDA tensor, ask PyTorch
 * for its current stream on the tensor's device (a raw handle; 0 is its
 * default stream, CUDA's legacy one) and order the consumer's queue after
 * it ourselves, as PyTorch would have ordered it: then the producer is
 * asked with -1, no synchronization.  1 when so ordered; 0, with no error,
 * where anything is unexpected and the generic call must be made. */
int
ua_py_ordered_after_torch(ua_state *st, PyObject *obj, ua_dl_device dev,
                          ua_queue *queue)
{
    if (dev.device_type != UA_DL_CUDA || queue == NULL) {
        return 0;
    }
    PyObject *f = torch_raw_stream_of(st, obj);
    if (f == NULL || f == Py_None) {
        return 0;
    }
    /* Held for the call, which may run code that clears the module. */
    Py_INCREF(f);
    PyObject *index = PyLong_FromLong(dev.device_id);
    PyObject *raw = index ? PyObject_CallOneArg(f, index) : NULL;
    Py_XDECREF(index);
    Py_DECREF(f);
    unsigned long long handle = raw != NULL && PyLong_CheckExact(raw)
                                    ? PyLong_AsUnsignedLongLong(raw)
                                    : (unsigned long long)-1;
    Py_XDECREF(raw);
    if (PyErr_Occurred() || handle == (unsigned long long)-1) {
        PyErr_Clear();
        return 0;
    }
    uintptr_t producer =
        handle == 0 ? DLPACK_CUDA_LEGACY_STREAM : (uintptr_t)handle;
    if (ua_queue_order_with_stream(queue, producer, false) != UA_OK) {
        ua_error_clear();
        return 0;
    }
    return 1;
}

/* PyTorch's quirk again: its __dlpack_device__ is Python code, slower
 * than is_cuda and get_device(), which are C.  True, with *out the tensor's CUDA
 * device, where obj is a CUDA tensor of a CUDA build of PyTorch; false,
 * with no error, where anything is unexpected. */
int
ua_py_torch_cuda_device(ua_state *st, PyObject *obj, ua_dl_device *out)
{
    PyObject *f = torch_raw_stream_of(st, obj);
    if (f == NULL || f == Py_None) {
        return 0;
    }
    PyObject *is_cuda = PyObject_GetAttr(obj, st->s_is_cuda);
    PyObject *index = is_cuda == Py_True
                          ? PyObject_CallMethodNoArgs(obj, st->s_get_device)
                          : NULL;
    long i =
        index != NULL && PyLong_CheckExact(index) ? PyLong_AsLong(index) : -1;
    Py_XDECREF(is_cuda);
    Py_XDECREF(index);
    if (PyErr_Occurred() || i < 0 || i > INT32_MAX) {
        PyErr_Clear();
        return 0;
    }
    *out = (ua_dl_device){UA_DL_CUDA, (int32_t)i};
    return 1;
}
