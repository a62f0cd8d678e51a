/* The operators of usmarray.USMArray (arithmetic, bitwise, comparisons;
 * reflected and in-place), each the catalogue's function through
 * elementwise.c, and NumPy's dispatch to the namespace: __array_ufunc__
 * (__array_function__ is array_function.c's).  The type itself is
 * assembled in array.c. */
#include "python/base/pyheaders.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"

/* The state of whichever operand is a USMArray (a reflected operation
 * passes it second). */
static ua_state *
state_of_operands(PyObject *a, PyObject *b)
{
    PyTypeObject *t = Py_TYPE(a);
    if (!(t->tp_flags & Py_TPFLAGS_HEAPTYPE) ||
        PyType_GetModuleByDef(t, &ua_module_def) == NULL) {
        PyErr_Clear();
        t = Py_TYPE(b);
    }
    return ua_state_of_type(t);
}

static PyObject *
binary(ua_ew_id f, PyObject *a, PyObject *b)
{
    ua_state *st = state_of_operands(a, b);
    if (st == NULL) {
        return NULL;
    }
    PyObject *ops[2] = {a, b};
    return ua_py_elementwise(st, f, ops, 2, NULL, true);
}

static PyObject *
in_place(ua_ew_id f, PyObject *self, PyObject *other)
{
    PyObject *ops[2] = {self, other};
    return ua_py_elementwise(ua_state_of(self), f, ops, 2, self, true);
}

static PyObject *
unary(ua_ew_id f, PyObject *self)
{
    return ua_py_elementwise(ua_state_of(self), f, &self, 1, NULL, true);
}

