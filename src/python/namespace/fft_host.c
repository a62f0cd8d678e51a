/* The host's FFTs: NumPy's pocketfft over the plan's own memory.  Host
 * USM (and a CPU device's) is this process's memory, so a NumPy array over
 * it is a view that costs nothing, and NumPy is always present: the
 * package needs no FFT library of its own.  The core calls this on the
 * thread that called ua_queue_fft, which holds the GIL (fft.c keeps it). */
#include "python/base/pyheaders.h"

#include <stdlib.h>

#include "python/namespace/extensions.h"

#include "core/compute/library.h"

/* NumPy's array over n bytes at data, of the plan's batch and lengths. */
static PyObject *
numpy_view(PyObject *ndarray, char *data, int nd, const Py_ssize_t *shape,
           ua_typenum t, bool writable)
{
    Py_ssize_t bytes = (Py_ssize_t)ua_dtype_itemsize(t);
    for (int k = 0; k < nd; k++) {
        bytes *= shape[k];
    }
    PyObject *dims = PyTuple_New(nd);
    for (int k = 0; dims != NULL && k < nd; k++) {
        PyObject *v = PyLong_FromSsize_t(shape[k]);
        if (v == NULL) {
            Py_CLEAR(dims);
            break;
        }
        PyTuple_SET_ITEM(dims, k, v);
    }
    PyObject *buffer =
        dims ? PyMemoryView_FromMemory(data, bytes,
                                       writable ? PyBUF_WRITE : PyBUF_READ)
             : NULL;
    PyObject *args[3] = {dims, PyUnicode_FromString(ua_dtype_typestr(t)),
                         buffer};
    PyObject *names = Py_BuildValue("(sss)", "shape", "dtype", "buffer");
    PyObject *a = buffer && args[1] && names
                      ? PyObject_Vectorcall(ndarray, args, 0, names)
                      : NULL;
    Py_XDECREF(names);
    for (int k = 0; k < 3; k++) {
        Py_XDECREF(args[k]);
    }
    return a;
}

/* The plan's sides: (batch, lengths...) with the complex side's last
 * length n / 2 + 1 where the other side is real. */
static void
sides(const ua_fft_plan *p, Py_ssize_t *in, Py_ssize_t *out, ua_typenum *it,
      ua_typenum *ot)
{
    ua_typenum real = p->type == UA_COMPLEX128 ? UA_FLOAT64 : UA_FLOAT32;
    in[0] = out[0] = (Py_ssize_t)p->batch;
    for (int k = 0; k < p->rank; k++) {
        in[k + 1] = out[k + 1] = p->n[k];
    }
    Py_ssize_t half = p->n[p->rank - 1] / 2 + 1;
    *it = *ot = p->type;
    if (p->kind == UA_FFT_R2C) {
        out[p->rank] = half;
        *it = real;
    } else if (p->kind == UA_FFT_C2R) {
        in[p->rank] = half;
        *ot = real;
    }
}

/* The lengths (or one length) and the last rank axes (or the last). */
static int
lengths_and_axes(const ua_fft_plan *p, PyObject **lengths, PyObject **axes)
{
    if (p->rank == 1) {
        *lengths = PyLong_FromSsize_t(p->n[0]);
        *axes = PyLong_FromLong(-1);
    } else {
        *lengths = PyTuple_New(p->rank);
        *axes = PyTuple_New(p->rank);
        for (int k = 0; *lengths && *axes && k < p->rank; k++) {
            PyTuple_SET_ITEM(*lengths, k, PyLong_FromSsize_t(p->n[k]));
            PyTuple_SET_ITEM(*axes, k, PyLong_FromLong(k - p->rank));
        }
    }
    return *lengths && *axes && !PyErr_Occurred() ? 0 : -1;
}

/* numpy.fft's transform of in over the last rank axes into out,
 * unnormalized: norm "backward" forward, "forward" inverse.  One axis
 * takes fft, rfft or irfft, whose n-dimensional forms cost more a call
 * in Python.  NumPy 1 computes single precision in double and has
 * no out=: its result is copied into out. */
