/* The layouts of the binding's objects, and who holds which reference.
 * Every PyObject * field below is a strong reference the object releases
 * in its dealloc (and visits, for the GC types); the core handles are
 * owned as each comment says. */
#ifndef UA_PY_OBJECTS_H
#define UA_PY_OBJECTS_H

#include "python/base/pyheaders.h"

/* usmarray.Device.  The core device is the runtime's: never freed. */
typedef struct {
    PyObject_HEAD
    ua_device *device;
} ua_py_device;

/* usmarray.Context.  The core context belongs to the core (one per
 * device); device is held so that ctx.sycl_device stays the same object
 * for as long as the context lives. */
typedef struct {
    PyObject_HEAD
    ua_context *context;
    PyObject *device;
} ua_py_context;

/* usmarray.Queue.  device and context are held so that the objects a user
 * reaches from a queue stay the ones it was made with. */
typedef struct {
    PyObject_HEAD
    ua_queue *queue;
    PyObject *device;
    PyObject *context;
    bool owned;      /* made anew: destroyed with this object */
    PyObject *owner; /* what keeps a wrapped stream alive, or NULL */
} ua_py_queue;

/* usmarray.Memory and its USM kinds.  queue is held because the memory is
 * freed on (and its copies ordered by) that queue; refobj keeps borrowed
 * memory's real owner alive for as long as anything views it. */
typedef struct {
    PyObject_HEAD
    char *ptr;
    Py_ssize_t nbytes;
    ua_usm_kind kind;
    int readonly;
    ua_allocation *owned; /* the allocation this object frees, or NULL */
    PyObject *queue;      /* a Queue */
    PyObject *refobj;     /* what keeps borrowed memory alive, or NULL */
    PyObject *weakreflist;
    /* Run once on release_arg when the memory dies, after `owned` is freed
     * (an imported DLPack tensor's deleter), or NULL. */
    void (*release)(void *);
    void *release_arg;
} ua_py_memory;

/* usmarray.USMArray: the struct of the C API.  base is the Memory that
 * owns the elements, held so that data stays valid; shape and strides
 * point into inline_dims or into one PyMem block the array frees. */
/* The binding is the C API's provider, not a user of its capsule. */
#define USMARRAY_INTERNAL_BUILD
#include "usmarray/usmarray_api.h"

#define ARR(o) ((PyUSMArrayObject *)(o))

/* The Memory that owns an array's elements. */
static inline ua_py_memory *
base_of(PyObject *array)
{
    return (ua_py_memory *)ARR(array)->base;
}

/* The object of a Memory, and the core queue of a Queue object. */
static inline ua_py_memory *
mem(PyObject *memory)
{
    return (ua_py_memory *)memory;
}

static inline ua_queue *
queue_of(PyObject *queue)
{
    return ((ua_py_queue *)queue)->queue;
}

/* The core queue of an array's memory. */
static inline ua_queue *
queue_of_array(PyObject *array)
{
    return ((ua_py_queue *)base_of(array)->queue)->queue;
}

_Static_assert(USM_ARRAY_MAX_NDIM == UA_MAXDIMS,
               "the C API states the core's limit of dimensions");
_Static_assert(USM_ARRAY_C_CONTIGUOUS == UA_LAYOUT_C_CONTIGUOUS &&
                   USM_ARRAY_F_CONTIGUOUS == UA_LAYOUT_F_CONTIGUOUS,
               "array flags carry the core's contiguity bits");

#endif
