/* Import of __sycl_usm_array_interface__: the binding checks the Python
 * types of every key, the core validates the values and locates the
 * described region inside the allocation that holds data[0]. */
#include "binding.h"

#define SUAI "__sycl_usm_array_interface__"

int
ua_suai_has(ua_state *st, PyObject *obj)
{
    PyObject *value;
    int has = ua_py_optional_attr(obj, st->s_suai, &value);
    Py_XDECREF(value);
    return has;
}

static PyObject *
required(PyObject *dict, PyObject *key)
{
    PyObject *v = PyDict_GetItemWithError(dict, key);
    if (v == NULL && !PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, SUAI " has no required key '%U'", key);
    }
    return v;
}

static PyObject *
optional(PyObject *dict, PyObject *key, int *error)
{
    PyObject *v = PyDict_GetItemWithError(dict, key);
    *error = v == NULL && PyErr_Occurred();
    return v;
}

/* A tuple or list of integers, at most UA_MAXDIMS of them. */
static int
read_ints(PyObject *seq, const char *key, const char *what, Py_ssize_t *out,
          int *n)
{
    if (!PyTuple_Check(seq) && !PyList_Check(seq)) {
        PyErr_Format(PyExc_TypeError,
                     SUAI "['%s'] must be a tuple of integers, not %.100s",
                     key, Py_TYPE(seq)->tp_name);
        return -1;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > UA_MAXDIMS) {
        PyErr_Format(PyExc_ValueError,
                     SUAI "['%s'] has %zd entries; at most %d dimensions are "
                     "supported",
                     key, len, UA_MAXDIMS);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        if (ua_py_index_at(PySequence_Fast_GET_ITEM(seq, i), what, i,
                           &out[i]) < 0) {
            return -1;
        }
    }
    *n = (int)len;
    return 0;
}

static int
read_shape(PyObject *dict, ua_state *st, ua_suai *out)
{
    PyObject *shape = required(dict, st->s_shape);
    if (shape == NULL ||
        read_ints(shape, "shape", SUAI "['shape']", out->shape, &out->nd) < 0) {
        return -1;
    }
    for (int k = 0; k < out->nd; k++) {
        if (out->shape[k] < 0) {
            PyErr_Format(PyExc_ValueError,
                         SUAI "['shape'][%d] is negative (%zd)", k,
                         out->shape[k]);
            return -1;
        }
    }
    return 0;
}

static int
read_typestr(PyObject *dict, ua_state *st, ua_suai *out)
{
    PyObject *typestr = required(dict, st->s_typestr);
    if (typestr == NULL) {
        return -1;
    }
    if (!PyUnicode_Check(typestr)) {
        PyErr_Format(PyExc_TypeError,
                     SUAI "['typestr'] must be a str, not %.100s",
                     Py_TYPE(typestr)->tp_name);
        return -1;
    }
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(typestr, &len);
    if (s == NULL) {
        return -1;
    }
    ua_status code = ua_dtype_from_typestr(s, (size_t)len, &out->typenum);
    if (code != UA_OK) {
        PyErr_Format(PyExc_ValueError, SUAI "['typestr']: %s",
                     ua_error_message());
        ua_error_clear();
        return -1;
    }
    return 0;
}

static int
read_flag(PyObject *flag, int *out)
{
    if (PyBool_Check(flag)) {
        *out = flag == Py_True;
        return 0;
    }
    PyErr_Format(PyExc_TypeError,
                 SUAI "['data'][1] (the read-only flag) must be a bool, not "
                 "%.100s",
                 Py_TYPE(flag)->tp_name);
    return -1;
}

static int
read_data(PyObject *dict, ua_state *st, ua_suai *out)
{
    PyObject *data = required(dict, st->s_data);
    if (data == NULL) {
        return -1;
    }
    if (!PyTuple_Check(data) || PyTuple_GET_SIZE(data) != 2) {
        PyErr_Format(PyExc_TypeError,
                     SUAI "['data'] must be a 2-tuple (pointer, read_only), "
                     "not %.100s",
                     Py_TYPE(data)->tp_name);
        return -1;
    }
    PyObject *ptr = PyTuple_GET_ITEM(data, 0);
    if (PyBool_Check(ptr) || !PyLong_Check(ptr)) {
        PyErr_Format(PyExc_TypeError,
                     SUAI "['data'][0] (the pointer) must be an int, not "
                     "%.100s",
                     Py_TYPE(ptr)->tp_name);
        return -1;
    }
    unsigned long long p = PyLong_AsUnsignedLongLong(ptr);
    if (p == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError,
                     SUAI "['data'][0] is not a pointer value: %R", ptr);
        return -1;
    }
    if (p > UINTPTR_MAX) {
        PyErr_Format(PyExc_ValueError,
                     SUAI "['data'][0] is not a pointer value: %R", ptr);
        return -1;
    }
    out->ptr = (uintptr_t)p;
    return read_flag(PyTuple_GET_ITEM(data, 1), &out->readonly);
}

