/* When the binding lets go of the GIL around long work, and what an
 * array's layout owes to the work that reads it meanwhile. */
#ifndef UA_PY_GIL_H
#define UA_PY_GIL_H

#include <stdbool.h>

#include "python/base/pyheaders.h"

/* Copies at least this long run with the GIL released. */
#define UA_GIL_RELEASE_BYTES (256 * 1024)

/* Counts the work running without the GIL.  Such work reads the shapes and
 * strides it was handed, which may be an array's own storage: while any
 * runs, the shape setter leaves that storage as it is (see
 * ua_py_retire_layout). */
void ua_py_released_work_begin(void);
void ua_py_released_work_end(void);

/* Whether work without the GIL may be reading some array's layout now. */
bool ua_py_layout_may_be_read(void);

/* Hands an array's former layout storage (PyMem_Malloc'd) over to be freed
 * once no work runs without the GIL; -1 with MemoryError set if it cannot
 * be kept, which leaves the storage with its array. */
int ua_py_retire_layout(Py_ssize_t *storage);

/* Releases the GIL for work of `bytes` bytes when it is long enough to be
 * worth it; ua_py_reacquire takes it back.  The work's arguments are read
 * before: another thread may change an array's layout meanwhile. */
static inline PyThreadState *
ua_py_release_if_long(size_t bytes)
{
    if (bytes < UA_GIL_RELEASE_BYTES) {
        return NULL;
    }
    ua_py_released_work_begin();
    return PyEval_SaveThread();
}

static inline void
ua_py_reacquire(PyThreadState *saved)
{
    if (saved != NULL) {
        PyEval_RestoreThread(saved);
        ua_py_released_work_end();
    }
}

#endif
