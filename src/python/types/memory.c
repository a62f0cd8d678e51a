/* usmarray.Memory and its three kinds: MemoryUSMDevice, MemoryUSMShared
 * and MemoryUSMHost: their constructor, attributes and tables.  The making
 * of Memory objects that other files share, and tp_dealloc, are
 * memory_make.c's, below the files whose methods the tables name. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/errors.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/types/devices.h"
#include "python/types/memory.h"

#include <structmember.h> /* T_PYSSIZET on 3.11 */

int
ua_py_parse_alignment(PyObject *obj, const char *what, size_t *out)
{
    Py_ssize_t a;
    if (ua_py_index(obj, what, &a) < 0) {
        return -1;
    }
    if (a < 0 || (a & (a - 1)) != 0) {
        PyErr_Format(PyExc_ValueError,
                     "%s must be 0 or a positive power of two, not %zd", what,
                     a);
        return -1;
    }
    *out = (size_t)a;
    return 0;
}

enum { M_SOURCE, M_ALIGNMENT, M_QUEUE, M_COPY, M_N };
static const char *const memory_kwlist[] = {"nbytes_or_obj", "alignment",
                                            "queue", "copy", NULL};
static const ua_py_argspec memory_args = {"Memory", memory_kwlist, 1, 1};

static PyObject *
memory_construct(PyTypeObject *type, PyObject **v)
{
    PyObject *source = v[M_SOURCE], *alignment_obj = v[M_ALIGNMENT];
    PyObject *queue_obj = v[M_QUEUE] ? v[M_QUEUE] : Py_None;
    int copy;
    if (ua_py_parse_copy(v[M_COPY], &copy) < 0) {
        return NULL;
    }
    copy = copy == 1;
    ua_state *st = ua_state_of_type(type);
    ua_usm_kind kind = ua_py_memory_kind_of_type(st, type);
    size_t alignment = 0;
    if (kind == UA_USM_UNKNOWN) {
        PyErr_SetString(PyExc_TypeError,
                        "usmarray.Memory is abstract: use MemoryUSMDevice, "
                        "MemoryUSMShared or MemoryUSMHost");
        return NULL;
    }
    if (alignment_obj != NULL &&
        ua_py_parse_alignment(alignment_obj, "alignment", &alignment) < 0) {
        return NULL;
    }
    PyObject *queue = NULL;
    if (queue_obj != Py_None &&
        (queue = ua_py_as_queue(st, queue_obj, "queue")) == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    int is_int = PyLong_Check(source) ||
                 (PyIndex_Check(source) &&
                  !PyObject_TypeCheck(source, st->Memory_Type) &&
                  !PyObject_TypeCheck(source, st->USMArray_Type));
    if (is_int && !PyBool_Check(source)) {
        Py_ssize_t nbytes;
        if (ua_py_index(source, "nbytes", &nbytes) == 0) {
            if (nbytes <= 0) {
                PyErr_Format(PyExc_ValueError,
                             "nbytes must be positive, not %zd", nbytes);
            } else if (queue != NULL || (queue = ua_py_as_queue(
                                             st, Py_None, "queue")) != NULL) {
                result = ua_py_memory_allocate(st, type, kind, nbytes,
                                               alignment, queue);
            }
        }
    } else if (PyBool_Check(source)) {
        PyErr_SetString(PyExc_TypeError,
                        "nbytes_or_obj must be an integer size or an object "
                        "exposing __sycl_usm_array_interface__, not bool");
    } else {
        int has = PyObject_TypeCheck(source, st->Memory_Type)
                      ? 1
                      : ua_py_has_attr(source, st->s_suai);
        if (has > 0) {
            result = ua_py_memory_from_object(st, type, kind, source,
                                              alignment, queue, copy);
        } else if (has == 0) {
            PyErr_Format(PyExc_TypeError,
                         "nbytes_or_obj must be an integer size or an object "
                         "exposing __sycl_usm_array_interface__, not %.100s",
                         Py_TYPE(source)->tp_name);
        }
    }
    Py_XDECREF(queue);
    return result;
}

static PyObject *
memory_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *v[M_N] = {NULL};
    if (ua_py_parse_tuple(&memory_args, args, kwargs, v) < 0) {
        return NULL;
    }
    return memory_construct(type, v);
}

