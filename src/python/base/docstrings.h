/* The docstrings of the Python API, in numpydoc's format, kept out of the
 * code that implements it.  Each begins with the signature CPython reads
 * for inspect.signature ("name($self, /, ...)\n--\n\n"), which the stubs
 * and the API reference agree with (mypy.stubtest checks). */
#ifndef USMARRAY_DOCSTRINGS_H
#define USMARRAY_DOCSTRINGS_H

/* -------------------------------------------------------------- Device */

#define UA_DOC_DEVICE                                                         \
    "Device(filter_string=None)\n--\n\n"                                      \
    "A device of one of the backends.\n\n"                                    \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "filter_string : str or Device, optional\n"                               \
    "    ``backend:device_type:relative_id``, each field optional and\n"      \
    "    case-insensitive (``'host'``, ``'gpu'``, ``'cuda:gpu:1'``), or a\n"  \
    "    bare global index such as ``'2'``.  None selects the default\n"      \
    "    device: ``USMARRAY_DEVICE`` if set, else the first GPU, else the\n"  \
    "    host CPU.\n\n"                                                       \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    When no device matches; the message lists the devices there are.\n"  \
    "TypeError\n"                                                             \
    "    When filter_string is neither a str, a Device nor None.\n\n"         \
    "Notes\n"                                                                 \
    "-----\n"                                                                 \
    "Devices are created once: two selections of one device return the\n"     \
    "same object, and devices compare and hash by identity.\n"

#define UA_DOC_DEVICE_CAN_ACCESS_PEER                                         \
    "can_access_peer($self, peer, /)\n--\n\n"                                 \
    "Whether copies on this device's queues reach a peer's memory\n"          \
    "directly.\n\n"                                                           \
    "Directly means the same device, a link such as NVLink (peer access\n"    \
    "is enabled on first ask), or CPU memory, rather than through the\n"      \
    "host.\n\n"                                                               \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "peer : Device, Queue, Context or str\n"                                  \
    "    The other device.\n\n"                                               \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "bool\n"                                                                  \
    "    False where copies go through host memory, as between devices\n"     \
    "    whose queues reach no memory of each other.\n"

/* ------------------------------------------------------ Context, Queue */

#define UA_DOC_CONTEXT                                                        \
    "Context(device=None)\n--\n\n"                                            \
    "The default context of a device.\n\n"                                    \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "device : Device or str, optional\n"                                      \
    "    A device or filter string; None is the default device.\n\n"          \
    "Notes\n"                                                                 \
    "-----\n"                                                                 \
    "A context is created once per device and cached, so asking twice\n"      \
    "returns the same object.  On CUDA it is the device's primary context,\n" \
    "the one the CUDA runtime and the libraries built on it share.\n"

#define UA_DOC_CONTEXT_RELEASE_POOL                                           \
    "release_pool($self, /)\n--\n\n"                                          \
    "Give the freed allocations this context keeps for reuse back to the\n"   \
    "backend.\n"

#define UA_DOC_CONTEXT_FREE_ALL_BLOCKS                                        \
    "free_all_blocks($self, /)\n--\n\n"                                       \
    "CuPy's name for ``release_pool``: give every block no array uses back\n" \
    "to the backend.\n"

#define UA_POOL_USM_TYPE_PARAMETER                                            \
    "usm_type : {'device', 'shared', 'host'}, optional\n"                     \
    "    The USM kind.\n"

#define UA_DOC_CONTEXT_USED_NBYTES                                            \
    "used_nbytes($self, /, usm_type='device')\n--\n\n"                        \
    "Bytes the context's live allocations of a USM kind hold.\n\n"            \
    "A pooled block counts its size class, as allocated.\n\n"                 \
    "Parameters\n"                                                            \
    "----------\n" UA_POOL_USM_TYPE_PARAMETER "\nReturns\n"                   \
    "-------\n"                                                               \
    "int\n"

#define UA_DOC_CONTEXT_HELD_NBYTES                                            \
    "held_nbytes($self, /, usm_type='device')\n--\n\n"                        \
    "Bytes the context holds from the backend for a USM kind.\n\n"            \
    "Those in use and those kept for reuse (CuPy's ``total_bytes()``).\n\n"   \
    "Parameters\n"                                                            \
    "----------\n" UA_POOL_USM_TYPE_PARAMETER "\nReturns\n"                   \
    "-------\n"                                                               \
    "int\n"

#define UA_DOC_CONTEXT_SET_LIMIT                                              \
    "set_limit($self, /, nbytes, usm_type='device')\n--\n\n"                  \
    "Limit the bytes live allocations of a USM kind may hold together.\n\n"   \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "nbytes : int or None\n"                                                  \
    "    The limit; None removes it.\n" UA_POOL_USM_TYPE_PARAMETER            \
    "\nNotes\n"                                                               \
    "-----\n"                                                                 \
    "An allocation past the limit raises ``USMAllocationError``.\n"

#define UA_DOC_CONTEXT_GET_LIMIT                                              \
    "get_limit($self, /, usm_type='device')\n--\n\n"                          \
    "The limit ``set_limit`` set for a USM kind, or None.\n\n"                \
    "Parameters\n"                                                            \
    "----------\n" UA_POOL_USM_TYPE_PARAMETER

#define UA_DOC_QUEUE                                                          \
    "Queue(device=None, *, context=None, in_order=None, priority=None)\n"     \
    "--\n\n"                                                                  \
    "A queue of a device: its default one, or a new one.\n\n"                 \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "device : Device or str, optional\n"                                      \
    "    A device or filter string; None is the default device.\n"            \
    "context : Context, optional\n"                                           \
    "    The context; it must be the device's default context.\n"             \
    "in_order : bool, optional\n"                                             \
    "    Given, a new queue: False lets the backend run its work out of\n"    \
    "    order (CUDA streams and the host backend always run in order).\n"    \
    "priority : int, optional\n"                                              \
    "    Given, a new queue of that priority, within ``priorities()``'s\n"    \
    "    range.\n\n"                                                          \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    For a priority out of range, or where queues have no priorities.\n"  \
    "\n"                                                                      \
    "Notes\n"                                                                 \
    "-----\n"                                                                 \
    "Without in_order and priority, the device's default queue, cached: \n"   \
    "asking twice returns the same object.  A new queue is freed with the\n"  \
    "object once its work is done.  On CUDA a queue is a stream; on the\n"    \
    "host backend work runs at once on the calling thread.\n"

#define UA_DOC_QUEUE_FROM_STREAM                                              \
    "from_stream($type, /, stream, device=None, *, context=None, "            \
    "owner=None)\n--\n\n"                                                     \
    "A new queue over another library's stream.\n\n"                          \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "stream : int\n"                                                          \
    "    The driver's handle (``torch.cuda.Stream.cuda_stream``,\n"           \
    "    ``cupy.cuda.Stream.ptr``; 0 is the default stream).\n"               \
    "device : Device or str, optional\n"                                      \
    "    The stream's device; None is the default device.\n"                  \
    "context : Context, optional\n"                                           \
    "    The device's default context.\n"                                     \
    "owner : object, optional\n"                                              \
    "    Kept alive as long as the queue, so that the stream outlives it\n"   \
    "    (the stream object, for instance).\n\n"                              \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "Queue\n"                                                                 \
    "    The stream stays the other library's: the queue never destroys\n"    \
    "    it.\n\n"                                                             \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    For a handle that is no stream of the device.\n"

