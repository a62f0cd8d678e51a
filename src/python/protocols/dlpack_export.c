/* DLPack export: __dlpack__ and __dlpack_device__ of arrays, the capsules
 * they make and the deleters of their tensors, which the importer
 * (dlpack_import.c) also calls for the tensors of capsules it takes over.
 * The core validates tensors and maps dtypes and devices; the binding owns
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
#include "python/protocols/suai.h"

#include "core/dlpack.h"
#include "python/protocols/dlpack_export.h"
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
    } else if (PyErr_Occurred()) {
        PyErr_Clear();
    }
}

/* Calls the deleter of a managed tensor of either form, if it has one,
 * with the GIL held: our own deleters then drop the array at once, where a
 * consumer's call of them must take the GIL first. */
void
ua_py_dlpack_call_deleter(void *managed, int versioned)
{
    if (versioned) {
        ua_dl_managed_versioned *v = managed;
        if (v->deleter == delete_versioned) {
            drop_export(v->manager_ctx, v);
        } else if (v->deleter != NULL) {
            v->deleter(v);
        }
    } else {
        ua_dl_managed *l = managed;
        if (l->deleter == delete_legacy) {
            drop_export(l->manager_ctx, l);
        } else if (l->deleter != NULL) {
            l->deleter(l);
        }
    }
}

/* The capsule names this file gives, as objects of their own: a name that
 * is one of these pointers is known without comparing its text (other
 * consumers rename capsules with their own strings, compared as text). */
const char ua_py_dlpack_versioned_name[] = UA_DLPACK_VERSIONED_CAPSULE;
const char ua_py_dlpack_legacy_name[] = UA_DLPACK_CAPSULE;
const char ua_py_dlpack_versioned_used_name[] =
    UA_DLPACK_VERSIONED_CAPSULE_USED;
const char ua_py_dlpack_legacy_used_name[] = UA_DLPACK_CAPSULE_USED;

/* Which unconsumed DLPack capsule a name marks. */
int
ua_py_dlpack_capsule_form(const char *name)
{
    if (name == ua_py_dlpack_versioned_name) {
        return UA_PY_DLPACK_VERSIONED;
    }
    if (name == ua_py_dlpack_legacy_name) {
        return UA_PY_DLPACK_LEGACY;
    }
    if (name == NULL || name == ua_py_dlpack_versioned_used_name ||
        name == ua_py_dlpack_legacy_used_name) {
        return UA_PY_NOT_DLPACK;
    }
    return strcmp(name, ua_py_dlpack_versioned_name) == 0
               ? UA_PY_DLPACK_VERSIONED
           : strcmp(name, ua_py_dlpack_legacy_name) == 0 ? UA_PY_DLPACK_LEGACY
                                                         : UA_PY_NOT_DLPACK;
}

/* A capsule nobody consumed still owns its tensor.  The producer's
 * deleter, which may be Python code, must not see an exception that is
 * set while the capsule dies. */
