/* Declarations shared by the binding's files: the module state, the
 * objects' layouts and the helpers each type offers the others.  The
 * binding calls the core only, never a driver. */
#ifndef USMARRAY_BINDING_H
#define USMARRAY_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "usmarray/core.h"
#include "usmarray/dlpack.h"
#include "docstrings.h"

_Static_assert(sizeof(Py_ssize_t) == sizeof(ptrdiff_t),
               "the core's ptrdiff_t layouts are shared with Py_ssize_t");

/* Copies at least this long run with the GIL released. */
#define UA_GIL_RELEASE_BYTES (256 * 1024)

/* Releases the GIL for work of `bytes` bytes when it is long enough to be
 * worth it; ua_py_reacquire takes it back. */
static inline PyThreadState *
ua_py_release_if_long(size_t bytes)
{
    return bytes >= UA_GIL_RELEASE_BYTES ? PyEval_SaveThread() : NULL;
}

static inline void
ua_py_reacquire(PyThreadState *saved)
{
    if (saved != NULL) {
        PyEval_RestoreThread(saved);
    }
}

#define UA_DTYPE_RECENT 8

typedef struct {
    PyTypeObject *Device_Type;
    PyTypeObject *Context_Type;
    PyTypeObject *Queue_Type;
    PyTypeObject *Memory_Type;
    PyTypeObject *MemoryUSMDevice_Type;
    PyTypeObject *MemoryUSMShared_Type;
    PyTypeObject *MemoryUSMHost_Type;
    PyObject *USMAllocationError;
    /* Per global device id, created on first use: a Device, its default
     * Context and that context's default Queue. */
    size_t ndevices;
    PyObject **devices;
    PyObject **contexts;
    PyObject **queues;
    PyTypeObject *USMArray_Type;
    PyTypeObject *Flags_Type;
    PyObject *numpy_empty; /* numpy.empty, imported on first use */
    PyObject *numpy;       /* the numpy module, imported on first use */
    PyObject *dtypes[UA_NTYPES]; /* numpy.dtype objects, by dtype index */
    PyObject *dtype_lookup;      /* dtype-likes that cannot change -> typenum */
    PyObject *numpy_dtype;       /* numpy.dtype, imported with numpy */
    /* Strings and types seen lately (strong references), recognised by
     * identity before any hashing: "f8" in a caller's code is the same
     * object on every call. */
    PyObject *dtype_recent[UA_DTYPE_RECENT];
    ua_typenum dtype_recent_type[UA_DTYPE_RECENT];
    unsigned dtype_recent_next;
    PyObject *rebuild_memory; /* module function used by pickling */
    /* Interned keys of the array interfaces. */
    PyObject *s_suai, *s_shape, *s_typestr, *s_data, *s_strides, *s_offset,
        *s_version, *s_syclobj, *s_get_capsule, *s_cai, *s_stream, *s_mask,
        *s_dlpack, *s_dlpack_device;
    /* The keywords of a DLPack 1.x consumer's call of __dlpack__:
     * max_version's value, and the names for each use of copy (bit 0) and
     * stream (bit 1). */
    PyObject *dl_max_version, *dl_kwnames[4];
} ua_state;

extern PyModuleDef ua_module_def;

static inline ua_state *
ua_state_of_type(PyTypeObject *type)
{
    PyObject *m = PyType_GetModuleByDef(type, &ua_module_def);
    return m ? (ua_state *)PyModule_GetState(m) : NULL;
}

static inline ua_state *
ua_state_of(PyObject *self)
{
    return ua_state_of_type(Py_TYPE(self));
}

/* errors.c: raises the exception for the core's last error; returns NULL. */
PyObject *ua_py_raise_core(ua_state *st, ua_status code);
int ua_py_fail_core(ua_state *st, ua_status code); /* same, returns -1 */
/* "PREFIX: core message"; PREFIX is formatted as PyUnicode_FromFormat does. */
PyObject *ua_py_raise_core_prefixed(ua_state *st, ua_status code,
                                   const char *fmt, ...);
/* "PREFIX: core messageSUFFIX". */
PyObject *ua_py_raise_core_around(ua_state *st, ua_status code,
                                  PyObject *prefix, const char *suffix);

/* ------------------------------------------------------------ devices */

typedef struct {
    PyObject_HEAD
    ua_device *device;
} ua_py_device;

typedef struct {
    PyObject_HEAD
    ua_context *context;
    PyObject *device;
} ua_py_context;

typedef struct {
    PyObject_HEAD
    ua_queue *queue;
    PyObject *device;
    PyObject *context;
    bool owned;      /* made anew: destroyed with this object */
    PyObject *owner; /* what keeps a wrapped stream alive, or NULL */
} ua_py_queue;