/* Calls of the Memory classes themselves skip the argument tuple and dict. */
static PyObject *
memory_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf,
                  PyObject *kwnames)
{
    PyObject *v[M_N] = {NULL};
    if (ua_py_parse_fast(&memory_args, args, (Py_ssize_t)nargsf, kwnames, v) <
        0) {
        return NULL;
    }
    return memory_construct((PyTypeObject *)type, v);
}

/* ------------------------------------------------------------ queries */

static const char *
pointer_type_in(uintptr_t ptr, ua_context *context)
{
    ua_pointer_info info;
    if (!ua_pointer_query(ptr, &info) || info.context != context) {
        return "unknown";
    }
    return ua_usm_kind_name(info.kind);
}

static ua_context *
context_of_syclobj(ua_state *st, PyObject *syclobj)
{
    PyObject *queue = ua_py_as_import_queue(st, syclobj, "syclobj");
    if (queue == NULL) {
        return NULL;
    }
    ua_context *c = ua_queue_context(queue_of(queue));
    Py_DECREF(queue);
    return c;
}

PyObject *
ua_py_get_pointer_type(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"ptr", "syclobj", NULL};
    PyObject *ptr_obj, *syclobj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:get_pointer_type",
                                     kwlist, &ptr_obj, &syclobj)) {
        return NULL;
    }
    if (PyBool_Check(ptr_obj) || !PyLong_Check(ptr_obj)) {
        PyErr_Format(PyExc_TypeError, "ptr must be an int, not %.100s",
                     Py_TYPE(ptr_obj)->tp_name);
        return NULL;
    }
    unsigned long long ptr = PyLong_AsUnsignedLongLong(ptr_obj);
    if (ptr == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "ptr %R is not a pointer value",
                     ptr_obj);
        return NULL;
    }
    ua_context *c = context_of_syclobj(PyModule_GetState(module), syclobj);
    return c ? PyUnicode_FromString(pointer_type_in((uintptr_t)ptr, c)) : NULL;
}

static PyObject *
memory_get_usm_type(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"syclobj", NULL};
    PyObject *syclobj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:get_usm_type", kwlist,
                                     &syclobj)) {
        return NULL;
    }
    ua_context *c = syclobj == Py_None
                        ? ua_queue_context(queue_of(mem(self)->queue))
                        : context_of_syclobj(ua_state_of(self), syclobj);
    if (c == NULL) {
        return NULL;
    }
    if (mem(self)->nbytes == 0) {
        return PyUnicode_FromString(ua_usm_kind_name(mem(self)->kind));
    }
    return PyUnicode_FromString(pointer_type_in((uintptr_t)mem(self)->ptr, c));
}

/* dpctl's numbering of the USM kinds (its sycl_usm_type enum, which
 * DPCTLUSM_GetPointerType returns): unknown 0, device 1, shared 2, host 3. */
static PyObject *
memory_get_usm_type_enum(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static const char *const names[] = {"unknown", "device", "shared", "host"};
    PyObject *name = memory_get_usm_type(self, args, kwargs);
    if (name == NULL) {
        return NULL;
    }
    long value = 0;
    for (long i = 1; i < 4; i++) {
        if (PyUnicode_CompareWithASCIIString(name, names[i]) == 0) {
            value = i;
        }
    }
    Py_DECREF(name);
    return PyLong_FromLong(value);
}

/* sys.getsizeof counts the allocation, as dpctl's memory objects do. */
static PyObject *
memory_sizeof(PyObject *self, PyObject *Py_UNUSED(a))
{
    return PyLong_FromSsize_t(Py_TYPE(self)->tp_basicsize + mem(self)->nbytes);
}

/* ---------------------------------------------------------- attributes */

static PyObject *
memory_get_nbytes(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromSsize_t(mem(self)->nbytes);
}

static PyObject *
memory_get_pointer(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromVoidPtr(mem(self)->ptr);
}

static PyObject *
memory_get_queue(PyObject *self, void *Py_UNUSED(c))
{
    return Py_NewRef(mem(self)->queue);
}

static PyObject *
memory_get_dpctl(PyObject *self, void *which)
{
    return ua_py_queue_dpctl(ua_state_of(self), mem(self)->queue,
                             (ua_py_dpctl_object)(intptr_t)which);
}

static PyObject *
memory_get_device(PyObject *self, void *Py_UNUSED(c))
{
    return Py_NewRef(((ua_py_queue *)mem(self)->queue)->device);
}

