/* The CUDA backend's table of operations: NVIDIA GPUs through the driver
 * API, loaded with dlopen at first use (cuda_loader.c), so that the library
 * builds without a CUDA toolkit and runs where no driver is installed.
 *
 * Contexts are the devices' primary contexts, which the CUDA runtime and so
 * CuPy, PyTorch, numba and JAX share; the default queue is the legacy
 * default stream, other queues non-blocking streams.
 * Device memory comes from cuMemAlloc, shared from cuMemAllocManaged and
 * host from pinned, mapped, portable host memory.  The copy engine is
 * cuda_copy.c. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/cuda_peer.h"

#define CUDA_MAX_DEVICES 64

static int ndevices;

static ua_status
cuda_initialize(void)
{
    ua_status st = ua_cuda_load_driver();
    if (st != UA_OK) {
        return st;
    }
    CUresult r = ua_cu.cuInit(0);
    if (r != CUDA_SUCCESS) {
        /* Worded by ua_cuda_failed(), reported as unavailability. */
        ua_cuda_failed(r, "cuInit");
        return ua_error_set(UA_ERR_UNAVAILABLE, "%s", ua_error_message());
    }
    int n = 0;
    CU_CHECK(ua_cu.cuDeviceGetCount(&n), "cuDeviceGetCount");
    ndevices = n < CUDA_MAX_DEVICES ? n : CUDA_MAX_DEVICES;
    if (ndevices == 0) {
        return ua_error_set(UA_ERR_UNAVAILABLE,
                            "the CUDA driver reports no GPU");
    }
    ua_cuda_load_nvrtc();
    ua_cuda_peer_initialize(&ua_cu, ndevices);
    return UA_OK;
}

static int
cuda_device_count(void)
{
    return ndevices;
}

static ua_status
cuda_device_describe(int index, ua_device_type *type, char *name,
                     size_t name_len)
{
    CUdevice d;
    CU_CHECK(ua_cu.cuDeviceGet(&d, index), "cuDeviceGet");
    CU_CHECK(ua_cu.cuDeviceGetName(name, (int)name_len, d), "cuDeviceGetName");
    *type = UA_DEVICE_GPU;
    return UA_OK;
}

/* Versions are the driver's CUDA version (cuDriverGetVersion) and NVRTC's,
 * which compiles the copy kernels; compute units are multiprocessors. */
static ua_status
cuda_device_info(int index, ua_device_info *out)
{
    CUdevice d;
    int version = 0, major = 0, minor = 0, sms = 0;
    size_t total = 0;
    CU_CHECK(ua_cu.cuDeviceGet(&d, index), "cuDeviceGet");
    CU_CHECK(ua_cu.cuDriverGetVersion(&version), "cuDriverGetVersion");
    CU_CHECK(ua_cu.cuDeviceTotalMem(&total, d), "cuDeviceTotalMem");
    ua_cu.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                               d);
    ua_cu.cuDeviceGetAttribute(
        &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d);
    ua_cu.cuDeviceGetAttribute(
        &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d);
    snprintf(out->vendor, sizeof(out->vendor), "NVIDIA Corporation");
    snprintf(out->driver_version, sizeof(out->driver_version), "CUDA %d.%d",
             version / 1000, version % 1000 / 10);
    snprintf(out->architecture, sizeof(out->architecture), "sm_%d%d", major,
             minor);
    if (ua_nvrtc.loaded && ua_nvrtc.nvrtcVersion(&major, &minor) == 0) {
        snprintf(out->runtime_version, sizeof(out->runtime_version),
                 "NVRTC %d.%d; %.44s", major, minor,
                 ua_cuda_blas_description());
    }
    snprintf(out->libraries, sizeof out->libraries, "%.180s; %.180s",
             ua_cuda_solver_description(), ua_cuda_fft_description());
    out->global_mem_bytes = total;
    out->compute_units = sms > 0 ? (uint32_t)sms : 0;
    out->fp64 = true; /* every CUDA device computes in double precision */
    return UA_OK;
}

/* ----------------------------------------------- contexts and queues */

