/* The standard's linalg extension: the factorizations (cholesky, eigh,
 * eigvalsh, inv, qr, solve, svd, svdvals; det and slogdet in
 * linalg_det.c) and diagonal.
 * Each copies its operand once into column-major matrices, LAPACK's and
 * cuSOLVER's layout, which the results keep: a result's matrices are the
 * matrix transposes of C-ordered ones, and views say so in their strides.
 * linalg_norms.c composes the others. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/dtypes.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/extensions.h"
#include "python/namespace/linalg_ext.h"
#include "python/namespace/reducing.h"
#include "python/namespace/sets.h"
#include "core/compute/compute.h"
#include "core/compute/library.h"

#include <string.h>

static PyObject *
cholesky(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
         PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "upper", NULL};
    static const ua_py_argspec spec = {"cholesky", kwlist, 1, 1};
    PyObject *v[2] = {NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    int upper = 0;
    ua_typenum t;
    Py_ssize_t n;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_la_operand(st, v[0], "cholesky", &t) < 0 ||
        ua_py_la_check_square(v[0], "cholesky", &n) < 0 ||
        ua_py_parse_bool(v[1], "cholesky", "upper", &upper) < 0) {
        return NULL;
    }
    PyObject *a = ua_py_la_colmajor_copy(st, v[0], t);
    if (a == NULL) {
        return NULL;
    }
    ua_solver_plan p = {.op = UA_SOLVER_CHOLESKY,
                        .type = t,
                        .batch = ua_py_la_batch_of(a),
                        .m = n,
                        .n = n,
                        .a = ARR(a)->data};
    /* L is a's lower triangle: the other, a's input still, zeroed in
     * place (the band's rows are a's columns, element (r, c) at r + c n) */
    ua_band_plan z = {.dst = ARR(a)->data,
                      .batch = p.batch,
                      .rows = n,
                      .cols = n,
                      .lo = 0,
                      .hi = PTRDIFF_MAX / 2,
                      .itemsize = ua_py_array_itemsize(a),
                      .set_outside = true};
    if (ua_py_la_run_solver(st, a, &p) < 0 ||
        ua_py_run_core(st, ua_queue_band(queue_of_array(a), &z)) < 0) {
        Py_DECREF(a);
        return NULL;
    }
    PyObject *l = a;
    if (!upper) {
        return l;
    }
    /* U = L^H */
    PyObject *u = ua_py_la_mT(l);
    Py_DECREF(l);
    if (u == NULL || t == UA_FLOAT32 || t == UA_FLOAT64) {
        return u;
    }
    PyObject *c = ua_py_la_ew1(st, UA_EW_conj, u);
    Py_DECREF(u);
    return c;
}

/* eigh and eigvalsh. */
static PyObject *
eigen(PyObject *module, PyObject *x, const char *fn, bool vectors)
{
    ua_state *st = PyModule_GetState(module);
    ua_typenum t;
    Py_ssize_t n;
    if (ua_py_la_operand(st, x, fn, &t) < 0 ||
        ua_py_la_check_square(x, fn, &n) < 0) {
        return NULL;
    }
    Py_ssize_t shape[UA_MAXDIMS];
    int nd = ua_py_la_batch_shape(x, n, -1, shape);
    PyObject *a = ua_py_la_colmajor_copy(st, x, t);
    PyObject *w = a != NULL
                      ? ua_py_result_like(st, x, nd, shape, ua_py_real_of(t))
                      : NULL;
    if (w != NULL) {
        ua_solver_plan p = {.op = UA_SOLVER_EIGH,
                            .type = t,
                            .batch = ua_py_la_batch_of(x),
                            .m = n,
                            .n = n,
                            .vectors = vectors,
                            .a = ARR(a)->data,
                            .w = ARR(w)->data};
        if (ua_py_la_run_solver(st, x, &p) < 0) {
            Py_CLEAR(w);
        }
    }
    if (!vectors || w == NULL) {
        Py_XDECREF(a);
        return w;
    }
    PyObject *items[2] = {w, a};
    return ua_py_struct_of(st->EighResult_Type, 2, items);
}

