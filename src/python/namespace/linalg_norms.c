/* The standard's linalg functions that are compositions: norms, ranks,
 * powers, the pseudo-inverse, trace, outer and cross products.  Each is
 * written with the namespace's own functions (their C entries where the
 * binding has one: elementwise functions, reductions, matmul), so that
 * every backend runs them with the kernels it has. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/dtypes.h"
#include "python/base/errors.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/extensions.h"
#include "python/namespace/linalg_ext.h"
#include "python/namespace/reducing.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* module.<fn>(x, <key>=<value>), in ua_py_linalg_norm_methods. */
#define FASTCALL(name)                                                        \
    static PyObject *name(PyObject *module, PyObject *const *args,            \
                          Py_ssize_t nargs, PyObject *kwnames)

/* module.<fn>(x, <key>=<value>) */
static PyObject *
call_kw(PyObject *module, const char *fn, PyObject *x, const char *key,
        PyObject *value)
{
    return x == NULL || value == NULL
               ? NULL
               : ua_py_ns_call(module, fn, PyTuple_Pack(1, x),
                               Py_BuildValue("{s:O}", key, value));
}

/* x as its floating type for linalg (integers as the default float). */
static PyObject *
as_floating(PyObject *module, PyObject *x, const char *fn)
{
    ua_typenum t;
    if (ua_py_linalg_type(x, fn, &t) < 0) {
        return NULL;
    }
    if ((ua_typenum)ARR(x)->typenum == t) {
        return Py_NewRef(x);
    }
    ua_state *st = PyModule_GetState(module);
    return ua_py_array_cast(st, x, t, 'K', 1, base_of(x)->queue);
}

static double
epsilon_of(ua_typenum t)
{
    return ua_py_real_of(t) == UA_FLOAT32 ? (double)FLT_EPSILON : DBL_EPSILON;
}

/* The ord argument as a double (inf and -inf included); ValueError where
 * it is not a real number. */
