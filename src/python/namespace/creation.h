/* creation.c: the creation functions whose values follow a pattern. */
#ifndef UA_PY_CREATION_H
#define UA_PY_CREATION_H

#include "python/base/state.h"

int ua_py_creation_add(PyObject *module);

#endif