static PyObject *
eigh(PyObject *module, PyObject *x)
{
    return eigen(module, x, "eigh", true);
}

static PyObject *
eigvalsh(PyObject *module, PyObject *x)
{
    return eigen(module, x, "eigvalsh", false);
}

/* eig and eigvals. */

/* NumPy's refusal of a matrix with a NaN or an infinity, whose general
 * eigenproblem LAPACK and cuSOLVER would not answer meaningfully. */
static int
check_finite(ua_state *st, PyObject *x, const char *fn)
{
    PyObject *finite = ua_py_la_ew1(st, UA_EW_isfinite, x);
    PyObject *all =
        finite ? ua_py_la_reduce(st, UA_REDUCE_ALL, finite,
                                 ((uint64_t)1 << ARR(x)->nd) - 1, false)
               : NULL;
    int truth = all ? PyObject_IsTrue(all) : -1;
    Py_XDECREF(finite);
    Py_XDECREF(all);
    if (truth == 0) {
        PyErr_Format(st->LinAlgError ? st->LinAlgError : PyExc_ValueError,
                     "%s: the matrices must not hold infinities or NaNs", fn);
    }
    return truth == 1 ? 0 : -1;
}

/* A real matrix's eigenvectors as complex ones: where eigenvalue j has a
 * positive imaginary part, columns j and j + 1 of v hold the real and
 * imaginary parts of its vector, and eigenvalue j + 1 (its conjugate)
 * has the conjugate vector (library_kernels.h's EIG). */
static PyObject *
complex_vectors(PyObject *module, PyObject *w, PyObject *v)
{
    ua_state *st = PyModule_GetState(module);
    PyObject *zero = PyLong_FromLong(0), *i = PyComplex_FromDoubles(0, 1);
    PyObject *im = ua_py_la_ew1(st, UA_EW_imag, w);
    PyObject *pos = ua_py_la_ew2(st, UA_EW_greater, im, zero);
    PyObject *neg = ua_py_la_ew2(st, UA_EW_less, im, zero);
    PyObject *first =
        pos ? ua_py_ns_call(module, "expand_dims", Py_BuildValue("(O)", pos),
                            Py_BuildValue("{s:i}", "axis", -2))
            : NULL;
    PyObject *second =
        neg ? ua_py_ns_call(module, "expand_dims", Py_BuildValue("(O)", neg),
                            Py_BuildValue("{s:i}", "axis", -2))
            : NULL;
    PyObject *next =
        ua_py_ns_call(module, "roll", Py_BuildValue("(Oi)", v, -1),
                      Py_BuildValue("{s:i}", "axis", -1));
    PyObject *prev = ua_py_ns_call(module, "roll", Py_BuildValue("(Oi)", v, 1),
                                   Py_BuildValue("{s:i}", "axis", -1));
    PyObject *inext = ua_py_la_ew2(st, UA_EW_multiply, next, i);
    PyObject *iv = ua_py_la_ew2(st, UA_EW_multiply, v, i);
    PyObject *lead = ua_py_la_ew2(st, UA_EW_add, v, inext);
    PyObject *trail = ua_py_la_ew2(st, UA_EW_subtract, prev, iv);
    PyObject *rest = ua_py_la_where(st, second, trail, lead ? v : NULL);
    PyObject *out = ua_py_la_where(st, first, lead, rest);
    PyObject *temps[] = {zero, i,    im,    pos, neg,  first, second,
                         next, prev, inext, iv,  lead, trail, rest};
    for (size_t k = 0; k < sizeof temps / sizeof *temps; k++) {
        Py_XDECREF(temps[k]);
    }
    return out;
}

