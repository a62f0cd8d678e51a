/* The CUDA backend's one-sweep radix sort (cuda_sort_kernels.inc) of rows
 * of real or integer elements of 2, 4 or 8 bytes, a tile or longer: one
 * launch counts every pass's digits, then one launch a pass sorts by its
 * digit, each tile finding its place through the counts the tiles before
 * it publish.  Groups wait on each other's counts, which CUDA's blocks
 * may do: a block takes its tile from a counter when it starts, so every
 * tile it waits on belongs to a block already running.  Other plans keep
 * the GPU layer's sort (gpu/order_launch.c). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"
#include "cuda_sort_kernels_text.h"

enum { HIST, PASS, PAIRS };
/* Threads a block: the text's OS_THREADS. */
#define THREADS 256
/* Keys a block of the histogram counts. */
#define HIST_CHUNK 16384

/* Per key width: the histogram, a pass of keys, a pass of keys and
 * positions. */
static const char *const kernel_names[3][3] = {
    {"ua_os_hist_16", "ua_os_pass_16", "ua_os_pairs_16"},
    {"ua_os_hist_32", "ua_os_pass_32", "ua_os_pairs_32"},
    {"ua_os_hist_64", "ua_os_pass_64", "ua_os_pairs_64"}};

static int
key_slot(size_t isz)
{
    return isz == 2 ? 0 : isz == 4 ? 1 : isz == 8 ? 2 : -1;
}

/* The shape of a pass over 4-byte keys (the text's OS_IPT32,
 * OS_MIN_BLOCKS, OS_LOOK and OS_BACKOFF): USMARRAY_CUDA_SORT_TUNE=
 * "ipt,min_blocks,look,backoff", read once, sets them for a sweep (the
 * kernels' disk cache is keyed by their source, which carries them). */
static struct {
    int ipt, min_blocks, look, backoff;
    char defines[160];
} tune = {16, 4, 8, 0, ""};
static pthread_once_t tune_once = PTHREAD_ONCE_INIT;

static void
tune_read(void)
{
    const char *env = getenv("USMARRAY_CUDA_SORT_TUNE");
    int i, m, l, b;
    if (env != NULL && sscanf(env, "%d,%d,%d,%d", &i, &m, &l, &b) == 4 &&
        i >= 4 && i <= 32 && i % 4 == 0 && m >= 1 && m <= 8 && l >= 1 &&
        l <= 32 && b >= 0 && b <= 100000) {
        tune.ipt = i;
        tune.min_blocks = m;
        tune.look = l;
        tune.backoff = b;
    }
    snprintf(tune.defines, sizeof tune.defines,
             "#define OS_IPT32 %d\n#define OS_MIN_BLOCKS %d\n"
             "#define OS_LOOK %d\n#define OS_BACKOFF %d\n",
             tune.ipt, tune.min_blocks, tune.look, tune.backoff);
}

/* Keys a tile of the pass kernels takes: the text's keys a thread, 16
 * (OS_IPT32 for 4-byte keys alone) or 8 of 8 bytes; 24 of 4 bytes, 6,144
 * a tile, measured slower (benchmarks/cuda_sort_sweep.py). */
static ptrdiff_t
tile_of(size_t isz, bool index)
{
    pthread_once(&tune_once, tune_read);
    return THREADS * (isz == 8 ? 8 : isz == 4 && !index ? tune.ipt : 16);
}

/* The source of the module of keys of slot's width that holds one
 * kernel (HIST, PASS or PAIRS). */
static char *
kernel_source(int slot, int kernel)
{
    pthread_once(&tune_once, tune_read);
    char module[64];
    snprintf(module, sizeof module,
             "#define OS_BITS %d\n#define OS_KERNEL %d\n", 16 << slot, kernel);
    size_t n = strlen(module) + strlen(tune.defines) + 1;
    for (int i = 0; ua_cuda_sort_kernel_text[i] != NULL; i++) {
        n += strlen(ua_cuda_sort_kernel_text[i]);
    }
    char *s = malloc(n);
    if (s != NULL) {
        strcpy(s, module);
        strcat(s, tune.defines);
        for (int i = 0; ua_cuda_sort_kernel_text[i] != NULL; i++) {
            strcat(s, ua_cuda_sort_kernel_text[i]);
        }
    }
    return s;
}

/* A kernel's full module in place of its fast one (under c->lock): where
 * holds the keys' slot and the kernel. */
static ua_status
install_kernel(ua_cuda_context *c, CUmodule m, const long long where[2])
{
    int slot = (int)where[0], kernel = (int)where[1];
    const char *name = kernel_names[slot][kernel];
    CU_CHECK(
        ua_cu.cuModuleGetFunction(&c->sort_functions[slot][kernel], m, name),
        name);
    c->sort_modules[slot][kernel] = m;
    return UA_OK;
}

