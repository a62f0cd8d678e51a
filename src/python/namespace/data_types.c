/* The Array API's data type functions: astype, result_type, can_cast,
 * isdtype, iinfo and finfo, over the core's promotion table
 * (compute/promote.h). */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/dtypes.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/namespace/data_types.h"
#include "python/namespace/sets.h"
#include "python/types/arrays.h"
#include "python/types/devices.h"

#include <float.h>
#include <limits.h>
#include <string.h>

#include "core/compute/promote.h"

/* A dtype argument of fn: a dtype-like, or an object with a dtype (our
 * arrays, NumPy's arrays and scalars) where arrays are taken. */
static int
dtype_arg(ua_state *st, PyObject *obj, const char *fn, int arrays_too,
          ua_typenum *out)
{
    if (arrays_too && PyObject_TypeCheck(obj, st->USMArray_Type)) {
        *out = (ua_typenum)ARR(obj)->typenum;
        return 0;
    }
    if (obj == Py_None) {
        PyErr_Format(PyExc_TypeError, "%s: None is not a dtype", fn);
        return -1;
    }
    PyObject *dtype = NULL;
    if (ua_py_numpy(st) == NULL ||
        (arrays_too && !PyType_Check(obj) && !PyUnicode_Check(obj) &&
         !PyObject_TypeCheck(obj, (PyTypeObject *)st->numpy_dtype) &&
         ua_py_optional_attr(obj, st->s_dtype, &dtype) < 0)) {
        return -1;
    }
    /* The attribute is held: the getter that made it may drop it. */
    int rc = ua_py_typenum(st, dtype != NULL ? dtype : obj, out);
    Py_XDECREF(dtype);
    return rc;
}

/* 1 with *t for an array or dtype, 0 with *k for a Python scalar, which
 * promotes weakly. */
static int
operand(ua_state *st, PyObject *obj, ua_typenum *t, ua_scalar_kind *k)
{
    if (PyBool_Check(obj)) {
        *k = UA_SCALAR_BOOL;
        return 0;
    }
    if (PyLong_Check(obj)) {
        *k = UA_SCALAR_INT;
        return 0;
    }
    if (PyFloat_CheckExact(obj) || PyComplex_CheckExact(obj)) {
        *k = PyFloat_CheckExact(obj) ? UA_SCALAR_FLOAT : UA_SCALAR_COMPLEX;
        return 0;
    }
    return dtype_arg(st, obj, "result_type", 1, t) < 0 ? -1 : 1;
}

static PyObject *
dtype_object(ua_state *st, ua_typenum t)
{
    PyObject *dt = ua_py_dtype(st, t);
    return dt != NULL ? Py_NewRef(dt) : NULL;
}

static PyObject *
result_type(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ua_state *st = PyModule_GetState(module);
    ua_default_dtypes defaults = ua_default_dtypes_for(true);
    bool seen[UA_SCALAR_COMPLEX + 1] = {false};
    uint32_t strong = 0;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        ua_typenum u;
        ua_scalar_kind k;
        int kind = operand(st, args[i], &u, &k);
        if (kind < 0) {
            return NULL;
        }
        if (kind == 0) {
            seen[k] = true;
            continue;
        }
        strong |= 1u << ua_dtype_index(u);
    }
    if (!strong) {
        PyErr_SetString(PyExc_ValueError,
                        "result_type needs at least one array or dtype: "
                        "Python scalars alone have no dtype");
        return NULL;
    }
    ua_typenum t = ua_promote_set(strong);
    for (int k = UA_SCALAR_BOOL; k <= UA_SCALAR_COMPLEX; k++) {
        if (seen[k]) {
            t = ua_promote_scalar(t, (ua_scalar_kind)k, &defaults);
        }
    }
    return dtype_object(st, t);
}

/* 0 when a function of two positional arguments got two. */
static int
check_two(const char *fn, Py_ssize_t nargs)
{
    if (nargs == 2) {
        return 0;
    }
    PyErr_Format(PyExc_TypeError,
                 "%s() takes 2 positional arguments but %zd "
                 "were given",
                 fn, nargs);
    return -1;
}

