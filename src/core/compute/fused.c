/* Fused expressions checked and planned as one elementwise call: the
 * graph's nodes run in one kernel of the compiling backends, over the
 * operands' broadcast shape. */
#include <string.h>

#include "core/backend.h"
#include "core/base/kernel_cache.h"
#include "core/compute/compute.h"
#include "core/compute/reduce.h"
#include "core/devices/devices.h"
#include "core/layout/iter_plan.h"

bool
ua_queue_compiles_elementwise(const ua_queue *q)
{
    return !ua_compute_on_cpu(ua_queue_compute_table(q));
}

/* Whether operand reference ref of node j names an input, an earlier
 * node or a constant of e; *predicate then says whether its value is a
 * predicate's bool. */
static bool
reference_ok(const ua_fused_expr *e, int nin, int j, int ref, bool *predicate)
{
    *predicate = false;
    if (ref >= UA_FUSED_INPUT(0) && ref < UA_FUSED_INPUT(nin)) {
        return true;
    }
    if (ref >= UA_FUSED_CONSTANT(0) && ref < UA_FUSED_CONSTANT(e->nconst)) {
        return true;
    }
    if (ref >= UA_FUSED_ROW(0) && ref < UA_FUSED_ROW(e->nrow)) {
        return true;
    }
    if (ref >= UA_FUSED_NODE(0) && ref < UA_FUSED_NODE(j)) {
        ua_ew_id f = e->node[ref - UA_FUSED_NODE(0)].function;
        *predicate = ua_ew_rule_of(f) == UA_EW_PREDICATE;
        return true;
    }
    return false;
}

/* Node j: a function of the catalogue that computes in `compute`, its
 * operands defined before it, a predicate read only as a condition. */
static ua_status
check_node(const ua_fused_expr *e, int nin, int j, ua_typenum compute)
{
    const ua_fused_node *n = &e->node[j];
    if ((unsigned)n->function >= UA_EW_COUNT) {
        return ua_error_set(UA_ERR_VALUE,
                            "fused expression: node %d names no "
                            "elementwise function (%d)",
                            j, (int)n->function);
    }
    const char *name = ua_ew_name(n->function);
    ua_ew_rule rule = ua_ew_rule_of(n->function);
    /* A real computation: TO_REAL's result is `compute` too; angle's
     * and proj's computations are complex. */
    bool takes = (ua_ew_kinds(n->function) & ua_ew_kind_bit(compute)) != 0 &&
                 (rule != UA_EW_TO_FLOAT || ua_dtype_kind(compute) == 'f') &&
                 rule != UA_EW_TO_COMPLEX && rule != UA_EW_COMPLEX_TO_REAL;
    if (!takes) {
        return ua_error_set(UA_ERR_TYPE,
                            "fused expression: node %d, %s(), does not "
                            "compute in %s",
                            j, name, ua_dtype_name(compute));
    }
    for (int k = 0; k < ua_ew_arity(n->function); k++) {
        bool predicate;
        if (!reference_ok(e, nin, j, n->operand[k], &predicate)) {
            return ua_error_set(UA_ERR_VALUE,
                                "fused expression: node %d, %s(), reads "
                                "operand %#x, which is not defined before it",
                                j, name, (unsigned)n->operand[k]);
        }
        bool condition = rule == UA_EW_SELECT && k == 0;
        if (predicate != condition) {
            return ua_error_set(
                UA_ERR_TYPE,
                "fused expression: node %d, %s(), reads %s as operand %d", j,
                name, predicate ? "a predicate's bool" : "a number", k);
        }
    }
    return UA_OK;
}