#define UA_DOC_QUEUE_PRIORITIES                                               \
    "priorities($self, /)\n--\n\n"                                            \
    "The device's range of queue priorities.\n\n"                             \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "tuple of int or None\n"                                                  \
    "    ``(least, greatest)``, or None where its queues have none.\n"

#define UA_DOC_QUEUE_WAIT                                                     \
    "wait($self, /)\n--\n\n"                                                  \
    "Block, without the GIL, until all work submitted to the queue is\n"      \
    "done.\n"

/* -------------------------------------------------------------- Memory */

#define UA_MEMORY_SIGNATURE(cls)                                              \
    cls "(nbytes_or_obj, *, alignment=0, queue=None, copy=False)\n--\n\n"

#define UA_MEMORY_PARAMETERS(kind)                                            \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "nbytes_or_obj : int or object\n"                                         \
    "    A positive size in bytes to allocate, or a Memory or an object\n"    \
    "    exposing ``__sycl_usm_array_interface__`` to wrap without a copy\n"  \
    "    (it is kept alive as ``reference_obj``).\n"                          \
    "alignment : int, optional\n"                                             \
    "    0 for the backend's default, or a power of two.\n"                   \
    "queue : Queue, Context, Device or str, optional\n"                       \
    "    Where to allocate; None is the default device's queue.\n"            \
    "copy : bool, optional\n"                                                 \
    "    Copy wrapped memory that cannot be taken as USM " kind " memory\n"   \
    "    of queue's context with the given alignment, instead of raising.\n"  \
    "\n"                                                                      \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    For a size that is not positive, an alignment that is not a power\n" \
    "    of two, or wrapped memory of another USM kind, another context or\n" \
    "    another alignment when copy is False.\n"                             \
    "USMAllocationError\n"                                                    \
    "    When the backend cannot allocate.\n"

#define UA_DOC_MEMORY                                                         \
    UA_MEMORY_SIGNATURE("Memory")                                             \
    "A USM allocation, or a region of one.\n\n"                               \
    "The abstract base class of MemoryUSMDevice, MemoryUSMShared and\n"       \
    "MemoryUSMHost; only those are instantiated.\n\n"                         \
    "See Also\n"                                                              \
    "--------\n"                                                              \
    "MemoryUSMDevice, MemoryUSMShared, MemoryUSMHost, as_usm_memory\n"

#define UA_DOC_MEMORY_DEVICE                                                  \
    UA_MEMORY_SIGNATURE("MemoryUSMDevice")                                    \
    "USM device memory: reachable by the device only.\n\n"                    \
    "It exports no buffer to the host, on every backend; copy through\n"      \
    "``copy_to_host`` and ``copy_from_host``.\n\n" UA_MEMORY_PARAMETERS(      \
        "device")

#define UA_DOC_MEMORY_SHARED                                                  \
    UA_MEMORY_SIGNATURE("MemoryUSMShared")                                    \
    "USM shared memory: reachable by the host and the device.\n\n"            \
    "It exports the buffer protocol (1-D, format ``B``, writable unless\n"    \
    "wrapped read-only).\n\n" UA_MEMORY_PARAMETERS("shared")

#define UA_DOC_MEMORY_HOST                                                    \
    UA_MEMORY_SIGNATURE("MemoryUSMHost")                                      \
    "USM host memory: host memory the device can reach.\n\n"                  \
    "It exports the buffer protocol (1-D, format ``B``, writable unless\n"    \
    "wrapped read-only).\n\n" UA_MEMORY_PARAMETERS("host")

#define UA_DOC_MEMORY_GET_USM_TYPE                                            \
    "get_usm_type($self, /, syclobj=None)\n--\n\n"                            \
    "The USM kind of the memory as a context sees it.\n\n"                    \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "syclobj : Queue, Context, Device or str, optional\n"                     \
    "    The context to ask; None is the memory's own.\n\n"                   \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "str\n"                                                                   \
    "    ``'device'``, ``'shared'``, ``'host'``, or ``'unknown'`` when the\n" \
    "    memory is not of that context.\n"

#define UA_DOC_MEMORY_GET_USM_TYPE_ENUM                                       \
    "get_usm_type_enum($self, /, syclobj=None)\n--\n\n"                       \
    "The USM kind of the memory as a number, as dpctl numbers them.\n\n"      \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "syclobj : Queue, Context, Device or str, optional\n"                     \
    "    The context to ask; None is the memory's own.\n\n"                   \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "int\n"                                                                   \
    "    1 for device, 2 for shared, 3 for host memory, 0 when the memory\n"  \
    "    is not of that context (dpctl's ``sycl_usm_type``).\n"

#define UA_DOC_MEMORY_COPY_TO_HOST                                            \
    "copy_to_host($self, /, obj=None)\n--\n\n"                                \
    "Copy the memory's bytes to the host.\n\n"                                \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "obj : writable buffer, optional\n"                                       \
    "    A C-contiguous buffer of at least ``nbytes`` bytes; None makes a\n"  \
    "    new array.\n\n"                                                      \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "numpy.ndarray or object\n"                                               \
    "    obj, or a new ``numpy.uint8`` array of ``nbytes`` elements.\n\n"     \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    When obj is shorter than the memory.\n"

#define UA_DOC_MEMORY_COPY_FROM_HOST                                          \
    "copy_from_host($self, obj, /)\n--\n\n"                                   \
    "Copy a host buffer to the start of the memory.\n\n"                      \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "obj : buffer\n"                                                          \
    "    A C-contiguous buffer of at most ``nbytes`` bytes.\n\n"              \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    When obj is longer than the memory, or the memory is read-only.\n"

#define UA_DOC_MEMORY_COPY_FROM_DEVICE                                        \
    "copy_from_device($self, obj, /)\n--\n\n"                                 \
    "Copy USM memory to the start of this memory.\n\n"                        \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "obj : Memory or object\n"                                                \
    "    A Memory, or an object whose ``__sycl_usm_array_interface__``\n"     \
    "    spans at most ``nbytes`` bytes.\n\n"                                 \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    When obj is longer than the memory, or the memory is read-only.\n"   \
    "TypeError\n"                                                             \
    "    When obj exposes no ``__sycl_usm_array_interface__``.\n"

#define UA_DOC_MEMORY_MEMSET                                                  \
    "memset($self, /, value=0)\n--\n\n"                                       \
    "Set every byte of the memory.\n\n"                                       \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "value : int, optional\n"                                                 \
    "    The byte value, 0 to 255.\n"

#define UA_DOC_MEMORY_TOBYTES                                                 \
    "tobytes($self, /)\n--\n\n"                                               \
    "A ``bytes`` copy of the memory.\n"

/* ------------------------------------------------------------ USMArray */

