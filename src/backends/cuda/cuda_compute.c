/* The CUDA backend's compute kernels (core/compute/kernels.h): CUDA C++
 * that NVRTC compiles per context in small programs, each on its first
 * use (cuda_programs.c).  Elements
 * move in units of the widest power of two that the item size, the base
 * pointers and the steps allow.  The index kernel sets a flag in device
 * memory for an index out of bounds, read once after the launch. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/cuda_language.h"
#include "core/compute/compute.h"
#include "gpu/dialect_cuda_text.h"
#include "gpu/elementwise_source.h"
#include "gpu/index_kernels.h"
#include "gpu/kernel_text.h"
#include "core/compute/kernels.h"

/* log2 of the widest unit (at most 16 bytes) dividing every value. */
static int
unit_of(size_t itemsize, const ptrdiff_t *v, int n)
{
    unsigned long long bits = itemsize | 16;
    for (int i = 0; i < n; i++) {
        bits |= (unsigned long long)v[i];
    }
    int u = 0;
    while (u < 4 && !(bits & (1ull << u))) {
        u++;
    }
    return u;
}

/* log2 of the unit a compress of p's rows into dst copies in (16
 * bytes at most; a mask alone counts in 8-byte units). */
static int
compress_unit(const ua_compress_plan *p, const char *dst)
{
    ptrdiff_t addr[2] = {(ptrdiff_t)(uintptr_t)p->src,
                         (ptrdiff_t)(uintptr_t)dst};
    int u = p->src ? unit_of(p->rowbytes, addr, 2) : 3;
    return p->src && p->sstep % (1 << u) != 0 ? 0 : u;
}

#define MAILBOX_WORDS 4

/* Takes the queue's mailbox (cuda_backend.h), zeroed, for the launches
 * that write it and the read after them; mailbox_close gives it back. */
