/* Backends and devices.  The tables are built once, on first use, and
 * never change afterwards, so that readers need no lock.  Filter strings
 * select devices in filter.c; contexts and queues are queue.c's. */
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/devices/devices.h"

/* One entry per backend of ua_backends_of_build(), in the same order. */
static ua_backend *backends;
static size_t nbackends;

static ua_device *devices;
static size_t ndevices;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static atomic_bool tables_built;

static const char *const type_names[] = {"", "cpu", "gpu", "accelerator"};

/* Directories where backends look for drivers that ship in Python packages;
 * set before the tables are built. */
static char *search_path;

ua_status
ua_set_library_search_path(const char *paths)
{
    char *copy = strdup(paths);
    if (copy == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory");
    }
    free(search_path);
    search_path = copy;
    return UA_OK;
}

const char *
ua_library_search_path(void)
{
    return search_path != NULL ? search_path : "";
}

bool
ua_library_open(const char *path, bool (*take)(void *handle, const char *path))
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h != NULL && take(h, path)) {
        return true;
    }
    if (h != NULL) {
        dlclose(h);
    }
    return false;
}

const char *
ua_device_type_name(ua_device_type t)
{
    return (t >= UA_DEVICE_CPU && t <= UA_DEVICE_ACCELERATOR) ? type_names[t]
                                                              : "unknown";
}

static void
initialize_backend(ua_backend *b)
{
    if (b->ops->version != UA_BACKEND_OPS_VERSION) {
        snprintf(b->reason, sizeof(b->reason),
                 "backend interface version %u, expected %u", b->ops->version,
                 UA_BACKEND_OPS_VERSION);
        return;
    }
    if (b->ops->compute == NULL ||
        b->ops->compute->version != UA_COMPUTE_OPS_VERSION) {
        snprintf(b->reason, sizeof(b->reason),
                 "compute-kernel table version %u, expected %u",
                 b->ops->compute != NULL ? b->ops->compute->version : 0u,
                 UA_COMPUTE_OPS_VERSION);
        return;
    }
    if (b->ops->initialize() != UA_OK) {
        snprintf(b->reason, sizeof(b->reason), "%s", ua_error_message());
        ua_error_clear();
        return;
    }
    int n = b->ops->device_count();
    b->available = true;
    b->ndevices = n > 0 ? (size_t)n : 0;
}

static int
count_earlier(size_t upto, const ua_device *d)
{
    int n = 0;
    for (size_t i = 0; i < upto; i++) {
        n += devices[i].backend == d->backend && devices[i].type == d->type;
    }
    return n;
}

static void
describe_device(ua_device *d)
{
    if (d->backend->ops->device_describe(d->index, &d->type, d->name,
                                         sizeof(d->name)) != UA_OK) {
        d->type = UA_DEVICE_ACCELERATOR;
        snprintf(d->name, sizeof(d->name), "%s device %d",
                 d->backend->ops->name, d->index);
        ua_error_clear();
    }
    d->relative_id = count_earlier(d->id, d);
    snprintf(d->filter, sizeof(d->filter), "%s:%s:%d", d->backend->ops->name,
             ua_device_type_name(d->type), d->relative_id);
}

static void
build_tables(void)
{
    size_t total = 0, count;
    const ua_backend_ops *const *list = ua_backends_of_build(&count);
    backends = calloc(count, sizeof(*backends));
    if (backends == NULL) {
        return; /* no backends: every selection then fails with a message */
    }
    nbackends = count;
    for (size_t b = 0; b < nbackends; b++) {
        backends[b].ops = list[b];
        initialize_backend(&backends[b]);
        total += backends[b].ndevices;
    }
    devices = calloc(total ? total : 1, sizeof(*devices));
    if (devices == NULL) {
        return; /* no devices: every selection then fails with a message */
    }
    for (size_t b = 0; b < nbackends; b++) {
        backends[b].first_device = ndevices;
        for (size_t i = 0; i < backends[b].ndevices; i++) {
            ua_device *d = &devices[ndevices];
            d->backend = &backends[b];
            d->index = (int)i;
            d->id = ndevices++;
            describe_device(d);
        }
    }
}

