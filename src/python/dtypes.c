/* Element types: numpy.dtype objects and the core's type numbers. */
#include "binding.h"

PyObject *
ua_py_numpy(ua_state *st)
{
    if (st->numpy == NULL) {
        st->numpy = PyImport_ImportModule("numpy");
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
        st->dtypes[i] = PyObject_CallMethod(np, "dtype", "s",
                                            ua_dtype_typestr(t));
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
        PyErr_Format(PyExc_TypeError,
                     "dtype %R is not supported by usmarray; "
                     UA_SUPPORTED_DTYPES, dt);
    }
    else {
        PyErr_Format(PyExc_TypeError,
                     "dtype %R (from %R) is not supported by usmarray; "
                     UA_SUPPORTED_DTYPES, dt, obj);
    }
    return -1;
}

/* Resolves through numpy.dtype(obj): its .str is a typestr the core
 * parses; its .isnative tells byte order from unsupported kinds. */
static int
typenum_via_numpy(ua_state *st, PyObject *obj, ua_typenum *out)
{
    PyObject *np = ua_py_numpy(st);
    PyObject *dt = np ? PyObject_CallMethod(np, "dtype", "O", obj) : NULL;
    if (dt == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "dtype %R is not a data type numpy understands",
                         obj);
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
    }
    else if (fields != Py_None) {
        unsupported(obj, dt);
    }
    else if (ua_dtype_from_typestr(s, (size_t)len, out) == UA_OK) {
        rc = 0;
    }
    else if (native == Py_False) {
        ua_error_clear();
        PyErr_Format(PyExc_ValueError,
                     "dtype %R is not in native byte order; usmarray "
                     "supports native byte order only",
                     dt);
    }
    else {
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

/* Only immutable keys: a string or a type stands for one dtype for good. */
static void
remember_recent(ua_state *st, PyObject *obj, ua_typenum t)
{
    if (PyUnicode_CheckExact(obj) || PyType_CheckExact(obj)) {
        unsigned i = st->dtype_recent_next++ % UA_DTYPE_RECENT;
        Py_XSETREF(st->dtype_recent[i], Py_NewRef(obj));
        st->dtype_recent_type[i] = t;
    }
}

int
ua_py_typenum(ua_state *st, PyObject *obj, ua_typenum *out)
{
    if (recent_typenum(st, obj, out)) {
        return 0;
    }
    if (st->dtype_lookup == NULL && (st->dtype_lookup = PyDict_New()) == NULL) {
        return -1;
    }
    /* Hashable dtype-likes seen before resolve with one dict lookup. */
    Py_hash_t h = PyObject_Hash(obj);
    if (h == -1) {
        PyErr_Clear();
    }
    else {
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
    if (h != -1 && PyDict_GET_SIZE(st->dtype_lookup) < 1024) {
        PyObject *num = PyLong_FromLong((long)*out);
        if (num == NULL || PyDict_SetItem(st->dtype_lookup, obj, num) < 0) {
            PyErr_Clear();
        }
        Py_XDECREF(num);
    }
    return 0;
}
