/* The C API of usmarray, for C, C++ and Cython extensions.
 *
 * Compile with the flags `python -m usmarray --includes` prints (the
 * directory is usmarray.get_include()), include this header (it includes
 * Python.h), and call import_usmarray() in the module's init function:
 *
 *     if (import_usmarray() < 0) {
 *         return NULL;
 *     }
 *
 * Nothing here needs linking: the functions are reached through a table
 * that usmarray._usmarray publishes as its capsule _C_API (named
 * "usmarray._usmarray._C_API"), as NumPy's import_array() does.  A new
 * minor version only appends members to the table; a new major version may
 * change anything, and import_usmarray() refuses a module whose major
 * version differs from this header's (rebuild the extension), or whose
 * minor version is older.
 *
 * Conventions of every function: a returned PyObject * is a new reference
 * unless "borrowed" is said; on error the return is NULL, -1 or (size_t)-1
 * with a Python exception set, whose message starts with the function's
 * name.  Functions that take an object of a given type raise TypeError for
 * any other object (NULL included).  Call them with the GIL held.
 *
 * An extension of several C files defines USMARRAY_API_UNIQUE_SYMBOL to one
 * name in all of them, and USMARRAY_NO_IMPORT in all but the one that calls
 * import_usmarray().
 */
#ifndef USMARRAY_USMARRAY_API_H
#define USMARRAY_USMARRAY_API_H

#include <Python.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define USMARRAY_API_VERSION_MAJOR 1
#define USMARRAY_API_VERSION_MINOR 0
#define USMARRAY_API_CAPSULE "usmarray._usmarray._C_API"

/* ---------------------------------------------------------- the array */

/* PyUSMArrayObject.flags */
#define USM_ARRAY_C_CONTIGUOUS 0x1
#define USM_ARRAY_F_CONTIGUOUS 0x2
#define USM_ARRAY_WRITABLE 0x4

/* The most dimensions an array may have. */
#define USM_ARRAY_MAX_NDIM 64

/* Arrays of at most this many dimensions keep shape and strides inline. */
#define USM_ARRAY_INLINE_DIMS 6

/* A usmarray.USMArray, as the source document declares it:
 *   cdef public class USMArray [object PyUSMArrayObject,
 *                               type PyUSMArrayType]
 * The fields up to `base` are public and may be read directly (never
 * written); the ones after it are private. */
typedef struct PyUSMArrayObject {
    PyObject_HEAD
    int nd;              /* indexes needed to reference an element */
    char *data;          /* USM pointer to the element of zero multi-index */
    Py_ssize_t *shape;   /* ranges of indexes (nd entries) */
    Py_ssize_t *strides; /* elements to jump per unit increase of an index */
    int typenum;         /* NumPy's type number of the element type */
    int flags;           /* USM_ARRAY_* */
    PyObject *base;      /* the usmarray.Memory that owns the memory */
    /* private */
    PyObject *weakreflist;
    Py_ssize_t inline_dims[2 * USM_ARRAY_INLINE_DIMS];
} PyUSMArrayObject;

/* The public fields are the document's Cython class field by field: each of
 * its declared type, right after the one before, padded only to its own
 * alignment.  Changing one is a new major version. */
#ifdef __cplusplus
#define USMARRAY__ASSERT(cond, msg) static_assert(cond, msg)
#define USMARRAY__ALIGNOF(t) alignof(t)
#else
#define USMARRAY__ASSERT(cond, msg) _Static_assert(cond, msg)
#define USMARRAY__ALIGNOF(t) _Alignof(t)
#endif
#define USMARRAY__END(f)                                                      \
    (offsetof(PyUSMArrayObject, f) + sizeof(((PyUSMArrayObject *)0)->f))