ua_status
ua_fused_resolve(const ua_fused_expr *e, int nin, const ua_ew_operand *ops,
                 ua_typenum compute, ua_ew_resolved *r)
{
    char kind = ua_dtype_kind(compute);
    if (compute == UA_FLOAT16 || (kind != 'i' && kind != 'u' && kind != 'f')) {
        return ua_error_set(UA_ERR_TYPE,
                            "fused expression: computes in %s, not an "
                            "integer, float32 or float64 type",
                            ua_dtype_name(compute));
    }
    if (nin < 1 || nin > UA_EW_MAX_OPERANDS || e->count < 1 ||
        e->count > UA_FUSED_MAX_NODES || e->nconst < 0 ||
        e->nconst > UA_FUSED_MAX_CONSTANTS || e->nrow < 0 ||
        e->nrow >= UA_FUSED_MAX_PHASES) {
        return ua_error_set(
            UA_ERR_VALUE,
            "fused expression: %d operands (1 to %d), %d "
            "nodes (1 to %d), %d constants (at most %d), %d "
            "row values (at most %d)",
            nin, UA_EW_MAX_OPERANDS, e->count, UA_FUSED_MAX_NODES, e->nconst,
            UA_FUSED_MAX_CONSTANTS, e->nrow, UA_FUSED_MAX_PHASES - 1);
    }
    for (int k = 0; k < nin; k++) {
        if (!ops[k].is_scalar && ops[k].type != compute) {
            return ua_error_set(UA_ERR_TYPE,
                                "fused expression: operand %d is %s, not "
                                "the computation's %s",
                                k, ua_dtype_name(ops[k].type),
                                ua_dtype_name(compute));
        }
    }
    for (int j = 0; j < e->count; j++) {
        ua_status st = check_node(e, nin, j, compute);
        if (st != UA_OK) {
            return st;
        }
    }
    ua_ew_id last = e->node[e->count - 1].function;
    r->function = last;
    r->nin = nin;
    r->compute = compute;
    r->out_type = ua_ew_rule_of(last) == UA_EW_PREDICATE ? UA_BOOL : compute;
    r->fused = e;
    ua_iter_operand io[UA_EW_MAX_OPERANDS];
    for (int k = 0; k < nin; k++) {
        io[k] = ops[k].is_scalar
                    ? (ua_iter_operand){UA_ITER_INPUT, 0, NULL, NULL, 0}
                    : (ua_iter_operand){UA_ITER_INPUT, ops[k].nd, ops[k].shape,
                                        ops[k].strides, 0};
    }
    ua_status st =
        ua_iter_broadcast("fused expression", nin, io, &r->nd, r->shape);
    ptrdiff_t size;
    return st == UA_OK
               ? ua_layout_check_size(r->nd, r->shape,
                                      ua_dtype_itemsize(r->out_type), &size)
               : st;
}

ua_status
ua_fused_constant_bits(const ua_ew_operand *o, ua_typenum t,
                       unsigned long long *bits)
{
    unsigned char src[16] = {0}, dst[16] = {0};
    ua_typenum from;
    switch (o->kind) {
    case UA_SCALAR_BOOL:
        src[0] = o->value.b;
        from = UA_BOOL;
        break;
    case UA_SCALAR_INT:
        memcpy(src, &o->value.i, 8);
        from = o->huge ? UA_FLOAT64 : o->positive ? UA_UINT64 : UA_INT64;
        break;
    case UA_SCALAR_FLOAT:
        memcpy(src, &o->value.f, 8);
        from = UA_FLOAT64;
        break;
    default:
        return ua_error_set(UA_ERR_TYPE, "fused expression: a complex "
                                         "constant in a real computation");
    }
    ptrdiff_t none = 0;
    ua_strided s = {(char *)src, &none, from};
    ua_strided d = {(char *)dst, &none, t};
    ua_status st = ua_copy_strided_host(0, NULL, &d, &s);
    memcpy(bits, dst, 8);
    return st;
}

