/* linalg.det and linalg.slogdet.  On a queue whose library calls take
 * them (the host's, library.h's ua_queue_solver_takes) each is one pass
 * over a column-major copy: the LU factors and the diagonal's product in
 * the host's loops.  Elsewhere they are composed of the LU factorization
 * and the namespace's functions: the diagonal's product (or its signs and
 * the sum of its logarithms) and the parity of the row swaps. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/dtypes.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/linalg_ext.h"
#include "python/namespace/reducing.h"
#include "python/namespace/sets.h"
#include "core/compute/library.h"

#include <string.h>

/* det (slog false) or slogdet of x in one pass of the solver's DET or
 * SLOGDET: 1 with the result (or NULL and an error) in *out, 0 where the
 * queue does not take them or the matrices are empty (the composition
 * below answers then). */
static int
direct(PyObject *module, PyObject *x, const char *fn, bool slog,
       PyObject **out)
{
    ua_state *st = PyModule_GetState(module);
    ua_typenum t;
    Py_ssize_t n;
    if (ua_py_la_operand(st, x, fn, &t) < 0 ||
        ua_py_la_check_square(x, fn, &n) < 0) {
        return 1;
    }
    ua_solver_op op = slog ? UA_SOLVER_SLOGDET : UA_SOLVER_DET;
    if (n == 0 || !ua_queue_solver_takes(queue_of_array(x), op)) {
        return 0;
    }
    int nd = ARR(x)->nd - 2;
    Py_ssize_t shape[UA_MAXDIMS];
    memcpy(shape, ARR(x)->shape, (size_t)nd * sizeof *shape);
    PyObject *a = ua_py_la_colmajor_copy(st, x, t);
    PyObject *d = a != NULL ? ua_py_result_like(st, x, nd, shape, t) : NULL;
    PyObject *logabs = d != NULL && slog ? ua_py_result_like(st, x, nd, shape,
                                                             ua_py_real_of(t))
                                         : NULL;
    if (d != NULL && (!slog || logabs != NULL)) {
        ua_solver_plan p = {.op = op,
                            .type = t,
                            .batch = ua_py_la_batch_of(x),
                            .m = n,
                            .n = n,
                            .a = ARR(a)->data,
                            .det = ARR(d)->data,
                            .w = slog ? ARR(logabs)->data : NULL};
        if (ua_py_la_run_solver(st, x, &p) < 0) {
            Py_CLEAR(d);
            Py_CLEAR(logabs);
        }
    }
    Py_XDECREF(a);
    if (!slog || d == NULL || logabs == NULL) {
        Py_XDECREF(logabs);
        *out = d;
        return 1;
    }
    PyObject *items[2] = {d, logabs};
    *out = ua_py_struct_of(st->SlogdetResult_Type, 2, items);
    return 1;
}

/* LU factors of x's matrices (column-major) and their pivots. */
static int
lu_factors(ua_state *st, PyObject *x, const char *fn, PyObject **lu,
           PyObject **pivots)
{
    ua_typenum t;
    Py_ssize_t n;
    if (ua_py_la_operand(st, x, fn, &t) < 0 ||
        ua_py_la_check_square(x, fn, &n) < 0) {
        return -1;
    }
    Py_ssize_t shape[UA_MAXDIMS];
    int nd = ua_py_la_batch_shape(x, n, -1, shape);
    *lu = ua_py_la_colmajor_copy(st, x, t);
    *pivots =
        *lu != NULL ? ua_py_result_like(st, x, nd, shape, UA_INT32) : NULL;
    if (*pivots != NULL) {
        ua_solver_plan p = {.op = UA_SOLVER_LU,
                            .type = t,
                            .batch = ua_py_la_batch_of(x),
                            .m = n,
                            .n = n,
                            .a = ARR(*lu)->data,
                            .pivots = (int32_t *)ARR(*pivots)->data};
        if (ua_py_la_run_solver(st, x, &p) == 0) {
            return 0;
        }
    }
    Py_CLEAR(*lu);
    Py_CLEAR(*pivots);
    return -1;
}

/* Where an odd number of rows were swapped, -v; else v. */
static PyObject *
apply_parity(PyObject *module, PyObject *x, PyObject *pivots, PyObject *v)
{
    ua_state *st = PyModule_GetState(module);
    Py_ssize_t n = ARR(x)->shape[ARR(x)->nd - 1];
    PyObject *rows =
        ua_py_ns_call(module, "arange", Py_BuildValue("(nn)", 1, n + 1),
                      ua_py_la_beside(module, x, "int32", UA_INT32));
    PyObject *moved = ua_py_la_ew2(st, UA_EW_not_equal, pivots, rows);
    Py_XDECREF(rows);
    PyObject *swaps =
        ua_py_la_reduce_last(st, UA_REDUCE_COUNT, moved, 1, false);
    Py_XDECREF(moved);
    PyObject *two = PyLong_FromLong(2), *one = PyLong_FromLong(1);
    PyObject *rem = ua_py_la_ew2(st, UA_EW_remainder, swaps, two);
    PyObject *odd = ua_py_la_ew2(st, UA_EW_equal, rem, one);
    PyObject *neg = ua_py_la_ew1(st, UA_EW_negative, v);
    PyObject *out = ua_py_la_where(st, odd, neg, v);
    Py_XDECREF(swaps);
    Py_XDECREF(two);
    Py_XDECREF(one);
    Py_XDECREF(rem);
    Py_XDECREF(odd);
    Py_XDECREF(neg);
    return out;
}

