/* The host backend's matrix products (core/compute/reduce_kernels.h):
 * float32, float64, complex64 and complex128 go to the BLAS that
 * host_blas.c finds at run time where the layout is one BLAS takes; the
 * rest (integers, which wrap as NumPy's do, bool, float16, other layouts,
 * or no BLAS) to the loops here.  The loops add the k products of each
 * element in sequence, as NumPy's loops without BLAS do. */
#include <complex.h>
#include <string.h>

#include "backends/host/host_kernels.h"
#include "core/compute/kernels.h"

typedef float _Complex cf;
typedef double _Complex cd;

enum { JBLOCK = 256 };

#define MUL_REAL(a, b) ((a) * (b))
#define MUL_CF(a, b)                                                          \
    CMPLXF(crealf(a) * crealf(b) - cimagf(a) * cimagf(b),                     \
           crealf(a) * cimagf(b) + cimagf(a) * crealf(b))
#define MUL_CD(a, b)                                                          \
    CMPLX(creal(a) * creal(b) - cimag(a) * cimag(b),                          \
          creal(a) * cimag(b) + cimag(a) * creal(b))

#define LOAD_AS(ST, AT)                                                       \
    static inline AT load_##ST##_##AT(const char *p)                          \
    {                                                                         \
        ST v;                                                                 \
        memcpy(&v, p, sizeof v);                                              \
        return (AT)v;                                                         \
    }

/* One matrix, rows of c in blocks of JBLOCK columns: for each row i and
 * block, acc[j] += a[i, k] * b[k, j] over k in sequence. */
#define DEFINE_MM(S, ST, AT, LOAD, STORE, MUL, ZERO, CONJ)                    \
    static void mm_##S(const ua_matmul_plan *p, const char *a, const char *b, \
                       char *c)                                               \
    {                                                                         \
        AT acc[JBLOCK];                                                       \
        for (ptrdiff_t i = 0; i < p->m; i++) {                                \
            for (ptrdiff_t j0 = 0; j0 < p->n; j0 += JBLOCK) {                 \
                ptrdiff_t w = p->n - j0 < JBLOCK ? p->n - j0 : JBLOCK;        \
                for (ptrdiff_t j = 0; j < w; j++) {                           \
                    acc[j] = ZERO;                                            \
                }                                                             \
                for (ptrdiff_t k = 0; k < p->k; k++) {                        \
                    AT aik = LOAD(a + i * p->am + k * p->ak);                 \
                    aik = p->conj_a ? CONJ(aik) : aik;                        \
                    const char *brow = b + k * p->bk + j0 * p->bn;            \
                    for (ptrdiff_t j = 0; j < w; j++) {                       \
                        acc[j] = acc[j] + MUL(aik, LOAD(brow + j * p->bn));   \
                    }                                                         \
                }                                                             \
                char *crow = c + i * p->cm + j0 * p->cn;                      \
                for (ptrdiff_t j = 0; j < w; j++) {                           \
                    STORE(crow + j * p->cn, acc[j]);                          \
                }                                                             \
            }                                                                 \
        }                                                                     \
    }

#define STORE_AS(ST, AT)                                                      \
    static inline void store_##ST##_##AT(char *p, AT v)                       \
    {                                                                         \
        ST x = (ST)v;                                                         \
        memcpy(p, &x, sizeof x);                                              \
    }

LOAD_AS(float, float)
LOAD_AS(double, double)
LOAD_AS(cf, cf)
LOAD_AS(cd, cd)
LOAD_AS(int8_t, uint64_t)
LOAD_AS(uint8_t, uint64_t)
LOAD_AS(int16_t, uint64_t)
LOAD_AS(uint16_t, uint64_t)
LOAD_AS(int32_t, uint64_t)
LOAD_AS(uint32_t, uint64_t)
LOAD_AS(uint64_t, uint64_t)
STORE_AS(float, float)
STORE_AS(double, double)
STORE_AS(cf, cf)
STORE_AS(cd, cd)
STORE_AS(uint8_t, uint64_t)
STORE_AS(uint16_t, uint64_t)
STORE_AS(uint32_t, uint64_t)
STORE_AS(uint64_t, uint64_t)

static inline float
load_half(const char *p)
{
    uint16_t h;
    memcpy(&h, p, 2);
    return ua_half_to_float(h);
}