static ua_status
mailbox_open(ua_cuda_queue *q, long long **box)
{
    ua_status st = ua_cuda_bind(q->c);
    if (st != UA_OK) {
        return st;
    }
    pthread_mutex_lock(&q->mailbox_lock);
    if (q->mailbox == NULL) {
        void *p;
        CUresult r = ua_cu.cuMemHostAlloc(
            &p, MAILBOX_WORDS * sizeof(long long),
            CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
        if (r != CUDA_SUCCESS) {
            pthread_mutex_unlock(&q->mailbox_lock);
            return ua_cuda_failed(r, "cuMemHostAlloc");
        }
        q->mailbox = p;
    }
    memset(q->mailbox, 0, MAILBOX_WORDS * sizeof(long long));
    *box = q->mailbox;
    return UA_OK;
}

/* Waits for the queue when st is UA_OK, so that what its kernels wrote
 * into the mailbox can be read; the mailbox stays taken. */
static ua_status
mailbox_wait(ua_cuda_queue *q, ua_status st)
{
    if (st == UA_OK) {
        CU_CHECK(ua_cu.cuStreamSynchronize(q->stream), "cuStreamSynchronize");
    }
    return st;
}

static void
mailbox_close(ua_cuda_queue *q)
{
    pthread_mutex_unlock(&q->mailbox_lock);
}

static ua_status
cuda_index(void *queue, ua_index_mode mode, const ua_index_plan *p,
           int64_t *bad)
{
    ua_cuda_queue *q = queue;
    ua_gpu_index_plan k;
    memset(&k, 0, sizeof k);
    k.nd = p->nd;
    k.size = 1;
    ptrdiff_t addr[2 * UA_MAXDIMS + 2];
    int na = 0;
    for (int j = 0; j < p->nd; j++) {
        k.shape[j] = p->shape[j];
        k.rstep[j] = p->rstep[j];
        k.astep[j] = p->astep[j];
        k.istep[j] = p->istep[j];
        k.size *= p->shape[j];
        addr[na++] = p->rstep[j];
        addr[na++] = p->astep[j];
    }
    addr[na++] = (ptrdiff_t)(uintptr_t)p->result;
    addr[na++] = (ptrdiff_t)(uintptr_t)p->array;
    k.result = p->result;
    k.array = p->array;
    k.index = p->index;
    k.length = p->length;
    k.stride = p->stride;
    k.mode = (int)mode;
    int u = mode == UA_INDEX_OFFSETS ? 3 : unit_of(p->itemsize, addr, na);
    k.units = (int)(p->itemsize >> u);
    if (mode != UA_INDEX_OFFSETS && p->stride % (1 << u) != 0) {
        u = 0;
        k.units = (int)p->itemsize;
    }
    long long *flag = NULL;
    ua_status st = p->length > 0 ? mailbox_open(q, &flag) : UA_OK;
    if (st != UA_OK) {
        return st;
    }
    k.flag = flag;
    int rank = k.nd <= 2 ? (k.nd < 1 ? 1 : k.nd) : 0;
    char name[48];
    snprintf(name, sizeof name, "ua_index_%s_%d_%d", ua_cuda_unit_names[u],
             rank, k.mode);
    void *args[] = {&k};
    st = ua_cuda_program_launch(
        q, UA_CUDA_PROGRAM_INDEX + 9 * u + 3 * rank + k.mode, name,
        ua_cuda_blocks_for(q, k.size, 256), 256, args);
    if (flag != NULL) {
        st = mailbox_wait(q, st);
        if (st == UA_OK && flag[0] != 0) {
            *bad = flag[1];
            st = UA_ERR_INDEX;
        }
        mailbox_close(q);
    }
    return st;
}

/* Counts per tile, scans the counts on the device, reads the total,
 * asks for the output, writes. */
static ua_status
cuda_compress(void *queue, const ua_compress_plan *p, ua_compress_output out,
              void *ctx, size_t *count)
{
    ua_cuda_queue *q = queue;
    long long n = (long long)p->n;
    long long tiles = (n + UA_GPU_TILE - 1) / UA_GPU_TILE;
    /* One tile needs no scan, nor offsets: it starts at 0, and its count,
     * the total, goes to the mailbox. */
    CUdeviceptr offsets = 0;
    long long *total;
    ua_status st = mailbox_open(q, &total);
    if (st != UA_OK) {
        return st;
    }
    if (tiles > 1) {
        st = ua_cuda_scratch(q, 8 * (size_t)tiles, &offsets);
    }
    void *cargs[] = {(void *)&p->mask, &n,
                     tiles > 1 ? (void *)&offsets : (void *)&total};
    void *sargs[] = {&offsets, &tiles, &total};
    /* The count's and the compress's first compiles side by side; a
     * result's allocation is aligned to at least 16 bytes. */
    int programs[2] = {UA_CUDA_PROGRAM_TILES,
                       UA_CUDA_PROGRAM_COMPRESS + compress_unit(p, NULL)};
    st = st == UA_OK ? ua_cuda_programs_prepare(q, programs, 2) : st;
    if (st == UA_OK && tiles > 0) {
        st = ua_cuda_program_launch(q, UA_CUDA_PROGRAM_TILES, "ua_count",
                                    (unsigned)tiles, UA_GPU_TILE_THREADS,
                                    cargs);
    }
    st = st == UA_OK && tiles > 1
             ? ua_cuda_program_launch(q, UA_CUDA_PROGRAM_TILES, "ua_scan", 1,
                                      1024, sargs)
             : st;
    st = mailbox_wait(q, st);
    *count = st == UA_OK ? (size_t)*total : 0;
    mailbox_close(q);
    char *dst = NULL;
    st = st == UA_OK ? out(ctx, *count, &dst) : st;
    if (st == UA_OK && *count > 0) {
        ua_gpu_compress_plan k = {0};
        k.mask = p->mask;
        k.n = n;
        k.offsets = (const long long *)(uintptr_t)offsets; /* 0: one tile */
        k.src = p->src;
        k.sstep = p->sstep;
        k.dst = dst;
        k.nd = p->nd;
        for (int j = 0; j < p->nd; j++) {
            k.shape[j] = p->shape[j];
        }
        int u = compress_unit(p, dst);
        k.units = p->src ? (long long)(p->rowbytes >> u) : 0;
        char name[48];
        snprintf(name, sizeof name, "ua_compress_%s", ua_cuda_unit_names[u]);
        void *args[] = {&k};
        st =
            ua_cuda_program_launch(q, UA_CUDA_PROGRAM_COMPRESS + u, name,
                                   (unsigned)tiles, UA_GPU_TILE_THREADS, args);
    }
    if (offsets != 0) {
        ua_cu.cuMemFreeAsync(offsets, q->stream);
    }
    return st;
}

static ua_status
real_series(ua_cuda_queue *q, const ua_affine_plan *p, char *dst, int part,
            int step)
{
    long long n = (long long)p->n;
    unsigned blocks = ua_cuda_blocks_for(q, n, 256);
    if (p->mode == UA_AFFINE_LINSPACE) {
        long long start = ua_gpu_bits64(p->start[part]),
                  sv = ua_gpu_bits64(p->step[part]),
                  stop = ua_gpu_bits64(p->stop[part]),
                  div = ua_gpu_bits64(p->div);
        int divide = p->divide, endpoint = p->endpoint;
        void *args[] = {&dst, &n,      &start,    &sv,  &stop,
                        &div, &divide, &endpoint, &step};
        return ua_cuda_program_launch(q, UA_CUDA_PROGRAM_FILL, "ua_linspace",
                                      blocks, 256, args);
    }
    if (p->type == UA_FLOAT64 || p->type == UA_COMPLEX128) {
        long long first = ua_gpu_bits64(p->first.f[part]),
                  second = ua_gpu_bits64(p->second.f[part]);
        void *args[] = {&dst, &n, &first, &second, &step};
        return ua_cuda_program_launch(q, UA_CUDA_PROGRAM_FILL, "ua_arange_f64",
                                      blocks, 256, args);
    }
    int first = ua_gpu_bits32(p->first.f[part]),
        second = ua_gpu_bits32(p->second.f[part]);
    void *args[] = {&dst, &n, &first, &second, &step};
    return ua_cuda_program_launch(q, UA_CUDA_PROGRAM_FILL,
                                  p->type == UA_FLOAT16 ? "ua_arange_half"
                                                        : "ua_arange_f32",
                                  blocks, 256, args);
}

static ua_status
cuda_affine(void *queue, const ua_affine_plan *p)
{
    ua_cuda_queue *q = queue;
    char kind = ua_dtype_kind(p->type);
    if (kind == 'f' || kind == 'c') {
        int parts = kind == 'c' ? 2 : 1;
        size_t part_size = ua_dtype_itemsize(p->type) / (size_t)parts;
        ua_status st = UA_OK;
        for (int part = 0; part < parts && st == UA_OK; part++) {
            st = real_series(q, p, p->dst + (size_t)part * part_size, part,
                             parts);
        }
        return st;
    }
    long long n = (long long)p->n;
    unsigned long long first = (unsigned long long)p->first.i;
    unsigned long long d = (unsigned long long)p->second.i - first;
    int isz = (int)ua_dtype_itemsize(p->type);
    char *dst = p->dst;
    void *args[] = {&dst, &n, &first, &d, &isz};
    return ua_cuda_program_launch(q, UA_CUDA_PROGRAM_FILL, "ua_arange_int",
                                  ua_cuda_blocks_for(q, n, 256), 256, args);
}

static ua_status
cuda_band(void *queue, const ua_band_plan *p)
{
    ua_cuda_queue *q = queue;
    char *dst = p->dst;
    long long size = (long long)p->batch * p->rows * p->cols;
    long long rows = p->rows, cols = p->cols, lo = p->lo, hi = p->hi;
    int isz = (int)p->itemsize, si = p->set_inside, so = p->set_outside;
    unsigned long long w[4];
    memcpy(w, p->inside, 16);
    memcpy(w + 2, p->outside, 16);
    void *args[] = {&dst, &size, &rows, &cols, &lo,   &hi,  &isz,
                    &si,  &so,   &w[0], &w[1], &w[2], &w[3]};
    return ua_cuda_program_launch(q, UA_CUDA_PROGRAM_FILL, "ua_band",
                                  ua_cuda_blocks_for(q, size, 256), 256, args);
}

/* ------------------------------------------------------ elementwise */

/* A reduction of all the values: its groups' partials into a temporary,
 * then a group reduces them into the value (ua_ew_plan_reduce_in_two). */
static ua_status
reduce_all_values(ua_cuda_queue *q, CUfunction f, ua_ew_plan *plan,
                  unsigned threads, const char *what)
{
    CUdeviceptr parts = 0;
    ua_status st =
        ua_cuda_scratch(q, UA_EW_REDUCE_PARTS * sizeof(double), &parts);
    if (st != UA_OK) {
        return st;
    }
    ua_ew_plan finish;
    ua_ew_plan_reduce_in_two(plan, &finish, (void *)(uintptr_t)parts);
    void *first[] = {plan}, *second[] = {&finish};
    CUresult r = ua_cu.cuLaunchKernel(f, UA_EW_REDUCE_PARTS, 1, 1, threads, 1,
                                      1, 0, q->stream, first, NULL);
    if (r == CUDA_SUCCESS) {
        r = ua_cu.cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, q->stream,
                                 second, NULL);
    }
    ua_cu.cuMemFreeAsync(parts, q->stream);
    CU_CHECK(r, what);
    return UA_OK;
}

