/* Copies between devices, on a machine without GPUs: this test links its
 * own list of backends (in place of src/backends/list.c), the host and two
 * made-up GPU backends of two devices each whose "device" memory is malloc'ed
 * and whose queues log what they run: "twin", whose queues reach each
 * other's memory (directly from device 0 to 1, through the host from 1 to
 * 0), and "solo", which runs no copies between its devices.  The core must
 * order a copy touching a peer's memory after the peer's queue by an event,
 * the peer's later work after the copy, and relay copies no one queue can
 * run through a host buffer: the source's device copies into it, the
 * destination's device out of it, each leg waited for.  The made-up
 * provider also runs out of memory on demand, for the pool's retry. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "backends/host/host_kernels.h"
#include "core/backend.h"
#include "core/devices/devices.h"

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

/* The USM kind of the memory at p, "cpu" for memory no one allocated. */
static const char *
kind_at(const void *p)
{
    ua_pointer_info info;
    return ua_pointer_query((uintptr_t)p, &info) ? ua_usm_kind_name(info.kind)
                                                 : "cpu";
}

/* A copy on q, with the kinds of memory it writes and reads. */
static void
note_copy(const char *what, const fake_queue *q, const void *dst,
          const void *src)
{
    char line[64];
    snprintf(line, sizeof(line), "%s %s<-%s on", what, kind_at(dst),
             kind_at(src));
    note(line, q);
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

#define FAKE_QUEUE_CREATE(NAME)                                               \
    static ua_status NAME##_queue_create(                                     \
        void *context, int index, const ua_queue_props *props, void **queue)  \
    {                                                                         \
        (void)context, (void)props;                                           \
        static fake_queue queues[2] = {{#NAME, 0}, {#NAME, 1}};               \
        *queue = &queues[index];                                              \
        return UA_OK;                                                         \
    }
FAKE_QUEUE_CREATE(twin)
FAKE_QUEUE_CREATE(solo)

/* The queues are static: nothing to free, and no driver object. */
static void
fake_queue_destroy(void *queue)
{
    (void)queue;
}

static void *
fake_native_handle(void *queue)
{
    (void)queue;
    return NULL;
}

/* The allocations the provider refuses next, as a device out of memory
 * would, and the frees it has made. */
static int refusals, frees;

static ua_status
fake_alloc(void *context, int index, void *queue, ua_usm_kind kind,
           size_t nbytes, size_t alignment, void **ptr)
{
    (void)context, (void)index, (void)queue, (void)kind, (void)alignment;
    if (refusals > 0) {
        refusals--;
        *ptr = NULL;
        return ua_error_set(UA_ERR_ALLOC, "the fake device is full");
    }
    *ptr = malloc(nbytes);
    return *ptr ? UA_OK : ua_error_set(UA_ERR_ALLOC, "out of memory");
}

static void
fake_free(void *context, void *queue, ua_usm_kind kind, void *ptr,
          size_t nbytes)
{
    (void)context, (void)queue, (void)kind, (void)nbytes;
    frees++;
    free(ptr);
}

static const ua_memory_provider fake_memory = {
    .name = "malloc",
    .alloc = fake_alloc,
    .free = fake_free,
    .max_alignment = 16,
};

static ua_status
fake_memcpy(void *queue, void *dst, const void *src, size_t n)
{
    note_copy("memcpy", queue, dst, src);
    memmove(dst, src, n);
    return UA_OK;
}

static ua_status
fake_memcpy_batch(void *queue, size_t n, const ua_copy_block *blocks)
{
    char what[32];
    snprintf(what, sizeof what, "batch of %zu on", n);
    note(what, queue);
    for (size_t i = 0; i < n; i++) {
        memmove(blocks[i].dst, blocks[i].src, blocks[i].bytes);
    }
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
    note("sync", queue);
    return UA_OK;
}

static ua_status
fake_copy_strided(void *queue, int nd, const ptrdiff_t *shape,
                  const ua_strided *dst, const ua_strided *src)
{
    note_copy("strided copy", queue, dst->data, src->data);
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

static const ua_peer_ops twin_peers = {twin_peer_access};

#define FAKE_OPS(NAME, PEERS)                                                 \
    static const ua_backend_ops NAME##_ops = {                                \
        .version = UA_BACKEND_OPS_VERSION,                                    \
        .name = #NAME,                                                        \
        .caps = UA_CAP_REACHES_CPU_MEMORY,                                    \
        .initialize = fake_initialize,                                        \
        .device_count = fake_device_count,                                    \
        .device_describe = fake_describe,                                     \
        .context_create = fake_context_create,                                \
        .queue_create = NAME##_queue_create,                                  \
        .queue_destroy = fake_queue_destroy,                                  \
        .queue_native_handle = fake_native_handle,                            \
        .memory = &fake_memory,                                               \
        .compute = &ua_host_compute_ops,                                      \
        .memcpy = fake_memcpy,                                                \
        .memcpy_batch = fake_memcpy_batch,                                    \
        .memset = fake_memset,                                                \
        .queue_wait = fake_wait,                                              \
        .copy_strided = fake_copy_strided,                                    \
        .event_record = fake_event_record,                                    \
        .event_wait = fake_event_wait,                                        \
        .event_synchronize = fake_event_synchronize,                          \
        .event_destroy = fake_event_destroy,                                  \
        .dlpack_device = fake_dlpack_device,                                  \
        .dlpack_owns = fake_dlpack_owns,                                      \
        .peers = PEERS,                                                       \
    };
FAKE_OPS(twin, &twin_peers)
FAKE_OPS(solo, NULL)

/* The list this executable is built with. */
extern const ua_backend_ops ua_host_backend_ops;
static const ua_backend_ops *const list[] = {&ua_host_backend_ops, &twin_ops,
                                             &solo_ops};

const ua_backend_ops *const *
ua_backends_of_build(size_t *count)
{
    *count = sizeof(list) / sizeof(list[0]);
    return list;
}

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
    /* The rest is reached through the host. */
    direct = true;
    CHECK_STATUS(ua_device_peer_access(device("solo:gpu:0"),
                                       device("solo:gpu:1"), &direct),
                 UA_OK);
    CHECK(!direct);
    direct = true;
    CHECK_STATUS(ua_device_peer_access(t0, device("solo:gpu:1"), &direct),
                 UA_OK);
    CHECK(!direct);
    direct = true;
    CHECK_STATUS(ua_device_peer_access(device("host"), t1, &direct), UA_OK);
    CHECK(!direct);
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
    CHECK(strcmp(journal, "record on twin1; wait on twin0; memcpy "
                          "device<-device on twin0; record on twin0; wait on "
                          "twin1; ") == 0);

    /* The same, strided, run on device 1's queue through the host. */
    memset(ua_allocation_ptr(a), 3, 64);
    ptrdiff_t shape[1] = {8}, strides[1] = {1};
    ua_strided dst = {ua_allocation_ptr(b), strides, UA_FLOAT64};
    ua_strided src = {ua_allocation_ptr(a), strides, UA_FLOAT64};
    journal[0] = '\0';
    CHECK_STATUS(
        ua_queue_copy_strided(queue("twin:gpu:1"), 1, shape, &dst, &src),
        UA_OK);
    CHECK(holds(b, 3));
    CHECK(strcmp(journal, "record on twin0; wait on twin1; strided copy "
                          "device<-device on twin1; record on twin1; wait on "
                          "twin0; ") == 0);
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
    CHECK_STATUS(
        ua_queue_memcpy(q, ua_allocation_ptr(a), ua_allocation_ptr(b), 64),
        UA_OK);
    CHECK_STATUS(
        ua_queue_memcpy(q, ua_allocation_ptr(b), ua_allocation_ptr(h), 64),
        UA_OK);
    CHECK(holds(a, 4) && holds(b, 5));
    CHECK(strcmp(journal, "memcpy device<-shared on twin0; memcpy "
                          "shared<-device on twin0; ") == 0);
    ua_usm_free(a);
    ua_usm_free(b);
    ua_usm_free(h);
}

/* Copies within the queue's device go in one batch; one block of another
 * device's memory sends every block through ua_queue_memcpy, with its
 * events. */
static void
test_batched_copies_of_the_queues_device_go_in_one_call(void)
{
    ua_allocation *a = filled("twin:gpu:0", UA_USM_DEVICE, 1);
    ua_allocation *b = filled("twin:gpu:0", UA_USM_DEVICE, 2);
    ua_allocation *c = filled("twin:gpu:0", UA_USM_SHARED, 3);
    ua_allocation *p = filled("twin:gpu:1", UA_USM_DEVICE, 7);
    ua_queue *q = queue("twin:gpu:0");
    char *pa = ua_allocation_ptr(a);
    ua_copy_block local[2] = {{pa, ua_allocation_ptr(b), 32},
                              {pa + 32, ua_allocation_ptr(c), 32}};
    journal[0] = '\0';
    CHECK_STATUS(ua_queue_memcpy_batch(q, 2, local), UA_OK);
    CHECK(strcmp(journal, "batch of 2 on twin0; ") == 0);
    CHECK(pa[0] == 2 && pa[31] == 2 && pa[32] == 3 && pa[63] == 3);
    ua_copy_block mixed[2] = {{pa, ua_allocation_ptr(p), 32},
                              {pa + 32, ua_allocation_ptr(b), 32}};
    journal[0] = '\0';
    CHECK_STATUS(ua_queue_memcpy_batch(q, 2, mixed), UA_OK);
    CHECK(strstr(journal, "batch") == NULL);
    CHECK(strstr(journal, "record on twin1") != NULL);
    CHECK(pa[0] == 7 && pa[31] == 7 && pa[32] == 2 && pa[63] == 2);
    ua_usm_free(a);
    ua_usm_free(b);
    ua_usm_free(c);
    ua_usm_free(p);
}

/* Device memory of two backends: the source's queue copies into host
 * memory of its context, the destination's out of it, each waited for;
 * the queue the copy was issued on is waited for first (another backend's
 * events mean nothing to the source's). */
static void
test_copy_between_backends_is_relayed_through_host_memory(void)
{
    ua_allocation *t0 = filled("twin:gpu:0", UA_USM_DEVICE, 8);
    ua_allocation *s1 = filled("solo:gpu:1", UA_USM_DEVICE, 7);
    journal[0] = '\0';
    CHECK_STATUS(ua_queue_memcpy(queue("twin:gpu:0"), ua_allocation_ptr(t0),
                                 ua_allocation_ptr(s1), 64),
                 UA_OK);
    CHECK(holds(t0, 7));
    CHECK(strcmp(journal,
                 "sync twin0; memcpy host<-device on solo1; sync "
                 "solo1; memcpy device<-host on twin0; sync twin0; ") == 0);

    /* The other way, issued on the destination's queue. */
    memset(ua_allocation_ptr(t0), 9, 64);
    journal[0] = '\0';
    CHECK_STATUS(ua_copy_sync(queue("solo:gpu:1"), ua_allocation_ptr(s1),
                              ua_allocation_ptr(t0), 64),
                 UA_OK);
    CHECK(holds(s1, 9));
    CHECK(strcmp(journal, "sync solo1; memcpy host<-device on twin0; sync "
                          "twin0; memcpy device<-host on solo1; sync solo1; "
                          "sync solo1; ") == 0);
    /* The buffer went back to the source's pool: nothing is left in use. */
    ua_context *c = NULL;
    CHECK_STATUS(ua_device_default_context(device("twin:gpu:0"), &c), UA_OK);
    CHECK(ua_context_used_bytes(c, UA_USM_HOST) == 0);
    ua_usm_free(t0);
    ua_usm_free(s1);
}

/* Two devices of one backend that runs no copies between them: the same
 * relay, the first leg ordered after the issuing queue by an event. */
static void
test_copy_between_devices_without_a_route_is_relayed(void)
{
    ua_allocation *s0 = filled("solo:gpu:0", UA_USM_DEVICE, 6);
    ua_allocation *s1 = filled("solo:gpu:1", UA_USM_DEVICE, 7);
    journal[0] = '\0';
    CHECK_STATUS(ua_queue_memcpy(queue("solo:gpu:0"), ua_allocation_ptr(s0),
                                 ua_allocation_ptr(s1), 64),
                 UA_OK);
    CHECK(holds(s0, 7) && holds(s1, 7));
    CHECK(strcmp(journal,
                 "record on solo0; wait on solo1; memcpy host<-device "
                 "on solo1; sync solo1; memcpy device<-host on "
                 "solo0; sync solo0; ") == 0);
    ua_usm_free(s0);
    ua_usm_free(s1);
}

/* A 3 x 4 float64 source, transposed from a 4 x 3 allocation with a
 * broadcast column, cast into every other int32 of a 3 x 8 destination:
 * issued on a third backend's queue (the host's). */
static void
test_strided_casting_copy_on_a_third_backend_is_relayed(void)
{
    ua_allocation *s = NULL, *d = NULL;
    CHECK_STATUS(ua_usm_alloc(queue("solo:gpu:1"), UA_USM_DEVICE,
                              12 * sizeof(double), 0, &s),
                 UA_OK);
    CHECK_STATUS(ua_usm_alloc(queue("twin:gpu:0"), UA_USM_DEVICE,
                              24 * sizeof(int32_t), 0, &d),
                 UA_OK);
    double *sv = ua_allocation_ptr(s);
    int32_t *dv = ua_allocation_ptr(d);
    for (int i = 0; i < 12; i++) {
        sv[i] = i + 0.5;
    }
    memset(dv, 0, 24 * sizeof(int32_t));
    ptrdiff_t shape[2] = {3, 4}, sstrides[2] = {1, 3}, dstrides[2] = {8, 2};
    ua_strided dst = {(char *)dv, dstrides, UA_INT32};
    ua_strided src = {(char *)sv, sstrides, UA_FLOAT64};
    journal[0] = '\0';
    CHECK_STATUS(ua_queue_copy_strided(queue("host"), 2, shape, &dst, &src),
                 UA_OK);
    CHECK(strcmp(journal,
                 "strided copy host<-device on solo1; sync solo1; "
                 "strided copy device<-host on twin0; sync twin0; ") == 0);
    bool right = true;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 8; j++) {
            int32_t want = j % 2 == 0 ? (int32_t)(sv[i + 3 * (j / 2)]) : 0;
            right = right && dv[8 * i + j] == want;
        }
    }
    CHECK(right);

    /* A source that broadcasts along an axis: its row is relayed once. */
    ptrdiff_t row[2] = {0, 1};
    src.strides = row;
    CHECK_STATUS(
        ua_queue_copy_strided(queue("twin:gpu:0"), 2, shape, &dst, &src),
        UA_OK);
    right = true;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 4; j++) {
            right = right && dv[8 * i + 2 * j] == (int32_t)sv[j];
        }
    }
    CHECK(right);
    /* An empty shape copies nothing and runs nothing. */
    ptrdiff_t none[2] = {0, 4};
    journal[0] = '\0';
    CHECK_STATUS(
        ua_queue_copy_strided(queue("twin:gpu:0"), 2, none, &dst, &src),
        UA_OK);
    CHECK(journal[0] == '\0');
    ua_usm_free(s);
    ua_usm_free(d);
}

