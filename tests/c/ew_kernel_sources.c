/* Writes the CUDA C++ source of elementwise kernels to a directory, for
 * tools/check_cuda_kernels.py to compile with nvcc where there is no GPU:
 *   ew_kernel_sources DIR [all|paths|sample|fused]
 * "all": every function with every computation type it admits (dense
 * operands of that type, contiguous, vectors of 16 bytes); "paths": for a
 * few functions, every path (the strided one with and without vectors
 * along its rows), with scalars, casts at load and store, and unaligned
 * data; "sample": one kernel of each shape a launch takes, named by what
 * it is, whose machine code benchmarks/ew_ptx.py compares across changes to
 * the kernel text; "fused": fused expressions (usmarray.fuse's), and
 * their values reduced in the kernel, all of them or by rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"
#include "core/compute/compute.h"
#include "gpu/elementwise_source.h"

static bool
admits(ua_ew_id f, ua_typenum c)
{
    ua_ew_rule r = ua_ew_rule_of(f);
    if (r == UA_EW_TO_FLOAT &&
        !(ua_ew_kind_bit(c) & (UA_EW_K_FLOAT | UA_EW_K_COMPLEX))) {
        return false;
    }
    if ((r == UA_EW_TO_COMPLEX || r == UA_EW_COMPLEX_TO_REAL) &&
        ua_ew_kind_bit(c) != UA_EW_K_COMPLEX) {
        return false;
    }
    return r == UA_EW_SELECT || (ua_ew_kinds(f) & ua_ew_kind_bit(c)) != 0;
}

static ua_typenum
result_of(ua_ew_id f, ua_typenum c)
{
    switch (ua_ew_rule_of(f)) {
    case UA_EW_PREDICATE:
        return UA_BOOL;
    case UA_EW_TO_REAL:
    case UA_EW_COMPLEX_TO_REAL:
        return c == UA_COMPLEX64    ? UA_FLOAT32
               : c == UA_COMPLEX128 ? UA_FLOAT64
                                    : c;
    default:
        return c;
    }
}

static int count;

/* Writes v's source to DIR/name.cu. */
static int
emit_named(const char *dir, const char *name, const ua_ew_variant *v)
{
    char *src = ua_ew_kernel_source(ua_cuda_ew_language(), v);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.cu", dir, name);
    FILE *f = fopen(path, "w");
    if (src == NULL || f == NULL) {
        fprintf(stderr, "cannot write %s\n", path);
        free(src);
        return 1;
    }
    fputs(src, f);
    fclose(f);
    free(src);
    count++;
    return 0;
}

static int
emit(const char *dir, const ua_ew_variant *v)
{
    char name[256];
    snprintf(name, sizeof name, "%s_%s_%04d", ua_ew_name(v->function),
             ua_dtype_name(v->compute), count);
    return emit_named(dir, name, v);
}

static void
base(ua_ew_variant *v, ua_ew_id f, ua_typenum c)
{
    memset(v, 0, sizeof *v);
    v->function = f;
    v->nin = ua_ew_arity(f);
    v->compute = c;
    v->out_type = result_of(f, c);
    for (int k = 0; k < v->nin; k++) {
        v->in_type[k] =
            ua_ew_rule_of(f) == UA_EW_SELECT && k == 0 ? UA_BOOL : c;
    }
    v->path = UA_EW_PATH_CONTIGUOUS;
    size_t widest = ua_dtype_itemsize(c) > ua_dtype_itemsize(v->out_type)
                        ? ua_dtype_itemsize(c)
                        : ua_dtype_itemsize(v->out_type);
    v->vec = (int)(16 / widest);
    v->aligned = true;
}

/* The sample: contiguous float32 add, a product by a scalar, exp,
 * complex64 product, float16 add, int8 to float64 at load, a 2-D strided
 * add with and without row vectors, a 5-D add of the general path and a
 * where of three operands. */
