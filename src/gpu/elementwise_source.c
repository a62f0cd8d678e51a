/* Generates the source of one run-time compiled elementwise kernel
 * (elementwise_source.h): the variant's macros, the language's header and
 * dialect, the type layer of the computation type, the prelude, the
 * operands' loads and the result's store with their conversions (the copy
 * engine's, ua_kernel_conversion), the catalogue's expression, and the
 * kernel text (elementwise_kernels.inc, and elementwise_rows_kernels.inc
 * for rows and reductions); and the kernel's plan. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/compute/compute.h"
#include "gpu/elementwise_source.h"

#include "elementwise_complex_text.h"
#include "elementwise_prelude_text.h"
#include "gpu/elementwise_kernels_text.h"
#include "gpu/elementwise_rows_kernels_text.h"

#define UA_EW_EXPR_(NAME, ARITY, KINDS, RULE, EXPR) #EXPR,
static const char *const expressions[] = {UA_ELEMENTWISE(UA_EW_EXPR_)};
#undef UA_EW_EXPR_

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
    v->post = v->rows ? p->post : NULL;
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

typedef struct {
    char *s;
    size_t len, cap;
    bool failed;
} text;

static void
add(text *t, const char *fmt, ...)
{
    if (t->failed) {
        return;
    }
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = true;
            return;
        }
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = (t->cap + (size_t)n) * 2;
        char *s = realloc(t->s, cap);
        if (s == NULL) {
            t->failed = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
}

static void
add_parts(text *t, const char *const *parts)
{
    for (; *parts != NULL; parts++) {
        add(t, "%s", *parts);
    }
}

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
        add(t, "#define UA_KIND_%s %d\n", kinds[i],
            strcmp(kinds[i], kind) == 0);
    }
    int tbits = (int)ua_dtype_itemsize(r) * 8;
    int rbits = r == UA_FLOAT16 ? 32 : tbits;
    add(t, "#define UA_R %s\n#define UA_U %s\n", register_name(l, r),
        l->storage(unsigned_of(r == UA_FLOAT16 ? UA_FLOAT32 : r)));
    add(t, "#define UA_T_BITS %d\n#define UA_R_BITS %d\n", tbits, rbits);
    add(t, "#define UA_M(name) name%s\n",
        l->float_suffix && rbits == 32 && ua_dtype_kind(r) == 'f' ? "##f"
                                                                  : "");
    add(t, "#define UA_HALF_STEP(x, up) ua_half_step(x, up)\n");
    if (ua_dtype_kind(c) == 'c') {
        add(t, "#define UA_COMPLEX_DECLARED\ntypedef %s ua_complex;\n",
            l->storage(c));
        add_parts(t, ua_ew_complex_text);
    }
}

/* A register value of dtype t from its storage in expression e, and
 * back. */
static void
add_from_storage(text *t, const ua_ew_language *l, ua_typenum type,
                 const char *e)
{
    if (type == UA_FLOAT16) {
        add(t, "(float)%s(%s)", l->cvt.half_to_real, e);
    } else if (type == UA_BOOL) {
        add(t, "(bool)(%s)", e);
    } else {
        add(t, "%s", e);
    }
}

static void
add_to_storage(text *t, const ua_ew_language *l, ua_typenum type,
               const char *e)
{
    if (type == UA_FLOAT16) {
        add(t, "%s(%s)", l->cvt.real_to_half, e);
    } else if (type == UA_BOOL) {
        add(t, "(unsigned char)(%s)", e);
    } else {
        add(t, "%s", e);
    }
}

/* ua_cvt_<name>(v): storage of src to storage of dst, as astype does. */
static void
add_conversion(text *t, const ua_ew_language *l, const char *name,
               ua_typenum dst, ua_typenum src)
{
    char body[400];
    ua_kernel_conversion(&l->cvt, dst, src, body, sizeof body);
    add(t, "UA_FN %s ua_cvt_%s(%s v) {\n  typedef %s D;\n  %s\n}\n",
        l->storage(dst), name, l->storage(src), l->storage(dst), body);
}

