/* The scans of the run-time compiled backends (launcher.h): each plan
 * carried out as launches of reduce_kernels.inc's scan kernels through a
 * backend's launcher; the sorts' and groups' passes run them too. */
#include <string.h>

#include "gpu/launch_common.h"

/* Elements a tile of ua_scan_tiles takes (SCAN_TILE for A's size). */
static ptrdiff_t
scan_tile(size_t asz)
{
    return UA_GPU_GROUP * (ptrdiff_t)(64 / asz);
}

/* Parts of a long scan's runs, at most: a group each, in several waves
 * of the device's groups, so that no wave runs nearly empty. */
#define SCAN_GROUPS 8192

/* One launch of ua_scan_tiles: per parts of p tiles per run, each from
 * its prefix (prefixes, pstride apart per run) where given. */
static ua_status
launch_scan_tiles(const ua_gpu_launcher *l, const ua_gpu_types *t,
                  const char *x, char *out, const void *plan, int nd,
                  size_t rows, ptrdiff_t per, ptrdiff_t p, ptrdiff_t n,
                  ptrdiff_t step, ptrdiff_t ostep, int op, int initial,
                  const void *prefixes, ptrdiff_t pstride, bool vec)
{
    ua_gpu_arg a[] = {ptr(x),
                      ptr(out),
                      ptr(plan),
                      i32(nd),
                      i64(per),
                      i64(p),
                      i64(n),
                      i64(step),
                      i64(ostep),
                      i32(op),
                      i32(initial),
                      i32(prefixes != NULL),
                      ptr(prefixes != NULL ? prefixes : x),
                      i64(pstride),
                      i32(vec)};
    return l->ops->launch(l->queue, t, UA_GPU_SCAN_TILES, rows * (size_t)per,
                          a, 15);
}

/* Whether scan_tile may read and write whole tiles as 16-byte vectors:
 * elements of the accumulator's type, dense and aligned in x and in the
 * results, from the results' first element. */
static bool
scan_vectorizes(const ua_gpu_types *t, const run_input *in,
                const run_output *o, int nd, int initial)
{
    size_t asz = ua_dtype_itemsize(t->a);
    return t->x == t->a && !initial && in->step == (ptrdiff_t)asz &&
           o->rstep[nd] == (ptrdiff_t)asz &&
           ua_gpu_aligned(in->x, nd, in->xstep, 0, 16) &&
           ua_gpu_aligned(o->out, nd, o->rstep, 0, 16);
}

/* Long runs in tiles: each run in `per` parts (enough of them to keep the
 * device busy), whose totals (ua_scan_totals) are scanned into the
 * parts' prefixes before each part is scanned from its own. */
static ua_status
scan_in_tiles(const ua_gpu_launcher *l, const ua_gpu_types *t,
              const run_input *in, const run_output *o, const void *plan,
              int nd, size_t rows, ptrdiff_t n, int op, int initial)
{
    bool vec = scan_vectorizes(t, in, o, nd, initial);
    size_t asz = ua_dtype_itemsize(t->a);
    ptrdiff_t tiles = (n + scan_tile(asz) - 1) / scan_tile(asz);
    ptrdiff_t per = (ptrdiff_t)(SCAN_GROUPS / rows);
    per = per < 1 ? 1 : per < tiles ? per : tiles;
    ptrdiff_t p = (tiles + per - 1) / per;
    per = (tiles + p - 1) / p;
    if (per == 1) {
        return launch_scan_tiles(l, t, in->x, o->out, plan, nd, rows, 1, tiles,
                                 n, in->step, o->rstep[nd], op, initial, NULL,
                                 0, vec);
    }
    ua_gpu_types partials = {t->a, t->a, false};
    long long pplan[3] = {(long long)rows, (long long)(per * (ptrdiff_t)asz),
                          (long long)((per + 1) * (ptrdiff_t)asz)};
    void *totals = NULL, *prefixes = NULL, *plan2 = NULL;
    ua_status st =
        l->ops->temporary(l->queue, rows * (size_t)per * asz, &totals);
    st = st == UA_OK ? l->ops->temporary(
                           l->queue, rows * (size_t)(per + 1) * asz, &prefixes)
                     : st;
    st = st == UA_OK ? ua_gpu_upload_longs(l, pplan, 3, &plan2) : st;
    if (st == UA_OK) {
        ua_gpu_arg a[] = {ptr(in->x), ptr(totals), ptr(plan), i32(nd),
                          i64(per),   i64(p),      i64(n),    i64(in->step),
                          i32(op),    i32(vec)};
        st = l->ops->launch(l->queue, t, UA_GPU_SCAN_TOTALS,
                            rows * (size_t)per, a, 10);
    }
    if (st == UA_OK) {
        ptrdiff_t p2 = (per + scan_tile(asz) - 1) / scan_tile(asz);
        st = launch_scan_tiles(l, &partials, totals, prefixes, plan2, 1, rows,
                               1, p2, per, (ptrdiff_t)asz, (ptrdiff_t)asz, op,
                               1, NULL, 0, false);
    }
    if (st == UA_OK) {
        st = launch_scan_tiles(l, t, in->x, o->out, plan, nd, rows, per, p, n,
                               in->step, o->rstep[nd], op, initial, prefixes,
                               per + 1, vec);
    }
    ua_gpu_release(l, plan2);
    ua_gpu_release(l, prefixes);
    ua_gpu_release(l, totals);
    return st;
}

