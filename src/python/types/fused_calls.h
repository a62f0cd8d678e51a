/* usmarray.fuse's table of small calls, _FusedCalls (fused_calls.c). */
#ifndef USMARRAY_PYTHON_TYPES_FUSED_CALLS_H
#define USMARRAY_PYTHON_TYPES_FUSED_CALLS_H

#include "python/base/pyheaders.h"
#include "python/base/state.h"

/* (dtype, shape, device) of each USMArray of a tuple of arguments and the
 * type of anything else: what names a small call of a fused function. */
PyObject *ua_py_fused_call_key(ua_state *st, PyObject *args);

int ua_py_fused_calls_add_type(PyObject *module, ua_state *st);

#endif
