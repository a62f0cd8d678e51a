/* The C API of usmarray/usmarray_api.h: the table of types and functions that
 * usmarray._usmarray publishes as its _C_API capsule, one per module
 * instance.  Messages name the C function, which is what a C programmer
 * looks for. */
#include "python/base/pyheaders.h"
#include "python/base/errors.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/types/devices.h"
#include "python/types/memory.h"

static ua_state *
state_of(const UsmArray_CAPI *api)
{
    return ua_state_of_type(api->USMArrayType);
}

/* 0 when obj is a `type`; -1 with TypeError naming fn's argument. */
static int
require(PyObject *obj, PyTypeObject *type, const char *fn, const char *arg)
{
    if (obj != NULL && PyObject_TypeCheck(obj, type)) {
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s: %s must be a %s, not %.100s", fn, arg,
                 type->tp_name, obj != NULL ? Py_TYPE(obj)->tp_name : "NULL");
    return -1;
}

/* Puts "fn: " before the message of the exception the binding raised, so
 * that it names the C function called; returns -1. */
static int
in_call(const char *fn)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyErr_Format(type, "%s: %S", fn, value);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return -1;
}

/* result, or NULL with the exception named after fn. */
static PyObject *
named(const char *fn, PyObject *result)
{
    if (result == NULL) {
        in_call(fn);
    }
    return result;
}

static PyUSMArrayObject *
array_arg(const UsmArray_CAPI *api, PyObject *obj, const char *fn)
{
    return require(obj, api->USMArrayType, fn, "arr") == 0
               ? (PyUSMArrayObject *)obj
               : NULL;
}

static ua_py_memory *
memory_arg(const UsmArray_CAPI *api, PyObject *obj, const char *fn)
{
    return require(obj, api->MemoryType, fn, "mem") == 0 ? (ua_py_memory *)obj
                                                         : NULL;
}

static ua_py_queue *
queue_arg(const UsmArray_CAPI *api, PyObject *obj, const char *fn)
{
    return require(obj, api->QueueType, fn, "queue") == 0 ? (ua_py_queue *)obj
                                                          : NULL;
}

/* The Queue of a queue argument (a new reference): a Queue, or NULL for
 * the default device's. */
static PyObject *
queue_or_default(const UsmArray_CAPI *api, ua_state *st, PyObject *queue,
                 const char *fn)
{
    if (queue == NULL) {
        return named(fn, ua_py_as_queue(st, Py_None, "the default queue"));
    }
    return require(queue, api->QueueType, fn, "queue") == 0 ? Py_NewRef(queue)
                                                            : NULL;
}

/* The USM kind a usm_type argument names; NULL means "device". */
static int
parse_kind(const char *usm_type, const char *fn, ua_usm_kind *out)
{
    if (usm_type == NULL) {
        *out = UA_USM_DEVICE;
        return 0;
    }
    if (ua_usm_kind_parse(usm_type, out) != UA_OK) {
        ua_error_clear();
        PyErr_Format(PyExc_ValueError,
                     "%s: usm_type must be \"device\", \"shared\" or "
                     "\"host\", not \"%.100s\"",
                     fn, usm_type);
        return -1;
    }
    return 0;
}

/* Checks nd, shape and typenum, and fills in C-order strides when none are
 * given (*strides then points at `room`). */
static int
check_layout(ua_state *st, const char *fn, int nd, const Py_ssize_t *shape,
             int typenum, const Py_ssize_t **strides, Py_ssize_t *room)
{
    if (nd < 0 || nd > UA_MAXDIMS) {
        PyErr_Format(PyExc_ValueError, "%s: nd must be in [0, %d], not %d", fn,
                     UA_MAXDIMS, nd);
        return -1;
    }
    if (nd > 0 && shape == NULL) {
        PyErr_Format(PyExc_ValueError, "%s: shape is NULL for nd %d", fn, nd);
        return -1;
    }
    if (!ua_typenum_is_valid(typenum)) {
        PyErr_Format(PyExc_TypeError,
                     "%s: typenum %d is not a type usmarray supports", fn,
                     typenum);
        return -1;
    }
    ptrdiff_t size;
    if (ua_layout_size(nd, shape, &size) != UA_OK) {
        ua_py_fail_core(st, ua_error_code());
        return in_call(fn);
    }
    if (*strides == NULL) {
        ua_layout_default_strides(nd, shape, 'C', room);
        *strides = room;
    }
    return 0;
}

