/* The few declarations of dpctl's C interface (libDPCTLSyclInterface) that
 * the SYCL backend uses, written from its documented ABI so that the build
 * needs neither dpctl nor a SYCL compiler: the library is loaded with
 * dlopen at first use.  Handles are pointers to SYCL objects (a
 * DPCTLSyclQueueRef is a sycl::queue *), which is also what the
 * "SyclQueueRef" and "SyclContextRef" capsules of dpctl hold. */
#ifndef USMARRAY_SYCL_DPCTL_H
#define USMARRAY_SYCL_DPCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct DPCTLOpaqueSyclContext *DPCTLSyclContextRef;
typedef struct DPCTLOpaqueSyclDevice *DPCTLSyclDeviceRef;
typedef struct DPCTLOpaqueSyclDeviceSelector *DPCTLSyclDeviceSelectorRef;
typedef struct DPCTLOpaqueSyclEvent *DPCTLSyclEventRef;
typedef struct DPCTLOpaqueSyclKernel *DPCTLSyclKernelRef;
typedef struct DPCTLOpaqueSyclKernelBundle *DPCTLSyclKernelBundleRef;
typedef struct DPCTLOpaqueSyclPlatform *DPCTLSyclPlatformRef;
typedef struct DPCTLOpaqueSyclQueue *DPCTLSyclQueueRef;
typedef struct DPCTLOpaqueDeviceVector *DPCTLDeviceVectorRef;
typedef void DPCTL_error_handler(int err_code);

/* DPCTLSyclUSMType */
#define DPCTL_USM_UNKNOWN 0
#define DPCTL_USM_DEVICE 1
#define DPCTL_USM_SHARED 2
#define DPCTL_USM_HOST 3

/* DPCTLSyclBackendType and DPCTLSyclDeviceType: bit flags, combinable. */
#define DPCTL_CUDA (1 << 16)
#define DPCTL_LEVEL_ZERO (1 << 17)
#define DPCTL_OPENCL (1 << 18)
#define DPCTL_HIP (1 << 19)
#define DPCTL_ALL_BACKENDS (((1 << 5) - 1) << 16)
#define DPCTL_ACCELERATOR (1 << 0)
#define DPCTL_CPU (1 << 2)
#define DPCTL_GPU (1 << 4)
#define DPCTL_ALL ((1 << 6) - 1)

/* DPCTLKernelArgType */
#define DPCTL_INT32_T 4
#define DPCTL_INT64_T 6
#define DPCTL_VOID_PTR 10

/* DPCTLQueuePropertyType */
#define DPCTL_IN_ORDER (1 << 1)

/* DPCTLSyclAspectType */
#define DPCTL_ASPECT_FP16 5
#define DPCTL_ASPECT_FP64 6
#define DPCTL_ASPECT_USM_DEVICE_ALLOCATIONS 12
#define DPCTL_ASPECT_USM_HOST_ALLOCATIONS 13
#define DPCTL_ASPECT_USM_SHARED_ALLOCATIONS 14

