/* usmarray core: the Python-free C layer.
 *
 * Every function that can fail returns a ua_status and leaves a message in
 * thread-local storage (ua_error_message()); UA_OK is zero.  Nothing here
 * includes Python.h: the binding maps the codes to exceptions in one place.
 */
#ifndef USMARRAY_CORE_H
#define USMARRAY_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Most dimensions an array may have (NumPy 2 allows as many). */
#define UA_MAXDIMS 64

/* ------------------------------------------------------------------ errors */

typedef enum ua_status {
    UA_OK = 0,
    UA_ERR_VALUE = 1,       /* ValueError */
    UA_ERR_TYPE = 2,        /* TypeError */
    UA_ERR_INDEX = 3,       /* IndexError */
    UA_ERR_BUFFER = 4,      /* BufferError */
    UA_ERR_NOMEM = 5,       /* MemoryError: host bookkeeping memory */
    UA_ERR_ALLOC = 6,       /* USMAllocationError: the backend refused */
    UA_ERR_RUNTIME = 7,     /* RuntimeError: a driver call failed */
    UA_ERR_UNAVAILABLE = 8, /* a backend or device is not usable */
    UA_ERR_OVERFLOW = 9,    /* OverflowError: a value outside its type */
    UA_ERR_LINALG = 10      /* linalg.LinAlgError: singular, not definite */
} ua_status;

#if defined(__GNUC__) || defined(__clang__)
#define UA_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define UA_PRINTF(f, a)
#endif

/* Records code and message for this thread; returns code. */
ua_status ua_error_set(ua_status code, const char *fmt, ...) UA_PRINTF(2, 3);
const char *ua_error_message(void);
/* nbytes as a person reads it, in buf: "512 bytes", "1.50 KiB", "7.11 PiB"
 * (binary units, three significant digits).  Returns buf. */
const char *ua_format_bytes(size_t nbytes, char buf[32]);
ua_status ua_error_code(void);
void ua_error_clear(void);

/* ------------------------------------------------------------------ dtypes */

/* Every supported element type, once, in the order of ua_dtype_at(); each
 * user expands the columns it needs:
 *   ENUM    the core's name
 *   NUM     its value, NumPy's type number on LP64 platforms, so that a
 *           typenum can be handed to NumPy unchanged
 *   CODE    NumPy's kind and item size as one token, which also names the
 *           type in generated identifiers (typestr without byte order)
 *   NAME    NumPy's name, for messages
 *   KIND    NumPy's kind character
 *   SIZE    bytes per item
 *   FORMAT  PEP 3118 format
 *   CTYPE   the C type whose bits an item holds (c64 and c128 are pairs
 *           of float and double, declared where they are used)
 *   LOAD    how the core's casts read and store it: B(ool), N(umber),
 *           H(alf, IEEE binary16 bits) or C(omplex)
 * Each backend spells the types in its kernel language in its own files.
 * UA_DTYPES_WITH(X, A) passes A before the columns, for users that cross
 * the list with itself (the core's casts). */
#define UA_DTYPES(X) UA_DTYPES_WITH(UA_DTYPE_CALL_, X)
#define UA_DTYPE_CALL_(X, ...) X(__VA_ARGS__)
#define UA_DTYPES_WITH(X, A)                                                  \
    X(A, UA_BOOL, 0, b1, "bool", 'b', 1, "?", uint8_t, B)                     \
    X(A, UA_INT8, 1, i1, "int8", 'i', 1, "b", int8_t, N)                      \
    X(A, UA_UINT8, 2, u1, "uint8", 'u', 1, "B", uint8_t, N)                   \
    X(A, UA_INT16, 3, i2, "int16", 'i', 2, "h", int16_t, N)                   \
    X(A, UA_UINT16, 4, u2, "uint16", 'u', 2, "H", uint16_t, N)                \
    X(A, UA_INT32, 5, i4, "int32", 'i', 4, "i", int32_t, N)                   \
    X(A, UA_UINT32, 6, u4, "uint32", 'u', 4, "I", uint32_t, N)                \
    X(A, UA_INT64, 7, i8, "int64", 'i', 8, "q", int64_t, N)                   \
    X(A, UA_UINT64, 8, u8, "uint64", 'u', 8, "Q", uint64_t, N)                \
    X(A, UA_FLOAT16, 23, f2, "float16", 'f', 2, "e", uint16_t, H)             \
    X(A, UA_FLOAT32, 11, f4, "float32", 'f', 4, "f", float, N)                \
    X(A, UA_FLOAT64, 12, f8, "float64", 'f', 8, "d", double, N)               \
    X(A, UA_COMPLEX64, 14, c8, "complex64", 'c', 8, "Zf", c64, C)             \
    X(A, UA_COMPLEX128, 15, c16, "complex128", 'c', 16, "Zd", c128, C)

