/* The CUDA backend's copy engine: memcpy and memset on the queue's stream,
 * and strided copies with casting, which run kernels that NVRTC compiles at
 * run time (cuda_kernels.h).  Memory a kernel cannot reach (pageable host
 * memory) goes through a pinned staging buffer of the queue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/cuda_kernels.h"
#include "backends/cuda/cuda_peer.h"

/* Whether this queue's kernels can read and write ptr; device memory of
 * another GPU is an error, not a "no". */
static ua_status
reachable(const ua_cuda_queue *q, const void *ptr, bool *out)
{
    ua_cuda_pointer p;
    *out = false;
    if (!ua_cuda_query_pointer(ptr, &p)) {
        return UA_OK;
    }
    if (p.memory_type == CU_MEMORYTYPE_DEVICE && !p.is_managed &&
        !ua_cuda_peer_access(q->c->index, p.ordinal)) {
        return ua_error_set(UA_ERR_VALUE,
                            "%p is memory of cuda:gpu:%d, which the queue's "
                            "cuda:gpu:%d has no link to",
                            ptr, p.ordinal, q->c->index);
    }
    *out = true;
    return UA_OK;
}

static bool
ranges_overlap(const void *a, const void *b, size_t n)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x != y && x < y + n && y < x + n;
}

ua_status
ua_cuda_memcpy(void *queue, void *dst, const void *src, size_t n)
{
    ua_cuda_queue *q = queue;
    ua_status st = ua_cuda_bind(q->c);
    if (st != UA_OK) {
        return st;
    }
    bool peers;
    st = ua_cuda_peer_memcpy(q->c->index, q->stream, dst, src, n, &peers);
    if (st != UA_OK || peers) {
        return st;
    }
    CUdeviceptr d = (CUdeviceptr)(uintptr_t)dst;
    CUdeviceptr s = (CUdeviceptr)(uintptr_t)src;
    if (!ranges_overlap(dst, src, n)) {
        bool piped;
        st = ua_cuda_pipelined_memcpy(q, dst, src, n, &piped);
        if (st != UA_OK || piped) {
            return st;
        }
        CU_CHECK(ua_cu.cuMemcpyAsync(d, s, n, q->stream), "cuMemcpyAsync");
        return UA_OK;
    }
    /* cuMemcpy does not allow overlap: go through a temporary, freed in
     * stream order. */
    CUdeviceptr tmp;
    st = ua_cuda_scratch(q, n, &tmp);
    if (st != UA_OK) {
        return st;
    }
    /* The temporary goes back to the pool whether or not a copy was
     * enqueued. */
    CUresult r = ua_cu.cuMemcpyAsync(tmp, s, n, q->stream);
    if (r == CUDA_SUCCESS) {
        r = ua_cu.cuMemcpyAsync(d, tmp, n, q->stream);
    }
    CUresult freed = ua_cu.cuMemFreeAsync(tmp, q->stream);
    CU_CHECK(r, "cuMemcpyAsync");
    CU_CHECK(freed, "cuMemFreeAsync");
    return UA_OK;
}

ua_status
ua_cuda_memset(void *queue, void *dst, unsigned char value, size_t n)
{
    ua_cuda_queue *q = queue;
    ua_status st = ua_cuda_bind(q->c);
    if (st != UA_OK) {
        return st;
    }
    CU_CHECK(ua_cu.cuMemsetD8Async((CUdeviceptr)(uintptr_t)dst, value, n,
                                   q->stream),
             "cuMemsetD8Async");
    return UA_OK;
}

/* The CUDA C++ type that holds elements of t. */
const char *
ua_cuda_type_name(ua_typenum t)
{
    /* float16 moves as its bits; complex types are the kernels' own pairs
     * (cuda_kernels.h). */
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
    case UA_COMPLEX128:
        return "c128";
    }
    return "void";
}

/* How the kernels' C++ spells what convert(S v) uses (the prelude's
 * complex struct, float16 helpers and float-to-integer functions). */
