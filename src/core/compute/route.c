/* Which compute-kernel table runs a queue's work (compute/kernels.h). */
#include <stdlib.h>

#include "core/backend.h"
#include "core/compute/kernels.h"
#include "core/devices/devices.h"

const ua_compute_ops *
ua_queue_kernels(const ua_queue *q)
{
    return q->context->device->backend->ops->compute;
}

/* The kernels of the backend whose memory is plain CPU memory and whose
 * work is done on return: loops on the calling thread's side. */
static const ua_compute_ops *
cpu_kernels(void)
{
    const unsigned want = UA_CAP_CPU_MEMORY | UA_CAP_WORK_DONE_ON_RETURN;
    size_t count = 0;
    const ua_backend_ops *const *list = ua_backends_of_build(&count);
    for (size_t i = 0; i < count; i++) {
        if ((list[i]->caps & want) == want) {
            return list[i]->compute;
        }
    }
    return NULL;
}

/* A CPU device of another backend (SYCL's OpenCL CPU device) keeps its
 * USM in this process's memory, which the CPU backend's kernels read as
 * they are: its reductions, sorts and products (OpenBLAS's among them)
 * outrun what the device's runtime builds of the core's GPU kernels many
 * times over (a product at a fortieth of BLAS's speed), and its
 * elementwise loops, gathers and copies need no compile, where the
 * device's runtime compiles OpenCL C in every new process, program by
 * program.  They run once the queue's earlier work is done, and are
 * done on return.
 * USMARRAY_DEVICE_KERNELS=1 keeps the device's own kernels: the GPU
 * kernel text then runs on a CPU device too, which is how the tests reach
 * it on a machine without a GPU. */
static const ua_compute_ops *
device_compute_table(const ua_device *d)
{
    const ua_compute_ops *host = cpu_kernels(),
                         *own = d->backend->ops->compute;
    if (d->type != UA_DEVICE_CPU || host == NULL || host == own) {
        return own;
    }
    const char *keep = getenv("USMARRAY_DEVICE_KERNELS");
    return keep != NULL && keep[0] != '\0' && keep[0] != '0' ? own : host;
}

const ua_compute_ops *
ua_queue_compute_table(const ua_queue *q)
{
    return device_compute_table(q->context->device);
}

bool
ua_device_runs_host_loops(const ua_device *d)
{
    return ua_compute_on_cpu(device_compute_table(d));
}

ua_status
ua_queue_compute_kernels(ua_queue *q, const ua_compute_ops **ops)
{
    *ops = ua_queue_compute_table(q);
    return *ops == ua_queue_kernels(q) ? UA_OK : ua_queue_wait(q);
}

bool
ua_compute_on_cpu(const ua_compute_ops *ops)
{
    return ops != NULL && ops == cpu_kernels();
}

ua_status
ua_queue_library_kernels(ua_queue *q, const ua_compute_ops **ops)
{
    const ua_compute_ops *host = cpu_kernels();
    *ops = ua_queue_kernels(q);
    if (q->context->device->type != UA_DEVICE_CPU || host == NULL ||
        host == *ops) {
        return UA_OK;
    }
    *ops = host;
    return ua_queue_wait(q);
}
