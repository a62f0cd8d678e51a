/* Memory objects as the C code makes and ends them: allocations, wraps of
 * memory others own, borrowed host memory, the kinds' classes, and
 * tp_dealloc, which keeps freed objects for the next allocation
 * (freelist.h).  Apart from memory.c, whose type tables name the methods
 * of memory_host.c and of the protocols: those files make Memory through
 * these functions, below the tables, so that no call returns to the file
 * that calls them. */
#include "python/base/pyheaders.h"
#include "python/base/errors.h"
#include "python/base/freelist.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/devices.h"
#include "python/types/memory.h"

PyTypeObject *
ua_py_memory_type_of_kind(ua_state *st, ua_usm_kind kind)
{
    switch (kind) {
    case UA_USM_DEVICE:
        return st->MemoryUSMDevice_Type;
    case UA_USM_SHARED:
        return st->MemoryUSMShared_Type;
    case UA_USM_HOST:
        return st->MemoryUSMHost_Type;
    default:
        return NULL;
    }
}

ua_usm_kind
ua_py_memory_kind_of_type(ua_state *st, PyTypeObject *type)
{
    for (int k = UA_USM_DEVICE; k <= UA_USM_HOST; k++) {
        if (PyType_IsSubtype(type, ua_py_memory_type_of_kind(st, k))) {
            return (ua_usm_kind)k;
        }
    }
    return UA_USM_UNKNOWN;
}

const char *
ua_py_memory_class_name(ua_usm_kind kind)
{
    static const char *const names[] = {"Memory", "MemoryUSMDevice",
                                        "MemoryUSMShared", "MemoryUSMHost"};
    return names[kind];
}

int
ua_py_memory_copy_bytes(ua_state *st, PyObject *queue, void *dst,
                        const void *src, size_t n)
{
    PyThreadState *saved = ua_py_release_if_long(n);
    ua_status code = ua_copy_sync(queue_of(queue), dst, src, n);
    ua_py_reacquire(saved);
    return code == UA_OK ? 0 : ua_py_fail_core(st, code);
}

ua_freelist ua_memory_freelist;

static ua_py_memory *
alloc_object(PyTypeObject *type, PyObject *queue)
{
    ua_py_memory *self = (ua_py_memory *)ua_freelist_alloc(
        &ua_memory_freelist, type, ua_py_memory_dealloc);
    if (self != NULL) {
        self->queue = Py_NewRef(queue);
    }
    return self;
}

PyObject *
ua_py_memory_allocate(ua_state *st, PyTypeObject *type, ua_usm_kind kind,
                      Py_ssize_t nbytes, size_t alignment, PyObject *queue)
{
    ua_py_memory *self = alloc_object(type, queue);
    if (self == NULL) {
        return NULL;
    }
    ua_allocation *a;
    ua_status code =
        ua_usm_alloc(queue_of(queue), kind, (size_t)nbytes, alignment, &a);
    if (code != UA_OK) {
        Py_DECREF(self);
        return ua_py_raise_core(st, code);
    }
    self->owned = a;
    self->ptr = ua_allocation_ptr(a);
    self->nbytes = nbytes;
    self->kind = kind;
    return (PyObject *)self;
}

PyObject *
ua_py_memory_new(ua_state *st, ua_usm_kind kind, Py_ssize_t nbytes,
                 size_t alignment, PyObject *queue)
{
    return ua_py_memory_allocate(st, ua_py_memory_type_of_kind(st, kind), kind,
                                 nbytes, alignment, queue);
}

PyObject *
ua_py_memory_wrap_as(PyTypeObject *type, char *ptr, Py_ssize_t nbytes,
                     ua_usm_kind kind, int readonly, PyObject *queue,
                     PyObject *owner)
{
    ua_py_memory *self = alloc_object(type, queue);
    if (self == NULL) {
        return NULL;
    }
    self->ptr = ptr;
    self->nbytes = nbytes;
    self->kind = kind;
    self->readonly = readonly;
    self->refobj = Py_NewRef(owner);
    return (PyObject *)self;
}

PyObject *
ua_py_memory_wrap(ua_state *st, ua_usm_kind kind, char *ptr, Py_ssize_t nbytes,
                  int readonly, PyObject *queue, PyObject *owner)
{
    return ua_py_memory_wrap_as(ua_py_memory_type_of_kind(st, kind), ptr,
                                nbytes, kind, readonly, queue, owner);
}

PyObject *
ua_py_memory_wrap_on_device(ua_state *st, ua_device *device, ua_usm_kind kind,
                            char *ptr, Py_ssize_t nbytes, int readonly,
                            PyObject *owner)
{
    PyObject *q = ua_py_default_queue(st, device);
    PyObject *mem =
        q ? ua_py_memory_wrap(st, kind, ptr, nbytes, readonly, q, owner)
          : NULL;
    Py_XDECREF(q);
    return mem;
}

/* Memory the library allocated, or a driver knows, is found as what it
 * is: a NumPy view of shared memory wrapped as host memory stays shared
 * memory, and no borrowed region is recorded over it to shadow it.  Host
 * memory that others lent before is borrowed again, each region living as
 * long as its own borrower. */
static PyObject *
resolve_known(ua_state *st, char *ptr, Py_ssize_t nbytes, int readonly,
              PyObject *owner)
{
    ua_pointer_info info;
    if (!ua_pointer_query_range((uintptr_t)ptr, (size_t)nbytes, &info) ||
        (info.borrowed && info.kind == UA_USM_HOST)) {
        return Py_NewRef(Py_None);
    }
    return ua_py_memory_wrap_on_device(st, info.device, info.kind, ptr, nbytes,
                                       readonly, owner);
}

PyObject *
ua_py_memory_borrow(ua_state *st, PyObject *queue, char *ptr,
                    Py_ssize_t nbytes, int readonly, PyObject *owner)
{
    PyObject *known = resolve_known(st, ptr, nbytes, readonly, owner);
    if (known != Py_None) {
        return known;
    }
    Py_DECREF(known);
    ua_context *c = ua_queue_context(queue_of(queue));
    ua_py_memory *self = alloc_object(st->MemoryUSMHost_Type, queue);
    if (self == NULL) {
        return NULL;
    }
    ua_status code =
        ua_usm_borrow(c, UA_USM_HOST, ptr, (size_t)nbytes, &self->owned);
    if (code != UA_OK) {
        Py_DECREF(self);
        return ua_py_raise_core(st, code);
    }
    self->ptr = ptr;
    self->nbytes = nbytes;
    self->kind = UA_USM_HOST;
    self->readonly = readonly;
    self->refobj = Py_NewRef(owner);
    return (PyObject *)self;
}

void
ua_py_memory_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (mem(self)->weakreflist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    if (mem(self)->owned != NULL) {
        ua_usm_free(mem(self)->owned);
        mem(self)->owned = NULL;
    }
    if (mem(self)->release != NULL) {
        void (*release)(void *) = mem(self)->release;
        mem(self)->release = NULL;
        release(mem(self)->release_arg);
    }
    Py_CLEAR(mem(self)->refobj);
    Py_CLEAR(mem(self)->queue);
    ua_freelist_free(&ua_memory_freelist, self, ua_py_memory_dealloc,
                     sizeof(ua_py_memory));
    Py_DECREF(tp);
}