#define USMARRAY__FIELD(f, type, start)                                       \
    USMARRAY__ASSERT(sizeof(((PyUSMArrayObject *)0)->f) == sizeof(type) &&    \
                         offsetof(PyUSMArrayObject, f) ==                     \
                             ((start) + USMARRAY__ALIGNOF(type) - 1) /        \
                                 USMARRAY__ALIGNOF(type) *                    \
                                 USMARRAY__ALIGNOF(type),                     \
                     "PyUSMArrayObject." #f " moved or changed type")
USMARRAY__FIELD(nd, int, sizeof(PyObject));
USMARRAY__FIELD(data, char *, USMARRAY__END(nd));
USMARRAY__FIELD(shape, Py_ssize_t *, USMARRAY__END(data));
USMARRAY__FIELD(strides, Py_ssize_t *, USMARRAY__END(shape));
USMARRAY__FIELD(typenum, int, USMARRAY__END(strides));
USMARRAY__FIELD(flags, int, USMARRAY__END(typenum));
USMARRAY__FIELD(base, PyObject *, USMARRAY__END(flags));
#if defined(__LP64__)
/* What that means on 64-bit Linux and macOS, from the object header on. */
USMARRAY__ASSERT(offsetof(PyUSMArrayObject, data) - sizeof(PyObject) == 8 &&
                     offsetof(PyUSMArrayObject, typenum) - sizeof(PyObject) ==
                         32 &&
                     offsetof(PyUSMArrayObject, base) - sizeof(PyObject) == 40,
                 "the LP64 layout after the header: nd 0, data 8, shape 16, "
                 "strides 24, typenum 32, flags 36, base 40");
#endif
#undef USMARRAY__FIELD
#undef USMARRAY__END

/* ---------------------------------------------------------- the table */

typedef struct UsmArray_CAPI UsmArray_CAPI;

/* Each function takes the table it came from first, as the datetime C API
 * passes its types: the module's types and state are found through it, so
 * that every interpreter's module answers for its own objects. */
struct UsmArray_CAPI {
    /* version 1.0 */
    unsigned int version_major;
    unsigned int version_minor;

    PyTypeObject *USMArrayType;
    PyTypeObject *MemoryType; /* the base of the three below */
    PyTypeObject *MemoryUSMDeviceType;
    PyTypeObject *MemoryUSMSharedType;
    PyTypeObject *MemoryUSMHostType;
    PyTypeObject *QueueType;
    PyTypeObject *ContextType;
    PyTypeObject *DeviceType;

    int (*Array_Check)(const UsmArray_CAPI *, PyObject *);
    int (*Array_GetNDim)(const UsmArray_CAPI *, PyObject *);
    char *(*Array_GetData)(const UsmArray_CAPI *, PyObject *);
    Py_ssize_t *(*Array_GetShape)(const UsmArray_CAPI *, PyObject *);
    Py_ssize_t *(*Array_GetStrides)(const UsmArray_CAPI *, PyObject *);
    int (*Array_GetTypeNum)(const UsmArray_CAPI *, PyObject *);
    int (*Array_GetFlags)(const UsmArray_CAPI *, PyObject *);
    PyObject *(*Array_GetBase)(const UsmArray_CAPI *, PyObject *);
    PyObject *(*Array_GetQueue)(const UsmArray_CAPI *, PyObject *);
    PyObject *(*Array_New)(const UsmArray_CAPI *, int, const Py_ssize_t *, int,
                           const Py_ssize_t *, const char *, PyObject *);
    PyObject *(*Array_FromMemory)(const UsmArray_CAPI *, PyObject *, int,
                                  const Py_ssize_t *, int, const Py_ssize_t *,
                                  Py_ssize_t);
    int (*Array_CopyInto)(const UsmArray_CAPI *, PyObject *, PyObject *);

    int (*Memory_Check)(const UsmArray_CAPI *, PyObject *);
    PyObject *(*Memory_New)(const UsmArray_CAPI *, size_t, const char *,
                            PyObject *);
    PyObject *(*Memory_FromPointer)(const UsmArray_CAPI *, void *, size_t,
                                    PyObject *, PyObject *);
    void *(*Memory_GetPointer)(const UsmArray_CAPI *, PyObject *);
    size_t (*Memory_GetSize)(const UsmArray_CAPI *, PyObject *);
    const char *(*Memory_GetUsmType)(const UsmArray_CAPI *, PyObject *);

    int (*Queue_Check)(const UsmArray_CAPI *, PyObject *);
    const char *(*Queue_GetBackend)(const UsmArray_CAPI *, PyObject *);
    void *(*Queue_GetNativeHandle)(const UsmArray_CAPI *, PyObject *);
    int (*Queue_Wait)(const UsmArray_CAPI *, PyObject *);
    PyObject *(*Queue_GetDevice)(const UsmArray_CAPI *, PyObject *);
    /* Later minor versions append here. */
};

#ifndef USMARRAY_INTERNAL_BUILD

#if defined(USMARRAY_API_UNIQUE_SYMBOL)
#define UsmArray_API USMARRAY_API_UNIQUE_SYMBOL
#if defined(USMARRAY_NO_IMPORT)
extern const UsmArray_CAPI *UsmArray_API;
#else
const UsmArray_CAPI *UsmArray_API = NULL;
#endif
#else
static const UsmArray_CAPI *UsmArray_API = NULL;
#endif

#if !defined(USMARRAY_NO_IMPORT)
/* Replaces the exception set with an ImportError it is the cause of. */
static void
usmarray__import_error_from_cause(void)
{
    PyObject *type, *cause, *tb;
    PyErr_Fetch(&type, &cause, &tb);
    PyErr_NormalizeException(&type, &cause, &tb);
    if (tb != NULL) {
        PyException_SetTraceback(cause, tb);
    }
    Py_XDECREF(type);
    Py_XDECREF(tb);
    PyErr_SetString(PyExc_ImportError, "usmarray._usmarray failed to import");
    PyObject *etype, *exc, *etb;
    PyErr_Fetch(&etype, &exc, &etb);
    PyErr_NormalizeException(&etype, &exc, &etb);
    PyException_SetCause(exc, cause); /* steals cause */
    PyErr_Restore(etype, exc, etb);
}

/* Sets UsmArray_API from the capsule of usmarray._usmarray.  Returns 0, or
 * -1 with ImportError set: the module cannot be imported, it has no
 * capsule, or its C API version does not serve this header. */
static int
import_usmarray(void)
{
    PyObject *module = PyImport_ImportModule("usmarray._usmarray");
    if (module == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_ImportError)) {
            usmarray__import_error_from_cause();
        }
        return -1;
    }
    PyObject *capsule = PyObject_GetAttrString(module, "_C_API");
    Py_DECREF(module);
    if (capsule == NULL || !PyCapsule_IsValid(capsule, USMARRAY_API_CAPSULE)) {
        Py_XDECREF(capsule);
        PyErr_SetString(PyExc_ImportError,
                        "usmarray._usmarray._C_API is not a capsule named "
                        "'" USMARRAY_API_CAPSULE "'");
        return -1;
    }
    const UsmArray_CAPI *api = (const UsmArray_CAPI *)PyCapsule_GetPointer(
        capsule, USMARRAY_API_CAPSULE);
    /* The capsule lives in the module, which lives in sys.modules: the
     * table stays valid while the extension can run. */
    Py_DECREF(capsule);
    if (api == NULL) {
        return -1;
    }
    /* A variable: a compiler warns of comparing an unsigned with 0. */
    unsigned int needed_minor = USMARRAY_API_VERSION_MINOR;
    if (api->version_major != USMARRAY_API_VERSION_MAJOR ||
        api->version_minor < needed_minor) {
        PyErr_Format(PyExc_ImportError,
                     "usmarray C API version %u.%u cannot serve an extension "
                     "compiled against version %d.%d: %s",
                     api->version_major, api->version_minor,
                     USMARRAY_API_VERSION_MAJOR, USMARRAY_API_VERSION_MINOR,
                     api->version_major != USMARRAY_API_VERSION_MAJOR
                         ? "rebuild the extension against this usmarray"
                         : "upgrade usmarray");
        return -1;
    }
    UsmArray_API = api;
    return 0;
}
#endif

