/* The catalogue's expressions as kernel source (elementwise_source.h):
 * one function's expression, and a fused expression's nodes, each a
 * function of its own, with what keeps them the eager calls' values (a
 * math function's value kept apart from a later add on CUDA, a chain's
 * division by its row value, its kept values, the work after a rows
 * reduction). */
#include <stdbool.h>
#include <stdio.h>

#include "core/compute/compute.h"
#include "gpu/elementwise_source.h"
#include "gpu/kernel_text.h"

#define UA_EW_EXPR_(NAME, ARITY, KINDS, RULE, EXPR) #EXPR,
static const char *const expressions[] = {UA_ELEMENTWISE(UA_EW_EXPR_)};
#undef UA_EW_EXPR_

const char *
ua_ew_expression(ua_ew_id f)
{
    return expressions[f];
}

/* A fused expression's operand reference as a name of ua_eval's. */
static void
add_reference(ua_gpu_text *t, int ref)
{
    if (ref >= UA_FUSED_ROW(0)) {
        ua_gpu_text_add(t, "s%d", ref - UA_FUSED_ROW(0));
    } else if (ref >= UA_FUSED_CONSTANT(0)) {
        ua_gpu_text_add(t, "k%d", ref - UA_FUSED_CONSTANT(0));
    } else if (ref >= UA_FUSED_NODE(0)) {
        ua_gpu_text_add(t, "n%d", ref - UA_FUSED_NODE(0));
    } else {
        ua_gpu_text_add(t, "%c", "abc"[ref]);
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
add_fused_function(ua_gpu_text *t, const ua_fused_expr *e, ua_typenum type,
                   int nin, const char *name, const char *result)
{
    for (int j = 0; j < e->count; j++) {
        ua_ew_id f = e->node[j].function;
        bool predicate = ua_ew_rule_of(f) == UA_EW_PREDICATE;
        ua_gpu_text_add(t, "UA_FN %s %s_node%d(", predicate ? "bool" : "T",
                        name, j);
        for (int k = 0; k < ua_ew_arity(f); k++) {
            bool condition = ua_ew_rule_of(f) == UA_EW_SELECT && k == 0;
            ua_gpu_text_add(t, "%s%s %c", k ? ", " : "",
                            condition ? "bool" : "T", "abc"[k]);
        }
        ua_gpu_text_add(t, ") {\n  return (%s);\n}\n", ua_ew_expression(f));
    }
    ua_gpu_text_add(t, "UA_FN %s %s(", result, name);
    for (int k = 0; k < nin; k++) {
        ua_gpu_text_add(t, "%sua_a%d %c", k ? ", " : "", k, "abc"[k]);
    }
    for (int j = 0; j < e->nrow; j++) {
        ua_gpu_text_add(t, ", T s%d", j);
    }
    ua_gpu_text_add(t, ") {\n");
    for (int c = 0; c < e->nconst; c++) {
        ua_gpu_text_add(t, "  T k%d = ua_constant(%lluULL);\n", c,
                        e->constant[c]);
    }
    for (int j = 0; j < e->count; j++) {
        ua_ew_id f = e->node[j].function;
        bool by_row =
            f == UA_EW_divide && e->node[j].operand[1] >= UA_FUSED_ROW(0);
        bool apart = node_kept_apart(e, j, type);
        if (by_row) {
            ua_gpu_text_add(t, "  T n%d = ua_divide_by_row(", j);
        } else {
            ua_gpu_text_add(t, "  %s n%d = %s%s_node%d(",
                            ua_ew_rule_of(f) == UA_EW_PREDICATE ? "bool" : "T",
                            j, apart ? "ua_rounded(" : "", name, j);
        }
        for (int k = 0; k < ua_ew_arity(f); k++) {
            ua_gpu_text_add(t, "%s", k ? ", " : "");
            add_reference(t, e->node[j].operand[k]);
        }
        ua_gpu_text_add(t, apart && !by_row ? "));\n" : ");\n");
    }
    ua_gpu_text_add(t, "  return n%d;\n}\n", e->count - 1);
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

/* UA_REDUCE_POST: the work a rows reduction's value (a reducing chain's)
 * goes through before it is written, v's post, else none. */
static void
add_post(ua_gpu_text *t, const ua_ew_variant *v)
{
    if (v->post != NULL) {
        add_fused_function(t, v->post, v->compute, 1, "ua_eval_post", "ua_or");
    }
    ua_gpu_text_add(t, "#define UA_REDUCE_POST(V) %s(V)\n",
                    v->post != NULL ? "ua_eval_post" : "");
}

/* ua_eval of a fused expression, or of a chain each phase's ua_eval<p>
 * with UA_PHASE<p>(A, B, C), its call on the operands and the row values
 * before it. */
void
ua_ew_add_fused_eval(ua_gpu_text *t, const ua_ew_variant *v)
{
    ua_gpu_text_add(t, "UA_FN T ua_constant(U64 w) {\n"
                       "  union { U64 w[2]; T v; } u;\n"
                       "  u.w[0] = w; u.w[1] = 0;\n"
                       "  return u.v;\n"
                       "}\n");
    if (v->chain == NULL) {
        add_fused_function(t, v->fused, v->compute, v->nin, "ua_eval",
                           "ua_or");
        add_post(t, v);
        return;
    }
    ua_gpu_text_add(t, "%s", divide_by_row);
    for (int p = 0; p < v->chain->count; p++) {
        char name[32];
        snprintf(name, sizeof name, "ua_eval%d", p);
        add_fused_function(t, v->chain->phase[p], v->compute, v->nin, name,
                           "T");
        ua_gpu_text_add(t, "#define UA_PHASE%d(A, B, C) ua_eval%d(A", p, p);
        for (int k = 1; k < v->nin; k++) {
            ua_gpu_text_add(t, ", %c", "ABC"[k]);
        }
        for (int j = 0; j < p; j++) {
            ua_gpu_text_add(t, ", s%d", j);
        }
        ua_gpu_text_add(t, ")\n#define UA_PHASE_OP%d %d\n", p,
                        v->chain->reduce[p]);
    }
    /* a last phase that reduces: UA_CHAIN_ROWS's, its value through post */
    int last = v->chain->count - 1;
    bool rows = v->chain->reduce[last] != 0;
    ua_gpu_text_add(t,
                    "#define UA_CHAIN_ROWS %d\n#define UA_PHASEL UA_PHASE%d\n"
                    "#define UA_PHASE_OPL UA_PHASE_OP%d\n",
                    rows, last, last);
    add_post(t, v);
    ua_fused_expr rest;
    if (ua_ew_chain_keeps_value(v, &rest)) {
        add_fused_function(t, &rest, v->compute, 1, "ua_eval_kept", "T");
        /* a value kept in registers: kept apart as the last phase's node */
        const ua_fused_expr *r = v->chain->phase[v->chain->count - 2];
        bool apart = !rounded_once(r->node[r->count - 1].function) &&
                     read_by_an_add(&rest, UA_FUSED_INPUT(0), 0);
        ua_gpu_text_add(t, "#define UA_KEPT_VALUE(V) %s(V)\n",
                        apart ? "ua_rounded" : "");
        ua_gpu_text_add(t, "#define UA_CHAIN_KEPT 1\n"
                           "#define UA_CHAIN_LAST_KEPT(A) ua_eval_kept(A");
        for (int j = 0; j < rest.nrow; j++) {
            ua_gpu_text_add(t, ", s%d", j);
        }
        ua_gpu_text_add(t, ")\n");
    }
}
