/* The SYCL backend: every device the SYCL runtime enumerates, through
 * dpctl's C interface (libDPCTLSyclInterface), loaded with dlopen at first
 * use (sycl_dpctl.h declares what is used), so that the library builds
 * without dpctl or a SYCL compiler and runs where neither is installed.
 *
 * The library is found, in this order, at USMARRAY_DPCTL_LIBRARY (a path),
 * in the dpctl package of a directory the binding named as a search path
 * (the Python path), and by the dynamic loader's own search.
 *
 * Devices are numbered as dpctl numbers them (its device_id, which DLPack's
 * kDLOneAPI device ids also use).  A device's context is the one dpctl
 * caches for it, its platform's default context, so that USM allocated by
 * dpctl or dpnp is memory of our contexts and ours of theirs; queues are
 * in-order queues of that context.  The copy engine is sycl_copy.c. */
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/sycl/sycl_backend.h"

#define SYCL_LIBRARY "libDPCTLSyclInterface.so"

ua_sycl_dpctl ua_dpctl;

static DPCTLDeviceVectorRef device_list;
DPCTLSyclDeviceRef ua_sycl_devices[SYCL_MAX_DEVICES];
/* Each device's default context, and the distinct ones among them (a
 * platform's devices share one). */
static DPCTLSyclContextRef contexts[SYCL_MAX_DEVICES];
static DPCTLSyclContextRef distinct[SYCL_MAX_DEVICES];
static int ndevices, ndistinct;
/* What dpctl tells of each device, read once at enumeration: the default
 * floating dtypes ask for fp64 at every creation call. */
static ua_device_info infos[SYCL_MAX_DEVICES];

/* ------------------------------------------------------------ the library */

static void *
open_in_search_paths(char *tried, size_t len)
{
    const char *paths = ua_library_search_path();
    char candidate[4096];
    while (paths != NULL && *paths != '\0') {
        size_t n = strcspn(paths, ":");
        if (n > 0 && n < sizeof(candidate) - 64) {
            snprintf(candidate, sizeof(candidate), "%.*s/dpctl/%s", (int)n,
                     paths, SYCL_LIBRARY);
            void *h = dlopen(candidate, RTLD_NOW | RTLD_GLOBAL);
            if (h != NULL) {
                return h;
            }
        }
        paths += n + (paths[n] == ':');
    }
    snprintf(tried, len, "no dpctl package in the Python path");
    return NULL;
}

/* The runtime's own submission entries, which ordered_submissions()
 * replaces in ua_dpctl. */
static struct {
    DPCTLSyclEventRef (*memcpy)(DPCTLSyclQueueRef, void *, const void *,
                                size_t);
    DPCTLSyclEventRef (*memset)(DPCTLSyclQueueRef, void *, uint8_t, size_t);
    DPCTLSyclEventRef (*range)(DPCTLSyclKernelRef, DPCTLSyclQueueRef, void **,
                               const int *, size_t, const size_t[3], size_t,
                               const DPCTLSyclEventRef *, size_t);
    DPCTLSyclEventRef (*nd_range)(DPCTLSyclKernelRef, DPCTLSyclQueueRef,
                                  void **, const int *, size_t,
                                  const size_t[3], const size_t[3], size_t,
                                  const DPCTLSyclEventRef *, size_t);
} runtime;

/* The backend's work on a queue runs in the order it is submitted, as the
 * core assumes of every queue, though an out-of-order SYCL queue (dpctl's
 * SyclQueue() by default, or Queue(in_order=False)) would run it at once:
 * a barrier after each submission makes later commands wait for it. */
static DPCTLSyclEventRef
in_submission_order(DPCTLSyclQueueRef q, DPCTLSyclEventRef e)
{
    if (e != NULL && !ua_dpctl.Queue_IsInOrder(q)) {
        DPCTLSyclEventRef barrier = ua_dpctl.Queue_SubmitBarrier(q);
        if (barrier == NULL) {
            ua_dpctl.Event_Wait(e);
        } else {
            ua_dpctl.Event_Delete(barrier);
        }
    }
    return e;
}

