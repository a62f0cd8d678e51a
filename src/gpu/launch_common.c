/* What the run-time compiled backends' reductions, scans, sorts and
 * products share (launch_common.h): elements staged for the kernels,
 * results through temporaries, plans uploaded.
 *
 * Elements the kernels cannot read as the accumulator's values by
 * themselves (a conversion other than a widening of integers or float16
 * to float32, or memory not aligned to its elements) are first copied
 * into a dense temporary by the backend's copy engine, which converts as
 * astype does; results of another type than the accumulator's go through
 * a dense temporary the same way. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/launch_common.h"

/* Whether loadx reads x's elements as values of t's accumulator. */
static bool
loads_directly(const ua_gpu_types *t)
{
    char xk = ua_dtype_kind(t->x);
    if (t->truth || t->x == t->a) {
        return true;
    }
    if (t->x == UA_FLOAT16) {
        return t->a == UA_FLOAT32;
    }
    return (xk == 'b' || xk == 'i' || xk == 'u') &&
           (t->a == UA_INT64 || t->a == UA_UINT64);
}

/* Whether p and every step are multiples of size. */
bool
ua_gpu_aligned(const void *p, int nd, const ptrdiff_t *steps, ptrdiff_t step,
               size_t size)
{
    bool ok = (uintptr_t)p % size == 0 && step % (ptrdiff_t)size == 0;
    for (int k = 0; k < nd; k++) {
        ok = ok && steps[k] % (ptrdiff_t)size == 0;
    }
    return ok;
}

/* Device memory holding the longs of a plan (at least one). */
ua_status
ua_gpu_upload_longs(const ua_gpu_launcher *l, const long long *v, size_t n,
                    void **dev)
{
    /* No axes, no memory: the kernels read none (a small call's time). */
    *dev = NULL;
    if (n == 0) {
        return UA_OK;
    }
    size_t bytes = n * sizeof(long long);
    ua_status st = l->ops->temporary(l->queue, bytes, dev);
    if (st == UA_OK) {
        st = l->ops->upload(l->queue, *dev, v, bytes);
        if (st != UA_OK) {
            l->ops->release_temporary(l->queue, *dev);
        }
    }
    return st;
}

/* x as elements the program of t reads: where loadx cannot, copied into a
 * dense temporary of type `to` (C order, the run's axis last), which t
 * then reads instead. */
ua_status
ua_gpu_stage_input(const ua_gpu_launcher *l, ua_gpu_types *t, ua_typenum to,
                   int nd, const ptrdiff_t *shape, const ptrdiff_t *xstep,
                   ptrdiff_t n, ptrdiff_t step, const char *x, run_input *in)
{
    memcpy(in->xstep, xstep, sizeof(ptrdiff_t) * (size_t)nd);
    in->x = x;
    in->step = step;
    in->staged = NULL;
    size_t xsz = ua_dtype_itemsize(t->x);
    if (loads_directly(t) && ua_gpu_aligned(x, nd, xstep, step, xsz)) {
        return UA_OK;
    }
    size_t tsz = ua_dtype_itemsize(to);
    ptrdiff_t full[UA_MAXDIMS + 1], dst_st[UA_MAXDIMS + 1],
        src_st[UA_MAXDIMS + 1];
    size_t count = product(nd, shape) * (size_t)n;
    ua_status st =
        l->ops->temporary(l->queue, (count ? count : 1) * tsz, &in->staged);
    if (st != UA_OK) {
        return st;
    }
    ptrdiff_t dense = 1;
    full[nd] = n;
    dst_st[nd] = 1;
    src_st[nd] = step / (ptrdiff_t)xsz;
    dense = n;
    for (int k = nd - 1; k >= 0; k--) {
        full[k] = shape[k];
        dst_st[k] = dense;
        src_st[k] = xstep[k] / (ptrdiff_t)xsz;
        in->xstep[k] = dense * (ptrdiff_t)tsz;
        dense *= shape[k];
    }
    ua_strided d = {in->staged, dst_st, to};
    ua_strided s = {(char *)x, src_st, t->x};
    st = l->ops->copy_strided(l->queue, nd + 1, full, &d, &s);
    in->x = in->staged;
    in->step = (ptrdiff_t)tsz;
    t->x = to;
    return st;
}

void
ua_gpu_release(const ua_gpu_launcher *l, void *p)
{
    if (p != NULL) {
        l->ops->release_temporary(l->queue, p);
    }
}

ua_status
ua_gpu_prepare_output(const ua_gpu_launcher *l, bool same, size_t asz, int nd,
                      const ptrdiff_t *shape, const ptrdiff_t *rstep,
                      char *result, run_output *o)
{
    o->temp = NULL;
    o->out = result;
    memcpy(o->rstep, rstep, sizeof(ptrdiff_t) * (size_t)nd);
    if (same) {
        return UA_OK;
    }
    size_t count = product(nd, shape);
    ua_status st =
        l->ops->temporary(l->queue, (count ? count : 1) * asz, &o->temp);
    ptrdiff_t dense = (ptrdiff_t)asz;
    for (int k = nd - 1; k >= 0; k--) {
        o->rstep[k] = dense;
        dense *= shape[k];
    }
    o->out = o->temp;
    return st;
}

ua_status
ua_gpu_finish_output(const ua_gpu_launcher *l, run_output *o, ua_typenum a,
                     int nd, const ptrdiff_t *shape, const ptrdiff_t *rstep,
                     char *result, ua_typenum rtype)
{
    if (o->temp == NULL) {
        return UA_OK;
    }
    size_t asz = ua_dtype_itemsize(a), rsz = ua_dtype_itemsize(rtype);
    ptrdiff_t ds[UA_MAXDIMS], ss[UA_MAXDIMS];
    for (int k = 0; k < nd; k++) {
        ds[k] = rstep[k] / (ptrdiff_t)rsz;
        ss[k] = o->rstep[k] / (ptrdiff_t)asz;
    }
    ua_strided d = {result, ds, rtype}, s = {o->temp, ss, a};
    ua_status st = l->ops->copy_strided(l->queue, nd, shape, &d, &s);
    ua_gpu_release(l, o->temp);
    return st;
}

/* A plan's axes for the kernels, on the device. */
ua_status
ua_gpu_upload_reduce_plan(const ua_gpu_launcher *l, int nd,
                          const ptrdiff_t *shape, const ptrdiff_t *xstep,
                          const ptrdiff_t *rstep, void **dev)
{
    long long v[3 * UA_MAXDIMS];
    for (int k = 0; k < nd; k++) {
        v[k] = shape[k];
        v[nd + k] = xstep[k];
        v[2 * nd + k] = rstep[k];
    }
    return ua_gpu_upload_longs(l, v, 3 * (size_t)nd, dev);
}

static long long lane_bytes_env;
static pthread_once_t lane_bytes_once = PTHREAD_ONCE_INIT;

static void
lane_bytes_read(void)
{
    const char *env = getenv("USMARRAY_GPU_LANE_BYTES");
    lane_bytes_env = env != NULL ? atoll(env) : 0;
}

size_t
ua_gpu_lane_bytes(size_t fallback)
{
    pthread_once(&lane_bytes_once, lane_bytes_read);
    return lane_bytes_env >= 4096 ? (size_t)lane_bytes_env : fallback;
}
