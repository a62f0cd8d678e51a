/* The creation functions whose values follow a pattern: arange, linspace,
 * eye, tril, triu and meshgrid.  The values are made on the device by the
 * backend's fill kernels (core/compute/kernels.h), never on the host. */
#include "python/base/pyheaders.h"

#include <math.h>

#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/dtypes.h"
#include "python/base/errors.h"
#include "python/namespace/creation.h"
#include "python/namespace/arguments.h"
#include "python/namespace/functions.h"
#include "python/types/arrays.h"

#include "core/compute/compute.h"
#include "core/compute/promote.h"

/* Our keyword-only extras, after the standard's arguments. */
#define EXTRAS "usm_type", "queue"

static ua_queue *
core_queue(PyObject *array)
{
    return queue_of(base_of(array)->queue);
}

/* Where a creation function puts its result: the queue that device and
 * queue name (a reference), and the USM kind. */
typedef struct {
    PyObject *queue;
    ua_usm_kind kind;
} target;

static int
target_of(ua_state *st, PyObject *device, PyObject *queue, PyObject *usm_type,
          target *out)
{
    out->kind = UA_USM_DEVICE;
    if (usm_type != NULL && usm_type != Py_None &&
        ua_py_parse_usm_type(usm_type, &out->kind) < 0) {
        return -1;
    }
    out->queue = ua_py_target_queue(st, device, queue, NULL);
    return out->queue ? 0 : -1;
}

/* The new array of a creation function, in C order. */
static PyObject *
new_array(ua_state *st, int nd, const Py_ssize_t *shape, ua_typenum t,
          const target *to)
{
    return ua_py_array_empty(st, nd, shape, NULL, t, 'C', to->kind, to->queue);
}

/* The floating dtype the target's device computes in by default: float64
 * (complex128) where it has double precision, else float32 (complex64). */
static ua_typenum
default_floating(const target *to, int complex)
{
    ua_default_dtypes d = ua_default_dtypes_for(
        ua_device_has_fp64(ua_queue_device(queue_of(to->queue))));
    return complex ? d.complex_floating : d.real_floating;
}

/* a once its fill is enqueued (not waited for), or NULL with the error of
 * a fill the queue refused. */
static PyObject *
filled_by(ua_state *st, PyObject *a, ua_status code)
{
    if (code != UA_OK) {
        Py_DECREF(a);
        return ua_py_raise_core(st, code);
    }
    return a;
}

static int
parse_dtype(ua_state *st, PyObject *dtype, ua_typenum fallback, ua_typenum *t)
{
    *t = fallback;
    return dtype == NULL || dtype == Py_None ? 0 : ua_py_typenum(st, dtype, t);
}

/* ------------------------------------------------------------ arange */

/* A value of type t for arange's first two elements: integers as int64
 * bits, floating values rounded to t's precision. */
static int
affine_value(ua_state *st, PyObject *v, ua_typenum t, ua_affine_value *out)
{
    ua_py_scalar s;
    if (ua_py_scalar_for(st, v, t, &s) < 0) {
        return -1;
    }
    char kind = ua_dtype_kind(t), held = ua_dtype_kind(s.type);
    double re = held == 'c'   ? s.v.c[0]
                : held == 'f' ? s.v.f
                : held == 'u' ? (double)s.v.u
                : held == 'b' ? (double)s.v.b
                              : (double)s.v.i;
    double im = held == 'c' ? s.v.c[1] : 0.0;
    if (kind == 'i' || kind == 'u' || kind == 'b') {
        out->i = held == 'u' ? (int64_t)s.v.u : held == 'b' ? s.v.b : s.v.i;
        return 0;
    }
    if (t == UA_FLOAT16) {
        re = (double)ua_half_to_float(ua_half_from_double(re));
    } else if (t == UA_FLOAT32 || t == UA_COMPLEX64) {
        re = (double)(float)re;
        im = (double)(float)im;
    }
    out->f[0] = re;
    out->f[1] = im;
    return 0;
}