static int
emit_sample(const char *dir)
{
    static const struct {
        const char *name;
        ua_ew_id function;
        ua_typenum compute;
    } dense[] = {{"add_f32_contiguous", UA_EW_add, UA_FLOAT32},
                 {"exp_f32", UA_EW_exp, UA_FLOAT32},
                 {"multiply_c64", UA_EW_multiply, UA_COMPLEX64},
                 {"add_f16", UA_EW_add, UA_FLOAT16},
                 {"where_f32", UA_EW_where, UA_FLOAT32}};
    ua_ew_variant v;
    int bad = 0;
    for (size_t i = 0; i < sizeof dense / sizeof *dense; i++) {
        base(&v, dense[i].function, dense[i].compute);
        bad |= emit_named(dir, dense[i].name, &v);
    }
    base(&v, UA_EW_multiply, UA_FLOAT32);
    v.scalar[1] = true;
    bad |= emit_named(dir, "multiply_f32_scalar", &v);
    base(&v, UA_EW_positive, UA_FLOAT64);
    v.in_type[0] = UA_INT8;
    bad |= emit_named(dir, "astype_i8_f64", &v);
    base(&v, UA_EW_add, UA_FLOAT32);
    v.path = UA_EW_PATH_STRIDED;
    v.nd = 2;
    v.index32 = true;
    bad |= emit_named(dir, "add_f32_strided2_rows", &v);
    v.vec = 1;
    bad |= emit_named(dir, "add_f32_strided2", &v);
    v.path = UA_EW_PATH_GENERAL;
    v.nd = 0;
    v.index32 = false;
    bad |= emit_named(dir, "add_f32_general5", &v);
    printf("%d sources\n", count);
    return bad;
}

/* Fused expressions (usmarray.fuse): GELU in float32 and float64 on the
 * contiguous and general paths, a selection on a predicate with a scalar
 * operand, and integer arithmetic. */