static ua_status
cuda_context_create(int index, void **context)
{
    ua_cuda_context *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a context");
    }
    CUresult r;
    if ((r = ua_cu.cuDeviceGet(&c->dev, index)) != CUDA_SUCCESS ||
        (r = ua_cu.cuDevicePrimaryCtxRetain(&c->ctx, c->dev)) !=
            CUDA_SUCCESS) {
        free(c);
        return ua_cuda_failed(r, "retaining the device's primary context");
    }
    c->index = index;
    ua_cu.cuDeviceGetAttribute(
        &c->sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, c->dev);
    ua_cu.cuDeviceGetAttribute(
        &c->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, c->dev);
    ua_cu.cuDeviceGetAttribute(
        &c->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, c->dev);
    pthread_mutex_init(&c->lock, NULL);
    pthread_mutex_init(&c->pipe.lock, NULL);
    pthread_mutex_init(&c->kept_lock, NULL);
    pthread_mutex_init(&c->solver_lock, NULL);
    ua_cuda_create_pool(c);
    ua_cuda_nvrtc_prewarm(c);
    *context = c;
    return UA_OK;
}

/* A queue over `stream`; owns says whether destroying it destroys the
 * stream. */
static ua_status
new_queue(ua_cuda_context *c, CUstream stream, bool owns, void **queue)
{
    ua_cuda_queue *q = calloc(1, sizeof(*q));
    if (q == NULL) {
        if (owns) {
            ua_cu.cuStreamDestroy(stream);
        }
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a queue");
    }
    q->gpu.launcher = &ua_cuda_launcher;
    q->c = c;
    q->stream = stream;
    q->owns_stream = owns;
    pthread_mutex_init(&q->lock, NULL);
    pthread_mutex_init(&q->mailbox_lock, NULL);
    *queue = q;
    return UA_OK;
}

/* The default queue is the legacy default stream, the one CuPy and
 * PyTorch use by default: work they enqueue there needs no event to be
 * ordered before ours, and DLPack producers asked for stream 1 skip their
 * handshake (README, "Streams").  Queues made on request are non-blocking
 * streams of their own; CUDA streams always run in order. */
static ua_status
cuda_queue_create(void *context, int index, const ua_queue_props *props,
                  void **queue)
{
    (void)index;
    ua_cuda_context *c = context;
    ua_status st = ua_cuda_bind(c);
    if (st != UA_OK) {
        return st;
    }
    if (props == NULL) {
        return new_queue(c, CU_STREAM_LEGACY, false, queue);
    }
    CUstream s;
    CUresult r = props->has_priority
                     ? ua_cu.cuStreamCreateWithPriority(
                           &s, CU_STREAM_NON_BLOCKING, props->priority)
                     : ua_cu.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    if (r != CUDA_SUCCESS) {
        return ua_cuda_failed(r, "cuStreamCreate");
    }
    return new_queue(c, s, true, queue);
}

static ua_status foreign_stream(const ua_cuda_context *c, uintptr_t handle,
                                CUstream *out);

/* 0, the driver API's name of the default stream (PyTorch's default
 * stream reports it), is the legacy default stream. */
static ua_status
cuda_queue_wrap(void *context, uintptr_t stream, void **queue)
{
    ua_cuda_context *c = context;
    CUstream s = CU_STREAM_LEGACY;
    ua_status st = ua_cuda_bind(c);
    if (st == UA_OK && stream != 0) {
        st = foreign_stream(c, stream, &s);
    }
    return st != UA_OK ? st : new_queue(c, s, false, queue);
}

static void
cuda_queue_destroy(void *queue)
{
    ua_cuda_queue *q = queue;
    if (ua_cuda_bind(q->c) == UA_OK) {
        if (q->staging != NULL) {
            ua_cu.cuMemFreeHost(q->staging);
        }
        if (q->mailbox != NULL) {
            ua_cu.cuMemFreeHost(q->mailbox);
        }
        if (q->c->pool != NULL) {
            ua_cuda_release_kept(q->c, q->stream);
        }
        if (q->owns_stream) {
            ua_cu.cuStreamDestroy(q->stream);
        }
    }
    ua_error_clear();
    pthread_mutex_destroy(&q->lock);
    pthread_mutex_destroy(&q->mailbox_lock);
    free(q);
}

static void
cuda_queue_priorities(void *context, int *least, int *greatest)
{
    *least = *greatest = 0;
    if (ua_cuda_bind(context) != UA_OK ||
        ua_cu.cuCtxGetStreamPriorityRange(least, greatest) != CUDA_SUCCESS) {
        ua_error_clear();
    }
}

