/* The backend interface: one versioned table of operations per backend.
 *
 * A backend serves the devices of one driver.  The core calls these
 * operations only; handles are opaque to it.  Operations that enqueue work
 * (memcpy, memset, event_record) may return before the work is done: order
 * is kept per queue, across queues through events, and ua_queue_wait
 * observes completion.  A backend whose driver is absent still builds and
 * answers UA_ERR_UNAVAILABLE from initialize.
 */
#ifndef USMARRAY_BACKEND_H
#define USMARRAY_BACKEND_H

#include <pthread.h>

#include "core/compute/kernels.h"
#include "core/core.h"
#include "core/dlpack.h"
#include "core/memory/provider.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UA_BACKEND_OPS_VERSION 13

/* What a backend's driver can tell of an address it did not see allocated. */
typedef struct ua_backend_pointer_attrs {
    uintptr_t start;
    size_t nbytes;
    ua_usm_kind kind;
    int device_index; /* backend-relative */
} ua_backend_pointer_attrs;

/* ------------------------------------------------ optional capabilities
 *
 * What only some backends have, each a table of its own that a backend
 * without it leaves NULL in ua_backend_ops; the core asks for each through
 * one query (ua_backend_<capability>, core/devices/devices.h), and calls
 * every entry of a table it gets without checking. */

/* Streams of other libraries, named by the driver's handle (CAI's
 * "stream", DLPack's stream argument).  queue_stream gives a queue's own
 * handle; queue_wrap makes a queue over another library's stream, which
 * the queue never destroys; order_with_stream makes the queue's later work
 * wait for what the stream has enqueued so far (stream_waits == 0), or the
 * stream's later work wait for the queue's (stream_waits != 0), by an
 * event, not a host wait.  UA_ERR_VALUE for a handle that names no stream
 * of the device.  A backend without streams takes DLPack's stream=None
 * only (UA_STREAMS_NONE). */
typedef struct ua_stream_ops {
    ua_stream_rule rule;
    /* Under UA_STREAMS_HANDLE, the handle DLPack's stream=None stands
     * for. */
    uintptr_t none_stream;
    uintptr_t (*queue_stream)(void *queue);
    ua_status (*queue_wrap)(void *context, uintptr_t stream, void **queue);
    ua_status (*order_with_stream)(void *queue, uintptr_t stream,
                                   int stream_waits);
} ua_stream_ops;

/* Handles of the backend's runtime that other libraries exchange as
 * capsules, named queue_capsule_name and context_capsule_name.
 * adopt_handle takes one made by another library: UA_ERR_TYPE when the
 * name is not one of this backend's kinds of handle, UA_ERR_VALUE when the
 * handle is not usable with this backend's contexts (naming why); else
 * *index is the backend-relative device the handle stands for, and
 * order_after_handle makes that device's default queue wait for the work
 * the handle's queue has submitted so far, where it is a queue (no host
 * wait).  wrap_handle makes a queue of ours (of context, freed by
 * queue_destroy) over the queue a queue_capsule_name handle stands for,
 * holding a reference of its own: work of both libraries goes to the one
 * queue, which outlives the other library's handle.  is_handle tells
 * whether a queue of ours is the queue a handle stands for.  export_handle
 * makes a new handle of ours (a queue where is_queue, else a context),
 * release_handle frees one. */
typedef struct ua_handle_ops {
    const char *queue_capsule_name;
    const char *context_capsule_name;
    ua_status (*adopt_handle)(const char *name, void *handle, int *index);
    ua_status (*order_after_handle)(void *queue, const char *name,
                                    void *handle);
    ua_status (*wrap_handle)(void *context, void *handle, void **queue);
    bool (*is_handle)(void *queue, const char *name, void *handle);
    ua_status (*export_handle)(void *queue_or_context, int is_queue,
                               void **handle);
    void (*release_handle)(void *handle, int is_queue);
} ua_handle_ops;

/* Copies between two of the backend's devices (backend-relative indices):
 * whether queues of `from` reach device memory of `to` over a direct link
 * (peer access, enabled on first ask) rather than through the host.  A
 * backend without it runs no copies touching device memory of another of
 * its devices. */
typedef struct ua_peer_ops {
    bool (*peer_access)(int from, int to);
} ua_peer_ops;

/* Queue priorities: `least` for ordinary work, `greatest` for the most
 * urgent, each either side of the other. */
typedef struct ua_priority_ops {
    void (*range)(void *context, int *least, int *greatest);
} ua_priority_ops;

