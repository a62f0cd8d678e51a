/* The source of the run-time compiled reduction programs
 * (launcher.h): the switches of a family's kernels, the dialect, the
 * type layer of a pair of element and accumulator types, then the kernel
 * text (reduce_kernels.inc, order_kernels.inc). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/launch_common.h"
#include "gpu/order_kernels_text.h"
#include "gpu/reduce_kernels_text.h"

const char *const ua_gpu_kernel_names[UA_GPU_NKERNELS] = {
    "ua_red_lanes",     "ua_red_chunks",    "ua_arg_chunks", "ua_scan_rows",
    "ua_iota",          "ua_merge",         "ua_search",     "ua_group",
    "ua_matmul",        "ua_red_dense",     "ua_arg_dense",  "ua_scan_tiles",
    "ua_scan_totals",   "ua_red_lanes_vec", "ua_radix_keys", "ua_radix_hist",
    "ua_radix_scatter", "ua_radix_finish"};

const char *const ua_gpu_family_names[UA_GPU_NFAMILIES] = {
    "red_lanes", "red_lanes_vec", "red_chunks", "red_dense", "arg",
    "scan_rows", "scan",          "iota",       "merge",     "search",
    "group",     "matmul",        "radix"};

ua_gpu_family
ua_gpu_family_of(ua_gpu_kernel k)
{
    static const ua_gpu_family of[UA_GPU_NKERNELS] = {
        [UA_GPU_RED_LANES] = UA_GPU_F_RED_LANES,
        [UA_GPU_RED_CHUNKS] = UA_GPU_F_RED_CHUNKS,
        [UA_GPU_ARG_CHUNKS] = UA_GPU_F_ARG,
        [UA_GPU_SCAN_ROWS] = UA_GPU_F_SCAN_ROWS,
        [UA_GPU_IOTA] = UA_GPU_F_IOTA,
        [UA_GPU_MERGE] = UA_GPU_F_MERGE,
        [UA_GPU_SEARCH] = UA_GPU_F_SEARCH,
        [UA_GPU_GROUP_RUNS] = UA_GPU_F_GROUP,
        [UA_GPU_MATMUL] = UA_GPU_F_MATMUL,
        [UA_GPU_RED_DENSE] = UA_GPU_F_RED_DENSE,
        [UA_GPU_ARG_DENSE] = UA_GPU_F_ARG,
        [UA_GPU_SCAN_TILES] = UA_GPU_F_SCAN,
        [UA_GPU_SCAN_TOTALS] = UA_GPU_F_SCAN,
        [UA_GPU_RED_LANES_VEC] = UA_GPU_F_RED_LANES_VEC,
        [UA_GPU_RADIX_KEYS] = UA_GPU_F_RADIX,
        [UA_GPU_RADIX_HIST] = UA_GPU_F_RADIX,
        [UA_GPU_RADIX_SCATTER] = UA_GPU_F_RADIX,
        [UA_GPU_RADIX_FINISH] = UA_GPU_F_RADIX};
    return of[k];
}

int
ua_gpu_op_argument(ua_gpu_kernel k)
{
    /* The positions in the kernels' parameter lists (reduce_kernels.inc;
     * a test reads them there). */
    switch (k) {
    case UA_GPU_RED_LANES:
    case UA_GPU_RED_LANES_VEC:
        return 7;
    case UA_GPU_RED_CHUNKS:
    case UA_GPU_RED_DENSE:
    case UA_GPU_ARG_DENSE:
    case UA_GPU_SCAN_ROWS:
    case UA_GPU_SCAN_TOTALS:
        return 8;
    case UA_GPU_SCAN_TILES:
        return 9;
    case UA_GPU_ARG_CHUNKS:
        return 11;
    default:
        return -1;
    }
}

ua_gpu_program
ua_gpu_program_for(const ua_gpu_types *t, ua_gpu_kernel k,
                   const ua_gpu_arg *args, int nargs)
{
    int i = ua_gpu_op_argument(k);
    bool has = i >= 0 && i < nargs && args[i].kind == UA_GPU_I32 &&
               args[i].i32 >= 0 && args[i].i32 < 64;
    return (ua_gpu_program){*t, ua_gpu_family_of(k), has ? args[i].i32 : -1,
                            -1};
}

uint64_t
ua_gpu_program_key(const ua_gpu_program *p)
{
    const ua_gpu_types *t = &p->t;
    return (uint64_t)(p->op + 1) << 24 | (uint64_t)p->family << 16 |
           (uint64_t)ua_dtype_index(t->x) << 8 |
           (uint64_t)ua_dtype_index(t->a) << 1 | (uint64_t)t->truth;
}

static bool
is_wide(ua_typenum t)
{
    return t == UA_FLOAT64 || t == UA_COMPLEX128;
}

bool
ua_gpu_types_need_fp64(const ua_gpu_types *t)
{
    return is_wide(t->x) || is_wide(t->a);
}

