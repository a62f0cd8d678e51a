/* elementwise.c: the catalogue's functions, for the namespace and the
 * array's operators. */
#ifndef UA_PY_ELEMENTWISE_H
#define UA_PY_ELEMENTWISE_H

#include "python/base/pyheaders.h"
#include "python/base/state.h"
#include "core/compute/compute.h"

/* f of the n operands (arrays and Python scalars).  Where into is not
 * NULL, the result is written into that array (in-place operators: it must
 * keep its dtype and shape) and into is returned.  Where `operator` is
 * set, an operand of an unsupported type gives NotImplemented rather than
 * TypeError (Python then tries the reflected operation). */
PyObject *ua_py_elementwise(ua_state *st, ua_ew_id f, PyObject *const *ops,
                            int n, PyObject *into, bool operator);
int ua_py_elementwise_add(PyObject *module);

#endif
