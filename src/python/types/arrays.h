/* USMArray's files: array.c (the type), array_make.c (making and ending
 * array objects: ua_py_array_new, ua_py_array_empty, ua_py_array_snapshot,
 * tp_dealloc), array_views.c, array_copy.c, array_host.c,
 * array_protocols.c, and the module functions of functions.c. */
#ifndef UA_PY_ARRAYS_H
#define UA_PY_ARRAYS_H

#include "python/base/freelist.h"
#include "core/compute/compute.h"
#include "python/base/objects.h"
#include "python/base/state.h"

static inline size_t
ua_py_array_itemsize(PyObject *self)
{
    return ua_dtype_itemsize((ua_typenum)ARR(self)->typenum);
}

/* ua_py_array_new refused every shape whose non-zero extents overflow. */
static inline Py_ssize_t
ua_py_array_size(PyObject *self)
{
    Py_ssize_t n = 1;
    for (int k = 0; k < ARR(self)->nd; k++) {
        if (ARR(self)->shape[k] == 0) {
            return 0;
        }
        n *= ARR(self)->shape[k];
    }
    return n;
}

static inline ua_strided
ua_py_array_strided(PyObject *self)
{
    return (ua_strided){ARR(self)->data, ARR(self)->strides,
                        (ua_typenum)ARR(self)->typenum};
}

static inline Py_ssize_t
ua_py_array_element_offset(PyObject *self)
{
    return (Py_ssize_t)(ARR(self)->data - base_of(self)->ptr) /
           (Py_ssize_t)ua_py_array_itemsize(self);
}

int ua_py_array_add_type(PyObject *module, ua_state *st);
/* USMArray's tp_dealloc, which keeps freed arrays (freelist.h). */
void ua_py_array_dealloc(PyObject *self);

/* The array object, for a layout whose counts are known to fit (checked
 * already, or derived from a checked array).  Inline: views, the
 * constructor and SUAI imports are per-call hot paths in three files. */
static inline PyObject *
ua_py_array_make(ua_state *st, int nd, const Py_ssize_t *shape,
                 const Py_ssize_t *strides, ua_typenum t, char *data,
                 PyObject *base, int writable)
{
    PyUSMArrayObject *a = (PyUSMArrayObject *)ua_freelist_alloc(
        &ua_array_freelist, st->USMArray_Type, ua_py_array_dealloc);
    if (a == NULL) {
        return NULL;
    }
    if (nd <= USM_ARRAY_INLINE_DIMS) {
        a->shape = a->inline_dims;
        a->strides = a->inline_dims + USM_ARRAY_INLINE_DIMS;
    } else {
        a->shape = PyMem_Malloc(2 * (size_t)nd * sizeof(Py_ssize_t));
        if (a->shape == NULL) {
            Py_DECREF(a);
            return PyErr_NoMemory();
        }
        a->strides = a->shape + nd;
    }
    a->nd = nd;
    if (nd > 0) {
        memcpy(a->shape, shape, (size_t)nd * sizeof(Py_ssize_t));
        memcpy(a->strides, strides, (size_t)nd * sizeof(Py_ssize_t));
    }
    a->typenum = (int)t;
    a->data = data;
    a->base = Py_NewRef(base);
    a->flags =
        ua_layout_contiguity(nd, shape, strides) |
        (writable && !((ua_py_memory *)base)->readonly ? USM_ARRAY_WRITABLE
                                                       : 0);
    return (PyObject *)a;
}
/* Slots, getters and methods of USMArray defined beside their concept:
 * array_views.c (indexing and views), */
PyObject *ua_py_array_get_T(PyObject *self, void *closure);
PyObject *ua_py_array_get_mT(PyObject *self, void *closure);
PyObject *ua_py_array_get_real(PyObject *self, void *closure);
PyObject *ua_py_array_get_imag(PyObject *self, void *closure);
PyObject *ua_py_array_subscript(PyObject *self, PyObject *key);
PyObject *ua_py_array_reshape_method(PyObject *self, PyObject *args,
                                     PyObject *kwargs);
