/* The elementwise call that the array's operators and the namespace's
 * functions share: operands classified (arrays, Python scalars, NumPy's
 * arrays refused), one queue checked, the core resolving types and shapes,
 * the result allocated from the pool and the kernel enqueued. */
#include "python/base/pyheaders.h"

#include <string.h>

#include "core/compute/compute.h"
#include "python/base/dtypes.h"
#include "python/base/convert.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/state.h"
#include "python/types/arrays.h"

/* NumPy's arrays and scalars, which the namespace refuses as operands (a
 * silent copy to the device, or a host result, is what users must ask
 * for). */
static bool
is_numpy_object(PyObject *o)
{
    PyObject *mod =
        PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__module__");
    bool numpy = mod != NULL && PyUnicode_Check(mod) &&
                 PyUnicode_CompareWithASCIIString(mod, "numpy") == 0;
    Py_XDECREF(mod);
    PyErr_Clear();
    return numpy;
}

/* A Python int as the core's scalar: int64, or uint64 where positive and
 * past INT64_MAX, or past both `huge` with its nearest double (what a
 * floating computation takes, and comparisons need only its sign). */
int
ua_py_int_operand(PyObject *o, ua_ew_operand *op)
{
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    op->kind = UA_SCALAR_INT;
    if (overflow == 0) {
        op->value.i = v;
        return 0;
    }
    op->positive = overflow > 0;
    unsigned long long u = overflow > 0 ? PyLong_AsUnsignedLongLong(o) : 0;
    if (overflow > 0 && !(u == (unsigned long long)-1 && PyErr_Occurred())) {
        op->value.u = u;
        return 0;
    }
    PyErr_Clear();
    op->huge = true;
    op->value.f = PyLong_AsDouble(o);
    if (op->value.f == -1.0 && PyErr_Occurred()) {
        PyErr_Clear(); /* past the doubles too */
        op->value.f = overflow > 0 ? Py_HUGE_VAL : -Py_HUGE_VAL;
    }
    return 0;
}

static int python_scalar(PyObject *o, ua_ew_operand *op);

/* Whether o is a NumPy scalar (numpy.generic): 1, 0, or -1 with an error
 * raised.  NumPy is imported only for objects of its module. */
static int
is_numpy_scalar(ua_state *st, PyObject *o)
{
    if (!is_numpy_object(o)) {
        return 0;
    }
    PyObject *np = ua_py_numpy(st);
    PyObject *generic = np ? PyObject_GetAttrString(np, "generic") : NULL;
    int yes = generic ? PyObject_IsInstance(o, generic) : -1;
    Py_XDECREF(generic);
    return yes;
}

/* A NumPy scalar as an operand of its own dtype (NEP 50: strongly typed,
 * as a 0-d array would be): its value through item(), a Python scalar. */
static int
numpy_scalar(ua_state *st, PyObject *o, ua_ew_operand *op)
{
    PyObject *dt = PyObject_GetAttrString(o, "dtype");
    ua_typenum t;
    int ok = dt != NULL ? ua_py_typenum(st, dt, &t) : -1;
    Py_XDECREF(dt);
    PyObject *item = ok == 0 ? PyObject_CallMethod(o, "item", NULL) : NULL;
    int c = item != NULL ? python_scalar(item, op) : -1;
    Py_XDECREF(item);
    if (c <= 0) {
        if (c == 0) {
            PyErr_Format(PyExc_TypeError,
                         "a NumPy %.100s is not an operand of USMArray",
                         Py_TYPE(o)->tp_name);
        }
        return -1;
    }
    op->strong = true;
    op->type = t;
    return 1;
}

/* Whether o is an instance of one of ctypes' own types, told by the
 * type's module so that ctypes is never imported for other objects. */
static bool
is_ctypes_object(PyObject *o)
{
    PyObject *mod =
        PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__module__");
    bool ctypes = mod != NULL && PyUnicode_Check(mod) &&
                  PyUnicode_CompareWithASCIIString(mod, "ctypes") == 0;
    Py_XDECREF(mod);
    PyErr_Clear();
    return ctypes;
}

/* A ctypes simple value (c_int, c_double, c_bool, ...) as an operand of
 * the dtype its C type has, strongly typed as a NumPy scalar is (NumPy
 * reads it as a 0-d array of that type): the dtype from its buffer's
 * format, its value through .value.  Types without a dtype here
 * (c_longdouble, c_char, c_wchar, the pointers) are refused by name. */
