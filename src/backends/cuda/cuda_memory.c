/* The CUDA backend's memory providers (memory/provider.h): plain
 * cuMemAlloc, cuMemAllocManaged and cuMemHostAlloc, and the device's own
 * stream-ordered pool, with the blocks freed on one stream kept aside until
 * an event orders another after the free. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"

/* Peer access enabled between contexts does not reach pool memory: each
 * GPU with a link to this one is granted its pool's memory too, so that
 * peer copies of blocks from it run over the link rather than through the
 * host. */
static void
grant_peers(const ua_cuda_context *c)
{
    int ndevices = 0;
    if (ua_cu.cuDeviceGetCount(&ndevices) != CUDA_SUCCESS) {
        return;
    }
    for (int peer = 0; peer < ndevices; peer++) {
        CUdevice d;
        int can = 0;
        if (peer == c->index || ua_cu.cuDeviceGet(&d, peer) != CUDA_SUCCESS ||
            ua_cu.cuDeviceCanAccessPeer(&can, d, c->dev) != CUDA_SUCCESS ||
            !can) {
            continue;
        }
        CUmemAccessDesc access = {{CU_MEM_LOCATION_TYPE_DEVICE, peer},
                                  CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
        ua_cu.cuMemPoolSetAccess(c->pool, &access, 1);
    }
}

/* A pool's first allocation sets the pool up in the driver: 6.5-9 ms on
 * the H200, which a process's first reduction paid for its first
 * temporary.  A thread of its own makes one allocation as the context is
 * made, so that the set-up overlaps what the program does before its
 * first call (the NVRTC start beside it likewise).  The process waits for
 * these threads at exit: none may be in the driver as it unloads; a child
 * of fork waits for none. */
#define PRIME_THREADS 64
static pthread_mutex_t primes_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t primes[PRIME_THREADS];
static int nprimes;
static pthread_once_t primes_once = PTHREAD_ONCE_INIT;

void
ua_cuda_primes_join(void)
{
    pthread_mutex_lock(&primes_lock);
    for (int i = 0; i < nprimes; i++) {
        pthread_join(primes[i], NULL);
    }
    nprimes = 0;
    pthread_mutex_unlock(&primes_lock);
}

/* A child of fork has none of its parent's threads to wait for. */
static void
primes_forget(void)
{
    pthread_mutex_init(&primes_lock, NULL);
    nprimes = 0;
}

static void
primes_register(void)
{
    atexit(ua_cuda_primes_join);
    pthread_atfork(NULL, NULL, primes_forget);
}

static void *
prime_run(void *arg)
{
    const ua_cuda_context *c = arg;
    CUstream s;
    CUdeviceptr p;
    if (ua_cu.cuCtxSetCurrent(c->ctx) != CUDA_SUCCESS ||
        ua_cu.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) {
        return NULL;
    }
    if (ua_cu.cuMemAllocFromPoolAsync(&p, 256, c->pool, s) == CUDA_SUCCESS) {
        ua_cu.cuMemFreeAsync(p, s);
    }
    ua_cu.cuStreamSynchronize(s);
    ua_cu.cuStreamDestroy(s);
    return NULL;
}

static void
prime_start(ua_cuda_context *c)
{
    const char *env = getenv("USMARRAY_CUDA_POOL_PRIME");
    if (env != NULL && strcmp(env, "0") == 0) {
        return; /* for comparisons: the set-up then falls on a first call */
    }
    pthread_once(&primes_once, primes_register);
    pthread_mutex_lock(&primes_lock);
    if (nprimes < PRIME_THREADS &&
        pthread_create(&primes[nprimes], NULL, prime_run, c) == 0) {
        nprimes++;
    }
    pthread_mutex_unlock(&primes_lock);
}

/* The device's own stream-ordered pool, which keeps what is freed (no
 * release threshold) until trim_ordered: CuPy's and PyTorch's caching
 * allocators behave alike.  Blocks freed on one stream serve another only
 * once an event has ordered it after the free, never through dependencies
 * the driver would add by itself. */
void
ua_cuda_create_pool(ua_cuda_context *c)
{
    int supported = 0;
    ua_cu.cuDeviceGetAttribute(
        &supported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, c->dev);
    CUmemPoolProps props = {
        .allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
        .location = {CU_MEM_LOCATION_TYPE_DEVICE, c->index}};
    if (!supported ||
        ua_cu.cuMemPoolCreate(&c->pool, &props) != CUDA_SUCCESS) {
        c->pool = NULL;
        return;
    }
    uint64_t keep_all = UINT64_MAX;
    int no = 0;
    ua_cu.cuMemPoolSetAttribute(c->pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                &keep_all);
    ua_cu.cuMemPoolSetAttribute(
        c->pool, CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES, &no);
    grant_peers(c);
    prime_start(c);
}

static ua_status
alloc_managed(size_t nbytes, void **ptr)
{
    /* Oversubscribed managed memory can stall the GPU: refuse what the
     * device could not hold. */
    size_t free_bytes = 0, total = 0;
    CU_CHECK(ua_cu.cuMemGetInfo(&free_bytes, &total), "cuMemGetInfo");
    if (nbytes > free_bytes) {
        return ua_error_set(UA_ERR_ALLOC,
                            "CUDA could not allocate %zu bytes of USM "
                            "shared memory: the device has %zu bytes free",
                            nbytes, free_bytes);
    }
    CUdeviceptr p;
    CU_CHECK(ua_cu.cuMemAllocManaged(&p, nbytes, CU_MEM_ATTACH_GLOBAL),
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
    ua_cu.cuGetErrorName(r, &name);
    return ua_error_set(UA_ERR_ALLOC,
                        "CUDA could not allocate %zu bytes of USM %s memory: "
                        "%s",
                        nbytes, ua_usm_kind_name(kind), name ? name : "?");
}

static ua_status
cuda_alloc(void *context, int index, void *queue, ua_usm_kind kind,
           size_t nbytes, size_t alignment, void **ptr)
{
    (void)index;
    (void)queue;
    size_t guaranteed =
        kind == UA_USM_HOST ? CUDA_HOST_ALIGNMENT : CUDA_DEVICE_ALIGNMENT;
    if (alignment > guaranteed) {
        return ua_error_set(UA_ERR_VALUE,
                            "CUDA USM %s memory is aligned to %zu bytes; an "
                            "alignment of %zu is not available",
                            ua_usm_kind_name(kind), guaranteed, alignment);
    }
    ua_status st = ua_cuda_bind(context);
    if (st != UA_OK) {
        return st;
    }
    CUdeviceptr p = 0;
    CUresult r;
    switch (kind) {
    case UA_USM_SHARED:
        return alloc_managed(nbytes, ptr);
    case UA_USM_HOST:
        r = ua_cu.cuMemHostAlloc(
            ptr, nbytes, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
        break;
    default:
        r = ua_cu.cuMemAlloc(&p, nbytes);
        *ptr = (void *)(uintptr_t)p;
        break;
    }
    return r == CUDA_SUCCESS ? UA_OK : alloc_failed(r, kind, nbytes);
}

static void
cuda_free(void *context, void *queue, ua_usm_kind kind, void *ptr,
          size_t nbytes)
{
    (void)queue;
    (void)nbytes;
    if (ua_cuda_bind(context) != UA_OK) {
        ua_error_clear();
        return;
    }
    if (kind == UA_USM_HOST) {
        ua_cu.cuMemFreeHost(ptr);
    } else {
        ua_cu.cuMemFree((CUdeviceptr)(uintptr_t)ptr);
    }
}

/* A block a stream freed serves that stream's next allocation of the same
 * size with no driver call: the stream orders the two uses by itself, and
 * the two driver calls an allocation and a free would make are the larger
 * part of a large empty()'s cost. */
static bool
take_kept(ua_cuda_context *c, CUstream stream, size_t nbytes, CUdeviceptr *p)
{
    bool hit = false;
    pthread_mutex_lock(&c->kept_lock);
    for (int i = 0; i < UA_CUDA_KEPT_BLOCKS && !hit; i++) {
        ua_cuda_kept_block *k = &c->kept[i];
        if (k->ptr != 0 && k->stream == stream && k->bytes == nbytes) {
            *p = k->ptr;
            k->ptr = 0;
            hit = true;
        }
    }
    pthread_mutex_unlock(&c->kept_lock);
    return hit;
}

/* Keeps a freed block aside, giving back to the pool the one it displaces
 * (the slots are used round robin). */
static void
keep(ua_cuda_context *c, CUstream stream, CUdeviceptr p, size_t nbytes)
{
    pthread_mutex_lock(&c->kept_lock);
    int slot = 0;
    for (int i = 0; i < UA_CUDA_KEPT_BLOCKS; i++) {
        if (c->kept[i].ptr == 0) {
            slot = i;
            break;
        }
        slot = (c->kept_next + i) % UA_CUDA_KEPT_BLOCKS;
    }
    ua_cuda_kept_block old = c->kept[slot];
    c->kept[slot] = (ua_cuda_kept_block){p, nbytes, stream};
    c->kept_next = (slot + 1) % UA_CUDA_KEPT_BLOCKS;
    pthread_mutex_unlock(&c->kept_lock);
    if (old.ptr != 0) {
        ua_cu.cuMemFreeAsync(old.ptr, old.stream);
    }
}

/* Gives back to the pool the kept blocks of `stream` (of every stream
 * where NULL_STREAM_ALL). */
#define NULL_STREAM_ALL ((CUstream)(uintptr_t)-1)
void
ua_cuda_release_kept(ua_cuda_context *c, CUstream stream)
{
    pthread_mutex_lock(&c->kept_lock);
    for (int i = 0; i < UA_CUDA_KEPT_BLOCKS; i++) {
        ua_cuda_kept_block *k = &c->kept[i];
        if (k->ptr != 0 &&
            (stream == NULL_STREAM_ALL || k->stream == stream)) {
            ua_cu.cuMemFreeAsync(k->ptr, k->stream);
            k->ptr = 0;
        }
    }
    pthread_mutex_unlock(&c->kept_lock);
}

/* The pool ordered by the queue's stream; plain cuMemAlloc where the
 * device has no pools.  When the pool runs dry, kept blocks go back to it
 * and the allocation is tried again. */
static ua_status
cuda_alloc_ordered(void *context, int index, void *queue, ua_usm_kind kind,
                   size_t nbytes, size_t alignment, void **ptr)
{
    /* Device memory of the default alignment only (the pool asks no
     * other); the queue's context is the one asked for. */
    (void)context;
    (void)index;
    (void)kind;
    (void)alignment;
    ua_cuda_queue *q = queue;
    ua_cuda_context *c = q->c;
    ua_status st = ua_cuda_bind(c);
    if (st != UA_OK) {
        return st;
    }
    CUdeviceptr p;
    CUresult r = CUDA_SUCCESS;
    if (c->pool == NULL) {
        r = ua_cu.cuMemAlloc(&p, nbytes);
    } else if (!take_kept(c, q->stream, nbytes, &p)) {
        r = ua_cu.cuMemAllocFromPoolAsync(&p, nbytes, c->pool, q->stream);
        if (r == CUDA_ERROR_OUT_OF_MEMORY) {
            ua_cuda_release_kept(c, NULL_STREAM_ALL);
            ua_cu.cuCtxSynchronize();
            r = ua_cu.cuMemAllocFromPoolAsync(&p, nbytes, c->pool, q->stream);
        }
    }
    if (r != CUDA_SUCCESS) {
        return alloc_failed(r, UA_USM_DEVICE, nbytes);
    }
    *ptr = (void *)(uintptr_t)p;
    return UA_OK;
}

static void
cuda_free_ordered(void *context, void *queue, ua_usm_kind kind, void *ptr,
                  size_t nbytes)
{
    (void)context;
    (void)kind;
    ua_cuda_queue *q = queue;
    if (ua_cuda_bind(q->c) != UA_OK) {
        ua_error_clear();
        return;
    }
    CUdeviceptr p = (CUdeviceptr)(uintptr_t)ptr;
    if (q->c->pool == NULL) {
        ua_cu.cuStreamSynchronize(q->stream);
        ua_cu.cuMemFree(p);
    } else {
        keep(q->c, q->stream, p, nbytes);
    }
}

/* Frees that streams have not reached yet keep their blocks: wait for
 * them, so that everything unused goes back. */
static void
cuda_trim_ordered(void *context)
{
    ua_cuda_context *c = context;
    if (c->pool == NULL || ua_cuda_bind(c) != UA_OK) {
        ua_error_clear();
        return;
    }
    ua_cuda_release_kept(c, NULL_STREAM_ALL);
    ua_cu.cuCtxSynchronize();
    ua_cu.cuMemPoolTrimTo(c->pool, 0);
}

static size_t
cuda_ordered_held_bytes(void *context)
{
    ua_cuda_context *c = context;
    uint64_t n = 0;
    if (c->pool != NULL) {
        ua_cu.cuMemPoolGetAttribute(c->pool,
                                    CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &n);
    }
    return (size_t)n;
}

/* Device, shared and host memory all honour CUDA_DEVICE_ALIGNMENT; the
 * core over-allocates for more. */
const ua_memory_provider ua_cuda_memory = {
    .name = "cuMemAlloc",
    .alloc = cuda_alloc,
    .free = cuda_free,
    .max_alignment = CUDA_DEVICE_ALIGNMENT,
};

const ua_memory_provider ua_cuda_ordered_memory = {
    .name = "the device's stream-ordered pool",
    .queue_ordered = true,
    .alloc = cuda_alloc_ordered,
    .free = cuda_free_ordered,
    .trim = cuda_trim_ordered,
    .held_bytes = cuda_ordered_held_bytes,
    .max_alignment = CUDA_DEVICE_ALIGNMENT,
};

/* A block of device memory for the queue's next work, freed in stream
 * order (cuMemFreeAsync); from the context's pool, which keeps what is
 * freed (the driver's default pool gives its memory back at each
 * synchronization, and mapping it again cost more than the call's
 * work). */
ua_status
ua_cuda_scratch(ua_cuda_queue *q, size_t bytes, CUdeviceptr *p)
{
    if (q->c->pool != NULL) {
        CU_CHECK(
            ua_cu.cuMemAllocFromPoolAsync(p, bytes, q->c->pool, q->stream),
            "cuMemAllocFromPoolAsync");
    } else {
        CU_CHECK(ua_cu.cuMemAllocAsync(p, bytes, q->stream),
                 "cuMemAllocAsync");
    }
    return UA_OK;
}
