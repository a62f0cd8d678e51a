/* Filter strings ("backend:device_type:relative_id", any part optional,
 * or a global index) and the backends' own, the device they select, and
 * the default device: USMARRAY_DEVICE, else the first GPU, else the host
 * CPU. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/base/environ.h"
#include "core/devices/devices.h"

typedef struct {
    const ua_backend_ops *backend; /* NULL: any */
    int type;                      /* 0: any */
    long index;                    /* -1: any */
} filter_spec;

static bool
parse_index(const char *tok, long *out)
{
    if (*tok == '\0' || strlen(tok) > 9) {
        return false;
    }
    for (const char *p = tok; *p; p++) {
        if (!isdigit((unsigned char)*p)) {
            return false;
        }
    }
    *out = strtol(tok, NULL, 10);
    return true;
}

static const ua_backend_ops *
backend_named(const char *tok)
{
    for (size_t b = 0; b < ua_backend_count(); b++) {
        if (strcmp(tok, ua_backend_at(b)->ops->name) == 0) {
            return ua_backend_at(b)->ops;
        }
    }
    return NULL;
}

static int
type_named(const char *tok)
{
    for (int t = UA_DEVICE_CPU; t <= UA_DEVICE_ACCELERATOR; t++) {
        if (strcmp(tok, ua_device_type_name((ua_device_type)t)) == 0) {
            return t;
        }
    }
    return 0;
}

static void
list_backend_names(char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t b = 0; b < ua_backend_count(); b++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", b ? ", " : "",
                 ua_backend_at(b)->ops->name);
    }
}

static ua_status
token_error(const char *filter, const char *tok, const char *why)
{
    char names[128];
    list_backend_names(names, sizeof(names));
    return ua_error_set(UA_ERR_VALUE,
                        "filter string '%s': '%s' %s; a filter string is "
                        "backend:device_type:relative_id with each field "
                        "optional (backends: %s; device types: cpu, gpu, "
                        "accelerator), or a global device index",
                        filter, tok, why, names);
}

/* Fields must come in the order backend, type, index; each at most once. */
static ua_status
parse_filter(const char *filter, filter_spec *spec)
{
    char buf[128], lower[128];
    size_t len = strlen(filter);
    spec->backend = NULL;
    spec->type = 0;
    spec->index = -1;
    if (len == 0 || len >= sizeof(buf)) {
        return ua_error_set(UA_ERR_VALUE,
                            "filter string '%.100s' must have 1 to %zu "
                            "characters",
                            filter, sizeof(buf) - 1);
    }
    for (size_t i = 0; i <= len; i++) {
        lower[i] = (char)tolower((unsigned char)filter[i]);
    }
    memcpy(buf, lower, len + 1);
    int stage = 0; /* 0: backend next, 1: type next, 2: index next, 3: done */
    char *save = NULL;
    char *tok = strtok_r(buf, ":", &save);
    size_t ntok = 0;
    for (; tok != NULL; tok = strtok_r(NULL, ":", &save), ntok++) {
        const ua_backend_ops *ops = backend_named(tok);
        int type = type_named(tok);
        long index;
        if (ops != NULL && stage == 0) {
            spec->backend = ops;
            stage = 1;
        } else if (type != 0 && stage <= 1) {
            spec->type = type;
            stage = 2;
        } else if (parse_index(tok, &index) && stage <= 2) {
            spec->index = index;
            stage = 3;
        } else if (ops != NULL || type != 0 || parse_index(tok, &index)) {
            return token_error(filter, tok, "is out of place");
        } else {
            return token_error(filter, tok,
                               "is not a backend, a device type or an index");
        }
    }
    /* Empty fields ("cuda::0", ":gpu") or a trailing ':' are malformed. */
    size_t colons = 0;
    for (size_t i = 0; i < len; i++) {
        colons += filter[i] == ':';
    }
    if (ntok == 0 || colons != ntok - 1) {
        return ua_error_set(UA_ERR_VALUE,
                            "filter string '%s' has an empty field", filter);
    }
    return UA_OK;
}

