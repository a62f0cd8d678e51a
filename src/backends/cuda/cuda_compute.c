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

/* The contiguous path's shape: threads a block, vectors of 16 bytes a
 * thread at a time (UA_UNROLL, every load before the stores) and the
 * grid's cap in blocks per multiprocessor (0: one block per chunk, no
 * grid-stride).  The default (512 threads, 2 vectors, no cap) is the
 * fastest of benchmarks/ew_cuda_sweep.py's shapes on every streaming row
 * (its results: benchmarks/results/ew_cuda_sweep.json; docs/performance.rst
 * says how it compares).  USMARRAY_CUDA_EW_TUNE="threads,unroll,blocks_per_sm",
 * read once, sets them for the sweep; the kernels' disk cache is keyed by
 * their source, which carries them. */
static struct {
    int threads, unroll, per_sm;
    char defines[96];
} ew_tune = {512, 2, 0, ""};
static pthread_once_t ew_tune_once = PTHREAD_ONCE_INIT;

static void
ew_tune_read(void)
{
    const char *env = getenv("USMARRAY_CUDA_EW_TUNE");
    int t, u, b;
    if (env != NULL && sscanf(env, "%d,%d,%d", &t, &u, &b) == 3 &&
        (t == 64 || t == 128 || t == 256 || t == 512 || t == 1024) && u >= 1 &&
        u <= 8 && b >= 0) {
        ew_tune.threads = t;
        ew_tune.unroll = u;
        ew_tune.per_sm = b;
    }
    snprintf(ew_tune.defines, sizeof ew_tune.defines,
             "#define UA_THREADS %d\n#define UA_UNROLL %d\n", ew_tune.threads,
             ew_tune.unroll);
}

static const char *const ew_header[] = {ua_cuda_kernel_prelude,
                                        ew_tune.defines, NULL};
static const ua_ew_language ew_language = {
    .header = ew_header,
    .dialect = ua_gpu_cuda_dialect_text,
    .cvt = {.re = "re",
            .im = "im",
            .half_to_real = "h2d",
            .real_to_half = "d2h",
            .real = "double",
            .real_to_i64 = "f2i64",
            .real_to_u64 = "f2u64"},
    .storage = ua_cuda_type_name,
    .float_suffix = true,
};

const ua_ew_language *
ua_cuda_ew_language(void)
{
    pthread_once(&ew_tune_once, ew_tune_read);
    return &ew_language;
}

/* Whether no compiler level changes the variant's results: integers and
 * bools alone, a function that selects, compares or adds, a real product
 * or quotient, or a fused expression of real values.  An eager kernel of
 * the math library's functions or of complex products compiles in full.
 * A fused kernel rounds its products (UA_MUL_RN) and keeps its nodes apart
 * (ua_rounded), so that no level contracts across them; within a math
 * function, NVRTC 13.5's fast level gave the full level's instructions
 * for each element (the same FFMA, FMUL, FADD and MUFU of each exp, tanh
 * and division, unrolled fewer times), and a GPU test compares a fused
 * first call's bytes at both levels. */
static bool
ew_exact_at_any_level(const ua_ew_variant *v)
{
    bool integral = !strchr("fc", ua_dtype_kind(v->compute)) &&
                    !strchr("fc", ua_dtype_kind(v->out_type));
    for (int i = 0; i < v->nin; i++) {
        integral = integral && !strchr("fc", ua_dtype_kind(v->in_type[i]));
    }
    bool real = ua_dtype_kind(v->compute) != 'c';
    if (v->fused != NULL) {
        return real; /* every node's value is of the computation type */
    }
    switch (v->function) {
    case UA_EW_multiply:
    case UA_EW_square:
    case UA_EW_divide:
        /* one IEEE product (UA_MUL_RN) or quotient an element */
        return real;
    case UA_EW_where:
    case UA_EW_add:
    case UA_EW_subtract:
    case UA_EW_negative:
    case UA_EW_positive:
    case UA_EW_equal:
    case UA_EW_not_equal:
    case UA_EW_less:
    case UA_EW_less_equal:
    case UA_EW_greater:
    case UA_EW_greater_equal:
    case UA_EW_maximum:
    case UA_EW_minimum:
    case UA_EW_isnan:
    case UA_EW_isinf:
    case UA_EW_isfinite:
    case UA_EW_logical_and:
    case UA_EW_logical_or:
    case UA_EW_logical_xor:
    case UA_EW_logical_not:
    case UA_EW_real:
    case UA_EW_imag:
    case UA_EW_conj:
        return true;
    default:
        return integral;
    }
}

/* The full module's kernel in the holder that the table's entry keeps
 * (under c->lock). */
static ua_status
ew_install(ua_cuda_context *c, CUmodule m, const long long where[2])
{
    (void)c;
    CUfunction *holder = (CUfunction *)(intptr_t)where[0];
    CU_CHECK(ua_cu.cuModuleGetFunction(holder, m, "ua_ew"), "ua_ew");
    return UA_OK;
}

/* Compiles variant v into a new entry of the table: its kernel in a
 * holder of its own, so that a full compile may replace a fast one's. */