static int
parse_ord(PyObject *ord, const char *fn, double *p)
{
    if (PyBool_Check(ord) || !(PyLong_Check(ord) || PyFloat_Check(ord))) {
        PyErr_Format(PyExc_ValueError,
                     "linalg.%s: ord must be a number, "
                     "not %R",
                     fn, ord);
        return -1;
    }
    *p = PyFloat_AsDouble(ord);
    if (*p == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    if (isnan(*p)) {
        PyErr_Format(PyExc_ValueError, "linalg.%s: ord must not be NaN", fn);
        return -1;
    }
    return 0;
}

/* The p-norm of x over axes (bits). */
/* The largest of nonnegative values over axes, 0 where the axes hold none
 * (max itself has no identity to give an empty reduction). */
static PyObject *
largest_magnitude(ua_state *st, PyObject *a, uint64_t axes, bool keepdims)
{
    if (a == NULL) {
        return NULL;
    }
    bool none = false;
    for (int k = 0; k < ARR(a)->nd; k++) {
        none |= (axes >> k & 1) && ARR(a)->shape[k] == 0;
    }
    return ua_py_la_reduce(st, none ? UA_REDUCE_SUM : UA_REDUCE_MAX, a, axes,
                           keepdims);
}

/* The mask of the last count axes of x. */
static uint64_t
last_axes(PyObject *x, int count)
{
    uint64_t axes = 0;
    for (int k = ARR(x)->nd - count; k < ARR(x)->nd; k++) {
        axes |= (uint64_t)1 << k;
    }
    return axes;
}

static PyObject *
vector_norm_of(PyObject *module, PyObject *x, uint64_t axes, bool keepdims,
               double p)
{
    ua_state *st = PyModule_GetState(module);
    PyObject *f = as_floating(module, x, "vector_norm");
    PyObject *a = ua_py_la_ew1(st, UA_EW_abs, f);
    Py_XDECREF(f);
    if (a == NULL) {
        return NULL;
    }
    PyObject *out = NULL;
    if (isinf(p)) {
        out = p > 0 ? largest_magnitude(st, a, axes, keepdims)
                    : ua_py_la_reduce(st, UA_REDUCE_MIN, a, axes, keepdims);
    } else if (p == 0) {
        PyObject *count =
            ua_py_la_reduce(st, UA_REDUCE_COUNT, a, axes, keepdims);
        out = count != NULL
                  ? ua_py_array_cast(st, count, (ua_typenum)ARR(a)->typenum,
                                     'K', 1, base_of(a)->queue)
                  : NULL;
        Py_XDECREF(count);
    } else if (p == 1) {
        out = ua_py_la_reduce(st, UA_REDUCE_SUM, a, axes, keepdims);
    } else if (p == 2) {
        PyObject *sq = ua_py_la_ew1(st, UA_EW_square, a);
        PyObject *sum = ua_py_la_reduce(st, UA_REDUCE_SUM, sq, axes, keepdims);
        out = ua_py_la_ew1(st, UA_EW_sqrt, sum);
        Py_XDECREF(sq);
        Py_XDECREF(sum);
    } else {
        PyObject *po = PyFloat_FromDouble(p), *inv = PyFloat_FromDouble(1 / p);
        PyObject *powered = ua_py_la_ew2(st, UA_EW_pow, a, po);
        PyObject *sum =
            ua_py_la_reduce(st, UA_REDUCE_SUM, powered, axes, keepdims);
        out = ua_py_la_ew2(st, UA_EW_pow, sum, inv);
        Py_XDECREF(po);
        Py_XDECREF(inv);
        Py_XDECREF(powered);
        Py_XDECREF(sum);
    }
    Py_DECREF(a);
    return out;
}

FASTCALL(ua_py_linalg_vector_norm)
{
    static const char *const kwlist[] = {"x", "axis", "keepdims", "ord", NULL};
    static const ua_py_argspec spec = {"vector_norm", kwlist, 1, 1};
    PyObject *v[4] = {NULL, Py_None, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    int keepdims = 0;
    double p = 2;
    uint64_t axes;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "vector_norm") < 0 ||
        ua_py_reduce_axes(st, v[1], "vector_norm", ARR(v[0])->nd, &axes) < 0 ||
        ua_py_parse_bool(v[2], "vector_norm", "keepdims", &keepdims) < 0 ||
        (v[3] != NULL && parse_ord(v[3], "vector_norm", &p) < 0)) {
        return NULL;
    }
    return vector_norm_of(module, v[0], axes, keepdims, p);
}

/* The last two axes, as reductions take them. */
static PyObject *
matrix_axes(void)
{
    return Py_BuildValue("(ii)", -2, -1);
}

/* r, reduced over the last two axes with keepdims, without them unless
 * keepdims. */
static PyObject *
finish_matrix(PyObject *module, PyObject *r, bool keepdims)
{
    if (r == NULL || keepdims) {
        return r;
    }
    PyObject *axes = matrix_axes();
    PyObject *out = call_kw(module, "squeeze", r, "axis", axes);
    Py_XDECREF(axes);
    Py_DECREF(r);
    return out;
}

/* max or min over the last axis of the singular values, or their sum. */
static PyObject *
singular_norm(PyObject *module, PyObject *x, ua_reduce_op op, bool keepdims)
{
    ua_state *st = PyModule_GetState(module);
    PyObject *s = ua_py_svdvals(module, x, "matrix_norm");
    PyObject *axis = PyLong_FromLong(-1);
    PyObject *r =
        op == UA_REDUCE_MAX
            ? largest_magnitude(st, s, s ? last_axes(s, 1) : 0, keepdims)
            : ua_py_la_reduce_last(st, op, s, 1, keepdims);
    PyObject *out = r != NULL && keepdims
                        ? call_kw(module, "expand_dims", r, "axis", axis)
                        : Py_XNewRef(r);
    Py_XDECREF(s);
    Py_XDECREF(axis);
    Py_XDECREF(r);
    return out;
}

/* 1, -1, inf, -inf: the largest or smallest sum of magnitudes along
 * columns (over rows, axis -2) or rows (axis -1). */
