/* usmarray.Device, the caches of per-device objects, and the resolution of
 * device-like and queue-like arguments. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/errors.h"
#include "python/base/freelist.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/devices.h"

#include <string.h>

static int
ensure_caches(ua_state *st)
{
    if (st->devices != NULL) {
        return 0;
    }
    size_t n = ua_device_count();
    size_t alloc = n ? n : 1;
    st->devices = PyMem_Calloc(alloc, sizeof(PyObject *));
    st->contexts = PyMem_Calloc(alloc, sizeof(PyObject *));
    st->queues = PyMem_Calloc(alloc, sizeof(PyObject *));
    if (!st->devices || !st->contexts || !st->queues) {
        PyMem_Free(st->devices);
        PyMem_Free(st->contexts);
        PyMem_Free(st->queues);
        st->devices = st->contexts = st->queues = NULL;
        PyErr_NoMemory();
        return -1;
    }
    st->ndevices = n;
    return 0;
}

PyObject *
ua_py_device_of(ua_state *st, ua_device *d)
{
    if (ensure_caches(st) < 0) {
        return NULL;
    }
    size_t id = ua_device_id(d);
    if (st->devices[id] == NULL) {
        ua_py_device *obj = PyObject_GC_New(ua_py_device, st->Device_Type);
        if (obj == NULL) {
            return NULL;
        }
        obj->device = d;
        PyObject_GC_Track(obj);
        st->devices[id] = (PyObject *)obj;
    }
    return Py_NewRef(st->devices[id]);
}

PyObject *
ua_py_default_context(ua_state *st, ua_device *d)
{
    if (ensure_caches(st) < 0) {
        return NULL;
    }
    size_t id = ua_device_id(d);
    if (st->contexts[id] == NULL) {
        ua_context *c;
        ua_status code = ua_device_default_context(d, &c);
        if (code != UA_OK) {
            return ua_py_raise_core(st, code);
        }
        PyObject *dev = ua_py_device_of(st, d);
        if (dev == NULL) {
            return NULL;
        }
        ua_py_context *obj = PyObject_GC_New(ua_py_context, st->Context_Type);
        if (obj == NULL) {
            Py_DECREF(dev);
            return NULL;
        }
        obj->context = c;
        obj->device = dev;
        PyObject_GC_Track(obj);
        st->contexts[id] = (PyObject *)obj;
    }
    return Py_NewRef(st->contexts[id]);
}

PyObject *
ua_py_default_queue(ua_state *st, ua_device *d)
{
    if (ensure_caches(st) < 0) {
        return NULL;
    }
    size_t id = ua_device_id(d);
    if (st->queues[id] == NULL) {
        PyObject *ctx = ua_py_default_context(st, d);
        if (ctx == NULL) {
            return NULL;
        }
        ua_queue *q;
        ua_status code =
            ua_context_default_queue(((ua_py_context *)ctx)->context, &q);
        if (code != UA_OK) {
            Py_DECREF(ctx);
            return ua_py_raise_core(st, code);
        }
        ua_py_queue *obj = PyObject_GC_New(ua_py_queue, st->Queue_Type);
        if (obj == NULL) {
            Py_DECREF(ctx);
            return NULL;
        }
        obj->queue = q;
        obj->owned = false;
        obj->owner = NULL;
        obj->context = ctx;
        obj->device = Py_NewRef(((ua_py_context *)ctx)->device);
        PyObject_GC_Track(obj);
        st->queues[id] = (PyObject *)obj;
    }
    return Py_NewRef(st->queues[id]);
}

/* Queue objects over queues made anew, and those over other libraries'
 * handles, live here beside the default queues, not in queue.c: the
 * resolution of arguments below makes them, and queue.c calls that
 * resolution, so that the two files would call each other. */

PyObject *
ua_py_wrap_new_queue(ua_state *st, ua_device *d, ua_queue *queue,
                     PyObject *owner)
{
    PyObject *ctx = ua_py_default_context(st, d);
    ua_py_queue *obj =
        ctx ? PyObject_GC_New(ua_py_queue, st->Queue_Type) : NULL;
    if (obj == NULL) {
        Py_XDECREF(ctx);
        ua_queue_destroy(queue);
        return NULL;
    }
    obj->queue = queue;
    obj->owned = true;
    obj->owner = Py_XNewRef(owner);
    obj->context = ctx;
    obj->device = Py_NewRef(((ua_py_context *)ctx)->device);
    PyObject_GC_Track(obj);
    return (PyObject *)obj;
}

