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
 * in-order queues of that context.  Strided copies run OpenCL C kernels
 * (sycl_kernels.h) built once per device and pair of element types; memory
 * a kernel cannot reach (pageable host memory) goes through a USM host
 * staging buffer of the queue. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/sycl/sycl_dpctl.h"
#include "backends/sycl/sycl_kernels.h"
#include "core/backend.h"

#define SYCL_MAX_DEVICES 64
#define SYCL_LIBRARY "libDPCTLSyclInterface.so"
/* Alignment USM allocations of the SYCL runtimes are given at least. */
#define SYCL_DEFAULT_ALIGNMENT 64

static struct {
#define DECLARE(field, symbol, ret, params) ret(*field) params;
    UA_DPCTL_FUNCTIONS(DECLARE)
#undef DECLARE
} dp;

static DPCTLDeviceVectorRef device_list;
static DPCTLSyclDeviceRef devices[SYCL_MAX_DEVICES];
/* Each device's default context, and the distinct ones among them (a
 * platform's devices share one). */
static DPCTLSyclContextRef contexts[SYCL_MAX_DEVICES];
static DPCTLSyclContextRef distinct[SYCL_MAX_DEVICES];
static int ndevices, ndistinct;

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
    if ((*(void **)&dp.field = dlsym(h, symbol)) == NULL) {                   \
        return ua_error_set(UA_ERR_UNAVAILABLE,                               \
                            "dpctl's C interface lacks %s: it is too old",    \
                            symbol);                                          \
    }
    UA_DPCTL_FUNCTIONS(LOOKUP)
#undef LOOKUP
    return UA_OK;
}

static void
remember_context(int i)
{
    DPCTLSyclContextRef c = dp.DeviceMgr_GetCachedContext(devices[i]);
    contexts[i] = c;
    for (int j = 0; c != NULL && j < ndistinct; j++) {
        if (dp.Context_AreEq(distinct[j], c)) {
            return;
        }
    }
    if (c != NULL) {
        distinct[ndistinct++] = c;
    }
}

static ua_status
sycl_initialize(void)
{
    ua_status st = load_library();
    if (st != UA_OK) {
        return st;
    }
    device_list = dp.DeviceMgr_GetDevices(DPCTL_ALL_BACKENDS | DPCTL_ALL);
    size_t n = device_list ? dp.DeviceVector_Size(device_list) : 0;
    for (size_t i = 0; i < n && ndevices < SYCL_MAX_DEVICES; i++) {
        devices[ndevices] = dp.DeviceVector_GetAt(device_list, i);
        remember_context(ndevices++);
    }
    if (ndevices == 0) {
        return ua_error_set(UA_ERR_UNAVAILABLE,
                            "the SYCL runtime enumerates no device (for "
                            "the OpenCL CPU device, OCL_ICD_FILENAMES must "
                            "name libintelocl.so)");
    }
    return UA_OK;
}

static int
sycl_device_count(void)
{
    return ndevices;
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

static ua_status
sycl_device_describe(int index, ua_device_type *type, char *name,
                     size_t name_len)
{
    DPCTLSyclDeviceRef d = devices[index];
    int t = dp.Device_GetDeviceType(d);
    *type = t == DPCTL_GPU ? UA_DEVICE_GPU
            : t == DPCTL_CPU ? UA_DEVICE_CPU
                             : UA_DEVICE_ACCELERATOR;
    const char *s = dp.Device_GetName(d);
    snprintf(name, name_len, "%s (%s)", s ? s : "SYCL device",
             runtime_name(dp.Device_GetBackend(d)));
    if (s != NULL) {
        dp.CString_Delete(s);
    }
    return UA_OK;
}

/* Our index of a device dpctl gives, or -1. */
static int
index_of_device(DPCTLSyclDeviceRef d)
{
    for (int i = 0; d != NULL && i < ndevices; i++) {
        if (dp.Device_AreEq(devices[i], d)) {
            return i;
        }
    }
    return -1;
}

/* ----------------------------------------------- contexts and queues */

typedef struct {
    DPCTLSyclKernelBundleRef bundle;
    DPCTLSyclKernelRef nd, tiled, plan;
} copy_kernels;

typedef struct {
    DPCTLSyclContextRef ctx;
    int index;
    bool fp64;
    pthread_mutex_t lock; /* guards kernels */
    copy_kernels kernels[UA_NTYPES][UA_NTYPES];
} sycl_context;

typedef struct {
    sycl_context *c;
    DPCTLSyclQueueRef q;
    pthread_mutex_t lock; /* guards the staging buffer */
    void *staging;
    size_t staging_bytes;
} sycl_queue;

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
    c->fp64 = dp.Device_HasAspect(devices[index], DPCTL_ASPECT_FP64);
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
    int order = props == NULL || props->in_order ? DPCTL_IN_ORDER : 0;
    q->q = dp.Queue_Create(c->ctx, devices[index], NULL, order);
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
        dp.free_with_context(q->staging, q->c->ctx);
    }
    dp.Queue_Delete(q->q);
    pthread_mutex_destroy(&q->lock);
    free(q);
}

