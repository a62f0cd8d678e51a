/* DLPack: __dlpack__ and __dlpack_device__ of arrays, and from_dlpack.
 * The core validates tensors and maps dtypes and devices; this file owns
 * capsules, deleters and the Python objects kept alive by them. */
#include "python/base/pyheaders.h"
#include "python/base/convert.h"
#include "python/base/docstrings.h"
#include "python/base/errors.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/types/devices.h"
#include "python/types/memory.h"
#include "python/protocols/dlpack_interop.h"
#include "python/protocols/suai.h"

#include "core/dlpack.h"

#if PY_VERSION_HEX >= 0x030D0000
#define ua_py_finalizing() Py_IsFinalizing()
#else
#define ua_py_finalizing() _Py_IsFinalizing()
#endif

/* ------------------------------------------------------------- export */

/* An exported tensor's block (PyMem's, faster than malloc at these sizes)
 * and the array it keeps alive, with the GIL held. */
static void
drop_export(void *manager_ctx, void *block)
{
    Py_XDECREF((PyObject *)manager_ctx);
    PyMem_Free(block);
}

/* A consumer may call the deleters from any thread, with or without the
 * GIL, and after the interpreter has begun to shut down, when touching
 * Python objects is no longer safe: the block and the reference are then
 * left to the process's end. */
static void
release_export(void *manager_ctx, void *block)
{
    if (!Py_IsInitialized() || ua_py_finalizing()) {
        return;
    }
    PyGILState_STATE g = PyGILState_Ensure();
    drop_export(manager_ctx, block);
    PyGILState_Release(g);
}

static void
delete_versioned(ua_dl_managed_versioned *m)
{
    release_export(m->manager_ctx, m);
}

static void
delete_legacy(ua_dl_managed *m)
{
    release_export(m->manager_ctx, m);
}

/* The exception set while a deleter runs, put aside so that the deleter
 * (which may be Python code) starts clean; whatever the deleter leaves set
 * is dropped, as a destructor cannot report it.  Fetching only when one is
 * set keeps the usual case to one load. */
typedef struct {
    PyObject *type, *value, *tb;
} saved_error;

static void
save_error(saved_error *e)
{
    e->type = e->value = e->tb = NULL;
    if (PyErr_Occurred()) {
        PyErr_Fetch(&e->type, &e->value, &e->tb);
    }
}

static void
restore_error(saved_error *e)
{
    if (e->type != NULL) {
        PyErr_Restore(e->type, e->value, e->tb);
    }
    else if (PyErr_Occurred()) {
        PyErr_Clear();
    }
}

/* Calls the deleter of a managed tensor of either form, if it has one,
 * with the GIL held: our own deleters then drop the array at once, where a
 * consumer's call of them must take the GIL first. */
static void
call_deleter(void *managed, int versioned)
{
    if (versioned) {
        ua_dl_managed_versioned *v = managed;
        if (v->deleter == delete_versioned) {
            drop_export(v->manager_ctx, v);
        }
        else if (v->deleter != NULL) {
            v->deleter(v);
        }
    }
    else {
        ua_dl_managed *l = managed;
        if (l->deleter == delete_legacy) {
            drop_export(l->manager_ctx, l);
        }
        else if (l->deleter != NULL) {
            l->deleter(l);
        }
    }
}

/* The capsule names this file gives, as objects of their own: a name that
 * is one of these pointers is known without comparing its text (other
 * consumers rename capsules with their own strings, compared as text). */
static const char versioned_name[] = UA_DLPACK_VERSIONED_CAPSULE;
static const char legacy_name[] = UA_DLPACK_CAPSULE;
static const char versioned_used_name[] = UA_DLPACK_VERSIONED_CAPSULE_USED;
static const char legacy_used_name[] = UA_DLPACK_CAPSULE_USED;

enum { NOT_DLPACK, LEGACY, VERSIONED };

/* Which unconsumed DLPack capsule a name marks. */
static int
capsule_form(const char *name)
{
    if (name == versioned_name) {
        return VERSIONED;
    }
    if (name == legacy_name) {
        return LEGACY;
    }
    if (name == NULL || name == versioned_used_name ||
        name == legacy_used_name) {
        return NOT_DLPACK;
    }
    return strcmp(name, versioned_name) == 0 ? VERSIONED
           : strcmp(name, legacy_name) == 0  ? LEGACY
                                             : NOT_DLPACK;
}

