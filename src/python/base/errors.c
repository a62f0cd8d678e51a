/* The one place where the core's status codes become Python exceptions. */
#include "python/base/pyheaders.h"
#include "python/base/errors.h"
#include "python/base/state.h"

#include <stdarg.h>

static PyObject *
exception_for(ua_state *st, ua_status code)
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
    case UA_ERR_OVERFLOW:
        type = PyExc_OverflowError;
        break;
    case UA_ERR_LINALG:
        type = st->LinAlgError != NULL ? st->LinAlgError : PyExc_ValueError;
        break;
    case UA_ERR_RUNTIME:
    case UA_ERR_UNAVAILABLE:
        type = PyExc_RuntimeError;
        break;
    default:
        type = PyExc_ValueError;
        break;
    }
    return type;
}

PyObject *
ua_py_raise_core(ua_state *st, ua_status code)
{
    PyErr_SetString(exception_for(st, code), ua_error_message());
    ua_error_clear();
    return NULL;
}

/* The core's message says what is wrong; the caller's prefix says where
   (which key of which interface), and the suffix may add why. */
PyObject *
ua_py_raise_core_around(ua_state *st, ua_status code, PyObject *prefix,
                        const char *suffix)
{
    PyErr_Format(exception_for(st, code), "%U: %s%s", prefix,
                 ua_error_message(), suffix);
    ua_error_clear();
    return NULL;
}

PyObject *
ua_py_raise_core_prefixed(ua_state *st, ua_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    PyObject *prefix = PyUnicode_FromFormatV(fmt, ap);
    va_end(ap);
    if (prefix == NULL) {
        ua_error_clear();
        return NULL;
    }
    ua_py_raise_core_around(st, code, prefix, "");
    Py_DECREF(prefix);
    return NULL;
}

int
ua_py_fail_core(ua_state *st, ua_status code)
{
    ua_py_raise_core(st, code);
    return -1;
}

int
ua_py_check_ndim(ua_state *st, const char *fn, Py_ssize_t nd)
{
    ua_status code = ua_layout_check_ndim(fn, (long long)nd);
    return code == UA_OK ? 0 : ua_py_fail_core(st, code);
}
