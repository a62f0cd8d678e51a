/* The host's elementwise kernels: one table of inner loops per
 * computation type (host_elementwise_type.c, compiled once per type), and
 * the driver that walks a plan with them (host_elementwise.c). */
#ifndef USMARRAY_BACKENDS_HOST_HOST_ELEMENTWISE_H
#define USMARRAY_BACKENDS_HOST_HOST_ELEMENTWISE_H

#include "core/compute/kernels.h"
#include "core/core.h"

/* out[i * ostep] <- the function of in[k][i * steps[k]] for i < n (steps
 * in elements, any sign; 0 for one value): operands and result in their
 * register types (bool, the computation type, its real type; float for
 * float16), aligned to them.  Dense steps (1, 0) are the fast ones. */
typedef void (*ua_host_ew_loop)(char *out, ptrdiff_t ostep, char *const *in,
                                const ptrdiff_t *steps, ptrdiff_t n);

#define UA_HOST_EW_TABLE_(E, NUM, CODE, ...)                                  \
    extern const ua_host_ew_loop ua_host_ew_##CODE[UA_EW_COUNT];
UA_DTYPES(UA_HOST_EW_TABLE_)
#undef UA_HOST_EW_TABLE_

ua_status ua_host_elementwise(void *queue, const ua_elementwise_plan *p);

#endif
