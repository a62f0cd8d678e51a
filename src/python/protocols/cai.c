/* __cuda_array_interface__ (versions 0 to 3).  Import checks every key,
 * requires memory of a CUDA device that a backend of this build reaches and
 * orders the import after the producer's stream.  Export is version 3, for
 * memory CUDA reaches, with the queue's stream. */
#include "python/base/pyheaders.h"
#include "python/base/errors.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/types/devices.h"
#include "python/types/memory.h"
#include "python/protocols/cai.h"
#include "python/protocols/iface.h"
#include "core/dlpack.h"

#define CAI "__cuda_array_interface__"

/* Byte strides, each a multiple of the itemsize, become element strides. */
static int
read_strides(const ua_iface *f, ua_state *st, ua_cai *out)
{
    int given;
    if (ua_iface_strides(f, st->s_strides, out->nd, out->shape, out->strides,
                         &given) < 0) {
        return -1;
    }
    Py_ssize_t isz = (Py_ssize_t)ua_dtype_itemsize(out->typenum);
    for (int k = 0; given && k < out->nd; k++) {
        if (out->strides[k] % isz != 0) {
            PyErr_Format(PyExc_ValueError,
                         CAI "['strides'][%d] is %zd bytes, not a multiple of "
                             "the itemsize %zd",
                         k, out->strides[k], isz);
            return -1;
        }
        out->strides[k] /= isz;
    }
    return 0;
}

static int
read_mask(const ua_iface *f, ua_state *st)
{
    int error;
    PyObject *mask = ua_iface_optional(f, st->s_mask, &error);
    if (mask != NULL) {
        PyErr_SetString(PyExc_ValueError,
                        CAI "['mask'] is not None: masked arrays are not "
                            "supported");
        Py_DECREF(mask);
        return -1;
    }
    return error ? -1 : 0;
}

/* The stream the producer's work is queued on: 0 is forbidden by the
 * protocol, 1 and 2 are the legacy and per-thread default streams. */
static int
stream_value(PyObject *stream, ua_cai *out)
{
    if (PyBool_Check(stream) || !PyLong_Check(stream)) {
        PyErr_Format(PyExc_TypeError,
                     CAI "['stream'] must be None or an int, not %.100s",
                     Py_TYPE(stream)->tp_name);
        return -1;
    }
    unsigned long long s = PyLong_AsUnsignedLongLong(stream);
    if (s == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, CAI "['stream'] is not a stream: %R",
                     stream);
        return -1;
    }
    if (s == 0) {
        PyErr_SetString(PyExc_ValueError, CAI
                        "['stream'] is 0, which the protocol forbids "
                        "(1 is the legacy default stream, 2 the per-thread "
                        "one)");
        return -1;
    }
    out->stream = (uintptr_t)s;
    return 0;
}

static int
read_stream(const ua_iface *f, ua_state *st, ua_cai *out)
{
    int error;
    PyObject *stream = ua_iface_optional(f, st->s_stream, &error);
    out->stream = 0;
    if (error || stream == NULL) {
        return error ? -1 : 0;
    }
    int rc = stream_value(stream, out);
    Py_DECREF(stream);
    return rc;
}

static int
cai_applies(const ua_device *d)
{
    return (ua_backend_caps(ua_device_backend(d)) &
            UA_CAP_CUDA_ARRAY_INTERFACE) != 0;
}

/* Why no backend whose memory CAI describes can serve here; "" when one
 * can. */
static const char *
cai_backend_status(void)
{
    const char *why = "this build has no CUDA backend";
    for (size_t i = 0; i < ua_backend_count(); i++) {
        ua_backend *b = ua_backend_at(i);
        if (ua_backend_caps(b) & UA_CAP_CUDA_ARRAY_INTERFACE) {
            if (ua_backend_available(b)) {
                return "";
            }
            why = ua_backend_reason(b);
        }
    }
    return why;
}

/* The reached bytes must lie in one allocation of a CUDA device. */
static int
locate(ua_state *st, ua_cai *c)
{
    ua_status code = ua_locate_region(c->ptr, c->nd, c->shape, c->strides, 0,
                                      ua_dtype_itemsize(c->typenum), &c->alloc,
                                      &c->begin, &c->end);
    if (code != UA_OK) {
        /* A malformed interface is a value problem whatever the status. */
        const char *why = cai_backend_status();
        PyObject *prefix = PyUnicode_FromString(CAI);
        if (prefix == NULL) {
            ua_error_clear();
            return -1;
        }
        char suffix[512];
        snprintf(suffix, sizeof suffix, "%s%s",
                 *why ? "; no CUDA device is reachable: " : "", why);
        ua_py_raise_core_around(st, UA_ERR_VALUE, prefix, suffix);
        Py_DECREF(prefix);
        return -1;
    }
    if (!cai_applies(c->alloc.device)) {
        PyErr_Format(PyExc_ValueError,
                     CAI "['data'][0] is %s memory of %s, not memory of a "
                         "CUDA device",
                     ua_usm_kind_name(c->alloc.kind),
                     ua_device_filter_string(c->alloc.device));
        return -1;
    }
    return 0;
}

