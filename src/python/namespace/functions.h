/* functions.c: what the namespace's files share of it. */
#ifndef UA_PY_FUNCTIONS_H
#define UA_PY_FUNCTIONS_H

#include "python/base/state.h"

/* The queue (a new reference) that `device` and `queue` arguments name,
 * which must agree; fallback (or the default device's queue, where NULL)
 * when neither is given. */
PyObject *ua_py_target_queue(ua_state *st, PyObject *device, PyObject *queue,
                             PyObject *fallback);

#endif
