/* The SYCL backend's copy engine: memcpy and memset on the queue, and
 * strided copies with casting, which run the GPU layer's copy kernels
 * (gpu/copy_kernels.inc) as OpenCL C, each built on first use per context
 * and pair of element types.  Memory a kernel
 * cannot reach (pageable host memory) goes through a USM host staging
 * buffer of the queue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/sycl/sycl_backend.h"
#include "backends/sycl/sycl_language.h"
#include "gpu/copy_kernels.h"
#include "gpu/dialect_opencl_text.h"

/* An event the runtime gave back that no one waits for. */
ua_status
ua_sycl_enqueued(DPCTLSyclEventRef e, const char *what)
{
    if (e == NULL) {
        return ua_error_set(UA_ERR_RUNTIME, "the SYCL runtime refused %s",
                            what);
    }
    ua_dpctl.Event_Delete(e);
    return UA_OK;
}

static bool
ranges_overlap(const void *a, const void *b, size_t n)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x != y && x < y + n && y < x + n;
}

ua_status
ua_sycl_memcpy(void *queue, void *dst, const void *src, size_t n)
{
    sycl_queue *q = queue;
    if (dst == src || n == 0) {
        /* Nothing moves, and the OpenCL runtimes refuse a memcpy onto
         * itself as an overlap (x[1:] += y stores x[1:] onto x[1:]). */
        return UA_OK;
    }
    if (!ranges_overlap(dst, src, n)) {
        return ua_sycl_enqueued(ua_dpctl.Queue_Memcpy(q->q, dst, src, n),
                                "a copy");
    }
    /* SYCL's memcpy does not allow overlap: through a temporary. */
    void *t = ua_dpctl.malloc_device(n, q->q);
    if (t == NULL) {
        return ua_error_set(UA_ERR_ALLOC,
                            "the SYCL runtime could not allocate %zu bytes "
                            "for an overlapping copy",
                            n);
    }
    ua_status st =
        ua_sycl_enqueued(ua_dpctl.Queue_Memcpy(q->q, t, src, n), "a copy");
    if (st == UA_OK) {
        st =
            ua_sycl_enqueued(ua_dpctl.Queue_Memcpy(q->q, dst, t, n), "a copy");
    }
    ua_dpctl.Queue_Wait(q->q);
    ua_dpctl.free_with_context(t, q->c->ctx);
    return st;
}

/* The SYCL runtime's memcpy is one submission, as a kernel would be. */
ua_status
ua_sycl_memcpy_batch(void *queue, size_t n, const ua_copy_block *blocks)
{
    ua_status st = UA_OK;
    for (size_t i = 0; i < n && st == UA_OK; i++) {
        st = blocks[i].bytes ? ua_sycl_memcpy(queue, blocks[i].dst,
                                              blocks[i].src, blocks[i].bytes)
                             : UA_OK;
    }
    return st;
}

ua_status
ua_sycl_memset(void *queue, void *dst, unsigned char value, size_t n)
{
    return ua_sycl_enqueued(
        ua_dpctl.Queue_Memset(((sycl_queue *)queue)->q, dst, value, n),
        "a fill");
}

/* The OpenCL C type that holds elements of t: float16 moves as its bits,
 * complex types are the header's pairs (sycl_language.h). */
const char *
ua_sycl_type_name(ua_typenum t)
{
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

static const char *const header[] = {ua_sycl_language_header, NULL};
static const char *const header_fp64[] = {ua_sycl_language_fp64,
                                          ua_sycl_language_header, NULL};

/* How the copy kernels are written in OpenCL C: the elementwise kernels'
 * header (c64 and c128 as pairs, float16 and float-to-integer helpers,
 * UA_CVT_R the widest real type the device has). */
const ua_gpu_copy_language *
ua_sycl_copy_language(bool fp64)
{
    static const ua_gpu_copy_language languages[2] = {
#define LANGUAGE(h)                                                           \
    {.header = h,                                                             \
     .dialect = ua_gpu_opencl_dialect_text,                                   \
     .cvt = {.re = "re",                                                      \
             .im = "im",                                                      \
             .half_to_real = "ua_h2r",                                        \
             .real_to_half = "ua_r2h",                                        \
             .real = "UA_CVT_R",                                              \
             .real_to_i64 = "ua_f2l",                                         \
             .real_to_u64 = "ua_f2ul"},                                       \
     .storage = ua_sycl_type_name}
        LANGUAGE(header), LANGUAGE(header_fp64)
#undef LANGUAGE
    };
    return &languages[fp64];
}

static ua_status
build_kernel(sycl_context *c, ua_typenum dst, ua_typenum src, bool aligned,
             int program, copy_kernels *k)
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
    char *source = ua_gpu_copy_source(ua_sycl_copy_language(c->fp64), dst, src,
                                      aligned, program);
    if (source == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a kernel");
    }
    DPCTLSyclKernelBundleRef bundle =
        ua_dpctl.KernelBundle_CreateFromOCLSource(
            c->ctx, ua_sycl_devices[c->index], source, "");
    free(source);
    if (bundle == NULL) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime could not build the copy "
                            "kernels of %s to %s (set DPCTL_VERBOSITY=error "
                            "for its log)",
                            ua_dtype_typestr(src), ua_dtype_typestr(dst));
    }
    k->kernel[program] = ua_dpctl.KernelBundle_GetKernel(
        bundle, ua_gpu_copy_kernel_name(program));
    if (k->kernel[program] == NULL) {
        ua_dpctl.KernelBundle_Delete(bundle);
        return ua_error_set(UA_ERR_RUNTIME,
                            "the copy kernels' bundle lacks its kernel");
    }
    k->bundle[program] = bundle;
    return UA_OK;
}

