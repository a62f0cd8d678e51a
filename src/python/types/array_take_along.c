/* take_along_axis: each index matched to one row of x along the other
 * axes, which broadcast, by the backend's take-along kernel. */
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/types/arrays.h"

#include "core/compute/compute.h"

PyObject *
ua_py_array_take_along_axis(ua_state *st, PyObject *x, PyObject *indices,
                            int axis)
{
    PyObject *ix = ua_py_integer_indices(st, x, indices, "take_along_axis");
    if (ix == NULL) {
        return NULL;
    }
    int nd = ARR(x)->nd;
    if (ARR(ix)->nd != nd) {
        PyErr_Format(PyExc_ValueError,
                     "take_along_axis: the indices must have the array's %d "
                     "dimensions, not %d",
                     nd, ARR(ix)->nd);
        Py_DECREF(ix);
        return NULL;
    }
    /* The other axes broadcast against each other. */
    Py_ssize_t shape[UA_MAXDIMS], xs[UA_MAXDIMS], is[UA_MAXDIMS];
    for (int j = 0; j < nd; j++) {
        Py_ssize_t n = ARR(x)->shape[j], m = ARR(ix)->shape[j];
        if (j != axis && n != m && n != 1 && m != 1) {
            PyErr_Format(PyExc_ValueError,
                         "take_along_axis: along axis %d the array's length "
                         "%zd and the indices' %zd do not broadcast",
                         j, n, m);
            Py_DECREF(ix);
            return NULL;
        }
        shape[j] = j == axis ? m : (n == 1 ? m : n);
        xs[j] = j == axis || n == 1 ? 0 : ARR(x)->strides[j];
        is[j] = m == 1 ? 0 : ARR(ix)->strides[j];
    }
    PyObject *out =
        ua_py_array_empty(st, nd, shape, NULL, (ua_typenum)ARR(x)->typenum,
                          'C', base_of(x)->kind, base_of(x)->queue);
    if (out != NULL) {
        ua_strided xa = {ARR(x)->data, xs, (ua_typenum)ARR(x)->typenum};
        ua_strided ia = {ARR(ix)->data, is, UA_INT64};
        ua_strided ra = ua_py_array_strided(out);
        ua_queue *q = queue_of(base_of(x)->queue);
        Py_ssize_t length = ARR(x)->shape[axis], step = ARR(x)->strides[axis];
        PyThreadState *saved = ua_py_release_if_long(
            (size_t)ua_py_array_size(out) * ua_py_array_itemsize(x));
        ua_status code = ua_queue_take_along_axis(q, nd, shape, &xa, axis,
                                                  length, step, &ia, &ra);
        ua_py_reacquire(saved);
        if (code != UA_OK) {
            Py_CLEAR(out);
            ua_py_fail_core(st, code);
        }
    }
    Py_DECREF(ix);
    return out;
}