static bool
matches(const ua_device *d, const filter_spec *spec)
{
    return (spec->backend == NULL || d->backend->ops == spec->backend) &&
           (spec->type == 0 || (int)d->type == spec->type);
}

static void
list_devices(char *list, size_t len)
{
    size_t used = 0;
    list[0] = '\0';
    for (size_t i = 0; i < ua_device_count() && used < len; i++) {
        used += (size_t)snprintf(list + used, len - used, "%s%zu: %s (%s)",
                                 i ? ", " : "", i, ua_device_at(i)->filter,
                                 ua_device_at(i)->name);
    }
    if (ua_device_count() == 0) {
        snprintf(list, len, "none");
    }
}

static ua_status
no_match(const char *filter)
{
    char list[1024];
    list_devices(list, sizeof(list));
    return ua_error_set(UA_ERR_VALUE,
                        "no device matches filter string '%s'; the devices "
                        "are: %s",
                        filter, list);
}

/* A filter string in a driver's own language, as some backend reads it. */
static bool
select_by_backend(const char *filter, ua_device **out)
{
    for (size_t b = 0; b < ua_backend_count(); b++) {
        ua_backend *be = ua_backend_at(b);
        const ua_filter_ops *filters = ua_backend_filters(be);
        int index;
        if (be->available && filters != NULL &&
            filters->select_filter(filter, &index) == UA_OK &&
            (*out = ua_backend_device(be, index)) != NULL) {
            return true;
        }
    }
    return false;
}

ua_status
ua_device_select(const char *filter, ua_device **out)
{
    filter_spec spec;
    ua_devices_initialize();
    ua_status st = parse_filter(filter, &spec);
    if (st != UA_OK) {
        char why[700], list[1024];
        snprintf(why, sizeof(why), "%s", ua_error_message());
        if (select_by_backend(filter, out)) {
            ua_error_clear();
            return UA_OK;
        }
        list_devices(list, sizeof(list));
        return ua_error_set(st,
                            "%s; no backend's own filter strings match "
                            "it either; the devices are: %s",
                            why, list);
    }
    long seen = 0;
    for (size_t i = 0; i < ua_device_count(); i++) {
        if (!matches(ua_device_at(i), &spec)) {
            continue;
        }
        if (spec.index < 0 || seen == spec.index) {
            *out = ua_device_at(i);
            return UA_OK;
        }
        seen++;
    }
    return no_match(filter);
}

/* The default device with USMARRAY_DEVICE's value env (NULL if unset). */
static ua_status
choose_default(const char *env, ua_device **out)
{
    if (env != NULL && env[0] != '\0') {
        if (ua_device_select(env, out) != UA_OK) {
            char why[900];
            snprintf(why, sizeof(why), "%s", ua_error_message());
            return ua_error_set(
                UA_ERR_VALUE, "environment variable USMARRAY_DEVICE: %s", why);
        }
        return UA_OK;
    }
    for (int want = UA_DEVICE_GPU; want >= UA_DEVICE_CPU; want--) {
        for (size_t i = 0; i < ua_device_count(); i++) {
            if ((int)ua_device_at(i)->type == want) {
                *out = ua_device_at(i);
                return UA_OK;
            }
        }
    }
    if (ua_device_count() > 0) {
        *out = ua_device_at(0);
        return UA_OK;
    }
    return ua_error_set(UA_ERR_UNAVAILABLE, "no device is available");
}

/* The default follows USMARRAY_DEVICE as the environment changes; each
 * thread keeps its last answer for as long as the variable is unchanged
 * (the device tables never change once built). */
static _Thread_local ua_env_watch default_env;
static _Thread_local ua_device *default_device;

ua_status
ua_device_default(ua_device **out)
{
    ua_devices_initialize();
    const char *env;
    if (!ua_env_changed(&default_env, "USMARRAY_DEVICE", &env)) {
        *out = default_device;
        return UA_OK;
    }
    ua_status st = choose_default(env, out);
    if (st == UA_OK) {
        default_device = *out;
    } else {
        ua_env_forget(&default_env);
    }
    return st;
}
