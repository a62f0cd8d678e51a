#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/backend.h"
#include "core/base/environ.h" /* ua_env_watch */
#include "core/core.h"

static ua_device *
select_ok(const char *filter)
{
    ua_device *d = NULL;
    CHECK_STATUS(ua_device_select(filter, &d), UA_OK);
    return d;
}

static void
test_host_device(void)
{
    CHECK(ua_device_count() >= 1);
    ua_device *host = ua_device_at(0);
    CHECK(host != NULL);
    CHECK(strcmp(ua_device_filter_string(host), "host:cpu:0") == 0);
    CHECK(ua_device_get_type(host) == UA_DEVICE_CPU);
    CHECK(strcmp(ua_backend_name(ua_device_backend(host)), "host") == 0);
    CHECK(strlen(ua_device_name(host)) > 0);
    CHECK(ua_device_at(ua_device_count()) == NULL);
}

static void
test_filters(void)
{
    ua_device *host = ua_device_at(0);
    const char *good[] = {"host",   "cpu",   "host:cpu", "host:cpu:0",
                          "host:0", "cpu:0", "0",        "HOST:CPU:0"};
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        CHECK(select_ok(good[i]) == host);
    }
    const char *bad[] = {"",           "host:",  ":cpu",         "host::0",
                         "cpu:host",   "0:host", "host:cpu:0:0", "banana",
                         "host:cpu:1", "-1",     "999",          "host:gpu"};
    ua_device *d;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        CHECK_STATUS(ua_device_select(bad[i], &d), UA_ERR_VALUE);
    }
    /* The message names the filter and the devices that exist. */
    ua_device_select("host:cpu:7", &d);
    CHECK(strstr(ua_error_message(), "host:cpu:7") != NULL);
    CHECK(strstr(ua_error_message(), "host:cpu:0") != NULL);
}

static void
test_default_device(void)
{
    ua_device *d;
    unsetenv("USMARRAY_DEVICE");
    CHECK_STATUS(ua_device_default(&d), UA_OK);
    setenv("USMARRAY_DEVICE", "host:cpu:0", 1);
    CHECK_STATUS(ua_device_default(&d), UA_OK);
    CHECK(d == ua_device_at(0));
    setenv("USMARRAY_DEVICE", "nonsense", 1);
    CHECK_STATUS(ua_device_default(&d), UA_ERR_VALUE);
    CHECK(strstr(ua_error_message(), "USMARRAY_DEVICE") != NULL);
    unsetenv("USMARRAY_DEVICE");
}

static void
test_contexts_and_queues_are_cached(void)
{
    ua_device *d = ua_device_at(0);
    ua_context *c1, *c2;
    ua_queue *q1, *q2;
    CHECK_STATUS(ua_device_default_context(d, &c1), UA_OK);
    CHECK_STATUS(ua_device_default_context(d, &c2), UA_OK);
    CHECK(c1 == c2 && ua_context_device(c1) == d);
    CHECK_STATUS(ua_context_default_queue(c1, &q1), UA_OK);
    CHECK_STATUS(ua_context_default_queue(c1, &q2), UA_OK);
    CHECK(q1 == q2 && ua_queue_context(q1) == c1 && ua_queue_device(q1) == d);
    CHECK_STATUS(ua_queue_wait(q1), UA_OK);
}

/* A queue made anew is another queue than the default one; once it is
 * destroyed, pooled blocks it last used serve the default queue (under
 * ASan, a block still naming the freed queue would be a use after free). */
static void
test_new_queues_and_their_pooled_blocks(void)
{
    ua_device *d = ua_device_at(0);
    ua_context *c;
    ua_queue *dflt, *q = NULL;
    CHECK_STATUS(ua_device_default_context(d, &c), UA_OK);
    CHECK_STATUS(ua_context_default_queue(c, &dflt), UA_OK);
    ua_queue_props props = {.in_order = false};
    CHECK_STATUS(ua_queue_create(c, &props, &q), UA_OK);
    CHECK(q != NULL && q != dflt && ua_queue_context(q) == c);
    CHECK(!ua_queue_is_default(q) && ua_queue_is_default(dflt));
    int p = 7;
    CHECK(!ua_queue_priority(q, &p));
    ua_allocation *a;
    CHECK_STATUS(ua_usm_alloc(q, UA_USM_DEVICE, 1000, 0, &a), UA_OK);
    void *ptr = ua_allocation_ptr(a);
    ua_usm_free(a);
    ua_queue_destroy(q);
    CHECK_STATUS(ua_usm_alloc(dflt, UA_USM_DEVICE, 1000, 0, &a), UA_OK);
    CHECK(ua_allocation_ptr(a) == ptr); /* the pooled block, reused */
    ua_usm_free(a);
    ua_queue_destroy(dflt); /* does nothing to a default queue */
    CHECK_STATUS(ua_queue_wait(dflt), UA_OK);
    /* The host backend has neither priorities nor streams. */
    props.has_priority = true;
    CHECK_STATUS(ua_queue_create(c, &props, &q), UA_ERR_VALUE);
    CHECK(strstr(ua_error_message(), "no priorities") != NULL);
    CHECK_STATUS(ua_queue_wrap_stream(c, 1, &q), UA_ERR_VALUE);
    CHECK(strstr(ua_error_message(), "no streams") != NULL);
    ua_error_clear();
}

