/* The SYCL backend's compute kernels (core/compute/kernels.h): OpenCL C
 * that the runtime builds once per context, through dpctl's kernel-bundle
 * functions: the GPU layer's index, mask and fill kernels.  Plans go to
 * the kernels in a USM shared buffer, with a flag the index kernel sets
 * for an index out of bounds.  Elements move as bytes of their size;
 * floating values go as their bits in integer arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/sycl/sycl_backend.h"
#include "backends/sycl/sycl_language.h"
#include "core/compute/compute.h"
#include "gpu/dialect_opencl_text.h"
#include "gpu/elementwise_source.h"
#include "gpu/fill_kernels_text.h"
#include "gpu/index_kernels.h"
#include "gpu/index_kernels_text.h"
#include "gpu/kernel_text.h"
#include "core/compute/kernels.h"

/* The kernels of the GPU layer's texts (gpu/index_kernels.inc,
 * gpu/fill_kernels.inc) this backend launches: the mask's counts and their
 * scan, and for any rank, in units of bytes, the index kernel of each mode
 * and the compress kernel. */
static const char wanted[] = "#define WANT_MASK_COUNTS 1\n";
static const char instances[] =
    "INDEX(1, 0, 0)\nINDEX(1, 0, 1)\nINDEX(1, 0, 2)\nCOMPRESS(1)\n";

static const char *const kernel_names[] = {
    "ua_index_1_0_0", "ua_index_1_0_1", "ua_index_1_0_2", "ua_count",
    "ua_scan",        "ua_compress_1",  "ua_arange_int",  "ua_arange_f32",
    "ua_arange_half", "ua_band",        "ua_arange_f64",  "ua_linspace"};
enum {
    K_INDEX, /* + mode */
    K_COUNT = K_INDEX + 3,
    K_SCAN,
    K_COMPRESS,
    K_ARANGE_INT,
    K_ARANGE_F32,
    K_ARANGE_HALF,
    K_BAND,
    K_ARANGE_F64, /* these two only with fp64 */
    K_LINSPACE,
    K_N
};
_Static_assert(K_N == UA_SYCL_COMPUTE_KERNELS &&
                   sizeof kernel_names / sizeof *kernel_names == K_N,
               "sycl_backend.h counts the compute kernels");

char *
ua_sycl_compute_source(bool fp64)
{
    static const char *const header[] = {wanted, ua_sycl_language_header,
                                         NULL};
    static const char *const header_fp64[] = {wanted, ua_sycl_language_fp64,
                                              ua_sycl_language_header, NULL};
    static const char *const lines[] = {instances, NULL};
    const char *const *texts[] = {
        fp64 ? header_fp64 : header, ua_gpu_opencl_dialect_text,
        ua_fill_kernel_text, ua_index_kernel_text, lines};
    return ua_gpu_texts_join(texts, 5);
}

static ua_status
build(sycl_context *c, ua_sycl_compute *k)
{
    char *source = ua_sycl_compute_source(c->fp64);
    if (source == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a kernel");
    }
    k->bundle = ua_dpctl.KernelBundle_CreateFromOCLSource(
        c->ctx, ua_sycl_devices[c->index], source, "");
    free(source);
    if (k->bundle == NULL) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime could not build the compute "
                            "kernels (set DPCTL_VERBOSITY=error for its log)");
    }
    for (int i = 0; i < (c->fp64 ? K_N : K_ARANGE_F64); i++) {
        k->kernel[i] =
            ua_dpctl.KernelBundle_GetKernel(k->bundle, kernel_names[i]);
        if (k->kernel[i] == NULL) {
            return ua_error_set(UA_ERR_RUNTIME,
                                "the compute kernels' bundle lacks %s",
                                kernel_names[i]);
        }
    }
    return UA_OK;
}