void
ua_fused_seal(ua_fused_expr *e, ua_typenum t)
{
    int counts[3] = {e->count, e->nconst, e->nrow};
    uint64_t h = ua_hash_bytes(0xcbf29ce484222325ULL, &t, sizeof t);
    h = ua_hash_bytes(h, counts, sizeof counts);
    h = ua_hash_bytes(h, e->node, (size_t)e->count * sizeof e->node[0]);
    e->key = ua_hash_bytes(h, e->constant,
                           (size_t)e->nconst * sizeof e->constant[0]);
}

/* Whether array operand o's elements lie dense in C order. */
static bool
dense_in_c_order(const ua_ew_operand *o)
{
    return (ua_layout_contiguity(o->nd, o->shape, o->strides) &
            UA_LAYOUT_C_CONTIGUOUS) != 0;
}

/* The first of r's axes whose lengths multiply to row, or -1. */
static int
first_row_axis(const ua_ew_resolved *r, ptrdiff_t row)
{
    ptrdiff_t length = 1;
    for (int j = r->nd; j > 0; j--) {
        if (length == row) {
            return j;
        }
        length *= r->shape[j - 1];
    }
    return length == row ? 0 : -1;
}

/* Whether operand o holds one element of each row that starts at axis j
 * of r's shape: r's lengths before j, 1 from j. */
static bool
is_per_row(const ua_ew_resolved *r, const ua_ew_operand *o, int j)
{
    if (o->nd != r->nd) {
        return false;
    }
    for (int d = 0; d < r->nd; d++) {
        if (o->shape[d] != (d < j ? r->shape[d] : 1)) {
            return false;
        }
    }
    return true;
}

static bool
has_values_shape(const ua_ew_resolved *r, const ua_ew_operand *o)
{
    return o->nd == r->nd &&
           memcmp(o->shape, r->shape, (size_t)r->nd * sizeof r->shape[0]) == 0;
}

/* The plan of a reduction of rows of row elements: the walk of the
 * values' elements in C order, one element a row for per_row operands. */
static ua_status
rows_plan(const ua_ew_resolved *r, const ua_ew_operand *ops, ptrdiff_t n,
          ptrdiff_t row, ua_elementwise_plan *p)
{
    int j = first_row_axis(r, row);
    if (row <= 0 || j < 0) {
        return ua_error_set(UA_ERR_VALUE,
                            "fused reduction: rows of %td elements do not "
                            "end the values' shape",
                            row);
    }
    bool per_row[UA_EW_MAX_OPERANDS] = {false};
    for (int k = 0; k < r->nin; k++) {
        if (ops[k].is_scalar) {
            continue;
        }
        per_row[k] = !has_values_shape(r, &ops[k]);
        if ((per_row[k] && !is_per_row(r, &ops[k], j)) ||
            !dense_in_c_order(&ops[k])) {
            return ua_error_set(UA_ERR_VALUE,
                                "fused reduction: operand %d is not dense "
                                "in C order with the values' shape or one "
                                "element a row",
                                k);
        }
    }
    ptrdiff_t steps[UA_MAXDIMS];
    ua_layout_default_strides(r->nd, r->shape, 'C', steps);
    ua_strided out = {NULL, steps, r->out_type};
    ua_status st = ua_elementwise_plan_of(r, ops, &out, p);
    if (st != UA_OK) {
        return st;
    }
    /* One dense walk of n elements; per_row operands are read by row. */
    p->contiguous = true;
    p->nd = 1;
    p->size = (size_t)n;
    p->shape[0] = n;
    p->ostep[0] = (ptrdiff_t)ua_dtype_itemsize(r->out_type);
    for (int k = 0; k < r->nin; k++) {
        p->per_row[k] = per_row[k]; /* false for scalars */
        if (!ops[k].is_scalar) {
            p->in[k] = ops[k].data;
            p->istep[k][0] = (ptrdiff_t)ua_dtype_itemsize(ops[k].type);
        }
    }
    p->row = row;
    return UA_OK;
}

/* UA_OK where every array of ops has r's shape, else why not (`what`
 * names the call). */
