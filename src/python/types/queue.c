/* usmarray.Queue: the default queue of a device's default context, or a
 * queue made anew (with an order and a priority) or over another library's
 * stream.  A queue made anew lives as long as its object; allocations keep
 * the object of their queue alive. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/errors.h"
#include "python/base/freelist.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/devices.h"

static ua_py_queue *
q(PyObject *self)
{
    return (ua_py_queue *)self;
}

/* The context argument of Queue() and from_stream(): None or a Context
 * of the device. */
static int
check_context(ua_state *st, PyObject *context, ua_device *d)
{
    if (context == Py_None) {
        return 0;
    }
    if (!Py_IS_TYPE(context, st->Context_Type)) {
        PyErr_Format(PyExc_TypeError,
                     "context must be a usmarray.Context or None, not %.100s",
                     Py_TYPE(context)->tp_name);
        return -1;
    }
    ua_context *c = ((ua_py_context *)context)->context;
    if (ua_context_device(c) != d) {
        PyErr_Format(PyExc_ValueError,
                     "device %s is not in the given context of %s",
                     ua_device_filter_string(d),
                     ua_device_filter_string(ua_context_device(c)));
        return -1;
    }
    return 0;
}

/* The device a Queue() or from_stream() call names, from its device and
 * context arguments. */
static ua_device *
device_named(ua_state *st, PyObject *device, PyObject *context)
{
    if (device == Py_None && context != Py_None &&
        Py_IS_TYPE(context, st->Context_Type)) {
        return ua_context_device(((ua_py_context *)context)->context);
    }
    ua_device *d = ua_py_as_device(st, device, "device");
    return d != NULL && check_context(st, context, d) == 0 ? d : NULL;
}

/* ------------------------------------- queues of other libraries' handles */

PyObject *
ua_py_adopted_queue_count(PyObject *module, PyObject *Py_UNUSED(a))
{
    ua_state *st = PyModule_GetState(module);
    return PyLong_FromSize_t(st->nadopted);
}

static int
parse_priority(PyObject *priority, ua_queue_props *props)
{
    if (priority == Py_None) {
        return 0;
    }
    Py_ssize_t p;
    if (ua_py_index(priority, "priority", &p) < 0) {
        return -1;
    }
    if (p < INT_MIN || p > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "priority %zd is out of range", p);
        return -1;
    }
    props->has_priority = true;
    props->priority = (int)p;
    return 0;
}

static PyObject *
create_queue(ua_state *st, ua_device *d, PyObject *in_order,
             PyObject *priority)
{
    ua_queue_props props = {.in_order = true};
    /* Only a bool, as copy= takes: by truth value "no" meant in order. */
    if (in_order != Py_None && !PyBool_Check(in_order)) {
        PyErr_Format(PyExc_TypeError,
                     "in_order must be a bool or None, not %.100s",
                     Py_TYPE(in_order)->tp_name);
        return NULL;
    }
    if (in_order != Py_None) {
        props.in_order = in_order == Py_True;
    }
    if (parse_priority(priority, &props) < 0) {
        return NULL;
    }
    ua_context *c;
    ua_queue *queue;
    ua_status code = ua_device_default_context(d, &c);
    if (code == UA_OK) {
        code = ua_queue_create(c, &props, &queue);
    }
    if (code != UA_OK) {
        return ua_py_raise_core(st, code);
    }
    return ua_py_wrap_new_queue(st, d, queue, NULL);
}

static bool
is_foreign(ua_state *st, PyObject *obj)
{
    return obj != Py_None && !PyUnicode_Check(obj) &&
           !Py_IS_TYPE(obj, st->Device_Type) &&
           !Py_IS_TYPE(obj, st->Queue_Type) &&
           !Py_IS_TYPE(obj, st->Context_Type);
}

static PyObject *
queue_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"device", "context", "in_order", "priority",
                             NULL};
    PyObject *device = Py_None, *context = Py_None, *in_order = Py_None,
             *priority = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O$OOO:Queue", kwlist,
                                     &device, &context, &in_order,
                                     &priority)) {
        return NULL;
    }
    ua_state *st = ua_state_of_type(type);
    if (is_foreign(st, device) && context == Py_None && in_order == Py_None &&
        priority == Py_None) {
        /* Another library's queue (dpctl's SyclQueue, an array's
         * sycl_queue) is that very queue, as dpctl.SyclQueue(q) is. */
        return ua_py_as_queue(st, device, "device");
    }
    ua_device *d = device_named(st, device, context);
    if (d == NULL) {
        return NULL;
    }
    if (in_order != Py_None || priority != Py_None) {
        return create_queue(st, d, in_order, priority);
    }
    return ua_py_default_queue(st, d);
}

