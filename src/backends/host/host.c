/* The host backend: one CPU device whose device, shared and host USM are
 * aligned host memory.  Work runs at once on the calling thread, so every
 * queue is always drained and every event already complete.  That device
 * memory is not host-accessible is a rule of the API above, not of this
 * file: the same code then behaves the same here and on a GPU. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "backends/host/host_kernels.h"
#include "core/backend.h"
#include "core/memory/huge_pages.h"

/* A cache line: never share one between two allocations. */
#define HOST_DEFAULT_ALIGNMENT 64

static int context_token, queue_token, event_token;

static ua_status
host_initialize(void)
{
    return UA_OK;
}

static int
host_device_count(void)
{
    return 1;
}

/* A field of /proc/cpuinfo ("model name", "vendor_id"), or fallback where
 * there is none. */
static void
read_cpuinfo(const char *key, char *out, size_t len, const char *fallback)
{
    char line[512];
    size_t keylen = strlen(key);
    FILE *f = fopen("/proc/cpuinfo", "r");
    snprintf(out, len, "%s", fallback);
    if (f == NULL) {
        return;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        char *colon = strchr(line, ':');
        if (strncmp(line, key, keylen) == 0 && colon != NULL) {
            char *v = colon + 1;
            while (*v == ' ' || *v == '\t') {
                v++;
            }
            v[strcspn(v, "\n")] = '\0';
            if (*v) {
                snprintf(out, len, "%s", v);
            }
            break;
        }
    }
    fclose(f);
}

static ua_status
host_device_describe(int index, ua_device_type *type, char *name,
                     size_t name_len)
{
    (void)index;
    *type = UA_DEVICE_CPU;
    read_cpuinfo("model name", name, name_len, "Host CPU");
    return UA_OK;
}

/* The host's "driver" is the kernel and its runtime the C library. */
static ua_status
host_device_info(int index, ua_device_info *out)
{
    (void)index;
    struct utsname u;
    read_cpuinfo("vendor_id", out->vendor, sizeof(out->vendor), "");
    if (uname(&u) == 0) {
        snprintf(out->driver_version, sizeof(out->driver_version),
                 "%.15s %.47s", u.sysname, u.release);
        snprintf(out->architecture, sizeof(out->architecture), "%.31s",
                 u.machine);
    }
#ifdef _CS_GNU_LIBC_VERSION
    confstr(_CS_GNU_LIBC_VERSION, out->runtime_version,
            sizeof(out->runtime_version));
#endif
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    out->global_mem_bytes = pages > 0 && page > 0 ? (uint64_t)pages * page : 0;
    out->compute_units = cpus > 0 ? (uint32_t)cpus : 0;
    out->fp64 = true;
    ua_host_blas_describe(out->blas, sizeof(out->blas));
    ua_host_libraries_describe(out->libraries, sizeof(out->libraries));
    return UA_OK;
}

static ua_status
host_context_create(int index, void **context)
{
    (void)index;
    *context = &context_token;
    return UA_OK;
}

static ua_status
host_queue_create(void *context, int index, const ua_queue_props *props,
                  void **queue)
{
    /* Work runs at once, in order: every queue is the same. */
    (void)context;
    (void)index;
    (void)props;
    *queue = &queue_token;
    return UA_OK;
}

static ua_status
host_alloc(void *context, int index, void *queue, ua_usm_kind kind,
           size_t nbytes, size_t alignment, void **ptr)
{
    (void)context;
    (void)index;
    (void)queue;
    (void)kind; /* the pool's message names it */
    if (alignment < HOST_DEFAULT_ALIGNMENT) {
        alignment = HOST_DEFAULT_ALIGNMENT;
    }
    alignment = ua_huge_page_alignment(nbytes, alignment);
    int rc = posix_memalign(ptr, alignment, nbytes);
    if (rc != 0) {
        *ptr = NULL;
        return ua_error_set(UA_ERR_ALLOC,
                            "the host backend's posix_memalign of %zu bytes "
                            "aligned to %zu failed: %s",
                            nbytes, alignment, strerror(rc));
    }
    ua_advise_huge_pages(*ptr, nbytes);
    return UA_OK;
}

