/* float64 pow's text, included once per target by host_vector_pow.h (in
 * plain arithmetic) and host_vector_fma.h (with fused multiply-adds):
 *   UA_VMD_POW_SFX          the suffix of its names (empty, or _fma)
 *   UA_VMD_POW_MADD(a, b, c)    a b + c, fused or not
 *   UA_VMD_POW_PROD(a, b, h, l) h + l = a b (to 2^-79 of it): h the
 *                           rounded product and l its error where fused,
 *                           else the product of a's and b's high 26 bits
 *                           (exact) and the rest rounded
 * The plain text's bits are those of the products and sums as written. */

#define UA_VMD_POW_CAT(a, b, c) a##b##c
#define UA_VMD_POW_N_(a, s, c) UA_VMD_POW_CAT(a, s, c)
#define UA_VMD_POW_N(a, c) UA_VMD_POW_N_(a, UA_VMD_POW_SFX, c)
#define UA_VMD_POW_M UA_VMD_POW_MADD

/* exp(hi + lo) for |hi| <= 760 and |lo| below 0.017 (pow's): hi = (i/64)
 * ln 2 + r by Cody and Waite's split of ln 2 / 64 (its high part of 36
 * bits, so that i times it is exact for |i| < 2^17, and hi less it exact
 * too), lo added to r; e^r - 1 by a polynomial of degree 7 fitted on
 * |r| <= 0.0225 (within 2^-64 of it; i from hi alone, so that the table's
 * loads need not wait for lo), times 2^(j/64) (i = 64 k + j) from the
 * table in two parts, which leaves the last sum's rounding the only one
 * of note: within 0.51 ULP.  2^k in two factors, each normal for |k| <=
 * 1100, so that subnormal results round once more at most and past the
 * ends come +inf and 0.  Here the table's emulated gathers (GCC 12 makes
 * no gather instructions) cost less than the polynomial of degree 12
 * that |r| <= ln 2 / 2 would need. */
UA_VMD_FN double
UA_VMD_POW_N(ua_vmd_exp_dd, )(double hi, double lo)
{
    double t = hi * 0x1.71547652b82fep+6 + UA_VM_ROUNDER;
    int64_t i = (int64_t)(ua_vm_bits(t) - ua_vm_bits(UA_VM_ROUNDER));
    double id = t - UA_VM_ROUNDER;
    double r = UA_VMD_POW_M(-id, 0x1.62e42fefa0000p-7, hi) -
               UA_VMD_POW_M(id, 0x1.cf79abc9e3b3ap-46, -lo);
    double r2 = r * r; /* Estrin's scheme, as in exp2 */
    double p =
        UA_VMD_POW_M(
            r2, UA_VMD_POW_M(r, 0x1.111111107b9acp-7, 0x1.555555545c4f2p-5),
            UA_VMD_POW_M(r, 0x1.5555555555559p-3, 0x1.0000000000005p-1)) +
        (r2 * r2) *
            UA_VMD_POW_M(r, 0x1.a01ba388c037cp-13, 0x1.6c185fc5c9975p-10);
    p = UA_VMD_POW_M(r2, p, r);
    int64_t j = i & 63, k = i >> 6;
    double th = ua_vmd_exp_hi[j];
    double e = th + UA_VMD_POW_M(th, p, ua_vmd_exp_lo[j]);
    int64_t k1 = k >> 1;
    return e * ua_vm_pow2(k1) * ua_vm_pow2(k - k1);
}

/* log(x) as hi + *lo for x > 0 normal (scaled by 2^-j before), to some
 * 2^-68 relatively (what pow needs: y log x up to 745 in magnitude, its
 * error times y the result's relative error), *lo below 2^-15 of hi.
 * x = 2^k z, z in the table's interval of c; r = z/c - 1 = rh + rl, rh =
 * zh/c - 1 exact (zh z rounded to 21 bits, zh/c 31 bits, then Sterbenz)
 * and of at most 24 bits, so that rh^2/2 is exact too, rl = (z - zh)/c.
 * log(x) = (k ln 2 + log c) + r - rh^2/2 (the rounded sum r of rh and rl
 * and the sums after it with their errors, by two-sums) + the rest:
 * -rl (rh + rl/2), and r^3 times a polynomial of degree 6 fitted to
 * (log1p(r) - r + r^2/2) / r^3 on |r| < 2^-6.8, relatively (r^3 times it
 * within 2^-69.7 of |r|: where x is near 1, log x is r's and keeps its
 * relative accuracy; rl, up to 2^-20 there, must be in the head for
 * that). */