/* NumPy's length: ceil((stop - start) / step), at least 0. */
static int
arange_length(PyObject *start, PyObject *stop, PyObject *step, Py_ssize_t *n)
{
    PyObject *span = PyNumber_Subtract(stop, start);
    PyObject *q = span ? PyNumber_TrueDivide(span, step) : NULL;
    Py_XDECREF(span);
    if (q == NULL) {
        return -1;
    }
    double v = PyFloat_AsDouble(q);
    Py_DECREF(q);
    if (v == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    if (isnan(v)) {
        PyErr_SetString(PyExc_ValueError, "arange: cannot compute length");
        return -1;
    }
    v = ceil(v);
    if (v > (double)PY_SSIZE_T_MAX / 16) {
        PyErr_SetString(PyExc_ValueError,
                        "arange: Maximum allowed size exceeded");
        return -1;
    }
    *n = v > 0 ? (Py_ssize_t)v : 0;
    return 0;
}

/* NumPy checks that start fits an integer dtype but lets the values
 * after it wrap; the last value must fit here too.  n > 0. */
static int
check_last_fits(ua_state *st, PyObject *start, PyObject *step, Py_ssize_t n,
                ua_typenum t)
{
    ua_py_scalar v;
    PyObject *count = PyLong_FromSsize_t(n - 1);
    PyObject *span = count ? PyNumber_Multiply(count, step) : NULL;
    PyObject *last = span ? PyNumber_Add(start, span) : NULL;
    int rc = last == NULL                   ? -1
             : ua_py_is_python_scalar(last) ? ua_py_scalar_for(st, last, t, &v)
                                            : 0;
    Py_XDECREF(count);
    Py_XDECREF(span);
    Py_XDECREF(last);
    return rc;
}

/* A real number other than Python's int and float and integer-likes
 * (NumPy's float32 scalars): a numbers.Real, which is asked only of such
 * rare types. */
static int
is_other_real(PyObject *o)
{
    if (PyLong_Check(o) || PyFloat_Check(o) || PyIndex_Check(o) ||
        PyComplex_Check(o) || Py_TYPE(o)->tp_as_number == NULL ||
        Py_TYPE(o)->tp_as_number->nb_float == NULL) {
        return 0;
    }
    PyObject *numbers = PyImport_ImportModule("numbers");
    PyObject *real = numbers ? PyObject_GetAttrString(numbers, "Real") : NULL;
    int is = real ? PyObject_IsInstance(o, real) : -1;
    Py_XDECREF(real);
    Py_XDECREF(numbers);
    if (is < 0) {
        PyErr_Clear();
    }
    return is > 0;
}

/* The dtype arange gives by default: an integer when start, stop and step
 * are all integers, else the device's floating default. */
static int
arange_type(PyObject *const *v, ua_typenum *t)
{
    *t = UA_INT64;
    for (int i = 0; i < 3; i++) {
        if (PyFloat_Check(v[i])) {
            *t = UA_FLOAT64;
        } else if (!PyLong_Check(v[i]) && !PyIndex_Check(v[i])) {
            PyErr_Format(PyExc_TypeError,
                         "arange takes integers or real numbers, not %.100s",
                         Py_TYPE(v[i])->tp_name);
            return -1;
        }
    }
    return 0;
}

static PyObject *
arange(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
       PyObject *kwnames)
{
    static const char *const kwlist[] = {"start",  "stop", "step", "dtype",
                                         "device", EXTRAS, NULL};
    static const ua_py_argspec spec = {"arange", kwlist, 3, 1};
    PyObject *v[7] = {NULL, Py_None, NULL, Py_None, Py_None, Py_None, Py_None};
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0) {
        return NULL;
    }
    PyObject *b[3] = {v[0], v[1], v[2] ? v[2] : NULL};
    if (v[1] == Py_None) {
        b[0] = NULL;
        b[1] = v[0];
    }
    PyObject *zero = PyLong_FromLong(0), *one = PyLong_FromLong(1);
    b[0] = b[0] ? b[0] : zero;
    b[2] = b[2] && b[2] != Py_None ? b[2] : one;
    PyObject *reals[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++) {
        /* NumPy's float32 and float16 scalars are real numbers too. */
        if (is_other_real(b[i]) && (reals[i] = PyNumber_Float(b[i]))) {
            b[i] = reals[i];
        }
    }
    PyObject *a = NULL, *second = NULL;
    Py_ssize_t n;
    ua_typenum t;
    target to = {NULL, UA_USM_DEVICE};
    int zero_step = PyObject_Not(b[2]);
    if (zero_step > 0) {
        PyErr_SetString(PyExc_ValueError, "arange step must not be zero");
    }
    if (zero_step == 0 && arange_type(b, &t) == 0 &&
        target_of(st, v[4], v[6], v[5], &to) == 0 &&
        parse_dtype(st, v[3], t == UA_FLOAT64 ? default_floating(&to, 0) : t,
                    &t) == 0 &&
        arange_length(b[0], b[1], b[2], &n) == 0) {
        /* Booleans as NumPy and dpctl make them: bool(start + i * step),
         * for at most two elements (more would repeat True). */
        bool boolean = t == UA_BOOL;
        t = boolean ? default_floating(&to, 0) : t;
        ua_affine_plan p = {
            .mode = UA_AFFINE_ARANGE, .type = t, .n = (size_t)n};
        second = PyNumber_Add(b[0], b[2]);
        if (boolean && n > 2) {
            PyErr_Format(PyExc_ValueError,
                         "arange makes boolean arrays of at most 2 "
                         "elements, not %zd",
                         n);
        } else if (second != NULL &&
                   affine_value(st, b[0], t, &p.first) == 0 &&
                   (n < 2 || affine_value(st, second, t, &p.second) == 0) &&
                   (n < 2 || ua_dtype_kind(t) == 'f' ||
                    ua_dtype_kind(t) == 'c' ||
                    check_last_fits(st, b[0], b[2], n, t) == 0) &&
                   (a = new_array(st, 1, &n, t, &to)) != NULL) {
            p.dst = ARR(a)->data;
            a = filled_by(st, a, ua_queue_affine(core_queue(a), &p));
        }
        if (a != NULL && boolean) {
            Py_SETREF(a, ua_py_array_cast(st, a, UA_BOOL, 'C', 1, to.queue));
        }
    }
    Py_XDECREF(to.queue);
    Py_XDECREF(second);
    Py_XDECREF(zero);
    Py_XDECREF(one);
    for (int i = 0; i < 3; i++) {
        Py_XDECREF(reals[i]);
    }
    return a;
}