static void
capsule_destructor(PyObject *capsule)
{
    const char *name = PyCapsule_GetName(capsule);
    int form = ua_py_dlpack_capsule_form(name);
    if (form == UA_PY_NOT_DLPACK) {
        return;
    }
    saved_error e;
    save_error(&e);
    ua_py_dlpack_call_deleter(PyCapsule_GetPointer(capsule, name),
                              form == UA_PY_DLPACK_VERSIONED);
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
export_capsule(PyObject *a, ua_dl_device device, int versioned, uint64_t flags)
{
    size_t head =
        versioned ? sizeof(ua_dl_managed_versioned) : sizeof(ua_dl_managed);
    char *block =
        PyMem_Malloc(head + 2 * (size_t)ARR(a)->nd * sizeof(int64_t));
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
    } else {
        *l = (ua_dl_managed){.deleter = delete_legacy};
    }
    describe(a, device, versioned ? &v->dl_tensor : &l->dl_tensor,
             (int64_t *)(block + head));
    PyObject *capsule = PyCapsule_New(block,
                                      versioned ? ua_py_dlpack_versioned_name
                                                : ua_py_dlpack_legacy_name,
                                      capsule_destructor);
    if (capsule == NULL) {
        PyMem_Free(block);
        return NULL;
    }
    if (versioned) {
        v->manager_ctx = Py_NewRef(a);
    } else {
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

/* A legacy capsule has no read-only flag: a read-only array goes only in
 * a versioned one, or as a writable copy. */
static PyObject *
refuse_read_only_legacy(void)
{
    PyErr_SetString(PyExc_BufferError,
                    "__dlpack__: a read-only array cannot be exported as "
                    "a legacy DLPack capsule, which cannot mark it "
                    "read-only; pass max_version=(1, 0) or copy=True");
    return NULL;
}

/* An export to the host's CPU, dl_device (1, 0), which NumPy and other
 * host libraries ask for, of an array on another DLPack device.  A CPU
 * consumer has no stream to order with, so the queue's work is done
 * first.  Memory the host can reach goes as it is (unless copy is True);
 * other memory is copied to the host device, unless copy is False. */
static PyObject *
export_to_cpu(PyObject *self, ua_dl_device here, int versioned, int copy,
              int readonly)
{
    ua_state *st = ua_state_of(self);
    ua_py_memory *m = base_of(self);
    ua_dl_device cpu = {UA_DL_CPU, 0};
    /* The copy below may run on another queue of the device, which the
     * array's own need not have waited for. */
    if (ua_py_queue_settle(st, m->queue) < 0) {
        return NULL;
    }
    if (copy != 1 && ua_usm_kind_host_accessible(m->kind)) {
        if (!versioned && readonly) {
            return refuse_read_only_legacy();
        }
        return export_capsule(self, cpu, versioned,
                              readonly ? UA_DL_FLAG_READ_ONLY : 0);
    }
    if (copy == 0) {
        PyErr_Format(PyExc_BufferError,
                     "__dlpack__: cannot export to dl_device (1, 0) without "
                     "a copy: this array's %s memory on (%d, %d) is not the "
                     "host's; pass copy=True or copy=None",
                     ua_usm_kind_name(m->kind), (int)here.device_type,
                     (int)here.device_id);
        return NULL;
    }
    /* The device DLPack's CPU names, as an import finds it. */
    ua_device *cpu_device;
    ua_usm_kind cpu_kind;
    ua_status code = ua_dlpack_find_device(cpu, &cpu_device, &cpu_kind);
    if (code != UA_OK) {
        return ua_py_raise_core(st, code);
    }
    PyObject *queue = ua_py_default_queue(st, cpu_device);
    if (queue == NULL) {
        return NULL;
    }
    PyObject *dup = ua_py_array_copy(st, self, (ua_typenum)ARR(self)->typenum,
                                     'K', cpu_kind, queue);
    Py_DECREF(queue);
    if (dup == NULL || ua_py_queue_settle(st, base_of(dup)->queue) < 0) {
        Py_XDECREF(dup);
        return NULL;
    }
    PyObject *capsule =
        export_capsule(dup, cpu, versioned, UA_DL_FLAG_IS_COPIED);
    Py_DECREF(dup);
    return capsule;
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
        check_stream(v[D_STREAM], ua_backend_stream_rule(ua_device_backend(d)),
                     ua_backend_none_stream(ua_device_backend(d)), here,
                     &stream) < 0) {
        return NULL;
    }
    /* The consumer's stream must see our queue's work done; without
     * streams, the work is done before the capsule is given. */
    if (ua_backend_stream_rule(ua_device_backend(d)) == UA_STREAMS_NONE &&
        ua_py_queue_settle(ua_state_of(self), m->queue) < 0) {
        return NULL;
    }
    if (stream != 0) {
        ua_status code = ua_queue_order_with_stream(queue_of_array(self),
                                                    (uintptr_t)stream, true);
        if (code != UA_OK) {
            return ua_py_raise_core(ua_state_of(self), code);
        }
    }
    int readonly = !(x->flags & USM_ARRAY_WRITABLE);
    if (!same_dl_device(want, here)) {
        if (same_dl_device(want, (ua_dl_device){UA_DL_CPU, 0})) {
            return export_to_cpu(self, here, versioned, copy, readonly);
        }
        PyErr_Format(PyExc_BufferError,
                     "__dlpack__: cannot export to dl_device (%d, %d): this "
                     "array is on (%d, %d) and no copy between them is "
                     "available",
                     (int)want.device_type, (int)want.device_id,
                     (int)here.device_type, (int)here.device_id);
        return NULL;
    }
    if (!versioned && readonly && copy != 1) {
        return refuse_read_only_legacy();
    }
    if (copy != 1) {
        return export_capsule(self, here, versioned,
                              readonly ? UA_DL_FLAG_READ_ONLY : 0);
    }
    /* The module state, looked up only where an export needs it. */
    PyObject *dup =
        ua_py_array_copy(ua_state_of(self), self, (ua_typenum)x->typenum, 'K',
                         m->kind, m->queue);
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

/* ----------------------------------------------- the importer's deleters */

/* The hooks by which an imported tensor's Memory, when it dies, calls the
 * producer's deleter, once (memory.c runs them with the GIL held). */
void
ua_py_dlpack_release_versioned(void *managed)
{
    saved_error e;
    save_error(&e);
    ua_py_dlpack_call_deleter(managed, 1);
    restore_error(&e);
}

void
ua_py_dlpack_release_legacy(void *managed)
{
    saved_error e;
    save_error(&e);
    ua_py_dlpack_call_deleter(managed, 0);
    restore_error(&e);
}
