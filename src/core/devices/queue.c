/* Contexts and queues: each device's default context and its default
 * queue, made on first use under one lock; queues made anew, with an order
 * and a priority, or over another library's stream; and queues adopted
 * from other libraries' native handles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/devices/devices.h"
#include "core/memory/pool.h"

static pthread_mutex_t lazy_lock = PTHREAD_MUTEX_INITIALIZER;

static const ua_backend_ops *
ops_of(const ua_queue *q)
{
    return q->context->device->backend->ops;
}

ua_status
ua_device_default_context(ua_device *d, ua_context **out)
{
    ua_status st = UA_OK;
    pthread_mutex_lock(&lazy_lock);
    if (d->default_context == NULL) {
        ua_context *c = calloc(1, sizeof(*c));
        if (c == NULL) {
            st =
                ua_error_set(UA_ERR_NOMEM, "out of memory creating a context");
        } else if ((st = ua_pool_init_context(c)) != UA_OK ||
                   (st = d->backend->ops->context_create(
                        d->index, &c->handle)) != UA_OK) {
            free(c);
        } else {
            c->device = d;
            d->default_context = c;
        }
    }
    *out = d->default_context;
    pthread_mutex_unlock(&lazy_lock);
    return st;
}

ua_status
ua_context_default_queue(ua_context *c, ua_queue **out)
{
    ua_status st = UA_OK;
    pthread_mutex_lock(&lazy_lock);
    if (c->default_queue == NULL) {
        ua_queue *q = calloc(1, sizeof(*q));
        const ua_backend_ops *ops = c->device->backend->ops;
        if (q == NULL) {
            st = ua_error_set(UA_ERR_NOMEM, "out of memory creating a queue");
        } else if ((st = ops->queue_create(c->handle, c->device->index, NULL,
                                           &q->handle)) != UA_OK) {
            free(q);
        } else {
            q->context = c;
            c->default_queue = q;
        }
    }
    *out = c->default_queue;
    pthread_mutex_unlock(&lazy_lock);
    return st;
}

ua_device *
ua_context_device(const ua_context *c)
{
    return c->device;
}

ua_context *
ua_queue_context(const ua_queue *q)
{
    return q->context;
}

ua_device *
ua_queue_device(const ua_queue *q)
{
    return q->context->device;
}

ua_status
ua_queue_wait(ua_queue *q)
{
    return q->context->device->backend->ops->queue_wait(q->handle);
}

bool
ua_queue_may_be_busy(const ua_queue *q)
{
    return !(q->context->device->backend->ops->caps &
             UA_CAP_WORK_DONE_ON_RETURN);
}

/* ------------------------------------------------------- queues made anew */

ua_status
ua_device_queue_priorities(ua_device *d, int *least, int *greatest)
{
    const ua_priority_ops *priorities = ua_backend_priorities(d->backend);
    ua_context *c;
    if (priorities == NULL) {
        return ua_error_set(UA_ERR_VALUE, "queues of %s have no priorities",
                            d->filter);
    }
    ua_status st = ua_device_default_context(d, &c);
    if (st == UA_OK) {
        priorities->range(c->handle, least, greatest);
    }
    return st;
}

static ua_status
check_priority(ua_device *d, int priority)
{
    int least, greatest;
    ua_status st = ua_device_queue_priorities(d, &least, &greatest);
    if (st != UA_OK) {
        return st;
    }
    int lo = least < greatest ? least : greatest;
    int hi = least < greatest ? greatest : least;
    if (priority < lo || priority > hi) {
        return ua_error_set(UA_ERR_VALUE,
                            "priority %d is not one of %s's queue priorities, "
                            "%d (least) to %d (greatest)",
                            priority, d->filter, least, greatest);
    }
    return UA_OK;
}

static ua_status
new_queue(ua_context *c, ua_queue **out)
{
    *out = calloc(1, sizeof(**out));
    if (*out == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory creating a queue");
    }
    (*out)->context = c;
    return UA_OK;
}