void
ua_devices_initialize(void)
{
    /* Asked on every call of many functions: a load where pthread_once
     * costs a call and a few more. */
    if (!atomic_load_explicit(&tables_built, memory_order_acquire)) {
        pthread_once(&tables_once, build_tables);
        atomic_store_explicit(&tables_built, true, memory_order_release);
    }
}

size_t
ua_backend_count(void)
{
    ua_devices_initialize();
    return nbackends;
}

ua_backend *
ua_backend_at(size_t i)
{
    ua_devices_initialize();
    return i < nbackends ? &backends[i] : NULL;
}

const char *
ua_backend_name(const ua_backend *b)
{
    return b->ops->name;
}

bool
ua_backend_available(const ua_backend *b)
{
    return b->available;
}

const char *
ua_backend_reason(const ua_backend *b)
{
    return b->reason;
}

size_t
ua_backend_device_count(const ua_backend *b)
{
    return b->ndevices;
}

unsigned
ua_backend_caps(const ua_backend *b)
{
    return b->ops->caps;
}

ua_stream_rule
ua_backend_stream_rule(const ua_backend *b)
{
    const ua_stream_ops *s = ua_backend_streams(b);
    return s != NULL ? s->rule : UA_STREAMS_NONE;
}

uintptr_t
ua_backend_none_stream(const ua_backend *b)
{
    const ua_stream_ops *s = ua_backend_streams(b);
    return s != NULL ? s->none_stream : 0;
}

ua_device *
ua_backend_device(ua_backend *b, int index)
{
    if (index < 0 || (size_t)index >= b->ndevices) {
        return NULL;
    }
    return &devices[b->first_device + (size_t)index];
}

void
ua_backends_quiesce(void)
{
    /* No tables: no backend was asked for anything, and none started a
     * thread (the tables are built once, before any backend's first use,
     * so a caller at exit reads them as they stay). */
    for (size_t b = 0; backends != NULL && b < nbackends; b++) {
        if (backends[b].available && backends[b].ops->quiesce != NULL) {
            backends[b].ops->quiesce();
        }
    }
}

size_t
ua_device_count(void)
{
    ua_devices_initialize();
    return ndevices;
}

ua_device *
ua_device_at(size_t id)
{
    ua_devices_initialize();
    return id < ndevices ? &devices[id] : NULL;
}

size_t
ua_device_id(const ua_device *d)
{
    return d->id;
}

ua_backend *
ua_device_backend(const ua_device *d)
{
    return d->backend;
}

ua_device_type
ua_device_get_type(const ua_device *d)
{
    return d->type;
}

const char *
ua_device_name(const ua_device *d)
{
    return d->name;
}

int
ua_device_relative_id(const ua_device *d)
{
    return d->relative_id;
}

const char *
ua_device_filter_string(const ua_device *d)
{
    return d->filter;
}

ua_status
ua_device_get_info(const ua_device *d, ua_device_info *out)
{
    memset(out, 0, sizeof(*out));
    /* Unless the backend says otherwise: */
    out->fp64 = out->fp16 = true;
    out->usm_device = out->usm_shared = out->usm_host = true;
    const ua_device_info_ops *info = ua_backend_device_info(d->backend);
    return info != NULL ? info->device_info(d->index, out) : UA_OK;
}

bool
ua_device_has_fp64(const ua_device *d)
{
    int known = atomic_load_explicit(&d->fp64, memory_order_relaxed);
    if (known != 0) {
        return known == 2;
    }
    const ua_device_info_ops *ops = ua_backend_device_info(d->backend);
    bool fp64;
    if (ops != NULL && ops->has_fp64 != NULL) {
        fp64 = ops->has_fp64(d->index);
    } else {
        ua_device_info info;
        if (ua_device_get_info(d, &info) != UA_OK) {
            ua_error_clear();
        }
        fp64 = info.fp64;
    }
    /* The tables are shared, read-only but for this answer, which any
     * thread may store: every one stores the same value. */
    atomic_store_explicit((atomic_int *)&d->fp64, fp64 ? 2 : 1,
                          memory_order_relaxed);
    return fp64;
}
