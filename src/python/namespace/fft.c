/* The standard's fft extension, usmarray.fft: the transforms, composed
 * from the compute table's batched transforms of 1 to 3 trailing axes
 * (ua_queue_fft), and their method table; fft_freq.c holds the
 * frequencies and the shifts, and theirs.  A call lists its one-axis transforms in the order
 * NumPy 2 applies them, groups runs of up to three distinct axes into one
 * plan, and for each plan moves those axes last, copies them densely
 * (padded or cut to the plan's lengths) where the operand is not already
 * so, and transforms into a new array on the operand's queue. */
#include "python/base/pyheaders.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "python/base/convert.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/extensions.h"
#include "python/namespace/fft.h"
#include "python/namespace/fft_docs.h"
#include "python/namespace/reducing.h"

#include "core/compute/compute.h"
#include "core/compute/library.h"

typedef enum { NORM_BACKWARD, NORM_ORTHO, NORM_FORWARD } fft_norm;

/* What tells one transform function from another. */
typedef struct {
    const char *name;
    ua_fft_kind kind; /* C2C, or the real kind of the real axis */
    bool inverse;     /* C2C: exp(+...) */
    bool hermitian;   /* hfft, ihfft: the conjugate of irfft's, rfft's */
} fft_function;

/* One call: the one-axis transforms in the order they apply, the real
 * one (where kind is not C2C) first for R2C and last for C2R. */
typedef struct {
    const fft_function *f;
    int count;
    int axes[UA_MAXDIMS];
    Py_ssize_t n[UA_MAXDIMS]; /* lengths of the real (or complex) side */
    fft_norm norm;
    ua_typenum ctype, rtype; /* the complex side's and the real side's */
} fft_call;

/* A plan's axes, the real one (if any) last. */
typedef struct {
    ua_fft_kind kind;
    int rank;
    int axes[3];
    Py_ssize_t n[3];
} fft_step;

/* ----------------------------------------------------------- arguments */

static int
parse_norm(PyObject *obj, const char *fn, fft_norm *out)
{
    static const char *const names[] = {"backward", "ortho", "forward"};
    *out = NORM_BACKWARD;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "%s: norm must be \"backward\", \"ortho\" or "
                     "\"forward\", not %.100s",
                     fn, Py_TYPE(obj)->tp_name);
        return -1;
    }
    for (int k = 0; k < 3; k++) {
        if (PyUnicode_CompareWithASCIIString(obj, names[k]) == 0) {
            *out = (fft_norm)k;
            return 0;
        }
    }
    PyErr_Format(PyExc_ValueError,
                 "%s: norm must be \"backward\", \"ortho\" or \"forward\", "
                 "not %R",
                 fn, obj);
    return -1;
}

int
ua_py_fft_check_ndim(PyObject *x, const char *fn)
{
    if (ARR(x)->nd > 0) {
        return 0;
    }
    PyErr_Format(PyExc_ValueError,
                 "%s needs an array of at least one dimension, not a "
                 "zero-dimensional one",
                 fn);
    return -1;
}

int
ua_py_fft_check_length(const char *fn, const char *what, Py_ssize_t n)
{
    if (n >= 1) {
        return 0;
    }
    PyErr_Format(PyExc_ValueError,
                 "%s: %s must be at least 1, not %zd (a transform of no "
                 "points)",
                 fn, what, n);
    return -1;
}

/* The complex and real types the transform computes in: x's precision,
 * float16 widened to float32 and integers and bools to the device's
 * default floating type, as NumPy 2 computes them.  Complex values have
 * no place on a real side that is the input. */
static int
fft_types(PyObject *x, const fft_function *f, fft_call *c)
{
    ua_typenum t = (ua_typenum)ARR(x)->typenum;
    char kind = ua_dtype_kind(t);
    if (kind == 'c' && f->kind == UA_FFT_R2C) {
        PyErr_Format(PyExc_TypeError,
                     "%s takes real values, not %s: use fft for complex "
                     "input",
                     f->name, ua_dtype_name(t));
        return -1;
    }
    ua_typenum real =
        kind == 'c'   ? (t == UA_COMPLEX128 ? UA_FLOAT64 : UA_FLOAT32)
        : kind == 'f' ? (t == UA_FLOAT64 ? UA_FLOAT64 : UA_FLOAT32)
                      : ua_py_default_float(x);
    c->rtype = real;
    c->ctype = real == UA_FLOAT64 ? UA_COMPLEX128 : UA_COMPLEX64;
    return 0;
}