/* ------------------------------------------------------------- memory */

/* dpctl allocates with a queue; a context's memory needs one of its own
 * for that, made once per device. */
static DPCTLSyclQueueRef
allocation_queue(sycl_context *c, int index)
{
    static DPCTLSyclQueueRef queues[SYCL_MAX_DEVICES];
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    if (queues[index] == NULL) {
        queues[index] =
            dp.Queue_Create(c->ctx, devices[index], NULL, DPCTL_IN_ORDER);
    }
    DPCTLSyclQueueRef q = queues[index];
    pthread_mutex_unlock(&lock);
    return q;
}

static ua_status
sycl_alloc(void *context, int index, ua_usm_kind kind, size_t nbytes,
           size_t alignment, void **ptr)
{
    DPCTLSyclQueueRef q = allocation_queue(context, index);
    if (q == NULL) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime could not create a queue for "
                            "device %d",
                            index);
    }
    if (alignment < SYCL_DEFAULT_ALIGNMENT) {
        alignment = SYCL_DEFAULT_ALIGNMENT;
    }
    switch (kind) {
    case UA_USM_SHARED:
        *ptr = dp.aligned_alloc_shared(alignment, nbytes, q);
        break;
    case UA_USM_HOST:
        *ptr = dp.aligned_alloc_host(alignment, nbytes, q);
        break;
    default:
        *ptr = dp.aligned_alloc_device(alignment, nbytes, q);
        break;
    }
    if (*ptr == NULL) {
        return ua_error_set(UA_ERR_ALLOC,
                            "the SYCL runtime could not allocate %zu bytes "
                            "of USM %s memory aligned to %zu",
                            nbytes, ua_usm_kind_name(kind), alignment);
    }
    return UA_OK;
}

