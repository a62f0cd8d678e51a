/* DLPack import: from_dlpack() of capsules and of objects with __dlpack__,
 * as a DLPack 1.x consumer asks them, ordered after the producer's stream;
 * PyTorch's tensors take a faster road (dlpack_torch.c). */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/errors.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/types/devices.h"
#include "python/types/memory.h"
#include "python/protocols/suai.h"

#include "core/dlpack.h"
#include "python/protocols/dlpack_export.h"
#include "python/protocols/dlpack_import.h"
#include "python/protocols/dlpack_torch.h"

typedef struct {
    void *managed; /* ua_dl_managed or ua_dl_managed_versioned */
    int versioned;
    const ua_dl_tensor *tensor;
    int readonly;
} capsule_content;

/* Reads a capsule without taking it over.  A versioned tensor of a newer
 * major version is taken over only to be deleted, as DLPack asks. */
static int
open_capsule(PyObject *capsule, capsule_content *c)
{
    const char *name = PyCapsule_GetName(capsule);
    if (name == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError,
                            "a capsule without a name is not a DLPack "
                            "capsule ('dltensor' or 'dltensor_versioned')");
        }
        return -1;
    }
    int form = ua_py_dlpack_capsule_form(name);
    c->versioned = form == UA_PY_DLPACK_VERSIONED;
    if (form == UA_PY_NOT_DLPACK) {
        if (strncmp(name, "used_", 5) == 0) {
            PyErr_SetString(PyExc_ValueError,
                            "this DLPack capsule was already consumed: a "
                            "capsule can be imported only once");
        } else {
            PyErr_Format(PyExc_TypeError,
                         "a capsule named '%s' is not a DLPack capsule "
                         "('dltensor' or 'dltensor_versioned')",
                         name);
        }
        return -1;
    }
    c->managed = PyCapsule_GetPointer(capsule, name);
    if (c->managed == NULL) {
        return -1;
    }
    if (!c->versioned) {
        c->tensor = &((ua_dl_managed *)c->managed)->dl_tensor;
        c->readonly = 0;
        return 0;
    }
    ua_dl_managed_versioned *v = c->managed;
    if (v->version.major > UA_DLPACK_MAJOR) {
        unsigned major = v->version.major, minor = v->version.minor;
        if (PyCapsule_SetName(capsule, ua_py_dlpack_versioned_used_name) < 0) {
            return -1;
        }
        ua_py_dlpack_call_deleter(c->managed, c->versioned);
        PyErr_Format(PyExc_BufferError,
                     "DLPack version %u.%u is newer than this library "
                     "supports (major version %d)",
                     major, minor, UA_DLPACK_MAJOR);
        return -1;
    }
    c->tensor = &v->dl_tensor;
    c->readonly = (v->flags & UA_DL_FLAG_READ_ONLY) != 0;
    return 0;
}

/* Memory for the bytes [begin, end) around ptr: an allocation the library
 * knows (its own, or one a driver reports), or, for CPU memory on the host
 * backend, the bytes borrowed as a "host" allocation.  It holds no owner
 * object (reference_obj is None): the caller gives it the producer's
 * deleter as its release hook, which saves an import an object to make and
 * free. */
static PyObject *
memory_of(ua_state *st, ua_device *d, const ua_dlpack_view *v, int readonly)
{
    PyObject *owner = Py_None;
    char *start = (char *)(v->ptr + (uintptr_t)v->begin);
    Py_ssize_t n = (Py_ssize_t)(v->end - v->begin);
    ua_pointer_info info;
    if (ua_pointer_query_range((uintptr_t)start, (size_t)n, &info)) {
        if (info.device != d) {
            PyErr_Format(PyExc_BufferError,
                         "the DLPack tensor names device %s but its memory "
                         "belongs to %s",
                         ua_device_filter_string(d),
                         ua_device_filter_string(info.device));
            return NULL;
        }
        return ua_py_memory_wrap_on_device(st, info.device, info.kind, start,
                                           n, readonly, owner);
    }
    if (!(ua_backend_caps(ua_device_backend(d)) & UA_CAP_CPU_MEMORY)) {
        PyErr_Format(PyExc_BufferError,
                     "the DLPack tensor's memory at %p is not memory %s "
                     "knows",
                     (void *)start, ua_device_filter_string(d));
        return NULL;
    }
    PyObject *q = ua_py_default_queue(st, d);
    PyObject *mem =
        q ? ua_py_memory_borrow(st, q, start, n, readonly, owner) : NULL;
    Py_XDECREF(q);
    return mem;
}

/* An empty tensor shares nothing: it becomes a fresh empty array, and the
 * capsule stays with its producer. */
static PyObject *
empty_import(ua_state *st, ua_device *d, ua_usm_kind kind,
             const ua_dlpack_view *v)
{
    PyObject *q = ua_py_default_queue(st, d);
    PyObject *a =
        q ? ua_py_array_empty(st, v->nd, v->shape, NULL, v->type, 'C', kind, q)
          : NULL;
    Py_XDECREF(q);
    return a;
}

