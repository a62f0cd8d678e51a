/* iface.c: reading the keys that the array interfaces share. */
#ifndef UA_PY_IFACE_H
#define UA_PY_IFACE_H

#include "python/base/state.h"

/* A protocol dictionary being read; messages say name['key']. */
typedef struct {
    const char *name;
    PyObject *dict;
    ua_state *st; /* borrowed: the module reading it */
} ua_iface;

/* obj's attribute attr (a new reference), which must be a dict; NULL with
 * TypeError naming the interface otherwise. */
PyObject *ua_iface_open(PyObject *obj, PyObject *attr, const char *name);
/* The value of a required key (a new reference), or NULL with ValueError. */
PyObject *ua_iface_required(const ua_iface *f, PyObject *key);
/* The value of an optional key (a new reference); NULL when absent or None, with
 * *error set when looking it up failed. */
PyObject *ua_iface_optional(const ua_iface *f, PyObject *key, int *error);
/* A tuple or list of at most UA_MAXDIMS integers. */
int ua_iface_ints(const ua_iface *f, PyObject *key, PyObject *seq,
                  Py_ssize_t *out, int *n);
/* The required shape: integers, none negative. */
int ua_iface_shape(const ua_iface *f, PyObject *key, Py_ssize_t *shape,
                   int *nd);
/* Optional strides of nd entries; C-order strides (and *given 0) when
 * absent or None. */
int ua_iface_strides(const ua_iface *f, PyObject *key, int nd,
                     const Py_ssize_t *shape, Py_ssize_t *strides, int *given);
/* The required typestr, of a supported dtype. */
int ua_iface_typestr(const ua_iface *f, PyObject *key, ua_typenum *out);
/* The required data: (int pointer, bool read-only). */
int ua_iface_data(const ua_iface *f, PyObject *key, uintptr_t *ptr,
                  int *readonly);
/* The required version, an integer in [lo, hi]. */
int ua_iface_version(const ua_iface *f, PyObject *key, Py_ssize_t lo,
                     Py_ssize_t hi);

#endif
