/* sets.c: the standard's set functions and their result types. */
#ifndef UA_PY_SETS_H
#define UA_PY_SETS_H

#include "python/base/pyheaders.h"

int ua_py_sets_add(PyObject *module);

#endif
