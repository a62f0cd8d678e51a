/* The core refuses, with UA_ERR_VALUE naming the limit, every shape of
 * more than UA_MAXDIMS axes that its functions are handed or would
 * compose (indexing's result, the broadcast of elementwise operands),
 * where each would otherwise fill a plan of UA_MAXDIMS axes past its end;
 * shapes at the limit still work.  Functions that cannot fail (a reshape
 * into a view, strides like another layout's) stay within their arrays. */
#include <string.h>

#include "check.h"
#include "host_queue.h"
#include "core/compute/compute.h"
#include "core/compute/reduce.h"
#include "core/core.h"

#define OVER (UA_MAXDIMS + 1)

static ptrdiff_t ones[OVER + 2], zeros[OVER + 2];

/* The last error names the limit (and fn, where given). */
static bool
names_limit(const char *fn)
{
    const char *m = ua_error_message();
    bool ok = strstr(m, "at most 64 are supported") != NULL &&
              (fn == NULL || strncmp(m, fn, strlen(fn)) == 0);
    ua_error_clear();
    return ok;
}

static void
test_check_ndim(void)
{
    CHECK_STATUS(ua_layout_check_ndim("f", 0), UA_OK);
    CHECK_STATUS(ua_layout_check_ndim("f", UA_MAXDIMS), UA_OK);
    CHECK_STATUS(ua_layout_check_ndim("tensordot", 66), UA_ERR_VALUE);
    CHECK(strcmp(ua_error_message(),
                 "tensordot: the result would have 66 dimensions; at most 64 "
                 "are supported") == 0);
    CHECK_STATUS(ua_layout_check_ndim(NULL, OVER), UA_ERR_VALUE);
    CHECK(strncmp(ua_error_message(), "the result would have 65", 24) == 0);
    CHECK_STATUS(ua_layout_check_ndim("f", -1), UA_ERR_VALUE);
    CHECK(strstr(ua_error_message(), "-1 is not a number of dimensions"));
    CHECK_STATUS(ua_layout_check_ndim("f", 1LL << 40), UA_ERR_VALUE);
    ua_error_clear();
}

static void
test_layout(void)
{
    ptrdiff_t out[OVER];
    CHECK(!ua_layout_reshape(UA_MAXDIMS, ones, ones, OVER, ones, 'C', out));
    CHECK(!ua_layout_reshape(OVER, ones, ones, 1, ones, 'F', out));
    CHECK(
        ua_layout_reshape(UA_MAXDIMS, ones, ones, UA_MAXDIMS, ones, 'F', out));
    ua_layout_strides_like(OVER, ones, zeros, out);
    CHECK(out[0] == 1 && out[OVER - 1] == 1);
}

static void
test_copies(ua_queue *q)
{
    double a = 1, b = 2;
    ua_strided dst = {(char *)&a, zeros, UA_FLOAT64};
    ua_strided src = {(char *)&b, zeros, UA_FLOAT64};
    CHECK_STATUS(ua_copy_strided_host(OVER, ones, &dst, &src), UA_ERR_VALUE);
    CHECK(names_limit("copy: "));
    CHECK_STATUS(ua_queue_copy_strided(q, OVER, ones, &dst, &src),
                 UA_ERR_VALUE);
    CHECK(names_limit("copy: "));
    CHECK(a == 1);
    CHECK_STATUS(ua_queue_copy_strided(q, UA_MAXDIMS, ones, &dst, &src),
                 UA_OK);
    CHECK(ua_queue_wait(q) == UA_OK && a == 2);
}

/* An index of `bnd` axes into axis 0 of an array of nd axes of length 1. */
static ua_index_request
request(int nd, int bnd, const int *axes, const ua_strided *index, double *x)
{
    return (ua_index_request){(char *)x, nd,    ones, zeros, 8, 1,
                              axes,      index, bnd,  ones,  0};
}

