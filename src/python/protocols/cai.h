/* cai.c: __cuda_array_interface__, export and import. */
#ifndef UA_PY_CAI_H
#define UA_PY_CAI_H

#include "python/base/state.h"

typedef struct {
    int nd;
    Py_ssize_t shape[UA_MAXDIMS];
    Py_ssize_t strides[UA_MAXDIMS]; /* elements */
    ua_typenum typenum;
    uintptr_t ptr;
    int readonly;
    int empty;             /* no elements: nothing is located */
    uintptr_t stream;      /* the producer's stream, 0 when not given */
    ua_pointer_info alloc; /* the allocation that holds the elements */
    ptrdiff_t begin, end;  /* bytes reached, relative to ptr */
} ua_cai;

/* Reads, validates and locates obj.__cuda_array_interface__. */
int ua_cai_import(ua_state *st, PyObject *obj, ua_cai *out);
/* A USMArray over the memory of a CAI object, keeping obj alive. */
PyObject *ua_py_array_from_cai(ua_state *st, PyObject *obj);

#endif
