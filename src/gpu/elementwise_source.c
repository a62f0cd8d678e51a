/* Generates the source of one run-time compiled elementwise kernel
 * (elementwise_source.h): the variant's macros, the language's header and
 * dialect, the type layer of the computation type, the prelude, the
 * operands' loads and the result's store with their conversions (the copy
 * engine's, ua_kernel_conversion), the catalogue's expression, and the
 * kernel text (elementwise_kernels.inc, and elementwise_rows_kernels.inc
 * for rows and reductions); and the kernel's plan. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/compute/compute.h"
#include "gpu/elementwise_source.h"
#include "gpu/kernel_text.h"

#include "elementwise_complex_text.h"
#include "elementwise_prelude_text.h"
#include "gpu/elementwise_kernels_text.h"
#include "gpu/elementwise_rows_kernels_text.h"

/* --------------------------------------------------------- variants */

static bool
aligned_to(const void *ptr, ptrdiff_t step, size_t align)
{
    return (uintptr_t)ptr % align == 0 && step % (ptrdiff_t)align == 0;
}

static size_t
alignment_of(ua_typenum t)
{
    size_t s = ua_dtype_itemsize(t);
    return s > 8 ? 8 : s;
}

/* Whether every operand's elements lie at multiples of their alignment. */
static bool
plan_aligned(const ua_elementwise_plan *p)
{
    for (int d = 0; d < p->nd; d++) {
        if (!aligned_to(p->out, p->ostep[d], alignment_of(p->out_type))) {
            return false;
        }
        for (int k = 0; k < p->nin; k++) {
            if (!p->scalar[k] && !aligned_to(p->in[k], p->istep[k][d],
                                             alignment_of(p->in_type[k]))) {
                return false;
            }
        }
    }
    return true;
}

/* The widest element a vector holds: the output's or an array
 * operand's (a scalar is no vector). */
static size_t
widest_operand(const ua_elementwise_plan *p)
{
    size_t widest = ua_dtype_itemsize(p->out_type);
    for (int k = 0; k < p->nin; k++) {
        size_t s = ua_dtype_itemsize(p->in_type[k]);
        widest = !p->scalar[k] && s > widest ? s : widest;
    }
    return widest;
}

/* The most elements e a vector of up to max_vector bytes holds for which
 * takes(p, e), halving from there; 1 where none does. */
static int
widest_vector(const ua_elementwise_plan *p, size_t max_vector,
              bool (*takes)(const ua_elementwise_plan *p, int e))
{
    for (int e = (int)(max_vector / widest_operand(p)); e > 1; e /= 2) {
        if (takes(p, e)) {
            return e;
        }
    }
    return 1;
}

/* Whether every operand's pointer is aligned to e of its elements: the
 * contiguous path's vectors. */
static bool
pointers_take(const ua_elementwise_plan *p, int e)
{
    bool ok = (uintptr_t)p->out % (e * ua_dtype_itemsize(p->out_type)) == 0;
    for (int k = 0; k < p->nin && ok; k++) {
        ok = p->scalar[k] ||
             (uintptr_t)p->in[k] % (e * ua_dtype_itemsize(p->in_type[k])) == 0;
    }
    return ok;
}

/* Whether operand data at ptr, with steps step[0..nd-1] of which the last
 * is the element's size, takes vectors of e elements of size isz. */
static bool
rows_take_vectors(const char *ptr, const ptrdiff_t *step, int nd, size_t isz,
                  int e)
{
    ptrdiff_t vbytes = (ptrdiff_t)isz * e;
    if (step[nd - 1] != (ptrdiff_t)isz || (uintptr_t)ptr % vbytes != 0) {
        return false;
    }
    for (int d = 0; d < nd - 1; d++) {
        if (step[d] % vbytes != 0) {
            return false;
        }
    }
    return true;
}

/* Whether the plan's last axis has a length of whole vectors of e
 * elements, and every operand's rows take them. */
static bool
rows_take(const ua_elementwise_plan *p, int e)
{
    bool ok = p->shape[p->nd - 1] % e == 0 &&
              rows_take_vectors(p->out, p->ostep, p->nd,
                                ua_dtype_itemsize(p->out_type), e);
    for (int k = 0; k < p->nin && ok; k++) {
        ok = p->scalar[k] ||
             rows_take_vectors(p->in[k], p->istep[k], p->nd,
                               ua_dtype_itemsize(p->in_type[k]), e);
    }
    return ok;
}