/* A capsule nobody consumed still owns its tensor.  The producer's
 * deleter, which may be Python code, must not see an exception that is
 * set while the capsule dies. */
static void
capsule_destructor(PyObject *capsule)
{
    const char *name = PyCapsule_GetName(capsule);
    int form = capsule_form(name);
    if (form == NOT_DLPACK) {
        return;
    }
    saved_error e;
    save_error(&e);
    call_deleter(PyCapsule_GetPointer(capsule, name), form == VERSIONED);
    restore_error(&e);
}

/* Fills a DLPack tensor describing array a, on DLPack device `device`;
 * shape and strides point into `dims`, 2 * nd entries owned with the
 * tensor. */
static void
describe(PyObject *a, ua_dl_device device, ua_dl_tensor *t, int64_t *dims)
{
    PyUSMArrayObject *x = ARR(a);
    t->data = x->data;
    t->device = device;
    t->ndim = x->nd;
    t->dtype = ua_dlpack_dtype((ua_typenum)x->typenum);
    t->shape = x->nd > 0 ? dims : NULL;
    t->strides = x->nd > 0 ? dims + x->nd : NULL;
    t->byte_offset = 0;
    for (int k = 0; k < x->nd; k++) {
        dims[k] = x->shape[k];
        dims[x->nd + k] = x->strides[k];
    }
}

/* A capsule owning a new managed tensor that describes a and keeps it
 * alive; the shape and strides follow the struct in the same block. */
static PyObject *
export_capsule(PyObject *a, ua_dl_device device, int versioned,
               uint64_t flags)
{
    size_t head = versioned ? sizeof(ua_dl_managed_versioned)
                            : sizeof(ua_dl_managed);
    char *block = PyMem_Malloc(head + 2 * (size_t)ARR(a)->nd * sizeof(int64_t));
    if (block == NULL) {
        return PyErr_NoMemory();
    }
    ua_dl_managed_versioned *v = (ua_dl_managed_versioned *)block;
    ua_dl_managed *l = (ua_dl_managed *)block;
    if (versioned) {
        *v = (ua_dl_managed_versioned){
            .version = {UA_DLPACK_MAJOR, UA_DLPACK_MINOR},
            .deleter = delete_versioned,
            .flags = flags};
    }
    else {
        *l = (ua_dl_managed){.deleter = delete_legacy};
    }
    describe(a, device, versioned ? &v->dl_tensor : &l->dl_tensor,
             (int64_t *)(block + head));
    PyObject *capsule = PyCapsule_New(
        block, versioned ? versioned_name : legacy_name, capsule_destructor);
    if (capsule == NULL) {
        PyMem_Free(block);
        return NULL;
    }
    if (versioned) {
        v->manager_ctx = Py_NewRef(a);
    }
    else {
        l->manager_ctx = Py_NewRef(a);
    }
    return capsule;
}

/* max_version: None (a legacy capsule) or a 2-tuple of ints. */
static int
parse_max_version(PyObject *obj, int *versioned)
{
    *versioned = 0;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    Py_ssize_t v[2];
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 2 ||
        ua_py_index(PyTuple_GET_ITEM(obj, 0), "max_version[0]", &v[0]) < 0 ||
        ua_py_index(PyTuple_GET_ITEM(obj, 1), "max_version[1]", &v[1]) < 0) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "max_version must be None or a tuple (major, minor) "
                         "of ints, not %R",
                         obj);
        }
        return -1;
    }
    *versioned = v[0] >= 1;
    return 0;
}

static int
parse_dl_device(PyObject *obj, ua_dl_device *out)
{
    Py_ssize_t v[2];
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 2 ||
        ua_py_index(PyTuple_GET_ITEM(obj, 0), "dl_device[0]", &v[0]) < 0 ||
        ua_py_index(PyTuple_GET_ITEM(obj, 1), "dl_device[1]", &v[1]) < 0 ||
        v[0] < INT32_MIN || v[0] > INT32_MAX || v[1] < INT32_MIN ||
        v[1] > INT32_MAX) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "dl_device must be None or a tuple (device_type, "
                     "device_id) of 32-bit ints, not %R",
                     obj);
        return -1;
    }
    *out = (ua_dl_device){(int32_t)v[0], (int32_t)v[1]};
    return 0;
}

static int
same_dl_device(ua_dl_device a, ua_dl_device b)
{
    return a.device_type == b.device_type && a.device_id == b.device_id;
}

