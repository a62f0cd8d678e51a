/* The sorts, searches, groups and matrix products of the run-time
 * compiled backends (launcher.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/launch_common.h"

/* ---------------------------------------------------------- sorting */

static ua_gpu_types
order_types(ua_typenum type)
{
    return (ua_gpu_types){type, ua_accumulator_of(type), false};
}

ua_gpu_program
ua_gpu_group_program(ua_typenum type)
{
    return (ua_gpu_program){order_types(type), UA_GPU_F_GROUP, -1, -1};
}

/* Elements a group of the radix sort's kernels takes (RTILE): 2,048 of
 * up to 4 bytes, 1,024 of 8. */
static ptrdiff_t
radix_tile(size_t isz)
{
    return isz < 8 ? 2048 : 1024;
}

/* The exclusive scan of each row's digit counts (n of them, int64) into
 * offsets (n + 1 per row). */
static ua_status
scan_counts(const ua_gpu_launcher *l, const long long *counts,
            long long *offsets, ptrdiff_t rows, ptrdiff_t n)
{
    ua_scan_plan s;
    memset(&s, 0, sizeof s);
    s.op = UA_SCAN_CUMSUM;
    s.nd = 1;
    s.shape[0] = rows;
    s.xstep[0] = n * 8;
    s.rstep[0] = (n + 1) * 8;
    s.n = n;
    s.step = 8;
    s.rstep_axis = 8;
    s.initial = 1;
    s.x = (const char *)counts;
    s.result = (char *)offsets;
    s.xtype = s.rtype = UA_INT64;
    return ua_gpu_scan_with(l, &s);
}

/* One pass of the radix sort: the digit at shift of keys and indices
 * from kin, iin into kout, iout. */
static ua_status
radix_pass(const ua_gpu_launcher *l, const ua_gpu_types *t,
           const ua_sort_plan *p, ptrdiff_t tiles, void *const bufs[6],
           int shift, int from)
{
    size_t groups = (size_t)p->rows * (size_t)tiles;
    void *kin = bufs[from], *kout = bufs[1 - from];
    void *iin = bufs[2 + from], *iout = bufs[3 - from];
    ua_gpu_arg h[] = {ptr(kin), ptr(bufs[4]), i64(p->n), i64(tiles),
                      i32(shift)};
    ua_status st =
        l->ops->launch(l->queue, t, UA_GPU_RADIX_HIST, groups, h, 5);
    st = st == UA_OK ? scan_counts(l, bufs[4], bufs[5], p->rows, 256 * tiles)
                     : st;
    if (st == UA_OK) {
        ua_gpu_arg a[] = {ptr(kin),     ptr(iin),  ptr(kout),  ptr(iout),
                          ptr(bufs[5]), i64(p->n), i64(tiles), i32(shift)};
        st = l->ops->launch(l->queue, t, UA_GPU_RADIX_SCATTER, groups, a, 8);
    }
    return st;
}

/* Sorts of real and integer elements: the LSD radix sort of
 * reduce_kernels.inc, a pass per byte of the keys, then the values (from
 * a copy of the rows) and indices in their sorted order. */
static ua_status
radix_sort(const ua_gpu_launcher *l, const ua_gpu_types *t,
           const ua_sort_plan *p)
{
    size_t total = (size_t)p->rows * (size_t)p->n;
    size_t isz = ua_dtype_itemsize(p->type), ksz = isz < 8 ? 4 : 8;
    int passes = (int)(isz < 8 ? isz : 8);
    ptrdiff_t tiles = (p->n + radix_tile(isz) - 1) / radix_tile(isz);
    size_t ncounts = (size_t)p->rows * 256 * (size_t)tiles;
    /* keys twice, indices twice, counts, offsets, the rows' copy */
    void *bufs[7] = {NULL};
    size_t sizes[7] = {total * ksz, total * ksz, total * 8,
                       total * 8,   ncounts * 8, (ncounts + p->rows) * 8,
                       total * isz};
    ua_status st = UA_OK;
    for (int i = 0; st == UA_OK && i < 7; i++) {
        st = l->ops->temporary(l->queue, sizes[i], &bufs[i]);
    }
    if (st == UA_OK) {
        ua_gpu_arg a[] = {ptr(p->data), ptr(bufs[0]),
                          ptr(bufs[2]), i64((long long)total),
                          i64(p->n),    i32(p->descending)};
        st = l->ops->launch(l->queue, t, UA_GPU_RADIX_KEYS, groups_for(total),
                            a, 6);
    }
    int from = 0;
    for (int pass = 0; st == UA_OK && pass < passes; pass++, from ^= 1) {
        st = radix_pass(l, t, p, tiles, bufs, 8 * pass, from);
    }
    if (st == UA_OK) {
        ptrdiff_t one = 1, n = (ptrdiff_t)total;
        ua_strided d = {bufs[6], &one, p->type}, s = {p->data, &one, p->type};
        st = l->ops->copy_strided(l->queue, 1, &n, &d, &s);
    }
    if (st == UA_OK) {
        ua_gpu_arg a[] = {ptr(bufs[6]),
                          ptr(bufs[2 + from]),
                          ptr(p->data),
                          ptr(p->index != NULL ? (void *)p->index : p->data),
                          i64((long long)total),
                          i64(p->n),
                          i32(1),
                          i32(p->index != NULL)};
        st = l->ops->launch(l->queue, t, UA_GPU_RADIX_FINISH,
                            groups_for(total), a, 8);
    }
    for (int i = 0; i < 7; i++) {
        ua_gpu_release(l, bufs[i]);
    }
    return st;
}