ua_status
ua_queue_create(ua_context *c, const ua_queue_props *props, ua_queue **out)
{
    const ua_backend_ops *ops = c->device->backend->ops;
    ua_queue *q;
    ua_status st = props->has_priority
                       ? check_priority(c->device, props->priority)
                       : UA_OK;
    if (st != UA_OK || (st = new_queue(c, &q)) != UA_OK) {
        return st;
    }
    st = ops->queue_create(c->handle, c->device->index, props, &q->handle);
    if (st != UA_OK) {
        free(q);
        return st;
    }
    q->has_priority = props->has_priority;
    q->priority = props->priority;
    *out = q;
    return UA_OK;
}

ua_status
ua_queue_wrap_stream(ua_context *c, uintptr_t stream, ua_queue **out)
{
    const ua_stream_ops *streams = ua_backend_streams(c->device->backend);
    ua_queue *q;
    if (streams == NULL) {
        return ua_error_set(UA_ERR_VALUE,
                            "queues of %s have no streams to wrap",
                            c->device->filter);
    }
    ua_status st = new_queue(c, &q);
    if (st != UA_OK) {
        return st;
    }
    if ((st = streams->queue_wrap(c->handle, stream, &q->handle)) != UA_OK) {
        free(q);
        return st;
    }
    q->wrapped = true;
    *out = q;
    return UA_OK;
}

void
ua_queue_destroy(ua_queue *q)
{
    if (q == NULL || ua_queue_is_default(q)) {
        return;
    }
    ua_context *c = q->context;
    const ua_backend_ops *ops = c->device->backend->ops;
    ua_queue *heir;
    /* Blocks q used are done with once q's work is: the default queue may
     * hand them out with no further ordering. */
    ua_queue_wait(q);
    ua_error_clear();
    if (ua_context_default_queue(c, &heir) == UA_OK) {
        ua_pool_retire_queue(c, q, heir);
    }
    ua_error_clear();
    ops->queue_destroy(q->handle);
    free(q);
}

bool
ua_queue_is_default(const ua_queue *q)
{
    pthread_mutex_lock(&lazy_lock);
    bool is = q->context->default_queue == q;
    pthread_mutex_unlock(&lazy_lock);
    return is;
}

bool
ua_queue_priority(const ua_queue *q, int *priority)
{
    *priority = q->priority;
    return q->has_priority;
}

bool
ua_queue_is_wrapped(const ua_queue *q)
{
    return q->wrapped;
}

/* ------------------------------------------------------ foreign handles */

static ua_status
no_backend_adopts(const char *name)
{
    char why[512];
    size_t used = 0;
    why[0] = '\0';
    for (size_t b = 0; b < ua_backend_count() && used < sizeof(why); b++) {
        if (!ua_backend_at(b)->available) {
            used += (size_t)snprintf(why + used, sizeof(why) - used,
                                     "; the %s backend is unavailable: %s",
                                     ua_backend_at(b)->ops->name,
                                     ua_backend_at(b)->reason);
        }
    }
    return ua_error_set(UA_ERR_TYPE,
                        "a '%s' capsule: no available backend of usmarray "
                        "can interpret it%s",
                        name, why);
}

/* The device a handle of another library stands for, and the handle
 * table of its backend. */
static ua_status
device_of_handle(const char *name, void *handle, ua_device **d,
                 const ua_handle_ops **table)
{
    ua_devices_initialize();
    for (size_t b = 0; b < ua_backend_count(); b++) {
        ua_backend *be = ua_backend_at(b);
        const ua_handle_ops *handles = ua_backend_handles(be);
        int index = -1;
        if (!be->available || handles == NULL) {
            continue;
        }
        ua_status st = handles->adopt_handle(name, handle, &index);
        if (st == UA_ERR_TYPE) {
            ua_error_clear();
            continue;
        }
        if (st != UA_OK) {
            return st;
        }
        if ((*d = ua_backend_device(be, index)) == NULL) {
            return ua_error_set(UA_ERR_VALUE,
                                "a '%s' capsule names device %d of the %s "
                                "backend, which has %zu",
                                name, index, be->ops->name, be->ndevices);
        }
        *table = handles;
        return UA_OK;
    }
    return no_backend_adopts(name);
}

