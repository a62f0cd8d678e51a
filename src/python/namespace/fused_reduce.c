/* usmarray.fuse's reductions: a fused expression's values reduced in
 * its kernel (_fused_reduce), a chain of phases over rows
 * (_fused_chain), and the kernels of a call of several compiled ahead,
 * side by side (_fused_prepare; core/compute/fused.c). */
#include "python/base/pyheaders.h"
#include "python/namespace/fused.h"

#include <string.h>

#include "python/base/convert.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"

/* The reduction's output: one value of r's type for all the values (row
 * 0) or for each row of row elements, in the shape given (None: one
 * dimension), whose elements are the rows. */
static PyObject *
reduce_output(ua_state *st, const char *fn, const ua_ew_resolved *r,
              PyObject *first, ptrdiff_t row, PyObject *shape)
{
    Py_ssize_t count = 1, dims[UA_MAXDIMS];
    int nd = 1;
    if (row > 0) {
        for (int j = 0; j < r->nd; j++) {
            count *= r->shape[j];
        }
        count /= row;
    }
    dims[0] = count;
    if (shape != Py_None) {
        if (ua_py_parse_shape(shape, "shape", dims, &nd) < 0) {
            return NULL;
        }
        Py_ssize_t elements = 1;
        for (int d = 0; d < nd; d++) {
            if (__builtin_mul_overflow(elements, dims[d], &elements)) {
                return PyErr_Format(PyExc_ValueError,
                                    "%s(): the shape holds more elements "
                                    "than a size reaches (past dimension "
                                    "%d)",
                                    fn, d);
            }
        }
        if (elements != count) {
            return PyErr_Format(PyExc_ValueError,
                                "%s(): the shape holds %zd elements, not "
                                "%s %zd",
                                fn, elements,
                                row > 0 ? "the rows'" : "the one value's",
                                count);
        }
    }
    return ua_py_array_empty(st, nd, dims, NULL, r->out_type, 'C',
                             base_of(first)->kind, base_of(first)->queue);
}

/* Whether the operands' first array is on a device that runs the host's
 * loops (the host, a SYCL CPU device), which reduce all the values of a
 * fused expression in one pass, once its queue's earlier work is done
 * (ua_queue_compute_kernels waits for it). */
static bool
on_host_loops(ua_state *st, PyObject *operands)
{
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(operands); k++) {
        PyObject *o = PyTuple_GET_ITEM(operands, k);
        if (PyObject_TypeCheck(o, st->USMArray_Type)) {
            return ua_compute_on_cpu(
                ua_queue_compute_table(queue_of_array(o)));
        }
    }
    return false;
}

/* The bytes a kernel reads of its array operands, which decide whether a
 * call releases the GIL (a reduction's result is small whatever it
 * reads). */
static size_t
operands_bytes(const ua_ew_operand *ops, int nin, PyObject *operands)
{
    size_t bytes = 0;
    for (int k = 0; k < nin; k++) {
        bytes += ops[k].is_scalar
                     ? 0
                     : ua_py_array_size(PyTuple_GET_ITEM(operands, k)) *
                           ua_dtype_itemsize(ops[k].type);
    }
    return bytes;
}

/* fn's post (_fused_reduce's, _fused_chain's): an expression (a capsule
 * of _fused_expression) of the rows' values, computing in the type of
 * expr (the reduced expression's). */
static int
read_post(const char *fn, PyObject *post, PyObject *expr,
          const ua_fused_expr **after)
{
    if (!PyCapsule_IsValid(post, UA_PY_FUSED_CAPSULE)) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): post is _fused_expression()'s result or None, "
                     "not %.100s",
                     fn, Py_TYPE(post)->tp_name);
        return -1;
    }
    const ua_py_fused_program *p =
        PyCapsule_GetPointer(post, UA_PY_FUSED_CAPSULE);
    const ua_py_fused_program *e =
        PyCapsule_IsValid(expr, UA_PY_FUSED_CAPSULE)
            ? PyCapsule_GetPointer(expr, UA_PY_FUSED_CAPSULE)
            : NULL;
    if (p->e.nrow != 0 || p->nslot != 0) {
        PyErr_Format(PyExc_ValueError,
                     "%s(): post reads %s; it reads the row's value alone", fn,
                     p->nslot != 0 ? "the call's operands (made with slots)"
                                   : "a chain's row values (made with rows)");
        return -1;
    }
    if (e != NULL && e->t != p->t) {
        PyErr_Format(PyExc_ValueError,
                     "%s(): post computes in %s, the expression in %s", fn,
                     ua_dtype_name(p->t), ua_dtype_name(e->t));
        return -1;
    }
    *after = &p->e;
    return 0;
}

