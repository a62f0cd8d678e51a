/* indexing.c: the standard's indexing functions. */
#ifndef UA_PY_INDEXING_H
#define UA_PY_INDEXING_H

#include "python/base/state.h"

int ua_py_indexing_add(PyObject *module);

#endif