#define UA_DOC_USMARRAY                                                       \
    "USMArray(shape, dtype='|f8', buffer='device', strides=None, offset=0, "  \
    "order='C', buffer_ctor_kwargs={})\n--\n\n"                               \
    "An N-dimensional strided array over USM memory.\n\n"                     \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "shape : int or sequence of int\n"                                        \
    "    The extent of each axis.\n"                                          \
    "dtype : dtype-like, optional\n"                                          \
    "    One of bool, int8 to int64, uint8 to uint64, float16, float32,\n"    \
    "    float64, complex64, complex128, in native byte order.\n"             \
    "buffer : {'device', 'shared', 'host'}, Memory or USMArray, optional\n"   \
    "    A USM kind to allocate exactly the elements the layout reaches\n"    \
    "    (with negative strides the zero-index element moves so that the\n"   \
    "    lowest element starts the buffer), a Memory to lay the array "       \
    "over,\n"                                                                 \
    "    or a USMArray, meaning its ``base``.\n"                              \
    "strides : sequence of int, optional\n"                                   \
    "    Strides in elements; None lays the array out in ``order``.\n"        \
    "offset : int, optional\n"                                                \
    "    Elements from the start of the buffer to the zero-index element.\n"  \
    "order : {'C', 'F'}, optional\n"                                          \
    "    The layout when strides is None.\n"                                  \
    "buffer_ctor_kwargs : dict, optional\n"                                   \
    "    ``queue`` and ``alignment`` of a new allocation.\n\n"                \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    When the layout reaches outside the buffer, or a shape or stride\n"  \
    "    is out of range.\n"                                                  \
    "TypeError\n"                                                             \
    "    For a dtype usmarray does not support, or arguments of the wrong\n"  \
    "    type.\n\n"                                                           \
    "See Also\n"                                                              \
    "--------\n"                                                              \
    "asarray, empty, from_dlpack\n"

#define UA_DOC_ARRAY_RESHAPE                                                  \
    "reshape($self, /, *shape, order='C', copy=None)\n--\n\n"                 \
    "The array with a new shape.\n\n"                                         \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "*shape : int or sequence of int\n"                                       \
    "    The new shape; one entry may be -1.\n"                               \
    "order : {'C', 'F'}, optional\n"                                          \
    "    The order in which elements are read and placed.\n"                  \
    "copy : bool, optional\n"                                                 \
    "    True always copies, False never does (raising ValueError where a\n"  \
    "    view is impossible), None copies only where it must.\n\n"            \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    A view where the layout allows one, else a copy.\n"

#define UA_DOC_ARRAY_TRANSPOSE                                                \
    "transpose($self, /, *axes)\n--\n\n"                                      \
    "A view with the axes permuted.\n\n"                                      \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "*axes : int or sequence of int\n"                                        \
    "    A permutation of the axes; none reverses them.\n\n"                  \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    A view of the same memory.\n"

#define UA_DOC_ARRAY_COPY                                                     \
    "copy($self, /, order='C')\n--\n\n"                                       \
    "A copy in new memory of the same USM kind, on the same queue.\n\n"       \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "order : {'C', 'F', 'A', 'K'}, optional\n"                                \
    "    The layout of the copy; 'K' keeps the memory order of the array.\n"  \
    "\n"                                                                      \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"

#define UA_DOC_ARRAY_ASTYPE                                                   \
    "astype($self, /, dtype, order='K', *, casting='unsafe', copy=True,\n"    \
    "       device=None)\n--\n\n"                                             \
    "The array cast to another dtype, with NumPy's unsafe casting.\n\n"       \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "dtype : dtype-like or None\n"                                            \
    "    The element type of the result; None is the default floating\n"      \
    "    dtype of the result's device (float64 where it has fp64), as\n"      \
    "    dpctl's ``astype`` takes it.\n"                                      \
    "order : {'C', 'F', 'A', 'K'}, optional\n"                                \
    "    The layout of the result; ``'K'`` keeps the array's, the signs\n"    \
    "    of its strides included, as dpctl's does.\n"                         \
    "casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional\n"    \
    "    NumPy's rule the cast must follow, else ``TypeError``.\n"            \
    "copy : bool, optional\n"                                                 \
    "    False returns the array itself when dtype, order and device\n"       \
    "    already match.\n"                                                    \
    "device : Device, Queue, filter string or None, optional\n"               \
    "    Where the result goes, as ``to_device`` takes it.\n\n"               \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"