static void
sycl_free(void *context, ua_usm_kind kind, void *ptr)
{
    (void)kind;
    dp.free_with_context(ptr, ((sycl_context *)context)->ctx);
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
        *kind = kind_of(dp.USM_GetPointerType(ptr, distinct[j]));
        if (*kind != UA_USM_UNKNOWN) {
            DPCTLSyclDeviceRef d = dp.USM_GetPointerDevice(ptr, distinct[j]);
            *index = index_of_device(d);
            if (d != NULL) {
                dp.Device_Delete(d);
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

/* ------------------------------------------------------------- copies */

/* An event the runtime gave back that no one waits for. */
static ua_status
enqueued(DPCTLSyclEventRef e, const char *what)
{
    if (e == NULL) {
        return ua_error_set(UA_ERR_RUNTIME, "the SYCL runtime refused %s",
                            what);
    }
    dp.Event_Delete(e);
    return UA_OK;
}

static bool
ranges_overlap(const void *a, const void *b, size_t n)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x != y && x < y + n && y < x + n;
}

static ua_status
sycl_memcpy(void *queue, void *dst, const void *src, size_t n)
{
    sycl_queue *q = queue;
    if (!ranges_overlap(dst, src, n)) {
        return enqueued(dp.Queue_Memcpy(q->q, dst, src, n), "a copy");
    }
    /* SYCL's memcpy does not allow overlap: through a temporary. */
    void *t = dp.malloc_device(n, q->q);
    if (t == NULL) {
        return ua_error_set(UA_ERR_ALLOC,
                            "the SYCL runtime could not allocate %zu bytes "
                            "for an overlapping copy",
                            n);
    }
    ua_status st = enqueued(dp.Queue_Memcpy(q->q, t, src, n), "a copy");
    if (st == UA_OK) {
        st = enqueued(dp.Queue_Memcpy(q->q, dst, t, n), "a copy");
    }
    dp.Queue_Wait(q->q);
    dp.free_with_context(t, q->c->ctx);
    return st;
}

static ua_status
sycl_memset(void *queue, void *dst, unsigned char value, size_t n)
{
    return enqueued(dp.Queue_Memset(((sycl_queue *)queue)->q, dst, value, n),
                    "a fill");
}

/* The OpenCL C type that holds elements of t. */
static const char *
element_type(ua_typenum t)
{
    /* float16 moves as its bits; complex types are the kernels' own pairs
     * (sycl_kernels.h). */
    switch (t) {
    case UA_BOOL:
    case UA_UINT8:
        return "uchar";
    case UA_INT8:
        return "char";
    case UA_INT16:
        return "short";
    case UA_UINT16:
    case UA_FLOAT16:
        return "ushort";
    case UA_INT32:
        return "int";
    case UA_UINT32:
        return "uint";
    case UA_INT64:
        return "long";
    case UA_UINT64:
        return "ulong";
    case UA_FLOAT32:
        return "float";
    case UA_FLOAT64:
        return "double";
    case UA_COMPLEX64:
        return "c64";
    case UA_COMPLEX128:
        return "c128";
    }
    return "void";
}

/* How the kernels' OpenCL C spells what convert(S v) uses (vector
 * complex types, float16 helpers, R the widest real type the device has,
 * and the prelude's float-to-integer functions). */
static const ua_kernel_dialect dialect = {
    .re = "x", .im = "y",
    .half_to_real = "h2f", .real_to_half = "f2h", .real = "R",
    .real_to_i64 = "f2l", .real_to_u64 = "f2ul"};

/* The OpenCL C source of the copy kernels from src to dst (malloc'd), or
 * NULL when out of memory. */
static char *
kernel_source(ua_typenum dst, ua_typenum src, bool fp64)
{
    char convert[200], head[400];
    ua_kernel_conversion(&dialect, dst, src, convert, sizeof(convert));
    snprintf(head, sizeof(head),
             "%stypedef %s R;\n", fp64 ? "#define UA_FP64\n" : "",
             fp64 ? "double" : "float");
    size_t n = strlen(head) + sizeof(ua_sycl_kernel_prelude) + 200 +
               sizeof(convert) + sizeof(ua_sycl_kernel_body);
    char *source = malloc(n);
    if (source != NULL) {
        snprintf(source, n,
                 "%s%stypedef %s S;\ntypedef %s D;\nD convert(S v) { %s }\n%s",
                 head, ua_sycl_kernel_prelude, element_type(src),
                 element_type(dst), convert, ua_sycl_kernel_body);
    }
    return source;
}

static ua_status
build_kernels(sycl_context *c, ua_typenum dst, ua_typenum src,
              copy_kernels *k)
{
    bool wide = dst == UA_FLOAT64 || dst == UA_COMPLEX128 ||
                src == UA_FLOAT64 || src == UA_COMPLEX128;
    if (wide && !c->fp64) {
        return ua_error_set(UA_ERR_TYPE,
                            "SYCL device %d has no 64-bit floating point: "
                            "copies of %s to %s cannot run on it",
                            c->index, ua_dtype_typestr(src),
                            ua_dtype_typestr(dst));
    }
    char *source = kernel_source(dst, src, c->fp64);
    if (source == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a kernel");
    }
    k->bundle = dp.KernelBundle_CreateFromOCLSource(
        c->ctx, devices[c->index], source, "");
    free(source);
    if (k->bundle == NULL) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime could not build the copy "
                            "kernels of %s to %s (set DPCTL_VERBOSITY=error "
                            "for its log)",
                            ua_dtype_typestr(src), ua_dtype_typestr(dst));
    }
    k->nd = dp.KernelBundle_GetKernel(k->bundle, "ua_copy_nd");
    k->tiled = dp.KernelBundle_GetKernel(k->bundle, "ua_copy_tiled");
    k->plan = dp.KernelBundle_GetKernel(k->bundle, "ua_copy_plan");
    if (k->nd == NULL || k->tiled == NULL || k->plan == NULL) {
        dp.KernelBundle_Delete(k->bundle);
        k->bundle = NULL;
        return ua_error_set(UA_ERR_RUNTIME,
                            "the copy kernels' bundle lacks its kernels");
    }
    return UA_OK;
}

