/* Reading the keys that the array interfaces (SUAI, CAI) share: each
 * message names the interface and the key at fault. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/errors.h"
#include "python/protocols/iface.h"

PyObject *
ua_iface_open(PyObject *obj, PyObject *attr, const char *name)
{
    PyObject *dict;
    int has = ua_py_optional_attr(obj, attr, &dict);
    if (has == 0) {
        PyErr_Format(PyExc_TypeError, "%.100s object does not expose %s",
                     Py_TYPE(obj)->tp_name, name);
    }
    if (has <= 0) {
        return NULL;
    }
    if (!PyDict_Check(dict)) {
        PyErr_Format(PyExc_TypeError, "%s must be a dict, not %.100s", name,
                     Py_TYPE(dict)->tp_name);
        Py_DECREF(dict);
        return NULL;
    }
    return dict;
}

/* The values are new references: reading one may call user code
 * (__index__, __getattr__) that removes it from the dictionary. */
PyObject *
ua_iface_required(const ua_iface *f, PyObject *key)
{
    PyObject *v = PyDict_GetItemWithError(f->dict, key);
    if (v == NULL && !PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "%s has no required key '%U'", f->name,
                     key);
    }
    return Py_XNewRef(v);
}

PyObject *
ua_iface_optional(const ua_iface *f, PyObject *key, int *error)
{
    PyObject *v = PyDict_GetItemWithError(f->dict, key);
    *error = v == NULL && PyErr_Occurred();
    return v == Py_None || v == NULL ? NULL : Py_NewRef(v);
}

int
ua_iface_ints(const ua_iface *f, PyObject *key, PyObject *seq, Py_ssize_t *out,
              int *n)
{
    if (!PyTuple_Check(seq) && !PyList_Check(seq)) {
        PyErr_Format(PyExc_TypeError,
                     "%s['%U'] must be a tuple of integers, not %.100s",
                     f->name, key, Py_TYPE(seq)->tp_name);
        return -1;
    }
    const char *k = PyUnicode_AsUTF8(key);
    return k == NULL ? -1 : ua_py_index_sequence(seq, f->name, k, out, n);
}

int
ua_iface_shape(const ua_iface *f, PyObject *key, Py_ssize_t *shape, int *nd)
{
    PyObject *seq = ua_iface_required(f, key);
    int rc = seq == NULL ? -1 : ua_iface_ints(f, key, seq, shape, nd);
    Py_XDECREF(seq);
    if (rc < 0) {
        return -1;
    }
    for (int k = 0; k < *nd; k++) {
        if (shape[k] < 0) {
            PyErr_Format(PyExc_ValueError, "%s['%U'][%d] is negative (%zd)",
                         f->name, key, k, shape[k]);
            return -1;
        }
    }
    return 0;
}

int
ua_iface_strides(const ua_iface *f, PyObject *key, int nd,
                 const Py_ssize_t *shape, Py_ssize_t *strides, int *given)
{
    int error, n;
    PyObject *seq = ua_iface_optional(f, key, &error);
    *given = seq != NULL;
    if (error) {
        return -1;
    }
    if (seq == NULL) {
        ua_layout_default_strides(nd, shape, 'C', strides);
        return 0;
    }
    int rc = ua_iface_ints(f, key, seq, strides, &n);
    Py_DECREF(seq);
    if (rc < 0) {
        return -1;
    }
    if (n != nd) {
        PyErr_Format(PyExc_ValueError,
                     "%s['%U'] has %d entries but 'shape' has %d", f->name,
                     key, n, nd);
        return -1;
    }
    return 0;
}

static int
read_typestr(const ua_iface *f, PyObject *key, PyObject *typestr,
             ua_typenum *out)
{
    if (!PyUnicode_Check(typestr)) {
        PyErr_Format(PyExc_TypeError, "%s['%U'] must be a str, not %.100s",
                     f->name, key, Py_TYPE(typestr)->tp_name);
        return -1;
    }
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(typestr, &len);
    if (s == NULL) {
        return -1;
    }
    if (ua_dtype_from_typestr(s, (size_t)len, out) != UA_OK) {
        ua_py_raise_core_prefixed(f->st, UA_ERR_VALUE, "%s['%U']", f->name,
                                  key);
        return -1;
    }
    return 0;
}

int
ua_iface_typestr(const ua_iface *f, PyObject *key, ua_typenum *out)
{
    PyObject *typestr = ua_iface_required(f, key);
    int rc = typestr == NULL ? -1 : read_typestr(f, key, typestr, out);
    Py_XDECREF(typestr);
    return rc;
}

static int
read_data(const ua_iface *f, PyObject *key, PyObject *data, uintptr_t *ptr,
          int *readonly)
{
    if (!PyTuple_Check(data)) {
        PyErr_Format(PyExc_TypeError,
                     "%s['%U'] must be a 2-tuple (pointer, read_only), not "
                     "%.100s",
                     f->name, key, Py_TYPE(data)->tp_name);
        return -1;
    }
    /* A tuple of another length is the right type with a wrong value
     * (ValueError, as dpctl's import has it). */
    if (PyTuple_GET_SIZE(data) != 2) {
        PyErr_Format(PyExc_ValueError,
                     "%s['%U'] must be a 2-tuple (pointer, read_only), not a "
                     "tuple of %zd",
                     f->name, key, PyTuple_GET_SIZE(data));
        return -1;
    }
    PyObject *p = PyTuple_GET_ITEM(data, 0), *flag = PyTuple_GET_ITEM(data, 1);
    if (PyBool_Check(p) || !PyLong_Check(p)) {
        PyErr_Format(PyExc_TypeError,
                     "%s['%U'][0] (the pointer) must be an int, not %.100s",
                     f->name, key, Py_TYPE(p)->tp_name);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(p);
    if ((v == (unsigned long long)-1 && PyErr_Occurred()) || v > UINTPTR_MAX) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError,
                     "%s['%U'][0] is not a pointer value: %R", f->name, key,
                     p);
        return -1;
    }
    if (!PyBool_Check(flag)) {
        PyErr_Format(PyExc_TypeError,
                     "%s['%U'][1] (the read-only flag) must be a bool, not "
                     "%.100s",
                     f->name, key, Py_TYPE(flag)->tp_name);
        return -1;
    }
    *ptr = (uintptr_t)v;
    *readonly = flag == Py_True;
    return 0;
}

int
ua_iface_data(const ua_iface *f, PyObject *key, uintptr_t *ptr, int *readonly)
{
    PyObject *data = ua_iface_required(f, key);
    int rc = data == NULL ? -1 : read_data(f, key, data, ptr, readonly);
    Py_XDECREF(data);
    return rc;
}

int
ua_iface_version(const ua_iface *f, PyObject *key, Py_ssize_t lo,
                 Py_ssize_t hi)
{
    PyObject *version = ua_iface_required(f, key);
    Py_ssize_t v;
    int rc = version == NULL
                 ? -1
                 : ua_py_index_at(version, f->name, "version", -1, &v);
    Py_XDECREF(version);
    if (rc < 0) {
        return -1;
    }
    if (v < lo || v > hi) {
        if (lo == hi) {
            PyErr_Format(PyExc_ValueError,
                         "%s['version'] is %zd; only version %zd is supported",
                         f->name, v, lo);
        } else {
            PyErr_Format(PyExc_ValueError,
                         "%s['version'] is %zd; versions %zd to %zd are "
                         "supported",
                         f->name, v, lo, hi);
        }
        return -1;
    }
    return 0;
}