/* Every wrapper below calls through the table; before import_usmarray()
 * they raise RuntimeError instead of following a NULL pointer. */
static inline int
usmarray__not_imported(void)
{
    PyErr_SetString(PyExc_RuntimeError,
                    "the usmarray C API is used before import_usmarray()");
    return -1;
}

#define USMARRAY__CALL(fail, member, ...)                                     \
    (UsmArray_API != NULL ? UsmArray_API->member(UsmArray_API, __VA_ARGS__)   \
                          : (usmarray__not_imported(), (fail)))

/* Whether obj is a USMArray (or a subclass).  0 before import_usmarray(),
 * with RuntimeError set. */
static inline int
UsmArray_Check(PyObject *obj)
{
    return USMARRAY__CALL(0, Array_Check, obj);
}

static inline int
UsmArray_GetNDim(PyObject *arr)
{
    return USMARRAY__CALL(-1, Array_GetNDim, arr);
}

/* The address of the zero-index element. */
static inline char *
UsmArray_GetData(PyObject *arr)
{
    return USMARRAY__CALL((char *)NULL, Array_GetData, arr);
}

/* nd entries, owned by the array. */
static inline Py_ssize_t *
UsmArray_GetShape(PyObject *arr)
{
    return USMARRAY__CALL((Py_ssize_t *)NULL, Array_GetShape, arr);
}

