/* The CUDA driver and NVRTC, loaded with dlopen at first use (cuda_driver.h
 * declares what is used), and what every file of the backend calls on
 * them: failures worded, a context made current, pointers queried.  The
 * backend's table of operations is cuda.c's. */
#include <dlfcn.h>
#include <stdio.h>

#include "backends/cuda/cuda_backend.h"

ua_cuda_driver ua_cu;
ua_cuda_nvrtc ua_nvrtc;

ua_status
ua_cuda_failed(CUresult r, const char *what)
{
    const char *name = "?", *text = "";
    if (ua_cu.cuGetErrorName != NULL) {
        ua_cu.cuGetErrorName(r, &name);
        ua_cu.cuGetErrorString(r, &text);
    }
    return ua_error_set(
        r == CUDA_ERROR_OUT_OF_MEMORY ? UA_ERR_ALLOC : UA_ERR_RUNTIME,
        "CUDA %s failed: %s (%s)", what, name ? name : "?", text ? text : "");
}

static void *
open_first(const char *const *names)
{
    for (; *names != NULL; names++) {
        void *h = dlopen(*names, RTLD_NOW | RTLD_LOCAL);
        if (h != NULL) {
            return h;
        }
    }
    return NULL;
}

ua_status
ua_cuda_load_driver(void)
{
    static const char *const names[] = {"libcuda.so.1", "libcuda.so", NULL};
    void *h = open_first(names);
    if (h == NULL) {
        return ua_error_set(UA_ERR_UNAVAILABLE,
                            "no CUDA driver: libcuda.so.1 could not be "
                            "loaded (%s)",
                            dlerror());
    }
#define LOOKUP(field, symbol, params)                                         \
    if ((*(void **)&ua_cu.field = dlsym(h, symbol)) == NULL) {                \
        return ua_error_set(UA_ERR_UNAVAILABLE,                               \
                            "the CUDA driver lacks %s: it is too old",        \
                            symbol);                                          \
    }
    UA_CUDA_DRIVER_FUNCTIONS(LOOKUP)
#undef LOOKUP
    return UA_OK;
}

/* NVRTC is needed for strided copies only: without it the rest works. */
void
ua_cuda_load_nvrtc(void)
{
    static const char *const names[] = {"libnvrtc.so", "libnvrtc.so.13",
                                        "libnvrtc.so.12", NULL};
    void *h = open_first(names);
    if (h == NULL) {
        snprintf(ua_nvrtc.reason, sizeof(ua_nvrtc.reason),
                 "NVRTC (libnvrtc.so) could not be loaded");
        return;
    }
#define LOOKUP(field, symbol, params)                                         \
    if ((*(void **)&ua_nvrtc.field = dlsym(h, symbol)) == NULL) {             \
        snprintf(ua_nvrtc.reason, sizeof(ua_nvrtc.reason), "NVRTC lacks %s",  \
                 symbol);                                                     \
        return;                                                               \
    }
    UA_NVRTC_FUNCTIONS(LOOKUP)
    LOOKUP(nvrtcGetErrorString, "nvrtcGetErrorString", ())
#undef LOOKUP
    ua_nvrtc.loaded = true;
}

ua_status
ua_cuda_bind(const ua_cuda_context *c)
{
    CUcontext cur = NULL;
    if (ua_cu.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == c->ctx) {
        return UA_OK;
    }
    CU_CHECK(ua_cu.cuCtxSetCurrent(c->ctx), "cuCtxSetCurrent");
    return UA_OK;
}

bool
ua_cuda_query_pointer(const void *ptr, ua_cuda_pointer *out)
{
    int attrs[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                   CU_POINTER_ATTRIBUTE_IS_MANAGED,
                   CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                   CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                   CU_POINTER_ATTRIBUTE_RANGE_SIZE};
    unsigned memory_type = 0;
    int is_managed = 0, ordinal = -1;
    CUdeviceptr start = 0;
    size_t size = 0;
    void *data[] = {&memory_type, &is_managed, &ordinal, &start, &size};
    CUresult r = ua_cu.cuPointerGetAttributes(5, attrs, data,
                                              (CUdeviceptr)(uintptr_t)ptr);
    if (r != CUDA_SUCCESS || memory_type == 0) {
        return false;
    }
    *out = (ua_cuda_pointer){(int)memory_type, is_managed, ordinal,
                             (uintptr_t)start, size};
    return true;
}