#define UA_DTYPE_ENUM_(E, NUM, ...) E = NUM,
typedef enum ua_typenum { UA_DTYPES(UA_DTYPE_ENUM_) } ua_typenum;

#define UA_DTYPE_ONE_(...) +1
#define UA_NTYPES (0 UA_DTYPES(UA_DTYPE_ONE_))

/* The names of the supported types, "bool, int8, ..., complex128, ". */
#define UA_DTYPE_NAME_(E, NUM, CODE, NAME, ...) NAME ", "
#define UA_DTYPE_NAMES UA_DTYPES(UA_DTYPE_NAME_)

bool ua_typenum_is_valid(int typenum);
size_t ua_dtype_itemsize(ua_typenum t);
/* NumPy kind character: 'b', 'i', 'u', 'f' or 'c'. */
char ua_dtype_kind(ua_typenum t);
/* NumPy's name: "bool", "int8", ..., "complex128". */
const char *ua_dtype_name(ua_typenum t);
/* Canonical typestr in native byte order: "|b1", "<f8", ... */
const char *ua_dtype_typestr(ua_typenum t);
/* PEP 3118 format: "?", "b", "B", "h", ..., "Zd". */
const char *ua_dtype_buffer_format(ua_typenum t);
/* The i-th supported type, 0 <= i < UA_NTYPES, for iteration. */
ua_typenum ua_dtype_at(int i);
/* The position of a valid type in that order (the inverse of ua_dtype_at). */
int ua_dtype_index(ua_typenum t);
/* Parses a typestr of the array interfaces ("<f8", "|u1", "=i4", "f8").
 * Rejects non-native byte order, unknown kinds and sizes with UA_ERR_VALUE. */
ua_status ua_dtype_from_typestr(const char *s, size_t len, ua_typenum *out);
/* Parses a PEP 3118 format string of a single native item. */
ua_status ua_dtype_from_buffer_format(const char *fmt, ua_typenum *out);

/* ------------------------------------------------------------------ layout */

/* Shapes, strides and offsets are counted in elements and held as ptrdiff_t
 * (the same width as Py_ssize_t). */

#define UA_LAYOUT_C_CONTIGUOUS 0x1
#define UA_LAYOUT_F_CONTIGUOUS 0x2

/* UA_OK when an array of nd dimensions can exist (0 <= nd <= UA_MAXDIMS);
 * else UA_ERR_VALUE, "fn: the result would have nd dimensions; at most 64
 * are supported" (no prefix where fn is NULL).  Every function that builds
 * a shape from its operands' asks this before it writes one. */
ua_status ua_layout_check_ndim(const char *fn, long long nd);
/* Number of elements; UA_ERR_VALUE on a negative extent or when the product
 * of the non-zero extents does not fit in ptrdiff_t (as NumPy refuses it,
 * even when another extent is 0). */
ua_status ua_layout_size(int nd, const ptrdiff_t *shape, ptrdiff_t *size);
/* The same, also refusing a shape whose byte count at `itemsize` bytes per
 * element (zero extents left out) does not fit in ptrdiff_t. */
ua_status ua_layout_check_size(int nd, const ptrdiff_t *shape, size_t itemsize,
                               ptrdiff_t *size);
/* UA_ERR_VALUE unless every stride, times itemsize, fits in ptrdiff_t. */
ua_status ua_layout_check_strides(int nd, const ptrdiff_t *strides,
                                  size_t itemsize);
/* Writes C ('C') or Fortran ('F') strides for shape. */
void ua_layout_default_strides(int nd, const ptrdiff_t *shape, char order,
                               ptrdiff_t *strides);
/* UA_LAYOUT_C_CONTIGUOUS | UA_LAYOUT_F_CONTIGUOUS as NumPy defines them:
 * axes of length 1 never matter and empty arrays are both. */
