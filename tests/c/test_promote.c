/* Type promotion: the standard's table inside a kind, NumPy 2's across
 * kinds, weak Python scalars, and safe casting. */
#include "check.h"
#include "core/compute/promote.h"

static void
test_promotion_is_symmetric_and_idempotent(void)
{
    for (int i = 0; i < UA_NTYPES; i++) {
        ua_typenum a = ua_dtype_at(i);
        CHECK(ua_promote(a, a) == a);
        CHECK(ua_promote(a, UA_BOOL) == a);
        for (int j = 0; j < UA_NTYPES; j++) {
            ua_typenum b = ua_dtype_at(j);
            CHECK(ua_promote(a, b) == ua_promote(b, a));
            /* The result holds both: each casts to it safely. */
            CHECK(ua_can_cast(a, ua_promote(a, b)));
        }
    }
}

static void
test_promotion_follows_the_standard_and_numpy(void)
{
    CHECK(ua_promote(UA_INT8, UA_INT32) == UA_INT32);
    CHECK(ua_promote(UA_UINT8, UA_INT8) == UA_INT16);
    CHECK(ua_promote(UA_UINT32, UA_INT32) == UA_INT64);
    CHECK(ua_promote(UA_UINT16, UA_INT32) == UA_INT32);
    CHECK(ua_promote(UA_UINT64, UA_INT64) == UA_FLOAT64);
    CHECK(ua_promote(UA_FLOAT32, UA_FLOAT64) == UA_FLOAT64);
    CHECK(ua_promote(UA_FLOAT32, UA_COMPLEX64) == UA_COMPLEX64);
    CHECK(ua_promote(UA_FLOAT64, UA_COMPLEX64) == UA_COMPLEX128);
    CHECK(ua_promote(UA_INT16, UA_FLOAT16) == UA_FLOAT32);
    CHECK(ua_promote(UA_UINT8, UA_FLOAT16) == UA_FLOAT16);
    CHECK(ua_promote(UA_INT32, UA_FLOAT32) == UA_FLOAT64);
    CHECK(ua_promote(UA_INT64, UA_COMPLEX64) == UA_COMPLEX128);
}

static void
test_scalars_promote_weakly(void)
{
    ua_default_dtypes d = ua_default_dtypes_for(true);
    ua_default_dtypes single = ua_default_dtypes_for(false);
    CHECK(ua_promote_scalar(UA_INT8, UA_SCALAR_INT, &d) == UA_INT8);
    CHECK(ua_promote_scalar(UA_BOOL, UA_SCALAR_INT, &d) == UA_INT64);
    CHECK(ua_promote_scalar(UA_INT8, UA_SCALAR_FLOAT, &d) == UA_FLOAT64);
    CHECK(ua_promote_scalar(UA_INT8, UA_SCALAR_FLOAT, &single) == UA_FLOAT32);
    CHECK(ua_promote_scalar(UA_FLOAT16, UA_SCALAR_FLOAT, &d) == UA_FLOAT16);
    CHECK(ua_promote_scalar(UA_FLOAT32, UA_SCALAR_COMPLEX, &d) ==
          UA_COMPLEX64);
    CHECK(ua_promote_scalar(UA_FLOAT64, UA_SCALAR_COMPLEX, &d) ==
          UA_COMPLEX128);
    CHECK(ua_promote_scalar(UA_UINT8, UA_SCALAR_COMPLEX, &single) ==
          UA_COMPLEX64);
    CHECK(ua_promote_scalar(UA_UINT64, UA_SCALAR_BOOL, &d) == UA_UINT64);
}

static uint32_t
set_of(ua_typenum a, ua_typenum b, ua_typenum c)
{
    return 1u << ua_dtype_index(a) | 1u << ua_dtype_index(b) |
           1u << ua_dtype_index(c);
}

/* Several dtypes promote together, not pair by pair. */
static void
test_sets_promote_as_numpy_does(void)
{
    CHECK(ua_promote_set(set_of(UA_INT8, UA_UINT8, UA_FLOAT16)) == UA_FLOAT16);
    CHECK(ua_promote_set(set_of(UA_INT8, UA_INT8, UA_UINT8)) == UA_INT16);
    CHECK(ua_promote_set(set_of(UA_UINT64, UA_INT8, UA_BOOL)) == UA_FLOAT64);
    for (int i = 0; i < UA_NTYPES; i++) {
        for (int j = 0; j < UA_NTYPES; j++) {
            ua_typenum a = ua_dtype_at(i), b = ua_dtype_at(j);
            CHECK(ua_promote_set(set_of(a, b, b)) == ua_promote(a, b));
        }
    }
}

static void
test_safe_casts(void)
{
    CHECK(ua_can_cast(UA_BOOL, UA_FLOAT16));
    CHECK(ua_can_cast(UA_INT64, UA_FLOAT64));
    CHECK(!ua_can_cast(UA_INT32, UA_FLOAT32));
    CHECK(!ua_can_cast(UA_UINT64, UA_INT64));
    CHECK(!ua_can_cast(UA_INT8, UA_UINT64));
    CHECK(!ua_can_cast(UA_FLOAT64, UA_COMPLEX64));
    CHECK(!ua_can_cast(UA_INT8, UA_BOOL));
}

int
main(void)
{
    test_promotion_is_symmetric_and_idempotent();
    test_promotion_follows_the_standard_and_numpy();
    test_scalars_promote_weakly();
    test_sets_promote_as_numpy_does();
    test_safe_casts();
    return check_report("test_promote");
}