static PyObject *
general_eigen(PyObject *module, PyObject *x, const char *fn, bool vectors)
{
    ua_state *st = PyModule_GetState(module);
    ua_typenum t;
    Py_ssize_t n;
    if (ua_py_la_operand(st, x, fn, &t) < 0 ||
        ua_py_la_check_square(x, fn, &n) < 0 || check_finite(st, x, fn) < 0) {
        return NULL;
    }
    ua_typenum ct = t == UA_FLOAT32   ? UA_COMPLEX64
                    : t == UA_FLOAT64 ? UA_COMPLEX128
                                      : t;
    Py_ssize_t shape[UA_MAXDIMS];
    int nd = ua_py_la_batch_shape(x, n, -1, shape);
    PyObject *a = ua_py_la_colmajor_copy(st, x, t);
    PyObject *w = a ? ua_py_result_like(st, x, nd, shape, ct) : NULL;
    PyObject *v = w && vectors ? ua_py_la_colmajor_empty(st, x, ARR(x)->nd,
                                                         ARR(x)->shape, t)
                               : NULL;
    if (w != NULL && (v != NULL || !vectors)) {
        ua_solver_plan p = {.op = UA_SOLVER_EIG,
                            .type = t,
                            .batch = ua_py_la_batch_of(x),
                            .m = n,
                            .n = n,
                            .vectors = vectors,
                            .a = ARR(a)->data,
                            .w = ARR(w)->data,
                            .v = v ? ARR(v)->data : NULL};
        if (ua_py_la_run_solver(st, x, &p) < 0) {
            Py_CLEAR(w);
        }
    }
    Py_XDECREF(a);
    if (!vectors) {
        return w;
    }
    if (w == NULL || v == NULL) {
        Py_XDECREF(w);
        Py_XDECREF(v);
        return NULL;
    }
    if (ct != t) {
        PyObject *c = complex_vectors(module, w, v);
        Py_SETREF(v, c);
    }
    PyObject *items[2] = {w, v};
    return ua_py_struct_of(st->EigResult_Type, 2, items);
}

static PyObject *
eig(PyObject *module, PyObject *x)
{
    return general_eigen(module, x, "eig", true);
}

static PyObject *
eigvals(PyObject *module, PyObject *x)
{
    return general_eigen(module, x, "eigvals", false);
}

/* Solves a x = b in place of b, both column-major copies made here. */
static int
solve_into(ua_state *st, PyObject *a, PyObject *b, ua_typenum t)
{
    int nd = ARR(b)->nd;
    ua_solver_plan p = {.op = UA_SOLVER_SOLVE,
                        .type = t,
                        .batch = ua_py_la_batch_of(b),
                        .m = ARR(b)->shape[nd - 2],
                        .n = ARR(b)->shape[nd - 2],
                        .nrhs = ARR(b)->shape[nd - 1],
                        .a = ARR(a)->data,
                        .b = ARR(b)->data};
    return ua_py_la_run_solver(st, b, &p);
}

PyObject *
ua_py_inv(PyObject *module, PyObject *x, const char *fn)
{
    ua_state *st = PyModule_GetState(module);
    ua_typenum t;
    Py_ssize_t n;
    if (ua_py_la_operand(st, x, fn, &t) < 0 ||
        ua_py_la_check_square(x, fn, &n) < 0) {
        return NULL;
    }
    PyObject *a = ua_py_la_colmajor_copy(st, x, t);
    PyObject *b = a != NULL ? ua_py_la_identities(module, x, n, t) : NULL;
    if (b != NULL && solve_into(st, a, b, t) < 0) {
        Py_CLEAR(b);
    }
    Py_XDECREF(a);
    return b;
}

static PyObject *
inv(PyObject *module, PyObject *x)
{
    return ua_py_inv(module, x, "inv");
}

