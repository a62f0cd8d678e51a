/* Copies of large contiguous ranges between pageable host memory and the
 * GPU, pipelined.  The driver stages pageable memory through its own
 * buffer with one CPU thread, at that thread's memcpy speed, a fraction
 * of what the DMA engine moves from pinned memory (docs/performance.rst
 * has the rows).  Here several threads each copy chunks into pinned
 * slots of their own, two per thread, while the DMA engine drains the
 * slots filled before: uploads pack a slot and enqueue its transfer,
 * downloads enqueue a transfer into one slot while unpacking the other. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/cuda/cuda_backend.h"

#define PIPE_CHUNK ((size_t)4 << 20)
/* Below this, the driver's own staging is as fast. */
#define PIPE_MIN_BYTES ((size_t)16 << 20)

typedef struct {
    ua_cuda_context *c;
    CUstream stream;
    ua_cuda_pipe_worker *w;
    char *dst;
    const char *src;
    size_t n;
    bool upload;
    int index, nworkers;
    CUresult r;
    const char *what;
} pipe_job;

static int
worker_count(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    long n = cpus / 2;
    return n < 1                      ? 1
           : n > UA_CUDA_PIPE_WORKERS ? UA_CUDA_PIPE_WORKERS
                                      : (int)n;
}

/* Fills the pipeline's workers up to worker_count(); false when pinned
 * memory or events ran out (those made so far serve). */
static bool
setup_workers(ua_cuda_pipeline *p)
{
    int n = worker_count();
    for (int i = 0; i < n; i++) {
        ua_cuda_pipe_worker *w = &p->w[i];
        for (int s = 0; s < 2; s++) {
            if (ua_cu.cuMemHostAlloc(&w->slot[s], PIPE_CHUNK,
                                     CU_MEMHOSTALLOC_PORTABLE) !=
                    CUDA_SUCCESS ||
                ua_cu.cuEventCreate(&w->done[s], CU_EVENT_DISABLE_TIMING) !=
                    CUDA_SUCCESS) {
                return false; /* what was made stays for the next try */
            }
            w->pending[s] = false;
        }
        p->nworkers = i + 1;
    }
    return true;
}

/* The slot's previous transfer, of this call or an earlier one on any
 * stream, is done. */
static CUresult
claim(ua_cuda_pipe_worker *w, int s)
{
    CUresult r =
        w->pending[s] ? ua_cu.cuEventSynchronize(w->done[s]) : CUDA_SUCCESS;
    w->pending[s] = false;
    return r;
}

static CUresult
transfer(pipe_job *j, int s, void *to, const void *from, size_t len)
{
    CUresult r =
        ua_cu.cuMemcpyAsync((CUdeviceptr)(uintptr_t)to,
                            (CUdeviceptr)(uintptr_t)from, len, j->stream);
    if (r == CUDA_SUCCESS) {
        r = ua_cu.cuEventRecord(j->w->done[s], j->stream);
        j->w->pending[s] = r == CUDA_SUCCESS;
    }
    return r;
}

/* The bytes of this worker's m-th chunk (chunks index, index + nworkers,
 * ...); false past its last. */
static bool
chunk_of(const pipe_job *j, size_t m, size_t *off, size_t *len)
{
    size_t k = (size_t)j->index + m * (size_t)j->nworkers;
    *off = k * PIPE_CHUNK;
    if (*off >= j->n) {
        return false;
    }
    *len = j->n - *off < PIPE_CHUNK ? j->n - *off : PIPE_CHUNK;
    return true;
}

static void
run_uploads(pipe_job *j)
{
    size_t off, len;
    for (size_t m = 0; chunk_of(j, m, &off, &len); m++) {
        int s = (int)(m & 1);
        if ((j->r = claim(j->w, s)) != CUDA_SUCCESS) {
            j->what = "waiting for a staging slot";
            return;
        }
        memcpy(j->w->slot[s], j->src + off, len);
        if ((j->r = transfer(j, s, j->dst + off, j->w->slot[s], len)) !=
            CUDA_SUCCESS) {
            j->what = "cuMemcpyAsync to the device";
            return;
        }
    }
}