static ua_status
default_queue_of(ua_device *d, ua_queue **out)
{
    ua_context *c;
    ua_status st = ua_device_default_context(d, &c);
    return st == UA_OK ? ua_context_default_queue(c, out) : st;
}

ua_status
ua_queue_adopt(const char *name, void *handle, ua_queue **out)
{
    ua_device *d;
    const ua_handle_ops *handles;
    ua_status st = device_of_handle(name, handle, &d, &handles);
    if (st != UA_OK || (st = default_queue_of(d, out)) != UA_OK) {
        return st;
    }
    return handles->order_after_handle((*out)->handle, name, handle);
}

ua_status
ua_queue_adopt_native(const char *name, void *handle, ua_queue **out,
                      bool *made)
{
    ua_device *d;
    const ua_handle_ops *handles;
    ua_queue *q;
    *made = false;
    ua_status st = device_of_handle(name, handle, &d, &handles);
    if (st != UA_OK || (st = default_queue_of(d, out)) != UA_OK) {
        return st;
    }
    if (strcmp(name, handles->queue_capsule_name) != 0 ||
        handles->is_handle((*out)->handle, name, handle)) {
        return UA_OK;
    }
    if ((st = new_queue((*out)->context, &q)) != UA_OK) {
        return st;
    }
    st = handles->wrap_handle(q->context->handle, handle, &q->handle);
    if (st != UA_OK) {
        free(q);
        return st;
    }
    q->adopted = true;
    *out = q;
    *made = true;
    return UA_OK;
}

bool
ua_queue_is_native(const ua_queue *q, const char *name, void *handle)
{
    const ua_handle_ops *handles =
        ua_backend_handles(q->context->device->backend);
    return handles != NULL && handles->is_handle(q->handle, name, handle);
}

bool
ua_queue_is_adopted(const ua_queue *q)
{
    return q->adopted;
}

/* ---------------------- order across queues and with other libraries' streams */

/* Later work on `to` runs after what `from` has enqueued: an event, not a
 * host wait.  Both queues are of one backend. */
ua_status
ua_queues_order(ua_queue *from, ua_queue *to)
{
    const ua_backend_ops *ops = ops_of(from);
    void *event;
    ua_status st = ops->event_record(from->handle, &event);
    if (st == UA_OK) {
        st = ops->event_wait(to->handle, event);
        ops->event_destroy(event);
    }
    return st;
}

ua_status
ua_queue_order_after(ua_queue *q, ua_queue *before)
{
    if (q == before || !ua_queue_may_be_busy(before)) {
        return UA_OK;
    }
    if (ops_of(q) != ops_of(before)) {
        return ua_queue_wait(before);
    }
    return ua_queues_order(before, q);
}

uintptr_t
ua_queue_stream_handle(ua_queue *q)
{
    const ua_stream_ops *streams =
        ua_backend_streams(q->context->device->backend);
    return streams != NULL ? streams->queue_stream(q->handle) : 0;
}

void *
ua_queue_native_handle(ua_queue *q)
{
    return ops_of(q)->queue_native_handle(q->handle);
}

ua_status
ua_queue_order_with_stream(ua_queue *q, uintptr_t stream, bool stream_waits)
{
    const ua_stream_ops *streams =
        ua_backend_streams(q->context->device->backend);
    if (streams == NULL) {
        return ua_error_set(UA_ERR_VALUE,
                            "stream %#zx: the %s backend has no streams",
                            (size_t)stream, ops_of(q)->name);
    }
    return streams->order_with_stream(q->handle, stream, stream_waits);
}