/* ---------------------------------------------------------------- arrays */

static int
capi_Array_Check(const UsmArray_CAPI *api, PyObject *obj)
{
    return obj != NULL && PyObject_TypeCheck(obj, api->USMArrayType);
}

static int
capi_Array_GetNDim(const UsmArray_CAPI *api, PyObject *obj)
{
    PyUSMArrayObject *a = array_arg(api, obj, "UsmArray_GetNDim");
    return a ? a->nd : -1;
}

static char *
capi_Array_GetData(const UsmArray_CAPI *api, PyObject *obj)
{
    PyUSMArrayObject *a = array_arg(api, obj, "UsmArray_GetData");
    return a ? a->data : NULL;
}

static Py_ssize_t *
capi_Array_GetShape(const UsmArray_CAPI *api, PyObject *obj)
{
    PyUSMArrayObject *a = array_arg(api, obj, "UsmArray_GetShape");
    return a ? a->shape : NULL;
}

static Py_ssize_t *
capi_Array_GetStrides(const UsmArray_CAPI *api, PyObject *obj)
{
    PyUSMArrayObject *a = array_arg(api, obj, "UsmArray_GetStrides");
    return a ? a->strides : NULL;
}

static int
capi_Array_GetTypeNum(const UsmArray_CAPI *api, PyObject *obj)
{
    PyUSMArrayObject *a = array_arg(api, obj, "UsmArray_GetTypeNum");
    return a ? a->typenum : -1;
}

static int
capi_Array_GetFlags(const UsmArray_CAPI *api, PyObject *obj)
{
    PyUSMArrayObject *a = array_arg(api, obj, "UsmArray_GetFlags");
    return a ? a->flags : -1;
}

static PyObject *
capi_Array_GetBase(const UsmArray_CAPI *api, PyObject *obj)
{
    PyUSMArrayObject *a = array_arg(api, obj, "UsmArray_GetBase");
    return a ? a->base : NULL;
}

static PyObject *
capi_Array_GetQueue(const UsmArray_CAPI *api, PyObject *obj)
{
    PyUSMArrayObject *a = array_arg(api, obj, "UsmArray_GetQueue");
    return a ? ((ua_py_memory *)a->base)->queue : NULL;
}

static PyObject *
capi_Array_New(const UsmArray_CAPI *api, int nd, const Py_ssize_t *shape,
               int typenum, const Py_ssize_t *strides, const char *usm_type,
               PyObject *queue)
{
    static const char fn[] = "UsmArray_New";
    Py_ssize_t room[UA_MAXDIMS], offset;
    ua_usm_kind kind;
    ua_state *st = state_of(api);
    if (st == NULL ||
        check_layout(st, fn, nd, shape, typenum, &strides, room) < 0 ||
        parse_kind(usm_type, fn, &kind) < 0) {
        return NULL;
    }
    ua_typenum t = (ua_typenum)typenum;
    Py_ssize_t nbytes = ua_py_layout_span(st, nd, shape, strides, t, &offset);
    if (nbytes < 0) {
        in_call(fn);
        return NULL;
    }
    PyObject *q = queue_or_default(api, st, queue, fn);
    PyObject *mem =
        q ? named(fn, ua_py_memory_new(st, kind, nbytes, 0, q)) : NULL;
    Py_XDECREF(q);
    if (mem == NULL) {
        return NULL;
    }
    char *data =
        ((ua_py_memory *)mem)->ptr + offset * (Py_ssize_t)ua_dtype_itemsize(t);
    PyObject *a = ua_py_array_new(st, nd, shape, strides, t, data, mem, 1);
    Py_DECREF(mem);
    return a;
}