/* DLPack's stream rules, as the backend of the array's memory has them:
 * None only where there are no streams; integer handles elsewhere, where
 * None means the backend's none_stream (CUDA's legacy default stream), -1
 * asks for no ordering and 0 is refused.  *out is the consumer's stream, 0 where there is none to
 * order with. */
static int
check_stream(PyObject *stream, ua_stream_rule rule, uintptr_t none_stream,
             ua_dl_device dev, Py_ssize_t *out)
{
    *out = 0;
    if (stream == NULL || stream == Py_None) {
        *out = (Py_ssize_t)none_stream;
        return 0;
    }
    if (rule == UA_STREAMS_NONE) {
        PyErr_Format(PyExc_ValueError,
                     "stream must be None for memory without streams "
                     "(DLPack device (%d, %d)), not %R",
                     (int)dev.device_type, (int)dev.device_id, stream);
        return -1;
    }
    Py_ssize_t s;
    if (ua_py_index(stream, "stream", &s) < 0) {
        return -1;
    }
    if (s == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "stream 0 is ambiguous and not allowed by DLPack: "
                        "pass 1 (legacy default stream), 2 (per-thread "
                        "default stream), -1 (no synchronization) or a stream "
                        "handle");
        return -1;
    }
    *out = s == -1 ? 0 : s;
    return 0;
}

enum { D_STREAM, D_MAX_VERSION, D_DL_DEVICE, D_COPY, D_N };

PyObject *
ua_py_array_dlpack(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                   PyObject *kwnames)
{
    static const char *const kwlist[] = {"stream", "max_version", "dl_device",
                                         "copy", NULL};
    static const ua_py_argspec spec = {"__dlpack__", kwlist, 0, 0};
    PyObject *v[D_N] = {NULL};
    PyUSMArrayObject *x = ARR(self);
    ua_py_memory *m = base_of(self);
    ua_device *d = ua_queue_device(queue_of_array(self));
    ua_dl_device here = ua_dlpack_device(d, m->kind);
    ua_dl_device want = here;
    int versioned, copy;
    Py_ssize_t stream;
    if (ua_py_parse_fast(&spec, args, nargs, kwnames, v) < 0 ||
        parse_max_version(v[D_MAX_VERSION], &versioned) < 0 ||
        ua_py_parse_copy(v[D_COPY], &copy) < 0 ||
        (v[D_DL_DEVICE] != NULL && v[D_DL_DEVICE] != Py_None &&
         parse_dl_device(v[D_DL_DEVICE], &want) < 0) ||
        check_stream(v[D_STREAM],
                     ua_backend_stream_rule(ua_device_backend(d)),
                     ua_backend_none_stream(ua_device_backend(d)), here,
                     &stream) < 0) {
        return NULL;
    }
    /* The consumer's stream must see our queue's work done. */
    if (stream != 0) {
        ua_status code = ua_queue_order_with_stream(queue_of_array(self),
                                                    (uintptr_t)stream, true);
        if (code != UA_OK) {
            return ua_py_raise_core(ua_state_of(self), code);
        }
    }
    if (!same_dl_device(want, here)) {
        PyErr_Format(PyExc_BufferError,
                     "__dlpack__: cannot export to dl_device (%d, %d): this "
                     "array is on (%d, %d) and no copy between them is "
                     "available",
                     (int)want.device_type, (int)want.device_id,
                     (int)here.device_type, (int)here.device_id);
        return NULL;
    }
    int readonly = !(x->flags & USM_ARRAY_WRITABLE);
    if (!versioned && readonly && copy != 1) {
        PyErr_SetString(PyExc_BufferError,
                        "__dlpack__: a read-only array cannot be exported as "
                        "a legacy DLPack capsule, which cannot mark it "
                        "read-only; pass max_version=(1, 0) or copy=True");
        return NULL;
    }
    if (copy != 1) {
        return export_capsule(self, here, versioned,
                              readonly ? UA_DL_FLAG_READ_ONLY : 0);
    }
    /* The module state, looked up only where an export needs it. */
    PyObject *dup = ua_py_array_copy(ua_state_of(self), self,
                                     (ua_typenum)x->typenum, 'K', m->kind,
                                     m->queue);
    if (dup == NULL) {
        return NULL;
    }
    /* The copy is of the same kind on the same queue: on `here` too. */
    PyObject *capsule =
        export_capsule(dup, here, versioned, UA_DL_FLAG_IS_COPIED);
    Py_DECREF(dup);
    return capsule;
}

