/* The standard's extensions as submodules of the extension module: its
 * attributes linalg and fft, which the package also enters in sys.modules
 * as usmarray.linalg and usmarray.fft.  Their functions keep the
 * extension module as self, as every namespace function does. */
#include "python/base/pyheaders.h"
#include "python/namespace/extensions.h"
#include "python/namespace/sets.h"

/* The core namespace's functions that linalg repeats, as the standard
 * lists them. */
static const char *const linalg_shared[] = {"matmul", "matrix_transpose",
                                            "tensordot", "vecdot", NULL};

static int
add_function(PyObject *sub, PyObject *all, PyObject *name, PyObject *f)
{
    int rc = f == NULL ? -1 : PyObject_SetAttr(sub, name, f);
    Py_XDECREF(f);
    return rc < 0 ? -1 : PyList_Append(all, name);
}

/* A module named usmarray.<name> holding the methods of tables (a
 * NULL-ended list) bound to module, and module's own functions `shared`,
 * listed in its __all__ in that order. */
static PyObject *
submodule(PyObject *module, const char *name, const char *doc,
          PyMethodDef *const *tables, const char *const *shared)
{
    PyObject *sub = PyUnicode_FromFormat("usmarray.%s", name);
    PyObject *mod = sub != NULL ? PyModule_NewObject(sub) : NULL;
    PyObject *all = PyList_New(0);
    int rc = mod != NULL && all != NULL ? 0 : -1;
    if (rc == 0) {
        PyObject *d = PyUnicode_FromString(doc);
        rc = d == NULL ? -1 : PyObject_SetAttrString(mod, "__doc__", d);
        Py_XDECREF(d);
    }
    for (PyMethodDef *const *t = tables; rc == 0 && *t != NULL; t++) {
        for (PyMethodDef *m = *t; rc == 0 && m->ml_name != NULL; m++) {
            PyObject *key = PyUnicode_FromString(m->ml_name);
            rc = key == NULL
                     ? -1
                     : add_function(mod, all, key,
                                    PyCMethod_New(m, module, sub, NULL));
            Py_XDECREF(key);
        }
    }
    for (const char *const *s = shared; rc == 0 && *s != NULL; s++) {
        PyObject *key = PyUnicode_FromString(*s);
        rc = key == NULL
                 ? -1
                 : add_function(mod, all, key, PyObject_GetAttr(module, key));
        Py_XDECREF(key);
    }
    if (rc == 0) {
        rc = PyObject_SetAttrString(mod, "__all__", all);
    }
    Py_XDECREF(sub);
    Py_XDECREF(all);
    if (rc < 0) {
        Py_CLEAR(mod);
    }
    return mod;
}

/* The standard's named tuples of linalg's results, kept in the module's
 * state too, so that a factorization makes its result without looking
 * its type up. */
static int
add_linalg_results(PyObject *linalg, ua_state *st)
{
    static PyStructSequence_Field eigh[] = {
        {"eigenvalues", NULL}, {"eigenvectors", NULL}, {NULL, NULL}};
    static PyStructSequence_Field qr[] = {
        {"Q", NULL}, {"R", NULL}, {NULL, NULL}};
    static PyStructSequence_Field slogdet[] = {
        {"sign", NULL}, {"logabsdet", NULL}, {NULL, NULL}};
    static PyStructSequence_Field svd[] = {
        {"U", NULL}, {"S", NULL}, {"Vh", NULL}, {NULL, NULL}};
    const char *p = "usmarray.linalg";
    return ua_py_add_result_type(linalg, p, "EighResult", "eigh's result",
                                 eigh, 2, &st->EighResult_Type) < 0 ||
                   ua_py_add_result_type(linalg, p, "EigResult",
                                         "eig's result", eigh, 2,
                                         &st->EigResult_Type) < 0 ||
                   ua_py_add_result_type(linalg, p, "QRResult", "qr's result",
                                         qr, 2, &st->QRResult_Type) < 0 ||
                   ua_py_add_result_type(linalg, p, "SlogdetResult",
                                         "slogdet's result", slogdet, 2,
                                         &st->SlogdetResult_Type) < 0 ||
                   ua_py_add_result_type(linalg, p, "SVDResult",
                                         "svd's result", svd, 3,
                                         &st->SVDResult_Type) < 0
               ? -1
               : 0;
}

int
ua_py_extensions_add(PyObject *module, ua_state *st)
{
    static const char *const none[] = {NULL};
    static PyMethodDef *const linalg_tables[] = {
        ua_py_linalg_factorization_methods, ua_py_linalg_norm_methods, NULL};
    static PyMethodDef *const fft_tables[] = {ua_py_fft_transform_methods,
                                              ua_py_fft_freq_methods, NULL};
    st->LinAlgError = PyErr_NewExceptionWithDoc(
        "usmarray.linalg.LinAlgError",
        "A factorization failed: a singular matrix, one that is not "
        "positive definite, or an iteration that did not converge.",
        PyExc_ValueError, NULL);
    if (st->LinAlgError == NULL) {
        return -1;
    }
    PyObject *linalg = submodule(
        module, "linalg",
        "The Array API standard's linear algebra extension, over LAPACK on "
        "the host and cuSOLVER on CUDA.",
        linalg_tables, linalg_shared);
    int rc = linalg == NULL || add_linalg_results(linalg, st) < 0 ||
                     PyModule_AddObjectRef(linalg, "LinAlgError",
                                           st->LinAlgError) < 0 ||
                     PyModule_AddObjectRef(module, "linalg", linalg) < 0
                 ? -1
                 : 0;
    Py_XDECREF(linalg);
    if (rc < 0) {
        return -1;
    }
    PyObject *fft = submodule(
        module, "fft",
        "The Array API standard's FFT extension, over NumPy's pocketfft on "
        "host memory and cuFFT on CUDA.",
        fft_tables, none);
    rc = fft == NULL || PyModule_AddObjectRef(module, "fft", fft) < 0 ? -1 : 0;
    Py_XDECREF(fft);
    if (rc < 0) {
        return -1;
    }
    ua_py_fft_install_host();
    return 0;
}
