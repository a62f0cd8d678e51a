/* The CUDA backend's copy engine: memcpy and memset on the queue's stream,
 * and strided copies with casting, which run kernels that NVRTC compiles at
 * run time (the GPU layer's, gpu/copy_kernels.inc).  Memory a kernel cannot reach (pageable host
 * memory) goes through a pinned staging buffer of the queue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/cuda_language.h"
#include "backends/cuda/cuda_peer.h"
#include "gpu/copy_kernels.h"
#include "gpu/dialect_cuda_text.h"

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
    /* float16 moves as its bits; complex types are the header's pairs
     * (cuda_language.h). */
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

static const char *const header[] = {ua_cuda_kernel_prelude, NULL};

const ua_gpu_copy_language ua_cuda_copy_language = {
    .header = header,
    .dialect = ua_gpu_cuda_dialect_text,
    .cvt = {.re = "re",
            .im = "im",
            .half_to_real = "h2d",
            .real_to_half = "d2h",
            .real = "double",
            .real_to_i64 = "f2i64",
            .real_to_u64 = "f2u64"},
    .storage = ua_cuda_type_name};

static ua_status
compile_kernel(ua_cuda_context *c, ua_typenum dst, ua_typenum src,
               bool aligned, int program, ua_cuda_copy_kernels *k)
{
    char *source =
        ua_gpu_copy_source(&ua_cuda_copy_language, dst, src, aligned, program);
    if (source == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a kernel");
    }
    char what[48];
    snprintf(what, sizeof what, "copy kernel %s (program %d)",
             ua_gpu_copy_kernel_name(program), program);
    ua_status st =
        ua_cuda_compile(c, source, what, NULL, &k->modules[program]);
    free(source);
    CUresult r =
        st == UA_OK
            ? ua_cu.cuModuleGetFunction(&k->f[program], k->modules[program],
                                        ua_gpu_copy_kernel_name(program))
            : CUDA_SUCCESS;
    return r == CUDA_SUCCESS ? st : ua_cuda_failed(r, "the copy kernel");
}

/* The kernel of a pair of types, in the variant for aligned data or the
 * other, compiled on first use and kept. */
static ua_status
kernel_for(ua_cuda_context *c, ua_typenum dst, ua_typenum src, bool aligned,
           int program, CUfunction *out)
{
    ua_cuda_copy_kernels *k =
        &c->kernels[aligned][ua_dtype_index(dst)][ua_dtype_index(src)];
    pthread_mutex_lock(&c->lock);
    ua_status st = k->modules[program] != NULL
                       ? UA_OK
                       : compile_kernel(c, dst, src, aligned, program, k);
    *out = k->f[program];
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* The plan goes by value, in the kernel's parameter space. */
static ua_status
launch(void *queue, const ua_copy_plan *cp, ua_typenum dt, void *dst,
       ua_typenum stype, const void *src)
{
    ua_cuda_queue *q = queue;
    ua_gpu_copy_plan p;
    long long cap = (long long)(q->c->sm_count > 0 ? q->c->sm_count : 16) * 32;
    ua_gpu_copy_launch l =
        ua_gpu_copy_prepare(cp, dt, dst, stype, src, cap, &p);
    CUfunction f;
    ua_status st = kernel_for(q->c, dt, stype, l.aligned, l.program, &f);
    if (st != UA_OK) {
        return st;
    }
    void *args[] = {&p};
    CU_CHECK(ua_cu.cuLaunchKernel(f, l.groups[0], l.groups[1], l.groups[2],
                                  l.threads[0], l.threads[1], l.threads[2], 0,
                                  q->stream, args, NULL),
             "launching the copy kernel");
    return UA_OK;
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
launch_copies(ua_cuda_queue *q, ua_gpu_copy_batch *k, int count,
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
    ua_gpu_copy_batch k;
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
            (ua_gpu_copy_block){b->dst, b->src, (long long)b->bytes};
        widest = widest > (long long)b->bytes ? widest : (long long)b->bytes;
        if (count == UA_GPU_COPY_BLOCKS) {
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
