/* convert.c: the generic argument parsers and Python scalar reads. */
#ifndef UA_PY_CONVERT_H
#define UA_PY_CONVERT_H

#include "python/base/state.h"

/* An integer or a sequence of integers (of either sign). */
int ua_py_parse_ints(PyObject *obj, const char *what, Py_ssize_t *out, int *n);
/* A shape argument: an integer or a sequence of non-negative integers. */
int ua_py_parse_shape(PyObject *obj, const char *what, Py_ssize_t *shape,
                      int *nd);
/* An order argument: one character of `allowed`. */
int ua_py_parse_order(PyObject *obj, const char *allowed, char *out);
/* A permutation of nd axes from a sequence (negative axes allowed). */
int ua_py_parse_axes(PyObject *seq, int nd, int *perm);
/* The USM kind of a usm_type argument. */
int ua_py_parse_usm_type(PyObject *obj, ua_usm_kind *out);

/* Converts obj to a Py_ssize_t as an integer argument: bools and
 * non-integers raise TypeError naming `what`. */
int ua_py_index(PyObject *obj, const char *what, Py_ssize_t *out);
/* An index item as PyNumber_AsSsize_t(obj, PyExc_IndexError) reads it,
 * but an int past Py_ssize_t raises IndexError saying it is out of
 * bounds.  -1 with an exception set on error. */
Py_ssize_t ua_py_item_index(PyObject *obj);
/* The same for what['key'][k] (key NULL: what[k]; k < 0: no index), the
 * name formatted only when there is an error to report. */
int ua_py_index_at(PyObject *item, const char *what, const char *key,
                   Py_ssize_t k, Py_ssize_t *out);
/* A sequence of at most UA_MAXDIMS integers, read from a snapshot that
 * the items' __index__ cannot change; messages name what['key'][k]. */
int ua_py_index_sequence(PyObject *seq, const char *what, const char *key,
                         Py_ssize_t *out, int *n);
/* A Python scalar ready to be written into an array: a 0-d source. */
typedef struct {
    union {
        uint8_t b;
        long long i;
        unsigned long long u;
        double f;
        double c[2];
    } v;
    ua_typenum type; /* of v */
} ua_py_scalar;

/* Whether value is a Python int (bool and subclasses included), float or
 * complex: the values that ua_py_scalar_for reads. */
int ua_py_is_python_scalar(PyObject *value);
/* Reads a Python scalar to be stored as type t, by NumPy 2's rules:
 * integers out of t's range raise OverflowError, complex values into a
 * real type TypeError, floats into an integer type truncate (NaN raises
 * ValueError, infinities and values out of range OverflowError). */
int ua_py_scalar_for(ua_state *st, PyObject *value, ua_typenum t,
                     ua_py_scalar *out);
/* NumPy's __array__(dtype, copy) of an object exporting the buffer
 * protocol: a view of its memory unless dtype or copy=True asks for a
 * copy. */
PyObject *ua_py_numpy_of_buffer(ua_state *st, PyObject *exporter,
                                PyObject *dtype, PyObject *copy);
/* A tuple of the n ints of v (a shape, strides). */
PyObject *ua_py_int_tuple(int n, const Py_ssize_t *v);
/* copy=: -1 for None, else 0 or 1; anything but None or a bool raises. */
int ua_py_parse_copy(PyObject *obj, int *out);

/* An argument list: names[0..max_positional) may come by position, the
 * rest by keyword only; names[0..required) must be given.  Parsing fills
 * out[i] (borrowed) for each argument given and leaves the others as the
 * caller set them; a wrong list raises TypeError as Python's own calls do.
 * Python's keyword parser builds a string per name per call; this one
 * compares the caller's names, which made keyword calls twice as fast. */
typedef struct {
    const char *fname;
    const char *const *names; /* NULL-terminated */
    int max_positional;
    int required;
} ua_py_argspec;

int ua_py_parse_fast(const ua_py_argspec *spec, PyObject *const *args,
                     Py_ssize_t nargs, PyObject *kwnames, PyObject **out);
int ua_py_parse_tuple(const ua_py_argspec *spec, PyObject *args,
                      PyObject *kwargs, PyObject **out);

/* 1 with a new reference in *out, 0 when obj has no such attribute, -1
 * with an exception when looking it up raised something else. */
int ua_py_optional_attr(PyObject *obj, PyObject *name, PyObject **out);
/* 1 when obj has the attribute, 0 when not, -1 with an exception. */
int ua_py_has_attr(PyObject *obj, PyObject *name);

#endif