/* The context's compute kernels, built on first use and kept. */
static ua_status
kernels(sycl_queue *q, DPCTLSyclKernelRef *out, int which)
{
    sycl_context *c = q->c;
    pthread_mutex_lock(&c->lock);
    ua_status st = c->compute.bundle != NULL ? UA_OK : build(c, &c->compute);
    pthread_mutex_unlock(&c->lock);
    *out = st == UA_OK ? c->compute.kernel[which] : NULL;
    if (st == UA_OK && *out == NULL) {
        st = ua_error_set(UA_ERR_TYPE,
                          "SYCL device %d has no 64-bit floating point",
                          c->index);
    }
    return st;
}

static ua_status
submit(sycl_queue *q, DPCTLSyclKernelRef k, void **args, int *types,
       size_t nargs, size_t n, const char *what)
{
    size_t range[3] = {n, 1, 1};
    return ua_sycl_enqueued(ua_dpctl.Queue_SubmitRange(k, q->q, args, types,
                                                       nargs, range, 1, NULL,
                                                       0),
                            what);
}

static void *
shared(sycl_queue *q, size_t bytes)
{
    void *p = ua_dpctl.malloc_shared(bytes, q->q);
    if (p == NULL) {
        ua_error_set(UA_ERR_ALLOC,
                     "the SYCL runtime could not allocate %zu bytes of "
                     "shared memory",
                     bytes);
    }
    return p;
}

/* The plan and, after it, the flag of an index out of bounds, in shared
 * memory, read after the kernel. */
typedef struct {
    ua_gpu_index_plan plan;
    long long flag[2];
} index_launch;

static ua_status
sycl_index(void *queue, ua_index_mode mode, const ua_index_plan *p,
           int64_t *bad)
{
    sycl_queue *q = queue;
    DPCTLSyclKernelRef k;
    ua_status st = kernels(q, &k, K_INDEX + (int)mode);
    index_launch *l = st == UA_OK ? shared(q, sizeof *l) : NULL;
    if (l == NULL) {
        return st == UA_OK ? UA_ERR_ALLOC : st;
    }
    memset(l, 0, sizeof *l);
    ua_gpu_index_plan *k_plan = &l->plan;
    k_plan->nd = p->nd;
    k_plan->size = 1;
    for (int j = 0; j < p->nd; j++) {
        k_plan->shape[j] = p->shape[j];
        k_plan->rstep[j] = p->rstep[j];
        k_plan->astep[j] = p->astep[j];
        k_plan->istep[j] = p->istep[j];
        k_plan->size *= p->shape[j];
    }
    k_plan->result = p->result;
    k_plan->array = p->array;
    k_plan->index = p->index;
    k_plan->length = p->length;
    k_plan->stride = p->stride;
    k_plan->flag = l->flag;
    k_plan->mode = (int)mode;
    k_plan->units = (int)p->itemsize;
    void *args[1] = {l};
    int types[1] = {DPCTL_VOID_PTR};
    st =
        submit(q, k, args, types, 1, (size_t)k_plan->size, "the index kernel");
    ua_dpctl.Queue_Wait(q->q);
    if (st == UA_OK && l->flag[0] != 0) {
        *bad = l->flag[1];
        st = UA_ERR_INDEX;
    }
    ua_dpctl.free_with_context(l, q->c->ctx);
    return st;
}

/* Groups of `local` work-items, `groups` of them. */
static ua_status
submit_groups(sycl_queue *q, DPCTLSyclKernelRef k, void **args, int *types,
              size_t nargs, size_t groups, size_t local, const char *what)
{
    size_t global[3] = {groups * local, 1, 1}, size[3] = {local, 1, 1};
    return ua_sycl_enqueued(ua_dpctl.Queue_SubmitNDRange(k, q->q, args, types,
                                                         nargs, global, size,
                                                         1, NULL, 0),
                            what);
}

/* The compress kernel's plan, the mask's total and its tiles' counts (the
 * offsets, once scanned), in shared memory. */
typedef struct {
    ua_gpu_compress_plan plan;
    long long total;
    long long counts[];
} mask_launch;

/* Counts per tile, their scan on the device, the total read, then the
 * write. */
