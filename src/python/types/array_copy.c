/* Copies into new memory and assignment into an array's elements, with
 * broadcasting: copy(), astype(), to_device(), fill() and the assignment
 * that x[key] = v makes into the view key selects. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/dtypes.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/types/devices.h"
#include "python/types/memory.h"

#include "core/compute/promote.h"

/* ------------------------------------------------------------- copying */

int
ua_py_copy_strided(ua_state *st, PyObject *queue, int nd,
                   const Py_ssize_t *shape, const ua_strided *dst,
                   const ua_strided *src)
{
    ua_queue *q = ((ua_py_queue *)queue)->queue;
    ptrdiff_t n = 1;
    for (int k = 0; k < nd; k++) {
        n *= shape[k];
    }
    size_t bytes = (size_t)n * ua_dtype_itemsize(dst->type);
    PyThreadState *saved = ua_py_release_if_long(bytes);
    ua_status code = ua_queue_copy_strided(q, nd, shape, dst, src);
    /* Between the library's own allocations, later work is ordered after
     * the copy and the host waits where it reads (docs/architecture.rst,
     * "Asynchrony"); other memory (a NumPy array, a scalar on the stack,
     * another library's allocation) may change or go once this returns. */
    if (code == UA_OK && (!ua_queue_owns_memory(q, dst->data) ||
                          !ua_queue_owns_memory(q, src->data))) {
        code = ua_queue_wait(q);
    }
    ua_py_reacquire(saved);
    return code == UA_OK ? 0 : ua_py_fail_core(st, code);
}

PyObject *
ua_py_array_copy(ua_state *st, PyObject *src, ua_typenum t, char order,
                 ua_usm_kind kind, PyObject *queue)
{
    PyUSMArrayObject *s = ARR(src);
    PyObject *out = ua_py_array_empty(st, s->nd, s->shape, s->strides, t,
                                      ua_layout_resolve_order(s->flags, order),
                                      kind, queue);
    if (out == NULL) {
        return NULL;
    }
    ua_strided d = ua_py_array_strided(out), from = ua_py_array_strided(src);
    if (ua_py_copy_strided(st, queue, s->nd, s->shape, &d, &from) < 0) {
        Py_CLEAR(out);
    }
    return out;
}

PyObject *
ua_py_array_keep_signs(ua_state *st, PyObject *out, const Py_ssize_t *like)
{
    PyUSMArrayObject *a = ARR(out);
    Py_ssize_t strides[UA_MAXDIMS], shift = 0;
    int flipped = 0;
    if (ua_py_array_size(out) == 0) {
        return out;
    }
    for (int k = 0; k < a->nd; k++) {
        strides[k] = a->strides[k];
        if (like[k] < 0 && a->shape[k] > 1) {
            shift += (a->shape[k] - 1) * a->strides[k];
            strides[k] = -a->strides[k];
            flipped = 1;
        }
    }
    if (!flipped) {
        return out;
    }
    /* The new memory's dense layout walked from the other end on those
     * axes: a view of all of it, within its bounds by construction. */
    PyObject *v = ua_py_array_make(
        st, a->nd, a->shape, strides, (ua_typenum)a->typenum,
        a->data + shift * (Py_ssize_t)ua_py_array_itemsize(out), a->base, 1);
    Py_DECREF(out);
    return v;
}

PyObject *
ua_py_array_copy_signed(ua_state *st, PyObject *src, ua_typenum t, char order,
                        ua_usm_kind kind, PyObject *queue)
{
    PyUSMArrayObject *s = ARR(src);
    char resolved = ua_layout_resolve_order(s->flags, order);
    if (resolved != 'K') {
        return ua_py_array_copy(st, src, t, order, kind, queue);
    }
    PyObject *out = ua_py_array_empty(st, s->nd, s->shape, s->strides, t, 'K',
                                      kind, queue);
    out = out ? ua_py_array_keep_signs(st, out, s->strides) : NULL;
    if (out == NULL) {
        return NULL;
    }
    ua_strided d = ua_py_array_strided(out), from = ua_py_array_strided(src);
    if (ua_py_copy_strided(st, queue, s->nd, s->shape, &d, &from) < 0) {
        Py_CLEAR(out);
    }
    return out;
}