static int
read_strides(PyObject *dict, ua_state *st, ua_suai *out)
{
    int error, n;
    PyObject *strides = optional(dict, st->s_strides, &error);
    if (error) {
        return -1;
    }
    out->has_strides = strides != NULL && strides != Py_None;
    if (!out->has_strides) {
        ua_layout_default_strides(out->nd, out->shape, 'C', out->strides);
        return 0;
    }
    if (read_ints(strides, "strides", SUAI "['strides']", out->strides, &n) < 0) {
        return -1;
    }
    if (n != out->nd) {
        PyErr_Format(PyExc_ValueError,
                     SUAI "['strides'] has %d entries but 'shape' has %d", n,
                     out->nd);
        return -1;
    }
    return 0;
}

static int
read_offset(PyObject *dict, ua_state *st, ua_suai *out)
{
    int error;
    PyObject *offset = optional(dict, st->s_offset, &error);
    out->offset = 0;
    if (error) {
        return -1;
    }
    return offset == NULL || offset == Py_None
               ? 0
               : ua_py_index(offset, SUAI "['offset']", &out->offset);
}

static int
read_version(PyObject *dict, ua_state *st)
{
    PyObject *version = required(dict, st->s_version);
    Py_ssize_t v;
    if (version == NULL ||
        ua_py_index(version, SUAI "['version']", &v) < 0) {
        return -1;
    }
    if (v != 1) {
        PyErr_Format(PyExc_ValueError,
                     SUAI "['version'] is %zd; only version 1 is supported",
                     v);
        return -1;
    }
    return 0;
}

static int
read_syclobj(PyObject *dict, ua_state *st, ua_suai *out)
{
    PyObject *syclobj = required(dict, st->s_syclobj);
    if (syclobj == NULL) {
        return -1;
    }
    out->queue = ua_py_as_queue(st, syclobj, SUAI "['syclobj']");
    return out->queue == NULL ? -1 : 0;
}

/* The allocation must belong to the context syclobj names. */
static int
check_context(ua_suai *s)
{
    ua_py_queue *q = (ua_py_queue *)s->queue;
    ua_context *named = ua_queue_context(q->queue);
    if (s->alloc.context == named) {
        return 0;
    }
    PyErr_Format(PyExc_ValueError,
                 SUAI "['syclobj'] names the context of %s, but the data "
                 "pointer belongs to an allocation of %s",
                 ua_device_filter_string(ua_context_device(named)),
                 ua_device_filter_string(s->alloc.device));
    return -1;
}

static int
locate(ua_suai *s)
{
    ua_status code = ua_locate_region(
        s->ptr, s->nd, s->shape, s->strides, s->offset,
        ua_dtype_itemsize(s->typenum), &s->alloc, &s->begin, &s->end);
    if (code != UA_OK) {
        PyErr_Format(PyExc_ValueError, SUAI ": %s", ua_error_message());
        ua_error_clear();
        return -1;
    }
    return check_context(s);
}

int
ua_suai_import(ua_state *st, PyObject *obj, ua_suai *out)
{
    PyObject *dict;
    out->queue = NULL;
    int has = ua_py_optional_attr(obj, st->s_suai, &dict);
    if (has <= 0) {
        if (has == 0) {
            PyErr_Format(PyExc_TypeError,
                         "%.100s object does not expose " SUAI,
                         Py_TYPE(obj)->tp_name);
        }
        return -1;
    }
    int rc = -1;
    if (!PyDict_Check(dict)) {
        PyErr_Format(PyExc_TypeError, SUAI " must be a dict, not %.100s",
                     Py_TYPE(dict)->tp_name);
    }
    else if (read_version(dict, st) == 0 && read_shape(dict, st, out) == 0 &&
             read_typestr(dict, st, out) == 0 &&
             read_data(dict, st, out) == 0 &&
             read_strides(dict, st, out) == 0 &&
             read_offset(dict, st, out) == 0 &&
             read_syclobj(dict, st, out) == 0 && locate(out) == 0) {
        rc = 0;
    }
    Py_DECREF(dict);
    if (rc < 0) {
        Py_CLEAR(out->queue);
    }
    return rc;
}

void
ua_suai_release(ua_suai *s)
{
    Py_CLEAR(s->queue);
}