PyObject *
ua_py_array_from_capsule(ua_state *st, PyObject *capsule)
{
    if (!PyCapsule_CheckExact(capsule)) {
        PyErr_Format(PyExc_TypeError, "expected a DLPack capsule, not %.100s",
                     Py_TYPE(capsule)->tp_name);
        return NULL;
    }
    capsule_content c;
    ua_dlpack_view v;
    ua_device *d;
    ua_usm_kind kind;
    if (open_capsule(capsule, &c) < 0) {
        return NULL;
    }
    if (ua_dlpack_read(c.tensor, &v) != UA_OK ||
        ua_dlpack_find_device(c.tensor->device, &d, &kind) != UA_OK) {
        return ua_py_raise_core(st, ua_error_code());
    }
    if (v.end == v.begin) {
        return empty_import(st, d, kind, &v);
    }
    PyObject *mem = memory_of(st, d, &v, c.readonly);
    if (mem == NULL) {
        return NULL; /* the capsule still owns the tensor */
    }
    /* From here on the memory runs the deleter, and the capsule must not. */
    if (PyCapsule_SetName(capsule, c.versioned
                                       ? ua_py_dlpack_versioned_used_name
                                       : ua_py_dlpack_legacy_used_name) < 0) {
        Py_DECREF(mem);
        return NULL;
    }
    ((ua_py_memory *)mem)->release = c.versioned
                                         ? ua_py_dlpack_release_versioned
                                         : ua_py_dlpack_release_legacy;
    ((ua_py_memory *)mem)->release_arg = c.managed;
    /* ua_dlpack_read ran ua_py_array_new's checks on this layout. */
    PyObject *a = ua_py_array_make(st, v.nd, v.shape, v.strides, v.type,
                                   (char *)v.ptr, mem, !c.readonly);
    Py_DECREF(mem);
    return a;
}

/* The stream a producer on dev must order its work before: that of the
 * default queue of the device that holds its data, which then needs no
 * ordering of its own (on CUDA the legacy default stream, which CuPy's
 * and PyTorch's default current streams are, so that they skip their
 * event handshake).  *out stays NULL for memory of backends without
 * streams and devices no backend reaches (the capsule's own device then
 * decides the error); *queue is that default queue (the module's cache
 * keeps it). */
static int
consumer_stream(ua_state *st, PyObject *producer, ua_dl_device dev,
                PyObject **out, ua_queue **queue)
{
    ua_device *d;
    ua_usm_kind kind;
    /* Our own array's device needs no asking of every backend. */
    if (Py_IS_TYPE(producer, st->USMArray_Type)) {
        d = ua_queue_device(queue_of_array(producer));
    } else if (ua_dlpack_find_device(dev, &d, &kind) != UA_OK) {
        ua_error_clear();
        return 0;
    }
    if (ua_backend_stream_rule(ua_device_backend(d)) != UA_STREAMS_HANDLE) {
        return 0;
    }
    PyObject *q = ua_py_default_queue(st, d);
    if (q == NULL) {
        return -1;
    }
    *queue = ((ua_py_queue *)q)->queue;
    uintptr_t stream = ua_queue_stream_handle(*queue);
    Py_DECREF(q);
    if (stream != 0) {
        *out = PyLong_FromSize_t(stream);
        return *out ? 0 : -1;
    }
    return 0;
}

/* The producer's device: known from the caller, asked of the producer, or
 * the CPU for producers without __dlpack_device__. */
static int
producer_device(ua_state *st, PyObject *obj, const ua_dl_device *known,
                ua_dl_device *out)
{
    *out = (ua_dl_device){UA_DL_CPU, 0};
    if (known != NULL) {
        *out = *known;
        return 0;
    }
    int has = ua_py_has_attr(obj, st->s_dlpack_device);
    return has <= 0 ? has : ua_py_dlpack_device_of(st, obj, out);
}

/* Calls obj.__dlpack__ as a consumer of DLPack 1.x would: asking for a
 * versioned capsule, and falling back to the legacy call for producers
 * that predate the keywords. */
