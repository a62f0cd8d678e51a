/* relay.c: copies between memory of devices that cannot reach each
 * other's, through host memory. */
#ifndef USMARRAY_CORE_LAYOUT_RELAY_H
#define USMARRAY_CORE_LAYOUT_RELAY_H

#include "core/core.h"

/* Copies issued on q between memory of two devices that cannot reach each
 * other's (relay.c): the source's device copies into a host buffer, the
 * destination's device copies from it, each leg waited for.  They return
 * once the copy is done. */
ua_status ua_relay_memcpy(ua_queue *q, void *dst, const void *src, size_t n);
ua_status ua_relay_copy_strided(ua_queue *q, int nd, const ptrdiff_t *shape,
                                const ua_strided *dst, const ua_strided *src);

#endif