static PyObject *
can_cast(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    ua_state *st = PyModule_GetState(module);
    ua_typenum from, to;
    if (check_two("can_cast", nargs) < 0 ||
        dtype_arg(st, args[0], "can_cast", 1, &from) < 0 ||
        dtype_arg(st, args[1], "can_cast", 0, &to) < 0) {
        return NULL;
    }
    return PyBool_FromLong(ua_can_cast(from, to));
}

/* The kinds isdtype names, by the dtype kinds they hold. */
static const struct {
    const char *name;
    const char *kinds;
} dtype_kinds[] = {
    {"bool", "b"},       {"signed integer", "i"}, {"unsigned integer", "u"},
    {"integral", "iu"},  {"real floating", "f"},  {"complex floating", "c"},
    {"numeric", "iufc"},
};

/* 1 when t is of kind (a name, a dtype), 0 when not, -1 with an error
 * that names fn. */
static int
is_of_kind(ua_state *st, ua_typenum t, PyObject *kind, const char *fn)
{
    if (PyUnicode_Check(kind)) {
        const char *name = PyUnicode_AsUTF8(kind);
        if (name == NULL) {
            return -1;
        }
        for (size_t i = 0; i < sizeof(dtype_kinds) / sizeof(*dtype_kinds);
             i++) {
            if (strcmp(name, dtype_kinds[i].name) == 0) {
                return strchr(dtype_kinds[i].kinds, ua_dtype_kind(t)) != NULL;
            }
        }
        PyErr_Format(PyExc_ValueError,
                     "%s: unknown kind '%.100s'; expected 'bool', "
                     "'signed integer', 'unsigned integer', 'integral', "
                     "'real floating', 'complex floating' or 'numeric', a "
                     "dtype, or a tuple of those",
                     fn, name);
        return -1;
    }
    if (PyObject_TypeCheck(kind, (PyTypeObject *)st->numpy_dtype)) {
        ua_typenum u;
        return ua_py_typenum(st, kind, &u) < 0 ? -1 : u == t;
    }
    PyErr_Format(PyExc_TypeError,
                 "%s: kind must be a str, a dtype or a tuple of those, "
                 "not %.100s",
                 fn, Py_TYPE(kind)->tp_name);
    return -1;
}

int
ua_py_dtype_is_kind(ua_state *st, ua_typenum t, PyObject *kind, const char *fn)
{
    if (ua_py_numpy(st) == NULL) {
        return -1;
    }
    if (!PyTuple_Check(kind)) {
        return is_of_kind(st, t, kind, fn);
    }
    int any = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kind); i++) {
        int is = is_of_kind(st, t, PyTuple_GET_ITEM(kind, i), fn);
        if (is < 0) {
            return -1;
        }
        any |= is;
    }
    return any;
}

static const char *const isdtype_names[] = {"dtype", "kind", NULL};
static const ua_py_argspec isdtype_args = {"isdtype", isdtype_names, 2, 2};

/* The standard's isdtype(dtype, kind) takes both by keyword too. */
static PyObject *
isdtype(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
        PyObject *kwnames)
{
    ua_state *st = PyModule_GetState(module);
    PyObject *v[2] = {NULL, NULL};
    ua_typenum t;
    if (ua_py_parse_fast(&isdtype_args, args, nargs, kwnames, v) < 0 ||
        ua_py_numpy(st) == NULL) {
        return NULL;
    }
    if (!PyObject_TypeCheck(v[0], (PyTypeObject *)st->numpy_dtype)) {
        PyErr_Format(PyExc_TypeError,
                     "isdtype: dtype must be a dtype (such as usmarray.int32 "
                     "or x.dtype), not %.100s",
                     Py_TYPE(v[0])->tp_name);
        return NULL;
    }
    if (ua_py_typenum(st, v[0], &t) < 0) {
        return NULL;
    }
    int is = ua_py_dtype_is_kind(st, t, v[1], "isdtype");
    return is < 0 ? NULL : PyBool_FromLong(is);
}

