/* The Python protocols of usmarray.USMArray that users of NumPy reach for
 * without thinking: iteration over the first axis, conversion to Python
 * scalars and lists, formatting, copying and pickling.  The type itself is assembled in array.c. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"

/* ------------------------------------------------------------ iteration */

Py_ssize_t
ua_py_array_sq_length(PyObject *self)
{
    if (ARR(self)->nd == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of unsized object");
        return -1;
    }
    return ARR(self)->shape[0];
}

/* self[i] along the first axis, a view; i is already non-negative where
 * it was given negative (the sequence protocol adds the length). */
PyObject *
ua_py_array_sq_item(PyObject *self, Py_ssize_t i)
{
    PyUSMArrayObject *a = ARR(self);
    if (a->nd == 0) {
        PyErr_SetString(PyExc_IndexError,
                        "too many indices for array: array is "
                        "0-dimensional, but 1 were indexed");
        return NULL;
    }
    if (i < 0 || i >= a->shape[0]) {
        PyErr_Format(PyExc_IndexError,
                     "index %zd is out of bounds for axis 0 with size %zd", i,
                     a->shape[0]);
        return NULL;
    }
    Py_ssize_t isz = (Py_ssize_t)ua_dtype_itemsize((ua_typenum)a->typenum);
    return ua_py_array_new(ua_state_of(self), a->nd - 1, a->shape + 1,
                           a->strides + 1, (ua_typenum)a->typenum,
                           a->data + i * a->strides[0] * isz, a->base,
                           (a->flags & USM_ARRAY_WRITABLE) != 0);
}

PyObject *
ua_py_array_iter(PyObject *self)
{
    if (ARR(self)->nd == 0) {
        PyErr_SetString(PyExc_TypeError, "iteration over a 0-d array");
        return NULL;
    }
    return PySeqIter_New(self);
}

/* ------------------------------------------------------- Python scalars */

/* The one element of a 0-d (or size-1) array as a Python bool, int,
 * float or complex: NumPy converts the copied element. */
static PyObject *
element_as_python(PyObject *self)
{
    PyObject *host = ua_py_array_to_numpy(ua_state_of(self), self);
    PyObject *item = host ? PyObject_CallMethod(host, "item", NULL) : NULL;
    Py_XDECREF(host);
    return item;
}

/* Only 0-d arrays convert to Python scalars (docs/architecture.rst,
 * "Comparison and truth", as NumPy 2 and the standard have it): int(),
 * float(), complex() and operator.index() of any other raise NumPy 2's
 * TypeError.  The truth of an array (`truth`) is refused as NumPy refuses
 * it, ValueError for an empty one or one of more elements, and TypeError
 * for one element in more dimensions (NumPy takes that one; dpctl's
 * usm_ndarray does not). */
static int
check_0d(PyObject *self, int truth)
{
    if (ARR(self)->nd == 0) {
        return 0;
    }
    Py_ssize_t n = ua_py_array_size(self);
    if (!truth || n == 1) {
        PyErr_Format(PyExc_TypeError,
                     "only 0-dimensional arrays can be converted to Python "
                     "scalars, and this one has %d dimension%s and %zd "
                     "element%s%s",
                     ARR(self)->nd, ARR(self)->nd == 1 ? "" : "s", n,
                     n == 1 ? "" : "s",
                     n == 0   ? ""
                     : n == 1 ? ": take its element with x.item() or "
                                "x.reshape(())"
                              : ": take one with x[index] or x.item(index)");
    } else if (n == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "an empty array has no value to convert to a Python "
                        "scalar (only 0-dimensional arrays convert); use "
                        "`array.size > 0` to check that an array is not "
                        "empty");
    } else {
        PyErr_Format(PyExc_ValueError,
                     "the truth value of an array with more than one "
                     "element (it has %zd) is ambiguous as a Python scalar "
                     "(only 0-dimensional arrays convert); use "
                     "usmarray.any(x) or usmarray.all(x)",
                     n);
    }
    return -1;
}

/* The element of a 0-d array converts as the Python scalar does (complex
 * to int or float raises TypeError). */
static PyObject *
convert_0d(PyObject *self, PyObject *(*convert)(PyObject *))
{
    if (check_0d(self, 0) < 0) {
        return NULL;
    }
    PyObject *item = element_as_python(self);
    PyObject *result = item ? convert(item) : NULL;
    Py_XDECREF(item);
    return result;
}

