/* device.c, context.c, queue.c: Device, Context and Queue. */
#ifndef UA_PY_DEVICES_H
#define UA_PY_DEVICES_H

#include "python/base/state.h"

int ua_py_device_add_type(PyObject *module, ua_state *st);
int ua_py_context_add_type(PyObject *module, ua_state *st);
int ua_py_queue_add_type(PyObject *module, ua_state *st);

/* The cached Python objects of a core device (new references). */
PyObject *ua_py_device_of(ua_state *st, ua_device *d);
PyObject *ua_py_default_context(ua_state *st, ua_device *d);
PyObject *ua_py_default_queue(ua_state *st, ua_device *d);
/* A Queue object over a queue of d made anew, which it destroys; it keeps
 * owner (or NULL) alive. */
PyObject *ua_py_wrap_new_queue(ua_state *st, ua_device *d, ua_queue *queue,
                               PyObject *owner);
/* A Queue over q, which ua_queue_adopt_native made: it destroys q, and
 * stands for q's native handle while it lives, until its deallocation
 * forgets it. */
PyObject *ua_py_wrap_adopted_queue(ua_state *st, ua_queue *q);
void ua_py_forget_adopted_queue(ua_state *st, PyObject *queue);
PyObject *ua_py_adopted_queue_count(PyObject *module, PyObject *unused);
/* The device a filter string, Device, Context, Queue or None names. */
ua_device *ua_py_as_device(ua_state *st, PyObject *obj, const char *what);
/* A capsule named `name` holding a native handle, freed with it. */
PyObject *ua_py_native_capsule(const char *name, void *handle);
/* The Queue a `device` or `queue` argument names for the caller's work: a
 * Queue, Context, Device, filter string or None (the default device), or
 * another library's queue (a capsule, an object with _get_capsule(), one
 * with a sycl_queue), which becomes a Queue over that very queue. */
PyObject *ua_py_as_queue(ua_state *st, PyObject *obj, const char *what);
/* The same for an interface's `syclobj`, which only says whose data comes
 * in: another library's queue that no Queue of ours stands for gives the
 * device's default queue, ordered after that queue's work. */
PyObject *ua_py_as_import_queue(ua_state *st, PyObject *obj, const char *what);
/* Waits, without the GIL, for the work enqueued on queue (a Queue) before
 * the host reads or writes memory of it: namespace calls return before
 * their kernels finish (docs/architecture.rst, "Asynchrony").  No call
 * where the queue's backend finishes work before returning. */
int ua_py_queue_settle(ua_state *st, PyObject *queue);
/* dpctl's SyclQueue, SyclDevice or SyclContext of a Queue of the SYCL
 * backend; AttributeError (hasattr False) on other backends and where
 * dpctl cannot be imported.  Getters pass `which` as their closure. */
typedef enum {
    UA_PY_SYCL_QUEUE,
    UA_PY_SYCL_DEVICE,
    UA_PY_SYCL_CONTEXT
} ua_py_dpctl_object;
PyObject *ua_py_queue_dpctl(ua_state *st, PyObject *queue,
                            ua_py_dpctl_object which);
/* The getset entries of the three, over a getter of that closure. */
#define UA_PY_DPCTL_GETSET(getter, whose)                                     \
    {"sycl_queue", getter, NULL, "dpctl's SyclQueue of " whose " queue.",     \
     (void *)(intptr_t)UA_PY_SYCL_QUEUE},                                     \
        {"sycl_device", getter, NULL,                                         \
         "dpctl's SyclDevice of " whose " queue.",                            \
         (void *)(intptr_t)UA_PY_SYCL_DEVICE},                                \
    {                                                                         \
        "sycl_context", getter, NULL,                                         \
            "dpctl's SyclContext of " whose " queue.",                        \
            (void *)(intptr_t)UA_PY_SYCL_CONTEXT                              \
    }
PyObject *ua_py_get_devices(PyObject *module, PyObject *args,
                            PyObject *kwargs);

#endif