static DPCTLSyclEventRef
ordered_memcpy(DPCTLSyclQueueRef q, void *dst, const void *src, size_t n)
{
    return in_submission_order(q, runtime.memcpy(q, dst, src, n));
}

static DPCTLSyclEventRef
ordered_memset(DPCTLSyclQueueRef q, void *dst, uint8_t value, size_t n)
{
    return in_submission_order(q, runtime.memset(q, dst, value, n));
}

static DPCTLSyclEventRef
ordered_range(DPCTLSyclKernelRef k, DPCTLSyclQueueRef q, void **args,
              const int *types, size_t nargs, const size_t range[3],
              size_t nrange, const DPCTLSyclEventRef *deps, size_t ndeps)
{
    return in_submission_order(q, runtime.range(k, q, args, types, nargs,
                                                range, nrange, deps, ndeps));
}

static DPCTLSyclEventRef
ordered_nd_range(DPCTLSyclKernelRef k, DPCTLSyclQueueRef q, void **args,
                 const int *types, size_t nargs, const size_t global[3],
                 const size_t local[3], size_t ndims,
                 const DPCTLSyclEventRef *deps, size_t ndeps)
{
    return in_submission_order(q, runtime.nd_range(k, q, args, types, nargs,
                                                   global, local, ndims, deps,
                                                   ndeps));
}

static void
ordered_submissions(void)
{
    runtime.memcpy = ua_dpctl.Queue_Memcpy;
    runtime.memset = ua_dpctl.Queue_Memset;
    runtime.range = ua_dpctl.Queue_SubmitRange;
    runtime.nd_range = ua_dpctl.Queue_SubmitNDRange;
    ua_dpctl.Queue_Memcpy = ordered_memcpy;
    ua_dpctl.Queue_Memset = ordered_memset;
    ua_dpctl.Queue_SubmitRange = ordered_range;
    ua_dpctl.Queue_SubmitNDRange = ordered_nd_range;
}

/* The OpenCL CPU runtime that dpnp's wheels install (intel-opencl-rt, in
 * the environment's lib folder) registers itself under a placeholder path,
 * so that the runtime's loader finds it only where OCL_ICD_FILENAMES
 * names it.  Where that variable is unset and the runtime lies in a lib
 * folder above dpctl's, it is named there now, before the first SYCL
 * call, and the math libraries it needs (libintlc, then libsvml, which
 * its folder's absence from the loader's path would hide) are loaded
 * first.  The variable adds to the loader's registered runtimes. */
static void
name_opencl_cpu_runtime(void *dpctl)
{
    const char *set = getenv("OCL_ICD_FILENAMES");
    Dl_info info;
    void *symbol = dlsym(dpctl, "DPCTLDeviceMgr_GetDevices");
    if ((set != NULL && set[0] != '\0') || symbol == NULL ||
        dladdr(symbol, &info) == 0 || info.dli_fname == NULL) {
        return;
    }
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s", info.dli_fname);
    /* site-packages/dpctl/lib...so: up to the environment's lib folder */
    for (int up = 0; up < 5; up++) {
        char *slash = strrchr(dir, '/');
        if (slash == NULL) {
            return;
        }
        *slash = '\0';
        snprintf(path, sizeof path, "%s/libintelocl.so", dir);
        if (access(path, R_OK) == 0) {
            static const char *const needs[] = {"libintlc.so.5", "libsvml.so"};
            for (size_t i = 0; i < sizeof needs / sizeof *needs; i++) {
                char lib[4200];
                snprintf(lib, sizeof lib, "%s/%s", dir, needs[i]);
                if (access(lib, R_OK) == 0) {
                    dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
                }
            }
            setenv("OCL_ICD_FILENAMES", path, 0);
            return;
        }
    }
}