static ua_status
check_unbroadcast(const ua_ew_resolved *r, const ua_ew_operand *ops,
                  const char *what)
{
    for (int k = 0; k < r->nin; k++) {
        if (!ops[k].is_scalar && !has_values_shape(r, &ops[k])) {
            return ua_error_set(UA_ERR_VALUE,
                                "%s: operand %d is broadcast (every array "
                                "of the values' shape)",
                                what, k);
        }
    }
    return UA_OK;
}

static ptrdiff_t
values_count(const ua_ew_resolved *r)
{
    ptrdiff_t n = 1;
    for (int j = 0; j < r->nd; j++) {
        n *= r->shape[j];
    }
    return n;
}

/* Runs plan p on q's kernels, unless q's device runs the host's loops. */
static ua_status
run_compiled(ua_queue *q, const ua_elementwise_plan *p, const char *what)
{
    const ua_compute_ops *k = NULL;
    ua_status st = ua_queue_compute_kernels(q, &k);
    if (st == UA_OK && ua_compute_on_cpu(k)) {
        st = ua_error_set(UA_ERR_UNAVAILABLE,
                          "%s: the device runs the host's loops, which "
                          "compile nothing",
                          what);
    }
    return st == UA_OK ? k->elementwise(q->handle, p) : st;
}

/* Whether o is an array of one element broadcast to more values: an
 * earlier reduction's result (the variance's mean), which a reduction of
 * all the values reads once from the device's memory, where reading it
 * into a host scalar would wait for the device. */
static bool
one_of_many(const ua_ew_resolved *r, const ua_ew_operand *o)
{
    if (o->is_scalar || has_values_shape(r, o)) {
        return false;
    }
    for (int d = 0; d < o->nd; d++) {
        if (o->shape[d] != 1) {
            return false;
        }
    }
    return true;
}

/* The plan of a reduction of all the values: the operands' own memory
 * order, which a reduction of all of them may meet them in; an operand of
 * one element is read once (per_row, in a plan of no rows). */
static ua_status
all_plan(const ua_ew_resolved *r, const ua_ew_operand *ops,
         ua_elementwise_plan *p)
{
    ua_ew_operand walked[UA_EW_MAX_OPERANDS];
    const ua_ew_operand *first = NULL;
    for (int k = 0; k < r->nin; k++) {
        walked[k] = ops[k];
        if (one_of_many(r, &ops[k])) {
            /* walked as a scalar, then read from its memory */
            walked[k] =
                (ua_ew_operand){.is_scalar = true, .kind = UA_SCALAR_FLOAT};
        } else if (first == NULL && !ops[k].is_scalar) {
            first = &ops[k];
        }
    }
    if (first == NULL) {
        return ua_error_set(UA_ERR_VALUE, "fused reduction: no array "
                                          "operand of the values' shape");
    }
    ua_status st = check_unbroadcast(r, walked, "fused reduction");
    if (st != UA_OK) {
        return st;
    }
    ua_strided out = {NULL, first->strides, r->out_type};
    st = ua_elementwise_plan_of(r, walked, &out, p);
    if (st == UA_OK && !p->contiguous) {
        st = ua_error_set(UA_ERR_VALUE,
                          "fused reduction: the operands are not dense in "
                          "one memory order of the same shape");
    }
    for (int k = 0; k < r->nin && st == UA_OK; k++) {
        if (walked[k].is_scalar && !ops[k].is_scalar) {
            p->scalar[k] = false;
            p->per_row[k] = true;
            p->in_type[k] = ops[k].type;
            p->in[k] = ops[k].data;
            memset(p->istep[k], 0, sizeof p->istep[k]);
        }
    }
    return st;
}

/* The plan of a reduction of all the values on the host's loops, which
 * walk any layout: the operands broadcast and strided as for an eager
 * call, in the memory order of a new result of theirs (out is the
 * partials, which the walk does not move along). */
