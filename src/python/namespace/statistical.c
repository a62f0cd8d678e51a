/* The standard's statistical functions: sum, prod, min, max, mean, var,
 * std, cumulative_sum, cumulative_prod and dpctl's cumulative_logsumexp,
 * over the core's reductions and scans (core/compute/reduce.h).  Each function here only reads its
 * arguments and picks the result's dtype. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings_reduce.h"
#include "python/base/dtypes.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/reducing.h"
#include "python/namespace/statistical.h"

/* The accumulation dtype of sum, prod and the cumulative functions: any
 * dtype, as dpctl takes it (x is cast to it first, as the standard says:
 * complex to real keeps the real part, to bool the truth); the default's
 * rules otherwise. */
static int
accumulation_dtype(ua_state *st, PyObject *x, PyObject *dtype, const char *fn,
                   ua_typenum *out)
{
    return dtype != NULL && dtype != Py_None
               ? ua_py_typenum(st, dtype, out)
               : ua_py_sum_dtype(st, x, dtype, fn, out);
}

/* x as dtype t where the kernels cannot read it as t's arithmetic (a
 * complex x into a real accumulator, anything into bool); else x, with a
 * new reference either way. */
static PyObject *
cast_for_accumulation(ua_state *st, PyObject *x, ua_typenum t)
{
    ua_typenum from = (ua_typenum)ARR(x)->typenum;
    bool real_of_complex =
        ua_dtype_kind(from) == 'c' && ua_dtype_kind(t) != 'c';
    if (t != UA_BOOL && !real_of_complex) {
        return Py_NewRef(x);
    }
    return ua_py_array_cast(st, x, t, 'K', 0, base_of(x)->queue);
}

/* sum and prod: (x, /, *, axis=None, dtype=None, keepdims=False,
 * out=None), out= as dpctl has it (ua_py_reduce_out).  Into
 * bool, sum is any and prod all (logical or and and, as bool add and
 * multiply are). */
static PyObject *
accumulate(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
           PyObject *kwnames, const char *fn, ua_reduce_op op)
{
    static const char *const kwlist[] = {"x",        "axis", "dtype",
                                         "keepdims", "out",  NULL};
    ua_py_argspec spec = {fn, kwlist, 1, 1};
    PyObject *v[5] = {NULL, NULL, NULL, NULL, Py_None};
    ua_state *st = PyModule_GetState(module);
    uint64_t axes;
    int keepdims = 0;
    ua_typenum rtype;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], fn) < 0 ||
        ua_py_reduce_axes(st, v[1], fn, ARR(v[0])->nd, &axes) < 0 ||
        accumulation_dtype(st, v[0], v[2], fn, &rtype) < 0 ||
        ua_py_parse_bool(v[3], fn, "keepdims", &keepdims) < 0) {
        return NULL;
    }
    PyObject *x = cast_for_accumulation(st, v[0], rtype);
    if (rtype == UA_BOOL) {
        op = op == UA_REDUCE_SUM ? UA_REDUCE_ANY : UA_REDUCE_ALL;
    }
    PyObject *dest = v[4] == Py_None ? NULL : v[4];
    PyObject *r =
        x ? ua_py_reduce_out(st, fn, x, op, axes, keepdims, rtype, 0.0, dest)
          : NULL;
    Py_XDECREF(x);
    return r;
}

static PyObject *
sum(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return accumulate(m, a, n, k, "sum", UA_REDUCE_SUM);
}

static PyObject *
prod(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return accumulate(m, a, n, k, "prod", UA_REDUCE_PROD);
}

/* var and std of complex values, which the standard leaves to the
 * implementation and NumPy computes: the mean of |x - mean(x)|**2, which
 * is var(real(x)) + var(imag(x)), in the real dtype of x's (std its
 * square root). */
static PyObject *
complex_spread(ua_state *st, PyObject *x, ua_reduce_op op, uint64_t axes,
               int keepdims, double correction)
{
    ua_typenum real =
        ua_dtype_kind((ua_typenum)ARR(x)->typenum) == 'c' &&
                ua_dtype_itemsize((ua_typenum)ARR(x)->typenum) == 8
            ? UA_FLOAT32
            : UA_FLOAT64;
    PyObject *parts[2] = {NULL, NULL}, *result = NULL;
    const ua_ew_id part[2] = {UA_EW_real, UA_EW_imag};
    for (int k = 0; k < 2; k++) {
        PyObject *p = ua_py_elementwise(st, part[k], &x, 1, NULL, false);
        parts[k] = p ? ua_py_reduce(st, p, UA_REDUCE_VAR, axes, keepdims, real,
                                    correction)
                     : NULL;
        Py_XDECREF(p);
        if (parts[k] == NULL) {
            goto done;
        }
    }
    /* The sum lands in the real part's variance, which is no one else's. */
    result = ua_py_elementwise(st, UA_EW_add, parts, 2, parts[0], false);
    if (result != NULL && op == UA_REDUCE_STD) {
        PyObject *var = result;
        result = ua_py_elementwise(st, UA_EW_sqrt, &var, 1, var, false);
        Py_DECREF(var);
    }
done:
    Py_XDECREF(parts[0]);
    Py_XDECREF(parts[1]);
    return result;
}

