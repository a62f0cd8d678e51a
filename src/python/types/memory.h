/* memory.c: Memory and its USM kinds. */
#ifndef UA_PY_MEMORY_H
#define UA_PY_MEMORY_H

#include "python/base/state.h"

int ua_py_memory_add_types(PyObject *module, ua_state *st);
PyTypeObject *ua_py_memory_type_of_kind(ua_state *st, ua_usm_kind kind);
/* An alignment argument: 0 or a power of two. */
int ua_py_parse_alignment(PyObject *obj, const char *what, size_t *out);
/* A new allocation of `kind` on queue (a Queue object). */
PyObject *ua_py_memory_new(ua_state *st, ua_usm_kind kind, Py_ssize_t nbytes,
                           size_t alignment, PyObject *queue);
/* A zero-copy Memory over [ptr, ptr + nbytes) that keeps owner alive. */
PyObject *ua_py_memory_wrap(ua_state *st, ua_usm_kind kind, char *ptr,
                            Py_ssize_t nbytes, int readonly, PyObject *queue,
                            PyObject *owner);
/* The same on the default queue of device. */
PyObject *ua_py_memory_wrap_on_device(ua_state *st, ua_device *device,
                                      ua_usm_kind kind, char *ptr,
                                      Py_ssize_t nbytes, int readonly,
                                      PyObject *owner);
/* Host memory someone else owns, recorded as a borrowed "host" allocation
 * of queue's context while the returned Memory lives; owner is kept.
 * Memory the library or a driver knows is wrapped as what it is instead:
 * the Memory's kind may then be another than "host". */
PyObject *ua_py_memory_borrow(ua_state *st, PyObject *queue, char *ptr,
                              Py_ssize_t nbytes, int readonly,
                              PyObject *owner);
PyObject *ua_py_as_usm_memory(PyObject *module, PyObject *obj);
PyObject *ua_py_get_pointer_type(PyObject *module, PyObject *args,
                                 PyObject *kwargs);
PyObject *ua_py_rebuild_memory(PyObject *module, PyObject *args);

#endif