/* The identities and constants of the accumulator's arithmetic. */
static void
write_identities(char *s, size_t cap, ua_typenum a)
{
    const char *sum = "0", *prod = "1", *min = "1", *max = "0", *zero = "0";
    switch (a) {
    case UA_FLOAT32:
        sum = "(-0.0f)", prod = "1.0f", min = "INFINITY", max = "(-INFINITY)",
        zero = "0.0f";
        break;
    case UA_FLOAT64:
        sum = "(-0.0)", prod = "1.0", min = "((double)INFINITY)",
        max = "(-(double)INFINITY)", zero = "0.0";
        break;
    case UA_COMPLEX64:
    case UA_COMPLEX128:
        sum = "a_c((RT)-0.0f, (RT)-0.0f)";
        min = "a_c((RT)INFINITY, (RT)INFINITY)";
        max = "a_c((RT)-INFINITY, (RT)-INFINITY)";
        prod = "a_c((RT)1, (RT)0)", zero = "a_c((RT)0, (RT)0)";
        break;
    case UA_INT64:
        min = "((A)0x7fffffffffffffff)";
        max = "((A)-0x7fffffffffffffff - (A)1)";
        break;
    case UA_UINT64:
        min = "((A)0xffffffffffffffff)";
        break;
    default:
        break;
    }
    snprintf(s, cap,
             "#define A_ID_SUM %s\n#define A_ID_PROD %s\n#define A_ID_MIN "
             "%s\n#define A_ID_MAX %s\n#define A_ZERO %s\n",
             sum, prod, min, max, zero);
}

/* The body of loadx: v (an X) as an A. */
static const char *
load_expression(const ua_gpu_types *t)
{
    char xk = ua_dtype_kind(t->x);
    if (t->truth) {
        return xk == 'c'            ? "(A)(v.re != 0 || v.im != 0)"
               : t->x == UA_FLOAT16 ? "(A)((v & 0x7fff) != 0)"
                                    : "(A)(v != 0)";
    }
    if (t->x == UA_FLOAT16) {
        return "HALF_TO_F(v)";
    }
    return t->x == t->a ? "v" : "(A)v";
}

/* The bits of +inf among the keys of elements of xsz bytes (floats). */
static const char *
inf_bits(size_t xsz)
{
    return xsz == 2   ? "((KT)0x7c00u)"
           : xsz == 4 ? "((KT)0x7f800000u)"
                      : "(((KT)0x7ff00000u) << 32)";
}

/* The text's switches of the family's kernels ("#define WANT_RED_LANES
 * 1" for ua_red_lanes): the kernel text guards each kernel and the
 * helpers that it alone uses by them (of one kernel where p names one);
 * and the program's operation. */
static void
write_wanted(char *s, size_t cap, const ua_gpu_program *p)
{
    size_t n = (size_t)snprintf(s, cap, "#define PROGRAM_OP %d\n", p->op);
    for (int k = 0; k < UA_GPU_NKERNELS; k++) {
        if ((p->family != UA_GPU_F_ALL &&
             ua_gpu_family_of((ua_gpu_kernel)k) != p->family) ||
            (p->kernel >= 0 && k != p->kernel)) {
            continue;
        }
        n += (size_t)snprintf(s + n, cap - n, "#define WANT_");
        for (const char *c = ua_gpu_kernel_names[k] + 3; *c != '\0'; c++) {
            s[n++] = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
        }
        n += (size_t)snprintf(s + n, cap - n, " 1\n");
    }
}

char *
ua_gpu_program_source(const ua_gpu_language *l, const ua_gpu_program *p)
{
    const ua_gpu_types *t = &p->t;
    char ids[512], layer[2048], wanted[UA_GPU_NKERNELS * 48 + 32];
    write_wanted(wanted, sizeof wanted, p);
    char ak = ua_dtype_kind(t->a), xk = ua_dtype_kind(t->x);
    write_identities(ids, sizeof ids, t->a);
    bool wide = t->a == UA_FLOAT64 || t->a == UA_COMPLEX128;
    /* XV: the 16 bytes of XVW elements that one vector load reads. */
    size_t xsz = ua_dtype_itemsize(t->x);
    snprintf(layer, sizeof layer,
             "typedef %s X;\ntypedef %s A;\n#define RT %s\n"
             "#define RT_FROM_BITS(b) %s\n"
             "#define A_COMPLEX %d\n#define A_FLOAT %d\n#define A_SIGNED %d\n"
             "#define A_BOOL %d\n#define X_HALF %d\n#define A_SIZE %zu\n"
             "#define XVW %zu\n#define X_IS_A %d\n"
             "typedef struct __attribute__((aligned(16))) { X v[XVW]; } XV;\n"
             "#define KEY_BYTES %zu\ntypedef %s KT;\n#define X_FLOATKIND %d\n"
             "#define X_SIGNEDINT %d\n#define X_INF_BITS %s\n"
             "%sFN A x_to_a(X v) {\n  return %s;\n}\n"
             "FN A loadx(GLOBAL const char *p) {\n"
             "  return x_to_a(*(GLOBAL const X *)p);\n}\n",
             l->storage(t->x), l->storage(t->a), wide ? "double" : "float",
             wide ? "BITS_F64(b)" : "BITS_F32((int)(b))", ak == 'c', ak == 'f',
             ak == 'i', ak == 'b', t->x == UA_FLOAT16, ua_dtype_itemsize(t->a),
             xsz < 16 ? 16 / xsz : 1, t->x == t->a && !t->truth,
             xsz < 8 ? xsz : 8, xsz < 8 ? "unsigned int" : "U64", xk == 'f',
             xk == 'i', inf_bits(xsz), ids, load_expression(t));
    const char *const *texts[] = {l->header, l->dialect, ua_reduce_kernel_text,
                                  ua_order_kernel_text};
    size_t n = strlen(wanted) + strlen(layer) + 1;
    for (int k = 0; k < 4; k++) {
        for (int i = 0; texts[k][i] != NULL; i++) {
            n += strlen(texts[k][i]);
        }
    }
    char *s = malloc(n);
    if (s == NULL) {
        return NULL;
    }
    strcpy(s, wanted);
    for (int k = 0; k < 4; k++) {
        for (int i = 0; texts[k][i] != NULL; i++) {
            strcat(s, texts[k][i]);
        }
        if (k == 1) {
            strcat(s, layer); /* the type layer after the dialect */
        }
    }
    return s;
}
