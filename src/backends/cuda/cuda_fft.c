/* cuFFT for the CUDA backend's transforms (library_kernels.h), loaded at
 * run time as cuBLAS is (cuda_blas.c): USMARRAY_CUFFT_LIBRARY (a path),
 * else the system's libcufft.so.12 (CUDA 13) or .11 (CUDA 12), else the
 * nvidia-cufft wheels along Python's path.
 *
 * Planning costs far more than a transform, so each context keeps the
 * PLANS plans it used last and destroys the least recently used one to
 * make room.  One plan serves every queue of its context: the queue's
 * stream and a work area are given to it at each call, under the
 * context's lock, since cuFFT lets one thread at a time use a plan.
 * Plans are made without a work area of their own, which cuFFT would keep
 * for as long as the plan lives: each call takes one from the context's
 * stream-ordered pool and gives it back in stream order. */
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"

/* cufft.h's values (the same from CUDA 11 to 13). */
enum {
    CUFFT_C2C = 0x29,
    CUFFT_R2C = 0x2a,
    CUFFT_C2R = 0x2c,
    CUFFT_Z2Z = 0x69,
    CUFFT_D2Z = 0x6a,
    CUFFT_Z2D = 0x6c
};
enum { CUFFT_FORWARD = -1, CUFFT_INVERSE = 1 };
enum {
    CUFFT_SUCCESS = 0,
    CUFFT_ALLOC_FAILED = 2,
    CUFFT_INVALID_SIZE = 8,
    CUFFT_NOT_SUPPORTED = 16
};

#define PLANS 16

/* cufftHandle is an int; cufftType and cufftResult are enums (ints), and
 * cudaStream_t is the driver's CUstream. */
typedef int cufft_handle;
typedef int (*create_fn)(cufft_handle *plan);
typedef int (*set_auto_fn)(cufft_handle plan, int auto_allocate);
typedef int (*make_fn)(cufft_handle plan, int rank, long long *n,
                       long long *inembed, long long istride, long long idist,
                       long long *onembed, long long ostride, long long odist,
                       int type, long long batch, size_t *work_size);
typedef int (*set_stream_fn)(cufft_handle plan, CUstream stream);
typedef int (*set_work_area_fn)(cufft_handle plan, void *work_area);
typedef int (*destroy_fn)(cufft_handle plan);
typedef int (*version_fn)(int *version);
/* cufftExecC2C and Z2Z: the direction is the last argument. */
typedef int (*exec_c2c_fn)(cufft_handle plan, void *in, void *out,
                           int direction);
/* R2C, D2Z, C2R and Z2D. */
typedef int (*exec_fn)(cufft_handle plan, void *in, void *out);

static struct {
    create_fn create;
    set_auto_fn set_auto;
    make_fn make;
    set_stream_fn set_stream;
    set_work_area_fn set_work_area;
    destroy_fn destroy;
    exec_c2c_fn c2c[2]; /* [double?] */
    exec_fn r2c[2], c2r[2];
    char where[180]; /* Device.libraries' words */
    char why[400];   /* the error's, where there is no cuFFT */
} cufft;
static pthread_once_t cufft_once = PTHREAD_ONCE_INIT;

static bool
take_symbols(void *h, const char *path)
{
    static const char *const names[] = {
        "cufftCreate",    "cufftSetAutoAllocation", "cufftMakePlanMany64",
        "cufftSetStream", "cufftSetWorkArea",       "cufftDestroy",
        "cufftExecC2C",   "cufftExecZ2Z",           "cufftExecR2C",
        "cufftExecD2Z",   "cufftExecC2R",           "cufftExecZ2D"};
    void **const slots[] = {
        (void **)&cufft.create,        (void **)&cufft.set_auto,
        (void **)&cufft.make,          (void **)&cufft.set_stream,
        (void **)&cufft.set_work_area, (void **)&cufft.destroy,
        (void **)&cufft.c2c[0],        (void **)&cufft.c2c[1],
        (void **)&cufft.r2c[0],        (void **)&cufft.r2c[1],
        (void **)&cufft.c2r[0],        (void **)&cufft.c2r[1]};
    bool all = true;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        *slots[i] = dlsym(h, names[i]);
        all = all && *slots[i] != NULL;
    }
    version_fn version = NULL;
    *(void **)&version = dlsym(h, "cufftGetVersion");
    int v = 0;
    if (!all || version == NULL || version(&v) != CUFFT_SUCCESS) {
        memset(&cufft, 0, sizeof cufft);
        return false;
    }
    /* CUFFT_VERSION is major * 1000 + minor * 100 + patch. */
    const char *base = strrchr(path, '/');
    snprintf(cufft.where, sizeof cufft.where, "cuFFT %d.%d.%d (%.120s)",
             v / 1000, v % 1000 / 100, v % 100,
             base != NULL ? base + 1 : path);
    return true;
}

