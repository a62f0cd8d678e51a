/* The few declarations of the CUDA driver API and NVRTC that the CUDA
 * backend uses, so that the build needs no CUDA toolkit: both libraries are
 * loaded with dlopen at first use.  Values are those of the public ABI
 * (cuda.h and nvrtc.h, CUDA 12 and 13). */
#ifndef USMARRAY_CUDA_DRIVER_H
#define USMARRAY_CUDA_DRIVER_H

#include <stddef.h>
#include <stdint.h>

typedef int CUresult;
typedef int CUdevice;
typedef uint64_t CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUmemPoolHandle_st *CUmemoryPool;

/* CUmemPoolProps: where and what a stream-ordered pool allocates. */
typedef struct {
    int allocType;   /* CU_MEM_ALLOCATION_TYPE_PINNED */
    int handleTypes; /* 0: no IPC handles */
    struct {
        int type; /* CU_MEM_LOCATION_TYPE_DEVICE */
        int id;   /* device ordinal */
    } location;
    void *win32SecurityAttributes;
    unsigned char reserved[64];
} CUmemPoolProps;

#define CU_MEM_ALLOCATION_TYPE_PINNED 1
#define CU_MEM_LOCATION_TYPE_DEVICE 1

/* CUmemAccessDesc: which device may read and write a pool's memory. */
typedef struct {
    struct {
        int type; /* CU_MEM_LOCATION_TYPE_DEVICE */
        int id;   /* device ordinal */
    } location;
    int flags; /* CU_MEM_ACCESS_FLAGS_PROT_READWRITE */
} CUmemAccessDesc;

#define CU_MEM_ACCESS_FLAGS_PROT_READWRITE 3

/* CUmemPool_attribute: flags are int, byte counts uint64_t. */
#define CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES 1
#define CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC 2
#define CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES 3
#define CU_MEMPOOL_ATTR_RELEASE_THRESHOLD 4
#define CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT 5

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_NOT_READY 600
#define CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED 704

#define CU_STREAM_NON_BLOCKING 0x1
#define CU_EVENT_DISABLE_TIMING 0x2
#define CU_MEM_ATTACH_GLOBAL 0x1
#define CU_MEMHOSTALLOC_PORTABLE 0x1
#define CU_MEMHOSTALLOC_DEVICEMAP 0x2

/* The legacy and per-thread default streams, as CAI and DLPack name them. */
#define CU_STREAM_LEGACY ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)

/* CUdevice_attribute */
#define CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING 41
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
#define CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY 83
#define CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED 115

/* CUpointer_attribute */
#define CU_POINTER_ATTRIBUTE_CONTEXT 1
#define CU_POINTER_ATTRIBUTE_MEMORY_TYPE 2
#define CU_POINTER_ATTRIBUTE_IS_MANAGED 8
#define CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL 9
#define CU_POINTER_ATTRIBUTE_RANGE_START_ADDR 11
#define CU_POINTER_ATTRIBUTE_RANGE_SIZE 12

/* CUmemorytype */
#define CU_MEMORYTYPE_HOST 1
#define CU_MEMORYTYPE_DEVICE 2
#define CU_MEMORYTYPE_UNIFIED 4

/* Each entry: return type, name, parameters.  The loader looks up the
 * versioned symbol names the ABI exports (the _v2 forms). */
