/* The DLPack 1.x C ABI as usmarray reads and writes it, declared under the
 * library's own names so that this header can sit beside the official
 * dlpack.h in one translation unit.  Layouts, values and capsule names are
 * those of the DLPack specification; the core's helpers convert between
 * them and the core's dtypes, devices and layouts.  No Python here. */
#ifndef USMARRAY_DLPACK_H
#define USMARRAY_DLPACK_H

#include <stdint.h>

#include "core/core.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UA_DLPACK_MAJOR 1
#define UA_DLPACK_MINOR 0

/* Capsule names: a consumer renames a capsule to the used_ form when it
 * takes ownership of the tensor. */
#define UA_DLPACK_CAPSULE "dltensor"
#define UA_DLPACK_CAPSULE_USED "used_dltensor"
#define UA_DLPACK_VERSIONED_CAPSULE "dltensor_versioned"
#define UA_DLPACK_VERSIONED_CAPSULE_USED "used_dltensor_versioned"

/* DLDeviceType values. */
enum {
    UA_DL_CPU = 1,
    UA_DL_CUDA = 2,
    UA_DL_CUDA_HOST = 3,
    UA_DL_OPENCL = 4,
    UA_DL_VULKAN = 7,
    UA_DL_METAL = 8,
    UA_DL_VPI = 9,
    UA_DL_ROCM = 10,
    UA_DL_ROCM_HOST = 11,
    UA_DL_EXT_DEV = 12,
    UA_DL_CUDA_MANAGED = 13,
    UA_DL_ONEAPI = 14,
};

/* DLDataTypeCode values. */
enum {
    UA_DL_INT = 0,
    UA_DL_UINT = 1,
    UA_DL_FLOAT = 2,
    UA_DL_OPAQUE_HANDLE = 3,
    UA_DL_BFLOAT = 4,
    UA_DL_COMPLEX = 5,
    UA_DL_BOOL = 6,
};

/* Flags of a versioned tensor. */
#define UA_DL_FLAG_READ_ONLY ((uint64_t)1 << 0)
#define UA_DL_FLAG_IS_COPIED ((uint64_t)1 << 1)
#define UA_DL_FLAG_SUBBYTE_PADDED ((uint64_t)1 << 2)

typedef struct {
    uint32_t major;
    uint32_t minor;
} ua_dl_version;

typedef struct {
    int32_t device_type;
    int32_t device_id;
} ua_dl_device;

typedef struct {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
} ua_dl_dtype;

typedef struct {
    void *data;
    ua_dl_device device;
    int32_t ndim;
    ua_dl_dtype dtype;
    int64_t *shape;
    int64_t *strides; /* elements; NULL means C-contiguous (legacy only) */
    uint64_t byte_offset;
} ua_dl_tensor;

/* DLManagedTensor: the legacy, unversioned form. */
typedef struct ua_dl_managed {
    ua_dl_tensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct ua_dl_managed *self);
} ua_dl_managed;

/* DLManagedTensorVersioned. */
typedef struct ua_dl_managed_versioned {
    ua_dl_version version;
    void *manager_ctx;
    void (*deleter)(struct ua_dl_managed_versioned *self);
    uint64_t flags;
    ua_dl_tensor dl_tensor;
} ua_dl_managed_versioned;

/* The DLPack element type of a dtype. */
ua_dl_dtype ua_dlpack_dtype(ua_typenum t);
/* The dtype of a DLPack element type; UA_ERR_TYPE names an unsupported one
 * (bfloat16, several lanes, other widths). */
ua_status ua_dlpack_dtype_to_typenum(ua_dl_dtype d, ua_typenum *out);

/* The DLPack device of memory of `kind` on device d. */
ua_dl_device ua_dlpack_device(const ua_device *d, ua_usm_kind kind);
/* The device that holds memory a DLPack device names and the USM kind that
 * memory has there; UA_ERR_VALUE names a device no backend reaches. */
ua_status ua_dlpack_find_device(ua_dl_device dl, ua_device **out,
                                ua_usm_kind *kind);

/* A DLPack tensor read into the core's terms.  ptr is the zero-index
 * element (data + byte_offset); strides are filled in for NULL. */
typedef struct {
    int nd;
    ptrdiff_t shape[UA_MAXDIMS];
    ptrdiff_t strides[UA_MAXDIMS];
    ua_typenum type;
    uintptr_t ptr;
    ptrdiff_t begin, end; /* bytes reached, relative to ptr */
} ua_dlpack_view;

/* Checks a tensor's ndim, shape, strides, dtype and pointer, and computes
 * the bytes it reaches; UA_ERR_VALUE or UA_ERR_TYPE say what is wrong. */
ua_status ua_dlpack_read(const ua_dl_tensor *t, ua_dlpack_view *out);

#ifdef __cplusplus
}
#endif
#endif