/* ------------------------------------------------------------ linspace */

static int
complex_parts(PyObject *v, const char *what, double *out)
{
    if (PyComplex_Check(v)) {
        out[0] = PyComplex_RealAsDouble(v);
        out[1] = PyComplex_ImagAsDouble(v);
        return 0;
    }
    if (!PyFloat_Check(v) && !PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError,
                     "linspace: %s must be a real or complex number, not "
                     "%.100s",
                     what, Py_TYPE(v)->tp_name);
        return -1;
    }
    out[0] = PyFloat_AsDouble(v);
    out[1] = 0.0;
    return out[0] == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* NumPy's linspace: step = (stop - start) / div, each element
 * i * step + start; where the step underflows to zero,
 * i / div * (stop - start). */
static void
linspace_plan(ua_affine_plan *p, Py_ssize_t num, int endpoint)
{
    Py_ssize_t div = endpoint ? num - 1 : num;
    double delta[2] = {p->stop[0] - p->start[0], p->stop[1] - p->start[1]};
    p->div = (double)div;
    p->endpoint = endpoint != 0;
    if (div > 0) {
        double step[2] = {delta[0] / p->div, delta[1] / p->div};
        p->divide = step[0] == 0 && step[1] == 0;
        for (int k = 0; k < 2; k++) {
            p->step[k] = p->divide ? delta[k] : step[k];
        }
    } else {
        p->step[0] = delta[0];
        p->step[1] = delta[1];
    }
}

