/* Freed objects of the binding's two most made types, arrays and Memory,
 * kept for the next object of their type: an empty() or a DLPack import
 * otherwise pays PyObject_Malloc, a zeroing of the GC header and
 * PyObject_GC_Del for each of the two objects it makes, a fifth of its
 * cost.  A kept object is untracked, holds no reference and is of its
 * type's exact size; it is typeless memory until reused.  The GIL guards
 * the lists (the module keeps it on free-threaded builds, which get no
 * lists at all), and they are never emptied: a few kilobytes that stay
 * reachable until the process ends. */
#ifndef UA_PY_FREELIST_H
#define UA_PY_FREELIST_H

#include <string.h>

#include "python/base/pyheaders.h"

#define UA_FREELIST_DEPTH 32

/* Under ASan a kept object is memory nobody may touch, as a freed one
 * would be: a use of an array after its last reference is still found. */
#if defined(__SANITIZE_ADDRESS__)
#define UA_FREELIST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UA_FREELIST_ASAN 1
#endif
#endif
#ifdef UA_FREELIST_ASAN
#include <sanitizer/asan_interface.h>
#define ua_freelist_poison(op, n) ASAN_POISON_MEMORY_REGION(op, n)
#define ua_freelist_unpoison(op, n) ASAN_UNPOISON_MEMORY_REGION(op, n)
#else
#define ua_freelist_poison(op, n) ((void)(op), (void)(n))
#define ua_freelist_unpoison(op, n) ((void)(op), (void)(n))
#endif

typedef struct {
    int count;
    PyObject *items[UA_FREELIST_DEPTH];
} ua_freelist;

extern ua_freelist ua_array_freelist;
extern ua_freelist ua_memory_freelist;

/* Whether objects of tp may live in a freelist whose objects end in
 * `dealloc`: the binding's own types alone, whose memory has the GC header
 * and nothing else before the object (subclasses, which Python gives
 * subtype_dealloc, may have a dictionary there). */
static inline int
ua_freelist_admits(PyTypeObject *tp, destructor dealloc)
{
    return tp->tp_dealloc == dealloc && tp->tp_itemsize == 0 &&
           tp->tp_free == PyObject_GC_Del;
}

/* A new object of type, as type->tp_alloc(type, 0) makes it (zeroed past
 * its header, GC-tracked), from fl where it holds one and type's objects
 * end in `dealloc`. */
static inline PyObject *
ua_freelist_alloc(ua_freelist *fl, PyTypeObject *type, destructor dealloc)
{
#ifndef Py_GIL_DISABLED
    if (fl->count > 0 && ua_freelist_admits(type, dealloc)) {
        PyObject *op = fl->items[--fl->count];
        ua_freelist_unpoison(op, (size_t)type->tp_basicsize);
        memset((char *)op + sizeof(PyObject), 0,
               (size_t)type->tp_basicsize - sizeof(PyObject));
        PyObject_Init(op, type);
        PyObject_GC_Track(op);
        return op;
    }
#endif
    return type->tp_alloc(type, 0);
}

/* Ends `dealloc` in place of tp->tp_free(op): keeps op in fl where its
 * type is one of the binding's own, of fl's objects' size `basicsize`; op
 * is untracked and holds nothing any more. */
static inline void
ua_freelist_free(ua_freelist *fl, PyObject *op, destructor dealloc,
                 Py_ssize_t basicsize)
{
    PyTypeObject *tp = Py_TYPE(op);
#ifndef Py_GIL_DISABLED
    if (fl->count < UA_FREELIST_DEPTH && tp->tp_basicsize == basicsize &&
        ua_freelist_admits(tp, dealloc)) {
        fl->items[fl->count++] = op;
        ua_freelist_poison(op, (size_t)basicsize);
        return;
    }
#endif
    tp->tp_free(op);
}

#endif