/* The kernels of a pair of types, built on first use and kept. */
static ua_status
kernels_for(sycl_context *c, ua_typenum dst, ua_typenum src,
            const copy_kernels **out)
{
    copy_kernels *k = &c->kernels[ua_dtype_index(dst)][ua_dtype_index(src)];
    pthread_mutex_lock(&c->lock);
    ua_status st = k->bundle != NULL ? UA_OK : build_kernels(c, dst, src, k);
    pthread_mutex_unlock(&c->lock);
    *out = k;
    return st;
}

/* A plan of up to UA_SYCL_ARG_DIMS axes as kernel arguments, padded in
 * front with axes of length 1 to at least two. */
typedef struct {
    int nd;
    long long shape[UA_SYCL_ARG_DIMS], dstep[UA_SYCL_ARG_DIMS],
        sstep[UA_SYCL_ARG_DIMS];
} short_plan;

static void
shorten(const ua_copy_plan *p, short_plan *s)
{
    int pad = p->nd < 2 ? 2 - p->nd : 0;
    s->nd = p->nd + pad;
    for (int i = 0; i < UA_SYCL_ARG_DIMS; i++) {
        int k = i - pad;
        bool used = k >= 0 && k < p->nd;
        s->shape[i] = used ? p->shape[k] : 1;
        s->dstep[i] = used ? p->dstep[k] : 0;
        s->sstep[i] = used ? p->sstep[k] : 0;
    }
}

#define FIXED_ARGS 4
#define PLAN_ARGS (1 + 3 * UA_SYCL_ARG_DIMS)

/* Fills args and types from `lead` leading arguments on with the plan's
 * (a pointer is passed as itself, a scalar by its address); returns how
 * many there are. */
static size_t
plan_args(short_plan *s, size_t lead, void **args, int *types)
{
    args[lead] = &s->nd;
    types[lead] = DPCTL_INT32_T;
    for (int i = 0; i < UA_SYCL_ARG_DIMS; i++) {
        size_t at = lead + 1 + (size_t)i;
        args[at] = &s->shape[i];
        args[at + UA_SYCL_ARG_DIMS] = &s->dstep[i];
        args[at + 2 * UA_SYCL_ARG_DIMS] = &s->sstep[i];
        types[at] = types[at + UA_SYCL_ARG_DIMS] =
            types[at + 2 * UA_SYCL_ARG_DIMS] = DPCTL_INT64_T;
    }
    return lead + PLAN_ARGS;
}

static size_t
product_outside(const short_plan *s, int skip1, int skip2)
{
    size_t n = 1;
    for (int k = 0; k < s->nd; k++) {
        n *= k == skip1 || k == skip2 ? 1 : (size_t)s->shape[k];
    }
    return n;
}

static size_t
round_up(long long n, size_t to)
{
    return ((size_t)n + to - 1) / to * to;
}

