#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/core.h"

/* Address of element idx in a strided layout. */
static char *
at(const ua_strided *x, int nd, const ptrdiff_t *idx, size_t itemsize)
{
    ptrdiff_t off = 0;
    for (int k = 0; k < nd; k++) {
        off += idx[k] * x->strides[k];
    }
    return x->data + off * (ptrdiff_t)itemsize;
}

static bool
next_index(int nd, const ptrdiff_t *shape, ptrdiff_t *idx)
{
    for (int k = nd - 1; k >= 0; k--) {
        if (++idx[k] < shape[k]) {
            return true;
        }
        idx[k] = 0;
    }
    return false;
}

static unsigned
rnd(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (*state >> 16) & 0x7fff;
}

/* A random layout of shape inside buf: permuted, gapped, some axes
 * reversed; returns the zero-index element's offset in elements. */
static ptrdiff_t
random_layout(unsigned *st, int nd, const ptrdiff_t *shape, ptrdiff_t *strides)
{
    int perm[8];
    for (int k = 0; k < nd; k++) {
        perm[k] = k;
    }
    for (int k = nd - 1; k > 0; k--) {
        int j = (int)(rnd(st) % (unsigned)(k + 1)), t = perm[k];
        perm[k] = perm[j];
        perm[j] = t;
    }
    ptrdiff_t step = 1 + (ptrdiff_t)(rnd(st) % 2), offset = 0;
    for (int i = nd - 1; i >= 0; i--) {
        int k = perm[i];
        bool reverse = rnd(st) % 3 == 0;
        strides[k] = reverse ? -step : step;
        if (reverse) {
            offset += step * (shape[k] - 1);
        }
        step *= shape[k] + (ptrdiff_t)(rnd(st) % 2);
    }
    return offset;
}

static void
test_random_layouts_match_reference(void)
{
    unsigned st = 12345;
    for (int trial = 0; trial < 400; trial++) {
        int nd = 1 + (int)(rnd(&st) % 5);
        ptrdiff_t shape[8], ds[8], ss[8], idx[8] = {0}, n = 1;
        for (int k = 0; k < nd; k++) {
            shape[k] = 1 + (ptrdiff_t)(rnd(&st) % (nd <= 2 ? 70 : 7));
            n *= shape[k];
        }
        size_t cap = (size_t)n * 64 + 64;
        double *sbuf = calloc(cap, sizeof(double));
        double *dbuf = calloc(cap, sizeof(double));
        double *ref = calloc(cap, sizeof(double));
        for (size_t i = 0; i < cap; i++) {
            sbuf[i] = (double)i;
        }
        ptrdiff_t so = random_layout(&st, nd, shape, ss);
        ptrdiff_t dof = random_layout(&st, nd, shape, ds);
        ua_strided src = {(char *)(sbuf + so), ss, UA_FLOAT64};
        ua_strided dst = {(char *)(dbuf + dof), ds, UA_FLOAT64};
        ua_strided rdst = {(char *)(ref + dof), ds, UA_FLOAT64};
        do {
            memcpy(at(&rdst, nd, idx, 8), at(&src, nd, idx, 8), 8);
        } while (next_index(nd, shape, idx));
        CHECK_STATUS(ua_copy_strided_host(nd, shape, &dst, &src), UA_OK);
        CHECK(memcmp(dbuf, ref, cap * sizeof(double)) == 0);
        free(sbuf);
        free(dbuf);
        free(ref);
    }
}

static void
test_transpose_tiles(void)
{
    enum { R = 300, C = 170 };
    float *a = malloc(sizeof(float) * R * C),
          *b = malloc(sizeof(float) * R * C);
    for (int i = 0; i < R * C; i++) {
        a[i] = (float)i;
    }
    ptrdiff_t shape[] = {C, R}, sstr[] = {1, C}, dstr[] = {R, 1};
    ua_strided src = {(char *)a, sstr, UA_FLOAT32};
    ua_strided dst = {(char *)b, dstr, UA_FLOAT32};
    CHECK_STATUS(ua_copy_strided_host(2, shape, &dst, &src), UA_OK);
    int bad = 0;
    for (int i = 0; i < C; i++) {
        for (int j = 0; j < R; j++) {
            bad += b[i * R + j] != a[j * C + i];
        }
    }
    CHECK(bad == 0);
    free(a);
    free(b);
}

static void
test_broadcast_fill(void)
{
    int32_t value = -7, out[12];
    ptrdiff_t shape[] = {3, 4}, zero[] = {0, 0}, c[] = {4, 1};
    ua_strided src = {(char *)&value, zero, UA_INT32};
    ua_strided dst = {(char *)out, c, UA_INT32};
    CHECK_STATUS(ua_copy_strided_host(2, shape, &dst, &src), UA_OK);
    int bad = 0;
    for (int i = 0; i < 12; i++) {
        bad += out[i] != -7;
    }
    CHECK(bad == 0);
    /* A row broadcast down the columns, cast to float64. */
    int16_t row[4] = {1, 2, 3, 4};
    double grid[12];
    ptrdiff_t rs[] = {0, 1};
    ua_strided rsrc = {(char *)row, rs, UA_INT16};
    ua_strided gdst = {(char *)grid, c, UA_FLOAT64};
    CHECK_STATUS(ua_copy_strided_host(2, shape, &gdst, &rsrc), UA_OK);
    CHECK(grid[0] == 1.0 && grid[7] == 4.0 && grid[9] == 2.0);
}

