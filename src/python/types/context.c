/* usmarray.Context: the default context of a device, one per device. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/errors.h"
#include "python/base/freelist.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/devices.h"

static PyObject *
context_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"device", NULL};
    PyObject *device = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:Context", kwlist,
                                     &device)) {
        return NULL;
    }
    ua_state *st = ua_state_of_type(type);
    ua_device *d = ua_py_as_device(st, device, "device");
    return d ? ua_py_default_context(st, d) : NULL;
}

static ua_py_context *
ctx(PyObject *self)
{
    return (ua_py_context *)self;
}

static PyObject *
context_get_device(PyObject *self, void *Py_UNUSED(c))
{
    return Py_NewRef(ctx(self)->device);
}

static PyObject *
context_get_devices(PyObject *self, void *Py_UNUSED(c))
{
    return PyTuple_Pack(1, ctx(self)->device);
}

static PyObject *
context_get_capsule(PyObject *self, PyObject *Py_UNUSED(a))
{
    const char *name;
    void *handle;
    ua_status code =
        ua_context_export_native(ctx(self)->context, &name, &handle);
    return code == UA_OK ? ua_py_native_capsule(name, handle)
                         : ua_py_raise_core(ua_state_of(self), code);
}

static PyObject *
context_repr(PyObject *self)
{
    ua_device *d = ua_context_device(ctx(self)->context);
    return PyUnicode_FromFormat("<usmarray.Context for %s>",
                                ua_device_filter_string(d));
}

static Py_hash_t
context_hash(PyObject *self)
{
    return (Py_hash_t)((uintptr_t)ctx(self)->context >> 4);
}

static PyObject *
context_richcompare(PyObject *self, PyObject *other, int op)
{
    if (!Py_IS_TYPE(other, Py_TYPE(self)) || (op != Py_EQ && op != Py_NE)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    int same = ctx(self)->context == ctx(other)->context;
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static PyObject *
context_reduce(PyObject *self, PyObject *Py_UNUSED(a))
{
    return Py_BuildValue("O(O)", (PyObject *)Py_TYPE(self), ctx(self)->device);
}

/* A GC type for the reason device.c gives. */
static int
context_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(ctx(self)->device);
    return 0;
}

static void
context_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Py_XDECREF(ctx(self)->device);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *
context_get_pooled_nbytes(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromSize_t(ua_context_pooled_bytes(ctx(self)->context));
}

static PyObject *
context_release_pool(PyObject *self, PyObject *Py_UNUSED(a))
{
    ua_context *c = ctx(self)->context;
    Py_BEGIN_ALLOW_THREADS
    ua_context_release_pool(c);
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}

/* The usm_type argument of the pool's methods: "device" when absent. */
static int
parse_kind(PyObject *args, PyObject *kwargs, const char *format,
           ua_usm_kind *kind)
{
    static char *kwlist[] = {"usm_type", NULL};
    PyObject *usm_type = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, kwlist,
                                     &usm_type)) {
        return -1;
    }
    *kind = UA_USM_DEVICE;
    return usm_type == NULL ? 0 : ua_py_parse_usm_type(usm_type, kind);
}

static PyObject *
context_used_nbytes(PyObject *self, PyObject *args, PyObject *kwargs)
{
    ua_usm_kind kind;
    if (parse_kind(args, kwargs, "|O:used_nbytes", &kind) < 0) {
        return NULL;
    }
    return PyLong_FromSize_t(ua_context_used_bytes(ctx(self)->context, kind));
}

static PyObject *
context_held_nbytes(PyObject *self, PyObject *args, PyObject *kwargs)
{
    ua_usm_kind kind;
    if (parse_kind(args, kwargs, "|O:held_nbytes", &kind) < 0) {
        return NULL;
    }
    return PyLong_FromSize_t(ua_context_held_bytes(ctx(self)->context, kind));
}