static PyObject *
sum_norm(PyObject *module, PyObject *x, int along, bool largest, bool keepdims)
{
    ua_state *st = PyModule_GetState(module);
    PyObject *f = as_floating(module, x, "matrix_norm");
    PyObject *a = ua_py_la_ew1(st, UA_EW_abs, f);
    uint64_t axis = (uint64_t)1 << (ARR(x)->nd + along);
    PyObject *sums = ua_py_la_reduce(st, UA_REDUCE_SUM, a, axis, true);
    PyObject *r =
        largest
            ? largest_magnitude(st, sums, sums ? last_axes(sums, 2) : 0, true)
            : ua_py_la_reduce_last(st, UA_REDUCE_MIN, sums, 2, true);
    Py_XDECREF(f);
    Py_XDECREF(a);
    Py_XDECREF(sums);
    return finish_matrix(module, r, keepdims);
}

FASTCALL(ua_py_linalg_matrix_norm)
{
    static const char *const kwlist[] = {"x", "keepdims", "ord", NULL};
    static const ua_py_argspec spec = {"matrix_norm", kwlist, 1, 1};
    PyObject *v[3] = {NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    int keepdims = 0;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "matrix_norm") < 0 ||
        ua_py_linalg_check_matrices(v[0], "matrix_norm") < 0 ||
        ua_py_parse_bool(v[1], "matrix_norm", "keepdims", &keepdims) < 0) {
        return NULL;
    }
    PyObject *x = v[0], *ord = v[2];
    if (ord == NULL || PyUnicode_Check(ord)) {
        const char *name = ord == NULL ? "fro" : PyUnicode_AsUTF8(ord);
        if (name == NULL) {
            return NULL;
        }
        if (strcmp(name, "fro") == 0) {
            int nd = ARR(x)->nd;
            uint64_t last_two = (uint64_t)3 << (nd - 2);
            return vector_norm_of(module, x, last_two, keepdims, 2);
        }
        if (strcmp(name, "nuc") == 0) {
            return singular_norm(module, x, UA_REDUCE_SUM, keepdims);
        }
    } else {
        double p;
        if (parse_ord(ord, "matrix_norm", &p) < 0) {
            return NULL;
        }
        if (p == 2 || p == -2) {
            return singular_norm(
                module, x, p > 0 ? UA_REDUCE_MAX : UA_REDUCE_MIN, keepdims);
        }
        if (p == 1 || p == -1) {
            return sum_norm(module, x, -2, p > 0, keepdims);
        }
        if (isinf(p)) {
            return sum_norm(module, x, -1, p > 0, keepdims);
        }
    }
    PyErr_Format(PyExc_ValueError,
                 "linalg.matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, "
                 "-2, inf or -inf, not %R",
                 ord);
    return NULL;
}

FASTCALL(ua_py_linalg_matrix_power)
{
    static const char *const kwlist[] = {"x", "n", NULL};
    static const ua_py_argspec spec = {"matrix_power", kwlist, 2, 2};
    PyObject *v[2] = {NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "matrix_power") < 0 ||
        ua_py_linalg_check_matrices(v[0], "matrix_power") < 0) {
        return NULL;
    }
    if (!PyLong_Check(v[1]) || PyBool_Check(v[1])) {
        PyErr_Format(PyExc_TypeError,
                     "linalg.matrix_power: n must be an int, not %.200s",
                     Py_TYPE(v[1])->tp_name);
        return NULL;
    }
    long long n = PyLong_AsLongLong(v[1]);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    PyObject *x = v[0];
    int nd = ARR(x)->nd;
    if (ARR(x)->shape[nd - 1] != ARR(x)->shape[nd - 2]) {
        PyErr_Format(PyExc_ValueError,
                     "linalg.matrix_power needs square matrices, not %zd x "
                     "%zd",
                     ARR(x)->shape[nd - 2], ARR(x)->shape[nd - 1]);
        return NULL;
    }
    if (n == 0) {
        return ua_py_la_identities(module, x, ARR(x)->shape[nd - 1],
                                   (ua_typenum)ARR(x)->typenum);
    }
    PyObject *base = n < 0 ? ua_py_inv(module, x, "matrix_power")
                           : call_kw(module, "asarray", x, "copy", Py_True);
    unsigned long long e =
        n < 0 ? 0ULL - (unsigned long long)n : (unsigned long long)n;
    PyObject *result = NULL;
    while (base != NULL && e > 0) {
        if (e & 1) {
            PyObject *r = result == NULL
                              ? Py_NewRef(base)
                              : ua_py_array_matmul_of(st, result, base, false);
            Py_XSETREF(result, r);
            if (result == NULL) {
                break;
            }
        }
        e >>= 1;
        if (e > 0) {
            Py_SETREF(base, ua_py_array_matmul_of(st, base, base, false));
        }
    }
    Py_XDECREF(base);
    return PyErr_Occurred() ? (Py_XDECREF(result), NULL) : result;
}