static int
ctypes_scalar(PyObject *o, ua_ew_operand *op)
{
    Py_buffer v;
    if (PyObject_GetBuffer(o, &v, PyBUF_FORMAT | PyBUF_ND) < 0) {
        PyErr_Clear();
        return 0;
    }
    ua_typenum t;
    bool known = v.ndim == 0 && v.format != NULL &&
                 ua_dtype_from_buffer_format(v.format, &t) == UA_OK &&
                 (Py_ssize_t)ua_dtype_itemsize(t) == v.itemsize;
    PyBuffer_Release(&v);
    if (!known) {
        ua_error_clear();
        PyErr_Format(PyExc_TypeError,
                     "a ctypes %.100s is not an operand of USMArray: only "
                     "ctypes' bool, integer, float and double types are",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    PyObject *value = PyObject_GetAttrString(o, "value");
    int c = value != NULL ? python_scalar(value, op) : -1;
    Py_XDECREF(value);
    if (c == 0) {
        PyErr_Format(PyExc_TypeError,
                     "a ctypes %.100s is not an operand of USMArray",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    op->strong = true;
    op->type = t;
    return c;
}

int
ua_py_is_typed_scalar(ua_state *st, PyObject *o)
{
    if (is_ctypes_object(o)) {
        return 1;
    }
    return is_numpy_scalar(st, o);
}

/* 1: o is an operand, filled in; 0: unsupported (nothing raised); -1:
 * error raised. */
static int
classify(ua_state *st, PyObject *o, ua_ew_operand *op)
{
    memset(op, 0, sizeof *op);
    if (PyObject_TypeCheck(o, st->USMArray_Type)) {
        PyUSMArrayObject *a = ARR(o);
        op->data = a->data;
        op->nd = a->nd;
        op->shape = a->shape;
        op->strides = a->strides;
        op->type = (ua_typenum)a->typenum;
        return 1;
    }
    if (!PyFloat_CheckExact(o) && !PyLong_CheckExact(o) && !PyBool_Check(o)) {
        if (is_ctypes_object(o)) {
            return ctypes_scalar(o, op);
        }
        int n = is_numpy_scalar(st, o);
        if (n != 0) {
            return n < 0 ? -1 : numpy_scalar(st, o, op);
        }
    }
    return python_scalar(o, op);
}

/* A Python bool, int, float or complex (or a subclass) as an operand. */
static int
python_scalar(PyObject *o, ua_ew_operand *op)
{
    op->is_scalar = true;
    if (PyBool_Check(o)) {
        op->kind = UA_SCALAR_BOOL;
        op->value.b = o == Py_True;
        return 1;
    }
    if (PyLong_Check(o)) {
        return ua_py_int_operand(o, op) < 0 ? -1 : 1;
    }
    if (PyFloat_Check(o)) {
        op->kind = UA_SCALAR_FLOAT;
        op->value.f = PyFloat_AS_DOUBLE(o);
        return 1;
    }
    if (PyComplex_Check(o)) {
        op->kind = UA_SCALAR_COMPLEX;
        op->value.c[0] = PyComplex_RealAsDouble(o);
        op->value.c[1] = PyComplex_ImagAsDouble(o);
        return 1;
    }
    return 0;
}

static PyObject *
refuse_operand(ua_ew_id f, PyObject *o, bool operator)
{
    if (is_numpy_object(o)) {
        return PyErr_Format(PyExc_TypeError,
                            "%s(): a NumPy %.100s is not an operand of "
                            "USMArray: convert it with ua.asarray(value, "
                            "device=x.device) first, or the array with "
                            "ua.asnumpy(x)",
                            ua_ew_name(f), Py_TYPE(o)->tp_name);
    }
    if (operator) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return PyErr_Format(PyExc_TypeError,
                        "%s() takes USMArrays and Python scalars, not "
                        "%.100s",
                        ua_ew_name(f), Py_TYPE(o)->tp_name);
}

/* The first array operand, every other on its queue; NULL with ValueError
 * naming both queues otherwise, or TypeError where none is an array. */
static PyObject *
common_array(ua_ew_id f, PyObject *const *objs, const ua_ew_operand *ops,
             int n)
{
    PyObject *first = NULL;
    for (int k = 0; k < n; k++) {
        if (ops[k].is_scalar) {
            continue;
        }
        if (first == NULL) {
            first = objs[k];
        } else if (queue_of_array(objs[k]) != queue_of_array(first)) {
            PyErr_Format(PyExc_ValueError,
                         "%s(): the operands are on different queues, %R and "
                         "%R; move one with to_device() first",
                         ua_ew_name(f), base_of(first)->queue,
                         base_of(objs[k])->queue);
            return NULL;
        }
    }
    if (first == NULL) {
        PyErr_Format(PyExc_TypeError,
                     "%s() needs at least one USMArray operand",
                     ua_ew_name(f));
    }
    return first;
}

/* The result's USM kind, as dpctl coerces its operands' kinds: device
 * over shared over host (the enum's order). */
static ua_usm_kind
coerced_kind(PyObject *const *objs, const ua_ew_operand *ops, int n)
{
    ua_usm_kind kind = UA_USM_HOST;
    for (int k = 0; k < n; k++) {
        if (!ops[k].is_scalar && base_of(objs[k])->kind < kind) {
            kind = base_of(objs[k])->kind;
        }
    }
    return kind;
}

static int
check_into(ua_ew_id f, const ua_ew_resolved *r, PyObject *into)
{
    PyUSMArrayObject *x = ARR(into);
    bool same = x->nd == r->nd;
    for (int j = 0; same && j < r->nd; j++) {
        same = x->shape[j] == r->shape[j];
    }
    if (!same) {
        PyErr_Format(PyExc_ValueError,
                     "in-place %s(): the result's shape differs from the "
                     "left operand's (broadcasting may not grow it)",
                     ua_ew_name(f));
        return -1;
    }
    if (x->flags & USM_ARRAY_WRITABLE) {
        return 0;
    }
    PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
    return -1;
}

int
ua_py_check_out(ua_state *st, const char *fn, PyObject *out, int nd,
                const Py_ssize_t *shape, ua_typenum t, PyObject *x)
{
    if (!PyObject_TypeCheck(out, st->USMArray_Type)) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): output array must be of usm_ndarray type "
                     "(usmarray.USMArray), got %.100s",
                     fn, Py_TYPE(out)->tp_name);
        return -1;
    }
    PyUSMArrayObject *o = ARR(out);
    if (!(o->flags & USM_ARRAY_WRITABLE)) {
        PyErr_Format(PyExc_ValueError,
                     "%s(): provided `out` array is read-only", fn);
        return -1;
    }
    bool same = o->nd == nd;
    for (int j = 0; same && j < nd; j++) {
        same = o->shape[j] == shape[j];
    }
    if (!same) {
        PyObject *want = ua_py_int_tuple(nd, shape);
        PyObject *got = ua_py_int_tuple(o->nd, o->shape);
        if (want != NULL && got != NULL) {
            PyErr_Format(PyExc_ValueError,
                         "The shape of input and output arrays are "
                         "inconsistent. Expected output shape is %R, got "
                         "%R (%s(), out=)",
                         want, got, fn);
        }
        Py_XDECREF(want);
        Py_XDECREF(got);
        return -1;
    }
    if ((ua_typenum)o->typenum != t) {
        PyErr_Format(PyExc_ValueError,
                     "Output array of type %s is needed, got %s (%s(), out=)",
                     ua_dtype_name(t), ua_dtype_name((ua_typenum)o->typenum),
                     fn);
        return -1;
    }
    if (queue_of_array(out) != queue_of_array(x)) {
        PyErr_Format(PyExc_ValueError,
                     "%s(): Input and output allocation queues are not "
                     "compatible: the input is on %R, out on %R; move one "
                     "with to_device() first",
                     fn, base_of(x)->queue, base_of(out)->queue);
        return -1;
    }
    return 0;
}

/* The signs of strides that dpctl's order 'K' gives a new result of r's
 * shape: -1 on an axis that every array operand walks backwards (where it
 * spans more than one element), else 1. */
static void
signs_of_operands(const ua_ew_resolved *r, const ua_ew_operand *ops, int n,
                  Py_ssize_t *signs)
{
    for (int j = 0; j < r->nd; j++) {
        int backwards = 0, forwards = 0;
        for (int k = 0; k < n; k++) {
            int a = j - (r->nd - ops[k].nd);
            if (ops[k].is_scalar || a < 0 || ops[k].shape[a] < 2) {
                continue;
            }
            backwards += ops[k].strides[a] < 0;
            forwards += ops[k].strides[a] >= 0;
        }
        signs[j] = backwards > 0 && forwards == 0 ? -1 : 1;
    }
}

/* order 'A' of a new result: 'F' where every array operand is
 * F-contiguous, else 'C' (as dpctl resolves it; a scalar is a 0-d array,
 * contiguous both ways). */
static char
order_of_any(PyObject *const *objs, const ua_ew_operand *ops, int n)
{
    for (int k = 0; k < n; k++) {
        if (!ops[k].is_scalar &&
            !(ARR(objs[k])->flags & USM_ARRAY_F_CONTIGUOUS)) {
            return 'C';
        }
    }
    return 'F';
}

/* USMARRAY_TRACE_COMPILE=1: the milliseconds of a monotonic clock, for
 * a line on each call over a millisecond; else 0. */
static double
trace_now(void)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("USMARRAY_TRACE_COMPILE");
        on = e != NULL && e[0] != '\0' && strcmp(e, "0") != 0;
    }
    struct timespec ts;
    return on && clock_gettime(CLOCK_MONOTONIC, &ts) == 0
               ? (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6
               : 0;
}

