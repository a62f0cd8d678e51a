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

/* Arrays of at most this many dimensions keep shape and strides inline
 * (but one whose shape is set while work runs without the GIL takes new
 * storage: read shape and strides through their pointers). */
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

/* ------------------------------------------------------ the functions */

/* Every function of the C API, once, in the table's order; everything
 * else is made from this list: the table's members and the inline
 * functions below, the table capi.c fills (each member's implementation
 * is capi_<MEMBER>), the Cython declarations of usmarray_api.pxd and the
 * list in the documentation (tools/capi_gen.py writes those two, and a
 * test checks them).  A new function is one entry appended here (a new
 * minor version), its implementation, and a run of tools/capi_gen.py.
 *   X(RET, NAME, MEMBER, FAIL, PARAMS, ARGS, CYTHON, DOC)
 *   RET     the return type
 *   NAME    the function extensions call
 *   MEMBER  its member of the table
 *   FAIL    what it returns before import_usmarray(), RuntimeError set
 *   PARAMS  its parameters, ARGS their names (each in parentheses)
 *   CYTHON  its declaration for Cython, with the exception value
 *   DOC     what it returns, for the documentation's list */
/* clang-format off */
#define USMARRAY_API_FUNCTIONS(X)                                             \
    /* Whether obj is a USMArray (or a subclass).  0 before                   \
     * import_usmarray(), with RuntimeError set. */                           \
    X(int, UsmArray_Check, Array_Check, 0, (PyObject *obj), (obj),            \
      "bint UsmArray_Check(object obj)",                                      \
      "whether ``obj`` is a ``USMArray`` (or a subclass)")                    \
    X(int, UsmArray_GetNDim, Array_GetNDim, -1, (PyObject *arr), (arr),       \
      "int UsmArray_GetNDim(object arr) except -1",                           \
      "the number of dimensions")                                             \
    /* The address of the zero-index element. */                              \
    X(char *, UsmArray_GetData, Array_GetData, (char *)NULL,                  \
      (PyObject *arr), (arr),                                                 \
      "char *UsmArray_GetData(object arr) except NULL",                       \
      "the address of the zero-index element")                                \
    /* nd entries, owned by the array. */                                     \
    X(Py_ssize_t *, UsmArray_GetShape, Array_GetShape, (Py_ssize_t *)NULL,    \
      (PyObject *arr), (arr),                                                 \
      "Py_ssize_t *UsmArray_GetShape(object arr) except NULL",                \
      "``nd`` extents, owned by the array")                                   \
    /* nd entries in elements, owned by the array; never NULL for nd > 0. */  \
    X(Py_ssize_t *, UsmArray_GetStrides, Array_GetStrides,                    \
      (Py_ssize_t *)NULL, (PyObject *arr), (arr),                             \
      "Py_ssize_t *UsmArray_GetStrides(object arr) except NULL",              \
      "``nd`` strides in elements, owned by the array")                       \
    /* NumPy's type number of the elements (NPY_FLOAT64 is 12, ...). */       \
    X(int, UsmArray_GetTypeNum, Array_GetTypeNum, -1, (PyObject *arr), (arr), \
      "int UsmArray_GetTypeNum(object arr) except -1",                        \
      "NumPy's type number of the elements")                                  \
    /* USM_ARRAY_C_CONTIGUOUS | USM_ARRAY_F_CONTIGUOUS |                      \
     * USM_ARRAY_WRITABLE */                                                  \
    X(int, UsmArray_GetFlags, Array_GetFlags, -1, (PyObject *arr), (arr),     \
      "int UsmArray_GetFlags(object arr) except -1",                          \
      "``USM_ARRAY_C_CONTIGUOUS`` (1), ``USM_ARRAY_F_CONTIGUOUS`` (2), "      \
      "``USM_ARRAY_WRITABLE`` (4)")                                           \
    /* Borrowed: the usmarray.Memory that owns the elements. */               \
    X(PyObject *, UsmArray_GetBase, Array_GetBase, (PyObject *)NULL,          \
      (PyObject *arr), (arr),                                                 \
      "PyObject *UsmArray_GetBase(object arr) except NULL",                   \
      "borrowed: the ``Memory`` that owns the elements")                      \
    /* Borrowed: the usmarray.Queue of the array's memory. */                 \
    X(PyObject *, UsmArray_GetQueue, Array_GetQueue, (PyObject *)NULL,        \
      (PyObject *arr), (arr),                                                 \
      "PyObject *UsmArray_GetQueue(object arr) except NULL",                  \
      "borrowed: the ``Queue`` of that memory")                               \
    /* A new allocation laid out as shape and strides (in elements; NULL: C   \
     * order) say; negative strides place the zero-index element so that the  \
     * lowest one starts the allocation.  usm_type: "device" (also NULL),     \
     * "shared" or "host"; queue: a usmarray.Queue, or NULL for the default   \
     * device's. */                                                           \
    X(PyObject *, UsmArray_New, Array_New, (PyObject *)NULL,                  \
      (int nd, const Py_ssize_t *shape, int typenum,                          \
        const Py_ssize_t *strides, const char *usm_type, PyObject *queue),    \
        (nd, shape, typenum, strides, usm_type, queue),                       \
      "object UsmArray_New(int nd, const Py_ssize_t *shape, int typenum, "    \
      "const Py_ssize_t *strides, const char *usm_type, PyObject *queue)",    \
      "a new allocation for the layout: ``strides`` NULL means C order; "     \
      "with negative strides the lowest element starts the allocation; "      \
      "``usm_type`` ``\"device\"`` (or NULL), ``\"shared\"`` or "             \
      "``\"host\"``; ``queue`` a ``Queue``, NULL for the default device's")   \
    /* An array over a usmarray.Memory, which it keeps alive: the zero-index  \
     * element `offset` elements from the start of the memory, strides in     \
     * elements (NULL: C order).  ValueError when an element would lie        \
     * outside the memory.  Writable unless the memory is read-only. */       \
    X(PyObject *, UsmArray_FromMemory, Array_FromMemory, (PyObject *)NULL,    \
      (PyObject *memory, int nd, const Py_ssize_t *shape, int typenum,        \
        const Py_ssize_t *strides, Py_ssize_t offset), (memory, nd, shape,    \
        typenum, strides, offset),                                            \
      "object UsmArray_FromMemory(object memory, int nd, const Py_ssize_t "   \
      "*shape, int typenum, const Py_ssize_t *strides, Py_ssize_t offset)",   \
      "an array over a ``Memory``, which it keeps alive, its zero-index "     \
      "element ``offset`` elements in; ``ValueError`` if an element would "   \
      "lie outside the memory; read-only over read-only memory")              \
    /* dst[...] = src: src (a USMArray, or anything such an assignment takes) \
     * broadcast to dst's shape and cast to its type; the copy has finished   \
     * when this returns. */                                                  \
    X(int, UsmArray_CopyInto, Array_CopyInto, -1,                             \
      (PyObject *dst, PyObject *src), (dst, src),                             \
      "int UsmArray_CopyInto(object dst, object src) except -1",              \
      "``dst[...] = src``: broadcasting, casting, finished on return; "       \
      "``src`` a ``USMArray`` or anything such an assignment takes")          \
    /* Whether obj is a usmarray.Memory (of any kind).  0 before              \
     * import_usmarray(), with RuntimeError set. */                           \
    X(int, UsmMemory_Check, Memory_Check, 0, (PyObject *obj), (obj),          \
      "bint UsmMemory_Check(object obj)",                                     \
      "whether ``obj`` is a ``Memory`` of any kind")                          \
    /* A new allocation of nbytes (> 0) of usm_type ("device", "shared",      \
     * "host") on queue (NULL: the default device's queue). */                \
    X(PyObject *, UsmMemory_New, Memory_New, (PyObject *)NULL,                \
      (size_t nbytes, const char *usm_type, PyObject *queue), (nbytes,        \
        usm_type, queue),                                                     \
      "object UsmMemory_New(size_t nbytes, const char *usm_type, PyObject "   \
      "*queue)",                                                              \
      "a new allocation of ``nbytes`` (at least 1) bytes")                    \
    /* A Memory over [ptr, ptr + nbytes), memory someone else allocated, kept \
     * usable by holding owner (Py_None when it outlives every array).  The   \
     * bytes must lie in one USM allocation a backend knows, of queue's       \
     * context (NULL queue: the default queue of the allocation's device),    \
     * or be host memory and queue a queue of a device whose memory is CPU    \
     * memory (NULL queue: the host device's): then they are recorded as a    \
     * borrowed "host" allocation while the Memory lives. */                  \
    X(PyObject *, UsmMemory_FromPointer, Memory_FromPointer,                  \
      (PyObject *)NULL,                                                       \
      (void *ptr, size_t nbytes, PyObject *queue, PyObject *owner),           \
      (ptr, nbytes, queue, owner),                                            \
      "object UsmMemory_FromPointer(void *ptr, size_t nbytes, PyObject "      \
      "*queue, object owner)",                                                \
      "a ``Memory`` over foreign bytes that keeps ``owner`` alive (see "      \
      "above); ``queue`` NULL means the allocation's device's default "       \
      "queue, or the default device's for host memory")                       \
    X(void *, UsmMemory_GetPointer, Memory_GetPointer, (void *)NULL,          \
      (PyObject *mem), (mem),                                                 \
      "void *UsmMemory_GetPointer(object mem) except NULL",                   \
      "the start of the memory")                                              \
    /* Bytes of the memory; (size_t)-1 with an exception on error. */         \
    X(size_t, UsmMemory_GetSize, Memory_GetSize, (size_t)-1,                  \
      (PyObject *mem), (mem),                                                 \
      "size_t UsmMemory_GetSize(object mem) except? <size_t>-1",              \
      "its size in bytes")                                                    \
    /* "device", "shared" or "host" (a static string). */                     \
    X(const char *, UsmMemory_GetUsmType, Memory_GetUsmType,                  \
      (const char *)NULL, (PyObject *mem), (mem),                             \
      "const char *UsmMemory_GetUsmType(object mem) except NULL",             \
      "``\"device\"``, ``\"shared\"`` or ``\"host\"`` (a static string)")     \
    /* Whether obj is a usmarray.Queue.  0 before import_usmarray(), with     \
     * RuntimeError set. */                                                   \
    X(int, UsmQueue_Check, Queue_Check, 0, (PyObject *obj), (obj),            \
      "bint UsmQueue_Check(object obj)",                                      \
      "whether ``obj`` is a ``Queue``")                                       \
    /* The backend serving the queue: "host", "cuda", "sycl" (a static        \
     * string). */                                                            \
    X(const char *, UsmQueue_GetBackend, Queue_GetBackend,                    \
      (const char *)NULL, (PyObject *queue), (queue),                         \
      "const char *UsmQueue_GetBackend(object queue) except NULL",            \
      "``\"host\"``, ``\"cuda\"`` or ``\"sycl\"`` (a static string)")         \
    /* The driver's queue, for submitting native work in order with the       \
     * queue's: a CUstream for "cuda", a DPCTLSyclQueueRef for "sycl";        \
     * NULL on "host" (and NULL with TypeError for a non-queue: check         \
     * PyErr_Occurred()). */                                                  \
    X(void *, UsmQueue_GetNativeHandle, Queue_GetNativeHandle, (void *)NULL,  \
      (PyObject *queue), (queue),                                             \
      "void *UsmQueue_GetNativeHandle(object queue) except? NULL",            \
      "the driver's queue (``CUstream``, ``DPCTLSyclQueueRef``), NULL on "    \
      "the host backend; NULL is also the error value, so check "             \
      "``PyErr_Occurred()``")                                                 \
    /* Blocks, without the GIL, until the queue's work has finished. */       \
    X(int, UsmQueue_Wait, Queue_Wait, -1, (PyObject *queue), (queue),         \
      "int UsmQueue_Wait(object queue) except -1",                            \
      "0 once the queue's work has finished; waits without the GIL")          \
    /* Borrowed: the usmarray.Device the queue feeds. */                      \
    X(PyObject *, UsmQueue_GetDevice, Queue_GetDevice, (PyObject *)NULL,      \
      (PyObject *queue), (queue),                                             \
      "PyObject *UsmQueue_GetDevice(object queue) except NULL",               \
      "borrowed: the ``Device`` the queue feeds")
/* clang-format on */

#define USMARRAY__PARAMS(...) __VA_ARGS__

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

#define USMARRAY__MEMBER(RET, NAME, MEMBER, FAIL, PARAMS, ARGS, CYTHON, DOC)  \
    RET (*MEMBER)(const UsmArray_CAPI *, USMARRAY__PARAMS PARAMS);
    USMARRAY_API_FUNCTIONS(USMARRAY__MEMBER)
#undef USMARRAY__MEMBER
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

/* Each function of the list above, calling through the table. */
#define USMARRAY__FUNCTION(RET, NAME, MEMBER, FAIL, PARAMS, ARGS, CYTHON,     \
                           DOC)                                               \
    static inline RET NAME PARAMS                                             \
    {                                                                         \
        return USMARRAY__CALL(FAIL, MEMBER, USMARRAY__PARAMS ARGS);           \
    }
USMARRAY_API_FUNCTIONS(USMARRAY__FUNCTION)
#undef USMARRAY__FUNCTION

#endif /* USMARRAY_INTERNAL_BUILD */

#ifdef __cplusplus
}
#endif

#endif /* USMARRAY_USMARRAY_API_H */
