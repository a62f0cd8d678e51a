/* What the GPU layer's launches share (reduce_launch.c, scan_launch.c,
 * order_launch.c, launch_common.c, program_source.c); not for the
 * backends, which see launcher.h. */
#ifndef USMARRAY_GPU_LAUNCH_COMMON_H
#define USMARRAY_GPU_LAUNCH_COMMON_H

#include "gpu/launcher.h"

/* A queue with its backend's launcher, as the launches pass it on. */
typedef struct ua_gpu_launcher {
    void *queue;
    const ua_gpu_launcher_ops *ops;
} ua_gpu_launcher;

/* The launcher of a compiling backend's queue (launcher.h's
 * ua_gpu_queue). */
static inline ua_gpu_launcher
ua_gpu_bind(void *queue)
{
    return (ua_gpu_launcher){queue, ((const ua_gpu_queue *)queue)->launcher};
}

static inline ua_gpu_arg
ptr(const void *p)
{
    return (ua_gpu_arg){UA_GPU_PTR, p, 0, 0};
}

static inline ua_gpu_arg
i64(long long v)
{
    return (ua_gpu_arg){UA_GPU_I64, NULL, v, 0};
}

static inline ua_gpu_arg
i32(int v)
{
    return (ua_gpu_arg){UA_GPU_I32, NULL, 0, v};
}

static inline size_t
groups_for(size_t items)
{
    return (items + UA_GPU_GROUP - 1) / UA_GPU_GROUP;
}

static inline size_t
product(int nd, const ptrdiff_t *shape)
{
    size_t n = 1;
    for (int k = 0; k < nd; k++) {
        n *= (size_t)shape[k];
    }
    return n;
}

/* A run of elements along one axis of x for each element of the other
 * axes' shape, as the kernels read it. */
typedef struct run_input {
    const char *x;
    ptrdiff_t xstep[UA_MAXDIMS];
    ptrdiff_t step;
    void *staged; /* a temporary to release, or NULL */
} run_input;

/* Where a kernel writes results of type a that the plan wants as rtype at
 * result (steps rstep): there where the types agree, else a dense
 * temporary that finish_output converts from. */
typedef struct run_output {
    char *out;
    ptrdiff_t rstep[UA_MAXDIMS];
    void *temp;
} run_output;

/* Whether p and every step are multiples of size. */
bool ua_gpu_aligned(const void *p, int nd, const ptrdiff_t *steps,
                    ptrdiff_t step, size_t size);
/* Device memory holding n longs; NULL where n is 0. */
/* scan_launch.c: a scan, which the sorts' and groups' passes run too. */
ua_status ua_gpu_scan_with(const ua_gpu_launcher *l, const ua_scan_plan *p);
ua_status ua_gpu_upload_longs(const ua_gpu_launcher *l, const long long *v,
                              size_t n, void **dev);
/* A reduction's or scan's axes for the kernels: shape, x's steps, the
 * result's (nd each). */
ua_status ua_gpu_upload_reduce_plan(const ua_gpu_launcher *l, int nd,
                                    const ptrdiff_t *shape,
                                    const ptrdiff_t *xstep,
                                    const ptrdiff_t *rstep, void **dev);
/* x (runs of n elements `step` apart, for each element of shape) as the
 * program of *t reads it: where it cannot, copied into a dense temporary
 * of type `to`, which *t then reads instead. */
ua_status ua_gpu_stage_input(const ua_gpu_launcher *l, ua_gpu_types *t,
                             ua_typenum to, int nd, const ptrdiff_t *shape,
                             const ptrdiff_t *xstep, ptrdiff_t n,
                             ptrdiff_t step, const char *x, run_input *in);
void ua_gpu_release(const ua_gpu_launcher *l, void *p);
ua_status ua_gpu_prepare_output(const ua_gpu_launcher *l, bool same,
                                size_t asz, int nd, const ptrdiff_t *shape,
                                const ptrdiff_t *rstep, char *result,
                                run_output *o);
ua_status ua_gpu_finish_output(const ua_gpu_launcher *l, run_output *o,
                               ua_typenum a, int nd, const ptrdiff_t *shape,
                               const ptrdiff_t *rstep, char *result,
                               ua_typenum rtype);

/* The bytes in flight that a strided reduction's split aims for:
 * USMARRAY_GPU_LANE_BYTES (read once; benchmarks/lanes_sweep.py sweeps
 * it), else fallback. */
size_t ua_gpu_lane_bytes(size_t fallback);

#endif
