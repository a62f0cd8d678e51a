/* Copies between GPUs, for the CUDA backend's copy path.
 *
 * Two GPUs joined by a link (NVLink, or PCIe peer-to-peer) reach each
 * other's memory once peer access is enabled between their primary
 * contexts: that is done on first use, both ways, where
 * cuDeviceCanAccessPeer allows it, and remembered per pair.  Copies of
 * bytes between device memory of two GPUs then run as cuMemcpyPeerAsync
 * over the link, and strided copies' kernels read and write the peer's
 * memory directly.  Without a link, cuMemcpyPeerAsync goes through the
 * host, and a strided copy stages the bytes a peer's operand spans in a
 * temporary on the queue's device.  Ordering against the other GPU's queue
 * is the core's (events, before and after the copy). */
#include <pthread.h>
#include <stdio.h>

#include "backends/cuda/cuda_peer.h"

#define PEER_MAX_DEVICES 64

enum { ROUTE_UNKNOWN = 0, ROUTE_DIRECT, ROUTE_THROUGH_HOST };

static const ua_cuda_driver *cu;
static int ndevices;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* guards both */
static CUcontext primary[PEER_MAX_DEVICES];              /* retained once */
static unsigned char routes[PEER_MAX_DEVICES][PEER_MAX_DEVICES];

void
ua_cuda_peer_initialize(const ua_cuda_driver *driver, int n)
{
    cu = driver;
    ndevices = n < PEER_MAX_DEVICES ? n : PEER_MAX_DEVICES;
}

static ua_status
peer_failed(CUresult r, const char *what)
{
    const char *name = "?";
    cu->cuGetErrorName(r, &name);
    return ua_error_set(r == CUDA_ERROR_OUT_OF_MEMORY ? UA_ERR_ALLOC
                                                      : UA_ERR_RUNTIME,
                        "CUDA %s failed: %s", what, name ? name : "?");
}

/* The device's primary context, the one every library shares; NULL if the
 * driver refuses it.  Called under the lock. */
static CUcontext
primary_context(int device)
{
    CUdevice d;
    if (primary[device] == NULL &&
        (cu->cuDeviceGet(&d, device) != CUDA_SUCCESS ||
         cu->cuDevicePrimaryCtxRetain(&primary[device], d) != CUDA_SUCCESS)) {
        primary[device] = NULL;
    }
    return primary[device];
}

static ua_status
contexts_of(int a, int b, CUcontext *ca, CUcontext *cb)
{
    pthread_mutex_lock(&lock);
    *ca = primary_context(a);
    *cb = primary_context(b);
    pthread_mutex_unlock(&lock);
    if (*ca == NULL || *cb == NULL) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "CUDA could not retain the primary context of "
                            "cuda:gpu:%d",
                            *ca == NULL ? a : b);
    }
    return UA_OK;
}

/* Lets `from`'s context reach `to`'s memory (already enabled, by us or by
 * another library sharing the primary contexts, is fine).  Under the
 * lock; the calling thread's current context is restored. */
static bool
enable(int from, int to)
{
    CUcontext a = primary_context(from), b = primary_context(to);
    CUcontext saved = NULL;
    if (a == NULL || b == NULL ||
        cu->cuCtxGetCurrent(&saved) != CUDA_SUCCESS ||
        cu->cuCtxSetCurrent(a) != CUDA_SUCCESS) {
        return false;
    }
    CUresult r = cu->cuCtxEnablePeerAccess(b, 0);
    cu->cuCtxSetCurrent(saved);
    return r == CUDA_SUCCESS || r == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
}

static bool
linked(int a, int b)
{
    CUdevice da, db;
    int ab = 0, ba = 0;
    return cu->cuDeviceGet(&da, a) == CUDA_SUCCESS &&
           cu->cuDeviceGet(&db, b) == CUDA_SUCCESS &&
           cu->cuDeviceCanAccessPeer(&ab, da, db) == CUDA_SUCCESS &&
           cu->cuDeviceCanAccessPeer(&ba, db, da) == CUDA_SUCCESS && ab && ba;
}

bool
ua_cuda_peer_access(int from, int to)
{
    if (from == to) {
        return true;
    }
    if (from < 0 || to < 0 || from >= ndevices || to >= ndevices) {
        return false;
    }
    pthread_mutex_lock(&lock);
    if (routes[from][to] == ROUTE_UNKNOWN) {
        bool direct = linked(from, to) && enable(from, to) && enable(to, from);
        routes[from][to] = routes[to][from] =
            direct ? ROUTE_DIRECT : ROUTE_THROUGH_HOST;
    }
    bool direct = routes[from][to] == ROUTE_DIRECT;
    pthread_mutex_unlock(&lock);
    return direct;
}

/* The ordinal of the GPU whose device memory ptr is; -1 for any other
 * memory (host, managed, unknown to the driver). */