int ua_layout_contiguity(int nd, const ptrdiff_t *shape,
                         const ptrdiff_t *strides);
/* Smallest and largest element displacement sum(strides[k] * i[k]) that
 * the layout reaches.  Returns UA_OK with *empty set when size is zero
 * (displacements then 0).  UA_ERR_VALUE on overflow. */
ua_status ua_layout_displacements(int nd, const ptrdiff_t *shape,
                                  const ptrdiff_t *strides, ptrdiff_t *lo,
                                  ptrdiff_t *hi, bool *empty);
/* The byte range [*begin, *end) reached by the layout, relative to the
 * pointer that `offset` counts from.  An empty array reaches [o, o) where
 * o = offset * itemsize.  UA_ERR_VALUE on overflow, and for every shape
 * ua_layout_check_size or stride ua_layout_check_strides refuses. */
ua_status ua_layout_byte_range(int nd, const ptrdiff_t *shape,
                               const ptrdiff_t *strides, ptrdiff_t offset,
                               size_t itemsize, ptrdiff_t *begin,
                               ptrdiff_t *end);

/* The order an argument 'A' means for a layout of this contiguity: 'F'
 * when it is Fortran- and not C-contiguous, else 'C'.  Other orders are
 * returned unchanged. */
char ua_layout_resolve_order(int contiguity, char order);
/* Contiguous strides for shape that visit memory in the order `like`'s
 * strides do (NumPy's order 'K'); ties keep C order.  Past UA_MAXDIMS
 * axes, C order. */
void ua_layout_strides_like(int nd, const ptrdiff_t *shape,
                            const ptrdiff_t *like, ptrdiff_t *out);

/* Strides (in *new_strides) that view the layout (nd, shape, strides) as
 * new_shape, of the same size, without moving data, reading elements in
 * order 'C' or 'F'.  Returns false when only a copy can do it, and for
 * nd or new_nd outside 0..UA_MAXDIMS (no array has such a layout). */
bool ua_layout_reshape(int nd, const ptrdiff_t *shape,
                       const ptrdiff_t *strides, int new_nd,
                       const ptrdiff_t *new_shape, char order,
                       ptrdiff_t *new_strides);

/* ------------------------------------------------------- devices, queues */

typedef enum ua_usm_kind {
    UA_USM_UNKNOWN = 0,
    UA_USM_DEVICE = 1,
    UA_USM_SHARED = 2,
    UA_USM_HOST = 3
} ua_usm_kind;

const char *ua_usm_kind_name(ua_usm_kind kind);
/* "device", "shared" or "host"; UA_ERR_VALUE otherwise. */
ua_status ua_usm_kind_parse(const char *name, ua_usm_kind *out);
/* Whether code running on the host may read and write such memory. */
bool ua_usm_kind_host_accessible(ua_usm_kind kind);

typedef enum ua_device_type {
    UA_DEVICE_CPU = 1,
    UA_DEVICE_GPU = 2,
    UA_DEVICE_ACCELERATOR = 3
} ua_device_type;

const char *ua_device_type_name(ua_device_type t);

typedef struct ua_backend ua_backend;
typedef struct ua_device ua_device;
typedef struct ua_context ua_context;
typedef struct ua_queue ua_queue;

/* What a backend's memory and queues are, for decisions the core and the
 * binding make without knowing which backend they talk to. */
enum {
    /* Memory of every USM kind is plain CPU memory (so the CPU may touch it
     * where the API allows, and every backend that reaches CPU memory can
     * run copies touching it). */
    UA_CAP_CPU_MEMORY = 1u << 0,
    /* Its queues can run copies that read or write plain CPU memory. */
    UA_CAP_REACHES_CPU_MEMORY = 1u << 1,
    /* Its memory is CUDA memory: __cuda_array_interface__ applies, and the
     * interface's "stream" names one of its streams. */
    UA_CAP_CUDA_ARRAY_INTERFACE = 1u << 2,
    /* Work enqueued on its queues is done when the call that enqueued it
     * returns: waiting for a queue is never needed. */
    UA_CAP_WORK_DONE_ON_RETURN = 1u << 3,
};

/* How DLPack's `stream` argument names the consumer's stream for memory of
 * a backend. */
