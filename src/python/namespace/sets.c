/* The standard's set functions, built on the sort: x flattened is
 * argsorted (stably), the sorted values split into groups of equal ones
 * (every NaN its own), and the results gathered from the groups' starts:
 * the values, the first occurrences (the stable sort puts them first),
 * the counts (differences of the starts) and the inverse (each group
 * number scattered back to its element's place).  The number of groups
 * sizes the results, so the group kernel waits for the queue. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings_reduce.h"
#include "python/base/errors.h"
#include "python/base/objects.h"
#include "python/types/arrays.h"
#include "python/namespace/arguments.h"
#include "python/namespace/reducing.h"
#include "python/namespace/searching.h"
#include "python/namespace/sets.h"
#include "python/namespace/sorting.h"
#include "core/compute/promote.h"
#include "core/compute/reduce.h"

#include <string.h>

/* The pieces of one unique call, each a new reference or NULL. */
typedef struct uniques {
    PyObject *flat, *perm, *sorted, *group, *starts, *first;
    Py_ssize_t count;
} uniques;

static void
uniques_clear(uniques *u)
{
    Py_CLEAR(u->flat);
    Py_CLEAR(u->perm);
    Py_CLEAR(u->sorted);
    Py_CLEAR(u->group);
    Py_CLEAR(u->starts);
    Py_CLEAR(u->first);
}

/* A one-dimensional view of a's first n elements (a dense, 1-d). */
static PyObject *
head(ua_state *st, PyObject *a, Py_ssize_t n)
{
    Py_ssize_t one = 1;
    return ua_py_array_make(st, 1, &n, &one, (ua_typenum)ARR(a)->typenum,
                            ARR(a)->data, ARR(a)->base, 1);
}

/* The sort and the groups, with starts[count] = n for the counts. */
static int
find_groups(ua_state *st, PyObject *x, uniques *u)
{
    Py_ssize_t n = ua_py_array_size(x);
    ua_queue *q = queue_of_array(x);
    ua_typenum t = (ua_typenum)ARR(x)->typenum;
    /* The sort's, the gather's and the groups' first compiles side by
     * side, where the device compiles them. */
    ua_prepare_item ahead[] = {{UA_PREPARE_SORT, t, n, true, NULL},
                               {UA_PREPARE_GATHER, t, n, false, NULL},
                               {UA_PREPARE_GROUP, t, n, false, NULL}};
    if (n > 0) {
        /* compiles, where nothing is in the cache, for tens of ms */
        PyThreadState *ts = PyEval_SaveThread();
        ua_queue_prepare(q, ahead, 3);
        PyEval_RestoreThread(ts);
    }
    u->flat = ua_py_array_reshape(st, x, 1, &n, 'C', -1);
    u->perm = u->flat ? ua_py_sorted(st, u->flat, 0, false, true) : NULL;
    u->sorted = u->perm ? ua_py_array_take(st, u->flat, u->perm, 0) : NULL;
    u->group = u->sorted ? ua_py_result_like(st, x, 1, &n, UA_INT64) : NULL;
    Py_ssize_t n1 = n + 1;
    u->starts = u->group ? ua_py_result_like(st, x, 1, &n1, UA_INT64) : NULL;
    if (u->starts == NULL) {
        return -1;
    }
    ua_group_plan p = {ARR(u->sorted)->data, n, t,
                       (int64_t *)(void *)ARR(u->group)->data,
                       (int64_t *)(void *)ARR(u->starts)->data};
    ptrdiff_t count = 0;
    int64_t end = n;
    ua_status code = ua_queue_group(q, &p, &count);
    if (code == UA_OK) {
        code = ua_copy_sync(q, ARR(u->starts)->data + 8 * count, &end, 8);
    }
    u->count = count;
    if (ua_py_run_core(st, code) < 0) {
        return -1;
    }
    u->first = head(st, u->starts, count);
    return u->first ? 0 : -1;
}

static PyObject *
values_of(ua_state *st, uniques *u)
{
    return ua_py_array_take(st, u->sorted, u->first, 0);
}