static int
device_memory_of(const void *ptr)
{
    int attrs[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                   CU_POINTER_ATTRIBUTE_IS_MANAGED,
                   CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
    unsigned memory_type = 0;
    int is_managed = 0, ordinal = -1;
    void *data[] = {&memory_type, &is_managed, &ordinal};
    if (cu->cuPointerGetAttributes(
            3, attrs, data, (CUdeviceptr)(uintptr_t)ptr) != CUDA_SUCCESS ||
        memory_type != CU_MEMORYTYPE_DEVICE || is_managed) {
        return -1;
    }
    return ordinal;
}

static bool
is_peer(int device, int owner)
{
    return owner >= 0 && owner != device;
}

ua_status
ua_cuda_peer_memcpy(int device, CUstream stream, void *dst, const void *src,
                    size_t n, bool *handled)
{
    *handled = false;
    if (ndevices < 2) {
        return UA_OK;
    }
    int d = device_memory_of(dst), s = device_memory_of(src);
    /* Within one device (overlap included) the plain path serves. */
    if (d == s || (!is_peer(device, d) && !is_peer(device, s))) {
        return UA_OK;
    }
    *handled = true;
    /* Enabling peer access is what sends the copy over the link. */
    for (int k = 0; k < 2; k++) {
        int owner = k ? s : d;
        if (is_peer(device, owner)) {
            ua_cuda_peer_access(device, owner);
        }
    }
    CUdeviceptr dp = (CUdeviceptr)(uintptr_t)dst;
    CUdeviceptr sp = (CUdeviceptr)(uintptr_t)src;
    if (d < 0 || s < 0) {
        /* Host or managed memory on one side: unified addressing tells the
         * driver which GPU the other side is on. */
        CUresult r = cu->cuMemcpyAsync(dp, sp, n, stream);
        return r == CUDA_SUCCESS ? UA_OK : peer_failed(r, "cuMemcpyAsync");
    }
    CUcontext dc, sc;
    ua_status st = contexts_of(d, s, &dc, &sc);
    if (st != UA_OK) {
        return st;
    }
    CUresult r = cu->cuMemcpyPeerAsync(dp, dc, sp, sc, n, stream);
    return r == CUDA_SUCCESS ? UA_OK : peer_failed(r, "cuMemcpyPeerAsync");
}

/* ------------------------------------- strided copies without a link */

static void
release(CUstream stream, ua_cuda_staged *staged)
{
    if (staged->dst_tmp != 0) {
        cu->cuMemFreeAsync(staged->dst_tmp, stream);
    }
    if (staged->src_tmp != 0) {
        cu->cuMemFreeAsync(staged->src_tmp, stream);
    }
    staged->dst_tmp = staged->src_tmp = 0;
}

/* A temporary on `device` holding the bytes x spans on GPU `owner`; *out
 * is x moved into it, *lo and *bytes the span. */
static ua_status
stage_in(int device, int owner, CUstream stream, int nd,
         const ptrdiff_t *shape, const ua_strided *x, CUdeviceptr *tmp,
         ua_strided *out, char **lo, size_t *bytes)
{
    ptrdiff_t begin, end;
    CUcontext here, there;
    ua_status st = ua_layout_byte_range(
        nd, shape, x->strides, 0, ua_dtype_itemsize(x->type), &begin, &end);
    if (st != UA_OK ||
        (st = contexts_of(device, owner, &here, &there)) != UA_OK) {
        return st;
    }
    *lo = x->data + begin;
    *bytes = (size_t)(end - begin);
    CUresult r = cu->cuMemAllocAsync(tmp, *bytes, stream);
    if (r != CUDA_SUCCESS) {
        *tmp = 0;
        return peer_failed(r, "cuMemAllocAsync");
    }
    r = cu->cuMemcpyPeerAsync(*tmp, here, (CUdeviceptr)(uintptr_t)*lo, there,
                              *bytes, stream);
    if (r != CUDA_SUCCESS) {
        return peer_failed(r, "cuMemcpyPeerAsync");
    }
    *out = *x;
    out->data = (char *)(uintptr_t)*tmp + (x->data - *lo);
    return UA_OK;
}

ua_status
ua_cuda_peer_stage(int device, CUstream stream, int nd, const ptrdiff_t *shape,
                   const ua_strided *dst, const ua_strided *src,
                   ua_cuda_staged *staged)
{
    *staged = (ua_cuda_staged){
        .dst = *dst, .src = *src, .dst_device = -1, .src_device = -1};
    if (ndevices < 2) {
        return UA_OK;
    }
    int d = device_memory_of(dst->data), s = device_memory_of(src->data);
    bool stage_dst = is_peer(device, d) && !ua_cuda_peer_access(device, d);
    bool stage_src = is_peer(device, s) && !ua_cuda_peer_access(device, s);
    if (!stage_dst && !stage_src) {
        return UA_OK;
    }
    staged->active = true;
    ua_status st = UA_OK;
    char *lo;
    size_t bytes;
    if (stage_src) {
        staged->src_device = s;
        st = stage_in(device, s, stream, nd, shape, src, &staged->src_tmp,
                      &staged->src, &lo, &bytes);
    }
    if (st == UA_OK && stage_dst) {
        /* Copied in too: the bytes between its elements must come back
         * unchanged. */
        staged->dst_device = d;
        st = stage_in(device, d, stream, nd, shape, dst, &staged->dst_tmp,
                      &staged->dst, &staged->dst_lo, &staged->dst_bytes);
    }
    if (st != UA_OK) {
        release(stream, staged);
        staged->active = false;
    }
    return st;
}

ua_status
ua_cuda_peer_unstage(int device, CUstream stream, ua_cuda_staged *staged,
                     ua_status status)
{
    CUcontext here, there;
    if (status == UA_OK && staged->dst_tmp != 0 &&
        (status = contexts_of(device, staged->dst_device, &here, &there)) ==
            UA_OK) {
        CUresult r = cu->cuMemcpyPeerAsync(
            (CUdeviceptr)(uintptr_t)staged->dst_lo, there, staged->dst_tmp,
            here, staged->dst_bytes, stream);
        status =
            r == CUDA_SUCCESS ? UA_OK : peer_failed(r, "cuMemcpyPeerAsync");
    }
    release(stream, staged);
    return status;
}
