/* Elementwise functions, planned once for every backend: the operands'
 * kinds are checked against the catalogue, the types resolved by the
 * promotion table (Python scalars weakly), and the shapes broadcast and
 * the layout reduced by the iteration planner (layout/iter_plan.h) before
 * the backend's kernel sees it.  Scalars travel in the plan, converted to
 * the computation type. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/backend.h"
#include "core/compute/compute.h"
#include "core/devices/devices.h"
#include "core/layout/iter_plan.h"

/* By ua_scalar_kind. */
static const unsigned scalar_kind_bit[] = {UA_EW_K_BOOL, UA_EW_INTEGRAL,
                                           UA_EW_K_FLOAT, UA_EW_K_COMPLEX};
static const char *const scalar_kind_name[] = {"bool", "int", "float",
                                               "complex"};

/* A Python scalar (weak); arrays and NumPy scalars have dtypes. */
static bool
is_weak(const ua_ew_operand *o)
{
    return o->is_scalar && !o->strong;
}

static bool
is_bool(const ua_ew_operand *o)
{
    return is_weak(o) ? o->kind == UA_SCALAR_BOOL
                      : ua_dtype_kind(o->type) == 'b';
}

/* A bool that a numeric function takes beside an operand of another kind,
 * which it promotes to (x * True is x's dtype, as in NumPy and dpctl). */
static bool
bool_beside_numbers(ua_ew_id f, int nin, const ua_ew_operand *ops,
                    const ua_ew_operand *o)
{
    bool numbers = false;
    for (int k = 0; k < nin; k++) {
        numbers = numbers || !is_bool(&ops[k]);
    }
    return numbers && is_bool(o) && (ua_ew_kinds(f) & UA_EW_K_INT) &&
           ua_ew_rule_of(f) != UA_EW_SELECT;
}

static ua_status
check_kinds(ua_ew_id f, int nin, const ua_ew_operand *ops)
{
    unsigned kinds = ua_ew_kinds(f);
    const char *name = ua_ew_name(f);
    for (int k = 0; k < nin; k++) {
        /* where's condition is any dtype, tested for non-zero. */
        if (ua_ew_rule_of(f) == UA_EW_SELECT && k == 0) {
            continue;
        }
        const ua_ew_operand *o = &ops[k];
        if (bool_beside_numbers(f, nin, ops, o)) {
            continue;
        }
        if (is_weak(o) && !(scalar_kind_bit[o->kind] & kinds)) {
            return ua_error_set(UA_ERR_TYPE,
                                "%s() does not accept a Python %s operand",
                                name, scalar_kind_name[o->kind]);
        }
        if (!is_weak(o) && !(ua_ew_kind_bit(o->type) & kinds)) {
            return ua_error_set(UA_ERR_TYPE,
                                "%s() does not accept %s of dtype %s", name,
                                o->is_scalar ? "a NumPy scalar" : "an array",
                                ua_dtype_name(o->type));
        }
    }
    return UA_OK;
}

/* The promotion of operands [first, nin): arrays and NumPy scalars
 * strongly, then Python scalars weakly; defaults where every operand is a
 * Python scalar. */
static ua_typenum
promote_operands(int first, int nin, const ua_ew_operand *ops,
                 const ua_default_dtypes *defaults)
{
    bool any = false;
    ua_typenum t = UA_BOOL;
    for (int k = first; k < nin; k++) {
        if (!is_weak(&ops[k])) {
            t = any ? ua_promote(t, ops[k].type) : ops[k].type;
            any = true;
        }
    }
    for (int k = first; k < nin; k++) {
        if (is_weak(&ops[k])) {
            t = ua_promote_scalar(t, ops[k].kind, defaults);
        }
    }
    return t;
}

static ua_typenum
real_of(ua_typenum t)
{
    return t == UA_COMPLEX64    ? UA_FLOAT32
           : t == UA_COMPLEX128 ? UA_FLOAT64
                                : t;
}

#define UA_EW_FLOATING_KINDS (UA_EW_K_FLOAT | UA_EW_K_COMPLEX)

