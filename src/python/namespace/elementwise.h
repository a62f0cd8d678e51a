/* elementwise.c: the catalogue's functions in the namespace. */
#ifndef UA_PY_ELEMENTWISE_H
#define UA_PY_ELEMENTWISE_H

#include "python/base/pyheaders.h"
#include "python/base/state.h"
#include "core/compute/compute.h"

int ua_py_elementwise_add(PyObject *module);

#endif