/* The jobs of the modules of slot's width that a sort (pairs: an
 * argsort) needs and c lacks (ua_cuda_sort_jobs); called under c->lock.
 * The passes move keys by their bits: no compiler level changes a sort,
 * so that a first call may take the fast one. */
static int
slot_jobs(ua_cuda_context *c, int slot, bool pairs, ua_cuda_job *jobs, int cap)
{
    static const char *const what[3] = {"radix sort histogram kernel",
                                        "radix sort pass kernel",
                                        "radix argsort pass kernel"};
    int wanted[2] = {HIST, pairs ? PAIRS : PASS}, n = 0;
    for (int i = 0; i < 2 && n < cap; i++) {
        if (c->sort_modules[slot][wanted[i]] != NULL) {
            continue;
        }
        snprintf(jobs[n].what, sizeof jobs[n].what, "%s", what[wanted[i]]);
        jobs[n].tier = (ua_cuda_tier){install_kernel, {slot, wanted[i]}};
        jobs[n].source = kernel_source(slot, wanted[i]);
        if (jobs[n++].source == NULL) {
            return ua_cuda_jobs_out_of_memory(jobs, n);
        }
    }
    return n;
}

/* Loads the modules of slot's width that a sort (pairs: an argsort)
 * needs and lacks, compiled side by side; called under c->lock. */
static ua_status
load_modules(ua_cuda_context *c, int slot, bool pairs)
{
    ua_cuda_job jobs[2];
    int n = slot_jobs(c, slot, pairs, jobs, 2);
    bool compiled;
    return n < 0 ? UA_ERR_NOMEM : ua_cuda_jobs_run(c, jobs, n, &compiled);
}

/* The kernels of keys of slot's width (the histogram and the pass of
 * keys, or of keys and positions where pairs), compiled on first use. */