static int
read_cai(ua_state *st, PyObject *dict, ua_cai *out)
{
    ua_iface f = {CAI, dict, st};
    if (ua_iface_version(&f, st->s_version, 0, 3) < 0 ||
        ua_iface_shape(&f, st->s_shape, out->shape, &out->nd) < 0 ||
        ua_iface_typestr(&f, st->s_typestr, &out->typenum) < 0 ||
        ua_iface_data(&f, st->s_data, &out->ptr, &out->readonly) < 0 ||
        read_strides(&f, st, out) < 0 || read_mask(&f, st) < 0 ||
        read_stream(&f, st, out) < 0) {
        return -1;
    }
    ptrdiff_t n;
    if (ua_layout_size(out->nd, out->shape, &n) != UA_OK) {
        ua_py_raise_core_prefixed(st, UA_ERR_VALUE, CAI "['shape']");
        return -1;
    }
    out->empty = n == 0;
    if (!out->empty && out->ptr == 0) {
        PyErr_SetString(PyExc_ValueError,
                        CAI "['data'][0] is 0 (NULL) for an array with "
                            "elements");
        return -1;
    }
    return out->empty ? 0 : locate(st, out);
}

int
ua_cai_import(ua_state *st, PyObject *obj, ua_cai *out)
{
    PyObject *dict = ua_iface_open(obj, st->s_cai, CAI);
    if (dict == NULL) {
        return -1;
    }
    int rc = read_cai(st, dict, out);
    Py_DECREF(dict);
    return rc;
}

PyObject *
ua_py_array_cai(PyObject *self, void *Py_UNUSED(closure))
{
    ua_state *st = ua_state_of(self);
    PyUSMArrayObject *a = ARR(self);
    ua_queue *q = queue_of_array(self);
    ua_device *d = ua_queue_device(q);
    if (!cai_applies(d)) {
        PyErr_Format(PyExc_AttributeError,
                     "USM %s memory of %s has no " CAI ": CUDA cannot "
                     "reach it",
                     ua_usm_kind_name(base_of(self)->kind),
                     ua_device_filter_string(d));
        return NULL;
    }
    ptrdiff_t n;
    ua_layout_size(a->nd, a->shape, &n);
    /* The protocol wants pointer 0 for an array without elements. */
    PyObject *const extra[] = {st->s_stream, NULL};
    PyObject *cai = ua_py_array_interface_dict(
        st, self, 1, n > 0 ? a->data : NULL, 3, &st->cai_template, extra);
    PyObject *stream =
        cai ? PyLong_FromSize_t((size_t)ua_queue_stream_handle(q)) : NULL;
    if (stream == NULL || PyDict_SetItem(cai, st->s_stream, stream) < 0) {
        Py_CLEAR(cai);
    }
    Py_XDECREF(stream);
    return cai;
}

PyObject *
ua_py_array_from_cai(ua_state *st, PyObject *obj)
{
    ua_cai c;
    if (ua_cai_import(st, obj, &c) < 0) {
        return NULL;
    }
    if (c.empty) {
        /* Nothing to share: an empty array of the default device. */
        PyObject *q = ua_py_as_queue(st, Py_None, "queue");
        PyObject *a = q ? ua_py_array_empty(st, c.nd, c.shape, NULL, c.typenum,
                                            'C', UA_USM_DEVICE, q)
                        : NULL;
        Py_XDECREF(q);
        return a;
    }
    PyObject *q = ua_py_default_queue(st, c.alloc.device);
    if (q == NULL) {
        return NULL;
    }
    /* Work on our queue must follow what the producer queued. */
    if (c.stream != 0) {
        ua_status code = ua_queue_order_with_stream(((ua_py_queue *)q)->queue,
                                                    c.stream, false);
        if (code != UA_OK) {
            Py_DECREF(q);
            return ua_py_raise_core_prefixed(st, UA_ERR_VALUE,
                                             CAI "['stream']");
        }
    }
    char *start = (char *)(c.ptr + (uintptr_t)c.begin);
    PyObject *mem =
        ua_py_memory_wrap(st, c.alloc.kind, start,
                          (Py_ssize_t)(c.end - c.begin), c.readonly, q, obj);
    Py_DECREF(q);
    if (mem == NULL) {
        return NULL;
    }
    PyObject *a = ua_py_array_new(st, c.nd, c.shape, c.strides, c.typenum,
                                  (char *)c.ptr, mem, !c.readonly);
    Py_DECREF(mem);
    return a;
}
