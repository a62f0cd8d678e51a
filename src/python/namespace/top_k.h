/* top_k.c: dpctl's top_k. */
#ifndef UA_PY_TOP_K_H
#define UA_PY_TOP_K_H

#include "python/base/state.h"

int ua_py_top_k_add(PyObject *module);

#endif