static const ua_kernel_dialect dialect = {.re = "re",
                                          .im = "im",
                                          .half_to_real = "h2d",
                                          .real_to_half = "d2h",
                                          .real = "double",
                                          .real_to_i64 = "f2i64",
                                          .real_to_u64 = "f2u64"};

/* The programs of a pair of types: the kernel of any rank, those of
 * ranks 1 to 4 (int and long long offsets each), the tiled pair. */
enum { PROGRAM_ND, PROGRAM_SMALL, PROGRAM_TILED = PROGRAM_SMALL + 4 };
_Static_assert(PROGRAM_TILED + 1 == UA_CUDA_COPY_PROGRAMS,
               "cuda_backend.h counts the copy programs");

static CUresult
find_kernels(ua_cuda_copy_kernels *k, int program)
{
    CUmodule m = k->modules[program];
    if (program == PROGRAM_ND) {
        return ua_cu.cuModuleGetFunction(&k->nd, m, "ua_copy_nd");
    }
    CUresult r = CUDA_SUCCESS;
    char name[32];
    for (int wide = 0; wide < 2 && r == CUDA_SUCCESS; wide++) {
        if (program == PROGRAM_TILED) {
            snprintf(name, sizeof(name), "ua_copy_tiled_%c", "il"[wide]);
            r = ua_cu.cuModuleGetFunction(&k->tiled[wide], m, name);
        } else {
            int n = program - PROGRAM_SMALL + 1;
            snprintf(name, sizeof(name), "ua_copy_%c%d", "il"[wide], n);
            r = ua_cu.cuModuleGetFunction(&k->small[wide][n - 1], m, name);
        }
    }
    return r;
}

char *
ua_cuda_copy_source(ua_typenum dst, ua_typenum src, bool aligned, int program)
{
    char convert[200], head[600];
    ua_kernel_conversion(&dialect, dst, src, convert, sizeof(convert));
    snprintf(head, sizeof(head),
             "typedef %s S;\ntypedef %s D;\n"
             "__device__ __forceinline__ D convert(S v) { %s }\n",
             ua_cuda_type_name(src), ua_cuda_type_name(dst), convert);
    char variant[64], tail[32] = "";
    snprintf(variant, sizeof(variant),
             "#define UA_ALIGNED %d\n#define UA_COPY_ND %d\n", aligned,
             program == PROGRAM_ND);
    if (program > PROGRAM_ND && program < PROGRAM_TILED) {
        snprintf(tail, sizeof(tail), "SMALL(%d)\n",
                 program - PROGRAM_SMALL + 1);
    }
    const char *tiled = program == PROGRAM_TILED ? ua_cuda_kernel_tiled : "";
    size_t n = strlen(variant) + sizeof(ua_cuda_kernel_prelude) +
               strlen(head) + sizeof(ua_cuda_kernel_body) + strlen(tiled) +
               strlen(tail);
    char *source = malloc(n);
    if (source != NULL) {
        snprintf(source, n, "%s%s%s%s%s%s", variant, ua_cuda_kernel_prelude,
                 head, ua_cuda_kernel_body, tiled, tail);
    }
    return source;
}

static ua_status
compile_kernels(ua_cuda_context *c, ua_typenum dst, ua_typenum src,
                bool aligned, int program, ua_cuda_copy_kernels *k)
{
    char *source = ua_cuda_copy_source(dst, src, aligned, program);
    if (source == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a kernel");
    }
    static const char *const what[] = {
        "copy kernel of any rank", "copy kernels of rank 1",
        "copy kernels of rank 2",  "copy kernels of rank 3",
        "copy kernels of rank 4",  "tiled copy kernels"};
    ua_status st =
        ua_cuda_compile(c, source, what[program], &k->modules[program]);
    free(source);
    if (st == UA_OK && find_kernels(k, program) != CUDA_SUCCESS) {
        st = ua_error_set(UA_ERR_RUNTIME,
                          "the copy kernels' module lacks its kernels");
    }
    return st;
}

/* The kernels of a pair of types, in the variant for aligned data or the
 * other, with those of `program` compiled on first use and kept. */
