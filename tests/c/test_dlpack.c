/* The core's DLPack helpers: dtype and device mapping, and validation of
 * tensors as a consumer reads them. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "core/core.h"
#include "core/dlpack.h"

static void
test_dtypes(void)
{
    for (int i = 0; i < UA_NTYPES; i++) {
        ua_typenum t = ua_dtype_at(i), back;
        ua_dl_dtype d = ua_dlpack_dtype(t);
        CHECK(d.lanes == 1 && d.bits == 8 * ua_dtype_itemsize(t));
        CHECK_STATUS(ua_dlpack_dtype_to_typenum(d, &back), UA_OK);
        CHECK(back == t);
    }
    ua_typenum t;
    CHECK(ua_dlpack_dtype(UA_BOOL).code == UA_DL_BOOL);
    CHECK(ua_dlpack_dtype(UA_COMPLEX64).code == UA_DL_COMPLEX);
    CHECK_STATUS(
        ua_dlpack_dtype_to_typenum((ua_dl_dtype){UA_DL_BFLOAT, 16, 1}, &t),
        UA_ERR_BUFFER);
    CHECK(strstr(ua_error_message(), "bfloat16") != NULL);
    CHECK_STATUS(
        ua_dlpack_dtype_to_typenum((ua_dl_dtype){UA_DL_FLOAT, 32, 4}, &t),
        UA_ERR_BUFFER);
    CHECK(strstr(ua_error_message(), "4 lanes") != NULL);
    CHECK_STATUS(
        ua_dlpack_dtype_to_typenum((ua_dl_dtype){UA_DL_INT, 128, 1}, &t),
        UA_ERR_BUFFER);
    CHECK_STATUS(
        ua_dlpack_dtype_to_typenum((ua_dl_dtype){UA_DL_FLOAT, 8, 1}, &t),
        UA_ERR_BUFFER);
    ua_error_clear();
}

static void
test_devices(void)
{
    ua_device *d, *host;
    ua_usm_kind kind;
    CHECK_STATUS(ua_device_select("host", &host), UA_OK);
    for (int k = UA_USM_DEVICE; k <= UA_USM_HOST; k++) {
        ua_dl_device dl = ua_dlpack_device(host, (ua_usm_kind)k);
        CHECK(dl.device_type == UA_DL_CPU && dl.device_id == 0);
    }
    CHECK_STATUS(
        ua_dlpack_find_device((ua_dl_device){UA_DL_CPU, 0}, &d, &kind), UA_OK);
    CHECK(d == host && kind == UA_USM_HOST);
    CHECK_STATUS(
        ua_dlpack_find_device((ua_dl_device){UA_DL_OPENCL, 0}, &d, &kind),
        UA_ERR_BUFFER);
    CHECK_STATUS(
        ua_dlpack_find_device((ua_dl_device){UA_DL_CUDA, 1000}, &d, &kind),
        UA_ERR_BUFFER);
    CHECK(strstr(ua_error_message(), "(2, 1000)") != NULL);
    ua_error_clear();
}

static ua_dl_tensor
tensor(double *data, int32_t nd, int64_t *shape, int64_t *strides)
{
    return (ua_dl_tensor){.data = data,
                          .device = {UA_DL_CPU, 0},
                          .ndim = nd,
                          .dtype = {UA_DL_FLOAT, 64, 1},
                          .shape = shape,
                          .strides = strides};
}

static void
test_read(void)
{
    double data[12];
    int64_t shape[2] = {3, 4}, strides[2] = {-4, 1};
    ua_dlpack_view v;
    ua_dl_tensor t = tensor(data + 8, 2, shape, strides);
    CHECK_STATUS(ua_dlpack_read(&t, &v), UA_OK);
    CHECK(v.nd == 2 && v.type == UA_FLOAT64 && v.ptr == (uintptr_t)(data + 8));
    CHECK(v.begin == -64 && v.end == 32);
    /* NULL strides: C order. */
    t.strides = NULL;
    t.data = data;
    t.byte_offset = 8;
    shape[1] = 3;
    CHECK_STATUS(ua_dlpack_read(&t, &v), UA_OK);
    CHECK(v.strides[0] == 3 && v.strides[1] == 1);
    CHECK(v.ptr == (uintptr_t)(data + 1));
    /* 0-d: no shape needed. */
    t = tensor(data, 0, NULL, NULL);
    CHECK_STATUS(ua_dlpack_read(&t, &v), UA_OK);
    CHECK(v.nd == 0 && v.end - v.begin == 8);
    /* Bad ones. */
    int64_t neg[2] = {2, -1}, huge[2] = {INT64_MAX, 2};
    t = tensor(data, -1, shape, NULL);
    CHECK_STATUS(ua_dlpack_read(&t, &v), UA_ERR_BUFFER);
    t = tensor(data, UA_MAXDIMS + 1, shape, NULL);
    CHECK_STATUS(ua_dlpack_read(&t, &v), UA_ERR_BUFFER);
    t = tensor(data, 2, NULL, NULL);
    CHECK_STATUS(ua_dlpack_read(&t, &v), UA_ERR_BUFFER);
    t = tensor(data, 2, neg, NULL);
    CHECK_STATUS(ua_dlpack_read(&t, &v), UA_ERR_BUFFER);
    t = tensor(data, 2, huge, NULL);
    CHECK_STATUS(ua_dlpack_read(&t, &v), UA_ERR_BUFFER);
    t = tensor(NULL, 2, shape, NULL);
    CHECK_STATUS(ua_dlpack_read(&t, &v), UA_ERR_BUFFER);
    t = tensor(data, 2, shape, NULL);
    t.byte_offset = UINT64_MAX;
    CHECK_STATUS(ua_dlpack_read(&t, &v), UA_ERR_BUFFER);
    int64_t far[2] = {INT64_MAX / 2, 1};
    t = tensor(data, 2, shape, far);
    CHECK_STATUS(ua_dlpack_read(&t, &v), UA_ERR_BUFFER);
    /* Zero size with a NULL pointer is fine: nothing is reached. */
    int64_t empty[2] = {0, 5};
    t = tensor(NULL, 2, empty, NULL);
    CHECK_STATUS(ua_dlpack_read(&t, &v), UA_OK);
    ua_error_clear();
}

int
main(void)
{
    test_dtypes();
    test_devices();
    test_read();
    return check_report("test_dlpack");
}
