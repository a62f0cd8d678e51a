/* The SYCL backend's copy engine: memcpy and memset on the queue, and
 * strided copies with casting, which run OpenCL C kernels (sycl_kernels.h)
 * built once per device and pair of element types.  Memory a kernel
 * cannot reach (pageable host memory) goes through a USM host staging
 * buffer of the queue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/sycl/sycl_backend.h"
#include "backends/sycl/sycl_kernels.h"

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
 * complex types are the kernels' own pairs (sycl_kernels.h). */
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

/* How the kernels' OpenCL C spells what convert(S v) uses (vector
 * complex types, float16 helpers, R the widest real type the device has,
 * and the prelude's float-to-integer functions). */
static const ua_kernel_dialect dialect = {.re = "x",
                                          .im = "y",
                                          .half_to_real = "h2f",
                                          .real_to_half = "f2h",
                                          .real = "R",
                                          .real_to_i64 = "f2l",
                                          .real_to_u64 = "f2ul"};

/* The OpenCL C source of the copy kernels from src to dst (malloc'd), or
 * NULL when out of memory. */
static char *
kernel_source(ua_typenum dst, ua_typenum src, bool fp64)
{
    char convert[200], head[400];
    ua_kernel_conversion(&dialect, dst, src, convert, sizeof(convert));
    snprintf(head, sizeof(head), "%stypedef %s R;\n",
             fp64 ? "#define UA_FP64\n" : "", fp64 ? "double" : "float");
    size_t n = strlen(head) + sizeof(ua_sycl_kernel_prelude) + 200 +
               sizeof(convert) + sizeof(ua_sycl_kernel_body);
    char *source = malloc(n);
    if (source != NULL) {
        snprintf(source, n,
                 "%s%stypedef %s S;\ntypedef %s D;\nD convert(S v) { %s }\n%s",
                 head, ua_sycl_kernel_prelude, ua_sycl_type_name(src),
                 ua_sycl_type_name(dst), convert, ua_sycl_kernel_body);
    }
    return source;
}

static ua_status
build_kernels(sycl_context *c, ua_typenum dst, ua_typenum src, copy_kernels *k)
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
    k->bundle = ua_dpctl.KernelBundle_CreateFromOCLSource(
        c->ctx, ua_sycl_devices[c->index], source, "");
    free(source);
    if (k->bundle == NULL) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime could not build the copy "
                            "kernels of %s to %s (set DPCTL_VERBOSITY=error "
                            "for its log)",
                            ua_dtype_typestr(src), ua_dtype_typestr(dst));
    }
    k->nd = ua_dpctl.KernelBundle_GetKernel(k->bundle, "ua_copy_nd");
    k->tiled = ua_dpctl.KernelBundle_GetKernel(k->bundle, "ua_copy_tiled");
    k->plan = ua_dpctl.KernelBundle_GetKernel(k->bundle, "ua_copy_plan");
    if (k->nd == NULL || k->tiled == NULL || k->plan == NULL) {
        ua_dpctl.KernelBundle_Delete(k->bundle);
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
    return ua_sycl_enqueued(ua_dpctl.Queue_SubmitRange(k->nd, q->q, args,
                                                       types, nargs, range, 3,
                                                       NULL, 0),
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
    return ua_sycl_enqueued(ua_dpctl.Queue_SubmitNDRange(k->tiled, q->q, args,
                                                         types, nargs, global,
                                                         local, 3, NULL, 0),
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
    long long *plan = ua_dpctl.malloc_shared(bytes, q->q);
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
    ua_status st =
        ua_sycl_enqueued(ua_dpctl.Queue_SubmitRange(k->plan, q->q, args, types,
                                                    4, range, 1, NULL, 0),
                         "the copy kernel");
    ua_dpctl.Queue_Wait(q->q);
    ua_dpctl.free_with_context(plan, q->c->ctx);
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