/* A sequence argument (s or axes) of at most UA_MAXDIMS integers; a bare
 * integer is refused, as the standard asks for a sequence. */
static int
parse_sequence(PyObject *obj, const char *fn, const char *what,
               Py_ssize_t *out, int *n)
{
    if (PyUnicode_Check(obj) || PyBytes_Check(obj) || !PySequence_Check(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "%s: %s must be None or a sequence of integers, not "
                     "%.100s",
                     fn, what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    char name[48];
    snprintf(name, sizeof(name), "%s: %s", fn, what);
    return ua_py_index_sequence(obj, name, NULL, out, n);
}

/* fftn's axes and s: axes None is every axis, or the last len(s) where
 * s is given; s None is the axes' lengths (the last one's 2 (m - 1) for
 * C2R), and an entry -1 the axis' length, as NumPy 2 reads them.
 * Repeated axes transform again, in NumPy's order. */
static int
parse_axes_and_s(ua_state *st, PyObject *x, PyObject *s_obj,
                 PyObject *axes_obj, fft_call *c)
{
    const char *fn = c->f->name;
    int nd = ARR(x)->nd, naxes = nd, ns = -1;
    Py_ssize_t given[UA_MAXDIMS], s[UA_MAXDIMS];
    bool have_s = s_obj != NULL && s_obj != Py_None;
    if (have_s && parse_sequence(s_obj, fn, "s", s, &ns) < 0) {
        return -1;
    }
    if (axes_obj != NULL && axes_obj != Py_None) {
        if (parse_sequence(axes_obj, fn, "axes", given, &naxes) < 0) {
            return -1;
        }
    } else {
        if (ns > nd) {
            PyErr_Format(PyExc_ValueError,
                         "%s: s has %d entries but x has %d dimensions", fn,
                         ns, nd);
            return -1;
        }
        naxes = have_s ? ns : nd;
        for (int k = 0; k < naxes; k++) {
            given[k] = nd - naxes + k;
        }
    }
    if (have_s && ns != naxes) {
        PyErr_Format(PyExc_ValueError,
                     "%s: s has %d entries but axes has %d; give one length "
                     "per axis",
                     fn, ns, naxes);
        return -1;
    }
    int axes[UA_MAXDIMS];
    for (int k = 0; k < naxes; k++) {
        if (ua_py_normalize_axis(st, fn, given[k], nd, &axes[k]) < 0) {
            return -1;
        }
        Py_ssize_t m = ARR(x)->shape[axes[k]];
        char what[24];
        snprintf(what, sizeof(what), "s[%d]", k);
        if (have_s) {
            s[k] = s[k] == -1 ? m : s[k];
            if (ua_py_fft_check_length(fn, what, s[k]) < 0) {
                return -1;
            }
            continue;
        }
        s[k] = c->f->kind == UA_FFT_C2R && k == naxes - 1 ? 2 * (m - 1) : m;
        if (s[k] < 1) {
            PyErr_Format(PyExc_ValueError,
                         "%s: axis %d of %zd elements gives %zd points; "
                         "pass s",
                         fn, axes[k], m, s[k]);
            return -1;
        }
    }
    /* NumPy 2's order: C2R's inverse transforms first to last, the real
     * one last; the others last to first (R2C's real one first). */
    c->count = naxes;
    for (int k = 0; k < naxes; k++) {
        int from = c->f->kind == UA_FFT_C2R ? k : naxes - 1 - k;
        c->axes[k] = axes[from];
        c->n[k] = s[from];
    }
    return 0;
}

/* ------------------------------------------------------------ planning */

static void
sort_axes(fft_step *p, int count)
{
    for (int i = 1; i < count; i++) {
        for (int j = i; j > 0 && p->axes[j - 1] > p->axes[j]; j--) {
            int a = p->axes[j];
            Py_ssize_t n = p->n[j];
            p->axes[j] = p->axes[j - 1];
            p->n[j] = p->n[j - 1];
            p->axes[j - 1] = a;
            p->n[j - 1] = n;
        }
    }
}

/* The plan of the transforms from `first` on: as many of them as are of
 * distinct axes, up to three (the real one, which comes first or last in
 * the call, is then first or last in its plan).  Its other axes go in
 * ascending order, which keeps the copy of a C-ordered operand away (the
 * order does not change the result).  Returns how many transforms it
 * takes. */
static int
next_step(const fft_call *c, int first, fft_step *p)
{
    int real = c->f->kind == UA_FFT_C2C   ? -1
               : c->f->kind == UA_FFT_R2C ? 0
                                          : c->count - 1;
    int k = first;
    p->rank = 0;
    p->kind = UA_FFT_C2C;
    while (k < c->count && p->rank < 3) {
        bool repeated = false;
        for (int j = 0; j < p->rank; j++) {
            repeated = repeated || p->axes[j] == c->axes[k];
        }
        if (repeated) {
            break;
        }
        p->axes[p->rank] = c->axes[k];
        p->n[p->rank++] = c->n[k];
        if (k++ == real) {
            p->kind = c->f->kind;
        }
    }
    if (p->kind == UA_FFT_C2C) {
        sort_axes(p, p->rank);
        return k - first;
    }
    /* The real axis last: R2C's is the first taken, C2R's the last. */
    int r = p->kind == UA_FFT_R2C ? 0 : p->rank - 1;
    int axis = p->axes[r];
    Py_ssize_t n = p->n[r];
    for (int j = r; j < p->rank - 1; j++) {
        p->axes[j] = p->axes[j + 1];
        p->n[j] = p->n[j + 1];
    }
    sort_axes(p, p->rank - 1);
    p->axes[p->rank - 1] = axis;
    p->n[p->rank - 1] = n;
    return k - first;
}

/* ----------------------------------------------------------- execution */

/* A view of a's first shape[k] elements along each axis. */
static PyObject *
leading_view(ua_state *st, PyObject *a, const Py_ssize_t *shape, int writable)
{
    return ua_py_array_make(st, ARR(a)->nd, shape, ARR(a)->strides,
                            (ua_typenum)ARR(a)->typenum, ARR(a)->data,
                            ARR(a)->base, writable);
}

/* p as the plan reads it: dense, C-ordered, of type t and shape `shape`
 * (zeros past p's end, p's tail cut off), on x's queue.  p itself where
 * it is so already and may be read in place. */
static PyObject *
dense_input(ua_state *st, PyObject *x, PyObject *p, const Py_ssize_t *shape,
            ua_typenum t, bool own_copy)
{
    PyUSMArrayObject *a = ARR(p);
    int nd = a->nd;
    bool same = !own_copy && (ua_typenum)a->typenum == t &&
                (a->flags & USM_ARRAY_C_CONTIGUOUS);
    bool padded = false;
    Py_ssize_t common[UA_MAXDIMS];
    for (int k = 0; k < nd; k++) {
        same = same && a->shape[k] == shape[k];
        padded = padded || shape[k] > a->shape[k];
        common[k] = shape[k] < a->shape[k] ? shape[k] : a->shape[k];
    }
    if (same) {
        return Py_NewRef(p);
    }
    PyObject *tmp = ua_py_result_like(st, x, nd, shape, t);
    if (tmp == NULL) {
        return NULL;
    }
    PyObject *zero = padded ? PyLong_FromLong(0) : NULL;
    int rc = padded && (zero == NULL || ua_py_array_assign(st, tmp, zero) < 0)
                 ? -1
                 : 0;
    Py_XDECREF(zero);
    PyObject *to = rc == 0 ? leading_view(st, tmp, common, 1) : NULL;
    PyObject *from = to ? leading_view(st, p, common, 0) : NULL;
    rc = from == NULL ? -1 : ua_py_array_assign(st, to, from);
    Py_XDECREF(to);
    Py_XDECREF(from);
    if (rc < 0) {
        Py_CLEAR(tmp);
    }
    return tmp;
}

/* f applied in place to a (conj), or a times `factor` (multiply). */
static int
in_place(ua_state *st, ua_ew_id f, PyObject *a, double factor)
{
    PyObject *ops[2] = {a, f == UA_EW_multiply ? PyFloat_FromDouble(factor)
                                               : NULL};
    if (f == UA_EW_multiply && ops[1] == NULL) {
        return -1;
    }
    PyObject *r =
        ua_py_elementwise(st, f, ops, f == UA_EW_multiply ? 2 : 1, a, false);
    int rc = r == NULL ? -1 : 0;
    Py_XDECREF(ops[1]);
    Py_XDECREF(r);
    return rc;
}

int
ua_py_fft_scale(ua_state *st, PyObject *a, double factor)
{
    return in_place(st, UA_EW_multiply, a, factor);
}

/* One plan over cur (x or an earlier plan's result): its axes moved last,
 * the transform into a new array, and that array's axes put back. */
static PyObject *
run_step(ua_state *st, PyObject *x, PyObject *cur, const fft_call *c,
         const fft_step *p, bool conj_input)
{
    int nd = ARR(cur)->nd, perm[UA_MAXDIMS], back[UA_MAXDIMS], k = 0;
    bool used[UA_MAXDIMS] = {false};
    for (int j = 0; j < p->rank; j++) {
        used[p->axes[j]] = true;
    }
    size_t batch = 1;
    Py_ssize_t in_shape[UA_MAXDIMS], out_shape[UA_MAXDIMS];
    for (int a = 0; a < nd; a++) {
        if (!used[a]) {
            batch *= (size_t)ARR(cur)->shape[a];
            in_shape[k] = out_shape[k] = ARR(cur)->shape[a];
            perm[k++] = a;
        }
    }
    for (int j = 0; j < p->rank; j++, k++) {
        perm[k] = p->axes[j];
        in_shape[k] = out_shape[k] = p->n[j];
    }
    if (p->kind == UA_FFT_C2R) {
        in_shape[nd - 1] = p->n[p->rank - 1] / 2 + 1;
    } else if (p->kind == UA_FFT_R2C) {
        out_shape[nd - 1] = p->n[p->rank - 1] / 2 + 1;
    }
    for (int j = 0; j < nd; j++) {
        back[perm[j]] = j;
    }
    PyObject *moved = ua_py_array_permute(cur, perm);
    /* C2R may overwrite its input (cuFFT's does): never x's memory. */
    PyObject *in =
        moved ? dense_input(st, x, moved, in_shape,
                            p->kind == UA_FFT_R2C ? c->rtype : c->ctype,
                            p->kind == UA_FFT_C2R || conj_input)
              : NULL;
    Py_XDECREF(moved);
    PyObject *out =
        in ? ua_py_result_like(st, x, nd, out_shape,
                               p->kind == UA_FFT_C2R ? c->rtype : c->ctype)
           : NULL;
    int rc = out == NULL || (conj_input && in_place(st, UA_EW_conj, in, 0) < 0)
                 ? -1
                 : 0;
    if (rc == 0) {
        ua_fft_plan plan = {
            .kind = p->kind,
            .inverse = c->f->inverse,
            .type = c->ctype,
            .rank = p->rank,
            .batch = batch,
            .in = ARR(in)->data,
            .out = ARR(out)->data,
        };
        for (int j = 0; j < p->rank; j++) {
            plan.n[j] = p->n[j];
        }
        /* The GIL stays held: the host's transform is NumPy's. */
        rc = ua_py_run_core(st, ua_queue_fft(queue_of_array(x), &plan));
    }
    Py_XDECREF(in);
    PyObject *result = rc == 0 ? ua_py_array_permute(out, back) : NULL;
    Py_XDECREF(out);
    return result;
}

/* The factor of norm for transforms of n points in all: the inverse's
 * 1/n under "backward" (or the forward's under "forward"), 1/sqrt(n)
 * under "ortho". */
static double
norm_factor(const fft_call *c, double points)
{
    bool scales_as_inverse = c->f->kind == UA_FFT_C2C   ? c->f->inverse
                             : c->f->kind == UA_FFT_C2R ? !c->f->hermitian
                                                        : c->f->hermitian;
    switch (c->norm) {
    case NORM_ORTHO:
        return 1.0 / sqrt(points);
    case NORM_FORWARD:
        return scales_as_inverse ? 1.0 : 1.0 / points;
    default:
        return scales_as_inverse ? 1.0 / points : 1.0;
    }
}

static PyObject *
transform(ua_state *st, PyObject *x, const fft_call *c)
{
    if (c->count == 0) {
        /* fftn over no axes: x as it is, of the complex type. */
        return ua_py_array_cast(st, x, c->ctype, 'K', 1, base_of(x)->queue);
    }
    PyObject *cur = Py_NewRef(x);
    double points = 1.0;
    for (int k = 0; k < c->count; k++) {
        points *= (double)c->n[k];
    }
    for (int first = 0; cur != NULL && first < c->count;) {
        fft_step p;
        int taken = next_step(c, first, &p);
        bool conj_input = c->f->hermitian && p.kind == UA_FFT_C2R;
        Py_SETREF(cur, run_step(st, x, cur, c, &p, conj_input));
        first += taken;
    }
    double factor = norm_factor(c, points);
    bool conj_output = c->f->hermitian && c->f->kind == UA_FFT_R2C;
    if (cur != NULL &&
        ((conj_output && in_place(st, UA_EW_conj, cur, 0) < 0) ||
         (factor != 1.0 && in_place(st, UA_EW_multiply, cur, factor) < 0))) {
        Py_CLEAR(cur);
    }
    return cur;
}

PyObject *
ua_py_fft_named(const char *fn, PyObject *result)
{
    if (result != NULL || !(PyErr_ExceptionMatches(PyExc_ValueError) ||
                            PyErr_ExceptionMatches(PyExc_RuntimeError))) {
        return result;
    }
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *type = Py_NewRef((PyObject *)Py_TYPE(exc));
#else
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    Py_XDECREF(tb);
#endif
    /* Exceptions of other types (AxisError) keep their words. */
    PyObject *msg = NULL;
    const char *text = NULL;
    if (type == PyExc_ValueError || type == PyExc_RuntimeError) {
        msg = PyObject_Str(exc);
        text = msg ? PyUnicode_AsUTF8(msg) : NULL;
        PyErr_Clear();
    }
    if (text != NULL && strncmp(text, fn, strlen(fn)) != 0) {
        PyErr_Format(type, "%s: %s", fn, text);
    } else {
        PyErr_SetObject(type, exc);
    }
    Py_XDECREF(msg);
    Py_XDECREF(exc);
    Py_XDECREF(type);
    return NULL;
}

/* ------------------------------------------------------ the transforms */

static const fft_function FFT = {"fft", UA_FFT_C2C, false, false};
static const fft_function IFFT = {"ifft", UA_FFT_C2C, true, false};
static const fft_function RFFT = {"rfft", UA_FFT_R2C, false, false};
static const fft_function IRFFT = {"irfft", UA_FFT_C2R, true, false};
static const fft_function HFFT = {"hfft", UA_FFT_C2R, true, true};
static const fft_function IHFFT = {"ihfft", UA_FFT_R2C, false, true};
static const fft_function FFTN = {"fftn", UA_FFT_C2C, false, false};
static const fft_function IFFTN = {"ifftn", UA_FFT_C2C, true, false};
static const fft_function RFFTN = {"rfftn", UA_FFT_R2C, false, false};
static const fft_function IRFFTN = {"irfftn", UA_FFT_C2R, true, false};

/* fft(x, /, *, n=None, axis=-1, norm="backward") and the five others of
 * one axis. */
static PyObject *
one_axis(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
         PyObject *kwnames, const fft_function *f)
{
    static const char *const kwlist[] = {"x", "n", "axis", "norm", NULL};
    ua_py_argspec spec = {f->name, kwlist, 1, 1};
    PyObject *v[4] = {NULL, NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    fft_call c = {.f = f, .count = 1};
    int axis = 0;
    char what[24];
    snprintf(what, sizeof(what), "%s: n", f->name);
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], f->name) < 0 ||
        ua_py_fft_check_ndim(v[0], f->name) < 0 ||
        fft_types(v[0], f, &c) < 0 || parse_norm(v[3], f->name, &c.norm) < 0 ||
        (v[2] == NULL
             ? ua_py_normalize_axis(st, f->name, -1, ARR(v[0])->nd, &axis)
             : ua_py_parse_axis(st, v[2], f->name, ARR(v[0])->nd, &axis)) <
            0) {
        return NULL;
    }
    Py_ssize_t m = ARR(v[0])->shape[axis];
    c.axes[0] = axis;
    c.n[0] = f->kind == UA_FFT_C2R ? 2 * (m - 1) : m;
    if (v[1] != NULL && v[1] != Py_None) {
        if (ua_py_index(v[1], what, &c.n[0]) < 0 ||
            ua_py_fft_check_length(f->name, "n", c.n[0]) < 0) {
            return NULL;
        }
    } else if (c.n[0] < 1) {
        PyErr_Format(PyExc_ValueError,
                     "%s: an axis of %zd elements gives n = %zd points; "
                     "pass n",
                     f->name, m, c.n[0]);
        return NULL;
    }
    return ua_py_fft_named(f->name, transform(st, v[0], &c));
}

