/* Element types: numpy.dtype objects and the core's type numbers. */
#include "python/base/pyheaders.h"
#include "python/base/dtypes.h"
#include "python/base/state.h"

#include <string.h>

PyObject *
ua_py_numpy(ua_state *st)
{
    if (st->numpy == NULL) {
        /* numpy.dtype comes with it: the data type functions test their
         * arguments against it before anything else may have read it. */
        PyObject *np = PyImport_ImportModule("numpy");
        if (np != NULL && st->numpy_dtype == NULL) {
            st->numpy_dtype = PyObject_GetAttrString(np, "dtype");
            if (st->numpy_dtype == NULL || !PyType_Check(st->numpy_dtype)) {
                Py_CLEAR(st->numpy_dtype);
                Py_CLEAR(np);
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ImportError,
                                    "numpy.dtype is not a type");
                }
            }
        }
        st->numpy = np;
    }
    return st->numpy;
}

PyObject *
ua_py_dtype(ua_state *st, ua_typenum t)
{
    int i = ua_dtype_index(t);
    if (st->dtypes[i] == NULL) {
        PyObject *np = ua_py_numpy(st);
        if (np == NULL) {
            return NULL;
        }
        st->dtypes[i] =
            PyObject_CallMethod(np, "dtype", "s", ua_dtype_typestr(t));
    }
    return st->dtypes[i];
}

#define UA_SUPPORTED_DTYPES                                                   \
    "supported are " UA_DTYPE_NAMES "each in native byte order"

/* Names the argument too when it is not the dtype itself (numpy.dtype of
 * a dtype is that same object). */
static int
unsupported(PyObject *obj, PyObject *dt)
{
    if (obj == dt) {
        PyErr_Format(
            PyExc_TypeError,
            "dtype %R is not supported by usmarray; " UA_SUPPORTED_DTYPES, dt);
    } else {
        PyErr_Format(PyExc_TypeError,
                     "dtype %R (from %R) is not supported by "
                     "usmarray; " UA_SUPPORTED_DTYPES,
                     dt, obj);
    }
    return -1;
}

/* Resolves through numpy.dtype(obj): its .str is a typestr the core
 * parses; its .isnative tells byte order from unsupported kinds. */
static int
typenum_via_numpy(ua_state *st, PyObject *obj, ua_typenum *out)
{
    PyObject *np = ua_py_numpy(st);
    PyObject *dt = np ? PyObject_CallMethod(np, "dtype", "(O)", obj) : NULL;
    if (dt == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "dtype %R is not a data type numpy understands", obj);
        }
        return -1;
    }
    int rc = -1;
    PyObject *str = PyObject_GetAttrString(dt, "str");
    PyObject *native = PyObject_GetAttrString(dt, "isnative");
    PyObject *fields = PyObject_GetAttrString(dt, "fields");
    Py_ssize_t len;
    const char *s = str ? PyUnicode_AsUTF8AndSize(str, &len) : NULL;
    if (s == NULL || native == NULL || fields == NULL) {
        /* an exception is set */
    } else if (fields != Py_None) {
        unsupported(obj, dt);
    } else if (ua_dtype_from_typestr(s, (size_t)len, out) == UA_OK) {
        rc = 0;
    } else if (native == Py_False && len >= 2 && strchr("iufc", s[1])) {
        ua_error_clear();
        PyErr_Format(PyExc_ValueError,
                     "dtype %R is not in native byte order; usmarray "
                     "supports native byte order only",
                     dt);
    } else {
        ua_error_clear();
        unsupported(obj, dt);
    }
    Py_XDECREF(str);
    Py_XDECREF(native);
    Py_XDECREF(fields);
    Py_DECREF(dt);
    return rc;
}

static bool
recent_typenum(const ua_state *st, PyObject *obj, ua_typenum *out)
{
    for (int i = 0; i < UA_DTYPE_RECENT; i++) {
        if (st->dtype_recent[i] == obj) {
            *out = st->dtype_recent_type[i];
            return true;
        }
    }
    return false;
}

/* Only immutable keys: a string or a static type stands for one dtype for
 * good.  A class of the user's does not: its dtype attribute may change. */
static void
remember_recent(ua_state *st, PyObject *obj, ua_typenum t)
{
    if (PyUnicode_CheckExact(obj) ||
        (PyType_Check(obj) &&
         !(((PyTypeObject *)obj)->tp_flags & Py_TPFLAGS_HEAPTYPE))) {
        unsigned i = st->dtype_recent_next++ % UA_DTYPE_RECENT;
        Py_XSETREF(st->dtype_recent[i], Py_NewRef(obj));
        st->dtype_recent_type[i] = t;
    }
}

/* The cache holds only dtype-likes whose meaning cannot change and whose
 * hash and equality run no user code: exact str, numpy.dtype instances and
 * static types (numpy's scalar types, float, int...).  Anything else, an
 * object with a dtype attribute say, is resolved on every call: its
 * attribute may change, objects of a class that compare equal would share
 * an entry, and the cache would keep them alive. */
static int
cacheable(ua_state *st, PyObject *obj)
{
    if (PyUnicode_CheckExact(obj)) {
        return 1;
    }
    if (PyType_Check(obj)) {
        return !(((PyTypeObject *)obj)->tp_flags & Py_TPFLAGS_HEAPTYPE);
    }
    if (st->numpy_dtype == NULL) {
        PyObject *np = ua_py_numpy(st);
        st->numpy_dtype = np ? PyObject_GetAttrString(np, "dtype") : NULL;
        if (st->numpy_dtype == NULL || !PyType_Check(st->numpy_dtype)) {
            PyErr_Clear();
            Py_CLEAR(st->numpy_dtype);
            return 0;
        }
    }
    return PyObject_TypeCheck(obj, (PyTypeObject *)st->numpy_dtype);
}