/* The floating type NumPy computes integer operands in: the first that
 * every array operand's dtype casts to safely, float16 at least (int8
 * with uint8 gives float16, where promoting the pair first would give
 * int16, then float32). */
static ua_typenum
floating_for(int nin, const ua_ew_operand *ops, ua_typenum p)
{
    uint32_t set = 1u << ua_dtype_index(UA_FLOAT16);
    bool any = false;
    for (int k = 0; k < nin; k++) {
        if (!is_weak(&ops[k])) {
            set |= 1u << ua_dtype_index(ops[k].type);
            any = true;
        }
    }
    return any ? ua_promote_set(set) : ua_promote(p, UA_FLOAT16);
}

static void
resolve_types(ua_ew_id f, int nin, const ua_ew_operand *ops,
              const ua_default_dtypes *defaults, ua_ew_resolved *r)
{
    ua_ew_rule rule = ua_ew_rule_of(f);
    ua_typenum p;
    switch (rule) {
    case UA_EW_SELECT:
        p = promote_operands(1, nin, ops, defaults);
        break;
    case UA_EW_LIKE_FIRST:
        p = promote_operands(0, 1, ops, defaults);
        break;
    default:
        p = promote_operands(0, nin, ops, defaults);
    }
    if (rule == UA_EW_TO_FLOAT &&
        !(ua_ew_kind_bit(p) & UA_EW_FLOATING_KINDS)) {
        /* NumPy divides integers in its default floating type, and
         * reciprocal(x) is divide(1, x) (not NumPy's integer one). */
        p = f == UA_EW_divide || f == UA_EW_reciprocal
                ? defaults->real_floating
                : floating_for(nin, ops, p);
    } else if (rule == UA_EW_TO_COMPLEX || rule == UA_EW_COMPLEX_TO_REAL) {
        p = ua_promote(p, UA_COMPLEX64);
    }
    r->compute = p;
    bool real = rule == UA_EW_TO_REAL || rule == UA_EW_COMPLEX_TO_REAL;
    r->out_type = rule == UA_EW_PREDICATE ? UA_BOOL : real ? real_of(p) : p;
}

/* ------------------------------------------------------------ scalars */

/* The scalar as the copy engine's source: its value and dtype. */
static ua_typenum
scalar_source(const ua_ew_operand *o, unsigned char *bits)
{
    switch (o->kind) {
    case UA_SCALAR_BOOL:
        bits[0] = o->value.b;
        return UA_BOOL;
    case UA_SCALAR_INT:
        memcpy(bits, &o->value.i, 8);
        return o->huge ? UA_FLOAT64 : o->positive ? UA_UINT64 : UA_INT64;
    case UA_SCALAR_FLOAT:
        memcpy(bits, &o->value.f, 8);
        return UA_FLOAT64;
    default:
        memcpy(bits, o->value.c, 16);
        return UA_COMPLEX128;
    }
}

/* Whether an int scalar is a value of the integer type t. */
static bool
int_fits(const ua_ew_operand *o, ua_typenum t)
{
    int bits = (int)ua_dtype_itemsize(t) * 8;
    if (o->huge) {
        return false;
    }
    if (ua_dtype_kind(t) == 'u') {
        return o->positive
                   ? bits == 64
                   : o->value.i >= 0 &&
                         (bits == 64 || o->value.i < ((int64_t)1 << bits));
    }
    if (o->positive) {
        return false;
    }
    return bits == 64 || (o->value.i >= -((int64_t)1 << (bits - 1)) &&
                          o->value.i < ((int64_t)1 << (bits - 1)));
}

/* The scalar's bits in type t (an int scalar is one of t's values where t
 * is an integer type: ua_elementwise_resolve checked). */
static ua_status
scalar_value(const ua_ew_operand *o, ua_typenum t, unsigned char *out)
{
    unsigned char src[16];
    ptrdiff_t none = 0;
    ua_strided s = {(char *)src, &none, scalar_source(o, src)};
    ua_strided d = {(char *)out, &none, t};
    return ua_copy_strided_host(0, NULL, &d, &s);
}

