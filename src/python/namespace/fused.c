/* usmarray.fuse's kernel call: a traced graph of elementwise functions,
 * which python/usmarray/_fuse.py makes, evaluated in one elementwise call
 * on a device that compiles kernels (core/compute/fused.c). */
#include "python/base/pyheaders.h"
#include "python/namespace/fused.h"

#include <string.h>

#include "python/base/convert.h"
#include "python/base/dtypes.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"
#include "python/types/devices.h"

/* A Python bool, int or float as an operand of a computation in t: an int
 * that t's integers do not hold raises, as the eager calls do, rather than
 * wrap. */
static int
scalar_operand(ua_state *st, PyObject *o, ua_typenum t, ua_ew_operand *op)
{
    memset(op, 0, sizeof *op);
    op->is_scalar = true;
    if (PyBool_Check(o)) {
        op->kind = UA_SCALAR_BOOL;
        op->value.b = o == Py_True;
        return 0;
    }
    if (PyFloat_Check(o)) {
        op->kind = UA_SCALAR_FLOAT;
        op->value.f = PyFloat_AS_DOUBLE(o);
        return 0;
    }
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError,
                     "_fused_elementwise(): a scalar is a Python bool, int "
                     "or float, not %.100s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    ua_py_scalar fits;
    if (strchr("iu", ua_dtype_kind(t)) != NULL &&
        ua_py_scalar_for(st, o, t, &fits) < 0) {
        return -1;
    }
    /* a float computation takes any int, as the eager calls do (one that
     * no 64-bit integer holds as its nearest double) */
    return ua_py_int_operand(o, op);
}

/* The operands: USMArrays on one queue and Python scalars; *first, the
 * first array (borrowed). */
static int
read_operands(ua_state *st, PyObject *tuple, ua_typenum t, ua_ew_operand *ops,
              PyObject **first)
{
    Py_ssize_t n = PyTuple_GET_SIZE(tuple);
    *first = NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *o = PyTuple_GET_ITEM(tuple, k);
        if (!PyObject_TypeCheck(o, st->USMArray_Type)) {
            if (scalar_operand(st, o, t, &ops[k]) < 0) {
                return -1;
            }
            continue;
        }
        if (*first != NULL && queue_of_array(o) != queue_of_array(*first)) {
            PyErr_SetString(PyExc_ValueError,
                            "_fused_elementwise(): the arrays are on "
                            "different queues");
            return -1;
        }
        *first = *first != NULL ? *first : o;
        PyUSMArrayObject *a = ARR(o);
        ops[k] = (ua_ew_operand){.data = a->data,
                                 .nd = a->nd,
                                 .shape = a->shape,
                                 .strides = a->strides,
                                 .type = (ua_typenum)a->typenum};
    }
    if (*first == NULL) {
        PyErr_SetString(PyExc_TypeError,
                        "_fused_elementwise() needs an array operand");
        return -1;
    }
    return 0;
}

/* One node: (name, (operand references...)). */
static int
read_node(PyObject *item, ua_fused_node *node)
{
    PyObject *name, *refs;
    if (!PyTuple_Check(item) ||
        !PyArg_ParseTuple(item, "UO!", &name, &PyTuple_Type, &refs)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError,
                        "_fused_elementwise(): a node is (name, (operand "
                        "references...))");
        return -1;
    }
    const char *s = PyUnicode_AsUTF8(name);
    if (s == NULL || !ua_ew_find(s, &node->function)) {
        PyErr_Format(PyExc_ValueError,
                     "_fused_elementwise(): no elementwise function %R", name);
        return -1;
    }
    Py_ssize_t arity = PyTuple_GET_SIZE(refs);
    if (arity != ua_ew_arity(node->function)) {
        PyErr_Format(PyExc_ValueError,
                     "_fused_elementwise(): %s() takes %d operands, not %zd",
                     s, ua_ew_arity(node->function), arity);
        return -1;
    }
    for (Py_ssize_t k = 0; k < UA_EW_MAX_OPERANDS; k++) {
        node->operand[k] = 0;
        if (k < arity) {
            long v = PyLong_AsLong(PyTuple_GET_ITEM(refs, k));
            if (v == -1 && PyErr_Occurred()) {
                return -1;
            }
            node->operand[k] = v < 0 || v > 0x7fffffff ? -1 : (int)v;
        }
    }
    return 0;
}

