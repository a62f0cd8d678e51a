# cython: language_level=3
"""The C API of usmarray for Cython: ``from usmarray cimport usmarray_api``.

Compile the generated C with ``-I`` ``usmarray.get_include()`` (or the flags
``python -m usmarray --includes`` prints) and call ``import_usmarray()`` once
at module level before anything else here.  The declarations are those of
``usmarray/usmarray_api.h``; returned objects are new references unless the
declaration says ``PyObject *`` (borrowed).
"""

from cpython.object cimport PyObject, PyTypeObject

cdef extern from "usmarray/usmarray_api.h":
    enum:
        USMARRAY_API_VERSION_MAJOR
        USMARRAY_API_VERSION_MINOR
        USM_ARRAY_C_CONTIGUOUS
        USM_ARRAY_F_CONTIGUOUS
        USM_ARRAY_WRITABLE
        USM_ARRAY_MAX_NDIM

    # The array as the source document declares it; fields are read-only.
    ctypedef class usmarray._usmarray.USMArray [object PyUSMArrayObject]:
        cdef int nd
        cdef char *data
        cdef Py_ssize_t *shape
        cdef Py_ssize_t *strides
        cdef int typenum
        cdef int flags
        cdef object base

    ctypedef struct UsmArray_CAPI:
        unsigned int version_major
        unsigned int version_minor
        PyTypeObject *USMArrayType
        PyTypeObject *MemoryType
        PyTypeObject *MemoryUSMDeviceType
        PyTypeObject *MemoryUSMSharedType
        PyTypeObject *MemoryUSMHostType
        PyTypeObject *QueueType
        PyTypeObject *ContextType
        PyTypeObject *DeviceType

    const UsmArray_CAPI *UsmArray_API

    int import_usmarray() except -1

    # BEGIN: written by tools/capi_gen.py from USMARRAY_API_FUNCTIONS
    bint UsmArray_Check(object obj)
    int UsmArray_GetNDim(object arr) except -1
    char *UsmArray_GetData(object arr) except NULL
    Py_ssize_t *UsmArray_GetShape(object arr) except NULL
    Py_ssize_t *UsmArray_GetStrides(object arr) except NULL
    int UsmArray_GetTypeNum(object arr) except -1
    int UsmArray_GetFlags(object arr) except -1
    PyObject *UsmArray_GetBase(object arr) except NULL
    PyObject *UsmArray_GetQueue(object arr) except NULL
    object UsmArray_New(int nd, const Py_ssize_t *shape, int typenum, const Py_ssize_t *strides, const char *usm_type, PyObject *queue)
    object UsmArray_FromMemory(object memory, int nd, const Py_ssize_t *shape, int typenum, const Py_ssize_t *strides, Py_ssize_t offset)
    int UsmArray_CopyInto(object dst, object src) except -1

    bint UsmMemory_Check(object obj)
    object UsmMemory_New(size_t nbytes, const char *usm_type, PyObject *queue)
    object UsmMemory_FromPointer(void *ptr, size_t nbytes, PyObject *queue, object owner)
    void *UsmMemory_GetPointer(object mem) except NULL
    size_t UsmMemory_GetSize(object mem) except? <size_t>-1
    const char *UsmMemory_GetUsmType(object mem) except NULL

    bint UsmQueue_Check(object obj)
    const char *UsmQueue_GetBackend(object queue) except NULL
    void *UsmQueue_GetNativeHandle(object queue) except? NULL
    int UsmQueue_Wait(object queue) except -1
    PyObject *UsmQueue_GetDevice(object queue) except NULL
    # END: written by tools/capi_gen.py
