/* The SYCL backend's launcher (gpu/launcher.h), through which the GPU
 * layer runs reductions, scans, sorts, searches, groups and matrix
 * products: its kernels as OpenCL C, which the runtime builds through
 * dpctl once per context, pair of types and family of kernels, launched in
 * groups of UA_GPU_GROUP work-items.
 *
 * On a CPU device, whose USM is this process's memory, the core runs
 * these on the host backend's kernels instead (core/compute/route.c):
 * the launcher serves the other devices. */
#include <stdlib.h>
#include <string.h>

#include "backends/sycl/sycl_backend.h"
#include "backends/sycl/sycl_language.h"
#include "gpu/dialect_opencl_text.h"
#include "gpu/launcher.h"

static const char *const header[] = {ua_sycl_language_header, NULL};
static const char *const header_fp64[] = {ua_sycl_language_fp64,
                                          ua_sycl_language_header, NULL};

/* Builds program p; called under c->lock. */
static ua_status
build(sycl_context *c, const ua_gpu_program *p, DPCTLSyclKernelRef **out)
{
    const ua_gpu_types *t = &p->t;
    if (!c->fp64 && ua_gpu_types_need_fp64(t)) {
        return ua_error_set(UA_ERR_TYPE,
                            "SYCL device %d has no 64-bit floating point, "
                            "which %s needs",
                            c->index, ua_dtype_name(t->a));
    }
    ua_gpu_language lang = {c->fp64 ? header_fp64 : header,
                            ua_gpu_opencl_dialect_text, ua_sycl_type_name};
    char *source = ua_gpu_program_source(&lang, p);
    DPCTLSyclKernelRef *k = calloc(UA_GPU_NKERNELS, sizeof *k);
    if (source == NULL || k == NULL) {
        free(source);
        free(k);
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a kernel");
    }
    DPCTLSyclKernelBundleRef bundle =
        ua_dpctl.KernelBundle_CreateFromOCLSource(
            c->ctx, ua_sycl_devices[c->index], source, "");
    free(source);
    if (bundle == NULL) {
        free(k);
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime could not build the reduction "
                            "kernels of %s (set DPCTL_VERBOSITY=error for "
                            "its log)",
                            ua_dtype_name(t->x));
    }
    for (int i = 0; i < UA_GPU_NKERNELS; i++) {
        if (ua_gpu_family_of((ua_gpu_kernel)i) != p->family) {
            continue;
        }
        k[i] = ua_dpctl.KernelBundle_GetKernel(bundle, ua_gpu_kernel_names[i]);
        if (k[i] == NULL) {
            free(k);
            ua_dpctl.KernelBundle_Delete(bundle);
            return ua_error_set(UA_ERR_RUNTIME,
                                "the reduction program lacks %s",
                                ua_gpu_kernel_names[i]);
        }
    }
    ua_status st =
        ua_ew_table_add(&c->reduce, ua_gpu_program_key(p), k, bundle);
    if (st != UA_OK) {
        free(k);
        ua_dpctl.KernelBundle_Delete(bundle);
        return st;
    }
    *out = k;
    return UA_OK;
}

static ua_status
launch(void *queue, const ua_gpu_types *t, ua_gpu_kernel which, size_t groups,
       const ua_gpu_arg *args, int nargs)
{
    sycl_queue *q = queue;
    sycl_context *c = q->c;
    ua_gpu_program program = ua_gpu_program_for(t, which, args, nargs);
    pthread_mutex_lock(&c->lock);
    const ua_ew_slot *e =
        ua_ew_table_find(&c->reduce, ua_gpu_program_key(&program));
    DPCTLSyclKernelRef *k = e != NULL ? e->kernel : NULL;
    ua_status st = k != NULL ? UA_OK : build(c, &program, &k);
    pthread_mutex_unlock(&c->lock);
    if (st != UA_OK) {
        return st;
    }
    void *values[24];
    int types[24];
    for (int i = 0; i < nargs; i++) {
        switch (args[i].kind) {
        case UA_GPU_PTR:
            values[i] = (void *)args[i].p;
            types[i] = DPCTL_VOID_PTR;
            break;
        case UA_GPU_I64:
            values[i] = (void *)&args[i].i64;
            types[i] = DPCTL_INT64_T;
            break;
        default:
            values[i] = (void *)&args[i].i32;
            types[i] = DPCTL_INT32_T;
        }
    }
    size_t global[3] = {groups * UA_GPU_GROUP, 1, 1};
    size_t local[3] = {UA_GPU_GROUP, 1, 1};
    return ua_sycl_enqueued(
        ua_dpctl.Queue_SubmitNDRange(k[which], q->q, values, types,
                                     (size_t)nargs, global, local, 1, NULL, 0),
        ua_gpu_kernel_names[which]);
}

static ua_status
temporary(void *queue, size_t nbytes, void **ptr)
{
    *ptr = ua_dpctl.malloc_device(nbytes, ((sycl_queue *)queue)->q);
    if (*ptr == NULL) {
        return ua_error_set(UA_ERR_ALLOC,
                            "the SYCL runtime could not allocate %zu bytes "
                            "for a reduction",
                            nbytes);
    }
    return UA_OK;
}

/* Freed once the queue's work is done: dpctl frees at once. */
static void
release_temporary(void *queue, void *ptr)
{
    sycl_queue *q = queue;
    ua_dpctl.Queue_Wait(q->q);
    ua_dpctl.free_with_context(ptr, q->c->ctx);
}

/* A copy that waits, so that the host's bytes may go on return. */
static ua_status
copy_waiting(void *queue, void *dst, const void *src, size_t n)
{
    sycl_queue *q = queue;
    ua_status st = ua_sycl_memcpy(q, dst, src, n);
    ua_dpctl.Queue_Wait(q->q);
    return st;
}

const ua_gpu_launcher_ops ua_sycl_launcher = {
    .launch = launch,
    .temporary = temporary,
    .release_temporary = release_temporary,
    .upload = copy_waiting,
    .download = copy_waiting,
    .copy_strided = ua_sycl_copy_strided};
