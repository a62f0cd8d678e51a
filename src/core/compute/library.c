/* The binding's way to the platform's libraries: checks of the plans that
 * every backend would otherwise repeat, then the queue's table. */
#include <stdatomic.h>

#include "core/backend.h"
#include "core/compute/library.h"
#include "core/devices/devices.h"

static _Atomic(ua_host_fft_fn) host_fft;

void
ua_set_host_fft(ua_host_fft_fn fn)
{
    atomic_store(&host_fft, fn);
}

ua_host_fft_fn
ua_host_fft(void)
{
    return atomic_load(&host_fft);
}

static bool
is_inexact(ua_typenum t)
{
    return t == UA_FLOAT32 || t == UA_FLOAT64 || t == UA_COMPLEX64 ||
           t == UA_COMPLEX128;
}

ua_status
ua_queue_solver(ua_queue *q, const ua_solver_plan *p)
{
    if (!is_inexact(p->type)) {
        return ua_error_set(UA_ERR_VALUE,
                            "a factorization needs float32, float64, "
                            "complex64 or complex128 elements");
    }
    if (p->batch == 0 || p->m <= 0 || p->n <= 0 ||
        (p->op == UA_SOLVER_SOLVE && p->nrhs <= 0)) {
        return UA_OK;
    }
    const ua_compute_ops *k = NULL;
    ua_status st = ua_queue_library_kernels(q, &k);
    return st != UA_OK ? st : k->solver(q->handle, p);
}

bool
ua_queue_solver_takes(const ua_queue *q, ua_solver_op op)
{
    if (op != UA_SOLVER_DET && op != UA_SOLVER_SLOGDET) {
        return true;
    }
    /* ua_queue_library_kernels's choice: the CPU backend's table for a
     * CPU device (the host backend is in every build), else the queue's
     * own */
    return q->context->device->type == UA_DEVICE_CPU ||
           ua_compute_on_cpu(ua_queue_kernels(q));
}

ua_status
ua_queue_fft(ua_queue *q, const ua_fft_plan *p)
{
    if (p->type != UA_COMPLEX64 && p->type != UA_COMPLEX128) {
        return ua_error_set(UA_ERR_VALUE, "an FFT's complex side must be "
                                          "complex64 or complex128");
    }
    if (p->rank < 1 || p->rank > 3) {
        return ua_error_set(UA_ERR_VALUE,
                            "an FFT plan transforms 1 to 3 axes, not %d",
                            p->rank);
    }
    for (int i = 0; i < p->rank; i++) {
        if (p->n[i] <= 0) {
            return UA_OK;
        }
    }
    if (p->batch == 0) {
        return UA_OK;
    }
    const ua_compute_ops *k = NULL;
    ua_status st = ua_queue_library_kernels(q, &k);
    return st != UA_OK ? st : k->fft(q->handle, p);
}
