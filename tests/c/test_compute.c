/* The core's planning of indexed work and the host backend's compute
 * kernels: gathers and scatters by one or several index arrays (with
 * broadcasting, negative indices and bounds), take_along_axis, mask
 * compaction into rows and into coordinates, and the fill patterns; and
 * the GPU programs' choice of operation, which must read each kernel's op
 * where its parameter list has it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "host_queue.h"
#include "core/compute/compute.h"
#include "gpu/elementwise_source.h"
#include "gpu/launcher.h"
#include "core/core.h"

/* x[[2, -1, 0], :] of a 4 x 3 array, and the same by scatter. */
static void
test_gather_and_scatter_one_index(ua_queue *q)
{
    double x[12], out[9];
    for (int i = 0; i < 12; i++) {
        x[i] = i;
    }
    int64_t idx[3] = {2, -1, 0};
    ptrdiff_t shape[2] = {4, 3}, strides[2] = {3, 1}, bshape[1] = {3},
              istrides[1] = {1}, ostrides[2] = {3, 1};
    int axes[1] = {0};
    ua_strided index = {(char *)idx, istrides, UA_INT64};
    ua_index_request r = {(char *)x, 2,      shape, strides, 8, 1,
                          axes,      &index, 1,     bshape,  0};
    int nd;
    ptrdiff_t rshape[UA_MAXDIMS];
    CHECK_STATUS(ua_index_result_shape(&r, &nd, rshape), UA_OK);
    CHECK(nd == 2 && rshape[0] == 3 && rshape[1] == 3);
    ua_strided result = {(char *)out, ostrides, UA_FLOAT64};
    CHECK_STATUS(ua_queue_gather(q, &r, &result), UA_OK);
    CHECK(out[0] == 6 && out[3] == 9 && out[5] == 11 && out[6] == 0);
    for (int i = 0; i < 9; i++) {
        out[i] = -1 - i;
    }
    CHECK_STATUS(ua_queue_scatter(q, &r, &result), UA_OK);
    CHECK(x[6] == -1 && x[9] == -4 && x[0] == -7 && x[3] == 3);
    idx[1] = 4;
    CHECK_STATUS(ua_queue_gather(q, &r, &result), UA_ERR_INDEX);
    CHECK(strstr(ua_error_message(), "index 4 is out of bounds for axis 0") !=
          NULL);
    idx[1] = -5;
    CHECK_STATUS(ua_queue_gather(q, &r, &result), UA_ERR_INDEX);
}

/* x[rows, cols] with rows (2, 1) and cols (3,) broadcast to (2, 3), on a
 * 3-D array whose last axis stays: a combined offsets pass per index. */
static void
test_gather_two_broadcast_indices(ua_queue *q)
{
    float x[4 * 5 * 2], out[2 * 3 * 2];
    for (int i = 0; i < 40; i++) {
        x[i] = (float)i;
    }
    int64_t rows[2] = {3, 0}, cols[3] = {-1, 1, 2};
    ptrdiff_t shape[3] = {4, 5, 2}, strides[3] = {10, 2, 1};
    ptrdiff_t bshape[2] = {2, 3}, rstr[2] = {1, 0}, cstr[2] = {0, 1};
    ptrdiff_t ostrides[3] = {6, 2, 1};
    int axes[2] = {0, 1};
    ua_strided index[2] = {{(char *)rows, rstr, UA_INT64},
                           {(char *)cols, cstr, UA_INT64}};
    ua_index_request r = {(char *)x, 3,     shape, strides, 4, 2,
                          axes,      index, 2,     bshape,  0};
    ua_strided result = {(char *)out, ostrides, UA_FLOAT32};
    CHECK_STATUS(ua_queue_gather(q, &r, &result), UA_OK);
    CHECK(ua_queue_wait(q) == UA_OK);
    /* out[i, j, k] = x[rows[i], cols[j], k] */
    CHECK(out[0] == 3 * 10 + 4 * 2 && out[1] == 3 * 10 + 4 * 2 + 1);
    CHECK(out[2] == 32 && out[6] == 8 && out[10] == 4 && out[11] == 5);
    cols[2] = 5;
    CHECK_STATUS(ua_queue_gather(q, &r, &result), UA_ERR_INDEX);
    CHECK(strstr(ua_error_message(), "axis 1 with size 5") != NULL);
}

