/* The Array API's inspection utilities: __array_namespace_info__() and the
 * object it returns, whose methods tell the namespace's capabilities, its
 * devices and the dtypes of each (a device without double precision has
 * neither float64 nor complex128, and float32 and complex64 as its
 * defaults). */
#include "python/base/pyheaders.h"
#include "python/base/docstrings.h"
#include "python/base/dtypes.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/namespace/data_types.h"
#include "python/namespace/info.h"
#include "python/types/devices.h"

#include "core/compute/promote.h"

/* The standard's dtypes, in its order: float16, our extension, is not one
 * of them. */
static const ua_typenum standard_dtypes[] = {
    UA_BOOL,    UA_INT8,      UA_INT16,      UA_INT32,  UA_INT64,
    UA_UINT8,   UA_UINT16,    UA_UINT32,     UA_UINT64, UA_FLOAT32,
    UA_FLOAT64, UA_COMPLEX64, UA_COMPLEX128,
};

/* The device a device= argument names: what the creation functions take
 * (a Device, Queue, Context, filter string, None for the default device,
 * or a queue of another library), without making a context where a
 * device is named. */
static ua_device *
device_arg(ua_state *st, PyObject *obj)
{
    if (obj == Py_None || PyUnicode_Check(obj) ||
        Py_IS_TYPE(obj, st->Device_Type) || Py_IS_TYPE(obj, st->Queue_Type) ||
        Py_IS_TYPE(obj, st->Context_Type)) {
        return ua_py_as_device(st, obj, "device");
    }
    PyObject *queue = ua_py_as_queue(st, obj, "device");
    if (queue == NULL) {
        return NULL;
    }
    ua_device *d = ua_queue_device(((ua_py_queue *)queue)->queue);
    Py_DECREF(queue);
    return d;
}

/* Sets key to the dtype t in dict; -1 with an error. */
static int
set_dtype(ua_state *st, PyObject *dict, const char *key, ua_typenum t)
{
    PyObject *dtype = ua_py_dtype(st, t);
    return dtype == NULL ? -1 : PyDict_SetItemString(dict, key, dtype);
}

static PyObject *
info_capabilities(PyObject *self, PyObject *Py_UNUSED(a))
{
    (void)self;
    return Py_BuildValue("{s:O,s:O,s:i}", "boolean indexing", Py_True,
                         "data-dependent shapes", Py_True, "max dimensions",
                         UA_MAXDIMS);
}

static PyObject *
info_default_device(PyObject *self, PyObject *Py_UNUSED(a))
{
    ua_state *st = ua_state_of(self);
    ua_device *d = ua_py_as_device(st, Py_None, "device");
    return d ? ua_py_device_of(st, d) : NULL;
}

static PyObject *
info_default_dtypes(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"device", NULL};
    PyObject *device = Py_None;
    ua_state *st = ua_state_of(self);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$O:default_dtypes",
                                     kwlist, &device)) {
        return NULL;
    }
    ua_device *d = device_arg(st, device);
    if (d == NULL || ua_py_numpy(st) == NULL) {
        return NULL;
    }
    ua_default_dtypes t = ua_default_dtypes_for(ua_device_has_fp64(d));
    PyObject *dict = PyDict_New();
    if (dict == NULL ||
        set_dtype(st, dict, "real floating", t.real_floating) < 0 ||
        set_dtype(st, dict, "complex floating", t.complex_floating) < 0 ||
        set_dtype(st, dict, "integral", t.integral) < 0 ||
        set_dtype(st, dict, "indexing", t.indexing) < 0) {
        Py_XDECREF(dict);
        return NULL;
    }
    return dict;
}

static PyObject *
info_dtypes(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"device", "kind", NULL};
    PyObject *device = Py_None, *kind = Py_None;
    ua_state *st = ua_state_of(self);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$OO:dtypes", kwlist,
                                     &device, &kind)) {
        return NULL;
    }
    ua_device *d = device_arg(st, device);
    if (d == NULL || ua_py_numpy(st) == NULL) {
        return NULL;
    }
    bool fp64 = ua_device_has_fp64(d);
    PyObject *dict = PyDict_New();
    for (size_t i = 0; dict != NULL &&
                       i < sizeof(standard_dtypes) / sizeof(*standard_dtypes);
         i++) {
        ua_typenum t = standard_dtypes[i];
        if (!fp64 && (t == UA_FLOAT64 || t == UA_COMPLEX128)) {
            continue;
        }
        int is =
            kind == Py_None ? 1 : ua_py_dtype_is_kind(st, t, kind, "dtypes");
        if (is < 0 || (is && set_dtype(st, dict, ua_dtype_name(t), t) < 0)) {
            Py_CLEAR(dict);
        }
    }
    return dict;
}

static PyObject *
info_devices(PyObject *self, PyObject *Py_UNUSED(a))
{
    ua_state *st = ua_state_of(self);
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list != NULL && i < ua_device_count(); i++) {
        PyObject *obj = ua_py_device_of(st, ua_device_at(i));
        if (obj == NULL || PyList_Append(list, obj) < 0) {
            Py_CLEAR(list);
        }
        Py_XDECREF(obj);
    }
    PyObject *devices = list ? PyList_AsTuple(list) : NULL;
    Py_XDECREF(list);
    return devices;
}

/* __array_namespace_info__() takes no arguments; each call makes a new
 * object, as NumPy's does. */
static PyObject *
info_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (PyTuple_GET_SIZE(args) != 0 || (kwargs && PyDict_GET_SIZE(kwargs))) {
        PyErr_SetString(PyExc_TypeError,
                        "__array_namespace_info__() takes no arguments");
        return NULL;
    }
    return type->tp_alloc(type, 0);
}

static void
info_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyMethodDef info_methods[] = {
    {"capabilities", info_capabilities, METH_NOARGS, UA_DOC_INFO_CAPABILITIES},
    {"default_device", info_default_device, METH_NOARGS,
     UA_DOC_INFO_DEFAULT_DEVICE},
    {"default_dtypes", (PyCFunction)(void (*)(void))info_default_dtypes,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_INFO_DEFAULT_DTYPES},
    {"dtypes", (PyCFunction)(void (*)(void))info_dtypes,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_INFO_DTYPES},
    {"devices", info_devices, METH_NOARGS, UA_DOC_INFO_DEVICES},
    {0},
};

/* The class is the function: __array_namespace_info__() makes the object
 * that answers the inspection methods. */
static PyType_Slot info_slots[] = {
    {Py_tp_doc, UA_DOC_ARRAY_NAMESPACE_INFO},
    {Py_tp_new, info_new},
    {Py_tp_dealloc, info_dealloc},
    {Py_tp_methods, info_methods},
    {0, NULL},
};

static PyType_Spec info_spec = {
    .name = "usmarray.__array_namespace_info__",
    .basicsize = sizeof(PyObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = info_slots,
};

int
ua_py_info_add(PyObject *module, ua_state *st)
{
    st->Info_Type =
        (PyTypeObject *)PyType_FromModuleAndSpec(module, &info_spec, NULL);
    return st->Info_Type == NULL ? -1
                                 : PyModule_AddType(module, st->Info_Type);
}
