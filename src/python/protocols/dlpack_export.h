/* dlpack_export.c: __dlpack__ and __dlpack_device__, the capsules they
 * make, and the deleters of DLPack tensors that the importer shares. */
#ifndef UA_PY_DLPACK_EXPORT_H
#define UA_PY_DLPACK_EXPORT_H

#include "python/base/state.h"
#include "core/dlpack.h"

/* obj.__dlpack_device__(), checked to be a pair of ints naming a device. */
int ua_py_dlpack_device_of(ua_state *st, PyObject *obj, ua_dl_device *out);

/* The capsule names our capsules carry, as objects of their own: a name
 * that is one of these pointers is known without comparing its text. */
extern const char ua_py_dlpack_versioned_name[];
extern const char ua_py_dlpack_legacy_name[];
extern const char ua_py_dlpack_versioned_used_name[];
extern const char ua_py_dlpack_legacy_used_name[];

enum { UA_PY_NOT_DLPACK, UA_PY_DLPACK_LEGACY, UA_PY_DLPACK_VERSIONED };
/* Which unconsumed DLPack capsule a name marks. */
int ua_py_dlpack_capsule_form(const char *name);
/* Calls the deleter of a managed tensor of either form, if it has one,
 * with the GIL held. */
void ua_py_dlpack_call_deleter(void *managed, int versioned);
/* The release hooks of an imported tensor's Memory: the producer's deleter,
 * once, with any exception set put aside. */
void ua_py_dlpack_release_versioned(void *managed);
void ua_py_dlpack_release_legacy(void *managed);

#endif