static void
find_cufft(void)
{
    static const char hint[] =
        "pip install nvidia-cufft-cu12 (CUDA 12; nvidia-cufft for CUDA 13), "
        "or set USMARRAY_CUFFT_LIBRARY to the path of libcufft.so";
    const char *env = getenv("USMARRAY_CUFFT_LIBRARY");
    if (env != NULL && env[0] != '\0') {
        if (!ua_library_open(env, take_symbols)) {
            snprintf(cufft.where, sizeof cufft.where,
                     "no cuFFT at USMARRAY_CUFFT_LIBRARY (%.100s)", env);
            snprintf(cufft.why, sizeof cufft.why,
                     "FFTs of CUDA arrays need cuFFT, and "
                     "USMARRAY_CUFFT_LIBRARY (%.100s) is not a cuFFT that "
                     "loads: %s",
                     env, hint);
        }
        return;
    }
    if (ua_library_open("libcufft.so.12", take_symbols) ||
        ua_library_open("libcufft.so.11", take_symbols) ||
        ua_library_open("libcufft.so", take_symbols) ||
        ua_cuda_open_from_wheels("nvidia/cufft/lib", "libcufft.so",
                                 take_symbols) ||
        /* CUDA 13's wheels share one folder. */
        ua_cuda_open_from_wheels("nvidia/cu13/lib", "libcufft.so",
                                 take_symbols)) {
        return;
    }
    snprintf(cufft.where, sizeof cufft.where,
             "no cuFFT: pip install nvidia-cufft-cu12, or set "
             "USMARRAY_CUFFT_LIBRARY");
    snprintf(cufft.why, sizeof cufft.why,
             "FFTs of CUDA arrays need cuFFT, which is neither among the "
             "system's libraries nor in a wheel along Python's path: %s",
             hint);
}

const char *
ua_cuda_fft_description(void)
{
    pthread_once(&cufft_once, find_cufft);
    return cufft.where;
}

/* cufftResult's names, by value. */
static const char *
status_name(int r)
{
    static const char *const names[] = {"CUFFT_SUCCESS",
                                        "CUFFT_INVALID_PLAN",
                                        "CUFFT_ALLOC_FAILED",
                                        "CUFFT_INVALID_TYPE",
                                        "CUFFT_INVALID_VALUE",
                                        "CUFFT_INTERNAL_ERROR",
                                        "CUFFT_EXEC_FAILED",
                                        "CUFFT_SETUP_FAILED",
                                        "CUFFT_INVALID_SIZE",
                                        "CUFFT_UNALIGNED_DATA",
                                        "CUFFT_INCOMPLETE_PARAMETER_LIST",
                                        "CUFFT_INVALID_DEVICE",
                                        "CUFFT_PARSE_ERROR",
                                        "CUFFT_NO_WORKSPACE",
                                        "CUFFT_NOT_IMPLEMENTED",
                                        "CUFFT_LICENSE_ERROR",
                                        "CUFFT_NOT_SUPPORTED"};
    return r >= 0 && r < (int)(sizeof names / sizeof names[0])
               ? names[r]
               : "a status cufft.h did not name";
}

static ua_status
failed(const char *what, int r)
{
    return ua_error_set(
        r == CUFFT_ALLOC_FAILED ? UA_ERR_ALLOC : UA_ERR_RUNTIME,
        "cuFFT %s failed (status %d, %s)", what, r, status_name(r));
}