static ua_status
cuda_pointer_attributes(const void *ptr, ua_backend_pointer_attrs *out)
{
    ua_cuda_pointer p;
    if (!ua_cuda_query_pointer(ptr, &p) || p.size == 0) {
        return ua_error_set(UA_ERR_VALUE,
                            "the CUDA driver does not know address %p", ptr);
    }
    out->start = p.start;
    out->nbytes = p.size;
    out->kind = p.is_managed                          ? UA_USM_SHARED
                : p.memory_type == CU_MEMORYTYPE_HOST ? UA_USM_HOST
                                                      : UA_USM_DEVICE;
    /* Pinned host memory belongs to no one device. */
    out->device_index = p.ordinal >= 0 && p.ordinal < ndevices ? p.ordinal : 0;
    return UA_OK;
}

static ua_status
cuda_queue_wait(void *queue)
{
    ua_cuda_queue *q = queue;
    ua_status st = ua_cuda_bind(q->c);
    if (st != UA_OK) {
        return st;
    }
    CU_CHECK(ua_cu.cuStreamSynchronize(q->stream), "cuStreamSynchronize");
    return UA_OK;
}

/* -------------------------------------------------------------- events */

static ua_status
cuda_event_record(void *queue, void **event)
{
    ua_cuda_queue *q = queue;
    ua_status st = ua_cuda_bind(q->c);
    if (st != UA_OK) {
        return st;
    }
    CUevent e;
    CU_CHECK(ua_cu.cuEventCreate(&e, CU_EVENT_DISABLE_TIMING),
             "cuEventCreate");
    CUresult r = ua_cu.cuEventRecord(e, q->stream);
    if (r != CUDA_SUCCESS) {
        ua_cu.cuEventDestroy(e);
        return ua_cuda_failed(r, "cuEventRecord");
    }
    *event = e;
    return UA_OK;
}

static ua_status
cuda_event_wait(void *queue, void *event)
{
    ua_cuda_queue *q = queue;
    ua_status st = ua_cuda_bind(q->c);
    if (st != UA_OK) {
        return st;
    }
    CU_CHECK(ua_cu.cuStreamWaitEvent(q->stream, event, 0),
             "cuStreamWaitEvent");
    return UA_OK;
}

static ua_status
cuda_event_synchronize(void *event)
{
    CU_CHECK(ua_cu.cuEventSynchronize(event), "cuEventSynchronize");
    return UA_OK;
}

static void
cuda_event_destroy(void *event)
{
    ua_cu.cuEventDestroy(event);
}

/* ------------------------------------------------ streams of others */

static uintptr_t
cuda_queue_stream(void *queue)
{
    return (uintptr_t)((ua_cuda_queue *)queue)->stream;
}

static void *
cuda_queue_native_handle(void *queue)
{
    return ((ua_cuda_queue *)queue)->stream;
}

/* Whether the bytes at p can be read: a stream handle is a pointer into
 * the driver's memory, and a made-up one must not crash the process. */
static bool
readable(uintptr_t p, size_t n)
{
    char buf[64];
    struct iovec local = {buf, n < sizeof(buf) ? n : sizeof(buf)};
    struct iovec remote = {(void *)p, local.iov_len};
    return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) ==
           (ssize_t)local.iov_len;
}

static ua_status
foreign_stream(const ua_cuda_context *c, uintptr_t handle, CUstream *out)
{
    *out = (CUstream)handle;
    if (*out == CU_STREAM_LEGACY || *out == CU_STREAM_PER_THREAD) {
        return UA_OK;
    }
    CUcontext ctx = NULL;
    if (handle < 4096 || !readable(handle, 64) ||
        ua_cu.cuStreamGetCtx(*out, &ctx) != CUDA_SUCCESS) {
        return ua_error_set(UA_ERR_VALUE, "stream %#zx is not a CUDA stream",
                            (size_t)handle);
    }
    if (ctx != c->ctx) {
        return ua_error_set(UA_ERR_VALUE,
                            "stream %#zx belongs to another CUDA context than "
                            "cuda:gpu:%d's primary one",
                            (size_t)handle, c->index);
    }
    return UA_OK;
}

/* An event recorded on `from` and waited for on `to`: later work on `to`
 * runs after what `from` has enqueued, without blocking the host. */
static ua_status
order_streams(CUstream from, CUstream to)
{
    CUevent e;
    CU_CHECK(ua_cu.cuEventCreate(&e, CU_EVENT_DISABLE_TIMING),
             "cuEventCreate");
    CUresult r = ua_cu.cuEventRecord(e, from);
    if (r == CUDA_SUCCESS) {
        r = ua_cu.cuStreamWaitEvent(to, e, 0);
    }
    ua_cu.cuEventDestroy(e);
    return r == CUDA_SUCCESS ? UA_OK
                             : ua_cuda_failed(r, "ordering two streams");
}

