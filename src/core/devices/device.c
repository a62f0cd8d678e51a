/* Backends, devices, default contexts and queues.  The tables are built
 * once, on first use, and never change afterwards, so that readers need no
 * lock; contexts and queues are created lazily under one mutex. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

/* One entry per backend of ua_backends_of_build(), in the same order. */
static ua_backend *backends;
static size_t nbackends;

static ua_device *devices;
static size_t ndevices;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static atomic_bool tables_built;
static pthread_mutex_t lazy_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const type_names[] = {"", "cpu", "gpu", "accelerator"};

/* Directories where backends look for drivers that ship in Python packages;
 * set before the tables are built. */
static char *search_path;

ua_status
ua_set_library_search_path(const char *paths)
{
    char *copy = strdup(paths);
    if (copy == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory");
    }
    free(search_path);
    search_path = copy;
    return UA_OK;
}

const char *
ua_library_search_path(void)
{
    return search_path != NULL ? search_path : "";
}

const char *
ua_device_type_name(ua_device_type t)
{
    return (t >= UA_DEVICE_CPU && t <= UA_DEVICE_ACCELERATOR) ? type_names[t]
                                                              : "unknown";
}

static void
initialize_backend(ua_backend *b)
{
    if (b->ops->version != UA_BACKEND_OPS_VERSION) {
        snprintf(b->reason, sizeof(b->reason),
                 "backend interface version %u, expected %u", b->ops->version,
                 UA_BACKEND_OPS_VERSION);
        return;
    }
    if (b->ops->initialize() != UA_OK) {
        snprintf(b->reason, sizeof(b->reason), "%s", ua_error_message());
        ua_error_clear();
        return;
    }
    int n = b->ops->device_count();
    b->available = true;
    b->ndevices = n > 0 ? (size_t)n : 0;
}

static int
count_earlier(size_t upto, const ua_device *d)
{
    int n = 0;
    for (size_t i = 0; i < upto; i++) {
        n += devices[i].backend == d->backend && devices[i].type == d->type;
    }
    return n;
}

static void
describe_device(ua_device *d)
{
    if (d->backend->ops->device_describe(d->index, &d->type, d->name,
                                         sizeof(d->name)) != UA_OK) {
        d->type = UA_DEVICE_ACCELERATOR;
        snprintf(d->name, sizeof(d->name), "%s device %d",
                 d->backend->ops->name, d->index);
        ua_error_clear();
    }
    d->relative_id = count_earlier(d->id, d);
    snprintf(d->filter, sizeof(d->filter), "%s:%s:%d", d->backend->ops->name,
             ua_device_type_name(d->type), d->relative_id);
}

static void
build_tables(void)
{
    size_t total = 0, count;
    const ua_backend_ops *const *list = ua_backends_of_build(&count);
    backends = calloc(count, sizeof(*backends));
    if (backends == NULL) {
        return; /* no backends: every selection then fails with a message */
    }
    nbackends = count;
    for (size_t b = 0; b < nbackends; b++) {
        backends[b].ops = list[b];
        initialize_backend(&backends[b]);
        total += backends[b].ndevices;
    }
    devices = calloc(total ? total : 1, sizeof(*devices));
    if (devices == NULL) {
        return; /* no devices: every selection then fails with a message */
    }
    for (size_t b = 0; b < nbackends; b++) {
        backends[b].first_device = ndevices;
        for (size_t i = 0; i < backends[b].ndevices; i++) {
            ua_device *d = &devices[ndevices];
            d->backend = &backends[b];
            d->index = (int)i;
            d->id = ndevices++;
            describe_device(d);
        }
    }
}

void
ua_devices_initialize(void)
{
    /* Asked on every call of many functions: a load where pthread_once
     * costs a call and a few more. */
    if (!atomic_load_explicit(&tables_built, memory_order_acquire)) {
        pthread_once(&tables_once, build_tables);
        atomic_store_explicit(&tables_built, true, memory_order_release);
    }
}

size_t
ua_backend_count(void)
{
    ua_devices_initialize();
    return nbackends;
}

ua_backend *
ua_backend_at(size_t i)
{
    ua_devices_initialize();
    return i < nbackends ? &backends[i] : NULL;
}