static ua_status
sort_with(const ua_gpu_launcher *l, const ua_sort_plan *p)
{
    ua_gpu_types t = order_types(p->type);
    size_t total = (size_t)p->rows * (size_t)p->n;
    if (total == 0) {
        return UA_OK;
    }
    /* Rows of a tile or more: shorter ones would count 256 digits a tile
     * for fewer keys (memory and passes growing with the rows). */
    if (p->n >= radix_tile(ua_dtype_itemsize(p->type)) &&
        ua_dtype_kind(p->type) != 'c') {
        return radix_sort(l, &t, p);
    }
    ua_status st = UA_OK;
    if (p->index != NULL) {
        ua_gpu_arg a[] = {ptr(p->index), i64(p->rows), i64(p->n)};
        st =
            l->ops->launch(l->queue, &t, UA_GPU_IOTA, groups_for(total), a, 3);
    }
    if (st != UA_OK || p->n < 2) {
        return st;
    }
    size_t isz = ua_dtype_itemsize(p->type);
    void *tmp = NULL, *itmp = NULL;
    st = l->ops->temporary(l->queue, total * isz, &tmp);
    if (st == UA_OK && p->index != NULL) {
        st = l->ops->temporary(l->queue, total * 8, &itmp);
    }
    char *src = p->data, *dst = tmp;
    int64_t *isrc = p->index, *idst = itmp;
    for (ptrdiff_t w = 1; st == UA_OK && w < p->n; w *= 2) {
        ua_gpu_arg a[] = {ptr(src),
                          ptr(dst),
                          i32(p->index != NULL),
                          ptr(isrc != NULL ? (void *)isrc : src),
                          ptr(idst != NULL ? (void *)idst : dst),
                          i64(p->rows),
                          i64(p->n),
                          i64(w),
                          i32(p->descending)};
        st = l->ops->launch(l->queue, &t, UA_GPU_MERGE, groups_for(total), a,
                            9);
        char *ts = src;
        src = dst;
        dst = ts;
        int64_t *ti = isrc;
        isrc = idst;
        idst = ti;
    }
    if (st == UA_OK && src != p->data) {
        ptrdiff_t one = 1, n = (ptrdiff_t)total;
        ua_strided d = {p->data, &one, p->type}, s = {src, &one, p->type};
        st = l->ops->copy_strided(l->queue, 1, &n, &d, &s);
        if (st == UA_OK && p->index != NULL) {
            ua_strided di = {(char *)p->index, &one, UA_INT64};
            ua_strided si = {(char *)isrc, &one, UA_INT64};
            st = l->ops->copy_strided(l->queue, 1, &n, &di, &si);
        }
    }
    ua_gpu_release(l, tmp);
    ua_gpu_release(l, itmp);
    return st;
}

static ua_status
search_with(const ua_gpu_launcher *l, const ua_search_plan *p)
{
    if (p->m == 0) {
        return UA_OK;
    }
    ua_gpu_types t = order_types(p->type);
    ua_gpu_arg a[] = {ptr(p->n > 0 ? p->sorted : p->needles),
                      i64(p->n),
                      ptr(p->needles),
                      i64(p->m),
                      ptr(p->result),
                      i32((int)p->mode)};
    return l->ops->launch(l->queue, &t, UA_GPU_SEARCH,
                          groups_for((size_t)p->m), a, 6);
}

static ua_status
group_with(const ua_gpu_launcher *l, const ua_group_plan *p, ptrdiff_t *count)
{
    *count = 0;
    if (p->n == 0) {
        return UA_OK;
    }
    ua_gpu_types t = order_types(p->type);
    void *dev = NULL;
    ua_status st = l->ops->temporary(l->queue, 8, &dev);
    if (st != UA_OK) {
        return st;
    }
    ua_gpu_arg a[] = {ptr(p->sorted),
                      i64(p->n),
                      ptr(p->group),
                      i32(p->starts != NULL),
                      ptr(p->starts != NULL ? p->starts : p->group),
                      ptr(dev)};
    st = l->ops->launch(l->queue, &t, UA_GPU_GROUP_RUNS, 1, a, 6);
    long long c = 0;
    st = st == UA_OK ? l->ops->download(l->queue, &c, dev, 8) : st;
    *count = (ptrdiff_t)c;
    ua_gpu_release(l, dev);
    return st;
}