/* nd entries in elements, owned by the array; never NULL for nd > 0. */
static inline Py_ssize_t *
UsmArray_GetStrides(PyObject *arr)
{
    return USMARRAY__CALL((Py_ssize_t *)NULL, Array_GetStrides, arr);
}

/* NumPy's type number of the elements (NPY_FLOAT64 is 12, ...). */
static inline int
UsmArray_GetTypeNum(PyObject *arr)
{
    return USMARRAY__CALL(-1, Array_GetTypeNum, arr);
}

/* USM_ARRAY_C_CONTIGUOUS | USM_ARRAY_F_CONTIGUOUS | USM_ARRAY_WRITABLE */
static inline int
UsmArray_GetFlags(PyObject *arr)
{
    return USMARRAY__CALL(-1, Array_GetFlags, arr);
}

/* Borrowed: the usmarray.Memory that owns the elements. */
static inline PyObject *
UsmArray_GetBase(PyObject *arr)
{
    return USMARRAY__CALL((PyObject *)NULL, Array_GetBase, arr);
}

/* Borrowed: the usmarray.Queue of the array's memory. */
static inline PyObject *
UsmArray_GetQueue(PyObject *arr)
{
    return USMARRAY__CALL((PyObject *)NULL, Array_GetQueue, arr);
}

/* A new allocation laid out as shape and strides (in elements; NULL: C
 * order) say; negative strides place the zero-index element so that the
 * lowest one starts the allocation.  usm_type: "device" (also NULL),
 * "shared" or "host"; queue: a usmarray.Queue, or NULL for the default
 * device's. */
static inline PyObject *
UsmArray_New(int nd, const Py_ssize_t *shape, int typenum,
             const Py_ssize_t *strides, const char *usm_type, PyObject *queue)
{
    return USMARRAY__CALL((PyObject *)NULL, Array_New, nd, shape, typenum,
                          strides, usm_type, queue);
}

/* An array over a usmarray.Memory, which it keeps alive: the zero-index
 * element `offset` elements from the start of the memory, strides in
 * elements (NULL: C order).  ValueError when an element would lie outside
 * the memory.  Writable unless the memory is read-only. */
static inline PyObject *
UsmArray_FromMemory(PyObject *memory, int nd, const Py_ssize_t *shape,
                    int typenum, const Py_ssize_t *strides, Py_ssize_t offset)
{
    return USMARRAY__CALL((PyObject *)NULL, Array_FromMemory, memory, nd,
                          shape, typenum, strides, offset);
}

