/* The module's array functions: asarray, asnumpy and the creation
 * functions. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/dtypes.h"
#include "python/base/errors.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/types/devices.h"
#include "python/types/memory.h"
#include "python/protocols/cai.h"
#include "python/protocols/dlpack_export.h"
#include "python/protocols/dlpack_import.h"
#include "python/protocols/suai.h"
#include "python/namespace/arguments.h"
#include "python/namespace/functions.h"

#include "core/compute/promote.h"

PyObject *
ua_py_target_queue(ua_state *st, PyObject *device, PyObject *queue,
                   PyObject *fallback)
{
    PyObject *a = NULL, *b = NULL;
    if (device != NULL && device != Py_None &&
        (a = ua_py_as_queue(st, device, "device")) == NULL) {
        return NULL;
    }
    if (queue != NULL && queue != Py_None &&
        (b = ua_py_as_queue(st, queue, "queue")) == NULL) {
        Py_XDECREF(a);
        return NULL;
    }
    if (a != NULL && b != NULL && a != b) {
        Py_DECREF(a);
        Py_DECREF(b);
        PyErr_SetString(PyExc_ValueError,
                        "device and queue name different queues");
        return NULL;
    }
    if (b != NULL) {
        Py_XDECREF(a); /* the same queue as b, or none */
        return b;
    }
    if (a != NULL) {
        return a;
    }
    return fallback ? Py_NewRef(fallback)
                    : ua_py_as_queue(st, Py_None, "queue");
}

/* ------------------------------------------------------------ asarray */

typedef struct {
    int has_type;
    ua_typenum type;
    int copy; /* -1: None (copy if needed), 0: never, 1: always */
    int has_kind;
    ua_usm_kind kind;
    PyObject *queue; /* owned, or NULL */
    char order;
} convert_args;

static const char *
conversion_need(PyObject *x, const convert_args *c)
{
    int f = ARR(x)->flags;
    if (c->has_type && c->type != (ua_typenum)ARR(x)->typenum) {
        return "the dtype";
    }
    if (c->has_kind && c->kind != base_of(x)->kind) {
        return "the USM type";
    }
    if (c->queue != NULL && c->queue != base_of(x)->queue) {
        return "the queue";
    }
    if ((c->order == 'C' && !(f & USM_ARRAY_C_CONTIGUOUS)) ||
        (c->order == 'F' && !(f & USM_ARRAY_F_CONTIGUOUS))) {
        return "the memory layout";
    }
    return NULL;
}

static PyObject *
convert_array(ua_state *st, PyObject *x, const convert_args *c)
{
    const char *need = conversion_need(x, c);
    if (need == NULL && c->copy != 1) {
        return Py_NewRef(x);
    }
    if (need != NULL && c->copy == 0) {
        PyErr_Format(PyExc_ValueError,
                     "asarray(copy=False) cannot change %s without a copy",
                     need);
        return NULL;
    }
    return ua_py_array_copy_signed(
        st, x, c->has_type ? c->type : (ua_typenum)ARR(x)->typenum, c->order,
        c->has_kind ? c->kind : base_of(x)->kind,
        c->queue ? c->queue : base_of(x)->queue);
}

/* A nested list or tuple with the arrays in it replaced by host copies
 * (NumPy cannot read device memory itself), or a new reference to obj
 * where it holds none.  Sequences of other types are left to NumPy.
 * The items are read from a tuple snapshot of obj's storage, which holds
 * them: the copies call out to Python (NumPy, and the garbage collector's
 * finalizers), which may change or empty a list, and a subclass's
 * __iter__ or __len__ is no view of what the list holds. */
