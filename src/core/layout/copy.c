/* The strided copy engine: any layout to any layout of the same shape,
 * within a dtype or across dtypes.
 *
 * The iteration planner first reduces the axes (length-1 axes dropped,
 * axes ordered by the destination's strides, mergeable neighbours
 * merged), so that most copies become a few long runs.  Runs contiguous on both sides become
 * memcpy; when the source's fastest axis is not the destination's, the two
 * axes are walked in tiles that fit the L1 cache (a transpose). */
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/compute/kernels.h"
#include "core/devices/devices.h"
#include "core/layout/iter_plan.h"
#include "core/layout/relay.h"
#include "core/layout/transfer.h"

/* Copies n elements; dst and src advance by their steps in bytes. */
typedef void (*inner_loop)(char *dst, ptrdiff_t dstep, const char *src,
                           ptrdiff_t sstep, ptrdiff_t n);

/* ------------------------------------------------ moves within a dtype */

#define DEFINE_MOVE(NAME, SIZE)                                               \
    static void NAME(char *dst, ptrdiff_t dstep, const char *src,             \
                     ptrdiff_t sstep, ptrdiff_t n)                            \
    {                                                                         \
        for (ptrdiff_t i = 0; i < n; i++, dst += dstep, src += sstep) {       \
            memcpy(dst, src, SIZE);                                           \
        }                                                                     \
    }

DEFINE_MOVE(move1, 1)
DEFINE_MOVE(move2, 2)
DEFINE_MOVE(move4, 4)
DEFINE_MOVE(move8, 8)
DEFINE_MOVE(move16, 16)

static inner_loop
move_loop(size_t itemsize)
{
    switch (itemsize) {
    case 1:
        return move1;
    case 2:
        return move2;
    case 4:
        return move4;
    case 8:
        return move8;
    default:
        return move16;
    }
}

/* -------------------------------------------------------------- casts */

/* Each type reads as a real and an imaginary part (0 unless complex) and
 * stores from them, as NumPy's unsafe casting does: complex to real keeps
 * the real part, anything to bool tests for non-zero. */
typedef struct {
    float re, im;
} c64;
typedef struct {
    double re, im;
} c128;

/* Elements are read and written through memcpy: arrays imported from
 * other producers (a NumPy buffer at an odd offset, a SUAI pointer) need
 * not be aligned to their itemsize, and NumPy accepts such arrays.  A
 * fixed-size memcpy is one move where the target allows it. */
#define DEFINE_ACCESS(T)                                                      \
    static inline T load_##T(const char *p)                                   \
    {                                                                         \
        T v;                                                                  \
        memcpy(&v, p, sizeof(v));                                             \
        return v;                                                             \
    }                                                                         \
    static inline void store_##T(char *p, T v)                                \
    {                                                                         \
        memcpy(p, &v, sizeof(v));                                             \
    }
DEFINE_ACCESS(uint8_t)
DEFINE_ACCESS(int8_t)
DEFINE_ACCESS(uint16_t)
DEFINE_ACCESS(int16_t)
DEFINE_ACCESS(uint32_t)
DEFINE_ACCESS(int32_t)
DEFINE_ACCESS(uint64_t)
DEFINE_ACCESS(int64_t)
DEFINE_ACCESS(float)
DEFINE_ACCESS(double)
DEFINE_ACCESS(c64)
DEFINE_ACCESS(c128)

/* Float to integer conversion of NaN, infinities and values out of range
 * is undefined in C.  They go as x86-64's conversion instruction takes
 * them (the "integer indefinite" INT64_MIN), then wrap to the width of the
 * destination, as NumPy's casts do there; values in range truncate. */
static inline int64_t
float_to_i64(double v)
{
    return v >= -9223372036854775808.0 && v < 9223372036854775808.0
               ? (int64_t)v
               : INT64_MIN;
}

static inline uint64_t
float_to_u64(double v)
{
    return v >= 0 && v < 18446744073709551616.0 ? (uint64_t)v
                                                : (uint64_t)float_to_i64(v);
}

#define TO_I64(r_)                                                            \
    _Generic((r_),                                                            \
        float: float_to_i64(r_),                                              \
        double: float_to_i64(r_),                                             \
        default: (int64_t)(r_))
#define TO_U64(r_)                                                            \
    _Generic((r_),                                                            \
        float: float_to_u64(r_),                                              \
        double: float_to_u64(r_),                                             \
        default: (uint64_t)(r_))

#define RE_B(T, p) (load_uint8_t(p) != 0)
#define IM_B(T, p) 0
#define RE_N(T, p) load_##T(p)
#define IM_N(T, p) 0
#define RE_H(T, p) ua_half_to_float(load_uint16_t(p))
#define IM_H(T, p) 0
#define RE_C(T, p) (load_##T(p).re)
#define IM_C(T, p) (load_##T(p).im)

