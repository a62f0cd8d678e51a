/* Copies between GPUs (cuda_peer.c), for the CUDA backend's copy path.
 * Devices are CUDA ordinals; the calling thread's current context is the
 * queue's (the caller binds it).  Not installed. */
#ifndef USMARRAY_CUDA_PEER_H
#define USMARRAY_CUDA_PEER_H

#include "backends/cuda/cuda_driver.h"
#include "core/backend.h"

/* Called once the driver is loaded and the devices counted. */
void ua_cuda_peer_initialize(const ua_cuda_driver *driver, int ndevices);

/* The peer_access operation: whether `from`'s kernels and copies reach
 * `to`'s device memory over a direct link, enabling peer access both ways
 * on first ask. */
bool ua_cuda_peer_access(int from, int to);

/* A copy of n bytes on a stream of `device` where either side is device
 * memory of another GPU: cuMemcpyPeerAsync, over the link where there is
 * one, else through the host.  *handled is false, and nothing is done,
 * when neither side is another GPU's device memory. */
ua_status ua_cuda_peer_memcpy(int device, CUstream stream, void *dst,
                              const void *src, size_t n, bool *handled);

/* A strided copy whose operands include device memory of a GPU that
 * `device` has no link to: the bytes such an operand spans are staged in
 * a temporary on `device` (copied in, and for the destination copied back
 * by ua_cuda_peer_unstage), so that the copy's kernels touch only memory
 * they reach.  staged->active is false when nothing needs staging. */
typedef struct {
    bool active;
    ua_strided dst, src;
    int dst_device, src_device;   /* the GPUs staged from, or -1 */
    CUdeviceptr dst_tmp, src_tmp; /* 0 when that side is not staged */
    char *dst_lo;                 /* the destination's first byte */
    size_t dst_bytes;
} ua_cuda_staged;

ua_status ua_cuda_peer_stage(int device, CUstream stream, int nd,
                             const ptrdiff_t *shape, const ua_strided *dst,
                             const ua_strided *src, ua_cuda_staged *staged);
/* Copies a staged destination back and frees the temporaries in stream
 * order; returns `status` (the copy's) unless that was fine and this
 * failed. */
ua_status ua_cuda_peer_unstage(int device, CUstream stream,
                               ua_cuda_staged *staged, ua_status status);

#endif /* USMARRAY_CUDA_PEER_H */