/* ------------------------------------------------------------- plans */

/* A plan is for one kind, precision, shape and batch; the direction of a
 * complex transform is chosen when it runs. */
typedef struct {
    long long key[6]; /* kind, type, n[0..3) (0 past rank), batch */
    cufft_handle plan;
    size_t work;             /* bytes of work area it needs per call */
    unsigned long long used; /* when last used; 0: an empty slot */
} plan_slot;

struct ua_cuda_fft_plans {
    unsigned long long clock;
    plan_slot slot[PLANS];
};

/* The elements of one transform on each side, and its key. */
typedef struct {
    long long key[6];
    long long in, out;
    size_t in_bytes, out_bytes; /* of the whole batch */
} fft_shape;

static const char *
lengths(const ua_fft_plan *p, char *buf, size_t size)
{
    if (p->rank == 1) {
        snprintf(buf, size, "%td", p->n[0]);
    } else if (p->rank == 2) {
        snprintf(buf, size, "%td x %td", p->n[0], p->n[1]);
    } else {
        snprintf(buf, size, "%td x %td x %td", p->n[0], p->n[1], p->n[2]);
    }
    return buf;
}

static ua_status
shape_of(const ua_fft_plan *p, fft_shape *s)
{
    bool z = p->type == UA_COMPLEX128;
    bool valid = (z || p->type == UA_COMPLEX64) && p->rank >= 1 &&
                 p->rank <= 3 && p->batch > 0 &&
                 (p->kind == UA_FFT_C2C || p->kind == UA_FFT_R2C ||
                  p->kind == UA_FFT_C2R);
    for (int i = 0; valid && i < p->rank; i++) {
        valid = p->n[i] > 0;
    }
    if (!valid) {
        return ua_error_set(UA_ERR_VALUE,
                            "cuFFT takes complex64 or complex128 transforms "
                            "of 1 to 3 axes of positive lengths");
    }
    memset(s, 0, sizeof *s);
    s->key[0] = p->kind;
    s->key[1] = p->type;
    long long real = 1, cplx = 1;
    bool fits = p->batch <= (size_t)LLONG_MAX;
    for (int i = 0; i < p->rank && fits; i++) {
        long long n = p->n[i];
        long long half =
            i == p->rank - 1 && p->kind != UA_FFT_C2C ? n / 2 + 1 : n;
        s->key[2 + i] = n;
        fits = !__builtin_mul_overflow(real, n, &real) &&
               !__builtin_mul_overflow(cplx, half, &cplx);
    }
    s->key[5] = (long long)p->batch;
    long long csize = z ? 16 : 8, rsize = csize / 2;
    s->in = p->kind == UA_FFT_C2R ? cplx : real;
    s->out = p->kind == UA_FFT_R2C ? cplx : real;
    long long ib = 0, ob = 0;
    fits = fits && !__builtin_mul_overflow(s->in, (long long)p->batch, &ib) &&
           !__builtin_mul_overflow(ib, p->kind == UA_FFT_R2C ? rsize : csize,
                                   &ib) &&
           !__builtin_mul_overflow(s->out, (long long)p->batch, &ob) &&
           !__builtin_mul_overflow(ob, p->kind == UA_FFT_C2R ? rsize : csize,
                                   &ob) &&
           ib <= PTRDIFF_MAX && ob <= PTRDIFF_MAX;
    if (!fits) {
        char buf[80];
        return ua_error_set(UA_ERR_VALUE,
                            "FFTs of %s elements in a batch of %zu are more "
                            "than cuFFT addresses",
                            lengths(p, buf, sizeof buf), p->batch);
    }
    s->in_bytes = (size_t)ib;
    s->out_bytes = (size_t)ob;
    return UA_OK;
}