#define UA_CUDA_DRIVER_FUNCTIONS(X)                                           \
    X(cuInit, "cuInit", (unsigned flags))                                     \
    X(cuGetErrorName, "cuGetErrorName", (CUresult e, const char **s))         \
    X(cuGetErrorString, "cuGetErrorString", (CUresult e, const char **s))     \
    X(cuDeviceGetCount, "cuDeviceGetCount", (int *n))                         \
    X(cuDeviceGet, "cuDeviceGet", (CUdevice * d, int ordinal))                \
    X(cuDeviceGetName, "cuDeviceGetName", (char *name, int len, CUdevice d))  \
    X(cuDeviceGetAttribute, "cuDeviceGetAttribute",                           \
      (int *v, int attr, CUdevice d))                                         \
    X(cuDeviceTotalMem, "cuDeviceTotalMem_v2", (size_t *n, CUdevice d))       \
    X(cuDriverGetVersion, "cuDriverGetVersion", (int *v))                     \
    X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",                   \
      (CUcontext * c, CUdevice d))                                            \
    X(cuCtxSetCurrent, "cuCtxSetCurrent", (CUcontext c))                      \
    X(cuCtxGetCurrent, "cuCtxGetCurrent", (CUcontext * c))                    \
    X(cuMemGetInfo, "cuMemGetInfo_v2", (size_t *free, size_t *total))         \
    X(cuStreamCreate, "cuStreamCreate", (CUstream * s, unsigned flags))       \
    X(cuStreamSynchronize, "cuStreamSynchronize", (CUstream s))               \
    X(cuStreamCreateWithPriority, "cuStreamCreateWithPriority",               \
      (CUstream * s, unsigned flags, int priority))                           \
    X(cuStreamDestroy, "cuStreamDestroy_v2", (CUstream s))                    \
    X(cuCtxGetStreamPriorityRange, "cuCtxGetStreamPriorityRange",             \
      (int *least, int *greatest))                                            \
    X(cuStreamWaitEvent, "cuStreamWaitEvent",                                 \
      (CUstream s, CUevent e, unsigned flags))                                \
    X(cuStreamGetCtx, "cuStreamGetCtx", (CUstream s, CUcontext * c))          \
    X(cuEventCreate, "cuEventCreate", (CUevent * e, unsigned flags))          \
    X(cuEventRecord, "cuEventRecord", (CUevent e, CUstream s))                \
    X(cuEventSynchronize, "cuEventSynchronize", (CUevent e))                  \
    X(cuEventDestroy, "cuEventDestroy_v2", (CUevent e))                       \
    X(cuMemAlloc, "cuMemAlloc_v2", (CUdeviceptr * p, size_t n))               \
    X(cuMemFree, "cuMemFree_v2", (CUdeviceptr p))                             \
    X(cuMemAllocManaged, "cuMemAllocManaged",                                 \
      (CUdeviceptr * p, size_t n, unsigned flags))                            \
    X(cuMemHostAlloc, "cuMemHostAlloc", (void **p, size_t n, unsigned flags)) \
    X(cuMemFreeHost, "cuMemFreeHost", (void *p))                              \
    X(cuMemAllocAsync, "cuMemAllocAsync",                                     \
      (CUdeviceptr * p, size_t n, CUstream s))                                \
    X(cuMemFreeAsync, "cuMemFreeAsync", (CUdeviceptr p, CUstream s))          \
    X(cuMemPoolCreate, "cuMemPoolCreate",                                     \
      (CUmemoryPool * pool, const CUmemPoolProps *props))                     \
    X(cuMemPoolSetAttribute, "cuMemPoolSetAttribute",                         \
      (CUmemoryPool pool, int attr, void *value))                             \
    X(cuMemPoolGetAttribute, "cuMemPoolGetAttribute",                         \
      (CUmemoryPool pool, int attr, void *value))                             \
    X(cuMemPoolTrimTo, "cuMemPoolTrimTo", (CUmemoryPool pool, size_t keep))   \
    X(cuMemPoolSetAccess, "cuMemPoolSetAccess",                               \
      (CUmemoryPool pool, const CUmemAccessDesc *map, size_t count))          \
    X(cuMemAllocFromPoolAsync, "cuMemAllocFromPoolAsync",                     \
      (CUdeviceptr * p, size_t n, CUmemoryPool pool, CUstream s))             \
    X(cuCtxSynchronize, "cuCtxSynchronize", (void))                           \
    X(cuMemcpyAsync, "cuMemcpyAsync",                                         \
      (CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s))               \
    X(cuMemsetD8Async, "cuMemsetD8Async",                                     \
      (CUdeviceptr dst, unsigned char v, size_t n, CUstream s))               \
    X(cuPointerGetAttributes, "cuPointerGetAttributes",                       \
      (unsigned n, int *attrs, void **data, CUdeviceptr p))                   \
    X(cuModuleLoadData, "cuModuleLoadData",                                   \
      (CUmodule * m, const void *image))                                      \
    X(cuModuleUnload, "cuModuleUnload", (CUmodule m))                         \
    X(cuModuleGetFunction, "cuModuleGetFunction",                             \
      (CUfunction * f, CUmodule m, const char *name))                         \
    X(cuLaunchKernel, "cuLaunchKernel",                                       \
      (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,      \
       unsigned by, unsigned bz, unsigned shared, CUstream s, void **params,  \
       void **extra))                                                         \
    X(cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer",                         \
      (int *can, CUdevice d, CUdevice peer))                                  \
    X(cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess",                         \
      (CUcontext peer, unsigned flags))                                       \
    X(cuMemcpyPeerAsync, "cuMemcpyPeerAsync",                                 \
      (CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src,                   \
       CUcontext src_ctx, size_t n, CUstream s))

/* The table of those entry points that the loader (cuda.c) fills. */
typedef struct {
#define UA_CUDA_DECLARE(field, symbol, params) CUresult(*field) params;
    UA_CUDA_DRIVER_FUNCTIONS(UA_CUDA_DECLARE)
#undef UA_CUDA_DECLARE
} ua_cuda_driver;

typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;

/* nvrtcGetErrorString, the one that returns no nvrtcResult, is looked up
 * apart. */
#define UA_NVRTC_FUNCTIONS(X)                                                 \
    X(nvrtcCreateProgram, "nvrtcCreateProgram",                               \
      (nvrtcProgram * p, const char *src, const char *name, int nheaders,     \
       const char *const *headers, const char *const *include_names))         \
    X(nvrtcCompileProgram, "nvrtcCompileProgram",                             \
      (nvrtcProgram p, int nopts, const char *const *opts))                   \
    X(nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize",                       \
      (nvrtcProgram p, size_t *n))                                            \
    X(nvrtcGetProgramLog, "nvrtcGetProgramLog", (nvrtcProgram p, char *log))  \
    X(nvrtcGetCUBINSize, "nvrtcGetCUBINSize", (nvrtcProgram p, size_t *n))    \
    X(nvrtcGetCUBIN, "nvrtcGetCUBIN", (nvrtcProgram p, char *cubin))          \
    X(nvrtcDestroyProgram, "nvrtcDestroyProgram", (nvrtcProgram * p))         \
    X(nvrtcVersion, "nvrtcVersion", (int *major, int *minor))

#endif /* USMARRAY_CUDA_DRIVER_H */