static void
test_backends(void)
{
    CHECK(ua_backend_count() >= 1);
    ua_backend *b = ua_backend_at(0);
    CHECK(ua_backend_available(b));
    CHECK(ua_backend_device_count(b) == 1);
    CHECK(ua_backend_at(ua_backend_count()) == NULL);
}

static void
test_device_info(void)
{
    ua_device_info info;
    memset(&info, 0x5a, sizeof(info));
    CHECK_STATUS(ua_device_get_info(ua_device_at(0), &info), UA_OK);
    CHECK(info.global_mem_bytes > 0);
    CHECK(info.compute_units > 0);
    CHECK(strlen(info.architecture) > 0);
    CHECK(strncmp(info.driver_version, "Linux ", 6) == 0);
    /* Every string is terminated, whatever the backend filled. */
    CHECK(memchr(info.vendor, 0, sizeof(info.vendor)) != NULL);
    CHECK(memchr(info.runtime_version, 0, sizeof(info.runtime_version)) !=
          NULL);
}

static void
test_capabilities_and_foreign_handles(void)
{
    ua_backend *host = ua_device_backend(ua_device_at(0));
    CHECK(ua_backend_caps(host) & UA_CAP_CPU_MEMORY);
    CHECK(!(ua_backend_caps(host) & UA_CAP_CUDA_ARRAY_INTERFACE));
    CHECK(ua_backend_stream_rule(host) == UA_STREAMS_NONE);
    /* A name no backend defines is refused, naming it. */
    ua_queue *q = NULL;
    int token = 0;
    CHECK_STATUS(ua_queue_adopt("NotAHandle", &token, &q), UA_ERR_TYPE);
    CHECK(strstr(ua_error_message(), "'NotAHandle'") != NULL);
    CHECK(q == NULL);
    ua_error_clear();
}

/* The watch of USMARRAY_DEVICE sees every way the environment changes:
 * an append, a replaced value, a value changed in place, a removal, and a
 * variable put where a removed one's entry was, at the same address. */
static void
test_environment_watch(void)
{
    ua_env_watch w = {0};
    const char *v = NULL;
    unsetenv("UA_TEST_WATCHED");
    CHECK(ua_env_changed(&w, "UA_TEST_WATCHED", &v) && v == NULL);
    CHECK(!ua_env_changed(&w, "UA_TEST_WATCHED", &v));
    setenv("UA_TEST_WATCHED", "a", 1);
    CHECK(ua_env_changed(&w, "UA_TEST_WATCHED", &v) && strcmp(v, "a") == 0);
    CHECK(!ua_env_changed(&w, "UA_TEST_WATCHED", &v));
    setenv("UA_TEST_OTHER", "x", 1); /* another variable appended */
    CHECK(ua_env_changed(&w, "UA_TEST_WATCHED", &v) && strcmp(v, "a") == 0);
    setenv("UA_TEST_WATCHED", "b", 1);
    CHECK(ua_env_changed(&w, "UA_TEST_WATCHED", &v) && strcmp(v, "b") == 0);
    static char entry[64] = "UA_TEST_WATCHED=c";
    putenv(entry);
    CHECK(ua_env_changed(&w, "UA_TEST_WATCHED", &v) && strcmp(v, "c") == 0);
    entry[16] = 'd'; /* putenv's string is the entry itself */
    CHECK(ua_env_changed(&w, "UA_TEST_WATCHED", &v) && strcmp(v, "d") == 0);
    unsetenv("UA_TEST_WATCHED");
    CHECK(ua_env_changed(&w, "UA_TEST_WATCHED", &v) && v == NULL);
    unsetenv("UA_TEST_OTHER");
    CHECK(ua_env_changed(&w, "UA_TEST_WATCHED", &v) && v == NULL);
    /* The last entry removed, and the watched variable appended in its
     * place with the same string address: the same array of pointers. */
    static char last[64] = "UA_TEST_LAST=1";
    putenv(last);
    CHECK(ua_env_changed(&w, "UA_TEST_WATCHED", &v) && v == NULL);
    unsetenv("UA_TEST_LAST");
    strcpy(last, "UA_TEST_WATCHED=e");
    putenv(last);
    CHECK(ua_env_changed(&w, "UA_TEST_WATCHED", &v) && strcmp(v, "e") == 0);
    CHECK(!ua_env_changed(&w, "UA_TEST_WATCHED", &v));
    ua_env_forget(&w);
    CHECK(ua_env_changed(&w, "UA_TEST_WATCHED", &v) && strcmp(v, "e") == 0);
    unsetenv("UA_TEST_WATCHED");
}

int
main(void)
{
    test_host_device();
    test_filters();
    test_default_device();
    test_environment_watch();
    test_contexts_and_queues_are_cached();
    test_new_queues_and_their_pooled_blocks();
    test_backends();
    test_device_info();
    test_capabilities_and_foreign_handles();
    return check_report("test_devices");
}
