/* What the two halves of the SYCL backend share: sycl.c loads dpctl's C
 * interface and manages devices, contexts, queues, memory and events;
 * sycl_copy.c is the copy engine (memcpy, memset and strided copies with
 * their kernels and staging buffers).  Not installed. */
#ifndef USMARRAY_SYCL_BACKEND_H
#define USMARRAY_SYCL_BACKEND_H

#include <pthread.h>

#include "backends/sycl/sycl_dpctl.h"
#include "core/backend.h"
#include "gpu/copy_kernels.h"
#include "gpu/elementwise_source.h"
#include "gpu/launcher.h"

#define SYCL_MAX_DEVICES 64

/* dpctl's entry points, loaded by sycl.c. */
typedef struct {
#define DECLARE(field, symbol, ret, params) ret(*field) params;
    UA_DPCTL_FUNCTIONS(DECLARE)
#undef DECLARE
} ua_sycl_dpctl;

extern ua_sycl_dpctl ua_dpctl;
/* The devices dpctl enumerates, in its order. */
extern DPCTLSyclDeviceRef ua_sycl_devices[SYCL_MAX_DEVICES];

/* The copy kernels of one pair of element types, each program
 * (gpu/copy_kernels.h) built on first use. */
typedef struct {
    DPCTLSyclKernelBundleRef bundle[UA_GPU_COPY_PROGRAMS];
    DPCTLSyclKernelRef kernel[UA_GPU_COPY_PROGRAMS];
} copy_kernels;

/* The compute kernels (sycl_compute.c), one bundle per context. */
#define UA_SYCL_COMPUTE_KERNELS 12
typedef struct {
    DPCTLSyclKernelBundleRef bundle;
    DPCTLSyclKernelRef kernel[UA_SYCL_COMPUTE_KERNELS];
} ua_sycl_compute;

typedef struct {
    DPCTLSyclContextRef ctx;
    int index;
    bool fp64;
    pthread_mutex_t lock;                          /* guards kernels */
    copy_kernels kernels[2][UA_NTYPES][UA_NTYPES]; /* [aligned?][dst][src] */
    ua_sycl_compute compute;
    /* The elementwise kernels built so far (sycl_compute.c), under lock. */
    ua_ew_table ew;
    /* The reduction programs built so far (sycl_launcher.c), by their
     * types' key, under lock. */
    ua_ew_table reduce;
} sycl_context;

typedef struct {
    ua_gpu_queue gpu; /* first: the GPU layer's launches find it */
    sycl_context *c;
    DPCTLSyclQueueRef q;
    pthread_mutex_t lock; /* guards the staging buffer */
    void *staging;
    size_t staging_bytes;
} sycl_queue;

/* USM of each kind on a context's devices (sycl_memory.c). */
extern const ua_memory_provider ua_sycl_memory;

/* A status for an event the runtime gave back that no one waits for:
 * UA_ERR_RUNTIME naming `what` where there is none. */
ua_status ua_sycl_enqueued(DPCTLSyclEventRef e, const char *what);

/* The copy engine's operations (sycl_copy.c). */
ua_status ua_sycl_memcpy(void *queue, void *dst, const void *src, size_t n);
ua_status ua_sycl_memcpy_batch(void *queue, size_t n,
                               const ua_copy_block *blocks);
ua_status ua_sycl_memset(void *queue, void *dst, unsigned char value,
                         size_t n);
ua_status ua_sycl_queue_wait(void *queue);
ua_status ua_sycl_copy_strided(void *queue, int nd, const ptrdiff_t *shape,
                               const ua_strided *dst, const ua_strided *src);

/* The OpenCL C type that holds elements of t, and how the copy kernels
 * are written in OpenCL C, for a device with 64-bit floating point or
 * without (sycl_copy.c). */
const char *ua_sycl_type_name(ua_typenum t);
const ua_gpu_copy_language *ua_sycl_copy_language(bool fp64);

extern const ua_compute_ops ua_sycl_compute_ops;
/* The source of the compute kernels' program (malloc'd), for a device with
 * 64-bit floating point or without. */
char *ua_sycl_compute_source(bool fp64);

/* The launcher through which the GPU layer runs reductions, scans, sorts,
 * searches, groups and products on the backend's queues
 * (sycl_launcher.c). */
extern const ua_gpu_launcher_ops ua_sycl_launcher;

#endif