static PyObject *
arrays_in_sequence_to_host(ua_state *st, PyObject *obj, int depth)
{
    if (PyObject_TypeCheck(obj, st->USMArray_Type)) {
        return ua_py_array_to_numpy(st, obj);
    }
    if ((!PyList_Check(obj) && !PyTuple_Check(obj)) || depth > UA_MAXDIMS) {
        return Py_NewRef(obj);
    }
    PyObject *items = PyList_Check(obj)
                          ? PyList_AsTuple(obj)
                          : PyTuple_GetSlice(obj, 0, PY_SSIZE_T_MAX);
    if (items == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    PyObject *copy = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(items, i);
        PyObject *host = arrays_in_sequence_to_host(st, item, depth + 1);
        if (host == NULL) {
            Py_XDECREF(copy);
            Py_DECREF(items);
            return NULL;
        }
        /* A list of the snapshot's n items: no user code runs. */
        if (host != item && copy == NULL &&
            (copy = PySequence_List(items)) == NULL) {
            Py_DECREF(host);
            Py_DECREF(items);
            return NULL;
        }
        if (copy != NULL) {
            /* Steals host and drops the item the copy held. */
            if (PyList_SetItem(copy, i, host) < 0) {
                Py_DECREF(copy);
                Py_DECREF(items);
                return NULL;
            }
        } else {
            Py_DECREF(host);
        }
    }
    Py_DECREF(items);
    return copy ? copy : Py_NewRef(obj);
}

/* Host data (NumPy arrays, buffers, sequences, scalars) through
 * numpy.asarray. */
static PyObject *
host_source(ua_state *st, PyObject *obj, const convert_args *c)
{
    PyObject *np = ua_py_numpy(st);
    if (np == NULL) {
        return NULL;
    }
    PyObject *dtype = c->has_type ? ua_py_dtype(st, c->type) : Py_None;
    char order[2] = {c->order, '\0'};
    PyObject *data = arrays_in_sequence_to_host(st, obj, 0);
    if (data == NULL) {
        return NULL;
    }
    PyObject *host =
        PyObject_CallMethod(np, "asarray", "OOs", data, dtype, order);
    Py_DECREF(data);
    return host;
}

static int
host_layout(Py_buffer *v, ua_typenum *t, Py_ssize_t *strides)
{
    if (ua_dtype_from_buffer_format(v->format, t) != UA_OK) {
        ua_error_clear();
        PyErr_Format(PyExc_TypeError,
                     "host data of format '%s' has no supported dtype",
                     v->format);
        return -1;
    }
    Py_ssize_t isz = (Py_ssize_t)ua_dtype_itemsize(*t);
    for (int k = 0; k < v->ndim; k++) {
        if (v->strides[k] % isz != 0) {
            PyErr_SetString(PyExc_ValueError,
                            "host data whose strides are not multiples of "
                            "the item size");
            return -1;
        }
        strides[k] = v->strides[k] / isz;
    }
    return 0;
}

/* Wraps host memory as a borrowed "host" allocation: no copy. */
static PyObject *
borrow_host(ua_state *st, PyObject *host, Py_buffer *v, ua_typenum t,
            const Py_ssize_t *strides, PyObject *queue)
{
    ptrdiff_t begin, end;
    if (ua_layout_byte_range(v->ndim, v->shape, strides, 0,
                             ua_dtype_itemsize(t), &begin, &end) != UA_OK) {
        return ua_py_raise_core(st, ua_error_code());
    }
    /* The memoryview holds the buffer export: its owner cannot resize or
     * free the memory while the array lives. */
    PyObject *export = PyMemoryView_FromObject(host);
    if (export == NULL) {
        return NULL;
    }
    PyObject *mem =
        ua_py_memory_borrow(st, queue, (char *)v->buf + begin,
                            (Py_ssize_t)(end - begin), v->readonly, export);
    Py_DECREF(export);
    if (mem == NULL) {
        return NULL;
    }
    PyObject *a = ua_py_array_new(st, v->ndim, v->shape, strides, t, v->buf,
                                  mem, !v->readonly);
    Py_DECREF(mem);
    return a;
}