#define STORE_B(T, p, r_, i_)                                                 \
    store_uint8_t(p, (uint8_t)((r_) != 0 || (i_) != 0))
/* Integers take the value through TO_I64 or TO_U64; floats take it as is. */
#define STORE_N(T, p, r_, i_)                                                 \
    store_##T(p, (T) _Generic((T)0,                                           \
                  float: (r_),                                                \
                  double: (r_),                                               \
                  uint64_t: TO_U64(r_),                                       \
                  default: TO_I64(r_)))
#define STORE_H(T, p, r_, i_)                                                 \
    store_uint16_t(p, ua_half_from_double((double)(r_)))
#define STORE_C(T, p, r_, i_) store_##T(p, (T){(r_), (i_)})

#define DEFINE_CAST(SN, ST, SF, DN, DT, DF)                                   \
    static void cast_##SN##_##DN(char *dst, ptrdiff_t dstep, const char *src, \
                                 ptrdiff_t sstep, ptrdiff_t n)                \
    {                                                                         \
        for (ptrdiff_t i = 0; i < n; i++, dst += dstep, src += sstep) {       \
            STORE_##DF(DT, dst, RE_##SF(ST, src), IM_##SF(ST, src));          \
        }                                                                     \
    }

/* The casts are the list of types crossed with itself.  A macro cannot
 * expand itself, so each source row leaves the destinations' expansion of
 * the list behind a deferred name (LIST_ EMPTY_() ()), which the rescan of
 * CROSS then expands. */
#define EMPTY_()
#define LIST_() UA_DTYPES_WITH
#define CROSS(...) __VA_ARGS__
#define UNPACK(...) __VA_ARGS__
#define APPLY(M, ...) M(__VA_ARGS__)

#define DEFINE_CAST_TO(S, E, NUM, DN, NAME, KIND, SIZE, FORMAT, DT, DF)       \
    APPLY(DEFINE_CAST, UNPACK S, DN, DT, DF)
#define DEFINE_CAST_ROW(E, NUM, SN, NAME, KIND, SIZE, FORMAT, ST, SF)         \
    LIST_ EMPTY_()()(DEFINE_CAST_TO, (SN, ST, SF))
CROSS(UA_DTYPES(DEFINE_CAST_ROW))

#define CAST_ENTRY(SN, E, NUM, DN, ...) cast_##SN##_##DN,
#define CAST_ROW(E, NUM, SN, ...) {LIST_ EMPTY_()()(CAST_ENTRY, SN)},
static const inner_loop casts[UA_NTYPES][UA_NTYPES] = {
    CROSS(UA_DTYPES(CAST_ROW))};

/* ------------------------------------------------------------ planning */

typedef ua_copy_plan plan;

bool
ua_copy_simplify(int nd, const ptrdiff_t *shape, const ua_strided *dst,
                 const ua_strided *src, ua_copy_plan *p)
{
    ua_iter_operand io[2] = {{UA_ITER_OUTPUT, nd, shape, dst->strides,
                              (ptrdiff_t)ua_dtype_itemsize(dst->type)},
                             {UA_ITER_INPUT, nd, shape, src->strides,
                              (ptrdiff_t)ua_dtype_itemsize(src->type)}};
    ua_iter_plan walk;
    /* Every layout that reaches here was checked where it was made. */
    if (ua_iter_plan_make("copy", 2, io, 0, UA_ITER_BY_STEPS, &walk) !=
            UA_OK ||
        walk.size == 0) {
        ua_error_clear();
        return false;
    }
    ua_iter_plan_export(&walk, &p->nd, p->shape,
                        (ptrdiff_t *const[]){p->dstep, p->sstep});
    return true;
}

/* Beside the planner, not in staged.c, its user on devices: this file's
 * ua_copy_as_block asks them too, and staged.c calls this file's host
 * copy, so that the two files would call each other. */
size_t
ua_copy_plan_size(const ua_copy_plan *p)
{
    size_t n = 1;
    for (int k = 0; k < p->nd; k++) {
        n *= (size_t)p->shape[k];
    }
    return n;
}

bool
ua_copy_plan_is_dense(const ua_copy_plan *p, size_t dst_itemsize,
                      size_t src_itemsize)
{
    return p->nd == 0 ||
           (p->nd == 1 && p->dstep[0] == (ptrdiff_t)dst_itemsize &&
            p->sstep[0] == (ptrdiff_t)src_itemsize);
}

/* ----------------------------------------------------------- execution */

typedef struct {
    inner_loop loop;
    size_t dsize, ssize;
    bool same_type;
} kernel;

