/* reducing.c: what the reductions, scans and searches of the namespace
 * share: the axis and keepdims arguments, the dtypes the standard gives
 * their results, and a reduction's run from arguments to result. */
#ifndef UA_PY_REDUCING_H
#define UA_PY_REDUCING_H

#include "python/base/state.h"

#include "core/compute/reduce.h"

/* axis: None (every axis), an int or a sequence of ints, as a set of
 * bits over nd axes. */
int ua_py_reduce_axes(ua_state *st, PyObject *axis, const char *fn, int nd,
                      uint64_t *axes);
/* keepdims: a bool. */
int ua_py_parse_bool(PyObject *obj, const char *fn, const char *what,
                     int *out);
/* The dtype of a sum, product or cumulative one: dtype where given, else
 * x's, widened as the standard says (bool and signed integers to the
 * default integer, unsigned ones to uint64). */
int ua_py_sum_dtype(ua_state *st, PyObject *x, PyObject *dtype, const char *fn,
                    ua_typenum *out);
/* The default real floating dtype of x's device. */
ua_typenum ua_py_default_float(PyObject *x);
/* op over axes of x into a new array of type rtype on x's queue (the
 * reduced axes kept as length 1 where keepdims). */
PyObject *ua_py_reduce(ua_state *st, PyObject *x, ua_reduce_op op,
                       uint64_t axes, int keepdims, ua_typenum rtype,
                       double correction);
/* ua_py_reduce into dest where it is not NULL (out= of fn, checked by
 * ua_py_check_out), which it returns: directly where dest does not meet
 * x's bytes, else through a temporary. */
PyObject *ua_py_reduce_out(ua_state *st, const char *fn, PyObject *x,
                           ua_reduce_op op, uint64_t axes, int keepdims,
                           ua_typenum rtype, double correction,
                           PyObject *dest);
/* A new array on x's queue and of its USM kind, C-ordered. */
PyObject *ua_py_result_like(ua_state *st, PyObject *x, int nd,
                            const Py_ssize_t *shape, ua_typenum t);
/* 0 for UA_OK, else -1 with the exception of the core's error. */
int ua_py_run_core(ua_state *st, ua_status code);

#endif