/* ua_ld<name>, ua_st: the storage type at a byte address. */
static void
add_access(text *t, const char *name, const char *type)
{
    add(t,
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
    add(t, "typedef %s ua_s%d;\n", l->storage(in), k);
    char name[8];
    snprintf(name, sizeof name, "%d", k);
    add_access(t, name, l->storage(in));
    add(t,
        "UA_FN ua_s%d ua_sv%d(U64 lo, U64 hi) {\n"
        "  union { U64 w[2]; ua_s%d v; } u;\n"
        "  u.w[0] = lo; u.w[1] = hi;\n"
        "  return u.v;\n"
        "}\n",
        k, k, k);
    add_conversion(t, l, name, want, in);
    add(t, "typedef %s ua_a%d;\n", select ? "bool" : "T", k);
    add(t, "UA_FN ua_a%d ua_load%d(ua_s%d v) {\n  return ", k, k, k);
    char e[32];
    snprintf(e, sizeof e, "ua_cvt_%d(v)", k);
    add_from_storage(t, l, want, e);
    add(t, ";\n}\n");
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

/* A fused expression's operand reference as a name of ua_eval's. */
static void
add_reference(text *t, int ref)
{
    if (ref >= UA_FUSED_ROW(0)) {
        add(t, "s%d", ref - UA_FUSED_ROW(0));
    } else if (ref >= UA_FUSED_CONSTANT(0)) {
        add(t, "k%d", ref - UA_FUSED_CONSTANT(0));
    } else if (ref >= UA_FUSED_NODE(0)) {
        add(t, "n%d", ref - UA_FUSED_NODE(0));
    } else {
        add(t, "%c", "abc"[ref]);
    }
}

/* Whether f's value is one rounding of its operands, or a choice among
 * them: no product of the math library's is left in it unrounded. */
static bool
rounded_once(ua_ew_id f)
{
    switch (f) {
    case UA_EW_add:
    case UA_EW_subtract:
    case UA_EW_multiply:
    case UA_EW_square:
    case UA_EW_divide:
    case UA_EW_reciprocal:
    case UA_EW_sqrt:
    case UA_EW_negative:
    case UA_EW_positive:
    case UA_EW_abs:
    case UA_EW_where:
    case UA_EW_maximum:
    case UA_EW_minimum:
    case UA_EW_floor:
    case UA_EW_ceil:
    case UA_EW_trunc:
    case UA_EW_round:
    case UA_EW_copysign:
    case UA_EW_sign:
        return true;
    default:
        return ua_ew_rule_of(f) == UA_EW_PREDICATE;
    }
}

/* Whether f takes an operand as it is, adding nothing to it: a product,
 * a quotient or a square root (each rounded on its own), a comparison or
 * a test.  Anything else may add it, or pass it on to what adds (a
 * choice, a negation). */
static bool
reads_without_adding(ua_ew_id f)
{
    switch (f) {
    case UA_EW_multiply:
    case UA_EW_square:
    case UA_EW_divide:
    case UA_EW_reciprocal:
    case UA_EW_sqrt:
        return true;
    default:
        return ua_ew_rule_of(f) == UA_EW_PREDICATE;
    }
}

/* Whether a node of e from `from` on that reads ref may add it: what
 * ptxas would join an unrounded product to. */
static bool
read_by_an_add(const ua_fused_expr *e, int ref, int from)
{
    for (int k = from; k < e->count; k++) {
        ua_ew_id f = e->node[k].function;
        for (int o = 0; o < ua_ew_arity(f) && !reads_without_adding(f); o++) {
            if (e->node[k].operand[o] == ref) {
                return true;
            }
        }
    }
    return false;
}

/* Whether node j of e is kept apart from what reads it (ua_rounded): a
 * float value of the math library's that a later node may add or pass
 * on, or that is the result of a float64 expression, which a reduction
 * adds (a float32 one it converts first), so that the fused kernel has
 * the eager calls' stored values. */
static bool
node_kept_apart(const ua_fused_expr *e, int j, ua_typenum t)
{
    if ((t != UA_FLOAT32 && t != UA_FLOAT64) ||
        rounded_once(e->node[j].function)) {
        return false;
    }
    return j == e->count - 1 ? t == UA_FLOAT64
                             : read_by_an_add(e, UA_FUSED_NODE(j), j + 1);
}

/* The evaluation of fused expression e computing in t, named `name` (its
 * nodes' functions prefixed by it): each node a function of its own over
 * the catalogue's expression (its operands named a, b, c), called in
 * order on the nin inputs, the row values s0, s1, ... (a chain's phase),
 * earlier nodes and the constants (T's bits). */
static void
add_fused_function(text *t, const ua_fused_expr *e, ua_typenum type, int nin,
                   const char *name, const char *result)
{
    for (int j = 0; j < e->count; j++) {
        ua_ew_id f = e->node[j].function;
        bool predicate = ua_ew_rule_of(f) == UA_EW_PREDICATE;
        add(t, "UA_FN %s %s_node%d(", predicate ? "bool" : "T", name, j);
        for (int k = 0; k < ua_ew_arity(f); k++) {
            bool condition = ua_ew_rule_of(f) == UA_EW_SELECT && k == 0;
            add(t, "%s%s %c", k ? ", " : "", condition ? "bool" : "T",
                "abc"[k]);
        }
        add(t, ") {\n  return (%s);\n}\n", expressions[f]);
    }
    add(t, "UA_FN %s %s(", result, name);
    for (int k = 0; k < nin; k++) {
        add(t, "%sua_a%d %c", k ? ", " : "", k, "abc"[k]);
    }
    for (int j = 0; j < e->nrow; j++) {
        add(t, ", T s%d", j);
    }
    add(t, ") {\n");
    for (int c = 0; c < e->nconst; c++) {
        add(t, "  T k%d = ua_constant(%lluULL);\n", c, e->constant[c]);
    }
    for (int j = 0; j < e->count; j++) {
        ua_ew_id f = e->node[j].function;
        bool by_row =
            f == UA_EW_divide && e->node[j].operand[1] >= UA_FUSED_ROW(0);
        bool apart = node_kept_apart(e, j, type);
        if (by_row) {
            add(t, "  T n%d = ua_divide_by_row(", j);
        } else {
            add(t, "  %s n%d = %s%s_node%d(",
                ua_ew_rule_of(f) == UA_EW_PREDICATE ? "bool" : "T", j,
                apart ? "ua_rounded(" : "", name, j);
        }
        for (int k = 0; k < ua_ew_arity(f); k++) {
            add(t, "%s", k ? ", " : "");
            add_reference(t, e->node[j].operand[k]);
        }
        add(t, apart && !by_row ? "));\n" : ");\n");
    }
    add(t, "  return n%d;\n}\n", e->count - 1);
}

/* A chain's division by a row's value (softmax's by its sum): the
 * element times the reciprocal, which the row's threads compute once (the
 * loop's invariant), scaled by a power of two where 1/s would leave T's
 * normal range: a tiny s's scale multiplies the element first (exactly,
 * so that a subnormal element keeps its bits), a huge s's the product;
 * within a rounding of the quotient, below the row value's own (a
 * reduction's).  An IEEE division an element kept the softmax
 * kernel's instruction issue busy.  Zeros, infinities and NaN give the
 * quotient's. */
static const char divide_by_row[] =
    "UA_FN T ua_divide_by_row(T a, T s) {\n"
    "#if UA_KIND_FLOAT && UA_R_BITS == 32\n"
    "  T big = 1.2676506002282294e+30f, small = 7.888609052210118e-31f;\n"
    "#elif UA_KIND_FLOAT\n"
    "  T big = 8.452712498170644e+270, small = 1.1830521861667747e-271;\n"
    "#endif\n"
    "#if UA_KIND_FLOAT\n"
    "  T m = s < (T)0 ? -s : s;\n"
    "  T p = m < small ? big : m > big ? small : (T)1;\n"
    "  T up = p > (T)1 ? p : (T)1, down = p < (T)1 ? p : (T)1;\n"
    "  return UA_MUL_RN(UA_MUL_RN(UA_MUL_RN(a, up), (T)1 / (s * p)), down);\n"
    "#else\n"
    "  return ua_divide(a, s);\n"
    "#endif\n"
    "}\n";

/* ua_eval of a fused expression, or of a chain each phase's ua_eval<p>
 * with UA_PHASE<p>(A, B, C), its call on the operands and the row values
 * before it. */
static void
add_fused_eval(text *t, const ua_ew_variant *v)
{
    add(t, "UA_FN T ua_constant(U64 w) {\n"
           "  union { U64 w[2]; T v; } u;\n"
           "  u.w[0] = w; u.w[1] = 0;\n"
           "  return u.v;\n"
           "}\n");
    if (v->chain == NULL) {
        add_fused_function(t, v->fused, v->compute, v->nin, "ua_eval",
                           "ua_or");
        /* a rows reduction's value goes through its post expression */
        if (v->post != NULL) {
            add_fused_function(t, v->post, v->compute, 1, "ua_eval_post",
                               "ua_or");
        }
        add(t, "#define UA_REDUCE_POST(V) %s(V)\n",
            v->post != NULL ? "ua_eval_post" : "");
        return;
    }
    add(t, "%s", divide_by_row);
    for (int p = 0; p < v->chain->count; p++) {
        char name[32];
        snprintf(name, sizeof name, "ua_eval%d", p);
        add_fused_function(t, v->chain->phase[p], v->compute, v->nin, name,
                           "T");
        add(t, "#define UA_PHASE%d(A, B, C) ua_eval%d(A", p, p);
        for (int k = 1; k < v->nin; k++) {
            add(t, ", %c", "ABC"[k]);
        }
        for (int j = 0; j < p; j++) {
            add(t, ", s%d", j);
        }
        add(t, ")\n#define UA_PHASE_OP%d %d\n", p, v->chain->reduce[p]);
    }
    /* a last phase that reduces: UA_CHAIN_ROWS's, its value through post */
    int last = v->chain->count - 1;
    bool rows = v->chain->reduce[last] != 0;
    add(t,
        "#define UA_CHAIN_ROWS %d\n#define UA_PHASEL UA_PHASE%d\n"
        "#define UA_PHASE_OPL UA_PHASE_OP%d\n",
        rows, last, last);
    if (v->post != NULL) {
        add_fused_function(t, v->post, v->compute, 1, "ua_eval_post", "ua_or");
    }
    add(t, "#define UA_REDUCE_POST(V) %s(V)\n",
        v->post != NULL ? "ua_eval_post" : "");
    ua_fused_expr rest;
    if (ua_ew_chain_keeps_value(v, &rest)) {
        add_fused_function(t, &rest, v->compute, 1, "ua_eval_kept", "T");
        /* a value kept in registers: kept apart as the last phase's node */
        const ua_fused_expr *r = v->chain->phase[v->chain->count - 2];
        bool apart = !rounded_once(r->node[r->count - 1].function) &&
                     read_by_an_add(&rest, UA_FUSED_INPUT(0), 0);
        add(t, "#define UA_KEPT_VALUE(V) %s(V)\n", apart ? "ua_rounded" : "");
        add(t, "#define UA_CHAIN_KEPT 1\n"
               "#define UA_CHAIN_LAST_KEPT(A) ua_eval_kept(A");
        for (int j = 0; j < rest.nrow; j++) {
            add(t, ", s%d", j);
        }
        add(t, ")\n");
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
    add(t, "typedef %s ua_so;\ntypedef %s ua_or;\n", l->storage(v->out_type),
        reg);
    add_access(t, "o", l->storage(v->out_type));
    add(t,
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
    add(t, "UA_FN ua_so ua_store(ua_or r) {\n  return ua_cvt_o(");
    add_to_storage(t, l, r, "r");
    add(t, ");\n}\n");
    if (v->fused != NULL) {
        add_fused_eval(t, v);
    } else {
        add(t, "UA_FN ua_or ua_eval(");
        for (int k = 0; k < v->nin; k++) {
            add(t, "%sua_a%d %c", k ? ", " : "", k, "abc"[k]);
        }
        add(t, ") {\n  return (%s);\n}\n", expressions[v->function]);
    }
    /* operand k at byte offset O, or its scalar value */
    add(t, "#define UA_APPLY(OO, O0, O1, O2) ua_st(out + (OO), "
           "ua_store(ua_eval(");
    for (int k = 0; k < v->nin; k++) {
        if (v->scalar[k]) {
            add(t, "%sv%d", k ? ", " : "", k);
        } else {
            add(t, "%sua_load%d(ua_ld%d(in%d + (O%d)))", k ? ", " : "", k, k,
                k, k);
        }
    }
    add(t, ")))\n");
    add(t, "#define UA_SCALARS");
    for (int k = 0; k < v->nin; k++) {
        if (v->scalar[k]) {
            add(t, " ua_a%d v%d = ua_load%d(ua_sv%d(sv%d_lo, sv%d_hi));", k, k,
                k, k, k, k);
        }
    }
    add(t, "\n");
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
    add(&t, "#define UA_NIN %d\n#define UA_PATH %d\n#define UA_ND %d\n",
        v->nin, v->path, v->nd);
    /* NVRTC refuses arrays of no elements, which vectors of 0 would be */
    add(&t,
        "#define UA_INDEX32 %d\n#define UA_VEC %d\n#define UA_ALIGNED %d\n",
        v->index32, v->vec > 1 ? v->vec : 1, v->aligned);
    for (int k = 0; k < UA_EW_MAX_OPERANDS; k++) {
        add(&t, "#define UA_SCALAR%d %d\n", k, k < v->nin && v->scalar[k]);
    }
    add(&t,
        "#define UA_REDUCE %d\n#define UA_REDUCE_ROWS %d\n#define UA_CHAIN "
        "%d\n",
        v->reduce, v->rows && !v->chain, v->chain ? v->chain->count : 0);
    add(&t,
        "#define UA_CHAIN_SLOTS %d\n#define UA_ROW_WARP %d\n#define "
        "UA_CHAIN_LOCAL %d\n#define UA_ROWS_GROUP %d\n",
        v->slots, v->warp, v->local_row, v->group);
    for (int k = 0; k < UA_EW_MAX_OPERANDS; k++) {
        add(&t, "#define UA_PER_ROW%d %d\n", k, k < v->nin && v->per_row[k]);
    }
    add_parts(&t, l->header);
    add_parts(&t, l->dialect);
    add(&t, "%s", half_step);
    add_type_layer(&t, l, v->compute);
    add_parts(&t, ua_ew_prelude_text);
    for (int k = 0; k < v->nin; k++) {
        add_operand(&t, l, v, k);
    }
    add_result(&t, l, v);
    add_parts(&t, ua_ew_kernel_text);
    if (v->reduce || v->chain != NULL) {
        add_parts(&t, ua_ew_rows_kernel_text);
    }
    if (t.failed) {
        free(t.s);
        return NULL;
    }
    return t.s;
}