/* SYCL's last range dimension is OpenCL's first (get_global_id(0)). */
static ua_status
launch_elementwise(sycl_queue *q, const copy_kernels *k, short_plan *s,
                   void *dst, const void *src)
{
    void *args[FIXED_ARGS + PLAN_ARGS] = {dst, (void *)src};
    int types[FIXED_ARGS + PLAN_ARGS] = {DPCTL_VOID_PTR, DPCTL_VOID_PTR};
    size_t nargs = plan_args(s, 2, args, types);
    int last = s->nd - 1;
    size_t range[3] = {product_outside(s, last, last - 1),
                       (size_t)s->shape[last - 1], (size_t)s->shape[last]};
    return enqueued(dp.Queue_SubmitRange(k->nd, q->q, args, types, nargs,
                                         range, 3, NULL, 0),
                    "the copy kernel");
}

static ua_status
launch_tiled(sycl_queue *q, const copy_kernels *k, short_plan *s, int b,
             void *dst, const void *src)
{
    int a = s->nd - 1;
    void *args[FIXED_ARGS + PLAN_ARGS] = {dst, (void *)src, &a, &b};
    int types[FIXED_ARGS + PLAN_ARGS] = {DPCTL_VOID_PTR, DPCTL_VOID_PTR,
                                         DPCTL_INT32_T, DPCTL_INT32_T};
    size_t nargs = plan_args(s, FIXED_ARGS, args, types);
    size_t global[3] = {product_outside(s, a, b),
                        round_up(s->shape[b], UA_SYCL_TILE),
                        round_up(s->shape[a], UA_SYCL_TILE)};
    size_t local[3] = {1, UA_SYCL_TILE, UA_SYCL_TILE};
    return enqueued(dp.Queue_SubmitNDRange(k->tiled, q->q, args, types, nargs,
                                           global, local, 3, NULL, 0),
                    "the tiled copy kernel");
}

static ua_status
launch_short(sycl_queue *q, const copy_kernels *k, const ua_copy_plan *p,
             size_t ssize, void *dst, const void *src)
{
    short_plan s;
    shorten(p, &s);
    int b = ua_copy_plan_tile_axis(p, ssize, UA_SYCL_TILE / 2);
    /* shorten() pads in front: axes keep their order, shifted. */
    return b >= 0 ? launch_tiled(q, k, &s, b + s.nd - p->nd, dst, src)
                  : launch_elementwise(q, k, &s, dst, src);
}

/* Plans of many axes go to the kernel in a USM buffer, freed once the
 * kernel is done. */
static ua_status
launch_long(sycl_queue *q, const copy_kernels *k, const ua_copy_plan *p,
            void *dst, const void *src)
{
    size_t bytes = 3 * sizeof(long long) * (size_t)p->nd;
    long long *plan = dp.malloc_shared(bytes, q->q);
    if (plan == NULL) {
        return ua_error_set(UA_ERR_ALLOC,
                            "the SYCL runtime could not allocate a copy "
                            "plan");
    }
    for (int i = 0; i < p->nd; i++) {
        plan[i] = p->shape[i];
        plan[p->nd + i] = p->dstep[i];
        plan[2 * p->nd + i] = p->sstep[i];
    }
    int nd = p->nd;
    void *args[4] = {dst, (void *)src, &nd, plan};
    int types[4] = {DPCTL_VOID_PTR, DPCTL_VOID_PTR, DPCTL_INT32_T,
                    DPCTL_VOID_PTR};
    size_t range[3] = {ua_copy_plan_size(p), 1, 1};
    ua_status st = enqueued(dp.Queue_SubmitRange(k->plan, q->q, args, types,
                                                 4, range, 1, NULL, 0),
                            "the copy kernel");
    dp.Queue_Wait(q->q);
    dp.free_with_context(plan, q->c->ctx);
    return st;
}

static ua_status
launch(void *queue, const ua_copy_plan *p, ua_typenum dt, void *dst,
       ua_typenum stype, const void *src)
{
    sycl_queue *q = queue;
    const copy_kernels *k;
    ua_status st = kernels_for(q->c, dt, stype, &k);
    if (st != UA_OK) {
        return st;
    }
    return p->nd <= UA_SYCL_ARG_DIMS
               ? launch_short(q, k, p, ua_dtype_itemsize(stype), dst, src)
               : launch_long(q, k, p, dst, src);
}

