/* usmarray.USMArray: an N-dimensional strided view of USM memory, with the
 * object layout of the source document (usmarray/usmarray_api.h).  This
 * file holds the type: the constructor, the attributes, traversal and the
 * type's tables.  Its other slots and methods live beside their concept:
 * array_views.c, array_copy.c, array_host.c, array_protocols.c, suai.c,
 * cai.c and dlpack_export.c; the making of array objects that they share,
 * and tp_dealloc, in array_make.c, below them all. */
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

#include <structmember.h> /* T_PYSSIZET on 3.11 */

#define SUAI "__sycl_usm_array_interface__"

/* --------------------------------------------------------- constructor */

typedef struct {
    int nd;
    Py_ssize_t shape[UA_MAXDIMS];
    Py_ssize_t strides[UA_MAXDIMS];
    ua_typenum type;
    Py_ssize_t offset;
    char order;
} layout_args;

static int
parse_strides(PyObject *obj, layout_args *l)
{
    int n;
    if (obj == Py_None) {
        ua_layout_default_strides(l->nd, l->shape, l->order, l->strides);
        return 0;
    }
    /* What is not a sequence is a wrong value, as dpctl's constructor has
     * it (ValueError); a sequence of non-integers a wrong type. */
    if (PyIndex_Check(obj) || !PySequence_Check(obj) || PyUnicode_Check(obj) ||
        PyBytes_Check(obj)) {
        PyErr_Format(PyExc_ValueError,
                     "strides must be None or a sequence of integers, not "
                     "%.100s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (ua_py_parse_ints(obj, "strides", l->strides, &n) < 0) {
        return -1;
    }
    if (n != l->nd) {
        PyErr_Format(PyExc_ValueError,
                     "strides has %d entries but shape has %d", n, l->nd);
        return -1;
    }
    return 0;
}

Py_ssize_t
ua_py_layout_span(ua_state *st, int nd, const Py_ssize_t *shape,
                  const Py_ssize_t *strides, ua_typenum t, Py_ssize_t *offset)
{
    ptrdiff_t lo, hi, span;
    bool empty;
    size_t isz = ua_dtype_itemsize(t);
    if (ua_layout_displacements(nd, shape, strides, &lo, &hi, &empty) !=
        UA_OK) {
        return ua_py_fail_core(st, ua_error_code());
    }
    /* lo may be -2**63 (a stride of -2**63 on an axis of two): the span
     * is then beyond any allocation, and -lo does not exist. */
    if (__builtin_sub_overflow(hi, lo, &span) ||
        span >= PY_SSIZE_T_MAX / (Py_ssize_t)isz) {
        PyErr_SetString(PyExc_ValueError,
                        "strides and shape reach more bytes than can be "
                        "addressed");
        return -1;
    }
    *offset = -lo;
    return (span + 1) * (Py_ssize_t)isz;
}

/* Allocates exactly the elements the layout reaches. */
static PyObject *
allocate_for_layout(ua_state *st, layout_args *l, ua_usm_kind kind,
                    PyObject *ctor_kwargs)
{
    if (l->offset != 0) {
        PyErr_SetString(PyExc_ValueError,
                        "offset must be 0 when buffer asks for a new "
                        "allocation: the offset is then computed");
        return NULL;
    }
    Py_ssize_t nbytes = ua_py_layout_span(st, l->nd, l->shape, l->strides,
                                          l->type, &l->offset);
    if (nbytes < 0) {
        return NULL;
    }
    PyObject *queue = NULL, *alignment = NULL;
    size_t align = 0;
    if (ctor_kwargs != NULL) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(ctor_kwargs, &pos, &key, &value)) {
            const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : "";
            if (k != NULL && strcmp(k, "queue") == 0) {
                queue = value;
            } else if (k != NULL && strcmp(k, "alignment") == 0) {
                alignment = value;
            } else if (k == NULL || strcmp(k, "copy") != 0) {
                PyErr_Format(PyExc_TypeError,
                             "buffer_ctor_kwargs has unknown key %R (expected "
                             "'queue', 'alignment' or 'copy')",
                             key);
                return NULL;
            }
        }
    }
    /* Held: the alignment's __index__ may change the caller's dict. */
    Py_XINCREF(queue);
    Py_XINCREF(alignment);
    int bad = alignment != NULL &&
              ua_py_parse_alignment(
                  alignment, "buffer_ctor_kwargs['alignment']", &align) < 0;
    Py_XDECREF(alignment);
    PyObject *q =
        bad ? NULL : ua_py_as_queue(st, queue, "buffer_ctor_kwargs['queue']");
    Py_XDECREF(queue);
    if (q == NULL) {
        return NULL;
    }
    PyObject *mem = ua_py_memory_new(st, kind, nbytes, align, q);
    Py_DECREF(q);
    return mem;
}