static ua_status
loops_plan(const ua_ew_resolved *r, const ua_ew_operand *ops, char *out,
           ua_elementwise_plan *p)
{
    ptrdiff_t strides[UA_MAXDIMS];
    ua_elementwise_result_strides(r, ops, strides);
    ua_strided o = {out, strides, r->out_type};
    return ua_elementwise_plan_of(r, ops, &o, p);
}

/* The plan of rows reduced on the host's loops: their walk in the
 * values' C order (the axes ordered by a C-contiguous result's steps), so
 * that row r is the walk's elements [r * row, (r + 1) * row); operands of
 * any layout, broadcast too (out receives a value a row, which the walk
 * does not move along). */
static ua_status
c_order_plan(const ua_ew_resolved *r, const ua_ew_operand *ops, char *out,
             ua_elementwise_plan *p)
{
    ptrdiff_t strides[UA_MAXDIMS];
    ua_layout_default_strides(r->nd, r->shape, 'C', strides);
    ua_strided o = {out, strides, r->out_type};
    return ua_elementwise_plan_of(r, ops, &o, p);
}

/* A rows reduction's post expression: of its one input (the row's value)
 * and constants, computing in t and giving t; each refusal names what it
 * refused. */
static ua_status
check_post(const ua_fused_expr *post, ua_typenum t)
{
    if (post->nrow != 0 || post->count < 1 ||
        post->count > UA_FUSED_MAX_NODES || post->nconst < 0 ||
        post->nconst > UA_FUSED_MAX_CONSTANTS) {
        return ua_error_set(UA_ERR_VALUE,
                            "fused reduction: the expression after the "
                            "rows' values has 1 to %d nodes, at most %d "
                            "constants and no chain's row values (%d "
                            "nodes, %d constants, %d row values)",
                            UA_FUSED_MAX_NODES, UA_FUSED_MAX_CONSTANTS,
                            post->count, post->nconst, post->nrow);
    }
    for (int j = 0; j < post->count; j++) {
        ua_ew_id f = post->node[j].function;
        for (int o = 0; o < ua_ew_arity(f); o++) {
            int ref = post->node[j].operand[o];
            if (ref >= UA_FUSED_INPUT(1) && ref < UA_FUSED_NODE(0)) {
                return ua_error_set(
                    UA_ERR_VALUE,
                    "fused reduction: the expression after the rows' "
                    "values reads operand %d in node %d (%s); it reads "
                    "the row's value (operand 0) alone",
                    ref, j, ua_ew_name(f));
            }
        }
        ua_status st = check_node(post, 1, j, t);
        if (st != UA_OK) {
            return st;
        }
    }
    ua_ew_id last = post->node[post->count - 1].function;
    if (ua_ew_rule_of(last) == UA_EW_PREDICATE) {
        return ua_error_set(UA_ERR_VALUE,
                            "fused reduction: the expression after the "
                            "rows' values gives bool (%s), not the "
                            "reduction's %s",
                            ua_ew_name(last), ua_dtype_name(t));
    }
    return UA_OK;
}

/* A fused reduction's checks: a float expression reduced by a sum, max,
 * min or mean, with an array operand and values (*n of them), and post,
 * where given, an expression of the value alone. */
static ua_status
check_reduce(const ua_ew_resolved *r, const ua_ew_operand *ops, int op,
             const ua_fused_expr *post, ptrdiff_t *n)
{
    if (r->fused == NULL || r->fused->nrow != 0 || op < UA_EW_REDUCE_SUM ||
        op > UA_EW_REDUCE_MEAN ||
        (r->out_type != UA_FLOAT32 && r->out_type != UA_FLOAT64)) {
        return ua_error_set(UA_ERR_VALUE,
                            "fused reduction: a float32 or float64 fused "
                            "expression and a sum, max, min or mean (%d)",
                            op);
    }
    const ua_ew_operand *first = NULL;
    for (int k = 0; k < r->nin && first == NULL; k++) {
        first = ops[k].is_scalar ? NULL : &ops[k];
    }
    *n = values_count(r);
    if (first == NULL || *n == 0) {
        return ua_error_set(UA_ERR_VALUE, "fused reduction: %s",
                            first == NULL ? "no array operand"
                                          : "no elements to reduce");
    }
    return post != NULL ? check_post(post, r->out_type) : UA_OK;
}