/* Whether the queue's kernels can reach ptr: USM of its context. */
static bool
reachable(const sycl_queue *q, const void *ptr)
{
    return dp.USM_GetPointerType(ptr, q->c->ctx) != DPCTL_USM_UNKNOWN;
}

static ua_status
staging_of(void *queue, size_t nbytes, void **out)
{
    sycl_queue *q = queue;
    if (q->staging_bytes < nbytes) {
        if (q->staging != NULL) {
            dp.free_with_context(q->staging, q->c->ctx);
            q->staging = NULL;
            q->staging_bytes = 0;
        }
        q->staging = dp.malloc_host(nbytes, q->q);
        if (q->staging == NULL) {
            return ua_error_set(UA_ERR_ALLOC,
                                "the SYCL runtime could not allocate a "
                                "%zu-byte staging buffer",
                                nbytes);
        }
        q->staging_bytes = nbytes;
    }
    *out = q->staging;
    return UA_OK;
}

static ua_status
temporary(void *queue, size_t nbytes, void **out)
{
    *out = dp.malloc_device(nbytes, ((sycl_queue *)queue)->q);
    return *out != NULL ? UA_OK
                        : ua_error_set(UA_ERR_ALLOC,
                                       "the SYCL runtime could not allocate "
                                       "%zu bytes for an overlapping copy",
                                       nbytes);
}

/* SYCL has no queue-ordered free: the queue's work must be done first. */
static void
release_temporary(void *queue, void *ptr)
{
    sycl_queue *q = queue;
    dp.Queue_Wait(q->q);
    dp.free_with_context(ptr, q->c->ctx);
}

static ua_status
sycl_queue_wait(void *queue)
{
    dp.Queue_Wait(((sycl_queue *)queue)->q);
    return UA_OK;
}

static ua_status
sycl_copy_strided(void *queue, int nd, const ptrdiff_t *shape,
                  const ua_strided *dst, const ua_strided *src)
{
    sycl_queue *q = queue;
    ua_copy_plan p;
    if (!ua_copy_simplify(nd, shape, dst, src, &p)) {
        return UA_OK;
    }
    size_t dsz = ua_dtype_itemsize(dst->type);
    if (dst->type == src->type &&
        ua_copy_plan_is_dense(&p, dsz, ua_dtype_itemsize(src->type)) &&
        !ua_copy_overlaps(nd, shape, dst, src)) {
        return sycl_memcpy(q, dst->data, src->data, ua_copy_plan_size(&p) * dsz);
    }
    ua_kernel_copier k = {.queue = q,
                          .launch = launch,
                          .staging = staging_of,
                          .staging_lock = &q->lock,
                          .temporary = temporary,
                          .release_temporary = release_temporary,
                          .synchronize = sycl_queue_wait};
    return ua_copy_with_kernels(&k, nd, shape, &p, dst, src,
                                reachable(q, dst->data),
                                reachable(q, src->data));
}

/* -------------------------------------------------------------- events */

static ua_status
sycl_event_record(void *queue, void **event)
{
    DPCTLSyclEventRef e = dp.Queue_SubmitBarrier(((sycl_queue *)queue)->q);
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
    return enqueued(
        dp.Queue_SubmitBarrierForEvents(((sycl_queue *)queue)->q, &e, 1),
        "a barrier");
}

static ua_status
sycl_event_synchronize(void *event)
{
    dp.Event_Wait(event);
    return UA_OK;
}

static void
sycl_event_destroy(void *event)
{
    dp.Event_Delete(event);
}

/* ------------------------------------------- dpctl's queues and contexts */

#define QUEUE_CAPSULE "SyclQueueRef"
#define CONTEXT_CAPSULE "SyclContextRef"

static ua_status
sycl_export_handle(void *object, int is_queue, void **handle)
{
    *handle = is_queue ? (void *)dp.Queue_Copy(((sycl_queue *)object)->q)
                       : (void *)dp.Context_Copy(((sycl_context *)object)->ctx);
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
        dp.Queue_Delete(handle);
    }
    else {
        dp.Context_Delete(handle);
    }
}