/* The kernel of a pair of types, in the variant for aligned data or the
 * other, built on first use and kept. */
static ua_status
kernel_for(sycl_context *c, ua_typenum dst, ua_typenum src, bool aligned,
           int program, DPCTLSyclKernelRef *out)
{
    copy_kernels *k =
        &c->kernels[aligned][ua_dtype_index(dst)][ua_dtype_index(src)];
    pthread_mutex_lock(&c->lock);
    ua_status st = k->bundle[program] != NULL
                       ? UA_OK
                       : build_kernel(c, dst, src, aligned, program, k);
    *out = k->kernel[program];
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* Groups on a device without a count of multiprocessors to size by: the
 * kernels walk the rest a grid's size apart. */
#define MAX_GROUPS 4096

/* The plan goes to the kernel in USM shared memory, freed once the kernel
 * is done; SYCL's first range dimension is OpenCL's last. */
static ua_status
launch(void *queue, const ua_copy_plan *cp, ua_typenum dt, void *dst,
       ua_typenum stype, const void *src)
{
    sycl_queue *q = queue;
    ua_gpu_copy_plan *p = ua_dpctl.malloc_shared(sizeof *p, q->q);
    if (p == NULL) {
        return ua_error_set(UA_ERR_ALLOC,
                            "the SYCL runtime could not allocate a copy "
                            "plan");
    }
    ua_gpu_copy_launch l =
        ua_gpu_copy_prepare(cp, dt, dst, stype, src, MAX_GROUPS, p);
    DPCTLSyclKernelRef k;
    ua_status st = kernel_for(q->c, dt, stype, l.aligned, l.program, &k);
    if (st == UA_OK) {
        void *args[1] = {p};
        int types[1] = {DPCTL_VOID_PTR};
        size_t global[3], local[3];
        for (int d = 0; d < 3; d++) {
            local[2 - d] = l.threads[d];
            global[2 - d] = (size_t)l.groups[d] * l.threads[d];
        }
        st = ua_sycl_enqueued(ua_dpctl.Queue_SubmitNDRange(k, q->q, args,
                                                           types, 1, global,
                                                           local, 3, NULL, 0),
                              "the copy kernel");
        ua_dpctl.Queue_Wait(q->q);
    }
    ua_dpctl.free_with_context(p, q->c->ctx);
    return st;
}

/* Whether the queue's kernels can reach ptr: USM of its context. */
static bool
reachable(const sycl_queue *q, const void *ptr)
{
    return ua_dpctl.USM_GetPointerType(ptr, q->c->ctx) != DPCTL_USM_UNKNOWN;
}

static ua_status
staging_of(void *queue, size_t nbytes, void **out)
{
    sycl_queue *q = queue;
    if (q->staging_bytes < nbytes) {
        if (q->staging != NULL) {
            ua_dpctl.free_with_context(q->staging, q->c->ctx);
            q->staging = NULL;
            q->staging_bytes = 0;
        }
        q->staging = ua_dpctl.malloc_host(nbytes, q->q);
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
    *out = ua_dpctl.malloc_device(nbytes, ((sycl_queue *)queue)->q);
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
    ua_dpctl.Queue_Wait(q->q);
    ua_dpctl.free_with_context(ptr, q->c->ctx);
}

ua_status
ua_sycl_queue_wait(void *queue)
{
    ua_dpctl.Queue_Wait(((sycl_queue *)queue)->q);
    return UA_OK;
}

ua_status
ua_sycl_copy_strided(void *queue, int nd, const ptrdiff_t *shape,
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
        return ua_sycl_memcpy(q, dst->data, src->data,
                              ua_copy_plan_size(&p) * dsz);
    }
    ua_kernel_copier k = {.queue = q,
                          .launch = launch,
                          .staging = staging_of,
                          .staging_lock = &q->lock,
                          .temporary = temporary,
                          .release_temporary = release_temporary,
                          .synchronize = ua_sycl_queue_wait};
    return ua_copy_with_kernels(&k, nd, shape, &p, dst, src,
                                reachable(q, dst->data),
                                reachable(q, src->data));
}