static PyObject *
copy_host(ua_state *st, Py_buffer *v, ua_typenum t, const Py_ssize_t *strides,
          ua_usm_kind kind, PyObject *queue, char order)
{
    int layout = ua_layout_contiguity(v->ndim, v->shape, strides);
    PyObject *out =
        ua_py_array_empty(st, v->ndim, v->shape, strides, t,
                          ua_layout_resolve_order(layout, order), kind, queue);
    if (out == NULL) {
        return NULL;
    }
    ua_strided d = {ARR(out)->data, ARR(out)->strides, t};
    ua_strided s = {v->buf, strides, t};
    if (ua_py_copy_strided(st, queue, v->ndim, v->shape, &d, &s) < 0) {
        Py_CLEAR(out);
    }
    return out;
}

/* Whether the queue's backend serves plain CPU memory, so that host data
 * can be borrowed as its "host" allocation. */
static int
serves_cpu_memory(PyObject *queue)
{
    ua_device *d = ua_queue_device(((ua_py_queue *)queue)->queue);
    return (ua_backend_caps(ua_device_backend(d)) & UA_CAP_CPU_MEMORY) != 0;
}

/* Unsupported dtypes are named as the constructor names them, before
 * asking for a buffer that object arrays cannot give. */
static int
check_host_dtype(ua_state *st, PyObject *host, PyObject *source)
{
    ua_typenum t;
    PyObject *dt = PyObject_GetAttrString(host, "dtype");
    int rc = dt == NULL || ua_py_refuse_huge_int(dt, source) < 0
                 ? -1
                 : ua_py_typenum(st, dt, &t);
    Py_XDECREF(dt);
    return rc;
}

static PyObject *
convert_host(ua_state *st, PyObject *obj, const convert_args *c)
{
    PyObject *host = host_source(st, obj, c);
    Py_buffer v;
    if (host != NULL) {
        host = ua_py_native_order(host, c->copy);
    }
    if (host == NULL || check_host_dtype(st, host, obj) < 0 ||
        PyObject_GetBuffer(host, &v, PyBUF_RECORDS_RO) < 0) {
        Py_XDECREF(host);
        return NULL;
    }
    ua_typenum t;
    Py_ssize_t strides[UA_MAXDIMS];
    ua_usm_kind kind = c->has_kind ? c->kind : UA_USM_DEVICE;
    PyObject *queue =
        c->queue ? Py_NewRef(c->queue) : ua_py_as_queue(st, Py_None, "queue");
    PyObject *result = NULL;
    if (queue != NULL && host_layout(&v, &t, strides) == 0) {
        if (kind == UA_USM_HOST && c->copy != 1 && serves_cpu_memory(queue)) {
            result = borrow_host(st, host, &v, t, strides, queue);
            /* USM memory of another kind seen through a host buffer. */
            if (result != NULL && base_of(result)->kind != kind) {
                ua_usm_kind found = base_of(result)->kind;
                Py_CLEAR(result);
                if (c->copy == 0) {
                    PyErr_Format(PyExc_ValueError,
                                 "asarray(copy=False): the data is USM %s "
                                 "memory, which usm_type='host' cannot wrap "
                                 "without a copy",
                                 ua_usm_kind_name(found));
                } else {
                    result =
                        copy_host(st, &v, t, strides, kind, queue, c->order);
                }
            }
        } else if (c->copy == 0) {
            PyErr_Format(PyExc_ValueError,
                         "asarray(copy=False) of host data needs a copy into "
                         "USM %s memory; only usm_type='host' on the host "
                         "backend wraps it",
                         ua_usm_kind_name(kind));
        } else {
            result = copy_host(st, &v, t, strides, kind, queue, c->order);
        }
    }
    Py_XDECREF(queue);
    PyBuffer_Release(&v);
    Py_DECREF(host);
    return result;
}

enum {
    AS_OBJ,
    AS_DTYPE,
    AS_COPY,
    AS_USM_TYPE,
    AS_QUEUE,
    AS_ORDER,
    AS_DEVICE,
    AS_N
};
static const char *const asarray_kwlist[] = {
    "obj", "dtype", "copy", "usm_type", "queue", "order", "device", NULL};
static const ua_py_argspec asarray_args = {"asarray", asarray_kwlist, 1, 1};