static int
emit_fused(const char *dir)
{
    static ua_fused_expr gelu = {
        8,
        5,
        {{UA_EW_pow, {0, UA_FUSED_CONSTANT(0)}},
         {UA_EW_multiply, {UA_FUSED_CONSTANT(1), UA_FUSED_NODE(0)}},
         {UA_EW_add, {0, UA_FUSED_NODE(1)}},
         {UA_EW_multiply, {UA_FUSED_CONSTANT(2), UA_FUSED_NODE(2)}},
         {UA_EW_tanh, {UA_FUSED_NODE(3)}},
         {UA_EW_add, {UA_FUSED_CONSTANT(3), UA_FUSED_NODE(4)}},
         {UA_EW_multiply, {UA_FUSED_CONSTANT(4), 0}},
         {UA_EW_multiply, {UA_FUSED_NODE(6), UA_FUSED_NODE(5)}}},
        {0},
        1,
        0};
    static ua_fused_expr leaky = {
        3,
        1,
        {{UA_EW_greater, {0, 1}},
         {UA_EW_multiply, {UA_FUSED_CONSTANT(0), 0}},
         {UA_EW_where, {UA_FUSED_NODE(0), 0, UA_FUSED_NODE(1)}}},
        {0},
        2,
        0};
    /* a math library's result read by the next node: exp(a * a) - b */
    static ua_fused_expr exp_minus = {
        3,
        0,
        {{UA_EW_multiply, {0, 0}},
         {UA_EW_exp, {UA_FUSED_NODE(0)}},
         {UA_EW_subtract, {UA_FUSED_NODE(1), 1}}},
        {0},
        13,
        0};
    static ua_fused_expr integers = {
        3,
        1,
        {{UA_EW_multiply, {0, UA_FUSED_CONSTANT(0)}},
         {UA_EW_bitwise_xor, {UA_FUSED_NODE(0), 1}},
         {UA_EW_less, {UA_FUSED_NODE(1), 0}}},
        {3},
        3,
        0};
    struct {
        const char *name;
        const ua_fused_expr *e;
        ua_typenum t, out;
        int nin;
    } cases[] = {
        {"fused_gelu_f32", &gelu, UA_FLOAT32, UA_FLOAT32, 1},
        {"fused_gelu_f64", &gelu, UA_FLOAT64, UA_FLOAT64, 1},
        {"fused_leaky_f32", &leaky, UA_FLOAT32, UA_FLOAT32, 2},
        {"fused_exp_minus_f32", &exp_minus, UA_FLOAT32, UA_FLOAT32, 2},
        {"fused_exp_minus_f64", &exp_minus, UA_FLOAT64, UA_FLOAT64, 2},
        {"fused_integers_i64", &integers, UA_INT64, UA_BOOL, 2}};
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ua_ew_variant v;
        base(&v, UA_EW_add, cases[i].t);
        v.fused = cases[i].e;
        v.nin = cases[i].nin;
        v.out_type = cases[i].out;
        v.in_type[1] = cases[i].t;
        v.scalar[1] = cases[i].e == &leaky;
        bad |= emit_named(dir, cases[i].name, &v);
        char general[64];
        snprintf(general, sizeof general, "%s_general", cases[i].name);
        v.path = UA_EW_PATH_GENERAL;
        v.vec = 1;
        v.aligned = false;
        bad |= emit_named(dir, general, &v);
        /* its values reduced in the kernel: sum, max, min */
        for (int op = UA_EW_REDUCE_SUM;
             cases[i].out != UA_BOOL && op <= UA_EW_REDUCE_MIN; op++) {
            char reduced[64];
            snprintf(reduced, sizeof reduced, "%s_reduce%d", cases[i].name,
                     op);
            v.path = UA_EW_PATH_CONTIGUOUS;
            v.aligned = op != UA_EW_REDUCE_MIN;
            v.reduce = op;
            bad |= emit_named(dir, reduced, &v);
        }
        /* a sum whose second operand (leaky's threshold) is one element
         * in the device's memory, read once */
        if (cases[i].e == &leaky) {
            char one[64];
            snprintf(one, sizeof one, "%s_reduce_one", cases[i].name);
            v.reduce = UA_EW_REDUCE_SUM;
            v.scalar[1] = false;
            v.per_row[1] = true;
            bad |= emit_named(dir, one, &v);
            v.scalar[1] = true;
            v.per_row[1] = false;
        }
        /* of rows: a mean, its second operand one element a row */
        if (cases[i].out != UA_BOOL) {
            char rows[64];
            snprintf(rows, sizeof rows, "%s_rows", cases[i].name);
            v.reduce = UA_EW_REDUCE_MEAN;
            v.rows = true;
            v.per_row[1] = cases[i].nin > 1 && !v.scalar[1];
            bad |= emit_named(dir, rows, &v);
            /* a warp a row */
            snprintf(rows, sizeof rows, "%s_rows_warp", cases[i].name);
            v.warp = true;
            v.group = UA_EW_ROWS_GROUP_SMALL;
            bad |= emit_named(dir, rows, &v);
            v.warp = false;
            v.group = 0;
            /* each row's value through a square root (row norms') */
            static ua_fused_expr root = {1, 0, {{UA_EW_sqrt, {0}}}, {0}, 9, 0};
            snprintf(rows, sizeof rows, "%s_rows_post", cases[i].name);
            v.post = &root;
            bad |= emit_named(dir, rows, &v);
            v.post = NULL;
            v.rows = false;
            v.per_row[1] = false;
        }
        v.reduce = 0;
    }
    /* softmax as a chain: the row's max, the sum of exp(x - max), then
     * exp(x - max) / sum written */
    static ua_fused_expr most = {1, 0, {{UA_EW_positive, {0}}}, {0}, 4, 0};
    static ua_fused_expr exps = {2,
                                 0,
                                 {{UA_EW_subtract, {0, UA_FUSED_ROW(0)}},
                                  {UA_EW_exp, {UA_FUSED_NODE(0)}}},
                                 {0},
                                 5,
                                 1};
    static ua_fused_expr share = {
        3,
        0,
        {{UA_EW_subtract, {0, UA_FUSED_ROW(0)}},
         {UA_EW_exp, {UA_FUSED_NODE(0)}},
         {UA_EW_divide, {UA_FUSED_NODE(1), UA_FUSED_ROW(1)}}},
        {0},
        6,
        2};
    static ua_fused_chain softmax = {
        3, {&most, &exps, &share}, {UA_EW_REDUCE_MAX, UA_EW_REDUCE_SUM, 0}, 7};
    const ua_typenum chain_types[] = {UA_FLOAT32, UA_FLOAT64};
    /* rows read again in each phase, rows kept in registers, and rows a
     * warp each, kept in registers or read again */
    const char *const chain_names[] = {"fused_softmax_f32",
                                       "fused_softmax_f64",
                                       "fused_softmax_f32_slots",
                                       "fused_softmax_f64_slots",
                                       "fused_softmax_f32_warp",
                                       "fused_softmax_f64_warp",
                                       "fused_softmax_f32_warp_slots",
                                       "fused_softmax_f64_warp_slots"};
    for (int i = 0; i < 8; i++) {
        ua_ew_variant v;
        base(&v, UA_EW_exp, chain_types[i % 2]);
        v.fused = &share;
        v.chain = &softmax;
        v.rows = true;
        v.vec = 1;
        v.warp = i >= 4;
        v.group = v.warp ? UA_EW_ROWS_GROUP_SMALL : 0;
        v.slots = i % 4 < 2 ? 0
                  : v.warp  ? UA_EW_WARP_MAX_SLOTS
                            : UA_EW_CHAIN_MAX_SLOTS;
        bad |= emit_named(dir, chain_names[i], &v);
    }
    /* rows kept in the group's local memory */
    const char *const local_names[] = {"fused_softmax_f32_local",
                                       "fused_softmax_f64_local"};
    for (int i = 0; i < 2; i++) {
        ua_ew_variant v;
        base(&v, UA_EW_exp, chain_types[i]);
        v.fused = &share;
        v.chain = &softmax;
        v.rows = true;
        v.vec = 1;
        v.local_row = i == 0 ? 8192 : 4096;
        v.group = UA_EW_ROWS_GROUP_CHAIN;
        bad |= emit_named(dir, local_names[i], &v);
    }
    /* a standard deviation as a chain whose last phase reduces: the row's
     * mean, the mean of (x - mean)^2, its square root written a row, for
     * each way of taking a row */
    static ua_fused_expr spread = {
        2,
        0,
        {{UA_EW_subtract, {0, UA_FUSED_ROW(0)}},
         {UA_EW_multiply, {UA_FUSED_NODE(0), UA_FUSED_NODE(0)}}},
        {0},
        10,
        1};
    static ua_fused_expr deviation_root = {1,   0,  {{UA_EW_sqrt, {0}}},
                                           {0}, 11, 0};
    static ua_fused_chain deviation = {
        2, {&most, &spread}, {UA_EW_REDUCE_MEAN, UA_EW_REDUCE_MEAN}, 12};
    const char *const row_ways[] = {"reread",        "slots",        "warp",
                                    "warp_slots",    "local",        "one_row",
                                    "one_row_slots", "one_row_local"};
    for (int i = 0; i < 16; i++) {
        ua_ew_variant v;
        int way = i / 2;
        char name[64];
        snprintf(name, sizeof name, "fused_deviation_%s_%s",
                 i % 2 ? "f64" : "f32", row_ways[way]);
        base(&v, UA_EW_multiply, chain_types[i % 2]);
        v.fused = &spread;
        v.chain = &deviation;
        v.post = &deviation_root;
        v.rows = true;
        v.vec = 1;
        v.warp = way == 2 || way == 3;
        /* ways 5 to 7: a chain's one row, in a group of its own size */
        v.group = v.warp     ? UA_EW_ROWS_GROUP_SMALL
                  : way >= 5 ? UA_EW_ROWS_GROUP_ONE_ROW
                  : way == 4 ? UA_EW_ROWS_GROUP_CHAIN
                             : 0;
        v.slots = way == 1 || way == 6 ? UA_EW_CHAIN_MAX_SLOTS
                  : way == 3           ? UA_EW_WARP_MAX_SLOTS
                                       : 0;
        v.local_row = way == 4 || way == 7 ? 4096 : 0;
        bad |= emit_named(dir, name, &v);
    }
    printf("%d sources\n", count);
    return bad;
}