static void
test_overlap_is_safe(void)
{
    int64_t v[10];
    for (int i = 0; i < 10; i++) {
        v[i] = i;
    }
    ptrdiff_t shape[] = {9}, one[] = {1};
    ua_strided src = {(char *)v, one, UA_INT64};
    ua_strided dst = {(char *)(v + 1), one, UA_INT64};
    CHECK_STATUS(ua_copy_strided_host(1, shape, &dst, &src), UA_OK);
    CHECK(v[0] == 0 && v[1] == 0 && v[5] == 4 && v[9] == 8);
    /* Reversal in place: v[::-1] = v */
    ptrdiff_t ten[] = {10}, back[] = {-1};
    ua_strided rev = {(char *)(v + 9), back, UA_INT64};
    ua_strided fwd = {(char *)v, one, UA_INT64};
    CHECK_STATUS(ua_copy_strided_host(1, ten, &rev, &fwd), UA_OK);
    CHECK(v[0] == 8 && v[9] == 0 && v[8] == 0);
}

static void
test_casts(void)
{
    ptrdiff_t shape[] = {4}, one[] = {1};
    double d[] = {1.9, -2.7, 0.0, 300.5};
    int8_t i8[4];
    uint8_t b[4];
    float cf[8];
    ua_strided sd = {(char *)d, one, UA_FLOAT64};
    ua_strided di = {(char *)i8, one, UA_INT8};
    CHECK_STATUS(ua_copy_strided_host(1, shape, &di, &sd), UA_OK);
    CHECK(i8[0] == 1 && i8[1] == -2 && i8[2] == 0); /* truncation */
    ua_strided db = {(char *)b, one, UA_BOOL};
    CHECK_STATUS(ua_copy_strided_host(1, shape, &db, &sd), UA_OK);
    CHECK(b[0] == 1 && b[1] == 1 && b[2] == 0 && b[3] == 1);
    ua_strided dc = {(char *)cf, one, UA_COMPLEX64};
    CHECK_STATUS(ua_copy_strided_host(1, shape, &dc, &sd), UA_OK);
    CHECK(cf[0] == 1.9f && cf[1] == 0.0f && cf[2] == -2.7f);
    /* complex -> real keeps the real part; -> bool tests both parts */
    double z[] = {3.0, 4.0, 0.0, 5.0};
    ptrdiff_t two[] = {2};
    ua_strided sz = {(char *)z, one, UA_COMPLEX128};
    int32_t re[2];
    ua_strided dre = {(char *)re, one, UA_INT32};
    CHECK_STATUS(ua_copy_strided_host(1, two, &dre, &sz), UA_OK);
    CHECK(re[0] == 3 && re[1] == 0);
    CHECK_STATUS(ua_copy_strided_host(1, two, &db, &sz), UA_OK);
    CHECK(b[0] == 1 && b[1] == 1);
    /* uint64 -> int64 keeps the bits; int64 -> uint8 wraps */
    uint64_t big = UINT64_MAX;
    int64_t back;
    ptrdiff_t scalar[] = {1};
    ua_strided sb = {(char *)&big, one, UA_UINT64};
    ua_strided dback = {(char *)&back, one, UA_INT64};
    CHECK_STATUS(ua_copy_strided_host(1, scalar, &dback, &sb), UA_OK);
    CHECK(back == -1);
    /* every pair runs */
    for (int i = 0; i < UA_NTYPES; i++) {
        for (int j = 0; j < UA_NTYPES; j++) {
            unsigned char in[64] = {1}, out[64];
            ua_strided s = {(char *)in, one, ua_dtype_at(i)};
            ua_strided t = {(char *)out, one, ua_dtype_at(j)};
            CHECK_STATUS(ua_copy_strided_host(1, two, &t, &s), UA_OK);
        }
    }
}

static void
test_half(void)
{
    int bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        float f = ua_half_to_float((uint16_t)h);
        if (isnan(f)) {
            bad += !isnan(ua_half_to_float(ua_half_from_double(f)));
            continue;
        }
        bad += ua_half_from_double(f) != h;
    }
    CHECK(bad == 0);
    CHECK(ua_half_from_double(1.0) == 0x3c00);
    CHECK(ua_half_from_double(65504.0) == 0x7bff);
    CHECK(ua_half_from_double(65520.0) == 0x7c00);
    CHECK(ua_half_from_double(-0.0) == 0x8000);
    CHECK(ua_half_from_double(1.0 + 0x1p-11) == 0x3c00); /* tie to even */
    CHECK(ua_half_from_double(1.0 + 3 * 0x1p-11) == 0x3c02);
    CHECK(ua_half_from_double(0x1p-25) == 0); /* tie to even: 0 */
    CHECK(ua_half_from_double(0x1p-24) == 1);
    CHECK(ua_half_to_float(0x3555) > 0.333f &&
          ua_half_to_float(0x3555) < 0.334f);
}

int
main(void)
{
    test_random_layouts_match_reference();
    test_transpose_tiles();
    test_broadcast_fill();
    test_overlap_is_safe();
    test_casts();
    test_half();
    return check_report("test_copy");
}