static int
run(ua_state *st, const ua_ew_resolved *r, const ua_ew_operand *ops,
    PyObject *out)
{
    ua_strided o = ua_py_array_strided(out);
    size_t bytes = ua_py_array_size(out) * ua_dtype_itemsize(r->out_type);
    PyThreadState *ts = ua_py_release_if_long(bytes);
    ua_status s = ua_queue_elementwise(queue_of_array(out), r, ops, &o);
    ua_py_reacquire(ts);
    if (s != UA_OK) {
        ua_py_raise_core(st, s);
        return -1;
    }
    return 0;
}

/* NumPy's ValueError for integers to a negative integer power.  A
 * Python int exponent is refused on every device; an array of exponents
 * where the queue's memory is CPU memory (the host backend, SYCL's CPU
 * devices), which the CPU reads as it is.  On a GPU that would mean
 * reading the exponents back on every `**`: the kernel gives the
 * truncated 1 / a**-b there instead (ua_pow, docs/elementwise.rst). */
static bool
has_negative(const ua_ew_operand *o)
{
    ptrdiff_t idx[UA_MAXDIMS] = {0};
    ptrdiff_t size = (ptrdiff_t)ua_dtype_itemsize(o->type);
    for (int j = 0; j < o->nd; j++) {
        if (o->shape[j] == 0) {
            return false;
        }
    }
    for (;;) {
        const char *p = o->data;
        for (int j = 0; j < o->nd; j++) {
            p += idx[j] * o->strides[j] * size;
        }
        int64_t v8 = 0;
        int32_t v4 = 0;
        int16_t v2 = 0;
        int8_t v1 = 0;
        bool negative = size == 8   ? (memcpy(&v8, p, 8), v8 < 0)
                        : size == 4 ? (memcpy(&v4, p, 4), v4 < 0)
                        : size == 2 ? (memcpy(&v2, p, 2), v2 < 0)
                                    : (memcpy(&v1, p, 1), v1 < 0);
        if (negative) {
            return true;
        }
        int j = o->nd - 1;
        while (j >= 0 && ++idx[j] == o->shape[j]) {
            idx[j--] = 0;
        }
        if (j < 0) {
            return false;
        }
    }
}

