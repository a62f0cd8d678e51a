/* statistical.c: the standard's statistical functions. */
#ifndef UA_PY_STATISTICAL_H
#define UA_PY_STATISTICAL_H

#include "python/base/pyheaders.h"

int ua_py_statistical_add(PyObject *module);

#endif