int ua_py_device_add_type(PyObject *module, ua_state *st);
int ua_py_context_add_type(PyObject *module, ua_state *st);
int ua_py_queue_add_type(PyObject *module, ua_state *st);

/* The cached Python objects of a core device (new references). */
PyObject *ua_py_device_of(ua_state *st, ua_device *d);
PyObject *ua_py_default_context(ua_state *st, ua_device *d);
PyObject *ua_py_default_queue(ua_state *st, ua_device *d);
/* The device a filter string, Device, Context, Queue or None names. */
ua_device *ua_py_as_device(ua_state *st, PyObject *obj, const char *what);
/* The Queue a `queue` or `syclobj` argument names: a Queue, Context,
 * Device, filter string or None (the default device).  SYCL capsules and
 * _get_capsule() objects raise ValueError: no SYCL backend reads them. */
/* A capsule named `name` holding a native handle, freed with it. */
PyObject *ua_py_native_capsule(const char *name, void *handle);
PyObject *ua_py_as_queue(ua_state *st, PyObject *obj, const char *what);
PyObject *ua_py_get_devices(PyObject *module, PyObject *args,
                            PyObject *kwargs);

/* ------------------------------------------------------------- memory */

typedef struct {
    PyObject_HEAD
    char *ptr;
    Py_ssize_t nbytes;
    ua_usm_kind kind;
    int readonly;
    ua_allocation *owned; /* the allocation this object frees, or NULL */
    PyObject *queue;      /* a Queue */
    PyObject *refobj;     /* what keeps borrowed memory alive, or NULL */
    PyObject *weakreflist;
} ua_py_memory;

int ua_py_memory_add_types(PyObject *module, ua_state *st);
PyTypeObject *ua_py_memory_type_of_kind(ua_state *st, ua_usm_kind kind);
/* An alignment argument: 0 or a power of two. */
int ua_py_parse_alignment(PyObject *obj, const char *what, size_t *out);
/* A new allocation of `kind` on queue (a Queue object). */
PyObject *ua_py_memory_new(ua_state *st, ua_usm_kind kind, Py_ssize_t nbytes,
                           size_t alignment, PyObject *queue);
/* A zero-copy Memory over [ptr, ptr + nbytes) that keeps owner alive. */
PyObject *ua_py_memory_wrap(ua_state *st, ua_usm_kind kind, char *ptr,
                            Py_ssize_t nbytes, int readonly, PyObject *queue,
                            PyObject *owner);
/* Host memory someone else owns, recorded as a borrowed "host" allocation
 * of queue's context while the returned Memory lives; owner is kept.
 * Memory the library or a driver knows is wrapped as what it is instead:
 * the Memory's kind may then be another than "host". */
PyObject *ua_py_memory_borrow(ua_state *st, PyObject *queue, char *ptr,
                              Py_ssize_t nbytes, int readonly,
                              PyObject *owner);
PyObject *ua_py_as_usm_memory(PyObject *module, PyObject *obj);
PyObject *ua_py_get_pointer_type(PyObject *module, PyObject *args,
                                 PyObject *kwargs);
PyObject *ua_py_rebuild_memory(PyObject *module, PyObject *args);

/* ------------------------------------- interface dictionaries (iface.c) */

/* A protocol dictionary being read; messages say name['key']. */
typedef struct {
    const char *name;
    PyObject *dict;
    ua_state *st; /* borrowed: the module reading it */
} ua_iface;

/* obj's attribute attr (a new reference), which must be a dict; NULL with
 * TypeError naming the interface otherwise. */
PyObject *ua_iface_open(PyObject *obj, PyObject *attr, const char *name);
/* The value of a required key (a new reference), or NULL with ValueError. */
PyObject *ua_iface_required(const ua_iface *f, PyObject *key);
/* The value of an optional key (a new reference); NULL when absent or None, with
 * *error set when looking it up failed. */
PyObject *ua_iface_optional(const ua_iface *f, PyObject *key, int *error);
/* A tuple or list of at most UA_MAXDIMS integers. */
int ua_iface_ints(const ua_iface *f, PyObject *key, PyObject *seq,
                  Py_ssize_t *out, int *n);
/* The required shape: integers, none negative. */
int ua_iface_shape(const ua_iface *f, PyObject *key, Py_ssize_t *shape,
                   int *nd);
/* Optional strides of nd entries; C-order strides (and *given 0) when
 * absent or None. */
int ua_iface_strides(const ua_iface *f, PyObject *key, int nd,
                     const Py_ssize_t *shape, Py_ssize_t *strides,
                     int *given);
