/* The extension module usmarray._usmarray: multi-phase initialisation,
 * its state and its functions. */
#include "python/base/pyheaders.h"
#include "python/base/docstrings.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/types/devices.h"
#include "python/types/fused_calls.h"
#include "python/types/memory.h"
#include "python/namespace/creation.h"
#include "python/namespace/data_types.h"
#include "python/namespace/elementwise.h"
#include "python/namespace/fused.h"
#include "python/namespace/indexing.h"
#include "python/namespace/extensions.h"
#include "python/namespace/linalg.h"
#include "python/namespace/searching.h"
#include "python/namespace/sets.h"
#include "python/namespace/sorting.h"
#include "python/namespace/top_k.h"
#include "python/namespace/scaled_reductions.h"
#include "python/namespace/statistical.h"
#include "python/namespace/utility.h"
#include "python/namespace/manipulation.h"
#include "python/namespace/info.h"

#include "core/dlpack.h"

static PyObject *
backends_info(PyObject *module, PyObject *Py_UNUSED(a))
{
    (void)module;
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list != NULL && i < ua_backend_count(); i++) {
        ua_backend *b = ua_backend_at(i);
        PyObject *row = Py_BuildValue(
            "{s:s,s:O,s:s,s:n}", "name", ua_backend_name(b), "available",
            ua_backend_available(b) ? Py_True : Py_False, "reason",
            ua_backend_reason(b), "devices",
            (Py_ssize_t)ua_backend_device_count(b));
        if (row == NULL || PyList_Append(list, row) < 0) {
            Py_XDECREF(row);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(row);
    }
    return list;
}

static PyMethodDef module_functions[] = {
    {"get_devices", (PyCFunction)(void (*)(void))ua_py_get_devices,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_GET_DEVICES},
    {"as_usm_memory", ua_py_as_usm_memory, METH_O, UA_DOC_AS_USM_MEMORY},
    {"get_pointer_type", (PyCFunction)(void (*)(void))ua_py_get_pointer_type,
     METH_VARARGS | METH_KEYWORDS, UA_DOC_GET_POINTER_TYPE},
    {"_rebuild_memory", ua_py_rebuild_memory, METH_VARARGS,
     "Unpickles a Memory."},
    {"_adopted_queue_count", ua_py_adopted_queue_count, METH_NOARGS,
     "How many Queues over other libraries' queues are alive."},
    {"_backends", backends_info, METH_NOARGS,
     "The backends, available or not, with the reason and device count."},
    {0},
};

/* What from_dlpack passes to __dlpack__, made once rather than per call;
 * keyword names interned, as callees compare them by identity first. */
static int
intern_dlpack_call(ua_state *st)
{
    PyObject *mv = PyUnicode_InternFromString("max_version");
    PyObject *copy = PyUnicode_InternFromString("copy");
    PyObject *stream = st->s_stream;
    if (mv != NULL && copy != NULL) {
        st->dl_kwnames[0] = PyTuple_Pack(1, mv);
        st->dl_kwnames[1] = PyTuple_Pack(2, mv, copy);
        st->dl_kwnames[2] = PyTuple_Pack(2, mv, stream);
        st->dl_kwnames[3] = PyTuple_Pack(3, mv, copy, stream);
    }
    Py_XDECREF(mv);
    Py_XDECREF(copy);
    st->dl_max_version =
        Py_BuildValue("(ii)", UA_DLPACK_MAJOR, UA_DLPACK_MINOR);
    for (int i = 0; i < 4; i++) {
        if (st->dl_kwnames[i] == NULL) {
            return -1;
        }
    }
    return st->dl_max_version ? 0 : -1;
}

static int
intern_keys(ua_state *st)
{
#define UA_INTERN_KEY(name, text)                                             \
    if ((st->name = PyUnicode_InternFromString(text)) == NULL) {              \
        return -1;                                                            \
    }
    UA_STATE_KEYS(UA_INTERN_KEY)
#undef UA_INTERN_KEY
    return intern_dlpack_call(st);
}

static int
add_exception(PyObject *module, ua_state *st)
{
    st->USMAllocationError = PyErr_NewExceptionWithDoc(
        "usmarray.USMAllocationError",
        "A backend could not make a USM allocation.", PyExc_MemoryError, NULL);
    return st->USMAllocationError == NULL
               ? -1
               : PyModule_AddObjectRef(module, "USMAllocationError",
                                       st->USMAllocationError);
}