/* counts[g] = starts[g + 1] - starts[g]. */
static PyObject *
counts_of(ua_state *st, PyObject *x, uniques *u)
{
    PyObject *bounds = head(st, u->starts, u->count + 1);
    PyObject *out =
        bounds ? ua_py_result_like(st, x, 1, &u->count, UA_INT64) : NULL;
    if (out != NULL) {
        ua_strided b = ua_py_array_strided(bounds),
                   r = ua_py_array_strided(out);
        ua_status code = ua_queue_scan(queue_of_array(x), UA_SCAN_DIFF, 1,
                                       ARR(bounds)->shape, &b, 0, 0, &r);
        if (ua_py_run_core(st, code) < 0) {
            Py_CLEAR(out);
        }
    }
    Py_XDECREF(bounds);
    return out;
}

/* inverse[perm[i]] = group[i], in x's shape. */
static PyObject *
inverse_of(ua_state *st, PyObject *x, uniques *u)
{
    Py_ssize_t n = ua_py_array_size(x);
    PyObject *inv = ua_py_result_like(st, x, 1, &n, UA_INT64);
    if (inv == NULL) {
        return NULL;
    }
    if (n > 0 && ua_py_array_advanced_set(inv, u->perm, u->group) < 0) {
        Py_DECREF(inv);
        return NULL;
    }
    PyObject *out =
        ua_py_array_reshape(st, inv, ARR(x)->nd, ARR(x)->shape, 'C', -1);
    Py_DECREF(inv);
    return out;
}

static int
unique_setup(ua_state *st, PyObject *x, const char *fn, uniques *u)
{
    memset(u, 0, sizeof *u);
    if (ua_py_check_array(st, x, fn) < 0 || find_groups(st, x, u) < 0) {
        uniques_clear(u);
        return -1;
    }
    return 0;
}

PyObject *
ua_py_struct_of(PyTypeObject *type, int n, PyObject **items)
{
    bool complete = true;
    for (int i = 0; i < n; i++) {
        complete = complete && items[i] != NULL;
    }
    PyObject *out = complete ? PyStructSequence_New(type) : NULL;
    for (int i = 0; i < n; i++) {
        if (out != NULL) {
            PyStructSequence_SetItem(out, i, items[i]);
        } else {
            Py_XDECREF(items[i]);
        }
    }
    return out;
}

/* A result tuple of the module's type `name` holding items (stolen; all
 * must be non-NULL, else NULL). */
PyObject *
ua_py_result_tuple(PyObject *module, const char *name, int n, PyObject **items)
{
    bool complete = true;
    for (int i = 0; i < n; i++) {
        complete = complete && items[i] != NULL;
    }
    /* no look-up while the error that left an item NULL is pending */
    PyObject *type = complete ? PyObject_GetAttrString(module, name) : NULL;
    if (type == NULL) {
        for (int i = 0; i < n; i++) {
            Py_XDECREF(items[i]);
        }
        return NULL;
    }
    PyObject *out = ua_py_struct_of((PyTypeObject *)type, n, items);
    Py_DECREF(type);
    return out;
}

static PyObject *
unique_values(PyObject *module, PyObject *x)
{
    ua_state *st = PyModule_GetState(module);
    uniques u;
    if (unique_setup(st, x, "unique_values", &u) < 0) {
        return NULL;
    }
    PyObject *out = values_of(st, &u);
    uniques_clear(&u);
    return out;
}

static PyObject *
unique_counts(PyObject *module, PyObject *x)
{
    ua_state *st = PyModule_GetState(module);
    uniques u;
    if (unique_setup(st, x, "unique_counts", &u) < 0) {
        return NULL;
    }
    PyObject *items[2] = {values_of(st, &u), counts_of(st, x, &u)};
    uniques_clear(&u);
    return ua_py_result_tuple(module, "UniqueCountsResult", 2, items);
}

static PyObject *
unique_inverse(PyObject *module, PyObject *x)
{
    ua_state *st = PyModule_GetState(module);
    uniques u;
    if (unique_setup(st, x, "unique_inverse", &u) < 0) {
        return NULL;
    }
    PyObject *items[2] = {values_of(st, &u), inverse_of(st, x, &u)};
    uniques_clear(&u);
    return ua_py_result_tuple(module, "UniqueInverseResult", 2, items);
}