/* The required typestr, of a supported dtype. */
int ua_iface_typestr(const ua_iface *f, PyObject *key, ua_typenum *out);
/* The required data: (int pointer, bool read-only). */
int ua_iface_data(const ua_iface *f, PyObject *key, uintptr_t *ptr,
                  int *readonly);
/* The required version, an integer in [lo, hi]. */
int ua_iface_version(const ua_iface *f, PyObject *key, Py_ssize_t lo,
                     Py_ssize_t hi);

/* ------------------------------------------- __cuda_array_interface__ */

typedef struct {
    int nd;
    Py_ssize_t shape[UA_MAXDIMS];
    Py_ssize_t strides[UA_MAXDIMS]; /* elements */
    ua_typenum typenum;
    uintptr_t ptr;
    int readonly;
    int empty;             /* no elements: nothing is located */
    uintptr_t stream;      /* the producer's stream, 0 when not given */
    ua_pointer_info alloc; /* the allocation that holds the elements */
    ptrdiff_t begin, end;  /* bytes reached, relative to ptr */
} ua_cai;

/* Getter of USMArray.__cuda_array_interface__ (AttributeError where CUDA
 * cannot reach the memory). */
PyObject *ua_py_array_cai(PyObject *self, void *closure);
/* A tuple of n ints; an array's strides in bytes. */
PyObject *ua_py_int_tuple(int n, const Py_ssize_t *v);
PyObject *ua_py_array_byte_strides(PyObject *self);
/* The shape and the strides (None when C-contiguous; elements, or bytes
 * when in_bytes) of an array's protocol dictionaries. */
int ua_py_array_layout_tuples(PyObject *self, int in_bytes, PyObject **shape,
                              PyObject **strides);

/* Reads, validates and locates obj.__cuda_array_interface__. */
int ua_cai_import(ua_state *st, PyObject *obj, ua_cai *out);
/* A USMArray over the memory of a CAI object, keeping obj alive. */
PyObject *ua_py_array_from_cai(ua_state *st, PyObject *obj);

/* --------------------------------------- __sycl_usm_array_interface__ */

/* An imported interface, checked and located. */
typedef struct {
    int nd;
    Py_ssize_t shape[UA_MAXDIMS];
    Py_ssize_t strides[UA_MAXDIMS];
    int has_strides;
    Py_ssize_t offset;
    ua_typenum typenum;
    uintptr_t ptr;
    int readonly;
    PyObject *queue;       /* owned reference to the Queue of syclobj */
    ua_pointer_info alloc; /* the allocation that holds ptr */
    ptrdiff_t begin, end;  /* bytes reached, relative to ptr */
} ua_suai;

/* Reads and validates obj.__sycl_usm_array_interface__.  Returns -1 with
 * an exception naming the key at fault, or 0 with out->queue owned. */
int ua_suai_import(ua_state *st, PyObject *obj, ua_suai *out);
void ua_suai_release(ua_suai *s);
/* Whether obj has the attribute, without running arbitrary code twice. */
int ua_suai_has(ua_state *st, PyObject *obj);
/* Orders the default queue of the device obj's syclobj names after the work
 * that queue has submitted, where obj exposes the interface: 0 when done
 * or when obj has no interface, -1 with an exception. */
int ua_suai_order_after_producer(ua_state *st, PyObject *obj);

/* ------------------------------------------------------------- arrays */

/* The array struct of the C API; the binding is its provider, not a user
 * of its capsule. */
#define USMARRAY_INTERNAL_BUILD
#include "usmarray/usmarray_api.h"

#define ARR(o) ((PyUSMArrayObject *)(o))

/* The Memory that owns an array's elements. */
static inline ua_py_memory *
base_of(PyObject *array)
{
    return (ua_py_memory *)ARR(array)->base;
}

/* The core queue of an array's memory. */
static inline ua_queue *
queue_of_array(PyObject *array)
{
    return ((ua_py_queue *)base_of(array)->queue)->queue;
}

_Static_assert(USM_ARRAY_MAX_NDIM == UA_MAXDIMS,
               "the C API states the core's limit of dimensions");
_Static_assert(USM_ARRAY_C_CONTIGUOUS == UA_LAYOUT_C_CONTIGUOUS &&
                   USM_ARRAY_F_CONTIGUOUS == UA_LAYOUT_F_CONTIGUOUS,
               "array flags carry the core's contiguity bits");

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
/* The array object, for a layout whose counts are known to fit (checked
 * already, or derived from a checked array). */
PyObject *ua_py_array_make(ua_state *st, int nd, const Py_ssize_t *shape,
                           const Py_ssize_t *strides, ua_typenum t,
                           char *data, PyObject *base, int writable);