/* dst[...] = src: src (a USMArray, or anything such an assignment takes)
 * broadcast to dst's shape and cast to its type; the copy has finished
 * when this returns. */
static inline int
UsmArray_CopyInto(PyObject *dst, PyObject *src)
{
    return USMARRAY__CALL(-1, Array_CopyInto, dst, src);
}

/* Whether obj is a usmarray.Memory (of any kind).  0 before
 * import_usmarray(), with RuntimeError set. */
static inline int
UsmMemory_Check(PyObject *obj)
{
    return USMARRAY__CALL(0, Memory_Check, obj);
}

/* A new allocation of nbytes (> 0) of usm_type ("device", "shared",
 * "host") on queue (NULL: the default device's queue). */
static inline PyObject *
UsmMemory_New(size_t nbytes, const char *usm_type, PyObject *queue)
{
    return USMARRAY__CALL((PyObject *)NULL, Memory_New, nbytes, usm_type,
                          queue);
}

/* A Memory over [ptr, ptr + nbytes), memory someone else allocated, kept
 * usable by holding owner (Py_None when it outlives every array).  The
 * bytes must lie in one USM allocation a backend knows, of queue's context
 * (NULL queue: the default queue of the allocation's device), or be host
 * memory and queue a queue of a device whose memory is CPU memory (NULL
 * queue: the host device's): then they are recorded as a borrowed "host"
 * allocation while the Memory lives. */
static inline PyObject *
UsmMemory_FromPointer(void *ptr, size_t nbytes, PyObject *queue,
                      PyObject *owner)
{
    return USMARRAY__CALL((PyObject *)NULL, Memory_FromPointer, ptr, nbytes,
                          queue, owner);
}

static inline void *
UsmMemory_GetPointer(PyObject *mem)
{
    return USMARRAY__CALL((void *)NULL, Memory_GetPointer, mem);
}

/* Bytes of the memory; (size_t)-1 with an exception on error. */
static inline size_t
UsmMemory_GetSize(PyObject *mem)
{
    return USMARRAY__CALL((size_t)-1, Memory_GetSize, mem);
}

/* "device", "shared" or "host" (a static string). */
static inline const char *
UsmMemory_GetUsmType(PyObject *mem)
{
    return USMARRAY__CALL((const char *)NULL, Memory_GetUsmType, mem);
}

/* Whether obj is a usmarray.Queue.  0 before import_usmarray(), with
 * RuntimeError set. */
static inline int
UsmQueue_Check(PyObject *obj)
{
    return USMARRAY__CALL(0, Queue_Check, obj);
}

/* The backend serving the queue: "host", "cuda", "sycl" (a static
 * string). */
static inline const char *
UsmQueue_GetBackend(PyObject *queue)
{
    return USMARRAY__CALL((const char *)NULL, Queue_GetBackend, queue);
}

/* The driver's queue, for submitting native work in order with the
 * queue's: a CUstream for "cuda", a DPCTLSyclQueueRef for "sycl"; NULL on
 * "host" (and NULL with TypeError for a non-queue: check PyErr_Occurred()). */
static inline void *
UsmQueue_GetNativeHandle(PyObject *queue)
{
    return USMARRAY__CALL((void *)NULL, Queue_GetNativeHandle, queue);
}

/* Blocks, without the GIL, until the queue's work has finished. */
static inline int
UsmQueue_Wait(PyObject *queue)
{
    return USMARRAY__CALL(-1, Queue_Wait, queue);
}

/* Borrowed: the usmarray.Device the queue feeds. */
static inline PyObject *
UsmQueue_GetDevice(PyObject *queue)
{
    return USMARRAY__CALL((PyObject *)NULL, Queue_GetDevice, queue);
}

#endif /* USMARRAY_INTERNAL_BUILD */

#ifdef __cplusplus
}
#endif

#endif /* USMARRAY_USMARRAY_API_H */
