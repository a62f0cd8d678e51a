/* Copies between memory of any devices: the queue that runs one (the
 * given queue, or the default queue of a device whose memory the given
 * queue's backend cannot reach), its ordering with the work of peer
 * devices by events, and the relay through host memory (relay.c) where
 * no queue reaches both sides. */
#include <stdint.h>
#include <string.h>

#include "core/backend.h"
#include "core/devices/devices.h"
#include "core/layout/relay.h"
#include "core/layout/transfer.h"
#include "core/memory/registry.h"

static const ua_backend_ops *
ops_of(const ua_queue *q)
{
    return q->context->device->backend->ops;
}

static bool
backend_reaches(const ua_backend *runner, const ua_backend *owner)
{
    return runner == owner ||
           ((owner->ops->caps & UA_CAP_CPU_MEMORY) &&
            (runner->ops->caps & UA_CAP_REACHES_CPU_MEMORY));
}

/* The default queue of the device that holds ptr when q's backend cannot
 * reach that device's memory; NULL otherwise. */
static ua_queue *
owner_queue(const ua_queue *q, const void *ptr)
{
    ua_pointer_info info;
    ua_context *c;
    ua_queue *other;
    if (ptr == NULL || !ua_pointer_query((uintptr_t)ptr, &info) ||
        info.device == NULL ||
        backend_reaches(q->context->device->backend, info.device->backend) ||
        ua_device_default_context(info.device, &c) != UA_OK ||
        ua_context_default_queue(c, &other) != UA_OK) {
        ua_error_clear();
        return NULL;
    }
    return other;
}

ua_queue *
ua_queue_reaching(ua_queue *q, const void *a, const void *b)
{
    if (ua_device_count() < 2) {
        return q;
    }
    ua_queue *other = owner_queue(q, a);
    if (other == NULL) {
        other = owner_queue(q, b);
    }
    return other != NULL ? other : q;
}

/* ------------------------------------------ memory of other devices */

ua_status
ua_device_peer_access(ua_device *from, ua_device *to, bool *direct)
{
    const ua_peer_ops *peers = ua_backend_peers(from->backend);
    if (from == to || from->backend != to->backend) {
        *direct = from == to || backend_reaches(from->backend, to->backend);
        return UA_OK;
    }
    /* Without a route of the backend's own, copies are relayed through
     * host memory (relay.c). */
    *direct = peers != NULL && peers->peer_access(from->index, to->index);
    return UA_OK;
}

/* Whether copies on queues of `here` can touch the memory `info`
 * describes: memory of another device of its backend when the backend
 * runs copies between them, host-accessible memory of any device, and
 * device memory of another backend whose memory it reaches. */
static bool
device_reaches(const ua_device *here, const ua_pointer_info *info)
{
    const ua_backend *owner = info->device->backend;
    if (info->device == here || info->kind != UA_USM_DEVICE) {
        return true;
    }
    return owner == here->backend ? ua_backend_peers(owner) != NULL
                                  : backend_reaches(here->backend, owner);
}

/* The default queue of the device that holds ptr when that is another
 * device of the runner's backend (a peer); NULL for memory of the runner's
 * device, memory the runner reaches anyway and memory no one knows.
 * *reached is false, and *out NULL, for device memory the runner cannot
 * reach. */
static ua_status
peer_queue_of(ua_queue *runner, const void *ptr, ua_queue **out, bool *reached)
{
    ua_device *here = runner->context->device;
    ua_pointer_info info;
    ua_context *c;
    *out = NULL;
    *reached = true;
    if (ptr == NULL || !ua_pointer_query((uintptr_t)ptr, &info) ||
        info.device == NULL || info.device == here) {
        return UA_OK;
    }
    *reached = device_reaches(here, &info);
    if (!*reached || info.device->backend != here->backend) {
        return UA_OK;
    }
    ua_status st = ua_device_default_context(info.device, &c);
    return st == UA_OK ? ua_context_default_queue(c, out) : st;
}

