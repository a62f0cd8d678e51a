/* utility.c: the standard's utility functions (all, any, diff). */
#ifndef UA_PY_UTILITY_H
#define UA_PY_UTILITY_H

#include "python/base/pyheaders.h"

#include "core/compute/reduce.h"

int ua_py_utility_add(PyObject *module);
/* all, any and count_nonzero: a reduction of truth over
 * (x, /, *, axis=None, keepdims=False). */
PyObject *ua_py_truth_reduction(PyObject *module, PyObject *const *args,
                                Py_ssize_t nargs, PyObject *kwnames,
                                const char *fn, ua_reduce_op op);

#endif