/* The expression of nodes and constants, computing in t. */
static int
read_expression(ua_state *st, PyObject *nodes, PyObject *constants,
                ua_typenum t, int rows, ua_fused_expr *e)
{
    Py_ssize_t count = PyTuple_GET_SIZE(nodes);
    Py_ssize_t nconst = PyTuple_GET_SIZE(constants);
    if (count < 1 || count > UA_FUSED_MAX_NODES ||
        nconst > UA_FUSED_MAX_CONSTANTS) {
        PyErr_Format(PyExc_ValueError,
                     "_fused_elementwise(): 1 to %d nodes and at most %d "
                     "constants, not %zd and %zd",
                     UA_FUSED_MAX_NODES, UA_FUSED_MAX_CONSTANTS, count,
                     nconst);
        return -1;
    }
    memset(e, 0, sizeof *e);
    e->count = (int)count;
    e->nconst = (int)nconst;
    e->nrow = rows;
    for (Py_ssize_t j = 0; j < count; j++) {
        if (read_node(PyTuple_GET_ITEM(nodes, j), &e->node[j]) < 0) {
            return -1;
        }
    }
    for (Py_ssize_t c = 0; c < nconst; c++) {
        ua_ew_operand o;
        if (scalar_operand(st, PyTuple_GET_ITEM(constants, c), t, &o) < 0) {
            return -1;
        }
        ua_status s = ua_fused_constant_bits(&o, t, &e->constant[c]);
        if (s != UA_OK) {
            return ua_py_fail_core(st, s);
        }
    }
    ua_fused_seal(e, t);
    return 0;
}

/* The result of r on first's queue, laid out as the operands are. */
static PyObject *
new_result(ua_state *st, const ua_ew_resolved *r, const ua_ew_operand *ops,
           PyObject *first)
{
    Py_ssize_t strides[UA_MAXDIMS];
    ua_elementwise_result_strides(r, ops, strides);
    return ua_py_array_empty(st, r->nd, r->shape, strides, r->out_type, 'K',
                             base_of(first)->kind, base_of(first)->queue);
}

/* A parsed expression and its computation type, which a Program keeps
 * for its calls (a capsule of this name). */
#define FUSED_CAPSULE "usmarray._fused_expression"
typedef struct {
    ua_fused_expr e;
    ua_typenum t;
    /* nslot > 0: the call's operands are these items of its tuple (a
     * small call's arguments, some of which the graph does not read) */
    int nslot;
    Py_ssize_t slot[UA_EW_MAX_OPERANDS];
} fused_program;

static void
free_program(PyObject *capsule)
{
    PyMem_Free(PyCapsule_GetPointer(capsule, FUSED_CAPSULE));
}

/* A program's slots: None, or a tuple of 1 to UA_EW_MAX_OPERANDS indices
 * of the call's tuple, whose items are its operands. */