static PyObject *
buffer_memory(ua_state *st, PyObject *buffer, layout_args *l,
              PyObject *ctor_kwargs)
{
    if (buffer == NULL) {
        return allocate_for_layout(st, l, UA_USM_DEVICE, ctor_kwargs);
    }
    /* b"device" names a kind too, as dpctl's constructor takes it. */
    if (PyUnicode_Check(buffer) || PyBytes_Check(buffer)) {
        const char *s = PyBytes_Check(buffer) ? PyBytes_AS_STRING(buffer)
                                              : PyUnicode_AsUTF8(buffer);
        ua_usm_kind kind;
        if (s == NULL) {
            return NULL;
        }
        if (ua_usm_kind_parse(s, &kind) != UA_OK) {
            ua_error_clear();
            PyErr_Format(PyExc_ValueError,
                         "buffer must be 'device', 'shared', 'host', a "
                         "usmarray.Memory or a USMArray, not %R",
                         buffer);
            return NULL;
        }
        return allocate_for_layout(st, l, kind, ctor_kwargs);
    }
    if (ctor_kwargs != NULL && PyDict_GET_SIZE(ctor_kwargs) > 0) {
        PyErr_SetString(PyExc_ValueError,
                        "buffer_ctor_kwargs apply only when buffer asks for a "
                        "new allocation");
        return NULL;
    }
    if (PyObject_TypeCheck(buffer, st->Memory_Type)) {
        return Py_NewRef(buffer);
    }
    if (PyObject_TypeCheck(buffer, st->USMArray_Type)) {
        return Py_NewRef(ARR(buffer)->base);
    }
    PyErr_Format(PyExc_ValueError,
                 "buffer must be 'device', 'shared', 'host', a "
                 "usmarray.Memory or a USMArray, not %.100s",
                 Py_TYPE(buffer)->tp_name);
    return NULL;
}

int
ua_py_layout_check_fits(ua_state *st, int nd, const Py_ssize_t *shape,
                        const Py_ssize_t *strides, Py_ssize_t offset,
                        ua_typenum t, PyObject *memory)
{
    ptrdiff_t begin, end;
    Py_ssize_t nbytes = ((ua_py_memory *)memory)->nbytes;
    if (offset < 0) {
        PyErr_Format(PyExc_ValueError, "offset must not be negative, not %zd",
                     offset);
        return -1;
    }
    if (ua_layout_byte_range(nd, shape, strides, offset, ua_dtype_itemsize(t),
                             &begin, &end) != UA_OK) {
        return ua_py_fail_core(st, ua_error_code());
    }
    if (begin < 0 || end > nbytes) {
        PyErr_Format(PyExc_ValueError,
                     "shape, strides and offset reach bytes [%zd, %zd) of a "
                     "buffer of %zd bytes",
                     (Py_ssize_t)begin, (Py_ssize_t)end, nbytes);
        return -1;
    }
    return 0;
}

enum { A_SHAPE, A_DTYPE, A_BUFFER, A_STRIDES, A_OFFSET, A_ORDER, A_CTOR, A_N };
static const char *const array_kwlist[] = {"shape",
                                           "dtype",
                                           "buffer",
                                           "strides",
                                           "offset",
                                           "order",
                                           "buffer_ctor_kwargs",
                                           NULL};
static const ua_py_argspec array_args = {"USMArray", array_kwlist, A_N, 1};

static int
parse_layout(ua_state *st, PyObject **v, layout_args *l)
{
    PyObject *ctor = v[A_CTOR];
    if (ctor != NULL && !PyDict_Check(ctor)) {
        PyErr_Format(PyExc_TypeError,
                     "buffer_ctor_kwargs must be dict, not %.100s",
                     Py_TYPE(ctor)->tp_name);
        return -1;
    }
    if (ua_py_parse_shape(v[A_SHAPE], "shape", l->shape, &l->nd) < 0 ||
        (v[A_DTYPE] != NULL && ua_py_typenum(st, v[A_DTYPE], &l->type) < 0) ||
        (v[A_ORDER] != NULL &&
         ua_py_parse_order(v[A_ORDER], "CF", &l->order) < 0) ||
        (v[A_OFFSET] != NULL &&
         ua_py_index(v[A_OFFSET], "offset", &l->offset) < 0)) {
        return -1;
    }
    return parse_strides(v[A_STRIDES] ? v[A_STRIDES] : Py_None, l);
}

