/* dpctl's logsumexp and reduce_hypot, composed of the core's max and sum
 * reductions and the catalogue's elementwise functions, so that every
 * backend runs them with the kernels it has.  Each is scaled by the
 * largest magnitude along the reduced axes first: exp and the squares
 * then neither overflow nor underflow to a wrong result. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings_reduce.h"
#include "python/base/dtypes.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/reducing.h"
#include "python/namespace/scaled_reductions.h"

#include <math.h>

/* f(a) or f(a, b) of the catalogue, a new reference (NULL operands pass
 * an earlier failure on). */
static PyObject *
ew1(ua_state *st, ua_ew_id f, PyObject *a)
{
    return a ? ua_py_elementwise(st, f, &a, 1, NULL, false) : NULL;
}

static PyObject *
ew2(ua_state *st, ua_ew_id f, PyObject *a, PyObject *b)
{
    PyObject *ops[2] = {a, b};
    return a && b ? ua_py_elementwise(st, f, ops, 2, NULL, false) : NULL;
}

/* The dtype the reduction computes in: dtype where it is real floating,
 * else x's where x's is, else the device's default floating dtype;
 * complex x is a ValueError, as dpctl has it. */
static int
compute_dtype(PyObject *x, ua_typenum requested, bool given, const char *fn,
              ua_typenum *out)
{
    ua_typenum t = (ua_typenum)ARR(x)->typenum;
    if (ua_dtype_kind(t) == 'c') {
        PyErr_Format(PyExc_ValueError,
                     "%s takes real values, not an array of %s", fn,
                     ua_dtype_name(t));
        return -1;
    }
    if (given && ua_dtype_kind(requested) == 'f') {
        *out = requested;
    } else {
        *out = ua_dtype_kind(t) == 'f' ? t : ua_py_default_float(x);
    }
    return 0;
}

/* The scale of each reduced group, of keepdims' shape: the largest
 * element (logsumexp) or magnitude (hypot) where it is finite and, for
 * hypot, not zero; else 0 (logsumexp) or 1 (hypot), which leave the
 * infinities and NaNs to the sum. */
static PyObject *
scale_of(ua_state *st, PyObject *x, uint64_t axes, ua_typenum t, bool hypot)
{
    PyObject *mag = hypot ? ew1(st, UA_EW_abs, x) : Py_NewRef(x);
    PyObject *m =
        mag ? ua_py_reduce(st, mag, UA_REDUCE_MAX, axes, 1, t, 0.0) : NULL;
    Py_XDECREF(mag);
    PyObject *ok = ew1(st, UA_EW_isfinite, m);
    if (hypot && ok != NULL) {
        PyObject *zero = PyLong_FromLong(0);
        PyObject *positive = ew2(st, UA_EW_greater, m, zero);
        Py_XDECREF(zero);
        Py_SETREF(ok, ew2(st, UA_EW_logical_and, ok, positive));
        Py_XDECREF(positive);
    }
    PyObject *fallback = PyFloat_FromDouble(hypot ? 1.0 : 0.0);
    PyObject *ops[3] = {ok, m, fallback};
    PyObject *scale =
        ok && m && fallback
            ? ua_py_elementwise(st, UA_EW_where, ops, 3, NULL, false)
            : NULL;
    Py_XDECREF(ok);
    Py_XDECREF(m);
    Py_XDECREF(fallback);
    return scale;
}

/* g(f(a, b)) with f's result released (g may be NULL: f(a, b) alone). */
static PyObject *
ew2_then(ua_state *st, ua_ew_id f, PyObject *a, PyObject *b, ua_ew_id g)
{
    PyObject *inner = ew2(st, f, a, b);
    PyObject *out = ew1(st, g, inner);
    Py_XDECREF(inner);
    return out;
}

/* f(g(a), b) with g's result released. */
static PyObject *
ew1_then(ua_state *st, ua_ew_id g, PyObject *a, ua_ew_id f, PyObject *b)
{
    PyObject *inner = ew1(st, g, a);
    PyObject *out = ew2(st, f, inner, b);
    Py_XDECREF(inner);
    return out;
}

/* log(sum(exp(x - s))) + s, or s * sqrt(sum((x / s)**2)), with the
 * reduced axes kept. */
static PyObject *
scaled(ua_state *st, PyObject *x, uint64_t axes, ua_typenum t, bool hypot)
{
    PyObject *s = scale_of(st, x, axes, t, hypot);
    PyObject *terms = hypot ? ew2_then(st, UA_EW_divide, x, s, UA_EW_square)
                            : ew2_then(st, UA_EW_subtract, x, s, UA_EW_exp);
    PyObject *sum =
        terms ? ua_py_reduce(st, terms, UA_REDUCE_SUM, axes, 1, t, 0.0) : NULL;
    Py_XDECREF(terms);
    PyObject *r = hypot ? ew1_then(st, UA_EW_sqrt, sum, UA_EW_multiply, s)
                        : ew1_then(st, UA_EW_log, sum, UA_EW_add, s);
    Py_XDECREF(sum);
    Py_XDECREF(s);
    return r;
}