static void
test_take_along_axis(ua_queue *q)
{
    int32_t x[6] = {10, 11, 12, 20, 21, 22}, out[4];
    int64_t idx[4] = {2, 0, -1, 1};
    ptrdiff_t shape[2] = {2, 2}, xs[2] = {3, 0}, is[2] = {2, 1},
              os[2] = {2, 1};
    ua_strided xa = {(char *)x, xs, UA_INT32},
               ia = {(char *)idx, is, UA_INT64};
    ua_strided ra = {(char *)out, os, UA_INT32};
    CHECK_STATUS(ua_queue_take_along_axis(q, 2, shape, &xa, 1, 3, 1, &ia, &ra),
                 UA_OK);
    CHECK(out[0] == 12 && out[1] == 10 && out[2] == 22 && out[3] == 21);
    idx[3] = 3;
    CHECK_STATUS(ua_queue_take_along_axis(q, 2, shape, &xa, 1, 3, 1, &ia, &ra),
                 UA_ERR_INDEX);
}

typedef struct {
    char buf[256];
    size_t asked;
} sink;

static ua_status
give(void *ctx, size_t count, char **dst)
{
    sink *s = ctx;
    s->asked = count;
    *dst = s->buf;
    return UA_OK;
}

static void
test_compress(ua_queue *q)
{
    unsigned char mask[7] = {0, 1, 2, 0, 0, 255, 0};
    int16_t src[7] = {0, 1, 2, 3, 4, 5, 6};
    ua_compress_plan p = {0};
    p.n = 7;
    p.mask = mask;
    p.src = (const char *)src;
    p.sstep = 2;
    p.rowbytes = 2;
    sink s = {{0}, 0};
    size_t count;
    CHECK_STATUS(ua_queue_compress(q, &p, give, &s, &count), UA_OK);
    int16_t got[3];
    memcpy(got, s.buf, sizeof got);
    CHECK(count == 3 && s.asked == 3 && got[0] == 1 && got[1] == 2 &&
          got[2] == 5);
    /* Coordinates over a 2 x 3 mask (the first six elements). */
    p.n = 6;
    p.src = NULL;
    p.nd = 2;
    p.shape[0] = 2;
    p.shape[1] = 3;
    CHECK_STATUS(ua_queue_compress(q, &p, give, &s, &count), UA_OK);
    int64_t c[6];
    memcpy(c, s.buf, sizeof c);
    CHECK(count == 3 && c[0] == 0 && c[1] == 1 && c[2] == 0 && c[3] == 2 &&
          c[4] == 1 && c[5] == 2);
}

static void
test_fills(ua_queue *q)
{
    int8_t i8[5];
    ua_affine_plan a = {
        .mode = UA_AFFINE_ARANGE, .dst = (char *)i8, .n = 5, .type = UA_INT8};
    a.first.i = 120;
    a.second.i = 125;
    CHECK_STATUS(ua_queue_affine(q, &a), UA_OK);
    CHECK(i8[0] == 120 && i8[1] == 125 && i8[2] == (int8_t)130 &&
          i8[4] == (int8_t)140);
    float f[4];
    a.dst = (char *)f;
    a.n = 4;
    a.type = UA_FLOAT32;
    a.first.f[0] = 0.5;
    a.first.f[1] = 0;
    a.second.f[0] = (double)0.6f;
    a.second.f[1] = 0;
    CHECK_STATUS(ua_queue_affine(q, &a), UA_OK);
    CHECK(f[0] == 0.5f && f[1] == 0.6f && f[3] == 0.5f + 3.0f * (0.6f - 0.5f));
    double d[5];
    ua_affine_plan l = {.mode = UA_AFFINE_LINSPACE,
                        .dst = (char *)d,
                        .n = 5,
                        .type = UA_FLOAT64,
                        .start = {1, 0},
                        .step = {0.25, 0},
                        .stop = {2, 0},
                        .div = 4,
                        .endpoint = true};
    CHECK_STATUS(ua_queue_affine(q, &l), UA_OK);
    CHECK(d[0] == 1 && d[2] == 1.5 && d[4] == 2);
    uint16_t e[3 * 4];
    ua_band_plan b = {.dst = (char *)e,
                      .batch = 1,
                      .rows = 3,
                      .cols = 4,
                      .lo = 1,
                      .hi = 1,
                      .itemsize = 2,
                      .set_inside = true,
                      .set_outside = true};
    b.inside[0] = 7;
    CHECK_STATUS(ua_queue_band(q, &b), UA_OK);
    CHECK(e[1] == 7 && e[6] == 7 && e[11] == 7 && e[0] == 0 && e[5] == 0);
}

