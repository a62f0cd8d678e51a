/* The host backend's compute kernels (core/compute/kernels.h): loops on the
 * calling thread.  Elements move as bytes of their size, which the
 * compiler turns into one load and one store for the usual sizes. */
#include <string.h>

#include "backends/host/host_elementwise.h"
#include "backends/host/host_kernels.h"
#include "core/compute/kernels.h"
#include "core/compute/library.h"

/* Moves n bytes, with a constant size for the usual ones. */
static inline void
move(char *dst, const char *src, size_t n)
{
    switch (n) {
    case 1:
        *dst = *src;
        break;
    case 2:
        memcpy(dst, src, 2);
        break;
    case 4:
        memcpy(dst, src, 4);
        break;
    case 8:
        memcpy(dst, src, 8);
        break;
    case 16:
        memcpy(dst, src, 16);
        break;
    default:
        memcpy(dst, src, n);
    }
}

/* One element of an index plan; false for an index out of bounds. */
static inline bool
index_element(ua_index_mode mode, const ua_index_plan *p, char *r, char *a,
              const char *ix, int64_t *bad)
{
    int64_t v;
    memcpy(&v, ix, 8);
    if (p->length > 0) {
        int64_t w = v < 0 ? v + p->length : v;
        if (w < 0 || w >= p->length) {
            *bad = v;
            return false;
        }
        v = w;
    }
    if (mode == UA_INDEX_OFFSETS) {
        int64_t o;
        memcpy(&o, r, 8);
        o += v * p->stride;
        memcpy(r, &o, 8);
    } else if (mode == UA_INDEX_GATHER) {
        move(r, a + v * p->stride, p->itemsize);
    } else {
        move(a + v * p->stride, r, p->itemsize);
    }
    return true;
}

/* How many indices ahead a gather asks for its element: random reads of
 * a large array each wait on memory, and the core overlaps only those its
 * window of instructions holds (4 Mi of 16 Mi float32 on one thread: 75
 * to 87 ms against 101 to 110 without, NumPy's 88 to 136, under load 8;
 * 16 and 64 ahead measured alike). */
#define GATHER_AHEAD 32

/* The element of index k, asked of the caches ahead of its read (an index
 * out of bounds asks for nothing: the loop then stops at it). */
static inline void
gather_prefetch(const char *a, ptrdiff_t stride, const char *ix, int64_t len)
{
    int64_t v;
    memcpy(&v, ix, 8);
    v += v < 0 ? len : 0;
    if ((uint64_t)v < (uint64_t)len) {
        __builtin_prefetch(a + v * stride);
    }
}

/* The common gather: one axis, elements of a fixed size; the compiler
 * makes each memcpy one load or store. */
#define GATHER_FLAT(SIZE)                                                     \
    for (ptrdiff_t i = 0; i < n; i++) {                                       \
        int64_t v;                                                            \
        if (i + GATHER_AHEAD < n) {                                           \
            gather_prefetch(a, p->stride, ix + (i + GATHER_AHEAD) * is, len); \
        }                                                                     \
        memcpy(&v, ix + i * is, 8);                                           \
        v += v < 0 ? len : 0;                                                 \
        if ((uint64_t)v >= (uint64_t)len) {                                   \
            memcpy(bad, ix + i * is, 8);                                      \
            return false;                                                     \
        }                                                                     \
        memcpy(r + i * rs, a + v * p->stride, SIZE);                          \
    }                                                                         \
    return true

static bool
gather_flat(const ua_index_plan *p, int64_t *bad)
{
    const ptrdiff_t n = p->shape[0], rs = p->rstep[0], is = p->istep[0];
    const int64_t len = p->length;
    char *r = p->result;
    const char *a = p->array, *ix = p->index;
    switch (p->itemsize) {
    case 1:
        GATHER_FLAT(1);
    case 2:
        GATHER_FLAT(2);
    case 4:
        GATHER_FLAT(4);
    case 8:
        GATHER_FLAT(8);
    default:
        GATHER_FLAT(16);
    }
}

