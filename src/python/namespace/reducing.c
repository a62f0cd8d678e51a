/* The arguments and runs that the namespace's reductions, scans and
 * searches share, each worded once. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/dtypes.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/reducing.h"

#include "core/compute/promote.h"

int
ua_py_reduce_axes(ua_state *st, PyObject *axis, const char *fn, int nd,
                  uint64_t *axes)
{
    if (axis == NULL || axis == Py_None) {
        *axes = nd == 64 ? ~(uint64_t)0 : ((uint64_t)1 << nd) - 1;
        return 0;
    }
    int list[UA_MAXDIMS], n = 0;
    if (ua_py_parse_axis_set(st, axis, fn, nd, list, &n) < 0) {
        return -1;
    }
    *axes = 0;
    for (int k = 0; k < n; k++) {
        *axes |= (uint64_t)1 << list[k];
    }
    return 0;
}

int
ua_py_parse_bool(PyObject *obj, const char *fn, const char *what, int *out)
{
    if (obj == NULL) {
        return 0;
    }
    if (!PyBool_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: %s must be a bool, not %.100s", fn,
                     what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    *out = obj == Py_True;
    return 0;
}

int
ua_py_sum_dtype(ua_state *st, PyObject *x, PyObject *dtype, const char *fn,
                ua_typenum *out)
{
    ua_typenum t = (ua_typenum)ARR(x)->typenum;
    if (dtype != NULL && dtype != Py_None) {
        if (ua_py_typenum(st, dtype, out) < 0) {
            return -1;
        }
        if (*out == UA_BOOL ||
            (ua_dtype_kind(t) == 'c' && ua_dtype_kind(*out) != 'c')) {
            PyErr_Format(PyExc_TypeError,
                         "%s: cannot accumulate %s values in dtype %s", fn,
                         ua_dtype_name(t), ua_dtype_name(*out));
            return -1;
        }
        return 0;
    }
    switch (ua_dtype_kind(t)) {
    case 'b':
    case 'i':
        *out = UA_INT64;
        break;
    case 'u':
        *out = UA_UINT64;
        break;
    default:
        *out = t;
    }
    return 0;
}

ua_typenum
ua_py_default_float(PyObject *x)
{
    ua_default_dtypes d = ua_default_dtypes_for(
        ua_device_has_fp64(ua_queue_device(queue_of_array(x))));
    return d.real_floating;
}

PyObject *
ua_py_result_like(ua_state *st, PyObject *x, int nd, const Py_ssize_t *shape,
                  ua_typenum t)
{
    return ua_py_array_empty(st, nd, shape, NULL, t, 'C', base_of(x)->kind,
                             base_of(x)->queue);
}

int
ua_py_run_core(ua_state *st, ua_status code)
{
    return code == UA_OK ? 0 : ua_py_fail_core(st, code);
}

/* op over axes of x into out, whose axes are x's kept ones (and the
 * reduced ones as length 1 where keepdims). */
static int
reduce_into(ua_state *st, PyObject *x, ua_reduce_op op, uint64_t axes,
            int keepdims, ua_typenum rtype, double correction, PyObject *out)
{
    PyUSMArrayObject *a = ARR(x);
    /* The result's strides over x's kept axes only. */
    Py_ssize_t rstrides[UA_MAXDIMS];
    int j = 0;
    for (int k = 0, o = 0; k < a->nd; k++) {
        if (!(axes >> k & 1)) {
            rstrides[j++] = ARR(out)->strides[o++];
        } else if (keepdims) {
            o++;
        }
    }
    ua_reduce_request r = {op,        a->nd,
                           a->shape,  ua_py_array_strided(x),
                           axes,      {ARR(out)->data, rstrides, rtype},
                           correction};
    size_t bytes = (size_t)ua_py_array_size(x) * ua_py_array_itemsize(x);
    PyThreadState *saved = ua_py_release_if_long(bytes);
    ua_status code = ua_queue_reduce(queue_of_array(x), &r);
    ua_py_reacquire(saved);
    return ua_py_run_core(st, code);
}

PyObject *
ua_py_reduce(ua_state *st, PyObject *x, ua_reduce_op op, uint64_t axes,
             int keepdims, ua_typenum rtype, double correction)
{
    return ua_py_reduce_out(st, NULL, x, op, axes, keepdims, rtype, correction,
                            NULL);
}

PyObject *
ua_py_reduce_out(ua_state *st, const char *fn, PyObject *x, ua_reduce_op op,
                 uint64_t axes, int keepdims, ua_typenum rtype,
                 double correction, PyObject *dest)
{
    PyUSMArrayObject *a = ARR(x);
    Py_ssize_t shape[UA_MAXDIMS];
    int nd = 0;
    for (int k = 0; k < a->nd; k++) {
        if (!(axes >> k & 1)) {
            shape[nd++] = a->shape[k];
        } else if (keepdims) {
            shape[nd++] = 1;
        }
    }
    if (dest != NULL &&
        ua_py_check_out(st, fn, dest, nd, shape, rtype, x) < 0) {
        return NULL;
    }
    /* An out that x's bytes meet takes the result once it is whole: the
     * kernel may write an element before it reads the last input. */
    bool direct = dest != NULL && !ua_py_arrays_may_overlap(x, dest);
    PyObject *out =
        direct ? Py_NewRef(dest) : ua_py_result_like(st, x, nd, shape, rtype);
    if (out == NULL) {
        return NULL;
    }
    if (reduce_into(st, x, op, axes, keepdims, rtype, correction, out) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    if (dest == NULL || direct) {
        return out;
    }
    int copied = ua_py_array_assign(st, dest, out);
    Py_DECREF(out);
    return copied < 0 ? NULL : Py_NewRef(dest);
}