/* The live Queue over the queue a native handle of another library stands
 * for (a new reference), or NULL, without an exception, where none is. */
static PyObject *
adopted_queue(ua_state *st, const char *name, void *handle)
{
    for (size_t i = 0; i < st->nadopted; i++) {
        if (ua_queue_is_native(((ua_py_queue *)st->adopted[i])->queue, name,
                               handle)) {
            return Py_NewRef(st->adopted[i]);
        }
    }
    return NULL;
}

static int
remember_adopted(ua_state *st, PyObject *queue)
{
    if (st->nadopted == st->adopted_capacity) {
        size_t n = st->adopted_capacity ? 2 * st->adopted_capacity : 8;
        PyObject **grown = PyMem_Realloc(st->adopted, n * sizeof(*grown));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        st->adopted = grown;
        st->adopted_capacity = n;
    }
    st->adopted[st->nadopted++] = queue;
    return 0;
}

void
ua_py_forget_adopted_queue(ua_state *st, PyObject *queue)
{
    for (size_t i = 0; st != NULL && i < st->nadopted; i++) {
        if (st->adopted[i] == queue) {
            st->adopted[i] = st->adopted[--st->nadopted];
            return;
        }
    }
}

PyObject *
ua_py_wrap_adopted_queue(ua_state *st, ua_queue *queue)
{
    PyObject *obj =
        ua_py_wrap_new_queue(st, ua_queue_device(queue), queue, NULL);
    if (obj != NULL && remember_adopted(st, obj) < 0) {
        Py_CLEAR(obj);
    }
    return obj;
}

static ua_device *
select_by_filter(ua_state *st, PyObject *str)
{
    Py_ssize_t len;
    const char *filter = PyUnicode_AsUTF8AndSize(str, &len);
    if (filter == NULL) {
        return NULL;
    }
    /* The core reads a C string: an embedded NUL would cut it short and
     * select another device than the one named. */
    if ((size_t)len != strlen(filter)) {
        PyErr_SetString(PyExc_ValueError,
                        "filter string must not contain a null character");
        return NULL;
    }
    ua_device *d;
    ua_status code = ua_device_select(filter, &d);
    if (code != UA_OK) {
        return (ua_device *)ua_py_raise_core(st, code);
    }
    return d;
}

/* What a device or queue argument may be, for the message of a refusal. */
#define ACCEPTED                                                              \
    "a usmarray.Device, Queue or Context, a dpctl SyclDevice, SyclQueue or "  \
    "SyclContext, an array's .device, a filter string or None"

/* The device of another library's object, by what it answers rather than
 * by its type, so that dpctl stays unimported: a queue or context handle
 * (_get_capsule(), as dpctl's SyclQueue and SyclContext give), an object
 * holding a queue (sycl_queue: dpctl's and dpnp's arrays and their
 * .device), or a device that names itself by a filter string (dpctl's
 * SyclDevice).  Each resolves to the same underlying device. */
static ua_device *
foreign_device(ua_state *st, PyObject *obj, const char *what)
{
    PyObject *attr;
    int has = ua_py_has_attr(obj, st->s_get_capsule);
    if (has == 0) {
        has = ua_py_has_attr(obj, st->s_sycl_queue);
    }
    if (has != 0) {
        PyObject *q = has > 0 ? ua_py_as_queue(st, obj, what) : NULL;
        ua_device *d = q ? ua_queue_device(((ua_py_queue *)q)->queue) : NULL;
        Py_XDECREF(q);
        return d;
    }
    has = ua_py_optional_attr(obj, st->s_filter_string, &attr);
    if (has > 0 && PyUnicode_Check(attr)) {
        ua_device *d = select_by_filter(st, attr);
        Py_DECREF(attr);
        return d;
    }
    if (has > 0) {
        Py_DECREF(attr);
    }
    if (has >= 0) {
        PyErr_Format(PyExc_TypeError, "%s must be " ACCEPTED ", not %.100s",
                     what, Py_TYPE(obj)->tp_name);
    }
    return NULL;
}

