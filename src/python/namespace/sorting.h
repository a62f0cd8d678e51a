/* sorting.c: the standard's sorting functions. */
#ifndef UA_PY_SORTING_H
#define UA_PY_SORTING_H

#include "python/base/state.h"

int ua_py_sorting_add(PyObject *module);
/* x sorted along axis (already normalized), or the indices that sort it:
 * a new array. */
PyObject *ua_py_sorted(ua_state *st, PyObject *x, int axis, bool descending,
                       bool argsort);

#endif
