/* usmarray._usmarray._FusedCalls: the base of usmarray.fuse's functions
 * (python/usmarray/_fuse.py's Fused), whose call looks up the runner of a
 * small call by its arguments' dtypes, shapes, devices and layouts (C
 * contiguous or not) and calls it,
 * with no Python frame between the caller and the runner.  A call it does
 * not know goes to the subclass's _call, which plans, traces and remembers
 * the runner (_remember).  The lookup in Python (a method frame, a key of
 * tuples whose dtypes hash and compare in NumPy's code, a runner's frame)
 * took 0.8 us of a 1,000-element host call of 1.5. */
#include "python/base/pyheaders.h"
#include "python/types/fused_calls.h"

#include <stdint.h>
#include <string.h>

#include "python/base/convert.h"
#include "python/base/dtypes.h"
#include "python/base/objects.h"
#include "python/base/state.h"

/* The arguments a small call's signature takes at most (a call of more
 * goes to _call each time), and the small calls a function keeps (all
 * forgotten when one more comes). */
#define SMALL_CALL_ARGS 16
#define SMALL_CALLS 256
/* The words of a signature: its argument count, then per argument a word
 * of dtype and dimensions, the shape and the device, or a type. */
#define SIGNATURE_WORDS (1 + SMALL_CALL_ARGS * (2 + UA_MAXDIMS))

/* One small call: its signature's hash and words; the key that names it in
 * Python (_small), which holds the devices and types whose addresses the
 * words hold; its runner, and whether that runner has a straight call
 * (the attributes fast and generic). */
typedef struct {
    uint64_t hash;
    Py_ssize_t words;
    uintptr_t *signature;
    PyObject *key;
    PyObject *run;
    int straight;
} small_call;

typedef struct {
    PyObject_HEAD
    small_call *calls;
    int count;
} ua_py_fused_calls;

#define CALLS(o) ((ua_py_fused_calls *)(o))

/* The key of a tuple of arguments: (dtype, shape, device, whether it is
 * C-contiguous) of a USMArray of that exact type and the type of anything
 * else.  The layout is part of it: a runner planned for C-contiguous
 * arrays (the host's passes) would serve other layouts, which the generic
 * way gives the eager calls. */
static bool
is_c_contiguous(PyObject *a)
{
    return (ARR(a)->flags & USM_ARRAY_C_CONTIGUOUS) != 0;
}

PyObject *
ua_py_fused_call_key(ua_state *st, PyObject *args)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    PyObject *key = PyTuple_New(n);
    for (Py_ssize_t k = 0; key != NULL && k < n; k++) {
        PyObject *a = PyTuple_GET_ITEM(args, k), *part;
        if (Py_IS_TYPE(a, st->USMArray_Type)) {
            PyObject *dtype = ua_py_dtype(st, (ua_typenum)ARR(a)->typenum);
            PyObject *shape = dtype == NULL
                                  ? NULL
                                  : ua_py_int_tuple(ARR(a)->nd, ARR(a)->shape);
            PyObject *device = ((ua_py_queue *)base_of(a)->queue)->device;
            PyObject *c = is_c_contiguous(a) ? Py_True : Py_False;
            part = shape == NULL ? NULL
                                 : PyTuple_Pack(4, dtype, shape, device, c);
            Py_XDECREF(shape);
        } else {
            part = Py_NewRef((PyObject *)Py_TYPE(a));
        }
        if (part == NULL) {
            Py_CLEAR(key);
        } else {
            PyTuple_SET_ITEM(key, k, part);
        }
    }
    return key;
}

/* The words of the arguments' signature into sig, or -1 where they are
 * too many for a small call.  An array's first word is odd (dtype,
 * C-contiguity and dimensions shifted, then 1) where a type's address is
 * even, so that the words of different arguments never read alike. */
static Py_ssize_t
signature_of(ua_state *st, PyObject *args, uintptr_t *sig)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args), w = 0;
    if (n > SMALL_CALL_ARGS) {
        return -1;
    }
    sig[w++] = (uintptr_t)n;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *a = PyTuple_GET_ITEM(args, k);
        if (!Py_IS_TYPE(a, st->USMArray_Type)) {
            sig[w++] = (uintptr_t)Py_TYPE(a);
            continue;
        }
        int nd = ARR(a)->nd;
        sig[w++] = ((uintptr_t)ARR(a)->typenum << 16) |
                   ((uintptr_t)is_c_contiguous(a) << 8) |
                   ((uintptr_t)nd << 1) | 1u;
        for (int d = 0; d < nd; d++) {
            sig[w++] = (uintptr_t)ARR(a)->shape[d];
        }
        sig[w++] = (uintptr_t)((ua_py_queue *)base_of(a)->queue)->device;
    }
    return w;
}