/* min, max and mean: (x, /, *, axis=None, keepdims=False); min and max
 * add dpctl's out=, var and std the standard's correction. */
static PyObject *
statistic(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
          PyObject *kwnames, const char *fn, ua_reduce_op op)
{
    static const char *const kwlist[] = {"x", "axis", "keepdims", "correction",
                                         NULL};
    static const char *const plain[] = {"x", "axis", "keepdims", NULL};
    static const char *const extreme[] = {"x", "axis", "keepdims", "out",
                                          NULL};
    bool spread = op == UA_REDUCE_VAR || op == UA_REDUCE_STD;
    bool has_out = op == UA_REDUCE_MIN || op == UA_REDUCE_MAX;
    ua_py_argspec spec = {fn,
                          spread    ? kwlist
                          : has_out ? extreme
                                    : plain,
                          1, 1};
    PyObject *v[4] = {NULL, NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    uint64_t axes;
    int keepdims = 0;
    double correction = 0.0;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], fn) < 0 ||
        ua_py_reduce_axes(st, v[1], fn, ARR(v[0])->nd, &axes) < 0 ||
        ua_py_parse_bool(v[2], fn, "keepdims", &keepdims) < 0) {
        return NULL;
    }
    PyObject *x = v[0];
    ua_typenum t = (ua_typenum)ARR(x)->typenum, rtype = t;
    char kind = ua_dtype_kind(t);
    if (op != UA_REDUCE_MIN && op != UA_REDUCE_MAX && kind != 'f' &&
        kind != 'c') {
        /* As the standard allows: integers give the default float. */
        rtype = ua_py_default_float(x);
    }
    if (spread && v[3] != NULL) {
        if (PyBool_Check(v[3]) ||
            !(PyLong_Check(v[3]) || PyFloat_Check(v[3]))) {
            PyErr_Format(PyExc_TypeError,
                         "%s: correction must be an int or a float, not "
                         "%.100s",
                         fn, Py_TYPE(v[3])->tp_name);
            return NULL;
        }
        correction = PyFloat_AsDouble(v[3]);
        if (correction == -1.0 && PyErr_Occurred()) {
            return NULL;
        }
        if (!(correction >= 0.0)) {
            PyErr_Format(PyExc_ValueError,
                         "%s: correction must be a non-negative number", fn);
            return NULL;
        }
    }
    if (spread && kind == 'c') {
        return complex_spread(st, x, op, axes, keepdims, correction);
    }
    PyObject *dest = has_out && v[3] != NULL && v[3] != Py_None ? v[3] : NULL;
    return ua_py_reduce_out(st, fn, x, op, axes, keepdims, rtype, correction,
                            dest);
}

