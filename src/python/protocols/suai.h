/* suai.c: __sycl_usm_array_interface__, export and import. */
#ifndef UA_PY_SUAI_H
#define UA_PY_SUAI_H

#include "python/base/state.h"

/* An imported interface, checked and located. */
typedef struct {
    int nd;
    Py_ssize_t shape[UA_MAXDIMS];
    Py_ssize_t strides[UA_MAXDIMS];
    int has_strides;
    Py_ssize_t offset;
    ua_typenum typenum;
    uintptr_t ptr;
    int readonly;
    PyObject *queue;       /* owned reference to the Queue of syclobj */
    ua_pointer_info alloc; /* the allocation that holds ptr */
    ptrdiff_t begin, end;  /* bytes reached, relative to ptr */
} ua_suai;

/* Reads and validates obj.__sycl_usm_array_interface__.  Returns -1 with
 * an exception naming the key at fault, or 0 with out->queue owned. */
int ua_suai_import(ua_state *st, PyObject *obj, ua_suai *out);
void ua_suai_release(ua_suai *s);
/* Whether obj has the attribute, without running arbitrary code twice. */
int ua_suai_has(ua_state *st, PyObject *obj);
/* Orders the default queue of the device obj's syclobj names after the work
 * that queue has submitted, where obj exposes the interface: 0 when done
 * or when obj has no interface, -1 with an exception. */
int ua_suai_order_after_producer(ua_state *st, PyObject *obj);

#endif
