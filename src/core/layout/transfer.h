/* transfer.c: which queue runs a copy between two devices' memory, and
 * its ordering with the work of peer devices. */
#ifndef USMARRAY_CORE_LAYOUT_TRANSFER_H
#define USMARRAY_CORE_LAYOUT_TRANSFER_H

#include "core/core.h"

/* The queue to run work touching a and b on: q, unless q's backend cannot
 * reach the memory of a or b, in which case the default queue of the
 * device that holds it.  A backend reaches its own memory, and plain CPU
 * memory where it has UA_CAP_REACHES_CPU_MEMORY. */
ua_queue *ua_queue_reaching(ua_queue *q, const void *a, const void *b);
/* A copy on `runner` touching dst and src, where either is memory of
 * another device of the runner's backend (a peer), is ordered after the
 * work enqueued on that device's default queue (ua_peers_before, which
 * fills peers) and that queue's later work after the copy
 * (ua_peers_after), by events.  Where the runner cannot reach device
 * memory of dst or src, ua_peers_before orders nothing and sets *relay:
 * the copy is then for ua_relay_memcpy or ua_relay_copy_strided. */
ua_status ua_peers_before(ua_queue *runner, const void *dst, const void *src,
                          ua_queue *peers[2], bool *relay);
ua_status ua_peers_after(ua_queue *runner, ua_queue *const peers[2]);

#endif