PyObject *
ua_py_array_to_numpy(ua_state *st, PyObject *self)
{
    PyObject *np = ua_py_numpy(st);
    PyObject *shape = ua_py_int_tuple(ARR(self)->nd, ARR(self)->shape);
    PyObject *dtype = ua_py_dtype(st, (ua_typenum)ARR(self)->typenum);
    PyObject *out = NULL;
    if (np != NULL && shape != NULL && dtype != NULL) {
        out = PyObject_CallMethod(np, "empty", "OO", shape, dtype);
    }
    Py_XDECREF(shape);
    Py_buffer view;
    if (out == NULL || PyObject_GetBuffer(out, &view, PyBUF_CONTIG) < 0) {
        Py_XDECREF(out);
        return NULL;
    }
    Py_ssize_t strides[UA_MAXDIMS];
    ua_layout_default_strides(ARR(self)->nd, ARR(self)->shape, 'C', strides);
    ua_strided d = {view.buf, strides, (ua_typenum)ARR(self)->typenum};
    ua_strided s = ua_py_array_strided(self);
    int rc = ua_py_copy_strided(st, base_of(self)->queue, ARR(self)->nd,
                                ARR(self)->shape, &d, &s);
    PyBuffer_Release(&view);
    if (rc < 0) {
        Py_CLEAR(out);
    }
    return out;
}

/* ---------------------------------------------------------- assignment */

static int
broadcast_error(int nd, const Py_ssize_t *shape, int snd,
                const Py_ssize_t *sshape)
{
    PyObject *to = ua_py_int_tuple(nd, shape),
             *from = ua_py_int_tuple(snd, sshape);
    if (to != NULL && from != NULL) {
        PyErr_Format(PyExc_ValueError,
                     "could not broadcast input array from shape %R into "
                     "shape %R",
                     from, to);
    }
    Py_XDECREF(to);
    Py_XDECREF(from);
    return -1;
}

/* Source strides that broadcast (snd, sshape) to (nd, shape). */
static int
broadcast_strides(int nd, const Py_ssize_t *shape, int snd,
                  const Py_ssize_t *sshape, const Py_ssize_t *sstrides,
                  Py_ssize_t *out)
{
    for (int k = 0; k < snd - nd; k++) { /* extra leading axes must be 1 */
        if (sshape[k] != 1) {
            return broadcast_error(nd, shape, snd, sshape);
        }
    }
    for (int k = nd - 1, j = snd - 1; k >= 0; k--, j--) {
        if (j < 0 || sshape[j] == 1) {
            out[k] = 0;
        } else if (sshape[j] == shape[k]) {
            out[k] = sstrides[j];
        } else {
            return broadcast_error(nd, shape, snd, sshape);
        }
    }
    return 0;
}

static int
assign_from(ua_state *st, PyObject *dst, int snd, const Py_ssize_t *sshape,
            const Py_ssize_t *sstrides, char *sdata, ua_typenum stype)
{
    Py_ssize_t strides[UA_MAXDIMS];
    if (broadcast_strides(ARR(dst)->nd, ARR(dst)->shape, snd, sshape, sstrides,
                          strides) < 0) {
        return -1;
    }
    ua_strided d = ua_py_array_strided(dst), s = {sdata, strides, stype};
    return ua_py_copy_strided(st, base_of(dst)->queue, ARR(dst)->nd,
                              ARR(dst)->shape, &d, &s);
}

/* Python scalars follow NumPy 2's rules for the destination's type. */
static int
assign_scalar(ua_state *st, PyObject *dst, PyObject *value)
{
    ua_py_scalar v;
    if (ua_py_scalar_for(st, value, (ua_typenum)ARR(dst)->typenum, &v) < 0) {
        return -1;
    }
    return assign_from(st, dst, 0, NULL, NULL, (char *)&v.v, v.type);
}