static ua_status
sycl_compress(void *queue, const ua_compress_plan *p, ua_compress_output out,
              void *ctx, size_t *count)
{
    sycl_queue *q = queue;
    DPCTLSyclKernelRef kc, ks, kw;
    ua_status st = kernels(q, &kc, K_COUNT);
    st = st == UA_OK ? kernels(q, &ks, K_SCAN) : st;
    st = st == UA_OK ? kernels(q, &kw, K_COMPRESS) : st;
    long long n = (long long)p->n, tiles = (n + UA_GPU_TILE - 1) / UA_GPU_TILE;
    mask_launch *l =
        st == UA_OK ? shared(q, sizeof *l + 8 * (size_t)tiles) : NULL;
    if (l == NULL) {
        return st == UA_OK ? UA_ERR_ALLOC : st;
    }
    memset(l, 0, sizeof *l);
    /* One tile needs no scan, nor offsets: its count is the total. */
    void *counts = tiles > 1 ? (void *)l->counts : (void *)&l->total;
    void *cargs[3] = {(void *)p->mask, &n, counts};
    int types[3] = {DPCTL_VOID_PTR, DPCTL_INT64_T, DPCTL_VOID_PTR};
    void *sargs[3] = {l->counts, &tiles, &l->total};
    if (tiles > 0) {
        st = submit_groups(q, kc, cargs, types, 3, (size_t)tiles,
                           UA_GPU_TILE_THREADS, "the count kernel");
    }
    if (st == UA_OK && tiles > 1) {
        st = submit_groups(q, ks, sargs, types, 3, 1, 1024, "the scan kernel");
    }
    ua_dpctl.Queue_Wait(q->q);
    *count = st == UA_OK ? (size_t)l->total : 0;
    char *dst = NULL;
    st = st == UA_OK ? out(ctx, *count, &dst) : st;
    if (st == UA_OK && *count > 0) {
        ua_gpu_compress_plan *k = &l->plan;
        k->mask = p->mask;
        k->n = n;
        k->offsets = tiles > 1 ? l->counts : NULL;
        k->src = p->src;
        k->sstep = p->sstep;
        k->dst = dst;
        k->units = p->src ? (long long)p->rowbytes : 0;
        k->nd = p->nd;
        for (int j = 0; j < p->nd; j++) {
            k->shape[j] = p->shape[j];
        }
        void *args[1] = {l};
        st = submit_groups(q, kw, args, types, 1, (size_t)tiles,
                           UA_GPU_TILE_THREADS, "the compress kernel");
        ua_dpctl.Queue_Wait(q->q);
    }
    ua_dpctl.free_with_context(l, q->c->ctx);
    return st;
}

/* One real series of arange or linspace, every `step` elements from dst. */
static ua_status
real_series(sycl_queue *q, const ua_affine_plan *p, char *dst, int part,
            int step)
{
    DPCTLSyclKernelRef k;
    bool wide = p->type == UA_FLOAT64 || p->type == UA_COMPLEX128 ||
                p->mode == UA_AFFINE_LINSPACE;
    bool half = p->type == UA_FLOAT16;
    ua_status st = kernels(q, &k,
                           p->mode == UA_AFFINE_LINSPACE ? K_LINSPACE
                           : wide                        ? K_ARANGE_F64
                           : half                        ? K_ARANGE_HALF
                                                         : K_ARANGE_F32);
    if (st != UA_OK) {
        return st;
    }
    long long n = (long long)p->n;
    if (p->mode == UA_AFFINE_LINSPACE) {
        long long start = ua_gpu_bits64(p->start[part]),
                  sv = ua_gpu_bits64(p->step[part]),
                  stop = ua_gpu_bits64(p->stop[part]),
                  div = ua_gpu_bits64(p->div);
        int divide = p->divide, endpoint = p->endpoint;
        void *args[9] = {dst,  &n,      &start,    &sv,  &stop,
                         &div, &divide, &endpoint, &step};
        int types[9] = {DPCTL_VOID_PTR, DPCTL_INT64_T, DPCTL_INT64_T,
                        DPCTL_INT64_T,  DPCTL_INT64_T, DPCTL_INT64_T,
                        DPCTL_INT32_T,  DPCTL_INT32_T, DPCTL_INT32_T};
        return submit(q, k, args, types, 9, p->n, "the linspace kernel");
    }
    if (wide) {
        long long f = ua_gpu_bits64(p->first.f[part]),
                  s = ua_gpu_bits64(p->second.f[part]);
        void *args[5] = {dst, &n, &f, &s, &step};
        int types[5] = {DPCTL_VOID_PTR, DPCTL_INT64_T, DPCTL_INT64_T,
                        DPCTL_INT64_T, DPCTL_INT32_T};
        return submit(q, k, args, types, 5, p->n, "the arange kernel");
    }
    int f = ua_gpu_bits32(p->first.f[part]),
        s = ua_gpu_bits32(p->second.f[part]);
    void *args[5] = {dst, &n, &f, &s, &step};
    int types[5] = {DPCTL_VOID_PTR, DPCTL_INT64_T, DPCTL_INT32_T,
                    DPCTL_INT32_T, DPCTL_INT32_T};
    return submit(q, k, args, types, 5, p->n, "the arange kernel");
}