static PyObject *
queue_from_stream(PyObject *cls, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"stream", "device", "context", "owner", NULL};
    PyObject *stream, *device = Py_None, *context = Py_None, *owner = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O$OO:from_stream",
                                     kwlist, &stream, &device, &context,
                                     &owner)) {
        return NULL;
    }
    ua_state *st = ua_state_of_type((PyTypeObject *)cls);
    Py_ssize_t handle;
    if (ua_py_index(stream, "stream", &handle) < 0) {
        return NULL;
    }
    ua_device *d = device_named(st, device, context);
    if (d == NULL) {
        return NULL;
    }
    ua_context *c;
    ua_queue *queue;
    ua_status code = ua_device_default_context(d, &c);
    if (code == UA_OK) {
        code = ua_queue_wrap_stream(c, (uintptr_t)handle, &queue);
    }
    if (code != UA_OK) {
        return ua_py_raise_core(st, code);
    }
    return ua_py_wrap_new_queue(st, d, queue, owner == Py_None ? NULL : owner);
}

static PyObject *
queue_get_priority(PyObject *self, void *Py_UNUSED(c))
{
    int p;
    if (!ua_queue_priority(q(self)->queue, &p)) {
        Py_RETURN_NONE;
    }
    return PyLong_FromLong(p);
}

static PyObject *
queue_get_is_default(PyObject *self, void *Py_UNUSED(c))
{
    return PyBool_FromLong(ua_queue_is_default(q(self)->queue));
}

static PyObject *
queue_get_stream(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromSize_t(ua_queue_stream_handle(q(self)->queue));
}