ua_device *
ua_py_as_device(ua_state *st, PyObject *obj, const char *what)
{
    if (obj == NULL || obj == Py_None) {
        ua_device *d;
        ua_status code = ua_device_default(&d);
        return code == UA_OK ? d : (ua_device *)ua_py_raise_core(st, code);
    }
    if (Py_IS_TYPE(obj, st->Device_Type)) {
        return ((ua_py_device *)obj)->device;
    }
    if (Py_IS_TYPE(obj, st->Queue_Type)) {
        return ua_queue_device(((ua_py_queue *)obj)->queue);
    }
    if (Py_IS_TYPE(obj, st->Context_Type)) {
        return ua_context_device(((ua_py_context *)obj)->context);
    }
    if (PyUnicode_Check(obj)) {
        return select_by_filter(st, obj);
    }
    return foreign_device(st, obj, what);
}

/* The queue of a capsule's handle.  A queue one of our Queues stands for
 * is that Queue.  Otherwise, where the caller names the queue for its own
 * work (adopt), a Queue over that very queue; where it only says whose data
 * comes in (an interface's syclobj), the device's default queue, ordered
 * after the handle's work, so that imports combine with our arrays. */
static PyObject *
queue_from_capsule(ua_state *st, PyObject *capsule, const char *what,
                   const char *via, bool adopt)
{
    const char *name = PyCapsule_GetName(capsule);
    /* The names the backends' tables define (the source document's forms),
     * whether or not a backend that interprets them is available here. */
    if (!ua_is_native_capsule_name(name)) {
        if (!PyErr_Occurred()) {
            char defined[128];
            ua_native_capsule_names(defined, sizeof(defined), " and ");
            PyErr_Format(PyExc_TypeError,
                         "%s is a capsule %s%s%s%s; only %s capsules are "
                         "defined",
                         what, name ? "named '" : "without a name",
                         name ? name : "", name ? "'" : "", via, defined);
        }
        return NULL;
    }
    void *handle = PyCapsule_GetPointer(capsule, name);
    if (handle == NULL) {
        return NULL;
    }
    PyObject *known = adopted_queue(st, name, handle);
    if (known != NULL) {
        return known;
    }
    ua_queue *q;
    bool made = false;
    ua_status code = adopt ? ua_queue_adopt_native(name, handle, &q, &made)
                           : ua_queue_adopt(name, handle, &q);
    if (code != UA_OK) {
        /* A defined name no backend here interprets is a value problem. */
        return ua_py_raise_core_prefixed(
            st, code == UA_ERR_TYPE ? UA_ERR_VALUE : code, "%s%s", what, via);
    }
    return made ? ua_py_wrap_adopted_queue(st, q)
                : ua_py_default_queue(st, ua_queue_device(q));
}

static PyObject *
queue_from_capsule_provider(ua_state *st, PyObject *obj, const char *what,
                            bool adopt)
{
    PyObject *capsule = PyObject_CallMethodNoArgs(obj, st->s_get_capsule);
    if (capsule == NULL) {
        return NULL;
    }
    PyObject *q = NULL;
    if (PyCapsule_CheckExact(capsule)) {
        q = queue_from_capsule(st, capsule, what, " (from _get_capsule())",
                               adopt);
    } else {
        char defined[128];
        ua_native_capsule_names(defined, sizeof(defined), " or ");
        PyErr_Format(PyExc_TypeError,
                     "%s._get_capsule() returned %.100s, not a %s capsule",
                     what, Py_TYPE(capsule)->tp_name, defined);
    }
    Py_DECREF(capsule);
    return q;
}

/* A consumer renames the capsule "used_..." and copies the handle (as
 * dpctl does): the handle is freed with the capsule under either name. */
static void
release_native_capsule(PyObject *capsule)
{
    const char *name = PyCapsule_GetName(capsule);
    void *handle = name ? PyCapsule_GetPointer(capsule, name) : NULL;
    if (handle != NULL) {
        ua_release_native_handle(name, handle);
    }
    PyErr_Clear();
}

PyObject *
ua_py_native_capsule(const char *name, void *handle)
{
    PyObject *capsule = PyCapsule_New(handle, name, release_native_capsule);
    if (capsule == NULL) {
        ua_release_native_handle(name, handle);
    }
    return capsule;
}