/* ------------------------------------------------------------------ astype */

static const char *const astype_names[] = {
    "x", "dtype", "copy", "device", "order", "casting", NULL};
static const ua_py_argspec astype_args = {"astype", astype_names, 2, 2};

/* The function of the standard, over the method's work: x itself where
 * copy is False and dtype and device are already x's; device moves the
 * result as to_device() does. */
static PyObject *
astype(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
       PyObject *kwnames)
{
    ua_state *st = PyModule_GetState(module);
    PyObject *v[6] = {NULL, NULL, Py_True, Py_None, NULL, NULL};
    ua_typenum t;
    char order = 'K';
    if (ua_py_parse_fast(&astype_args, args, nargs, kwnames, v) < 0) {
        return NULL;
    }
    /* The standard's x and dtype are positional only. */
    if (nargs < 2) {
        PyErr_SetString(PyExc_TypeError,
                        "astype() takes x and dtype by position only");
        return NULL;
    }
    PyObject *x = v[0];
    if (!PyObject_TypeCheck(x, st->USMArray_Type)) {
        PyErr_Format(PyExc_TypeError,
                     "astype: x must be a usmarray.USMArray, not %.100s",
                     Py_TYPE(x)->tp_name);
        return NULL;
    }
    if (!PyBool_Check(v[2])) {
        PyErr_Format(PyExc_TypeError,
                     "astype: copy must be a bool, not %.100s",
                     Py_TYPE(v[2])->tp_name);
        return NULL;
    }
    if (v[4] != NULL && ua_py_parse_order(v[4], "CFAK", &order) < 0) {
        return NULL;
    }
    PyObject *queue = v[3] == Py_None ? Py_NewRef(base_of(x)->queue)
                                      : ua_py_as_queue(st, v[3], "device");
    if (queue == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    int rc = v[1] == Py_None
                 ? ua_py_astype_dtype(st, x, Py_None, v[5], queue, &t)
             : dtype_arg(st, v[1], "astype", 0, &t) < 0
                 ? -1
                 : ua_py_check_casting(st, x, t, v[5]);
    if (rc == 0) {
        result = ua_py_array_cast(st, x, t, order, v[2] == Py_True, queue);
    }
    Py_DECREF(queue);
    return result;
}

/* ------------------------------------------------------------ iinfo, finfo */

static PyStructSequence_Field iinfo_fields[] = {
    {"bits", "the number of bits of the type"},
    {"max", "the largest value"},
    {"min", "the smallest value"},
    {"dtype", "the dtype described"},
    {NULL, NULL},
};

static PyStructSequence_Desc iinfo_desc = {
    "usmarray.iinfo_object", "Limits of an integer dtype (iinfo()).",
    iinfo_fields, 4};

static PyStructSequence_Field finfo_fields[] = {
    {"bits", "the number of bits of the type"},
    {"eps", "the difference between 1.0 and the next larger value"},
    {"max", "the largest finite value"},
    {"min", "the smallest finite value"},
    {"smallest_normal", "the smallest positive normal value"},
    {"dtype", "the real floating dtype described"},
    {NULL, NULL},
};

static PyStructSequence_Desc finfo_desc = {
    "usmarray.finfo_object",
    "Limits of a floating dtype (finfo()); a complex dtype's are those of its "
    "real part.",
    finfo_fields, 6};

/* The dtype iinfo (kinds "iu") or finfo (kinds "fc") describes: that of
 * arg, when it is of one of the kinds; else -1 with ValueError. */
static int
info_dtype(ua_state *st, PyObject *arg, const char *fn, const char *kinds,
           ua_typenum *t)
{
    if (dtype_arg(st, arg, fn, 1, t) < 0) {
        return -1;
    }
    if (strchr(kinds, ua_dtype_kind(*t)) == NULL) {
        bool integral = kinds[0] == 'i';
        PyErr_Format(PyExc_ValueError,
                     "%s: %s is not %s dtype (%s() describes %s ones)", fn,
                     ua_dtype_name(*t), integral ? "an integer" : "a floating",
                     integral ? "finfo" : "iinfo",
                     integral ? "floating" : "integer");
        return -1;
    }
    return 0;
}

static PyObject *
iinfo(PyObject *module, PyObject *arg)
{
    ua_state *st = PyModule_GetState(module);
    ua_typenum t;
    if (info_dtype(st, arg, "iinfo", "iu", &t) < 0) {
        return NULL;
    }
    char kind = ua_dtype_kind(t);
    int bits = (int)ua_dtype_itemsize(t) * 8;
    unsigned long long umax = bits == 64 ? ULLONG_MAX : (1ULL << bits) - 1;
    long long smax = (long long)(umax >> 1);
    PyObject *values[] = {
        PyLong_FromLong(bits),
        kind == 'u' ? PyLong_FromUnsignedLongLong(umax)
                    : PyLong_FromLongLong(smax),
        PyLong_FromLongLong(kind == 'u' ? 0 : -smax - 1),
        dtype_object(st, t),
    };
    return ua_py_struct_of(st->IInfo_Type, 4, values);
}

static PyObject *
finfo(PyObject *module, PyObject *arg)
{
    ua_state *st = PyModule_GetState(module);
    ua_typenum t;
    if (info_dtype(st, arg, "finfo", "fc", &t) < 0) {
        return NULL;
    }
    char kind = ua_dtype_kind(t);
    int bits = (int)ua_dtype_itemsize(t) * (kind == 'c' ? 4 : 8);
    /* float16's limits: 10 bits of mantissa, exponents down to -14. */
    double eps = bits == 16 ? 0x1p-10 : bits == 32 ? FLT_EPSILON : DBL_EPSILON;
    double max = bits == 16 ? 65504.0 : bits == 32 ? FLT_MAX : DBL_MAX;
    double tiny = bits == 16 ? 0x1p-14 : bits == 32 ? FLT_MIN : DBL_MIN;
    ua_typenum real = bits == 16   ? UA_FLOAT16
                      : bits == 32 ? UA_FLOAT32
                                   : UA_FLOAT64;
    PyObject *values[] = {
        PyLong_FromLong(bits),    PyFloat_FromDouble(eps),
        PyFloat_FromDouble(max),  PyFloat_FromDouble(-max),
        PyFloat_FromDouble(tiny), dtype_object(st, real),
    };
    return ua_py_struct_of(st->FInfo_Type, 6, values);
}

static PyMethodDef data_type_functions[] = {
    {"result_type", (PyCFunction)(void (*)(void))result_type, METH_FASTCALL,
     UA_DOC_RESULT_TYPE},
    {"can_cast", (PyCFunction)(void (*)(void))can_cast, METH_FASTCALL,
     UA_DOC_CAN_CAST},
    {"isdtype", (PyCFunction)(void (*)(void))isdtype,
     METH_FASTCALL | METH_KEYWORDS, UA_DOC_ISDTYPE},
    {"astype", (PyCFunction)(void (*)(void))astype,
     METH_FASTCALL | METH_KEYWORDS, UA_DOC_ASTYPE},
    {"iinfo", iinfo, METH_O, UA_DOC_IINFO},
    {"finfo", finfo, METH_O, UA_DOC_FINFO},
    {0},
};

int
ua_py_data_types_add(PyObject *module, ua_state *st)
{
    st->IInfo_Type = PyStructSequence_NewType(&iinfo_desc);
    st->FInfo_Type = PyStructSequence_NewType(&finfo_desc);
    if (st->IInfo_Type == NULL || st->FInfo_Type == NULL) {
        return -1;
    }
    return PyModule_AddFunctions(module, data_type_functions);
}
