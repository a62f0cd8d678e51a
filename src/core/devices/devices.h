/* What the core's device files (device.c, filter.c, queue.c, native.c)
 * share, and what the rest of the core reads of backends, devices,
 * contexts and queues. */
#ifndef USMARRAY_CORE_DEVICES_DEVICES_H
#define USMARRAY_CORE_DEVICES_DEVICES_H

#include <stdatomic.h>

#include "core/backend.h"
#include "core/core.h"
#include "core/memory/pool_cache.h"

struct ua_backend {
    const ua_backend_ops *ops;
    bool available;
    char reason[256];
    size_t first_device; /* global id of its first device */
    size_t ndevices;
};

struct ua_device {
    ua_backend *backend;
    int index; /* backend-relative */
    size_t id; /* global */
    int relative_id;
    ua_device_type type;
    char name[256];
    char filter[64];
    ua_context *default_context; /* created on first use */
    /* Whether the device computes in double precision, asked of the
     * backend once (every elementwise call needs it): 0 not yet known,
     * 1 no, 2 yes. */
    atomic_int fp64;
};

struct ua_context {
    ua_device *device;
    void *handle;
    ua_queue *default_queue;        /* created on first use */
    ua_pool pools[UA_USM_HOST + 1]; /* indexed by USM kind */
    ua_usage usage[UA_USM_HOST + 1];
};

struct ua_queue {
    ua_context *context;
    void *handle;
    bool wrapped; /* over a stream of another library */
    bool adopted; /* over a queue of another library, by its handle */
    bool has_priority;
    int priority;
};

/* Builds the backend and device tables once; safe to call from any thread. */
void ua_devices_initialize(void);

/* Global index of the device of a backend-relative index, or NULL. */
ua_device *ua_backend_device(ua_backend *b, int index);
/* Later work on `to` runs after what `from` has enqueued, by an event;
 * both queues are of one backend. */
ua_status ua_queues_order(ua_queue *from, ua_queue *to);

/* The optional capabilities of a backend (core/backend.h): each is asked
 * for here, and is NULL where the backend has none. */
static inline const ua_stream_ops *
ua_backend_streams(const ua_backend *b)
{
    return b->ops->streams;
}

static inline const ua_handle_ops *
ua_backend_handles(const ua_backend *b)
{
    return b->ops->handles;
}

static inline const ua_peer_ops *
ua_backend_peers(const ua_backend *b)
{
    return b->ops->peers;
}

static inline const ua_priority_ops *
ua_backend_priorities(const ua_backend *b)
{
    return b->ops->priorities;
}

static inline const ua_foreign_memory_ops *
ua_backend_foreign_memory(const ua_backend *b)
{
    return b->ops->foreign_memory;
}

static inline const ua_device_info_ops *
ua_backend_device_info(const ua_backend *b)
{
    return b->ops->device_info;
}

static inline const ua_filter_ops *
ua_backend_filters(const ua_backend *b)
{
    return b->ops->filters;
}

#endif
