/* The CUDA backend's compute programs (cuda_backend.h numbers them): each
 * program's source, the GPU layer's index, mask and fill kernels, batched
 * copies and reversals after its CUDA dialect, compiled on a program's
 * first use and kept per context with the functions looked up so far, and
 * launches of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/cuda_language.h"
#include "gpu/dialect_cuda_text.h"
#include "gpu/fill_kernels_text.h"
#include "gpu/index_kernels_text.h"
#include "gpu/kernel_text.h"

const char *const ua_cuda_unit_names[5] = {"1", "2", "4", "8", "16"};
char *
ua_cuda_compute_source(int program, char *what, size_t cap)
{
    char line[96] = "";
    /* The prelude brings d2h for the fills' float16. */
    static const char *const fill_header[] = {ua_cuda_kernel_prelude, NULL};
    if (program < UA_CUDA_PROGRAM_TILES) {
        int u = (program - UA_CUDA_PROGRAM_INDEX) / 9,
            rank = (program - UA_CUDA_PROGRAM_INDEX) / 3 % 3,
            mode = (program - UA_CUDA_PROGRAM_INDEX) % 3;
        snprintf(line, sizeof line, "INDEX(%s, %d, %d)\n",
                 ua_cuda_unit_names[u], rank, mode);
        snprintf(what, cap, "index kernel ua_index_%s_%d_%d",
                 ua_cuda_unit_names[u], rank, mode);
        const char *const kernel[] = {line, NULL};
        const char *const *texts[] = {ua_gpu_cuda_dialect_text,
                                      ua_index_kernel_text, kernel};
        return ua_gpu_texts_join(texts, 3);
    } else if (program < UA_CUDA_PROGRAM_COPIES) {
        /* The counts' program wants them; a compress program is its
         * kernel's line. */
        const char *wanted = "#define WANT_MASK_COUNTS 1\n";
        if (program == UA_CUDA_PROGRAM_TILES) {
            snprintf(what, cap, "mask count kernels");
        } else {
            const char *unit =
                ua_cuda_unit_names[program - UA_CUDA_PROGRAM_COMPRESS];
            wanted = "";
            snprintf(line, sizeof line, "COMPRESS(%s)\n", unit);
            snprintf(what, cap, "compress kernel ua_compress_%s", unit);
        }
        const char *const head[] = {wanted, NULL};
        const char *const kernel[] = {line, NULL};
        const char *const *texts[] = {head, ua_gpu_cuda_dialect_text,
                                      ua_index_kernel_text, kernel};
        return ua_gpu_texts_join(texts, 4);
    } else if (program == UA_CUDA_PROGRAM_COPIES) {
        snprintf(what, cap, "batched copy kernel");
        return ua_gpu_copy_blocks_source(&ua_cuda_copy_language);
    } else if (program < UA_CUDA_PROGRAM_FILL) {
        int u = program - UA_CUDA_PROGRAM_REVERSE;
        snprintf(what, cap, "reversal kernel ua_reverse_%s",
                 ua_cuda_unit_names[u]);
        return ua_gpu_reverse_source(&ua_cuda_copy_language, u);
    }
    snprintf(what, cap, "fill kernels");
    const char *const *texts[] = {fill_header, ua_gpu_cuda_dialect_text,
                                  ua_fill_kernel_text};
    return ua_gpu_texts_join(texts, 3);
}

int
ua_cuda_gather_program(size_t itemsize)
{
    /* The unit of cuda_compute.c's index kernels: the widest power of two
     * up to 16 that divides the itemsize (and the addresses: aligned). */
    int u = 0;
    while (u < 4 && (itemsize >> u & 1) == 0) {
        u++;
    }
    return UA_CUDA_PROGRAM_INDEX + 9 * u + 3 * 1 + UA_INDEX_GATHER;
}

/* A program's full module in place of its fast one: the functions looked
 * up from the fast one are looked up again (under c->lock). */
static ua_status
install_program(ua_cuda_context *c, CUmodule m, const long long where[2])
{
    int program = (int)where[0], kept = 0;
    c->compute[program] = m;
    for (int i = 0; i < c->nfunctions; i++) {
        if (c->functions[i].program != program) {
            c->functions[kept++] = c->functions[i];
        }
    }
    c->nfunctions = kept;
    return UA_OK;
}

