/* DLPack: element types, devices and tensor validation in the core's
 * terms.  Capsules and their lifetimes are the binding's business. */
#include <stdio.h>
#include <string.h>

#include "core/devices/devices.h"
#include "core/dlpack.h"

/* DLPack's type code of each NumPy kind. */
static uint8_t
dl_code(char kind)
{
    switch (kind) {
    case 'b':
        return UA_DL_BOOL;
    case 'i':
        return UA_DL_INT;
    case 'u':
        return UA_DL_UINT;
    case 'f':
        return UA_DL_FLOAT;
    default:
        return UA_DL_COMPLEX;
    }
}

ua_dl_dtype
ua_dlpack_dtype(ua_typenum t)
{
    return (ua_dl_dtype){dl_code(ua_dtype_kind(t)),
                         (uint8_t)(8 * ua_dtype_itemsize(t)), 1};
}

/* The type of a DLPack code and width, read from the list of types. */
static bool
typenum_of_dl(uint8_t code, unsigned bits, ua_typenum *out)
{
#define MATCH(E, NUM, CODE, NAME, KIND, SIZE, ...)                            \
    if (code == dl_code(KIND) && bits == 8 * (SIZE)) {                        \
        *out = E;                                                             \
        return true;                                                          \
    }
    UA_DTYPES(MATCH)
#undef MATCH
    return false;
}

ua_status
ua_dlpack_dtype_to_typenum(ua_dl_dtype d, ua_typenum *out)
{
    if (d.lanes != 1) {
        return ua_error_set(UA_ERR_BUFFER,
                            "DLPack dtype with %u lanes is not supported; "
                            "only single-lane element types are",
                            (unsigned)d.lanes);
    }
    if (d.code == UA_DL_BFLOAT) {
        return ua_error_set(UA_ERR_BUFFER,
                            "DLPack dtype bfloat%u is not supported by "
                            "usmarray",
                            (unsigned)d.bits);
    }
    if (typenum_of_dl(d.code, d.bits, out)) {
        return UA_OK;
    }
    return ua_error_set(UA_ERR_BUFFER,
                        "DLPack dtype (code %u, %u bits) is not supported by "
                        "usmarray",
                        (unsigned)d.code, (unsigned)d.bits);
}

ua_dl_device
ua_dlpack_device(const ua_device *d, ua_usm_kind kind)
{
    return d->backend->ops->dlpack_device(d->index, kind);
}

static ua_status
unreachable_dl_device(ua_dl_device dl)
{
    char names[256];
    size_t used = 0;
    names[0] = '\0';
    for (size_t b = 0; b < ua_backend_count() && used < sizeof(names); b++) {
        const ua_backend *be = ua_backend_at(b);
        used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
                                 b ? ", " : "", be->ops->dlpack_device_names);
    }
    return ua_error_set(UA_ERR_BUFFER,
                        "DLPack device type %d is not one usmarray can "
                        "reach (it reaches %s where a backend has them)",
                        (int)dl.device_type, names);
}

ua_status
ua_dlpack_find_device(ua_dl_device dl, ua_device **out, ua_usm_kind *kind)
{
    /* ua_backend_count initializes the tables; asked once, not per step. */
    size_t n = ua_backend_count();
    for (size_t b = 0; b < n; b++) {
        ua_backend *be = ua_backend_at(b);
        int index;
        if (!be->ops->dlpack_owns(dl, &index, kind)) {
            continue;
        }
        *out = ua_backend_device(be, index);
        if (*out == NULL) {
            return ua_error_set(UA_ERR_BUFFER,
                                "DLPack device (%d, %d) has no usmarray "
                                "device: the %s backend has no such device "
                                "here",
                                (int)dl.device_type, (int)dl.device_id,
                                be->ops->name);
        }
        return UA_OK;
    }
    return unreachable_dl_device(dl);
}

static ua_status
read_layout(const ua_dl_tensor *t, ua_dlpack_view *out)
{
    if (t->ndim < 0 || t->ndim > UA_MAXDIMS) {
        return ua_error_set(UA_ERR_BUFFER,
                            "DLPack tensor has ndim %d; usmarray supports 0 "
                            "to %d",
                            (int)t->ndim, UA_MAXDIMS);
    }
    out->nd = (int)t->ndim;
    if (out->nd > 0 && t->shape == NULL) {
        return ua_error_set(UA_ERR_BUFFER,
                            "DLPack tensor of ndim %d has no shape", out->nd);
    }
    for (int k = 0; k < out->nd; k++) {
        if (t->shape[k] < 0 || t->shape[k] > PTRDIFF_MAX) {
            return ua_error_set(UA_ERR_BUFFER,
                                "DLPack tensor shape[%d] is %lld", k,
                                (long long)t->shape[k]);
        }
        out->shape[k] = (ptrdiff_t)t->shape[k];
    }
    if (t->strides == NULL) {
        ua_layout_default_strides(out->nd, out->shape, 'C', out->strides);
        return UA_OK;
    }
    for (int k = 0; k < out->nd; k++) {
        out->strides[k] = (ptrdiff_t)t->strides[k];
    }
    return UA_OK;
}

ua_status
ua_dlpack_read(const ua_dl_tensor *t, ua_dlpack_view *out)
{
    ua_status st = read_layout(t, out);
    if (st == UA_OK) {
        st = ua_dlpack_dtype_to_typenum(t->dtype, &out->type);
    }
    if (st != UA_OK) {
        return st;
    }
    if (t->byte_offset > (uint64_t)PTRDIFF_MAX ||
        (uintptr_t)t->data > UINTPTR_MAX - (uintptr_t)t->byte_offset) {
        return ua_error_set(UA_ERR_BUFFER,
                            "DLPack tensor byte_offset %llu overflows its "
                            "data pointer",
                            (unsigned long long)t->byte_offset);
    }
    out->ptr = (uintptr_t)t->data + (uintptr_t)t->byte_offset;
    st = ua_layout_byte_range(out->nd, out->shape, out->strides, 0,
                              ua_dtype_itemsize(out->type), &out->begin,
                              &out->end);
    if (st != UA_OK) {
        return ua_error_set(UA_ERR_BUFFER, "DLPack tensor: %s",
                            ua_error_message());
    }
    if (out->end > out->begin && t->data == NULL) {
        return ua_error_set(UA_ERR_BUFFER,
                            "DLPack tensor's data pointer is NULL but it has "
                            "elements");
    }
    if (out->end > out->begin &&
        (out->ptr == 0 ||
         (out->begin < 0 && out->ptr < (uintptr_t)-out->begin) ||
         (out->end > 0 && out->ptr > UINTPTR_MAX - (uintptr_t)out->end))) {
        return ua_error_set(UA_ERR_BUFFER,
                            "DLPack tensor's elements lie outside the "
                            "address space (data %p)",
                            (void *)out->ptr);
    }
    return UA_OK;
}