/* Attributes of memory allocated outside the library; UA_ERR_VALUE when
 * the driver does not know the address.  A backend without it knows only
 * what the registry knows (the host backend: all of its memory). */
typedef struct ua_foreign_memory_ops {
    ua_status (*pointer_attributes)(const void *ptr,
                                    ua_backend_pointer_attrs *out);
} ua_foreign_memory_ops;

/* What the driver tells of a device (out is zeroed first, with fp64, fp16
 * and the USM kinds true: a backend without the table computes in double
 * precision and allocates every kind). */
typedef struct ua_device_info_ops {
    ua_status (*device_info)(int index, ua_device_info *out);
    /* Whether the device computes in double precision, which every call
     * that picks a default dtype asks: without device_info's other
     * queries (CUDA's loads cuBLAS, cuSOLVER and cuFFT for their
     * versions, which the first elementwise call would pay for).  NULL:
     * device_info's fp64. */
    bool (*has_fp64)(int index);
} ua_device_info_ops;

/* Filter strings of the driver's own (dpctl's "opencl:cpu:0",
 * "level_zero:gpu"), tried when a filter string is not one of usmarray's:
 * the backend-relative index of the device selected, or UA_ERR_VALUE. */
typedef struct ua_filter_ops {
    ua_status (*select_filter)(const char *filter, int *index);
} ua_filter_ops;

/* ------------------------------------------------------------ the table
 *
 * Every backend fills every entry up to the capabilities: the core calls
 * them without checking. */
typedef struct ua_backend_ops {
    uint32_t version; /* UA_BACKEND_OPS_VERSION */
    const char *name; /* the backend field of filter strings */
    unsigned caps;    /* UA_CAP_* */
    /* For messages: the DLPack device types of this backend's memory. */
    const char *dlpack_device_names;

    /* Loads the driver.  UA_ERR_UNAVAILABLE, with the reason in the error
     * message, when it cannot be used here. */
    ua_status (*initialize)(void);
    int (*device_count)(void);
    ua_status (*device_describe)(int index, ua_device_type *type, char *name,
                                 size_t name_len);

    ua_status (*context_create)(int index, void **context);
    /* props NULL: the context's default queue.  A backend whose queues
     * always run in order may grant in_order == false with an in-order
     * queue; a priority outside the priorities' range is refused by the
     * core before it gets here. */
    ua_status (*queue_create)(void *context, int index,
                              const ua_queue_props *props, void **queue);
    /* Frees a queue queue_create or queue_wrap made, once its work is done
     * (the core has waited for it). */
    void (*queue_destroy)(void *queue);
    /* The driver's own handle of a queue, for native code that submits
     * work to it (the C API's UsmQueue_GetNativeHandle): a CUstream, a
     * DPCTLSyclQueueRef; NULL where the driver has no such object (the
     * host backend). */
    void *(*queue_native_handle)(void *queue);

    /* Where USM blocks come from (memory/provider.h). */
    const ua_memory_provider *memory;
    /* The compute kernels (compute/kernels.h), complete. */
    const ua_compute_ops *compute;

    ua_status (*memcpy)(void *queue, void *dst, const void *src, size_t n);
    /* n copies (core.h's ua_copy_block) between memory of the queue's
     * device, where no destination overlaps a source: one launch for
     * many small copies where the backend can, which a call per copy
     * would cost each. */
    ua_status (*memcpy_batch)(void *queue, size_t n,
                              const ua_copy_block *blocks);
    ua_status (*memset)(void *queue, void *dst, unsigned char value, size_t n);
    ua_status (*queue_wait)(void *queue);
    /* An element-wise strided copy with casting (see ua_copy_strided_host)
     * between memory of this backend's devices. */
    ua_status (*copy_strided)(void *queue, int nd, const ptrdiff_t *shape,
                              const ua_strided *dst, const ua_strided *src);

    /* Events order work across queues: record on one, wait on another. */
    ua_status (*event_record)(void *queue, void **event);
    ua_status (*event_wait)(void *queue, void *event);
    ua_status (*event_synchronize)(void *event);
    void (*event_destroy)(void *event);

    /* DLPack: the device of memory of `kind` on the backend-relative device
     * `index`, and the way back: whether `dl` names memory of this backend,
     * and then which device (backend-relative) and USM kind. */
    ua_dl_device (*dlpack_device)(int index, ua_usm_kind kind);
    bool (*dlpack_owns)(ua_dl_device dl, int *index, ua_usm_kind *kind);

    /* The optional capabilities above, NULL where the backend has none;
     * and a queue-ordered memory provider, which the pool takes for large
     * blocks of device memory where there is one. */
    const ua_stream_ops *streams;
    const ua_handle_ops *handles;
    const ua_peer_ops *peers;
    const ua_priority_ops *priorities;
    const ua_foreign_memory_ops *foreign_memory;
    const ua_device_info_ops *device_info;
    const ua_filter_ops *filters;
    const ua_memory_provider *ordered_memory;
    /* Waits for the threads the backend started on its own (compiles
     * beside the calls, a pool's set-up) to end: the process calls it
     * before its exit runs the destructors of the libraries those threads
     * use, and may call it again; NULL where the backend starts none. */
    void (*quiesce)(void);
} ua_backend_ops;

