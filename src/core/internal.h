/* Definitions shared by the core's translation units; not installed. */
#ifndef USMARRAY_CORE_INTERNAL_H
#define USMARRAY_CORE_INTERNAL_H

#include <pthread.h>

#include "usmarray/backend.h"
#include "usmarray/core.h"

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
};

struct ua_context {
    ua_device *device;
    void *handle;
    ua_queue *default_queue; /* created on first use */
};

struct ua_queue {
    ua_context *context;
    void *handle;
};

struct ua_allocation {
    void *ptr;
    size_t nbytes;
    ua_usm_kind kind;
    bool borrowed;
    ua_queue *queue;
};

/* Builds the backend and device tables once; safe to call from any thread. */
void ua_devices_initialize(void);

/* The registry of live allocations, keyed by start address. */
ua_status ua_registry_insert(const ua_pointer_info *info);
void ua_registry_remove(uintptr_t start, size_t nbytes, bool borrowed);
bool ua_registry_find_range(uintptr_t addr, size_t len, ua_pointer_info *out);
size_t ua_registry_size(void);

/* Sorts axes[0..n) in place by decreasing |strides[axis]|, keeping the
 * order of ties. */
void ua_layout_sort_axes(int n, int *axes, const ptrdiff_t *strides);

/* Global index of the device of a backend-relative index, or NULL. */
ua_device *ua_backend_device(ua_backend *b, int index);

#endif