static ua_status
load_library(void)
{
    char why[300] = "";
    const char *env = getenv("USMARRAY_DPCTL_LIBRARY");
    void *h = NULL;
    if (env != NULL && env[0] != '\0') {
        h = dlopen(env, RTLD_NOW | RTLD_GLOBAL);
        if (h == NULL) {
            return ua_error_set(UA_ERR_UNAVAILABLE,
                                "USMARRAY_DPCTL_LIBRARY=%s could not be "
                                "loaded: %s",
                                env, dlerror());
        }
    }
    if (h == NULL) {
        h = open_in_search_paths(why, sizeof(why));
    }
    if (h == NULL) {
        h = dlopen(SYCL_LIBRARY, RTLD_NOW | RTLD_GLOBAL);
    }
    if (h == NULL) {
        return ua_error_set(UA_ERR_UNAVAILABLE,
                            "dpctl's C interface (%s) was not found: %s, and "
                            "USMARRAY_DPCTL_LIBRARY is not set (pip install "
                            "dpctl)",
                            SYCL_LIBRARY, why);
    }
#define LOOKUP(field, symbol, ret, params)                                    \
    if ((*(void **)&ua_dpctl.field = dlsym(h, symbol)) == NULL) {             \
        return ua_error_set(UA_ERR_UNAVAILABLE,                               \
                            "dpctl's C interface lacks %s: it is too old",    \
                            symbol);                                          \
    }
    UA_DPCTL_FUNCTIONS(LOOKUP)
#undef LOOKUP
    name_opencl_cpu_runtime(h);
    ordered_submissions();
    return UA_OK;
}

static void
remember_context(int i)
{
    DPCTLSyclContextRef c =
        ua_dpctl.DeviceMgr_GetCachedContext(ua_sycl_devices[i]);
    contexts[i] = c;
    for (int j = 0; c != NULL && j < ndistinct; j++) {
        if (ua_dpctl.Context_AreEq(distinct[j], c)) {
            return;
        }
    }
    if (c != NULL) {
        distinct[ndistinct++] = c;
    }
}

static const char *
runtime_name(int backend)
{
    switch (backend) {
    case DPCTL_OPENCL:
        return "OpenCL";
    case DPCTL_LEVEL_ZERO:
        return "Level Zero";
    case DPCTL_CUDA:
        return "CUDA";
    case DPCTL_HIP:
        return "HIP";
    default:
        return "SYCL";
    }
}

/* A string dpctl gives (and the caller frees) copied into out. */
static void
copy_dpctl_string(char *out, size_t len, const char *s)
{
    snprintf(out, len, "%s", s ? s : "");
    if (s != NULL) {
        ua_dpctl.CString_Delete(s);
    }
}

/* The device's vendor, driver, compute units and memory as dpctl reports
 * them, and the aspects that decide what runs on it: fp64 (the default
 * floating dtypes; the copy kernels of float64 and complex128 need it),
 * fp16 and the USM kinds.  SYCL names no architecture through dpctl's C
 * interface: it stays empty. */
static void
read_device_info(int i)
{
    DPCTLSyclDeviceRef d = ua_sycl_devices[i];
    ua_device_info *out = &infos[i];
    copy_dpctl_string(out->vendor, sizeof(out->vendor),
                      ua_dpctl.Device_GetVendor(d));
    copy_dpctl_string(out->driver_version, sizeof(out->driver_version),
                      ua_dpctl.Device_GetDriverVersion(d));
    /* The runtime is the platform's (its version names it: "OpenCL 3.0"). */
    DPCTLSyclPlatformRef p = ua_dpctl.Device_GetPlatform(d);
    if (p != NULL) {
        copy_dpctl_string(out->runtime_version, sizeof(out->runtime_version),
                          ua_dpctl.Platform_GetVersion(p));
        ua_dpctl.Platform_Delete(p);
    }
    out->compute_units = ua_dpctl.Device_GetMaxComputeUnits(d);
    out->global_mem_bytes = ua_dpctl.Device_GetGlobalMemSize(d);
    out->fp64 = ua_dpctl.Device_HasAspect(d, DPCTL_ASPECT_FP64);
    out->fp16 = ua_dpctl.Device_HasAspect(d, DPCTL_ASPECT_FP16);
    out->usm_device =
        ua_dpctl.Device_HasAspect(d, DPCTL_ASPECT_USM_DEVICE_ALLOCATIONS);
    out->usm_shared =
        ua_dpctl.Device_HasAspect(d, DPCTL_ASPECT_USM_SHARED_ALLOCATIONS);
    out->usm_host =
        ua_dpctl.Device_HasAspect(d, DPCTL_ASPECT_USM_HOST_ALLOCATIONS);
    snprintf(out->libraries, sizeof out->libraries, "%s",
             ua_dpctl.Device_GetDeviceType(d) == DPCTL_CPU
                 ? "the host's (as the host device lists them), on the "
                   "device's memory"
                 : "none yet: usmarray.linalg's factorizations and "
                   "usmarray.fft raise on this device");
}

