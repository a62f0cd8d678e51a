/* arguments.c: the argument checks that the namespace's functions share:
 * positional-only parameters, array operands and axes. */
#ifndef UA_PY_ARGUMENTS_H
#define UA_PY_ARGUMENTS_H

#include "python/base/convert.h"
#include "python/base/state.h"

/* ua_py_parse_fast for a list whose first `posonly` names are
 * positional-only: passing one of them by keyword raises TypeError as
 * Python's own functions do. */
int ua_py_parse_posonly(const ua_py_argspec *spec, int posonly,
                        PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames, PyObject **out);
/* 0 when nargs is n, else TypeError naming fn. */
int ua_py_check_nargs(const char *fn, Py_ssize_t nargs, Py_ssize_t n);
/* 0 when x is a USMArray, else TypeError naming fn. */
int ua_py_check_array(ua_state *st, PyObject *x, const char *fn);
/* Raises NumPy's AxisError (a ValueError and an IndexError) saying that
 * axis is out of bounds for nd dimensions; IndexError without NumPy. */
int ua_py_axis_error(ua_state *st, const char *fn, Py_ssize_t axis, int nd);
/* An integer axis in [-nd, nd), normalised to [0, nd). */
int ua_py_parse_axis(ua_state *st, PyObject *obj, const char *fn, int nd,
                     int *out);
/* The axis of vecdot and linalg.cross, which pair the vectors of two
 * arrays broadcast together: an integer (-1 where obj is NULL) counted
 * from the end, in [-min(x1.ndim, x2.ndim), -1] (ValueError naming fn). */
int ua_py_parse_trailing_axis(PyObject *obj, const char *fn, PyObject *x1,
                              PyObject *x2, Py_ssize_t *axis);
/* An integer or a sequence of integers, each an axis of nd dimensions,
 * normalised into axes[0..*n) and none repeated (ValueError). */
int ua_py_parse_axis_set(ua_state *st, PyObject *obj, const char *fn, int nd,
                         int *axes, int *n);
/* Normalises axis into [0, nd): -1 with AxisError when out of bounds. */
int ua_py_normalize_axis(ua_state *st, const char *fn, Py_ssize_t axis, int nd,
                         int *out);

/* The namespace's function types: with keywords, and positional only. */
typedef PyObject *(*ua_py_fastcall_kw)(PyObject *, PyObject *const *,
                                       Py_ssize_t, PyObject *);
typedef PyObject *(*ua_py_fastcall)(PyObject *, PyObject *const *, Py_ssize_t);

/* fn called with each USMArray among its arguments replaced by a snapshot
 * of it (ua_py_array_snapshot): the hooks of its other arguments (an
 * axis's __index__, a sequence's items) run after fn reads an operand's
 * layout and may reshape the operand in place.  A result that is a
 * snapshot itself is the operand again, while their layouts agree. */
PyObject *ua_py_call_on_snapshots(ua_py_fastcall_kw fn, PyObject *module,
                                  PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames);
PyObject *ua_py_call_on_snapshots_pos(ua_py_fastcall fn, PyObject *module,
                                      PyObject *const *args, Py_ssize_t nargs);

/* Defines name_on_snapshots, fn through ua_py_call_on_snapshots, for the
 * function tables. */
#define UA_PY_ON_SNAPSHOTS(fn)                                                \
    static PyObject *fn##_on_snapshots(PyObject *m, PyObject *const *a,       \
                                       Py_ssize_t n, PyObject *k)             \
    {                                                                         \
        return ua_py_call_on_snapshots(fn, m, a, n, k);                       \
    }
#define UA_PY_ON_SNAPSHOTS_POS(fn)                                            \
    static PyObject *fn##_on_snapshots(PyObject *m, PyObject *const *a,       \
                                       Py_ssize_t n)                          \
    {                                                                         \
        return ua_py_call_on_snapshots_pos(fn, m, a, n);                      \
    }

#endif