/* A new plan without a work area; *work is the one each call needs. */
static ua_status
make_plan(const ua_fft_plan *p, const fft_shape *s, cufft_handle *out,
          size_t *work)
{
    static const int types[3][2] = {{CUFFT_C2C, CUFFT_Z2Z},
                                    {CUFFT_R2C, CUFFT_D2Z},
                                    {CUFFT_C2R, CUFFT_Z2D}};
    int type = types[p->kind][p->type == UA_COMPLEX128];
    long long n[3] = {p->n[0], p->n[1], p->n[2]};
    cufft_handle h = 0;
    int r = cufft.create(&h);
    if (r != CUFFT_SUCCESS) {
        return failed("cufftCreate", r);
    }
    const char *what = "cufftSetAutoAllocation";
    r = cufft.set_auto(h, 0);
    if (r == CUFFT_SUCCESS) {
        /* NULL embeddings: the dense layouts, the complex side's last axis
         * n / 2 + 1 long for R2C and C2R (the strides and distances given
         * are those, and are then ignored). */
        what = "cufftMakePlanMany64";
        *work = 0;
        r = cufft.make(h, p->rank, n, NULL, 1, s->in, NULL, 1, s->out, type,
                       (long long)p->batch, work);
    }
    if (r == CUFFT_SUCCESS) {
        *out = h;
        return UA_OK;
    }
    cufft.destroy(h);
    if (r == CUFFT_INVALID_SIZE || r == CUFFT_NOT_SUPPORTED) {
        char buf[80];
        return ua_error_set(UA_ERR_VALUE,
                            "cuFFT cannot plan FFTs of %s elements in a "
                            "batch of %zu (%s: status %d, %s)",
                            lengths(p, buf, sizeof buf), p->batch, what, r,
                            status_name(r));
    }
    return failed(what, r);
}

/* The context's plan for s, made (and the least recently used one
 * destroyed, where every slot is taken) when there is none; under
 * c->lock. */
static ua_status
plan_of(ua_cuda_context *c, const ua_fft_plan *p, const fft_shape *s,
        plan_slot **out)
{
    struct ua_cuda_fft_plans *t = c->fft_plans;
    if (t == NULL) {
        t = calloc(1, sizeof *t);
        if (t == NULL) {
            return ua_error_set(UA_ERR_NOMEM, "out of memory for FFT plans");
        }
        c->fft_plans = t;
    }
    plan_slot *oldest = &t->slot[0];
    for (int i = 0; i < PLANS; i++) {
        plan_slot *e = &t->slot[i];
        if (e->used != 0 && memcmp(e->key, s->key, sizeof e->key) == 0) {
            e->used = ++t->clock;
            *out = e;
            return UA_OK;
        }
        if (e->used < oldest->used) {
            oldest = e;
        }
    }
    cufft_handle h = 0;
    size_t work = 0;
    ua_status st = make_plan(p, s, &h, &work);
    if (st != UA_OK) {
        return st;
    }
    if (oldest->used != 0) {
        /* Work of any of the context's queues may still read the plan's
         * own device memory, which cufftDestroy frees; an eviction costs
         * less than the planning that causes it. */
        CUresult r = ua_cu.cuCtxSynchronize();
        cufft.destroy(oldest->plan);
        oldest->used = 0;
        if (r != CUDA_SUCCESS) {
            cufft.destroy(h);
            return ua_cuda_failed(r, "cuCtxSynchronize");
        }
    }
    memcpy(oldest->key, s->key, sizeof oldest->key);
    oldest->plan = h;
    oldest->work = work;
    oldest->used = ++t->clock;
    *out = oldest;
    return UA_OK;
}

/* ------------------------------------------------------------- calls */

static int
execute(const ua_fft_plan *p, cufft_handle h, void *in, void *out,
        const char **what)
{
    int z = p->type == UA_COMPLEX128;
    switch (p->kind) {
    case UA_FFT_C2C:
        *what = z ? "cufftExecZ2Z" : "cufftExecC2C";
        return cufft.c2c[z](h, in, out,
                            p->inverse ? CUFFT_INVERSE : CUFFT_FORWARD);
    case UA_FFT_R2C:
        *what = z ? "cufftExecD2Z" : "cufftExecR2C";
        return cufft.r2c[z](h, in, out);
    default:
        *what = z ? "cufftExecZ2D" : "cufftExecC2R";
        return cufft.c2r[z](h, in, out);
    }
}