static PyObject *
host_array_for(ua_state *st, PyObject *dst, PyObject *value)
{
    PyObject *np = ua_py_numpy(st);
    if (np == NULL) {
        return NULL;
    }
    /* Nested sequences are read as the destination's type, as NumPy reads
     * them, so that the Python scalars in them follow its rules too. */
    if (PyList_Check(value) || PyTuple_Check(value)) {
        return PyObject_CallMethod(
            np, "asarray", "OO", value,
            ua_py_dtype(st, (ua_typenum)ARR(dst)->typenum));
    }
    PyObject *host = PyObject_CallMethod(np, "asarray", "(O)", value);
    ua_typenum t;
    if (host == NULL) {
        return NULL;
    }
    PyObject *dt = PyObject_GetAttrString(host, "dtype");
    int supported = dt != NULL && ua_py_typenum(st, dt, &t) == 0;
    Py_XDECREF(dt);
    if (!supported) {
        PyErr_Clear();
        Py_DECREF(host);
        host = PyObject_CallMethod(
            np, "asarray", "OO", value,
            ua_py_dtype(st, (ua_typenum)ARR(dst)->typenum));
    }
    return host;
}

static int
assign_host(ua_state *st, PyObject *dst, PyObject *value)
{
    PyObject *host = host_array_for(st, dst, value);
    Py_buffer v;
    if (host == NULL || PyObject_GetBuffer(host, &v, PyBUF_RECORDS_RO) < 0) {
        Py_XDECREF(host);
        return -1;
    }
    ua_typenum t;
    Py_ssize_t strides[UA_MAXDIMS];
    int rc = -1;
    if (ua_dtype_from_buffer_format(v.format, &t) != UA_OK) {
        ua_py_raise_core(st, UA_ERR_TYPE);
    } else {
        Py_ssize_t isz = (Py_ssize_t)ua_dtype_itemsize(t);
        int aligned = 1;
        for (int k = 0; k < v.ndim; k++) {
            aligned &= v.strides[k] % isz == 0;
            strides[k] = v.strides[k] / isz;
        }
        if (aligned) {
            rc = assign_from(st, dst, v.ndim, v.shape, strides, v.buf, t);
        } else {
            PyErr_SetString(PyExc_ValueError,
                            "the source's strides are not multiples of its "
                            "item size");
        }
    }
    PyBuffer_Release(&v);
    Py_DECREF(host);
    return rc;
}

int
ua_py_array_assign(ua_state *st, PyObject *dst, PyObject *value)
{
    if (!(ARR(dst)->flags & USM_ARRAY_WRITABLE)) {
        PyErr_SetString(PyExc_ValueError,
                        "assignment destination is read-only");
        return -1;
    }
    if (PyObject_TypeCheck(value, st->USMArray_Type)) {
        return assign_from(st, dst, ARR(value)->nd, ARR(value)->shape,
                           ARR(value)->strides, ARR(value)->data,
                           (ua_typenum)ARR(value)->typenum);
    }
    if (ua_py_is_python_scalar(value)) {
        return assign_scalar(st, dst, value);
    }
    int has = ua_py_has_attr(value, st->s_suai);
    if (has < 0) {
        return -1;
    }
    if (has) {
        PyObject *src = ua_py_array_from_suai(st, value);
        int rc = src ? ua_py_array_assign(st, dst, src) : -1;
        Py_XDECREF(src);
        return rc;
    }
    return assign_host(st, dst, value);
}

/* ------------------------------------------------------- copy methods */

PyObject *
ua_py_array_copy_method(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"order", NULL};
    PyObject *order_obj = NULL;
    char order = 'C';
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:copy", kwlist,
                                     &order_obj) ||
        (order_obj && ua_py_parse_order(order_obj, "CFAK", &order) < 0)) {
        return NULL;
    }
    return ua_py_array_copy_signed(ua_state_of(self), self,
                                   (ua_typenum)ARR(self)->typenum, order,
                                   base_of(self)->kind, base_of(self)->queue);
}

/* Whether the layout already is what order asks of a copy, as NumPy's
 * astype(copy=False) decides: 'A' asks for either contiguity. */
static int
has_order(PyObject *self, char order)
{
    int f = ARR(self)->flags;
    switch (order) {
    case 'C':
        return (f & USM_ARRAY_C_CONTIGUOUS) != 0;
    case 'F':
        return (f & USM_ARRAY_F_CONTIGUOUS) != 0;
    case 'A':
        return (f & (USM_ARRAY_C_CONTIGUOUS | USM_ARRAY_F_CONTIGUOUS)) != 0;
    default:
        return 1;
    }
}