typedef enum ua_stream_rule {
    /* No streams: the argument must be None. */
    UA_STREAMS_NONE = 0,
    /* Integer handles of the driver: None means the backend's none_stream
     * (ua_backend_none_stream), -1 asks for no ordering, 0 is ambiguous and
     * refused. */
    UA_STREAMS_HANDLE = 1,
} ua_stream_rule;

/* Backends in the order their devices are numbered. */
size_t ua_backend_count(void);
ua_backend *ua_backend_at(size_t i);
const char *ua_backend_name(const ua_backend *b);
bool ua_backend_available(const ua_backend *b);
/* Why an unavailable backend is unavailable (empty when available). */
const char *ua_backend_reason(const ua_backend *b);
size_t ua_backend_device_count(const ua_backend *b);
/* The backend's UA_CAP_* flags and DLPack stream rule. */
unsigned ua_backend_caps(const ua_backend *b);
ua_stream_rule ua_backend_stream_rule(const ua_backend *b);
/* The stream handle DLPack's stream=None names for the backend's memory
 * (CUDA's legacy default stream); 0 where it has no streams. */
uintptr_t ua_backend_none_stream(const ua_backend *b);

/* Waits for the threads that the backends started on their own (a GPU
 * backend's compiles beside the calls): a process calls it before its exit
 * runs the destructors of the libraries those threads use (the Python
 * module, at the interpreter's finalization); again, it waits for none. */
void ua_backends_quiesce(void);

/* All devices of all available backends; the global index of a device is
 * its position here.  The list is built once and never changes. */
size_t ua_device_count(void);
ua_device *ua_device_at(size_t global_id);
size_t ua_device_id(const ua_device *d);
ua_backend *ua_device_backend(const ua_device *d);
ua_device_type ua_device_get_type(const ua_device *d);
const char *ua_device_name(const ua_device *d);
/* Index among the devices of the same backend and type. */
int ua_device_relative_id(const ua_device *d);
/* Canonical "backend:type:relative_id". */
const char *ua_device_filter_string(const ua_device *d);

/* What a backend can tell of a device, for listings such as
 * `python -m usmarray -f`: empty strings and zeros where it cannot. */
typedef struct ua_device_info {
    char vendor[64];
    char driver_version[64];  /* of the driver that serves the device */
    char runtime_version[64]; /* of the runtime or compiler the backend uses */
    char architecture[32];    /* e.g. "sm_90", "x86_64" */
    uint64_t global_mem_bytes;
    uint32_t compute_units; /* multiprocessors, cores, execution units */
    bool fp64; /* double precision (float64, complex128) runs on it */
    bool fp16; /* half precision (float16) runs on it */
    /* The USM kinds it allocates (SYCL's usm_*_allocations aspects). */
    bool usm_device, usm_shared, usm_host;
    /* The BLAS its matrix products call (a path, the symbols' flavour,
     * its threads), or why there is none ('' where the backend does not
     * say). */
    char blas[384];
    /* The libraries that linalg's factorizations and fft's transforms
     * call on the device, or what is missing ('' where the backend does
     * not say). */
    char libraries[384];
} ua_device_info;

ua_status ua_device_get_info(const ua_device *d, ua_device_info *out);
/* Whether the device computes in double precision: true on the host and
 * CUDA, a SYCL device's fp64 aspect.  Its default floating dtypes follow
 * (compute/promote.h's ua_default_dtypes_for). */
bool ua_device_has_fp64(const ua_device *d);

/* Selects by filter string "backend:device_type:relative_id" (each field
 * optional) or a bare global index.  On no match: UA_ERR_VALUE naming the
 * filter and listing the devices that exist. */
ua_status ua_device_select(const char *filter, ua_device **out);
/* Directories, separated by ':', where backends look for drivers shipped
 * in Python packages; takes effect if set before the first device query. */
ua_status ua_set_library_search_path(const char *paths);

/* USMARRAY_DEVICE if set, else the first GPU, else the host CPU. */
ua_status ua_device_default(ua_device **out);

/* The device's default context and the context's default queue: created on
 * first use, then cached for the life of the process. */
ua_status ua_device_default_context(ua_device *d, ua_context **out);
ua_status ua_context_default_queue(ua_context *c, ua_queue **out);
ua_device *ua_context_device(const ua_context *c);
/* Freed allocations are kept per context and USM kind for reuse (set
 * USMARRAY_POOL to 0, false, no or off to turn that off; any other value
 * but 1, true, yes, on or empty fails the context's creation); these
 * report the bytes kept and give them back to the backend. */
