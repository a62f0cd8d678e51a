/* The backends this build knows, in the order their devices are numbered
 * (the host CPU is always device 0).  This is the one place that names
 * them: a new backend is its own files, its sources in meson.build, and one
 * line in UA_BACKENDS. */
#include "core/backend.h"

/* Each X(name) stands for the ops table ua_<name>_backend_ops. */
#define UA_BACKENDS(X)                                                        \
    X(host)                                                                   \
    X(cuda)                                                                   \
    X(sycl)

#define DECLARE(name) extern const ua_backend_ops ua_##name##_backend_ops;
UA_BACKENDS(DECLARE)
#undef DECLARE

#define ENTRY(name) &ua_##name##_backend_ops,
static const ua_backend_ops *const list[] = {UA_BACKENDS(ENTRY)};
#undef ENTRY

const ua_backend_ops *const *
ua_backends_of_build(size_t *count)
{
    *count = sizeof(list) / sizeof(list[0]);
    return list;
}
