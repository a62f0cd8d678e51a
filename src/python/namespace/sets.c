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
#include "python/namespace/sets.h"
#include "python/namespace/sorting.h"

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
    u->flat = ua_py_array_reshape(st, x, 1, &n, 'C', -1);
    u->perm = u->flat ? ua_py_sorted(st, u->flat, 0, false, true) : NULL;
    u->sorted = u->perm ? ua_py_array_take(st, u->flat, u->perm, 0) : NULL;
    u->group = u->sorted ? ua_py_result_like(st, x, 1, &n, UA_INT64) : NULL;
    Py_ssize_t n1 = n + 1;
    u->starts = u->group ? ua_py_result_like(st, x, 1, &n1, UA_INT64) : NULL;
    if (u->starts == NULL) {
        return -1;
    }
    ua_group_plan p = {ARR(u->sorted)->data, n, (ua_typenum)ARR(x)->typenum,
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

static PyMethodDef sets_functions[] = {
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