static PyObject *
as_queue(ua_state *st, PyObject *obj, const char *what, bool adopt)
{
    if (obj != NULL && Py_IS_TYPE(obj, st->Queue_Type)) {
        return Py_NewRef(obj);
    }
    if (obj != NULL && PyCapsule_CheckExact(obj)) {
        return queue_from_capsule(st, obj, what, "", adopt);
    }
    if (obj != NULL && obj != Py_None && !PyUnicode_Check(obj) &&
        !Py_IS_TYPE(obj, st->Device_Type) &&
        !Py_IS_TYPE(obj, st->Context_Type)) {
        PyObject *method;
        int has = ua_py_optional_attr(obj, st->s_get_capsule, &method);
        if (has < 0) {
            return NULL;
        }
        if (has) {
            Py_DECREF(method);
            return queue_from_capsule_provider(st, obj, what, adopt);
        }
        if ((has = ua_py_optional_attr(obj, st->s_sycl_queue, &method)) < 0) {
            return NULL;
        }
        if (has) {
            /* dpctl's and dpnp's arrays and their .device hold a queue.
             * An object that answers with itself must not recurse away. */
            PyObject *q = NULL;
            if (Py_EnterRecursiveCall(" resolving a sycl_queue") == 0) {
                q = as_queue(st, method, what, adopt);
                Py_LeaveRecursiveCall();
            }
            Py_DECREF(method);
            return q;
        }
    }
    ua_device *d = ua_py_as_device(st, obj, what);
    return d ? ua_py_default_queue(st, d) : NULL;
}

PyObject *
ua_py_as_queue(ua_state *st, PyObject *obj, const char *what)
{
    return as_queue(st, obj, what, true);
}

PyObject *
ua_py_as_import_queue(ua_state *st, PyObject *obj, const char *what)
{
    return as_queue(st, obj, what, false);
}

/* ------------------------------------------------------- Device type */

static PyObject *
device_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"filter_string", NULL};
    PyObject *filter = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:Device", kwlist,
                                     &filter)) {
        return NULL;
    }
    /* dpctl's SyclDevice(), SyclQueue and arrays resolve as everywhere a
     * device is taken. */
    ua_state *st = ua_state_of_type(type);
    ua_device *d = ua_py_as_device(st, filter, "filter_string");
    return d ? ua_py_device_of(st, d) : NULL;
}

static ua_device *
dev(PyObject *self)
{
    return ((ua_py_device *)self)->device;
}

static PyObject *
device_get_backend(PyObject *self, void *Py_UNUSED(c))
{
    return PyUnicode_FromString(ua_backend_name(ua_device_backend(dev(self))));
}

static PyObject *
device_get_type(PyObject *self, void *Py_UNUSED(c))
{
    return PyUnicode_FromString(
        ua_device_type_name(ua_device_get_type(dev(self))));
}

static PyObject *
device_get_name(PyObject *self, void *Py_UNUSED(c))
{
    return PyUnicode_FromString(ua_device_name(dev(self)));
}

static PyObject *
device_get_filter(PyObject *self, void *Py_UNUSED(c))
{
    return PyUnicode_FromString(ua_device_filter_string(dev(self)));
}

static PyObject *
device_get_id(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromSize_t(ua_device_id(dev(self)));
}

/* Which field of ua_device_info a getter returns (its closure). */
enum {
    INFO_VENDOR,
    INFO_DRIVER,
    INFO_RUNTIME,
    INFO_ARCHITECTURE,
    INFO_GLOBAL_MEM,
    INFO_COMPUTE_UNITS,
    INFO_FP64,
    INFO_FP16,
    INFO_USM_DEVICE,
    INFO_USM_SHARED,
    INFO_USM_HOST,
    INFO_BLAS,
    INFO_LIBRARIES
};