static ua_status
sycl_initialize(void)
{
    ua_status st = load_library();
    if (st != UA_OK) {
        return st;
    }
    device_list =
        ua_dpctl.DeviceMgr_GetDevices(DPCTL_ALL_BACKENDS | DPCTL_ALL);
    size_t n = device_list ? ua_dpctl.DeviceVector_Size(device_list) : 0;
    for (size_t i = 0; i < n && ndevices < SYCL_MAX_DEVICES; i++) {
        ua_sycl_devices[ndevices] =
            ua_dpctl.DeviceVector_GetAt(device_list, i);
        remember_context(ndevices);
        read_device_info(ndevices++);
    }
    if (ndevices == 0) {
        return ua_error_set(UA_ERR_UNAVAILABLE,
                            "the SYCL runtime enumerates no device (for "
                            "the OpenCL CPU device, install dpnp beside "
                            "dpctl, whose runtime usmarray then names, or "
                            "set OCL_ICD_FILENAMES to its libintelocl.so)");
    }
    return UA_OK;
}

static int
sycl_device_count(void)
{
    return ndevices;
}

static ua_status
sycl_device_describe(int index, ua_device_type *type, char *name,
                     size_t name_len)
{
    DPCTLSyclDeviceRef d = ua_sycl_devices[index];
    int t = ua_dpctl.Device_GetDeviceType(d);
    *type = t == DPCTL_GPU   ? UA_DEVICE_GPU
            : t == DPCTL_CPU ? UA_DEVICE_CPU
                             : UA_DEVICE_ACCELERATOR;
    const char *s = ua_dpctl.Device_GetName(d);
    snprintf(name, name_len, "%s (%s)", s ? s : "SYCL device",
             runtime_name(ua_dpctl.Device_GetBackend(d)));
    if (s != NULL) {
        ua_dpctl.CString_Delete(s);
    }
    return UA_OK;
}

static ua_status
sycl_device_info(int index, ua_device_info *out)
{
    *out = infos[index];
    return UA_OK;
}

/* Our index of a device dpctl gives, or -1. */
static int
index_of_device(DPCTLSyclDeviceRef d)
{
    for (int i = 0; d != NULL && i < ndevices; i++) {
        if (ua_dpctl.Device_AreEq(ua_sycl_devices[i], d)) {
            return i;
        }
    }
    return -1;
}

/* ----------------------------------------------- contexts and queues */

static ua_status
sycl_context_create(int index, void **context)
{
    sycl_context *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a context");
    }
    c->ctx = contexts[index];
    if (c->ctx == NULL) {
        free(c);
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime has no default context for "
                            "device %d",
                            index);
    }
    c->index = index;
    c->fp64 =
        ua_dpctl.Device_HasAspect(ua_sycl_devices[index], DPCTL_ASPECT_FP64);
    pthread_mutex_init(&c->lock, NULL);
    *context = c;
    return UA_OK;
}

/* Default queues run in order; others as asked (SYCL's out-of-order
 * queues are its default). */
static ua_status
sycl_queue_create(void *context, int index, const ua_queue_props *props,
                  void **queue)
{
    sycl_context *c = context;
    sycl_queue *q = calloc(1, sizeof(*q));
    if (q == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a queue");
    }
    q->gpu.launcher = &ua_sycl_launcher;
    int order = props == NULL || props->in_order ? DPCTL_IN_ORDER : 0;
    q->q = ua_dpctl.Queue_Create(c->ctx, ua_sycl_devices[index], NULL, order);
    if (q->q == NULL) {
        free(q);
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime could not create a queue for "
                            "device %d",
                            index);
    }
    q->c = c;
    pthread_mutex_init(&q->lock, NULL);
    *queue = q;
    return UA_OK;
}

