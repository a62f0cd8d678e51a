/* Native queue and context handles that other libraries exchange as named
 * capsules, made of ours: exported as new handles, released by name.  The
 * way back is ua_queue_adopt. */
#include <stdio.h>
#include <string.h>

#include "core/backend.h"
#include "core/devices/devices.h"

#define USED_PREFIX "used_"

static ua_status
export_native(const ua_backend *b, void *object, int is_queue,
              const char **capsule_name, void **handle)
{
    const ua_handle_ops *handles = ua_backend_handles(b);
    if (handles == NULL) {
        return ua_error_set(UA_ERR_VALUE,
                            "the %s backend has no native %s handles",
                            b->ops->name, is_queue ? "queue" : "context");
    }
    *capsule_name =
        is_queue ? handles->queue_capsule_name : handles->context_capsule_name;
    return handles->export_handle(object, is_queue, handle);
}

ua_status
ua_queue_export_native(ua_queue *q, const char **capsule_name, void **handle)
{
    return export_native(q->context->device->backend, q->handle, 1,
                         capsule_name, handle);
}

ua_status
ua_context_export_native(ua_context *c, const char **capsule_name,
                         void **handle)
{
    return export_native(c->device->backend, c->handle, 0, capsule_name,
                         handle);
}

static bool
names(const char *want, const char *name)
{
    return want != NULL && strcmp(want, name) == 0;
}

bool
ua_is_native_capsule_name(const char *name)
{
    size_t count;
    const ua_backend_ops *const *list = ua_backends_of_build(&count);
    for (size_t b = 0; name != NULL && b < count; b++) {
        const ua_handle_ops *handles = list[b]->handles;
        if (handles != NULL && (names(handles->queue_capsule_name, name) ||
                                names(handles->context_capsule_name, name))) {
            return true;
        }
    }
    return false;
}

/* Appends "'name'" to out, after a separator where out is not empty. */
static void
append_name(char *out, size_t len, const char *name, const char *separator)
{
    size_t used = strlen(out);
    if (name != NULL && used < len) {
        snprintf(out + used, len - used, "%s'%s'", used ? separator : "",
                 name);
    }
}

/* The i-th capsule name of the build's backends (queue, then context,
 * per backend), or NULL past the last. */
static const char *
capsule_name_at(size_t i)
{
    size_t count;
    const ua_backend_ops *const *list = ua_backends_of_build(&count);
    for (size_t b = 0; b < count; b++) {
        const ua_handle_ops *handles = list[b]->handles;
        if (handles == NULL) {
            continue;
        }
        const char *pair[2] = {handles->queue_capsule_name,
                               handles->context_capsule_name};
        for (int k = 0; k < 2; k++) {
            if (pair[k] != NULL && i-- == 0) {
                return pair[k];
            }
        }
    }
    return NULL;
}

void
ua_native_capsule_names(char *out, size_t len, const char *conjunction)
{
    size_t n = 0;
    while (capsule_name_at(n) != NULL) {
        n++;
    }
    snprintf(out, len, "%s", n == 0 ? "no" : "");
    for (size_t i = 0; i < n; i++) {
        append_name(out, len, capsule_name_at(i),
                    i + 1 < n ? ", " : conjunction);
    }
}

void
ua_release_native_handle(const char *capsule_name, void *handle)
{
    if (strncmp(capsule_name, USED_PREFIX, strlen(USED_PREFIX)) == 0) {
        capsule_name += strlen(USED_PREFIX);
    }
    for (size_t b = 0; b < ua_backend_count(); b++) {
        const ua_handle_ops *handles = ua_backend_handles(ua_backend_at(b));
        if (handles == NULL) {
            continue;
        }
        int is_queue = names(handles->queue_capsule_name, capsule_name);
        if (is_queue || names(handles->context_capsule_name, capsule_name)) {
            handles->release_handle(handle, is_queue);
            return;
        }
    }
}