int
main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR [all|paths|sample|fused]\n", argv[0]);
        return 2;
    }
    if (argc > 2 && strcmp(argv[2], "sample") == 0) {
        return emit_sample(argv[1]);
    }
    if (argc > 2 && strcmp(argv[2], "fused") == 0) {
        return emit_fused(argv[1]);
    }
    bool paths = argc > 2 && strcmp(argv[2], "paths") == 0;
    int bad = 0;
    for (int f = 0; f < UA_EW_COUNT; f++) {
        for (int i = 0; i < UA_NTYPES; i++) {
            ua_typenum c = ua_dtype_at(i);
            if (!admits((ua_ew_id)f, c)) {
                continue;
            }
            ua_ew_variant v;
            base(&v, (ua_ew_id)f, c);
            if (!paths) {
                bad |= emit(argv[1], &v);
                continue;
            }
            if (f != UA_EW_add && f != UA_EW_where && f != UA_EW_less &&
                f != UA_EW_exp) {
                continue;
            }
            /* every path, scalars in each position, a cast at load from
             * float16 and int8 and at store to complex128, unaligned */
            for (int nd = 1; nd <= UA_EW_SMALL_DIMS; nd++) {
                for (int i32 = 0; i32 < 2; i32++) {
                    ua_ew_variant s = v;
                    s.path = UA_EW_PATH_STRIDED;
                    s.nd = nd;
                    s.index32 = i32;
                    s.vec = 1;
                    bad |= emit(argv[1], &s);
                    /* rows in vectors, with the last operand a scalar */
                    s.vec = v.vec;
                    bad |= emit(argv[1], &s);
                    s.scalar[v.nin - 1] = true;
                    bad |= emit(argv[1], &s);
                }
            }
            ua_ew_variant g = v;
            g.path = UA_EW_PATH_GENERAL;
            g.vec = 1;
            g.aligned = false;
            bad |= emit(argv[1], &g);
            for (int k = 0; k < v.nin; k++) {
                ua_ew_variant s = v;
                s.scalar[k] = true;
                bad |= emit(argv[1], &s);
                s.in_type[k] = k == 0 ? UA_FLOAT16 : UA_INT8;
                s.scalar[k] = false;
                s.out_type = UA_COMPLEX128;
                s.vec = 1;
                bad |= emit(argv[1], &s);
            }
        }
    }
    printf("%d sources\n", count);
    return bad;
}