/* linspace's checks of its dtype, and the fill, on to. */
static PyObject *
linspace_on(ua_state *st, const ua_affine_plan *pp, PyObject *dtype,
            Py_ssize_t num, int endpoint, int complex_in, const target *to)
{
    ua_affine_plan p = *pp;
    if (parse_dtype(st, dtype, default_floating(to, complex_in), &p.type) <
        0) {
        return NULL;
    }
    char kind = ua_dtype_kind(p.type);
    if (kind != 'f' && kind != 'c') {
        /* Integers and booleans, as NumPy makes them: the values in the
         * default floating dtype, rounded down, cast. */
        ua_typenum t = p.type;
        p.type = default_floating(to, 0);
        PyObject *f = complex_in
                          ? NULL
                          : linspace_on(st, &p, Py_None, num, endpoint, 0, to);
        if (complex_in) {
            PyErr_Format(PyExc_TypeError,
                         "linspace: complex bounds need a complex dtype, not "
                         "%s",
                         ua_dtype_name(t));
        }
        if (f != NULL && t != UA_BOOL) {
            Py_SETREF(f, ua_py_elementwise(st, UA_EW_floor, &f, 1, f, false));
        }
        PyObject *a = f ? ua_py_array_cast(st, f, t, 'C', 1, to->queue) : NULL;
        Py_XDECREF(f);
        return a;
    }
    if (complex_in && kind != 'c') {
        PyErr_Format(PyExc_TypeError,
                     "linspace: complex bounds need a complex dtype, not %s",
                     ua_dtype_name(p.type));
        return NULL;
    }
    linspace_plan(&p, num, endpoint);
    p.n = (size_t)num;
    PyObject *a = new_array(st, 1, &num, p.type, to);
    if (a != NULL) {
        p.dst = ARR(a)->data;
        a = filled_by(st, a, ua_queue_affine(core_queue(a), &p));
    }
    return a;
}

static PyObject *
linspace(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
         PyObject *kwnames)
{
    static const char *const kwlist[] = {"start",  "stop",     "num",  "dtype",
                                         "device", "endpoint", EXTRAS, NULL};
    static const ua_py_argspec spec = {"linspace", kwlist, 3, 3};
    PyObject *v[8] = {NULL,    NULL,    NULL,    Py_None,
                      Py_None, Py_True, Py_None, Py_None};
    ua_state *st = PyModule_GetState(module);
    ua_affine_plan p = {.mode = UA_AFFINE_LINSPACE};
    Py_ssize_t num;
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        complex_parts(v[0], "start", p.start) < 0 ||
        complex_parts(v[1], "stop", p.stop) < 0 ||
        ua_py_index(v[2], "num", &num) < 0) {
        return NULL;
    }
    if (num < 0) {
        PyErr_Format(PyExc_ValueError,
                     "linspace: num must be non-negative, not %zd", num);
        return NULL;
    }
    int endpoint = PyObject_IsTrue(v[5]);
    int complex_in = PyComplex_Check(v[0]) || PyComplex_Check(v[1]);
    target to;
    if (endpoint < 0 || target_of(st, v[4], v[7], v[6], &to) < 0) {
        return NULL;
    }
    PyObject *a = linspace_on(st, &p, v[3], num, endpoint, complex_in, &to);
    Py_DECREF(to.queue);
    return a;
}

/* ------------------------------------------------------------ eye, tril */

static void
element_one(ua_typenum t, unsigned char *out)
{
    double one[2] = {1.0, 0.0};
    ua_strided dst = {(char *)out, NULL, t};
    ua_strided src = {(char *)one, NULL, UA_COMPLEX128};
    memset(out, 0, 16);
    ua_copy_strided_host(0, NULL, &dst, &src);
}

static PyObject *
eye(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
    PyObject *kwnames)
{
    static const char *const kwlist[] = {"n_rows", "n_cols", "k", "dtype",
                                         "device", EXTRAS,   NULL};
    static const ua_py_argspec spec = {"eye", kwlist, 2, 1};
    PyObject *v[7] = {NULL, Py_None, NULL, Py_None, Py_None, Py_None, Py_None};
    ua_state *st = PyModule_GetState(module);
    Py_ssize_t shape[2], k = 0;
    ua_band_plan p = {.batch = 1, .set_inside = true, .set_outside = true};
    ua_typenum t;
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_index(v[0], "n_rows", &shape[0]) < 0 ||
        (v[1] != Py_None && ua_py_index(v[1], "n_cols", &shape[1]) < 0) ||
        (v[2] != NULL && ua_py_index(v[2], "k", &k) < 0)) {
        return NULL;
    }
    shape[1] = v[1] == Py_None ? shape[0] : shape[1];
    if (shape[0] < 0 || shape[1] < 0) {
        PyErr_Format(PyExc_ValueError,
                     "eye: negative dimensions are not allowed (%zd, %zd)",
                     shape[0], shape[1]);
        return NULL;
    }
    target to;
    if (target_of(st, v[4], v[6], v[5], &to) < 0) {
        return NULL;
    }
    PyObject *a = parse_dtype(st, v[3], default_floating(&to, 0), &t) < 0
                      ? NULL
                      : new_array(st, 2, shape, t, &to);
    Py_DECREF(to.queue);
    if (a != NULL) {
        p.dst = ARR(a)->data;
        p.rows = shape[0];
        p.cols = shape[1];
        p.lo = p.hi = k;
        p.itemsize = ua_dtype_itemsize(t);
        element_one(t, p.inside);
        a = filled_by(st, a, ua_queue_band(core_queue(a), &p));
    }
    return a;
}

