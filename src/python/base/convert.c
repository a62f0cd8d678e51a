/* Argument conversions shared by the Python types. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/dtypes.h"
#include "python/base/state.h"

#include <math.h>

int
ua_py_index(PyObject *obj, const char *what, Py_ssize_t *out)
{
    if (PyLong_CheckExact(obj)) {
        *out = PyLong_AsSsize_t(obj);
        if (*out != -1 || !PyErr_Occurred()) {
            return 0;
        }
        PyErr_Clear(); /* the general path below words the overflow */
    }
    if (PyBool_Check(obj) || !PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an integer, not %.100s",
                     what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyObject *n = PyNumber_Index(obj);
    if (n == NULL) {
        /* An array of several elements has __index__ but refuses it: name
         * the argument rather than pass the producer's wording on. */
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s must be an integer, not %.100s",
                         what, Py_TYPE(obj)->tp_name);
        }
        return -1;
    }
    *out = PyLong_AsSsize_t(n);
    Py_DECREF(n);
    if (*out == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Format(PyExc_ValueError, "%s is too large", what);
        }
        return -1;
    }
    return 0;
}

Py_ssize_t
ua_py_item_index(PyObject *obj)
{
    Py_ssize_t i = PyNumber_AsSsize_t(obj, PyExc_IndexError);
    if (i != -1 || !PyErr_Occurred() ||
        !PyErr_ExceptionMatches(PyExc_IndexError)) {
        return i;
    }
    /* Past Py_ssize_t: out of bounds of every axis (a uint64 of 2**63
     * and more among them, which must not wrap to a negative index). */
    PyErr_Clear();
    PyObject *n = PyNumber_Index(obj);
    if (n != NULL) {
        PyErr_Format(PyExc_IndexError,
                     "index %S is out of bounds: no axis is that long "
                     "(indices are below 2**63 in absolute value)",
                     n);
        Py_DECREF(n);
    }
    return -1;
}

int
ua_py_has_attr(PyObject *obj, PyObject *name)
{
    PyObject *value;
    int has = ua_py_optional_attr(obj, name, &value);
    Py_XDECREF(value);
    return has;
}

/* An absent attribute is the common answer when probing for protocols:
 * these lookups report it without creating an AttributeError. */
int
ua_py_optional_attr(PyObject *obj, PyObject *name, PyObject **out)
{
#if PY_VERSION_HEX >= 0x030D0000
    return PyObject_GetOptionalAttr(obj, name, out);
#else
    return _PyObject_LookupAttr(obj, name, out);
#endif
}

/* what, or what['key'] when key is not NULL. */
static int
argument_name(char *name, size_t size, const char *what, const char *key)
{
    return key ? PyOS_snprintf(name, size, "%s['%s']", what, key)
               : PyOS_snprintf(name, size, "%s", what);
}

/* The name is formatted only for an error message: formatting it for
 * every item cost more than the rest of a constructor. */
int
ua_py_index_at(PyObject *item, const char *what, const char *key, Py_ssize_t k,
               Py_ssize_t *out)
{
    char name[160];
    if (PyLong_CheckExact(item)) {
        *out = PyLong_AsSsize_t(item);
        if (*out != -1 || !PyErr_Occurred()) {
            return 0;
        }
        PyErr_Clear();
    }
    int used = argument_name(name, sizeof(name), what, key);
    if (k >= 0 && used >= 0 && (size_t)used < sizeof(name)) {
        PyOS_snprintf(name + used, sizeof(name) - (size_t)used, "[%zd]", k);
    }
    return ua_py_index(item, name, out);
}

/* User code runs in the items' __index__ and may change the sequence being
 * read, even free its items: a tuple snapshot owns a reference to each item
 * and keeps its length, so the items read are the ones it held. */
