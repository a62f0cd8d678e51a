/* Elementwise calls rewritten into cheaper ones of the same result. */
#include "core/compute/compute.h"

/* Whether the scalar operand is the number 2 (an int or a float). */
static bool
is_two(const ua_ew_operand *o)
{
    if (!o->is_scalar || o->huge) {
        return false;
    }
    switch (o->kind) {
    case UA_SCALAR_INT:
        return o->positive ? o->value.u == 2 : o->value.i == 2;
    case UA_SCALAR_FLOAT:
        return o->value.f == 2.0;
    default:
        return false;
    }
}

/* The angle of a real array: that of the complex number whose imaginary
 * part is +0, atan2(+0, x), which the real atan2 loop computes in the
 * real part's type with the same bits (0 or pi, +-0 and NaN kept), where
 * the complex loop would first widen every element to a complex
 * temporary. */
static bool
real_angle(ua_ew_resolved *r, ua_ew_operand *ops)
{
    if (r->function != UA_EW_angle || ops[0].is_scalar ||
        ua_dtype_kind(ops[0].type) == 'c') {
        return false;
    }
    ops[1] = ops[0];
    ops[0] = (ua_ew_operand){
        .is_scalar = true, .kind = UA_SCALAR_FLOAT, .value.f = 0.0};
    r->function = UA_EW_atan2;
    r->nin = 2;
    r->compute = r->out_type;
    return true;
}

void
ua_elementwise_rewrite(ua_ew_resolved *r, ua_ew_operand *ops)
{
    if (real_angle(r, ops)) {
        return;
    }
    /* x ** 2 as x * x, NumPy's square: one correctly rounded product
     * where a power function rounds within its ULP bound, at the speed
     * of a multiplication; pow's special values of an exponent of 2
     * (+inf of either infinity, +0 of either zero, NaN) are the
     * product's too.  Only where x is already of the computation type
     * (an int array to the power 2.0 is a float result), and real: a
     * complex product's real part cancels where the power's does not. */
    char kind = ua_dtype_kind(r->compute);
    if (r->function == UA_EW_pow && !ops[0].is_scalar && is_two(&ops[1]) &&
        ops[0].type == r->compute &&
        (kind == 'i' || kind == 'u' || kind == 'f')) {
        r->function = UA_EW_multiply;
        ops[1] = ops[0];
    }
}
