# cython: language_level=3
"""A Cython extension built against the installed usmarray's C API by
tests/interop/test_capi.py: the same functions as capi_c.c, through usmarray_api.pxd.
"""

from cpython.object cimport PyObject
from libc.stdint cimport uintptr_t
from libc.stdlib cimport free, malloc
from libc.string cimport strcmp

from usmarray cimport usmarray_api as api
from usmarray.usmarray_api cimport USMArray

api.import_usmarray()

cdef int _freed = 0


cdef PyObject *_or_null(object obj):
    return NULL if obj is None else <PyObject *>obj


cdef Py_ssize_t _dims(tuple seq, Py_ssize_t *out) except -1:
    if len(seq) > 8:
        raise TypeError("expected a tuple of <= 8 ints")
    for k, v in enumerate(seq):
        out[k] = v
    return len(seq)


def reimport():
    api.import_usmarray()


def checks(obj):
    return (api.UsmArray_Check(obj), api.UsmMemory_Check(obj),
            api.UsmQueue_Check(obj))


def describe(arr):
    """The accessors, and the struct read as the document's class: both
    must agree."""
    cdef int nd = api.UsmArray_GetNDim(arr)
    cdef char *data = api.UsmArray_GetData(arr)
    cdef Py_ssize_t *shape = api.UsmArray_GetShape(arr)
    cdef Py_ssize_t *strides = api.UsmArray_GetStrides(arr)
    cdef int typenum = api.UsmArray_GetTypeNum(arr)
    cdef int flags = api.UsmArray_GetFlags(arr)
    base = <object>api.UsmArray_GetBase(arr)
    queue = <object>api.UsmArray_GetQueue(arr)
    cdef USMArray s = arr
    agrees = (s.nd == nd and s.data == data and s.shape == shape and
              s.strides == strides and s.typenum == typenum and
              s.flags == flags and s.base is base)
    return {
        "nd": nd,
        "data": <uintptr_t>data,
        "shape": tuple(shape[k] for k in range(nd)),
        "strides": tuple(strides[k] for k in range(nd)),
        "typenum": typenum,
        "flags": flags,
        "base": base,
        "queue": queue,
        "struct_agrees": agrees,
    }


def new(tuple shape, int typenum, strides, usm_type, queue):
    cdef Py_ssize_t shp[8]
    cdef Py_ssize_t st[8]
    cdef int nd = _dims(shape, shp)
    if strides is not None:
        _dims(strides, st)
    cdef const char *kind = NULL
    if usm_type is not None:
        usm_type = usm_type.encode()
        kind = usm_type
    return api.UsmArray_New(nd, shp, typenum,
                            NULL if strides is None else st, kind,
                            _or_null(queue))


def from_memory(memory, tuple shape, int typenum, strides, Py_ssize_t offset):
    cdef Py_ssize_t shp[8]
    cdef Py_ssize_t st[8]
    cdef int nd = _dims(shape, shp)
    if strides is not None:
        _dims(strides, st)
    return api.UsmArray_FromMemory(memory, nd, shp, typenum,
                                   NULL if strides is None else st, offset)


def copy_into(dst, src):
    api.UsmArray_CopyInto(dst, src)


def fill_iota(USMArray arr):
    """Native work on the elements: 0, 1, 2, ... in index order through the
    struct's data and strides (elements), for host-accessible float64."""
    if arr.typenum != 12 or strcmp(api.UsmMemory_GetUsmType(arr.base), b"device") == 0:
        raise TypeError("needs host-accessible float64")
    cdef double *data = <double *>arr.data
    cdef Py_ssize_t index[8]
    cdef Py_ssize_t size = 1, i, at
    cdef int k
    for k in range(arr.nd):
        index[k] = 0
        size *= arr.shape[k]
    for i in range(size):
        at = 0
        for k in range(arr.nd):
            at += index[k] * arr.strides[k]
        data[at] = i
        k = arr.nd - 1
        while k >= 0:
            index[k] += 1
            if index[k] < arr.shape[k]:
                break
            index[k] = 0
            k -= 1


def memory_new(Py_ssize_t nbytes, usm_type, queue):
    cdef const char *kind = NULL
    if usm_type is not None:
        usm_type = usm_type.encode()
        kind = usm_type
    return api.UsmMemory_New(<size_t>nbytes, kind, _or_null(queue))


def memory_info(mem):
    cdef void *ptr = api.UsmMemory_GetPointer(mem)
    cdef size_t size = api.UsmMemory_GetSize(mem)
    return (<uintptr_t>ptr, size, api.UsmMemory_GetUsmType(mem).decode())


def wrap_pointer(uintptr_t address, Py_ssize_t nbytes, queue, owner):
    return api.UsmMemory_FromPointer(<void *>address, <size_t>nbytes,
                                     _or_null(queue), owner)


cdef class _Buffer:
    """Owns memory this extension malloc()s."""
    cdef void *ptr

    def __dealloc__(self):
        global _freed
        free(self.ptr)
        _freed += 1


def host_array(Py_ssize_t n):
    """A float64 array of n elements over memory this extension malloc()s,
    freed when the last array over it goes."""
    if n <= 0:
        raise ValueError("n <= 0")
    owner = _Buffer()
    owner.ptr = malloc(n * sizeof(double))
    if owner.ptr == NULL:
        raise MemoryError()
    mem = api.UsmMemory_FromPointer(owner.ptr, n * sizeof(double), NULL,
                                    owner)
    return api.UsmArray_FromMemory(mem, 1, &n, 12, NULL, 0)


def freed_count():
    return _freed


def queue_info(queue):
    backend = api.UsmQueue_GetBackend(queue).decode()
    cdef void *handle = api.UsmQueue_GetNativeHandle(queue)
    device = <object>api.UsmQueue_GetDevice(queue)
    return (backend, None if handle == NULL else <uintptr_t>handle, device)


def queue_wait(queue):
    api.UsmQueue_Wait(queue)