#define UA_DOC_ARRAY_TO_DEVICE                                                \
    "to_device($self, /, device, *, stream=None)\n--\n\n"                     \
    "The array on another device or queue.\n\n"                               \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "device : Device, Queue, Context, str or dpctl.SyclQueue\n"               \
    "    Where the result lives.\n"                                           \
    "stream : Queue, dpctl.SyclQueue or int, optional\n"                      \
    "    A queue of the target device to copy on (the result's queue), or\n"  \
    "    a driver's stream handle whose enqueued work the copy waits for;\n"  \
    "    the host backend has no streams.\n\n"                                \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    The array itself when already on that queue; the same memory on\n"   \
    "    the new queue when it is of the same context (as dpctl's), that\n"   \
    "    queue ordered after the old one's work; else a copy of the same\n"   \
    "    USM kind.\n"

#define UA_DOC_ARRAY_DUNDER_ARRAY                                             \
    "__array__($self, /, dtype=None, copy=None)\n--\n\n"                      \
    "A NumPy array of the elements, for ``numpy.asarray``.\n\n"               \
    "It shares host-accessible memory (``'shared'`` and ``'host'``, and\n"    \
    "every kind on the host backend, whose memory is the process's);\n"       \
    "a GPU's device memory raises TypeError, pointing to\n"                   \
    "``usmarray.asnumpy``.\n"

#define UA_DOC_ARRAY_DLPACK                                                   \
    "__dlpack__($self, /, *, stream=None, max_version=None, dl_device=None, " \
    "copy=None)\n--\n\n"                                                      \
    "Export the array as a DLPack capsule.\n\n"                               \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "stream : int, optional\n"                                                \
    "    The consumer's stream, on backends with streams; None on the\n"      \
    "    host backend.\n"                                                     \
    "max_version : tuple of int, optional\n"                                  \
    "    The newest DLPack version the consumer takes: (1, x) or newer\n"     \
    "    gives a ``dltensor_versioned`` capsule, None or (0, x) a legacy\n"   \
    "    ``dltensor`` one.\n"                                                 \
    "dl_device : tuple of int, optional\n"                                    \
    "    The DLPack device the consumer needs; only the array's own is\n"     \
    "    possible.\n"                                                         \
    "copy : bool, optional\n"                                                 \
    "    True exports a copy, False refuses to copy.\n\n"                     \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "PyCapsule\n\n"                                                           \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "BufferError\n"                                                           \
    "    For a dl_device the array cannot be exported to, or a legacy\n"      \
    "    capsule of a read-only array without copy=True.\n"

#define UA_DOC_ARRAY_DLPACK_DEVICE                                            \
    "__dlpack_device__($self, /)\n--\n\n"                                     \
    "The DLPack ``(device_type, device_id)`` of the array's memory.\n"

#define UA_DOC_ARRAY_ITEM                                                     \
    "item($self, /, *args)\n--\n\n"                                           \
    "One element as a Python scalar.\n\n"                                     \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "*args : int\n"                                                           \
    "    None for the only element of a size-1 array, a flat index in C\n"    \
    "    order, or one index per axis.\n\n"                                   \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "bool, int, float or complex\n"

#define UA_DOC_ARRAY_TOLIST                                                   \
    "tolist($self, /)\n--\n\n"                                                \
    "The elements as nested lists of Python scalars.\n\n"                     \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "list or scalar\n"                                                        \
    "    A scalar for a 0-d array.\n"

#define UA_DOC_ARRAY_FILL                                                     \
    "fill($self, value, /)\n--\n\n"                                           \
    "Set every element to value.\n\n"                                         \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "value : scalar\n"                                                        \
    "    Converted to the array's dtype.\n"

#define UA_DOC_FLAGS                                                          \
    "The flags of a USMArray.\n\n"                                            \
    "Read as attributes or by key (``'C'``, ``'F'``, ``'W'`` and NumPy's\n"   \
    "long names); only ``writable`` may be set, and only to what the\n"       \
    "memory allows.\n"

/* ----------------------------------------------------------- functions */

#define UA_CREATION_PARAMETERS(usm_default)                                   \
    "dtype : dtype-like, optional\n"                                          \
    "    The element type.\n"                                                 \
    "order : {'C', 'F'}, optional\n"                                          \
    "    The layout.\n"                                                       \
    "device : Device, Queue or str, optional\n"                               \
    "    Where to allocate; None is the default device.\n"                    \
    "usm_type : {'device', 'shared', 'host'}, optional\n"                     \
    "    The USM kind of the memory" usm_default ".\n"                        \
    "queue, sycl_queue : Queue or dpctl.SyclQueue, optional\n"                \
    "    The queue to allocate on, instead of device; sycl_queue is dpctl's " \
    "and dpnp's name of it, and a dpctl SyclQueue is that very queue.\n"

#define UA_DOC_EMPTY                                                          \
    "empty(shape, *, dtype=None, order='C', device=None, usm_type='device', " \
    "queue=None, sycl_queue=None)\n--\n\n"                                    \
    "A new array, its elements not initialised.\n\n"                          \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "shape : int or sequence of int\n"                                        \
    "    The extent of each axis.\n" UA_CREATION_PARAMETERS(                  \
        "") "\nReturns\n"                                                     \
            "-------\n"                                                       \
            "USMArray\n"                                                      \
            "    Of dtype float64 unless dtype says otherwise.\n"

#define UA_DOC_FILLED(name, what)                                             \
    name "(shape, *, dtype=None, order='C', device=None, usm_type='device', " \
         "queue=None, sycl_queue=None)\n--\n\n"                               \
         "A new array filled with " what ".\n\n"                              \
         "Parameters\n"                                                       \
         "----------\n"                                                       \
         "shape : int or sequence of int\n"                                   \
         "    The extent of each axis.\n" UA_CREATION_PARAMETERS(             \
             "") "\nReturns\n"                                                \
                 "-------\n"                                                  \
                 "USMArray\n"                                                 \
                 "    Of dtype float64 unless dtype says otherwise.\n"

#define UA_DOC_FULL                                                           \
    "full(shape, fill_value, *, dtype=None, order='C', device=None, "         \
    "usm_type='device', queue=None, sycl_queue=None)\n--\n\n"                 \
    "A new array filled with fill_value.\n\n"                                 \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "shape : int or sequence of int\n"                                        \
    "    The extent of each axis.\n"                                          \
    "fill_value : scalar or array-like\n"                                     \
    "    Broadcast to shape; its dtype is the result's unless dtype is\n"     \
    "    given.\n" UA_CREATION_PARAMETERS("") "\nReturns\n"                   \
                                              "-------\n"                     \
                                              "USMArray\n"

#define UA_DOC_LIKE(name, what)                                               \
    name                                                                      \
        "(x, *, dtype=None, order='K', device=None, usm_type=None, "          \
        "queue=None, sycl_queue=None)\n--\n\n"                                \
        "A new array shaped like x, " what ".\n\n"                            \
        "Parameters\n"                                                        \
        "----------\n"                                                        \
        "x : USMArray\n"                                                      \
        "    The array whose shape, and by default dtype, USM kind, queue "   \
        "and\n"                                                               \
        "    memory order ('K'), the result takes.\n" UA_CREATION_PARAMETERS( \
            " (x's by default)") "\nReturns\n"                                \
                                 "-------\n"                                  \
                                 "USMArray\n"

#define UA_DOC_FULL_LIKE                                                      \
    "full_like(x, fill_value, *, dtype=None, order='K', device=None, "        \
    "usm_type=None, queue=None, sycl_queue=None)\n--\n\n"                     \
    "A new array shaped like x, filled with fill_value.\n\n"                  \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    The array whose shape, and by default dtype, USM kind, queue and\n"  \
    "    memory order ('K'), the result takes.\n"                             \
    "fill_value : scalar or array-like\n"                                     \
    "    Broadcast to x's shape.\n" UA_CREATION_PARAMETERS(                   \
        " (x's by default)") "\nReturns\n"                                    \
                             "-------\n"                                      \
                             "USMArray\n"

#define UA_DOC_ARANGE                                                         \
    "arange(start, /, stop=None, step=1, *, dtype=None, device=None, "        \
    "usm_type='device', queue=None, sycl_queue=None)\n--\n\n"                 \
    "Evenly spaced values in [start, stop), as ``numpy.arange`` computes\n"   \
    "them, made on the device.\n\n"                                           \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "start : int or float\n"                                                  \
    "    The first value, or the stop when stop is None (start is then 0).\n" \
    "stop : int or float, optional\n"                                         \
    "    The end, not included.\n"                                            \
    "step : int or float, optional\n"                                         \
    "    The spacing, 1 by default; it must not be zero.\n"                   \
    "dtype : dtype-like, optional\n"                                          \
    "    The element type; NumPy's choice for the arguments by default.\n"    \
    "device : Device, Queue or str, optional\n"                               \
    "    Where to allocate; None is the default device.\n"                    \
    "usm_type : {'device', 'shared', 'host'}, optional\n"                     \
    "    The USM kind of the memory.\n"                                       \
    "queue, sycl_queue : Queue or dpctl.SyclQueue, optional\n"                \
    "    The queue to allocate on, instead of device (sycl_queue: dpctl's\n"  \
    "    name of it).\n\n"                                                    \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    A 1-D array.\n"