static int
read_slots(PyObject *slots, fused_program *p)
{
    p->nslot = 0;
    if (slots == Py_None) {
        return 0;
    }
    Py_ssize_t n = PyTuple_Check(slots) ? PyTuple_GET_SIZE(slots) : -1;
    if (n < 1 || n > UA_EW_MAX_OPERANDS) {
        PyErr_Format(PyExc_TypeError,
                     "_fused_expression(): slots is None or a tuple of 1 to "
                     "%d indices of the call's operands, not %.100s",
                     UA_EW_MAX_OPERANDS, Py_TYPE(slots)->tp_name);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t i = PyNumber_AsSsize_t(PyTuple_GET_ITEM(slots, k), NULL);
        if (i == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (i < 0) {
            PyErr_Format(PyExc_ValueError,
                         "_fused_expression(): slot %zd is %zd, not an "
                         "index of the call's operands",
                         k, i);
            return -1;
        }
        p->slot[k] = i;
    }
    p->nslot = (int)n;
    return 0;
}

/* The operands a call of expr reads: the items of its slots, where it has
 * them; a new reference, or NULL with an exception set. */
static PyObject *
operands_of(PyObject *expr, PyObject *operands)
{
    const fused_program *p = PyCapsule_IsValid(expr, FUSED_CAPSULE)
                                 ? PyCapsule_GetPointer(expr, FUSED_CAPSULE)
                                 : NULL;
    if (p == NULL || p->nslot == 0) {
        return Py_NewRef(operands);
    }
    PyObject *picked = PyTuple_New(p->nslot);
    for (int k = 0; picked != NULL && k < p->nslot; k++) {
        if (p->slot[k] >= PyTuple_GET_SIZE(operands)) {
            Py_DECREF(picked);
            return PyErr_Format(PyExc_TypeError,
                                "a fused call reads its argument %zd of %zd",
                                p->slot[k], PyTuple_GET_SIZE(operands));
        }
        PyTuple_SET_ITEM(picked, k,
                         Py_NewRef(PyTuple_GET_ITEM(operands, p->slot[k])));
    }
    return picked;
}

static PyObject *
fused_expression(PyObject *m, PyObject *args)
{
    ua_state *st = PyModule_GetState(m);
    PyObject *nodes, *constants, *dtype, *slots = Py_None;
    int rows = 0;
    if (!PyArg_ParseTuple(args, "O!O!O|iO:_fused_expression", &PyTuple_Type,
                          &nodes, &PyTuple_Type, &constants, &dtype, &rows,
                          &slots)) {
        return NULL;
    }
    if (rows < 0 || rows >= UA_FUSED_MAX_PHASES) {
        return PyErr_Format(PyExc_ValueError,
                            "_fused_expression(): a chain's phase reads 0 to "
                            "%d row values, not %d",
                            UA_FUSED_MAX_PHASES - 1, rows);
    }
    fused_program *p = PyMem_Malloc(sizeof *p);
    if (p == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *capsule = NULL;
    if (read_slots(slots, p) < 0 || ua_py_typenum(st, dtype, &p->t) < 0 ||
        read_expression(st, nodes, constants, p->t, rows, &p->e) < 0 ||
        (capsule = PyCapsule_New(p, FUSED_CAPSULE, free_program)) == NULL) {
        PyMem_Free(p);
        return NULL;
    }
    return capsule;
}

/* A call's expression (a capsule of _fused_expression) and operands,
 * resolved; *first is the first array.  NotImplemented (1) where the
 * arrays' device runs the host's loops and the call is not one that they
 * run (loops_run_it: a graph of elementwise calls); -1 with an exception
 * set. */
static int
read_call(ua_state *st, const char *fn, PyObject *expr, PyObject *operands,
          bool loops_run_it, ua_ew_operand *ops, PyObject **first,
          ua_ew_resolved *r)
{
    if (!PyCapsule_IsValid(expr, FUSED_CAPSULE)) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): the expression is _fused_expression()'s result, "
                     "not %.100s",
                     fn, Py_TYPE(expr)->tp_name);
        return -1;
    }
    const fused_program *p = PyCapsule_GetPointer(expr, FUSED_CAPSULE);
    if (p->e.nrow != 0 && strcmp(fn, "_fused_chain") != 0) {
        PyErr_Format(PyExc_ValueError,
                     "%s(): the expression reads a chain's row values, "
                     "which only _fused_chain() gives",
                     fn);
        return -1;
    }
    Py_ssize_t nin = PyTuple_GET_SIZE(operands);
    if (nin < 1 || nin > UA_EW_MAX_OPERANDS) {
        PyErr_Format(PyExc_ValueError, "%s(): 1 to %d operands, not %zd", fn,
                     UA_EW_MAX_OPERANDS, nin);
        return -1;
    }
    if (read_operands(st, operands, p->t, ops, first) < 0) {
        return -1;
    }
    if (!loops_run_it &&
        !ua_queue_compiles_elementwise(queue_of_array(*first))) {
        return 1;
    }
    ua_status s = ua_fused_resolve(&p->e, (int)nin, ops, p->t, r);
    return s == UA_OK ? 0 : ua_py_fail_core(st, s);
}

static PyObject *elementwise_call(ua_state *st, PyObject *expr,
                                  PyObject *operands);

static PyObject *
fused_elementwise(PyObject *m, PyObject *args)
{
    PyObject *expr, *given;
    if (!PyArg_ParseTuple(args, "OO!:_fused_elementwise", &expr, &PyTuple_Type,
                          &given)) {
        return NULL;
    }
    PyObject *operands = operands_of(expr, given);
    PyObject *out =
        operands ? elementwise_call(PyModule_GetState(m), expr, operands)
                 : NULL;
    Py_XDECREF(operands);
    return out;
}

