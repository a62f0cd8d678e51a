/* When the binding lets go of the GIL around long work. */
#ifndef UA_PY_GIL_H
#define UA_PY_GIL_H

#include "python/base/pyheaders.h"

/* Copies at least this long run with the GIL released. */
#define UA_GIL_RELEASE_BYTES (256 * 1024)

/* Releases the GIL for work of `bytes` bytes when it is long enough to be
 * worth it; ua_py_reacquire takes it back. */
static inline PyThreadState *
ua_py_release_if_long(size_t bytes)
{
    return bytes >= UA_GIL_RELEASE_BYTES ? PyEval_SaveThread() : NULL;
}

static inline void
ua_py_reacquire(PyThreadState *saved)
{
    if (saved != NULL) {
        PyEval_RestoreThread(saved);
    }
}

#endif