/* The common floating type of two factorization types. */
static ua_typenum
join_types(ua_typenum a, ua_typenum b)
{
    bool complex = a == UA_COMPLEX64 || a == UA_COMPLEX128 ||
                   b == UA_COMPLEX64 || b == UA_COMPLEX128;
    bool wide = a == UA_FLOAT64 || a == UA_COMPLEX128 || b == UA_FLOAT64 ||
                b == UA_COMPLEX128;
    return complex ? (wide ? UA_COMPLEX128 : UA_COMPLEX64)
                   : (wide ? UA_FLOAT64 : UA_FLOAT32);
}

/* x broadcast to batch (nb axes) followed by x's last `keep` axes. */
static PyObject *
broadcast_batch(PyObject *module, PyObject *x, int nb, const Py_ssize_t *batch,
                int keep)
{
    PyObject *shape = PyTuple_New(nb + keep);
    for (int i = 0; shape != NULL && i < nb + keep; i++) {
        Py_ssize_t e =
            i < nb ? batch[i] : ARR(x)->shape[ARR(x)->nd - keep + i - nb];
        PyObject *o = PyLong_FromSsize_t(e);
        if (o == NULL) {
            Py_CLEAR(shape);
            break;
        }
        PyTuple_SET_ITEM(shape, i, o);
    }
    PyObject *out = ua_py_ns_call2(module, "broadcast_to", x, shape);
    Py_XDECREF(shape);
    return out;
}

/* The batch shape that x1's and x2's batch axes broadcast to. */
static int
broadcast_batches(PyObject *x1, int k1, PyObject *x2, int k2,
                  Py_ssize_t *batch, int *nb)
{
    int n1 = ARR(x1)->nd - k1, n2 = ARR(x2)->nd - k2;
    *nb = n1 > n2 ? n1 : n2;
    for (int i = 0; i < *nb; i++) {
        int i1 = i - (*nb - n1), i2 = i - (*nb - n2);
        Py_ssize_t e1 = i1 >= 0 ? ARR(x1)->shape[i1] : 1;
        Py_ssize_t e2 = i2 >= 0 ? ARR(x2)->shape[i2] : 1;
        if (e1 != e2 && e1 != 1 && e2 != 1) {
            PyErr_Format(PyExc_ValueError,
                         "linalg.solve: the batch shapes of x1 and x2 do not "
                         "broadcast (%zd against %zd)",
                         e1, e2);
            return -1;
        }
        batch[i] = e1 == 1 ? e2 : e1;
    }
    return 0;
}

static PyObject *
solve(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
      PyObject *kwnames)
{
    static const char *const kwlist[] = {"x1", "x2", NULL};
    static const ua_py_argspec spec = {"solve", kwlist, 2, 2};
    PyObject *v[2] = {NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    ua_typenum t1, t2;
    Py_ssize_t n;
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_la_operand(st, v[0], "solve", &t1) < 0 ||
        ua_py_la_check_square(v[0], "solve", &n) < 0 ||
        ua_py_check_array(st, v[1], "solve") < 0 ||
        ua_py_linalg_type(v[1], "solve", &t2) < 0) {
        return NULL;
    }
    /* x2 of one dimension is one vector (NumPy 2, the standard) */
    bool vector = ARR(v[1])->nd == 1;
    int keep2 = vector ? 1 : 2;
    if (ARR(v[1])->nd < 1 || ARR(v[1])->shape[ARR(v[1])->nd - keep2] != n) {
        PyErr_Format(PyExc_ValueError,
                     "linalg.solve: x2 must have %zd rows as x1's matrices "
                     "have (shape (%zd,) or (..., %zd, K))",
                     n, n, n);
        return NULL;
    }
    Py_ssize_t batch[UA_MAXDIMS];
    int nb;
    if (broadcast_batches(v[0], 2, v[1], keep2, batch, &nb) < 0) {
        return NULL;
    }
    ua_typenum t = join_types(t1, t2);
    PyObject *x2 =
        vector ? ua_py_ns_call(module, "expand_dims", PyTuple_Pack(1, v[1]),
                               Py_BuildValue("{s:i}", "axis", -1))
               : Py_NewRef(v[1]);
    PyObject *b1 = broadcast_batch(module, v[0], nb, batch, 2);
    PyObject *b2 =
        x2 != NULL ? broadcast_batch(module, x2, nb, batch, 2) : NULL;
    Py_XDECREF(x2);
    PyObject *a =
        b1 != NULL && b2 != NULL ? ua_py_la_colmajor_copy(st, b1, t) : NULL;
    PyObject *b = a != NULL ? ua_py_la_colmajor_copy(st, b2, t) : NULL;
    Py_XDECREF(b1);
    Py_XDECREF(b2);
    if (b != NULL && solve_into(st, a, b, t) < 0) {
        Py_CLEAR(b);
    }
    Py_XDECREF(a);
    if (b == NULL || !vector) {
        return b;
    }
    PyObject *out =
        ua_py_array_make(st, ARR(b)->nd - 1, ARR(b)->shape, ARR(b)->strides, t,
                         ARR(b)->data, ARR(b)->base, 1);
    Py_DECREF(b);
    return out;
}