int
ua_ew_row_vector(const ua_elementwise_plan *p, size_t max_vector)
{
    return p->nd < 1 ? 1 : widest_vector(p, max_vector, rows_take);
}

void
ua_ew_variant_of_plan(const ua_elementwise_plan *p, size_t max_vector,
                      ua_ew_variant *v)
{
    memset(v, 0, sizeof *v);
    v->function = p->function;
    v->fused = p->fused;
    v->nin = p->nin;
    v->compute = p->compute;
    v->out_type = p->out_type;
    for (int k = 0; k < p->nin; k++) {
        v->in_type[k] = p->in_type[k];
        v->scalar[k] = p->scalar[k];
    }
    v->aligned = plan_aligned(p);
    v->vec = 1; /* a vector of one element where there is none */
    v->reduce = p->fused != NULL && p->chain == NULL ? p->reduce : 0;
    v->chain = p->chain;
    v->rows = (v->reduce != 0 || v->chain != NULL) && p->row > 0;
    v->post = v->rows || v->reduce ? p->post : NULL;
    for (int k = 0; k < p->nin && (v->rows || v->reduce); k++) {
        v->per_row[k] = p->per_row[k]; /* of all values: one element */
    }
    v->slots =
        v->chain != NULL ? ua_ew_chain_slots(p->row, UA_EW_CHAIN_THREADS) : 0;
    if (v->reduce || v->chain) {
        v->path = UA_EW_PATH_CONTIGUOUS; /* elements one at a time */
    } else if (p->contiguous && v->aligned) {
        v->path = UA_EW_PATH_CONTIGUOUS;
        v->vec = widest_vector(p, max_vector, pointers_take);
    } else if (p->nd <= UA_EW_SMALL_DIMS) {
        v->path = UA_EW_PATH_STRIDED;
        v->nd = p->nd < 1 ? 1 : p->nd;
        v->index32 = p->small_index;
        v->vec = ua_ew_row_vector(p, max_vector);
    } else {
        v->path = UA_EW_PATH_GENERAL;
    }
}