static int
check_power(ua_state *st, ua_queue *q, const ua_ew_resolved *r,
            const ua_ew_operand *ops)
{
    const ua_ew_operand *e = &ops[1];
    char kind = ua_dtype_kind(r->compute);
    if (r->function != UA_EW_pow || (kind != 'i' && kind != 'u')) {
        return 0;
    }
    bool negative;
    if (e->is_scalar) {
        negative = e->kind == UA_SCALAR_INT && !e->positive &&
                   (e->huge || e->value.i < 0);
    } else {
        unsigned caps = ua_backend_caps(ua_device_backend(ua_queue_device(q)));
        if (ua_dtype_kind(e->type) != 'i' || !(caps & UA_CAP_CPU_MEMORY)) {
            return 0;
        }
        if (!(caps & UA_CAP_WORK_DONE_ON_RETURN)) {
            PyThreadState *ts = PyEval_SaveThread();
            ua_status s = ua_queue_wait(q);
            PyEval_RestoreThread(ts);
            if (s != UA_OK) {
                return ua_py_fail_core(st, s);
            }
        }
        negative = has_negative(e);
    }
    if (negative) {
        PyErr_SetString(PyExc_ValueError,
                        "Integers to negative integer powers are not "
                        "allowed.");
        return -1;
    }
    return 0;
}