static ua_status
sort_kernels(ua_cuda_context *c, int slot, bool pairs, CUfunction f[3])
{
    ua_status st = ua_cuda_bind(c);
    if (st != UA_OK) {
        return st;
    }
    pthread_mutex_lock(&c->lock);
    ua_cuda_upgrades_install(c);
    st = load_modules(c, slot, pairs);
    for (int k = 0; k < 3; k++) {
        f[k] = c->sort_functions[slot][k];
    }
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* Whether the one-sweep sort takes p on c's device: real or integer elements of 2, 4
 * or 8 bytes, rows of a tile up to 2^30 elements (the published counts'
 * width), tile numbers within an int. */
static bool
takes(const ua_cuda_context *c, const ua_sort_plan *p)
{
    if (c->cc_major < 7) {
        return false; /* __nanosleep and the ranking's warp-synchronous votes */
    }
    char kind = ua_dtype_kind(p->type);
    size_t isz = ua_dtype_itemsize(p->type);
    if (key_slot(isz) < 0 || (kind != 'f' && kind != 'i' && kind != 'u')) {
        return false;
    }
    ptrdiff_t tile = tile_of(isz, p->index != NULL);
    if (p->n < tile || p->n >= ((ptrdiff_t)1 << 30)) {
        return false;
    }
    ptrdiff_t tiles = (p->n + tile - 1) / tile;
    return (double)p->rows * (double)tiles < 2147483647.0 &&
           (double)p->rows * (double)(p->n / HIST_CHUNK + 1) < 2147483647.0;
}

int
ua_cuda_sort_jobs(ua_cuda_context *c, const ua_sort_plan *p, ua_cuda_job *jobs,
                  int cap)
{
    return takes(c, p) ? slot_jobs(c, key_slot(ua_dtype_itemsize(p->type)),
                                   p->index != NULL, jobs, cap)
                       : 0;
}

typedef struct {
    ua_cuda_queue *q;
    CUfunction f[3];
    const ua_sort_plan *p;
    int slot, passes, kind, tiles;
    unsigned *status, *hist, *counters;
} onesweep;

static ua_status
zero(ua_cuda_queue *q, void *p, size_t bytes)
{
    CU_CHECK(
        ua_cu.cuMemsetD8Async((CUdeviceptr)(uintptr_t)p, 0, bytes, q->stream),
        "cuMemsetD8Async");
    return UA_OK;
}

static ua_status
launch(const onesweep *s, int which, unsigned blocks, void **params)
{
    CU_CHECK(ua_cu.cuLaunchKernel(s->f[which], blocks, 1, 1, THREADS, 1, 1, 0,
                                  s->q->stream, params, NULL),
             kernel_names[s->slot][which]);
    return UA_OK;
}

static ua_status
count_digits(const onesweep *s)
{
    const ua_sort_plan *p = s->p;
    const void *keys = p->data;
    long long n = p->n;
    int chunks = (int)((p->n + HIST_CHUNK - 1) / HIST_CHUNK),
        chunk = HIST_CHUNK;
    int desc = p->descending;
    void *params[] = {
        (void *)&keys,      (void *)&s->hist, &n,   &chunks, &chunk,
        (void *)&s->passes, (void *)&s->kind, &desc};
    return launch(s, HIST, (unsigned)(p->rows * chunks), params);
}

/* Pass `pass`: keys from kin to kout, positions (imode as the text
 * says) from iin to iout or to the plan's index. */
static ua_status
sort_pass(const onesweep *s, int pass, const void *kin, void *kout,
          const void *iin, void *iout, int imode)
{
    const ua_sort_plan *p = s->p;
    unsigned *status = s->status;
    unsigned *counter = s->counters + pass;
    long long n = p->n;
    int tpr = s->tiles, desc = p->descending;
    void *i64out = p->index;
    void *params[] = {(void *)&kin,
                      &kout,
                      (void *)&iin,
                      &iout,
                      &i64out,
                      &status,
                      (void *)&s->hist,
                      &counter,
                      &n,
                      &tpr,
                      &pass,
                      (void *)&s->passes,
                      (void *)&s->kind,
                      &desc,
                      &imode};
    return launch(s, p->index != NULL ? PAIRS : PASS,
                  (unsigned)(p->rows * s->tiles), params);
}

/* The passes, keys between the rows and keys2 (an even number of passes
 * ends in the rows), positions between pos[0] and pos[1] and, last, into
 * the plan's index; the tiles' published counts zeroed before each pass
 * but the first (zeroed with the rest). */
static ua_status
run_passes(const onesweep *s, void *keys2, void *const pos[2])
{
    const ua_sort_plan *p = s->p;
    ua_status st = count_digits(s);
    void *keys[2] = {p->data, keys2};
    size_t status_bytes = (size_t)p->rows * (size_t)s->tiles * 256 * 4;
    for (int pass = 0; st == UA_OK && pass < s->passes; pass++) {
        st = pass > 0 ? zero(s->q, s->status, status_bytes) : UA_OK;
        if (st != UA_OK) {
            break;
        }
        int imode = p->index == NULL        ? 0
                    : pass == 0             ? 1
                    : pass == s->passes - 1 ? 3
                                            : 2;
        st = sort_pass(s, pass, keys[pass & 1], keys[(pass + 1) & 1],
                       pos[pass & 1], pos[(pass + 1) & 1], imode);
    }
    return st;
}

ua_status
ua_cuda_radix_sort(ua_cuda_queue *q, const ua_sort_plan *p, bool *done)
{
    *done = false;
    if (!takes(q->c, p)) {
        return UA_OK;
    }
    size_t isz = ua_dtype_itemsize(p->type);
    onesweep s = {
        q,   {NULL, NULL, NULL}, p, key_slot(isz), (int)isz, 0, 0, NULL, NULL,
        NULL};
    char kind = ua_dtype_kind(p->type);
    s.kind = kind == 'f' ? 2 : kind == 'i' ? 1 : 0;
    ptrdiff_t tile = tile_of(isz, p->index != NULL);
    s.tiles = (int)((p->n + tile - 1) / tile);
    if (sort_kernels(q->c, s.slot, p->index != NULL, s.f) != UA_OK) {
        /* A module NVRTC refuses leaves the GPU layer's sort to do it. */
        ua_error_clear();
        return UA_OK;
    }
    size_t total = (size_t)p->rows * (size_t)p->n;
    size_t nstatus = (size_t)p->rows * (size_t)s.tiles * 256;
    size_t nhist = (size_t)p->rows * (size_t)s.passes * 256;
    size_t words = nstatus + nhist + (size_t)s.passes;
    CUdeviceptr counts = 0, keys2 = 0, pos = 0;
    ua_status st = ua_cuda_scratch(q, words * 4, &counts);
    st = st == UA_OK ? ua_cuda_scratch(q, total * isz, &keys2) : st;
    if (st == UA_OK && p->index != NULL) {
        st = ua_cuda_scratch(q, total * 8, &pos);
    }
    st = st == UA_OK ? zero(q, (void *)(uintptr_t)counts, words * 4) : st;
    if (st == UA_OK) {
        s.status = (unsigned *)(uintptr_t)counts;
        s.hist = s.status + nstatus;
        s.counters = s.hist + nhist;
        void *positions[2] = {(void *)(uintptr_t)pos,
                              (void *)(uintptr_t)(pos + total * 4)};
        st = run_passes(&s, (void *)(uintptr_t)keys2, positions);
    }
    CUdeviceptr temps[3] = {counts, keys2, pos};
    for (int i = 0; i < 3; i++) {
        if (temps[i] != 0) {
            ua_cu.cuMemFreeAsync(temps[i], q->stream);
        }
    }
    *done = st == UA_OK;
    return st;
}