/* obj.__dlpack_device__(), checked to be a pair of ints naming a device. */
int
ua_py_dlpack_device_of(ua_state *st, PyObject *obj, ua_dl_device *out)
{
    PyObject *dev = PyObject_CallMethodNoArgs(obj, st->s_dlpack_device);
    if (dev == NULL) {
        return -1;
    }
    if (!PyTuple_Check(dev) || PyTuple_GET_SIZE(dev) != 2 ||
        !PyLong_Check(PyTuple_GET_ITEM(dev, 0)) ||
        !PyLong_Check(PyTuple_GET_ITEM(dev, 1))) {
        PyErr_Format(PyExc_TypeError,
                     "__dlpack_device__() must return a tuple (device_type, "
                     "device_id) of two ints, not %R",
                     dev);
        Py_DECREF(dev);
        return -1;
    }
    long t = PyLong_AsLong(PyTuple_GET_ITEM(dev, 0));
    long i = PyLong_AsLong(PyTuple_GET_ITEM(dev, 1));
    if (PyErr_Occurred() || t < 0 || t > INT32_MAX || i < 0 || i > INT32_MAX) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError,
                     "__dlpack_device__() returned %R, which names no device",
                     dev);
        Py_DECREF(dev);
        return -1;
    }
    Py_DECREF(dev);
    *out = (ua_dl_device){(int32_t)t, (int32_t)i};
    return 0;
}

PyObject *
ua_py_array_dlpack_device(PyObject *self, PyObject *Py_UNUSED(a))
{
    ua_dl_device d = ua_dlpack_device(ua_queue_device(queue_of_array(self)),
                                      base_of(self)->kind);
    return Py_BuildValue("(ii)", (int)d.device_type, (int)d.device_id);
}

/* ------------------------------------------------------------- import */

/* The hooks by which an imported tensor's Memory, when it dies, calls the
 * producer's deleter, once (memory.c runs them with the GIL held). */
static void
release_versioned(void *managed)
{
    saved_error e;
    save_error(&e);
    call_deleter(managed, 1);
    restore_error(&e);
}

static void
release_legacy(void *managed)
{
    saved_error e;
    save_error(&e);
    call_deleter(managed, 0);
    restore_error(&e);
}

typedef struct {
    void *managed;  /* ua_dl_managed or ua_dl_managed_versioned */
    int versioned;
    const ua_dl_tensor *tensor;
    int readonly;
} capsule_content;

/* Reads a capsule without taking it over.  A versioned tensor of a newer
 * major version is taken over only to be deleted, as DLPack asks. */
static int
open_capsule(PyObject *capsule, capsule_content *c)
{
    const char *name = PyCapsule_GetName(capsule);
    if (name == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError,
                            "a capsule without a name is not a DLPack "
                            "capsule ('dltensor' or 'dltensor_versioned')");
        }
        return -1;
    }
    int form = capsule_form(name);
    c->versioned = form == VERSIONED;
    if (form == NOT_DLPACK) {
        if (strncmp(name, "used_", 5) == 0) {
            PyErr_SetString(PyExc_ValueError,
                            "this DLPack capsule was already consumed: a "
                            "capsule can be imported only once");
        }
        else {
            PyErr_Format(PyExc_TypeError,
                         "a capsule named '%s' is not a DLPack capsule "
                         "('dltensor' or 'dltensor_versioned')",
                         name);
        }
        return -1;
    }
    c->managed = PyCapsule_GetPointer(capsule, name);
    if (c->managed == NULL) {
        return -1;
    }
    if (!c->versioned) {
        c->tensor = &((ua_dl_managed *)c->managed)->dl_tensor;
        c->readonly = 0;
        return 0;
    }
    ua_dl_managed_versioned *v = c->managed;
    if (v->version.major > UA_DLPACK_MAJOR) {
        unsigned major = v->version.major, minor = v->version.minor;
        if (PyCapsule_SetName(capsule, versioned_used_name) < 0) {
            return -1;
        }
        call_deleter(c->managed, c->versioned);
        PyErr_Format(PyExc_BufferError,
                     "DLPack version %u.%u is newer than this library "
                     "supports (major version %d)",
                     major, minor, UA_DLPACK_MAJOR);
        return -1;
    }
    c->tensor = &v->dl_tensor;
    c->readonly = (v->flags & UA_DL_FLAG_READ_ONLY) != 0;
    return 0;
}

