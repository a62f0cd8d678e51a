/* linalg.c: the linear algebra functions of the core namespace. */
#ifndef UA_PY_LINALG_H
#define UA_PY_LINALG_H

#include "python/base/pyheaders.h"

int ua_py_linalg_add(PyObject *module);

#endif