int
ua_py_check_casting(ua_state *st, PyObject *x, ua_typenum t, PyObject *casting)
{
    if (casting == NULL || casting == Py_None) {
        return 0;
    }
    static const char *const rules[] = {"no",        "equiv",  "safe",
                                        "same_kind", "unsafe", NULL};
    int known = 0;
    for (int i = 0; PyUnicode_Check(casting) && rules[i] != NULL; i++) {
        known |= PyUnicode_CompareWithASCIIString(casting, rules[i]) == 0;
    }
    if (!known) {
        PyErr_Format(PyExc_ValueError,
                     "casting must be 'no', 'equiv', 'safe', 'same_kind' or "
                     "'unsafe', not %R",
                     casting);
        return -1;
    }
    PyObject *np = ua_py_numpy(st);
    PyObject *from =
        ua_py_dtype(st, (ua_typenum)ARR(x)->typenum); /* borrowed */
    PyObject *to = ua_py_dtype(st, t);
    PyObject *ok =
        np && from && to
            ? PyObject_CallMethod(np, "can_cast", "OOO", from, to, casting)
            : NULL;
    if (ok == NULL) {
        return -1;
    }
    int allowed = PyObject_IsTrue(ok);
    Py_DECREF(ok);
    if (allowed == 0) {
        PyErr_Format(PyExc_TypeError,
                     "cannot cast from %s to %s according to the rule %R",
                     ua_dtype_name((ua_typenum)ARR(x)->typenum),
                     ua_dtype_name(t), casting);
    }
    return allowed == 1 ? 0 : -1;
}

int
ua_py_astype_dtype(ua_state *st, PyObject *x, PyObject *dtype,
                   PyObject *casting, PyObject *queue, ua_typenum *t)
{
    if (dtype == Py_None) {
        /* dpctl's astype(None): the default floating dtype where the
         * result goes. */
        ua_default_dtypes d = ua_default_dtypes_for(
            ua_device_has_fp64(ua_queue_device(queue_of(queue))));
        *t = d.real_floating;
    } else if (ua_py_typenum(st, dtype, t) < 0) {
        return -1;
    }
    return ua_py_check_casting(st, x, *t, casting);
}

PyObject *
ua_py_array_astype(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"dtype", "order",  "casting",
                             "copy",  "device", NULL};
    PyObject *dtype, *order_obj = NULL, *casting = NULL, *copy_obj = NULL;
    PyObject *device = Py_None;
    ua_state *st = ua_state_of(self);
    ua_typenum t;
    char order = 'K';
    int copy = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O$OOO:astype", kwlist,
                                     &dtype, &order_obj, &casting, &copy_obj,
                                     &device) ||
        (order_obj && ua_py_parse_order(order_obj, "CFAK", &order) < 0) ||
        ua_py_parse_copy(copy_obj, &copy) < 0) {
        return NULL;
    }
    PyObject *queue = device == Py_None ? Py_NewRef(base_of(self)->queue)
                                        : ua_py_as_queue(st, device, "device");
    PyObject *result = NULL;
    if (queue != NULL &&
        ua_py_astype_dtype(st, self, dtype, casting, queue, &t) == 0) {
        result = ua_py_array_cast(st, self, t, order, copy, queue);
    }
    Py_XDECREF(queue);
    return result;
}

PyObject *
ua_py_array_cast(ua_state *st, PyObject *x, ua_typenum t, char order, int copy,
                 PyObject *queue)
{
    if (copy == 0 && t == (ua_typenum)ARR(x)->typenum &&
        queue == base_of(x)->queue && has_order(x, order)) {
        return Py_NewRef(x);
    }
    return ua_py_array_copy_signed(st, x, t, order, base_of(x)->kind, queue);
}

/* The queue to_device copies on: the target's, or the stream, a Queue of
 * the target's device.  A driver's stream handle (an int) orders the copy
 * after the work that stream has enqueued; the copy is complete on return,
 * so the stream's later work sees it. */