static bool
is_comparison(ua_ew_id f)
{
    return f == UA_EW_equal || f == UA_EW_not_equal || f == UA_EW_less ||
           f == UA_EW_less_equal || f == UA_EW_greater ||
           f == UA_EW_greater_equal;
}

static bool
is_integer(ua_typenum t)
{
    char k = ua_dtype_kind(t);
    return k == 'i' || k == 'u';
}

static bool
is_int_scalar(const ua_ew_operand *o)
{
    return o->is_scalar && o->kind == UA_SCALAR_INT;
}

/* Whether every array operand's dtype casts safely to t. */
static bool
arrays_cast_to(int nin, const ua_ew_operand *ops, ua_typenum t)
{
    for (int k = 0; k < nin; k++) {
        if (!is_weak(&ops[k]) && !ua_can_cast(ops[k].type, t)) {
            return false;
        }
    }
    return true;
}

/* A comparison of integers with a Python int outside their dtype compares
 * the values, as NumPy 2's does: in int64 or uint64 where the int is one of
 * its values and the arrays' dtypes cast to it safely; otherwise every
 * element compares alike (a constant result: see constant_comparison). */
static void
widen_for_scalars(int nin, const ua_ew_operand *ops, ua_ew_resolved *r)
{
    if (!is_comparison(r->function) || !is_integer(r->compute)) {
        return;
    }
    for (int k = 0; k < nin; k++) {
        const ua_ew_operand *o = &ops[k];
        if (!is_int_scalar(o) || int_fits(o, r->compute)) {
            continue;
        }
        if (int_fits(o, UA_INT64) && arrays_cast_to(nin, ops, UA_INT64)) {
            r->compute = UA_INT64;
        } else if (int_fits(o, UA_UINT64) &&
                   arrays_cast_to(nin, ops, UA_UINT64)) {
            r->compute = UA_UINT64;
        }
    }
}

/* NumPy 2's OverflowError for a Python int that an integer computation
 * type cannot hold (comparisons excepted: widen_for_scalars). */
static ua_status
check_scalars(int nin, const ua_ew_operand *ops, const ua_ew_resolved *r)
{
    if (!is_integer(r->compute) || is_comparison(r->function)) {
        return UA_OK;
    }
    for (int k = 0; k < nin; k++) {
        const ua_ew_operand *o = &ops[k];
        if (!is_int_scalar(o) || int_fits(o, r->compute) ||
            (ua_ew_rule_of(r->function) == UA_EW_SELECT && k == 0)) {
            continue;
        }
        if (o->huge) {
            return ua_error_set(UA_ERR_OVERFLOW,
                                "Python integer out of bounds for %s",
                                ua_dtype_name(r->compute));
        }
        if (o->positive) {
            return ua_error_set(UA_ERR_OVERFLOW,
                                "Python integer %" PRIu64
                                " out of bounds for %s",
                                o->value.u, ua_dtype_name(r->compute));
        }
        return ua_error_set(UA_ERR_OVERFLOW,
                            "Python integer %" PRId64 " out of bounds for %s",
                            o->value.i, ua_dtype_name(r->compute));
    }
    return UA_OK;
}

/* ------------------------------------------------------- broadcasting */

/* The operands as the planner takes them, the output first where there
 * is one (and only then their itemsizes, which a plan's steps need and
 * broadcasting and layouts do not); their count. */
static int
iter_operands(int nin, const ua_ew_operand *ops, const ua_ew_resolved *r,
              const ua_strided *out, ua_iter_operand *io)
{
    int n = 0;
    if (out != NULL) {
        io[n++] =
            (ua_iter_operand){UA_ITER_OUTPUT, r->nd, r->shape, out->strides,
                              (ptrdiff_t)ua_dtype_itemsize(out->type)};
    }
    for (int k = 0; k < nin; k++) {
        const ua_ew_operand *o = &ops[k];
        io[n++] =
            o->is_scalar
                ? (ua_iter_operand){UA_ITER_INPUT, 0, NULL, NULL, 0}
                : (ua_iter_operand){
                      UA_ITER_INPUT, o->nd, o->shape, o->strides,
                      out != NULL ? (ptrdiff_t)ua_dtype_itemsize(o->type) : 0};
    }
    return n;
}