/* The compiled kernel's plan of a checked fused reduction of n values,
 * its result's pointer left NULL. */
static ua_status
compiled_reduce_plan(const ua_ew_resolved *r, const ua_ew_operand *ops,
                     ptrdiff_t n, int op, ptrdiff_t row,
                     const ua_fused_expr *post, ua_elementwise_plan *p)
{
    ua_status st =
        row > 0 ? rows_plan(r, ops, n, row, p) : all_plan(r, ops, p);
    p->out = NULL;
    p->reduce = op;
    p->post = post;
    return st;
}

ua_status
ua_fused_reduce_plan(const ua_ew_resolved *r, const ua_ew_operand *ops, int op,
                     ptrdiff_t row, const ua_fused_expr *post,
                     ua_elementwise_plan *p)
{
    ptrdiff_t n = 0;
    ua_status st = check_reduce(r, ops, op, post, &n);
    return st == UA_OK ? compiled_reduce_plan(r, ops, n, op, row, post, p)
                       : st;
}

ua_status
ua_queue_fused_reduce(ua_queue *q, const ua_ew_resolved *r,
                      const ua_ew_operand *ops, int op, ptrdiff_t row,
                      const ua_fused_expr *post, char *out)
{
    ptrdiff_t n = 0;
    ua_status st = check_reduce(r, ops, op, post, &n);
    const ua_compute_ops *k = NULL;
    st = st == UA_OK ? ua_queue_compute_kernels(q, &k) : st;
    if (st != UA_OK) {
        return st;
    }
    ua_elementwise_plan p;
    if (ua_compute_on_cpu(k)) {
        /* the host's loops: one pass over any layout, into one value (all
         * of them as one row) or one a row, with no expression after
         * them */
        if (row != 0 && n % row != 0) {
            return ua_error_set(UA_ERR_VALUE,
                                "fused reduction: the host's loops reduce "
                                "all the values (row 0) or rows that divide "
                                "them (%td values, not rows of %td)",
                                n, row);
        }
        if (post != NULL) {
            return ua_error_set(UA_ERR_VALUE,
                                "fused reduction: the host's loops take no "
                                "expression after the reduction (post); "
                                "apply it to the result");
        }
        st = row == 0 || row == n ? loops_plan(r, ops, out, &p)
                                  : c_order_plan(r, ops, out, &p);
        p.reduce = op;
        p.row = row;
        return st == UA_OK ? k->elementwise(q->handle, &p) : st;
    }
    st = compiled_reduce_plan(r, ops, n, op, row, post, &p);
    p.out = out;
    return st == UA_OK ? run_compiled(q, &p, "fused reduction") : st;
}

/* The chain's key: its phases' keys and reductions mixed. */
static uint64_t
chain_key(const ua_fused_chain *c)
{
    uint64_t h =
        ua_hash_bytes(0x84222325cbf29ce4ULL, &c->count, sizeof c->count);
    for (int p = 0; p < c->count; p++) {
        h = ua_hash_bytes(h, &c->phase[p]->key, sizeof c->phase[p]->key);
        h = ua_hash_bytes(h, &c->reduce[p], sizeof c->reduce[p]);
    }
    return h;
}

/* Phase p of c: reads the row values of the phases before it alone; a
 * phase but the last reduces a float type by a sum, mean, max or min,
 * and the last may. */
