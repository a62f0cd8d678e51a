/* Memory and arrays over the memory of other objects: another Memory or
 * any object exposing __sycl_usm_array_interface__, wrapped without a copy
 * where its USM kind, context and alignment allow, else copied when asked.
 * The Memory classes' constructor, as_usm_memory(), copy_from_device() and
 * the SUAI import of arrays come here for it. */
#include "python/base/pyheaders.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/types/memory.h"
#include "python/protocols/suai.h"

/* A region of someone else's memory, described as a Memory would be. */
typedef struct {
    char *ptr;
    Py_ssize_t nbytes;
    ua_usm_kind kind;
    int readonly;
    PyObject *queue; /* borrowed */
    PyObject *owner; /* borrowed: what keeps the memory alive */
} region;

static int
region_of_memory(PyObject *obj, region *r)
{
    ua_py_memory *m = (ua_py_memory *)obj;
    *r = (region){m->ptr, m->nbytes, m->kind, m->readonly, m->queue, obj};
    return 0;
}

static void
region_of_suai(const ua_suai *s, PyObject *obj, region *r)
{
    *r = (region){(char *)(s->ptr + (uintptr_t)s->begin),
                  (Py_ssize_t)(s->end - s->begin),
                  s->alloc.kind,
                  s->readonly,
                  s->queue,
                  obj};
}

static PyObject *
copy_region(ua_state *st, PyTypeObject *type, ua_usm_kind kind,
            const region *r, size_t alignment, PyObject *queue)
{
    if (r->nbytes == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "cannot copy an empty region into a new allocation");
        return NULL;
    }
    PyObject *self =
        ua_py_memory_allocate(st, type, kind, r->nbytes, alignment, queue);
    if (self != NULL &&
        ua_py_memory_copy_bytes(st, queue, ((ua_py_memory *)self)->ptr, r->ptr,
                                (size_t)r->nbytes) < 0) {
        Py_CLEAR(self);
    }
    return self;
}

/* Why a zero-copy wrap of r as `kind` on `queue` is impossible, or NULL. */
static const char *
wrap_obstacle(const region *r, ua_usm_kind kind, PyObject *queue,
              size_t alignment)
{
    if (r->kind != kind) {
        return "its USM kind differs";
    }
    if (queue != NULL &&
        ua_queue_context(((ua_py_queue *)queue)->queue) !=
            ua_queue_context(((ua_py_queue *)r->queue)->queue)) {
        return "the queue is of another context";
    }
    if (alignment > 1 && (uintptr_t)r->ptr % alignment != 0) {
        return "it is not aligned as asked";
    }
    return NULL;
}

static PyObject *
from_region(ua_state *st, PyTypeObject *type, ua_usm_kind kind,
            const region *r, size_t alignment, PyObject *queue, int copy)
{
    const char *obstacle = wrap_obstacle(r, kind, queue, alignment);
    if (obstacle == NULL) {
        return ua_py_memory_wrap_as(type, r->ptr, r->nbytes, r->kind,
                                    r->readonly, r->queue, r->owner);
    }
    if (!copy) {
        PyErr_Format(PyExc_ValueError,
                     "cannot wrap USM %s memory as %s without a copy (%s); "
                     "pass copy=True to copy it",
                     ua_usm_kind_name(r->kind), ua_py_memory_class_name(kind),
                     obstacle);
        return NULL;
    }
    return copy_region(st, type, kind, r, alignment,
                       queue != NULL ? queue : r->queue);
}

PyObject *
ua_py_memory_from_object(ua_state *st, PyTypeObject *type, ua_usm_kind kind,
                         PyObject *obj, size_t alignment, PyObject *queue,
                         int copy)
{
    region r;
    if (PyObject_TypeCheck(obj, st->Memory_Type)) {
        region_of_memory(obj, &r);
        return from_region(st, type, kind, &r, alignment, queue, copy);
    }
    ua_suai s;
    if (ua_suai_import(st, obj, &s) < 0) {
        return NULL;
    }
    region_of_suai(&s, obj, &r);
    PyObject *result = from_region(st, type, kind, &r, alignment, queue, copy);
    ua_suai_release(&s);
    return result;
}

PyObject *
ua_py_as_usm_memory(PyObject *module, PyObject *obj)
{
    ua_state *st = PyModule_GetState(module);
    if (PyObject_TypeCheck(obj, st->Memory_Type)) {
        return Py_NewRef(obj);
    }
    ua_suai s;
    if (ua_suai_import(st, obj, &s) < 0) {
        return NULL;
    }
    region r;
    region_of_suai(&s, obj, &r);
    PyObject *result =
        ua_py_memory_wrap_as(ua_py_memory_type_of_kind(st, r.kind), r.ptr,
                             r.nbytes, r.kind, r.readonly, r.queue, r.owner);
    ua_suai_release(&s);
    return result;
}

PyObject *
ua_py_memory_copy_from_device(PyObject *self, PyObject *obj)
{
    ua_state *st = ua_state_of(self);
    if (ua_py_memory_check_writable(self) < 0) {
        return NULL;
    }
    region r;
    ua_suai s = {.queue = NULL};
    if (PyObject_TypeCheck(obj, st->Memory_Type)) {
        region_of_memory(obj, &r);
    } else if (ua_suai_import(st, obj, &s) == 0) {
        region_of_suai(&s, obj, &r);
    } else {
        return NULL;
    }
    int rc = ua_py_memory_check_fits(self, r.nbytes, "the source");
    if (rc == 0) {
        rc = ua_py_memory_copy_bytes(st, ((ua_py_memory *)self)->queue,
                                     ((ua_py_memory *)self)->ptr, r.ptr,
                                     (size_t)r.nbytes);
    }
    ua_suai_release(&s);
    return rc < 0 ? NULL : Py_NewRef(Py_None);
}

/* The base spans from data[0] (or the lowest element, if one lies below
 * it) to the end of the reached bytes, so that re-exporting keeps data[0]
 * and offset as they were. */
PyObject *
ua_py_array_from_suai(ua_state *st, PyObject *obj)
{
    ua_suai s;
    if (ua_suai_import(st, obj, &s) < 0) {
        return NULL;
    }
    ptrdiff_t lo = s.begin < 0 ? s.begin : 0, hi = s.end > 0 ? s.end : 0;
    char *start = (char *)(s.ptr + (uintptr_t)lo);
    PyObject *mem =
        ua_py_memory_wrap(st, s.alloc.kind, start, (Py_ssize_t)(hi - lo),
                          s.readonly, s.queue, obj);
    PyObject *a = NULL;
    if (mem != NULL) {
        char *data =
            (char *)(s.ptr +
                     (uintptr_t)(s.offset *
                                 (Py_ssize_t)ua_dtype_itemsize(s.typenum)));
        /* ua_locate_region checked the layout (its byte range). */
        a = ua_py_array_make(st, s.nd, s.shape, s.strides, s.typenum, data,
                             mem, !s.readonly);
        Py_DECREF(mem);
    }
    ua_suai_release(&s);
    return a;
}