static PyObject *
unique_all(PyObject *module, PyObject *x)
{
    ua_state *st = PyModule_GetState(module);
    uniques u;
    if (unique_setup(st, x, "unique_all", &u) < 0) {
        return NULL;
    }
    PyObject *items[4] = {values_of(st, &u),
                          ua_py_array_take(st, u.perm, u.first, 0),
                          inverse_of(st, x, &u), counts_of(st, x, &u)};
    uniques_clear(&u);
    return ua_py_result_tuple(module, "UniqueAllResult", 4, items);
}

/* isin: x2's elements sorted (flattened, as the promoted type), then a
 * binary search for each element of x1 that answers whether an equal one
 * is there: one launch over x1, O(log n) reads each.  A Python scalar on
 * either side is an equality test instead. */
static int
isin_operand(ua_state *st, PyObject *x, const char *name)
{
    if (PyObject_TypeCheck(x, st->USMArray_Type) ||
        ua_py_is_python_scalar(x)) {
        return 0;
    }
    int typed = ua_py_is_typed_scalar(st, x);
    if (typed != 0) {
        return typed < 0 ? -1 : 0;
    }
    PyErr_Format(PyExc_TypeError,
                 "isin: %s must be an array or a Python scalar, not %.100s",
                 name, Py_TYPE(x)->tp_name);
    return -1;
}

/* A scalar on one side: x == s (x != s inverted), or any(x == s) as a 0-d
 * array (its negation inverted). */
static PyObject *
isin_scalar(ua_state *st, PyObject *x, PyObject *s, bool scalar_first,
            bool invert)
{
    PyObject *ops[2] = {x, s};
    if (!scalar_first) {
        return ua_py_elementwise(st, invert ? UA_EW_not_equal : UA_EW_equal,
                                 ops, 2, NULL, false);
    }
    PyObject *eq = ua_py_elementwise(st, UA_EW_equal, ops, 2, NULL, false);
    uint64_t axes = eq ? (((uint64_t)1 << ARR(eq)->nd) - 1) : 0;
    PyObject *any =
        eq ? ua_py_reduce(st, eq, UA_REDUCE_ANY, axes, false, UA_BOOL, 0.0)
           : NULL;
    Py_XDECREF(eq);
    if (any == NULL || !invert) {
        return any;
    }
    PyObject *out =
        ua_py_elementwise(st, UA_EW_logical_not, &any, 1, NULL, false);
    Py_DECREF(any);
    return out;
}

static PyObject *
isin_arrays(ua_state *st, PyObject *x1, PyObject *x2, bool invert)
{
    if (base_of(x1)->queue != base_of(x2)->queue) {
        PyErr_Format(PyExc_ValueError,
                     "isin: x1 is on %R but x2 is on %R; move them to one "
                     "queue first (to_device)",
                     base_of(x1)->queue, base_of(x2)->queue);
        return NULL;
    }
    ua_typenum t =
        ua_promote((ua_typenum)ARR(x1)->typenum, (ua_typenum)ARR(x2)->typenum);
    Py_ssize_t n = ua_py_array_size(x2);
    PyObject *flat = ua_py_array_reshape(st, x2, 1, &n, 'C', -1);
    PyObject *dense = flat ? ua_py_dense_as(st, flat, t) : NULL;
    PyObject *sorted = dense ? ua_py_sorted(st, dense, 0, false, false) : NULL;
    PyObject *needles = sorted ? ua_py_dense_as(st, x1, t) : NULL;
    PyObject *out = needles ? ua_py_result_like(st, x1, ARR(x1)->nd,
                                                ARR(x1)->shape, UA_BOOL)
                            : NULL;
    if (out != NULL) {
        ua_search_plan p = {ARR(sorted)->data,
                            n,
                            ARR(needles)->data,
                            ua_py_array_size(needles),
                            ARR(out)->data,
                            t,
                            invert ? UA_SEARCH_NOT_IN : UA_SEARCH_IN};
        if (ua_py_run_core(st, ua_queue_search(queue_of_array(x1), &p)) < 0) {
            Py_CLEAR(out);
        }
    }
    Py_XDECREF(flat);
    Py_XDECREF(dense);
    Py_XDECREF(sorted);
    Py_XDECREF(needles);
    return out;
}

