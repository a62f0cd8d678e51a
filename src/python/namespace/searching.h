/* searching.c: the standard's searching functions (where aside). */
#ifndef UA_PY_SEARCHING_H
#define UA_PY_SEARCHING_H

#include "python/base/pyheaders.h"
#include "python/base/state.h"

int ua_py_searching_add(PyObject *module);

/* a as a dense, C-ordered array of type t on its queue: a itself where it
 * is one already (a new reference either way). */
PyObject *ua_py_dense_as(ua_state *st, PyObject *a, ua_typenum t);

#endif