static PyObject *ordered_triangle(ua_state *st, PyObject *x, int lower,
                                  Py_ssize_t k);
static PyObject *triangle_copy(ua_state *st, PyObject *x, int lower,
                               Py_ssize_t k);

/* tril (lower) and triu: a copy of x with the other triangle zeroed. */
static PyObject *
triangle(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
         PyObject *kwnames, const char *fname, int lower)
{
    static const char *const kwlist[] = {"x", "k", NULL};
    const ua_py_argspec spec = {fname, kwlist, 1, 1};
    PyObject *v[2] = {NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    Py_ssize_t k = 0;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], fname) < 0 ||
        (v[1] != NULL && ua_py_index(v[1], "k", &k) < 0)) {
        return NULL;
    }
    int nd = ARR(v[0])->nd;
    if (nd < 2) {
        PyErr_Format(PyExc_ValueError,
                     "%s needs an array of at least 2 dimensions, not %d",
                     fname, nd);
        return NULL;
    }
    return ordered_triangle(st, v[0], lower, k);
}

/* The triangle of a matrix in Fortran order keeps that order, as dpctl's
 * and NumPy's do: it is the other triangle of the C-ordered transpose. */
static PyObject *
ordered_triangle(ua_state *st, PyObject *x, int lower, Py_ssize_t k)
{
    int flags = ARR(x)->flags;
    if (ARR(x)->nd != 2 || !(flags & USM_ARRAY_F_CONTIGUOUS) ||
        (flags & USM_ARRAY_C_CONTIGUOUS)) {
        return triangle_copy(st, x, lower, k);
    }
    static const int swap[2] = {1, 0};
    PyObject *t = ua_py_array_permute(x, swap);
    PyObject *r = t ? triangle_copy(st, t, !lower, -k) : NULL;
    Py_XDECREF(t);
    if (r == NULL) {
        return NULL;
    }
    Py_SETREF(r, ua_py_array_permute(r, swap));
    return r;
}

/* A C-ordered copy of x with the other triangle zeroed. */
static PyObject *
triangle_copy(ua_state *st, PyObject *x, int lower, Py_ssize_t k)
{
    int nd = ARR(x)->nd;
    PyObject *a = ua_py_array_copy(st, x, (ua_typenum)ARR(x)->typenum, 'C',
                                   base_of(x)->kind, base_of(x)->queue);
    if (a == NULL) {
        return NULL;
    }
    ua_band_plan p = {.dst = ARR(a)->data, .set_outside = true};
    p.rows = ARR(x)->shape[nd - 2];
    p.cols = ARR(x)->shape[nd - 1];
    p.batch = p.rows > 0 && p.cols > 0
                  ? (size_t)(ua_py_array_size(x) / (p.rows * p.cols))
                  : 0;
    /* col - row within [lo, hi] keeps the element. */
    p.lo = lower ? PTRDIFF_MIN / 2 : k;
    p.hi = lower ? k : PTRDIFF_MAX / 2;
    p.itemsize = ua_py_array_itemsize(x);
    a = filled_by(st, a, ua_queue_band(core_queue(a), &p));
    return a;
}

static PyObject *
tril(PyObject *m, PyObject *const *args, Py_ssize_t n, PyObject *kwnames)
{
    return triangle(m, args, n, kwnames, "tril", 1);
}

static PyObject *
triu(PyObject *m, PyObject *const *args, Py_ssize_t n, PyObject *kwnames)
{
    return triangle(m, args, n, kwnames, "triu", 0);
}

/* ------------------------------------------------------------ meshgrid */

