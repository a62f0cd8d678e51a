/* linalg_ext.c and linalg_norms.c: the standard's linalg extension.  The
 * factorizations run through the core's solver entry (LAPACK on the host,
 * cuSOLVER on CUDA) on column-major copies; the rest is composed of the
 * namespace's own functions: through their C entries where the binding
 * has them (ua_py_la_ew1 ... below), else called as a user would call
 * them (ua_py_ns_call). */
#ifndef UA_PY_LINALG_EXT_H
#define UA_PY_LINALG_EXT_H

#include "python/base/state.h"
#include "core/compute/compute.h"
#include "core/compute/library_kernels.h"
#include "core/compute/reduce.h"

/* module.<fn>(*args, **kwargs), where args (a tuple) and kwargs (a dict,
 * or NULL for none) are new references that the call consumes; NULL
 * propagates an error of their making. */
PyObject *ua_py_ns_call(PyObject *module, const char *fn, PyObject *args,
                        PyObject *kwargs);
/* module.<fn>(x) and module.<fn>(x, y). */
PyObject *ua_py_ns_call1(PyObject *module, const char *fn, PyObject *x);
PyObject *ua_py_ns_call2(PyObject *module, const char *fn, PyObject *x,
                         PyObject *y);

/* The namespace's elementwise function f of x (and y), and where(cond,
 * x, y), called through their C entry; NULL for a NULL operand. */
PyObject *ua_py_la_ew1(ua_state *st, ua_ew_id f, PyObject *x);
PyObject *ua_py_la_ew2(ua_state *st, ua_ew_id f, PyObject *x, PyObject *y);
PyObject *ua_py_la_where(ua_state *st, PyObject *cond, PyObject *x,
                         PyObject *y);
/* op over the axes (bits) of a floating x, NULL for NULL, as the
 * namespace's sum, prod, max, min, count_nonzero and any reduce it; and
 * over x's last count axes. */
PyObject *ua_py_la_reduce(ua_state *st, ua_reduce_op op, PyObject *x,
                          uint64_t axes, bool keepdims);
PyObject *ua_py_la_reduce_last(ua_state *st, ua_reduce_op op, PyObject *x,
                               int count, bool keepdims);

/* x's floating type for a factorization: float32, float64, complex64 and
 * complex128 as they are; booleans and integers as the device's default
 * real floating type (as NumPy's linalg casts them); TypeError for
 * float16, which LAPACK and cuSOLVER do not take. */
int ua_py_linalg_type(PyObject *x, const char *fn, ua_typenum *t);
/* x has at least two dimensions (ValueError naming fn). */
int ua_py_linalg_check_matrices(PyObject *x, const char *fn);
/* The real type of a floating type. */
ua_typenum ua_py_real_of(ua_typenum t);

/* x's matrices are square: their order in *n (ValueError naming fn). */
int ua_py_la_check_square(PyObject *x, const char *fn, Py_ssize_t *n);
/* The number of matrices of an array: its shape but the last two axes. */
size_t ua_py_la_batch_of(PyObject *x);
/* An array's matrix transpose, a view (NULL for NULL). */
PyObject *ua_py_la_mT(PyObject *x);
/* A copy of x as type t whose matrices are column-major, LAPACK's layout:
 * the C-ordered copy of x's matrix transpose, seen through its own. */
PyObject *ua_py_la_colmajor_copy(ua_state *st, PyObject *x, ua_typenum t);
/* A new array of shape on like's queue whose matrices are column-major. */
PyObject *ua_py_la_colmajor_empty(ua_state *st, PyObject *like, int nd,
                                  const Py_ssize_t *shape, ua_typenum t);
/* like's batch shape followed by rows and cols (cols < 0: none): nd. */
int ua_py_la_batch_shape(PyObject *like, Py_ssize_t rows, Py_ssize_t cols,
                         Py_ssize_t *shape);
/* The core's solver entry on x's queue, without the GIL when long. */
int ua_py_la_run_solver(ua_state *st, PyObject *x, const ua_solver_plan *p);
/* The identity of order n as type t for each matrix of like's batch,
 * column-major. */
PyObject *ua_py_la_identities(PyObject *module, PyObject *like, Py_ssize_t n,
                              ua_typenum t);
/* The keywords (a new dict) that make a new array of dtype dtype_name
 * (or t where NULL) on x's queue and of x's USM kind. */
PyObject *ua_py_la_beside(PyObject *module, PyObject *x,
                          const char *dtype_name, ua_typenum t);
/* x is an array of matrices; its factorization type in *t. */
int ua_py_la_operand(ua_state *st, PyObject *x, const char *fn, ua_typenum *t);

/* The singular values of each matrix of x, descending: (..., min(M, N)). */
PyObject *ua_py_svdvals(PyObject *module, PyObject *x, const char *fn);
/* (u, s, vh) of x's reduced SVD as three new references. */
int ua_py_svd_reduced(PyObject *module, PyObject *x, const char *fn,
                      PyObject **u, PyObject **s, PyObject **vh);
/* linalg.det and linalg.slogdet (linalg_det.c). */
PyObject *ua_py_la_det(PyObject *module, PyObject *x);
PyObject *ua_py_la_slogdet(PyObject *module, PyObject *x);
/* The inverse of each matrix of x. */
PyObject *ua_py_inv(PyObject *module, PyObject *x, const char *fn);

/* The diagonal of each matrix of x, a view (offset as linalg.diagonal's). */
PyObject *ua_py_diagonal_view(ua_state *st, PyObject *x, Py_ssize_t offset);

#endif