/* Memory for the bytes [begin, end) around ptr: an allocation the library
 * knows (its own, or one a driver reports), or, for CPU memory on the host
 * backend, the bytes borrowed as a "host" allocation.  It holds no owner
 * object (reference_obj is None): the caller gives it the producer's
 * deleter as its release hook, which saves an import an object to make and
 * free. */
static PyObject *
memory_of(ua_state *st, ua_device *d, const ua_dlpack_view *v, int readonly)
{
    PyObject *owner = Py_None;
    char *start = (char *)(v->ptr + (uintptr_t)v->begin);
    Py_ssize_t n = (Py_ssize_t)(v->end - v->begin);
    ua_pointer_info info;
    if (ua_pointer_query_range((uintptr_t)start, (size_t)n, &info)) {
        if (info.device != d) {
            PyErr_Format(PyExc_BufferError,
                         "the DLPack tensor names device %s but its memory "
                         "belongs to %s",
                         ua_device_filter_string(d),
                         ua_device_filter_string(info.device));
            return NULL;
        }
        return ua_py_memory_wrap_on_device(st, info.device, info.kind, start,
                                           n, readonly, owner);
    }
    if (!(ua_backend_caps(ua_device_backend(d)) & UA_CAP_CPU_MEMORY)) {
        PyErr_Format(PyExc_BufferError,
                     "the DLPack tensor's memory at %p is not memory %s "
                     "knows",
                     (void *)start, ua_device_filter_string(d));
        return NULL;
    }
    PyObject *q = ua_py_default_queue(st, d);
    PyObject *mem = q ? ua_py_memory_borrow(st, q, start, n, readonly, owner)
                      : NULL;
    Py_XDECREF(q);
    return mem;
}

/* An empty tensor shares nothing: it becomes a fresh empty array, and the
 * capsule stays with its producer. */
static PyObject *
empty_import(ua_state *st, ua_device *d, ua_usm_kind kind,
             const ua_dlpack_view *v)
{
    PyObject *q = ua_py_default_queue(st, d);
    PyObject *a = q ? ua_py_array_empty(st, v->nd, v->shape, NULL, v->type,
                                        'C', kind, q)
                    : NULL;
    Py_XDECREF(q);
    return a;
}

PyObject *
ua_py_array_from_capsule(ua_state *st, PyObject *capsule)
{
    if (!PyCapsule_CheckExact(capsule)) {
        PyErr_Format(PyExc_TypeError,
                     "expected a DLPack capsule, not %.100s",
                     Py_TYPE(capsule)->tp_name);
        return NULL;
    }
    capsule_content c;
    ua_dlpack_view v;
    ua_device *d;
    ua_usm_kind kind;
    if (open_capsule(capsule, &c) < 0) {
        return NULL;
    }
    if (ua_dlpack_read(c.tensor, &v) != UA_OK ||
        ua_dlpack_find_device(c.tensor->device, &d, &kind) != UA_OK) {
        return ua_py_raise_core(st, ua_error_code());
    }
    if (v.end == v.begin) {
        return empty_import(st, d, kind, &v);
    }
    PyObject *mem = memory_of(st, d, &v, c.readonly);
    if (mem == NULL) {
        return NULL; /* the capsule still owns the tensor */
    }
    /* From here on the memory runs the deleter, and the capsule must not. */
    if (PyCapsule_SetName(capsule, c.versioned ? versioned_used_name
                                               : legacy_used_name) < 0) {
        Py_DECREF(mem);
        return NULL;
    }
    ((ua_py_memory *)mem)->release =
        c.versioned ? release_versioned : release_legacy;
    ((ua_py_memory *)mem)->release_arg = c.managed;
    /* ua_dlpack_read ran ua_py_array_new's checks on this layout. */
    PyObject *a = ua_py_array_make(st, v.nd, v.shape, v.strides, v.type,
                                   (char *)v.ptr, mem, !c.readonly);
    Py_DECREF(mem);
    return a;
}

/* The stream a producer on dev must order its work before: that of the
 * default queue of the device that holds its data, which then needs no
 * ordering of its own (on CUDA the legacy default stream, which CuPy's
 * and PyTorch's default current streams are, so that they skip their
 * event handshake).  *out stays NULL for memory of backends without
 * streams and devices no backend reaches (the capsule's own device then
 * decides the error); *queue is that default queue (the module's cache
 * keeps it). */