/* Every program here moves, gathers, counts or fills: no compiler level
 * changes its results, so that a first call may take the fast one. */
static ua_cuda_tier
program_tier(int program)
{
    return (ua_cuda_tier){install_program, {program, 0}};
}

int
ua_cuda_program_jobs(ua_cuda_context *c, int program, ua_cuda_job *jobs,
                     int cap)
{
    if (c->compute[program] != NULL || cap < 1) {
        return 0;
    }
    jobs[0].source =
        ua_cuda_compute_source(program, jobs[0].what, sizeof jobs[0].what);
    jobs[0].tier = program_tier(program);
    return jobs[0].source != NULL ? 1 : ua_cuda_jobs_out_of_memory(jobs, 1);
}

/* The programs one call needs and c lacks, compiled side by side (at
 * most UA_CUDA_COMPILE_MAX; the rest compile on use); under c->lock. */
static ua_status
compile_programs(ua_cuda_context *c, const int *programs, int n)
{
    ua_cuda_job jobs[UA_CUDA_COMPILE_MAX];
    int m = 0;
    for (int i = 0; i < n && m < UA_CUDA_COMPILE_MAX; i++) {
        int added = ua_cuda_program_jobs(c, programs[i], jobs + m,
                                         UA_CUDA_COMPILE_MAX - m);
        if (added < 0) {
            ua_cuda_jobs_drop(jobs, m);
            return UA_ERR_NOMEM;
        }
        m += added;
    }
    bool compiled;
    return ua_cuda_jobs_run(c, jobs, m, &compiled);
}

ua_status
ua_cuda_programs_prepare(ua_cuda_queue *q, const int *programs, int n)
{
    ua_cuda_context *c = q->c;
    ua_status st = ua_cuda_bind(c);
    if (st != UA_OK) {
        return st;
    }
    pthread_mutex_lock(&c->lock);
    ua_cuda_upgrades_install(c);
    st = compile_programs(c, programs, n);
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* The kernel of that name, among those looked up so far, else from its
 * program, compiled on first use; called under c->lock. */
static ua_status
find_function(ua_cuda_context *c, int program, const char *name, CUfunction *f)
{
    for (int i = 0; i < c->nfunctions; i++) {
        if (strcmp(c->functions[i].name, name) == 0) {
            *f = c->functions[i].f;
            return UA_OK;
        }
    }
    if (c->compute[program] == NULL) {
        ua_status st = compile_programs(c, &program, 1);
        if (st != UA_OK) {
            return st;
        }
    }
    CU_CHECK(ua_cu.cuModuleGetFunction(f, c->compute[program], name), name);
    int slots = (int)(sizeof c->functions / sizeof c->functions[0]);
    if (c->nfunctions < slots && strlen(name) < sizeof c->functions[0].name) {
        strcpy(c->functions[c->nfunctions].name, name);
        c->functions[c->nfunctions].program = program;
        c->functions[c->nfunctions++].f = *f;
    }
    return UA_OK;
}

ua_status
ua_cuda_program_function(ua_cuda_queue *q, int program, const char *name,
                         CUfunction *f)
{
    ua_cuda_context *c = q->c;
    ua_status st = ua_cuda_bind(c);
    if (st != UA_OK) {
        return st;
    }
    pthread_mutex_lock(&c->lock);
    ua_cuda_upgrades_install(c);
    st = find_function(c, program, name, f);
    pthread_mutex_unlock(&c->lock);
    return st;
}

unsigned
ua_cuda_blocks_for(const ua_cuda_queue *q, long long work, int threads)
{
    long long cap = (long long)(q->c->sm_count > 0 ? q->c->sm_count : 16) * 32;
    long long b = (work + threads - 1) / threads;
    return (unsigned)(b < 1 ? 1 : b < cap ? b : cap);
}

ua_status
ua_cuda_program_launch(ua_cuda_queue *q, int program, const char *name,
                       unsigned blocks, unsigned threads, void **args)
{
    CUfunction f;
    ua_status st = ua_cuda_program_function(q, program, name, &f);
    if (st != UA_OK) {
        return st;
    }
    CU_CHECK(ua_cu.cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, q->stream,
                                  args, NULL),
             name);
    return UA_OK;
}