#define BINARY_(SLOT, F)                                                      \
    static PyObject *op_##SLOT(PyObject *a, PyObject *b)                      \
    {                                                                         \
        return binary(UA_EW_##F, a, b);                                       \
    }                                                                         \
    static PyObject *op_inplace_##SLOT(PyObject *a, PyObject *b)              \
    {                                                                         \
        return in_place(UA_EW_##F, a, b);                                     \
    }
BINARY_(add, add)
BINARY_(subtract, subtract)
BINARY_(multiply, multiply)
BINARY_(true_divide, divide)
BINARY_(floor_divide, floor_divide)
BINARY_(remainder, remainder)
BINARY_(and, bitwise_and)
BINARY_(or, bitwise_or)
BINARY_(xor, bitwise_xor)
BINARY_(lshift, bitwise_left_shift)
BINARY_(rshift, bitwise_right_shift)

/* pow(x, y, mod) has no elementwise meaning with a modulus. */
static PyObject *
op_power(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return binary(UA_EW_pow, a, b);
}

static PyObject *
op_inplace_power(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return in_place(UA_EW_pow, a, b);
}

static PyObject *
op_negative(PyObject *self)
{
    return unary(UA_EW_negative, self);
}

static PyObject *
op_positive(PyObject *self)
{
    return unary(UA_EW_positive, self);
}

static PyObject *
op_absolute(PyObject *self)
{
    return unary(UA_EW_abs, self);
}

static PyObject *
op_invert(PyObject *self)
{
    return unary(UA_EW_bitwise_invert, self);
}

/* Comparisons are elementwise and give boolean arrays; an operand of
 * another type gives NotImplemented, so that x == None is False as
 * Python's identity fallback says. */
PyObject *
ua_py_array_richcompare(PyObject *self, PyObject *other, int op)
{
    static const ua_ew_id functions[] = {
        UA_EW_less,      UA_EW_less_equal, UA_EW_equal,
        UA_EW_not_equal, UA_EW_greater,    UA_EW_greater_equal,
    };
    return binary(functions[op], self, other);
}

PyType_Slot ua_py_array_operator_slots[] = {
#define SLOTS_(SLOT)                                                          \
    {Py_nb_##SLOT, op_##SLOT},                                                \
    {                                                                         \
        Py_nb_inplace_##SLOT, op_inplace_##SLOT                               \
    }
    SLOTS_(add),
    SLOTS_(subtract),
    SLOTS_(multiply),
    SLOTS_(true_divide),
    SLOTS_(floor_divide),
    SLOTS_(remainder),
    SLOTS_(and),
    SLOTS_(or),
    SLOTS_(xor),
    SLOTS_(lshift),
    SLOTS_(rshift),
    SLOTS_(power),
#undef SLOTS_
    {Py_nb_negative, op_negative},
    {Py_nb_positive, op_positive},
    {Py_nb_absolute, op_absolute},
    {Py_nb_invert, op_invert},
    {0, NULL},
};

/* ------------------------------------------------ NumPy's dispatch */

/* NumPy's names of ufuncs whose namespace function is named otherwise. */
static const char *const renamed[][2] = {
    {"absolute", "abs"},
    {"arccos", "acos"},
    {"arccosh", "acosh"},
    {"arcsin", "asin"},
    {"arcsinh", "asinh"},
    {"arctan", "atan"},
    {"arctan2", "atan2"},
    {"arctanh", "atanh"},
    {"power", "pow"},
    {"true_divide", "divide"},
    {"invert", "bitwise_invert"},
    {"bitwise_not", "bitwise_invert"},
    {"left_shift", "bitwise_left_shift"},
    {"right_shift", "bitwise_right_shift"},
    {"conjugate", "conj"},
    {"rint", "round"},
};

static bool
find_ufunc(const char *name, ua_ew_id *f)
{
    for (size_t i = 0; i < sizeof renamed / sizeof renamed[0]; i++) {
        if (strcmp(name, renamed[i][0]) == 0) {
            name = renamed[i][1];
            break;
        }
    }
    return ua_ew_find(name, f);
}

/* Whether a ufunc's keyword arguments ask for nothing but a result dtype
 * (out=None, dtype=...: Dask passes them so); *dtype is the one asked for
 * (a new reference: kwargs may be the caller's own dictionary, which the
 * user code run later can change), or NULL. */
static bool
only_defaults(PyObject *kwargs, PyObject **dtype)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    *dtype = NULL;
    while (kwargs != NULL && PyDict_Next(kwargs, &pos, &key, &value)) {
        if (PyUnicode_Check(key) &&
            PyUnicode_CompareWithASCIIString(key, "dtype") == 0) {
            Py_XSETREF(*dtype, value == Py_None ? NULL : Py_NewRef(value));
        } else if (value != Py_None) {
            Py_CLEAR(*dtype);
            return false;
        }
    }
    return true;
}

/* The result in the dtype a ufunc's dtype= asked for (computed in the
 * operands' own type, then cast: the same where they already have it);
 * takes the references to result and dtype. */
static PyObject *
as_dtype(PyObject *self, PyObject *result, PyObject *dtype)
{
    if (result == NULL || dtype == NULL) {
        Py_XDECREF(dtype);
        return result;
    }
    PyObject *module = PyType_GetModuleByDef(Py_TYPE(self), &ua_module_def);
    PyObject *astype =
        module ? PyObject_GetAttrString(module, "astype") : NULL;
    PyObject *out =
        astype ? PyObject_CallFunctionObjArgs(astype, result, dtype, NULL)
               : NULL;
    Py_XDECREF(astype);
    Py_DECREF(result);
    Py_DECREF(dtype);
    return out;
}

/* NumPy's ufuncs that are products, not elementwise: the namespace's
 * functions of the same name. */
static bool
is_product_ufunc(const char *name)
{
    return strcmp(name, "matmul") == 0 || strcmp(name, "vecdot") == 0;
}

/* The namespace's function `name` called with args[skip:]. */
static PyObject *
call_namespace(PyObject *self, const char *name, PyObject *args,
               Py_ssize_t skip)
{
    PyObject *module = PyType_GetModuleByDef(Py_TYPE(self), &ua_module_def);
    PyObject *ours = module ? PyObject_GetAttrString(module, name) : NULL;
    PyObject *rest =
        ours ? PyTuple_GetSlice(args, skip, PyTuple_GET_SIZE(args)) : NULL;
    PyObject *out = rest ? PyObject_Call(ours, rest, NULL) : NULL;
    Py_XDECREF(rest);
    Py_XDECREF(ours);
    return out;
}

/* A plain call of a ufunc with a namespace counterpart runs it;
 * reductions, out= and the rest give NotImplemented. */
static PyObject *
namespace_ufunc(PyObject *self, PyObject *args, PyObject *kwargs)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    PyObject *dtype;
    if (n < 2 || !only_defaults(kwargs, &dtype)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *name =
        PyObject_GetAttrString(PyTuple_GET_ITEM(args, 0), "__name__");
    PyObject *method = PyTuple_GET_ITEM(args, 1);
    const char *s = name != NULL ? PyUnicode_AsUTF8(name) : NULL;
    ua_ew_id f;
    bool call = PyUnicode_Check(method) &&
                PyUnicode_CompareWithASCIIString(method, "__call__") == 0;
    if (s != NULL && call && is_product_ufunc(s)) {
        PyObject *out = call_namespace(self, s, args, 2);
        Py_DECREF(name);
        return as_dtype(self, out, dtype);
    }
    if (s == NULL || !call || !find_ufunc(s, &f) || ua_ew_arity(f) != n - 2) {
        Py_XDECREF(name);
        Py_XDECREF(dtype);
        PyErr_Clear();
        Py_RETURN_NOTIMPLEMENTED;
    }
    Py_DECREF(name);
    return as_dtype(self,
                    ua_py_elementwise(ua_state_of(self), f,
                                      &PyTuple_GET_ITEM(args, 2), (int)(n - 2),
                                      NULL, false),
                    dtype);
}

/* __array_ufunc__(ufunc, method, *inputs, **kwargs): the namespace's
 * function where it has one; else, where the host reaches every array of
 * ours among the operands, NumPy's ufunc on zero-copy views of them (out=
 * writes through); else NotImplemented, which NumPy turns into
 * TypeError. */
PyObject *
ua_py_array_ufunc(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *out = namespace_ufunc(self, args, kwargs);
    if (out != Py_NotImplemented || PyTuple_GET_SIZE(args) < 2) {
        return out;
    }
    Py_DECREF(out);
    PyObject *method =
        PyObject_GetAttr(PyTuple_GET_ITEM(args, 0), PyTuple_GET_ITEM(args, 1));
    PyObject *inputs =
        method ? PyTuple_GetSlice(args, 2, PyTuple_GET_SIZE(args)) : NULL;
    out = inputs ? ua_py_numpy_on_host(self, method, inputs, kwargs) : NULL;
    Py_XDECREF(inputs);
    Py_XDECREF(method);
    return out;
}