static ua_status
sycl_affine(void *queue, const ua_affine_plan *p)
{
    sycl_queue *q = queue;
    char kind = ua_dtype_kind(p->type);
    if (kind == 'f' || kind == 'c') {
        int parts = kind == 'c' ? 2 : 1;
        size_t half_size = ua_dtype_itemsize(p->type) / (size_t)parts;
        ua_status st = UA_OK;
        for (int part = 0; part < parts && st == UA_OK; part++) {
            st = real_series(q, p, p->dst + (size_t)part * half_size, part,
                             parts);
        }
        return st;
    }
    DPCTLSyclKernelRef k;
    ua_status st = kernels(q, &k, K_ARANGE_INT);
    if (st != UA_OK) {
        return st;
    }
    long long n = (long long)p->n;
    unsigned long long first = (unsigned long long)p->first.i;
    unsigned long long d = (unsigned long long)p->second.i - first;
    int isz = (int)ua_dtype_itemsize(p->type);
    void *args[5] = {p->dst, &n, &first, &d, &isz};
    int types[5] = {DPCTL_VOID_PTR, DPCTL_INT64_T, DPCTL_INT64_T,
                    DPCTL_INT64_T, DPCTL_INT32_T};
    return submit(q, k, args, types, 5, p->n, "the arange kernel");
}

static ua_status
sycl_band(void *queue, const ua_band_plan *p)
{
    sycl_queue *q = queue;
    DPCTLSyclKernelRef k;
    ua_status st = kernels(q, &k, K_BAND);
    if (st != UA_OK) {
        return st;
    }
    long long size = (long long)p->batch * p->rows * p->cols;
    long long rows = p->rows, cols = p->cols, lo = p->lo, hi = p->hi;
    int isz = (int)p->itemsize, si = p->set_inside, so = p->set_outside;
    unsigned long long w[4];
    memcpy(w, p->inside, 16);
    memcpy(w + 2, p->outside, 16);
    void *args[13] = {p->dst, &size, &rows, &cols, &lo,   &hi,  &isz,
                      &si,    &so,   &w[0], &w[1], &w[2], &w[3]};
    int types[13] = {DPCTL_VOID_PTR, DPCTL_INT64_T, DPCTL_INT64_T,
                     DPCTL_INT64_T,  DPCTL_INT64_T, DPCTL_INT64_T,
                     DPCTL_INT32_T,  DPCTL_INT32_T, DPCTL_INT32_T,
                     DPCTL_INT64_T,  DPCTL_INT64_T, DPCTL_INT64_T,
                     DPCTL_INT64_T};
    return submit(q, k, args, types, 13, (size_t)size, "the band kernel");
}

/* ------------------------------------------------------ elementwise */

/* A work-item per element: the device's compiler vectorizes across
 * work-items. */
static const char ew_per_item[] = "#define UA_ONE_PER_ITEM 1\n";
static const char *const ew_header[] = {ua_sycl_language_header, ew_per_item,
                                        NULL};
