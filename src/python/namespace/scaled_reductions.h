/* scaled_reductions.c: dpctl's logsumexp and reduce_hypot. */
#ifndef UA_PY_SCALED_REDUCTIONS_H
#define UA_PY_SCALED_REDUCTIONS_H

#include "python/base/state.h"

int ua_py_scaled_reductions_add(PyObject *module);

#endif