static void
sycl_queue_destroy(void *queue)
{
    sycl_queue *q = queue;
    if (q->staging != NULL) {
        ua_dpctl.free_with_context(q->staging, q->c->ctx);
    }
    ua_dpctl.Queue_Delete(q->q);
    pthread_mutex_destroy(&q->lock);
    free(q);
}

static ua_usm_kind
kind_of(int usm_type)
{
    switch (usm_type) {
    case DPCTL_USM_DEVICE:
        return UA_USM_DEVICE;
    case DPCTL_USM_SHARED:
        return UA_USM_SHARED;
    case DPCTL_USM_HOST:
        return UA_USM_HOST;
    default:
        return UA_USM_UNKNOWN;
    }
}

/* The kind and device of ptr in the default context of some device. */
static bool
query_pointer(const void *ptr, ua_usm_kind *kind, int *index)
{
    for (int j = 0; j < ndistinct; j++) {
        *kind = kind_of(ua_dpctl.USM_GetPointerType(ptr, distinct[j]));
        if (*kind != UA_USM_UNKNOWN) {
            DPCTLSyclDeviceRef d =
                ua_dpctl.USM_GetPointerDevice(ptr, distinct[j]);
            *index = index_of_device(d);
            if (d != NULL) {
                ua_dpctl.Device_Delete(d);
            }
            return *index >= 0;
        }
    }
    return false;
}

/* The runtime tells an address's kind and device but not the range of its
 * allocation: nbytes 0 says so, and the core then checks both ends of any
 * region it is asked about. */
static ua_status
sycl_pointer_attributes(const void *ptr, ua_backend_pointer_attrs *out)
{
    ua_usm_kind kind = UA_USM_UNKNOWN;
    int index = -1;
    if (!query_pointer(ptr, &kind, &index)) {
        return ua_error_set(UA_ERR_VALUE,
                            "the SYCL runtime does not know address %p", ptr);
    }
    *out = (ua_backend_pointer_attrs){.start = (uintptr_t)ptr,
                                      .nbytes = 0,
                                      .kind = kind,
                                      .device_index = index};
    return UA_OK;
}

/* -------------------------------------------------------------- events */

static ua_status
sycl_event_record(void *queue, void **event)
{
    DPCTLSyclEventRef e =
        ua_dpctl.Queue_SubmitBarrier(((sycl_queue *)queue)->q);
    if (e == NULL) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime refused a barrier");
    }
    *event = e;
    return UA_OK;
}

static ua_status
sycl_event_wait(void *queue, void *event)
{
    DPCTLSyclEventRef e = event;
    return ua_sycl_enqueued(
        ua_dpctl.Queue_SubmitBarrierForEvents(((sycl_queue *)queue)->q, &e, 1),
        "a barrier");
}

static ua_status
sycl_event_synchronize(void *event)
{
    ua_dpctl.Event_Wait(event);
    return UA_OK;
}

static void
sycl_event_destroy(void *event)
{
    ua_dpctl.Event_Delete(event);
}

/* ------------------------------------------- dpctl's queues and contexts */

#define QUEUE_CAPSULE "SyclQueueRef"
#define CONTEXT_CAPSULE "SyclContextRef"

static ua_status
sycl_export_handle(void *object, int is_queue, void **handle)
{
    *handle =
        is_queue
            ? (void *)ua_dpctl.Queue_Copy(((sycl_queue *)object)->q)
            : (void *)ua_dpctl.Context_Copy(((sycl_context *)object)->ctx);
    return *handle != NULL ? UA_OK
                           : ua_error_set(UA_ERR_RUNTIME,
                                          "the SYCL runtime could not copy a "
                                          "%s",
                                          is_queue ? "queue" : "context");
}

static void
sycl_release_handle(void *handle, int is_queue)
{
    if (is_queue) {
        ua_dpctl.Queue_Delete(handle);
    } else {
        ua_dpctl.Context_Delete(handle);
    }
}