static int
consumer_stream(ua_state *st, PyObject *producer, ua_dl_device dev,
                PyObject **out, ua_queue **queue)
{
    ua_device *d;
    ua_usm_kind kind;
    /* Our own array's device needs no asking of every backend. */
    if (Py_IS_TYPE(producer, st->USMArray_Type)) {
        d = ua_queue_device(queue_of_array(producer));
    }
    else if (ua_dlpack_find_device(dev, &d, &kind) != UA_OK) {
        ua_error_clear();
        return 0;
    }
    if (ua_backend_stream_rule(ua_device_backend(d)) != UA_STREAMS_HANDLE) {
        return 0;
    }
    PyObject *q = ua_py_default_queue(st, d);
    if (q == NULL) {
        return -1;
    }
    *queue = ((ua_py_queue *)q)->queue;
    uintptr_t stream = ua_queue_stream_handle(*queue);
    Py_DECREF(q);
    if (stream != 0) {
        *out = PyLong_FromSize_t(stream);
        return *out ? 0 : -1;
    }
    return 0;
}

/* DLPack's name of CUDA's legacy default stream. */
#define DLPACK_CUDA_LEGACY_STREAM 1

/* obj.name (a new reference), or NULL with no error where obj is NULL or
 * has no such attribute. */
static PyObject *
optional_attr(PyObject *obj, const char *name)
{
    PyObject *value = obj ? PyObject_GetAttrString(obj, name) : NULL;
    if (value == NULL) {
        PyErr_Clear();
    }
    return value;
}

/* PyTorch's current-stream function when obj is one of its tensors, else
 * NULL (no error): torch.Tensor and torch._C._cuda_getCurrentRawStream
 * are looked up once torch is imported (None where the function is
 * missing, so as not to look again). */
static PyObject *
torch_raw_stream_of(ua_state *st, PyObject *obj)
{
    if (st->torch_raw_stream == NULL) {
        /* sys.modules itself: PyImport_GetModule also asks the module's
         * spec whether it is being imported, on every call of every
         * producer for as long as torch is not imported. */
        PyObject *torch = PyDict_GetItemWithError(PyImport_GetModuleDict(),
                                                  st->s_torch);
        if (torch == NULL || !PyModule_Check(torch)) {
            PyErr_Clear();
            return NULL;
        }
        Py_INCREF(torch);
        PyObject *tensor = optional_attr(torch, "Tensor");
        PyObject *c = optional_attr(torch, "_C");
        PyObject *f = optional_attr(c, "_cuda_getCurrentRawStream");
        /* A ROCm build calls its GPUs CUDA devices: leave it to DLPack. */
        PyObject *version = optional_attr(torch, "version");
        PyObject *hip = optional_attr(version, "hip");
        int cuda_build = version != NULL && hip == Py_None;
        Py_DECREF(torch);
        Py_XDECREF(c);
        Py_XDECREF(version);
        Py_XDECREF(hip);
        if (tensor == NULL || !PyType_Check(tensor) || f == NULL ||
            !PyCallable_Check(f) || !cuda_build) {
            Py_XDECREF(tensor);
            Py_XSETREF(f, Py_NewRef(Py_None));
            tensor = NULL;
        }
        /* The lookups may run Python code, and another thread may have
         * filled the fields meanwhile. */
        if (st->torch_raw_stream == NULL) {
            st->torch_tensor = tensor;
            st->torch_raw_stream = f;
        }
        else {
            Py_XDECREF(tensor);
            Py_DECREF(f);
        }
    }
    if (st->torch_tensor == NULL ||
        !PyObject_TypeCheck(obj, (PyTypeObject *)st->torch_tensor)) {
        return NULL;
    }
    return st->torch_raw_stream;
}

/* A producer library's quirk, PyTorch's: its __dlpack__ spends about
 * 10 us in Python whenever it is given a stream (it builds stream objects
 * to compare them), and 2.4 us given -1.  For a CUDA tensor, ask PyTorch
 * for its current stream on the tensor's device (a raw handle; 0 is its
 * default stream, CUDA's legacy one) and order the consumer's queue after
 * it ourselves, as PyTorch would have ordered it: then the producer is
 * asked with -1, no synchronization.  1 when so ordered; 0, with no error,
 * where anything is unexpected and the generic call must be made. */