/* 1 when obj is a DLPack producer to import as such, with *dev the
 * device its __dlpack_device__ names.  Objects that also export the buffer
 * protocol (NumPy arrays) are left to the host-data path, which converts
 * their dtypes the same way and names unsupported ones as it does. */
static int
dlpack_source(ua_state *st, PyObject *obj, ua_dl_device *dev)
{
    if (PyObject_CheckBuffer(obj)) {
        return 0;
    }
    int has = ua_py_has_attr(obj, st->s_dlpack);
    if (has <= 0) {
        return has;
    }
    return ua_py_dlpack_device_of(st, obj, dev) < 0 ? -1 : 1;
}

/* v holds asarray's arguments, Py_None where not given (order: NULL). */
static PyObject *
asarray_of(ua_state *st, PyObject **v)
{
    PyObject *obj = v[AS_OBJ], *dtype = v[AS_DTYPE], *copy = v[AS_COPY];
    PyObject *usm_type = v[AS_USM_TYPE], *queue = v[AS_QUEUE];
    PyObject *device = v[AS_DEVICE];
    PyObject *order = v[AS_ORDER];
    convert_args c = {.copy = -1, .order = 'K'};
    if ((dtype != Py_None &&
         (c.has_type = 1, ua_py_typenum(st, dtype, &c.type) < 0)) ||
        ua_py_parse_copy(copy, &c.copy) < 0 ||
        (usm_type != Py_None &&
         (c.has_kind = 1, ua_py_parse_usm_type(usm_type, &c.kind) < 0)) ||
        (order != NULL && ua_py_parse_order(order, "CFAK", &c.order) < 0) ||
        ((queue != Py_None || device != Py_None) &&
         (c.queue = ua_py_target_queue(st, device, queue, NULL)) == NULL)) {
        return NULL;
    }
    PyObject *result = NULL, *imported = NULL;
    int has;
    ua_dl_device dev;
    if (PyObject_TypeCheck(obj, st->USMArray_Type)) {
        result = convert_array(st, obj, &c);
    } else if ((has = ua_suai_has(st, obj)) != 0) {
        imported = has > 0 ? ua_py_array_from_suai(st, obj) : NULL;
        result = imported ? convert_array(st, imported, &c) : NULL;
    } else if ((has = ua_py_has_attr(obj, st->s_cai)) != 0) {
        imported = has > 0 ? ua_py_array_from_cai(st, obj) : NULL;
        result = imported ? convert_array(st, imported, &c) : NULL;
    } else if ((has = dlpack_source(st, obj, &dev)) != 0) {
        imported = has > 0
                       ? ua_py_array_from_dlpack_object(st, obj, Py_None, &dev)
                       : NULL;
        /* CPU memory is host data: it goes to device memory by default. */
        if (has > 0 && dev.device_type == UA_DL_CPU && !c.has_kind) {
            c.has_kind = 1;
            c.kind = UA_USM_DEVICE;
        }
        result = imported ? convert_array(st, imported, &c) : NULL;
    } else {
        result = convert_host(st, obj, &c);
    }
    Py_XDECREF(imported);
    Py_XDECREF(c.queue);
    return result;
}

static PyObject *
asarray(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
        PyObject *kwnames)
{
    PyObject *v[AS_N] = {NULL,    Py_None, Py_None, Py_None,
                         Py_None, NULL,    Py_None};
    if (ua_py_parse_fast(&asarray_args, args, nargs, kwnames, v) < 0) {
        return NULL;
    }
    return asarray_of(PyModule_GetState(module), v);
}

static PyObject *
host_copy(ua_state *st, PyObject *obj)
{
    if (PyObject_TypeCheck(obj, st->USMArray_Type)) {
        return ua_py_array_to_numpy(st, obj);
    }
    int has = ua_suai_has(st, obj);
    if (has <= 0) {
        PyObject *np = has == 0 ? ua_py_numpy(st) : NULL;
        return np ? PyObject_CallMethod(np, "asarray", "(O)", obj) : NULL;
    }
    PyObject *a = ua_py_array_from_suai(st, obj);
    PyObject *host = a ? ua_py_array_to_numpy(st, a) : NULL;
    Py_XDECREF(a);
    return host;
}

