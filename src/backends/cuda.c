/* The CUDA backend: NVIDIA GPUs through the driver API, loaded with dlopen
 * at first use (cuda_driver.h declares what is used), so that the library
 * builds without a CUDA toolkit and runs where no driver is installed.
 *
 * Contexts are the devices' primary contexts, which the CUDA runtime and so
 * CuPy, PyTorch, numba and JAX share; queues are non-blocking streams.
 * Device memory comes from cuMemAlloc, shared from cuMemAllocManaged and
 * host from pinned, mapped, portable host memory.  Strided copies run
 * kernels that NVRTC compiles at run time (cuda_kernels.h); memory a kernel
 * cannot reach (pageable host memory) goes through a pinned staging buffer
 * of the queue. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "cuda_driver.h"
#include "cuda_kernels.h"
#include "usmarray/backend.h"

#define CUDA_MAX_DEVICES 64
/* Alignment cuMemAlloc and cuMemAllocManaged guarantee. */
#define CUDA_DEVICE_ALIGNMENT 256
/* Alignment of pinned host memory (pages). */
#define CUDA_HOST_ALIGNMENT 4096

/* ------------------------------------------------------------ the driver */

static struct {
#define DECLARE(field, symbol, params) CUresult(*field) params;
    UA_CUDA_DRIVER_FUNCTIONS(DECLARE)
#undef DECLARE
} cu;

static struct {
#define DECLARE(field, symbol, params) nvrtcResult(*field) params;
    UA_NVRTC_FUNCTIONS(DECLARE)
#undef DECLARE
    const char *(*nvrtcGetErrorString)(nvrtcResult r);
    bool loaded;
    char reason[200];
} nvrtc;

static int ndevices;

/* Turns a failed driver call into a status with the driver's words. */
static ua_status
failed(CUresult r, const char *what)
{
    const char *name = "?", *text = "";
    if (cu.cuGetErrorName != NULL) {
        cu.cuGetErrorName(r, &name);
        cu.cuGetErrorString(r, &text);
    }
    return ua_error_set(r == CUDA_ERROR_OUT_OF_MEMORY ? UA_ERR_ALLOC
                                                      : UA_ERR_RUNTIME,
                        "CUDA %s failed: %s (%s)", what, name ? name : "?",
                        text ? text : "");
}

#define CU_CHECK(call, what)                                                  \
    do {                                                                      \
        CUresult r_ = (call);                                                 \
        if (r_ != CUDA_SUCCESS) {                                             \
            return failed(r_, what);                                          \
        }                                                                     \
    } while (0)

static void *
open_first(const char *const *names)
{
    for (; *names != NULL; names++) {
        void *h = dlopen(*names, RTLD_NOW | RTLD_LOCAL);
        if (h != NULL) {
            return h;
        }
    }
    return NULL;
}

static ua_status
load_driver(void)
{
    static const char *const names[] = {"libcuda.so.1", "libcuda.so", NULL};
    void *h = open_first(names);
    if (h == NULL) {
        return ua_error_set(UA_ERR_UNAVAILABLE,
                            "no CUDA driver: libcuda.so.1 could not be "
                            "loaded (%s)",
                            dlerror());
    }
#define LOOKUP(field, symbol, params)                                         \
    if ((*(void **)&cu.field = dlsym(h, symbol)) == NULL) {                   \
        return ua_error_set(UA_ERR_UNAVAILABLE,                               \
                            "the CUDA driver lacks %s: it is too old",        \
                            symbol);                                          \
    }
    UA_CUDA_DRIVER_FUNCTIONS(LOOKUP)
#undef LOOKUP
    return UA_OK;
}

/* NVRTC is needed for strided copies only: without it the rest works. */
static void
load_nvrtc(void)
{
    static const char *const names[] = {
        "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", NULL};
    void *h = open_first(names);
    if (h == NULL) {
        snprintf(nvrtc.reason, sizeof(nvrtc.reason),
                 "NVRTC (libnvrtc.so) could not be loaded");
        return;
    }
#define LOOKUP(field, symbol, params)                                         \
    if ((*(void **)&nvrtc.field = dlsym(h, symbol)) == NULL) {                \
        snprintf(nvrtc.reason, sizeof(nvrtc.reason), "NVRTC lacks %s",       \
                 symbol);                                                     \
        return;                                                               \
    }
    UA_NVRTC_FUNCTIONS(LOOKUP)
    LOOKUP(nvrtcGetErrorString, "nvrtcGetErrorString", ())
#undef LOOKUP
    nvrtc.loaded = true;
}