static PyObject *
isin(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
     PyObject *kwnames)
{
    static const char *const kwlist[] = {"x1", "x2", "invert", NULL};
    static const ua_py_argspec spec = {"isin", kwlist, 2, 2};
    PyObject *v[3] = {NULL, NULL, NULL};
    ua_state *st = PyModule_GetState(module);
    int invert = 0;
    if (ua_py_parse_posonly(&spec, 2, args, nargs, kwnames, v) < 0 ||
        isin_operand(st, v[0], "x1") < 0 || isin_operand(st, v[1], "x2") < 0 ||
        ua_py_parse_bool(v[2], "isin", "invert", &invert) < 0) {
        return NULL;
    }
    bool a1 = PyObject_TypeCheck(v[0], st->USMArray_Type);
    bool a2 = PyObject_TypeCheck(v[1], st->USMArray_Type);
    if (!a1 && !a2) {
        PyErr_Format(PyExc_TypeError,
                     "isin: x1 or x2 must be an array, not both Python "
                     "scalars (%.100s and %.100s)",
                     Py_TYPE(v[0])->tp_name, Py_TYPE(v[1])->tp_name);
        return NULL;
    }
    if (!a1 || !a2) {
        return a1 ? isin_scalar(st, v[0], v[1], false, invert)
                  : isin_scalar(st, v[1], v[0], true, invert);
    }
    return isin_arrays(st, v[0], v[1], invert);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

UA_PY_ON_SNAPSHOTS(isin)

static PyMethodDef sets_functions[] = {
    {"isin", KW(isin_on_snapshots), UA_DOC_ISIN},
    {"unique_all", (PyCFunction)unique_all, METH_O, UA_DOC_UNIQUE_ALL},
    {"unique_counts", (PyCFunction)unique_counts, METH_O,
     UA_DOC_UNIQUE_COUNTS},
    {"unique_inverse", (PyCFunction)unique_inverse, METH_O,
     UA_DOC_UNIQUE_INVERSE},
    {"unique_values", (PyCFunction)unique_values, METH_O,
     UA_DOC_UNIQUE_VALUES},
    {0},
};

/* The named tuples the functions return, as module attributes. */
int
ua_py_add_result_type(PyObject *module, const char *prefix, const char *name,
                      const char *doc, PyStructSequence_Field *fields, int n,
                      PyTypeObject **keep)
{
    char qualified[64];
    snprintf(qualified, sizeof qualified, "%s.%s", prefix, name);
    PyStructSequence_Desc desc = {qualified, doc, fields, n};
    PyTypeObject *type = PyStructSequence_NewType(&desc);
    if (type == NULL) {
        return -1;
    }
    int rc = PyModule_AddObjectRef(module, name, (PyObject *)type);
    if (rc == 0 && keep != NULL) {
        *keep = type;
    } else {
        Py_DECREF(type);
    }
    return rc;
}

int
ua_py_sets_add(PyObject *module)
{
    static PyStructSequence_Field all[] = {{"values", NULL},
                                           {"indices", NULL},
                                           {"inverse_indices", NULL},
                                           {"counts", NULL},
                                           {NULL, NULL}};
    static PyStructSequence_Field counts[] = {
        {"values", NULL}, {"counts", NULL}, {NULL, NULL}};
    static PyStructSequence_Field inverse[] = {
        {"values", NULL}, {"inverse_indices", NULL}, {NULL, NULL}};
    if (ua_py_add_result_type(module, "usmarray", "UniqueAllResult",
                              "unique_all's result", all, 4, NULL) < 0 ||
        ua_py_add_result_type(module, "usmarray", "UniqueCountsResult",
                              "unique_counts's result", counts, 2, NULL) < 0 ||
        ua_py_add_result_type(module, "usmarray", "UniqueInverseResult",
                              "unique_inverse's result", inverse, 2,
                              NULL) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, sets_functions);
}
