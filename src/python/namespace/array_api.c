/* The array's way to its namespace: x.__array_namespace__() gives the
 * usmarray module, which is the Array API namespace. */
#include "python/base/pyheaders.h"
#include "python/base/state.h"
#include "python/types/arrays.h"

/* The versions of the standard the namespace implements. */
#define UA_ARRAY_API_VERSION "2024.12"

PyObject *
ua_py_array_namespace(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                      PyObject *kwnames)
{
    PyObject *version = Py_None;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs != 0 || nkw > 1 ||
        (nkw == 1 && PyUnicode_CompareWithASCIIString(
                         PyTuple_GET_ITEM(kwnames, 0), "api_version") != 0)) {
        PyErr_SetString(PyExc_TypeError,
                        "__array_namespace__() takes only the keyword "
                        "argument api_version");
        return NULL;
    }
    if (nkw == 1) {
        version = args[0];
    }
    if (version != Py_None &&
        (!PyUnicode_Check(version) ||
         PyUnicode_CompareWithASCIIString(version, UA_ARRAY_API_VERSION))) {
        PyErr_Format(PyExc_ValueError,
                     "usmarray implements version %s of the Array API "
                     "standard, not %R",
                     UA_ARRAY_API_VERSION, version);
        return NULL;
    }
    /* Asked on every call of array-api-compat's namespace lookup: the
     * package is kept, not imported again. */
    ua_state *st = ua_state_of(self);
    if (st->array_api == NULL &&
        (st->array_api = PyImport_ImportModule("usmarray")) == NULL) {
        return NULL;
    }
    return Py_NewRef(st->array_api);
}