void
ua_elementwise_result_strides(const ua_ew_resolved *r,
                              const ua_ew_operand *ops, ptrdiff_t *strides)
{
    ua_iter_operand io[UA_EW_MAX_OPERANDS];
    iter_operands(r->nin, ops, r, NULL, io);
    ua_iter_result_strides(r->nin, io, r->nd, r->shape, strides);
}

static ua_status
broadcast(ua_ew_id f, int nin, const ua_ew_operand *ops, ua_ew_resolved *r)
{
    ua_iter_operand io[UA_EW_MAX_OPERANDS];
    iter_operands(nin, ops, r, NULL, io);
    return ua_iter_broadcast(ua_ew_name(f), nin, io, &r->nd, r->shape);
}

/* ---------------------------------------------------------- in place */

/* The dtype o brings to a computation in `into`, and its name. */
static ua_typenum
dtype_toward(const ua_ew_operand *o, ua_typenum into,
             const ua_default_dtypes *defaults, char *name, size_t size)
{
    if (is_weak(o)) {
        snprintf(name, size, "a Python %s", scalar_kind_name[o->kind]);
        return ua_promote_scalar(into, o->kind, defaults);
    }
    snprintf(name, size, "an operand of dtype %s", ua_dtype_name(o->type));
    return o->type;
}

/* dpctl's in-place rule: every operand cast to the left one's dtype
 * (where "same_kind" casting allows it), the function computed in it. */
static ua_status
compute_in(ua_ew_id f, int nin, const ua_ew_operand *ops,
           const ua_default_dtypes *defaults, ua_typenum into,
           ua_ew_resolved *r)
{
    const char *fn = ua_ew_name(f);
    ua_ew_operand as_into[UA_EW_MAX_OPERANDS];
    for (int k = 0; k < nin; k++) {
        char name[32];
        ua_typenum t =
            dtype_toward(&ops[k], into, defaults, name, sizeof name);
        if (!ua_can_cast_same_kind(t, into)) {
            return ua_error_set(UA_ERR_VALUE,
                                "in-place %s(): %s cannot be "
                                "cast to the left operand's dtype %s "
                                "('same_kind' casting)",
                                fn, name, ua_dtype_name(into));
        }
        as_into[k] = (ua_ew_operand){.type = into};
    }
    ua_ew_resolved t = *r;
    resolve_types(f, nin, as_into, defaults, &t);
    if (t.out_type != into || !(ua_ew_kind_bit(into) & ua_ew_kinds(f))) {
        return ua_error_set(UA_ERR_VALUE,
                            "in-place %s(): its result for operands of dtype "
                            "%s is %s, which the left operand's dtype %s "
                            "cannot hold",
                            fn, ua_dtype_name(into), ua_dtype_name(t.out_type),
                            ua_dtype_name(into));
    }
    r->compute = into;
    r->out_type = into;
    return UA_OK;
}

