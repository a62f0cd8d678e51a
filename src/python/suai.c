/* Import of __sycl_usm_array_interface__: the binding checks the Python
 * types of every key, the core validates the values and locates the
 * described region inside the allocation that holds data[0]. */
#include "binding.h"

#define SUAI "__sycl_usm_array_interface__"

int
ua_suai_has(ua_state *st, PyObject *obj)
{
    return ua_py_has_attr(obj, st->s_suai);
}

static int
read_strides(const ua_iface *f, ua_state *st, ua_suai *out)
{
    int error, n;
    PyObject *strides = ua_iface_optional(f, st->s_strides, &error);
    if (error) {
        return -1;
    }
    out->has_strides = strides != NULL;
    if (!out->has_strides) {
        ua_layout_default_strides(out->nd, out->shape, 'C', out->strides);
        return 0;
    }
    if (ua_iface_ints(f, st->s_strides, strides, out->strides, &n) < 0) {
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
read_offset(const ua_iface *f, ua_state *st, ua_suai *out)
{
    int error;
    PyObject *offset = ua_iface_optional(f, st->s_offset, &error);
    out->offset = 0;
    if (error) {
        return -1;
    }
    return offset == NULL
               ? 0
               : ua_py_index(offset, SUAI "['offset']", &out->offset);
}

static int
read_syclobj(const ua_iface *f, ua_state *st, ua_suai *out)
{
    PyObject *syclobj = ua_iface_required(f, st->s_syclobj);
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
    else {
        ua_iface f = {SUAI, dict};
        if (ua_iface_version(&f, st->s_version, 1, 1) == 0 &&
            ua_iface_shape(&f, st->s_shape, out->shape, &out->nd) == 0 &&
            ua_iface_typestr(&f, st->s_typestr, &out->typenum) == 0 &&
            ua_iface_data(&f, st->s_data, &out->ptr, &out->readonly) == 0 &&
            read_strides(&f, st, out) == 0 && read_offset(&f, st, out) == 0 &&
            read_syclobj(&f, st, out) == 0 && locate(out) == 0) {
            rc = 0;
        }
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