/* One run along the innermost axis. */
static void
run_inner(const kernel *k, char *d, ptrdiff_t dstep, const char *s,
          ptrdiff_t sstep, ptrdiff_t n)
{
    if (k->same_type && dstep == (ptrdiff_t)k->dsize &&
        sstep == (ptrdiff_t)k->ssize) {
        memcpy(d, s, (size_t)n * k->dsize);
    } else {
        k->loop(d, dstep, s, sstep, n);
    }
}

/* The destination's fastest axis a against the source's fastest axis b,
 * in square tiles whose source and destination lines stay in L1. */
static void
run_tiles(const kernel *k, const plan *p, int a, int b, char *d, const char *s)
{
    size_t widest = k->dsize > k->ssize ? k->dsize : k->ssize;
    ptrdiff_t tile = widest <= 4 ? 64 : (widest <= 8 ? 32 : 16);
    for (ptrdiff_t b0 = 0; b0 < p->shape[b]; b0 += tile) {
        ptrdiff_t b1 = b0 + tile < p->shape[b] ? b0 + tile : p->shape[b];
        for (ptrdiff_t a0 = 0; a0 < p->shape[a]; a0 += tile) {
            ptrdiff_t na = a0 + tile < p->shape[a] ? tile : p->shape[a] - a0;
            for (ptrdiff_t ib = b0; ib < b1; ib++) {
                k->loop(d + ib * p->dstep[b] + a0 * p->dstep[a], p->dstep[a],
                        s + ib * p->sstep[b] + a0 * p->sstep[a], p->sstep[a],
                        na);
            }
        }
    }
}

static ptrdiff_t
magnitude(ptrdiff_t x)
{
    return x < 0 ? -x : x;
}

/* The source axis to tile against the innermost one, or -1. */
static int
tile_axis(const plan *p)
{
    int a = p->nd - 1, b = -1;
    for (int k = 0; k < a; k++) {
        if (b < 0 || magnitude(p->sstep[k]) < magnitude(p->sstep[b])) {
            b = k;
        }
    }
    if (b < 0 || magnitude(p->sstep[b]) >= magnitude(p->sstep[a]) ||
        p->shape[a] < 16 || p->shape[b] < 16) {
        return -1;
    }
    return b;
}

static void
execute(const kernel *k, const plan *p, char *d, const char *s)
{
    if (p->nd == 0) {
        run_inner(k, d, 0, s, 0, 1);
        return;
    }
    int a = p->nd - 1, b = tile_axis(p);
    ptrdiff_t index[UA_MAXDIMS] = {0};
    for (;;) {
        if (b >= 0) {
            run_tiles(k, p, a, b, d, s);
        } else {
            run_inner(k, d, p->dstep[a], s, p->sstep[a], p->shape[a]);
        }
        /* Odometer over the other axes, innermost first. */
        int j = a - 1;
        for (; j >= 0; j--) {
            if (j == b) {
                continue;
            }
            d += p->dstep[j];
            s += p->sstep[j];
            if (++index[j] < p->shape[j]) {
                break;
            }
            d -= p->dstep[j] * p->shape[j];
            s -= p->sstep[j] * p->shape[j];
            index[j] = 0;
        }
        if (j < 0) {
            return;
        }
    }
}

/* ------------------------------------------------------------- overlap */

/* The bytes [*lo, *hi) that x reaches; false when it reaches none (an
 * empty layout, whose strides may be anything). */
static bool
byte_extent(int nd, const ptrdiff_t *shape, const ua_strided *x, uintptr_t *lo,
            uintptr_t *hi)
{
    ptrdiff_t begin, end;
    if (ua_layout_byte_range(nd, shape, x->strides, 0,
                             ua_dtype_itemsize(x->type), &begin,
                             &end) != UA_OK ||
        begin == end) {
        ua_error_clear();
        return false;
    }
    *lo = (uintptr_t)x->data + (uintptr_t)begin;
    *hi = (uintptr_t)x->data + (uintptr_t)end;
    return true;
}

static bool
same_layout(int nd, const ua_strided *a, const ua_strided *b)
{
    if (a->data != b->data || a->type != b->type) {
        return false;
    }
    for (int k = 0; k < nd; k++) {
        if (a->strides[k] != b->strides[k]) {
            return false;
        }
    }
    return true;
}

bool
ua_copy_overlaps(int nd, const ptrdiff_t *shape, const ua_strided *dst,
                 const ua_strided *src)
{
    uintptr_t dlo, dhi, slo, shi;
    return byte_extent(nd, shape, dst, &dlo, &dhi) &&
           byte_extent(nd, shape, src, &slo, &shi) && dlo < shi && slo < dhi &&
           !same_layout(nd, dst, src);
}

