/* Fuzzes the layout functions and ua_locate_region, the check every
 * protocol import ends in: whatever it accepts must stay in bounds. */
#include "fuzz_input.h"
#include "fuzz_region.h"

static const size_t itemsizes[] = {1, 2, 4, 8, 16, 3, 0};

/* The layout functions, on layouts whose size is valid, keep their
 * promises: an ordered byte range, default strides contiguous. */
static void
check_layout(int nd, const ptrdiff_t *shape, const ptrdiff_t *strides,
             ptrdiff_t offset, size_t itemsize)
{
    ptrdiff_t size, lo, hi, begin, end, like[UA_MAXDIMS];
    bool empty;
    if (ua_layout_size(nd, shape, &size) != UA_OK) {
        return;
    }
    /* Every accepted shape multiplies out, zero extents or not. */
    ptrdiff_t product = 1;
    for (int k = 0; k < nd; k++) {
        fuzz_require(!__builtin_mul_overflow(
                         product, shape[k] > 0 ? shape[k] : 1, &product),
                     "accepted shapes have a product that fits");
    }
    (void)ua_layout_contiguity(nd, shape, strides);
    ua_layout_strides_like(nd, shape, strides, like);
    double arena[2];
    ua_strided a = {(char *)arena, strides, UA_FLOAT64};
    ua_strided b = {(char *)arena, like, UA_FLOAT64};
    (void)ua_copy_overlaps(nd, shape, &a, &b);
    if (ua_layout_displacements(nd, shape, strides, &lo, &hi, &empty) ==
        UA_OK) {
        fuzz_require(lo <= hi, "displacements are ordered");
    }
    if (ua_layout_byte_range(nd, shape, strides, offset, itemsize, &begin,
                             &end) == UA_OK) {
        fuzz_require(begin <= end, "byte ranges are ordered");
    }
    ptrdiff_t flat[1] = {size}, flat_strides[1];
    (void)ua_layout_reshape(nd, shape, strides, 1, flat, 'C', flat_strides);
    ptrdiff_t c_strides[UA_MAXDIMS];
    ua_layout_default_strides(nd, shape, 'C', c_strides);
    if (ua_layout_byte_range(nd, shape, c_strides, 0, 1, &begin, &end) ==
        UA_OK) {
        fuzz_require(ua_layout_contiguity(nd, shape, c_strides) &
                         UA_LAYOUT_C_CONTIGUOUS,
                     "default strides are C-contiguous");
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    uint8_t first = fuzz_byte(&in);
    int nd = first == 255 ? UA_MAXDIMS + 1 : (int)(first % 10) - 1;
    size_t itemsize = itemsizes[fuzz_byte(&in) % 7];
    ptrdiff_t offset = (ptrdiff_t)fuzz_int(&in);
    uintptr_t ptr = fuzz_arena() + (uintptr_t)fuzz_int(&in);
    ptrdiff_t shape[UA_MAXDIMS + 1] = {0}, strides[UA_MAXDIMS + 1] = {0};
    for (int k = 0; k < nd; k++) {
        shape[k] = (ptrdiff_t)fuzz_int(&in);
        strides[k] = (ptrdiff_t)fuzz_int(&in);
    }
    if (nd >= 0 && nd <= UA_MAXDIMS) {
        check_layout(nd, shape, strides, offset, itemsize);
    }
    ua_pointer_info alloc;
    ptrdiff_t begin, end;
    if (ua_locate_region(ptr, nd, shape, strides, offset, itemsize, &alloc,
                         &begin, &end) == UA_OK) {
        fuzz_walk_elements(ptr, nd, shape, strides, offset, itemsize, &alloc);
    }
    return 0;
}