PyObject *
ua_py_array_int(PyObject *self)
{
    return convert_0d(self, PyNumber_Long);
}

PyObject *
ua_py_array_float(PyObject *self)
{
    return convert_0d(self, PyNumber_Float);
}

static PyObject *
to_complex(PyObject *item)
{
    Py_complex z = PyComplex_AsCComplex(item);
    if (z.real == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    return PyComplex_FromCComplex(z);
}

PyObject *
ua_py_array_complex(PyObject *self, PyObject *Py_UNUSED(a))
{
    return convert_0d(self, to_complex);
}

/* Only 0-d arrays of an integer type (bool excluded) are indices; the
 * dtype is told first, then the shape as for int(). */
PyObject *
ua_py_array_index(PyObject *self)
{
    char kind = ua_dtype_kind((ua_typenum)ARR(self)->typenum);
    if (kind != 'i' && kind != 'u') {
        PyErr_SetString(PyExc_TypeError,
                        "only integer scalar arrays can be converted to a "
                        "scalar index");
        return NULL;
    }
    return check_0d(self, 0) < 0 ? NULL : element_as_python(self);
}

/* The truth of a 0-d array; of any other, `if x:` must not quietly mean
 * "x is not empty" or "x's one element". */
int
ua_py_array_bool(PyObject *self)
{
    if (check_0d(self, 1) < 0) {
        return -1;
    }
    PyObject *item = element_as_python(self);
    int truth = item ? PyObject_IsTrue(item) : -1;
    Py_XDECREF(item);
    return truth;
}

/* The 0-d view of the element at a flat index in C order. */
static PyObject *
flat_element(PyObject *self, PyObject *index)
{
    PyUSMArrayObject *a = ARR(self);
    Py_ssize_t i, n = ua_py_array_size(self);
    if (ua_py_index(index, "item() index", &i) < 0) {
        return NULL;
    }
    if (i < -n || i >= n) {
        PyErr_Format(PyExc_IndexError,
                     "index %zd is out of bounds for size %zd", i, n);
        return NULL;
    }
    if (i < 0) {
        i += n;
    }
    Py_ssize_t isz = (Py_ssize_t)ua_dtype_itemsize((ua_typenum)a->typenum);
    char *data = a->data;
    for (int k = a->nd - 1; k >= 0; k--) {
        data += (i % a->shape[k]) * a->strides[k] * isz;
        i /= a->shape[k];
    }
    return ua_py_array_new(ua_state_of(self), 0, NULL, NULL,
                           (ua_typenum)a->typenum, data, a->base,
                           (a->flags & USM_ARRAY_WRITABLE) != 0);
}

/* item(), item(flat_index), item(i, j, ...) or item((i, j, ...)), as
 * NumPy's: one element as a Python scalar. */
PyObject *
ua_py_array_item(PyObject *self, PyObject *args)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs == 0) {
        if (ua_py_array_size(self) != 1) {
            PyErr_SetString(PyExc_ValueError,
                            "can only convert an array of size 1 to a Python "
                            "scalar");
            return NULL;
        }
        return element_as_python(self);
    }
    PyObject *key = nargs == 1 ? PyTuple_GET_ITEM(args, 0) : args;
    PyObject *element;
    if (PyTuple_Check(key)) {
        if (PyTuple_GET_SIZE(key) != ARR(self)->nd) {
            PyErr_Format(PyExc_ValueError,
                         "item() needs %d indices for an array of %d "
                         "dimensions, not %zd",
                         ARR(self)->nd, ARR(self)->nd, PyTuple_GET_SIZE(key));
            return NULL;
        }
        element = PyObject_GetItem(self, key);
    } else {
        element = flat_element(self, key);
    }
    if (element == NULL) {
        return NULL;
    }
    PyObject *item = ARR(element)->nd == 0 ? element_as_python(element) : NULL;
    if (item == NULL && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_IndexError, "item() takes integer indices only");
    }
    Py_DECREF(element);
    return item;
}