size_t ua_context_pooled_bytes(ua_context *c);
void ua_context_release_pool(ua_context *c);
/* Bytes of live allocations of a kind, and bytes held from the backend for
 * it (live ones and those kept for reuse). */
size_t ua_context_used_bytes(ua_context *c, ua_usm_kind kind);
size_t ua_context_held_bytes(ua_context *c, ua_usm_kind kind);
/* The most bytes live allocations of a kind may hold together (SIZE_MAX:
 * no limit); past it, allocation fails with UA_ERR_ALLOC. */
void ua_context_set_limit(ua_context *c, ua_usm_kind kind, size_t limit);
size_t ua_context_limit(ua_context *c, ua_usm_kind kind);
ua_context *ua_queue_context(const ua_queue *q);
ua_device *ua_queue_device(const ua_queue *q);
/* Whether copies on queues of `from` reach device memory of `to` directly
 * (*direct true: the same device, a link between the two, or CPU memory)
 * or through the host (false: staged by the backend, or, where no queue of
 * `from` reaches that memory, relayed through a host buffer). */
ua_status ua_device_peer_access(ua_device *from, ua_device *to, bool *direct);
/* Blocks until all work submitted to q has finished. */
ua_status ua_queue_wait(ua_queue *q);
/* Whether q's work may still be running after the calls that enqueued it
 * returned (false where the backend has UA_CAP_WORK_DONE_ON_RETURN). */
bool ua_queue_may_be_busy(const ua_queue *q);
/* The queue a handle of a backend's runtime, made by another library,
 * stands for: the default queue of its device, ordered after the handle's
 * submitted work where it is a queue.  `name` is the capsule's name.
 * UA_ERR_TYPE when no available backend interprets the name (naming the
 * unavailable backends and why), UA_ERR_VALUE for an unusable handle. */
ua_status ua_queue_adopt(const char *name, void *handle, ua_queue **out);
/* The queue a handle made by another library stands for, as the queue of
 * the caller's work: the default queue of its device where the handle is
 * a context or that very queue (*made false), else a new queue over the
 * handle's queue itself, holding its own reference to it, which the caller
 * destroys (*made true).  Errors as ua_queue_adopt's. */
ua_status ua_queue_adopt_native(const char *name, void *handle, ua_queue **out,
                                bool *made);
/* Whether q is the queue a handle of another library stands for. */
bool ua_queue_is_native(const ua_queue *q, const char *name, void *handle);

/* What a new queue is asked to be. */
typedef struct ua_queue_props {
    bool in_order;     /* work runs in the order it is submitted */
    bool has_priority; /* else the backend's ordinary priority */
    int priority;      /* within ua_device_queue_priorities' range */
} ua_queue_props;

/* A new queue of context c, which the caller destroys.  UA_ERR_VALUE for a
 * priority the device does not have (naming its range). */
ua_status ua_queue_create(ua_context *c, const ua_queue_props *props,
                          ua_queue **out);
/* A new queue of c over another library's stream handle (the driver's, as
 * in CAI's "stream"), which stays the other library's: destroying the
 * queue leaves the stream alone, and the stream must outlive the queue.
 * UA_ERR_VALUE for a handle that names no stream of c's device, or a
 * backend without streams. */
ua_status ua_queue_wrap_stream(ua_context *c, uintptr_t stream,
                               ua_queue **out);
/* Waits for q's work and frees it.  Pooled blocks q was the last to use go
 * to the context's default queue.  Default queues are never destroyed
 * (this does nothing to them); nothing may use q afterwards. */
void ua_queue_destroy(ua_queue *q);
bool ua_queue_is_default(const ua_queue *q);
/* The priority q was created with; false for queues created without one. */
bool ua_queue_priority(const ua_queue *q, int *priority);
/* Whether q runs over a stream another library owns. */
bool ua_queue_is_wrapped(const ua_queue *q);
/* Later work on q runs after the work `before` has enqueued so far: an
 * event between queues of one backend, else a host wait for `before`. */
ua_status ua_queue_order_after(ua_queue *q, ua_queue *before);
/* Whether q was made by ua_queue_adopt_native over another library's
 * queue. */