int ua_py_array_set_shape(PyObject *self, PyObject *value, void *closure);
PyObject *ua_py_array_transpose(PyObject *self, PyObject *args);
int ua_py_array_ass_subscript(PyObject *self, PyObject *key, PyObject *value);
/* array_copy.c (copies and assignment), */
PyObject *ua_py_array_copy_method(PyObject *self, PyObject *args,
                                  PyObject *kwargs);
PyObject *ua_py_array_astype(PyObject *self, PyObject *args, PyObject *kwargs);
/* astype's dtype: None is the default floating dtype of the device of
 * queue (dpctl's), and casting (NULL or None: any) is checked by NumPy's
 * rules ('no', 'equiv', 'safe', 'same_kind', 'unsafe'). */
int ua_py_astype_dtype(ua_state *st, PyObject *x, PyObject *dtype,
                       PyObject *casting, PyObject *queue, ua_typenum *t);
/* Whether x's dtype casts to t by NumPy's rule named casting (NULL or
 * None: unsafe, any), through numpy.can_cast; TypeError if not. */
int ua_py_check_casting(ua_state *st, PyObject *x, ua_typenum t,
                        PyObject *casting);
PyObject *ua_py_array_to_device(PyObject *self, PyObject *args,
                                PyObject *kwargs);
PyObject *ua_py_array_fill(PyObject *self, PyObject *value);
/* array_host.c (the host protocols), */
/* Whether the host may read x's memory: shared and host memory, and
 * every kind on a backend whose memory is CPU memory (the host's). */
int ua_py_array_host_accessible(PyObject *self);
PyObject *ua_py_array_get_array_interface(PyObject *self, void *closure);
int ua_py_array_getbuffer(PyObject *self, Py_buffer *view, int flags);
void ua_py_array_releasebuffer(PyObject *self, Py_buffer *view);
PyObject *ua_py_array_dunder_array(PyObject *self, PyObject *args,
                                   PyObject *kwargs);
/* array_protocols.c (the Python protocols). */
PyObject *ua_py_array_repr(PyObject *self);
PyObject *ua_py_array_str(PyObject *self);
/* The exchange protocols, defined in protocols/ (a layer above, which
 * this header declares them for, so that types/ includes no protocol
 * header): __sycl_usm_array_interface__ (suai.c), __cuda_array_interface__
 * (cai.c; AttributeError where CUDA cannot reach the memory), __dlpack__
 * and __dlpack_device__ (dlpack_export.c). */
PyObject *ua_py_array_get_suai(PyObject *self, void *closure);
PyObject *ua_py_memory_get_suai(PyObject *self, void *closure);
PyObject *ua_py_array_cai(PyObject *self, void *closure);
PyObject *ua_py_array_dlpack(PyObject *self, PyObject *const *args,
                             Py_ssize_t nargs, PyObject *kwnames);
PyObject *ua_py_array_dlpack_device(PyObject *self, PyObject *unused);
/* __array_namespace__, defined by namespace/array_api.c. */
PyObject *ua_py_array_namespace(PyObject *self, PyObject *const *args,
                                Py_ssize_t nargs, PyObject *kwnames);
int ua_py_flags_add_type(PyObject *module, ua_state *st);
PyObject *ua_py_flags_new(ua_state *st, PyObject *array);

/* A new array over self's elements with self's layout, which no other
 * code holds: work that reads a layout across user code or without the
 * GIL reads it from there, since another thread or a hook may reshape
 * self in place meanwhile. */
PyObject *ua_py_array_snapshot(PyObject *self);
/* A view of base (a Memory) with data at the zero-index element. */
PyObject *ua_py_array_new(ua_state *st, int nd, const Py_ssize_t *shape,
                          const Py_ssize_t *strides, ua_typenum t, char *data,
                          PyObject *base, int writable);
/* The bytes an allocation for the layout needs (-1 with an exception),
 * and in *offset the element offset of the zero-index element in it: with
 * negative strides that element moves up so that the lowest one starts the
 * allocation. */
