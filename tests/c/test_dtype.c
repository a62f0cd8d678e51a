#include <string.h>

#include "check.h"
#include "core/core.h"

static ua_status
parse(const char *s, ua_typenum *t)
{
    return ua_dtype_from_typestr(s, strlen(s), t);
}

static void
test_every_type_round_trips(void)
{
    for (int i = 0; i < UA_NTYPES; i++) {
        ua_typenum t = ua_dtype_at(i), back;
        const char *ts = ua_dtype_typestr(t);
        CHECK(ua_typenum_is_valid((int)t));
        CHECK_STATUS(parse(ts, &back), UA_OK);
        CHECK(back == t);
        CHECK_STATUS(
            ua_dtype_from_buffer_format(ua_dtype_buffer_format(t), &back),
            UA_OK);
        CHECK(back == t);
        CHECK((size_t)(ts[strlen(ts) - 1] - '0') ==
                  ua_dtype_itemsize(t) % 10 ||
              ua_dtype_itemsize(t) == 16);
    }
}

static void
test_numpy_type_numbers(void)
{
    CHECK(UA_BOOL == 0 && UA_INT64 == 7 && UA_FLOAT64 == 12);
    CHECK(UA_FLOAT16 == 23 && UA_COMPLEX128 == 15);
    CHECK(!ua_typenum_is_valid(13)); /* long double */
    CHECK(!ua_typenum_is_valid(-1));
}

static void
test_typestr_forms(void)
{
    ua_typenum t;
    CHECK_STATUS(parse("<f8", &t), UA_OK);
    CHECK(t == UA_FLOAT64);
    CHECK_STATUS(parse("=i4", &t), UA_OK);
    CHECK(t == UA_INT32);
    CHECK_STATUS(parse("f4", &t), UA_OK);
    CHECK(t == UA_FLOAT32);
    CHECK_STATUS(parse("|b1", &t), UA_OK);
    CHECK(t == UA_BOOL);
    CHECK_STATUS(parse(">u1", &t), UA_OK); /* byte order moot for 1 byte */
    CHECK(t == UA_UINT8);
    CHECK_STATUS(parse("|f8", &t), UA_OK); /* the document's default */
    CHECK(t == UA_FLOAT64);
    CHECK_STATUS(parse("<c16", &t), UA_OK);
    CHECK(t == UA_COMPLEX128);
}

static void
test_typestr_rejects(void)
{
    ua_typenum t;
    const char *bad[] = {"",     "<",    "<f",   "<f3",  ">f8",   "<x8",
                         "<f16", "<i16", "<c4",  "<f8x", "<f008", "<O8",
                         "<U4",  "<M8",  "|V16", "f-8",  "<b2"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        CHECK_STATUS(parse(bad[i], &t), UA_ERR_VALUE);
        CHECK(strlen(ua_error_message()) > 10);
    }
    CHECK_STATUS(ua_dtype_from_buffer_format("g", &t), UA_ERR_VALUE);
    CHECK_STATUS(ua_dtype_from_buffer_format(">d", &t), UA_ERR_VALUE);
}

int
main(void)
{
    test_every_type_round_trips();
    test_numpy_type_numbers();
    test_typestr_forms();
    test_typestr_rejects();
    return check_report("test_dtype");
}
