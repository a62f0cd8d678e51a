/* Placeholder: the standard's linalg extension. */
#include "python/base/pyheaders.h"
#include "python/namespace/extensions.h"

PyMethodDef ua_py_linalg_methods[] = {
    {NULL},
};