static PyObject *
asnumpy(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
        PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "order", NULL};
    static const ua_py_argspec spec = {"asnumpy", kwlist, 1, 1};
    PyObject *v[2] = {NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    char order = 'C';
    if (ua_py_parse_fast(&spec, args, nargs, kwnames, v) < 0 ||
        (v[1] != NULL && ua_py_parse_order(v[1], "CFAK", &order) < 0)) {
        return NULL;
    }
    PyObject *host = host_copy(st, v[0]);
    if (host == NULL || order != 'F') {
        return host;
    }
    /* The copy is C-ordered (what 'C', 'A' and 'K' keep); Fortran order
     * is one more host copy. */
    PyObject *np = ua_py_numpy(st);
    PyObject *convert = np ? PyObject_GetAttrString(np, "asarray") : NULL;
    PyObject *kwargs =
        convert ? Py_BuildValue("{s:s#}", "order", &order, (Py_ssize_t)1)
                : NULL;
    PyObject *call = kwargs ? PyTuple_Pack(1, host) : NULL;
    PyObject *result = call ? PyObject_Call(convert, call, kwargs) : NULL;
    Py_XDECREF(call);
    Py_XDECREF(kwargs);
    Py_XDECREF(convert);
    Py_DECREF(host);
    return result;
}

/* dpctl's copy(): not the standard's, but what dpctl's and dpnp's users
 * write; order 'K' keeps the strides' order and signs. */
static PyObject *
copy(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
     PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "order", NULL};
    static const ua_py_argspec spec = {"copy", kwlist, 1, 1};
    PyObject *v[2] = {NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    char order = 'K';
    if (ua_py_parse_fast(&spec, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "copy") < 0 ||
        (v[1] != NULL && ua_py_parse_order(v[1], "CFAK", &order) < 0)) {
        return NULL;
    }
    return ua_py_array_copy_signed(st, v[0], (ua_typenum)ARR(v[0])->typenum,
                                   order, base_of(v[0])->kind,
                                   base_of(v[0])->queue);
}

/* Unpickling: a copy of the host elements in new memory of the USM kind
 * on the device that were pickled. */
PyObject *
ua_py_rebuild_array(PyObject *module, PyObject *args)
{
    PyObject *host, *usm_type, *device;
    if (!PyArg_ParseTuple(args, "OUU:_rebuild_array", &host, &usm_type,
                          &device)) {
        return NULL;
    }
    PyObject *v[AS_N] = {host,   Py_None, Py_True, usm_type,
                         device, NULL,    Py_None};
    return asarray_of(PyModule_GetState(module), v);
}

/* ----------------------------------------------------------- creation */

typedef struct {
    int nd;
    Py_ssize_t shape[UA_MAXDIMS];
    ua_typenum type;
    char order;
    ua_usm_kind kind;
    const Py_ssize_t *like; /* strides for order 'K', or NULL */
    PyObject *queue;        /* owned */
} creation;

static int
parse_creation(ua_state *st, creation *c, PyObject *shape, PyObject *dtype,
               PyObject *order, PyObject *device, PyObject *usm_type,
               PyObject *queue)
{
    c->queue = NULL;
    c->like = NULL;
    c->order = 'C';
    c->kind = UA_USM_DEVICE;
    if ((shape && ua_py_parse_shape(shape, "shape", c->shape, &c->nd) < 0) ||
        (dtype && dtype != Py_None &&
         ua_py_typenum(st, dtype, &c->type) < 0) ||
        (order && ua_py_parse_order(order, "CF", &c->order) < 0) ||
        (usm_type && usm_type != Py_None &&
         ua_py_parse_usm_type(usm_type, &c->kind) < 0)) {
        return -1;
    }
    c->queue = ua_py_target_queue(st, device, queue, NULL);
    if (c->queue != NULL && shape != NULL &&
        (dtype == NULL || dtype == Py_None)) {
        /* Floating values take the device's default precision. */
        ua_default_dtypes d = ua_default_dtypes_for(
            ua_device_has_fp64(ua_queue_device(queue_of(c->queue))));
        c->type = c->type == UA_FLOAT64      ? d.real_floating
                  : c->type == UA_COMPLEX128 ? d.complex_floating
                                             : c->type;
    }
    return c->queue ? 0 : -1;
}