static PyObject *reduce_call(ua_state *st, PyObject *expr, PyObject *operands,
                             const char *name, Py_ssize_t row, PyObject *post,
                             PyObject *shape);

static PyObject *
fused_reduce(PyObject *m, PyObject *args)
{
    PyObject *expr, *given, *post = Py_None, *shape = Py_None;
    const char *name;
    Py_ssize_t row = 0;
    if (!PyArg_ParseTuple(args, "OO!s|nOO:_fused_reduce", &expr, &PyTuple_Type,
                          &given, &name, &row, &post, &shape)) {
        return NULL;
    }
    PyObject *operands = ua_py_fused_operands_of(expr, given);
    PyObject *out = operands ? reduce_call(PyModule_GetState(m), expr,
                                           operands, name, row, post, shape)
                             : NULL;
    Py_XDECREF(operands);
    return out;
}

/* A _fused_reduce call's arguments read: its reduction (*op), post
 * (*after), operands (ops, *first) and their resolution r; 1 where the
 * call answers NotImplemented (read_call; never where resolved, which
 * resolves the operands on every device), -1 with an exception set. */
static int
read_reduce(ua_state *st, PyObject *expr, PyObject *operands, const char *name,
            Py_ssize_t row, PyObject *post, bool resolved, int *op,
            const ua_fused_expr **after, ua_ew_operand *ops, PyObject **first,
            ua_ew_resolved *r)
{
    static const char *const names[] = {"sum", "max", "min", "mean"};
    *after = NULL;
    if (row < 0) {
        PyErr_Format(PyExc_ValueError,
                     "_fused_reduce(): row is 0 (all the values) or a row's "
                     "length, not %zd",
                     row);
        return -1;
    }
    if (post != Py_None && read_post("_fused_reduce", post, expr, after) < 0) {
        return -1;
    }
    *op = 0;
    for (int i = 0; i < 4; i++) {
        *op = strcmp(name, names[i]) == 0 ? UA_EW_REDUCE_SUM + i : *op;
    }
    if (*op == 0) {
        PyErr_Format(PyExc_ValueError,
                     "_fused_reduce(): the reduction is 'sum', 'max', 'min' "
                     "or 'mean', not '%.100s'",
                     name);
        return -1;
    }
    return ua_py_fused_read_call(st, "_fused_reduce", expr, operands,
                                 resolved || on_host_loops(st, operands), ops,
                                 first, r);
}

static PyObject *
reduce_call(ua_state *st, PyObject *expr, PyObject *operands, const char *name,
            Py_ssize_t row, PyObject *post, PyObject *shape)
{
    PyObject *first;
    const ua_fused_expr *after;
    int op;
    ua_ew_operand ops[UA_EW_MAX_OPERANDS];
    ua_ew_resolved r;
    int read = read_reduce(st, expr, operands, name, row, post, false, &op,
                           &after, ops, &first, &r);
    if (read != 0) {
        return read < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    }
    PyObject *out = reduce_output(st, "_fused_reduce", &r, first, row, shape);
    if (out == NULL) {
        return NULL;
    }
    PyThreadState *ts =
        ua_py_release_if_long(operands_bytes(ops, r.nin, operands));
    ua_status s = ua_queue_fused_reduce(queue_of_array(first), &r, ops, op,
                                        row, after, ARR(out)->data);
    ua_py_reacquire(ts);
    if (s != UA_OK) {
        Py_DECREF(out);
        return ua_py_raise_core(st, s);
    }
    return out;
}

/* The plan of one call of _fused_prepare's calls: ("elementwise",
 * (expression, operands)) or ("reduce", (expression, operands, reduction,
 * row=0, post=None, shape=None)), checked as those calls check them on
 * any device (but shape, which the kernel does not see); its first array
 * in *first.  1 where the device compiles
 * nothing (the host's loops), -1 with an exception set. */
