/* __sycl_usm_array_interface__, export and import.  On import the binding
 * checks the Python types of every key, the core validates the values and
 * locates the described region inside the allocation that holds data[0]. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/errors.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/types/devices.h"
#include "python/types/memory.h"
#include "python/protocols/iface.h"
#include "python/protocols/suai.h"

#define SUAI "__sycl_usm_array_interface__"

int
ua_suai_has(ua_state *st, PyObject *obj)
{
    return ua_py_has_attr(obj, st->s_suai);
}

int
ua_suai_order_after_producer(ua_state *st, PyObject *obj)
{
    int has = ua_suai_has(st, obj);
    if (has <= 0) {
        return has;
    }
    PyObject *dict = PyObject_GetAttr(obj, st->s_suai);
    if (dict == NULL) {
        return -1;
    }
    PyObject *syclobj = NULL, *queue = NULL;
    if (!PyDict_Check(dict)) {
        PyErr_Format(PyExc_TypeError, SUAI " must be a dict, not %.100s",
                     Py_TYPE(dict)->tp_name);
    } else if ((syclobj = Py_XNewRef(
                    PyDict_GetItemWithError(dict, st->s_syclobj))) == NULL &&
               !PyErr_Occurred()) {
        PyErr_SetString(PyExc_KeyError,
                        SUAI " has no 'syclobj' to order the import after");
    }
    /* Taking the queue orders our work after what syclobj's queue has
     * submitted (ua_queue_adopt). */
    if (syclobj != NULL) {
        queue = ua_py_as_import_queue(st, syclobj, SUAI "['syclobj']");
    }
    Py_XDECREF(syclobj);
    Py_DECREF(dict);
    if (queue == NULL) {
        return -1;
    }
    Py_DECREF(queue);
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
    int rc = offset == NULL
                 ? 0
                 : ua_py_index(offset, SUAI "['offset']", &out->offset);
    Py_XDECREF(offset);
    return rc;
}

static int
read_syclobj(const ua_iface *f, ua_state *st, ua_suai *out)
{
    PyObject *syclobj = ua_iface_required(f, st->s_syclobj);
    if (syclobj == NULL) {
        return -1;
    }
    out->queue = ua_py_as_import_queue(st, syclobj, SUAI "['syclobj']");
    Py_DECREF(syclobj);
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
locate(ua_state *st, ua_suai *s)
{
    ua_status code = ua_locate_region(s->ptr, s->nd, s->shape, s->strides,
                                      s->offset, ua_dtype_itemsize(s->typenum),
                                      &s->alloc, &s->begin, &s->end);
    if (code != UA_OK) {
        /* A malformed interface is a value problem whatever the status. */
        ua_py_raise_core_prefixed(st, UA_ERR_VALUE, SUAI);
        return -1;
    }
    return check_context(s);
}

int
ua_suai_import(ua_state *st, PyObject *obj, ua_suai *out)
{
    out->queue = NULL;
    PyObject *dict = ua_iface_open(obj, st->s_suai, SUAI);
    if (dict == NULL) {
        return -1;
    }
    ua_iface f = {SUAI, dict, st};
    int rc = -1;
    if (ua_iface_version(&f, st->s_version, 1, 1) == 0 &&
        ua_iface_shape(&f, st->s_shape, out->shape, &out->nd) == 0 &&
        ua_iface_typestr(&f, st->s_typestr, &out->typenum) == 0 &&
        ua_iface_data(&f, st->s_data, &out->ptr, &out->readonly) == 0 &&
        ua_iface_strides(&f, st->s_strides, out->nd, out->shape, out->strides,
                         &out->has_strides) == 0 &&
        read_offset(&f, st, out) == 0 && read_syclobj(&f, st, out) == 0 &&
        locate(st, out) == 0) {
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

/* ------------------------------------------------------------ export */

PyObject *
ua_py_memory_get_suai(PyObject *self, void *Py_UNUSED(c))
{
    ua_state *st = ua_state_of(self);
    ua_py_memory *m = (ua_py_memory *)self;
    return Py_BuildValue("{O:(n),O:s,O:O,O:i,O:(NO),O:i,O:O}", st->s_shape,
                         m->nbytes, st->s_typestr, "|u1", st->s_strides,
                         Py_None, st->s_offset, 0, st->s_data,
                         PyLong_FromVoidPtr(m->ptr),
                         m->readonly ? Py_True : Py_False, st->s_version, 1,
                         st->s_syclobj, m->queue);
}

PyObject *
ua_py_array_get_suai(PyObject *self, void *Py_UNUSED(c))
{
    ua_state *st = ua_state_of(self);
    PyObject *const extra[] = {st->s_offset, st->s_syclobj, NULL};
    PyObject *d = ua_py_array_interface_dict(st, self, 0, base_of(self)->ptr,
                                             1, &st->suai_template, extra);
    PyObject *offset =
        d ? PyLong_FromSsize_t(ua_py_array_element_offset(self)) : NULL;
    if (offset == NULL || PyDict_SetItem(d, st->s_offset, offset) < 0 ||
        PyDict_SetItem(d, st->s_syclobj, base_of(self)->queue) < 0) {
        Py_CLEAR(d);
    }
    Py_XDECREF(offset);
    return d;
}