static PyObject *
array_construct(ua_state *st, PyObject **v)
{
    layout_args l; /* not zeroed: its two arrays are 1 KiB */
    l.order = 'C';
    l.type = UA_FLOAT64;
    l.offset = 0;
    if (parse_layout(st, v, &l) < 0) {
        return NULL;
    }
    PyObject *mem = buffer_memory(st, v[A_BUFFER], &l, v[A_CTOR]);
    if (mem == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    ua_py_memory *m = (ua_py_memory *)mem;
    /* A read-only array lends its memory read-only, as NumPy's does. */
    PyObject *buffer = v[A_BUFFER];
    int lent_readonly = buffer != NULL &&
                        PyObject_TypeCheck(buffer, st->USMArray_Type) &&
                        !(ARR(buffer)->flags & USM_ARRAY_WRITABLE);
    /* The fit check ran the checks of ua_py_array_new (byte range). */
    if (ua_py_layout_check_fits(st, l.nd, l.shape, l.strides, l.offset, l.type,
                                mem) == 0) {
        result = ua_py_array_make(
            st, l.nd, l.shape, l.strides, l.type,
            m->ptr + l.offset * (Py_ssize_t)ua_dtype_itemsize(l.type), mem,
            !m->readonly && !lent_readonly);
    }
    Py_DECREF(mem);
    return result;
}

static PyObject *
array_tp_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *v[A_N] = {NULL};
    if (ua_py_parse_tuple(&array_args, args, kwargs, v) < 0) {
        return NULL;
    }
    return array_construct(ua_state_of_type(type), v);
}

/* Calls of USMArray itself skip building an argument tuple and dict. */
static PyObject *
array_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf,
                 PyObject *kwnames)
{
    PyObject *v[A_N] = {NULL};
    if (ua_py_parse_fast(&array_args, args, (Py_ssize_t)nargsf, kwnames, v) <
        0) {
        return NULL;
    }
    return array_construct(ua_state_of_type((PyTypeObject *)type), v);
}

/* ---------------------------------------------------------- attributes */

static PyObject *
get_shape(PyObject *self, void *Py_UNUSED(c))
{
    return ua_py_int_tuple(ARR(self)->nd, ARR(self)->shape);
}

static PyObject *
get_strides(PyObject *self, void *Py_UNUSED(c))
{
    return ua_py_int_tuple(ARR(self)->nd, ARR(self)->strides);
}

static PyObject *
get_ndim(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(ARR(self)->nd);
}

static PyObject *
get_size(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromSsize_t(ua_py_array_size(self));
}

static PyObject *
get_itemsize(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromSize_t(ua_py_array_itemsize(self));
}

static PyObject *
get_nbytes(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromSsize_t(ua_py_array_size(self) *
                              (Py_ssize_t)ua_py_array_itemsize(self));
}

static PyObject *
get_dtype(PyObject *self, void *Py_UNUSED(c))
{
    PyObject *dt =
        ua_py_dtype(ua_state_of(self), (ua_typenum)ARR(self)->typenum);
    return Py_XNewRef(dt);
}

static PyObject *
get_usm_type(PyObject *self, void *Py_UNUSED(c))
{
    return PyUnicode_FromString(ua_usm_kind_name(base_of(self)->kind));
}

static PyObject *
get_queue(PyObject *self, void *Py_UNUSED(c))
{
    return Py_NewRef(base_of(self)->queue);
}

static PyObject *
get_dpctl(PyObject *self, void *which)
{
    return ua_py_queue_dpctl(ua_state_of(self), base_of(self)->queue,
                             (ua_py_dpctl_object)(intptr_t)which);
}

static PyObject *
get_device(PyObject *self, void *Py_UNUSED(c))
{
    return Py_NewRef(((ua_py_queue *)base_of(self)->queue)->device);
}

static PyObject *
get_base(PyObject *self, void *Py_UNUSED(c))
{
    return Py_NewRef(ARR(self)->base);
}

static PyObject *
get_flags(PyObject *self, void *Py_UNUSED(c))
{
    return ua_py_flags_new(ua_state_of(self), self);
}

static PyObject *
get_pointer(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromVoidPtr(ARR(self)->data);
}

static PyObject *
get_element_offset(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromSsize_t(ua_py_array_element_offset(self));
}

static PyObject *
get_byte_bounds(PyObject *self, void *Py_UNUSED(c))
{
    ptrdiff_t begin, end;
    ua_layout_byte_range(ARR(self)->nd, ARR(self)->shape, ARR(self)->strides,
                         0, ua_py_array_itemsize(self), &begin, &end);
    uintptr_t p = (uintptr_t)ARR(self)->data;
    return Py_BuildValue("(NN)", PyLong_FromSize_t(p + (uintptr_t)begin),
                         PyLong_FromSize_t(p + (uintptr_t)end));
}

