/* Copies between memory of two devices whose queues cannot reach each
 * other's: device memory of two backends (CUDA and SYCL), or of two
 * devices of a backend that runs no copies between them.  Host memory is
 * what both reach, so the copy is relayed through a host buffer: the
 * source's device copies into it, in the source's type, and the
 * destination's device copies from it, casting and scattering.  Neither
 * side's events mean anything to the other, so each leg is finished by a
 * host wait before the next starts or the buffer is given back.
 *
 * The buffer is USM host memory of the source's context: pinned where the
 * backend's host memory is, so that at least that leg needs no staging of
 * its own; the other backend sees memory it does not know and copies it as
 * pageable host memory.  Memory of two devices never overlaps. */
#include "core/backend.h"
#include "core/devices/devices.h"
#include "core/layout/relay.h"

typedef struct {
    ua_queue *from;        /* the default queue of the source's device */
    ua_queue *to;          /* the default queue of the destination's */
    ua_allocation *buffer; /* host memory of from's context */
} relay;

static const ua_backend_ops *
ops_of(const ua_queue *q)
{
    return q->context->device->backend->ops;
}

/* The default queue of the device that holds ptr; q for memory no device
 * claims (which every queue reaches). */
static ua_status
owner_queue(ua_queue *q, const void *ptr, ua_queue **out)
{
    ua_pointer_info info;
    ua_context *c;
    *out = q;
    if (!ua_pointer_query((uintptr_t)ptr, &info) || info.device == NULL) {
        return UA_OK;
    }
    ua_status st = ua_device_default_context(info.device, &c);
    return st == UA_OK ? ua_context_default_queue(c, out) : st;
}

/* Work enqueued on `later` from now on runs after what `earlier` has
 * enqueued: by an event within a backend, else by a host wait. */
static ua_status
follow(ua_queue *later, ua_queue *earlier)
{
    if (later == earlier) {
        return UA_OK;
    }
    if (later->context->device->backend == earlier->context->device->backend) {
        return ua_queues_order(earlier, later);
    }
    return ua_queue_wait(earlier);
}

/* Finds both devices' queues, takes the buffer and orders the first leg
 * after the work enqueued on q, the queue the copy was issued on. */
static ua_status
relay_open(relay *r, ua_queue *q, const void *dst, const void *src,
           size_t nbytes)
{
    r->buffer = NULL;
    ua_status st = owner_queue(q, src, &r->from);
    if (st == UA_OK) {
        st = owner_queue(q, dst, &r->to);
    }
    if (st != UA_OK) {
        return st;
    }
    st = ua_usm_alloc(r->from, UA_USM_HOST, nbytes, 0, &r->buffer);
    if (st != UA_OK) {
        r->buffer = NULL;
        return ua_error_set(st,
                            "cannot copy %zu bytes from %s to %s: their "
                            "queues reach no memory of each other, and the "
                            "host buffer to copy through could not be "
                            "allocated: %s",
                            nbytes, r->from->context->device->filter,
                            r->to->context->device->filter,
                            ua_error_message());
    }
    return follow(r->from, q);
}

/* Waits for a leg: the other side cannot wait for it by an event, and
 * q's waits, after the last, must find the copy done. */
static ua_status
finish_leg(ua_queue *leg, ua_status st)
{
    ua_status done = ua_queue_wait(leg);
    return st != UA_OK ? st : done;
}

/* Gives the buffer back once neither leg can still use it. */
static ua_status
relay_close(relay *r, ua_status st)
{
    if (r->buffer != NULL) {
        if (st != UA_OK) {
            /* A failed leg may have left work behind that touches it. */
            ua_queue_wait(r->from);
            ua_queue_wait(r->to);
        }
        ua_usm_free(r->buffer);
    }
    return st;
}

ua_status
ua_relay_memcpy(ua_queue *q, void *dst, const void *src, size_t n)
{
    relay r;
    ua_status st = relay_open(&r, q, dst, src, n);
    void *buffer = r.buffer != NULL ? ua_allocation_ptr(r.buffer) : NULL;
    if (st == UA_OK) {
        st = finish_leg(
            r.from, ops_of(r.from)->memcpy(r.from->handle, buffer, src, n));
    }
    if (st == UA_OK) {
        st = finish_leg(r.to,
                        ops_of(r.to)->memcpy(r.to->handle, dst, buffer, n));
    }
    return relay_close(&r, st);
}

/* The buffer's layout: C order over the source's elements, an axis the
 * source broadcasts (stride 0) held once; returns its elements.
 * packed_shape is the shape the first leg copies. */
static size_t
packed_layout(int nd, const ptrdiff_t *shape, const ua_strided *src,
              ptrdiff_t *packed_shape, ptrdiff_t *packed_strides)
{
    size_t n = 1;
    for (int k = nd - 1; k >= 0; k--) {
        bool once = src->strides[k] == 0;
        packed_shape[k] = once ? 1 : shape[k];
        packed_strides[k] = once ? 0 : (ptrdiff_t)n;
        n *= (size_t)packed_shape[k];
    }
    return n;
}

static bool
empty_shape(int nd, const ptrdiff_t *shape)
{
    for (int k = 0; k < nd; k++) {
        if (shape[k] == 0) {
            return true;
        }
    }
    return false;
}

ua_status
ua_relay_copy_strided(ua_queue *q, int nd, const ptrdiff_t *shape,
                      const ua_strided *dst, const ua_strided *src)
{
    ua_status fits = ua_layout_check_ndim("copy", nd);
    if (fits != UA_OK) {
        return fits;
    }
    if (!ua_typenum_is_valid((int)dst->type) ||
        !ua_typenum_is_valid((int)src->type)) {
        return ua_error_set(UA_ERR_TYPE, "a copy between unsupported types");
    }
    if (empty_shape(nd, shape)) {
        return UA_OK;
    }
    ptrdiff_t packed_shape[UA_MAXDIMS], packed_strides[UA_MAXDIMS];
    size_t n = packed_layout(nd, shape, src, packed_shape, packed_strides);
    relay r;
    ua_status st = relay_open(&r, q, dst->data, src->data,
                              n * ua_dtype_itemsize(src->type));
    ua_strided packed = {r.buffer != NULL ? ua_allocation_ptr(r.buffer) : NULL,
                         packed_strides, src->type};
    if (st == UA_OK) {
        st = finish_leg(r.from, ops_of(r.from)->copy_strided(r.from->handle,
                                                             nd, packed_shape,
                                                             &packed, src));
    }
    if (st == UA_OK) {
        st = finish_leg(r.to, ops_of(r.to)->copy_strided(r.to->handle, nd,
                                                         shape, dst, &packed));
    }
    return relay_close(&r, st);
}
