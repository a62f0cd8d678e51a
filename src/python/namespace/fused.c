/* usmarray.fuse's kernel call: a traced graph of elementwise functions,
 * which python/usmarray/_fuse.py makes, parsed once (_fused_expression)
 * and evaluated in one elementwise call on a device that compiles kernels
 * (_fused_elementwise; core/compute/fused.c).  Its reductions are
 * fused_reduce.c's. */
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

static void
free_program(PyObject *capsule)
{
    PyMem_Free(PyCapsule_GetPointer(capsule, UA_PY_FUSED_CAPSULE));
}

/* A program's slots: None, or a tuple of 1 to UA_EW_MAX_OPERANDS indices
 * of the call's tuple, whose items are its operands. */
static int
read_slots(PyObject *slots, ua_py_fused_program *p)
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

PyObject *
ua_py_fused_operands_of(PyObject *expr, PyObject *operands)
{
    const ua_py_fused_program *p =
        PyCapsule_IsValid(expr, UA_PY_FUSED_CAPSULE)
            ? PyCapsule_GetPointer(expr, UA_PY_FUSED_CAPSULE)
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
    ua_py_fused_program *p = PyMem_Malloc(sizeof *p);
    if (p == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *capsule = NULL;
    if (read_slots(slots, p) < 0 || ua_py_typenum(st, dtype, &p->t) < 0 ||
        read_expression(st, nodes, constants, p->t, rows, &p->e) < 0 ||
        (capsule = PyCapsule_New(p, UA_PY_FUSED_CAPSULE, free_program)) ==
            NULL) {
        PyMem_Free(p);
        return NULL;
    }
    return capsule;
}

int
ua_py_fused_read_call(ua_state *st, const char *fn, PyObject *expr,
                      PyObject *operands, bool loops_run_it,
                      ua_ew_operand *ops, PyObject **first, ua_ew_resolved *r)
{
    if (!PyCapsule_IsValid(expr, UA_PY_FUSED_CAPSULE)) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): the expression is _fused_expression()'s result, "
                     "not %.100s",
                     fn, Py_TYPE(expr)->tp_name);
        return -1;
    }
    const ua_py_fused_program *p =
        PyCapsule_GetPointer(expr, UA_PY_FUSED_CAPSULE);
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
    PyObject *operands = ua_py_fused_operands_of(expr, given);
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
    int read = ua_py_fused_read_call(st, "_fused_elementwise", expr, operands,
                                     true, ops, &first, &r);
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

/* _runs_host_loops(device): whether the device's queues run the host's
 * loops (usmarray.fuse then plans as for the host). */
static PyObject *
runs_host_loops(PyObject *m, PyObject *device)
{
    ua_device *d =
        ua_py_as_device(PyModule_GetState(m), device, "_runs_host_loops()");
    return d == NULL ? NULL : PyBool_FromLong(ua_device_runs_host_loops(d));
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
    {0},
};

int
ua_py_fused_add(PyObject *module)
{
    return PyModule_AddFunctions(module, fused_functions);
}