ua_status
ua_peers_before(ua_queue *runner, const void *dst, const void *src,
                ua_queue *peers[2], bool *relay)
{
    bool reached[2] = {true, true};
    peers[0] = peers[1] = NULL;
    *relay = false;
    if (ua_device_count() < 2) {
        return UA_OK;
    }
    ua_status st = peer_queue_of(runner, dst, &peers[0], &reached[0]);
    if (st == UA_OK) {
        st = peer_queue_of(runner, src, &peers[1], &reached[1]);
    }
    if (!reached[0] || !reached[1]) {
        peers[0] = peers[1] = NULL;
        *relay = st == UA_OK;
        return st;
    }
    if (peers[1] == peers[0]) {
        peers[1] = NULL;
    }
    for (int i = 0; i < 2 && st == UA_OK; i++) {
        st = peers[i] != NULL ? ua_queues_order(peers[i], runner) : UA_OK;
    }
    return st;
}

ua_status
ua_peers_after(ua_queue *runner, ua_queue *const peers[2])
{
    ua_status st = UA_OK;
    for (int i = 0; i < 2 && st == UA_OK; i++) {
        st = peers[i] != NULL ? ua_queues_order(runner, peers[i]) : UA_OK;
    }
    return st;
}

ua_status
ua_queue_memcpy(ua_queue *q, void *dst, const void *src, size_t n)
{
    if (n == 0) {
        return UA_OK;
    }
    ua_queue *runner = ua_queue_reaching(q, dst, src), *peers[2];
    bool relay;
    ua_status st = ua_peers_before(runner, dst, src, peers, &relay);
    if (st == UA_OK && relay) {
        return ua_relay_memcpy(q, dst, src, n);
    }
    if (st == UA_OK) {
        st = ops_of(runner)->memcpy(runner->handle, dst, src, n);
    }
    if (st == UA_OK) {
        st = ua_peers_after(runner, peers);
    }
    /* Work moved to another queue is finished here: q's waits cannot see
     * it. */
    return st == UA_OK && runner != q ? ua_queue_wait(runner) : st;
}

/* Whether ptr is memory of q's device, which its kernels reach without
 * another queue's help. */
static bool
memory_of_device(const ua_queue *q, const void *ptr)
{
    ua_pointer_info info;
    if (!ua_pointer_query((uintptr_t)ptr, &info)) {
        ua_error_clear();
        return false;
    }
    return info.device == q->context->device;
}

bool
ua_queue_owns_memory(const ua_queue *q, const void *ptr)
{
    ua_pointer_info info;
    return ua_registry_find_range((uintptr_t)ptr, 1, &info) &&
           !info.borrowed && info.device == q->context->device;
}

static bool
all_of_device(const ua_queue *q, size_t n, const ua_copy_block *blocks)
{
    if (ua_device_count() < 2) {
        return true;
    }
    for (size_t i = 0; i < n; i++) {
        if (blocks[i].bytes > 0 && (!memory_of_device(q, blocks[i].dst) ||
                                    !memory_of_device(q, blocks[i].src))) {
            return false;
        }
    }
    return true;
}

ua_status
ua_queue_memcpy_batch(ua_queue *q, size_t n, const ua_copy_block *blocks)
{
    if (all_of_device(q, n, blocks)) {
        return ops_of(q)->memcpy_batch(q->handle, n, blocks);
    }
    ua_status st = UA_OK;
    for (size_t i = 0; i < n && st == UA_OK; i++) {
        st = ua_queue_memcpy(q, blocks[i].dst, blocks[i].src, blocks[i].bytes);
    }
    return st;
}

ua_status
ua_queue_memset(ua_queue *q, void *dst, unsigned char value, size_t n)
{
    if (n == 0) {
        return UA_OK;
    }
    return ops_of(q)->memset(q->handle, dst, value, n);
}

ua_status
ua_copy_sync(ua_queue *q, void *dst, const void *src, size_t n)
{
    ua_status st = ua_queue_memcpy(q, dst, src, n);
    return st != UA_OK ? st : ua_queue_wait(q);
}