static ua_status
resolve(ua_ew_id f, int nin, const ua_ew_operand *ops,
        const ua_default_dtypes *defaults, const ua_typenum *into,
        ua_ew_resolved *r)
{
    if ((unsigned)f >= UA_EW_COUNT || nin != ua_ew_arity(f)) {
        return ua_error_set(UA_ERR_VALUE,
                            "elementwise function %d takes %d operands", f,
                            (unsigned)f < UA_EW_COUNT ? ua_ew_arity(f) : 0);
    }
    ua_status st = check_kinds(f, nin, ops);
    /* In place, an operand of a kind the function refuses may cast to the
     * left operand's dtype. */
    bool cast_all =
        into != NULL && st != UA_OK && check_kinds(f, 1, ops) == UA_OK;
    if (st != UA_OK && !cast_all) {
        return st;
    }
    r->function = f;
    r->nin = nin;
    r->fused = NULL;
    resolve_types(f, nin, ops, defaults, r);
    /* Kinds that promote to a type outside the function's (int64 with
     * uint64 gives float64, which has no bitwise operations). */
    bool outside = ua_ew_rule_of(f) != UA_EW_SELECT &&
                   !(ua_ew_kind_bit(r->compute) & ua_ew_kinds(f));
    /* clip reads its bounds in x's dtype, so each must cast to it safely
     * (dpctl's ValueError): no real dtype holds a complex bound. */
    for (int i = 1; ua_ew_rule_of(f) == UA_EW_LIKE_FIRST && i < nin; i++) {
        char name[48];
        ua_typenum b =
            dtype_toward(&ops[i], r->compute, defaults, name, sizeof name);
        if (!ua_can_cast(b, r->compute)) {
            return ua_error_set(UA_ERR_VALUE,
                                "%s() does not accept %s as a bound of an "
                                "array of dtype %s: it must cast safely",
                                ua_ew_name(f), name,
                                ua_dtype_name(r->compute));
        }
    }
    if (into != NULL && (cast_all || outside || r->out_type != *into)) {
        st = compute_in(f, nin, ops, defaults, *into, r);
        if (st != UA_OK) {
            return st;
        }
    } else if (outside) {
        /* ValueError, as dpctl raises for types it finds no loop for. */
        return ua_error_set(UA_ERR_VALUE,
                            "%s() does not accept these operands together: "
                            "they promote to %s",
                            ua_ew_name(f), ua_dtype_name(r->compute));
    }
    widen_for_scalars(nin, ops, r);
    st = check_scalars(nin, ops, r);
    if (st == UA_OK) {
        st = broadcast(f, nin, ops, r);
    }
    ptrdiff_t size;
    return st == UA_OK
               ? ua_layout_check_size(r->nd, r->shape,
                                      ua_dtype_itemsize(r->out_type), &size)
               : st;
}

ua_status
ua_elementwise_resolve(ua_ew_id f, int nin, const ua_ew_operand *ops,
                       const ua_default_dtypes *defaults, ua_ew_resolved *r)
{
    return resolve(f, nin, ops, defaults, NULL, r);
}

ua_status
ua_elementwise_resolve_into(ua_ew_id f, int nin, const ua_ew_operand *ops,
                            const ua_default_dtypes *defaults, ua_typenum into,
                            ua_ew_resolved *r)
{
    return resolve(f, nin, ops, defaults, &into, r);
}

/* ------------------------------------------------------------ planning */

static bool
is_contiguous(const ua_elementwise_plan *p)
{
    if (p->nd > 1) {
        return false;
    }
    if (p->nd == 0) {
        return true;
    }
    if (p->ostep[0] != (ptrdiff_t)ua_dtype_itemsize(p->out_type)) {
        return false;
    }
    for (int k = 0; k < p->nin; k++) {
        if (!p->scalar[k] &&
            p->istep[k][0] != (ptrdiff_t)ua_dtype_itemsize(p->in_type[k])) {
            return false;
        }
    }
    return true;
}

/* The type operand k is converted to at load. */
static ua_typenum
slot_type(const ua_ew_resolved *r, int k)
{
    return !r->fused && ua_ew_rule_of(r->function) == UA_EW_SELECT && k == 0
               ? UA_BOOL
               : r->compute;
}

/* The kernel's plan from the planner's (the output its operand 0). */
/* where of float16 or bool values picks bits: the unsigned type of their
 * width, on every backend, keeps a NaN's payload and sign (a kernel that
 * widens float16 to float and back, on CUDA, gave a quiet NaN for
 * 0x7e01), and the host's loop of that type runs without widening each
 * value or a branch for each bool (1.4 and 1.0 times NumPy's time those
 * ways, 0.02 and 0.1 this way).  A scalar's bits stay as they were. */