uint64_t
ua_ew_variant_key(const ua_ew_variant *v)
{
    uint64_t k = (uint64_t)v->function;
    k = k << 5 | (uint64_t)ua_dtype_index(v->compute);
    k = k << 5 | (uint64_t)ua_dtype_index(v->out_type);
    for (int i = 0; i < UA_EW_MAX_OPERANDS; i++) {
        bool used = i < v->nin;
        k = k << 5 | (used ? (uint64_t)ua_dtype_index(v->in_type[i]) : 31u);
        k = k << 1 | (uint64_t)(used && v->scalar[i]);
    }
    k = k << 2 | (uint64_t)v->path;
    k = k << 3 | (uint64_t)v->nd;
    k = k << 1 | (uint64_t)v->index32;
    k = k << 5 | (uint64_t)v->vec;
    k = k << 1 | (uint64_t)v->aligned;
    k = k << 3 | (uint64_t)v->reduce;
    k = k << 1 | (uint64_t)v->rows;
    k = k << 1 | (uint64_t)v->warp;
    for (int i = 0; i < UA_EW_MAX_OPERANDS; i++) {
        k = k << 1 | (uint64_t)v->per_row[i];
    }
    if (v->fused != NULL) {
        /* A fused expression's key, or a chain's, mixed in (splitmix64's
         * finalizer). */
        uint64_t e = v->chain != NULL
                         ? ~v->chain->key ^ (uint64_t)v->slots << 57 ^
                               (uint64_t)v->local_row << 32
                         : v->fused->key;
        e ^= (uint64_t)v->group << 20; /* a rows kernel's group */
        e ^= v->post != NULL ? ~v->post->key * 0x9e3779b97f4a7c15ULL : 0;
        uint64_t z = k ^ (e + 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        k = z ^ (z >> 31);
    }
    return k;
}

/* ------------------------------------------------------------- plan */

/* The plan of up to D axes at A (a ua_ew_plan's small or general one). */
#define FILL_PLAN(A, P, D)                                                    \
    do {                                                                      \
        (A)->out = (P)->out;                                                  \
        (A)->n = (long long)(P)->size;                                        \
        (A)->nd = (P)->nd;                                                    \
        for (int k = 0; k < (P)->nin; k++) {                                  \
            (A)->in[k] = (P)->in[k];                                          \
            memcpy(&(A)->sv[2 * k], (P)->value[k].bytes, 16);                 \
        }                                                                     \
        for (int d = 0; d < (P)->nd && d < (D); d++) {                        \
            (A)->shape[d] = (P)->shape[d];                                    \
            (A)->ostep[d] = (P)->ostep[d];                                    \
            for (int k = 0; k < (P)->nin; k++) {                              \
                (A)->step[k][d] = (P)->istep[k][d];                           \
            }                                                                 \
        }                                                                     \
        if ((P)->nd == 0) {                                                   \
            (A)->shape[0] = 1;                                                \
        }                                                                     \
    } while (0)

/* The strided path's last axis in vectors of vec elements
 * (ua_ew_row_vector): its length divided, its steps multiplied. */
static void
rows_in_vectors(ua_ew_small_plan *a, const ua_elementwise_plan *p, int vec)
{
    int last = p->nd - 1;
    a->n /= vec;
    a->shape[last] /= vec;
    a->ostep[last] *= vec;
    for (int k = 0; k < p->nin; k++) {
        a->step[k][last] *= vec;
    }
}

size_t
ua_ew_plan_fill(const ua_elementwise_plan *p, const ua_ew_variant *v,
                ua_ew_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    if (v->path == UA_EW_PATH_GENERAL) {
        FILL_PLAN(&plan->general, p, UA_EW_GENERAL_DIMS);
        return sizeof plan->general;
    }
    FILL_PLAN(&plan->small, p, UA_EW_SMALL_DIMS);
    if (v->path == UA_EW_PATH_STRIDED && v->vec > 1) {
        rows_in_vectors(&plan->small, p, v->vec);
    }
    if (v->rows) {
        plan->small.shape[0] = p->row; /* the text's row length */
    }
    return sizeof plan->small;
}

void
ua_ew_plan_reduce_in_two(ua_ew_plan *plan, ua_ew_plan *finish, void *parts)
{
    *finish = *plan;
    finish->small.finish = 1;
    finish->small.in[0] = parts;
    finish->small.n = UA_EW_REDUCE_PARTS;
    finish->small.shape[0] = plan->small.n; /* a mean's count */
    plan->small.out = parts;
}

/* ------------------------------------------------------------ table */

static size_t
slot_of(uint64_t key, size_t cap)
{
    key ^= key >> 29;
    key *= 0xbf58476d1ce4e5b9ull;
    key ^= key >> 32;
    return (size_t)key & (cap - 1);
}

const ua_ew_slot *
ua_ew_table_find(const ua_ew_table *t, uint64_t key)
{
    if (t->cap == 0) {
        return NULL;
    }
    for (size_t i = slot_of(key, t->cap);; i = (i + 1) & (t->cap - 1)) {
        if (!t->slots[i].used) {
            return NULL;
        }
        if (t->slots[i].key == key) {
            return &t->slots[i];
        }
    }
}

static void
place(ua_ew_slot *slots, size_t cap, const ua_ew_slot *e)
{
    size_t j = slot_of(e->key, cap);
    while (slots[j].used) {
        j = (j + 1) & (cap - 1);
    }
    slots[j] = *e;
}

ua_status
ua_ew_table_add(ua_ew_table *t, uint64_t key, void *kernel, void *owner)
{
    if (2 * (t->count + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        ua_ew_slot *slots = calloc(cap, sizeof *slots);
        if (slots == NULL) {
            return ua_error_set(UA_ERR_NOMEM, "out of memory for a kernel");
        }
        for (size_t i = 0; i < t->cap; i++) {
            if (t->slots[i].used) {
                place(slots, cap, &t->slots[i]);
            }
        }
        free(t->slots);
        t->slots = slots;
        t->cap = cap;
    }
    ua_ew_slot e = {key, true, kernel, owner};
    place(t->slots, t->cap, &e);
    t->count++;
    return UA_OK;
}

/* ------------------------------------------------------------- text */

typedef ua_gpu_text text;

static const char *
kind_name(ua_typenum t)
{
    switch (ua_dtype_kind(t)) {
    case 'b':
        return "BOOL";
    case 'i':
        return "INT";
    case 'u':
        return "UINT";
    case 'f':
        return "FLOAT";
    }
    return "COMPLEX";
}

/* The real type of a complex one; others are their own. */
static ua_typenum
real_of(ua_typenum t)
{
    return t == UA_COMPLEX64    ? UA_FLOAT32
           : t == UA_COMPLEX128 ? UA_FLOAT64
                                : t;
}

static ua_typenum
unsigned_of(ua_typenum t)
{
    switch (ua_dtype_itemsize(t)) {
    case 1:
        return UA_UINT8;
    case 2:
        return UA_UINT16;
    case 4:
        return UA_UINT32;
    }
    return UA_UINT64;
}

/* The C type a real dtype is computed in. */
static const char *
register_name(const ua_ew_language *l, ua_typenum t)
{
    if (t == UA_BOOL) {
        return "bool";
    }
    if (t == UA_FLOAT16) {
        return "float";
    }
    return l->storage(t);
}

/* UA_R, UA_U, the kinds, the bits and UA_M of the computation type. */
static void
add_type_layer(text *t, const ua_ew_language *l, ua_typenum c)
{
    ua_typenum r = real_of(c);
    const char *kind = kind_name(c);
    static const char *const kinds[] = {"BOOL", "INT", "UINT", "FLOAT",
                                        "COMPLEX"};
    for (int i = 0; i < 5; i++) {
        ua_gpu_text_add(t, "#define UA_KIND_%s %d\n", kinds[i],
                        strcmp(kinds[i], kind) == 0);
    }
    int tbits = (int)ua_dtype_itemsize(r) * 8;
    int rbits = r == UA_FLOAT16 ? 32 : tbits;
    ua_gpu_text_add(t, "#define UA_R %s\n#define UA_U %s\n",
                    register_name(l, r),
                    l->storage(unsigned_of(r == UA_FLOAT16 ? UA_FLOAT32 : r)));
    ua_gpu_text_add(t, "#define UA_T_BITS %d\n#define UA_R_BITS %d\n", tbits,
                    rbits);
    ua_gpu_text_add(t, "#define UA_M(name) name%s\n",
                    l->float_suffix && rbits == 32 && ua_dtype_kind(r) == 'f'
                        ? "##f"
                        : "");
    ua_gpu_text_add(t, "#define UA_HALF_STEP(x, up) ua_half_step(x, up)\n");
    if (ua_dtype_kind(c) == 'c') {
        ua_gpu_text_add(
            t, "#define UA_COMPLEX_DECLARED\ntypedef %s ua_complex;\n",
            l->storage(c));
        ua_gpu_text_add_parts(t, ua_ew_complex_text);
    }
}

/* A register value of dtype t from its storage in expression e, and
 * back. */
static void
add_from_storage(text *t, const ua_ew_language *l, ua_typenum type,
                 const char *e)
{
    if (type == UA_FLOAT16) {
        ua_gpu_text_add(t, "(float)%s(%s)", l->cvt.half_to_real, e);
    } else if (type == UA_BOOL) {
        ua_gpu_text_add(t, "(bool)(%s)", e);
    } else {
        ua_gpu_text_add(t, "%s", e);
    }
}

static void
add_to_storage(text *t, const ua_ew_language *l, ua_typenum type,
               const char *e)
{
    if (type == UA_FLOAT16) {
        ua_gpu_text_add(t, "%s(%s)", l->cvt.real_to_half, e);
    } else if (type == UA_BOOL) {
        ua_gpu_text_add(t, "(unsigned char)(%s)", e);
    } else {
        ua_gpu_text_add(t, "%s", e);
    }
}

/* ua_cvt_<name>(v): storage of src to storage of dst, as astype does. */
static void
add_conversion(text *t, const ua_ew_language *l, const char *name,
               ua_typenum dst, ua_typenum src)
{
    char body[400];
    ua_kernel_conversion(&l->cvt, dst, src, body, sizeof body);
    ua_gpu_text_add(
        t, "UA_FN %s ua_cvt_%s(%s v) {\n  typedef %s D;\n  %s\n}\n",
        l->storage(dst), name, l->storage(src), l->storage(dst), body);
}

/* ua_ld<name>, ua_st: the storage type at a byte address. */
static void
add_access(text *t, const char *name, const char *type)
{
    ua_gpu_text_add(t,
                    "UA_FN %s ua_ld%s(GLOBAL const char *p) {\n"
                    "#if UA_ALIGNED\n"
                    "  return *(GLOBAL const %s *)p;\n"
                    "#else\n"
                    "  union { %s v; unsigned char b[sizeof(%s)]; } u;\n"
                    "  for (int i = 0; i < (int)sizeof(%s); i++) u.b[i] = "
                    "(unsigned char)p[i];\n"
                    "  return u.v;\n"
                    "#endif\n"
                    "}\n",
                    type, name, type, type, type, type);
}

static void
add_operand(text *t, const ua_ew_language *l, const ua_ew_variant *v, int k)
{
    bool select =
        !v->fused && ua_ew_rule_of(v->function) == UA_EW_SELECT && k == 0;
    ua_typenum want = select ? UA_BOOL : v->compute;
    ua_typenum in = v->in_type[k];
    ua_gpu_text_add(t, "typedef %s ua_s%d;\n", l->storage(in), k);
    char name[8];
    snprintf(name, sizeof name, "%d", k);
    add_access(t, name, l->storage(in));
    ua_gpu_text_add(t,
                    "UA_FN ua_s%d ua_sv%d(U64 lo, U64 hi) {\n"
                    "  union { U64 w[2]; ua_s%d v; } u;\n"
                    "  u.w[0] = lo; u.w[1] = hi;\n"
                    "  return u.v;\n"
                    "}\n",
                    k, k, k);
    add_conversion(t, l, name, want, in);
    ua_gpu_text_add(t, "typedef %s ua_a%d;\n", select ? "bool" : "T", k);
    ua_gpu_text_add(t, "UA_FN ua_a%d ua_load%d(ua_s%d v) {\n  return ", k, k,
                    k);
    char e[32];
    snprintf(e, sizeof e, "ua_cvt_%d(v)", k);
    add_from_storage(t, l, want, e);
    ua_gpu_text_add(t, ";\n}\n");
}

/* The expression's result: its dtype and register type. */
static ua_typenum
result_dtype(const ua_ew_variant *v)
{
    if (v->fused != NULL) {
        return v->out_type;
    }
    switch (ua_ew_rule_of(v->function)) {
    case UA_EW_PREDICATE:
        return UA_BOOL;
    case UA_EW_TO_REAL:
    case UA_EW_COMPLEX_TO_REAL:
        return real_of(v->compute);
    default:
        return v->compute;
    }
}

static void
add_result(text *t, const ua_ew_language *l, const ua_ew_variant *v)
{
    ua_typenum r = result_dtype(v);
    ua_ew_rule rule = ua_ew_rule_of(v->function);
    const char *reg = rule == UA_EW_PREDICATE ? "bool"
                      : rule == UA_EW_TO_REAL || rule == UA_EW_COMPLEX_TO_REAL
                          ? "UA_R"
                          : "T";
    ua_gpu_text_add(t, "typedef %s ua_so;\ntypedef %s ua_or;\n",
                    l->storage(v->out_type), reg);
    add_access(t, "o", l->storage(v->out_type));
    ua_gpu_text_add(
        t,
        "UA_FN void ua_st(GLOBAL char *p, ua_so v) {\n"
        "#if UA_ALIGNED\n"
        "  *(GLOBAL ua_so *)p = v;\n"
        "#else\n"
        "  union { ua_so v; unsigned char b[sizeof(ua_so)]; } u;\n"
        "  u.v = v;\n"
        "  for (int i = 0; i < (int)sizeof(ua_so); i++) p[i] = (char)u.b[i];\n"
        "#endif\n"
        "}\n");
    add_conversion(t, l, "o", v->out_type, r);
    ua_gpu_text_add(t, "UA_FN ua_so ua_store(ua_or r) {\n  return ua_cvt_o(");
    add_to_storage(t, l, r, "r");
    ua_gpu_text_add(t, ");\n}\n");
    if (v->fused != NULL) {
        ua_ew_add_fused_eval(t, v);
    } else {
        ua_gpu_text_add(t, "UA_FN ua_or ua_eval(");
        for (int k = 0; k < v->nin; k++) {
            ua_gpu_text_add(t, "%sua_a%d %c", k ? ", " : "", k, "abc"[k]);
        }
        ua_gpu_text_add(t, ") {\n  return (%s);\n}\n",
                        ua_ew_expression(v->function));
    }
    /* operand k at byte offset O, or its scalar value */
    ua_gpu_text_add(t, "#define UA_APPLY(OO, O0, O1, O2) ua_st(out + (OO), "
                       "ua_store(ua_eval(");
    for (int k = 0; k < v->nin; k++) {
        if (v->scalar[k]) {
            ua_gpu_text_add(t, "%sv%d", k ? ", " : "", k);
        } else {
            ua_gpu_text_add(t, "%sua_load%d(ua_ld%d(in%d + (O%d)))",
                            k ? ", " : "", k, k, k, k);
        }
    }
    ua_gpu_text_add(t, ")))\n");
    ua_gpu_text_add(t, "#define UA_SCALARS");
    for (int k = 0; k < v->nin; k++) {
        if (v->scalar[k]) {
            ua_gpu_text_add(
                t, " ua_a%d v%d = ua_load%d(ua_sv%d(sv%d_lo, sv%d_hi));", k, k,
                k, k, k, k);
        }
    }
    ua_gpu_text_add(t, "\n");
}

/* Products the prelude rounds on their own, unfused (the dialect's
 * mul_rn), and float16's neighbours, found on its bits (UA_HALF_STEP). */
static const char half_step[] =
    "#define UA_MUL_RN(a, b) mul_rn(a, b)\n"
    "UA_FN float ua_half_step(float x, bool up) {\n"
    "  unsigned short h = F_TO_HALF(x);\n"
    "  if ((h & 0x7fff) == 0) return HALF_TO_F(up ? 0x0001 : 0x8001);\n"
    "  bool away = ((h >> 15) == 0) == up;\n"
    "  return HALF_TO_F((unsigned short)(away ? h + 1 : h - 1));\n"
    "}\n";

char *
ua_ew_kernel_source(const ua_ew_language *l, const ua_ew_variant *v)
{
    text t = {NULL, 0, 0, false};
    ua_gpu_text_add(
        &t, "#define UA_NIN %d\n#define UA_PATH %d\n#define UA_ND %d\n",
        v->nin, v->path, v->nd);
    /* NVRTC refuses arrays of no elements, which vectors of 0 would be */
    ua_gpu_text_add(
        &t,
        "#define UA_INDEX32 %d\n#define UA_VEC %d\n#define UA_ALIGNED %d\n",
        v->index32, v->vec > 1 ? v->vec : 1, v->aligned);
    for (int k = 0; k < UA_EW_MAX_OPERANDS; k++) {
        ua_gpu_text_add(&t, "#define UA_SCALAR%d %d\n", k,
                        k < v->nin && v->scalar[k]);
    }
    ua_gpu_text_add(
        &t,
        "#define UA_REDUCE %d\n#define UA_REDUCE_ROWS %d\n#define UA_CHAIN "
        "%d\n",
        v->reduce, v->rows && !v->chain, v->chain ? v->chain->count : 0);
    ua_gpu_text_add(
        &t,
        "#define UA_CHAIN_SLOTS %d\n#define UA_ROW_WARP %d\n#define "
        "UA_CHAIN_LOCAL %d\n#define UA_ROWS_GROUP %d\n",
        v->slots, v->warp, v->local_row, v->group);
    for (int k = 0; k < UA_EW_MAX_OPERANDS; k++) {
        ua_gpu_text_add(&t, "#define UA_PER_ROW%d %d\n", k,
                        k < v->nin && v->per_row[k]);
    }
    ua_gpu_text_add_parts(&t, l->header);
    ua_gpu_text_add_parts(&t, l->dialect);
    ua_gpu_text_add(&t, "%s", half_step);
    add_type_layer(&t, l, v->compute);
    ua_gpu_text_add_parts(&t, ua_ew_prelude_text);
    for (int k = 0; k < v->nin; k++) {
        add_operand(&t, l, v, k);
    }
    add_result(&t, l, v);
    ua_gpu_text_add_parts(&t, ua_ew_kernel_text);
    if (v->reduce || v->chain != NULL) {
        ua_gpu_text_add_parts(&t, ua_ew_rows_kernel_text);
    }
    if (t.failed) {
        free(t.s);
        return NULL;
    }
    return t.s;
}