/* Slots, getters and methods of USMArray defined beside their concept:
 * array_views.c (indexing and views), */
PyObject *ua_py_array_get_T(PyObject *self, void *closure);
PyObject *ua_py_array_get_mT(PyObject *self, void *closure);
PyObject *ua_py_array_get_real(PyObject *self, void *closure);
PyObject *ua_py_array_get_imag(PyObject *self, void *closure);
PyObject *ua_py_array_subscript(PyObject *self, PyObject *key);
PyObject *ua_py_array_reshape_method(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *ua_py_array_transpose(PyObject *self, PyObject *args);
/* array_copy.c (copies and assignment), */
PyObject *ua_py_array_copy_method(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *ua_py_array_astype(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *ua_py_array_to_device(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *ua_py_array_fill(PyObject *self, PyObject *value);
int ua_py_array_ass_subscript(PyObject *self, PyObject *key, PyObject *value);
/* array_host.c (the host protocols), */
PyObject *ua_py_array_get_array_interface(PyObject *self, void *closure);
int ua_py_array_getbuffer(PyObject *self, Py_buffer *view, int flags);
void ua_py_array_releasebuffer(PyObject *self, Py_buffer *view);
PyObject *ua_py_array_dunder_array(PyObject *self, PyObject *args, PyObject *kwargs);
/* array_protocols.c (the Python protocols). */
PyObject *ua_py_array_repr(PyObject *self);
PyObject *ua_py_array_str(PyObject *self);
/* Getters of __sycl_usm_array_interface__ (suai.c). */
PyObject *ua_py_array_get_suai(PyObject *self, void *closure);
PyObject *ua_py_memory_get_suai(PyObject *self, void *closure);
int ua_py_flags_add_type(PyObject *module, ua_state *st);
PyObject *ua_py_flags_new(ua_state *st, PyObject *array);

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
PyObject *ua_py_array_copy(ua_state *st, PyObject *src, ua_typenum t,
                           char order, ua_usm_kind kind, PyObject *queue);
/* Writes value (an array, a scalar or host data) into dst, broadcasting. */
int ua_py_array_assign(ua_state *st, PyObject *dst, PyObject *value);
/* A C-ordered numpy.ndarray with a copy of the elements. */
PyObject *ua_py_array_to_numpy(ua_state *st, PyObject *array);
/* A zero-copy array of an object exposing __sycl_usm_array_interface__. */
PyObject *ua_py_array_from_suai(ua_state *st, PyObject *obj);
/* A view with new_shape where the layout allows, else a copy. */
PyObject *ua_py_array_reshape(ua_state *st, PyObject *array, int nd,
                              const Py_ssize_t *shape, char order,
                              int copy);
/* The axes of array in the order perm gives (already validated). */
PyObject *ua_py_array_permute(PyObject *array, const int *perm);
/* An integer or a sequence of integers (of either sign). */
int ua_py_parse_ints(PyObject *obj, const char *what, Py_ssize_t *out,
                     int *n);
/* A shape argument: an integer or a sequence of non-negative integers. */
int ua_py_parse_shape(PyObject *obj, const char *what, Py_ssize_t *shape,
                      int *nd);
/* An order argument: one character of `allowed`. */
int ua_py_parse_order(PyObject *obj, const char *allowed, char *out);
/* A permutation of nd axes from a sequence (negative axes allowed). */
int ua_py_parse_axes(PyObject *seq, int nd, int *perm);
/* The USM kind of a usm_type argument. */
int ua_py_parse_usm_type(PyObject *obj, ua_usm_kind *out);
/* Runs a strided copy on queue, without the GIL when it is long. */
int ua_py_copy_strided(ua_state *st, PyObject *queue, int nd,
                       const Py_ssize_t *shape, const ua_strided *dst,
                       const ua_strided *src);

/* array_protocols.c: the Python protocols of USMArray (slots and methods
 * of the type that array.c assembles). */
PyObject *ua_py_array_richcompare(PyObject *self, PyObject *other, int op);
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

/* capi.c: publishes the C API's table as the module's _C_API capsule. */
int ua_py_capi_add(PyObject *module, ua_state *st);

/* functions.c: the module's array functions. */
extern PyMethodDef ua_py_array_functions[];
PyObject *ua_py_reshape_call(ua_state *st, PyObject *self, PyObject *shape,
                             PyObject *order, PyObject *copy);

/* ------------------------------------------------------------- dtypes */

/* The numpy module (borrowed from the state; imported on first use). */
PyObject *ua_py_numpy(ua_state *st);
/* The type number of a dtype-like argument (numpy dtype, type or string);
 * unsupported types raise TypeError, non-native byte order ValueError. */
int ua_py_typenum(ua_state *st, PyObject *obj, ua_typenum *out);
/* The numpy.dtype object of a type number (borrowed). */
PyObject *ua_py_dtype(ua_state *st, ua_typenum t);

/* Converts obj to a Py_ssize_t as an integer argument: bools and
 * non-integers raise TypeError naming `what`. */
int ua_py_index(PyObject *obj, const char *what, Py_ssize_t *out);
/* The same for what['key'][k] (key NULL: what[k]; k < 0: no index), the
 * name formatted only when there is an error to report. */
int ua_py_index_at(PyObject *item, const char *what, const char *key,
                   Py_ssize_t k, Py_ssize_t *out);
/* A sequence of at most UA_MAXDIMS integers, read from a snapshot that
 * the items' __index__ cannot change; messages name what['key'][k]. */
int ua_py_index_sequence(PyObject *seq, const char *what, const char *key,
                         Py_ssize_t *out, int *n);
/* A Python scalar ready to be written into an array: a 0-d source. */
typedef struct {
    union {
        uint8_t b;
        long long i;
        unsigned long long u;
        double f;
        double c[2];
    } v;
    ua_typenum type; /* of v */
} ua_py_scalar;

/* Whether value is a Python int (bool and subclasses included), float or
 * complex: the values that ua_py_scalar_for reads. */
int ua_py_is_python_scalar(PyObject *value);
/* Reads a Python scalar to be stored as type t, by NumPy 2's rules:
 * integers out of t's range raise OverflowError, complex values into a
 * real type TypeError, floats into an integer type truncate (NaN raises
 * ValueError, infinities and values out of range OverflowError). */
int ua_py_scalar_for(ua_state *st, PyObject *value, ua_typenum t,
                     ua_py_scalar *out);
/* NumPy's __array__(dtype, copy) of an object exporting the buffer
 * protocol: a view of its memory unless dtype or copy=True asks for a
 * copy. */
PyObject *ua_py_numpy_of_buffer(ua_state *st, PyObject *exporter,
                                PyObject *dtype, PyObject *copy);
/* copy=: -1 for None, else 0 or 1; anything but None or a bool raises. */
int ua_py_parse_copy(PyObject *obj, int *out);

/* An argument list: names[0..max_positional) may come by position, the
 * rest by keyword only; names[0..required) must be given.  Parsing fills
 * out[i] (borrowed) for each argument given and leaves the others as the
 * caller set them; a wrong list raises TypeError as Python's own calls do.
 * Python's keyword parser builds a string per name per call; this one
 * compares the caller's names, which made keyword calls twice as fast. */
typedef struct {
    const char *fname;
    const char *const *names; /* NULL-terminated */
    int max_positional;
    int required;
} ua_py_argspec;

int ua_py_parse_fast(const ua_py_argspec *spec, PyObject *const *args,
                     Py_ssize_t nargs, PyObject *kwnames, PyObject **out);
int ua_py_parse_tuple(const ua_py_argspec *spec, PyObject *args,
                      PyObject *kwargs, PyObject **out);

/* 1 with a new reference in *out, 0 when obj has no such attribute, -1
 * with an exception when looking it up raised something else. */
int ua_py_optional_attr(PyObject *obj, PyObject *name, PyObject **out);
/* 1 when obj has the attribute, 0 when not, -1 with an exception. */
int ua_py_has_attr(PyObject *obj, PyObject *name);

/* ------------------------------------------------------------- dlpack */
PyObject *ua_py_array_dlpack(PyObject *self, PyObject *const *args,
                             Py_ssize_t nargs, PyObject *kwnames);
PyObject *ua_py_array_dlpack_device(PyObject *self, PyObject *unused);
/* obj.__dlpack_device__(), checked to be a pair of ints naming a device. */
int ua_py_dlpack_device_of(ua_state *st, PyObject *obj, ua_dl_device *out);
/* An array over the tensor of a DLPack capsule, which it consumes. */
PyObject *ua_py_array_from_capsule(ua_state *st, PyObject *capsule);
/* The same for a capsule or an object with __dlpack__ (asked for a copy
 * when copy is True); device is the producer's __dlpack_device__() where
 * the caller has it already, else NULL. */
PyObject *ua_py_array_from_dlpack_object(ua_state *st, PyObject *obj,
                                         PyObject *copy,
                                         const ua_dl_device *device);
PyObject *ua_py_from_dlpack(PyObject *module, PyObject *const *args,
                            Py_ssize_t nargs, PyObject *kwnames);

#endif