static PyObject *
device_get_info(PyObject *self, void *which)
{
    ua_device_info info;
    ua_status code = ua_device_get_info(dev(self), &info);
    if (code != UA_OK) {
        return ua_py_raise_core(ua_state_of_type(Py_TYPE(self)), code);
    }
    switch ((intptr_t)which) {
    case INFO_VENDOR:
        return PyUnicode_FromString(info.vendor);
    case INFO_DRIVER:
        return PyUnicode_FromString(info.driver_version);
    case INFO_RUNTIME:
        return PyUnicode_FromString(info.runtime_version);
    case INFO_ARCHITECTURE:
        return PyUnicode_FromString(info.architecture);
    case INFO_GLOBAL_MEM:
        return PyLong_FromUnsignedLongLong(info.global_mem_bytes);
    case INFO_BLAS:
        return PyUnicode_FromString(info.blas);
    case INFO_LIBRARIES:
        return PyUnicode_FromString(info.libraries);
    case INFO_COMPUTE_UNITS:
        return PyLong_FromUnsignedLong(info.compute_units);
    case INFO_FP64:
        return PyBool_FromLong(info.fp64);
    case INFO_FP16:
        return PyBool_FromLong(info.fp16);
    case INFO_USM_DEVICE:
        return PyBool_FromLong(info.usm_device);
    case INFO_USM_SHARED:
        return PyBool_FromLong(info.usm_shared);
    default:
        return PyBool_FromLong(info.usm_host);
    }
}

static PyObject *
device_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<usmarray.Device %s '%s'>",
                                ua_device_filter_string(dev(self)),
                                ua_device_name(dev(self)));
}

static Py_hash_t
device_hash(PyObject *self)
{
    return (Py_hash_t)(ua_device_id(dev(self)) * 1000003u + 0x5a17);
}

