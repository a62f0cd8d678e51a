/* What every file of the binding includes first: Python and the core. */
#ifndef UA_PY_PYHEADERS_H
#define UA_PY_PYHEADERS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core/core.h"

_Static_assert(sizeof(Py_ssize_t) == sizeof(ptrdiff_t),
               "the core's ptrdiff_t layouts are shared with Py_ssize_t");

#endif