static void
select_as_bits(ua_elementwise_plan *p)
{
    ua_typenum t = p->compute;
    if (p->fused != NULL || p->function != UA_EW_where ||
        (t != UA_FLOAT16 && t != UA_BOOL) || p->out_type != t ||
        p->in_type[1] != t || p->in_type[2] != t) {
        return;
    }
    ua_typenum u = t == UA_FLOAT16 ? UA_UINT16 : UA_UINT8;
    p->compute = p->out_type = u;
    p->in_type[1] = p->in_type[2] = u;
}

static ua_status
build_plan(const ua_ew_resolved *r, const ua_ew_operand *ops,
           const ua_strided *out, const ua_iter_plan *walk,
           ua_elementwise_plan *p)
{
    memset(p, 0, offsetof(ua_elementwise_plan, shape));
    memset(p->value, 0, sizeof p->value);
    p->function = r->function;
    p->fused = r->fused;
    p->reduce = 0;
    p->row = 0;
    p->chain = NULL;
    p->post = NULL;
    memset(p->per_row, 0, sizeof p->per_row);
    p->nin = r->nin;
    p->compute = r->compute;
    p->out_type = out->type;
    p->out = out->data;
    for (int k = 0; k < r->nin; k++) {
        const ua_ew_operand *o = &ops[k];
        p->scalar[k] = o->is_scalar;
        if (o->is_scalar) {
            p->in_type[k] = slot_type(r, k);
            ua_status st = scalar_value(o, p->in_type[k], p->value[k].bytes);
            if (st != UA_OK) {
                return st;
            }
        } else {
            p->in_type[k] = o->type;
            p->in[k] = o->data;
        }
    }
    size_t bytes = (size_t)walk->nd * sizeof *walk->shape;
    p->nd = walk->nd;
    memcpy(p->shape, walk->shape, bytes);
    memcpy(p->ostep, walk->steps[0], bytes);
    for (int k = 0; k < r->nin; k++) {
        memcpy(p->istep[k], walk->steps[k + 1], bytes);
    }
    p->size = (size_t)walk->size;
    p->contiguous = is_contiguous(p);
    p->small_index = walk->fits32;
    select_as_bits(p);
    return UA_OK;
}

/* ------------------------------------------------------------ overlap */

/* Whether writing out could change input k before the kernel reads it. */
static bool
overlaps(const ua_iter_plan *walk, const ua_strided *out,
         const ua_ew_operand *o, int k)
{
    return ua_iter_plan_write_meets(
        walk, k + 1, out->data, (ptrdiff_t)ua_dtype_itemsize(out->type),
        o->data, (ptrdiff_t)ua_dtype_itemsize(o->type));
}

/* A dense copy of operand *o, which *o then describes; *tmp owns it. */
static ua_status
copy_operand(ua_queue *q, const ua_ew_operand *o, ua_ew_operand *copy,
             ptrdiff_t *strides, ua_allocation **tmp)
{
    ptrdiff_t n;
    size_t size = ua_dtype_itemsize(o->type);
    ua_status st = ua_layout_check_size(o->nd, o->shape, size, &n);
    if (st == UA_OK) {
        st = ua_usm_alloc(q, UA_USM_DEVICE, n > 0 ? (size_t)n * size : 1, 0,
                          tmp);
    }
    if (st != UA_OK) {
        return st;
    }
    ua_layout_default_strides(o->nd, o->shape, 'C', strides);
    *copy = *o;
    copy->data = ua_allocation_ptr(*tmp);
    copy->strides = strides;
    ua_strided dst = {copy->data, strides, o->type};
    ua_strided src = {o->data, o->strides, o->type};
    return ua_queue_copy_strided(q, o->nd, o->shape, &dst, &src);
}

/* ------------------------------------------- comparisons NumPy makes exact */

/* Where a comparison of x with a Python int out of its dtype's range
 * (widen_for_scalars found no type for both) has one answer for every
 * element: 1 or 0, and -1 for a plan of its own. */