/* Chunk m goes into a slot while chunk m - 1 comes out of the other. */
static void
run_downloads(pipe_job *j)
{
    size_t off, len, prev_off = 0, prev_len = 0;
    for (size_t m = 0;; m++) {
        int s = (int)(m & 1);
        bool more = chunk_of(j, m, &off, &len);
        if (more && ((j->r = claim(j->w, s)) != CUDA_SUCCESS ||
                     (j->r = transfer(j, s, j->w->slot[s], j->src + off,
                                      len)) != CUDA_SUCCESS)) {
            j->what = "cuMemcpyAsync from the device";
            return;
        }
        if (m > 0) {
            if ((j->r = claim(j->w, s ^ 1)) != CUDA_SUCCESS) {
                j->what = "waiting for a transfer from the device";
                return;
            }
            memcpy(j->dst + prev_off, j->w->slot[s ^ 1], prev_len);
        }
        if (!more) {
            return;
        }
        prev_off = off, prev_len = len;
    }
}

static void *
run_job(void *arg)
{
    pipe_job *j = arg;
    if ((j->r = ua_cu.cuCtxSetCurrent(j->c->ctx)) != CUDA_SUCCESS) {
        j->what = "cuCtxSetCurrent";
        return NULL;
    }
    if (j->upload) {
        run_uploads(j);
    } else {
        run_downloads(j);
    }
    return NULL;
}

/* Runs the jobs on threads of their own, the first on the caller's; a
 * job whose thread could not start runs on the caller's too. */
static void
run_jobs(pipe_job *jobs, int n)
{
    pthread_t threads[UA_CUDA_PIPE_WORKERS];
    bool started[UA_CUDA_PIPE_WORKERS] = {false};
    for (int i = 1; i < n; i++) {
        started[i] = pthread_create(&threads[i], NULL, run_job, &jobs[i]) == 0;
    }
    for (int i = 0; i < n; i++) {
        if (!started[i]) {
            run_job(&jobs[i]);
        }
    }
    for (int i = 1; i < n; i++) {
        if (started[i]) {
            pthread_join(threads[i], NULL);
        }
    }
}

/* Which way a copy between pageable memory and the GPU goes; false when
 * it is not one. */
static bool
direction(const void *dst, const void *src, bool *upload)
{
    ua_cuda_pointer p;
    bool dst_known = ua_cuda_query_pointer(dst, &p);
    bool src_known = ua_cuda_query_pointer(src, &p);
    *upload = dst_known;
    return dst_known != src_known;
}

ua_status
ua_cuda_pipelined_memcpy(ua_cuda_queue *q, void *dst, const void *src,
                         size_t n, bool *done)
{
    bool upload;
    ua_cuda_pipeline *p = &q->c->pipe;
    *done = false;
    if (n < PIPE_MIN_BYTES || !direction(dst, src, &upload)) {
        return UA_OK;
    }
    pthread_mutex_lock(&p->lock);
    if (p->nworkers == 0 && !setup_workers(p) && p->nworkers == 0) {
        pthread_mutex_unlock(&p->lock);
        return UA_OK; /* no pinned memory: the driver's staging will do */
    }
    pipe_job jobs[UA_CUDA_PIPE_WORKERS];
    int nworkers = p->nworkers;
    for (int i = 0; i < nworkers; i++) {
        jobs[i] = (pipe_job){.c = q->c,
                             .stream = q->stream,
                             .w = &p->w[i],
                             .dst = dst,
                             .src = src,
                             .n = n,
                             .upload = upload,
                             .index = i,
                             .nworkers = nworkers,
                             .r = CUDA_SUCCESS};
    }
    run_jobs(jobs, nworkers);
    pthread_mutex_unlock(&p->lock);
    *done = true;
    for (int i = 0; i < nworkers; i++) {
        if (jobs[i].r != CUDA_SUCCESS) {
            return ua_cuda_failed(jobs[i].r, jobs[i].what);
        }
    }
    return UA_OK;
}