static const char *const ew_header_fp64[] = {
    ua_sycl_language_fp64, ua_sycl_language_header, ew_per_item, NULL};
#define EW_LANGUAGE(HEADER)                                                   \
    {                                                                         \
        .header = HEADER,                                                     \
        .dialect = ua_gpu_opencl_dialect_text,                                \
        .cvt = {.re = "re",                                                   \
                .im = "im",                                                   \
                .half_to_real = "ua_h2r",                                     \
                .real_to_half = "ua_r2h",                                     \
                .real = "UA_CVT_R",                                           \
                .real_to_i64 = "ua_f2l",                                      \
                .real_to_u64 = "ua_f2ul"},                                    \
        .storage = ua_sycl_type_name,                                         \
        .float_suffix = false,                                                \
    }
static const ua_ew_language ew_language[2] = {EW_LANGUAGE(ew_header),
                                              EW_LANGUAGE(ew_header_fp64)};

static bool
uses_double(const ua_ew_variant *v)
{
    bool wide = v->compute == UA_FLOAT64 || v->compute == UA_COMPLEX128 ||
                v->out_type == UA_FLOAT64 || v->out_type == UA_COMPLEX128 ||
                v->reduce != 0 || v->chain != NULL; /* reduced in double */
    for (int k = 0; k < v->nin; k++) {
        wide = wide || v->in_type[k] == UA_FLOAT64 ||
               v->in_type[k] == UA_COMPLEX128;
    }
    return wide;
}

/* Builds the variant's program; called under c->lock. */
static ua_status
ew_build(sycl_context *c, const ua_ew_variant *v, DPCTLSyclKernelRef *k)
{
    if (!c->fp64 && uses_double(v)) {
        return ua_error_set(UA_ERR_TYPE,
                            "%s() on SYCL device %d needs 64-bit floating "
                            "point, which the device does not have",
                            ua_ew_name(v->function), c->index);
    }
    char *source = ua_ew_kernel_source(&ew_language[c->fp64], v);
    if (source == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a kernel");
    }
    DPCTLSyclKernelBundleRef bundle =
        ua_dpctl.KernelBundle_CreateFromOCLSource(
            c->ctx, ua_sycl_devices[c->index], source, "");
    free(source);
    if (bundle == NULL) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime could not build the kernel of "
                            "%s() for %s (set DPCTL_VERBOSITY=error for its "
                            "log)",
                            ua_ew_name(v->function),
                            ua_dtype_name(v->compute));
    }
    *k = ua_dpctl.KernelBundle_GetKernel(bundle, "ua_ew");
    ua_status st =
        *k != NULL
            ? ua_ew_table_add(&c->ew, ua_ew_variant_key(v), *k, bundle)
            : ua_error_set(UA_ERR_RUNTIME, "the elementwise program lacks "
                                           "its kernel");
    if (st != UA_OK) {
        ua_dpctl.KernelBundle_Delete(bundle);
    }
    return st;
}