Py_ssize_t ua_py_layout_span(ua_state *st, int nd, const Py_ssize_t *shape,
                             const Py_ssize_t *strides, ua_typenum t,
                             Py_ssize_t *offset);
/* 0 when every element of the layout, from `offset` elements into memory
 * (a Memory), lies inside it; -1 with ValueError saying which bytes not. */
int ua_py_layout_check_fits(ua_state *st, int nd, const Py_ssize_t *shape,
                            const Py_ssize_t *strides, Py_ssize_t offset,
                            ua_typenum t, PyObject *memory);
/* A new allocation of `kind` on queue, laid out in order 'C', 'F' or 'K'
 * (the memory order of the strides `like`, which 'K' needs). */
PyObject *ua_py_array_empty(ua_state *st, int nd, const Py_ssize_t *shape,
                            const Py_ssize_t *like, ua_typenum t, char order,
                            ua_usm_kind kind, PyObject *queue);
/* A copy of src as type t in order 'C', 'F' or 'K', of `kind` on queue. */
/* What the user asks for with order 'K' (copy(order='K'), astype, asarray
 * and the *_like functions): as ua_py_array_copy, but the copy keeps the
 * signs of src's strides, as dpctl's order 'K' does (NumPy's makes them
 * positive).  The library's own copies (DLPack's, to_device's, pickling's)
 * stay positive: PyTorch aborts on negative strides. */
PyObject *ua_py_array_copy_signed(ua_state *st, PyObject *src, ua_typenum t,
                                  char order, ua_usm_kind kind,
                                  PyObject *queue);
/* out, a new array of order 'K' made like strides `like`, as a view with
 * like's negative strides (steals out). */
PyObject *ua_py_array_keep_signs(ua_state *st, PyObject *out,
                                 const Py_ssize_t *like);
PyObject *ua_py_array_copy(ua_state *st, PyObject *src, ua_typenum t,
                           char order, ua_usm_kind kind, PyObject *queue);
/* astype's work, for the method and the namespace's function: x as type t
 * in order on queue (x's own or another device's), of x's USM kind; x
 * itself where copy is 0 and nothing would change. */
PyObject *ua_py_array_cast(ua_state *st, PyObject *x, ua_typenum t, char order,
                           int copy, PyObject *queue);
/* Writes value (an array, a scalar or host data) into dst, broadcasting. */
int ua_py_array_assign(ua_state *st, PyObject *dst, PyObject *value);
/* A C-ordered numpy.ndarray with a copy of the elements. */
PyObject *ua_py_array_to_numpy(ua_state *st, PyObject *array);
/* A zero-copy array of an object exposing __sycl_usm_array_interface__
 * (defined by protocols/memory_import.c). */
PyObject *ua_py_array_from_suai(ua_state *st, PyObject *obj);
/* A view with new_shape where the layout allows, else a copy. */
PyObject *ua_py_array_reshape(ua_state *st, PyObject *array, int nd,
                              const Py_ssize_t *shape, char order, int copy);
/* The axes of array in the order perm gives (already validated). */
PyObject *ua_py_array_permute(PyObject *array, const int *perm);
/* Runs a strided copy on queue, without the GIL when it is long. */
int ua_py_copy_strided(ua_state *st, PyObject *queue, int nd,
                       const Py_ssize_t *shape, const ua_strided *dst,
                       const ua_strided *src);

/* array_index.c: indexing by integer arrays and boolean masks.  Whether a
 * key holds an array item (then the advanced functions apply); x[key];
 * x[key] = value; take along one axis (x's, already normalized) and
 * take_along_axis. */
int ua_py_index_is_advanced(ua_state *st, PyObject *key);
PyObject *ua_py_array_advanced_get(PyObject *self, PyObject *key);
int ua_py_array_advanced_set(PyObject *self, PyObject *key, PyObject *value);
PyObject *ua_py_array_take(ua_state *st, PyObject *x, PyObject *indices,
                           int axis);
/* take into dest where it is not NULL (out=: the caller has checked it,
 * and that it meets neither x nor the indices). */