#define UA_DOC_LINSPACE                                                       \
    "linspace(start, stop, /, num, *, dtype=None, device=None, "              \
    "endpoint=True, usm_type='device', queue=None, sycl_queue=None)\n"        \
    "--\n"                                                                    \
    "\n"                                                                      \
    "num evenly spaced values from start to stop, as ``numpy.linspace``\n"    \
    "computes them (in double precision, then cast), made on the device.\n"   \
    "\n"                                                                      \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "start, stop : int, float or complex\n"                                   \
    "    The first value and the end (included where endpoint is true).\n"    \
    "num : int\n"                                                             \
    "    How many values; not negative.\n"                                    \
    "dtype : dtype-like, optional\n"                                          \
    "    The device's default floating type by default, complex for\n"        \
    "    complex bounds.  An integer or boolean type gets the values\n"       \
    "    rounded down, as NumPy's (an extension, as dpctl's).\n"              \
    "device : Device, Queue or str, optional\n"                               \
    "    Where to allocate; None is the default device.\n"                    \
    "endpoint : bool, optional\n"                                             \
    "    Whether stop is the last value.\n"                                   \
    "\n"                                                                      \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    A 1-D array of num elements."

#define UA_DOC_EYE                                                            \
    "eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None, "           \
    "usm_type='device', queue=None, sycl_queue=None)\n"                       \
    "--\n"                                                                    \
    "\n"                                                                      \
    "A matrix with ones on the k-th diagonal and zeros elsewhere, made on "   \
    "the\n"                                                                   \
    "device.\n"                                                               \
    "\n"                                                                      \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "n_rows, n_cols : int\n"                                                  \
    "    The shape; n_cols is n_rows by default.\n"                           \
    "k : int, optional\n"                                                     \
    "    The diagonal: 0 the main one, positive above it, negative below.\n"  \
    "dtype : dtype-like, optional\n"                                          \
    "    float64 by default.\n"                                               \
    "device : Device, Queue or str, optional\n"                               \
    "    Where to allocate; None is the default device.\n"                    \
    "\n"                                                                      \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray"

#define UA_DOC_TRIL                                                           \
    "tril(x, /, *, k=0)\n"                                                    \
    "--\n"                                                                    \
    "\n"                                                                      \
    "A copy of x with the elements above the k-th diagonal of each matrix\n"  \
    "(its last two axes) zeroed.\n"                                           \
    "\n"                                                                      \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    At least 2-D.\n"                                                     \
    "k : int, optional\n"                                                     \
    "    The diagonal: 0 the main one, positive above it, negative below.\n"  \
    "\n"                                                                      \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    On x's queue, of x's dtype."

#define UA_DOC_TRIU                                                           \
    "triu(x, /, *, k=0)\n"                                                    \
    "--\n"                                                                    \
    "\n"                                                                      \
    "A copy of x with the elements below the k-th diagonal of each matrix\n"  \
    "(its last two axes) zeroed.\n"                                           \
    "\n"                                                                      \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    At least 2-D.\n"                                                     \
    "k : int, optional\n"                                                     \
    "    The diagonal: 0 the main one, positive above it, negative below.\n"  \
    "\n"                                                                      \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    On x's queue, of x's dtype."

#define UA_DOC_MESHGRID                                                       \
    "meshgrid(*arrays, indexing='xy')\n"                                      \
    "--\n"                                                                    \
    "\n"                                                                      \
    "Coordinate matrices from one-dimensional arrays, as "                    \
    "``numpy.meshgrid``\n"                                                    \
    "gives them: each a new array.\n"                                         \
    "\n"                                                                      \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "*arrays : USMArray\n"                                                    \
    "    One-dimensional arrays of one dtype; each output is on its\n"        \
    "    input's queue.\n"                                                    \
    "indexing : {'xy', 'ij'}, optional\n"                                     \
    "    Cartesian ('xy': the first two axes swapped) or matrix ('ij')\n"     \
    "    indexing.\n"                                                         \
    "\n"                                                                      \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "tuple of USMArray"

#define UA_DOC_TAKE                                                           \
    "take(x, indices, /, *, axis=None)\n"                                     \
    "--\n"                                                                    \
    "\n"                                                                      \
    "The elements of x at indices along an axis, by the backend's gather\n"   \
    "kernel.\n"                                                               \
    "\n"                                                                      \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "indices : USMArray or sequence of int\n"                                 \
    "    Integer indices; negative ones count from the end.  One out of "     \
    "bounds\n"                                                                \
    "    raises IndexError.\n"                                                \
    "axis : int, optional\n"                                                  \
    "    The axis; it may be omitted for a one-dimensional x.\n"              \
    "\n"                                                                      \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    x's axis replaced by the axes of indices."

#define UA_DOC_TAKE_ALONG_AXIS                                                \
    "take_along_axis(x, indices, /, *, axis=-1)\n"                            \
    "--\n"                                                                    \
    "\n"                                                                      \
    "The elements of x at indices along axis, matching them one to one\n"     \
    "along the other axes (which broadcast), as ``numpy.take_along_axis``.\n" \
    "\n"                                                                      \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "indices : USMArray\n"                                                    \
    "    Integer indices with x's number of dimensions.\n"                    \
    "axis : int, optional\n"                                                  \
    "    The axis; the last by default.\n"                                    \
    "\n"                                                                      \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray"

#define UA_DOC_ASARRAY                                                        \
    "asarray(obj, *, dtype=None, copy=None, usm_type=None, queue=None, "      \
    "sycl_queue=None, "                                                       \
    "order='K', device=None)\n--\n\n"                                         \
    "A USMArray of obj, shared without a copy where possible.\n\n"            \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "obj : object\n"                                                          \
    "    Tried in this order: a USMArray; an object with\n"                   \
    "    ``__sycl_usm_array_interface__``; with "                             \
    "``__cuda_array_interface__``;\n"                                         \
    "    with ``__dlpack__`` (unless it exports the buffer protocol); "       \
    "NumPy\n"                                                                 \
    "    arrays, buffers, nested sequences and scalars (host data).\n"        \
    "dtype : dtype-like, optional\n"                                          \
    "    The element type of the result; a different one means a copy.\n"     \
    "copy : bool, optional\n"                                                 \
    "    True always copies; False never does and raises ValueError where\n"  \
    "    a copy is needed; None copies only where needed.\n"                  \
    "usm_type : {'device', 'shared', 'host'}, optional\n"                     \
    "    The USM kind of the result: the source's for USM sources, and\n"     \
    "    ``'device'`` for host data.  ``'host'`` on the host backend wraps\n" \
    "    host data without a copy.\n"                                         \
    "queue, sycl_queue : Queue, Device, str or dpctl.SyclQueue, optional\n"   \
    "    Where the result lives: the source's queue, or the default\n"        \
    "    device's for host data (sycl_queue: dpctl's name of it).\n"          \
    "order : {'C', 'F', 'A', 'K'}, optional\n"                                \
    "    The layout of a copy; 'K' keeps the source's memory order.\n"        \
    "device : Device, Queue, Context or str, optional\n"                      \
    "    Where the result lives, as in the Python array API; given with\n"    \
    "    queue, the two must agree.\n\n"                                      \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n\n"                                                            \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    When copy is False and a copy is needed, or an interface\n"          \
    "    dictionary is malformed (the message names the key).\n"              \
    "TypeError\n"                                                             \
    "    For objects and dtypes usmarray cannot take.\n"

