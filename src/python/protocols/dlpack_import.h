/* dlpack_import.c: from_dlpack of capsules and of producers. */
#ifndef UA_PY_DLPACK_IMPORT_H
#define UA_PY_DLPACK_IMPORT_H

#include "python/base/state.h"
#include "core/dlpack.h"

/* An array over the tensor of a DLPack capsule, which it consumes. */
PyObject *ua_py_array_from_capsule(ua_state *st, PyObject *capsule);
/* The same for a capsule or an object with __dlpack__ (asked for a copy
 * when copy is True); device is the producer's __dlpack_device__() where
 * the caller has it already, else NULL. */
PyObject *ua_py_array_from_dlpack_object(ua_state *st, PyObject *obj,
                                         PyObject *copy,
                                         const ua_dl_device *device);
PyObject *ua_py_from_dlpack(PyObject *module, PyObject *const *args,
                            Py_ssize_t nargs, PyObject *kwnames);

#endif