static ua_status
host_index(void *queue, ua_index_mode mode, const ua_index_plan *p,
           int64_t *bad)
{
    (void)queue;
    if (mode == UA_INDEX_GATHER && p->nd == 1 && p->astep[0] == 0 &&
        p->length > 0 &&
        (p->itemsize <= 8 ? (p->itemsize & (p->itemsize - 1)) == 0
                          : p->itemsize == 16)) {
        return gather_flat(p, bad) ? UA_OK : UA_ERR_INDEX;
    }
    int nd = p->nd;
    ptrdiff_t idx[UA_MAXDIMS] = {0};
    char *r = p->result, *a = p->array;
    const char *ix = p->index;
    if (nd == 0) {
        return index_element(mode, p, r, a, ix, bad) ? UA_OK : UA_ERR_INDEX;
    }
    const ptrdiff_t n = p->shape[nd - 1], rs = p->rstep[nd - 1],
                    as = p->astep[nd - 1], is = p->istep[nd - 1];
    for (;;) {
        for (ptrdiff_t i = 0; i < n; i++) {
            if (!index_element(mode, p, r + i * rs, a + i * as, ix + i * is,
                               bad)) {
                return UA_ERR_INDEX;
            }
        }
        int k = nd - 2;
        for (; k >= 0; k--) {
            r += p->rstep[k];
            a += p->astep[k];
            ix += p->istep[k];
            if (++idx[k] < p->shape[k]) {
                break;
            }
            r -= p->rstep[k] * p->shape[k];
            a -= p->astep[k] * p->shape[k];
            ix -= p->istep[k] * p->shape[k];
            idx[k] = 0;
        }
        if (k < 0) {
            return UA_OK;
        }
    }
}

static size_t
count_true(const unsigned char *mask, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        count += mask[i] != 0;
    }
    return count;
}

/* Rows of a fixed size, written without a branch per element: each row
 * is stored, and the output moves on only past the true ones.  Up to the
 * last true element only, so that every store lands in the output. */
#define COMPRESS_ROWS(SIZE)                                                   \
    for (size_t i = 0; i < end; i++) {                                        \
        memcpy(dst, p->src + (ptrdiff_t)i * p->sstep, SIZE);                  \
        dst += (p->mask[i] != 0) * (SIZE);                                    \
    }                                                                         \
    return true

static bool
compress_fixed(const ua_compress_plan *p, char *dst)
{
    size_t end = p->n;
    while (end > 0 && p->mask[end - 1] == 0) {
        end--;
    }
    switch (p->rowbytes) {
    case 1:
        COMPRESS_ROWS(1);
    case 2:
        COMPRESS_ROWS(2);
    case 4:
        COMPRESS_ROWS(4);
    case 8:
        COMPRESS_ROWS(8);
    default:
        return false;
    }
}

/* The mask coordinates of flat index i. */
static void
coordinates(const ua_compress_plan *p, size_t i, int64_t *out)
{
    for (int k = p->nd - 1; k >= 0; k--) {
        size_t n = (size_t)p->shape[k];
        out[k] = (int64_t)(i % n);
        i /= n;
    }
}

static ua_status
host_compress(void *queue, const ua_compress_plan *p, ua_compress_output out,
              void *ctx, size_t *count)
{
    (void)queue;
    *count = count_true(p->mask, p->n);
    char *dst;
    ua_status st = out(ctx, *count, &dst);
    if (st != UA_OK || *count == 0) {
        return st;
    }
    if (p->src != NULL && compress_fixed(p, dst)) {
        return UA_OK;
    }
    size_t row = p->src != NULL ? p->rowbytes : (size_t)p->nd * 8;
    for (size_t i = 0; i < p->n; i++) {
        if (!p->mask[i]) {
            continue;
        }
        if (p->src != NULL) {
            move(dst, p->src + (ptrdiff_t)i * p->sstep, row);
        } else {
            coordinates(p, i, (int64_t *)(void *)dst);
        }
        dst += row;
    }
    return UA_OK;
}