static ua_status
not_default_context(int index)
{
    const char *name =
        index >= 0 ? ua_dpctl.Device_GetName(ua_sycl_devices[index]) : NULL;
    ua_status st = ua_error_set(
        UA_ERR_VALUE,
        "the SYCL %s belongs to a context that is not the default context "
        "of its device%s%s; usmarray works in the default contexts, which "
        "dpctl and dpnp use unless told otherwise",
        index >= 0 ? "queue" : "context", name ? " " : "", name ? name : "");
    if (name != NULL) {
        ua_dpctl.CString_Delete(name);
    }
    return st;
}

static ua_status
adopt_queue(DPCTLSyclQueueRef q, int *index)
{
    DPCTLSyclDeviceRef d = ua_dpctl.Queue_GetDevice(q);
    DPCTLSyclContextRef c = ua_dpctl.Queue_GetContext(q);
    *index = index_of_device(d);
    bool ours = *index >= 0 && c != NULL && contexts[*index] != NULL &&
                ua_dpctl.Context_AreEq(contexts[*index], c);
    if (d != NULL) {
        ua_dpctl.Device_Delete(d);
    }
    if (c != NULL) {
        ua_dpctl.Context_Delete(c);
    }
    if (*index < 0) {
        return ua_error_set(UA_ERR_VALUE,
                            "the SYCL queue's device is not one the SYCL "
                            "runtime enumerates (a sub-device?)");
    }
    return ours ? UA_OK : not_default_context(*index);
}

static ua_status
sycl_adopt_handle(const char *capsule_name, void *handle, int *index)
{
    if (handle == NULL) {
        return ua_error_set(UA_ERR_VALUE, "a '%s' capsule holds NULL",
                            capsule_name);
    }
    if (strcmp(capsule_name, QUEUE_CAPSULE) == 0) {
        return adopt_queue(handle, index);
    }
    if (strcmp(capsule_name, CONTEXT_CAPSULE) != 0) {
        return ua_error_set(UA_ERR_TYPE, "not a SYCL capsule");
    }
    for (*index = 0; *index < ndevices; (*index)++) {
        if (contexts[*index] != NULL &&
            ua_dpctl.Context_AreEq(contexts[*index], handle)) {
            return UA_OK;
        }
    }
    return not_default_context(-1);
}

static ua_status
sycl_order_after_handle(void *queue, const char *name, void *foreign)
{
    sycl_queue *q = queue;
    if (strcmp(name, QUEUE_CAPSULE) != 0 ||
        ua_dpctl.Queue_AreEq(q->q, foreign)) {
        return UA_OK;
    }
    DPCTLSyclEventRef e = ua_dpctl.Queue_SubmitBarrier(foreign);
    if (e == NULL) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime refused a barrier");
    }
    ua_status st = sycl_event_wait(q, e);
    ua_dpctl.Event_Delete(e);
    return st;
}

/* Our copy of the handle: the queue stays alive while we use it, whatever
 * becomes of the other library's object, and both submit to one queue. */
static ua_status
sycl_wrap_handle(void *context, void *handle, void **queue)
{
    sycl_queue *q = calloc(1, sizeof(*q));
    if (q == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a queue");
    }
    q->gpu.launcher = &ua_sycl_launcher;
    if ((q->q = ua_dpctl.Queue_Copy(handle)) == NULL) {
        free(q);
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime could not copy a queue");
    }
    q->c = context;
    pthread_mutex_init(&q->lock, NULL);
    *queue = q;
    return UA_OK;
}

static bool
sycl_is_handle(void *queue, const char *name, void *handle)
{
    return strcmp(name, QUEUE_CAPSULE) == 0 &&
           ua_dpctl.Queue_AreEq(((sycl_queue *)queue)->q, handle);
}

/* Fields of dpctl's filter strings are never empty, though its selector
 * takes ":::" for the default device. */
static bool
well_formed_filter(const char *filter)
{
    size_t n = strlen(filter);
    return n > 0 && filter[0] != ':' && filter[n - 1] != ':' &&
           strstr(filter, "::") == NULL;
}