static ua_status
not_default_context(int index)
{
    const char *name = index >= 0 ? dp.Device_GetName(devices[index]) : NULL;
    ua_status st = ua_error_set(
        UA_ERR_VALUE,
        "the SYCL %s belongs to a context that is not the default context "
        "of its device%s%s; usmarray works in the default contexts, which "
        "dpctl and dpnp use unless told otherwise",
        index >= 0 ? "queue" : "context", name ? " " : "", name ? name : "");
    if (name != NULL) {
        dp.CString_Delete(name);
    }
    return st;
}

static ua_status
adopt_queue(DPCTLSyclQueueRef q, int *index)
{
    DPCTLSyclDeviceRef d = dp.Queue_GetDevice(q);
    DPCTLSyclContextRef c = dp.Queue_GetContext(q);
    *index = index_of_device(d);
    bool ours = *index >= 0 && c != NULL && contexts[*index] != NULL &&
                dp.Context_AreEq(contexts[*index], c);
    if (d != NULL) {
        dp.Device_Delete(d);
    }
    if (c != NULL) {
        dp.Context_Delete(c);
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
            dp.Context_AreEq(contexts[*index], handle)) {
            return UA_OK;
        }
    }
    return not_default_context(-1);
}

static ua_status
sycl_order_after_handle(void *queue, const char *name, void *foreign)
{
    sycl_queue *q = queue;
    if (strcmp(name, QUEUE_CAPSULE) != 0 || dp.Queue_AreEq(q->q, foreign)) {
        return UA_OK;
    }
    DPCTLSyclEventRef e = dp.Queue_SubmitBarrier(foreign);
    if (e == NULL) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime refused a barrier");
    }
    ua_status st = sycl_event_wait(q, e);
    dp.Event_Delete(e);
    return st;
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
    DPCTLSyclDeviceSelectorRef s = dp.FilterSelector_Create(filter);
    DPCTLSyclDeviceRef d = s ? dp.Device_CreateFromSelector(s) : NULL;
    *index = index_of_device(d);
    if (d != NULL) {
        dp.Device_Delete(d);
    }
    if (s != NULL) {
        dp.DeviceSelector_Delete(s);
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

const ua_backend_ops ua_sycl_backend_ops = {
    .version = UA_BACKEND_OPS_VERSION,
    .name = "sycl",
    /* Copies stage pageable memory through USM host memory. */
    .caps = UA_CAP_REACHES_CPU_MEMORY,
    /* dpctl orders by queues, not integer streams: DLPack's stream must be
     * None. */
    .stream_rule = UA_STREAMS_NONE,
    .dlpack_device_names = "kDLOneAPI",
    .initialize = sycl_initialize,
    .device_count = sycl_device_count,
    .device_describe = sycl_device_describe,
    .context_create = sycl_context_create,
    .queue_create = sycl_queue_create,
    .queue_destroy = sycl_queue_destroy,
    .alloc = sycl_alloc,
    .free = sycl_free,
    .pointer_attributes = sycl_pointer_attributes,
    .memcpy = sycl_memcpy,
    .memset = sycl_memset,
    .queue_wait = sycl_queue_wait,
    .copy_strided = sycl_copy_strided,
    .event_record = sycl_event_record,
    .event_wait = sycl_event_wait,
    .event_synchronize = sycl_event_synchronize,
    .event_destroy = sycl_event_destroy,
    .dlpack_device = sycl_dlpack_device,
    .dlpack_owns = sycl_dlpack_owns,
    .queue_capsule_name = QUEUE_CAPSULE,
    .context_capsule_name = CONTEXT_CAPSULE,
    .export_handle = sycl_export_handle,
    .release_handle = sycl_release_handle,
    .adopt_handle = sycl_adopt_handle,
    .order_after_handle = sycl_order_after_handle,
    .select_filter = sycl_select_filter,
    .queue_native_handle = sycl_queue_native_handle,
    /* aligned_alloc_* take any power of two. */
    .max_alignment = SIZE_MAX,
};