static PyObject *
capi_Array_FromMemory(const UsmArray_CAPI *api, PyObject *memory, int nd,
                      const Py_ssize_t *shape, int typenum,
                      const Py_ssize_t *strides, Py_ssize_t offset)
{
    static const char fn[] = "UsmArray_FromMemory";
    Py_ssize_t room[UA_MAXDIMS];
    ua_state *st = state_of(api);
    if (st == NULL || require(memory, api->MemoryType, fn, "memory") < 0 ||
        check_layout(st, fn, nd, shape, typenum, &strides, room) < 0) {
        return NULL;
    }
    ua_typenum t = (ua_typenum)typenum;
    if (ua_py_layout_check_fits(st, nd, shape, strides, offset, t, memory) <
        0) {
        in_call(fn);
        return NULL;
    }
    ua_py_memory *m = (ua_py_memory *)memory;
    return ua_py_array_new(st, nd, shape, strides, t,
                           m->ptr + offset * (Py_ssize_t)ua_dtype_itemsize(t),
                           memory, !m->readonly);
}

static int
capi_Array_CopyInto(const UsmArray_CAPI *api, PyObject *dst, PyObject *src)
{
    static const char fn[] = "UsmArray_CopyInto";
    ua_state *st = state_of(api);
    if (st == NULL || require(dst, api->USMArrayType, fn, "dst") < 0) {
        return -1;
    }
    if (src == NULL) {
        PyErr_Format(PyExc_TypeError, "%s: src is NULL", fn);
        return -1;
    }
    if (ua_py_array_assign(st, dst, src) < 0) {
        return in_call(fn);
    }
    /* Finished on return, as the API says: an assignment between the
     * library's own memory is only ordered on dst's queue, and the caller
     * may read dst (shared or host memory) from the CPU at once. */
    ua_status code;
    ua_queue *q = queue_of_array(dst);
    Py_BEGIN_ALLOW_THREADS
    code = ua_queue_wait(q);
    Py_END_ALLOW_THREADS
    if (code != UA_OK) {
        ua_py_fail_core(st, code);
        return in_call(fn);
    }
    return 0;
}

/* ---------------------------------------------------------------- memory */

static int
capi_Memory_Check(const UsmArray_CAPI *api, PyObject *obj)
{
    return obj != NULL && PyObject_TypeCheck(obj, api->MemoryType);
}

static int
check_nbytes(size_t nbytes, const char *fn)
{
    if (nbytes == 0 || nbytes > (size_t)PY_SSIZE_T_MAX) {
        PyErr_Format(PyExc_ValueError,
                     "%s: nbytes must be in [1, PY_SSIZE_T_MAX], not %zu", fn,
                     nbytes);
        return -1;
    }
    return 0;
}

static PyObject *
capi_Memory_New(const UsmArray_CAPI *api, size_t nbytes, const char *usm_type,
                PyObject *queue)
{
    static const char fn[] = "UsmMemory_New";
    ua_usm_kind kind;
    ua_state *st = state_of(api);
    if (st == NULL || check_nbytes(nbytes, fn) < 0 ||
        parse_kind(usm_type, fn, &kind) < 0) {
        return NULL;
    }
    PyObject *q = queue_or_default(api, st, queue, fn);
    PyObject *mem =
        q ? named(fn, ua_py_memory_new(st, kind, (Py_ssize_t)nbytes, 0, q))
          : NULL;
    Py_XDECREF(q);
    return mem;
}

/* A Memory over bytes of an allocation the library or a driver knows, on
 * queue (a new reference, or NULL for the allocation's device's). */
static PyObject *
wrap_known(ua_state *st, const ua_pointer_info *info, char *ptr,
           Py_ssize_t nbytes, PyObject *queue, PyObject *owner)
{
    static const char fn[] = "UsmMemory_FromPointer";
    PyObject *q = queue != NULL
                      ? Py_NewRef(queue)
                      : named(fn, ua_py_default_queue(st, info->device));
    if (q == NULL) {
        return NULL;
    }
    PyObject *mem = NULL;
    ua_queue *uq = ((ua_py_queue *)q)->queue;
    if (ua_queue_context(uq) != info->context) {
        PyErr_Format(PyExc_ValueError,
                     "%s: the memory at %p belongs to a context of %s, not "
                     "to the queue's context of %s",
                     fn, (void *)ptr, ua_device_filter_string(info->device),
                     ua_device_filter_string(ua_queue_device(uq)));
    } else {
        mem = named(
            fn, ua_py_memory_wrap(st, info->kind, ptr, nbytes, 0, q, owner));
    }
    Py_DECREF(q);
    return mem;
}