/* x[..., :rows, :cols] */
static PyObject *
top_left(PyObject *x, Py_ssize_t rows, Py_ssize_t cols)
{
    PyObject *r = PyLong_FromSsize_t(rows), *c = PyLong_FromSsize_t(cols);
    PyObject *sr = r ? PySlice_New(Py_None, r, Py_None) : NULL;
    PyObject *sc = c ? PySlice_New(Py_None, c, Py_None) : NULL;
    PyObject *key = sr && sc ? PyTuple_Pack(3, Py_Ellipsis, sr, sc) : NULL;
    PyObject *out = key ? ua_py_array_subscript(x, key) : NULL;
    Py_XDECREF(r);
    Py_XDECREF(c);
    Py_XDECREF(sr);
    Py_XDECREF(sc);
    Py_XDECREF(key);
    return out;
}

/* Q of QR's reflectors in a, with qc columns. */
static PyObject *
qr_q(PyObject *module, PyObject *x, PyObject *a, PyObject *tau, Py_ssize_t qc,
     ua_typenum t)
{
    ua_state *st = PyModule_GetState(module);
    int nd = ARR(a)->nd;
    Py_ssize_t m = ARR(a)->shape[nd - 2], n = ARR(a)->shape[nd - 1];
    Py_ssize_t k = m < n ? m : n, cols = n < qc ? n : qc;
    if (k == 0) {
        return qc == m ? ua_py_la_identities(module, x, m, t)
                       : top_left(a, m, 0);
    }
    Py_ssize_t shape[UA_MAXDIMS];
    ua_py_la_batch_shape(x, m, qc, shape);
    PyObject *q = ua_py_la_colmajor_empty(st, x, nd, shape, t);
    PyObject *dst = q != NULL ? top_left(q, m, cols) : NULL;
    PyObject *src = dst != NULL ? top_left(a, m, cols) : NULL;
    int rc = src != NULL ? ua_py_array_assign(st, dst, src) : -1;
    Py_XDECREF(dst);
    Py_XDECREF(src);
    if (rc == 0) {
        ua_solver_plan p = {.op = UA_SOLVER_QR_Q,
                            .type = t,
                            .batch = ua_py_la_batch_of(x),
                            .m = m,
                            .n = qc,
                            .k = k,
                            .a = ARR(q)->data,
                            .tau = ARR(tau)->data};
        rc = ua_py_la_run_solver(st, x, &p);
    }
    if (rc < 0) {
        Py_CLEAR(q);
    }
    return q;
}