ua_status
ua_gpu_scan_with(const ua_gpu_launcher *l, const ua_scan_plan *p)
{
    ptrdiff_t outlen = p->op == UA_SCAN_DIFF ? p->n - 1 : p->n + p->initial;
    size_t rows = product(p->nd, p->shape);
    if (outlen <= 0 || rows == 0) {
        return UA_OK;
    }
    ua_gpu_types t = {p->xtype, ua_accumulator_of(p->rtype), false};
    run_input in;
    ua_status st = ua_gpu_stage_input(l, &t, t.a, p->nd, p->shape, p->xstep,
                                      p->n, p->step, p->x, &in);
    /* The result's shape with the scanned axis last. */
    int nd = p->nd;
    ptrdiff_t shape[UA_MAXDIMS + 1], rstep[UA_MAXDIMS + 1];
    memcpy(shape, p->shape, sizeof(ptrdiff_t) * (size_t)nd);
    memcpy(rstep, p->rstep, sizeof(ptrdiff_t) * (size_t)nd);
    shape[nd] = outlen;
    rstep[nd] = p->rstep_axis;
    size_t asz = ua_dtype_itemsize(t.a);
    run_output o = {NULL, {0}, NULL};
    st = st == UA_OK ? ua_gpu_prepare_output(l, p->rtype == t.a, asz, nd + 1,
                                             shape, rstep, p->result, &o)
                     : st;
    void *plan = NULL;
    st = st == UA_OK ? ua_gpu_upload_reduce_plan(l, nd, p->shape, in.xstep,
                                                 o.rstep, &plan)
                     : st;
    if (st == UA_OK) {
        int op = p->op == UA_SCAN_CUMSUM      ? 0
                 : p->op == UA_SCAN_CUMPROD   ? 1
                 : p->op == UA_SCAN_LOGSUMEXP ? 3
                                              : 2;
        /* Runs of more than a tile with too few of them to fill the
         * device in sequence go in tiles; float16 results round each
         * step as NumPy's loops do, which only a sequence gives; a
         * cumulative logaddexp runs in sequence, NumPy's order, too. */
        bool tiled = op < 2 && p->rtype != UA_FLOAT16 && rows < 65536 &&
                     p->n > scan_tile(ua_dtype_itemsize(t.a));
        ua_gpu_arg a[] = {ptr(in.x),
                          ptr(o.out),
                          ptr(plan),
                          i32(nd),
                          i64((long long)rows),
                          i64(p->n),
                          i64(in.step),
                          i64(o.rstep[nd]),
                          i32(op),
                          i32(p->initial),
                          i32(p->rtype == UA_FLOAT16)};
        st = tiled ? scan_in_tiles(l, &t, &in, &o, plan, nd, rows, p->n, op,
                                   p->initial)
                   : l->ops->launch(l->queue, &t, UA_GPU_SCAN_ROWS,
                                    groups_for(rows), a, 11);
    }
    ua_gpu_release(l, plan);
    ua_gpu_release(l, in.staged);
    if (st != UA_OK) {
        ua_gpu_release(l, o.temp);
        return st;
    }
    return ua_gpu_finish_output(l, &o, t.a, nd + 1, shape, rstep, p->result,
                                p->rtype);
}

ua_status
ua_gpu_scan(void *queue, const ua_scan_plan *p)
{
    ua_gpu_launcher l = ua_gpu_bind(queue);
    return ua_gpu_scan_with(&l, p);
}