static PyObject *
make_empty(ua_state *st, creation *c)
{
    PyObject *a = ua_py_array_empty(st, c->nd, c->shape, c->like, c->type,
                                    c->order, c->kind, c->queue);
    Py_CLEAR(c->queue);
    if (a != NULL && c->like != NULL && c->order == 'K') {
        a = ua_py_array_keep_signs(st, a, c->like);
    }
    return a;
}

static int
zero_fill(ua_state *st, PyObject *a)
{
    ua_py_memory *m = base_of(a);
    ua_queue *q = ((ua_py_queue *)m->queue)->queue;
    ua_status code = ua_queue_memset(q, m->ptr, 0, (size_t)m->nbytes);
    if (code == UA_OK) {
        code = ua_queue_wait(q);
    }
    return code == UA_OK ? 0 : ua_py_fail_core(st, code);
}

/* The dtype NumPy infers for a fill value. */
static int
infer_type(ua_state *st, PyObject *value, ua_typenum *t)
{
    if (PyObject_TypeCheck(value, st->USMArray_Type)) {
        *t = (ua_typenum)ARR(value)->typenum;
        return 0;
    }
    PyObject *np = ua_py_numpy(st);
    PyObject *host =
        np ? PyObject_CallMethod(np, "asarray", "(O)", value) : NULL;
    PyObject *dt = host ? PyObject_GetAttrString(host, "dtype") : NULL;
    int rc = dt == NULL || ua_py_refuse_huge_int(dt, value) < 0
                 ? -1
                 : ua_py_typenum(st, dt, t);
    Py_XDECREF(host);
    Py_XDECREF(dt);
    return rc;
}

/* The fill values of full and full_like: numbers and arrays (or what NumPy
 * makes a numeric array of), never text, which NumPy would parse. */