static PyObject *
qr(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
   PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "mode", NULL};
    static const ua_py_argspec spec = {"qr", kwlist, 1, 1};
    PyObject *v[2] = {NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    ua_typenum t;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_la_operand(st, v[0], "qr", &t) < 0) {
        return NULL;
    }
    bool complete = false;
    if (v[1] != NULL) {
        const char *mode = PyUnicode_Check(v[1]) ? PyUnicode_AsUTF8(v[1]) : "";
        if (mode == NULL) {
            return NULL;
        }
        complete = strcmp(mode, "complete") == 0;
        if (!complete && strcmp(mode, "reduced") != 0) {
            PyErr_Format(PyExc_ValueError,
                         "linalg.qr: mode must be 'reduced' or 'complete', "
                         "not %R",
                         v[1]);
            return NULL;
        }
    }
    PyObject *x = v[0];
    int nd = ARR(x)->nd;
    Py_ssize_t m = ARR(x)->shape[nd - 2], n = ARR(x)->shape[nd - 1];
    Py_ssize_t k = m < n ? m : n;
    Py_ssize_t shape[UA_MAXDIMS];
    int tnd = ua_py_la_batch_shape(x, k, -1, shape);
    PyObject *a = ua_py_la_colmajor_copy(st, x, t);
    PyObject *tau = a != NULL ? ua_py_result_like(st, x, tnd, shape, t) : NULL;
    int rc = tau != NULL ? 0 : -1;
    if (rc == 0 && k > 0) {
        ua_solver_plan p = {.op = UA_SOLVER_QR,
                            .type = t,
                            .batch = ua_py_la_batch_of(x),
                            .m = m,
                            .n = n,
                            .a = ARR(a)->data,
                            .tau = ARR(tau)->data};
        rc = ua_py_la_run_solver(st, x, &p);
    }
    PyObject *items[2] = {NULL, NULL};
    if (rc == 0) {
        items[0] = qr_q(module, x, a, tau, complete ? m : k, t);
        PyObject *top = items[0] ? top_left(a, complete ? m : k, n) : NULL;
        items[1] = ua_py_ns_call1(module, "triu", top);
        Py_XDECREF(top);
    }
    Py_XDECREF(a);
    Py_XDECREF(tau);
    return rc < 0 ? NULL : ua_py_struct_of(st->QRResult_Type, 2, items);
}

/* Whether the SVD of x's matrices reports a NaN itself: the core runs the
 * factorizations of every CPU device on the host's LAPACK, whose gesdd
 * refuses such a matrix (LinAlgError); cuSOLVER's SVDs return NaNs or
 * fail to converge instead. */
static bool
solver_refuses_nan(PyObject *x)
{
    ua_device *d = ua_queue_device(queue_of_array(x));
    return ua_device_get_type(d) == UA_DEVICE_CPU;
}

/* 1 where x holds a NaN (LinAlgError raised), 0 where not, -1 on error:
 * NumPy raises for such a matrix, so the devices whose solver does not
 * are checked here (isnan, any, and the wait to read the flag). */
static int
refuse_nan(ua_state *st, PyObject *x)
{
    if (solver_refuses_nan(x)) {
        return 0;
    }
    PyObject *nan = ua_py_la_ew1(st, UA_EW_isnan, x);
    PyObject *any =
        ua_py_la_reduce_last(st, UA_REDUCE_ANY, nan, ARR(x)->nd, false);
    int found = any != NULL ? PyObject_IsTrue(any) : -1;
    Py_XDECREF(nan);
    Py_XDECREF(any);
    if (found == 1) {
        /* worded as host_lapack.c words gesdd's refusal */
        PyErr_SetString(st->LinAlgError, "a matrix of the batch holds a NaN: "
                                         "its SVD did not converge");
    }
    return found;
}