/* sign and log |det| of x's matrices from their LU factors, as NumPy
 * computes them: a real pivot's sign is -1 where it is negative, 0 where
 * it is 0 and +1 otherwise (a NaN pivot leaves the sign +-1, as NumPy's
 * count of negative pivots does); a complex pivot's is d / |d|. */
/* The pivots, in double precision where widen asks and the device has it
 * (NumPy computes single-precision determinants so, rounding once). */
static PyObject *
pivots_of(ua_state *st, PyObject *lu, bool widen)
{
    PyObject *d = ua_py_diagonal_view(st, lu, 0);
    if (d == NULL || !widen || ua_py_default_float(d) != UA_FLOAT64) {
        return d;
    }
    ua_typenum t = (ua_typenum)ARR(d)->typenum;
    ua_typenum wide = t == UA_COMPLEX64 ? UA_COMPLEX128
                      : t == UA_FLOAT32 ? UA_FLOAT64
                                        : t;
    if (wide != t) {
        Py_SETREF(d, ua_py_array_copy(st, d, wide, 'C', base_of(d)->kind,
                                      base_of(d)->queue));
    }
    return d;
}

static int
composed_slogdet(PyObject *module, PyObject *x, const char *fn, bool widen,
                 PyObject **sign, PyObject **logabs)
{
    ua_state *st = PyModule_GetState(module);
    PyObject *lu, *pivots;
    *sign = *logabs = NULL;
    if (lu_factors(st, x, fn, &lu, &pivots) < 0) {
        return -1;
    }
    PyObject *d = pivots_of(st, lu, widen);
    PyObject *signs = ua_py_la_ew1(st, UA_EW_sign, d);
    if (signs != NULL && ua_dtype_kind((ua_typenum)ARR(d)->typenum) == 'f') {
        PyObject *nan = ua_py_la_ew1(st, UA_EW_isnan, d);
        PyObject *one = PyLong_FromLong(1);
        Py_SETREF(signs,
                  nan && one ? ua_py_la_where(st, nan, one, signs) : NULL);
        Py_XDECREF(nan);
        Py_XDECREF(one);
    }
    PyObject *prod = ua_py_la_reduce_last(st, UA_REDUCE_PROD, signs, 1, false);
    *sign = prod ? apply_parity(module, x, pivots, prod) : NULL;
    PyObject *magnitude = ua_py_la_ew1(st, UA_EW_abs, d);
    PyObject *logs = ua_py_la_ew1(st, UA_EW_log, magnitude);
    *logabs = ua_py_la_reduce_last(st, UA_REDUCE_SUM, logs, 1, false);
    Py_XDECREF(d);
    Py_XDECREF(signs);
    Py_XDECREF(prod);
    Py_XDECREF(magnitude);
    Py_XDECREF(logs);
    Py_DECREF(lu);
    Py_DECREF(pivots);
    if (*sign == NULL || *logabs == NULL) {
        Py_CLEAR(*sign);
        Py_CLEAR(*logabs);
        return -1;
    }
    return 0;
}

/* det on the other queues: sign * exp(log |det|), as NumPy's det, so
 * that a product that would overflow midway (1e200 * 1e200 * 1e-300)
 * does not; single precision in double where the device has it, rounded
 * once (an overflowing complex64 determinant is then inf as NumPy's, not
 * the nan of inf - inf). */
PyObject *
ua_py_la_det(PyObject *module, PyObject *x)
{
    ua_state *st = PyModule_GetState(module);
    PyObject *fast = NULL;
    if (direct(module, x, "det", false, &fast) != 0) {
        return fast;
    }
    PyObject *sign, *logabs;
    ua_typenum t;
    if (ua_py_la_operand(st, x, "det", &t) < 0 ||
        composed_slogdet(module, x, "det", true, &sign, &logabs) < 0) {
        return NULL;
    }
    PyObject *magnitude = ua_py_la_ew1(st, UA_EW_exp, logabs);
    PyObject *out = ua_py_la_ew2(st, UA_EW_multiply, sign, magnitude);
    if (out != NULL && ARR(out)->typenum != (int)t) {
        Py_SETREF(out, ua_py_array_copy(st, out, t, 'C', base_of(out)->kind,
                                        base_of(out)->queue));
    }
    Py_DECREF(sign);
    Py_DECREF(logabs);
    Py_XDECREF(magnitude);
    return out;
}

PyObject *
ua_py_la_slogdet(PyObject *module, PyObject *x)
{
    ua_state *st = PyModule_GetState(module);
    PyObject *fast = NULL;
    if (direct(module, x, "slogdet", true, &fast) != 0) {
        return fast;
    }
    PyObject *items[2];
    if (composed_slogdet(module, x, "slogdet", false, &items[0], &items[1]) <
        0) {
        return NULL;
    }
    return ua_py_struct_of(st->SlogdetResult_Type, 2, items);
}