static ua_status
cuda_initialize(void)
{
    ua_status st = load_driver();
    if (st != UA_OK) {
        return st;
    }
    CUresult r = cu.cuInit(0);
    if (r != CUDA_SUCCESS) {
        /* Worded by failed(), reported as unavailability. */
        failed(r, "cuInit");
        return ua_error_set(UA_ERR_UNAVAILABLE, "%s", ua_error_message());
    }
    int n = 0;
    CU_CHECK(cu.cuDeviceGetCount(&n), "cuDeviceGetCount");
    ndevices = n < CUDA_MAX_DEVICES ? n : CUDA_MAX_DEVICES;
    if (ndevices == 0) {
        return ua_error_set(UA_ERR_UNAVAILABLE,
                            "the CUDA driver reports no GPU");
    }
    load_nvrtc();
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
    CU_CHECK(cu.cuDeviceGet(&d, index), "cuDeviceGet");
    CU_CHECK(cu.cuDeviceGetName(name, (int)name_len, d), "cuDeviceGetName");
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
    CU_CHECK(cu.cuDeviceGet(&d, index), "cuDeviceGet");
    CU_CHECK(cu.cuDriverGetVersion(&version), "cuDriverGetVersion");
    CU_CHECK(cu.cuDeviceTotalMem(&total, d), "cuDeviceTotalMem");
    cu.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d);
    cu.cuDeviceGetAttribute(&major,
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d);
    cu.cuDeviceGetAttribute(&minor,
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d);
    snprintf(out->vendor, sizeof(out->vendor), "NVIDIA Corporation");
    snprintf(out->driver_version, sizeof(out->driver_version), "CUDA %d.%d",
             version / 1000, version % 1000 / 10);
    snprintf(out->architecture, sizeof(out->architecture), "sm_%d%d", major,
             minor);
    if (nvrtc.loaded && nvrtc.nvrtcVersion(&major, &minor) == 0) {
        snprintf(out->runtime_version, sizeof(out->runtime_version),
                 "NVRTC %d.%d", major, minor);
    }
    out->global_mem_bytes = total;
    out->compute_units = sms > 0 ? (uint32_t)sms : 0;
    return UA_OK;
}

/* ----------------------------------------------- contexts and queues */

typedef struct {
    CUmodule module;
    CUfunction nd, tiled;
} copy_kernels;

typedef struct {
    CUcontext ctx;
    CUdevice dev;
    int index;
    int sm_count, cc_major, cc_minor;
    pthread_mutex_t lock; /* guards kernels */
    copy_kernels kernels[UA_NTYPES][UA_NTYPES];
} cuda_context;

typedef struct {
    cuda_context *c;
    CUstream stream;
    pthread_mutex_t lock; /* guards the staging buffer */
    void *staging;
    size_t staging_bytes;
} cuda_queue;

/* Driver calls act on the calling thread's current context. */
static ua_status
bind(const cuda_context *c)
{
    CUcontext cur = NULL;
    if (cu.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == c->ctx) {
        return UA_OK;
    }
    CU_CHECK(cu.cuCtxSetCurrent(c->ctx), "cuCtxSetCurrent");
    return UA_OK;
}

static ua_status
cuda_context_create(int index, void **context)
{
    cuda_context *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a context");
    }
    CUresult r;
    if ((r = cu.cuDeviceGet(&c->dev, index)) != CUDA_SUCCESS ||
        (r = cu.cuDevicePrimaryCtxRetain(&c->ctx, c->dev)) != CUDA_SUCCESS) {
        free(c);
        return failed(r, "retaining the device's primary context");
    }
    c->index = index;
    cu.cuDeviceGetAttribute(&c->sm_count,
                            CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, c->dev);
    cu.cuDeviceGetAttribute(&c->cc_major,
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                            c->dev);
    cu.cuDeviceGetAttribute(&c->cc_minor,
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                            c->dev);
    pthread_mutex_init(&c->lock, NULL);
    *context = c;
    return UA_OK;
}

static ua_status
cuda_queue_create(void *context, int index, void **queue)
{
    (void)index;
    cuda_context *c = context;
    ua_status st = bind(c);
    if (st != UA_OK) {
        return st;
    }
    cuda_queue *q = calloc(1, sizeof(*q));
    if (q == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a queue");
    }
    CUresult r = cu.cuStreamCreate(&q->stream, CU_STREAM_NON_BLOCKING);
    if (r != CUDA_SUCCESS) {
        free(q);
        return failed(r, "cuStreamCreate");
    }
    q->c = c;
    pthread_mutex_init(&q->lock, NULL);
    *queue = q;
    return UA_OK;
}

/* ------------------------------------------------------------- memory */