/* The host buffer cannot be had: a clear error, nothing run, nothing
 * changed. */
static void
test_relay_without_a_host_buffer_fails_cleanly(void)
{
    ua_allocation *t0 = filled("twin:gpu:0", UA_USM_DEVICE, 8);
    ua_allocation *s1 = filled("solo:gpu:1", UA_USM_DEVICE, 7);
    ua_context *c = NULL;
    CHECK_STATUS(ua_device_default_context(device("solo:gpu:1"), &c), UA_OK);
    ua_context_set_limit(c, UA_USM_HOST, 32);
    journal[0] = '\0';
    CHECK_STATUS(ua_queue_memcpy(queue("twin:gpu:0"), ua_allocation_ptr(t0),
                                 ua_allocation_ptr(s1), 64),
                 UA_ERR_ALLOC);
    CHECK(message_names("solo:gpu:1", "twin:gpu:0"));
    CHECK(strstr(ua_error_message(), "host buffer") != NULL);
    CHECK(strstr(ua_error_message(), "limit of 32 bytes") != NULL);
    CHECK(journal[0] == '\0');
    CHECK(holds(t0, 8) && holds(s1, 7));
    ua_context_set_limit(c, UA_USM_HOST, SIZE_MAX);
    ua_error_clear();
    ua_usm_free(t0);
    ua_usm_free(s1);
}

