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

/* OverflowError where NumPy made an object array (dtype dt) of source
 * because a Python int in it is past int64 and uint64; 0 otherwise. */
int ua_py_refuse_huge_int(PyObject *dt, PyObject *source);
/* A NumPy array in the other byte order copied to native order (host's
 * reference taken; a new one returned); ValueError naming the byte order
 * where copy is 0 (asarray's copy=False). */
PyObject *ua_py_native_order(PyObject *host, int copy);

#endif