const char *
ua_backend_name(const ua_backend *b)
{
    return b->ops->name;
}

bool
ua_backend_available(const ua_backend *b)
{
    return b->available;
}

const char *
ua_backend_reason(const ua_backend *b)
{
    return b->reason;
}

size_t
ua_backend_device_count(const ua_backend *b)
{
    return b->ndevices;
}

unsigned
ua_backend_caps(const ua_backend *b)
{
    return b->ops->caps;
}

ua_stream_rule
ua_backend_stream_rule(const ua_backend *b)
{
    return b->ops->stream_rule;
}

uintptr_t
ua_backend_none_stream(const ua_backend *b)
{
    return b->ops->none_stream;
}

ua_device *
ua_backend_device(ua_backend *b, int index)
{
    if (index < 0 || (size_t)index >= b->ndevices) {
        return NULL;
    }
    return &devices[b->first_device + (size_t)index];
}

size_t
ua_device_count(void)
{
    ua_devices_initialize();
    return ndevices;
}

ua_device *
ua_device_at(size_t id)
{
    ua_devices_initialize();
    return id < ndevices ? &devices[id] : NULL;
}

size_t
ua_device_id(const ua_device *d)
{
    return d->id;
}

ua_backend *
ua_device_backend(const ua_device *d)
{
    return d->backend;
}

ua_device_type
ua_device_get_type(const ua_device *d)
{
    return d->type;
}

const char *
ua_device_name(const ua_device *d)
{
    return d->name;
}

int
ua_device_relative_id(const ua_device *d)
{
    return d->relative_id;
}

const char *
ua_device_filter_string(const ua_device *d)
{
    return d->filter;
}

ua_status
ua_device_get_info(const ua_device *d, ua_device_info *out)
{
    memset(out, 0, sizeof(*out));
    if (d->backend->ops->device_info == NULL) {
        return UA_OK;
    }
    return d->backend->ops->device_info(d->index, out);
}

/* ------------------------------------------------------- filter strings */

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
    for (size_t b = 0; b < nbackends; b++) {
        if (strcmp(tok, backends[b].ops->name) == 0) {
            return backends[b].ops;
        }
    }
    return NULL;
}

static int
type_named(const char *tok)
{
    for (int t = UA_DEVICE_CPU; t <= UA_DEVICE_ACCELERATOR; t++) {
        if (strcmp(tok, type_names[t]) == 0) {
            return t;
        }
    }
    return 0;
}

