/* The iteration planner: broadcasting, dropped and merged axes, the order
 * of the axes, reduced axes kept apart, empty and 0-d shapes, 64 axes,
 * overflow and the 32-bit check, and the layout of order 'K'. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "core/layout/iter_plan.h"

static ua_iter_operand
operand(ua_iter_role role, int nd, const ptrdiff_t *shape,
        const ptrdiff_t *strides, ptrdiff_t itemsize)
{
    return (ua_iter_operand){role, nd, shape, strides, itemsize};
}

static void
test_broadcast(void)
{
    ptrdiff_t a[] = {3, 1}, b[] = {4}, shape[UA_MAXDIMS];
    ptrdiff_t sa[] = {1, 0}, sb[] = {1};
    int nd = -1;
    ua_iter_operand ops[] = {operand(UA_ITER_INPUT, 2, a, sa, 8),
                             operand(UA_ITER_INPUT, 1, b, sb, 4),
                             operand(UA_ITER_INPUT, 0, NULL, NULL, 8)};
    CHECK_STATUS(ua_iter_broadcast("f", 3, ops, &nd, shape), UA_OK);
    CHECK(nd == 2 && shape[0] == 3 && shape[1] == 4);
    ptrdiff_t c[] = {5};
    ops[1].shape = c;
    CHECK_STATUS(ua_iter_broadcast("f", 2, ops, &nd, shape), UA_OK);
    ptrdiff_t d[] = {2, 5};
    ops[0].shape = d;
    ops[1].shape = b;
    CHECK_STATUS(ua_iter_broadcast("f", 2, ops, &nd, shape), UA_ERR_VALUE);
    CHECK(strstr(ua_error_message(), "f(): operands could not be broadcast") !=
          NULL);
    CHECK(strstr(ua_error_message(), "length 5 in one and 4 in operand 1") !=
          NULL);

    /* The broadcast operand steps 0 along the axis it does not have. */
    ptrdiff_t out_shape[] = {3, 4}, so[] = {4, 1};
    ua_iter_operand three[] = {operand(UA_ITER_OUTPUT, 2, out_shape, so, 8),
                               operand(UA_ITER_INPUT, 2, a, sa, 8),
                               operand(UA_ITER_INPUT, 1, b, sb, 4)};
    ua_iter_plan p;
    CHECK_STATUS(ua_iter_plan_make("f", 3, three, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.nd == 2 && p.size == 12 && p.count == 1 && p.nreduced == 0);
    CHECK(p.steps[0][0] == 32 && p.steps[0][1] == 8);
    CHECK(p.steps[1][0] == 8 && p.steps[1][1] == 0);
    CHECK(p.steps[2][0] == 0 && p.steps[2][1] == 4);
    /* An output that would itself broadcast is refused. */
    ptrdiff_t small[] = {1, 4};
    three[0].shape = small;
    CHECK_STATUS(ua_iter_plan_make("g", 3, three, 0, UA_ITER_BY_STEPS, &p),
                 UA_ERR_VALUE);
    CHECK(strstr(ua_error_message(), "g(): operand 0, written") != NULL);
}