static PyObject *
memory_get_context(PyObject *self, void *Py_UNUSED(c))
{
    return Py_NewRef(((ua_py_queue *)mem(self)->queue)->context);
}

static PyObject *
memory_get_refobj(PyObject *self, void *Py_UNUSED(c))
{
    return Py_NewRef(mem(self)->refobj ? mem(self)->refobj : Py_None);
}

static Py_ssize_t
memory_length(PyObject *self)
{
    return mem(self)->nbytes;
}

static PyObject *
memory_repr(PyObject *self)
{
    ua_device *d = ua_queue_device(queue_of(mem(self)->queue));
    return PyUnicode_FromFormat("<usmarray.%s of %zd bytes at %p on %s%s>",
                                ua_py_memory_class_name(mem(self)->kind),
                                mem(self)->nbytes, (void *)mem(self)->ptr,
                                ua_device_filter_string(d),
                                mem(self)->readonly ? ", read-only" : "");
}

/* Device memory is never host-accessible through the API, on any backend. */
static int
memory_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    if (!ua_usm_kind_host_accessible(mem(self)->kind)) {
        PyErr_SetString(PyExc_BufferError,
                        "USM device memory is not accessible from the host; "
                        "use copy_to_host() to read it");
        view->obj = NULL;
        return -1;
    }
    if ((flags & PyBUF_WRITABLE) && mem(self)->readonly) {
        PyErr_SetString(PyExc_BufferError, "the memory is read-only");
        view->obj = NULL;
        return -1;
    }
    if (ua_py_queue_settle(ua_state_of(self), mem(self)->queue) < 0) {
        view->obj = NULL;
        return -1;
    }
    return PyBuffer_FillInfo(view, self, mem(self)->ptr, mem(self)->nbytes,
                             mem(self)->readonly, flags);
}

/* ------------------------------------------------------------ lifetime */

static int
memory_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(mem(self)->queue);
    Py_VISIT(mem(self)->refobj);
    return 0;
}

static int
memory_clear(PyObject *self)
{
    Py_CLEAR(mem(self)->refobj);
    return 0;
}

static PyGetSetDef memory_getset[] = {
    UA_PY_DPCTL_GETSET(memory_get_dpctl, "the memory's"),
    {"nbytes", memory_get_nbytes, NULL, "Size in bytes.", NULL},
    {"size", memory_get_nbytes, NULL, "Size in bytes.", NULL},
    {"_pointer", memory_get_pointer, NULL, "Address of the first byte.", NULL},
    {"queue", memory_get_queue, NULL, "The Queue the memory is bound to.",
     NULL},
    {"device", memory_get_device, NULL, "The Device of the memory.", NULL},
    {"context", memory_get_context, NULL, "The Context of the memory.", NULL},
    {"reference_obj", memory_get_refobj, NULL,
     "The object kept alive for wrapped memory, or None.", NULL},
    {"__sycl_usm_array_interface__", ua_py_memory_get_suai, NULL,
     "The memory as a 1-D array of bytes.", NULL},
    {0},
};

static PyMethodDef memory_methods[] = {
    {"get_usm_type", (PyCFunction)(void (*)(void))memory_get_usm_type,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_MEMORY_GET_USM_TYPE},
    {"copy_to_host", (PyCFunction)(void (*)(void))ua_py_memory_copy_to_host,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_MEMORY_COPY_TO_HOST},
    {"copy_from_host", ua_py_memory_copy_from_host, METH_O,
     UA_DOC_MEMORY_COPY_FROM_HOST},
    {"copy_from_device", ua_py_memory_copy_from_device, METH_O,
     UA_DOC_MEMORY_COPY_FROM_DEVICE},
    {"memset", (PyCFunction)(void (*)(void))ua_py_memory_memset,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_MEMORY_MEMSET},
    {"tobytes", ua_py_memory_tobytes, METH_NOARGS, UA_DOC_MEMORY_TOBYTES},
    /* bytes(mem) copies, as tobytes() does, for every USM kind: the buffer
     * protocol, which bytes() would otherwise ask, refuses device memory. */
    {"__bytes__", ua_py_memory_tobytes, METH_NOARGS,
     "__bytes__($self, /)\n--\n\nA copy of the bytes, as tobytes()."},
    {"get_usm_type_enum",
     (PyCFunction)(void (*)(void))memory_get_usm_type_enum,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_MEMORY_GET_USM_TYPE_ENUM},
    {"__sizeof__", memory_sizeof, METH_NOARGS,
     "__sizeof__($self, /)\n--\n\nThe object's size and its allocation's."},
    {"__reduce__", ua_py_memory_reduce, METH_NOARGS, NULL},
    {"__array__", (PyCFunction)(void (*)(void))ua_py_memory_dunder_array,
     METH_VARARGS | METH_KEYWORDS,
     "__array__($self, /, dtype=None, copy=None)\n--\n\nA numpy.uint8 "
     "array sharing "
     "host-accessible memory; device memory raises TypeError."},
    {0},
};