static ua_status
ew_compile(ua_cuda_context *c, const ua_ew_variant *v, uint64_t key,
           CUfunction *f)
{
    CUfunction *holder = malloc(sizeof *holder);
    char *source =
        holder != NULL ? ua_ew_kernel_source(&ew_language, v) : NULL;
    if (source == NULL) {
        free(holder);
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a kernel");
    }
    ua_cuda_tier tier = {NULL, {(long long)(intptr_t)holder, 0}};
    tier.install = ew_exact_at_any_level(v) ? ew_install : NULL;
    CUmodule module = NULL;
    ua_status st =
        ua_cuda_compile(c, source, "elementwise kernel", &tier, &module);
    free(source);
    if (st != UA_OK) {
        free(holder);
        return st;
    }
    CUresult r = ua_cu.cuModuleGetFunction(holder, module, "ua_ew");
    st = r == CUDA_SUCCESS ? ua_ew_table_add(&c->ew, key, holder, module)
                           : ua_cuda_failed(r, "ua_ew");
    if (st != UA_OK) {
        /* A full compile, where one started, installs into the holder:
         * it stays. */
        return st;
    }
    *f = *holder;
    return UA_OK;
}

/* Vectors of 16 bytes, the widest load a thread makes. */
#define EW_VECTOR_BYTES 16

/* A prepared kernel's module into the table (ua_cuda_prepare's job of
 * ua_cuda_ew_jobs: where holds its holder and its key), or, for the full
 * compile that follows a fast one, into the holder alone (under
 * c->lock). */
static ua_status
ew_install_entry(ua_cuda_context *c, CUmodule m, const long long where[2])
{
    CUfunction *holder = (CUfunction *)(intptr_t)where[0];
    uint64_t key = (uint64_t)where[1];
    CU_CHECK(ua_cu.cuModuleGetFunction(holder, m, "ua_ew"), "ua_ew");
    if (ua_ew_table_find(&c->ew, key) != NULL) {
        return UA_OK;
    }
    return ua_ew_table_add(&c->ew, key, holder, m);
}

/* The variant of p's kernel that cuda_elementwise launches, and the
 * threads of a row where it reduces rows. */
static void
ew_variant(const ua_elementwise_plan *p, ua_ew_variant *v, int *row_threads)
{
    ua_ew_variant_of_plan(p, EW_VECTOR_BYTES, v);
    /* rows a warp each (a group's warps on rows of their own), or a group
     * a row, keeping a chain's row in registers or local memory */
    *row_threads = ua_ew_variant_rows_for(p, v, true, true);
}

int
ua_cuda_ew_jobs(ua_cuda_context *c, const ua_elementwise_plan *p,
                ua_cuda_job *jobs, int n, int cap)
{
    ua_ew_variant v;
    int row_threads;
    ew_variant(p, &v, &row_threads);
    uint64_t key = ua_ew_variant_key(&v);
    bool listed = ua_ew_table_find(&c->ew, key) != NULL;
    for (int i = 0; i < n && !listed; i++) {
        listed = jobs[i].tier.install == ew_install_entry &&
                 (uint64_t)jobs[i].tier.where[1] == key;
    }
    /* a kernel that compiles in full at once, or past the cap, compiles
     * on its call */
    if (listed || !ew_exact_at_any_level(&v) || n >= cap) {
        return 0;
    }
    CUfunction *holder = malloc(sizeof *holder);
    char *source =
        holder != NULL ? ua_ew_kernel_source(&ew_language, &v) : NULL;
    if (source == NULL) {
        free(holder);
        return ua_cuda_jobs_out_of_memory(jobs, 0);
    }
    ua_cuda_job *j = &jobs[n];
    j->source = source;
    snprintf(j->what, sizeof j->what, "elementwise kernel"); /* ew_compile's */
    /* the holder stays with the table, or with a full compile that
     * installs into it */
    j->tier = (ua_cuda_tier){ew_install_entry,
                             {(long long)(intptr_t)holder, (long long)key}};
    return 1;
}

/* The kernel of variant v, compiled on first use and kept. */
static ua_status
ew_function(ua_cuda_queue *q, const ua_ew_variant *v, CUfunction *f)
{
    ua_cuda_context *c = q->c;
    ua_status st = ua_cuda_bind(c);
    if (st != UA_OK) {
        return st;
    }
    uint64_t key = ua_ew_variant_key(v);
    pthread_mutex_lock(&c->lock);
    ua_cuda_upgrades_install(c);
    const ua_ew_slot *k = ua_ew_table_find(&c->ew, key);
    *f = NULL;
    if (k != NULL) {
        *f = *(CUfunction *)k->kernel;
    } else {
        st = ew_compile(c, v, key, f);
    }
    pthread_mutex_unlock(&c->lock);
    return st;
}

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
        long long chunk = (long long)threads * ew_tune.unroll;
        long long b = ((work + v->vec - 1) / v->vec + chunk - 1) / chunk;
        long long cap =
            ew_tune.per_sm > 0
                ? (long long)(q->c->sm_count > 0 ? q->c->sm_count : 16) *
                      ew_tune.per_sm
                : b;
        return (unsigned)(b < 1 ? 1 : b < cap ? b : cap);
    }
    return ua_cuda_blocks_for(q, work / v->vec, (int)threads);
}

static ua_status
cuda_elementwise(void *queue, const ua_elementwise_plan *p)
{
    ua_cuda_queue *q = queue;
    pthread_once(&ew_tune_once, ew_tune_read);
    double t0 = ua_cuda_tracing() ? ua_cuda_now_ms() : 0;
    ua_ew_variant v;
    int row_threads;
    ew_variant(p, &v, &row_threads);
    unsigned threads = (unsigned)(v.group > 0 ? v.group : ew_tune.threads);
    CUfunction f;
    ua_status st = ew_function(q, &v, &f);
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
