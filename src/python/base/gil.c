/* The work that runs without the GIL, and the layout storage that waits
 * for it to end.  Both change only with the GIL held. */
#include "python/base/gil.h"

static long released_work;
static Py_ssize_t **retired;
static size_t retired_count, retired_room;

static void
free_retired(void)
{
    for (size_t i = 0; i < retired_count; i++) {
        PyMem_Free(retired[i]);
    }
    retired_count = 0;
}

void
ua_py_released_work_begin(void)
{
    released_work++;
}

void
ua_py_released_work_end(void)
{
    if (--released_work == 0) {
        free_retired();
    }
}

bool
ua_py_layout_may_be_read(void)
{
    return released_work > 0;
}

int
ua_py_retire_layout(Py_ssize_t *storage)
{
    if (retired_count == retired_room) {
        size_t room = retired_room ? 2 * retired_room : 16;
        Py_ssize_t **grown = PyMem_Realloc(retired, room * sizeof *grown);
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        retired = grown;
        retired_room = room;
    }
    retired[retired_count++] = storage;
    return 0;
}
