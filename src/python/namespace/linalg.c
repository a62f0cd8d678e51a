/* The standard's linear algebra functions of the core namespace: matmul,
 * tensordot, vecdot and matrix_transpose, over the matrix product of
 * types/array_matmul.c.  tensordot arranges its operands as matrices by
 * views (a copy only where a reshape needs one), vecdot as batches of
 * vectors. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings_reduce.h"
#include "python/base/dtypes.h"
#include "python/base/errors.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/linalg.h"

#include <string.h>

static PyObject *
matmul(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
       PyObject *kwnames)
{
    static const char *const kwlist[] = {"x1",    "x2",    "out",
                                         "dtype", "order", NULL};
    static const ua_py_argspec spec = {"matmul", kwlist, 2, 2};
    PyObject *v[5] = {NULL, NULL, Py_None, Py_None, NULL};
    ua_state *st = PyModule_GetState(module);
    char order = 0;
    ua_typenum t;
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "matmul") < 0 ||
        ua_py_check_array(st, v[1], "matmul") < 0 ||
        (v[3] != Py_None && ua_py_typenum(st, v[3], &t) < 0) ||
        (v[4] != NULL && ua_py_parse_order(v[4], "CFAK", &order) < 0)) {
        return NULL;
    }
    if (v[2] == Py_None && v[3] == Py_None && order == 0) {
        return ua_py_array_matmul_of(st, v[0], v[1], false);
    }
    return ua_py_array_matmul_out(st, v[0], v[1],
                                  v[2] == Py_None ? NULL : v[2], order,
                                  v[3] == Py_None ? -1 : (int)t);
}

static PyObject *
matrix_transpose(PyObject *module, PyObject *x)
{
    ua_state *st = PyModule_GetState(module);
    if (ua_py_check_array(st, x, "matrix_transpose") < 0) {
        return NULL;
    }
    if (ARR(x)->nd < 2) {
        PyErr_Format(PyExc_ValueError,
                     "matrix_transpose needs an array of at least two "
                     "dimensions, not %d",
                     ARR(x)->nd);
        return NULL;
    }
    return ua_py_array_get_mT(x, NULL);
}

/* x's axes in the order perm gives, then reshaped (a copy where the
 * layout needs one) to (rows, cols). */
static PyObject *
as_matrix(ua_state *st, PyObject *x, const int *perm, Py_ssize_t rows,
          Py_ssize_t cols)
{
    PyObject *p = ua_py_array_permute(x, perm);
    Py_ssize_t shape[2] = {rows, cols};
    PyObject *m = p ? ua_py_array_reshape(st, p, 2, shape, 'C', -1) : NULL;
    Py_XDECREF(p);
    return m;
}

/* tensordot's axes: an int n (the last n of x1 with the first n of x2),
 * or two sequences of axes that pair up; into a[], b[] (normalized). */
static int
parse_pairs(ua_state *st, PyObject *axes, PyObject *x1, PyObject *x2, int *a,
            int *b, int *n)
{
    int n1 = ARR(x1)->nd, n2 = ARR(x2)->nd;
    if (axes == NULL || PyLong_Check(axes)) {
        Py_ssize_t k = 2;
        if (axes != NULL && ua_py_index(axes, "axes", &k) < 0) {
            return -1;
        }
        if (k < 0 || k > n1 || k > n2) {
            PyErr_Format(PyExc_ValueError,
                         "tensordot: axes=%zd must be between 0 and both "
                         "arrays' number of dimensions (%d and %d)",
                         k, n1, n2);
            return -1;
        }
        *n = (int)k;
        for (int i = 0; i < *n; i++) {
            a[i] = n1 - *n + i;
            b[i] = i;
        }
        return 0;
    }
    PyObject *seq = PySequence_Check(axes) ? PySequence_Tuple(axes) : NULL;
    if (seq == NULL || PyTuple_GET_SIZE(seq) != 2) {
        Py_XDECREF(seq);
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError,
                        "tensordot: axes must be an int or a pair of "
                        "sequences of axes");
        return -1;
    }
    int na = 0, nb = 0;
    int rc = ua_py_parse_axis_set(st, PyTuple_GET_ITEM(seq, 0), "tensordot",
                                  n1, a, &na);
    if (rc == 0) {
        rc = ua_py_parse_axis_set(st, PyTuple_GET_ITEM(seq, 1), "tensordot",
                                  n2, b, &nb);
    }
    Py_DECREF(seq);
    if (rc == 0 && na != nb) {
        PyErr_Format(PyExc_ValueError,
                     "tensordot: %d axes of x1 cannot pair with %d of x2", na,
                     nb);
        return -1;
    }
    *n = na;
    return rc;
}

/* perm <- the axes of an nd-array not in used (in order), then used. */
static int
free_axes(int nd, const int *used, int n, int *perm)
{
    bool taken[UA_MAXDIMS] = {false};
    int k = 0;
    for (int i = 0; i < n; i++) {
        taken[used[i]] = true;
    }
    for (int j = 0; j < nd; j++) {
        if (!taken[j]) {
            perm[k++] = j;
        }
    }
    return k;
}

