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

PyObject *
ua_py_la_det(PyObject *module, PyObject *x)
{
    ua_state *st = PyModule_GetState(module);
    PyObject *fast = NULL;
    if (direct(module, x, "det", false, &fast) != 0) {
        return fast;
    }
    PyObject *lu, *pivots;
    if (lu_factors(st, x, "det", &lu, &pivots) < 0) {
        return NULL;
    }
    PyObject *d = ua_py_diagonal_view(st, lu, 0);
    /* The product in double precision where the device has it, rounded
     * once, as NumPy's det computes single-precision determinants: a
     * complex64 product that overflows is inf, not the nan of inf - inf
     * that complex64 multiplication gives (inf+infj as NumPy, not
     * nan+nanj). */
    PyObject *prod = NULL;
    if (d != NULL) {
        ua_typenum t = (ua_typenum)ARR(d)->typenum, wide = t;
        if (ua_py_default_float(d) == UA_FLOAT64) {
            wide = t == UA_COMPLEX64 ? UA_COMPLEX128
                   : t == UA_FLOAT32 ? UA_FLOAT64
                                     : t;
        }
        uint64_t last = (uint64_t)1 << (ARR(d)->nd - 1);
        prod = ua_py_reduce(st, d, UA_REDUCE_PROD, last, false, wide, 0.0);
        if (prod != NULL && wide != t) {
            Py_SETREF(prod,
                      ua_py_array_copy(st, prod, t, 'C', base_of(prod)->kind,
                                       base_of(prod)->queue));
        }
    }
    PyObject *out = prod ? apply_parity(module, x, pivots, prod) : NULL;
    Py_XDECREF(d);
    Py_XDECREF(prod);
    Py_DECREF(lu);
    Py_DECREF(pivots);
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
    PyObject *lu, *pivots;
    if (lu_factors(st, x, "slogdet", &lu, &pivots) < 0) {
        return NULL;
    }
    PyObject *d = ua_py_diagonal_view(st, lu, 0);
    /* sign(d) is d / |d| for complex d, and 0 for 0 */
    PyObject *signs = ua_py_la_ew1(st, UA_EW_sign, d);
    PyObject *prod = ua_py_la_reduce_last(st, UA_REDUCE_PROD, signs, 1, false);
    PyObject *sign = prod ? apply_parity(module, x, pivots, prod) : NULL;
    PyObject *magnitude = ua_py_la_ew1(st, UA_EW_abs, d);
    PyObject *logs = ua_py_la_ew1(st, UA_EW_log, magnitude);
    PyObject *items[2] = {
        sign, ua_py_la_reduce_last(st, UA_REDUCE_SUM, logs, 1, false)};
    Py_XDECREF(d);
    Py_XDECREF(signs);
    Py_XDECREF(prod);
    Py_XDECREF(magnitude);
    Py_XDECREF(logs);
    Py_DECREF(lu);
    Py_DECREF(pivots);
    return ua_py_struct_of(st->SlogdetResult_Type, 2, items);
}