static ua_status
ew_kernel(sycl_queue *q, const ua_ew_variant *v, DPCTLSyclKernelRef *k)
{
    sycl_context *c = q->c;
    pthread_mutex_lock(&c->lock);
    const ua_ew_slot *e = ua_ew_table_find(&c->ew, ua_ew_variant_key(v));
    ua_status st = UA_OK;
    if (e != NULL) {
        *k = e->kernel;
    } else {
        st = ew_build(c, v, k);
    }
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* A reduction of all the values: its groups' partials into device
 * memory, then a group reduces them into the value, each launch's plan in
 * shared memory (ua_ew_plan_reduce_in_two); all freed once they have
 * run. */
static ua_status
reduce_all_values(sycl_queue *q, DPCTLSyclKernelRef k, ua_ew_plan *filled,
                  const char *what)
{
    void *parts =
        ua_dpctl.malloc_device(UA_EW_REDUCE_PARTS * sizeof(double), q->q);
    ua_ew_plan *plans = shared(q, 2 * sizeof *plans);
    if (parts == NULL || plans == NULL) {
        if (parts != NULL) {
            ua_dpctl.free_with_context(parts, q->c->ctx);
        }
        if (plans != NULL) {
            ua_dpctl.free_with_context(plans, q->c->ctx);
        }
        return ua_error_set(UA_ERR_ALLOC,
                            "%s: no memory for a reduction's "
                            "partials",
                            what);
    }
    ua_ew_plan_reduce_in_two(filled, &plans[1], parts);
    plans[0] = *filled;
    int types[1] = {DPCTL_VOID_PTR};
    void *first[1] = {&plans[0]}, *second[1] = {&plans[1]};
    ua_status st =
        submit_groups(q, k, first, types, 1, UA_EW_REDUCE_PARTS, 256, what);
    st =
        st == UA_OK ? submit_groups(q, k, second, types, 1, 1, 256, what) : st;
    ua_dpctl.Queue_Wait(q->q);
    ua_dpctl.free_with_context(plans, q->c->ctx);
    ua_dpctl.free_with_context(parts, q->c->ctx);
    return st;
}

/* The kernel's plan in shared memory, freed once the kernel has run:
 * every path's, one launch of an element a work-item. */
static ua_status
sycl_elementwise(void *queue, const ua_elementwise_plan *p)
{
    sycl_queue *q = queue;
    ua_ew_variant v;
    ua_ew_variant_of_plan(p, 1, &v);
    DPCTLSyclKernelRef k = NULL;
    ua_status st = ew_kernel(q, &v, &k);
    if (st != UA_OK) {
        return st;
    }
    ua_ew_plan filled;
    size_t size = ua_ew_plan_fill(p, &v, &filled);
    if (v.reduce && !v.rows) {
        return reduce_all_values(q, k, &filled, ua_ew_name(p->function));
    }
    void *plan = shared(q, size);
    if (plan == NULL) {
        return UA_ERR_ALLOC;
    }
    memcpy(plan, &filled, size);
    void *args[1] = {plan};
    int types[1] = {DPCTL_VOID_PTR};
    /* A reduction's kernel of rows: groups of the text's 256 work-items,
     * a row each (the kernel loops past 65,536). */
    size_t rows = v.rows ? p->size / (size_t)p->row : 0;
    size_t groups = rows < 65536 ? rows : 65536;
    st = v.reduce || v.chain
             ? submit_groups(q, k, args, types, 1, groups, 256,
                             ua_ew_name(p->function))
             : submit(q, k, args, types, 1, p->size, ua_ew_name(p->function));
    ua_dpctl.Queue_Wait(q->q);
    ua_dpctl.free_with_context(plan, q->c->ctx);
    return st;
}

/* The libraries run on CPU devices, through the host's table
 * (ua_queue_library_kernels); other SYCL devices have none yet. */
static ua_status
sycl_solver(void *queue, const ua_solver_plan *p)
{
    (void)queue;
    (void)p;
    return ua_error_set(UA_ERR_UNAVAILABLE,
                        "linalg's factorizations are not there yet on SYCL "
                        "devices other than CPUs (oneMKL is not loaded)");
}

static ua_status
sycl_fft(void *queue, const ua_fft_plan *p)
{
    (void)queue;
    (void)p;
    return ua_error_set(UA_ERR_UNAVAILABLE,
                        "FFTs are not there yet on SYCL devices other than "
                        "CPUs (oneMKL is not loaded)");
}

const ua_compute_ops ua_sycl_compute_ops = {
    .version = UA_COMPUTE_OPS_VERSION,
    .index = sycl_index,
    .compress = sycl_compress,
    .affine = sycl_affine,
    .band = sycl_band,
    .elementwise = sycl_elementwise,
    .reduce = ua_gpu_reduce,
    .scan = ua_gpu_scan,
    .sort = ua_gpu_sort,
    .search = ua_gpu_search,
    .group = ua_gpu_group,
    .matmul = ua_gpu_matmul,
    .solver = sycl_solver,
    .fft = sycl_fft,
};
