/* USMArray objects as the C code makes and ends them: views of a Memory
 * (ua_py_array_new, which checks the layout), new allocations
 * (ua_py_array_empty), snapshots, and tp_dealloc, which keeps freed arrays
 * for ua_py_array_make (freelist.h).  Apart from array.c, whose type
 * tables name the slots and methods of array_views.c, array_copy.c and the
 * others: those files make arrays through these functions, below the
 * tables, so that no call returns to the file that calls them. */
#include "python/base/pyheaders.h"
#include "python/base/errors.h"
#include "python/base/freelist.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/types/memory.h"

PyObject *
ua_py_array_new(ua_state *st, int nd, const Py_ssize_t *shape,
                const Py_ssize_t *strides, ua_typenum t, char *data,
                PyObject *base, int writable)
{
    ptrdiff_t size;
    size_t isz = ua_dtype_itemsize(t);
    /* Every new layout passes here: no shape of more axes than an array
     * holds, whose element or byte count overflows, and no stride beyond a
     * byte count, can exist to be multiplied out later. */
    if (ua_layout_check_ndim(NULL, nd) != UA_OK ||
        ua_layout_check_size(nd, shape, isz, &size) != UA_OK ||
        ua_layout_check_strides(nd, strides, isz) != UA_OK) {
        return ua_py_raise_core(st, ua_error_code());
    }
    return ua_py_array_make(st, nd, shape, strides, t, data, base, writable);
}

static Py_ssize_t
allocation_bytes(int nd, const Py_ssize_t *shape, ua_typenum t)
{
    ptrdiff_t n;
    size_t isz = ua_dtype_itemsize(t);
    if (ua_layout_check_ndim(NULL, nd) != UA_OK ||
        ua_layout_check_size(nd, shape, isz, &n) != UA_OK) {
        return -1;
    }
    /* An empty array still owns an allocation: one element. */
    return n > 0 ? n * (Py_ssize_t)isz : (Py_ssize_t)isz;
}

PyObject *
ua_py_array_empty(ua_state *st, int nd, const Py_ssize_t *shape,
                  const Py_ssize_t *like, ua_typenum t, char order,
                  ua_usm_kind kind, PyObject *queue)
{
    Py_ssize_t strides[UA_MAXDIMS];
    Py_ssize_t nbytes = allocation_bytes(nd, shape, t);
    if (nbytes < 0) {
        return ua_py_raise_core(st, ua_error_code());
    }
    PyObject *mem = ua_py_memory_new(st, kind, nbytes, 0, queue);
    if (mem == NULL) {
        return NULL;
    }
    if (order == 'K' && like != NULL) {
        ua_layout_strides_like(nd, shape, like, strides);
    } else {
        ua_layout_default_strides(nd, shape, order == 'F' ? 'F' : 'C',
                                  strides);
    }
    /* allocation_bytes checked the shape, and strides of a dense layout
     * of it stay within its bytes: ua_py_array_new's checks would pass. */
    PyObject *a = ua_py_array_make(st, nd, shape, strides, t,
                                   ((ua_py_memory *)mem)->ptr, mem, 1);
    Py_DECREF(mem);
    return a;
}

PyObject *
ua_py_array_snapshot(PyObject *self)
{
    PyUSMArrayObject *a = ARR(self);
    return ua_py_array_make(ua_state_of(self), a->nd, a->shape, a->strides,
                            (ua_typenum)a->typenum, a->data, a->base,
                            (a->flags & USM_ARRAY_WRITABLE) != 0);
}

/* ------------------------------------------------------------ lifetime */

ua_freelist ua_array_freelist;

void
ua_py_array_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (ARR(self)->weakreflist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    if (ARR(self)->shape != NULL &&
        ARR(self)->shape != ARR(self)->inline_dims) {
        PyMem_Free(ARR(self)->shape);
    }
    Py_CLEAR(ARR(self)->base);
    ua_freelist_free(&ua_array_freelist, self, ua_py_array_dealloc,
                     sizeof(PyUSMArrayObject));
    Py_DECREF(tp);
}
