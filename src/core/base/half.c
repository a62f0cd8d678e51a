/* IEEE 754 binary16 <-> binary32/64 without relying on compiler support. */
#include <math.h>
#include <string.h>

#include "core/core.h"

float
ua_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1f;
    uint32_t man = h & 0x3ff;
    uint32_t bits;
    if (exp == 0x1f) { /* inf or nan */
        bits = sign | 0x7f800000u | (man << 13);
    } else if (exp != 0) { /* normal */
        bits = sign | ((exp + 112) << 23) | (man << 13);
    } else if (man == 0) { /* zero */
        bits = sign;
    } else { /* subnormal: normalise */
        int e = -1;
        do {
            e++;
            man <<= 1;
        } while ((man & 0x400) == 0);
        bits = sign | ((uint32_t)(112 - e) << 23) | ((man & 0x3ff) << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

uint16_t
ua_half_from_double(double x)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (isnan(x)) {
        return sign | 0x7e00;
    }
    if (a >= 65520.0) { /* rounds to infinity */
        return sign | 0x7c00;
    }
    if (a < 0x1p-14) {
        /* Subnormal or zero: multiples of 2**-24, rounded half to even by
         * nearbyint in the default rounding mode. */
        return sign | (uint16_t)nearbyint(a * 0x1p24);
    }
    int e;
    double m = frexp(a, &e); /* a = m * 2**e, m in [0.5, 1) */
    /* 11 significant bits: round m * 2**11 to an integer in [1024, 2048]. */
    double r = nearbyint(m * 2048.0);
    if (r == 2048.0) {
        r = 1024.0;
        e++;
    }
    if (e + 14 >= 31) {
        return sign | 0x7c00;
    }
    return sign | (uint16_t)((e + 14) << 10) | (uint16_t)((int)r - 1024);
}
