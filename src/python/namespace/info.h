/* info.c: the Array API's inspection utilities. */
#ifndef UA_PY_INFO_H
#define UA_PY_INFO_H

#include "python/base/state.h"

/* Adds the type __array_namespace_info__, whose instances answer the
 * inspection methods, to the module. */
int ua_py_info_add(PyObject *module, ua_state *st);

#endif