PyObject *ua_py_array_take_out(ua_state *st, PyObject *x, PyObject *indices,
                               int axis, PyObject *dest);
PyObject *ua_py_array_take_along_axis(ua_state *st, PyObject *x,
                                      PyObject *indices, int axis);
/* x's elements at indices along axis (0 for a 0-d x) set to vals, which
 * broadcast to take's result shape: x[..., indices, ...] = vals. */
int ua_py_array_put(ua_state *st, PyObject *x, PyObject *indices,
                    PyObject *vals, int axis);
/* indices (an array of ours or host data) as an int64 array of x's queue:
 * IndexError for a boolean or non-integer one; uint64 ones past int64's
 * range saturate at its largest value. */
PyObject *ua_py_integer_indices(ua_state *st, PyObject *x, PyObject *indices,
                                const char *fn);
/* array_mask.c: a mask's true elements' coordinates, (count, mask.ndim)
 * int64; x[mask] for a mask over x's leading axes (of their shape) where
 * those axes merge into one and the rows after them are dense. */
PyObject *ua_py_mask_coordinates(ua_state *st, PyObject *mask);
PyObject *ua_py_mask_rows(ua_state *st, PyObject *x, PyObject *mask);

/* array_protocols.c: the Python protocols of USMArray (slots and methods
 * of the type that array.c assembles). */
PyObject *ua_py_array_richcompare(PyObject *self, PyObject *other, int op);
/* array_elementwise.c: the catalogue's function f of the n operands
 * (arrays and Python scalars).  Where into is not NULL, the result is
 * written into that array (in-place operators: it must keep its dtype and
 * shape) and into is returned.  Where `operator` is set, an operand of an
 * unsupported type gives NotImplemented rather than TypeError (Python then
 * tries the reflected operation). */
PyObject *ua_py_elementwise(ua_state *st, ua_ew_id f, PyObject *const *ops,
                            int n, PyObject *into, bool operator);
/* A Python int o as an elementwise operand (its kind, value, and `huge`
 * with its nearest double where no 64-bit integer holds it), as the eager
 * calls read it. */
int ua_py_int_operand(PyObject *o, ua_ew_operand *op);
/* Whether o is a scalar that the elementwise call takes with its own
 * dtype (a NumPy scalar, or one of ctypes' values; ctypes' types without
 * a dtype are refused there): 1, 0, or -1 with an error raised. */
int ua_py_is_typed_scalar(ua_state *st, PyObject *o);
/* The namespace's f with its keywords: into `out` where it is not NULL
 * (checked by ua_py_check_out; inputs it overlaps are read before it is
 * written) and returned, else a new result in order 'C', 'F', 'A', 'K'
 * (dpctl's: reversed axes of the operands stay reversed) or 0 (order=
 * not given: the operands' memory order with positive strides). */
PyObject *ua_py_elementwise_out(ua_state *st, ua_ew_id f, PyObject *const *ops,
                                int n, PyObject *out, char order);
/* out= of fn, checked as dpctl checks it: an array (TypeError), writable,
 * of the result's shape and dtype t exactly (no casting, unlike an
 * in-place operator) and on the queue of x, an input (ValueError, as
 * every mix of queues is); 0, or -1 with the error raised. */
int ua_py_check_out(ua_state *st, const char *fn, PyObject *out, int nd,
                    const Py_ssize_t *shape, ua_typenum t, PyObject *x);
/* array_function.c: whether the bytes two arrays reach meet (NumPy's
 * bounds test, may_share_memory). */
bool ua_py_arrays_may_overlap(PyObject *a, PyObject *b);
/* array_operators.c: the number slots (a {0, NULL}-terminated list), and
 * NumPy's dispatch methods. */
extern PyType_Slot ua_py_array_operator_slots[];
PyObject *ua_py_array_ufunc(PyObject *self, PyObject *args, PyObject *kwargs);
/* array_function.c: __array_function__; and callable(*args, **kwargs)
 * (kwargs may be NULL) with our arrays among them (in lists and tuples
 * too) replaced by NumPy views of them where the host reaches every one,
 * NotImplemented where it does not (self is one of them). */
