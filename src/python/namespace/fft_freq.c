/* usmarray.fft's sample frequencies, made on the device by the fill
 * kernels, and its shifts, through the namespace's roll. */
#include "python/base/pyheaders.h"

#include <math.h>
#include <stdio.h>

#include "python/base/convert.h"
#include "python/base/dtypes.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/extensions.h"
#include "python/namespace/fft.h"
#include "python/namespace/fft_docs.h"
#include "python/namespace/functions.h"
#include "python/namespace/reducing.h"

#include "core/compute/compute.h"

/* ---------------------------------------------------- the frequencies */

/* d: a real number, not zero. */
static int
parse_spacing(PyObject *obj, const char *fn, double *d)
{
    *d = 1.0;
    if (obj == NULL) {
        return 0;
    }
    if (PyComplex_Check(obj) || !PyNumber_Check(obj) || PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "%s: d must be a real number, not %.100s", fn,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    *d = PyFloat_AsDouble(obj);
    if (*d == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    if (*d == 0.0 || !isfinite(*d)) {
        PyErr_Format(PyExc_ValueError,
                     "%s: d must be a finite spacing other than 0, not %R", fn,
                     obj);
        return -1;
    }
    return 0;
}

/* dtype: a real floating type, by default the device's. */
static int
freq_dtype(ua_state *st, PyObject *dtype, PyObject *queue, const char *fn,
           ua_typenum *t)
{
    if (dtype == NULL || dtype == Py_None) {
        *t = ua_default_dtypes_for(
                 ua_device_has_fp64(ua_queue_device(queue_of(queue))))
                 .real_floating;
        return 0;
    }
    if (ua_py_typenum(st, dtype, t) < 0) {
        return -1;
    }
    if (ua_dtype_kind(*t) != 'f') {
        PyErr_Format(PyExc_TypeError, "%s makes real floating values, not %s",
                     fn, ua_dtype_name(*t));
        return -1;
    }
    return 0;
}

/* Fills a dense run of count elements of type t with first, first + 1,
 * ... (exact integers in a floating type). */
static ua_status
fill_counting(ua_queue *q, char *dst, Py_ssize_t count, ua_typenum t,
              double first)
{
    ua_affine_plan p = {
        .mode = UA_AFFINE_ARANGE, .dst = dst, .n = (size_t)count, .type = t};
    p.first.f[0] = first;
    p.second.f[0] = first + 1.0;
    return count > 0 ? ua_queue_affine(q, &p) : UA_OK;
}

/* fftfreq (rfft false) and rfftfreq: the integers k of each sample, times
 * 1 / (n d), in float64 where the device has it (then cast to dtype, as
 * NumPy's values cast), else float32. */
static PyObject *
frequencies(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
            PyObject *kwnames, const char *fn, bool rfft)
{
    static const char *const kwlist[] = {
        "n", "d", "dtype", "device", "usm_type", "queue", NULL};
    ua_py_argspec spec = {fn, kwlist, 1, 1};
    PyObject *v[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    Py_ssize_t n;
    double d;
    ua_typenum t;
    ua_usm_kind kind = UA_USM_DEVICE;
    char what[24];
    snprintf(what, sizeof(what), "%s: n", fn);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_index(v[0], what, &n) < 0 ||
        ua_py_fft_check_length(fn, "n", n) < 0 ||
        parse_spacing(v[1], fn, &d) < 0 ||
        (v[4] != NULL && v[4] != Py_None &&
         ua_py_parse_usm_type(v[4], &kind) < 0)) {
        return NULL;
    }
    PyObject *queue = ua_py_target_queue(st, v[3], v[5], NULL);
    if (queue == NULL || freq_dtype(st, v[2], queue, fn, &t) < 0) {
        Py_XDECREF(queue);
        return NULL;
    }
    ua_queue *q = queue_of(queue);
    ua_typenum work =
        ua_device_has_fp64(ua_queue_device(q)) ? UA_FLOAT64 : UA_FLOAT32;
    Py_ssize_t count = rfft ? n / 2 + 1 : n,
               positive = rfft ? count : (n + 1) / 2;
    PyObject *f =
        ua_py_array_empty(st, 1, &count, NULL, work, 'C', kind, queue);
    Py_DECREF(queue);
    if (f == NULL) {
        return NULL;
    }
    size_t isz = ua_dtype_itemsize(work);
    ua_status code = fill_counting(q, ARR(f)->data, positive, work, 0.0);
    if (code == UA_OK) {
        code = fill_counting(q, ARR(f)->data + (size_t)positive * isz,
                             count - positive, work, (double)-(n / 2));
    }
    if (ua_py_run_core(st, code) < 0 ||
        ua_py_fft_scale(st, f, 1.0 / ((double)n * d)) < 0) {
        Py_DECREF(f);
        return NULL;
    }
    if (t != work) {
        Py_SETREF(f, ua_py_array_cast(st, f, t, 'C', 1, base_of(f)->queue));
    }
    return f;
}

static PyObject *
ua_py_fft_fftfreq(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return ua_py_fft_named("fftfreq",
                           frequencies(m, a, n, k, "fftfreq", false));
}

static PyObject *
ua_py_fft_rfftfreq(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return ua_py_fft_named("rfftfreq",
                           frequencies(m, a, n, k, "rfftfreq", true));
}

/* ---------------------------------------------------------- the shifts */

/* fftshift (inverse false) and ifftshift: roll by half of each axis'
 * length (rounded down, or, inverse, up), every axis where axes is None. */
static PyObject *
shift(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
      PyObject *kwnames, const char *fn, bool inverse)
{
    static const char *const kwlist[] = {"x", "axes", NULL};
    ua_py_argspec spec = {fn, kwlist, 1, 1};
    PyObject *v[2] = {NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    Py_ssize_t given[UA_MAXDIMS];
    int count = 0;
    char what[24];
    snprintf(what, sizeof(what), "%s: axes", fn);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], fn) < 0 ||
        ua_py_fft_check_ndim(v[0], fn) < 0) {
        return NULL;
    }
    int nd = ARR(v[0])->nd;
    if (v[1] == NULL || v[1] == Py_None) {
        count = nd;
        for (int k = 0; k < nd; k++) {
            given[k] = k;
        }
    } else if (ua_py_parse_ints(v[1], what, given, &count) < 0) {
        return NULL;
    }
    PyObject *axes = PyTuple_New(count), *shifts = PyTuple_New(count);
    int rc = axes && shifts ? 0 : -1;
    for (int k = 0; rc == 0 && k < count; k++) {
        int a;
        rc = ua_py_normalize_axis(st, fn, given[k], nd, &a);
        Py_ssize_t len = rc == 0 ? ARR(v[0])->shape[a] : 0;
        PyObject *ax = rc == 0 ? PyLong_FromLong(a) : NULL;
        PyObject *by =
            ax ? PyLong_FromSsize_t(inverse ? -(len / 2) : len / 2) : NULL;
        if (by == NULL) {
            Py_XDECREF(ax);
            rc = -1;
            break;
        }
        PyTuple_SET_ITEM(axes, k, ax);
        PyTuple_SET_ITEM(shifts, k, by);
    }
    PyObject *roll = rc == 0 ? PyObject_GetAttrString(module, "roll") : NULL;
    PyObject *kw = roll ? Py_BuildValue("(s)", "axis") : NULL;
    PyObject *out = NULL;
    if (kw != NULL) {
        PyObject *call[3] = {v[0], shifts, axes};
        out = PyObject_Vectorcall(roll, call, 2, kw);
    }
    Py_XDECREF(kw);
    Py_XDECREF(roll);
    Py_XDECREF(axes);
    Py_XDECREF(shifts);
    return out;
}

static PyObject *
ua_py_fft_fftshift(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return shift(m, a, n, k, "fftshift", false);
}

static PyObject *
ua_py_fft_ifftshift(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return shift(m, a, n, k, "ifftshift", true);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* Their operands as snapshots: their other arguments' hooks run after
 * they read the operands' layouts. */
UA_PY_ON_SNAPSHOTS(ua_py_fft_fftshift)
UA_PY_ON_SNAPSHOTS(ua_py_fft_ifftshift)

/* Here rather than in fft.c's table: these use fft.c's checks, which then
 * need not know them (no call cycle). */
PyMethodDef ua_py_fft_freq_methods[] = {
    {"fftfreq", KW(ua_py_fft_fftfreq), UA_DOC_FFT_FFTFREQ},
    {"rfftfreq", KW(ua_py_fft_rfftfreq), UA_DOC_FFT_RFFTFREQ},
    {"fftshift", KW(ua_py_fft_fftshift_on_snapshots), UA_DOC_FFT_FFTSHIFT},
    {"ifftshift", KW(ua_py_fft_ifftshift_on_snapshots), UA_DOC_FFT_IFFTSHIFT},
    {0},
};