/* arange's fill in the type's own arithmetic, NumPy's formula. */
#define ARANGE_REAL(T, PUT)                                                   \
    do {                                                                      \
        T first = (T)p->first.f[0], d = (T)p->second.f[0] - first;            \
        for (size_t i = 2; i < p->n; i++) {                                   \
            T v = first + (T)i * d;                                           \
            PUT(i, v);                                                        \
        }                                                                     \
    } while (0)

static void
arange_integers(const ua_affine_plan *p, size_t itemsize)
{
    uint64_t first = (uint64_t)p->first.i;
    uint64_t d = (uint64_t)p->second.i - first;
    for (size_t i = 0; i < p->n; i++) {
        uint64_t v = first + (uint64_t)i * d;
        memcpy(p->dst + i * itemsize, &v, itemsize); /* little-endian */
    }
}

static void
arange_floating(const ua_affine_plan *p)
{
    char *dst = p->dst;
#define PUT_HALF(i, v)                                                        \
    do {                                                                      \
        uint16_t h = ua_half_from_double((double)(v));                        \
        memcpy(dst + (i) * 2, &h, 2);                                         \
    } while (0)
#define PUT_F32(i, v) ((float *)(void *)dst)[i] = (v)
#define PUT_F64(i, v) ((double *)(void *)dst)[i] = (v)
#define PUT_C64(i, v) ((float *)(void *)dst)[2 * (i) + part] = (v)
#define PUT_C128(i, v) ((double *)(void *)dst)[2 * (i) + part] = (v)
    switch (p->type) {
    case UA_FLOAT16:
        ARANGE_REAL(float, PUT_HALF);
        break;
    case UA_FLOAT32:
        ARANGE_REAL(float, PUT_F32);
        break;
    case UA_FLOAT64:
        ARANGE_REAL(double, PUT_F64);
        break;
    case UA_COMPLEX64:
        for (int part = 0; part < 2; part++) {
            float first = (float)p->first.f[part];
            float d = (float)p->second.f[part] - first;
            for (size_t i = 2; i < p->n; i++) {
                PUT_C64(i, first + (float)i * d);
            }
        }
        break;
    default: /* complex128 */
        for (int part = 0; part < 2; part++) {
            double first = p->first.f[part];
            double d = p->second.f[part] - first;
            for (size_t i = 2; i < p->n; i++) {
                PUT_C128(i, first + (double)i * d);
            }
        }
    }
}

/* The first two elements, as given. */
static void
arange_head(const ua_affine_plan *p)
{
    ua_strided dst = {p->dst, (ptrdiff_t[]){1}, p->type};
    const ua_affine_value *v[2] = {&p->first, &p->second};
    for (size_t i = 0; i < 2 && i < p->n; i++) {
        double c[2] = {v[i]->f[0], v[i]->f[1]};
        ua_strided src = {(char *)c, (ptrdiff_t[]){1}, UA_COMPLEX128};
        dst.data = p->dst + i * ua_dtype_itemsize(p->type);
        ua_copy_strided_host(0, NULL, &dst, &src);
    }
}

/* linspace's values in chunks of complex128, cast into place. */
static void
linspace(const ua_affine_plan *p)
{
    enum { CHUNK = 512 };
    double buf[2 * CHUNK];
    size_t isz = ua_dtype_itemsize(p->type);
    for (size_t base = 0; base < p->n; base += CHUNK) {
        size_t m = p->n - base < CHUNK ? p->n - base : CHUNK;
        for (size_t j = 0; j < m; j++) {
            double i = (double)(base + j);
            for (int part = 0; part < 2; part++) {
                double y =
                    p->divide ? i / p->div * p->step[part] : i * p->step[part];
                buf[2 * j + part] = y + p->start[part];
            }
            if (p->endpoint && base + j == p->n - 1 && p->n > 1) {
                buf[2 * j] = p->stop[0];
                buf[2 * j + 1] = p->stop[1];
            }
        }
        ptrdiff_t shape = (ptrdiff_t)m, one = 1;
        ua_strided dst = {p->dst + base * isz, &one, p->type};
        ua_strided src = {(char *)buf, &one, UA_COMPLEX128};
        ua_copy_strided_host(1, &shape, &dst, &src);
    }
}