/* Output i of meshgrid: a copy of arrays[i] broadcast along the others. */
static PyObject *
grid_of(ua_state *st, PyObject *x, int i, int n, const Py_ssize_t *shape,
        int xy)
{
    Py_ssize_t strides[UA_MAXDIMS] = {0};
    int axis = xy && n >= 2 && i < 2 ? 1 - i : i;
    strides[axis] = ARR(x)->strides[0];
    PyObject *out =
        ua_py_array_empty(st, n, shape, NULL, (ua_typenum)ARR(x)->typenum, 'C',
                          base_of(x)->kind, base_of(x)->queue);
    if (out == NULL) {
        return NULL;
    }
    ua_strided d = ua_py_array_strided(out);
    ua_strided s = {ARR(x)->data, strides, (ua_typenum)ARR(x)->typenum};
    if (ua_py_copy_strided(st, base_of(x)->queue, n, shape, &d, &s) < 0) {
        Py_CLEAR(out);
    }
    return out;
}

static int
meshgrid_inputs(ua_state *st, PyObject *args, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyTuple_GET_ITEM(args, i);
        if (ua_py_check_array(st, x, "meshgrid") < 0) {
            return -1;
        }
        if (ARR(x)->nd != 1) {
            PyErr_Format(PyExc_ValueError,
                         "meshgrid takes one-dimensional arrays; argument %zd "
                         "has %d dimensions",
                         i, ARR(x)->nd);
            return -1;
        }
        /* One dtype, as the standard and dpctl ask; the queues may differ
         * (no output needs two inputs): each output is on its input's. */
        PyObject *first = PyTuple_GET_ITEM(args, 0);
        if (ARR(x)->typenum != ARR(first)->typenum) {
            PyErr_Format(PyExc_ValueError,
                         "meshgrid's arrays must have one dtype: argument 0 "
                         "is %s, argument %zd %s",
                         ua_dtype_name((ua_typenum)ARR(first)->typenum), i,
                         ua_dtype_name((ua_typenum)ARR(x)->typenum));
            return -1;
        }
    }
    return 0;
}

static PyObject *
meshgrid(PyObject *module, PyObject *args, PyObject *kwargs)
{
    ua_state *st = PyModule_GetState(module);
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    const char *indexing = "xy";
    static char *kwlist[] = {"indexing", NULL};
    PyObject *empty = PyTuple_New(0);
    int ok = empty && PyArg_ParseTupleAndKeywords(
                          empty, kwargs, "|$s:meshgrid", kwlist, &indexing);
    Py_XDECREF(empty);
    if (!ok || meshgrid_inputs(st, args, n) < 0) {
        return NULL;
    }
    int xy = strcmp(indexing, "xy") == 0;
    if (!xy && strcmp(indexing, "ij") != 0) {
        PyErr_Format(PyExc_ValueError,
                     "meshgrid: indexing must be 'xy' or 'ij', not '%s'",
                     indexing);
        return NULL;
    }
    if (ua_py_check_ndim(st, "meshgrid", n) < 0) {
        return NULL;
    }
    Py_ssize_t shape[UA_MAXDIMS];
    for (Py_ssize_t i = 0; i < n; i++) {
        int axis = xy && n >= 2 && i < 2 ? 1 - (int)i : (int)i;
        shape[axis] = ARR(PyTuple_GET_ITEM(args, i))->shape[0];
    }
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *g =
            grid_of(st, PyTuple_GET_ITEM(args, i), (int)i, (int)n, shape, xy);
        if (g == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, i, g);
    }
    return out;
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* Their operands as snapshots: their other arguments' hooks run after
 * they read the operands' layouts. */
UA_PY_ON_SNAPSHOTS(tril)
UA_PY_ON_SNAPSHOTS(triu)

static PyMethodDef creation_functions[] = {
    {"arange", KW(arange), UA_DOC_ARANGE},
    {"linspace", KW(linspace), UA_DOC_LINSPACE},
    {"eye", KW(eye), UA_DOC_EYE},
    {"tril", KW(tril_on_snapshots), UA_DOC_TRIL},
    {"triu", KW(triu_on_snapshots), UA_DOC_TRIU},
    {"meshgrid", (PyCFunction)(void (*)(void))meshgrid,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_MESHGRID},
    {0},
};

int
ua_py_creation_add(PyObject *module)
{
    return PyModule_AddFunctions(module, creation_functions);
}