/* rtol (None: max(M, N) times epsilon) times the largest singular value
 * of each matrix, shaped to compare with s (..., K). */
static PyObject *
cutoff(PyObject *module, PyObject *x, PyObject *s, PyObject *rtol)
{
    ua_state *st = PyModule_GetState(module);
    PyObject *largest = ua_py_la_reduce_last(st, UA_REDUCE_MAX, s, 1, true);
    PyObject *r;
    if (rtol == NULL || rtol == Py_None) {
        int nd = ARR(x)->nd;
        Py_ssize_t m = ARR(x)->shape[nd - 2], n = ARR(x)->shape[nd - 1];
        r = PyFloat_FromDouble((double)(m > n ? m : n) *
                               epsilon_of((ua_typenum)ARR(s)->typenum));
    } else if (PyLong_Check(rtol) || PyFloat_Check(rtol)) {
        r = Py_NewRef(rtol);
    } else {
        PyObject *axis = PyLong_FromLong(-1);
        r = call_kw(module, "expand_dims", rtol, "axis", axis);
        Py_XDECREF(axis);
    }
    PyObject *out = ua_py_la_ew2(st, UA_EW_multiply, largest, r);
    Py_XDECREF(largest);
    Py_XDECREF(r);
    return out;
}

/* An array rtol broadcasts against the batch of x's singular values,
 * which keep one axis of their own: with `extra` axes more, they must fit
 * in an array. */
static int
check_rtol_ndim(ua_state *st, const char *fn, PyObject *x, PyObject *rtol,
                int extra)
{
    if (rtol == NULL || !PyObject_TypeCheck(rtol, st->USMArray_Type)) {
        return 0;
    }
    int batch = ARR(x)->nd - 2;
    batch = ARR(rtol)->nd > batch ? ARR(rtol)->nd : batch;
    return ua_py_check_ndim(st, fn, batch + 1 + extra);
}

/* The matrices of x have no element: the result has none to rank. */
static bool
empty_matrices(PyObject *x)
{
    int nd = ARR(x)->nd;
    return ARR(x)->shape[nd - 1] == 0 || ARR(x)->shape[nd - 2] == 0;
}

FASTCALL(ua_py_linalg_matrix_rank)
{
    static const char *const kwlist[] = {"x", "rtol", NULL};
    static const ua_py_argspec spec = {"matrix_rank", kwlist, 1, 1};
    PyObject *v[2] = {NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "matrix_rank") < 0 ||
        ua_py_linalg_check_matrices(v[0], "matrix_rank") < 0 ||
        check_rtol_ndim(st, "matrix_rank", v[0], v[1], 0) < 0) {
        return NULL;
    }
    PyObject *s = ua_py_svdvals(module, v[0], "matrix_rank");
    if (s == NULL) {
        return NULL;
    }
    PyObject *out;
    if (empty_matrices(v[0])) {
        out = ua_py_la_reduce_last(st, UA_REDUCE_COUNT, s, 1, false);
    } else {
        PyObject *tol = cutoff(module, v[0], s, v[1]);
        PyObject *above = ua_py_la_ew2(st, UA_EW_greater, s, tol);
        out = ua_py_la_reduce_last(st, UA_REDUCE_COUNT, above, 1, false);
        Py_XDECREF(tol);
        Py_XDECREF(above);
    }
    Py_DECREF(s);
    return out;
}