bool
ua_copy_as_block(int nd, const ptrdiff_t *shape, const ua_strided *dst,
                 const ua_strided *src, ua_copy_block *block)
{
    ua_copy_plan p;
    size_t size = ua_dtype_itemsize(dst->type);
    *block = (ua_copy_block){dst->data, src->data, 0};
    if (dst->type != src->type) {
        return false;
    }
    if (!ua_copy_simplify(nd, shape, dst, src, &p)) {
        return true;
    }
    if (!ua_copy_plan_is_dense(&p, size, size) ||
        ua_copy_overlaps(nd, shape, dst, src)) {
        return false;
    }
    block->bytes = ua_copy_plan_size(&p) * size;
    return true;
}

static ua_status copy_direct(int nd, const ptrdiff_t *shape,
                             const ua_strided *dst, const ua_strided *src);

/* Copies src to a temporary first, as NumPy does for overlapping data. */
static ua_status
copy_through_temporary(int nd, const ptrdiff_t *shape, const ua_strided *dst,
                       const ua_strided *src)
{
    ptrdiff_t n = 1, strides[UA_MAXDIMS];
    for (int k = 0; k < nd; k++) {
        n *= shape[k];
    }
    char *tmp = malloc((size_t)n * ua_dtype_itemsize(src->type));
    if (tmp == NULL) {
        return ua_error_set(UA_ERR_NOMEM,
                            "out of memory for a temporary copy");
    }
    ua_layout_default_strides(nd, shape, 'C', strides);
    ua_strided t = {tmp, strides, src->type};
    copy_direct(nd, shape, &t, src);
    copy_direct(nd, shape, dst, &t);
    free(tmp);
    return UA_OK;
}

static ua_status
copy_direct(int nd, const ptrdiff_t *shape, const ua_strided *dst,
            const ua_strided *src)
{
    plan p;
    if (!ua_copy_simplify(nd, shape, dst, src, &p)) {
        return UA_OK;
    }
    kernel k = {
        .dsize = ua_dtype_itemsize(dst->type),
        .ssize = ua_dtype_itemsize(src->type),
        .same_type = dst->type == src->type,
    };
    k.loop = k.same_type
                 ? move_loop(k.dsize)
                 : casts[ua_dtype_index(src->type)][ua_dtype_index(dst->type)];
    execute(&k, &p, dst->data, src->data);
    return UA_OK;
}

ua_status
ua_copy_strided_host(int nd, const ptrdiff_t *shape, const ua_strided *dst,
                     const ua_strided *src)
{
    ua_status fits = ua_layout_check_ndim("copy", nd);
    if (fits != UA_OK) {
        return fits;
    }
    if (!ua_typenum_is_valid((int)dst->type) ||
        !ua_typenum_is_valid((int)src->type)) {
        return ua_error_set(UA_ERR_TYPE, "a copy between unsupported types");
    }
    if (ua_copy_overlaps(nd, shape, dst, src)) {
        return copy_through_temporary(nd, shape, dst, src);
    }
    return copy_direct(nd, shape, dst, src);
}

/* On a CPU device whose kernels are the host's (compute/kernels.h), the
 * host's copy loops, once the queue's earlier work is done: its memory is
 * this process's, and its own copy kernels would be compiled first. */
static ua_status
copy_on_cpu(ua_queue *q, int nd, const ptrdiff_t *shape, const ua_strided *dst,
            const ua_strided *src)
{
    ua_status st = ua_queue_wait(q);
    return st == UA_OK ? ua_copy_strided_host(nd, shape, dst, src) : st;
}

ua_status
ua_queue_copy_strided(ua_queue *q, int nd, const ptrdiff_t *shape,
                      const ua_strided *dst, const ua_strided *src)
{
    /* Every backend plans the copy into a ua_copy_plan of UA_MAXDIMS
     * axes. */
    ua_status fits = ua_layout_check_ndim("copy", nd);
    if (fits != UA_OK) {
        return fits;
    }
    ua_queue *runner = ua_queue_reaching(q, dst->data, src->data), *peers[2];
    const ua_backend_ops *ops = runner->context->device->backend->ops;
    bool relay;
    ua_status st =
        ua_peers_before(runner, dst->data, src->data, peers, &relay);
    if (st == UA_OK && relay) {
        return ua_relay_copy_strided(q, nd, shape, dst, src);
    }
    if (st == UA_OK) {
        st = ua_queue_compute_table(runner) != ua_queue_kernels(runner)
                 ? copy_on_cpu(runner, nd, shape, dst, src)
                 : ops->copy_strided(runner->handle, nd, shape, dst, src);
    }
    if (st == UA_OK) {
        st = ua_peers_after(runner, peers);
    }
    /* Work moved to another queue is finished here: q's waits cannot see
     * it. */
    return st == UA_OK && runner != q ? ua_queue_wait(runner) : st;
}