static PyObject *
queue_priorities(PyObject *self, PyObject *Py_UNUSED(a))
{
    int least, greatest;
    ua_status code = ua_device_queue_priorities(
        ua_queue_device(q(self)->queue), &least, &greatest);
    if (code != UA_OK) {
        ua_error_clear();
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(ii)", least, greatest);
}

static PyObject *
queue_get_device(PyObject *self, void *Py_UNUSED(c))
{
    return Py_NewRef(q(self)->device);
}

static PyObject *
queue_get_context(PyObject *self, void *Py_UNUSED(c))
{
    return Py_NewRef(q(self)->context);
}

static PyObject *
queue_wait(PyObject *self, PyObject *Py_UNUSED(a))
{
    ua_status code;
    Py_BEGIN_ALLOW_THREADS
    code = ua_queue_wait(q(self)->queue);
    Py_END_ALLOW_THREADS
    if (code != UA_OK) {
        return ua_py_raise_core(ua_state_of(self), code);
    }
    Py_RETURN_NONE;
}

int
ua_py_queue_settle(ua_state *st, PyObject *queue)
{
    ua_queue *handle = q(queue)->queue;
    if (!ua_queue_may_be_busy(handle)) {
        return 0;
    }
    ua_status code;
    Py_BEGIN_ALLOW_THREADS
    code = ua_queue_wait(handle);
    Py_END_ALLOW_THREADS
    return code == UA_OK ? 0 : ua_py_fail_core(st, code);
}

static PyObject *
queue_get_capsule(PyObject *self, PyObject *Py_UNUSED(a))
{
    const char *name;
    void *handle;
    ua_status code = ua_queue_export_native(q(self)->queue, &name, &handle);
    return code == UA_OK ? ua_py_native_capsule(name, handle)
                         : ua_py_raise_core(ua_state_of(self), code);
}

/* dpctl's SyclQueue over the same queue: the capsule of our queue is
 * dpctl's own form.  dpctl is imported here, at first use, so that the
 * package runs without it. */
static PyObject *
dpctl_queue_of(ua_state *st, PyObject *queue)
{
    const char *name;
    void *handle;
    if (ua_queue_export_native(q(queue)->queue, &name, &handle) != UA_OK) {
        ua_error_clear();
        PyErr_Format(
            PyExc_AttributeError,
            "memory of %s has no SYCL queue: sycl_queue, "
            "sycl_device and sycl_context are a SYCL backend's",
            ua_device_filter_string(ua_queue_device(q(queue)->queue)));
        return NULL;
    }
    PyObject *capsule = ua_py_native_capsule(name, handle);
    PyObject *dpctl = capsule ? PyImport_ImportModule("dpctl") : NULL;
    if (capsule != NULL && dpctl == NULL &&
        PyErr_ExceptionMatches(PyExc_ImportError)) {
        PyErr_SetString(PyExc_AttributeError,
                        "sycl_queue, sycl_device and sycl_context are dpctl "
                        "objects, and dpctl cannot be imported");
    }
    PyObject *result =
        dpctl ? PyObject_CallMethod(dpctl, "SyclQueue", "(O)", capsule) : NULL;
    Py_XDECREF(dpctl);
    Py_XDECREF(capsule);
    (void)st;
    return result;
}

PyObject *
ua_py_queue_dpctl(ua_state *st, PyObject *queue, ua_py_dpctl_object which)
{
    PyObject *sycl_queue = dpctl_queue_of(st, queue);
    if (sycl_queue == NULL || which == UA_PY_SYCL_QUEUE) {
        return sycl_queue;
    }
    PyObject *result = PyObject_GetAttrString(
        sycl_queue,
        which == UA_PY_SYCL_DEVICE ? "sycl_device" : "sycl_context");
    Py_DECREF(sycl_queue);
    return result;
}

static PyObject *
queue_get_dpctl(PyObject *self, void *which)
{
    return ua_py_queue_dpctl(ua_state_of(self), self,
                             (ua_py_dpctl_object)(intptr_t)which);
}

static PyObject *
queue_repr(PyObject *self)
{
    ua_queue *queue = q(self)->queue;
    const char *where = ua_device_filter_string(ua_queue_device(queue));
    int p;
    if (ua_queue_is_wrapped(queue)) {
        char handle[32];
        snprintf(handle, sizeof(handle), "%#zx",
                 (size_t)ua_queue_stream_handle(queue));
        return PyUnicode_FromFormat("<usmarray.Queue on %s over stream %s>",
                                    where, handle);
    }
    if (ua_queue_is_adopted(queue)) {
        return PyUnicode_FromFormat(
            "<usmarray.Queue on %s, another library's queue>", where);
    }
    if (ua_queue_priority(queue, &p)) {
        return PyUnicode_FromFormat("<usmarray.Queue on %s, priority %d>",
                                    where, p);
    }
    return PyUnicode_FromFormat(ua_queue_is_default(queue)
                                    ? "<usmarray.Queue on %s>"
                                    : "<usmarray.Queue on %s, new>",
                                where);
}

static Py_hash_t
queue_hash(PyObject *self)
{
    return (Py_hash_t)((uintptr_t)q(self)->queue >> 4);
}

static PyObject *
queue_richcompare(PyObject *self, PyObject *other, int op)
{
    if (!Py_IS_TYPE(other, Py_TYPE(self)) || (op != Py_EQ && op != Py_NE)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    int same = q(self)->queue == q(other)->queue;
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static PyObject *
queue_reduce(PyObject *self, PyObject *Py_UNUSED(a))
{
    if (q(self)->owned) {
        PyErr_SetString(PyExc_TypeError,
                        "only default queues can be pickled: a queue made "
                        "anew or over a stream exists in one process");
        return NULL;
    }
    return Py_BuildValue("O(O)", (PyObject *)Py_TYPE(self), q(self)->device);
}

/* A GC type for the reason device.c gives. */
static int
queue_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(q(self)->device);
    Py_VISIT(q(self)->context);
    Py_VISIT(q(self)->owner);
    return 0;
}

static void
queue_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (q(self)->owned) {
        /* Waits for the queue's work: without the GIL. */
        ua_queue *queue = q(self)->queue;
        if (ua_queue_is_adopted(queue)) {
            ua_py_forget_adopted_queue(ua_state_of(self), self);
        }
        Py_BEGIN_ALLOW_THREADS
        ua_queue_destroy(queue);
        Py_END_ALLOW_THREADS
    }
    Py_XDECREF(q(self)->owner);
    Py_XDECREF(q(self)->device);
    Py_XDECREF(q(self)->context);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyGetSetDef queue_getset[] = {
    {"device", queue_get_device, NULL, "The device the queue feeds.", NULL},
    {"context", queue_get_context, NULL, "The queue's context.", NULL},
    {"priority", queue_get_priority, NULL,
     "The priority the queue was made with, or None.", NULL},
    {"is_default", queue_get_is_default, NULL,
     "Whether this is the default queue of its device.", NULL},
    {"stream", queue_get_stream, NULL,
     "The driver's handle of the queue's stream (CAI's \"stream\"); 0 "
     "where the backend has no streams.",
     NULL},
    UA_PY_DPCTL_GETSET(queue_get_dpctl, "this"),
    {0},
};

static PyMethodDef queue_methods[] = {
    {"wait", queue_wait, METH_NOARGS, UA_DOC_QUEUE_WAIT},
    {"from_stream", (PyCFunction)(void (*)(void))queue_from_stream,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS, UA_DOC_QUEUE_FROM_STREAM},
    {"priorities", queue_priorities, METH_NOARGS, UA_DOC_QUEUE_PRIORITIES},
    {"__reduce__", queue_reduce, METH_NOARGS, NULL},
    {"_get_capsule", queue_get_capsule, METH_NOARGS,
     "_get_capsule()\n--\n\nA new capsule holding a copy of the queue's "
     "native handle, under its backend's capsule name (the one "
     "dpctl.SyclQueue accepts); ValueError on backends without such "
     "handles."},
    {0},
};

static PyType_Slot queue_slots[] = {
    {Py_tp_doc, UA_DOC_QUEUE},
    {Py_tp_new, queue_new},
    {Py_tp_dealloc, queue_dealloc},
    {Py_tp_traverse, queue_traverse},
    {Py_tp_repr, queue_repr},
    {Py_tp_hash, queue_hash},
    {Py_tp_richcompare, queue_richcompare},
    {Py_tp_getset, queue_getset},
    {Py_tp_methods, queue_methods},
    {0, NULL},
};

static PyType_Spec queue_spec = {
    .name = "usmarray.Queue",
    .basicsize = sizeof(ua_py_queue),
    .flags =
        Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = queue_slots,
};

int
ua_py_queue_add_type(PyObject *module, ua_state *st)
{
    st->Queue_Type =
        (PyTypeObject *)PyType_FromModuleAndSpec(module, &queue_spec, NULL);
    return st->Queue_Type == NULL ? -1
                                  : PyModule_AddType(module, st->Queue_Type);
}
