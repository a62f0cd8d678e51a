#include <stdint.h>

#include "check.h"
#include "core/core.h"

static void
test_size(void)
{
    ptrdiff_t shape[] = {2, 3, 4}, n;
    CHECK_STATUS(ua_layout_size(3, shape, &n), UA_OK);
    CHECK(n == 24);
    CHECK_STATUS(ua_layout_size(0, shape, &n), UA_OK);
    CHECK(n == 1);
    ptrdiff_t neg[] = {2, -1};
    CHECK_STATUS(ua_layout_size(2, neg, &n), UA_ERR_VALUE);
    ptrdiff_t huge[] = {PTRDIFF_MAX, 2};
    CHECK_STATUS(ua_layout_size(2, huge, &n), UA_ERR_VALUE);
    /* As in NumPy, a zero extent does not excuse the others: their product
     * must fit too, or later products of the axes would overflow. */
    ptrdiff_t huge0[] = {PTRDIFF_MAX, PTRDIFF_MAX, 0};
    CHECK_STATUS(ua_layout_size(3, huge0, &n), UA_ERR_VALUE);
    ptrdiff_t big0[] = {0, (ptrdiff_t)1 << 62, 4};
    CHECK_STATUS(ua_layout_size(3, big0, &n), UA_ERR_VALUE);
    ptrdiff_t fits0[] = {0, (ptrdiff_t)1 << 62, 1};
    CHECK_STATUS(ua_layout_size(3, fits0, &n), UA_OK);
    CHECK(n == 0);
    /* 2**32 * 2**32 wraps to zero: must still be reported as overflow. */
    ptrdiff_t wrap[] = {(ptrdiff_t)1 << 32, (ptrdiff_t)1 << 32};
    CHECK_STATUS(ua_layout_size(2, wrap, &n), UA_ERR_VALUE);
}

/* The byte count must fit as well: NumPy's arr.size * itemsize rule. */
static void
test_check_size(void)
{
    ptrdiff_t n, s61[] = {(ptrdiff_t)1 << 61}, s60[] = {(ptrdiff_t)1 << 60};
    CHECK_STATUS(ua_layout_check_size(1, s61, 2, &n), UA_OK);
    CHECK(n == (ptrdiff_t)1 << 61);
    CHECK_STATUS(ua_layout_check_size(1, s61, 4, &n), UA_ERR_VALUE);
    CHECK_STATUS(ua_layout_check_size(1, s60, 4, &n), UA_OK);
    CHECK_STATUS(ua_layout_check_size(1, s60, 8, &n), UA_ERR_VALUE);
    ptrdiff_t empty[] = {0, (ptrdiff_t)1 << 61, 1};
    CHECK_STATUS(ua_layout_check_size(3, empty, 2, &n), UA_OK);
    CHECK(n == 0);
    CHECK_STATUS(ua_layout_check_size(3, empty, 4, &n), UA_ERR_VALUE);
    /* Zero strides reach one element, but the size still counts. */
    ptrdiff_t wide[] = {(ptrdiff_t)1 << 62, 4}, zero[] = {0, 0}, b, e;
    CHECK_STATUS(ua_layout_byte_range(2, wide, zero, 0, 1, &b, &e),
                 UA_ERR_VALUE);
    bool is_empty;
    CHECK_STATUS(ua_layout_displacements(2, wide, zero, &b, &e, &is_empty),
                 UA_ERR_VALUE);
}

/* Empty layouts may carry any strides: nothing overlaps them. */
static void
test_overlap_of_empty_layouts(void)
{
    double buf[4];
    ptrdiff_t shape[] = {3, 0}, huge[] = {PTRDIFF_MAX / 2, 1};
    ua_strided a = {(char *)buf, huge, UA_FLOAT64};
    ua_strided b = {(char *)buf + 8, huge, UA_FLOAT64};
    CHECK(!ua_copy_overlaps(2, shape, &a, &b));
    ptrdiff_t one[] = {4}, unit[] = {1};
    ua_strided c = {(char *)buf, unit, UA_FLOAT64};
    ua_strided d = {(char *)buf + 8, unit, UA_FLOAT64};
    CHECK(ua_copy_overlaps(1, one, &c, &d));
}

static void
test_default_strides(void)
{
    ptrdiff_t shape[] = {2, 3, 4}, s[3];
    ua_layout_default_strides(3, shape, 'C', s);
    CHECK(s[0] == 12 && s[1] == 4 && s[2] == 1);
    ua_layout_default_strides(3, shape, 'F', s);
    CHECK(s[0] == 1 && s[1] == 2 && s[2] == 6);
}

static void
test_contiguity(void)
{
    ptrdiff_t shape[] = {2, 3}, c[] = {3, 1}, f[] = {1, 2}, gap[] = {6, 2};
    CHECK(ua_layout_contiguity(2, shape, c) == UA_LAYOUT_C_CONTIGUOUS);
    CHECK(ua_layout_contiguity(2, shape, f) == UA_LAYOUT_F_CONTIGUOUS);
    CHECK(ua_layout_contiguity(2, shape, gap) == 0);
    /* Length-1 axes never matter; empty arrays are both. */
    ptrdiff_t row[] = {1, 5}, rs[] = {99, 1};
    CHECK(ua_layout_contiguity(2, row, rs) ==
          (UA_LAYOUT_C_CONTIGUOUS | UA_LAYOUT_F_CONTIGUOUS));
    ptrdiff_t empty[] = {0, 5}, es[] = {7, -3};
    CHECK(ua_layout_contiguity(2, empty, es) ==
          (UA_LAYOUT_C_CONTIGUOUS | UA_LAYOUT_F_CONTIGUOUS));
    CHECK(ua_layout_contiguity(0, NULL, NULL) ==
          (UA_LAYOUT_C_CONTIGUOUS | UA_LAYOUT_F_CONTIGUOUS));
    ptrdiff_t v[] = {4}, neg[] = {-1};
    CHECK(ua_layout_contiguity(1, v, neg) == 0);
}