static int
constant_comparison(const ua_ew_resolved *r, const ua_ew_operand *ops)
{
    if (r->fused || !is_comparison(r->function) || !is_integer(r->compute)) {
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        const ua_ew_operand *o = &ops[k];
        if (!is_int_scalar(o) || int_fits(o, r->compute)) {
            continue;
        }
        /* Every element is below the int, or every one above it; a < b
         * follows, and neither operand equals the other. */
        bool below = o->positive || (!o->huge && o->value.i >= 0);
        bool a_less = k == 1 ? below : !below;
        switch (r->function) {
        case UA_EW_equal:
            return 0;
        case UA_EW_not_equal:
            return 1;
        case UA_EW_less:
        case UA_EW_less_equal:
            return a_less;
        default:
            return !a_less;
        }
    }
    return -1;
}

/* Whether a comparison pairs a signed integer array with a uint64 one,
 * which promote to float64, where NumPy 2 compares the integers exactly
 * (2**63 == 2**63 - 1 is false); *s then names the signed one. */
static bool
mixed_sign_comparison(const ua_ew_resolved *r, const ua_ew_operand *ops,
                      int *s)
{
    if (!is_comparison(r->function) || ops[0].is_scalar || ops[1].is_scalar) {
        return false;
    }
    for (int k = 0; k < 2; k++) {
        if (ua_dtype_kind(ops[k].type) == 'i' &&
            ops[1 - k].type == UA_UINT64) {
            *s = k;
            return true;
        }
    }
    return false;
}

static ua_status run_elementwise(ua_queue *q, const ua_ew_resolved *r,
                                 const ua_ew_operand *ops,
                                 const ua_strided *out);

/* One more elementwise call over r's shape, into out. */
static ua_status
run_step(ua_queue *q, const ua_ew_resolved *r, ua_ew_id f, ua_typenum compute,
         int nin, const ua_ew_operand *ops, const ua_strided *out)
{
    ua_ew_resolved step = *r;
    step.function = f;
    step.nin = nin;
    step.compute = compute;
    step.out_type = UA_BOOL;
    return run_elementwise(q, &step, ops, out);
}

/* The integers compared as uint64 (the signed one wrapped, which orders
 * its non-negative values right), then the answer for negative ones,
 * which are below every uint64, put in: OR (x < 0) where that makes the
 * comparison true, AND (x >= 0) where false. */
static ua_status
compare_mixed_sign(ua_queue *q, const ua_ew_resolved *r,
                   const ua_ew_operand *ops, int s, const ua_strided *out)
{
    ua_ew_id f = r->function;
    /* Whether a negative signed operand makes the comparison true. */
    bool neg_true = f == UA_EW_not_equal ||
                    ((f == UA_EW_less || f == UA_EW_less_equal) == (s == 0) &&
                     f != UA_EW_equal);
    ptrdiff_t n, strides[UA_MAXDIMS];
    ua_status st = ua_layout_check_size(r->nd, r->shape, 1, &n);
    ua_allocation *tmp = NULL;
    if (st == UA_OK) {
        st = ua_usm_alloc(q, UA_USM_DEVICE, n > 0 ? (size_t)n : 1, 0, &tmp);
    }
    if (st != UA_OK) {
        return st;
    }
    ua_layout_default_strides(r->nd, r->shape, 'C', strides);
    ua_strided mask = {ua_allocation_ptr(tmp), strides, UA_BOOL};
    ua_ew_operand sign[2] = {ops[s],
                             {.is_scalar = true, .kind = UA_SCALAR_INT}};
    st = run_step(q, r, neg_true ? UA_EW_less : UA_EW_greater_equal,
                  ops[s].type, 2, sign, &mask);
    if (st == UA_OK) {
        st = run_step(q, r, f, UA_UINT64, 2, ops, out);
    }
    if (st == UA_OK) {
        ua_ew_operand both[2] = {{.data = out->data,
                                  .nd = r->nd,
                                  .shape = r->shape,
                                  .strides = out->strides,
                                  .type = UA_BOOL},
                                 {.data = mask.data,
                                  .nd = r->nd,
                                  .shape = r->shape,
                                  .strides = strides,
                                  .type = UA_BOOL}};
        st = run_step(q, r, neg_true ? UA_EW_logical_or : UA_EW_logical_and,
                      UA_BOOL, 2, both, out);
    }
    ua_usm_free(tmp); /* waits for the kernels */
    return st;
}