/* The call that ua_py_elementwise and ua_py_elementwise_out share:
 * `into` for the in-place operators, `dest` for out=, neither for a new
 * result laid out in `order`: 'C', 'F', 'A', 'K' (dpctl's, which keeps
 * the operands' reversed axes reversed) or 0, the operands' memory order
 * with positive strides (NumPy's, the call without order=). */
static PyObject *
elementwise(ua_state *st, ua_ew_id f, PyObject *const *objs, int n,
            PyObject *into, PyObject *dest, char order, bool operator)
{
    double t0 = trace_now();
    ua_ew_operand ops[UA_EW_MAX_OPERANDS];
    for (int k = 0; k < n; k++) {
        int c = classify(st, objs[k], &ops[k]);
        if (c <= 0) {
            return c < 0 ? NULL : refuse_operand(f, objs[k], operator);
        }
    }
    PyObject *x = common_array(f, objs, ops, n);
    if (x == NULL) {
        return NULL;
    }
    ua_queue *q = queue_of_array(x);
    ua_default_dtypes d =
        ua_default_dtypes_for(ua_device_has_fp64(ua_queue_device(q)));
    ua_ew_resolved r;
    ua_status s = into != NULL
                      ? ua_elementwise_resolve_into(
                            f, n, ops, &d, (ua_typenum)ARR(into)->typenum, &r)
                      : ua_elementwise_resolve(f, n, ops, &d, &r);
    if (s != UA_OK) {
        return ua_py_raise_core(st, s);
    }
    if (check_power(st, q, &r, ops) < 0) {
        return NULL;
    }
    PyObject *out;
    double t1 = trace_now();
    if (into != NULL) {
        out = check_into(f, &r, into) < 0 ? NULL : Py_NewRef(into);
    } else if (dest != NULL) {
        out = ua_py_check_out(st, ua_ew_name(f), dest, r.nd, r.shape,
                              r.out_type, x) < 0
                  ? NULL
                  : Py_NewRef(dest);
    } else {
        Py_ssize_t strides[UA_MAXDIMS];
        bool memory_order = order == 0 || order == 'K';
        if (memory_order) {
            ua_elementwise_result_strides(&r, ops, strides);
        }
        out = ua_py_array_empty(st, r.nd, r.shape, strides, r.out_type,
                                memory_order   ? 'K'
                                : order == 'A' ? order_of_any(objs, ops, n)
                                               : order,
                                coerced_kind(objs, ops, n), base_of(x)->queue);
        if (out != NULL && order == 'K') {
            signs_of_operands(&r, ops, n, strides);
            out = ua_py_array_keep_signs(st, out, strides);
        }
    }
    double t2 = trace_now();
    /* After the result is made: objs and ops no longer match. */
    ua_elementwise_rewrite(&r, ops);
    if (out != NULL && run(st, &r, ops, out) < 0) {
        Py_CLEAR(out);
    }
    double t3 = trace_now();
    if (t3 - t0 > 1.0) {
        fprintf(
            stderr,
            "usmarray: %s(): %.1f ms (types %.1f, result %.1f, run %.1f)\n",
            ua_ew_name(f), t3 - t0, t1 - t0, t2 - t1, t3 - t2);
    }
    return out;
}

PyObject *
ua_py_elementwise(ua_state *st, ua_ew_id f, PyObject *const *objs, int n,
                  PyObject *into, bool operator)
{
    return elementwise(st, f, objs, n, into, NULL, 0, operator);
}

PyObject *
ua_py_elementwise_out(ua_state *st, ua_ew_id f, PyObject *const *objs, int n,
                      PyObject *out, char order)
{
    return elementwise(st, f, objs, n, NULL, out, order, false);
}