/* fftn(x, /, *, s=None, axes=None, norm="backward") and the three others
 * of several axes. */
static PyObject *
several_axes(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
             PyObject *kwnames, const fft_function *f)
{
    static const char *const kwlist[] = {"x", "s", "axes", "norm", NULL};
    ua_py_argspec spec = {f->name, kwlist, 1, 1};
    PyObject *v[4] = {NULL, NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    fft_call c = {.f = f};
    if (ua_py_parse_posonly(&spec, 1, args, nargs, kwnames, v) < 0 ||
        ua_py_check_array(st, v[0], f->name) < 0 ||
        ua_py_fft_check_ndim(v[0], f->name) < 0 ||
        fft_types(v[0], f, &c) < 0 || parse_norm(v[3], f->name, &c.norm) < 0 ||
        parse_axes_and_s(st, v[0], v[1], v[2], &c) < 0) {
        return NULL;
    }
    if (c.count == 0 && f->kind != UA_FFT_C2C) {
        PyErr_Format(PyExc_ValueError,
                     "%s needs at least one axis: the last one is the real "
                     "one",
                     f->name);
        return NULL;
    }
    return ua_py_fft_named(f->name, transform(st, v[0], &c));
}

#define ONE_AXIS(name, desc)                                                  \
    static PyObject *name(PyObject *m, PyObject *const *a, Py_ssize_t n,      \
                          PyObject *k)                                        \
    {                                                                         \
        return one_axis(m, a, n, k, &desc);                                   \
    }
#define SEVERAL_AXES(name, desc)                                              \
    static PyObject *name(PyObject *m, PyObject *const *a, Py_ssize_t n,      \
                          PyObject *k)                                        \
    {                                                                         \
        return several_axes(m, a, n, k, &desc);                               \
    }

ONE_AXIS(fft, FFT)
ONE_AXIS(ifft, IFFT)
ONE_AXIS(rfft, RFFT)
ONE_AXIS(irfft, IRFFT)
ONE_AXIS(hfft, HFFT)
ONE_AXIS(ihfft, IHFFT)
SEVERAL_AXES(fftn, FFTN)
SEVERAL_AXES(ifftn, IFFTN)
SEVERAL_AXES(rfftn, RFFTN)
SEVERAL_AXES(irfftn, IRFFTN)

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* Their operands as snapshots: their other arguments' hooks run after
 * they read the operands' layouts. */
UA_PY_ON_SNAPSHOTS(fft)
UA_PY_ON_SNAPSHOTS(ifft)
UA_PY_ON_SNAPSHOTS(fftn)
UA_PY_ON_SNAPSHOTS(ifftn)
UA_PY_ON_SNAPSHOTS(rfft)
UA_PY_ON_SNAPSHOTS(irfft)
UA_PY_ON_SNAPSHOTS(rfftn)
UA_PY_ON_SNAPSHOTS(irfftn)
UA_PY_ON_SNAPSHOTS(hfft)
UA_PY_ON_SNAPSHOTS(ihfft)

PyMethodDef ua_py_fft_transform_methods[] = {
    {"fft", KW(fft_on_snapshots), UA_DOC_FFT_FFT},
    {"ifft", KW(ifft_on_snapshots), UA_DOC_FFT_IFFT},
    {"fftn", KW(fftn_on_snapshots), UA_DOC_FFT_FFTN},
    {"ifftn", KW(ifftn_on_snapshots), UA_DOC_FFT_IFFTN},
    {"rfft", KW(rfft_on_snapshots), UA_DOC_FFT_RFFT},
    {"irfft", KW(irfft_on_snapshots), UA_DOC_FFT_IRFFT},
    {"rfftn", KW(rfftn_on_snapshots), UA_DOC_FFT_RFFTN},
    {"irfftn", KW(irfftn_on_snapshots), UA_DOC_FFT_IRFFTN},
    {"hfft", KW(hfft_on_snapshots), UA_DOC_FFT_HFFT},
    {"ihfft", KW(ihfft_on_snapshots), UA_DOC_FFT_IHFFT},
    {0},
};