static PyObject *
tensordot(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
          PyObject *kwnames)
{
    static const char *const kwlist[] = {"x1", "x2", "axes", NULL};
    static const ua_py_argspec spec = {"tensordot", kwlist, 2, 2};
    PyObject *v[3] = {NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    int a[UA_MAXDIMS], b[UA_MAXDIMS], n;
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "tensordot") < 0 ||
        ua_py_check_array(st, v[1], "tensordot") < 0 ||
        parse_pairs(st, v[2], v[0], v[1], a, b, &n) < 0) {
        return NULL;
    }
    PyUSMArrayObject *x = ARR(v[0]), *y = ARR(v[1]);
    /* The result's axes are both operands' free ones. */
    if (ua_py_check_ndim(st, "tensordot", x->nd - n + y->nd - n) < 0) {
        return NULL;
    }
    Py_ssize_t k = 1, m = 1, cols = 1, shape[UA_MAXDIMS];
    for (int i = 0; i < n; i++) {
        if (x->shape[a[i]] != y->shape[b[i]]) {
            PyErr_Format(PyExc_ValueError,
                         "tensordot: axis %d of x1 has %zd elements but "
                         "axis %d of x2 has %zd",
                         a[i], x->shape[a[i]], b[i], y->shape[b[i]]);
            return NULL;
        }
        k *= x->shape[a[i]];
    }
    int p1[UA_MAXDIMS], p2[UA_MAXDIMS], nd = 0;
    int f1 = free_axes(x->nd, a, n, p1);
    memcpy(p1 + f1, a, (size_t)n * sizeof(int));
    memcpy(p2, b, (size_t)n * sizeof(int));
    int f2 = free_axes(y->nd, b, n, p2 + n);
    for (int i = 0; i < f1; i++) {
        m *= x->shape[p1[i]];
        shape[nd++] = x->shape[p1[i]];
    }
    for (int i = 0; i < f2; i++) {
        cols *= y->shape[p2[n + i]];
        shape[nd++] = y->shape[p2[n + i]];
    }
    PyObject *ma = as_matrix(st, v[0], p1, m, k);
    PyObject *mb = ma ? as_matrix(st, v[1], p2, k, cols) : NULL;
    PyObject *prod = mb ? ua_py_array_matmul_of(st, ma, mb, false) : NULL;
    Py_XDECREF(ma);
    Py_XDECREF(mb);
    PyObject *out =
        prod ? ua_py_array_reshape(st, prod, nd, shape, 'C', -1) : NULL;
    Py_XDECREF(prod);
    return out;
}

/* A view of x with its axis `axis` moved last. */
static PyObject *
axis_last(PyObject *x, int axis)
{
    int perm[UA_MAXDIMS], k = 0;
    for (int j = 0; j < ARR(x)->nd; j++) {
        if (j != axis) {
            perm[k++] = j;
        }
    }
    perm[k] = axis;
    return ua_py_array_permute(x, perm);
}

static PyObject *
vecdot(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
       PyObject *kwnames)
{
    static const char *const kwlist[] = {"x1", "x2", "axis", NULL};
    static const ua_py_argspec spec = {"vecdot", kwlist, 2, 2};
    PyObject *v[3] = {NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    Py_ssize_t axis;
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], "vecdot") < 0 ||
        ua_py_check_array(st, v[1], "vecdot") < 0 ||
        ua_py_parse_trailing_axis(v[2], "vecdot", v[0], v[1], &axis) < 0) {
        return NULL;
    }
    int a1 = ARR(v[0])->nd + (int)axis, a2 = ARR(v[1])->nd + (int)axis;
    if (ARR(v[0])->shape[a1] != ARR(v[1])->shape[a2]) {
        PyErr_Format(PyExc_ValueError,
                     "vecdot: x1 has %zd elements along axis %zd but x2 has "
                     "%zd",
                     ARR(v[0])->shape[a1], axis, ARR(v[1])->shape[a2]);
        return NULL;
    }
    PyObject *r = axis_last(v[0], a1);
    PyObject *c = r ? axis_last(v[1], a2) : NULL;
    PyObject *out = c ? ua_py_array_vecdot_of(st, r, c) : NULL;
    Py_XDECREF(r);
    Py_XDECREF(c);
    return out;
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* Their operands as snapshots: their other arguments' hooks run after
 * they read the operands' layouts. */
UA_PY_ON_SNAPSHOTS(tensordot)
UA_PY_ON_SNAPSHOTS(vecdot)

static PyMethodDef linalg_functions[] = {
    {"matmul", KW(matmul), UA_DOC_MATMUL},
    {"tensordot", KW(tensordot_on_snapshots), UA_DOC_TENSORDOT},
    {"vecdot", KW(vecdot_on_snapshots), UA_DOC_VECDOT},
    {"matrix_transpose", (PyCFunction)matrix_transpose, METH_O,
     UA_DOC_MATRIX_TRANSPOSE},
    {0},
};

int
ua_py_linalg_add(PyObject *module)
{
    return PyModule_AddFunctions(module, linalg_functions);
}