static int
prepared_plan(ua_state *st, PyObject *call, Py_ssize_t i, PyObject **first,
              ua_elementwise_plan *p)
{
    PyObject *kind, *args, *expr, *given, *post = Py_None, *shape = Py_None;
    const char *name = NULL;
    Py_ssize_t row = 0;
    if (!PyTuple_Check(call) || PyTuple_GET_SIZE(call) != 2 ||
        !PyUnicode_Check(kind = PyTuple_GET_ITEM(call, 0)) ||
        !PyTuple_Check(args = PyTuple_GET_ITEM(call, 1))) {
        PyErr_Format(PyExc_TypeError,
                     "_fused_prepare(): call %zd is a tuple (kind, args) of "
                     "a str and a tuple, not %.100s",
                     i, Py_TYPE(call)->tp_name);
        return -1;
    }
    bool reduce = PyUnicode_CompareWithASCIIString(kind, "reduce") == 0;
    if (!reduce &&
        PyUnicode_CompareWithASCIIString(kind, "elementwise") != 0) {
        PyErr_Format(PyExc_ValueError,
                     "_fused_prepare(): call %zd's kind is 'elementwise' or "
                     "'reduce', not %R",
                     i, kind);
        return -1;
    }
    if (reduce ? !PyArg_ParseTuple(args, "OO!s|nOO:_fused_prepare", &expr,
                                   &PyTuple_Type, &given, &name, &row, &post,
                                   &shape)
               : !PyArg_ParseTuple(args, "OO!:_fused_prepare", &expr,
                                   &PyTuple_Type, &given)) {
        return -1;
    }
    PyObject *operands = ua_py_fused_operands_of(expr, given);
    if (operands == NULL) {
        return -1;
    }
    ua_ew_operand ops[UA_EW_MAX_OPERANDS];
    ua_ew_resolved r;
    const ua_fused_expr *after;
    int op, read;
    if (reduce) {
        read = read_reduce(st, expr, operands, name, row, post, true, &op,
                           &after, ops, first, &r);
    } else {
        read = ua_py_fused_read_call(st, "_fused_prepare", expr, operands,
                                     true, ops, first, &r);
    }
    Py_DECREF(operands);
    if (read != 0) {
        return read;
    }
    if (!ua_queue_compiles_elementwise(queue_of_array(*first))) {
        return 1; /* the host's loops, or no kernels: nothing compiles */
    }
    for (int j = 0; j < r.nd; j++) {
        if (r.shape[j] == 0) {
            return 1; /* no elements: the call launches nothing */
        }
    }
    ua_status s = reduce ? ua_fused_reduce_plan(&r, ops, op, row, after, p)
                         : ua_fused_elementwise_plan(&r, ops, p);
    return s == UA_OK ? 0 : ua_py_fail_core(st, s);
}

/* _fused_prepare(calls): compiles side by side the kernels that calls
 * would launch, where their device compiles and lacks them (the
 * variance's mean, then its squares' mean: one wait for the compiler on
 * a first call, not two).  Computes nothing. */
static PyObject *
fused_prepare(PyObject *m, PyObject *calls)
{
    ua_state *st = PyModule_GetState(m);
    if (!PyTuple_Check(calls)) {
        return PyErr_Format(PyExc_TypeError,
                            "_fused_prepare(): calls is a tuple, not %.100s",
                            Py_TYPE(calls)->tp_name);
    }
    Py_ssize_t count = PyTuple_GET_SIZE(calls);
    ua_elementwise_plan *plans =
        PyMem_Calloc(UA_FUSED_PREPARE_MAX + 1, sizeof *plans);
    if (plans == NULL) {
        return PyErr_NoMemory();
    }
    ua_queue *q = NULL;
    int n = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *first = NULL;
        /* past the cap, plans[UA_FUSED_PREPARE_MAX] takes the plan: checked,
         * then dropped */
        int read = prepared_plan(
            st, PyTuple_GET_ITEM(calls, i), i, &first,
            &plans[n < UA_FUSED_PREPARE_MAX ? n : UA_FUSED_PREPARE_MAX]);
        if (read < 0) {
            PyMem_Free(plans);
            return NULL;
        }
        /* the calls past the cap, or on another queue, compile on use */
        if (read == 0 && n < UA_FUSED_PREPARE_MAX &&
            (q == NULL || queue_of_array(first) == q)) {
            q = queue_of_array(first);
            n++;
        }
    }
    if (n > 0) {
        PyThreadState *ts = PyEval_SaveThread(); /* the compiler's wait */
        ua_queue_fused_prepare(q, plans, n);
        PyEval_RestoreThread(ts);
    }
    PyMem_Free(plans);
    Py_RETURN_NONE;
}

