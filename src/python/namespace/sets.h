/* sets.c: the standard's set functions and their result types. */
#ifndef UA_PY_SETS_H
#define UA_PY_SETS_H

#include "python/base/pyheaders.h"

int ua_py_sets_add(PyObject *module);

/* A new instance of the struct sequence type holding the n items (stolen;
 * NULL where one of them is NULL). */
PyObject *ua_py_struct_of(PyTypeObject *type, int n, PyObject **items);
/* ua_py_struct_of of the type module.<name>, looked up by name. */
PyObject *ua_py_result_tuple(PyObject *module, const char *name, int n,
                             PyObject **items);
/* Adds a struct sequence type named prefix.name to module; where keep is
 * not NULL, *keep receives a strong reference to it as well. */
int ua_py_add_result_type(PyObject *module, const char *prefix,
                          const char *name, const char *doc,
                          PyStructSequence_Field *fields, int n,
                          PyTypeObject **keep);

#endif
