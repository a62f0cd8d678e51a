/* dtypes.c: NumPy and its dtypes. */
#ifndef UA_PY_DTYPES_H
#define UA_PY_DTYPES_H

#include "python/base/state.h"

/* The numpy module (borrowed from the state; imported on first use). */
PyObject *ua_py_numpy(ua_state *st);
/* The type number of a dtype-like argument (numpy dtype, type or string);
 * unsupported types raise TypeError, non-native byte order ValueError. */
int ua_py_typenum(ua_state *st, PyObject *obj, ua_typenum *out);
/* The numpy.dtype object of a type number (borrowed). */
PyObject *ua_py_dtype(ua_state *st, ua_typenum t);

#endif