static void
list_backend_names(char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t b = 0; b < nbackends; b++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", b ? ", " : "",
                 backends[b].ops->name);
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
        }
        else if (type != 0 && stage <= 1) {
            spec->type = type;
            stage = 2;
        }
        else if (parse_index(tok, &index) && stage <= 2) {
            spec->index = index;
            stage = 3;
        }
        else if (ops != NULL || type != 0 || parse_index(tok, &index)) {
            return token_error(filter, tok, "is out of place");
        }
        else {
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
    for (size_t i = 0; i < ndevices && used < len; i++) {
        used += (size_t)snprintf(list + used, len - used, "%s%zu: %s (%s)",
                                 i ? ", " : "", i, devices[i].filter,
                                 devices[i].name);
    }
    if (ndevices == 0) {
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
    for (size_t b = 0; b < nbackends; b++) {
        int index;
        if (backends[b].available && backends[b].ops->select_filter != NULL &&
            backends[b].ops->select_filter(filter, &index) == UA_OK &&
            (*out = ua_backend_device(&backends[b], index)) != NULL) {
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
        return ua_error_set(st, "%s; no backend's own filter strings match "
                            "it either; the devices are: %s", why, list);
    }
    long seen = 0;
    for (size_t i = 0; i < ndevices; i++) {
        if (!matches(&devices[i], &spec)) {
            continue;
        }
        if (spec.index < 0 || seen == spec.index) {
            *out = &devices[i];
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
            return ua_error_set(UA_ERR_VALUE,
                                "environment variable USMARRAY_DEVICE: %s",
                                why);
        }
        return UA_OK;
    }
    for (int want = UA_DEVICE_GPU; want >= UA_DEVICE_CPU; want--) {
        for (size_t i = 0; i < ndevices; i++) {
            if ((int)devices[i].type == want) {
                *out = &devices[i];
                return UA_OK;
            }
        }
    }
    if (ndevices > 0) {
        *out = &devices[0];
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
    }
    else {
        ua_env_forget(&default_env);
    }
    return st;
}

/* ------------------------------------------------- contexts and queues */

ua_status
ua_device_default_context(ua_device *d, ua_context **out)
{
    ua_status st = UA_OK;
    pthread_mutex_lock(&lazy_lock);
    bool pooled;
    if (d->default_context == NULL &&
        (st = ua_pool_enabled_by_env(&pooled)) == UA_OK) {
        ua_context *c = calloc(1, sizeof(*c));
        if (c == NULL) {
            st = ua_error_set(UA_ERR_NOMEM, "out of memory creating a context");
        }
        else if ((st = d->backend->ops->context_create(d->index, &c->handle)) !=
                 UA_OK) {
            free(c);
        }
        else {
            c->device = d;
            for (int k = 0; k <= UA_USM_HOST; k++) {
                ua_pool_init(&c->pools[k], pooled);
                c->usage[k].limit = SIZE_MAX;
            }
            d->default_context = c;
        }
    }
    *out = d->default_context;
    pthread_mutex_unlock(&lazy_lock);
    return st;
}

ua_status
ua_context_default_queue(ua_context *c, ua_queue **out)
{
    ua_status st = UA_OK;
    pthread_mutex_lock(&lazy_lock);
    if (c->default_queue == NULL) {
        ua_queue *q = calloc(1, sizeof(*q));
        const ua_backend_ops *ops = c->device->backend->ops;
        if (q == NULL) {
            st = ua_error_set(UA_ERR_NOMEM, "out of memory creating a queue");
        }
        else if ((st = ops->queue_create(c->handle, c->device->index, NULL,
                                         &q->handle)) != UA_OK) {
            free(q);
        }
        else {
            q->context = c;
            c->default_queue = q;
        }
    }
    *out = c->default_queue;
    pthread_mutex_unlock(&lazy_lock);
    return st;
}

ua_device *
ua_context_device(const ua_context *c)
{
    return c->device;
}

ua_context *
ua_queue_context(const ua_queue *q)
{
    return q->context;
}

ua_device *
ua_queue_device(const ua_queue *q)
{
    return q->context->device;
}

ua_status
ua_queue_wait(ua_queue *q)
{
    return q->context->device->backend->ops->queue_wait(q->handle);
}

/* ------------------------------------------------------- queues made anew */

ua_status
ua_device_queue_priorities(ua_device *d, int *least, int *greatest)
{
    const ua_backend_ops *ops = d->backend->ops;
    ua_context *c;
    if (ops->queue_priorities == NULL) {
        return ua_error_set(UA_ERR_VALUE,
                            "queues of %s have no priorities", d->filter);
    }
    ua_status st = ua_device_default_context(d, &c);
    if (st == UA_OK) {
        ops->queue_priorities(c->handle, least, greatest);
    }
    return st;
}

static ua_status
check_priority(ua_device *d, int priority)
{
    int least, greatest;
    ua_status st = ua_device_queue_priorities(d, &least, &greatest);
    if (st != UA_OK) {
        return st;
    }
    int lo = least < greatest ? least : greatest;
    int hi = least < greatest ? greatest : least;
    if (priority < lo || priority > hi) {
        return ua_error_set(UA_ERR_VALUE,
                            "priority %d is not one of %s's queue priorities, "
                            "%d (least) to %d (greatest)",
                            priority, d->filter, least, greatest);
    }
    return UA_OK;
}

static ua_status
new_queue(ua_context *c, ua_queue **out)
{
    *out = calloc(1, sizeof(**out));
    if (*out == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory creating a queue");
    }
    (*out)->context = c;
    return UA_OK;
}

ua_status
ua_queue_create(ua_context *c, const ua_queue_props *props, ua_queue **out)
{
    const ua_backend_ops *ops = c->device->backend->ops;
    ua_queue *q;
    ua_status st = props->has_priority
                       ? check_priority(c->device, props->priority)
                       : UA_OK;
    if (st != UA_OK || (st = new_queue(c, &q)) != UA_OK) {
        return st;
    }
    st = ops->queue_create(c->handle, c->device->index, props, &q->handle);
    if (st != UA_OK) {
        free(q);
        return st;
    }
    q->has_priority = props->has_priority;
    q->priority = props->priority;
    *out = q;
    return UA_OK;
}

ua_status
ua_queue_wrap_stream(ua_context *c, uintptr_t stream, ua_queue **out)
{
    const ua_backend_ops *ops = c->device->backend->ops;
    ua_queue *q;
    if (ops->queue_wrap == NULL) {
        return ua_error_set(UA_ERR_VALUE,
                            "queues of %s have no streams to wrap",
                            c->device->filter);
    }
    ua_status st = new_queue(c, &q);
    if (st != UA_OK) {
        return st;
    }
    if ((st = ops->queue_wrap(c->handle, stream, &q->handle)) != UA_OK) {
        free(q);
        return st;
    }
    q->wrapped = true;
    *out = q;
    return UA_OK;
}

void
ua_queue_destroy(ua_queue *q)
{
    if (q == NULL || ua_queue_is_default(q)) {
        return;
    }
    ua_context *c = q->context;
    const ua_backend_ops *ops = c->device->backend->ops;
    ua_queue *heir;
    /* Blocks q used are done with once q's work is: the default queue may
     * hand them out with no further ordering. */
    ua_queue_wait(q);
    ua_error_clear();
    if (ua_context_default_queue(c, &heir) == UA_OK) {
        for (int k = UA_USM_DEVICE; k <= UA_USM_HOST; k++) {
            ua_pool_rebind(&c->pools[k], q, heir);
        }
    }
    ua_error_clear();
    if (ops->queue_destroy != NULL) {
        ops->queue_destroy(q->handle);
    }
    free(q);
}

bool
ua_queue_is_default(const ua_queue *q)
{
    pthread_mutex_lock(&lazy_lock);
    bool is = q->context->default_queue == q;
    pthread_mutex_unlock(&lazy_lock);
    return is;
}

bool
ua_queue_priority(const ua_queue *q, int *priority)
{
    *priority = q->priority;
    return q->has_priority;
}

bool
ua_queue_is_wrapped(const ua_queue *q)
{
    return q->wrapped;
}

/* ------------------------------------------------------ foreign handles */

static ua_status
no_backend_adopts(const char *name)
{
    char why[512];
    size_t used = 0;
    why[0] = '\0';
    for (size_t b = 0; b < nbackends && used < sizeof(why); b++) {
        if (!backends[b].available) {
            used += (size_t)snprintf(why + used, sizeof(why) - used,
                                     "; the %s backend is unavailable: %s",
                                     backends[b].ops->name,
                                     backends[b].reason);
        }
    }
    return ua_error_set(UA_ERR_TYPE,
                        "a '%s' capsule: no available backend of usmarray "
                        "can interpret it%s",
                        name, why);
}

ua_status
ua_queue_adopt(const char *name, void *handle, ua_queue **out)
{
    ua_devices_initialize();
    for (size_t b = 0; b < nbackends; b++) {
        const ua_backend_ops *ops = backends[b].ops;
        int index = -1;
        if (!backends[b].available || ops->adopt_handle == NULL) {
            continue;
        }
        ua_status st = ops->adopt_handle(name, handle, &index);
        if (st == UA_ERR_TYPE) {
            ua_error_clear();
            continue;
        }
        if (st != UA_OK) {
            return st;
        }
        ua_device *d = ua_backend_device(&backends[b], index);
        ua_context *c;
        if (d == NULL) {
            return ua_error_set(UA_ERR_VALUE,
                                "a '%s' capsule names device %d of the %s "
                                "backend, which has %zu",
                                name, index, ops->name, backends[b].ndevices);
        }
        if ((st = ua_device_default_context(d, &c)) != UA_OK ||
            (st = ua_context_default_queue(c, out)) != UA_OK) {
            return st;
        }
        return ops->order_after_handle != NULL
                   ? ops->order_after_handle((*out)->handle, name, handle)
                   : UA_OK;
    }
    return no_backend_adopts(name);
}
