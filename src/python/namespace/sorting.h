/* sorting.c: the standard's sorting functions. */
#ifndef UA_PY_SORTING_H
#define UA_PY_SORTING_H

#include "python/base/state.h"

int ua_py_sorting_add(PyObject *module);
/* x sorted along axis (already normalized), or the indices that sort it:
 * a new array. */
PyObject *ua_py_sorted(ua_state *st, PyObject *x, int axis, bool descending,
                       bool argsort);

/* sort (argsort where argsort) of a 0-d x, as dpctl has it: a copy of
 * x (the index 0, int64); axis (NULL where omitted) must be 0 or -1. */
PyObject *ua_py_sorted_scalar(ua_state *st, PyObject *x, PyObject *axis,
                              const char *fn, bool argsort);

#endif