static ua_status
kernels_for(ua_cuda_context *c, ua_typenum dst, ua_typenum src, bool aligned,
            int program, const ua_cuda_copy_kernels **out)
{
    ua_cuda_copy_kernels *k =
        &c->kernels[aligned][ua_dtype_index(dst)][ua_dtype_index(src)];
    pthread_mutex_lock(&c->lock);
    ua_status st = k->modules[program] != NULL
                       ? UA_OK
                       : compile_kernels(c, dst, src, aligned, program, k);
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

static unsigned
grid_for(const ua_cuda_context *c, long long work)
{
    long long cap = (long long)(c->sm_count > 0 ? c->sm_count : 16) * 32;
    return (unsigned)(work < 1 ? 1 : work < cap ? work : cap);
}

static unsigned
at_most(long long work, long long cap)
{
    return (unsigned)(work < 1 ? 1 : work < cap ? work : cap);
}

/* Whether int arithmetic reaches every element with room to spare: the
 * kernels step offsets past the far end by up to an extent before coming
 * back, and their grid-stride index by the grid's size. */
static bool
fits_int(const kernel_plan *p, long long threads)
{
    const long long limit = 1ll << 30;
    long long dext = 0, sext = 0;
    for (int k = 0; k < p->nd; k++) {
        dext += p->shape[k] * magnitude(p->dstep[k]);
        sext += p->shape[k] * magnitude(p->sstep[k]);
    }
    return p->size < limit && threads < limit && dext < limit && sext < limit;
}

static ua_status
launch_tiled(ua_cuda_queue *q, const ua_cuda_copy_kernels *k, kernel_plan *p,
             size_t dst_itemsize)
{
    long long nl = p->shape[p->nd - 1], na = p->shape[p->tile_axis];
    long long batches = p->size / (nl * na);
    long long tile_l = UA_CUDA_TILE_L(dst_itemsize);
    long long per_block = UA_CUDA_TILE_BATCHES(dst_itemsize);
    unsigned gx = at_most((nl + tile_l - 1) / tile_l, 1ll << 30);
    unsigned gy = at_most((na + 31) / 32, 65535);
    unsigned gz = at_most((batches + per_block - 1) / per_block, 65535);
    void *args[] = {p};
    CUfunction f = k->tiled[!fits_int(p, 0)];
    CU_CHECK(ua_cu.cuLaunchKernel(f, gx, gy, gz, 32, 8, 1, 0, q->stream, args,
                                  NULL),
             "launching the tiled copy kernel");
    return UA_OK;
}

static ua_status
launch_elementwise(ua_cuda_queue *q, const ua_cuda_copy_kernels *k,
                   kernel_plan *p)
{
    unsigned blocks = grid_for(q->c, (p->size + 255) / 256);
    bool wide = !fits_int(p, blocks * 256ll);
    CUfunction f = p->nd <= 4 ? k->small[wide][p->nd - 1] : k->nd;
    void *args[] = {p};
    CU_CHECK(ua_cu.cuLaunchKernel(f, blocks, 1, 1, 256, 1, 1, 0, q->stream,
                                  args, NULL),
             "launching the copy kernel");
    return UA_OK;
}

/* The alignment the kernels' typed accesses need for elements of t: that
 * of the CUDA type (a complex number is a pair of its parts). */
static ptrdiff_t
element_alignment(ua_typenum t)
{
    size_t size = ua_dtype_itemsize(t);
    return (ptrdiff_t)(ua_dtype_kind(t) == 'c' ? size / 2 : size);
}

/* Whether every element the plan reaches from base is aligned for t: the
 * base and every step are multiples of the alignment. */
static bool
reaches_aligned(const void *base, const ptrdiff_t *steps, int nd, ua_typenum t)
{
    ptrdiff_t a = element_alignment(t);
    bool ok = (uintptr_t)base % (uintptr_t)a == 0;
    for (int i = 0; i < nd; i++) {
        ok = ok && steps[i] % a == 0;
    }
    return ok;
}

static ua_status
launch(void *queue, const ua_copy_plan *cp, ua_typenum dt, void *dst,
       ua_typenum stype, const void *src)
{
    ua_cuda_queue *q = queue;
    bool aligned = reaches_aligned(dst, cp->dstep, cp->nd, dt) &&
                   reaches_aligned(src, cp->sstep, cp->nd, stype);
    /* A scalar is a copy of rank 1. */
    kernel_plan p = {.dst = dst,
                     .src = src,
                     .nd = cp->nd > 0 ? cp->nd : 1,
                     .size = 1,
                     .shape = {1}};
    for (int i = 0; i < cp->nd; i++) {
        p.shape[i] = cp->shape[i];
        p.dstep[i] = cp->dstep[i];
        p.sstep[i] = cp->sstep[i];
        p.size *= cp->shape[i];
    }
    p.tile_axis = ua_copy_plan_tile_axis(cp, ua_dtype_itemsize(stype), 8);
    int program = p.tile_axis >= 0 ? PROGRAM_TILED
                  : p.nd <= 4      ? PROGRAM_SMALL + p.nd - 1
                                   : PROGRAM_ND;
    const ua_cuda_copy_kernels *k;
    ua_status st = kernels_for(q->c, dt, stype, aligned, program, &k);
    if (st != UA_OK) {
        return st;
    }
    return p.tile_axis >= 0 ? launch_tiled(q, k, &p, ua_dtype_itemsize(dt))
                            : launch_elementwise(q, k, &p);
}

static ua_status
staging_of(void *queue, size_t nbytes, void **out)
{
    ua_cuda_queue *q = queue;
    if (q->staging_bytes < nbytes) {
        if (q->staging != NULL) {
            ua_cu.cuMemFreeHost(q->staging);
            q->staging = NULL;
            q->staging_bytes = 0;
        }
        CU_CHECK(ua_cu.cuMemHostAlloc(&q->staging, nbytes,
                                      CU_MEMHOSTALLOC_PORTABLE |
                                          CU_MEMHOSTALLOC_DEVICEMAP),
                 "allocating a pinned staging buffer");
        q->staging_bytes = nbytes;
    }
    *out = q->staging;
    return UA_OK;
}

static ua_status
temporary(void *queue, size_t nbytes, void **out)
{
    CUdeviceptr tmp = 0;
    ua_status st = ua_cuda_scratch(queue, nbytes, &tmp);
    *out = st == UA_OK ? (void *)(uintptr_t)tmp : NULL;
    return st;
}

/* Freed in stream order: no host wait. */
static void
release_temporary(void *queue, void *ptr)
{
    ua_cu.cuMemFreeAsync((CUdeviceptr)(uintptr_t)ptr,
                         ((ua_cuda_queue *)queue)->stream);
}

static ua_status
synchronize(void *queue)
{
    CU_CHECK(ua_cu.cuStreamSynchronize(((ua_cuda_queue *)queue)->stream),
             "cuStreamSynchronize");
    return UA_OK;
}

/* Copies past this size go to the driver's memcpy, which runs them at the
 * copy engine's bandwidth; smaller ones share launches. */
#define BATCHED_COPY_MAX ((size_t)1 << 20)

static ua_status
launch_copies(ua_cuda_queue *q, ua_cuda_copy_blocks *k, int count,
              long long widest)
{
    CUfunction f;
    ua_status st = ua_cuda_program_function(q, UA_CUDA_PROGRAM_COPIES,
                                            "ua_copy_blocks", &f);
    if (st != UA_OK) {
        return st;
    }
    unsigned columns = ua_cuda_blocks_for(q, (widest + 15) / 16, 256);
    void *args[] = {k};
    CU_CHECK(ua_cu.cuLaunchKernel(f, columns, (unsigned)count, 1, 256, 1, 1, 0,
                                  q->stream, args, NULL),
             "ua_copy_blocks");
    return UA_OK;
}

ua_status
ua_cuda_memcpy_batch(void *queue, size_t n, const ua_copy_block *blocks)
{
    ua_cuda_queue *q = queue;
    ua_cuda_copy_blocks k;
    long long widest = 0;
    int count = 0;
    ua_status st = UA_OK;
    for (size_t i = 0; i < n && st == UA_OK; i++) {
        const ua_copy_block *b = &blocks[i];
        if (b->bytes > BATCHED_COPY_MAX) {
            st = ua_cuda_memcpy(q, b->dst, b->src, b->bytes);
            continue;
        }
        if (b->bytes == 0) {
            continue;
        }
        k.b[count++] =
            (ua_cuda_copy_block){b->dst, b->src, (long long)b->bytes};
        widest = widest > (long long)b->bytes ? widest : (long long)b->bytes;
        if (count == UA_CUDA_COPY_BLOCKS) {
            st = launch_copies(q, &k, count, widest);
            count = 0;
            widest = 0;
        }
    }
    return st == UA_OK && count > 0 ? launch_copies(q, &k, count, widest) : st;
}

ua_status
ua_cuda_reverse(ua_cuda_queue *q, char *dst, const char *last, size_t n,
                size_t itemsize)
{
    char name[24];
    snprintf(name, sizeof name, "ua_reverse_%zu", itemsize);
    int u = 0;
    while (u < 4 && ((size_t)1 << u) != itemsize) {
        u++;
    }
    long long count = (long long)n;
    void *args[] = {&dst, &last, &count};
    return ua_cuda_program_launch(
        q, UA_CUDA_PROGRAM_REVERSE + u, name,
        ua_cuda_blocks_for(q, (count * (long long)itemsize) / 16, 256), 256,
        args);
}

/* A dense run reversed (flip), placed so that 16 bytes move at once on
 * both sides. */
static bool
is_aligned_reversal(const ua_copy_plan *p, size_t size, const void *dst,
                    const void *src)
{
    if (p->nd != 1 || p->dstep[0] != (ptrdiff_t)size ||
        p->sstep[0] != -(ptrdiff_t)size || 16 % size != 0) {
        return false;
    }
    uintptr_t lowest = (uintptr_t)src - (16 - size);
    return (uintptr_t)dst % 16 == 0 && lowest % 16 == 0;
}

ua_status
ua_cuda_copy_strided(void *queue, int nd, const ptrdiff_t *shape,
                     const ua_strided *dst, const ua_strided *src)
{
    ua_cuda_queue *q = queue;
    ua_copy_plan p;
    ua_status st = ua_cuda_bind(q->c);
    if (st != UA_OK || !ua_copy_simplify(nd, shape, dst, src, &p)) {
        return st;
    }
    size_t dsz = ua_dtype_itemsize(dst->type);
    if (dst->type == src->type &&
        ua_copy_plan_is_dense(&p, dsz, ua_dtype_itemsize(src->type)) &&
        !ua_copy_overlaps(nd, shape, dst, src)) {
        return ua_cuda_memcpy(q, dst->data, src->data,
                              ua_copy_plan_size(&p) * dsz);
    }
    ua_cuda_staged staged;
    st = ua_cuda_peer_stage(q->c->index, q->stream, nd, shape, dst, src,
                            &staged);
    if (st != UA_OK) {
        return st;
    }
    if (staged.active) {
        st = ua_cuda_copy_strided(q, nd, shape, &staged.dst, &staged.src);
        return ua_cuda_peer_unstage(q->c->index, q->stream, &staged, st);
    }
    bool dst_on_gpu, src_on_gpu;
    if ((st = reachable(q, dst->data, &dst_on_gpu)) != UA_OK ||
        (st = reachable(q, src->data, &src_on_gpu)) != UA_OK) {
        return st;
    }
    if (dst_on_gpu && src_on_gpu && dst->type == src->type &&
        is_aligned_reversal(&p, dsz, dst->data, src->data) &&
        !ua_copy_overlaps(nd, shape, dst, src)) {
        return ua_cuda_reverse(q, dst->data, src->data, ua_copy_plan_size(&p),
                               dsz);
    }
    ua_kernel_copier k = {.queue = q,
                          .launch = launch,
                          .staging = staging_of,
                          .staging_lock = &q->lock,
                          .temporary = temporary,
                          .release_temporary = release_temporary,
                          .synchronize = synchronize};
    return ua_copy_with_kernels(&k, nd, shape, &p, dst, src, dst_on_gpu,
                                src_on_gpu);
}