static PyObject *
to_device_queue(ua_state *st, PyObject *target, PyObject *stream)
{
    PyObject *queue = ua_py_as_queue(st, target, "device");
    if (queue == NULL || stream == Py_None) {
        return queue;
    }
    ua_queue *q = ((ua_py_queue *)queue)->queue;
    if (PyObject_TypeCheck(stream, st->Queue_Type)) {
        ua_queue *s = ((ua_py_queue *)stream)->queue;
        if (ua_queue_device(s) != ua_queue_device(q)) {
            PyErr_Format(PyExc_ValueError,
                         "stream is a queue of %s, not of the target device "
                         "%s",
                         ua_device_filter_string(ua_queue_device(s)),
                         ua_device_filter_string(ua_queue_device(q)));
            Py_DECREF(queue);
            return NULL;
        }
        Py_SETREF(queue, Py_NewRef(stream));
        return queue;
    }
    if (PyLong_Check(stream) && !PyBool_Check(stream)) {
        uintptr_t handle = (uintptr_t)PyLong_AsUnsignedLongLong(stream);
        ua_status code = PyErr_Occurred()
                             ? UA_OK
                             : ua_queue_order_with_stream(q, handle, false);
        if (PyErr_Occurred() || code != UA_OK) {
            if (code != UA_OK) {
                ua_py_raise_core(st, code);
            } else {
                PyErr_Format(PyExc_ValueError,
                             "stream %R is not a stream handle", stream);
            }
            Py_DECREF(queue);
            return NULL;
        }
        return queue;
    }
    if (!PyUnicode_Check(stream) && !PyBool_Check(stream) &&
        !PyFloat_Check(stream) && !PyDict_Check(stream) &&
        (ua_py_has_attr(stream, st->s_get_capsule) > 0 ||
         ua_py_has_attr(stream, st->s_sycl_queue) > 0)) {
        /* dpctl's SyclQueue, as dpctl's to_device takes. */
        PyObject *theirs = ua_py_as_queue(st, stream, "stream");
        Py_DECREF(queue);
        if (theirs == NULL) {
            return NULL;
        }
        PyObject *r = to_device_queue(st, target, theirs);
        Py_DECREF(theirs);
        return r;
    }
    if (!PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError,
                     "stream must be None, a usmarray.Queue of the target "
                     "device, a dpctl SyclQueue or an integer stream handle "
                     "of its driver, not %.100s",
                     Py_TYPE(stream)->tp_name);
    }
    Py_DECREF(queue);
    return NULL;
}

/* The same memory on another queue of its context, as dpctl's to_device
 * rebinds an array: no copy, the new queue ordered after the old one's
 * work. */
static PyObject *
rebind_to_queue(ua_state *st, PyObject *self, PyObject *queue)
{
    ua_py_memory *m = base_of(self);
    ua_status code = ua_queue_order_after(queue_of(queue), queue_of(m->queue));
    if (code != UA_OK) {
        return ua_py_raise_core(st, code);
    }
    PyObject *base = ua_py_memory_wrap(st, m->kind, m->ptr, m->nbytes,
                                       m->readonly, queue, (PyObject *)m);
    if (base == NULL) {
        return NULL;
    }
    PyObject *result = ua_py_array_new(
        st, ARR(self)->nd, ARR(self)->shape, ARR(self)->strides,
        (ua_typenum)ARR(self)->typenum, ARR(self)->data, base,
        (ARR(self)->flags & USM_ARRAY_WRITABLE) != 0);
    Py_DECREF(base);
    return result;
}

PyObject *
ua_py_array_to_device(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"device", "stream", NULL};
    PyObject *target, *stream = Py_None;
    ua_state *st = ua_state_of(self);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$O:to_device", kwlist,
                                     &target, &stream)) {
        return NULL;
    }
    PyObject *queue = to_device_queue(st, target, stream);
    if (queue == NULL) {
        return NULL;
    }
    ua_context *here = ua_queue_context(queue_of(base_of(self)->queue));
    PyObject *result = NULL;
    if (queue == base_of(self)->queue) {
        result = Py_NewRef(self);
    } else if (ua_queue_context(queue_of(queue)) == here) {
        result = rebind_to_queue(st, self, queue);
    } else if (ua_py_queue_settle(st, base_of(self)->queue) == 0) {
        /* Another device's copy may run on a queue that the array's own
         * has not ordered: its work is done first. */
        result = ua_py_array_copy(st, self, (ua_typenum)ARR(self)->typenum,
                                  'K', base_of(self)->kind, queue);
    }
    Py_DECREF(queue);
    return result;
}

PyObject *
ua_py_array_fill(PyObject *self, PyObject *value)
{
    if (ua_py_array_assign(ua_state_of(self), self, value) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}