static PyMemberDef memory_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(ua_py_memory, weakreflist),
     READONLY, NULL},
    {0},
};

static PyType_Slot memory_slots[] = {
    {Py_tp_doc, UA_DOC_MEMORY},
    {Py_tp_new, memory_new},
    {Py_tp_dealloc, ua_py_memory_dealloc},
    {Py_tp_traverse, memory_traverse},
    {Py_tp_clear, memory_clear},
    {Py_tp_repr, memory_repr},
    {Py_tp_getset, memory_getset},
    {Py_tp_methods, memory_methods},
    {Py_tp_members, memory_members},
    {Py_sq_length, memory_length},
    {Py_bf_getbuffer, memory_getbuffer},
    {0, NULL},
};

static PyType_Spec memory_spec = {
    .name = "usmarray.Memory",
    .basicsize = sizeof(ua_py_memory),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
             Py_TPFLAGS_IMMUTABLETYPE,
    .slots = memory_slots,
};

/* Each kind names its dealloc: PyType_FromSpec would give it
 * subtype_dealloc, a detour through the base's, which also keeps its
 * objects out of the freelist. */
static PyType_Slot device_slots[] = {
    {Py_tp_doc, UA_DOC_MEMORY_DEVICE},
    {Py_tp_dealloc, ua_py_memory_dealloc},
    {0, NULL},
};
static PyType_Slot shared_slots[] = {
    {Py_tp_doc, UA_DOC_MEMORY_SHARED},
    {Py_tp_dealloc, ua_py_memory_dealloc},
    {0, NULL},
};
static PyType_Slot host_slots[] = {
    {Py_tp_doc, UA_DOC_MEMORY_HOST},
    {Py_tp_dealloc, ua_py_memory_dealloc},
    {0, NULL},
};

#define KIND_SPEC(var, cls, kind_slots)                                               \
    static PyType_Spec var = {                                                        \
        .name = "usmarray." cls,                                                      \
        .basicsize = sizeof(                                                          \
            ua_py_memory), /* Garbage collection support is inherited from Memory. */ \
        .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE |                           \
                 Py_TPFLAGS_IMMUTABLETYPE,                                            \
        .slots = kind_slots,                                                          \
    }

KIND_SPEC(device_spec, "MemoryUSMDevice", device_slots);
KIND_SPEC(shared_spec, "MemoryUSMShared", shared_slots);
KIND_SPEC(host_spec, "MemoryUSMHost", host_slots);

static PyTypeObject *
add_kind(PyObject *module, PyType_Spec *spec, PyObject *base)
{
    PyObject *type = PyType_FromModuleAndSpec(module, spec, base);
    if (type == NULL || PyModule_AddType(module, (PyTypeObject *)type) < 0) {
        Py_XDECREF(type);
        return NULL;
    }
    ((PyTypeObject *)type)->tp_vectorcall = memory_vectorcall;
    return (PyTypeObject *)type;
}

int
ua_py_memory_add_types(PyObject *module, ua_state *st)
{
    st->Memory_Type = add_kind(module, &memory_spec, NULL);
    if (st->Memory_Type == NULL) {
        return -1;
    }
    PyObject *base = (PyObject *)st->Memory_Type;
    st->MemoryUSMDevice_Type = add_kind(module, &device_spec, base);
    st->MemoryUSMShared_Type = add_kind(module, &shared_spec, base);
    st->MemoryUSMHost_Type = add_kind(module, &host_spec, base);
    return st->MemoryUSMDevice_Type && st->MemoryUSMShared_Type &&
                   st->MemoryUSMHost_Type
               ? 0
               : -1;
}