static void
test_byte_range(void)
{
    ptrdiff_t b, e;
    /* The document's example: (4, 2) int32 with strides (-5, -2). */
    ptrdiff_t shape[] = {4, 2}, strides[] = {-5, -2};
    CHECK_STATUS(ua_layout_byte_range(2, shape, strides, 17, 4, &b, &e),
                 UA_OK);
    CHECK(b == 0 && e == 18 * 4);
    /* contig_vec[7::-2]: shape (4,), strides (-2,), offset 7, f8 */
    ptrdiff_t s1[] = {4}, st1[] = {-2};
    CHECK_STATUS(ua_layout_byte_range(1, s1, st1, 7, 8, &b, &e), UA_OK);
    CHECK(b == 8 && e == 64);
    /* Empty arrays reach nothing, at the offset. */
    ptrdiff_t s0[] = {3, 0}, st0[] = {1, 1};
    CHECK_STATUS(ua_layout_byte_range(2, s0, st0, 5, 8, &b, &e), UA_OK);
    CHECK(b == 40 && e == 40);
    /* 0-d: one element. */
    CHECK_STATUS(ua_layout_byte_range(0, NULL, NULL, 2, 4, &b, &e), UA_OK);
    CHECK(b == 8 && e == 12);
    ptrdiff_t big[] = {3}, bst[] = {PTRDIFF_MAX / 2};
    CHECK_STATUS(ua_layout_byte_range(1, big, bst, 0, 8, &b, &e),
                 UA_ERR_VALUE);
}

static void
test_reshape(void)
{
    ptrdiff_t out[4];
    /* C-contiguous (2, 3, 4) -> (6, 4) and (4, 6) */
    ptrdiff_t s[] = {2, 3, 4}, c[] = {12, 4, 1};
    ptrdiff_t a[] = {6, 4}, b[] = {4, 6};
    CHECK(ua_layout_reshape(3, s, c, 2, a, 'C', out));
    CHECK(out[0] == 4 && out[1] == 1);
    CHECK(ua_layout_reshape(3, s, c, 2, b, 'C', out));
    CHECK(out[0] == 6 && out[1] == 1);
    /* In F order a C-contiguous array needs a copy. */
    CHECK(!ua_layout_reshape(3, s, c, 2, a, 'F', out));
    /* A transposed (3, 2) view cannot be flattened in C order... */
    ptrdiff_t t[] = {3, 2}, ts[] = {1, 3}, flat[] = {6};
    CHECK(!ua_layout_reshape(2, t, ts, 1, flat, 'C', out));
    /* ...but can in F order. */
    CHECK(ua_layout_reshape(2, t, ts, 1, flat, 'F', out) && out[0] == 1);
    /* Splitting a strided axis keeps the stride pattern. */
    ptrdiff_t v[] = {8}, vs[] = {-2}, split[] = {2, 4};
    CHECK(ua_layout_reshape(1, v, vs, 2, split, 'C', out));
    CHECK(out[0] == -8 && out[1] == -2);
    /* Gapped rows cannot merge; unit axes can be added anywhere. */
    ptrdiff_t g[] = {2, 3}, gs[] = {4, 1}, six[] = {6}, ones[] = {1, 2, 1, 3};
    CHECK(!ua_layout_reshape(2, g, gs, 1, six, 'C', out));
    CHECK(ua_layout_reshape(2, g, gs, 4, ones, 'C', out));
    CHECK(out[1] == 4 && out[3] == 1);
}

static void
test_orders(void)
{
    int c = UA_LAYOUT_C_CONTIGUOUS, f = UA_LAYOUT_F_CONTIGUOUS;
    CHECK(ua_layout_resolve_order(f, 'A') == 'F');
    CHECK(ua_layout_resolve_order(c | f, 'A') == 'C');
    CHECK(ua_layout_resolve_order(0, 'A') == 'C');
    CHECK(ua_layout_resolve_order(f, 'K') == 'K');
    ptrdiff_t shape[] = {2, 3, 4}, like[] = {1, -8, 2}, out[3];
    ua_layout_strides_like(3, shape, like, out); /* memory order 1, 2, 0 */
    CHECK(out[1] == 8 && out[2] == 2 && out[0] == 1);
    ptrdiff_t tie[] = {0, 0, 0};
    ua_layout_strides_like(3, shape, tie, out); /* ties keep C order */
    CHECK(out[0] == 12 && out[1] == 4 && out[2] == 1);
    /* The most negative stride sorts as the largest magnitude. */
    ptrdiff_t two[] = {2, 2}, extreme[] = {1, PTRDIFF_MIN};
    ua_layout_strides_like(2, two, extreme, out);
    CHECK(out[1] == 2 && out[0] == 1);
    /* Steps saturate rather than overflow past addressable shapes. */
    ptrdiff_t big[] = {(ptrdiff_t)1 << 62, 4, 4}, bl[] = {3, 2, 1};
    ua_layout_strides_like(3, big, bl, out);
    CHECK(out[2] == 1 && out[1] == 4 && out[0] == 16);
}

int
main(void)
{
    test_orders();
    test_reshape();
    test_size();
    test_check_size();
    test_overlap_of_empty_layouts();
    test_default_strides();
    test_contiguity();
    test_byte_range();
    return check_report("test_layout");
}