int
ua_py_index_sequence(PyObject *seq, const char *what, const char *key,
                     Py_ssize_t *out, int *n)
{
    PyObject *items = PySequence_Tuple(seq);
    if (items == NULL) {
        return -1;
    }
    Py_ssize_t len = PyTuple_GET_SIZE(items);
    int rc = 0;
    if (len > UA_MAXDIMS) {
        char name[160];
        argument_name(name, sizeof(name), what, key);
        PyErr_Format(PyExc_ValueError,
                     "%s has %zd entries; at most %d dimensions are "
                     "supported",
                     name, len, UA_MAXDIMS);
        rc = -1;
    }
    for (Py_ssize_t k = 0; rc == 0 && k < len; k++) {
        rc = ua_py_index_at(PyTuple_GET_ITEM(items, k), what, key, k, &out[k]);
    }
    Py_DECREF(items);
    if (rc == 0) {
        *n = (int)len;
    }
    return rc;
}

/* copy=: None (-1) or a bool.  Anything else is refused, because a truthy
 * string such as "never" would otherwise read as True. */
int
ua_py_parse_copy(PyObject *obj, int *out)
{
    *out = -1;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    if (!PyBool_Check(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "copy must be None or a bool, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    *out = obj == Py_True;
    return 0;
}

/* ------------------------------------------------------- argument lists */

/* Whether an ASCII string holds exactly `name`: its bytes compared in
 * place, where PyUnicode_CompareWithASCIIString works out an order.  The
 * first letter tells most names apart. */
static int
ascii_equals(PyObject *key, const char *name)
{
    const char *text = (const char *)PyUnicode_DATA(key);
    size_t n = (size_t)PyUnicode_GET_LENGTH(key);
    return text[0] == name[0] && strlen(name) == n &&
           memcmp(text, name, n) == 0;
}

static int
keyword_position(const ua_py_argspec *spec, PyObject *key)
{
    if (!PyUnicode_Check(key)) {
        PyErr_Format(PyExc_TypeError, "%s() keywords must be strings",
                     spec->fname);
        return -1;
    }
    /* Every name is ASCII, so no other key can match one. */
    for (int i = 0; PyUnicode_IS_ASCII(key) && spec->names[i] != NULL; i++) {
        if (ascii_equals(key, spec->names[i])) {
            return i;
        }
    }
    /* sycl_queue is dpctl's and dpnp's name of queue, wherever one is
     * taken (docs/architecture.rst, "dpctl's objects"). */
    if (PyUnicode_IS_ASCII(key) && ascii_equals(key, "sycl_queue")) {
        for (int i = 0; spec->names[i] != NULL; i++) {
            if (strcmp(spec->names[i], "queue") == 0) {
                return i;
            }
        }
    }
    PyErr_Format(PyExc_TypeError,
                 "%s() got an unexpected keyword argument '%U'", spec->fname,
                 key);
    return -1;
}

static int
take_positional(const ua_py_argspec *spec, PyObject *const *args,
                Py_ssize_t nargs, PyObject **out)
{
    if (nargs > spec->max_positional) {
        PyErr_Format(PyExc_TypeError,
                     "%s() takes at most %d positional argument%s (%zd given)",
                     spec->fname, spec->max_positional,
                     spec->max_positional == 1 ? "" : "s", nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        out[i] = args[i];
    }
    return 0;
}

/* *seen has a bit per keyword position taken, so that an argument given
 * under both of its names (queue and sycl_queue) is refused. */
static int
take_keyword(const ua_py_argspec *spec, Py_ssize_t nargs, PyObject *key,
             PyObject *value, PyObject **out, uint64_t *seen)
{
    int i = keyword_position(spec, key);
    if (i < 0) {
        return -1;
    }
    uint64_t bit = i < 64 ? (uint64_t)1 << i : 0;
    if (i < nargs || (*seen & bit)) {
        PyErr_Format(PyExc_TypeError,
                     "%s() got multiple values for argument '%s'", spec->fname,
                     spec->names[i]);
        return -1;
    }
    *seen |= bit;
    out[i] = value;
    return 0;
}

static int
check_required(const ua_py_argspec *spec, PyObject **out)
{
    for (int i = 0; i < spec->required; i++) {
        if (out[i] == NULL) {
            PyErr_Format(PyExc_TypeError,
                         "%s() missing required argument '%s' (pos %d)",
                         spec->fname, spec->names[i], i + 1);
            return -1;
        }
    }
    return 0;
}

int
ua_py_parse_fast(const ua_py_argspec *spec, PyObject *const *args,
                 Py_ssize_t nargs, PyObject *kwnames, PyObject **out)
{
    nargs = PyVectorcall_NARGS(nargs);
    if (take_positional(spec, args, nargs, out) < 0) {
        return -1;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    uint64_t seen = 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        if (take_keyword(spec, nargs, PyTuple_GET_ITEM(kwnames, k),
                         args[nargs + k], out, &seen) < 0) {
            return -1;
        }
    }
    return check_required(spec, out);
}

int
ua_py_parse_tuple(const ua_py_argspec *spec, PyObject *args, PyObject *kwargs,
                  PyObject **out)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (take_positional(spec, &PyTuple_GET_ITEM(args, 0), nargs, out) < 0) {
        return -1;
    }
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    uint64_t seen = 0;
    while (kwargs != NULL && PyDict_Next(kwargs, &pos, &key, &value)) {
        if (take_keyword(spec, nargs, key, value, out, &seen) < 0) {
            return -1;
        }
    }
    return check_required(spec, out);
}

/* ------------------------------------------------------ Python scalars */

int
ua_py_is_python_scalar(PyObject *value)
{
    /* Subclasses of float and complex include NumPy's scalars, which cast
     * as arrays do; int subclasses (IntEnum) are Python integers. */
    return PyLong_Check(value) || PyFloat_CheckExact(value) ||
           PyComplex_CheckExact(value);
}

static int
out_of_bounds(ua_state *st, const char *what, PyObject *value, ua_typenum t)
{
    PyObject *dt = ua_py_dtype(st, t);
    if (dt != NULL) {
        PyErr_Format(PyExc_OverflowError, "Python %s %R out of bounds for %S",
                     what, value, dt);
    }
    return -1;
}

/* The range of an integer type: [-2^(bits-1), 2^(bits-1)) or [0, 2^bits). */
static int
value_bits(ua_typenum t)
{
    int bits = 8 * (int)ua_dtype_itemsize(t);
    return ua_dtype_kind(t) == 'i' ? bits - 1 : bits;
}

static int
integer_into_integer(ua_state *st, PyObject *value, ua_typenum t,
                     ua_py_scalar *out)
{
    int overflow, bits = value_bits(t);
    int is_signed = ua_dtype_kind(t) == 'i';
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow == 0) {
        int fits = v >= 0 ? (bits == 64 || (unsigned long long)v >> bits == 0)
                          : is_signed && (bits == 63 || -(v + 1) >> bits == 0);
        out->v.i = v;
        out->type = UA_INT64;
        return fits ? 0 : out_of_bounds(st, "integer", value, t);
    }
    if (overflow > 0 && !is_signed && bits == 64) {
        out->v.u = PyLong_AsUnsignedLongLong(value);
        out->type = UA_UINT64;
        if (out->v.u != (unsigned long long)-1 || !PyErr_Occurred()) {
            return 0;
        }
        PyErr_Clear();
    }
    return out_of_bounds(st, "integer", value, t);
}

/* A float stored into an integer type truncates, as int() does; values
 * that int() refuses or that then do not fit raise. */
static int
float_into_integer(ua_state *st, PyObject *value, double x, ua_typenum t,
                   ua_py_scalar *out)
{
    int bits = value_bits(t);
    if (isnan(x)) {
        PyErr_SetString(PyExc_ValueError,
                        "cannot convert float NaN to integer");
        return -1;
    }
    if (isinf(x)) {
        PyErr_SetString(PyExc_OverflowError,
                        "cannot convert float infinity to integer");
        return -1;
    }
    double whole = trunc(x), limit = ldexp(1.0, bits);
    if (ua_dtype_kind(t) == 'u') {
        if (!(whole >= 0.0 && whole < limit)) {
            return out_of_bounds(st, "float", value, t);
        }
        out->v.u = (unsigned long long)whole;
        out->type = UA_UINT64;
        return 0;
    }
    if (!(whole >= -limit && whole < limit)) {
        return out_of_bounds(st, "float", value, t);
    }
    out->v.i = (long long)whole;
    out->type = UA_INT64;
    return 0;
}

int
ua_py_scalar_for(ua_state *st, PyObject *value, ua_typenum t,
                 ua_py_scalar *out)
{
    char kind = ua_dtype_kind(t);
    if (PyBool_Check(value) || kind == 'b') {
        int truth = PyObject_IsTrue(value);
        out->v.b = (uint8_t)(truth > 0);
        out->type = UA_BOOL;
        return truth < 0 ? -1 : 0;
    }
    if (PyComplex_Check(value)) {
        if (kind != 'c') {
            PyObject *dt = ua_py_dtype(st, t);
            if (dt != NULL) {
                PyErr_Format(PyExc_TypeError,
                             "cannot store the complex value %R in an array "
                             "of %S: it would lose its imaginary part (store "
                             "its .real to mean that)",
                             value, dt);
            }
            return -1;
        }
        Py_complex z = PyComplex_AsCComplex(value);
        out->v.c[0] = z.real;
        out->v.c[1] = z.imag;
        out->type = UA_COMPLEX128;
        return 0;
    }
    if (PyFloat_Check(value)) {
        double x = PyFloat_AS_DOUBLE(value);
        if (kind == 'i' || kind == 'u') {
            return float_into_integer(st, value, x, t, out);
        }
        out->v.f = x;
        out->type = UA_FLOAT64;
        return 0;
    }
    if (kind == 'f' || kind == 'c') {
        out->v.f = PyLong_AsDouble(value);
        out->type = UA_FLOAT64;
        return out->v.f == -1.0 && PyErr_Occurred() ? -1 : 0;
    }
    return integer_into_integer(st, value, t, out);
}

/* ----------------------------------------------------------- __array__ */

PyObject *
ua_py_numpy_of_buffer(ua_state *st, PyObject *exporter, PyObject *dtype,
                      PyObject *copy)
{
    PyObject *np = ua_py_numpy(st);
    PyObject *mv = np ? PyMemoryView_FromObject(exporter) : NULL;
    PyObject *arr = mv ? PyObject_CallMethod(np, "asarray", "(O)", mv) : NULL;
    Py_XDECREF(mv);
    if (arr == NULL) {
        return NULL;
    }
    if (dtype != Py_None || (copy != Py_None && PyObject_IsTrue(copy) == 1)) {
        PyObject *fn = PyObject_GetAttrString(np, "array");
        PyObject *a = PyTuple_Pack(1, arr);
        PyObject *kw =
            Py_BuildValue("{s:O,s:O}", "dtype", dtype, "copy", copy);
        PyObject *out = fn && a && kw ? PyObject_Call(fn, a, kw) : NULL;
        Py_XDECREF(fn);
        Py_XDECREF(a);
        Py_XDECREF(kw);
        Py_DECREF(arr);
        return out;
    }
    return arr;
}

/* ------------------------------------------- shapes, orders and axes */
/* A tuple of plain ints, the usual shape or strides, without the
 * sequence protocol; 0 when obj is anything else or an item does not fit,
 * for the general path to handle (and to name the problem). */
static int
parse_int_tuple(PyObject *obj, Py_ssize_t *shape, int *nd)
{
    if (!PyTuple_CheckExact(obj) || PyTuple_GET_SIZE(obj) > UA_MAXDIMS) {
        return 0;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(obj);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PyTuple_GET_ITEM(obj, k);
        if (!PyLong_CheckExact(item)) {
            return 0;
        }
        shape[k] = PyLong_AsSsize_t(item);
        if (shape[k] == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
    }
    *nd = (int)n;
    return 1;
}

int
ua_py_parse_ints(PyObject *obj, const char *what, Py_ssize_t *shape, int *nd)
{
    if (parse_int_tuple(obj, shape, nd)) {
        return 0;
    }
    if (PyIndex_Check(obj) && !PyBool_Check(obj)) {
        *nd = 1;
        if (ua_py_index(obj, what, &shape[0]) < 0) {
            return -1;
        }
    } else if (PyUnicode_Check(obj) || PyBytes_Check(obj) ||
               !PySequence_Check(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "%s must be an integer or a sequence of integers, not "
                     "%.100s",
                     what, Py_TYPE(obj)->tp_name);
        return -1;
    } else if (ua_py_index_sequence(obj, what, NULL, shape, nd) < 0) {
        return -1;
    }
    return 0;
}

int
ua_py_parse_shape(PyObject *obj, const char *what, Py_ssize_t *shape, int *nd)
{
    if (ua_py_parse_ints(obj, what, shape, nd) < 0) {
        return -1;
    }
    for (int k = 0; k < *nd; k++) {
        if (shape[k] < 0) {
            PyErr_Format(PyExc_ValueError, "%s[%d] is negative (%zd)", what, k,
                         shape[k]);
            return -1;
        }
    }
    return 0;
}

int
ua_py_parse_order(PyObject *obj, const char *allowed, char *out)
{
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "order must be a str, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    const char *s = PyUnicode_AsUTF8(obj);
    if (s == NULL) {
        return -1;
    }
    if (strlen(s) != 1 || strchr(allowed, s[0]) == NULL) {
        PyErr_Format(PyExc_ValueError, "order must be one of '%s', not %R",
                     allowed, obj);
        return -1;
    }
    *out = s[0];
    return 0;
}

int
ua_py_parse_usm_type(PyObject *obj, ua_usm_kind *out)
{
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "usm_type must be a str, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    const char *s = PyUnicode_AsUTF8(obj);
    if (s == NULL) {
        return -1;
    }
    if (ua_usm_kind_parse(s, out) != UA_OK) {
        PyErr_Format(PyExc_ValueError,
                     "usm_type must be 'device', 'shared' or 'host', not %R",
                     obj);
        ua_error_clear();
        return -1;
    }
    return 0;
}

int
ua_py_parse_axes(PyObject *obj, int nd, int *perm)
{
    Py_ssize_t axes[UA_MAXDIMS];
    int n, seen[UA_MAXDIMS] = {0};
    if (ua_py_parse_ints(obj, "axes", axes, &n) < 0) {
        return -1;
    }
    if (n != nd) {
        PyErr_Format(PyExc_ValueError,
                     "axes has %d entries but the array has %d dimensions", n,
                     nd);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        Py_ssize_t a = axes[k] < 0 ? axes[k] + nd : axes[k];
        if (a < 0 || a >= nd) {
            PyErr_Format(PyExc_ValueError,
                         "axis %zd is out of bounds for an array of %d "
                         "dimensions",
                         axes[k], nd);
            return -1;
        }
        if (seen[a]++) {
            PyErr_Format(PyExc_ValueError, "axes repeat axis %zd", a);
            return -1;
        }
        perm[k] = (int)a;
    }
    return 0;
}

PyObject *
ua_py_int_tuple(int n, const Py_ssize_t *v)
{
    PyObject *t = PyTuple_New(n);
    for (int k = 0; t != NULL && k < n; k++) {
        PyObject *x = PyLong_FromSsize_t(v[k]);
        if (x == NULL) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, k, x);
    }
    return t;
}