UA_VMD_FN double
UA_VMD_POW_N(ua_vmd_log_dd, )(double x, int64_t j, double *lo)
{
    uint64_t ix = ua_vm_bits(x);
    uint64_t tmp = ix - 0x3fe6a00000000000u;
    int64_t i = (int64_t)((tmp >> 46) & 63);
    int64_t k = (int64_t)tmp >> 52;
    double z = ua_vm_double(ix - (tmp & 0xfff0000000000000u));
    double kd = ua_vmd_int_to_double(k + j);
    double invc = ua_vmd_log_invc[i];
    /* z's head rounded to nearest, so that rh is 0 where |r| < 2^-22 and
     * within twice |r| elsewhere: rh^2/2 stays far below log x */
    double zh =
        ua_vm_double((ua_vm_bits(z) + 0x80000000u) & 0xffffffff00000000u);
    double rh = zh * invc - 1.0;
    double rl = (z - zh) * invc;
    double r = rh + rl;
    double re = ua_vmd_sum_err(rh, rl, r);
    double t1 = kd * 0x1.62e42fefa3800p-1 + ua_vmd_log_ch[i];
    double t2 = t1 + r;
    double e2 = ua_vmd_sum_err(t1, r, t2);
    double a2 = -0.5 * rh * rh;
    double hi = t2 + a2;
    double e3 = (t2 - hi) + a2; /* |t2| >= |a2| */
    double r2 = r * r;          /* Estrin's scheme, as in exp2 */
    double p = UA_VMD_POW_M(
        r2, UA_VMD_POW_M(-r, 0x1.5555553f673a4p-3, 0x1.99999999a0756p-3),
        UA_VMD_POW_M(-r, 0x1.000000000009bp-2, 0x1.5555555555555p-2));
    double p2 = UA_VMD_POW_M(
        r2, 0x1.c809607263da6p-4,
        UA_VMD_POW_M(-r, 0x1.00078016c5edbp-3, 0x1.249245d953e2dp-3));
    p = UA_VMD_POW_M(r2 * r2, p2, p);
    double tail = UA_VMD_POW_M(kd, 0x1.ef35793c76730p-45, ua_vmd_log_cl[i]) -
                  rl * UA_VMD_POW_M(0.5, rl, rh) + (r * r2) * p;
    *lo = (e2 + e3 + re) + tail;
    return hi;
}

/* exp(y log x) of the two above for x positive, normal and finite (times
 * 2^j) and y finite: y times the logarithm in two parts; past exp's ends
 * clamped, and the low part (NaN where y lhi overflows) dropped. */
UA_VMD_FN double
UA_VMD_POW_N(ua_vmd_pow_core, )(double x, int64_t j, double y)
{
    double llo;
    double lhi = UA_VMD_POW_N(ua_vmd_log_dd, )(x, j, &llo);
    double eh, el;
    UA_VMD_POW_PROD(y, lhi, eh, el);
    el = el + y * llo;
    el = fabs(eh) < 760.0 ? el : 0.0;
    eh = ua_vmd_clamp(eh, 760.0);
    return UA_VMD_POW_N(ua_vmd_exp_dd, )(eh, el);
}

/* pow of x positive, normal and finite and y finite; an exponent of 2
 * gives x * x, the bits of the eager x ** 2 with a scalar 2
 * (elementwise_rewrite.c) whatever operand holds the 2. */
UA_VMD_FN double
UA_VMD_POW_N(ua_vmd_pow, _plain)(double x, double y)
{
    double r = UA_VMD_POW_N(ua_vmd_pow_core, )(x, 0, y);
    return y == 2.0 ? x * x : r;
}

/* pow(x, y) = exp(y log|x|): the log in two parts (ua_vmd_log_dd), y
 * times it in two parts, exp of the two parts (ua_vmd_exp_dd):
 * within 0.52 ULP but for subnormal results (0.75).  Negative x: NaN for
 * non-integral y, the sign for odd y.  C99's cases (F.9.4.4) by selects
 * on the lanes they concern: pow(x, +-0) and pow(1, y) are 1 even for
 * NaN, pow(-1, +-inf) 1; else NaN propagates; zero and infinite x and
 * infinite y give 0 or +inf as |x| > 1 agrees with y > 0 or not, the
 * sign again for odd y; finite overflow and underflow come from exp's
 * clamp. */
UA_VMD_FN double
UA_VMD_POW_N(ua_vmd_pow, )(double x, double y)
{
    double ax = fabs(x), ay = fabs(y);
    /* y's integer part: y + 2^52 rounds y below 2^52 to an integer, whose
     * parity its last bit holds; from 2^52 on every double is an integer,
     * from 2^53 an even one (infinities count as even integers, which is
     * what the cases below want).  odd: the sign bit where y is odd. */
    double u = ay < 0x1p52 ? ay + 0x1p52 : ay;
    double yi = ay < 0x1p52 ? u - 0x1p52 : ay;
    uint64_t odd = yi == ay && ay < 0x1p53 ? ua_vm_bits(u) << 63 : 0;
    int tiny = ax < 0x1p-1022;
    double xs = tiny ? ax * 0x1p52 : ax;
    /* zero, infinite and NaN x or y: lanes replaced below */
    double r = UA_VMD_POW_N(ua_vmd_pow_core, )(xs, tiny ? -52 : 0, y);
    /* the special lanes' value, found beside exp's chain, and one select
     * at its end */
    uint64_t sign = ua_vm_bits(x) & odd;
    double sp = (ax > 1.0) == (y > 0.0) ? INFINITY : 0.0;
    sp = ua_vm_double(ua_vm_bits(sp) ^ sign);
    sp = x < 0.0 && x > -INFINITY && yi != ay ? NAN : sp;
    sp = x != x || y != y ? x + y : sp;
    sp = y == 0.0 || x == 1.0 || (x == -1.0 && ay == INFINITY) ? 1.0 : sp;
    int regular = ax > 0.0 && ax < INFINITY && ay < INFINITY && x != 1.0 &&
                  y != 0.0 && (x > 0.0 || yi == ay);
    r = regular ? ua_vm_double(ua_vm_bits(r) ^ sign) : sp;
    /* an exponent of 2 gives x * x, as ua_vmd_pow_plain */
    return y == 2.0 ? x * x : r;
}

#undef UA_VMD_POW_M
#undef UA_VMD_POW_N
#undef UA_VMD_POW_N_
#undef UA_VMD_POW_CAT