/* The shape of the result: x's with the reduced axes dropped or kept as
 * length 1; *count the number of elements each result reduces. */
static int
result_shape(PyObject *x, uint64_t axes, int keepdims, Py_ssize_t *shape,
             Py_ssize_t *count)
{
    int nd = 0;
    *count = 1;
    for (int j = 0; j < ARR(x)->nd; j++) {
        bool reduced = (axes >> j) & 1u;
        if (reduced) {
            *count *= ARR(x)->shape[j];
        }
        if (!reduced || keepdims) {
            shape[nd++] = reduced ? 1 : ARR(x)->shape[j];
        }
    }
    return nd;
}

static PyObject *
scaled_reduction(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames, const char *fn, bool hypot)
{
    static const char *const kwlist[] = {"x",        "axis", "dtype",
                                         "keepdims", "out",  NULL};
    ua_py_argspec spec = {fn, kwlist, 1, 1};
    PyObject *v[5] = {NULL, NULL, NULL, NULL, Py_None};
    ua_state *st = PyModule_GetState(module);
    uint64_t axes;
    int keepdims = 0;
    ua_typenum requested = UA_FLOAT64, t;
    bool given = false;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], fn) < 0 ||
        ua_py_reduce_axes(st, v[1], fn, ARR(v[0])->nd, &axes) < 0 ||
        ua_py_parse_bool(v[3], fn, "keepdims", &keepdims) < 0) {
        return NULL;
    }
    if (v[2] != NULL && v[2] != Py_None) {
        if (ua_py_typenum(st, v[2], &requested) < 0) {
            return NULL;
        }
        given = true;
    }
    if (compute_dtype(v[0], requested, given, fn, &t) < 0) {
        return NULL;
    }
    PyObject *x = v[0];
    Py_ssize_t shape[UA_MAXDIMS], count;
    int nd = result_shape(x, axes, keepdims, shape, &count);
    /* dpctl's out=: checked before the work, and given the result once
     * it is whole (the steps make temporaries of their own anyway). */
    if (v[4] != Py_None && ua_py_check_out(st, fn, v[4], nd, shape,
                                           given ? requested : t, x) < 0) {
        return NULL;
    }
    PyObject *r;
    if (count == 0) {
        /* The empty sum: log(0) and sqrt(0). */
        r = ua_py_result_like(st, x, nd, shape, t);
        PyObject *fill = PyFloat_FromDouble(hypot ? 0.0 : -INFINITY);
        if (r != NULL &&
            (fill == NULL || ua_py_array_assign(st, r, fill) < 0)) {
            Py_CLEAR(r);
        }
        Py_XDECREF(fill);
    } else {
        PyObject *xt =
            ARR(x)->typenum == (int)t
                ? Py_NewRef(x)
                : ua_py_array_cast(st, x, t, 'K', 1, base_of(x)->queue);
        r = xt ? scaled(st, xt, axes, t, hypot) : NULL;
        Py_XDECREF(xt);
        if (r != NULL && !keepdims) {
            Py_SETREF(r, ua_py_array_reshape(st, r, nd, shape, 'C', 0));
        }
    }
    if (r != NULL && given && requested != t) {
        Py_SETREF(
            r, ua_py_array_cast(st, r, requested, 'K', 1, base_of(r)->queue));
    }
    if (r == NULL || v[4] == Py_None) {
        return r;
    }
    int copied = ua_py_array_assign(st, v[4], r);
    Py_DECREF(r);
    return copied < 0 ? NULL : Py_NewRef(v[4]);
}

static PyObject *
logsumexp(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return scaled_reduction(m, a, n, k, "logsumexp", false);
}

static PyObject *
reduce_hypot(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *k)
{
    return scaled_reduction(m, a, n, k, "reduce_hypot", true);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* Their operands as snapshots: their other arguments' hooks run after
 * they read the operands' layouts. */
UA_PY_ON_SNAPSHOTS(logsumexp)
UA_PY_ON_SNAPSHOTS(reduce_hypot)

static PyMethodDef scaled_reduction_functions[] = {
    {"logsumexp", KW(logsumexp_on_snapshots), UA_DOC_LOGSUMEXP},
    {"reduce_hypot", KW(reduce_hypot_on_snapshots), UA_DOC_REDUCE_HYPOT},
    {0},
};

int
ua_py_scaled_reductions_add(PyObject *module)
{
    return PyModule_AddFunctions(module, scaled_reduction_functions);
}