/* A plan of out = a + b over float32 rows of `cols` (a dense, b one row
 * broadcast), at byte offset `skew` into 16-byte aligned buffers. */
static void
row_plan(ua_elementwise_plan *p, char *buf, ptrdiff_t cols, size_t skew)
{
    memset(p, 0, sizeof *p);
    p->function = UA_EW_add;
    p->nin = 2;
    p->compute = p->out_type = UA_FLOAT32;
    p->in_type[0] = p->in_type[1] = UA_FLOAT32;
    p->nd = 2;
    p->shape[0] = 3;
    p->shape[1] = cols;
    p->size = (size_t)(3 * cols);
    p->out = buf + skew;
    p->in[0] = buf + 512 + skew;
    p->in[1] = buf + 1024 + skew;
    p->ostep[0] = p->istep[0][0] = 4 * cols;
    p->ostep[1] = p->istep[0][1] = p->istep[1][1] = 4;
    p->istep[1][0] = 0;
}

/* The strided path takes rows a vector at a time only where every
 * operand's last axis is dense, whole vectors long and aligned. */
static void
test_row_vectors(void)
{
    static _Alignas(16) char buf[2048];
    ua_elementwise_plan p;
    ua_ew_variant v;
    row_plan(&p, buf, 8, 0);
    ua_ew_variant_of_plan(&p, 16, &v);
    CHECK(v.path == UA_EW_PATH_STRIDED && v.vec == 4);
    CHECK(ua_ew_row_vector(&p, 8) == 2 && ua_ew_row_vector(&p, 1) == 1);
    row_plan(&p, buf, 6, 0); /* rows of 24 bytes: pairs */
    CHECK(ua_ew_row_vector(&p, 16) == 2);
    row_plan(&p, buf, 5, 0); /* odd rows: none */
    CHECK(ua_ew_row_vector(&p, 16) == 1);
    row_plan(&p, buf, 8, 4); /* 4 bytes off the vectors' alignment */
    CHECK(ua_ew_row_vector(&p, 16) == 1);
    row_plan(&p, buf, 8, 0);
    p.istep[1][1] = 0; /* a column broadcast along the rows */
    p.istep[1][0] = 4;
    CHECK(ua_ew_row_vector(&p, 16) == 1);
    row_plan(&p, buf, 8, 0);
    p.scalar[1] = true; /* a scalar operand is no row */
    p.istep[1][1] = 0;
    CHECK(ua_ew_row_vector(&p, 16) == 4);
    /* dense and aligned: the contiguous path's vectors */
    memset(&p, 0, sizeof p);
    p.function = UA_EW_add;
    p.nin = 2;
    p.compute = p.out_type = p.in_type[0] = p.in_type[1] = UA_FLOAT64;
    p.nd = 1;
    p.shape[0] = 10;
    p.size = 10;
    p.contiguous = true;
    p.out = buf;
    p.in[0] = buf + 512;
    p.in[1] = buf + 1024;
    p.ostep[0] = p.istep[0][0] = p.istep[1][0] = 8;
    ua_ew_variant_of_plan(&p, 16, &v);
    CHECK(v.path == UA_EW_PATH_CONTIGUOUS && v.vec == 2);
    p.in[1] = buf + 1032;
    ua_ew_variant_of_plan(&p, 16, &v);
    CHECK(v.path == UA_EW_PATH_CONTIGUOUS && v.vec == 1);
}