/* x's conjugate transpose (its matrix transpose for real types). */
static PyObject *
adjoint(PyObject *module, PyObject *x)
{
    PyObject *t = x ? ua_py_array_get_mT(x, NULL) : NULL;
    ua_typenum type = t ? (ua_typenum)ARR(t)->typenum : UA_FLOAT64;
    if (t == NULL || (type != UA_COMPLEX64 && type != UA_COMPLEX128)) {
        return t;
    }
    PyObject *c = ua_py_la_ew1(PyModule_GetState(module), UA_EW_conj, t);
    Py_DECREF(t);
    return c;
}

FASTCALL(ua_py_linalg_pinv)
{
    static const char *const kwlist[] = {"x", "rtol", NULL};
    static const ua_py_argspec spec = {"pinv", kwlist, 1, 1};
    PyObject *v[2] = {NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "pinv") < 0 ||
        ua_py_linalg_check_matrices(v[0], "pinv") < 0 ||
        check_rtol_ndim(st, "pinv", v[0], v[1], 1) < 0) {
        return NULL;
    }
    PyObject *u = NULL, *s = NULL, *vh = NULL;
    if (ua_py_svd_reduced(module, v[0], "pinv", &u, &s, &vh) < 0) {
        return NULL;
    }
    PyObject *scale;
    if (empty_matrices(v[0])) {
        scale = Py_NewRef(s);
    } else {
        PyObject *tol = cutoff(module, v[0], s, v[1]);
        PyObject *kept = ua_py_la_ew2(st, UA_EW_greater, s, tol);
        PyObject *recip = ua_py_la_ew1(st, UA_EW_reciprocal, s);
        PyObject *zeros = ua_py_ns_call1(module, "zeros_like", s);
        scale = ua_py_la_where(st, kept, recip, zeros);
        Py_XDECREF(tol);
        Py_XDECREF(kept);
        Py_XDECREF(recip);
        Py_XDECREF(zeros);
    }
    /* V diag(1/s) U^H: V's columns scaled, then the product */
    PyObject *vm = adjoint(module, vh);
    PyObject *axis = PyLong_FromLong(-2);
    PyObject *row = call_kw(module, "expand_dims", scale, "axis", axis);
    PyObject *scaled = ua_py_la_ew2(st, UA_EW_multiply, vm, row);
    PyObject *uh = adjoint(module, u);
    PyObject *out = scaled != NULL && uh != NULL
                        ? ua_py_array_matmul_of(st, scaled, uh, false)
                        : NULL;
    Py_XDECREF(axis);
    Py_XDECREF(scale);
    Py_XDECREF(vm);
    Py_XDECREF(row);
    Py_XDECREF(scaled);
    Py_XDECREF(uh);
    Py_DECREF(u);
    Py_DECREF(s);
    Py_DECREF(vh);
    return out;
}

FASTCALL(ua_py_linalg_trace)
{
    static const char *const kwlist[] = {"x", "offset", "dtype", NULL};
    static const ua_py_argspec spec = {"trace", kwlist, 1, 1};
    PyObject *v[3] = {NULL, NULL, Py_None};
    ua_state *st = PyModule_GetState(module);
    Py_ssize_t offset = 0;
    ua_typenum rtype;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "trace") < 0 ||
        ua_py_linalg_check_matrices(v[0], "trace") < 0 ||
        (v[1] != NULL && ua_py_index(v[1], "offset", &offset) < 0) ||
        ua_py_sum_dtype(st, v[0], v[2], "trace", &rtype) < 0) {
        return NULL;
    }
    PyObject *d = ua_py_diagonal_view(st, v[0], offset);
    uint64_t last = (uint64_t)1 << (ARR(v[0])->nd - 2);
    PyObject *out =
        d != NULL ? ua_py_reduce(st, d, UA_REDUCE_SUM, last, 0, rtype, 0.0)
                  : NULL;
    Py_XDECREF(d);
    return out;
}

