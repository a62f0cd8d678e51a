/* Fuzzes ua_dlpack_read on tensors built from the input, then
 * ua_locate_region as the import does: an accepted tensor stays in bounds.
 * Shape and strides are allocated to their exact length, so that a read
 * past ndim is an ASan report. */
#include "fuzz_input.h"
#include "fuzz_region.h"
#include "core/dlpack.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    uint8_t flags = fuzz_byte(&in);
    ua_dl_tensor t = {0};
    t.ndim = (int8_t)fuzz_byte(&in);
    t.dtype.code = fuzz_byte(&in) % 8;
    t.dtype.bits = fuzz_byte(&in);
    t.dtype.lanes = (flags & 4) ? (uint16_t)fuzz_bytes(&in, 2) : 1;
    t.device.device_type = (int32_t)fuzz_int(&in);
    t.device.device_id = (int32_t)fuzz_int(&in);
    t.byte_offset = (uint64_t)fuzz_int(&in);
    int64_t at = fuzz_int(&in);
    t.data = (flags & 1) ? NULL : (void *)(fuzz_arena() + (uintptr_t)at);
    size_t n = t.ndim > 0 ? (size_t)t.ndim : 0;
    int64_t *shape = malloc((n ? n : 1) * sizeof(int64_t));
    int64_t *strides = malloc((n ? n : 1) * sizeof(int64_t));
    for (size_t k = 0; k < n; k++) {
        shape[k] = fuzz_int(&in);
        strides[k] = fuzz_int(&in);
    }
    t.shape = (flags & 8) ? NULL : shape;
    t.strides = (flags & 2) ? NULL : strides;

    ua_device *dev;
    ua_usm_kind kind;
    (void)ua_dlpack_find_device(t.device, &dev, &kind);

    ua_dlpack_view v;
    if (ua_dlpack_read(&t, &v) == UA_OK) {
        size_t itemsize = ua_dtype_itemsize(v.type);
        fuzz_require(v.begin <= v.end, "the bytes reached are ordered");
        ua_pointer_info alloc;
        ptrdiff_t begin, end;
        if (ua_locate_region(v.ptr, v.nd, v.shape, v.strides, 0, itemsize,
                             &alloc, &begin, &end) == UA_OK) {
            fuzz_require(begin == v.begin && end == v.end,
                         "both checks agree on the bytes reached");
            fuzz_walk_elements(v.ptr, v.nd, v.shape, v.strides, 0, itemsize,
                               &alloc);
        }
    }
    free(shape);
    free(strides);
    return 0;
}
