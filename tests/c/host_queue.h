/* The host device's default queue, which the C tests run their work on. */
#ifndef USMARRAY_TEST_HOST_QUEUE_H
#define USMARRAY_TEST_HOST_QUEUE_H

#include "core/core.h"

static inline ua_queue *
host_queue(void)
{
    ua_device *d;
    ua_context *c;
    ua_queue *q;
    ua_device_select("host", &d);
    ua_device_default_context(d, &c);
    ua_context_default_queue(c, &q);
    return q;
}

#endif