PyObject *ua_py_array_function(PyObject *self, PyObject *args);
PyObject *ua_py_numpy_on_host(PyObject *self, PyObject *callable,
                              PyObject *args, PyObject *kwargs);
/* (array_function.c too) x.squeeze(axis=None). */
PyObject *ua_py_array_squeeze(PyObject *self, PyObject *args,
                              PyObject *kwargs);
Py_ssize_t ua_py_array_sq_length(PyObject *self);
PyObject *ua_py_array_sq_item(PyObject *self, Py_ssize_t i);
PyObject *ua_py_array_iter(PyObject *self);
PyObject *ua_py_array_int(PyObject *self);
PyObject *ua_py_array_float(PyObject *self);
PyObject *ua_py_array_complex(PyObject *self, PyObject *unused);
PyObject *ua_py_array_index(PyObject *self);
int ua_py_array_bool(PyObject *self);
PyObject *ua_py_array_item(PyObject *self, PyObject *args);
PyObject *ua_py_array_tolist(PyObject *self, PyObject *unused);
PyObject *ua_py_array_format(PyObject *self, PyObject *spec);
PyObject *ua_py_array_copy_protocol(PyObject *self, PyObject *memo);
PyObject *ua_py_array_reduce(PyObject *self, PyObject *unused);
/* Unpickles a USMArray: (host elements, usm_type, device filter). */
PyObject *ua_py_rebuild_array(PyObject *module, PyObject *args);

/* array_matmul.c: the matrix product (x1 @ x2, conjugating x1 where
 * conj_a), and USMArray's @ and @= slots. */
PyObject *ua_py_array_matmul_of(ua_state *st, PyObject *x1, PyObject *x2,
                                bool conj_a);
/* matmul(x1, x2, out=, dtype=, order=): into out where it is not NULL
 * (checked by ua_py_check_out; a temporary first where it meets x1 or x2),
 * else a new result in order 'C', 'F', 'A' or 'K'; computed in dtype
 * (each operand cast to it, ValueError where "same_kind" casting does not
 * allow that) or, where it is -1, in the operands' promoted dtype. */
PyObject *ua_py_array_matmul_out(ua_state *st, PyObject *x1, PyObject *x2,
                                 PyObject *out, char order, int dtype);
/* The dot products of x1's and x2's vectors along their last axes, x1's
 * conjugated, over the broadcast of their other axes. */
PyObject *ua_py_array_vecdot_of(ua_state *st, PyObject *x1, PyObject *x2);
PyObject *ua_py_array_matmul(PyObject *a, PyObject *b);
PyObject *ua_py_array_imatmul(PyObject *self, PyObject *other);

/* capi.c: publishes the C API's table as the module's _C_API capsule. */
int ua_py_capi_add(PyObject *module, ua_state *st);

/* functions.c: the module's array functions. */
extern PyMethodDef ua_py_array_functions[];
PyObject *ua_py_reshape_call(ua_state *st, PyObject *self, PyObject *shape,
                             PyObject *order, PyObject *copy);

/* An array's strides in bytes, a tuple. */
PyObject *ua_py_array_byte_strides(PyObject *self);
/* The shape and the strides (None when C-contiguous; elements, or bytes
 * when in_bytes) of an array's protocol dictionaries. */
int ua_py_array_layout_tuples(PyObject *self, int in_bytes, PyObject **shape,
                              PyObject **strides);
/* An array interface's dictionary: the keys they share, {"shape",
 * "typestr", "data": (data, read-only), "strides" (as
 * ua_py_array_layout_tuples gives them), "version"}, then the keys `extra`
 * (NULL-terminated; None, for the caller to set), in that order.  *slot is
 * the module state's template of that interface, made on first use, or
 * NULL for none (no extra keys). */
PyObject *ua_py_array_interface_dict(ua_state *st, PyObject *self,
                                     int in_bytes, const void *data,
                                     int version, PyObject **slot,
                                     PyObject *const *extra);

#endif