static ua_status
alloc_managed(size_t nbytes, void **ptr)
{
    /* Oversubscribed managed memory can stall the GPU: refuse what the
     * device could not hold. */
    size_t free_bytes = 0, total = 0;
    CU_CHECK(cu.cuMemGetInfo(&free_bytes, &total), "cuMemGetInfo");
    if (nbytes > free_bytes) {
        return ua_error_set(UA_ERR_ALLOC,
                            "CUDA could not allocate %zu bytes of USM "
                            "shared memory: the device has %zu bytes free",
                            nbytes, free_bytes);
    }
    CUdeviceptr p;
    CU_CHECK(cu.cuMemAllocManaged(&p, nbytes, CU_MEM_ATTACH_GLOBAL),
             "cuMemAllocManaged");
    *ptr = (void *)(uintptr_t)p;
    return UA_OK;
}

/* Every refusal of an allocation is a USMAllocationError, worded as the
 * other backends word it. */
static ua_status
alloc_failed(CUresult r, ua_usm_kind kind, size_t nbytes)
{
    const char *name = NULL;
    cu.cuGetErrorName(r, &name);
    return ua_error_set(UA_ERR_ALLOC,
                        "CUDA could not allocate %zu bytes of USM %s memory: "
                        "%s",
                        nbytes, ua_usm_kind_name(kind), name ? name : "?");
}

static ua_status
cuda_alloc(void *context, int index, ua_usm_kind kind, size_t nbytes,
           size_t alignment, void **ptr)
{
    (void)index;
    size_t guaranteed = kind == UA_USM_HOST ? CUDA_HOST_ALIGNMENT
                                            : CUDA_DEVICE_ALIGNMENT;
    if (alignment > guaranteed) {
        return ua_error_set(UA_ERR_VALUE,
                            "CUDA USM %s memory is aligned to %zu bytes; an "
                            "alignment of %zu is not available",
                            ua_usm_kind_name(kind), guaranteed, alignment);
    }
    ua_status st = bind(context);
    if (st != UA_OK) {
        return st;
    }
    CUdeviceptr p = 0;
    CUresult r;
    switch (kind) {
    case UA_USM_SHARED:
        return alloc_managed(nbytes, ptr);
    case UA_USM_HOST:
        r = cu.cuMemHostAlloc(ptr, nbytes,
                              CU_MEMHOSTALLOC_PORTABLE |
                                  CU_MEMHOSTALLOC_DEVICEMAP);
        break;
    default:
        r = cu.cuMemAlloc(&p, nbytes);
        *ptr = (void *)(uintptr_t)p;
        break;
    }
    return r == CUDA_SUCCESS ? UA_OK : alloc_failed(r, kind, nbytes);
}

static void
cuda_free(void *context, ua_usm_kind kind, void *ptr)
{
    if (bind(context) != UA_OK) {
        ua_error_clear();
        return;
    }
    if (kind == UA_USM_HOST) {
        cu.cuMemFreeHost(ptr);
    }
    else {
        cu.cuMemFree((CUdeviceptr)(uintptr_t)ptr);
    }
}

/* What the driver knows of an address; false for memory it never saw
 * (pageable host memory). */
typedef struct {
    int memory_type;
    int is_managed;
    int ordinal;
    uintptr_t start;
    size_t size;
} cuda_pointer;

static bool
query_pointer(const void *ptr, cuda_pointer *out)
{
    int attrs[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                   CU_POINTER_ATTRIBUTE_IS_MANAGED,
                   CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                   CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                   CU_POINTER_ATTRIBUTE_RANGE_SIZE};
    unsigned memory_type = 0;
    int is_managed = 0, ordinal = -1;
    CUdeviceptr start = 0;
    size_t size = 0;
    void *data[] = {&memory_type, &is_managed, &ordinal, &start, &size};
    CUresult r = cu.cuPointerGetAttributes(5, attrs, data,
                                           (CUdeviceptr)(uintptr_t)ptr);
    if (r != CUDA_SUCCESS || memory_type == 0) {
        return false;
    }
    *out = (cuda_pointer){(int)memory_type, is_managed, ordinal,
                          (uintptr_t)start, size};
    return true;
}

static ua_status
cuda_pointer_attributes(const void *ptr, ua_backend_pointer_attrs *out)
{
    cuda_pointer p;
    if (!query_pointer(ptr, &p) || p.size == 0) {
        return ua_error_set(UA_ERR_VALUE,
                            "the CUDA driver does not know address %p", ptr);
    }
    out->start = p.start;
    out->nbytes = p.size;
    out->kind = p.is_managed                            ? UA_USM_SHARED
                : p.memory_type == CU_MEMORYTYPE_HOST ? UA_USM_HOST
                                                      : UA_USM_DEVICE;
    /* Pinned host memory belongs to no one device. */
    out->device_index = p.ordinal >= 0 && p.ordinal < ndevices ? p.ordinal : 0;
    return UA_OK;
}

/* Whether this queue's kernels can read and write ptr; device memory of
 * another GPU is an error, not a "no". */
