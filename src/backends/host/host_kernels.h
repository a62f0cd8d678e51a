/* host_kernels.c: the host backend's compute-kernel table. */
#ifndef USMARRAY_HOST_KERNELS_H
#define USMARRAY_HOST_KERNELS_H

#include "core/compute/kernels.h"

extern const ua_compute_ops ua_host_compute_ops;

#endif