bool ua_queue_is_adopted(const ua_queue *q);
/* The range of the device's queue priorities: `least` for ordinary work,
 * `greatest` for the most urgent (on CUDA a lower number).  UA_ERR_VALUE
 * where its queues have no priorities. */
ua_status ua_device_queue_priorities(ua_device *d, int *least, int *greatest);

/* ------------------------------------------------------------ allocations */

typedef struct ua_allocation ua_allocation;

/* What the library knows of the allocation that holds an address. */
typedef struct ua_pointer_info {
    uintptr_t start;
    size_t nbytes;
    ua_usm_kind kind;
    ua_device *device;
    ua_context *context;
    bool borrowed; /* memory the library did not allocate, lent to it */
} ua_pointer_info;

/* alignment 0 means the backend's default; otherwise any power of two:
 * what the backend cannot honour itself the core makes by allocating a
 * larger block and aligning within it. */
ua_status ua_usm_alloc(ua_queue *q, ua_usm_kind kind, size_t nbytes,
                       size_t alignment, ua_allocation **out);
/* Records memory someone else owns as a live allocation of `kind` until
 * ua_usm_free; the library never frees it.  UA_ERR_VALUE when the range
 * meets an allocation the library made: that memory is what it is, and is
 * found with ua_pointer_query_range rather than borrowed. */
ua_status ua_usm_borrow(ua_context *c, ua_usm_kind kind, void *ptr,
                        size_t nbytes, ua_allocation **out);
/* Waits for the queue's pending work, forgets and frees (or returns). */
void ua_usm_free(ua_allocation *a);
void *ua_allocation_ptr(const ua_allocation *a);
size_t ua_allocation_size(const ua_allocation *a);
ua_usm_kind ua_allocation_kind(const ua_allocation *a);
ua_queue *ua_allocation_queue(const ua_allocation *a);

/* Resolves any address: the allocation containing it, found in the
 * registry of allocations the library made or borrowed, else through the
 * backends' pointer queries (memory of other libraries).  Returns false
 * for "unknown".  Safe under concurrent use. */
bool ua_pointer_query(uintptr_t addr, ua_pointer_info *out);
/* Like ua_pointer_query, but the whole byte range [addr, addr + len) must
 * lie in one allocation; len may be 0. */
bool ua_pointer_query_range(uintptr_t addr, size_t len, ua_pointer_info *out);

/* ------------------------------------------------------ protocol checks */

/* Validates the layout an array interface describes at address ptr (the
 * interface's data[0]) and locates it: the bytes its elements reach,
 * [ptr + *begin, ptr + *end), must lie in the one allocation that holds
 * ptr, which is returned in *alloc.  UA_ERR_VALUE names what is wrong. */
ua_status ua_locate_region(uintptr_t ptr, int nd, const ptrdiff_t *shape,
                           const ptrdiff_t *strides, ptrdiff_t offset,
                           size_t itemsize, ua_pointer_info *alloc,
                           ptrdiff_t *begin, ptrdiff_t *end);

/* Native handles of queues and contexts exchanged as named capsules, each
 * backend's table naming its own.  The export functions give a new
 * handle and the capsule name it goes under; UA_ERR_VALUE where the
 * backend has no such handles.  ua_release_native_handle frees one by its
 * capsule name ("used_" prefix allowed). */
ua_status ua_queue_export_native(ua_queue *q, const char **capsule_name,
                                 void **handle);
ua_status ua_context_export_native(ua_context *c, const char **capsule_name,
                                   void **handle);
void ua_release_native_handle(const char *capsule_name, void *handle);
/* Whether name is the capsule name of a queue or context handle of a
 * backend of this build, available here or not. */
bool ua_is_native_capsule_name(const char *name);
/* Those names for messages, quoted, the last two joined by conjunction
 * (" and ", " or "): "'A', 'B' and 'C'"; "no" where there are none. */
void ua_native_capsule_names(char *out, size_t len, const char *conjunction);

/* The driver's handle of q's stream (CAI's "stream"); 0 where its backend
 * has no streams. */
uintptr_t ua_queue_stream_handle(ua_queue *q);
/* Orders q's later work after what another library's stream has enqueued
 * (stream_waits false), or that stream's later work after q's (true), by
 * an event.  UA_ERR_VALUE names a handle that is not a stream of q's
 * device, or a backend without streams. */
