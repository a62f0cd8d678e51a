/* usmarray.Flags: the flags of a USMArray, by attribute or by key.  Only
 * writable can be set, and only to what the array's memory allows. */
#include "python/base/pyheaders.h"
#include "python/base/docstrings.h"
#include "python/base/freelist.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"

typedef struct {
    PyObject_HEAD
    PyObject *array;
} ua_py_flags;

#define ARRAY(o) ((PyUSMArrayObject *)((ua_py_flags *)(o))->array)

PyObject *
ua_py_flags_new(ua_state *st, PyObject *array)
{
    ua_py_flags *f = PyObject_GC_New(ua_py_flags, st->Flags_Type);
    if (f != NULL) {
        f->array = Py_NewRef(array);
        PyObject_GC_Track(f);
    }
    return (PyObject *)f;
}

static PyObject *
flag(PyObject *self, int bit)
{
    return PyBool_FromLong((ARRAY(self)->flags & bit) != 0);
}

static PyObject *
get_c(PyObject *self, void *Py_UNUSED(c))
{
    return flag(self, USM_ARRAY_C_CONTIGUOUS);
}

static PyObject *
get_f(PyObject *self, void *Py_UNUSED(c))
{
    return flag(self, USM_ARRAY_F_CONTIGUOUS);
}

/* dpctl's combinations (its usm_ndarray's flags): fc both orders, forc and
 * contiguous either, fnc Fortran and not C. */
static PyObject *
get_fc(PyObject *self, void *Py_UNUSED(c))
{
    int both = USM_ARRAY_C_CONTIGUOUS | USM_ARRAY_F_CONTIGUOUS;
    return PyBool_FromLong((ARRAY(self)->flags & both) == both);
}

static PyObject *
get_forc(PyObject *self, void *Py_UNUSED(c))
{
    int either = USM_ARRAY_C_CONTIGUOUS | USM_ARRAY_F_CONTIGUOUS;
    return PyBool_FromLong((ARRAY(self)->flags & either) != 0);
}

static PyObject *
get_fnc(PyObject *self, void *Py_UNUSED(c))
{
    int f = ARRAY(self)->flags;
    return PyBool_FromLong((f & USM_ARRAY_F_CONTIGUOUS) &&
                           !(f & USM_ARRAY_C_CONTIGUOUS));
}

static PyObject *
get_w(PyObject *self, void *Py_UNUSED(c))
{
    return flag(self, USM_ARRAY_WRITABLE);
}