/* The SVD of x: s always, u and vh where they are not NULL. */
static int
svd_of(PyObject *module, PyObject *x, const char *fn, bool full, PyObject **u,
       PyObject **s, PyObject **vh)
{
    ua_state *st = PyModule_GetState(module);
    ua_typenum t;
    if (ua_py_la_operand(st, x, fn, &t) < 0) {
        return -1;
    }
    if (refuse_nan(st, x) != 0) {
        return -1;
    }
    bool vectors = u != NULL;
    int nd = ARR(x)->nd;
    Py_ssize_t m = ARR(x)->shape[nd - 2], n = ARR(x)->shape[nd - 1];
    Py_ssize_t k = m < n ? m : n;
    Py_ssize_t shape[UA_MAXDIMS];
    ua_py_la_batch_shape(x, k, -1, shape);
    PyObject *a = ua_py_la_colmajor_copy(st, x, t);
    *s = a != NULL ? ua_py_result_like(st, x, nd - 1, shape, ua_py_real_of(t))
                   : NULL;
    if (vectors && *s != NULL) {
        ua_py_la_batch_shape(x, m, full ? m : k, shape);
        *u = ua_py_la_colmajor_empty(st, x, nd, shape, t);
        ua_py_la_batch_shape(x, full ? n : k, n, shape);
        *vh = *u != NULL ? ua_py_la_colmajor_empty(st, x, nd, shape, t) : NULL;
    }
    int rc = *s != NULL && (!vectors || *vh != NULL) ? 0 : -1;
    if (rc == 0 && k > 0) {
        ua_solver_plan p = {.op = UA_SOLVER_SVD,
                            .type = t,
                            .batch = ua_py_la_batch_of(x),
                            .m = m,
                            .n = n,
                            .vectors = vectors,
                            .full = full,
                            .a = ARR(a)->data,
                            .w = ARR(*s)->data,
                            .u = vectors ? ARR(*u)->data : NULL,
                            .vt = vectors ? ARR(*vh)->data : NULL};
        rc = ua_py_la_run_solver(st, x, &p);
    } else if (rc == 0 && vectors && full) {
        /* No singular values: U and V are whole bases. */
        Py_SETREF(*u, ua_py_la_identities(module, x, m, t));
        Py_SETREF(*vh, ua_py_la_identities(module, x, n, t));
        rc = *u != NULL && *vh != NULL ? 0 : -1;
    }
    Py_XDECREF(a);
    if (rc < 0) {
        Py_CLEAR(*s);
        if (vectors) {
            Py_CLEAR(*u);
            Py_CLEAR(*vh);
        }
    }
    return rc;
}

PyObject *
ua_py_svdvals(PyObject *module, PyObject *x, const char *fn)
{
    PyObject *s = NULL;
    return svd_of(module, x, fn, false, NULL, &s, NULL) < 0 ? NULL : s;
}

int
ua_py_svd_reduced(PyObject *module, PyObject *x, const char *fn, PyObject **u,
                  PyObject **s, PyObject **vh)
{
    return svd_of(module, x, fn, false, u, s, vh);
}

static PyObject *
svd(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
    PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "full_matrices", NULL};
    static const ua_py_argspec spec = {"svd", kwlist, 1, 1};
    PyObject *v[2] = {NULL, NULL};
    int full = 1;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_parse_bool(v[1], "svd", "full_matrices", &full) < 0) {
        return NULL;
    }
    PyObject *items[3] = {NULL, NULL, NULL};
    if (svd_of(module, v[0], "svd", full, &items[0], &items[1], &items[2]) <
        0) {
        return NULL;
    }
    ua_state *st = PyModule_GetState(module);
    return ua_py_struct_of(st->SVDResult_Type, 3, items);
}

static PyObject *
svdvals(PyObject *module, PyObject *x)
{
    return ua_py_svdvals(module, x, "svdvals");
}