FASTCALL(ua_py_linalg_outer)
{
    static const char *const kwlist[] = {"x1", "x2", NULL};
    static const ua_py_argspec spec = {"outer", kwlist, 2, 2};
    PyObject *v[2] = {NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "outer") < 0 ||
        ua_py_check_array(st, v[1], "outer") < 0) {
        return NULL;
    }
    if (ARR(v[0])->nd != 1 || ARR(v[1])->nd != 1) {
        PyErr_Format(PyExc_ValueError,
                     "linalg.outer needs two vectors (one dimension each), "
                     "not arrays of %d and %d",
                     ARR(v[0])->nd, ARR(v[1])->nd);
        return NULL;
    }
    PyObject *axis = PyLong_FromLong(-1);
    PyObject *col = call_kw(module, "expand_dims", v[0], "axis", axis);
    PyObject *out = ua_py_la_ew2(st, UA_EW_multiply, col, v[1]);
    Py_XDECREF(axis);
    Py_XDECREF(col);
    return out;
}

/* Component i of the vectors along axis (counted from the end) of x. */
static PyObject *
component(PyObject *x, int axis, int i)
{
    int trailing = -axis - 1;
    PyObject *key = PyTuple_New(2 + trailing);
    if (key == NULL) {
        return NULL;
    }
    PyTuple_SET_ITEM(key, 0, Py_NewRef(Py_Ellipsis));
    PyTuple_SET_ITEM(key, 1, PyLong_FromLong(i));
    for (int k = 0; k < trailing; k++) {
        PyTuple_SET_ITEM(key, 2 + k, PySlice_New(NULL, NULL, NULL));
    }
    PyObject *out = ua_py_array_subscript(x, key);
    Py_DECREF(key);
    return out;
}

/* a_i b_j - a_j b_i */
static PyObject *
cross_term(ua_state *st, PyObject *const *a, PyObject *const *b, int i, int j)
{
    PyObject *p = ua_py_la_ew2(st, UA_EW_multiply, a[i], b[j]);
    PyObject *q = ua_py_la_ew2(st, UA_EW_multiply, a[j], b[i]);
    PyObject *out = ua_py_la_ew2(st, UA_EW_subtract, p, q);
    Py_XDECREF(p);
    Py_XDECREF(q);
    return out;
}

FASTCALL(ua_py_linalg_cross)
{
    static const char *const kwlist[] = {"x1", "x2", "axis", NULL};
    static const ua_py_argspec spec = {"cross", kwlist, 2, 2};
    PyObject *v[3] = {NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    Py_ssize_t axis;
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "cross") < 0 ||
        ua_py_check_array(st, v[1], "cross") < 0 ||
        ua_py_parse_trailing_axis(v[2], "linalg.cross", v[0], v[1], &axis) <
            0) {
        return NULL;
    }
    int n1 = ARR(v[0])->nd, n2 = ARR(v[1])->nd;
    if (ARR(v[0])->shape[n1 + axis] != 3 || ARR(v[1])->shape[n2 + axis] != 3) {
        PyErr_Format(PyExc_ValueError,
                     "linalg.cross needs vectors of 3 elements along axis "
                     "%zd, not %zd and %zd",
                     axis, ARR(v[0])->shape[n1 + axis],
                     ARR(v[1])->shape[n2 + axis]);
        return NULL;
    }
    PyObject *a[3] = {NULL, NULL, NULL}, *b[3] = {NULL, NULL, NULL};
    PyObject *c[3] = {NULL, NULL, NULL};
    bool ok = true;
    for (int i = 0; i < 3 && ok; i++) {
        a[i] = component(v[0], (int)axis, i);
        b[i] = component(v[1], (int)axis, i);
        ok = a[i] != NULL && b[i] != NULL;
    }
    for (int i = 0; i < 3 && ok; i++) {
        c[i] = cross_term(st, a, b, (i + 1) % 3, (i + 2) % 3);
        ok = c[i] != NULL;
    }
    PyObject *parts = ok ? PyList_New(0) : NULL;
    for (int i = 0; parts != NULL && i < 3; i++) {
        if (PyList_Append(parts, c[i]) < 0) {
            Py_CLEAR(parts);
        }
    }
    PyObject *ax = PyLong_FromSsize_t(axis);
    PyObject *out =
        parts && ax ? call_kw(module, "stack", parts, "axis", ax) : NULL;
    Py_XDECREF(ax);
    Py_XDECREF(parts);
    for (int i = 0; i < 3; i++) {
        Py_XDECREF(a[i]);
        Py_XDECREF(b[i]);
        Py_XDECREF(c[i]);
    }
    return out;
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* Their operands as snapshots: their other arguments' hooks run after
 * they read the operands' layouts. */