ua_status ua_queue_order_with_stream(ua_queue *q, uintptr_t stream,
                                     bool stream_waits);
/* The backend driver's handle of q (CUstream, DPCTLSyclQueueRef), for
 * native code that submits its own work; NULL where the backend has none. */
void *ua_queue_native_handle(ua_queue *q);

/* ----------------------------------------------------------------- copies */

/* Enqueues a copy of n bytes on q (either side may be any memory the
 * queue's device can reach); completion is observed through ua_queue_wait.
 * Overlapping ranges are allowed. */
ua_status ua_queue_memcpy(ua_queue *q, void *dst, const void *src, size_t n);
/* Enqueues filling n bytes at dst with the byte value. */
ua_status ua_queue_memset(ua_queue *q, void *dst, unsigned char value,
                          size_t n);
/* ua_queue_memcpy followed by ua_queue_wait. */
ua_status ua_copy_sync(ua_queue *q, void *dst, const void *src, size_t n);

/* Whether ptr lies in an allocation the library made (not borrowed) on
 * q's device: its kernels reach it, and it is freed in order with the
 * queue's work, so that a copy reading it need not be waited for.  Memory
 * of other libraries is not: their allocators may reuse it on their own
 * streams once the Python object goes. */
bool ua_queue_owns_memory(const ua_queue *q, const void *ptr);

/* One copy of a batch: `bytes` dense bytes from src to dst. */
typedef struct ua_copy_block {
    void *dst;
    const void *src;
    size_t bytes;
} ua_copy_block;
/* Enqueues n copies on q, each as ua_queue_memcpy would, where no
 * destination overlaps another block's source: in one launch where every
 * block is memory of q's device and the backend can (a call per copy is
 * what small copies cost). */
ua_status ua_queue_memcpy_batch(ua_queue *q, size_t n,
                                const ua_copy_block *blocks);

/* ------------------------------------------------------------ copy engine */

/* One side of a strided copy: the zero-index element, strides in elements
 * and the element type. */
typedef struct ua_strided {
    char *data;
    const ptrdiff_t *strides;
    ua_typenum type;
} ua_strided;

/* Copies every element of an nd-dimensional shape from src to dst on the
 * calling thread, casting as NumPy's astype(casting="unsafe") does.  A
 * stride of 0 in src broadcasts (a fill is a copy from a 0-d source).  Both
 * sides must be host-accessible; dst must not overlap src unless equal. */
ua_status ua_copy_strided_host(int nd, const ptrdiff_t *shape,
                               const ua_strided *dst, const ua_strided *src);
/* The same, enqueued on q: the backend runs its own kernels where the
 * memory is not host-accessible. */
ua_status ua_queue_copy_strided(ua_queue *q, int nd, const ptrdiff_t *shape,
                                const ua_strided *dst, const ua_strided *src);

/* A copy's layout reduced for a kernel by the iteration planner
 * (layout/iter_plan.h): length-1 axes dropped, the rest ordered by
 * decreasing destination stride (stable) and neighbours that walk both
 * sides as one axis merged.  Steps in bytes. */
typedef struct ua_copy_plan {
    int nd;
    ptrdiff_t shape[UA_MAXDIMS];
    ptrdiff_t dstep[UA_MAXDIMS];
    ptrdiff_t sstep[UA_MAXDIMS];
} ua_copy_plan;
/* Fills *p; false when the shape is empty (nothing to copy). */
bool ua_copy_simplify(int nd, const ptrdiff_t *shape, const ua_strided *dst,
                      const ua_strided *src, ua_copy_plan *p);
/* Whether the copy is one dense run of bytes within one type, which
 * *block then describes (nothing to copy: bytes 0). */
bool ua_copy_as_block(int nd, const ptrdiff_t *shape, const ua_strided *dst,
                      const ua_strided *src, ua_copy_block *block);
/* Whether writing dst could change src before it is read. */
bool ua_copy_overlaps(int nd, const ptrdiff_t *shape, const ua_strided *dst,
                      const ua_strided *src);

/* IEEE binary16 conversions, rounding to nearest even. */
float ua_half_to_float(uint16_t h);
uint16_t ua_half_from_double(double x);

#ifdef __cplusplus
}
#endif

#endif /* USMARRAY_CORE_H */