/* ------------------------------------------------------------ lifetime */

static int
array_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(ARR(self)->base);
    return 0;
}

/* ---------------------------------------------------------------- type */

static PyGetSetDef array_getset[] = {
    UA_PY_DPCTL_GETSET(get_dpctl, "the array's"),
    {"shape", get_shape, ua_py_array_set_shape,
     "Extent of each axis; setting it reshapes the array in place.", NULL},
    {"strides", get_strides, NULL, "Strides in elements.", NULL},
    {"ndim", get_ndim, NULL, "Number of axes.", NULL},
    {"size", get_size, NULL, "Number of elements.", NULL},
    {"itemsize", get_itemsize, NULL, "Bytes per element.", NULL},
    {"nbytes", get_nbytes, NULL, "size * itemsize.", NULL},
    {"dtype", get_dtype, NULL, "The element type, a numpy.dtype.", NULL},
    {"usm_type", get_usm_type, NULL, "'device', 'shared' or 'host'.", NULL},
    {"queue", get_queue, NULL, "The Queue of the memory.", NULL},
    {"device", get_device, NULL, "The Device of the memory.", NULL},
    {"base", get_base, NULL, "The Memory that owns the elements.", NULL},
    {"flags", get_flags, NULL, "C-/F-contiguity and writability.", NULL},
    {"_pointer", get_pointer, NULL, "Address of the zero-index element.",
     NULL},
    {"_element_offset", get_element_offset, NULL,
     "Elements from the start of base to the zero-index element.", NULL},
    {"_byte_bounds", get_byte_bounds, NULL,
     "(first, one past last) byte addresses the elements occupy.", NULL},
    {"T", ua_py_array_get_T, NULL, "The transpose of a 2-D array.", NULL},
    {"mT", ua_py_array_get_mT, NULL, "The last two axes swapped.", NULL},
    {"real", ua_py_array_get_real, NULL, "The real part (a view for complex).",
     NULL},
    {"imag", ua_py_array_get_imag, NULL,
     "The imaginary part (a view for complex, read-only zeros otherwise).",
     NULL},
    {SUAI, ua_py_array_get_suai, NULL,
     "The array's __sycl_usm_array_interface__.", NULL},
    {"__cuda_array_interface__", ua_py_array_cai, NULL,
     "The array's __cuda_array_interface__ (version 3), for memory a CUDA "
     "device reaches; absent otherwise.",
     NULL},
    {"__array_interface__", ua_py_array_get_array_interface, NULL,
     "NumPy's array interface (v3), for host-accessible memory only.", NULL},
    {0},
};

static PyMethodDef array_methods[] = {
    {"reshape", (PyCFunction)(void (*)(void))ua_py_array_reshape_method,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_ARRAY_RESHAPE},
    {"transpose", ua_py_array_transpose, METH_VARARGS, UA_DOC_ARRAY_TRANSPOSE},
    {"copy", (PyCFunction)(void (*)(void))ua_py_array_copy_method,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_ARRAY_COPY},
    {"astype", (PyCFunction)(void (*)(void))ua_py_array_astype,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_ARRAY_ASTYPE},
    {"to_device", (PyCFunction)(void (*)(void))ua_py_array_to_device,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_ARRAY_TO_DEVICE},
    {"__array__", (PyCFunction)(void (*)(void))ua_py_array_dunder_array,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_ARRAY_DUNDER_ARRAY},
    {"__dlpack__", (PyCFunction)(void (*)(void))ua_py_array_dlpack,
     METH_FASTCALL | METH_KEYWORDS, UA_DOC_ARRAY_DLPACK},
    {"__array_namespace__", (PyCFunction)(void (*)(void))ua_py_array_namespace,
     METH_FASTCALL | METH_KEYWORDS, UA_DOC_ARRAY_NAMESPACE},
    {"__dlpack_device__", ua_py_array_dlpack_device, METH_NOARGS,
     UA_DOC_ARRAY_DLPACK_DEVICE},
    {"fill", ua_py_array_fill, METH_O, UA_DOC_ARRAY_FILL},
    {"item", ua_py_array_item, METH_VARARGS, UA_DOC_ARRAY_ITEM},
    {"tolist", ua_py_array_tolist, METH_NOARGS, UA_DOC_ARRAY_TOLIST},
    {"__complex__", ua_py_array_complex, METH_NOARGS,
     "__complex__($self, /)\n--\n\nThe element of a 0-d array as a complex."},
    {"__format__", ua_py_array_format, METH_O,
     "__format__($self, spec, /)\n--\n\nA 0-d array formats as its element."},
    {"__copy__", ua_py_array_copy_protocol, METH_NOARGS,
     "__copy__($self, /)\n--\n\nA copy in new memory of the same USM kind, on "
     "the "
     "same queue."},
    {"__array_ufunc__", (PyCFunction)(void (*)(void))ua_py_array_ufunc,
     METH_VARARGS | METH_KEYWORDS,
     "__array_ufunc__($self, ufunc, method, /, *inputs, **kwargs)\n--\n\n"
     "NumPy's ufuncs called on the array run the namespace's function of "
     "the same meaning; others raise TypeError."},
    {"__array_function__", ua_py_array_function, METH_VARARGS,
     "__array_function__($self, func, types, args, kwargs, /)\n--\n\n"
     "NumPy's functions called on the array run the namespace's "
     "counterpart where one exists; others run NumPy's on zero-copy views "
     "of host-accessible memory and raise TypeError for a GPU's device "
     "memory."},
    {"squeeze", (PyCFunction)(void (*)(void))ua_py_array_squeeze,
     METH_VARARGS | METH_KEYWORDS,
     "squeeze($self, /, axis=None)\n--\n\nThe array without the given "
     "length-1 axes (every one where axis is None), as usmarray.squeeze "
     "gives it; NumPy's and CuPy's arrays have this method."},
    {"__deepcopy__", ua_py_array_copy_protocol, METH_O,
     "__deepcopy__($self, memo, /)\n--\n\nAs __copy__: elements hold no "
     "references."},
    {"__reduce__", ua_py_array_reduce, METH_NOARGS,
     "__reduce__($self, /)\n--\n\nPickles by copy: unpickling allocates "
     "memory of "
     "the same USM kind on the same device."},
    {0},
};

