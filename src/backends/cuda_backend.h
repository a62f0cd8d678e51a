/* What the two halves of the CUDA backend share: cuda.c loads the driver
 * and manages devices, contexts, queues, memory and events; cuda_copy.c is
 * the copy engine (memcpy, memset and strided copies with their kernels and
 * staging buffers).  Not installed. */
#ifndef USMARRAY_CUDA_BACKEND_H
#define USMARRAY_CUDA_BACKEND_H

#include <pthread.h>

#include "cuda_driver.h"
#include "usmarray/backend.h"

/* The driver's entry points (ua_cuda_driver, cuda_driver.h), loaded by
 * cuda.c. */
/* NVRTC's, loaded by cuda.c when present: only strided copies need it. */
typedef struct {
#define DECLARE(field, symbol, params) nvrtcResult(*field) params;
    UA_NVRTC_FUNCTIONS(DECLARE)
#undef DECLARE
    const char *(*nvrtcGetErrorString)(nvrtcResult r);
    bool loaded;
    char reason[200];
} ua_cuda_nvrtc;

extern ua_cuda_driver ua_cu;
extern ua_cuda_nvrtc ua_nvrtc;

/* Turns a failed driver call into a status with the driver's words. */
ua_status ua_cuda_failed(CUresult r, const char *what);

#define CU_CHECK(call, what)                                                  \
    do {                                                                      \
        CUresult r_ = (call);                                                 \
        if (r_ != CUDA_SUCCESS) {                                             \
            return ua_cuda_failed(r_, what);                                  \
        }                                                                     \
    } while (0)

/* The compiled copy kernels of one pair of element types. */
typedef struct {
    CUmodule module;
    CUfunction nd;          /* any rank, 64-bit indices */
    CUfunction small[2][4]; /* [64-bit?][rank - 1] */
    CUfunction tiled[2];    /* [64-bit?] */
} ua_cuda_copy_kernels;

typedef struct {
    CUcontext ctx;
    CUdevice dev;
    int index;
    int sm_count, cc_major, cc_minor;
    CUmemoryPool pool; /* device memory ordered by streams; NULL: none */
    pthread_mutex_t lock; /* guards kernels */
    ua_cuda_copy_kernels kernels[UA_NTYPES][UA_NTYPES];
} ua_cuda_context;

typedef struct {
    ua_cuda_context *c;
    CUstream stream;
    pthread_mutex_t lock; /* guards the staging buffer */
    void *staging;
    size_t staging_bytes;
} ua_cuda_queue;

/* Makes c the calling thread's current context: driver calls act on it. */
ua_status ua_cuda_bind(const ua_cuda_context *c);

/* What the driver knows of an address; false for memory it never saw
 * (pageable host memory). */
typedef struct {
    int memory_type;
    int is_managed;
    int ordinal;
    uintptr_t start;
    size_t size;
} ua_cuda_pointer;

bool ua_cuda_query_pointer(const void *ptr, ua_cuda_pointer *out);

/* The copy engine's operations (cuda_copy.c), for the ops table. */
ua_status ua_cuda_memcpy(void *queue, void *dst, const void *src, size_t n);
ua_status ua_cuda_memset(void *queue, void *dst, unsigned char value,
                         size_t n);
ua_status ua_cuda_copy_strided(void *queue, int nd, const ptrdiff_t *shape,
                               const ua_strided *dst, const ua_strided *src);

#endif /* USMARRAY_CUDA_BACKEND_H */