#define UA_DOC_FROM_DLPACK                                                    \
    "from_dlpack(x, /, *, device=None, copy=None)\n--\n\n"                    \
    "A USMArray over the memory of a DLPack producer, without a copy.\n\n"    \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : object\n"                                                            \
    "    An object with ``__dlpack__`` and ``__dlpack_device__``, or a\n"     \
    "    DLPack capsule.\n"                                                   \
    "device : Device, Queue or str, optional\n"                               \
    "    Where the result must live; another device than x's means a copy.\n" \
    "copy : bool, optional\n"                                                 \
    "    True always copies; False never does.\n\n"                           \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    Memory the library knows keeps its USM kind and queue; other CPU\n"  \
    "    memory becomes a borrowed ``'host'`` allocation of the host\n"       \
    "    backend for as long as the array lives.\n\n"                         \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "BufferError\n"                                                           \
    "    For element types, devices, versions or layouts usmarray cannot\n"   \
    "    take; the capsule is then left to its producer.\n"

#define UA_DOC_ASNUMPY                                                        \
    "asnumpy(x, /, *, order='C')\n--\n\n"                                     \
    "A ``numpy.ndarray`` with a copy of the elements of x.\n\n"               \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray or object\n"                                                \
    "    Anything ``asarray`` takes.\n"                                       \
    "order : {'C', 'F', 'A', 'K'}, optional\n"                                \
    "    The copy's memory order, as NumPy's ``asarray`` takes it, of a\n"    \
    "    C-ordered copy (as dpnp's ``asnumpy``).\n\n"                         \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "numpy.ndarray\n"

#define UA_DOC_COPY                                                           \
    "copy(x, /, *, order='K')\n--\n\n"                                        \
    "A copy of x on its queue, of its USM kind (dpctl's ``copy``).\n\n"       \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "order : {'C', 'F', 'A', 'K'}, optional\n"                                \
    "    The copy's memory order; 'K' keeps x's order of strides and\n"       \
    "    their signs.\n\n"                                                    \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"

/* ------------------------------------------------ manipulation */

#define UA_DOC_BROADCAST_ARRAYS                                               \
    "broadcast_arrays(*arrays)\n--\n\n"                                       \
    "Views of the arrays with the shape they broadcast to together.\n\n"      \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "*arrays : USMArray\n"                                                    \
    "    The arrays.\n\n"                                                     \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "tuple of USMArray\n"                                                     \
    "    Views that share the arrays' memory; those whose elements\n"         \
    "    repeat are read-only, the others keep their array's\n"               \
    "    writability.\n\n"                                                    \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    When two of the shapes do not broadcast together (the message\n"     \
    "    names them).\n"

#define UA_DOC_BROADCAST_SHAPES                                               \
    "broadcast_shapes(*shapes)\n--\n\n"                                       \
    "The shape that arrays of the given shapes broadcast to together.\n\n"    \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "*shapes : tuple of int\n"                                                \
    "    The shapes (an integer is a shape of one axis).\n\n"                 \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "tuple of int\n"                                                          \
    "    The broadcast shape; () for no shapes.\n\n"                          \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    When two of the shapes do not broadcast together (the message\n"     \
    "    names them).\n"

#define UA_DOC_BROADCAST_TO                                                   \
    "broadcast_to(x, /, shape)\n--\n\n"                                       \
    "A read-only view of x with the given shape.\n\n"                         \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    The array; each axis of length 1 and each missing leading axis\n"    \
    "    repeats its elements through a stride of 0.\n"                       \
    "shape : int or sequence of int\n"                                        \
    "    The shape, which x must broadcast to.\n\n"                           \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    A view that shares x's memory; read-only, as in NumPy, since\n"      \
    "    its elements repeat.\n\n"                                            \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    When x does not broadcast to shape (the message names both).\n"

#define UA_DOC_CONCAT                                                         \
    "concat(arrays, /, *, axis=0)\n--\n\n"                                    \
    "The arrays joined along an existing axis, in new memory.\n\n"            \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "arrays : tuple or list of USMArray\n"                                    \
    "    At least one array, all on one queue, with the same shape\n"         \
    "    except along axis.\n"                                                \
    "axis : int or None, optional\n"                                          \
    "    The axis to join along (negative counts from the end); None\n"       \
    "    joins the arrays flattened in C order.\n\n"                          \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    Of the dtype the arrays promote to (``result_type``), on their\n"    \
    "    queue, C-contiguous; each array is copied once into its place.\n\n"  \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    When there is no array, the arrays are on different queues, or\n"    \
    "    their shapes differ off the axis.\n"

#define UA_DOC_EXPAND_DIMS                                                    \
    "expand_dims(x, /, axis=0)\n--\n\n"                                       \
    "A view of x with axes of length 1 inserted.\n\n"                         \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    The array.\n"                                                        \
    "axis : int or sequence of int, optional\n"                               \
    "    The positions of the new axes in the result, in ``[-x.ndim -\n"      \
    "    len(axes), x.ndim + len(axes))``; a sequence is an extension,\n"     \
    "    as in NumPy.\n\n"                                                    \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    A view that shares x's memory.\n"

#define UA_DOC_FLIP                                                           \
    "flip(x, /, *, axis=None)\n--\n\n"                                        \
    "A view of x with the order of its elements reversed along axes.\n\n"     \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    The array.\n"                                                        \
    "axis : int or sequence of int, optional\n"                               \
    "    The axes to reverse; None reverses them all.\n\n"                    \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    A view that shares x's memory, with negative strides.\n"

#define UA_DOC_MOVEAXIS                                                       \
    "moveaxis(x, source, destination, /)\n--\n\n"                             \
    "A view of x with axes moved to new positions.\n\n"                       \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    The array.\n"                                                        \
    "source : int or sequence of int\n"                                       \
    "    The axes to move.\n"                                                 \
    "destination : int or sequence of int\n"                                  \
    "    Their positions in the result, as many as source; the other\n"       \
    "    axes keep their order.\n\n"                                          \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    A view that shares x's memory.\n"

#define UA_DOC_PERMUTE_DIMS                                                   \
    "permute_dims(x, /, axes)\n--\n\n"                                        \
    "A view of x with its axes permuted.\n\n"                                 \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    The array.\n"                                                        \
    "axes : sequence of int\n"                                                \
    "    A permutation of ``range(x.ndim)``.\n\n"                             \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"

#define UA_DOC_REPEAT                                                         \
    "repeat(x, repeats, /, *, axis=None)\n--\n\n"                             \
    "Each element of x repeated, in new memory.\n\n"                          \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    The array.\n"                                                        \
    "repeats : int, USMArray or sequence of int\n"                            \
    "    The number of times each element repeats: one count for all,\n"      \
    "    or one for each element along axis; non-negative integers.  An\n"    \
    "    array is read to the host, since it determines the result's\n"       \
    "    shape.\n"                                                            \
    "axis : int, optional\n"                                                  \
    "    The axis to repeat along; None repeats the flattened array's\n"      \
    "    elements.\n\n"                                                       \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    C-contiguous, filled by one copy per run of equal counts from\n"     \
    "    a view of x whose repetition axis has a stride of 0.\n"

#define UA_DOC_RESHAPE                                                        \
    "reshape(x, /, shape, *, copy=None, order='C')\n--\n\n"                   \
    "x with a new shape: a view where the layout allows one.\n\n"             \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    The array.\n"                                                        \
    "shape : int or sequence of int\n"                                        \
    "    The new shape; one entry may be -1.\n"                               \
    "copy : bool, optional\n"                                                 \
    "    True always copies; False never does, raising ValueError where\n"    \
    "    a view is impossible; None copies only where it must.\n"             \
    "order : {'C', 'F'}, optional\n"                                          \
    "    The order in which elements are read and placed (an\n"               \
    "    extension).\n\n"                                                     \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"

#define UA_DOC_ROLL                                                           \
    "roll(x, /, shift, *, axis=None)\n--\n\n"                                 \
    "x with its elements rolled along axes, in new memory.\n\n"               \
    "Elements that roll beyond the last position come back at the\n"          \
    "first.\n\n"                                                              \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    The array.\n"                                                        \
    "shift : int or sequence of int\n"                                        \
    "    The number of places to roll by; negative rolls back.\n"             \
    "axis : int or sequence of int, optional\n"                               \
    "    The axes to roll along; shift and axis broadcast against each\n"     \
    "    other and the shifts of a repeated axis add up.  None rolls\n"       \
    "    the flattened array by the shifts' sum and keeps x's shape.\n\n"     \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    Of x's shape and dtype, on its queue, C-contiguous: at most\n"       \
    "    two block copies per rolled axis, without a temporary.\n"

#define UA_DOC_SQUEEZE                                                        \
    "squeeze(x, /, axis)\n--\n\n"                                             \
    "A view of x without some of its axes of length 1.\n\n"                   \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    The array.\n"                                                        \
    "axis : int or sequence of int\n"                                         \
    "    The axes to remove, each of length 1.\n\n"                           \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    A view that shares x's memory.\n\n"                                  \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    When an axis is not of length 1.\n"

#define UA_DOC_STACK                                                          \
    "stack(arrays, /, *, axis=0)\n--\n\n"                                     \
    "The arrays joined along a new axis, in new memory.\n\n"                  \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "arrays : tuple or list of USMArray\n"                                    \
    "    At least one array, all on one queue and of one shape.\n"            \
    "axis : int, optional\n"                                                  \
    "    The position of the new axis in the result (negative counts\n"       \
    "    from the end).\n\n"                                                  \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    Of the dtype the arrays promote to, on their queue,\n"               \
    "    C-contiguous.\n\n"                                                   \
    "Raises\n"                                                                \
    "------\n"                                                                \
    "ValueError\n"                                                            \
    "    When there is no array, the arrays are on different queues, or\n"    \
    "    their shapes differ.\n"

#define UA_DOC_TILE                                                           \
    "tile(x, repetitions, /)\n--\n\n"                                         \
    "x repeated as tiles, in new memory.\n\n"                                 \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    The array.\n"                                                        \
    "repetitions : int or sequence of int\n"                                  \
    "    The number of repetitions along each axis; the shorter of x's\n"     \
    "    shape and repetitions is padded with leading 1s.\n\n"                \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"                                                              \
    "    C-contiguous, filled by one copy from a view of x whose\n"           \
    "    repetition axes have a stride of 0.\n"

#define UA_DOC_UNSTACK                                                        \
    "unstack(x, /, *, axis=0)\n--\n\n"                                        \
    "The parts of x along an axis, as views.\n\n"                             \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    An array of at least one dimension.\n"                               \
    "axis : int, optional\n"                                                  \
    "    The axis to split along.\n\n"                                        \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "tuple of USMArray\n"                                                     \
    "    ``x.shape[axis]`` views of ``x.ndim - 1`` dimensions that\n"         \
    "    share x's memory.\n"

#define UA_DOC_GET_DEVICES                                                    \
    "get_devices(backend=None, device_type=None)\n--\n\n"                     \
    "The devices of the available backends.\n\n"                              \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "backend : str, optional\n"                                               \
    "    Only the devices of this backend (``'host'``, ``'cuda'``,\n"         \
    "    ``'sycl'``).\n"                                                      \
    "device_type : {'cpu', 'gpu', 'accelerator'}, optional\n"                 \
    "    Only the devices of this type.\n\n"                                  \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "tuple of Device\n"                                                       \
    "    In global order: the host CPU first, then backend by backend.\n"

#define UA_DOC_AS_USM_MEMORY                                                  \
    "as_usm_memory(obj, /)\n--\n\n"                                           \
    "Wrap an object exposing ``__sycl_usm_array_interface__`` without a\n"    \
    "copy.\n\n"                                                               \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "obj : object\n"                                                          \
    "    A Memory (returned as it is) or an object with\n"                    \
    "    ``__sycl_usm_array_interface__``.\n\n"                               \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "Memory\n"                                                                \
    "    Of the class of the memory's true USM kind, spanning the bytes\n"    \
    "    the interface's elements reach.\n"

#define UA_DOC_GET_POINTER_TYPE                                               \
    "get_pointer_type(ptr, syclobj=None)\n--\n\n"                             \
    "The USM kind of the allocation that holds an address.\n\n"               \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "ptr : int\n"                                                             \
    "    Any address, not only the start of an allocation.\n"                 \
    "syclobj : Queue, Context, Device or str, optional\n"                     \
    "    The context to ask; None is the default device's.\n\n"               \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "str\n"                                                                   \
    "    ``'device'``, ``'shared'``, ``'host'``, or ``'unknown'`` for\n"      \
    "    memory that context does not know.\n"

#define UA_DOC_RESULT_TYPE                                                    \
    "result_type(*arrays_and_dtypes)\n--\n\n"                                 \
    "The dtype that arrays and dtypes promote to together.\n\n"               \
    "Inside a kind the Array API standard's table; across kinds (integers\n"  \
    "with floating types, signed integers with uint64) NumPy 2's, so that\n"  \
    "code moved from NumPy gets the same dtypes.  Python scalars are weak:\n" \
    "they take the dtype of the arrays where their kind allows (an int "      \
    "with\n"                                                                  \
    "int8 gives int8, a float with an integer dtype gives float64).\n\n"      \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "arrays_and_dtypes : USMArray, dtype or Python scalar\n"                  \
    "    At least one array or dtype.\n\n"                                    \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "numpy.dtype\n"

#define UA_DOC_CAN_CAST                                                       \
    "can_cast(from_, to, /)\n--\n\n"                                          \
    "Whether every value of ``from_`` is a value of ``to`` (NumPy's\n"        \
    "``\"safe\"`` casting).\n\n"                                              \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "from_ : dtype or USMArray\n"                                             \
    "    The dtype cast from, or an array of it.\n"                           \
    "to : dtype\n"                                                            \
    "    The dtype cast to.\n\n"                                              \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "bool\n"

#define UA_DOC_ISDTYPE                                                        \
    "isdtype(dtype, kind)\n--\n\n"                                            \
    "Whether a dtype is of a kind.\n\n"                                       \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "dtype : numpy.dtype\n"                                                   \
    "    The dtype asked about.\n"                                            \
    "kind : str, dtype or tuple\n"                                            \
    "    ``\"bool\"``, ``\"signed integer\"``, ``\"unsigned integer\"``,\n"   \
    "    ``\"integral\"``, ``\"real floating\"``, ``\"complex floating\"`` "  \
    "or\n"                                                                    \
    "    ``\"numeric\"``; a dtype, which must equal ``dtype``; or a tuple "   \
    "of\n"                                                                    \
    "    those, any of which may match.\n\n"                                  \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "bool\n"

#define UA_DOC_IINFO                                                          \
    "iinfo(type, /)\n--\n\n"                                                  \
    "The limits of an integer dtype.\n\n"                                     \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "type : dtype or USMArray\n"                                              \
    "    An integer dtype, or an array of one.\n\n"                           \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "iinfo_object\n"                                                          \
    "    With ``bits``, ``max``, ``min`` (Python ints) and ``dtype``.\n"

#define UA_DOC_FINFO                                                          \
    "finfo(type, /)\n--\n\n"                                                  \
    "The limits of a floating dtype; those of its real part for a complex\n"  \
    "one.\n\n"                                                                \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "type : dtype or USMArray\n"                                              \
    "    A floating dtype, or an array of one.\n\n"                           \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "finfo_object\n"                                                          \
    "    With ``bits`` (of the real part), ``eps``, ``max``, ``min`` and\n"   \
    "    ``smallest_normal`` (Python floats) and ``dtype`` (real "            \
    "floating).\n"

#define UA_DOC_ARRAY_NAMESPACE                                                \
    "__array_namespace__($self, /, *, api_version=None)\n--\n\n"              \
    "The Array API namespace of the array: a module object named\n"           \
    "``usm_array_api`` that holds the usmarray package's public names\n"      \
    "(the same objects), made once.  Its name does not contain\n"             \
    "\"marray\": SciPy takes such a namespace for the MArray library's.\n\n"  \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "api_version : str or None\n"                                             \
    "    The version of the standard asked for; ``\"2024.12\"`` or None.\n"   \
    "    Any other raises ``ValueError``.\n\n"                                \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "module\n"

#define UA_DOC_ASTYPE                                                         \
    "astype(x, dtype, /, *, copy=True, device=None, order='K',\n"             \
    "       casting='unsafe')\n--\n\n"                                        \
    "A copy of an array cast to a dtype, on its device or another.\n\n"       \
    "The Array API's function form of ``x.astype``: values convert as\n"      \
    "NumPy's ``astype`` converts them (unsafe casting), and the result\n"     \
    "keeps ``x``'s USM kind and its memory order.\n\n"                        \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "x : USMArray\n"                                                          \
    "    The array to cast.\n"                                                \
    "dtype : dtype or None\n"                                                 \
    "    The dtype of the result; ``None`` is the default floating dtype\n"   \
    "    of the result's device, as dpctl's ``astype`` takes it.\n"           \
    "copy : bool\n"                                                           \
    "    ``True`` (the default) always makes a new array; ``False``\n"        \
    "    returns ``x`` itself where ``dtype`` is ``x.dtype`` and "            \
    "``device``\n"                                                            \
    "    ``x``'s own queue.\n"                                                \
    "device : Device, Queue, filter string or None\n"                         \
    "    Where the result goes, as ``x.to_device(device)`` takes it; None\n"  \
    "    keeps ``x``'s queue.\n"                                              \
    "order : {'K', 'C', 'F', 'A'}, optional\n"                                \
    "    The layout of the result; ``'K'`` keeps x's, the signs of its\n"     \
    "    strides included.\n"                                                 \
    "casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional\n"    \
    "    NumPy's rule the cast must follow, else ``TypeError``.\n\n"          \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "USMArray\n"

#define UA_DOC_ARRAY_NAMESPACE_INFO                                           \
    "__array_namespace_info__()\n--\n\n"                                      \
    "The Array API's inspection utilities of the namespace.\n\n"              \
    "Calling it gives an object whose methods tell what the namespace\n"      \
    "supports (``capabilities()``), its devices (``default_device()``,\n"     \
    "``devices()``) and each device's dtypes (``default_dtypes()``,\n"        \
    "``dtypes()``).  Their ``device`` arguments take what the creation\n"     \
    "functions take: a ``Device``, ``Queue``, ``Context``, filter string,\n"  \
    "or None for the default device.\n"

#define UA_DOC_INFO_CAPABILITIES                                              \
    "capabilities($self, /)\n--\n\n"                                          \
    "What the namespace supports.\n\n"                                        \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "dict\n"                                                                  \
    "    ``\"boolean indexing\"`` and ``\"data-dependent shapes\"``: True;\n" \
    "    ``\"max dimensions\"``: 64.\n"

#define UA_DOC_INFO_DEFAULT_DEVICE                                            \
    "default_device($self, /)\n--\n\n"                                        \
    "The default device: ``USMARRAY_DEVICE`` if set, else the first GPU,\n"   \
    "else the host CPU.\n\n"                                                  \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "Device\n"

#define UA_DOC_INFO_DEFAULT_DTYPES                                            \
    "default_dtypes($self, /, *, device=None)\n--\n\n"                        \
    "The default dtypes of a device.\n\n"                                     \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "device : Device, Queue, filter string or None\n"                         \
    "    The device asked about; None is the default device.\n\n"             \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "dict\n"                                                                  \
    "    ``\"real floating\"``, ``\"complex floating\"``, ``\"integral\"``\n" \
    "    and ``\"indexing\"``: float64, complex128, int64 and int64 on a\n"   \
    "    device with double precision (the host, CUDA, SYCL devices with\n"   \
    "    the fp64 aspect), float32 and complex64 on others.\n"

#define UA_DOC_INFO_DTYPES                                                    \
    "dtypes($self, /, *, device=None, kind=None)\n--\n\n"                     \
    "The standard's dtypes that a device supports, by name.\n\n"              \
    "float16, which usmarray supports as an extension, is not one of the\n"   \
    "standard's dtypes and is never listed; float64 and complex128 are\n"     \
    "left out on a device without double precision.\n\n"                      \
    "Parameters\n"                                                            \
    "----------\n"                                                            \
    "device : Device, Queue, filter string or None\n"                         \
    "    The device asked about; None is the default device.\n"               \
    "kind : str, tuple of str or None\n"                                      \
    "    Only the dtypes of this kind, as ``isdtype`` reads kinds\n"          \
    "    (``\"bool\"``, ``\"signed integer\"``, ``\"unsigned integer\"``,\n"  \
    "    ``\"integral\"``, ``\"real floating\"``, ``\"complex "               \
    "floating\"``,\n"                                                         \
    "    ``\"numeric\"``, or a tuple of those); None for all.\n\n"            \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "dict\n"                                                                  \
    "    Names (``\"int8\"``, ...) to dtypes, in the standard's order.\n"

#define UA_DOC_INFO_DEVICES                                                   \
    "devices($self, /)\n--\n\n"                                               \
    "Every device of every available backend, as ``get_devices()`` lists\n"   \
    "them.\n\n"                                                               \
    "Returns\n"                                                               \
    "-------\n"                                                               \
    "tuple of Device\n"

#endif /* USMARRAY_DOCSTRINGS_H */