/* --------------------------------------------------------- products */

static ua_status
matmul_with(const ua_gpu_launcher *l, const ua_matmul_plan *p)
{
    size_t batch = product(p->nd, p->shape);
    size_t total = batch * (size_t)p->m * (size_t)p->n;
    if (total == 0) {
        return UA_OK;
    }
    ua_gpu_types t = order_types(p->type);
    size_t asz = ua_dtype_itemsize(t.a), isz = ua_dtype_itemsize(p->type);
    bool direct = t.a == p->type;
    int nd = p->nd;
    /* The whole result's shape (batch, m, n) and steps. */
    ptrdiff_t shape[UA_MAXDIMS + 2], cstep[UA_MAXDIMS + 2];
    memcpy(shape, p->shape, sizeof(ptrdiff_t) * (size_t)nd);
    memcpy(cstep, p->cstep, sizeof(ptrdiff_t) * (size_t)nd);
    shape[nd] = p->m;
    shape[nd + 1] = p->n;
    cstep[nd] = p->cm;
    cstep[nd + 1] = p->cn;
    bool ok = ua_gpu_aligned(p->a, nd, p->astep, p->am, isz) &&
              ua_gpu_aligned(p->a, 0, NULL, p->ak, isz) &&
              ua_gpu_aligned(p->b, nd, p->bstep, p->bk, isz) &&
              ua_gpu_aligned(p->b, 0, NULL, p->bn, isz) &&
              ua_gpu_aligned(p->c, nd, p->cstep, p->cm, isz) &&
              ua_gpu_aligned(p->c, 0, NULL, p->cn, isz);
    if (!ok) {
        return ua_error_set(UA_ERR_VALUE,
                            "matmul on this device needs operands aligned "
                            "to their elements");
    }
    run_output o = {NULL, {0}, NULL};
    ua_status st =
        ua_gpu_prepare_output(l, direct, asz, nd + 2, shape, cstep, p->c, &o);
    long long v[4 * UA_MAXDIMS];
    for (int k = 0; k < nd; k++) {
        v[k] = p->shape[k];
        v[nd + k] = p->astep[k];
        v[2 * nd + k] = p->bstep[k];
        v[3 * nd + k] = o.rstep[k];
    }
    void *plan = NULL;
    st = st == UA_OK ? ua_gpu_upload_longs(l, v, 4 * (size_t)nd, &plan) : st;
    if (st == UA_OK) {
        long long tm = (p->m + 15) / 16, tn = (p->n + 15) / 16;
        ua_gpu_arg a[] = {
            ptr(p->a),     ptr(p->b),  ptr(o.out),       ptr(plan),
            i32(nd),       i64(tm),    i64(tn),          i64(p->m),
            i64(p->n),     i64(p->k),  i64(p->am),       i64(p->ak),
            i64(p->bk),    i64(p->bn), i64(o.rstep[nd]), i64(o.rstep[nd + 1]),
            i32(p->conj_a)};
        /* Tiles of 16 x 16 (the kernel's TILE): a group each. */
        st = l->ops->launch(l->queue, &t, UA_GPU_MATMUL,
                            batch * (size_t)tm * (size_t)tn, a, 17);
    }
    ua_gpu_release(l, plan);
    if (st != UA_OK) {
        ua_gpu_release(l, o.temp);
        return st;
    }
    return ua_gpu_finish_output(l, &o, t.a, nd + 2, shape, cstep, p->c,
                                p->type);
}

ua_status
ua_gpu_sort(void *queue, const ua_sort_plan *p)
{
    ua_gpu_launcher l = ua_gpu_bind(queue);
    return sort_with(&l, p);
}

ua_status
ua_gpu_search(void *queue, const ua_search_plan *p)
{
    ua_gpu_launcher l = ua_gpu_bind(queue);
    return search_with(&l, p);
}

ua_status
ua_gpu_group(void *queue, const ua_group_plan *p, ptrdiff_t *count)
{
    ua_gpu_launcher l = ua_gpu_bind(queue);
    return group_with(&l, p, count);
}

ua_status
ua_gpu_matmul(void *queue, const ua_matmul_plan *p)
{
    ua_gpu_launcher l = ua_gpu_bind(queue);
    return matmul_with(&l, p);
}