static int
set_w(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete flags");
        return -1;
    }
    /* Only a bool, as dpctl's flags and copy= take: {} is no answer. */
    if (!PyBool_Check(value)) {
        PyErr_Format(PyExc_TypeError,
                     "the writable flag must be a bool, not %.100s",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    int on = value == Py_True;
    PyUSMArrayObject *a = ARRAY(self);
    if (on && ((ua_py_memory *)a->base)->readonly) {
        PyErr_SetString(PyExc_ValueError,
                        "cannot make the array writable: its memory is "
                        "read-only");
        return -1;
    }
    a->flags = on ? (a->flags | USM_ARRAY_WRITABLE)
                  : (a->flags & ~USM_ARRAY_WRITABLE);
    return 0;
}

/* Keys as NumPy's flags accept them. */
static int
bit_of_key(PyObject *key)
{
    static const struct {
        const char *name;
        int bit;
    } keys[] = {
        {"C", USM_ARRAY_C_CONTIGUOUS},
        {"C_CONTIGUOUS", USM_ARRAY_C_CONTIGUOUS},
        {"F", USM_ARRAY_F_CONTIGUOUS},
        {"F_CONTIGUOUS", USM_ARRAY_F_CONTIGUOUS},
        {"W", USM_ARRAY_WRITABLE},
        {"WRITABLE", USM_ARRAY_WRITABLE},
        {"WRITEABLE", USM_ARRAY_WRITABLE},
    };
    const char *s = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    for (size_t i = 0; s != NULL && i < sizeof(keys) / sizeof(keys[0]); i++) {
        if (strcmp(s, keys[i].name) == 0) {
            return keys[i].bit;
        }
    }
    if (!PyErr_Occurred()) {
        PyErr_Format(PyExc_KeyError,
                     "%R is not a flag (C, F, W, C_CONTIGUOUS, F_CONTIGUOUS, "
                     "WRITABLE; FC, FORC, CONTIGUOUS and FNC to read)",
                     key);
    }
    return -1;
}

/* dpctl's keys of its combinations, read-only. */
static getter
combination_of_key(PyObject *key)
{
    static const struct {
        const char *name;
        getter get;
    } keys[] = {{"FC", get_fc},
                {"FORC", get_forc},
                {"CONTIGUOUS", get_forc},
                {"FNC", get_fnc}};
    const char *s = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    for (size_t i = 0; s != NULL && i < sizeof(keys) / sizeof(keys[0]); i++) {
        if (strcmp(s, keys[i].name) == 0) {
            return keys[i].get;
        }
    }
    PyErr_Clear();
    return NULL;
}

static PyObject *
flags_getitem(PyObject *self, PyObject *key)
{
    getter combination = combination_of_key(key);
    if (combination != NULL) {
        return combination(self, NULL);
    }
    int bit = bit_of_key(key);
    return bit < 0 ? NULL : flag(self, bit);
}

static int
flags_setitem(PyObject *self, PyObject *key, PyObject *value)
{
    int bit = bit_of_key(key);
    if (bit < 0) {
        return -1;
    }
    if (bit != USM_ARRAY_WRITABLE) {
        PyErr_Format(PyExc_ValueError, "flag %R cannot be set", key);
        return -1;
    }
    return set_w(self, value, NULL);
}

static PyObject *
flags_repr(PyObject *self)
{
    int f = ARRAY(self)->flags;
    return PyUnicode_FromFormat(
        "  C_CONTIGUOUS : %s\n  F_CONTIGUOUS : %s\n  WRITABLE : %s",
        f & USM_ARRAY_C_CONTIGUOUS ? "True" : "False",
        f & USM_ARRAY_F_CONTIGUOUS ? "True" : "False",
        f & USM_ARRAY_WRITABLE ? "True" : "False");
}

static PyObject *
flags_richcompare(PyObject *self, PyObject *other, int op)
{
    if (!Py_IS_TYPE(other, Py_TYPE(self)) || (op != Py_EQ && op != Py_NE)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    int same = ARRAY(self)->flags == ARRAY(other)->flags;
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static int
flags_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(((ua_py_flags *)self)->array);
    return 0;
}

static int
flags_clear(PyObject *self)
{
    Py_CLEAR(((ua_py_flags *)self)->array);
    return 0;
}

static void
flags_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    flags_clear(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyGetSetDef flags_getset[] = {
    {"c_contiguous", get_c, NULL, "Elements laid out in C order.", NULL},
    {"f_contiguous", get_f, NULL, "Elements laid out in Fortran order.", NULL},
    {"writable", get_w, set_w, "Whether the array may be written.", NULL},
    {"writeable", get_w, set_w, "Alias of writable.", NULL},
    {"fc", get_fc, NULL, "Both C- and Fortran-contiguous.", NULL},
    {"forc", get_forc, NULL, "C- or Fortran-contiguous.", NULL},
    {"contiguous", get_forc, NULL, "C- or Fortran-contiguous (dpctl's).",
     NULL},
    {"fnc", get_fnc, NULL, "Fortran-contiguous and not C-contiguous.", NULL},
    {0},
};

static PyType_Slot flags_slots[] = {
    {Py_tp_doc, UA_DOC_FLAGS},
    {Py_tp_dealloc, flags_dealloc},
    {Py_tp_traverse, flags_traverse},
    {Py_tp_clear, flags_clear},
    {Py_tp_repr, flags_repr},
    {Py_tp_richcompare, flags_richcompare},
    {Py_tp_getset, flags_getset},
    {Py_mp_subscript, flags_getitem},
    {Py_mp_ass_subscript, flags_setitem},
    {0, NULL},
};

static PyType_Spec flags_spec = {
    .name = "usmarray.Flags",
    .basicsize = sizeof(ua_py_flags),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC |
             Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = flags_slots,
};

int
ua_py_flags_add_type(PyObject *module, ua_state *st)
{
    st->Flags_Type =
        (PyTypeObject *)PyType_FromModuleAndSpec(module, &flags_spec, NULL);
    return st->Flags_Type == NULL ? -1 : 0;
}
