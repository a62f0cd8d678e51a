/* The CUDA backend's elementwise kernels (the GPU layer's
 * elementwise_source.c text): their dialect and launch shape, their
 * variants, and their compile on first use or ahead of a call
 * (cuda_prepare.c), kept in the context's table; cuda_compute.c launches
 * them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/cuda_language.h"
#include "gpu/dialect_cuda_text.h"
#include "gpu/elementwise_source.h"

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
    ua_cuda_ew_shape shape;
    char defines[96];
} ew_tune = {{512, 2, 0}, ""};
static pthread_once_t ew_tune_once = PTHREAD_ONCE_INIT;

static void
ew_tune_read(void)
{
    const char *env = getenv("USMARRAY_CUDA_EW_TUNE");
    int t, u, b;
    if (env != NULL && sscanf(env, "%d,%d,%d", &t, &u, &b) == 3 &&
        (t == 64 || t == 128 || t == 256 || t == 512 || t == 1024) && u >= 1 &&
        u <= 8 && b >= 0) {
        ew_tune.shape = (ua_cuda_ew_shape){t, u, b};
    }
    snprintf(ew_tune.defines, sizeof ew_tune.defines,
             "#define UA_THREADS %d\n#define UA_UNROLL %d\n",
             ew_tune.shape.threads, ew_tune.shape.unroll);
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

const ua_cuda_ew_shape *
ua_cuda_ew_tune(void)
{
    pthread_once(&ew_tune_once, ew_tune_read);
    return &ew_tune.shape;
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
        holder != NULL ? ua_ew_kernel_source(ua_cuda_ew_language(), v) : NULL;
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

void
ua_cuda_ew_variant(const ua_elementwise_plan *p, ua_ew_variant *v,
                   int *row_threads)
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
    ua_cuda_ew_variant(p, &v, &row_threads);
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
        holder != NULL ? ua_ew_kernel_source(ua_cuda_ew_language(), &v) : NULL;
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

ua_status
ua_cuda_ew_function(ua_cuda_queue *q, const ua_ew_variant *v, CUfunction *f)
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