/* dpctl's filter strings, read by dpctl's own selector. */
static ua_status
sycl_select_filter(const char *filter, int *index)
{
    if (!well_formed_filter(filter)) {
        return ua_error_set(UA_ERR_VALUE, "'%s' has an empty field", filter);
    }
    DPCTLSyclDeviceSelectorRef s = ua_dpctl.FilterSelector_Create(filter);
    DPCTLSyclDeviceRef d = s ? ua_dpctl.Device_CreateFromSelector(s) : NULL;
    *index = index_of_device(d);
    if (d != NULL) {
        ua_dpctl.Device_Delete(d);
    }
    if (s != NULL) {
        ua_dpctl.DeviceSelector_Delete(s);
    }
    return *index >= 0 ? UA_OK
                       : ua_error_set(UA_ERR_VALUE,
                                      "no SYCL device matches '%s'", filter);
}

/* ------------------------------------------------------------- DLPack */

/* kDLOneAPI's device id is dpctl's device_id, which our indices are. */
static ua_dl_device
sycl_dlpack_device(int index, ua_usm_kind kind)
{
    (void)kind;
    return (ua_dl_device){UA_DL_ONEAPI, index};
}

/* DLPack does not say which USM kind; the pointer query tells, and an
 * empty tensor becomes device memory. */
static bool
sycl_dlpack_owns(ua_dl_device dl, int *index, ua_usm_kind *kind)
{
    *index = (int)dl.device_id;
    *kind = UA_USM_DEVICE;
    return dl.device_type == UA_DL_ONEAPI;
}

/* What extensions get from UsmQueue_GetNativeHandle: a DPCTLSyclQueueRef,
 * borrowed from the queue. */
static void *
sycl_queue_native_handle(void *queue)
{
    return ((sycl_queue *)queue)->q;
}

static const ua_handle_ops sycl_handles = {
    .queue_capsule_name = QUEUE_CAPSULE,
    .context_capsule_name = CONTEXT_CAPSULE,
    .adopt_handle = sycl_adopt_handle,
    .order_after_handle = sycl_order_after_handle,
    .wrap_handle = sycl_wrap_handle,
    .is_handle = sycl_is_handle,
    .export_handle = sycl_export_handle,
    .release_handle = sycl_release_handle,
};

static const ua_foreign_memory_ops sycl_foreign_memory = {
    sycl_pointer_attributes};

static const ua_filter_ops sycl_filters = {sycl_select_filter};

static const ua_device_info_ops sycl_device_info_ops = {.device_info =
                                                            sycl_device_info};

/* dpctl orders by queues, not integer streams: no stream capability, and
 * DLPack's stream must be None. */
const ua_backend_ops ua_sycl_backend_ops = {
    .version = UA_BACKEND_OPS_VERSION,
    .name = "sycl",
    /* Copies stage pageable memory through USM host memory. */
    .caps = UA_CAP_REACHES_CPU_MEMORY,
    .dlpack_device_names = "kDLOneAPI",
    .initialize = sycl_initialize,
    .device_count = sycl_device_count,
    .device_describe = sycl_device_describe,
    .context_create = sycl_context_create,
    .queue_create = sycl_queue_create,
    .queue_destroy = sycl_queue_destroy,
    .queue_native_handle = sycl_queue_native_handle,
    .memory = &ua_sycl_memory,
    .compute = &ua_sycl_compute_ops,
    .memcpy = ua_sycl_memcpy,
    .memcpy_batch = ua_sycl_memcpy_batch,
    .memset = ua_sycl_memset,
    .queue_wait = ua_sycl_queue_wait,
    .copy_strided = ua_sycl_copy_strided,
    .event_record = sycl_event_record,
    .event_wait = sycl_event_wait,
    .event_synchronize = sycl_event_synchronize,
    .event_destroy = sycl_event_destroy,
    .dlpack_device = sycl_dlpack_device,
    .dlpack_owns = sycl_dlpack_owns,
    .handles = &sycl_handles,
    .foreign_memory = &sycl_foreign_memory,
    .device_info = &sycl_device_info_ops,
    .filters = &sycl_filters,
};
