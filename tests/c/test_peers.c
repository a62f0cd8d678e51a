/* Copies between devices, on a machine without GPUs: this test links its
 * own list of backends (in place of src/backends/list.c), the host and two
 * made-up GPU backends of two devices each whose "device" memory is malloc'ed
 * and whose queues log what they run: "twin", whose queues reach each
 * other's memory (directly from device 0 to 1, through the host from 1 to
 * 0), and "solo", which runs no copies between its devices.  The core must
 * order a copy touching a peer's memory after the peer's queue by an event,
 * the peer's later work after the copy, and refuse, naming both devices,
 * copies no backend can run. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "internal.h"

/* ---------------------------------------------------- the made-up GPUs */

typedef struct {
    const char *backend;
    int index;
} fake_queue;

static char journal[4096];

static void
note(const char *what, const fake_queue *q)
{
    size_t used = strlen(journal);
    snprintf(journal + used, sizeof(journal) - used, "%s %s%d; ", what,
             q->backend, q->index);
}

static ua_status
fake_initialize(void)
{
    return UA_OK;
}

static int
fake_device_count(void)
{
    return 2;
}

static ua_status
fake_describe(int index, ua_device_type *type, char *name, size_t len)
{
    *type = UA_DEVICE_GPU;
    snprintf(name, len, "made-up GPU %d", index);
    return UA_OK;
}

static ua_status
fake_context_create(int index, void **context)
{
    *context = (void *)(intptr_t)(index + 1);
    return UA_OK;
}

