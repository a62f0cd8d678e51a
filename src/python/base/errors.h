/* errors.c: the core's statuses as Python exceptions. */
#ifndef UA_PY_ERRORS_H
#define UA_PY_ERRORS_H

#include "python/base/state.h"

/* errors.c: raises the exception for the core's last error; returns NULL. */
PyObject *ua_py_raise_core(ua_state *st, ua_status code);
int ua_py_fail_core(ua_state *st, ua_status code); /* same, returns -1 */
/* "PREFIX: core message"; PREFIX is formatted as PyUnicode_FromFormat does. */
PyObject *ua_py_raise_core_prefixed(ua_state *st, ua_status code,
                                    const char *fmt, ...);
/* "PREFIX: core messageSUFFIX". */
PyObject *ua_py_raise_core_around(ua_state *st, ua_status code,
                                  PyObject *prefix, const char *suffix);
/* 0 when a result of nd dimensions, composed by fn from its operands,
 * can exist; else -1 with the core's ValueError naming fn and the limit. */
int ua_py_check_ndim(ua_state *st, const char *fn, Py_ssize_t nd);

#endif