/* Backends look for drivers that Python packages ship along sys.path. */
static int
pass_search_path(void)
{
    PyObject *path = PySys_GetObject("path"); /* borrowed */
    if (path == NULL || !PyList_Check(path)) {
        return 0;
    }
    PyObject *sep = PyUnicode_FromString(":");
    PyObject *joined = sep ? PyUnicode_Join(sep, path) : NULL;
    Py_XDECREF(sep);
    const char *s = joined ? PyUnicode_AsUTF8(joined) : NULL;
    if (s == NULL) {
        /* A path entry that is not a str: look nowhere rather than fail. */
        Py_XDECREF(joined);
        PyErr_Clear();
        return 0;
    }
    ua_status code = ua_set_library_search_path(s);
    Py_DECREF(joined);
    if (code != UA_OK) {
        PyErr_NoMemory();
        ua_error_clear();
        return -1;
    }
    return 0;
}

/* DLPack deleters and other callbacks that run without the GIL take it
 * with PyGILState_Ensure, which reaches the main interpreter only: in a
 * sub-interpreter they would deadlock.  The module refuses to load there,
 * as its slots declare to Python 3.12 and later; 3.11 has no such slot,
 * hence the check. */
static int
refuse_subinterpreter(void)
{
    if (PyInterpreterState_Get() == PyInterpreterState_Main()) {
        return 0;
    }
    PyErr_SetString(PyExc_ImportError,
                    "usmarray._usmarray does not support loading in "
                    "sub-interpreters: import it in the main interpreter");
    return -1;
}

/* The module's public names, as a tuple __all__ that the package takes
 * its names from: in the order they were registered, every function of
 * the module's method tables without a leading underscore and every type
 * of the package's (its __module__ usmarray: the classes, the exception,
 * the result tuples and __array_namespace_info__).  Private helpers
 * (_rebuild_memory, _C_API) and the submodules linalg and fft, which the
 * package enters in sys.modules, are not among them. */
static int
is_public(PyObject *module, PyObject *name, PyObject *value)
{
    if (PyCFunction_Check(value)) {
        return PyCFunction_GET_SELF(value) == module &&
               PyUnicode_READ_CHAR(name, 0) != '_';
    }
    if (!PyType_Check(value)) {
        return 0;
    }
    PyObject *owner = PyObject_GetAttrString(value, "__module__");
    int rc = owner == NULL ? -1
             : PyUnicode_Check(owner)
                 ? PyUnicode_CompareWithASCIIString(owner, "usmarray") == 0
                 : 0;
    Py_XDECREF(owner);
    return rc;
}

static int
add_public_names(PyObject *module)
{
    PyObject *dict = PyModule_GetDict(module); /* borrowed */
    PyObject *names = PyList_New(0);
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (names != NULL && PyDict_Next(dict, &pos, &key, &value)) {
        int public = PyUnicode_Check(key) && PyUnicode_GET_LENGTH(key) > 0
                         ? is_public(module, key, value)
                         : 0;
        if (public < 0 || (public && PyList_Append(names, key) < 0)) {
            Py_CLEAR(names);
        }
    }
    PyObject *all = names ? PyList_AsTuple(names) : NULL;
    int rc = all ? PyModule_AddObjectRef(module, "__all__", all) : -1;
    Py_XDECREF(all);
    Py_XDECREF(names);
    return rc;
}

static int
module_exec(PyObject *module)
{
    ua_state *st = PyModule_GetState(module);
    if (refuse_subinterpreter() < 0 || pass_search_path() < 0 ||
        intern_keys(st) < 0 || add_exception(module, st) < 0 ||
        ua_py_device_add_type(module, st) < 0 ||
        ua_py_context_add_type(module, st) < 0 ||
        ua_py_queue_add_type(module, st) < 0 ||
        ua_py_memory_add_types(module, st) < 0 ||
        ua_py_flags_add_type(module, st) < 0 ||
        ua_py_array_add_type(module, st) < 0 ||
        PyModule_AddFunctions(module, ua_py_array_functions) < 0 ||
        ua_py_data_types_add(module, st) < 0 ||
        ua_py_creation_add(module) < 0 || ua_py_indexing_add(module) < 0 ||
        ua_py_elementwise_add(module) < 0 || ua_py_fused_add(module) < 0 ||
        ua_py_fused_reduce_add(module) < 0 ||
        ua_py_manipulation_add(module, st) < 0 ||
        ua_py_statistical_add(module) < 0 ||
        ua_py_scaled_reductions_add(module) < 0 ||
        ua_py_utility_add(module) < 0 || ua_py_searching_add(module) < 0 ||
        ua_py_sorting_add(module) < 0 || ua_py_top_k_add(module) < 0 ||
        ua_py_sets_add(module) < 0 || ua_py_linalg_add(module) < 0 ||
        ua_py_extensions_add(module, st) < 0 ||
        ua_py_info_add(module, st) < 0 ||
        ua_py_fused_calls_add_type(module, st) < 0 ||
        ua_py_capi_add(module, st) < 0 || add_public_names(module) < 0) {
        return -1;
    }
    /* The backends' threads end before the process's exit destroys the
     * libraries they run in (NVRTC's statics, registered as its compiles
     * first reach them, are destroyed before any handler registered
     * earlier), at the end of the interpreter's finalization. */
    static int quiesce_registered;
    if (!quiesce_registered) {
        quiesce_registered = Py_AtExit(ua_backends_quiesce) == 0;
    }
    st->rebuild_memory = PyObject_GetAttrString(module, "_rebuild_memory");
    return st->rebuild_memory == NULL ? -1 : 0;
}