static int
serves_cpu_memory(const ua_device *d)
{
    return (ua_backend_caps(ua_device_backend(d)) & UA_CAP_CPU_MEMORY) != 0;
}

/* The queue host memory is lent to when the caller names none: the
 * default device's where its memory is plain CPU memory, else the first
 * such device's. */
static PyObject *
queue_for_host_memory(const UsmArray_CAPI *api, ua_state *st, PyObject *queue,
                      const char *fn)
{
    PyObject *q = queue_or_default(api, st, queue, fn);
    if (q == NULL || queue != NULL ||
        serves_cpu_memory(ua_queue_device(((ua_py_queue *)q)->queue))) {
        return q;
    }
    for (size_t i = 0; i < ua_device_count(); i++) {
        if (serves_cpu_memory(ua_device_at(i))) {
            Py_DECREF(q);
            return named(fn, ua_py_default_queue(st, ua_device_at(i)));
        }
    }
    return q;
}

/* Host memory nobody has recorded, lent to a queue of a device whose memory
 * is CPU memory (a new reference). */
static PyObject *
borrow_host(const UsmArray_CAPI *api, ua_state *st, char *ptr,
            Py_ssize_t nbytes, PyObject *queue, PyObject *owner)
{
    static const char fn[] = "UsmMemory_FromPointer";
    PyObject *q = queue_for_host_memory(api, st, queue, fn);
    if (q == NULL) {
        return NULL;
    }
    PyObject *mem = NULL;
    ua_device *d = ua_queue_device(((ua_py_queue *)q)->queue);
    if (!serves_cpu_memory(d)) {
        PyErr_Format(PyExc_ValueError,
                     "%s: the %zd bytes at %p are not USM memory a backend "
                     "knows, and %s cannot borrow host memory",
                     fn, nbytes, (void *)ptr, ua_device_filter_string(d));
    } else {
        mem = named(fn, ua_py_memory_borrow(st, q, ptr, nbytes, 0, owner));
    }
    Py_DECREF(q);
    return mem;
}

static PyObject *
capi_Memory_FromPointer(const UsmArray_CAPI *api, void *ptr, size_t nbytes,
                        PyObject *queue, PyObject *owner)
{
    static const char fn[] = "UsmMemory_FromPointer";
    ua_state *st = state_of(api);
    if (st == NULL || check_nbytes(nbytes, fn) < 0 ||
        (queue != NULL && require(queue, api->QueueType, fn, "queue") < 0)) {
        return NULL;
    }
    if (ptr == NULL) {
        PyErr_Format(PyExc_ValueError, "%s: ptr is NULL", fn);
        return NULL;
    }
    if (owner == NULL) {
        PyErr_Format(PyExc_TypeError,
                     "%s: owner is NULL (pass Py_None for memory that "
                     "outlives every array over it)",
                     fn);
        return NULL;
    }
    uintptr_t start = (uintptr_t)ptr;
    ua_pointer_info info;
    if (ua_pointer_query_range(start, nbytes, &info)) {
        return wrap_known(st, &info, ptr, (Py_ssize_t)nbytes, queue, owner);
    }
    if (ua_pointer_query(start, &info) ||
        ua_pointer_query(start + nbytes - 1, &info)) {
        PyErr_Format(PyExc_ValueError,
                     "%s: the %zu bytes at %p cross the bounds of a USM "
                     "allocation",
                     fn, nbytes, ptr);
        return NULL;
    }
    return borrow_host(api, st, ptr, (Py_ssize_t)nbytes, queue, owner);
}