static ua_status
reachable(const cuda_queue *q, const void *ptr, bool *out)
{
    cuda_pointer p;
    *out = false;
    if (!query_pointer(ptr, &p)) {
        return UA_OK;
    }
    if (p.memory_type == CU_MEMORYTYPE_DEVICE && !p.is_managed &&
        p.ordinal != q->c->index) {
        return ua_error_set(UA_ERR_VALUE,
                            "copies between CUDA devices are not supported: "
                            "%p is memory of cuda:gpu:%d, the queue is on "
                            "cuda:gpu:%d",
                            ptr, p.ordinal, q->c->index);
    }
    *out = true;
    return UA_OK;
}

/* ------------------------------------------------------------- copies */

static bool
ranges_overlap(const void *a, const void *b, size_t n)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x != y && x < y + n && y < x + n;
}

static ua_status
cuda_memcpy(void *queue, void *dst, const void *src, size_t n)
{
    cuda_queue *q = queue;
    ua_status st = bind(q->c);
    if (st != UA_OK) {
        return st;
    }
    CUdeviceptr d = (CUdeviceptr)(uintptr_t)dst;
    CUdeviceptr s = (CUdeviceptr)(uintptr_t)src;
    if (!ranges_overlap(dst, src, n)) {
        CU_CHECK(cu.cuMemcpyAsync(d, s, n, q->stream), "cuMemcpyAsync");
        return UA_OK;
    }
    /* cuMemcpy does not allow overlap: go through a temporary, freed in
     * stream order. */
    CUdeviceptr tmp;
    CU_CHECK(cu.cuMemAllocAsync(&tmp, n, q->stream), "cuMemAllocAsync");
    CU_CHECK(cu.cuMemcpyAsync(tmp, s, n, q->stream), "cuMemcpyAsync");
    CU_CHECK(cu.cuMemcpyAsync(d, tmp, n, q->stream), "cuMemcpyAsync");
    CU_CHECK(cu.cuMemFreeAsync(tmp, q->stream), "cuMemFreeAsync");
    return UA_OK;
}

static ua_status
cuda_memset(void *queue, void *dst, unsigned char value, size_t n)
{
    cuda_queue *q = queue;
    ua_status st = bind(q->c);
    if (st != UA_OK) {
        return st;
    }
    CU_CHECK(cu.cuMemsetD8Async((CUdeviceptr)(uintptr_t)dst, value, n,
                                q->stream),
             "cuMemsetD8Async");
    return UA_OK;
}

static ua_status
cuda_queue_wait(void *queue)
{
    cuda_queue *q = queue;
    ua_status st = bind(q->c);
    if (st != UA_OK) {
        return st;
    }
    CU_CHECK(cu.cuStreamSynchronize(q->stream), "cuStreamSynchronize");
    return UA_OK;
}

/* The CUDA C++ type that holds elements of t. */
static const char *
device_type_name(ua_typenum t)
{
    switch (t) {
    case UA_BOOL:
    case UA_UINT8:
        return "unsigned char";
    case UA_INT8:
        return "signed char";
    case UA_INT16:
        return "short";
    case UA_UINT16:
    case UA_FLOAT16:
        return "unsigned short";
    case UA_INT32:
        return "int";
    case UA_UINT32:
        return "unsigned int";
    case UA_INT64:
        return "long long";
    case UA_UINT64:
        return "unsigned long long";
    case UA_FLOAT32:
        return "float";
    case UA_FLOAT64:
        return "double";
    case UA_COMPLEX64:
        return "c64";
    default:
        return "c128";
    }
}

static bool
is_complex(ua_typenum t)
{
    return t == UA_COMPLEX64 || t == UA_COMPLEX128;
}

/* The body of convert(S v): NumPy's unsafe cast from src to dst. */
static void
conversion(ua_typenum dst, ua_typenum src, char *out, size_t len)
{
    /* The source as a real number; a complex source gives its real part. */
    const char *x = src == UA_FLOAT16 ? "h2d(v)" : is_complex(src) ? "v.re"
                                                                   : "v";
    if (dst == src) {
        snprintf(out, len, "return v;");
    }
    else if (dst == UA_BOOL) {
        snprintf(out, len, "return (D)(%s);",
                 is_complex(src) ? "v.re != 0 || v.im != 0"
                 : src == UA_FLOAT16 ? "(v & 0x7fff) != 0"
                                     : "v != 0");
    }
    else if (dst == UA_FLOAT16) {
        snprintf(out, len, "return d2h((double)(%s));", x);
    }
    else if (is_complex(dst)) {
        const char *part = dst == UA_COMPLEX64 ? "float" : "double";
        if (is_complex(src)) {
            snprintf(out, len, "D r; r.re = (%s)v.re; r.im = (%s)v.im; return r;",
                     part, part);
        }
        else {
            snprintf(out, len, "D r; r.re = (%s)(%s); r.im = 0; return r;",
                     part, x);
        }
    }
    else if (dst != UA_FLOAT32 && dst != UA_FLOAT64 &&
             (src == UA_FLOAT16 || src == UA_FLOAT32 || src == UA_FLOAT64 ||
              is_complex(src))) {
        /* Floating to integer wraps out-of-range values through a 64-bit
         * integer, as NumPy's casts do on x86-64, where a direct cast
         * would saturate. */
        snprintf(out, len,
                 "return %s < 0 ? (D)(long long)(%s) "
                 ": (D)(unsigned long long)(%s);",
                 x, x, x);
    }
    else {
        snprintf(out, len, "return (D)(%s);", x);
    }
}