static void
host_free(void *context, void *queue, ua_usm_kind kind, void *ptr,
          size_t nbytes)
{
    (void)context;
    (void)queue;
    (void)kind;
    (void)nbytes;
    free(ptr);
}

static const ua_memory_provider host_memory = {
    .name = "posix_memalign",
    .alloc = host_alloc,
    .free = host_free,
    /* posix_memalign pads larger alignments just as the core does. */
    .max_alignment = UA_HUGE_PAGE,
};

static ua_status
host_memcpy(void *queue, void *dst, const void *src, size_t n)
{
    (void)queue;
    memmove(dst, src, n);
    return UA_OK;
}

static ua_status
host_memcpy_batch(void *queue, size_t n, const ua_copy_block *blocks)
{
    for (size_t i = 0; i < n; i++) {
        host_memcpy(queue, blocks[i].dst, blocks[i].src, blocks[i].bytes);
    }
    return UA_OK;
}

static ua_status
host_memset(void *queue, void *dst, unsigned char value, size_t n)
{
    (void)queue;
    memset(dst, value, n);
    return UA_OK;
}

static ua_status
host_copy_strided(void *queue, int nd, const ptrdiff_t *shape,
                  const ua_strided *dst, const ua_strided *src)
{
    (void)queue;
    return ua_copy_strided_host(nd, shape, dst, src);
}

static ua_status
host_queue_wait(void *queue)
{
    (void)queue;
    return UA_OK;
}

static ua_status
host_event_record(void *queue, void **event)
{
    (void)queue;
    *event = &event_token;
    return UA_OK;
}

static ua_status
host_event_wait(void *queue, void *event)
{
    (void)queue;
    (void)event;
    return UA_OK;
}

static ua_status
host_event_synchronize(void *event)
{
    (void)event;
    return UA_OK;
}

static void
host_event_destroy(void *event)
{
    (void)event;
}

/* Memory of every kind is CPU memory (kDLCPU, device 0). */
static ua_dl_device
host_dlpack_device(int index, ua_usm_kind kind)
{
    (void)index;
    (void)kind;
    return (ua_dl_device){UA_DL_CPU, 0};
}

/* Any CPU memory is reached by the host device; DLPack cannot say its
 * kind, so it is host memory. */
static bool
host_dlpack_owns(ua_dl_device dl, int *index, ua_usm_kind *kind)
{
    *index = 0;
    *kind = UA_USM_HOST;
    return dl.device_type == UA_DL_CPU;
}

/* A host queue holds nothing and is no driver object. */
static void
host_queue_destroy(void *queue)
{
    (void)queue;
}

static void *
host_queue_native_handle(void *queue)
{
    (void)queue;
    return NULL;
}

static const ua_device_info_ops host_device_info_ops = {.device_info =
                                                            host_device_info};

/* No streams, no handles of other libraries, one device, no priorities;
 * the registry knows all of its memory. */
const ua_backend_ops ua_host_backend_ops = {
    .version = UA_BACKEND_OPS_VERSION,
    .name = "host",
    .caps = UA_CAP_CPU_MEMORY | UA_CAP_REACHES_CPU_MEMORY |
            UA_CAP_WORK_DONE_ON_RETURN,
    .dlpack_device_names = "kDLCPU",
    .initialize = host_initialize,
    .device_count = host_device_count,
    .device_describe = host_device_describe,
    .context_create = host_context_create,
    .queue_create = host_queue_create,
    .queue_destroy = host_queue_destroy,
    .queue_native_handle = host_queue_native_handle,
    .memory = &host_memory,
    .compute = &ua_host_compute_ops,
    .memcpy = host_memcpy,
    .memcpy_batch = host_memcpy_batch,
    .memset = host_memset,
    .queue_wait = host_queue_wait,
    .copy_strided = host_copy_strided,
    .event_record = host_event_record,
    .event_wait = host_event_wait,
    .event_synchronize = host_event_synchronize,
    .event_destroy = host_event_destroy,
    .dlpack_device = host_dlpack_device,
    .dlpack_owns = host_dlpack_owns,
    .device_info = &host_device_info_ops,
};
