# cython: language_level=3
"""scale_cy: the Cython twin of scale.c (docs/extension.rst)."""
from cpython.object cimport PyObject
from libc.stdlib cimport free, malloc
from libc.string cimport strcmp

from usmarray cimport usmarray_api as capi
from usmarray.usmarray_api cimport USMArray

capi.import_usmarray()

cdef enum:
    NPY_FLOAT64 = 12  # NumPy's type number; usmarray uses NumPy's


cdef void scale_on_host(int nd, const Py_ssize_t *shape,
                        const Py_ssize_t *strides, double *data,
                        double factor) noexcept nogil:
    """Multiplies every element, walking the strides (in elements)."""
    cdef Py_ssize_t index[capi.USM_ARRAY_MAX_NDIM]
    cdef Py_ssize_t size = 1, i, at
    cdef int k
    for k in range(nd):
        index[k] = 0
        size *= shape[k]
    for i in range(size):
        at = 0
        for k in range(nd):
            at += index[k] * strides[k]
        data[at] *= factor
        k = nd - 1  # the next multi-index, last axis fastest
        while k >= 0:
            index[k] += 1
            if index[k] < shape[k]:
                break
            index[k] = 0
            k -= 1


def scale(USMArray x not None, double factor):
    """scale(x, factor): x *= factor, for a writable float64 USMArray."""
    if x.typenum != NPY_FLOAT64:
        raise TypeError("scale() needs a float64 USMArray")
    if not x.flags & capi.USM_ARRAY_WRITABLE:
        raise ValueError("scale() needs a writable array")
    cdef USMArray target = x
    if strcmp(capi.UsmMemory_GetUsmType(x.base), b"device") == 0:
        # Device memory is not for the CPU: stage through shared memory on
        # the same queue (a real extension launches a kernel instead).
        target = capi.UsmArray_New(x.nd, x.shape, NPY_FLOAT64, NULL,
                                   b"shared", capi.UsmArray_GetQueue(x))
        capi.UsmArray_CopyInto(target, x)
    else:
        capi.UsmQueue_Wait(<object>capi.UsmArray_GetQueue(x))
    with nogil:
        scale_on_host(target.nd, target.shape, target.strides,
                      <double *>target.data, factor)
    if target is not x:
        capi.UsmArray_CopyInto(x, target)


cdef class _Buffer:
    """Owns memory this extension malloc()s."""
    cdef double *ptr

    def __dealloc__(self):
        free(self.ptr)


def host_range(Py_ssize_t n, queue):
    """host_range(n, queue): 0.0 .. n-1 in host memory this extension owns."""
    if n <= 0:
        raise ValueError("n must be positive")
    owner = _Buffer()
    owner.ptr = <double *>malloc(n * sizeof(double))
    if owner.ptr == NULL:
        raise MemoryError()
    for i in range(n):
        owner.ptr[i] = i
    # The owner keeps the buffer; the Memory keeps the owner, and every
    # array over the Memory keeps the Memory.
    memory = capi.UsmMemory_FromPointer(owner.ptr, n * sizeof(double),
                                        <PyObject *>queue, owner)
    return capi.UsmArray_FromMemory(memory, 1, &n, NPY_FLOAT64, NULL, 0)