#define STATISTIC(name, op)                                                   \
    static PyObject *name(PyObject *m, PyObject *const *a, Py_ssize_t n,      \
                          PyObject *k)                                        \
    {                                                                         \
        return statistic(m, a, n, k, #name, op);                              \
    }

STATISTIC(min, UA_REDUCE_MIN)
STATISTIC(max, UA_REDUCE_MAX)
STATISTIC(mean, UA_REDUCE_MEAN)
STATISTIC(var, UA_REDUCE_VAR)
STATISTIC(std, UA_REDUCE_STD)

/* The scan's axis: an int, or None for a one-dimensional x. */
static int
scan_axis(ua_state *st, PyObject *x, PyObject *axis, const char *fn, int *out)
{
    int nd = ARR(x)->nd;
    if (axis != NULL && axis != Py_None) {
        return ua_py_parse_axis(st, axis, fn, nd, out);
    }
    if (nd != 1) {
        PyErr_Format(PyExc_ValueError,
                     "%s: axis may be omitted only for a one-dimensional "
                     "array, not one of %d dimensions",
                     fn, nd);
        return -1;
    }
    *out = 0;
    return 0;
}

static PyObject *scan(ua_state *st, PyObject *x, int axis, int initial,
                      ua_typenum rtype, ua_scan_op op, PyObject *dest);

/* out= of a scan (the dpctl's keyword, checked by ua_py_check_out): the
 * array dest that takes x's scan along axis directly, where it is one;
 * NULL where the scan needs a result of its own first (dest meets x's
 * bytes, or the scan of truths runs in int64); -1 with the error raised
 * where out= is wrong. */
static int
scan_dest(ua_state *st, const char *fn, PyObject *x, int axis, int initial,
          ua_typenum rtype, PyObject *out, PyObject **dest)
{
    *dest = NULL;
    if (out == Py_None) {
        return 0;
    }
    Py_ssize_t shape[UA_MAXDIMS];
    memcpy(shape, ARR(x)->shape, (size_t)ARR(x)->nd * sizeof(Py_ssize_t));
    shape[axis] += initial;
    if (ua_py_check_out(st, fn, out, ARR(x)->nd, shape, rtype, x) < 0) {
        return -1;
    }
    if (rtype != UA_BOOL && !ua_py_arrays_may_overlap(x, out)) {
        *dest = out;
    }
    return 0;
}

/* cumulative_sum and cumulative_prod: (x, /, *, axis=None, dtype=None,
 * include_initial=False, out=None). */
static PyObject *
cumulative(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
           PyObject *kwnames, const char *fn, ua_scan_op op)
{
    static const char *const kwlist[] = {
        "x", "axis", "dtype", "include_initial", "out", NULL};
    ua_py_argspec spec = {fn, kwlist, 1, 1};
    PyObject *v[5] = {NULL, NULL, NULL, NULL, Py_None};
    ua_state *st = PyModule_GetState(module);
    int axis, initial = 0;
    ua_typenum rtype;
    PyObject *dest;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], fn) < 0 ||
        scan_axis(st, v[0], v[1], fn, &axis) < 0 ||
        accumulation_dtype(st, v[0], v[2], fn, &rtype) < 0 ||
        ua_py_parse_bool(v[3], fn, "include_initial", &initial) < 0 ||
        scan_dest(st, fn, v[0], axis, initial, rtype, v[4], &dest) < 0) {
        return NULL;
    }
    PyObject *x = cast_for_accumulation(st, v[0], rtype);
    if (x == NULL) {
        return NULL;
    }
    /* Into bool: the sums or products of the truths, in int64, which
     * are non-zero where the logical or (and) is true. */
    bool truth = rtype == UA_BOOL;
    PyObject *r =
        scan(st, x, axis, initial, truth ? UA_INT64 : rtype, op, dest);
    Py_DECREF(x);
    if (r != NULL && truth) {
        PyObject *zero = PyLong_FromLong(0);
        PyObject *ops[2] = {r, zero};
        Py_SETREF(r, zero ? ua_py_elementwise(st, UA_EW_not_equal, ops, 2,
                                              NULL, false)
                          : NULL);
        Py_XDECREF(zero);
    }
    if (r == NULL || v[4] == Py_None || r == v[4]) {
        return r;
    }
    int copied = ua_py_array_assign(st, v[4], r);
    Py_DECREF(r);
    return copied < 0 ? NULL : Py_NewRef(v[4]);
}

/* The scan of x along axis into dest, or where it is NULL a new array of
 * dtype rtype. */
static PyObject *
scan(ua_state *st, PyObject *x, int axis, int initial, ua_typenum rtype,
     ua_scan_op op, PyObject *dest)
{
    Py_ssize_t shape[UA_MAXDIMS];
    memcpy(shape, ARR(x)->shape, (size_t)ARR(x)->nd * sizeof(Py_ssize_t));
    shape[axis] += initial;
    PyObject *out = dest != NULL
                        ? Py_NewRef(dest)
                        : ua_py_result_like(st, x, ARR(x)->nd, shape, rtype);
    if (out == NULL) {
        return NULL;
    }
    ua_strided xs = ua_py_array_strided(x), rs = ua_py_array_strided(out);
    int nd = ARR(x)->nd;
    const Py_ssize_t *xshape = ARR(x)->shape;
    PyThreadState *saved = ua_py_release_if_long((size_t)ua_py_array_size(x) *
                                                 ua_py_array_itemsize(x));
    ua_status code = ua_queue_scan(queue_of_array(x), op, nd, xshape, &xs,
                                   axis, initial, &rs);
    ua_py_reacquire(saved);
    if (ua_py_run_core(st, code) < 0) {
        Py_CLEAR(out);
    }
    return out;
}

static PyObject *
cumulative_sum(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return cumulative(m, a, n, k, "cumulative_sum", UA_SCAN_CUMSUM);
}

static PyObject *
cumulative_prod(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return cumulative(m, a, n, k, "cumulative_prod", UA_SCAN_CUMPROD);
}