/* A device out of memory while the pool caches blocks of other sizes:
 * the pool gives them back and asks once more. */
static void
test_allocation_retried_after_the_cache_is_given_back(void)
{
    ua_queue *q = queue("solo:gpu:0");
    ua_context *c = ua_queue_context(q);
    ua_allocation *cached = NULL, *a = NULL;
    size_t before = ua_context_pooled_bytes(c);
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, 4096, 0, &cached), UA_OK);
    ua_usm_free(cached);
    CHECK(ua_context_pooled_bytes(c) == before + 4096);
    frees = 0;
    refusals = 1;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, 100000, 0, &a), UA_OK);
    CHECK(refusals == 0);
    CHECK(frees >= 1 && ua_context_pooled_bytes(c) == 0);
    CHECK(ua_context_used_bytes(c, UA_USM_DEVICE) >= 100000);
    ua_usm_free(a);
    ua_context_release_pool(c);
}

/* Still out of memory after the retry: the error names the provider's
 * words and what was given back, and nothing stays counted. */
static void
test_allocation_fails_when_the_retry_fails(void)
{
    ua_queue *q = queue("solo:gpu:0");
    ua_context *c = ua_queue_context(q);
    ua_allocation *cached = NULL, *a = NULL;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, 4096, 0, &cached), UA_OK);
    ua_usm_free(cached);
    size_t used = ua_context_used_bytes(c, UA_USM_DEVICE);
    refusals = 2;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, 100000, 0, &a), UA_ERR_ALLOC);
    CHECK(a == NULL && refusals == 0);
    CHECK(strstr(ua_error_message(), "the fake device is full") != NULL);
    CHECK(strstr(ua_error_message(), "after giving back the") != NULL);
    CHECK(ua_context_used_bytes(c, UA_USM_DEVICE) == used);
    CHECK(ua_context_pooled_bytes(c) == 0);
    ua_error_clear();
    /* Nothing cached: one refusal is the answer, as the driver gave it. */
    refusals = 2;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, 100000, 0, &a), UA_ERR_ALLOC);
    CHECK(refusals == 0);
    CHECK(strstr(ua_error_message(), "giving back") == NULL);
    refusals = 0;
    ua_error_clear();
}

int
main(void)
{
    CHECK(ua_device_count() == 5);
    test_peer_access();
    test_copy_between_peers_is_ordered_by_events();
    test_memory_of_the_queues_device_needs_no_event();
    test_batched_copies_of_the_queues_device_go_in_one_call();
    test_copy_between_backends_is_relayed_through_host_memory();
    test_copy_between_devices_without_a_route_is_relayed();
    test_strided_casting_copy_on_a_third_backend_is_relayed();
    test_relay_without_a_host_buffer_fails_cleanly();
    test_allocation_retried_after_the_cache_is_given_back();
    test_allocation_fails_when_the_retry_fails();
    return check_report("test_peers");
}