static ua_status
cuda_order_with_stream(void *queue, uintptr_t handle, int stream_waits)
{
    ua_cuda_queue *q = queue;
    CUstream other;
    ua_status st = ua_cuda_bind(q->c);
    if (st != UA_OK || (st = foreign_stream(q->c, handle, &other)) != UA_OK) {
        return st;
    }
    if (other == q->stream) {
        return UA_OK; /* one stream is in order with itself */
    }
    return stream_waits ? order_streams(q->stream, other)
                        : order_streams(other, q->stream);
}

static ua_dl_device
cuda_dlpack_device(int index, ua_usm_kind kind)
{
    switch (kind) {
    case UA_USM_SHARED:
        return (ua_dl_device){UA_DL_CUDA_MANAGED, index};
    case UA_USM_HOST:
        return (ua_dl_device){UA_DL_CUDA_HOST, index};
    default:
        return (ua_dl_device){UA_DL_CUDA, index};
    }
}

static bool
cuda_dlpack_owns(ua_dl_device dl, int *index, ua_usm_kind *kind)
{
    switch (dl.device_type) {
    case UA_DL_CUDA:
        *kind = UA_USM_DEVICE;
        break;
    case UA_DL_CUDA_HOST:
        *kind = UA_USM_HOST;
        break;
    case UA_DL_CUDA_MANAGED:
        *kind = UA_USM_SHARED;
        break;
    default:
        return false;
    }
    *index = (int)dl.device_id;
    return true;
}

static const ua_stream_ops cuda_streams = {
    .rule = UA_STREAMS_HANDLE,
    .none_stream = (uintptr_t)CU_STREAM_LEGACY,
    .queue_stream = cuda_queue_stream,
    .queue_wrap = cuda_queue_wrap,
    .order_with_stream = cuda_order_with_stream,
};

static const ua_peer_ops cuda_peers = {ua_cuda_peer_access};
static const ua_priority_ops cuda_priorities = {cuda_queue_priorities};
static const ua_foreign_memory_ops cuda_foreign_memory = {
    cuda_pointer_attributes};
/* Every CUDA device computes in double precision. */
static bool
cuda_has_fp64(int index)
{
    (void)index;
    return true;
}

static const ua_device_info_ops cuda_device_info_ops = {
    .device_info = cuda_device_info, .has_fp64 = cuda_has_fp64};

static void
cuda_quiesce(void)
{
    ua_cuda_program_quiesce();
    ua_cuda_primes_join();
}

const ua_backend_ops ua_cuda_backend_ops = {
    .version = UA_BACKEND_OPS_VERSION,
    .name = "cuda",
    .caps = UA_CAP_REACHES_CPU_MEMORY | UA_CAP_CUDA_ARRAY_INTERFACE,
    .dlpack_device_names = "kDLCUDA, kDLCUDAHost, kDLCUDAManaged",
    .initialize = cuda_initialize,
    .device_count = cuda_device_count,
    .device_describe = cuda_device_describe,
    .context_create = cuda_context_create,
    .queue_create = cuda_queue_create,
    .queue_destroy = cuda_queue_destroy,
    .queue_native_handle = cuda_queue_native_handle,
    .memory = &ua_cuda_memory,
    .compute = &ua_cuda_compute_ops,
    .memcpy = ua_cuda_memcpy,
    .memcpy_batch = ua_cuda_memcpy_batch,
    .memset = ua_cuda_memset,
    .queue_wait = cuda_queue_wait,
    .copy_strided = ua_cuda_copy_strided,
    .event_record = cuda_event_record,
    .event_wait = cuda_event_wait,
    .event_synchronize = cuda_event_synchronize,
    .event_destroy = cuda_event_destroy,
    .dlpack_device = cuda_dlpack_device,
    .dlpack_owns = cuda_dlpack_owns,
    .streams = &cuda_streams,
    .peers = &cuda_peers,
    .priorities = &cuda_priorities,
    .foreign_memory = &cuda_foreign_memory,
    .device_info = &cuda_device_info_ops,
    .ordered_memory = &ua_cuda_ordered_memory,
    .quiesce = cuda_quiesce,
};
