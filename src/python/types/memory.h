/* memory.c: Memory and its USM kinds; memory_make.c: making and ending
 * Memory objects; memory_host.c: their transfers to and from the host. */
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
/* The same as an instance of type (a Memory class or a subclass). */
PyObject *ua_py_memory_wrap_as(PyTypeObject *type, char *ptr,
                               Py_ssize_t nbytes, ua_usm_kind kind,
                               int readonly, PyObject *queue, PyObject *owner);
/* Memory's tp_dealloc, which keeps freed objects (freelist.h). */
void ua_py_memory_dealloc(PyObject *self);
/* A new allocation as an instance of type. */
PyObject *ua_py_memory_allocate(ua_state *st, PyTypeObject *type,
                                ua_usm_kind kind, Py_ssize_t nbytes,
                                size_t alignment, PyObject *queue);
/* Copies n bytes on queue, without the GIL when the copy is long. */
int ua_py_memory_copy_bytes(ua_state *st, PyObject *queue, void *dst,
                            const void *src, size_t n);
/* The USM kind of a Memory class (UA_USM_UNKNOWN for Memory itself or
 * another type). */
ua_usm_kind ua_py_memory_kind_of_type(ua_state *st, PyTypeObject *type);
/* "MemoryUSMDevice", "MemoryUSMShared" or "MemoryUSMHost". */
const char *ua_py_memory_class_name(ua_usm_kind kind);
/* -1 with ValueError where self is read-only, or n bytes exceed it. */
int ua_py_memory_check_writable(PyObject *self);
int ua_py_memory_check_fits(PyObject *self, Py_ssize_t n, const char *source);

/* Memory over the memory of other objects, defined by
 * protocols/memory_import.c (a layer above, which reads their array
 * interfaces): a Memory class's instance over obj (a Memory or a SUAI
 * object), wrapped or, where copy allows, copied; the module's
 * as_usm_memory(); and Memory.copy_from_device(). */
PyObject *ua_py_memory_from_object(ua_state *st, PyTypeObject *type,
                                   ua_usm_kind kind, PyObject *obj,
                                   size_t alignment, PyObject *queue,
                                   int copy);
PyObject *ua_py_as_usm_memory(PyObject *module, PyObject *obj);
PyObject *ua_py_memory_copy_from_device(PyObject *self, PyObject *obj);
PyObject *ua_py_get_pointer_type(PyObject *module, PyObject *args,
                                 PyObject *kwargs);
/* Methods of Memory defined by memory_host.c; ua_py_rebuild_memory
 * unpickles one. */
PyObject *ua_py_memory_copy_to_host(PyObject *self, PyObject *args,
                                    PyObject *kwargs);
PyObject *ua_py_memory_copy_from_host(PyObject *self, PyObject *obj);
PyObject *ua_py_memory_memset(PyObject *self, PyObject *args,
                              PyObject *kwargs);
PyObject *ua_py_memory_tobytes(PyObject *self, PyObject *unused);
PyObject *ua_py_memory_reduce(PyObject *self, PyObject *unused);
PyObject *ua_py_memory_dunder_array(PyObject *self, PyObject *args,
                                    PyObject *kwargs);
PyObject *ua_py_rebuild_memory(PyObject *module, PyObject *args);

#endif