static int
ordered_after_torch(ua_state *st, PyObject *obj, ua_dl_device dev,
                    ua_queue *queue)
{
    if (dev.device_type != UA_DL_CUDA || queue == NULL) {
        return 0;
    }
    PyObject *f = torch_raw_stream_of(st, obj);
    if (f == NULL || f == Py_None) {
        return 0;
    }
    /* Held for the call, which may run code that clears the module. */
    Py_INCREF(f);
    PyObject *index = PyLong_FromLong(dev.device_id);
    PyObject *raw = index ? PyObject_CallOneArg(f, index) : NULL;
    Py_XDECREF(index);
    Py_DECREF(f);
    unsigned long long handle =
        raw != NULL && PyLong_CheckExact(raw) ? PyLong_AsUnsignedLongLong(raw)
                                              : (unsigned long long)-1;
    Py_XDECREF(raw);
    if (PyErr_Occurred() || handle == (unsigned long long)-1) {
        PyErr_Clear();
        return 0;
    }
    uintptr_t producer = handle == 0 ? DLPACK_CUDA_LEGACY_STREAM
                                     : (uintptr_t)handle;
    if (ua_queue_order_with_stream(queue, producer, false) != UA_OK) {
        ua_error_clear();
        return 0;
    }
    return 1;
}

/* PyTorch's quirk again: its __dlpack_device__ is Python code (1.4 us),
 * where is_cuda and get_device() are C.  True, with *out the tensor's CUDA
 * device, where obj is a CUDA tensor of a CUDA build of PyTorch; false,
 * with no error, where anything is unexpected. */
static int
torch_cuda_device(ua_state *st, PyObject *obj, ua_dl_device *out)
{
    PyObject *f = torch_raw_stream_of(st, obj);
    if (f == NULL || f == Py_None) {
        return 0;
    }
    PyObject *is_cuda = PyObject_GetAttr(obj, st->s_is_cuda);
    PyObject *index = is_cuda == Py_True
                          ? PyObject_CallMethodNoArgs(obj, st->s_get_device)
                          : NULL;
    long i = index != NULL && PyLong_CheckExact(index) ? PyLong_AsLong(index)
                                                      : -1;
    Py_XDECREF(is_cuda);
    Py_XDECREF(index);
    if (PyErr_Occurred() || i < 0 || i > INT32_MAX) {
        PyErr_Clear();
        return 0;
    }
    *out = (ua_dl_device){UA_DL_CUDA, (int32_t)i};
    return 1;
}

/* The producer's device: known from the caller, asked of the producer, or
 * the CPU for producers without __dlpack_device__. */
static int
producer_device(ua_state *st, PyObject *obj, const ua_dl_device *known,
                ua_dl_device *out)
{
    *out = (ua_dl_device){UA_DL_CPU, 0};
    if (known != NULL) {
        *out = *known;
        return 0;
    }
    int has = ua_py_has_attr(obj, st->s_dlpack_device);
    return has <= 0 ? has : ua_py_dlpack_device_of(st, obj, out);
}

/* Calls obj.__dlpack__ as a consumer of DLPack 1.x would: asking for a
 * versioned capsule, and falling back to the legacy call for producers
 * that predate the keywords. */
static PyObject *
request_capsule(ua_state *st, PyObject *obj, PyObject *copy,
                const ua_dl_device *known)
{
    ua_dl_device dev, torch_dev;
    PyObject *stream = NULL;
    ua_queue *queue = NULL;
    if (known == NULL && torch_cuda_device(st, obj, &torch_dev)) {
        known = &torch_dev;
    }
    /* Errors here are the producer's: they must not reach the fallback to
     * the legacy call below, which takes a TypeError as "old producer". */
    if (producer_device(st, obj, known, &dev) < 0 ||
        consumer_stream(st, obj, dev, &stream, &queue) < 0) {
        return NULL;
    }
    if (stream != NULL && ordered_after_torch(st, obj, dev, queue)) {
        Py_SETREF(stream, PyLong_FromLong(-1));
        if (stream == NULL) {
            return NULL;
        }
    }
    /* obj.__dlpack__(max_version=..., [copy=...,] [stream=...]), by
     * vectorcall with names made once (module.c). */
    PyObject *args[4] = {obj, st->dl_max_version};
    size_t n = 2;
    int which = 0;
    if (copy != Py_None) {
        args[n++] = copy;
        which |= 1;
    }
    if (stream != NULL) {
        args[n++] = stream;
        which |= 2;
    }
    /* USMArray has neither subclasses nor an instance dictionary: its
     * __dlpack__ is ua_py_array_dlpack, called here as Python would call
     * it, without looking the method up. */
    PyObject *capsule =
        Py_IS_TYPE(obj, st->USMArray_Type)
            ? ua_py_array_dlpack(obj, args + 1, 0, st->dl_kwnames[which])
            : PyObject_VectorcallMethod(st->s_dlpack, args, 1,
                                        st->dl_kwnames[which]);
    Py_XDECREF(stream);
    if (capsule == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        capsule = PyObject_CallMethodNoArgs(obj, st->s_dlpack);
    }
    return capsule;
}