static int
check_fill_value(ua_state *st, PyObject *value)
{
    if (ua_py_is_python_scalar(value) ||
        PyObject_TypeCheck(value, st->USMArray_Type)) {
        return 0;
    }
    if (PyUnicode_Check(value) || PyBytes_Check(value) ||
        PyByteArray_Check(value) || value == Py_None) {
        PyErr_Format(PyExc_TypeError,
                     "fill_value must be a number or an array, not %.100s",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    ua_typenum t;
    return infer_type(st, value, &t);
}

/* A complex fill value into a real or integer dtype keeps its real part
 * (a bool its truth), as NumPy's and dpctl's full do; element writes
 * refuse it instead (x[i] = 1j raises). */
static PyObject *
fill_value_for(PyObject *value, ua_typenum t)
{
    char kind = ua_dtype_kind(t);
    if (!PyComplex_Check(value) || kind == 'c') {
        return Py_NewRef(value);
    }
    Py_complex z = PyComplex_AsCComplex(value);
    if (z.real == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    return kind == 'b' ? PyBool_FromLong(z.real != 0 || z.imag != 0)
                       : PyFloat_FromDouble(z.real);
}

/* Writes a fill value into a new array, or drops the array. */
static PyObject *
fill_with(ua_state *st, PyObject *a, PyObject *value)
{
    PyObject *v =
        a ? fill_value_for(value, (ua_typenum)ARR(a)->typenum) : NULL;
    if (v == NULL || ua_py_array_assign(st, a, v) < 0) {
        Py_CLEAR(a);
    }
    Py_XDECREF(v);
    return a;
}

/* The arguments of the creation functions, in their order; the
 * positional ones (shape or x, and fill_value) come first. */
enum { C_DTYPE, C_ORDER, C_DEVICE, C_USM_TYPE, C_QUEUE, C_N };
#define CREATION_KWARGS "dtype", "order", "device", "usm_type", "queue", NULL

static const char *const shape_kwlist[] = {"shape", CREATION_KWARGS};
static const char *const shape_value_kwlist[] = {"shape", "fill_value",
                                                 CREATION_KWARGS};
static const char *const x_kwlist[] = {"x", CREATION_KWARGS};
static const char *const x_value_kwlist[] = {"x", "fill_value",
                                             CREATION_KWARGS};

static PyObject *
filled(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
       PyObject *kwnames, const char *fname, int fill)
{
    const ua_py_argspec spec = {fname, shape_kwlist, 1, 1};
    PyObject *v[1 + C_N] = {NULL};
    ua_state *st = PyModule_GetState(module);
    creation c; /* not zeroed: its shape array is 512 bytes */
    c.type = UA_FLOAT64;
    PyObject **kw = v + 1;
    if (ua_py_parse_fast(&spec, args, nargs, kwnames, v) < 0 ||
        parse_creation(st, &c, v[0], kw[C_DTYPE], kw[C_ORDER], kw[C_DEVICE],
                       kw[C_USM_TYPE], kw[C_QUEUE]) < 0) {
        return NULL;
    }
    PyObject *a = make_empty(st, &c);
    if (a != NULL && fill == 0 && zero_fill(st, a) < 0) {
        Py_CLEAR(a);
    }
    if (a != NULL && fill == 1) {
        PyObject *one = PyLong_FromLong(1);
        if (one == NULL || ua_py_array_assign(st, a, one) < 0) {
            Py_CLEAR(a);
        }
        Py_XDECREF(one);
    }
    return a;
}

static PyObject *
empty(PyObject *m, PyObject *const *args, Py_ssize_t n, PyObject *kwnames)
{
    return filled(m, args, n, kwnames, "empty", -1);
}

static PyObject *
zeros(PyObject *m, PyObject *const *args, Py_ssize_t n, PyObject *kwnames)
{
    return filled(m, args, n, kwnames, "zeros", 0);
}

static PyObject *
ones(PyObject *m, PyObject *const *args, Py_ssize_t n, PyObject *kwnames)
{
    return filled(m, args, n, kwnames, "ones", 1);
}

static PyObject *
full(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
     PyObject *kwnames)
{
    static const ua_py_argspec spec = {"full", shape_value_kwlist, 2, 2};
    PyObject *v[2 + C_N] = {NULL};
    PyObject **kw = v + 2, *value;
    ua_state *st = PyModule_GetState(module);
    creation c; /* not zeroed: its shape array is 512 bytes */
    c.type = UA_FLOAT64;
    if (ua_py_parse_fast(&spec, args, nargs, kwnames, v) < 0 ||
        check_fill_value(st, (value = v[1])) < 0) {
        return NULL;
    }
    /* An array's fill follows its data: its queue and USM kind unless
     * named (dpctl's full does so). */
    int from_array = PyObject_TypeCheck(value, st->USMArray_Type);
    PyObject *device = kw[C_DEVICE], *queue = kw[C_QUEUE];
    if (from_array && (device == NULL || device == Py_None) &&
        (queue == NULL || queue == Py_None)) {
        queue = base_of(value)->queue;
    }
    if (((kw[C_DTYPE] == NULL || kw[C_DTYPE] == Py_None) &&
         infer_type(st, value, &c.type) < 0) ||
        parse_creation(st, &c, v[0], kw[C_DTYPE], kw[C_ORDER], device,
                       kw[C_USM_TYPE], queue) < 0) {
        return NULL;
    }
    if (from_array && (kw[C_USM_TYPE] == NULL || kw[C_USM_TYPE] == Py_None)) {
        c.kind = base_of(value)->kind;
    }
    return fill_with(st, make_empty(st, &c), value);
}

/* *_like: the shape, dtype, USM type and queue of x unless overridden;
 * order 'K' keeps x's axis order. */
static PyObject *
like(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
     PyObject *kwnames, const char *fname, int fill, int takes_value)
{
    const ua_py_argspec spec = {fname, takes_value ? x_value_kwlist : x_kwlist,
                                1 + takes_value, 1 + takes_value};
    PyObject *v[2 + C_N] = {NULL};
    PyObject **kw = v + 1 + takes_value;
    ua_state *st = PyModule_GetState(module);
    if (ua_py_parse_fast(&spec, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "a *_like function") < 0 ||
        (takes_value && check_fill_value(st, v[1]) < 0)) {
        return NULL;
    }
    PyObject *x = v[0], *value = takes_value ? v[1] : NULL;
    PyObject *order = kw[C_ORDER], *usm_type = kw[C_USM_TYPE];
    PyObject *device = kw[C_DEVICE], *queue = kw[C_QUEUE];
    creation c;
    c.type = (ua_typenum)ARR(x)->typenum;
    char ord = 'K';
    if ((order && ua_py_parse_order(order, "CFAK", &ord) < 0) ||
        parse_creation(st, &c, NULL, kw[C_DTYPE], NULL, NULL, usm_type, NULL) <
            0) {
        return NULL;
    }
    Py_CLEAR(c.queue);
    if (usm_type == NULL || usm_type == Py_None) {
        c.kind = base_of(x)->kind;
    }
    if ((c.queue = ua_py_target_queue(st, device, queue, base_of(x)->queue)) ==
        NULL) {
        return NULL;
    }
    c.nd = ARR(x)->nd;
    memcpy(c.shape, ARR(x)->shape, (size_t)c.nd * sizeof(Py_ssize_t));
    c.like = ARR(x)->strides;
    c.order = ua_layout_resolve_order(ARR(x)->flags, ord);
    PyObject *a = make_empty(st, &c);
    if (a != NULL && takes_value) {
        return fill_with(st, a, value);
    }
    int rc = a ? 0 : -1;
    if (rc == 0 && fill == 0) {
        rc = zero_fill(st, a);
    } else if (rc == 0 && fill == 1) {
        PyObject *one = PyLong_FromLong(1);
        rc = one ? ua_py_array_assign(st, a, one) : -1;
        Py_XDECREF(one);
    }
    if (rc < 0) {
        Py_CLEAR(a);
    }
    return a;
}

#define LIKE(name, fill, takes_value)                                         \
    static PyObject *name(PyObject *m, PyObject *const *args, Py_ssize_t n,   \
                          PyObject *kwnames)                                  \
    {                                                                         \
        return like(m, args, n, kwnames, #name, fill, takes_value);           \
    }
LIKE(empty_like, -1, 0)
LIKE(zeros_like, 0, 0)
LIKE(ones_like, 1, 0)
LIKE(full_like, -1, 1)

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

PyMethodDef ua_py_array_functions[] = {
    {"asarray", KW(asarray), UA_DOC_ASARRAY},
    {"from_dlpack", KW(ua_py_from_dlpack), UA_DOC_FROM_DLPACK},
    {"_rebuild_array", ua_py_rebuild_array, METH_VARARGS,
     "Unpickles a USMArray."},
    {"asnumpy", KW(asnumpy), UA_DOC_ASNUMPY},
    {"copy", KW(copy), UA_DOC_COPY},
    {"empty", KW(empty), UA_DOC_EMPTY},
    {"zeros", KW(zeros), UA_DOC_FILLED("zeros", "zeros")},
    {"ones", KW(ones), UA_DOC_FILLED("ones", "ones")},
    {"full", KW(full), UA_DOC_FULL},
    {"empty_like", KW(empty_like),
     UA_DOC_LIKE("empty_like", "its elements not initialised")},
    {"zeros_like", KW(zeros_like),
     UA_DOC_LIKE("zeros_like", "filled with zeros")},
    {"ones_like", KW(ones_like), UA_DOC_LIKE("ones_like", "filled with ones")},
    {"full_like", KW(full_like), UA_DOC_FULL_LIKE},
    {0},
};