static PyObject *
request_capsule(ua_state *st, PyObject *obj, PyObject *copy,
                const ua_dl_device *known)
{
    ua_dl_device dev, torch_dev;
    PyObject *stream = NULL;
    ua_queue *queue = NULL;
    if (known == NULL && ua_py_torch_cuda_device(st, obj, &torch_dev)) {
        known = &torch_dev;
    }
    /* Errors here are the producer's: they must not reach the fallback to
     * the legacy call below, which takes a TypeError as "old producer". */
    if (producer_device(st, obj, known, &dev) < 0 ||
        consumer_stream(st, obj, dev, &stream, &queue) < 0) {
        return NULL;
    }
    if (stream != NULL && ua_py_ordered_after_torch(st, obj, dev, queue)) {
        Py_SETREF(stream, PyLong_FromLong(-1));
        if (stream == NULL) {
            return NULL;
        }
    }
    /* obj.__dlpack__(max_version=..., [copy=...,] [stream=...]), by
     * vectorcall with names made once (module.c). */
    PyObject *args[4] = {obj, st->dl_max_version};
    size_t n = 2;
    int which = 0;
    if (copy != Py_None) {
        args[n++] = copy;
        which |= 1;
    }
    if (stream != NULL) {
        args[n++] = stream;
        which |= 2;
    }
    /* USMArray has neither subclasses nor an instance dictionary: its
     * __dlpack__ is ua_py_array_dlpack, called here as Python would call
     * it, without looking the method up. */
    PyObject *capsule =
        Py_IS_TYPE(obj, st->USMArray_Type)
            ? ua_py_array_dlpack(obj, args + 1, 0, st->dl_kwnames[which])
            : PyObject_VectorcallMethod(st->s_dlpack, args, 1,
                                        st->dl_kwnames[which]);
    Py_XDECREF(stream);
    if (capsule == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        capsule = PyObject_CallMethodNoArgs(obj, st->s_dlpack);
    }
    return capsule;
}

/* Memory of a backend whose queues DLPack's stream argument cannot name:
 * the producer's pending work is found through its interface dictionary's
 * syclobj instead (our own arrays' work is ordered already). */
static int
needs_producer_queue(ua_state *st, PyObject *producer, PyObject *array)
{
    ua_backend *b = ua_device_backend(ua_queue_device(queue_of_array(array)));
    return !Py_IS_TYPE(producer, st->USMArray_Type) &&
           ua_backend_stream_rule(b) == UA_STREAMS_NONE &&
           !(ua_backend_caps(b) & UA_CAP_CPU_MEMORY);
}

PyObject *
ua_py_array_from_dlpack_object(ua_state *st, PyObject *obj, PyObject *copy,
                               const ua_dl_device *device)
{
    if (PyCapsule_CheckExact(obj)) {
        return ua_py_array_from_capsule(st, obj);
    }
    PyObject *capsule = request_capsule(st, obj, copy, device);
    if (capsule == NULL) {
        return NULL;
    }
    PyObject *a = ua_py_array_from_capsule(st, capsule);
    Py_DECREF(capsule);
    if (a != NULL && needs_producer_queue(st, obj, a) &&
        ua_suai_order_after_producer(st, obj) < 0) {
        Py_CLEAR(a);
    }
    return a;
}

PyObject *
ua_py_from_dlpack(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                  PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "device", "copy", NULL};
    static const ua_py_argspec spec = {"from_dlpack", kwlist, 1, 1};
    PyObject *v[3] = {NULL, Py_None, Py_None};
    ua_state *st = PyModule_GetState(module);
    int copy;
    if (ua_py_parse_fast(&spec, args, nargs, kwnames, v) < 0 ||
        ua_py_parse_copy(v[2], &copy) < 0) {
        return NULL;
    }
    PyObject *x = v[0];
    /* Our own array answers __dlpack_device__ without being asked (a
     * subclass may override it, so only the exact type). */
    ua_dl_device own;
    const ua_dl_device *known = NULL;
    if (Py_IS_TYPE(x, st->USMArray_Type)) {
        own = ua_dlpack_device(ua_queue_device(queue_of_array(x)),
                               base_of(x)->kind);
        known = &own;
    } else if (!PyCapsule_CheckExact(x)) {
        int has = ua_py_has_attr(x, st->s_dlpack);
        if (has <= 0) {
            if (has == 0) {
                PyErr_Format(PyExc_TypeError,
                             "from_dlpack needs an object with __dlpack__ "
                             "or a DLPack capsule, not %.100s",
                             Py_TYPE(x)->tp_name);
            }
            return NULL;
        }
    }
    PyObject *queue = NULL;
    if (v[1] != Py_None &&
        (queue = ua_py_as_queue(st, v[1], "device")) == NULL) {
        return NULL;
    }
    PyObject *a = ua_py_array_from_dlpack_object(st, x, v[2], known);
    if (a != NULL && copy == 1 && PyCapsule_CheckExact(x)) {
        /* A capsule cannot be asked to copy: copy here. */
        Py_SETREF(a, ua_py_array_copy(st, a, (ua_typenum)ARR(a)->typenum, 'K',
                                      base_of(a)->kind, base_of(a)->queue));
    }
    if (a != NULL && queue != NULL &&
        ua_queue_device(((ua_py_queue *)queue)->queue) !=
            ua_queue_device(queue_of_array(a))) {
        if (copy == 0) {
            PyErr_SetString(PyExc_BufferError,
                            "from_dlpack(copy=False): the tensor is on "
                            "another device than `device`");
            Py_CLEAR(a);
        } else {
            Py_SETREF(a, ua_py_array_copy(st, a, (ua_typenum)ARR(a)->typenum,
                                          'K', base_of(a)->kind, queue));
        }
    }
    Py_XDECREF(queue);
    return a;
}
