/* searching.c: the standard's searching functions (where aside). */
#ifndef UA_PY_SEARCHING_H
#define UA_PY_SEARCHING_H

#include "python/base/pyheaders.h"

int ua_py_searching_add(PyObject *module);

#endif
