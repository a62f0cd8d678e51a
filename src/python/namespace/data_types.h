/* data_types.c: the Array API's data type functions. */
#ifndef UA_PY_DATA_TYPES_H
#define UA_PY_DATA_TYPES_H

#include "python/base/state.h"

/* Makes iinfo's and finfo's result types and adds result_type, can_cast,
 * isdtype, iinfo and finfo to the module. */
int ua_py_data_types_add(PyObject *module, ua_state *st);

#endif
