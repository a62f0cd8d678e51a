/* fft.c and fft_freq.c: the standard's fft extension, usmarray.fft.  What
 * the transforms (fft.c) share with the frequencies and shifts
 * (fft_freq.c), which call them and not the other way round; each file
 * holds the method table of its functions (extensions.h). */
#ifndef UA_PY_FFT_H
#define UA_PY_FFT_H

#include "python/base/state.h"

/* result, or NULL with the exception of what failed under fn (an
 * allocation too large, a device without a transform) reworded to name
 * fn; other exceptions (AxisError) pass as they are. */
PyObject *ua_py_fft_named(const char *fn, PyObject *result);
/* a times factor, in place, by the elementwise kernels. */
int ua_py_fft_scale(ua_state *st, PyObject *a, double factor);
/* ValueError naming fn for a zero-dimensional x; for a length n < 1 of
 * the argument `what`. */
int ua_py_fft_check_ndim(PyObject *x, const char *fn);
int ua_py_fft_check_length(const char *fn, const char *what, Py_ssize_t n);

#endif