/* The transform of in to out (both aligned) on q's stream. */
static ua_status
transform(ua_cuda_queue *q, const ua_fft_plan *p, const fft_shape *s,
          CUdeviceptr in, CUdeviceptr out)
{
    ua_cuda_context *c = q->c;
    pthread_mutex_lock(&c->lock);
    plan_slot *e = NULL;
    CUdeviceptr work = 0;
    ua_status st = plan_of(c, p, s, &e);
    const char *what = "cufftSetStream";
    int r = st == UA_OK ? cufft.set_stream(e->plan, q->stream) : 0;
    /* Every call names its work area, none where the plan needs none:
     * plans made without automatic allocation may refuse to run without
     * one. */
    if (st == UA_OK && r == CUFFT_SUCCESS) {
        st = e->work > 0 ? ua_cuda_scratch(q, e->work, &work) : UA_OK;
        what = "cufftSetWorkArea";
        r = st == UA_OK ? cufft.set_work_area(e->plan, (void *)(uintptr_t)work)
                        : 0;
    }
    if (st == UA_OK && r == CUFFT_SUCCESS) {
        r = execute(p, e->plan, (void *)(uintptr_t)in, (void *)(uintptr_t)out,
                    &what);
    }
    if (work != 0) {
        /* After the transform in the stream's order; the plan keeps the
         * address, and the next call gives it another before it runs. */
        ua_cu.cuMemFreeAsync(work, q->stream);
    }
    pthread_mutex_unlock(&c->lock);
    if (st == UA_OK && r != CUFFT_SUCCESS) {
        st = failed(what, r);
    }
    return st;
}

/* The transform r of in to out, which cuFFT wants aligned to the complex
 * type, the real side of R2C and C2R too: a side that is not (a view one
 * float32 in, memory of another library) goes through an aligned copy. */
static ua_status
aligned(ua_cuda_queue *q, const ua_fft_plan *r, const char *in_ptr,
        char *out_ptr)
{
    fft_shape s;
    ua_status st = shape_of(r, &s);
    if (st != UA_OK) {
        return st;
    }
    uintptr_t align = r->type == UA_COMPLEX128 ? 16 : 8;
    CUdeviceptr in = (CUdeviceptr)(uintptr_t)in_ptr;
    CUdeviceptr out = (CUdeviceptr)(uintptr_t)out_ptr;
    CUdeviceptr in_copy = 0, out_copy = 0;
    if (in % align != 0) {
        st = ua_cuda_scratch(q, s.in_bytes, &in_copy);
        if (st == UA_OK) {
            CUresult e =
                ua_cu.cuMemcpyAsync(in_copy, in, s.in_bytes, q->stream);
            st =
                e == CUDA_SUCCESS ? UA_OK : ua_cuda_failed(e, "cuMemcpyAsync");
        }
        in = in_copy;
    }
    if (st == UA_OK && out % align != 0) {
        st = ua_cuda_scratch(q, s.out_bytes, &out_copy);
        out = out_copy;
    }
    if (st == UA_OK) {
        st = transform(q, r, &s, in, out);
    }
    if (st == UA_OK && out_copy != 0) {
        CUresult e = ua_cu.cuMemcpyAsync((CUdeviceptr)(uintptr_t)out_ptr,
                                         out_copy, s.out_bytes, q->stream);
        st = e == CUDA_SUCCESS ? UA_OK : ua_cuda_failed(e, "cuMemcpyAsync");
    }
    if (in_copy != 0) {
        ua_cu.cuMemFreeAsync(in_copy, q->stream);
    }
    if (out_copy != 0) {
        ua_cu.cuMemFreeAsync(out_copy, q->stream);
    }
    return st;
}

/* An axis of length 1 is transformed into itself: r becomes p without
 * those that leave the layout as it is (every one of a C2C, the leading
 * ones of R2C and C2R), so that cuFFT plans fewer and never one of
 * length 1.  Where the last axis of R2C or C2R is 1 long (true), the
 * complex side is the real one with imaginary parts, and r becomes the
 * C2C of the other axes. */
