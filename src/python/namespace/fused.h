/* usmarray.fuse's kernel call, _fused_elementwise (fused.c). */
#ifndef USMARRAY_PYTHON_NAMESPACE_FUSED_H
#define USMARRAY_PYTHON_NAMESPACE_FUSED_H

#include "python/base/pyheaders.h"

int ua_py_fused_add(PyObject *module);

#endif