static PyMemberDef array_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(PyUSMArrayObject, weakreflist),
     READONLY, NULL},
    {0},
};

static PyType_Slot array_slots[] = {
    {Py_tp_doc, UA_DOC_USMARRAY},
    {Py_tp_new, array_tp_new},
    {Py_tp_dealloc, ua_py_array_dealloc},
    {Py_tp_traverse, array_traverse},
    {Py_tp_repr, ua_py_array_repr},
    {Py_tp_str, ua_py_array_str},
    {Py_tp_getset, array_getset},
    {Py_tp_methods, array_methods},
    {Py_tp_members, array_members},
    {Py_mp_subscript, ua_py_array_subscript},
    {Py_mp_ass_subscript, ua_py_array_ass_subscript},
    {Py_mp_length, ua_py_array_sq_length},
    {Py_sq_length, ua_py_array_sq_length},
    {Py_sq_item, ua_py_array_sq_item},
    {Py_tp_iter, ua_py_array_iter},
    {Py_tp_richcompare, ua_py_array_richcompare},
    {Py_tp_hash, PyObject_HashNotImplemented},
    {Py_nb_bool, ua_py_array_bool},
    {Py_nb_int, ua_py_array_int},
    {Py_nb_float, ua_py_array_float},
    {Py_nb_index, ua_py_array_index},
    {Py_nb_matrix_multiply, ua_py_array_matmul},
    {Py_nb_inplace_matrix_multiply, ua_py_array_imatmul},
    {Py_bf_getbuffer, ua_py_array_getbuffer},
    {Py_bf_releasebuffer, ua_py_array_releasebuffer},
    {0, NULL},
};

/* array_slots followed by the operators' (array_operators.c). */
static PyType_Slot all_slots[sizeof array_slots / sizeof array_slots[0] + 64];

static PyType_Spec array_spec = {
    .name = "usmarray.USMArray",
    .basicsize = sizeof(PyUSMArrayObject),
    .flags =
        Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = all_slots,
};

static void
gather_slots(void)
{
    size_t n = 0;
    for (const PyType_Slot *s = array_slots; s->slot != 0; s++) {
        all_slots[n++] = *s;
    }
    for (const PyType_Slot *s = ua_py_array_operator_slots; s->slot != 0;
         s++) {
        all_slots[n++] = *s;
    }
    all_slots[n] = (PyType_Slot){0, NULL};
}

int
ua_py_array_add_type(PyObject *module, ua_state *st)
{
    gather_slots();
    st->USMArray_Type =
        (PyTypeObject *)PyType_FromModuleAndSpec(module, &array_spec, NULL);
    if (st->USMArray_Type == NULL) {
        return -1;
    }
    st->USMArray_Type->tp_vectorcall = array_vectorcall;
    return PyModule_AddType(module, st->USMArray_Type);
}