/* The grid of a launch of v's kernel (not a reduction of all the values,
 * which reduce_all_values launches): a block for its rows (the kernel
 * loops past the grid's limit), or the elements' chunks. */
static unsigned
ew_blocks(ua_cuda_queue *q, const ua_elementwise_plan *p,
          const ua_ew_variant *v, unsigned threads, int row_threads)
{
    long long work = (long long)p->size;
    if (v->rows) {
        long long per = threads / (unsigned)row_threads;
        long long rows = (work / p->row + per - 1) / per;
        return (unsigned)(rows < INT_MAX ? rows : INT_MAX);
    }
    if (v->path == UA_EW_PATH_CONTIGUOUS) {
        const ua_cuda_ew_shape *tune = ua_cuda_ew_tune();
        long long chunk = (long long)threads * tune->unroll;
        long long b = ((work + v->vec - 1) / v->vec + chunk - 1) / chunk;
        long long cap =
            tune->per_sm > 0
                ? (long long)(q->c->sm_count > 0 ? q->c->sm_count : 16) *
                      tune->per_sm
                : b;
        return (unsigned)(b < 1 ? 1 : b < cap ? b : cap);
    }
    return ua_cuda_blocks_for(q, work / v->vec, (int)threads);
}

static ua_status
cuda_elementwise(void *queue, const ua_elementwise_plan *p)
{
    ua_cuda_queue *q = queue;
    double t0 = ua_cuda_tracing() ? ua_cuda_now_ms() : 0;
    ua_ew_variant v;
    int row_threads;
    ua_cuda_ew_variant(p, &v, &row_threads);
    unsigned threads =
        (unsigned)(v.group > 0 ? v.group : ua_cuda_ew_tune()->threads);
    CUfunction f;
    ua_status st = ua_cuda_ew_function(q, &v, &f);
    if (st != UA_OK) {
        return st;
    }
    ua_ew_plan plan;
    ua_ew_plan_fill(p, &v, &plan);
    void *args[] = {&plan};
    double t1 = t0 > 0 ? ua_cuda_now_ms() : 0;
    if (v.reduce && !v.rows) {
        st = reduce_all_values(q, f, &plan, threads, ua_ew_name(p->function));
        if (st != UA_OK) {
            return st;
        }
    } else {
        unsigned blocks = ew_blocks(q, p, &v, threads, row_threads);
        CU_CHECK(ua_cu.cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0,
                                      q->stream, args, NULL),
                 ua_ew_name(p->function));
    }
    if (t0 > 0 && ua_cuda_now_ms() - t0 > 1.0) {
        fprintf(stderr,
                "usmarray: elementwise %s: kernel %.1f ms, launch %.1f ms\n",
                ua_ew_name(p->function), t1 - t0, ua_cuda_now_ms() - t1);
    }
    return UA_OK;
}

const ua_compute_ops ua_cuda_compute_ops = {
    .version = UA_COMPUTE_OPS_VERSION,
    .index = cuda_index,
    .compress = cuda_compress,
    .affine = cuda_affine,
    .band = cuda_band,
    .elementwise = cuda_elementwise,
    .reduce = ua_gpu_reduce,
    .scan = ua_gpu_scan,
    .sort = ua_cuda_sort,
    .search = ua_gpu_search,
    .group = ua_gpu_group,
    .matmul = ua_cuda_matmul,
    .solver = ua_cuda_solver,
    .fft = ua_cuda_fft,
    .prepare = ua_cuda_prepare,
};
