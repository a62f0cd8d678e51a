/* manipulation.c: the Array API's manipulation functions. */
#ifndef UA_PY_MANIPULATION_H
#define UA_PY_MANIPULATION_H

#include "python/base/state.h"

/* Adds the manipulation functions to the module: the views made here
 * (broadcast_arrays, broadcast_to, expand_dims, flip, moveaxis,
 * permute_dims, reshape, squeeze, unstack) and the copies of
 * manipulation_copies.c (concat, stack, roll, tile, repeat). */
int ua_py_manipulation_add(PyObject *module, ua_state *st);

#endif