ua_status
ua_queue_elementwise(ua_queue *q, const ua_ew_resolved *r,
                     const ua_ew_operand *ops, const ua_strided *out)
{
    ua_status fits = ua_layout_check_ndim(ua_ew_name(r->function), r->nd);
    if (fits != UA_OK) {
        return fits;
    }
    for (int j = 0; j < r->nd; j++) {
        if (r->shape[j] == 0) {
            return UA_OK;
        }
    }
    if (out->type != r->out_type) {
        return ua_error_set(
            UA_ERR_TYPE, "%s(): the result's dtype is %s, not %s",
            ua_ew_name(r->function), ua_dtype_name(r->out_type),
            ua_dtype_name(out->type));
    }
    /* A fused expression's operands are its nodes' inputs, not a
     * comparison's two: its ints fit its type, its arrays share it. */
    int answer = r->fused == NULL ? constant_comparison(r, ops) : -1, s;
    if (answer >= 0) {
        /* isfinite of integers is all true, isnan all false. */
        int x = ops[0].is_scalar ? 1 : 0;
        return run_step(q, r, answer ? UA_EW_isfinite : UA_EW_isnan,
                        ops[x].type, 1, &ops[x], out);
    }
    if (r->fused == NULL && mixed_sign_comparison(r, ops, &s)) {
        return compare_mixed_sign(q, r, ops, s, out);
    }
    return run_elementwise(q, r, ops, out);
}

static ua_status
run_elementwise(ua_queue *q, const ua_ew_resolved *r, const ua_ew_operand *ops,
                const ua_strided *out)
{
    const char *name = ua_ew_name(r->function);
    ua_iter_operand io[1 + UA_EW_MAX_OPERANDS];
    ua_iter_plan walk;
    int nop = iter_operands(r->nin, ops, r, out, io);
    ua_status st =
        ua_iter_plan_make(name, nop, io, 0, UA_ITER_BY_STEPS, &walk);
    ua_ew_operand copies[UA_EW_MAX_OPERANDS];
    ptrdiff_t strides[UA_EW_MAX_OPERANDS][UA_MAXDIMS];
    ua_allocation *tmp[UA_EW_MAX_OPERANDS] = {NULL};
    bool copied = false;
    for (int k = 0; k < r->nin && st == UA_OK; k++) {
        copies[k] = ops[k];
        if (!ops[k].is_scalar && overlaps(&walk, out, &ops[k], k)) {
            st = copy_operand(q, &ops[k], &copies[k], strides[k], &tmp[k]);
            copied = true;
        }
    }
    if (st == UA_OK && copied) {
        iter_operands(r->nin, copies, r, out, io);
        st = ua_iter_plan_make(name, nop, io, 0, UA_ITER_BY_STEPS, &walk);
    }
    ua_elementwise_plan p;
    if (st == UA_OK) {
        st = build_plan(r, copies, out, &walk, &p);
    }
    const ua_compute_ops *k = NULL;
    if (st == UA_OK) {
        st = ua_queue_compute_kernels(q, &k);
    }
    if (st == UA_OK) {
        st = k->elementwise(q->handle, &p);
    }
    for (int k = 0; k < r->nin; k++) {
        if (tmp[k] != NULL) {
            ua_usm_free(tmp[k]); /* waits for the kernel */
        }
    }
    return st;
}

ua_status
ua_elementwise_plan_of(const ua_ew_resolved *r, const ua_ew_operand *ops,
                       const ua_strided *out, ua_elementwise_plan *p)
{
    ua_iter_operand io[1 + UA_EW_MAX_OPERANDS];
    ua_iter_plan walk;
    int nop = iter_operands(r->nin, ops, r, out, io);
    ua_status st = ua_iter_plan_make(ua_ew_name(r->function), nop, io, 0,
                                     UA_ITER_BY_STEPS, &walk);
    return st == UA_OK ? build_plan(r, ops, out, &walk, p) : st;
}
