/* usmarray.fuse's kernel calls: _fused_expression and
 * _fused_elementwise (fused.c), and the reductions' _fused_reduce,
 * _fused_chain and _fused_prepare (fused_reduce.c), which share a parsed
 * expression's capsule and a call's reading. */
#ifndef USMARRAY_PYTHON_NAMESPACE_FUSED_H
#define USMARRAY_PYTHON_NAMESPACE_FUSED_H

#include "python/base/pyheaders.h"

#include <stdbool.h>

#include "core/compute/compute.h"
#include "python/base/state.h"

/* A parsed expression and its computation type, which a Program keeps
 * for its calls (a capsule of this name). */
#define UA_PY_FUSED_CAPSULE "usmarray._fused_expression"
typedef struct {
    ua_fused_expr e;
    ua_typenum t;
    /* nslot > 0: the call's operands are these items of its tuple (a
     * small call's arguments, some of which the graph does not read) */
    int nslot;
    Py_ssize_t slot[UA_EW_MAX_OPERANDS];
} ua_py_fused_program;

/* The operands a call of expr reads: the items of its slots, where it has
 * them; a new reference, or NULL with an exception set. */
PyObject *ua_py_fused_operands_of(PyObject *expr, PyObject *operands);
/* A call's expression (a capsule of _fused_expression) and operands,
 * resolved; *first is the first array.  NotImplemented (1) where the
 * arrays' device runs the host's loops and the call is not one that they
 * run (loops_run_it: a graph of elementwise calls); -1 with an exception
 * set. */
int ua_py_fused_read_call(ua_state *st, const char *fn, PyObject *expr,
                          PyObject *operands, bool loops_run_it,
                          ua_ew_operand *ops, PyObject **first,
                          ua_ew_resolved *r);

int ua_py_fused_add(PyObject *module);
/* fused_reduce.c's functions. */
int ua_py_fused_reduce_add(PyObject *module);

#endif