/* The reductions' names, a UA_EW_REDUCE_* each, into c->reduce. */
static int
read_reductions(PyObject *names, ua_fused_chain *c)
{
    static const char *const known[] = {"sum", "max", "min", "mean"};
    c->reduce[c->count - 1] = 0;
    for (int p = 0; p < (int)PyTuple_GET_SIZE(names); p++) {
        PyObject *o = PyTuple_GET_ITEM(names, p);
        const char *name = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
        c->reduce[p] = 0;
        for (int i = 0; name != NULL && i < 4; i++) {
            c->reduce[p] = strcmp(name, known[i]) == 0 ? UA_EW_REDUCE_SUM + i
                                                       : c->reduce[p];
        }
        if (c->reduce[p] == 0) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError,
                         "_fused_chain(): reduction %d is 'sum', 'max', "
                         "'min' or 'mean', not %R",
                         p, o);
            return -1;
        }
    }
    return 0;
}

static PyObject *
fused_chain(PyObject *m, PyObject *args)
{
    ua_state *st = PyModule_GetState(m);
    PyObject *phases, *names, *operands, *first, *post = Py_None;
    PyObject *shape = Py_None;
    Py_ssize_t row;
    if (!PyArg_ParseTuple(args, "O!O!O!n|OO:_fused_chain", &PyTuple_Type,
                          &phases, &PyTuple_Type, &names, &PyTuple_Type,
                          &operands, &row, &post, &shape)) {
        return NULL;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(phases);
    Py_ssize_t reduced = PyTuple_GET_SIZE(names);
    if (shape != Py_None && reduced != count) {
        return PyErr_Format(PyExc_ValueError,
                            "_fused_chain(): a shape is the rows' values', "
                            "which a reduction for the last phase gives (%zd "
                            "phases, %zd reductions)",
                            count, reduced);
    }
    if (post != Py_None && reduced != count) {
        return PyErr_Format(PyExc_ValueError,
                            "_fused_chain(): a post needs a reduction for "
                            "the last phase too (%zd phases, %zd "
                            "reductions)",
                            count, reduced);
    }
    if (count < 2 || count > UA_FUSED_MAX_PHASES ||
        (reduced != count - 1 && reduced != count) || row < 1) {
        return PyErr_Format(PyExc_ValueError,
                            "_fused_chain(): 2 to %d phases, a reduction "
                            "for each but the last (or each, giving the "
                            "rows' values) and a row of at least one "
                            "element, not %zd, %zd and %zd",
                            UA_FUSED_MAX_PHASES, count, reduced, row);
    }
    ua_fused_chain c;
    memset(&c, 0, sizeof c);
    c.count = (int)count;
    ua_typenum t = UA_FLOAT64;
    for (int p = 0; p < c.count; p++) {
        PyObject *e = PyTuple_GET_ITEM(phases, p);
        if (!PyCapsule_IsValid(e, UA_PY_FUSED_CAPSULE)) {
            return PyErr_Format(PyExc_TypeError,
                                "_fused_chain(): phase %d is not "
                                "_fused_expression()'s result",
                                p);
        }
        const ua_py_fused_program *fp =
            PyCapsule_GetPointer(e, UA_PY_FUSED_CAPSULE);
        if (fp->nslot != 0) {
            return PyErr_Format(PyExc_ValueError,
                                "_fused_chain(): phase %d picks its operands "
                                "(made with slots); a chain's phases share "
                                "the operands as given",
                                p);
        }
        if (p > 0 && fp->t != t) {
            return PyErr_Format(PyExc_TypeError,
                                "_fused_chain(): the phases compute in one "
                                "dtype (phase %d in %s, not %s)",
                                p, ua_dtype_name(fp->t), ua_dtype_name(t));
        }
        t = fp->t;
        c.phase[p] = &fp->e;
    }
    const ua_fused_expr *after = NULL;
    PyObject *last = PyTuple_GET_ITEM(phases, count - 1);
    if (read_reductions(names, &c) < 0 ||
        (post != Py_None &&
         read_post("_fused_chain", post, last, &after) < 0)) {
        return NULL;
    }
    ua_ew_operand ops[UA_EW_MAX_OPERANDS];
    ua_ew_resolved r;
    int read = ua_py_fused_read_call(st, "_fused_chain", last, operands, false,
                                     ops, &first, &r);
    if (read != 0) {
        return read < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    }
    /* the last phase's values, or where it reduces one value a row */
    PyObject *out =
        reduced == count
            ? reduce_output(st, "_fused_chain", &r, first, row, shape)
            : ua_py_array_empty(st, r.nd, r.shape, NULL, r.out_type, 'C',
                                base_of(first)->kind, base_of(first)->queue);
    if (out == NULL) {
        return NULL;
    }
    size_t bytes = ua_py_array_size(out) * ua_dtype_itemsize(t);
    size_t in = operands_bytes(ops, (int)PyTuple_GET_SIZE(operands), operands);
    PyThreadState *ts = ua_py_release_if_long(bytes > in ? bytes : in);
    ua_status s = ua_queue_fused_chain(queue_of_array(first), &c, ops,
                                       (int)PyTuple_GET_SIZE(operands), t, row,
                                       after, ARR(out)->data);
    ua_py_reacquire(ts);
    if (s != UA_OK) {
        Py_DECREF(out);
        return ua_py_raise_core(st, s);
    }
    return out;
}

static PyMethodDef fused_reduce_functions[] = {
    {"_fused_chain", fused_chain, METH_VARARGS,
     "_fused_chain(phases, reductions, operands, row, post=None, "
     "shape=None)\n--\n\n"
     "_fused_expression's float32 or float64 expressions (2 to 4) over "
     "each run of row elements in C order (the values' last axes), a group "
     "of threads a row: each phase p but the last reduced by reductions[p] "
     "('sum', 'max', 'min' or 'mean', in double, rounded to the dtype), "
     "which the later phases read as row value p (their expressions made "
     "with rows=p); the last phase's values written, an array of the "
     "values' shape in C order, or where reductions names one for the last "
     "phase too, its row values, one a row (a 1-d array, or of the shape "
     "given), each through "
     "post (a _fused_expression of one operand) where it is given.  The "
     "phases share the operands: arrays of "
     "the values' shape, dense in C order, and Python scalars.  "
     "NotImplemented where the device runs the host's loops."},
    {"_fused_prepare", fused_prepare, METH_O,
     "_fused_prepare(calls)\n--\n\n"
     "Compiles side by side, where the arrays' device compiles kernels and "
     "lacks them, the kernels that calls would launch, and computes "
     "nothing: calls is a tuple of (kind, args), kind 'elementwise' (args "
     "as _fused_elementwise's) or 'reduce' (args as _fused_reduce's), "
     "checked as those calls check them.  The first array's queue "
     "compiles; the calls of another queue, those past the sixth and "
     "those of a device that runs the host's loops compile nothing here.  "
     "A compile that fails is left for the call to meet."},
    {"_fused_reduce", fused_reduce, METH_VARARGS,
     "_fused_reduce(expression, operands, reduction, row=0, post=None, "
     "shape=None)\n--\n\n"
     "_fused_expression's float32 or float64 values reduced in one kernel "
     "('sum', 'max', 'min' or 'mean', in double; a mean's sum rounded to "
     "the dtype, then divided by the count in it, as the eager mean).  "
     "row 0: all the values, giving their one value in the values' dtype "
     "(NaN where a max or min met one); the arrays share the values' "
     "shape, dense in one memory order.  row > 0: each run of row "
     "elements in C order (the last axes of the values' shape), giving "
     "one value a row; each array is dense in C order, of the values' "
     "shape or of one element a row (1 along the row's axes).  post, a "
     "_fused_expression of one operand in the same dtype, each value "
     "goes through before it is written; shape, the result's shape where "
     "it is not one dimension of a value a row (row 0: one value).  At "
     "least one element.  On a device that runs the host's loops (the "
     "host, a SYCL CPU device): one pass of the loops over arrays of any "
     "layout, broadcast too, all the values or rows that divide them, "
     "walked in their C order, with no post (else ValueError).  An "
     "expression made with slots reads those items of operands."},
    {0},
};

int
ua_py_fused_reduce_add(PyObject *module)
{
    return PyModule_AddFunctions(module, fused_reduce_functions);
}