static void
test_unit_axes_and_merging(void)
{
    /* (2, 1, 3, 4) in C order: one axis of 24 elements. */
    ptrdiff_t shape[] = {2, 1, 3, 4}, c[] = {12, 99, 4, 1};
    ua_iter_operand ops[] = {operand(UA_ITER_OUTPUT, 4, shape, c, 4),
                             operand(UA_ITER_INPUT, 4, shape, c, 2)};
    ua_iter_plan p;
    CHECK_STATUS(ua_iter_plan_make("f", 2, ops, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.nd == 1 && p.shape[0] == 24 && p.size == 24);
    CHECK(p.steps[0][0] == 4 && p.steps[1][0] == 2);
    /* A sliced input walks the last axis apart from the others. */
    ptrdiff_t sliced[] = {24, 99, 8, 1};
    ops[1].strides = sliced;
    CHECK_STATUS(ua_iter_plan_make("f", 2, ops, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.nd == 2 && p.shape[0] == 6 && p.shape[1] == 4);
    CHECK(p.steps[1][0] == 16 && p.steps[1][1] == 2);
    /* Every axis of length 1: no axis, one element. */
    ptrdiff_t ones[] = {1, 1, 1}, any[] = {5, -7, 0};
    ua_iter_operand unit[] = {operand(UA_ITER_OUTPUT, 3, ones, any, 8)};
    CHECK_STATUS(ua_iter_plan_make("f", 1, unit, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.nd == 0 && p.size == 1 && p.count == 1 && p.fits32);
}

static void
test_order_and_negative_strides(void)
{
    /* The output in Fortran order, the input reversed along axis 0: the
     * axes go by the output's steps, and the reversed axis merges with
     * nothing. */
    ptrdiff_t shape[] = {3, 4}, f[] = {1, 3}, rev[] = {-4, 1};
    ua_iter_operand ops[] = {operand(UA_ITER_OUTPUT, 2, shape, f, 8),
                             operand(UA_ITER_INPUT, 2, shape, rev, 8)};
    ua_iter_plan p;
    CHECK_STATUS(ua_iter_plan_make("f", 2, ops, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.nd == 2 && p.shape[0] == 4 && p.shape[1] == 3);
    CHECK(p.steps[0][0] == 24 && p.steps[0][1] == 8);
    CHECK(p.steps[1][0] == 8 && p.steps[1][1] == -32);
    ptrdiff_t lo, hi;
    ua_iter_plan_reach(&p, 1, &lo, &hi);
    CHECK(lo == -64 && hi == 24);
    /* Ordered by the input instead. */
    CHECK_STATUS(ua_iter_plan_make("f", 2, ops, 1, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.shape[0] == 3 && p.steps[1][0] == -32);
    /* Kept in their own order. */
    ua_iter_operand both_f[] = {ops[0],
                                operand(UA_ITER_INPUT, 2, shape, f, 8)};
    CHECK_STATUS(ua_iter_plan_make("f", 2, both_f, 0, UA_ITER_KEEP_ORDER, &p),
                 UA_OK);
    CHECK(p.nd == 2 && p.shape[0] == 3 && p.steps[0][0] == 8);
    /* Both reversed along every axis in C order: one negative run. */
    ptrdiff_t back[] = {-4, -1};
    ua_iter_operand neg[] = {operand(UA_ITER_OUTPUT, 2, shape, back, 4),
                             operand(UA_ITER_INPUT, 2, shape, back, 4)};
    CHECK_STATUS(ua_iter_plan_make("f", 2, neg, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.nd == 1 && p.shape[0] == 12 && p.steps[1][0] == -4);
}

static void
test_reduced_axes(void)
{
    /* x (2, 3, 4) C order reduced over axes 0 and 2 into r (1, 3, 1). */
    ptrdiff_t shape[] = {2, 3, 4}, xs[] = {12, 4, 1};
    ptrdiff_t rshape[] = {1, 3, 1}, rs[] = {0, 1, 0};
    ua_iter_operand ops[] = {operand(UA_ITER_INPUT, 3, shape, xs, 4),
                             operand(UA_ITER_REDUCED, 3, rshape, rs, 8)};
    ua_iter_plan p;
    CHECK_STATUS(ua_iter_plan_make("sum", 2, ops, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.nd == 3 && p.nreduced == 2 && p.size == 3 && p.count == 8);
    CHECK(p.shape[0] == 3 && p.steps[0][0] == 16 && p.steps[1][0] == 8);
    CHECK(p.shape[1] == 2 && p.steps[0][1] == 48 && p.steps[1][1] == 0);
    CHECK(p.shape[2] == 4 && p.steps[0][2] == 4 && p.steps[1][2] == 0);
    /* Reduced axes that are one run merge, never with a kept axis. */
    ptrdiff_t last2[] = {2, 1, 1}, l2s[] = {1, 0, 0};
    ops[1].shape = last2;
    ops[1].strides = l2s;
    CHECK_STATUS(ua_iter_plan_make("sum", 2, ops, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.nd == 2 && p.nreduced == 1 && p.shape[1] == 12);
    CHECK(p.steps[0][1] == 4 && p.size == 2 && p.count == 12);
    /* argmin's reduced axes keep their order: x in Fortran order. */
    ptrdiff_t xf[] = {1, 2, 6}, none[] = {1, 1, 1}, zero[] = {0, 0, 0};
    ua_iter_operand arg[] = {operand(UA_ITER_INPUT, 3, shape, xf, 4),
                             operand(UA_ITER_REDUCED, 3, none, zero, 8)};
    CHECK_STATUS(
        ua_iter_plan_make("argmin", 2, arg, 0, UA_ITER_KEEP_REDUCED_ORDER, &p),
        UA_OK);
    CHECK(p.nd == 3 && p.nreduced == 3 && p.size == 1 && p.count == 24);
    CHECK(p.shape[0] == 2 && p.shape[2] == 4 && p.steps[0][2] == 24);
    CHECK_STATUS(ua_iter_plan_make("sum", 2, arg, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.nd == 1 && p.shape[0] == 24 && p.steps[0][0] == 4);
    /* A reduced axis of length 0: the kept ones are still planned. */
    ptrdiff_t empty[] = {2, 0}, es[] = {0, 1};
    ptrdiff_t kept[] = {2, 1}, ks[] = {1, 0};
    ua_iter_operand e[] = {operand(UA_ITER_INPUT, 2, empty, es, 4),
                           operand(UA_ITER_REDUCED, 2, kept, ks, 8)};
    CHECK_STATUS(ua_iter_plan_make("sum", 2, e, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.size == 2 && p.count == 0 && p.nreduced == 1);
    ptrdiff_t lo, hi;
    ua_iter_plan_reach(&p, 0, &lo, &hi);
    CHECK(lo == 0 && hi == 0);
}

static void
test_empty_and_0d(void)
{
    ptrdiff_t shape[] = {3, 0, 5}, s[] = {PTRDIFF_MAX, 7, -3};
    ua_iter_operand ops[] = {operand(UA_ITER_OUTPUT, 3, shape, s, 8)};
    ua_iter_plan p;
    /* An empty layout's strides reach nothing: any are accepted. */
    CHECK_STATUS(ua_iter_plan_make("f", 1, ops, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.size == 0 && p.fits32);
    ua_iter_operand zero_d[] = {operand(UA_ITER_OUTPUT, 0, NULL, NULL, 8),
                                operand(UA_ITER_INPUT, 0, NULL, NULL, 8)};
    CHECK_STATUS(ua_iter_plan_make("f", 2, zero_d, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.nd == 0 && p.size == 1 && p.count == 1);
    CHECK_STATUS(ua_iter_plan_make("f", 0, zero_d, 0, UA_ITER_BY_STEPS, &p),
                 UA_ERR_VALUE);
    CHECK_STATUS(ua_iter_plan_make("f", UA_ITER_MAX_OPERANDS + 1, zero_d, 0,
                                   UA_ITER_BY_STEPS, &p),
                 UA_ERR_VALUE);
}

static void
test_64_axes(void)
{
    ptrdiff_t shape[UA_MAXDIMS + 1], c[UA_MAXDIMS + 1], f[UA_MAXDIMS + 1];
    for (int j = 0; j <= UA_MAXDIMS; j++) {
        shape[j] = 2;
    }
    ua_layout_default_strides(UA_MAXDIMS, shape, 'C', c);
    ua_layout_default_strides(UA_MAXDIMS, shape, 'F', f);
    /* 2**64 elements: too many to address, named. */
    ua_iter_operand ops[] = {operand(UA_ITER_OUTPUT, UA_MAXDIMS, shape, c, 1),
                             operand(UA_ITER_INPUT, UA_MAXDIMS, shape, f, 1)};
    ua_iter_plan p;
    CHECK_STATUS(ua_iter_plan_make("f", 2, ops, 0, UA_ITER_BY_STEPS, &p),
                 UA_ERR_VALUE);
    CHECK(strstr(ua_error_message(), "too many elements") != NULL);
    /* 64 axes, 2**20 elements, C against Fortran: nothing merges. */
    for (int j = 20; j < UA_MAXDIMS; j++) {
        shape[j] = 1;
    }
    ua_layout_default_strides(UA_MAXDIMS, shape, 'C', c);
    ua_layout_default_strides(UA_MAXDIMS, shape, 'F', f);
    CHECK_STATUS(ua_iter_plan_make("f", 2, ops, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.nd == 20 && p.size == 1 << 20 && p.fits32);
    CHECK(p.steps[0][19] == 1 && p.steps[1][19] == 1 << 19);
    /* 64 axes of 2 elements, every operand alike: one run. */
    ptrdiff_t one[UA_MAXDIMS];
    for (int j = 0; j < UA_MAXDIMS; j++) {
        shape[j] = j < 40 ? 2 : 1;
    }
    ua_layout_default_strides(UA_MAXDIMS, shape, 'C', one);
    ua_iter_operand same[] = {
        operand(UA_ITER_OUTPUT, UA_MAXDIMS, shape, one, 1),
        operand(UA_ITER_INPUT, UA_MAXDIMS, shape, one, 1)};
    CHECK_STATUS(ua_iter_plan_make("f", 2, same, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.nd == 1 && p.shape[0] == (ptrdiff_t)1 << 40 && !p.fits32);
    /* 65 axes: refused before any is read. */
    ops[0].nd = UA_MAXDIMS + 1;
    CHECK_STATUS(ua_iter_plan_make("f", 2, ops, 0, UA_ITER_BY_STEPS, &p),
                 UA_ERR_VALUE);
    CHECK(strstr(ua_error_message(), "at most 64") != NULL);
    ptrdiff_t strides[UA_MAXDIMS + 1];
    ua_iter_result_strides(2, ops, UA_MAXDIMS + 1, shape, strides);
    CHECK(strides[UA_MAXDIMS] == 1);
}

static void
test_overflow_and_32_bits(void)
{
    ptrdiff_t shape[] = {3}, huge[] = {PTRDIFF_MAX / 2 + 1};
    ua_iter_operand ops[] = {operand(UA_ITER_INPUT, 1, shape, huge, 1)};
    ua_iter_plan p;
    CHECK_STATUS(ua_iter_plan_make("f", 1, ops, 0, UA_ITER_BY_STEPS, &p),
                 UA_ERR_VALUE);
    CHECK(strstr(ua_error_message(), "beyond addressable") != NULL);
    /* Each axis fits; both together do not. */
    ptrdiff_t two[] = {2, 2},
              far[] = {PTRDIFF_MAX / 2 + 1, -(PTRDIFF_MAX / 2 + 1)};
    ua_iter_operand both[] = {operand(UA_ITER_INPUT, 2, two, far, 1)};
    CHECK_STATUS(ua_iter_plan_make("f", 1, both, 0, UA_ITER_BY_STEPS, &p),
                 UA_ERR_VALUE);
    ptrdiff_t big[] = {PTRDIFF_MAX / 4};
    ops[0].strides = big;
    ops[0].itemsize = 8;
    CHECK_STATUS(ua_iter_plan_make("f", 1, ops, 0, UA_ITER_BY_STEPS, &p),
                 UA_ERR_VALUE);
    /* The 32-bit check counts bytes, an element's included. */
    ptrdiff_t n[] = {INT32_MAX / 8 - 2}, unit[] = {1};
    ua_iter_operand fit[] = {operand(UA_ITER_INPUT, 1, n, unit, 8)};
    CHECK_STATUS(ua_iter_plan_make("f", 1, fit, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(p.fits32);
    n[0] = INT32_MAX / 8 + 1;
    CHECK_STATUS(ua_iter_plan_make("f", 1, fit, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(!p.fits32);
    /* A broadcast operand reaches nothing; the count decides. */
    ptrdiff_t m[] = {(ptrdiff_t)INT32_MAX + 1}, z[] = {0};
    fit[0].shape = m;
    fit[0].strides = z;
    CHECK_STATUS(ua_iter_plan_make("f", 1, fit, 0, UA_ITER_BY_STEPS, &p),
                 UA_OK);
    CHECK(!p.fits32);
}

static void
test_result_strides(void)
{
    ptrdiff_t shape[] = {3, 4}, out[2];
    ptrdiff_t c[] = {4, 1}, f[] = {1, 3}, row[] = {4}, rs[] = {1};
    /* One Fortran operand and a broadcast row: Fortran. */
    ua_iter_operand ops[] = {operand(UA_ITER_INPUT, 2, shape, f, 8),
                             operand(UA_ITER_INPUT, 1, row, rs, 8)};
    ua_iter_result_strides(2, ops, 2, shape, out);
    CHECK(out[0] == 1 && out[1] == 3);
    /* Fortran against C: C order wins. */
    ops[1] = operand(UA_ITER_INPUT, 2, shape, c, 8);
    ua_iter_result_strides(2, ops, 2, shape, out);
    CHECK(out[0] == 4 && out[1] == 1);
    /* Negative strides order by magnitude; the result's are positive. */
    ptrdiff_t nf[] = {-1, 3};
    ops[0].strides = nf;
    ua_iter_result_strides(1, ops, 2, shape, out);
    CHECK(out[0] == 1 && out[1] == 3);
    /* Nothing decides (a column against a row, a scalar): C order. */
    ptrdiff_t col[] = {3, 1}, cs[] = {1, 0};
    ua_iter_operand apart[] = {operand(UA_ITER_INPUT, 2, col, cs, 8),
                               operand(UA_ITER_INPUT, 1, row, rs, 8),
                               operand(UA_ITER_INPUT, 0, NULL, NULL, 8)};
    ua_iter_result_strides(3, apart, 2, shape, out);
    CHECK(out[0] == 4 && out[1] == 1);
    /* An undecided pair looks further: (2, 3, 4) with axis 1 broadcast
     * in the one input, whose axis 0 then goes inside axis 2 and so
     * inside axis 1 too; the second input agrees. */
    ptrdiff_t s3[] = {2, 3, 4}, b3[] = {2, 1, 4}, bst[] = {1, 0, 2};
    ptrdiff_t perm[] = {1, 8, 2}, o3[3];
    ua_iter_operand three[] = {operand(UA_ITER_INPUT, 3, b3, bst, 4),
                               operand(UA_ITER_INPUT, 3, s3, perm, 4)};
    ua_iter_result_strides(1, three, 3, s3, o3);
    CHECK(o3[0] == 1 && o3[2] == 2 && o3[1] == 8);
    ua_iter_result_strides(2, three, 3, s3, o3);
    CHECK(o3[0] == 1 && o3[2] == 2 && o3[1] == 8);
    /* 0-d. */
    ua_iter_result_strides(0, NULL, 0, NULL, NULL);
}

int
main(void)
{
    test_broadcast();
    test_unit_axes_and_merging();
    test_order_and_negative_strides();
    test_reduced_axes();
    test_empty_and_0d();
    test_64_axes();
    test_overflow_and_32_bits();
    test_result_strides();
    return check_report("iter_plan");
}
