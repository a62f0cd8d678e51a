/* The array's way to its namespace: x.__array_namespace__() gives the
 * Array API namespace, a module object "usm_array_api" made once from the
 * usmarray package: its public names (the same objects, so that their
 * __module__, pickling and identity stay the package's), the version,
 * __array_namespace_info__, linalg and fft.  It is not the package itself
 * because SciPy takes any namespace whose __name__ contains "marray" for
 * the MArray library (its is_marray test), and "usmarray" does. */
#include "python/base/pyheaders.h"
#include "python/base/state.h"
#include "python/types/arrays.h"

/* The namespace's __doc__ and the names it has beside the package's
 * __all__ (linalg and fft are the package's submodules). */
static const char namespace_doc[] =
    "The Array API namespace of usmarray's arrays: the usmarray package's "
    "functions, types and constants, under a name that SciPy does not take "
    "for the MArray library's.";
static const char *const extra_names[] = {
    "__array_api_version__",
    "__version__",
    "linalg",
    "fft",
};

/* dict[name] = package.name (the dtypes, which the package makes on first
 * use, are made now: a caller of __array_namespace__ works with NumPy's
 * dtypes). */
static int
copy_name(PyObject *package, PyObject *dict, PyObject *name)
{
    PyObject *value = PyObject_GetAttr(package, name);
    int rc = value ? PyDict_SetItem(dict, name, value) : -1;
    Py_XDECREF(value);
    return rc;
}

static PyObject *
make_namespace(void)
{
    PyObject *package = PyImport_ImportModule("usmarray");
    PyObject *all =
        package ? PyObject_GetAttrString(package, "__all__") : NULL;
    PyObject *names = all ? PySequence_List(all) : NULL;
    PyObject *ns = names ? PyModule_New("usm_array_api") : NULL;
    PyObject *dict = ns ? PyModule_GetDict(ns) : NULL;
    PyObject *doc = dict ? PyUnicode_FromString(namespace_doc) : NULL;
    int ok = doc != NULL && PyDict_SetItemString(dict, "__doc__", doc) == 0;
    for (size_t i = 0; ok && i < sizeof extra_names / sizeof *extra_names;
         i++) {
        PyObject *name = PyUnicode_FromString(extra_names[i]);
        ok = name != NULL && copy_name(package, dict, name) == 0;
        Py_XDECREF(name);
    }
    for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(names); i++) {
        ok = copy_name(package, dict, PyList_GET_ITEM(names, i)) == 0;
    }
    ok = ok && PyDict_SetItemString(dict, "__all__", names) == 0;
    Py_XDECREF(doc);
    Py_XDECREF(names);
    Py_XDECREF(all);
    Py_XDECREF(package);
    if (!ok) {
        Py_CLEAR(ns);
    }
    return ns;
}

/* The versions of the standard the namespace implements: 2025.12, and
 * 2024.12, whose functions it has (2025.12 added functions and made three
 * lists tuples). */
static bool
implemented_version(PyObject *version)
{
    return version == Py_None ||
           (PyUnicode_Check(version) &&
            (PyUnicode_CompareWithASCIIString(version, "2025.12") == 0 ||
             PyUnicode_CompareWithASCIIString(version, "2024.12") == 0));
}

PyObject *
ua_py_array_namespace(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                      PyObject *kwnames)
{
    PyObject *version = Py_None;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs != 0 || nkw > 1 ||
        (nkw == 1 && PyUnicode_CompareWithASCIIString(
                         PyTuple_GET_ITEM(kwnames, 0), "api_version") != 0)) {
        PyErr_SetString(PyExc_TypeError,
                        "__array_namespace__() takes only the keyword "
                        "argument api_version");
        return NULL;
    }
    if (nkw == 1) {
        version = args[0];
    }
    if (!implemented_version(version)) {
        PyErr_Format(PyExc_ValueError,
                     "usmarray implements versions 2025.12 and 2024.12 of "
                     "the Array API standard, not %R",
                     version);
        return NULL;
    }
    /* Asked on every call of array-api-compat's namespace lookup: the
     * namespace is made once and kept. */
    ua_state *st = ua_state_of(self);
    if (st->array_api == NULL && (st->array_api = make_namespace()) == NULL) {
        return NULL;
    }
    return Py_NewRef(st->array_api);
}