static void
visit_cache(PyObject **cache, size_t n, visitproc visit, void *arg,
            int *result)
{
    for (size_t i = 0; cache != NULL && i < n && *result == 0; i++) {
        if (cache[i] != NULL) {
            *result = visit(cache[i], arg);
        }
    }
}

static int
module_traverse(PyObject *module, visitproc visit, void *arg)
{
    ua_state *st = PyModule_GetState(module);
    int result = 0;
#define UA_VISIT_ONE(name) Py_VISIT(st->name);
#define UA_VISIT_KEY(name, text) Py_VISIT(st->name);
#define UA_VISIT_ARRAY(name, n)                                               \
    for (size_t i = 0; i < (n); i++) {                                        \
        Py_VISIT(st->name[i]);                                                \
    }
    UA_STATE_TYPES(UA_VISIT_ONE)
    UA_STATE_OBJECTS(UA_VISIT_ONE)
    UA_STATE_ARRAYS(UA_VISIT_ARRAY)
    UA_STATE_KEYS(UA_VISIT_KEY)
#undef UA_VISIT_ONE
#undef UA_VISIT_KEY
#undef UA_VISIT_ARRAY
    visit_cache(st->queues, st->ndevices, visit, arg, &result);
    visit_cache(st->contexts, st->ndevices, visit, arg, &result);
    visit_cache(st->devices, st->ndevices, visit, arg, &result);
    return result;
}

static void
clear_cache(PyObject ***cache, size_t n)
{
    for (size_t i = 0; *cache != NULL && i < n; i++) {
        Py_CLEAR((*cache)[i]);
    }
    PyMem_Free(*cache);
    *cache = NULL;
}

static int
module_clear(PyObject *module)
{
    ua_state *st = PyModule_GetState(module);
    clear_cache(&st->queues, st->ndevices);
    clear_cache(&st->contexts, st->ndevices);
    clear_cache(&st->devices, st->ndevices);
    st->ndevices = 0;
    PyMem_Free(st->adopted);
    st->adopted = NULL;
    st->nadopted = st->adopted_capacity = 0;
    /* The instances cached above hold their own types: the types go
     * last. */
#define UA_CLEAR_ONE(name) Py_CLEAR(st->name);
#define UA_CLEAR_KEY(name, text) Py_CLEAR(st->name);
#define UA_CLEAR_ARRAY(name, n)                                               \
    for (size_t i = 0; i < (n); i++) {                                        \
        Py_CLEAR(st->name[i]);                                                \
    }
    UA_STATE_OBJECTS(UA_CLEAR_ONE)
    UA_STATE_ARRAYS(UA_CLEAR_ARRAY)
    UA_STATE_KEYS(UA_CLEAR_KEY)
    UA_STATE_TYPES(UA_CLEAR_ONE)
#undef UA_CLEAR_ONE
#undef UA_CLEAR_KEY
#undef UA_CLEAR_ARRAY
    return 0;
}

static void
module_free(void *module)
{
    module_clear((PyObject *)module);
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
#if PY_VERSION_HEX >= 0x030C0000
    {Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED},
#endif
    {0, NULL},
};

PyModuleDef ua_module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "usmarray._usmarray",
    .m_doc = "USM memory and N-dimensional strided arrays (C extension).",
    .m_size = sizeof(ua_state),
    .m_methods = module_functions,
    .m_slots = module_slots,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC
PyInit__usmarray(void)
{
    return PyModuleDef_Init(&ua_module_def);
}