static void
test_indexing(ua_queue *q)
{
    double x = 5, out = 0;
    int64_t i0 = 0;
    int axes[1] = {0}, nd;
    ptrdiff_t shape[UA_MAXDIMS];
    ua_strided index = {(char *)&i0, zeros, UA_INT64};
    ua_strided result = {(char *)&out, zeros, UA_FLOAT64};
    ua_index_request r = request(UA_MAXDIMS, 2, axes, &index, &x);
    CHECK_STATUS(ua_index_result_shape(&r, &nd, shape), UA_ERR_VALUE);
    CHECK(names_limit("indexing: the result would have 65"));
    CHECK_STATUS(ua_queue_gather(q, &r, &result), UA_ERR_VALUE);
    CHECK(names_limit("indexing: "));
    CHECK_STATUS(ua_queue_scatter(q, &r, &result), UA_ERR_VALUE);
    CHECK(names_limit("indexing: "));
    r = request(1, OVER, axes, &index, &x); /* the broadcast shape alone */
    CHECK_STATUS(ua_index_result_shape(&r, &nd, shape), UA_ERR_VALUE);
    CHECK(names_limit("indexing: "));
    r = request(OVER, 1, axes, &index, &x);
    CHECK_STATUS(ua_index_result_shape(&r, &nd, shape), UA_ERR_VALUE);
    CHECK(names_limit("indexing: "));
    r = request(1, 1, axes, &index, &x);
    r.count = 2; /* more index arrays than axes */
    CHECK_STATUS(ua_index_result_shape(&r, &nd, shape), UA_ERR_VALUE);
    ua_error_clear();
    r = request(UA_MAXDIMS, 1, axes, &index, &x);
    CHECK_STATUS(ua_index_result_shape(&r, &nd, shape), UA_OK);
    CHECK(nd == UA_MAXDIMS);
    CHECK_STATUS(ua_queue_gather(q, &r, &result), UA_OK);
    CHECK(ua_queue_wait(q) == UA_OK && out == 5);
    ua_strided xa = {(char *)&x, zeros, UA_FLOAT64};
    CHECK_STATUS(
        ua_queue_take_along_axis(q, OVER, ones, &xa, 0, 1, 0, &index, &result),
        UA_ERR_VALUE);
    CHECK(names_limit("take_along_axis: "));
}

static ua_ew_operand
operand(int nd, double *data)
{
    ua_ew_operand o;
    memset(&o, 0, sizeof o);
    o.data = (char *)data;
    o.nd = nd;
    o.shape = ones;
    o.strides = zeros;
    o.type = UA_FLOAT64;
    return o;
}

static void
test_elementwise(ua_queue *q)
{
    double a = 1, b = 2, out = 0;
    ua_default_dtypes d = ua_default_dtypes_for(true);
    ua_ew_operand ops[2] = {operand(3, &a), operand(OVER, &b)};
    ua_ew_resolved r;
    CHECK_STATUS(ua_elementwise_resolve(UA_EW_add, 2, ops, &d, &r),
                 UA_ERR_VALUE);
    CHECK(names_limit("add: the result would have 65"));
    ops[1] = operand(UA_MAXDIMS, &b);
    CHECK_STATUS(ua_elementwise_resolve(UA_EW_add, 2, ops, &d, &r), UA_OK);
    CHECK(r.nd == UA_MAXDIMS);
    ua_strided o = {(char *)&out, zeros, UA_FLOAT64};
    CHECK_STATUS(ua_queue_elementwise(q, &r, ops, &o), UA_OK);
    CHECK(ua_queue_wait(q) == UA_OK && out == 3);
    r.nd = OVER; /* a resolution the caller filled in itself */
    CHECK_STATUS(ua_queue_elementwise(q, &r, ops, &o), UA_ERR_VALUE);
    CHECK(names_limit("add: "));
}

static void
test_reductions(ua_queue *q)
{
    double x = 1, out = 0;
    ua_strided xs = {(char *)&x, zeros, UA_FLOAT64};
    ua_strided rs = {(char *)&out, zeros, UA_FLOAT64};
    ua_reduce_request r = {UA_REDUCE_SUM, OVER, ones, xs, 1, rs, 0.0};
    CHECK_STATUS(ua_queue_reduce(q, &r), UA_ERR_VALUE);
    CHECK(names_limit("reduction: "));
    r.nd = UA_MAXDIMS;
    CHECK_STATUS(ua_queue_reduce(q, &r), UA_OK);
    CHECK(ua_queue_wait(q) == UA_OK && out == 1);
    CHECK_STATUS(ua_queue_scan(q, UA_SCAN_CUMSUM, OVER, ones, &xs, 0, 0, &rs),
                 UA_ERR_VALUE);
    CHECK(names_limit("scan: "));
    CHECK_STATUS(ua_queue_sort(q, OVER, ones, &xs, 0, false, false, &rs),
                 UA_ERR_VALUE);
    CHECK(names_limit("sort: "));
    ua_matmul_plan p;
    memset(&p, 0, sizeof p);
    p.nd = OVER;
    p.m = p.n = p.k = 1;
    CHECK_STATUS(ua_queue_matmul(q, &p), UA_ERR_VALUE);
    CHECK(names_limit("matmul: "));
}

int
main(void)
{
    for (int k = 0; k < OVER + 2; k++) {
        ones[k] = 1;
    }
    ua_queue *q = host_queue();
    test_check_ndim();
    test_layout();
    test_copies(q);
    test_indexing(q);
    test_elementwise(q);
    test_reductions(q);
    return check_report("test_shape_limits");
}
