/* extensions.c: the standard's extensions, usmarray.linalg and
 * usmarray.fft, as submodules of the extension module. */
#ifndef UA_PY_EXTENSIONS_H
#define UA_PY_EXTENSIONS_H

#include "python/base/state.h"

/* Their functions, {NULL}-terminated, each table in the file that
 * defines its functions: the factorizations (linalg_ext.c), the norms and
 * other compositions (linalg_norms.c), the transforms (fft.c), the
 * frequencies and shifts (fft_freq.c).  Each is called with the extension
 * module as its self, so that it finds the module's state. */
extern PyMethodDef ua_py_linalg_factorization_methods[];
extern PyMethodDef ua_py_linalg_norm_methods[];
extern PyMethodDef ua_py_fft_transform_methods[];
extern PyMethodDef ua_py_fft_freq_methods[];
/* Gives the core the host's FFT (fft_host.c). */
void ua_py_fft_install_host(void);

/* Adds usmarray.linalg (with LinAlgError and the core namespace's matmul,
 * matrix_transpose, tensordot and vecdot) and usmarray.fft to module. */
int ua_py_extensions_add(PyObject *module, ua_state *st);

#endif