static int
call_numpy(PyObject *np, const ua_fft_plan *p, PyObject *in, PyObject *out)
{
    static const char *const names[2][4] = {
        {"fftn", "ifftn", "rfftn", "irfftn"},
        {"fft", "ifft", "rfft", "irfft"}};
    int which = p->kind == UA_FFT_R2C   ? 2
                : p->kind == UA_FFT_C2R ? 3
                                        : (int)p->inverse;
    PyObject *version = PyObject_GetAttrString(np, "__version__");
    const char *v = version ? PyUnicode_AsUTF8(version) : NULL;
    bool has_out = v != NULL && atoi(v) >= 2;
    Py_XDECREF(version);
    PyObject *fft = v ? PyObject_GetAttrString(np, "fft") : NULL;
    PyObject *fn =
        fft ? PyObject_GetAttrString(fft, names[p->rank == 1][which]) : NULL;
    Py_XDECREF(fft);
    PyObject *args[5] = {in, NULL, NULL, NULL, out};
    bool one = p->rank == 1;
    /* Without out=, the last name goes unread. */
    PyObject *kw = Py_BuildValue(has_out ? "(ssss)" : "(sss)", one ? "n" : "s",
                                 one ? "axis" : "axes", "norm", "out");
    PyObject *r = NULL;
    if (fn && kw && lengths_and_axes(p, &args[1], &args[2]) == 0 &&
        (args[3] = PyUnicode_FromString(which % 2 ? "forward" : "backward"))) {
        r = PyObject_Vectorcall(fn, args, 1, kw);
    }
    if (r != NULL && !has_out) {
        PyObject *copyto = PyObject_GetAttrString(np, "copyto");
        PyObject *done =
            copyto ? PyObject_CallFunctionObjArgs(copyto, out, r, NULL) : NULL;
        Py_XDECREF(copyto);
        Py_SETREF(r, done);
    }
    int rc = r == NULL ? -1 : 0;
    for (int k = 1; k < 4; k++) {
        Py_XDECREF(args[k]);
    }
    Py_XDECREF(fn);
    Py_XDECREF(kw);
    Py_XDECREF(r);
    return rc;
}

/* The Python exception as the core's error, cleared. */
static ua_status
fail_from_python(void)
{
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *exc = PyErr_GetRaisedException();
#else
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
#endif
    PyObject *text = exc ? PyObject_Str(exc) : NULL;
    const char *msg = text ? PyUnicode_AsUTF8(text) : NULL;
    ua_status code = ua_error_set(UA_ERR_RUNTIME, "numpy.fft failed: %s: %s",
                                  exc ? Py_TYPE(exc)->tp_name : "error",
                                  msg ? msg : "(no message)");
    Py_XDECREF(text);
    Py_XDECREF(exc);
    PyErr_Clear();
    return code;
}

static ua_status
host_fft(const ua_fft_plan *p)
{
    Py_ssize_t in_shape[4], out_shape[4];
    ua_typenum it, ot;
    sides(p, in_shape, out_shape, &it, &ot);
    PyObject *np = PyImport_ImportModule("numpy");
    PyObject *ndarray = np ? PyObject_GetAttrString(np, "ndarray") : NULL;
    PyObject *in = ndarray ? numpy_view(ndarray, (char *)p->in, p->rank + 1,
                                        in_shape, it, false)
                           : NULL;
    PyObject *out =
        in ? numpy_view(ndarray, p->out, p->rank + 1, out_shape, ot, true)
           : NULL;
    int rc = out ? call_numpy(np, p, in, out) : -1;
    Py_XDECREF(in);
    Py_XDECREF(out);
    Py_XDECREF(ndarray);
    Py_XDECREF(np);
    return rc < 0 ? fail_from_python() : UA_OK;
}

void
ua_py_fft_install_host(void)
{
    ua_set_host_fft(host_fft);
}