#define FAKE_QUEUE_CREATE(NAME)                                              \
    static ua_status NAME##_queue_create(void *context, int index,          \
                                         const ua_queue_props *props,       \
                                         void **queue)                      \
    {                                                                        \
        (void)context, (void)props;                                          \
        static fake_queue queues[2] = {{#NAME, 0}, {#NAME, 1}};              \
        *queue = &queues[index];                                             \
        return UA_OK;                                                        \
    }
FAKE_QUEUE_CREATE(twin)
FAKE_QUEUE_CREATE(solo)

static ua_status
fake_alloc(void *context, int index, ua_usm_kind kind, size_t nbytes,
           size_t alignment, void **ptr)
{
    (void)context, (void)index, (void)kind, (void)alignment;
    *ptr = malloc(nbytes);
    return *ptr ? UA_OK : ua_error_set(UA_ERR_ALLOC, "out of memory");
}

static void
fake_free(void *context, ua_usm_kind kind, void *ptr)
{
    (void)context, (void)kind;
    free(ptr);
}

static ua_status
fake_memcpy(void *queue, void *dst, const void *src, size_t n)
{
    note("memcpy on", queue);
    memmove(dst, src, n);
    return UA_OK;
}

static ua_status
fake_memset(void *queue, void *dst, unsigned char value, size_t n)
{
    (void)queue;
    memset(dst, value, n);
    return UA_OK;
}

static ua_status
fake_wait(void *queue)
{
    (void)queue;
    return UA_OK;
}

static ua_status
fake_copy_strided(void *queue, int nd, const ptrdiff_t *shape,
                  const ua_strided *dst, const ua_strided *src)
{
    note("strided copy on", queue);
    return ua_copy_strided_host(nd, shape, dst, src);
}

static ua_status
fake_event_record(void *queue, void **event)
{
    note("record on", queue);
    *event = queue;
    return UA_OK;
}

static ua_status
fake_event_wait(void *queue, void *event)
{
    note("wait on", queue);
    (void)event;
    return UA_OK;
}

static ua_status
fake_event_synchronize(void *event)
{
    (void)event;
    return UA_OK;
}

static void
fake_event_destroy(void *event)
{
    (void)event;
}

static ua_dl_device
fake_dlpack_device(int index, ua_usm_kind kind)
{
    (void)kind;
    return (ua_dl_device){UA_DL_CUDA, index};
}

static bool
fake_dlpack_owns(ua_dl_device dl, int *index, ua_usm_kind *kind)
{
    (void)dl, (void)index, (void)kind;
    return false;
}

/* Device 0 reaches device 1 over a link; 1 reaches 0 through the host. */
static bool
twin_peer_access(int from, int to)
{
    return from == 0 && to == 1;
}

#define FAKE_OPS(NAME, PEER_ACCESS)                                          \
    static const ua_backend_ops NAME##_ops = {                               \
        .version = UA_BACKEND_OPS_VERSION,                                   \
        .name = #NAME,                                                       \
        .caps = UA_CAP_REACHES_CPU_MEMORY,                                   \
        .initialize = fake_initialize,                                       \
        .device_count = fake_device_count,                                   \
        .device_describe = fake_describe,                                    \
        .context_create = fake_context_create,                               \
        .queue_create = NAME##_queue_create,                                 \
        .alloc = fake_alloc,                                                 \
        .free = fake_free,                                                   \
        .memcpy = fake_memcpy,                                               \
        .memset = fake_memset,                                               \
        .queue_wait = fake_wait,                                             \
        .copy_strided = fake_copy_strided,                                   \
        .event_record = fake_event_record,                                   \
        .event_wait = fake_event_wait,                                       \
        .event_synchronize = fake_event_synchronize,                         \
        .event_destroy = fake_event_destroy,                                 \
        .dlpack_device = fake_dlpack_device,                                 \
        .dlpack_owns = fake_dlpack_owns,                                     \
        .peer_access = PEER_ACCESS,                                          \
    };
FAKE_OPS(twin, twin_peer_access)
FAKE_OPS(solo, NULL)

/* The list this executable is built with. */
extern const ua_backend_ops ua_host_backend_ops;
const ua_backend_ops *const ua_backend_list[] = {&ua_host_backend_ops,
                                                 &twin_ops, &solo_ops};
const size_t ua_backend_list_count = 3;

/* ------------------------------------------------------------- helpers */

static ua_device *
device(const char *filter)
{
    ua_device *d = NULL;
    CHECK_STATUS(ua_device_select(filter, &d), UA_OK);
    return d;
}

static ua_queue *
queue(const char *filter)
{
    ua_context *c = NULL;
    ua_queue *q = NULL;
    CHECK_STATUS(ua_device_default_context(device(filter), &c), UA_OK);
    CHECK_STATUS(ua_context_default_queue(c, &q), UA_OK);
    return q;
}

static ua_allocation *
filled(const char *filter, ua_usm_kind kind, unsigned char value)
{
    ua_allocation *a = NULL;
    CHECK_STATUS(ua_usm_alloc(queue(filter), kind, 64, 0, &a), UA_OK);
    memset(ua_allocation_ptr(a), value, 64);
    return a;
}

static bool
holds(const ua_allocation *a, unsigned char value)
{
    const unsigned char *p = ua_allocation_ptr(a);
    for (size_t i = 0; i < 64; i++) {
        if (p[i] != value) {
            return false;
        }
    }
    return true;
}

static bool
message_names(const char *a, const char *b)
{
    return strstr(ua_error_message(), a) != NULL &&
           strstr(ua_error_message(), b) != NULL;
}

/* --------------------------------------------------------------- tests */

static void
test_peer_access(void)
{
    bool direct = false;
    ua_device *t0 = device("twin:gpu:0"), *t1 = device("twin:gpu:1");
    CHECK_STATUS(ua_device_peer_access(t0, t1, &direct), UA_OK);
    CHECK(direct);
    CHECK_STATUS(ua_device_peer_access(t1, t0, &direct), UA_OK);
    CHECK(!direct);
    CHECK_STATUS(ua_device_peer_access(t1, t1, &direct), UA_OK);
    CHECK(direct);
    /* CPU memory is reached by every backend that reaches CPU memory. */
    CHECK_STATUS(ua_device_peer_access(t0, device("host"), &direct), UA_OK);
    CHECK(direct);

    CHECK_STATUS(ua_device_peer_access(device("solo:gpu:0"),
                                       device("solo:gpu:1"), &direct),
                 UA_ERR_VALUE);
    CHECK(message_names("solo:gpu:0", "solo:gpu:1"));
    CHECK(strstr(ua_error_message(), "runs no copies between its devices"));
    CHECK_STATUS(ua_device_peer_access(t0, device("solo:gpu:1"), &direct),
                 UA_ERR_VALUE);
    CHECK(message_names("twin:gpu:0", "solo:gpu:1"));
    CHECK(strstr(ua_error_message(), "cannot reach that device"));
    CHECK_STATUS(ua_device_peer_access(device("host"), t1, &direct),
                 UA_ERR_VALUE);
    ua_error_clear();
}

static void
test_copy_between_peers_is_ordered_by_events(void)
{
    ua_allocation *a = filled("twin:gpu:0", UA_USM_DEVICE, 1);
    ua_allocation *b = filled("twin:gpu:1", UA_USM_DEVICE, 2);
    journal[0] = '\0';
    CHECK_STATUS(ua_queue_memcpy(queue("twin:gpu:0"), ua_allocation_ptr(a),
                                 ua_allocation_ptr(b), 64),
                 UA_OK);
    CHECK(holds(a, 2));
    CHECK(strcmp(journal, "record on twin1; wait on twin0; memcpy on twin0; "
                          "record on twin0; wait on twin1; ") == 0);

    /* The same, strided, run on device 1's queue through the host. */
    memset(ua_allocation_ptr(a), 3, 64);
    ptrdiff_t shape[1] = {8}, strides[1] = {1};
    ua_strided dst = {ua_allocation_ptr(b), strides, UA_FLOAT64};
    ua_strided src = {ua_allocation_ptr(a), strides, UA_FLOAT64};
    journal[0] = '\0';
    CHECK_STATUS(ua_queue_copy_strided(queue("twin:gpu:1"), 1, shape, &dst,
                                       &src),
                 UA_OK);
    CHECK(holds(b, 3));
    CHECK(strcmp(journal, "record on twin0; wait on twin1; strided copy on "
                          "twin1; record on twin1; wait on twin0; ") == 0);
    ua_usm_free(a);
    ua_usm_free(b);
}

static void
test_memory_of_the_queues_device_needs_no_event(void)
{
    ua_allocation *a = filled("twin:gpu:0", UA_USM_DEVICE, 1);
    ua_allocation *b = filled("twin:gpu:0", UA_USM_SHARED, 4);
    ua_allocation *h = filled("host", UA_USM_DEVICE, 5);
    ua_queue *q = queue("twin:gpu:0");
    journal[0] = '\0';
    CHECK_STATUS(ua_queue_memcpy(q, ua_allocation_ptr(a),
                                 ua_allocation_ptr(b), 64),
                 UA_OK);
    CHECK_STATUS(ua_queue_memcpy(q, ua_allocation_ptr(b),
                                 ua_allocation_ptr(h), 64),
                 UA_OK);
    CHECK(holds(a, 4) && holds(b, 5));
    CHECK(strcmp(journal, "memcpy on twin0; memcpy on twin0; ") == 0);
    ua_usm_free(a);
    ua_usm_free(b);
    ua_usm_free(h);
}

static void
test_copies_no_backend_runs_are_refused(void)
{
    ua_allocation *s0 = filled("solo:gpu:0", UA_USM_DEVICE, 6);
    ua_allocation *s1 = filled("solo:gpu:1", UA_USM_DEVICE, 7);
    ua_allocation *t0 = filled("twin:gpu:0", UA_USM_DEVICE, 8);
    journal[0] = '\0';
    CHECK_STATUS(ua_queue_memcpy(queue("solo:gpu:0"), ua_allocation_ptr(s0),
                                 ua_allocation_ptr(s1), 64),
                 UA_ERR_VALUE);
    CHECK(message_names("solo:gpu:0", "solo:gpu:1"));
    CHECK_STATUS(ua_queue_memcpy(queue("twin:gpu:0"), ua_allocation_ptr(t0),
                                 ua_allocation_ptr(s1), 64),
                 UA_ERR_VALUE);
    CHECK(message_names("twin:gpu:0", "solo:gpu:1"));
    /* A host queue hands the copy to the destination's device, which
     * cannot reach the source either. */
    ptrdiff_t shape[1] = {8}, strides[1] = {1};
    ua_strided dst = {ua_allocation_ptr(t0), strides, UA_FLOAT64};
    ua_strided src = {ua_allocation_ptr(s0), strides, UA_FLOAT64};
    CHECK_STATUS(ua_queue_copy_strided(queue("host"), 1, shape, &dst, &src),
                 UA_ERR_VALUE);
    CHECK(message_names("twin:gpu:0", "solo:gpu:0"));
    /* Nothing ran, nothing changed. */
    CHECK(journal[0] == '\0');
    CHECK(holds(s0, 6) && holds(s1, 7) && holds(t0, 8));
    ua_error_clear();
    ua_usm_free(s0);
    ua_usm_free(s1);
    ua_usm_free(t0);
}

int
main(void)
{
    CHECK(ua_device_count() == 5);
    test_peer_access();
    test_copy_between_peers_is_ordered_by_events();
    test_memory_of_the_queues_device_needs_no_event();
    test_copies_no_backend_runs_are_refused();
    return check_report("test_peers");
}