PyObject *
ua_py_array_tolist(PyObject *self, PyObject *Py_UNUSED(a))
{
    PyObject *host = ua_py_array_to_numpy(ua_state_of(self), self);
    PyObject *list = host ? PyObject_CallMethod(host, "tolist", NULL) : NULL;
    Py_XDECREF(host);
    return list;
}

/* A 0-d array formats as its element; others only with an empty spec. */
PyObject *
ua_py_array_format(PyObject *self, PyObject *spec)
{
    if (!PyUnicode_Check(spec)) {
        PyErr_Format(PyExc_TypeError, "format spec must be a str, not %.100s",
                     Py_TYPE(spec)->tp_name);
        return NULL;
    }
    if (ARR(self)->nd == 0) {
        PyObject *item = element_as_python(self);
        PyObject *text = item ? PyObject_Format(item, spec) : NULL;
        Py_XDECREF(item);
        return text;
    }
    if (PyUnicode_GET_LENGTH(spec) == 0) {
        return PyObject_Str(self);
    }
    PyErr_Format(PyExc_TypeError,
                 "unsupported format string %R passed to "
                 "usmarray.USMArray.__format__: only 0-d arrays take one",
                 spec);
    return NULL;
}

/* ------------------------------------------------- copying and pickling */

/* copy.copy and copy.deepcopy: new memory of the same USM kind on the same
 * queue, the layout's order kept (there are no references to share). */
PyObject *
ua_py_array_copy_protocol(PyObject *self, PyObject *Py_UNUSED(memo))
{
    return ua_py_array_copy(ua_state_of(self), self,
                            (ua_typenum)ARR(self)->typenum, 'K',
                            base_of(self)->kind, base_of(self)->queue);
}

/* Pickles by copy: the elements as a NumPy array, the USM kind and the
 * device's filter string; unpickling allocates there again. */
PyObject *
ua_py_array_reduce(PyObject *self, PyObject *Py_UNUSED(a))
{
    PyObject *module = PyType_GetModuleByDef(Py_TYPE(self), &ua_module_def);
    PyObject *rebuild =
        module ? PyObject_GetAttrString(module, "_rebuild_array") : NULL;
    PyObject *host =
        rebuild ? ua_py_array_to_numpy(ua_state_of(self), self) : NULL;
    PyObject *result = NULL;
    if (host != NULL) {
        ua_device *d = ua_queue_device(queue_of_array(self));
        result = Py_BuildValue("O(Oss)", rebuild, host,
                               ua_usm_kind_name(base_of(self)->kind),
                               ua_device_filter_string(d));
    }
    Py_XDECREF(rebuild);
    Py_XDECREF(host);
    return result;
}

/* ---------------------------------------------------------------- repr */

PyObject *
ua_py_array_repr(PyObject *self)
{
    ua_state *st = ua_state_of(self);
    PyObject *host = ua_py_array_to_numpy(st, self);
    PyObject *text =
        host ? PyObject_CallMethod(st->numpy, "array_repr", "(O)", host)
             : NULL;
    Py_XDECREF(host);
    if (text == NULL) {
        return NULL;
    }
    /* "array(BODY)" -> "USMArray(BODY, usm_type=..., device=...)", with
     * continuation lines shifted by the longer name. */
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    PyObject *body = PyUnicode_Substring(text, 6, n - 1);
    PyObject *nl = PyUnicode_FromString("\n"), *shifted = NULL;
    PyObject *indent = PyUnicode_FromString("\n   "), *result = NULL;
    if (body && nl && indent &&
        (shifted = PyUnicode_Replace(body, nl, indent, -1)) != NULL) {
        ua_device *d =
            ua_queue_device(((ua_py_queue *)base_of(self)->queue)->queue);
        result = PyUnicode_FromFormat(
            "USMArray(%U, usm_type='%s', device='%s')", shifted,
            ua_usm_kind_name(base_of(self)->kind), ua_device_filter_string(d));
    }
    Py_XDECREF(text);
    Py_XDECREF(body);
    Py_XDECREF(nl);
    Py_XDECREF(indent);
    Py_XDECREF(shifted);
    return result;
}

PyObject *
ua_py_array_str(PyObject *self)
{
    PyObject *host = ua_py_array_to_numpy(ua_state_of(self), self);
    PyObject *text = host ? PyObject_Str(host) : NULL;
    Py_XDECREF(host);
    return text;
}