/* cumulative_logsumexp's dtypes, as dpctl's logsumexp takes them: the
 * scan computes in dtype where that is real floating, else in x's where
 * x's is, else in the device's default floating dtype, and the result is
 * dtype (cast after the scan) where one is given; complex x is a
 * ValueError. */
static int
logsumexp_dtypes(ua_state *st, PyObject *x, PyObject *dtype, const char *fn,
                 ua_typenum *result, ua_typenum *compute)
{
    ua_typenum t = (ua_typenum)ARR(x)->typenum;
    if (ua_dtype_kind(t) == 'c') {
        PyErr_Format(PyExc_ValueError,
                     "%s takes real values, not an array of %s", fn,
                     ua_dtype_name(t));
        return -1;
    }
    *compute = ua_dtype_kind(t) == 'f' ? t : ua_py_default_float(x);
    *result = *compute;
    if (dtype == NULL || dtype == Py_None) {
        return 0;
    }
    if (ua_py_typenum(st, dtype, result) < 0) {
        return -1;
    }
    if (ua_dtype_kind(*result) == 'f') {
        *compute = *result;
    }
    return 0;
}

/* cumulative_logsumexp(x, /, *, axis=None, dtype=None,
 * include_initial=False, out=None): the running logaddexp along axis, in
 * sequence as NumPy's logaddexp.accumulate; with include_initial, a
 * leading -inf. */
static PyObject *
cumulative_logsumexp(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames)
{
    static const char *const kwlist[] = {
        "x", "axis", "dtype", "include_initial", "out", NULL};
    const char *fn = "cumulative_logsumexp";
    ua_py_argspec spec = {fn, kwlist, 1, 1};
    PyObject *v[5] = {NULL, NULL, NULL, NULL, Py_None};
    ua_state *st = PyModule_GetState(module);
    int axis, initial = 0;
    ua_typenum rtype, compute;
    PyObject *dest;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], fn) < 0 ||
        scan_axis(st, v[0], v[1], fn, &axis) < 0 ||
        logsumexp_dtypes(st, v[0], v[2], fn, &rtype, &compute) < 0 ||
        ua_py_parse_bool(v[3], fn, "include_initial", &initial) < 0 ||
        scan_dest(st, fn, v[0], axis, initial, rtype, v[4], &dest) < 0) {
        return NULL;
    }
    bool cast = compute != rtype;
    PyObject *r = scan(st, v[0], axis, initial, compute, UA_SCAN_LOGSUMEXP,
                       cast ? NULL : dest);
    if (r != NULL && cast) {
        Py_SETREF(r,
                  ua_py_array_cast(st, r, rtype, 'K', 1, base_of(r)->queue));
    }
    if (r == NULL || v[4] == Py_None || r == v[4]) {
        return r;
    }
    int copied = ua_py_array_assign(st, v[4], r);
    Py_DECREF(r);
    return copied < 0 ? NULL : Py_NewRef(v[4]);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* Their operands as snapshots: their other arguments' hooks run after
 * they read the operands' layouts. */
UA_PY_ON_SNAPSHOTS(sum)
UA_PY_ON_SNAPSHOTS(prod)
UA_PY_ON_SNAPSHOTS(min)
UA_PY_ON_SNAPSHOTS(max)
UA_PY_ON_SNAPSHOTS(mean)
UA_PY_ON_SNAPSHOTS(var)
UA_PY_ON_SNAPSHOTS(std)
UA_PY_ON_SNAPSHOTS(cumulative_sum)
UA_PY_ON_SNAPSHOTS(cumulative_prod)
UA_PY_ON_SNAPSHOTS(cumulative_logsumexp)

static PyMethodDef statistical_functions[] = {
    {"sum", KW(sum_on_snapshots), UA_DOC_SUM},
    {"prod", KW(prod_on_snapshots), UA_DOC_PROD},
    {"min", KW(min_on_snapshots), UA_DOC_MIN},
    {"max", KW(max_on_snapshots), UA_DOC_MAX},
    {"mean", KW(mean_on_snapshots), UA_DOC_MEAN},
    {"var", KW(var_on_snapshots), UA_DOC_VAR},
    {"std", KW(std_on_snapshots), UA_DOC_STD},
    {"cumulative_sum", KW(cumulative_sum_on_snapshots), UA_DOC_CUMULATIVE_SUM},
    {"cumulative_prod", KW(cumulative_prod_on_snapshots),
     UA_DOC_CUMULATIVE_PROD},
    {"cumulative_logsumexp", KW(cumulative_logsumexp_on_snapshots),
     UA_DOC_CUMULATIVE_LOGSUMEXP},
    {0},
};

int
ua_py_statistical_add(PyObject *module)
{
    return PyModule_AddFunctions(module, statistical_functions);
}
