/* The one place where the core's status codes become Python exceptions. */
#include "binding.h"

PyObject *
ua_py_raise_core(ua_state *st, ua_status code)
{
    PyObject *type;
    switch (code) {
    case UA_ERR_TYPE:
        type = PyExc_TypeError;
        break;
    case UA_ERR_INDEX:
        type = PyExc_IndexError;
        break;
    case UA_ERR_BUFFER:
        type = PyExc_BufferError;
        break;
    case UA_ERR_NOMEM:
        type = PyExc_MemoryError;
        break;
    case UA_ERR_ALLOC:
        type = st->USMAllocationError;
        break;
    case UA_ERR_RUNTIME:
    case UA_ERR_UNAVAILABLE:
        type = PyExc_RuntimeError;
        break;
    default:
        type = PyExc_ValueError;
        break;
    }
    PyErr_SetString(type, ua_error_message());
    ua_error_clear();
    return NULL;
}

int
ua_py_fail_core(ua_state *st, ua_status code)
{
    ua_py_raise_core(st, code);
    return -1;
}