static bool
reduce(ua_fft_plan *r)
{
    int last = r->rank - 1, k = 0;
    bool half = r->kind != UA_FFT_C2C;
    bool unit_last = half && r->n[last] == 1;
    ptrdiff_t n[3] = {0, 0, 0};
    for (int i = 0; i < r->rank; i++) {
        if (r->n[i] != 1 || (half && i == last)) {
            n[k++] = r->n[i];
        }
    }
    if (unit_last) {
        k--;
        r->inverse = r->kind == UA_FFT_C2R;
        r->kind = UA_FFT_C2C;
    }
    r->rank = k;
    memcpy(r->n, n, sizeof n);
    return unit_last;
}

/* count reals of type t from src, step apart, to dst, step apart (in
 * elements): the real parts of complex numbers are reals 2 apart. */
static ua_status
copy_reals(ua_cuda_queue *q, ua_typenum t, size_t count, char *dst,
           ptrdiff_t dst_step, const char *src, ptrdiff_t src_step)
{
    ptrdiff_t shape[1] = {(ptrdiff_t)count};
    ptrdiff_t ds[1] = {dst_step}, ss[1] = {src_step};
    ua_strided d = {dst, ds, t};
    ua_strided s = {(char *)(uintptr_t)src, ss, t};
    return ua_cuda_copy_strided(q, 1, shape, &d, &s);
}

/* R2C and C2R whose last axis is 1 long: the reals with zero imaginary
 * parts, then the C2C r of the other axes (R2C); or r, then its real parts
 * (C2R). */
static ua_status
unit_last_axis(ua_cuda_queue *q, const ua_fft_plan *p, const ua_fft_plan *r,
               const fft_shape *s)
{
    bool z = p->type == UA_COMPLEX128;
    ua_typenum t = z ? UA_FLOAT64 : UA_FLOAT32;
    size_t csize = z ? 16 : 8;
    size_t count =
        (p->kind == UA_FFT_R2C ? s->in_bytes : s->out_bytes) / (csize / 2);
    CUdeviceptr tmp = 0;
    ua_status st =
        r->rank > 0 ? ua_cuda_scratch(q, count * csize, &tmp) : UA_OK;
    char *between = r->rank > 0 ? (char *)(uintptr_t)tmp : NULL;
    if (st == UA_OK && p->kind == UA_FFT_R2C) {
        char *c = between != NULL ? between : p->out;
        CUresult e = ua_cu.cuMemsetD8Async((CUdeviceptr)(uintptr_t)c, 0,
                                           count * csize, q->stream);
        st = e == CUDA_SUCCESS ? UA_OK : ua_cuda_failed(e, "cuMemsetD8Async");
        st = st == UA_OK ? copy_reals(q, t, count, c, 2, p->in, 1) : st;
        st = st == UA_OK && between != NULL ? aligned(q, r, between, p->out)
                                            : st;
    } else if (st == UA_OK) {
        st = between != NULL ? aligned(q, r, p->in, between) : UA_OK;
        const char *c = between != NULL ? between : p->in;
        st = st == UA_OK ? copy_reals(q, t, count, p->out, 1, c, 2) : st;
    }
    if (tmp != 0) {
        ua_cu.cuMemFreeAsync(tmp, q->stream);
    }
    return st;
}

ua_status
ua_cuda_fft(void *queue, const ua_fft_plan *p)
{
    ua_cuda_queue *q = queue;
    pthread_once(&cufft_once, find_cufft);
    if (cufft.create == NULL) {
        return ua_error_set(UA_ERR_UNAVAILABLE, "%s", cufft.why);
    }
    fft_shape s;
    ua_status st = shape_of(p, &s);
    if (st != UA_OK || (st = ua_cuda_bind(q->c)) != UA_OK) {
        return st;
    }
    ua_fft_plan r = *p;
    if (reduce(&r)) {
        return unit_last_axis(q, p, &r, &s);
    }
    if (r.rank == 0) {
        CUresult e = ua_cu.cuMemcpyAsync((CUdeviceptr)(uintptr_t)p->out,
                                         (CUdeviceptr)(uintptr_t)p->in,
                                         s.out_bytes, q->stream);
        return e == CUDA_SUCCESS ? UA_OK : ua_cuda_failed(e, "cuMemcpyAsync");
    }
    return aligned(q, &r, p->in, p->out);
}