/* ------------------------------------------ copies by a backend's kernels
 *
 * What backends whose copies run kernels share (src/core/layout/staged.c): the
 * choice between one kernel, a dense temporary for overlapping data, a
 * host staging buffer for memory the kernels cannot reach, and a copy on
 * the host; the backend gives its kernels and buffers. */
typedef struct ua_kernel_copier {
    void *queue;
    /* Enqueues a kernel that copies plan p (steps in bytes) from src of
     * type st to dst of type dt. */
    ua_status (*launch)(void *queue, const ua_copy_plan *p, ua_typenum dt,
                        void *dst, ua_typenum st, const void *src);
    /* The queue's host buffer of at least nbytes that its kernels reach;
     * used under staging_lock, and idle whenever the lock is free. */
    ua_status (*staging)(void *queue, size_t nbytes, void **buffer);
    pthread_mutex_t *staging_lock;
    /* Device memory of nbytes for the queue's work, and its release once
     * the work enqueued so far is done. */
    ua_status (*temporary)(void *queue, size_t nbytes, void **ptr);
    void (*release_temporary)(void *queue, void *ptr);
    /* Waits until the queue's work is done. */
    ua_status (*synchronize)(void *queue);
} ua_kernel_copier;

/* The elements a plan copies, and whether it is one run dense on both
 * sides (a memcpy when the types are equal). */
size_t ua_copy_plan_size(const ua_copy_plan *p);
bool ua_copy_plan_is_dense(const ua_copy_plan *p, size_t dst_itemsize,
                           size_t src_itemsize);
/* The axis to tile against the plan's last (the destination's fastest) in
 * a transposing kernel: one of at least min_length elements along which
 * the source is dense while along the last it is not; -1 where none. */
int ua_copy_plan_tile_axis(const ua_copy_plan *p, size_t src_itemsize,
                           ptrdiff_t min_length);
/* How a kernel language spells what a generated element conversion uses:
 * the parts of its complex type, float16 to and from its real type, the
 * real type, and the prelude's float-to-integer functions that follow the
 * core's definition of out-of-range values. */
typedef struct ua_kernel_dialect {
    const char *re, *im;
    const char *half_to_real, *real_to_half;
    const char *real;
    const char *real_to_i64, *real_to_u64;
} ua_kernel_dialect;

/* The body of `D convert(S v)` in the dialect: NumPy's unsafe cast from
 * src to dst, with NaN, infinities and out-of-range values going to
 * integers as the core's engine sends them. */
void ua_kernel_conversion(const ua_kernel_dialect *d, ua_typenum dst,
                          ua_typenum src, char *out, size_t len);

/* The strided copy of plan p (of the layout nd, shape, dst, src) through
 * the copier's kernels.  dst_reached and src_reached say whether its
 * kernels can reach each side; what they cannot reach must be host
 * memory.  Returns once pageable host memory is no longer used. */
ua_status ua_copy_with_kernels(const ua_kernel_copier *k, int nd,
                               const ptrdiff_t *shape, const ua_copy_plan *p,
                               const ua_strided *dst, const ua_strided *src,
                               bool dst_reached, bool src_reached);

/* The backends of this build, in the order their devices are numbered:
 * src/backends/list.c, the one place that names them, defines it. */
const ua_backend_ops *const *ua_backends_of_build(size_t *count);

/* The directories, separated by ':', in which backends look for drivers
 * that Python packages ship (the binding passes the Python path). */
const char *ua_library_search_path(void);

/* Opens the shared library at path (a name the loader searches, or a
 * file) with its symbols kept local, and hands it to take, which takes
 * what it needs of it; closes it again where take refuses it.  true where
 * take took it. */
bool ua_library_open(const char *path,
                     bool (*take)(void *handle, const char *path));

#ifdef __cplusplus
}
#endif

#endif /* USMARRAY_BACKEND_H */