static PyObject *
device_richcompare(PyObject *self, PyObject *other, int op)
{
    if (!Py_IS_TYPE(other, Py_TYPE(self)) || (op != Py_EQ && op != Py_NE)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    int same = dev(self) == dev(other);
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static PyObject *
device_reduce(PyObject *self, PyObject *Py_UNUSED(a))
{
    return Py_BuildValue("O(s)", (PyObject *)Py_TYPE(self),
                         ua_device_filter_string(dev(self)));
}

static PyObject *
device_can_access_peer(PyObject *self, PyObject *peer)
{
    ua_state *st = ua_state_of(self);
    ua_device *other = ua_py_as_device(st, peer, "peer");
    bool direct;
    if (other == NULL) {
        return NULL;
    }
    ua_status code = ua_device_peer_access(dev(self), other, &direct);
    return code == UA_OK ? PyBool_FromLong(direct)
                         : ua_py_raise_core(st, code);
}

/* Devices, contexts and queues are GC types that visit their type: the
 * module caches them, and the cycle module -> instance -> type -> module
 * must be collectable.  They need no tp_clear: the module's clear breaks
 * the cycle, and their references never form one among themselves. */
static int
device_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static void
device_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyGetSetDef device_getset[] = {
    {"backend", device_get_backend, NULL, "The backend serving the device.",
     NULL},
    {"device_type", device_get_type, NULL, "'cpu', 'gpu' or 'accelerator'.",
     NULL},
    {"name", device_get_name, NULL, "The device's name.", NULL},
    {"filter_string", device_get_filter, NULL,
     "Canonical 'backend:device_type:relative_id'.", NULL},
    {"id", device_get_id, NULL, "Global index among all devices.", NULL},
    {"vendor", device_get_info, NULL,
     "The device's vendor, as its driver names it ('' where unknown).",
     (void *)INFO_VENDOR},
    {"driver_version", device_get_info, NULL,
     "Version of the driver that serves the device ('' where unknown).",
     (void *)INFO_DRIVER},
    {"runtime_version", device_get_info, NULL,
     "Version of the runtime or compiler the backend uses ('' where none).",
     (void *)INFO_RUNTIME},
    {"architecture", device_get_info, NULL,
     "The device's architecture, such as 'sm_90' or 'x86_64'.",
     (void *)INFO_ARCHITECTURE},
    {"global_mem_size", device_get_info, NULL,
     "Bytes of memory on the device (0 where unknown).",
     (void *)INFO_GLOBAL_MEM},
    {"max_compute_units", device_get_info, NULL,
     "Multiprocessors, cores or execution units (0 where unknown).",
     (void *)INFO_COMPUTE_UNITS},
    /* dpctl's SyclDevice names of the aspects that decide what runs. */
    {"has_aspect_fp64", device_get_info, NULL,
     "Whether float64 and complex128 run on the device.", (void *)INFO_FP64},
    {"has_aspect_fp16", device_get_info, NULL,
     "Whether float16 runs on the device.", (void *)INFO_FP16},
    {"has_aspect_usm_device_allocations", device_get_info, NULL,
     "Whether the device allocates USM device memory.",
     (void *)INFO_USM_DEVICE},
    {"has_aspect_usm_shared_allocations", device_get_info, NULL,
     "Whether the device allocates USM shared memory.",
     (void *)INFO_USM_SHARED},
    {"has_aspect_usm_host_allocations", device_get_info, NULL,
     "Whether the device allocates USM host memory.", (void *)INFO_USM_HOST},
    {"blas", device_get_info, NULL,
     "The BLAS that matrix products call on the device (its path, symbols, "
     "integers and threads), or why none was found and usmarray's loops "
     "compute them ('' where the backend does not say).",
     (void *)INFO_BLAS},
    {"libraries", device_get_info, NULL,
     "The libraries that usmarray.linalg's factorizations and "
     "usmarray.fft's transforms call on the device, or which of them is "
     "missing ('' where the backend does not say).",
     (void *)INFO_LIBRARIES},
    {0},
};

static PyMethodDef device_methods[] = {
    {"__reduce__", device_reduce, METH_NOARGS, NULL},
    {"can_access_peer", device_can_access_peer, METH_O,
     UA_DOC_DEVICE_CAN_ACCESS_PEER},
    {0},
};

static PyType_Slot device_slots[] = {
    {Py_tp_doc, UA_DOC_DEVICE},
    {Py_tp_new, device_new},
    {Py_tp_dealloc, device_dealloc},
    {Py_tp_traverse, device_traverse},
    {Py_tp_repr, device_repr},
    {Py_tp_hash, device_hash},
    {Py_tp_richcompare, device_richcompare},
    {Py_tp_getset, device_getset},
    {Py_tp_methods, device_methods},
    {0, NULL},
};

static PyType_Spec device_spec = {
    .name = "usmarray.Device",
    .basicsize = sizeof(ua_py_device),
    .flags =
        Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = device_slots,
};

int
ua_py_device_add_type(PyObject *module, ua_state *st)
{
    st->Device_Type =
        (PyTypeObject *)PyType_FromModuleAndSpec(module, &device_spec, NULL);
    return st->Device_Type == NULL ? -1
                                   : PyModule_AddType(module, st->Device_Type);
}

/* ----------------------------------------------------- get_devices() */

static int
check_name(PyObject *obj, const char *what, int (*known)(const char *))
{
    if (obj == Py_None) {
        return 0;
    }
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be a str or None, not %.100s",
                     what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    const char *s = PyUnicode_AsUTF8(obj);
    if (s == NULL) {
        return -1;
    }
    if (!known(s)) {
        PyErr_Format(PyExc_ValueError, "%s '%s' is not known", what, s);
        return -1;
    }
    return 0;
}

static int
is_backend_name(const char *s)
{
    for (size_t i = 0; i < ua_backend_count(); i++) {
        if (strcmp(s, ua_backend_name(ua_backend_at(i))) == 0) {
            return 1;
        }
    }
    return 0;
}

static int
is_type_name(const char *s)
{
    for (int t = UA_DEVICE_CPU; t <= UA_DEVICE_ACCELERATOR; t++) {
        if (strcmp(s, ua_device_type_name((ua_device_type)t)) == 0) {
            return 1;
        }
    }
    return 0;
}

static int
device_matches(ua_device *d, PyObject *backend, PyObject *type)
{
    const char *b = backend == Py_None ? NULL : PyUnicode_AsUTF8(backend);
    const char *t = type == Py_None ? NULL : PyUnicode_AsUTF8(type);
    return (b == NULL ||
            strcmp(b, ua_backend_name(ua_device_backend(d))) == 0) &&
           (t == NULL ||
            strcmp(t, ua_device_type_name(ua_device_get_type(d))) == 0);
}

PyObject *
ua_py_get_devices(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"backend", "device_type", NULL};
    PyObject *backend = Py_None, *type = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:get_devices", kwlist,
                                     &backend, &type) ||
        check_name(backend, "backend", is_backend_name) < 0 ||
        check_name(type, "device_type", is_type_name) < 0) {
        return NULL;
    }
    ua_state *st = PyModule_GetState(module);
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list != NULL && i < ua_device_count(); i++) {
        ua_device *d = ua_device_at(i);
        if (!device_matches(d, backend, type)) {
            continue;
        }
        PyObject *obj = ua_py_device_of(st, d);
        if (obj == NULL || PyList_Append(list, obj) < 0) {
            Py_XDECREF(obj);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(obj);
    }
    return list;
}