/* A word at a time (the core's byte-wise hash took 4% of a small call). */
static uint64_t
signature_hash(const uintptr_t *sig, Py_ssize_t words)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (Py_ssize_t i = 0; i < words; i++) {
        h = (h ^ (uint64_t)sig[i]) * 0xff51afd7ed558ccdULL;
        h ^= h >> 29;
    }
    return h;
}

static small_call *
find_call(ua_py_fused_calls *f, const uintptr_t *sig, Py_ssize_t words,
          uint64_t hash)
{
    for (int i = 0; i < f->count; i++) {
        small_call *c = &f->calls[i];
        if (c->hash == hash && c->words == words &&
            memcmp(c->signature, sig, (size_t)words * sizeof *sig) == 0) {
            return c;
        }
    }
    return NULL;
}

static void
forget_calls(ua_py_fused_calls *f)
{
    small_call *calls = f->calls;
    int count = f->count;
    f->calls = NULL;
    f->count = 0;
    /* The table is empty before any reference goes: a runner's
     * finalizer that calls the function finds no stale entry. */
    for (int i = 0; i < count; i++) {
        PyMem_Free(calls[i].signature);
        Py_DECREF(calls[i].key);
        Py_DECREF(calls[i].run);
    }
    PyMem_Free(calls);
}

/* The runner's straight call, then, where it has none, fails or answers
 * NotImplemented, its generic way (which may set a new straight call); a
 * runner without one is called with the arguments.  No entry is read
 * after a call: the calls may change the table. */
static PyObject *
run_small_call(ua_state *st, PyObject *run, int straight, PyObject *args)
{
    if (!straight) {
        return PyObject_Call(run, args, NULL);
    }
    PyObject *fast = PyObject_GetAttr(run, st->s_fast);
    if (fast == NULL) {
        return NULL;
    }
    if (fast != Py_None) {
        PyObject *r = PyObject_CallOneArg(fast, args);
        if (r != NULL && r != Py_NotImplemented) {
            Py_DECREF(fast);
            return r;
        }
        if (r == NULL && !PyErr_ExceptionMatches(PyExc_Exception)) {
            Py_DECREF(fast);
            return NULL; /* KeyboardInterrupt and its kind reach the caller */
        }
        PyErr_Clear();
        Py_XDECREF(r);
    }
    Py_DECREF(fast);
    PyObject *generic = PyObject_GetAttr(run, st->s_generic);
    PyObject *r = generic ? PyObject_Call(generic, args, NULL) : NULL;
    Py_XDECREF(generic);
    return r;
}

static PyObject *
fused_calls_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    ua_state *st = ua_state_of(self);
    if (st == NULL) {
        return NULL;
    }
    if (kwargs == NULL || PyDict_GET_SIZE(kwargs) == 0) {
        uintptr_t sig[SIGNATURE_WORDS];
        Py_ssize_t words = signature_of(st, args, sig);
        small_call *c = words < 0 ? NULL
                                  : find_call(CALLS(self), sig, words,
                                              signature_hash(sig, words));
        if (c != NULL) {
            PyObject *run = Py_NewRef(c->run);
            PyObject *r = run_small_call(st, run, c->straight, args);
            Py_DECREF(run);
            return r;
        }
    }
    return PyObject_CallMethodObjArgs(self, st->s_call, args,
                                      kwargs ? kwargs : Py_None, NULL);
}

static PyObject *
fused_calls_remember(PyObject *self, PyObject *const *argv, Py_ssize_t argc)
{
    ua_state *st = ua_state_of(self);
    if (st == NULL) {
        return NULL;
    }
    if (argc != 2 || !PyTuple_Check(argv[0]) || !PyCallable_Check(argv[1])) {
        return PyErr_Format(
            PyExc_TypeError,
            "_remember() takes the call's arguments (a tuple) and its "
            "runner (a callable), not %zd argument%s%s%.100s%s%.100s",
            argc, argc == 1 ? "" : "s", argc == 2 ? ": " : "",
            argc == 2 ? Py_TYPE(argv[0])->tp_name : "",
            argc == 2 ? " and " : "",
            argc == 2 ? Py_TYPE(argv[1])->tp_name : "");
    }
    uintptr_t sig[SIGNATURE_WORDS];
    Py_ssize_t words = signature_of(st, argv[0], sig);
    if (words < 0) {
        Py_RETURN_FALSE;
    }
    int straight = PyObject_HasAttr(argv[1], st->s_generic) &&
                   PyObject_HasAttr(argv[1], st->s_fast);
    PyObject *key = ua_py_fused_call_key(st, argv[0]);
    uintptr_t *copy = key ? PyMem_Malloc((size_t)words * sizeof *sig) : NULL;
    if (copy == NULL) {
        Py_XDECREF(key);
        return key ? PyErr_NoMemory() : NULL;
    }
    memcpy(copy, sig, (size_t)words * sizeof *sig);
    ua_py_fused_calls *f = CALLS(self);
    uint64_t hash = signature_hash(sig, words);
    small_call *old = find_call(f, sig, words, hash);
    if (old == NULL && f->count >= SMALL_CALLS) {
        forget_calls(f);
    }
    if (old == NULL && f->count % 16 == 0) {
        small_call *more =
            PyMem_Realloc(f->calls, (size_t)(f->count + 16) * sizeof *more);
        if (more == NULL) {
            PyMem_Free(copy);
            Py_DECREF(key);
            return PyErr_NoMemory();
        }
        f->calls = more;
    }
    small_call c = {hash, words, copy, key, Py_NewRef(argv[1]), straight};
    if (old == NULL) {
        f->calls[f->count++] = c;
        Py_RETURN_TRUE;
    }
    small_call was = *old;
    *old = c;
    PyMem_Free(was.signature);
    Py_DECREF(was.key);
    Py_DECREF(was.run);
    Py_RETURN_TRUE;
}