UA_PY_ON_SNAPSHOTS(ua_py_linalg_cross)
UA_PY_ON_SNAPSHOTS(ua_py_linalg_matrix_norm)
UA_PY_ON_SNAPSHOTS(ua_py_linalg_matrix_power)
UA_PY_ON_SNAPSHOTS(ua_py_linalg_matrix_rank)
UA_PY_ON_SNAPSHOTS(ua_py_linalg_pinv)
UA_PY_ON_SNAPSHOTS(ua_py_linalg_trace)
UA_PY_ON_SNAPSHOTS(ua_py_linalg_vector_norm)

/* Here rather than in linalg_ext.c's table: these call the
 * factorizations, which then need not know them (no call cycle). */
PyMethodDef ua_py_linalg_norm_methods[] = {
    {"cross", KW(ua_py_linalg_cross_on_snapshots),
     "cross(x1, x2, /, *, axis=-1)\n--\n\nThe cross product of 3-element "
     "vectors along axis (counted from the end), broadcast."},
    {"matrix_norm", KW(ua_py_linalg_matrix_norm_on_snapshots),
     "matrix_norm(x, /, *, keepdims=False, ord='fro')\n--\n\nThe norm of "
     "each matrix: 'fro', 'nuc', 1, -1, 2, -2, inf or -inf.  A matrix "
     "without elements has norm 0 for 'fro', 'nuc', 1, 2 and inf; -1, -2 "
     "and -inf, the smallest of nothing, raise ValueError there."},
    {"matrix_power", KW(ua_py_linalg_matrix_power_on_snapshots),
     "matrix_power(x, n, /)\n--\n\nEach square matrix to the integer power "
     "n, by repeated squaring (the inverse's power where n < 0)."},
    {"matrix_rank", KW(ua_py_linalg_matrix_rank_on_snapshots),
     "matrix_rank(x, /, *, rtol=None)\n--\n\nThe number of singular values "
     "above rtol times the largest (default max(M, N) times the type's "
     "epsilon)."},
    {"outer", KW(ua_py_linalg_outer),
     "outer(x1, x2, /)\n--\n\nThe outer product of two vectors."},
    {"pinv", KW(ua_py_linalg_pinv_on_snapshots),
     "pinv(x, /, *, rtol=None)\n--\n\nThe Moore-Penrose pseudo-inverse of "
     "each matrix, from its SVD, singular values at or below rtol times "
     "the largest taken as zero."},
    {"trace", KW(ua_py_linalg_trace_on_snapshots),
     "trace(x, /, *, offset=0, dtype=None)\n--\n\nThe sum of each "
     "matrix's diagonal (offset as diagonal's), in sum's dtype."},
    {"vector_norm", KW(ua_py_linalg_vector_norm_on_snapshots),
     "vector_norm(x, /, *, axis=None, keepdims=False, ord=2)\n--\n\nThe "
     "p-norm over axis (every axis where None): ord any real number, inf "
     "(the largest magnitude), -inf (the smallest) or 0 (the count of "
     "non-zero elements).  Over no elements the norm is 0 (inf's too), "
     "inf for a negative finite ord (0 to its power), and -inf, the "
     "smallest of nothing, raises ValueError."},
    {0},
};