static PyObject *
diagonal(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
         PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "offset", NULL};
    static const ua_py_argspec spec = {"diagonal", kwlist, 1, 1};
    PyObject *v[2] = {NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    Py_ssize_t offset = 0;
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "diagonal") < 0 ||
        ua_py_linalg_check_matrices(v[0], "diagonal") < 0 ||
        (v[1] != NULL && ua_py_index(v[1], "offset", &offset) < 0)) {
        return NULL;
    }
    return ua_py_diagonal_view(st, v[0], offset);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* Their operands as snapshots: their other arguments' hooks run after
 * they read the operands' layouts. */
UA_PY_ON_SNAPSHOTS(cholesky)
UA_PY_ON_SNAPSHOTS(diagonal)
UA_PY_ON_SNAPSHOTS(qr)
UA_PY_ON_SNAPSHOTS(solve)
UA_PY_ON_SNAPSHOTS(svd)

PyMethodDef ua_py_linalg_factorization_methods[] = {
    {"cholesky", KW(cholesky_on_snapshots),
     "cholesky(x, /, *, upper=False)\n--\n\nThe Cholesky factor of each "
     "Hermitian positive-definite matrix: L with x = L L^H, or U = L^H "
     "where upper.  LinAlgError for a matrix that is not positive "
     "definite."},
    {"det", (PyCFunction)ua_py_la_det, METH_O,
     "det(x, /)\n--\n\nThe determinant of each square matrix, from its LU "
     "factors."},
    {"diagonal", KW(diagonal_on_snapshots),
     "diagonal(x, /, *, offset=0)\n--\n\nThe diagonal of each matrix (a "
     "view): offset > 0 above the main one, < 0 below."},
    {"eig", (PyCFunction)eig, METH_O,
     "eig(x, /)\n--\n\nEigenvalues and right eigenvectors (as columns, each "
     "of norm 1 with its largest component real) of general square "
     "matrices, as complex arrays of x's precision: LAPACK's geev on the "
     "host, cuSOLVER's Xgeev on CUDA.  Matrices holding infinities or NaNs "
     "raise LinAlgError."},
    {"eigvals", (PyCFunction)eigvals, METH_O,
     "eigvals(x, /)\n--\n\nThe eigenvalues of general square matrices, as a "
     "complex array of x's precision (see eig)."},
    {"eigh", (PyCFunction)eigh, METH_O,
     "eigh(x, /)\n--\n\nEigenvalues (ascending) and eigenvectors (as "
     "columns) of each Hermitian matrix, from its lower triangle."},
    {"eigvalsh", (PyCFunction)eigvalsh, METH_O,
     "eigvalsh(x, /)\n--\n\nThe eigenvalues (ascending) of each Hermitian "
     "matrix, from its lower triangle."},
    {"inv", (PyCFunction)inv, METH_O,
     "inv(x, /)\n--\n\nThe inverse of each square matrix; LinAlgError for a "
     "singular one."},
    {"qr", KW(qr_on_snapshots),
     "qr(x, /, *, mode='reduced')\n--\n\nQ and R with x = Q R: Q's columns "
     "orthonormal (M x K, or M x M where mode is 'complete'), R upper "
     "triangular."},
    {"slogdet", (PyCFunction)ua_py_la_slogdet, METH_O,
     "slogdet(x, /)\n--\n\nThe sign (a unit complex number for complex "
     "matrices; 0 for a singular one) and the natural logarithm of the "
     "absolute value of each determinant."},
    {"solve", KW(solve_on_snapshots),
     "solve(x1, x2, /)\n--\n\nThe solution of x1 @ x = x2 for each square "
     "matrix of x1: x2 of shape (M,) is one vector, else (..., M, K) "
     "broadcast against x1's batch.  LinAlgError for a singular matrix."},
    {"svd", KW(svd_on_snapshots),
     "svd(x, /, *, full_matrices=True)\n--\n\nU, S and Vh with x = U diag(S) "
     "Vh, S descending."},
    {"svdvals", (PyCFunction)svdvals, METH_O,
     "svdvals(x, /)\n--\n\nThe singular values of each matrix, "
     "descending."},
    {0},
};