/* Each entry: field, symbol, return type, parameters. */
#define UA_DPCTL_FUNCTIONS(X)                                                 \
    X(DeviceMgr_GetDevices, "DPCTLDeviceMgr_GetDevices",                      \
      DPCTLDeviceVectorRef, (int identifier))                                 \
    X(DeviceMgr_GetCachedContext, "DPCTLDeviceMgr_GetCachedContext",          \
      DPCTLSyclContextRef, (DPCTLSyclDeviceRef d))                            \
    X(DeviceVector_Size, "DPCTLDeviceVector_Size", size_t,                    \
      (DPCTLDeviceVectorRef v))                                               \
    X(DeviceVector_GetAt, "DPCTLDeviceVector_GetAt", DPCTLSyclDeviceRef,      \
      (DPCTLDeviceVectorRef v, size_t i))                                     \
    X(DeviceVector_Delete, "DPCTLDeviceVector_Delete", void,                  \
      (DPCTLDeviceVectorRef v))                                               \
    X(Device_Delete, "DPCTLDevice_Delete", void, (DPCTLSyclDeviceRef d))      \
    X(Device_AreEq, "DPCTLDevice_AreEq", bool,                                \
      (DPCTLSyclDeviceRef a, DPCTLSyclDeviceRef b))                           \
    X(Device_GetName, "DPCTLDevice_GetName", const char *,                    \
      (DPCTLSyclDeviceRef d))                                                 \
    X(Device_GetDeviceType, "DPCTLDevice_GetDeviceType", int,                 \
      (DPCTLSyclDeviceRef d))                                                 \
    X(Device_GetBackend, "DPCTLDevice_GetBackend", int,                       \
      (DPCTLSyclDeviceRef d))                                                 \
    X(Device_HasAspect, "DPCTLDevice_HasAspect", bool,                        \
      (DPCTLSyclDeviceRef d, int aspect))                                     \
    X(Device_GetVendor, "DPCTLDevice_GetVendor", const char *,                \
      (DPCTLSyclDeviceRef d))                                                 \
    X(Device_GetDriverVersion, "DPCTLDevice_GetDriverVersion", const char *,  \
      (DPCTLSyclDeviceRef d))                                                 \
    X(Device_GetMaxComputeUnits, "DPCTLDevice_GetMaxComputeUnits", uint32_t,  \
      (DPCTLSyclDeviceRef d))                                                 \
    X(Device_GetGlobalMemSize, "DPCTLDevice_GetGlobalMemSize", uint64_t,      \
      (DPCTLSyclDeviceRef d))                                                 \
    X(Device_GetPlatform, "DPCTLDevice_GetPlatform", DPCTLSyclPlatformRef,    \
      (DPCTLSyclDeviceRef d))                                                 \
    X(Platform_GetVersion, "DPCTLPlatform_GetVersion", const char *,          \
      (DPCTLSyclPlatformRef p))                                               \
    X(Platform_Delete, "DPCTLPlatform_Delete", void,                          \
      (DPCTLSyclPlatformRef p))                                               \
    X(Device_CreateFromSelector, "DPCTLDevice_CreateFromSelector",            \
      DPCTLSyclDeviceRef, (DPCTLSyclDeviceSelectorRef s))                     \
    X(FilterSelector_Create, "DPCTLFilterSelector_Create",                    \
      DPCTLSyclDeviceSelectorRef, (const char *filter))                       \
    X(DeviceSelector_Delete, "DPCTLDeviceSelector_Delete", void,              \
      (DPCTLSyclDeviceSelectorRef s))                                         \
    X(CString_Delete, "DPCTLCString_Delete", void, (const char *s))           \
    X(Context_AreEq, "DPCTLContext_AreEq", bool,                              \
      (DPCTLSyclContextRef a, DPCTLSyclContextRef b))                         \
    X(Context_Copy, "DPCTLContext_Copy", DPCTLSyclContextRef,                 \
      (DPCTLSyclContextRef c))                                                \
    X(Context_Delete, "DPCTLContext_Delete", void, (DPCTLSyclContextRef c))   \
    X(Context_GetDevices, "DPCTLContext_GetDevices", DPCTLDeviceVectorRef,    \
      (DPCTLSyclContextRef c))                                                \
    X(Queue_Create, "DPCTLQueue_Create", DPCTLSyclQueueRef,                   \
      (DPCTLSyclContextRef c, DPCTLSyclDeviceRef d, DPCTL_error_handler * h,  \
       int properties))                                                       \
    X(Queue_Copy, "DPCTLQueue_Copy", DPCTLSyclQueueRef,                       \
      (DPCTLSyclQueueRef q))                                                  \
    X(Queue_Delete, "DPCTLQueue_Delete", void, (DPCTLSyclQueueRef q))         \
    X(Queue_AreEq, "DPCTLQueue_AreEq", bool,                                  \
      (DPCTLSyclQueueRef a, DPCTLSyclQueueRef b))                             \
    X(Queue_IsInOrder, "DPCTLQueue_IsInOrder", bool, (DPCTLSyclQueueRef q))   \
    X(Queue_GetContext, "DPCTLQueue_GetContext", DPCTLSyclContextRef,         \
      (DPCTLSyclQueueRef q))                                                  \
    X(Queue_GetDevice, "DPCTLQueue_GetDevice", DPCTLSyclDeviceRef,            \
      (DPCTLSyclQueueRef q))                                                  \
    X(Queue_Wait, "DPCTLQueue_Wait", void, (DPCTLSyclQueueRef q))             \
    X(Queue_Memcpy, "DPCTLQueue_Memcpy", DPCTLSyclEventRef,                   \
      (DPCTLSyclQueueRef q, void *dst, const void *src, size_t n))            \
    X(Queue_Memset, "DPCTLQueue_Memset", DPCTLSyclEventRef,                   \
      (DPCTLSyclQueueRef q, void *dst, uint8_t value, size_t n))              \
    X(Queue_SubmitBarrier, "DPCTLQueue_SubmitBarrier", DPCTLSyclEventRef,     \
      (DPCTLSyclQueueRef q))                                                  \
    X(Queue_SubmitBarrierForEvents, "DPCTLQueue_SubmitBarrierForEvents",      \
      DPCTLSyclEventRef,                                                      \
      (DPCTLSyclQueueRef q, const DPCTLSyclEventRef *deps, size_t ndeps))     \
    X(Queue_SubmitRange, "DPCTLQueue_SubmitRange", DPCTLSyclEventRef,         \
      (DPCTLSyclKernelRef k, DPCTLSyclQueueRef q, void **args,                \
       const int *types, size_t nargs, const size_t range[3], size_t nrange,  \
       const DPCTLSyclEventRef *deps, size_t ndeps))                          \
    X(Queue_SubmitNDRange, "DPCTLQueue_SubmitNDRange", DPCTLSyclEventRef,     \
      (DPCTLSyclKernelRef k, DPCTLSyclQueueRef q, void **args,                \
       const int *types, size_t nargs, const size_t global[3],                \
       const size_t local[3], size_t ndims, const DPCTLSyclEventRef *deps,    \
       size_t ndeps))                                                         \
    X(Event_Wait, "DPCTLEvent_Wait", void, (DPCTLSyclEventRef e))             \
    X(Event_Delete, "DPCTLEvent_Delete", void, (DPCTLSyclEventRef e))         \
    X(malloc_device, "DPCTLmalloc_device", void *,                            \
      (size_t n, DPCTLSyclQueueRef q))                                        \
    X(malloc_shared, "DPCTLmalloc_shared", void *,                            \
      (size_t n, DPCTLSyclQueueRef q))                                        \
    X(malloc_host, "DPCTLmalloc_host", void *,                                \
      (size_t n, DPCTLSyclQueueRef q))                                        \
    X(aligned_alloc_device, "DPCTLaligned_alloc_device", void *,              \
      (size_t alignment, size_t n, DPCTLSyclQueueRef q))                      \
    X(aligned_alloc_shared, "DPCTLaligned_alloc_shared", void *,              \
      (size_t alignment, size_t n, DPCTLSyclQueueRef q))                      \
    X(aligned_alloc_host, "DPCTLaligned_alloc_host", void *,                  \
      (size_t alignment, size_t n, DPCTLSyclQueueRef q))                      \
    X(free_with_context, "DPCTLfree_with_context", void,                      \
      (void *p, DPCTLSyclContextRef c))                                       \
    X(USM_GetPointerType, "DPCTLUSM_GetPointerType", int,                     \
      (const void *p, DPCTLSyclContextRef c))                                 \
    X(USM_GetPointerDevice, "DPCTLUSM_GetPointerDevice", DPCTLSyclDeviceRef,  \
      (const void *p, DPCTLSyclContextRef c))                                 \
    X(KernelBundle_CreateFromOCLSource,                                       \
      "DPCTLKernelBundle_CreateFromOCLSource", DPCTLSyclKernelBundleRef,      \
      (DPCTLSyclContextRef c, DPCTLSyclDeviceRef d, const char *source,       \
       const char *options))                                                  \
    X(KernelBundle_GetKernel, "DPCTLKernelBundle_GetKernel",                  \
      DPCTLSyclKernelRef, (DPCTLSyclKernelBundleRef b, const char *name))     \
    X(KernelBundle_Delete, "DPCTLKernelBundle_Delete", void,                  \
      (DPCTLSyclKernelBundleRef b))

#endif /* USMARRAY_SYCL_DPCTL_H */