static ua_status
host_affine(void *queue, const ua_affine_plan *p)
{
    (void)queue;
    if (p->mode == UA_AFFINE_LINSPACE) {
        linspace(p);
    } else if (ua_dtype_kind(p->type) == 'f' ||
               ua_dtype_kind(p->type) == 'c') {
        arange_head(p);
        arange_floating(p);
    } else {
        arange_integers(p, ua_dtype_itemsize(p->type));
    }
    return UA_OK;
}

/* n elements of sz bytes at e set to v, a loop of stores of a constant
 * size for the usual sizes. */
#define FILL_AS(T)                                                            \
    do {                                                                      \
        T w_;                                                                 \
        memcpy(&w_, v, sizeof w_);                                            \
        for (ptrdiff_t i_ = 0; i_ < n; i_++) {                                \
            memcpy(e + i_ * (ptrdiff_t)sizeof w_, &w_, sizeof w_);            \
        }                                                                     \
    } while (0)

static inline __attribute__((always_inline)) void
fill(char *e, const unsigned char *v, size_t sz, ptrdiff_t n)
{
    switch (sz) {
    case 1:
        memset(e, v[0], (size_t)(n > 0 ? n : 0));
        break;
    case 2:
        FILL_AS(uint16_t);
        break;
    case 4:
        FILL_AS(uint32_t);
        break;
    case 8:
        FILL_AS(uint64_t);
        break;
    default:
        for (ptrdiff_t i = 0; i < n; i++) {
            memcpy(e + i * (ptrdiff_t)sz, v, sz);
        }
    }
}

static ptrdiff_t
clamp(ptrdiff_t j, ptrdiff_t lo, ptrdiff_t hi)
{
    return j < lo ? lo : j > hi ? hi : j;
}

/* Each row's kept columns, j - i within [lo, hi], are one stretch
 * [j0, j1): the row is three fills at most. */
static ua_status
host_band(void *queue, const ua_band_plan *p)
{
    (void)queue;
    size_t sz = p->itemsize;
    char *e = p->dst;
    /* bounds past the matrix's diagonals as far as it has, against
     * overflow */
    ptrdiff_t far = p->rows + p->cols + 1;
    ptrdiff_t lo = clamp(p->lo, -far, far), hi = clamp(p->hi, -far, far);
    for (size_t b = 0; b < p->batch; b++) {
        for (ptrdiff_t i = 0; i < p->rows; i++, e += p->cols * (ptrdiff_t)sz) {
            ptrdiff_t j0 = clamp(i + lo, 0, p->cols);
            ptrdiff_t j1 = clamp(i + hi + 1, j0, p->cols);
            if (p->set_outside) {
                fill(e, p->outside, sz, j0);
                fill(e + j1 * (ptrdiff_t)sz, p->outside, sz, p->cols - j1);
            }
            if (p->set_inside) {
                fill(e + j0 * (ptrdiff_t)sz, p->inside, sz, j1 - j0);
            }
        }
    }
    return UA_OK;
}

/* NumPy's pocketfft, through the function the binding gave: host memory
 * is NumPy's memory, so its arrays are views of the plan's. */
static ua_status
host_fft(void *queue, const ua_fft_plan *p)
{
    (void)queue;
    ua_host_fft_fn fn = ua_host_fft();
    if (fn == NULL) {
        return ua_error_set(UA_ERR_UNAVAILABLE,
                            "no FFT on the host: the binding gave none");
    }
    return fn(p);
}

const ua_compute_ops ua_host_compute_ops = {
    .version = UA_COMPUTE_OPS_VERSION,
    .index = host_index,
    .compress = host_compress,
    .affine = host_affine,
    .band = host_band,
    .elementwise = ua_host_elementwise,
    .reduce = ua_host_reduce,
    .scan = ua_host_scan,
    .sort = ua_host_sort,
    .search = ua_host_search,
    .group = ua_host_group,
    .matmul = ua_host_matmul,
    .solver = ua_host_solver,
    .fft = host_fft,
};
