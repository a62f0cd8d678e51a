/* data_types.c: the Array API's data type functions. */
#ifndef UA_PY_DATA_TYPES_H
#define UA_PY_DATA_TYPES_H

#include "python/base/state.h"

/* Makes iinfo's and finfo's result types and adds astype, result_type,
 * can_cast, isdtype, iinfo and finfo to the module. */
int ua_py_data_types_add(PyObject *module, ua_state *st);

/* isdtype's test: 1 when t is of kind (a kind's name, a dtype, or a tuple
 * of those, any of which may match), 0 when not, -1 with an error whose
 * message names fn. */
int ua_py_dtype_is_kind(ua_state *st, ua_typenum t, PyObject *kind,
                        const char *fn);

#endif