static inline void
store_half(char *p, float v)
{
    uint16_t h = ua_half_from_double((double)v);
    memcpy(p, &h, 2);
}

#define AND(a, b) ((a) & (b))
#define KEEP(v) (v)
static inline uint8_t
load_bool(const char *p)
{
    return *(const uint8_t *)p != 0;
}

static inline void
store_bool(char *p, uint64_t v)
{
    *(uint8_t *)p = v != 0;
}

DEFINE_MM(f2, uint16_t, float, load_half, store_half, MUL_REAL, 0.0f, KEEP)
DEFINE_MM(f4, float, float, load_float_float, store_float_float, MUL_REAL,
          0.0f, KEEP)
DEFINE_MM(f8, double, double, load_double_double, store_double_double,
          MUL_REAL, 0.0, KEEP)
DEFINE_MM(c8, cf, cf, load_cf_cf, store_cf_cf, MUL_CF, 0.0f, conjf)
DEFINE_MM(c16, cd, cd, load_cd_cd, store_cd_cd, MUL_CD, 0.0, conj)
DEFINE_MM(i1, int8_t, uint64_t, load_int8_t_uint64_t, store_uint8_t_uint64_t,
          MUL_REAL, 0, KEEP)
DEFINE_MM(u1, uint8_t, uint64_t, load_uint8_t_uint64_t, store_uint8_t_uint64_t,
          MUL_REAL, 0, KEEP)
DEFINE_MM(i2, int16_t, uint64_t, load_int16_t_uint64_t,
          store_uint16_t_uint64_t, MUL_REAL, 0, KEEP)
DEFINE_MM(u2, uint16_t, uint64_t, load_uint16_t_uint64_t,
          store_uint16_t_uint64_t, MUL_REAL, 0, KEEP)
DEFINE_MM(i4, int32_t, uint64_t, load_int32_t_uint64_t,
          store_uint32_t_uint64_t, MUL_REAL, 0, KEEP)
DEFINE_MM(u4, uint32_t, uint64_t, load_uint32_t_uint64_t,
          store_uint32_t_uint64_t, MUL_REAL, 0, KEEP)
DEFINE_MM(u8, uint64_t, uint64_t, load_uint64_t_uint64_t,
          store_uint64_t_uint64_t, MUL_REAL, 0, KEEP)
/* bool: the "or" of the "and"s, as NumPy's bool matmul (a count of true
 * products, which no k reaches 2^64 with, tested for non-zero). */
DEFINE_MM(b1, uint8_t, uint64_t, load_bool, store_bool, AND, 0, KEEP)

typedef void (*mm_fn)(const ua_matmul_plan *, const char *, const char *,
                      char *);

static mm_fn
loop_for(ua_typenum t)
{
    switch (t) {
    case UA_FLOAT16:
        return mm_f2;
    case UA_FLOAT32:
        return mm_f4;
    case UA_FLOAT64:
        return mm_f8;
    case UA_COMPLEX64:
        return mm_c8;
    case UA_COMPLEX128:
        return mm_c16;
    case UA_INT8:
        return mm_i1;
    case UA_UINT8:
        return mm_u1;
    case UA_INT16:
        return mm_i2;
    case UA_UINT16:
        return mm_u2;
    case UA_INT32:
        return mm_i4;
    case UA_UINT32:
        return mm_u4;
    case UA_BOOL:
        return mm_b1;
    default:
        return mm_u8;
    }
}

ua_status
ua_host_matmul(void *queue, const ua_matmul_plan *p)
{
    (void)queue;
    mm_fn loop = loop_for(p->type);
    ptrdiff_t idx[UA_MAXDIMS] = {0};
    const char *a = p->a, *b = p->b;
    char *c = p->c;
    for (;;) {
        if (!ua_host_blas_gemm(p, a, b, c)) {
            loop(p, a, b, c);
        }
        int k = p->nd - 1;
        for (; k >= 0; k--) {
            a += p->astep[k];
            b += p->bstep[k];
            c += p->cstep[k];
            if (++idx[k] < p->shape[k]) {
                break;
            }
            a -= p->astep[k] * p->shape[k];
            b -= p->bstep[k] * p->shape[k];
            c -= p->cstep[k] * p->shape[k];
            idx[k] = 0;
        }
        if (k < 0) {
            return UA_OK;
        }
    }
}