int
ua_py_typenum(ua_state *st, PyObject *obj, ua_typenum *out)
{
    if (recent_typenum(st, obj, out)) {
        return 0;
    }
    if (st->dtype_lookup == NULL &&
        (st->dtype_lookup = PyDict_New()) == NULL) {
        return -1;
    }
    int cache = cacheable(st, obj);
    if (cache) {
        PyObject *hit = PyDict_GetItemWithError(st->dtype_lookup, obj);
        if (hit != NULL) {
            *out = (ua_typenum)PyLong_AsLong(hit);
            remember_recent(st, obj, *out);
            return 0;
        }
        if (PyErr_Occurred()) {
            PyErr_Clear();
        }
    }
    if (obj == Py_None) {
        PyErr_SetString(PyExc_TypeError, "dtype None is not a data type");
        return -1;
    }
    if (typenum_via_numpy(st, obj, out) < 0) {
        return -1;
    }
    if (cache && PyDict_GET_SIZE(st->dtype_lookup) < 1024) {
        PyObject *num = PyLong_FromLong((long)*out);
        if (num == NULL || PyDict_SetItem(st->dtype_lookup, obj, num) < 0) {
            PyErr_Clear();
        }
        Py_XDECREF(num);
    }
    return 0;
}

/* A Python int in obj (or its nested lists and tuples) that neither int64
 * nor uint64 holds, borrowed; NULL where there is none. */
static PyObject *
huge_int(PyObject *obj, int depth)
{
    if (PyLong_Check(obj) && !PyBool_Check(obj)) {
        int overflow = 0;
        (void)PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (overflow > 0) {
            (void)PyLong_AsUnsignedLongLong(obj);
            overflow = PyErr_Occurred() != NULL;
        }
        PyErr_Clear();
        return overflow != 0 ? obj : NULL;
    }
    if (depth < UA_MAXDIMS && (PyList_Check(obj) || PyTuple_Check(obj))) {
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(obj); i++) {
            PyObject *found =
                huge_int(PySequence_Fast_GET_ITEM(obj, i), depth + 1);
            if (found != NULL) {
                return found;
            }
        }
    }
    return NULL;
}

/* NumPy makes an object array of a Python int that no integer dtype holds
 * (2**64); NumPy's rule for such an int in a dtype that cannot hold it is
 * OverflowError, which is what no default integer dtype holding it means
 * here too. */
int
ua_py_refuse_huge_int(PyObject *dt, PyObject *source)
{
    PyObject *kind = PyObject_GetAttrString(dt, "kind");
    int object = kind != NULL && PyUnicode_Check(kind) &&
                 PyUnicode_CompareWithASCIIString(kind, "O") == 0;
    Py_XDECREF(kind);
    PyErr_Clear();
    PyObject *found = object ? huge_int(source, 0) : NULL;
    if (found == NULL) {
        return 0;
    }
    PyErr_Format(PyExc_OverflowError,
                 "Python integer %R out of bounds for int64 and uint64: no "
                 "integer dtype holds it (pass dtype=float64 for its "
                 "nearest float)",
                 found);
    return -1;
}

/* Host data in the other byte order (a big-endian NumPy array) is copied
 * to native order, as NumPy's own conversions do; copy=False refuses,
 * naming the byte order.  Takes the reference to host. */
PyObject *
ua_py_native_order(PyObject *host, int copy)
{
    PyObject *dt = PyObject_GetAttrString(host, "dtype");
    PyObject *isnative = dt ? PyObject_GetAttrString(dt, "isnative") : NULL;
    PyObject *order =
        isnative ? PyObject_GetAttrString(dt, "byteorder") : NULL;
    PyObject *kind = order ? PyObject_GetAttrString(dt, "kind") : NULL;
    PyObject *result = NULL;
    if (kind == NULL) {
        /* an exception is set */
    } else if (isnative == Py_True ||
               PyUnicode_CompareWithASCIIString(order, "|") == 0 ||
               (PyUnicode_CompareWithASCIIString(kind, "i") != 0 &&
                PyUnicode_CompareWithASCIIString(kind, "u") != 0 &&
                PyUnicode_CompareWithASCIIString(kind, "f") != 0 &&
                PyUnicode_CompareWithASCIIString(kind, "c") != 0)) {
        /* native, or no dtype of usmarray's (refused as it is) */
        result = Py_NewRef(host);
    } else if (copy == 0) {
        PyErr_Format(
            PyExc_ValueError,
            "asarray(copy=False): the data's dtype %R is %s, and usmarray "
            "holds native (%s) byte order only: converting it is a copy",
            dt,
            PyUnicode_CompareWithASCIIString(order, ">") == 0
                ? "big-endian"
                : "little-endian",
            PY_LITTLE_ENDIAN ? "little-endian" : "big-endian");
    } else {
        PyObject *swapped = PyObject_CallMethod(dt, "newbyteorder", "s", "=");
        result = swapped ? PyObject_CallMethod(host, "astype", "(O)", swapped)
                         : NULL;
        Py_XDECREF(swapped);
    }
    Py_XDECREF(kind);
    Py_XDECREF(order);
    Py_XDECREF(isnative);
    Py_XDECREF(dt);
    Py_DECREF(host);
    return result;
}
