/* Kernels compiled ahead for a call of several steps (kernels.h,
 * prepare): unique_values argsorts, gathers and groups, a fused call's
 * kernels (the variance's two), and each step
 * compiled its programs when it came to it, so that the call waited for
 * NVRTC three times, one after another.  Here the programs of all the
 * steps compile side by side, once, and each step finds its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"

/* The jobs of one item, appended at jobs + m (at most cap in all); a
 * group's functions go to *group (allocated here) for the launcher's
 * table. */
static int
item_jobs(ua_cuda_context *c, const ua_prepare_item *it, ua_cuda_job *all,
          int m, int cap, CUfunction **group)
{
    ua_cuda_job *jobs = all + m;
    cap -= m;
    switch (it->kind) {
    case UA_PREPARE_ELEMENTWISE:
        return ua_cuda_ew_jobs(c, it->plan, all, m, m + cap);
    case UA_PREPARE_SORT: {
        int64_t position = 0;
        ua_sort_plan p = {
            NULL, it->positions ? &position : NULL, 1, it->n, it->type, false,
            NULL};
        return ua_cuda_sort_jobs(c, &p, jobs, cap);
    }
    case UA_PREPARE_GATHER:
        return ua_cuda_program_jobs(
            c, ua_cuda_gather_program(ua_dtype_itemsize(it->type)), jobs, cap);
    case UA_PREPARE_GROUP: {
        ua_gpu_program p = ua_gpu_group_program(it->type);
        if (*group != NULL ||
            ua_ew_table_find(&c->reduce, ua_gpu_program_key(&p)) != NULL) {
            return 0;
        }
        *group = calloc(UA_GPU_NKERNELS, sizeof **group);
        return *group == NULL ? -1
                              : ua_cuda_family_jobs(c, &p, *group, jobs, cap);
    }
    }
    return 0;
}

static void
trace_jobs(const ua_cuda_job *jobs, int n)
{
    fprintf(stderr, "usmarray: compiled ahead, side by side:");
    for (int i = 0; i < n; i++) {
        fprintf(stderr, "%s %s", i > 0 ? "," : "", jobs[i].what);
    }
    fprintf(stderr, "\n");
}

ua_status
ua_cuda_prepare(void *queue, const ua_prepare_item *items, int n)
{
    ua_cuda_queue *q = queue;
    ua_cuda_context *c = q->c;
    ua_status st = ua_cuda_bind(c);
    if (st != UA_OK) {
        return st;
    }
    ua_cuda_job jobs[UA_CUDA_COMPILE_MAX];
    CUfunction *group = NULL;
    ua_typenum group_type = UA_BOOL;
    int m = 0;
    pthread_mutex_lock(&c->lock);
    ua_cuda_upgrades_install(c);
    for (int i = 0; i < n; i++) {
        CUfunction *before = group;
        int added =
            item_jobs(c, &items[i], jobs, m, UA_CUDA_COMPILE_MAX, &group);
        if (added < 0) {
            /* an item that does not fit, or no memory for it: the others
             * still compile ahead, it on its step's use */
            ua_error_clear();
            if (group != before) {
                free(group);
                group = before;
            }
            continue;
        }
        group_type = group != before ? items[i].type : group_type;
        m += added;
    }
    bool compiled = false;
    if (st == UA_OK && ua_cuda_tracing() && m > 0) {
        trace_jobs(jobs, m);
    }
    st = st == UA_OK ? ua_cuda_jobs_run(c, jobs, m, &compiled) : st;
    if (st == UA_OK && group != NULL) {
        ua_gpu_program p = ua_gpu_group_program(group_type);
        st = ua_cuda_family_add(c, &p, group);
    }
    pthread_mutex_unlock(&c->lock);
    if (st != UA_OK) {
        ua_cuda_jobs_drop(jobs, m); /* those jobs_run did not reach */
        /* A full compile, where one started, installs into group. */
        if (!compiled) {
            free(group);
        }
    }
    return st;
}