static PyObject *
context_get_limit(PyObject *self, PyObject *args, PyObject *kwargs)
{
    ua_usm_kind kind;
    if (parse_kind(args, kwargs, "|O:get_limit", &kind) < 0) {
        return NULL;
    }
    size_t limit = ua_context_limit(ctx(self)->context, kind);
    return limit == SIZE_MAX ? Py_NewRef(Py_None) : PyLong_FromSize_t(limit);
}

/* None, or a count of bytes from 0 to SIZE_MAX - 1. */
static int
parse_limit(PyObject *obj, size_t *out)
{
    if (obj == Py_None) {
        *out = SIZE_MAX;
        return 0;
    }
    PyObject *n = PyNumber_Index(obj);
    if (n == NULL) {
        return -1;
    }
    *out = PyLong_AsSize_t(n);
    if (*out == SIZE_MAX) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError,
                     "the limit must be None or a number of bytes from 0 to "
                     "%zu, not %S",
                     SIZE_MAX - 1, n);
        Py_DECREF(n);
        return -1;
    }
    Py_DECREF(n);
    return 0;
}

static PyObject *
context_set_limit(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"nbytes", "usm_type", NULL};
    PyObject *nbytes, *usm_type = NULL;
    ua_usm_kind kind = UA_USM_DEVICE;
    size_t limit;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:set_limit", kwlist,
                                     &nbytes, &usm_type) ||
        (usm_type != NULL && ua_py_parse_usm_type(usm_type, &kind) < 0) ||
        parse_limit(nbytes, &limit) < 0) {
        return NULL;
    }
    ua_context_set_limit(ctx(self)->context, kind, limit);
    Py_RETURN_NONE;
}

static PyGetSetDef context_getset[] = {
    {"pooled_nbytes", context_get_pooled_nbytes, NULL,
     "Bytes of freed allocations the context keeps for reuse.", NULL},
    {"device", context_get_device, NULL, "The device of the context.", NULL},
    {"devices", context_get_devices, NULL, "The devices of the context.",
     NULL},
    {0},
};

static PyMethodDef context_methods[] = {
    {"__reduce__", context_reduce, METH_NOARGS, NULL},
    {"_get_capsule", context_get_capsule, METH_NOARGS,
     "_get_capsule()\n--\n\nA new capsule holding a copy of the context's "
     "native handle, under its backend's capsule name (the one "
     "dpctl.SyclContext accepts); ValueError on backends without such "
     "handles."},
    {"release_pool", context_release_pool, METH_NOARGS,
     UA_DOC_CONTEXT_RELEASE_POOL},
    {"free_all_blocks", context_release_pool, METH_NOARGS,
     UA_DOC_CONTEXT_FREE_ALL_BLOCKS},
    {"used_nbytes", (PyCFunction)(void (*)(void))context_used_nbytes,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_CONTEXT_USED_NBYTES},
    {"held_nbytes", (PyCFunction)(void (*)(void))context_held_nbytes,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_CONTEXT_HELD_NBYTES},
    {"set_limit", (PyCFunction)(void (*)(void))context_set_limit,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_CONTEXT_SET_LIMIT},
    {"get_limit", (PyCFunction)(void (*)(void))context_get_limit,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_CONTEXT_GET_LIMIT},
    {0},
};

static PyType_Slot context_slots[] = {
    {Py_tp_doc, UA_DOC_CONTEXT},
    {Py_tp_new, context_new},
    {Py_tp_dealloc, context_dealloc},
    {Py_tp_traverse, context_traverse},
    {Py_tp_repr, context_repr},
    {Py_tp_hash, context_hash},
    {Py_tp_richcompare, context_richcompare},
    {Py_tp_getset, context_getset},
    {Py_tp_methods, context_methods},
    {0, NULL},
};

static PyType_Spec context_spec = {
    .name = "usmarray.Context",
    .basicsize = sizeof(ua_py_context),
    .flags =
        Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = context_slots,
};

int
ua_py_context_add_type(PyObject *module, ua_state *st)
{
    st->Context_Type =
        (PyTypeObject *)PyType_FromModuleAndSpec(module, &context_spec, NULL);
    return st->Context_Type == NULL
               ? -1
               : PyModule_AddType(module, st->Context_Type);
}