static ua_status
compile_kernels(cuda_context *c, ua_typenum dst, ua_typenum src,
                copy_kernels *k)
{
    if (!nvrtc.loaded) {
        return ua_error_set(UA_ERR_UNAVAILABLE,
                            "strided copies on CUDA devices need NVRTC: %s",
                            nvrtc.reason);
    }
    char convert[200], head[600];
    conversion(dst, src, convert, sizeof(convert));
    snprintf(head, sizeof(head),
             "typedef %s S;\ntypedef %s D;\n"
             "__device__ __forceinline__ D convert(S v) { %s }\n",
             device_type_name(src), device_type_name(dst), convert);
    size_t n = sizeof(ua_cuda_kernel_prelude) + strlen(head) +
               sizeof(ua_cuda_kernel_body);
    char *source = malloc(n);
    if (source == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a kernel");
    }
    snprintf(source, n, "%s%s%s", ua_cuda_kernel_prelude, head,
             ua_cuda_kernel_body);
    char arch[64];
    snprintf(arch, sizeof(arch), "--gpu-architecture=sm_%d%d", c->cc_major,
             c->cc_minor);
    const char *opts[] = {arch, "--std=c++14", "-default-device"};
    nvrtcProgram prog;
    nvrtcResult r = nvrtc.nvrtcCreateProgram(&prog, source, "usmarray_copy.cu",
                                             0, NULL, NULL);
    free(source);
    if (r != 0) {
        return ua_error_set(UA_ERR_RUNTIME, "nvrtcCreateProgram failed: %s",
                            nvrtc.nvrtcGetErrorString(r));
    }
    r = nvrtc.nvrtcCompileProgram(prog, 3, opts);
    ua_status st = UA_OK;
    size_t size = 0;
    char *image = NULL;
    if (r != 0) {
        char log[2048] = "";
        size_t log_size = 0;
        if (nvrtc.nvrtcGetProgramLogSize(prog, &log_size) == 0 &&
            log_size < sizeof(log)) {
            nvrtc.nvrtcGetProgramLog(prog, log);
        }
        st = ua_error_set(UA_ERR_RUNTIME,
                          "NVRTC could not compile the copy kernel for %s: "
                          "%s %s",
                          arch + 19, nvrtc.nvrtcGetErrorString(r), log);
    }
    else if (nvrtc.nvrtcGetCUBINSize(prog, &size) != 0 ||
             (image = malloc(size)) == NULL ||
             nvrtc.nvrtcGetCUBIN(prog, image) != 0) {
        st = ua_error_set(UA_ERR_RUNTIME, "NVRTC gave no binary");
    }
    nvrtc.nvrtcDestroyProgram(&prog);
    if (st == UA_OK) {
        CUresult cr = cu.cuModuleLoadData(&k->module, image);
        if (cr == CUDA_SUCCESS) {
            cr = cu.cuModuleGetFunction(&k->nd, k->module, "ua_copy_nd");
        }
        if (cr == CUDA_SUCCESS) {
            cr = cu.cuModuleGetFunction(&k->tiled, k->module, "ua_copy_tiled");
        }
        if (cr != CUDA_SUCCESS) {
            st = failed(cr, "loading the copy kernels");
        }
    }
    free(image);
    return st;
}

/* The kernels of a pair of types, compiled on first use and kept. */
static ua_status
kernels_for(cuda_context *c, ua_typenum dst, ua_typenum src,
            const copy_kernels **out)
{
    copy_kernels *k = &c->kernels[ua_dtype_index(dst)][ua_dtype_index(src)];
    pthread_mutex_lock(&c->lock);
    ua_status st = k->module != NULL ? UA_OK : compile_kernels(c, dst, src, k);
    pthread_mutex_unlock(&c->lock);
    *out = k;
    return st;
}

/* The kernels' argument: a plan with its pointers. */
typedef struct {
    char *dst;
    const char *src;
    long long size;
    int nd;
    int tile_axis;
    long long shape[UA_CUDA_MAX_DIMS];
    long long dstep[UA_CUDA_MAX_DIMS];
    long long sstep[UA_CUDA_MAX_DIMS];
} kernel_plan;

