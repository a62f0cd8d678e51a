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

#include "usmarray/core.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UA_BACKEND_OPS_VERSION 3

/* What a backend's driver can tell of an address it did not see allocated. */
typedef struct ua_backend_pointer_attrs {
    uintptr_t start;
    size_t nbytes;
    ua_usm_kind kind;
    int device_index; /* backend-relative */
} ua_backend_pointer_attrs;

typedef struct ua_backend_ops {
    uint32_t version; /* UA_BACKEND_OPS_VERSION */
    const char *name; /* the backend field of filter strings */

    /* Loads the driver.  UA_ERR_UNAVAILABLE, with the reason in the error
     * message, when it cannot be used here. */
    ua_status (*initialize)(void);
    int (*device_count)(void);
    ua_status (*device_describe)(int index, ua_device_type *type, char *name,
                                 size_t name_len);
    /* Fills what the driver tells of the device (out is zeroed first).
     * May be NULL. */
    ua_status (*device_info)(int index, ua_device_info *out);

    ua_status (*context_create)(int index, void **context);
    ua_status (*queue_create)(void *context, int index, void **queue);

    ua_status (*alloc)(void *context, int index, ua_usm_kind kind,
                       size_t nbytes, size_t alignment, void **ptr);
    void (*free)(void *context, ua_usm_kind kind, void *ptr);
    /* Attributes of memory allocated outside the library; UA_ERR_VALUE when
     * the driver does not know the address.  May be NULL. */
    ua_status (*pointer_attributes)(const void *ptr,
                                    ua_backend_pointer_attrs *out);

    ua_status (*memcpy)(void *queue, void *dst, const void *src, size_t n);
    ua_status (*memset)(void *queue, void *dst, unsigned char value,
                        size_t n);
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

    /* Streams of other libraries, named by the driver's handle (CAI's
     * "stream", DLPack's stream argument).  queue_stream gives a queue's
     * own handle; order_with_stream makes the queue's later work wait for
     * what the stream has enqueued so far (stream_waits == 0), or the
     * stream's later work wait for the queue's (stream_waits != 0), by an
     * event, not a host wait.  UA_ERR_VALUE for a handle that names no
     * stream of the queue's device.  Both NULL where there are no streams
     * (the host backend). */
    uintptr_t (*queue_stream)(void *queue);
    ua_status (*order_with_stream)(void *queue, uintptr_t stream,
                                   int stream_waits);
} ua_backend_ops;

extern const ua_backend_ops ua_host_backend_ops;
extern const ua_backend_ops ua_cuda_backend_ops;

#ifdef __cplusplus
}
#endif

#endif /* USMARRAY_BACKEND_H */