static ua_status
check_phase(const ua_fused_chain *c, int p, const ua_ew_resolved *r)
{
    bool last = p == c->count - 1;
    int op = c->reduce[p];
    bool reduces = op >= UA_EW_REDUCE_SUM && op <= UA_EW_REDUCE_MEAN;
    if (c->phase[p]->nrow != p || (last ? op != 0 && !reduces : !reduces) ||
        (r->out_type != UA_FLOAT32 && r->out_type != UA_FLOAT64)) {
        return ua_error_set(
            UA_ERR_VALUE,
            "fused chain: phase %d gives float32 or float64 "
            "(not %s), reads the row values of the phases "
            "before it (%d, not %d) and %s",
            p, ua_dtype_name(r->out_type), p, c->phase[p]->nrow,
            last ? "is written or reduced by a sum, mean, max or min"
                 : "is reduced by a sum, mean, max or min");
    }
    return UA_OK;
}

ua_status
ua_fused_chain_plan(ua_fused_chain *c, const ua_ew_operand *ops, int nin,
                    ua_typenum compute, ptrdiff_t row,
                    const ua_fused_expr *post, ua_elementwise_plan *p)
{
    if (c->count < 2 || c->count > UA_FUSED_MAX_PHASES) {
        return ua_error_set(UA_ERR_VALUE,
                            "fused chain: 2 to %d phases, not %d",
                            UA_FUSED_MAX_PHASES, c->count);
    }
    if (post != NULL && c->reduce[c->count - 1] == 0) {
        return ua_error_set(UA_ERR_VALUE,
                            "fused chain: an expression after the rows' "
                            "values needs a last phase that reduces");
    }
    ua_status st = post != NULL ? check_post(post, compute) : UA_OK;
    if (st != UA_OK) {
        return st;
    }
    ua_ew_resolved r;
    for (int k = 0; k < c->count; k++) {
        ua_status st = ua_fused_resolve(c->phase[k], nin, ops, compute, &r);
        st = st == UA_OK ? check_phase(c, k, &r) : st;
        if (st != UA_OK) {
            return st;
        }
    }
    /* the chain's kernel reads no operand once a row */
    st = check_unbroadcast(&r, ops, "fused chain");
    ptrdiff_t n = values_count(&r);
    if (st == UA_OK && n == 0) {
        st = ua_error_set(UA_ERR_VALUE, "fused chain: no elements");
    }
    st = st == UA_OK ? rows_plan(&r, ops, n, row, p) : st;
    if (st != UA_OK) {
        return st;
    }
    c->key = chain_key(c);
    p->out = NULL;
    p->chain = c;
    p->post = post;
    return UA_OK;
}

ua_status
ua_queue_fused_chain(ua_queue *q, ua_fused_chain *c, const ua_ew_operand *ops,
                     int nin, ua_typenum compute, ptrdiff_t row,
                     const ua_fused_expr *post, char *out)
{
    ua_elementwise_plan p;
    ua_status st = ua_fused_chain_plan(c, ops, nin, compute, row, post, &p);
    if (st != UA_OK) {
        return st;
    }
    p.out = out;
    return run_compiled(q, &p, "fused chain");
}

ua_status
ua_fused_elementwise_plan(const ua_ew_resolved *r, const ua_ew_operand *ops,
                          ua_elementwise_plan *p)
{
    ptrdiff_t strides[UA_MAXDIMS];
    ua_elementwise_result_strides(r, ops, strides);
    ua_strided out = {NULL, strides, r->out_type};
    return ua_elementwise_plan_of(r, ops, &out, p);
}

void
ua_queue_fused_prepare(ua_queue *q, const ua_elementwise_plan *plans, int n)
{
    ua_prepare_item items[UA_FUSED_PREPARE_MAX];
    n = n < UA_FUSED_PREPARE_MAX ? n : UA_FUSED_PREPARE_MAX;
    if (!ua_queue_compiles_elementwise(q)) {
        return;
    }
    for (int i = 0; i < n; i++) {
        items[i] = (ua_prepare_item){.kind = UA_PREPARE_ELEMENTWISE,
                                     .plan = &plans[i]};
    }
    ua_queue_prepare(q, items, n);
}