static long long
magnitude(long long x)
{
    return x < 0 ? -x : x;
}

/* The axis to tile with the destination's last: one along which the
 * source is dense while the last is not; -1 where plain threads coalesce. */
static int
tile_axis(const kernel_plan *p, size_t ssize)
{
    int last = p->nd - 1;
    if (p->nd < 2 || magnitude(p->sstep[last]) == (long long)ssize ||
        p->shape[last] < 8) {
        return -1;
    }
    for (int k = 0; k < last; k++) {
        if (magnitude(p->sstep[k]) == (long long)ssize && p->shape[k] >= 8) {
            return k;
        }
    }
    return -1;
}

static unsigned
grid_for(const cuda_context *c, long long work)
{
    long long cap = (long long)(c->sm_count > 0 ? c->sm_count : 16) * 32;
    return (unsigned)(work < 1 ? 1 : work < cap ? work : cap);
}

static ua_status
launch(cuda_queue *q, const ua_copy_plan *cp, ua_typenum dt, void *dst,
       ua_typenum stype, const void *src)
{
    const copy_kernels *k;
    ua_status st = kernels_for(q->c, dt, stype, &k);
    if (st != UA_OK) {
        return st;
    }
    kernel_plan p = {.dst = dst, .src = src, .nd = cp->nd, .size = 1};
    for (int i = 0; i < cp->nd; i++) {
        p.shape[i] = cp->shape[i];
        p.dstep[i] = cp->dstep[i];
        p.sstep[i] = cp->sstep[i];
        p.size *= cp->shape[i];
    }
    p.tile_axis = tile_axis(&p, ua_dtype_itemsize(stype));
    void *args[] = {&p};
    if (p.tile_axis >= 0) {
        long long tiles = p.size / (p.shape[p.nd - 1] * p.shape[p.tile_axis]) *
                          ((p.shape[p.nd - 1] + 31) / 32) *
                          ((p.shape[p.tile_axis] + 31) / 32);
        CU_CHECK(cu.cuLaunchKernel(k->tiled, grid_for(q->c, tiles), 1, 1, 32,
                                   8, 1, 0, q->stream, args, NULL),
                 "launching the tiled copy kernel");
    }
    else {
        CU_CHECK(cu.cuLaunchKernel(k->nd, grid_for(q->c, (p.size + 255) / 256),
                                   1, 1, 256, 1, 1, 0, q->stream, args, NULL),
                 "launching the copy kernel");
    }
    return UA_OK;
}

static bool
plan_is_dense(const ua_copy_plan *p, size_t dsize, size_t ssize)
{
    return p->nd == 0 || (p->nd == 1 && p->dstep[0] == (ptrdiff_t)dsize &&
                          p->sstep[0] == (ptrdiff_t)ssize);
}

/* Dense steps, in plan order, for elements of size `size`; returns the
 * bytes they span.  Axes a source broadcasts (step 0 in `broadcast`, when
 * given) stay 0 and are packed once. */
static size_t
dense_steps(const ua_copy_plan *p, const ptrdiff_t *broadcast, size_t size,
            ptrdiff_t *out)
{
    size_t n = size;
    for (int k = p->nd - 1; k >= 0; k--) {
        bool once = broadcast != NULL && broadcast[k] == 0;
        out[k] = once ? 0 : (ptrdiff_t)n;
        n *= once ? 1 : (size_t)p->shape[k];
    }
    return n;
}

static ua_status
staging_of(cuda_queue *q, size_t nbytes, void **out)
{
    if (q->staging_bytes < nbytes) {
        if (q->staging != NULL) {
            cu.cuMemFreeHost(q->staging);
            q->staging = NULL;
            q->staging_bytes = 0;
        }
        CU_CHECK(cu.cuMemHostAlloc(&q->staging, nbytes,
                                   CU_MEMHOSTALLOC_PORTABLE |
                                       CU_MEMHOSTALLOC_DEVICEMAP),
                 "allocating a pinned staging buffer");
        q->staging_bytes = nbytes;
    }
    *out = q->staging;
    return UA_OK;
}

/* Host-side strided copy of a plan, steps in bytes turned to elements. */
static ua_status
host_copy_plan(const ua_copy_plan *p, char *dst, const ptrdiff_t *dstep,
               ua_typenum dt, const char *src, const ptrdiff_t *sstep,
               ua_typenum stype, bool pack)
{
    ptrdiff_t shape[UA_MAXDIMS], ds[UA_MAXDIMS], ss[UA_MAXDIMS];
    ptrdiff_t dsz = (ptrdiff_t)ua_dtype_itemsize(dt);
    ptrdiff_t ssz = (ptrdiff_t)ua_dtype_itemsize(stype);
    for (int k = 0; k < p->nd; k++) {
        /* Packing a broadcast axis once is enough. */
        shape[k] = pack && sstep[k] == 0 ? 1 : p->shape[k];
        ds[k] = dstep[k] / dsz;
        ss[k] = sstep[k] / ssz;
    }
    ua_strided d = {dst, ds, dt}, s = {(char *)src, ss, stype};
    return ua_copy_strided_host(p->nd, shape, &d, &s);
}

