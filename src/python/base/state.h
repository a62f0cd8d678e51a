/* The module's state.  Every reference it holds is listed once, in the
 * X-macro lists below; the struct's fields, module_traverse, module_clear
 * and the interning of the interface keys (module.c) are generated from
 * them, so that a field added here is visited and cleared without more
 * edits. */
#ifndef UA_PY_STATE_H
#define UA_PY_STATE_H

#include "python/base/pyheaders.h"

#define UA_DTYPE_RECENT 8

/* X(name): a strong reference to a type the module made, in the order of
 * creation (cleared in the reverse order). */
#define UA_STATE_TYPES(X)                                                     \
    X(Device_Type)                                                            \
    X(Context_Type)                                                           \
    X(Queue_Type)                                                             \
    X(Memory_Type)                                                            \
    X(MemoryUSMDevice_Type)                                                   \
    X(MemoryUSMShared_Type)                                                   \
    X(MemoryUSMHost_Type)                                                     \
    X(USMArray_Type)                                                          \
    X(Flags_Type)                                                             \
    X(IInfo_Type)                                                             \
    X(FInfo_Type)                                                             \
    X(EighResult_Type) /* usmarray.linalg's result tuples (extensions.c) */   \
    X(EigResult_Type)                                                         \
    X(QRResult_Type)                                                          \
    X(SlogdetResult_Type)                                                     \
    X(SVDResult_Type)                                                         \
    X(Info_Type)                                                              \
    X(FusedCalls_Type)

/* X(name): a strong reference to an object, or NULL until first use. */
#define UA_STATE_OBJECTS(X)                                                   \
    X(USMAllocationError)                                                     \
    X(LinAlgError)      /* usmarray.linalg.LinAlgError (a ValueError) */      \
    X(numpy_empty)      /* numpy.empty, imported on first use */              \
    X(numpy)            /* the numpy module, imported on first use */         \
    X(dtype_lookup)     /* dtype-likes that cannot change -> typenum */       \
    X(numpy_dtype)      /* numpy.dtype, imported with numpy */                \
    X(rebuild_memory)   /* module function used by pickling */                \
    X(dl_max_version)   /* max_version of a DLPack 1.x consumer's call */     \
    X(torch_tensor)     /* torch.Tensor, found once torch is imported */      \
    X(cai_template)     /* __cuda_array_interface__'s keys (array_host.c) */  \
    X(suai_template)    /* __sycl_usm_array_interface__'s keys */             \
    X(torch_raw_stream) /* torch._C._cuda_getCurrentRawStream, or None (also
                           on ROCm builds) */  \
    X(array_api)        /* the arrays' namespace (namespace/array_api.c) */

/* X(name, n): n strong references (each NULL until made).  dtype_recent
 * holds the strings and types seen lately, recognised by identity before
 * any hashing: "f8" in a caller's code is the same object on every call.
 * dl_kwnames holds the keyword names of __dlpack__ calls for each use of
 * copy (bit 0) and stream (bit 1). */
#define UA_STATE_ARRAYS(X)                                                    \
    X(dtypes, UA_NTYPES)   /* numpy.dtype objects, by dtype index */          \
    X(typestrs, UA_NTYPES) /* interned typestr strings, by dtype index */     \
    X(dtype_recent, UA_DTYPE_RECENT)                                          \
    X(dl_kwnames, 4)

/* X(name, text): the interned keys of the array interfaces. */
#define UA_STATE_KEYS(X)                                                      \
    X(s_suai, "__sycl_usm_array_interface__")                                 \
    X(s_shape, "shape")                                                       \
    X(s_typestr, "typestr")                                                   \
    X(s_data, "data")                                                         \
    X(s_strides, "strides")                                                   \
    X(s_offset, "offset")                                                     \
    X(s_version, "version")                                                   \
    X(s_syclobj, "syclobj")                                                   \
    X(s_get_capsule, "_get_capsule")                                          \
    X(s_sycl_queue, "sycl_queue")                                             \
    X(s_filter_string, "filter_string")                                       \
    X(s_cai, "__cuda_array_interface__")                                      \
    X(s_stream, "stream")                                                     \
    X(s_mask, "mask")                                                         \
    X(s_dlpack, "__dlpack__")                                                 \
    X(s_dlpack_device, "__dlpack_device__")                                   \
    X(s_torch, "torch")                                                       \
    X(s_is_cuda, "is_cuda")                                                   \
    X(s_get_device, "get_device")                                             \
    X(s_dtype, "dtype")                                                       \
    X(s_fast, "fast") /* a fused small call's runner's */                     \
    X(s_generic, "generic")                                                   \
    X(s_call, "_call") /* a fused function's call of a new kind */

#define UA_STATE_TYPE_FIELD(name) PyTypeObject *name;
#define UA_STATE_OBJECT_FIELD(name) PyObject *name;
#define UA_STATE_ARRAY_FIELD(name, n) PyObject *name[n];
#define UA_STATE_KEY_FIELD(name, text) PyObject *name;

typedef struct {
    UA_STATE_TYPES(UA_STATE_TYPE_FIELD)
    UA_STATE_OBJECTS(UA_STATE_OBJECT_FIELD)
    UA_STATE_ARRAYS(UA_STATE_ARRAY_FIELD)
    UA_STATE_KEYS(UA_STATE_KEY_FIELD)
    /* Per global device id, created on first use: a Device, its default
     * Context and that context's default Queue (strong references,
     * visited and cleared by module.c's cache walkers). */
    size_t ndevices;
    PyObject **devices;
    PyObject **contexts;
    PyObject **queues;
    /* The live Queues over other libraries' queues (borrowed: each leaves
     * the list as it dies), so that one queue of theirs is one of ours. */
    PyObject **adopted;
    size_t nadopted, adopted_capacity;
    /* Plain data beside dtype_recent. */
    ua_typenum dtype_recent_type[UA_DTYPE_RECENT];
    unsigned dtype_recent_next;
} ua_state;

extern PyModuleDef ua_module_def;

static inline ua_state *
ua_state_of_type(PyTypeObject *type)
{
    PyObject *m = PyType_GetModuleByDef(type, &ua_module_def);
    return m ? (ua_state *)PyModule_GetState(m) : NULL;
}

static inline ua_state *
ua_state_of(PyObject *self)
{
    return ua_state_of_type(Py_TYPE(self));
}

#endif