static PyObject *
fused_calls_forget(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    forget_calls(CALLS(self));
    Py_RETURN_NONE;
}

static PyObject *
get_small(PyObject *self, void *Py_UNUSED(c))
{
    ua_py_fused_calls *f = CALLS(self);
    PyObject *d = PyDict_New();
    for (int i = 0; d != NULL && i < f->count; i++) {
        if (PyDict_SetItem(d, f->calls[i].key, f->calls[i].run) < 0) {
            Py_CLEAR(d);
        }
    }
    return d;
}

static int
fused_calls_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    ua_py_fused_calls *f = CALLS(self);
    for (int i = 0; i < f->count; i++) {
        Py_VISIT(f->calls[i].key);
        Py_VISIT(f->calls[i].run);
    }
    return 0;
}

static int
fused_calls_clear(PyObject *self)
{
    forget_calls(CALLS(self));
    return 0;
}

static void
fused_calls_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    forget_calls(CALLS(self));
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyMethodDef fused_calls_methods[] = {
    {"_remember", (PyCFunction)(void (*)(void))fused_calls_remember,
     METH_FASTCALL,
     "_remember(args, run)\n--\n\n"
     "Calls with arguments of args' dtypes, shapes and devices (and "
     "scalars of its scalars' types) call run from now on: run(*args), or "
     "where run has the attributes fast and generic, run.fast(args) unless "
     "it is None, raises or returns NotImplemented, then run.generic(*args). "
     "False where the arguments are too many to remember."},
    {"_forget", fused_calls_forget, METH_NOARGS,
     "_forget()\n--\n\nForget every small call's runner."},
    {0},
};

static PyGetSetDef fused_calls_getset[] = {
    {"_small", get_small, NULL,
     "The small calls' runners by their arguments' keys (a new dict).", NULL},
    {0},
};

static PyType_Slot fused_calls_slots[] = {
    {Py_tp_doc, "The small calls' table of a fused function, the base of "
                "usmarray.fuse's functions."},
    {Py_tp_dealloc, fused_calls_dealloc},
    {Py_tp_traverse, fused_calls_traverse},
    {Py_tp_clear, fused_calls_clear},
    {Py_tp_call, fused_calls_call},
    {Py_tp_methods, fused_calls_methods},
    {Py_tp_getset, fused_calls_getset},
    {0, NULL},
};

static PyType_Spec fused_calls_spec = {
    .name = "usmarray._usmarray._FusedCalls",
    .basicsize = sizeof(ua_py_fused_calls),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE |
             Py_TPFLAGS_IMMUTABLETYPE,
    .slots = fused_calls_slots,
};

/* _fused_call_key(args): the key _small names a call by. */
static PyObject *
fused_call_key(PyObject *m, PyObject *args)
{
    if (!PyTuple_Check(args)) {
        return PyErr_Format(PyExc_TypeError,
                            "_fused_call_key() takes a tuple, not %.100s",
                            Py_TYPE(args)->tp_name);
    }
    return ua_py_fused_call_key(PyModule_GetState(m), args);
}

static PyMethodDef fused_calls_functions[] = {
    {"_fused_call_key", fused_call_key, METH_O,
     "_fused_call_key(args)\n--\n\n"
     "For each of a tuple's items, (dtype, shape, device, C-contiguous) of "
     "a USMArray (of that exact type) and the type of anything else: the "
     "key by which "
     "a fused function's _small names a small call's runner."},
    {0},
};

int
ua_py_fused_calls_add_type(PyObject *module, ua_state *st)
{
    st->FusedCalls_Type = (PyTypeObject *)PyType_FromModuleAndSpec(
        module, &fused_calls_spec, NULL);
    if (st->FusedCalls_Type == NULL ||
        PyModule_AddFunctions(module, fused_calls_functions) < 0) {
        return -1;
    }
    return PyModule_AddObjectRef(module, "_FusedCalls",
                                 (PyObject *)st->FusedCalls_Type);
}