static PyObject *
elementwise_call(ua_state *st, PyObject *expr, PyObject *operands)
{
    PyObject *first;
    ua_ew_operand ops[UA_EW_MAX_OPERANDS];
    ua_ew_resolved r;
    int read = read_call(st, "_fused_elementwise", expr, operands, true, ops,
                         &first, &r);
    if (read != 0) {
        return read < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    }
    PyObject *out = new_result(st, &r, ops, first);
    if (out == NULL) {
        return NULL;
    }
    ua_strided o = ua_py_array_strided(out);
    size_t bytes = ua_py_array_size(out) * ua_dtype_itemsize(r.out_type);
    PyThreadState *ts = ua_py_release_if_long(bytes);
    ua_status s = ua_queue_elementwise(queue_of_array(first), &r, ops, &o);
    ua_py_reacquire(ts);
    if (s != UA_OK) {
        Py_DECREF(out);
        return ua_py_raise_core(st, s);
    }
    return out;
}

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

/* _runs_host_loops(device): whether the device's queues run the host's
 * loops (usmarray.fuse then plans as for the host). */
static PyObject *
runs_host_loops(PyObject *m, PyObject *device)
{
    ua_device *d =
        ua_py_as_device(PyModule_GetState(m), device, "_runs_host_loops()");
    return d == NULL ? NULL : PyBool_FromLong(ua_device_runs_host_loops(d));
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
    if (!PyCapsule_IsValid(post, FUSED_CAPSULE)) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): post is _fused_expression()'s result or None, "
                     "not %.100s",
                     fn, Py_TYPE(post)->tp_name);
        return -1;
    }
    const fused_program *p = PyCapsule_GetPointer(post, FUSED_CAPSULE);
    const fused_program *e = PyCapsule_IsValid(expr, FUSED_CAPSULE)
                                 ? PyCapsule_GetPointer(expr, FUSED_CAPSULE)
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
    PyObject *operands = operands_of(expr, given);
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
    return read_call(st, "_fused_reduce", expr, operands,
                     resolved || on_host_loops(st, operands), ops, first, r);
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
    PyObject *operands = operands_of(expr, given);
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
        read = read_call(st, "_fused_prepare", expr, operands, true, ops,
                         first, &r);
    }
    Py_DECREF(operands);
    if (read != 0) {
        return read;
    }
    if (!ua_queue_compiles_elementwise(queue_of_array(*first))) {
        return 1; /* the host's loops, or no kernels: nothing compiles */
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
        PyMem_Calloc(UA_FUSED_PREPARE_MAX, sizeof *plans);
    if (plans == NULL) {
        return PyErr_NoMemory();
    }
    ua_queue *q = NULL;
    int n = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *first = NULL;
        int read = prepared_plan(st, PyTuple_GET_ITEM(calls, i), i, &first,
                                 &plans[n]);
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
        if (!PyCapsule_IsValid(e, FUSED_CAPSULE)) {
            return PyErr_Format(PyExc_TypeError,
                                "_fused_chain(): phase %d is not "
                                "_fused_expression()'s result",
                                p);
        }
        const fused_program *fp = PyCapsule_GetPointer(e, FUSED_CAPSULE);
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
    int read =
        read_call(st, "_fused_chain", last, operands, false, ops, &first, &r);
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

static PyMethodDef fused_functions[] = {
    {"_runs_host_loops", runs_host_loops, METH_O,
     "_runs_host_loops(device)\n--\n\n"
     "Whether the device's queues run the host's loops (the host, and a "
     "CPU device of another backend unless USMARRAY_DEVICE_KERNELS=1): "
     "usmarray.fuse plans its graphs as for the host there."},
    {"_fused_expression", fused_expression, METH_VARARGS,
     "_fused_expression(nodes, constants, dtype, rows=0, slots=None)\n--\n\n"
     "A traced elementwise graph (usmarray.fuse), parsed once for its "
     "calls: nodes, each (name, (operand references)), in order, the last "
     "one the result; constants, Python scalars; the dtype every node "
     "computes in; rows, the row values (references 0x300 + j) a phase of "
     "_fused_chain reads; slots, None or the indices of the items of a "
     "call's operands that _fused_elementwise and _fused_reduce read as "
     "its operands 0, 1, ... (a small call's arguments, not all read)."},
    {"_fused_elementwise", fused_elementwise, METH_VARARGS,
     "_fused_elementwise(expression, operands)\n--\n\n"
     "_fused_expression's graph in one kernel (usmarray.fuse on a device "
     "that compiles kernels), over a tuple of arrays and Python scalars; "
     "where the arrays' device runs the host's loops, each node's loop a "
     "few hundred elements at a time."},
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
ua_py_fused_add(PyObject *module)
{
    return PyModule_AddFunctions(module, fused_functions);
}