/* Memory of a backend whose queues DLPack's stream argument cannot name:
 * the producer's pending work is found through its interface dictionary's
 * syclobj instead (our own arrays' work is ordered already). */
static int
needs_producer_queue(ua_state *st, PyObject *producer, PyObject *array)
{
    ua_backend *b = ua_device_backend(ua_queue_device(queue_of_array(array)));
    return !Py_IS_TYPE(producer, st->USMArray_Type) &&
           ua_backend_stream_rule(b) == UA_STREAMS_NONE &&
           !(ua_backend_caps(b) & UA_CAP_CPU_MEMORY);
}

PyObject *
ua_py_array_from_dlpack_object(ua_state *st, PyObject *obj, PyObject *copy,
                               const ua_dl_device *device)
{
    if (PyCapsule_CheckExact(obj)) {
        return ua_py_array_from_capsule(st, obj);
    }
    PyObject *capsule = request_capsule(st, obj, copy, device);
    if (capsule == NULL) {
        return NULL;
    }
    PyObject *a = ua_py_array_from_capsule(st, capsule);
    Py_DECREF(capsule);
    if (a != NULL && needs_producer_queue(st, obj, a) &&
        ua_suai_order_after_producer(st, obj) < 0) {
        Py_CLEAR(a);
    }
    return a;
}

PyObject *
ua_py_from_dlpack(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                  PyObject *kwnames)
{
    static const char *const kwlist[] = {"x", "device", "copy", NULL};
    static const ua_py_argspec spec = {"from_dlpack", kwlist, 1, 1};
    PyObject *v[3] = {NULL, Py_None, Py_None};
    ua_state *st = PyModule_GetState(module);
    int copy;
    if (ua_py_parse_fast(&spec, args, nargs, kwnames, v) < 0 ||
        ua_py_parse_copy(v[2], &copy) < 0) {
        return NULL;
    }
    PyObject *x = v[0];
    /* Our own array answers __dlpack_device__ without being asked (a
     * subclass may override it, so only the exact type). */
    ua_dl_device own;
    const ua_dl_device *known = NULL;
    if (Py_IS_TYPE(x, st->USMArray_Type)) {
        own = ua_dlpack_device(ua_queue_device(queue_of_array(x)),
                               base_of(x)->kind);
        known = &own;
    }
    else if (!PyCapsule_CheckExact(x)) {
        int has = ua_py_has_attr(x, st->s_dlpack);
        if (has <= 0) {
            if (has == 0) {
                PyErr_Format(PyExc_TypeError,
                             "from_dlpack needs an object with __dlpack__ "
                             "or a DLPack capsule, not %.100s",
                             Py_TYPE(x)->tp_name);
            }
            return NULL;
        }
    }
    PyObject *queue = NULL;
    if (v[1] != Py_None &&
        (queue = ua_py_as_queue(st, v[1], "device")) == NULL) {
        return NULL;
    }
    PyObject *a = ua_py_array_from_dlpack_object(st, x, v[2], known);
    if (a != NULL && copy == 1 && PyCapsule_CheckExact(x)) {
        /* A capsule cannot be asked to copy: copy here. */
        Py_SETREF(a, ua_py_array_copy(st, a, (ua_typenum)ARR(a)->typenum, 'K',
                                      base_of(a)->kind, base_of(a)->queue));
    }
    if (a != NULL && queue != NULL &&
        ua_queue_device(((ua_py_queue *)queue)->queue) !=
            ua_queue_device(queue_of_array(a))) {
        if (copy == 0) {
            PyErr_SetString(PyExc_BufferError,
                            "from_dlpack(copy=False): the tensor is on "
                            "another device than `device`");
            Py_CLEAR(a);
        }
        else {
            Py_SETREF(a, ua_py_array_copy(st, a, (ua_typenum)ARR(a)->typenum,
                                          'K', base_of(a)->kind, queue));
        }
    }
    Py_XDECREF(queue);
    return a;
}