/* Pageable source: pack it into the staging buffer, then a kernel. */
static ua_status
copy_from_pageable(cuda_queue *q, const ua_copy_plan *p, const ua_strided *dst,
                   const ua_strided *src)
{
    size_t ssz = ua_dtype_itemsize(src->type);
    ptrdiff_t packed[UA_MAXDIMS];
    size_t bytes = dense_steps(p, p->sstep, ssz, packed);
    void *stage;
    ua_status st = staging_of(q, bytes, &stage);
    if (st == UA_OK) {
        st = host_copy_plan(p, stage, packed, src->type, src->data, p->sstep,
                            src->type, true);
    }
    if (st == UA_OK) {
        ua_copy_plan staged = *p;
        memcpy(staged.sstep, packed, sizeof(ptrdiff_t) * (size_t)p->nd);
        st = launch(q, &staged, dst->type, dst->data, src->type, stage);
    }
    if (st == UA_OK) {
        CU_CHECK(cu.cuStreamSynchronize(q->stream), "cuStreamSynchronize");
    }
    return st;
}

/* Pageable destination: a kernel into the staging buffer, then unpack. */
static ua_status
copy_to_pageable(cuda_queue *q, const ua_copy_plan *p, const ua_strided *dst,
                 const ua_strided *src)
{
    ptrdiff_t packed[UA_MAXDIMS];
    size_t bytes = dense_steps(p, NULL, ua_dtype_itemsize(dst->type), packed);
    void *stage;
    ua_status st = staging_of(q, bytes, &stage);
    if (st == UA_OK) {
        ua_copy_plan staged = *p;
        memcpy(staged.dstep, packed, sizeof(ptrdiff_t) * (size_t)p->nd);
        st = launch(q, &staged, dst->type, stage, src->type, src->data);
    }
    if (st == UA_OK) {
        CU_CHECK(cu.cuStreamSynchronize(q->stream), "cuStreamSynchronize");
        st = host_copy_plan(p, dst->data, p->dstep, dst->type, stage, packed,
                            dst->type, false);
    }
    return st;
}

/* Overlapping device data: through a dense device temporary. */
static ua_status
copy_overlapping(cuda_queue *q, const ua_copy_plan *p, const ua_strided *dst,
                 const ua_strided *src)
{
    size_t ssz = ua_dtype_itemsize(src->type);
    ptrdiff_t packed[UA_MAXDIMS];
    size_t bytes = dense_steps(p, p->sstep, ssz, packed);
    CUdeviceptr tmp;
    CU_CHECK(cu.cuMemAllocAsync(&tmp, bytes, q->stream), "cuMemAllocAsync");
    ua_copy_plan first = *p, second = *p;
    memcpy(first.dstep, packed, sizeof(ptrdiff_t) * (size_t)p->nd);
    memcpy(second.sstep, packed, sizeof(ptrdiff_t) * (size_t)p->nd);
    void *t = (void *)(uintptr_t)tmp;
    ua_status st = launch(q, &first, src->type, t, src->type, src->data);
    if (st == UA_OK) {
        st = launch(q, &second, dst->type, dst->data, src->type, t);
    }
    cu.cuMemFreeAsync(tmp, q->stream);
    return st;
}

static ua_status
cuda_copy_strided(void *queue, int nd, const ptrdiff_t *shape,
                  const ua_strided *dst, const ua_strided *src)
{
    cuda_queue *q = queue;
    ua_copy_plan p;
    ua_status st = bind(q->c);
    if (st != UA_OK || !ua_copy_simplify(nd, shape, dst, src, &p)) {
        return st;
    }
    size_t dsz = ua_dtype_itemsize(dst->type), ssz = ua_dtype_itemsize(src->type);
    if (dst->type == src->type && plan_is_dense(&p, dsz, ssz) &&
        !ua_copy_overlaps(nd, shape, dst, src)) {
        size_t n = dsz;
        for (int k = 0; k < p.nd; k++) {
            n *= (size_t)p.shape[k];
        }
        return cuda_memcpy(q, dst->data, src->data, n);
    }
    bool dst_on_gpu, src_on_gpu;
    if ((st = reachable(q, dst->data, &dst_on_gpu)) != UA_OK ||
        (st = reachable(q, src->data, &src_on_gpu)) != UA_OK) {
        return st;
    }
    if (dst_on_gpu && src_on_gpu) {
        return ua_copy_overlaps(nd, shape, dst, src)
                   ? copy_overlapping(q, &p, dst, src)
                   : launch(q, &p, dst->type, dst->data, src->type, src->data);
    }
    if (!dst_on_gpu && !src_on_gpu) {
        CU_CHECK(cu.cuStreamSynchronize(q->stream), "cuStreamSynchronize");
        return ua_copy_strided_host(nd, shape, dst, src);
    }
    pthread_mutex_lock(&q->lock);
    st = dst_on_gpu ? copy_from_pageable(q, &p, dst, src)
                    : copy_to_pageable(q, &p, dst, src);
    pthread_mutex_unlock(&q->lock);
    return st;
}