static const char *
plain_storage(ua_typenum t)
{
    (void)t;
    return "float";
}

/* The position of "int op" among kernel k's parameters in the kernel
 * text, or -1. */
static int
op_position_in_text(const char *text, const char *name)
{
    char head[64];
    snprintf(head, sizeof head, "\n%s(", name);
    const char *p = strstr(text, head);
    if (p == NULL) {
        return -2;
    }
    const char *end = strchr(p, ')');
    int position = 0;
    for (p += strlen(head); p < end; p++) {
        if (strncmp(p, "int op", 6) == 0 && (p[6] == ',' || p[6] == ')')) {
            return position;
        }
        position += *p == ',';
    }
    return -1;
}

/* A launch's op chooses its program: the op read where each kernel has
 * it, and programs of two ops or of two families have two keys. */
static void
test_program_per_operation(void)
{
    static const char *const none[] = {"", NULL};
    ua_gpu_language lang = {none, none, plain_storage};
    ua_gpu_program all = {
        {UA_FLOAT32, UA_FLOAT32, false}, UA_GPU_F_ALL, -1, -1};
    char *text = ua_gpu_program_source(&lang, &all);
    CHECK(text != NULL && strstr(text, "#define PROGRAM_OP -1\n") != NULL);
    for (int k = 0; text != NULL && k < UA_GPU_NKERNELS; k++) {
        int at = op_position_in_text(text, ua_gpu_kernel_names[k]);
        CHECK(at != -2);
        CHECK(at == ua_gpu_op_argument((ua_gpu_kernel)k));
    }
    free(text);
    ua_gpu_types t = {UA_FLOAT32, UA_FLOAT32, false};
    ua_gpu_arg args[12] = {{0}};
    for (int i = 0; i < 12; i++) {
        args[i] = (ua_gpu_arg){UA_GPU_I32, NULL, 0, 7};
    }
    args[8].i32 = 1; /* ua_red_dense's op: a product */
    ua_gpu_program p = ua_gpu_program_for(&t, UA_GPU_RED_DENSE, args, 12);
    CHECK(p.op == 1 && p.family == UA_GPU_F_RED_DENSE);
    args[8].i32 = 0;
    ua_gpu_program q = ua_gpu_program_for(&t, UA_GPU_RED_DENSE, args, 12);
    CHECK(q.op == 0 && ua_gpu_program_key(&p) != ua_gpu_program_key(&q));
    ua_gpu_program r = ua_gpu_program_for(&t, UA_GPU_IOTA, args, 3);
    CHECK(r.op == -1 && ua_gpu_program_key(&r) != ua_gpu_program_key(&q));
    /* Too few arguments, or another kind there: any operation. */
    CHECK(ua_gpu_program_for(&t, UA_GPU_ARG_CHUNKS, args, 11).op == -1);
    args[8].kind = UA_GPU_I64;
    CHECK(ua_gpu_program_for(&t, UA_GPU_RED_DENSE, args, 12).op == -1);
    text = ua_gpu_program_source(&lang, &p);
    CHECK(text != NULL && strstr(text, "#define PROGRAM_OP 1\n") != NULL &&
          strstr(text, "#define WANT_RED_DENSE 1\n") != NULL &&
          strstr(text, "#define WANT_RED_LANES 1\n") == NULL);
    free(text);
}

int
main(void)
{
    ua_queue *q = host_queue();
    test_gather_and_scatter_one_index(q);
    test_gather_two_broadcast_indices(q);
    test_take_along_axis(q);
    test_compress(q);
    test_fills(q);
    test_row_vectors();
    test_program_per_operation();
    return check_report("test_compute");
}