static void *
capi_Memory_GetPointer(const UsmArray_CAPI *api, PyObject *obj)
{
    ua_py_memory *m = memory_arg(api, obj, "UsmMemory_GetPointer");
    return m ? m->ptr : NULL;
}

static size_t
capi_Memory_GetSize(const UsmArray_CAPI *api, PyObject *obj)
{
    ua_py_memory *m = memory_arg(api, obj, "UsmMemory_GetSize");
    return m ? (size_t)m->nbytes : (size_t)-1;
}

static const char *
capi_Memory_GetUsmType(const UsmArray_CAPI *api, PyObject *obj)
{
    ua_py_memory *m = memory_arg(api, obj, "UsmMemory_GetUsmType");
    return m ? ua_usm_kind_name(m->kind) : NULL;
}

/* ---------------------------------------------------------------- queues */

static int
capi_Queue_Check(const UsmArray_CAPI *api, PyObject *obj)
{
    return obj != NULL && PyObject_TypeCheck(obj, api->QueueType);
}

static const char *
capi_Queue_GetBackend(const UsmArray_CAPI *api, PyObject *obj)
{
    ua_py_queue *q = queue_arg(api, obj, "UsmQueue_GetBackend");
    return q ? ua_backend_name(ua_device_backend(ua_queue_device(q->queue)))
             : NULL;
}

static void *
capi_Queue_GetNativeHandle(const UsmArray_CAPI *api, PyObject *obj)
{
    ua_py_queue *q = queue_arg(api, obj, "UsmQueue_GetNativeHandle");
    return q ? ua_queue_native_handle(q->queue) : NULL;
}

static int
capi_Queue_Wait(const UsmArray_CAPI *api, PyObject *obj)
{
    ua_py_queue *q = queue_arg(api, obj, "UsmQueue_Wait");
    if (q == NULL) {
        return -1;
    }
    ua_status code;
    Py_BEGIN_ALLOW_THREADS
    code = ua_queue_wait(q->queue);
    Py_END_ALLOW_THREADS
    if (code != UA_OK) {
        ua_py_fail_core(state_of(api), code);
        return in_call("UsmQueue_Wait");
    }
    return 0;
}

static PyObject *
capi_Queue_GetDevice(const UsmArray_CAPI *api, PyObject *obj)
{
    ua_py_queue *q = queue_arg(api, obj, "UsmQueue_GetDevice");
    return q ? q->device : NULL;
}

/* ---------------------------------------------------------------- capsule */

static void
free_table(PyObject *capsule)
{
    PyMem_Free(PyCapsule_GetPointer(capsule, USMARRAY_API_CAPSULE));
}

int
ua_py_capi_add(PyObject *module, ua_state *st)
{
    UsmArray_CAPI *api = PyMem_Malloc(sizeof(*api));
    if (api == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    /* The types are borrowed: the module's state holds them for as long
     * as the capsule, which lives in the module, can be reached. */
    *api = (UsmArray_CAPI){.version_major = USMARRAY_API_VERSION_MAJOR,
                           .version_minor = USMARRAY_API_VERSION_MINOR,
                           .USMArrayType = st->USMArray_Type,
                           .MemoryType = st->Memory_Type,
                           .MemoryUSMDeviceType = st->MemoryUSMDevice_Type,
                           .MemoryUSMSharedType = st->MemoryUSMShared_Type,
                           .MemoryUSMHostType = st->MemoryUSMHost_Type,
                           .QueueType = st->Queue_Type,
                           .ContextType = st->Context_Type,
                           .DeviceType = st->Device_Type,
#define CAPI_ENTRY(RET, NAME, MEMBER, ...) .MEMBER = capi_##MEMBER,
                           USMARRAY_API_FUNCTIONS(CAPI_ENTRY)
#undef CAPI_ENTRY
    };
    PyObject *capsule = PyCapsule_New(api, USMARRAY_API_CAPSULE, free_table);
    if (capsule == NULL) {
        PyMem_Free(api);
        return -1;
    }
    int rc = PyModule_AddObjectRef(module, "_C_API", capsule);
    Py_DECREF(capsule);
    return rc;
}