/* -------------------------------------------------------------- events */

static ua_status
cuda_event_record(void *queue, void **event)
{
    cuda_queue *q = queue;
    ua_status st = bind(q->c);
    if (st != UA_OK) {
        return st;
    }
    CUevent e;
    CU_CHECK(cu.cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    CUresult r = cu.cuEventRecord(e, q->stream);
    if (r != CUDA_SUCCESS) {
        cu.cuEventDestroy(e);
        return failed(r, "cuEventRecord");
    }
    *event = e;
    return UA_OK;
}

static ua_status
cuda_event_wait(void *queue, void *event)
{
    cuda_queue *q = queue;
    ua_status st = bind(q->c);
    if (st != UA_OK) {
        return st;
    }
    CU_CHECK(cu.cuStreamWaitEvent(q->stream, event, 0), "cuStreamWaitEvent");
    return UA_OK;
}

static ua_status
cuda_event_synchronize(void *event)
{
    CU_CHECK(cu.cuEventSynchronize(event), "cuEventSynchronize");
    return UA_OK;
}

static void
cuda_event_destroy(void *event)
{
    cu.cuEventDestroy(event);
}

/* ------------------------------------------------ streams of others */

static uintptr_t
cuda_queue_stream(void *queue)
{
    return (uintptr_t)((cuda_queue *)queue)->stream;
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
foreign_stream(const cuda_queue *q, uintptr_t handle, CUstream *out)
{
    *out = (CUstream)handle;
    if (*out == CU_STREAM_LEGACY || *out == CU_STREAM_PER_THREAD) {
        return UA_OK;
    }
    CUcontext ctx = NULL;
    if (handle < 4096 || !readable(handle, 64) ||
        cu.cuStreamGetCtx(*out, &ctx) != CUDA_SUCCESS) {
        return ua_error_set(UA_ERR_VALUE,
                            "stream %#zx is not a CUDA stream", (size_t)handle);
    }
    if (ctx != q->c->ctx) {
        return ua_error_set(UA_ERR_VALUE,
                            "stream %#zx belongs to another CUDA context than "
                            "cuda:gpu:%d's primary one",
                            (size_t)handle, q->c->index);
    }
    return UA_OK;
}

/* An event recorded on `from` and waited for on `to`: later work on `to`
 * runs after what `from` has enqueued, without blocking the host. */
static ua_status
order_streams(CUstream from, CUstream to)
{
    CUevent e;
    CU_CHECK(cu.cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    CUresult r = cu.cuEventRecord(e, from);
    if (r == CUDA_SUCCESS) {
        r = cu.cuStreamWaitEvent(to, e, 0);
    }
    cu.cuEventDestroy(e);
    return r == CUDA_SUCCESS ? UA_OK : failed(r, "ordering two streams");
}

static ua_status
cuda_order_with_stream(void *queue, uintptr_t handle, int stream_waits)
{
    cuda_queue *q = queue;
    CUstream other;
    ua_status st = bind(q->c);
    if (st != UA_OK || (st = foreign_stream(q, handle, &other)) != UA_OK) {
        return st;
    }
    return stream_waits ? order_streams(q->stream, other)
                        : order_streams(other, q->stream);
}

const ua_backend_ops ua_cuda_backend_ops = {
    .version = UA_BACKEND_OPS_VERSION,
    .name = "cuda",
    .initialize = cuda_initialize,
    .device_count = cuda_device_count,
    .device_describe = cuda_device_describe,
    .device_info = cuda_device_info,
    .context_create = cuda_context_create,
    .queue_create = cuda_queue_create,
    .alloc = cuda_alloc,
    .free = cuda_free,
    .pointer_attributes = cuda_pointer_attributes,
    .memcpy = cuda_memcpy,
    .memset = cuda_memset,
    .queue_wait = cuda_queue_wait,
    .copy_strided = cuda_copy_strided,
    .event_record = cuda_event_record,
    .event_wait = cuda_event_wait,
    .event_synchronize = cuda_event_synchronize,
    .event_destroy = cuda_event_destroy,
    .queue_stream = cuda_queue_stream,
    .order_with_stream = cuda_order_with_stream,
};
