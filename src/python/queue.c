/* usmarray.Queue: the default queue of a device's default context. */
#include "binding.h"

static ua_py_queue *
q(PyObject *self)
{
    return (ua_py_queue *)self;
}

static PyObject *
queue_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"device", "context", NULL};
    PyObject *device = Py_None, *context = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O$O:Queue", kwlist,
                                     &device, &context)) {
        return NULL;
    }
    ua_state *st = ua_state_of_type(type);
    if (context != Py_None && !Py_IS_TYPE(context, st->Context_Type)) {
        PyErr_Format(PyExc_TypeError,
                     "context must be a usmarray.Context or None, not %.100s",
                     Py_TYPE(context)->tp_name);
        return NULL;
    }
    ua_device *d;
    if (device == Py_None && context != Py_None) {
        d = ua_context_device(((ua_py_context *)context)->context);
    }
    else if ((d = ua_py_as_device(st, device, "device")) == NULL) {
        return NULL;
    }
    PyObject *queue = ua_py_default_queue(st, d);
    if (queue != NULL && context != Py_None && q(queue)->context != context) {
        PyErr_Format(PyExc_ValueError,
                     "device %s is not in the given context of %s",
                     ua_device_filter_string(d),
                     ua_device_filter_string(ua_context_device(
                         ((ua_py_context *)context)->context)));
        Py_CLEAR(queue);
    }
    return queue;
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

static PyObject *
queue_get_capsule(PyObject *self, PyObject *Py_UNUSED(a))
{
    const char *name;
    void *handle;
    ua_status code = ua_queue_export_native(q(self)->queue, &name, &handle);
    return code == UA_OK ? ua_py_native_capsule(name, handle)
                         : ua_py_raise_core(ua_state_of(self), code);
}

static PyObject *
queue_repr(PyObject *self)
{
    return PyUnicode_FromFormat(
        "<usmarray.Queue on %s>",
        ua_device_filter_string(ua_queue_device(q(self)->queue)));
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
    return Py_BuildValue("O(O)", (PyObject *)Py_TYPE(self), q(self)->device);
}

/* A GC type for the reason device.c gives. */
static int
queue_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(q(self)->device);
    Py_VISIT(q(self)->context);
    return 0;
}

static void
queue_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Py_XDECREF(q(self)->device);
    Py_XDECREF(q(self)->context);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyGetSetDef queue_getset[] = {
    {"device", queue_get_device, NULL, "The device the queue feeds.", NULL},
    {"context", queue_get_context, NULL, "The queue's context.", NULL},
    {NULL},
};

static PyMethodDef queue_methods[] = {
    {"wait", queue_wait, METH_NOARGS, UA_DOC_QUEUE_WAIT},
    {"__reduce__", queue_reduce, METH_NOARGS, NULL},
    {"_get_capsule", queue_get_capsule, METH_NOARGS,
     "_get_capsule()\n--\n\nA new capsule holding a copy of the queue's "
     "native handle ('SyclQueueRef' for SYCL queues), which dpctl.SyclQueue "
     "accepts; ValueError on backends without such handles."},
    {NULL},
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
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE |
             Py_TPFLAGS_HAVE_GC,
    .slots = queue_slots,
};

int
ua_py_queue_add_type(PyObject *module, ua_state *st)
{
    st->Queue_Type = (PyTypeObject *)PyType_FromModuleAndSpec(
        module, &queue_spec, NULL);
    return st->Queue_Type == NULL ? -1
                                  : PyModule_AddType(module, st->Queue_Type);
}
