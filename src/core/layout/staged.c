/* Strided copies through a backend's kernels (ua_kernel_copier): one
 * kernel where both sides are reachable; a dense temporary between two
 * kernels where the sides overlap; where one side is pageable host memory,
 * a kernel to or from the queue's staging buffer, which the host packs or
 * unpacks; and a host copy where neither side is reachable. */
#include <stdio.h>
#include <string.h>

#include "core/backend.h"
#include "core/core.h"

static ptrdiff_t
magnitude(ptrdiff_t x)
{
    return x < 0 ? -x : x;
}

int
ua_copy_plan_tile_axis(const ua_copy_plan *p, size_t src_itemsize,
                       ptrdiff_t min_length)
{
    int last = p->nd - 1;
    ptrdiff_t dense = (ptrdiff_t)src_itemsize;
    if (p->nd < 2 || magnitude(p->sstep[last]) == dense ||
        p->shape[last] < min_length) {
        return -1;
    }
    for (int k = 0; k < last; k++) {
        if (magnitude(p->sstep[k]) == dense && p->shape[k] >= min_length) {
            return k;
        }
    }
    return -1;
}

/* Dense steps, in plan order, for elements of size `size`; returns the
 * bytes they span.  Axes a source broadcasts (step 0 in `broadcast`, when
 * given) stay 0 and are packed once. */
static size_t
dense_steps(const ua_copy_plan *p, const ptrdiff_t *broadcast, size_t size,
            ptrdiff_t *out)
{
    size_t n = size;
    for (int k = p->nd - 1; k >= 0; k--) {
        bool once = broadcast != NULL && broadcast[k] == 0;
        out[k] = once ? 0 : (ptrdiff_t)n;
        n *= once ? 1 : (size_t)p->shape[k];
    }
    return n;
}

/* A host copy of a plan whose steps are in bytes; `pack` copies a
 * broadcast axis of the source once. */
static ua_status
host_copy_plan(const ua_copy_plan *p, char *dst, const ptrdiff_t *dstep,
               ua_typenum dt, const char *src, const ptrdiff_t *sstep,
               ua_typenum stype, bool pack)
{
    ptrdiff_t shape[UA_MAXDIMS], ds[UA_MAXDIMS], ss[UA_MAXDIMS];
    ptrdiff_t dsz = (ptrdiff_t)ua_dtype_itemsize(dt);
    ptrdiff_t ssz = (ptrdiff_t)ua_dtype_itemsize(stype);
    for (int k = 0; k < p->nd; k++) {
        shape[k] = pack && sstep[k] == 0 ? 1 : p->shape[k];
        ds[k] = dstep[k] / dsz;
        ss[k] = sstep[k] / ssz;
    }
    ua_strided d = {dst, ds, dt}, s = {(char *)src, ss, stype};
    return ua_copy_strided_host(p->nd, shape, &d, &s);
}

static ua_status
launch(const ua_kernel_copier *k, const ua_copy_plan *p, ua_typenum dt,
       void *dst, ua_typenum st, const void *src)
{
    return k->launch(k->queue, p, dt, dst, st, src);
}

/* Pageable source: pack it into the staging buffer, then a kernel. */
static ua_status
copy_from_pageable(const ua_kernel_copier *k, const ua_copy_plan *p,
                   const ua_strided *dst, const ua_strided *src)
{
    ptrdiff_t packed[UA_MAXDIMS];
    size_t bytes =
        dense_steps(p, p->sstep, ua_dtype_itemsize(src->type), packed);
    void *stage = NULL;
    ua_status st = k->staging(k->queue, bytes, &stage);
    if (st == UA_OK) {
        st = host_copy_plan(p, stage, packed, src->type, src->data, p->sstep,
                            src->type, true);
    }
    if (st == UA_OK) {
        ua_copy_plan staged = *p;
        memcpy(staged.sstep, packed, sizeof(ptrdiff_t) * (size_t)p->nd);
        st = launch(k, &staged, dst->type, dst->data, src->type, stage);
    }
    /* The buffer is idle again once the lock is given back. */
    ua_status done = k->synchronize(k->queue);
    return st != UA_OK ? st : done;
}

/* Pageable destination: a kernel into the staging buffer, then unpack. */
static ua_status
copy_to_pageable(const ua_kernel_copier *k, const ua_copy_plan *p,
                 const ua_strided *dst, const ua_strided *src)
{
    ptrdiff_t packed[UA_MAXDIMS];
    size_t bytes = dense_steps(p, NULL, ua_dtype_itemsize(dst->type), packed);
    void *stage = NULL;
    ua_status st = k->staging(k->queue, bytes, &stage);
    if (st == UA_OK) {
        ua_copy_plan staged = *p;
        memcpy(staged.dstep, packed, sizeof(ptrdiff_t) * (size_t)p->nd);
        st = launch(k, &staged, dst->type, stage, src->type, src->data);
    }
    ua_status done = k->synchronize(k->queue);
    if (st == UA_OK && (st = done) == UA_OK) {
        st = host_copy_plan(p, dst->data, p->dstep, dst->type, stage, packed,
                            dst->type, false);
    }
    return st;
}

/* Overlapping data: through a dense temporary. */
static ua_status
copy_overlapping(const ua_kernel_copier *k, const ua_copy_plan *p,
                 const ua_strided *dst, const ua_strided *src)
{
    ptrdiff_t packed[UA_MAXDIMS];
    size_t bytes =
        dense_steps(p, p->sstep, ua_dtype_itemsize(src->type), packed);
    void *t = NULL;
    ua_status st = k->temporary(k->queue, bytes, &t);
    if (st != UA_OK) {
        return st;
    }
    ua_copy_plan first = *p, second = *p;
    memcpy(first.dstep, packed, sizeof(ptrdiff_t) * (size_t)p->nd);
    memcpy(second.sstep, packed, sizeof(ptrdiff_t) * (size_t)p->nd);
    st = launch(k, &first, src->type, t, src->type, src->data);
    if (st == UA_OK) {
        st = launch(k, &second, dst->type, dst->data, src->type, t);
    }
    k->release_temporary(k->queue, t);
    return st;
}

ua_status
ua_copy_with_kernels(const ua_kernel_copier *k, int nd, const ptrdiff_t *shape,
                     const ua_copy_plan *p, const ua_strided *dst,
                     const ua_strided *src, bool dst_reached, bool src_reached)
{
    if (dst_reached && src_reached) {
        return ua_copy_overlaps(nd, shape, dst, src)
                   ? copy_overlapping(k, p, dst, src)
                   : launch(k, p, dst->type, dst->data, src->type, src->data);
    }
    if (!dst_reached && !src_reached) {
        ua_status st = k->synchronize(k->queue);
        return st != UA_OK ? st : ua_copy_strided_host(nd, shape, dst, src);
    }
    pthread_mutex_lock(k->staging_lock);
    ua_status st = dst_reached ? copy_from_pageable(k, p, dst, src)
                               : copy_to_pageable(k, p, dst, src);
    pthread_mutex_unlock(k->staging_lock);
    return st;
}

/* ------------------------------------------- generated conversions */

static bool
is_complex(ua_typenum t)
{
    return ua_dtype_kind(t) == 'c';
}

static bool
is_floating(ua_typenum t)
{
    return ua_dtype_kind(t) == 'f' || is_complex(t);
}

void
ua_kernel_conversion(const ua_kernel_dialect *d, ua_typenum dst,
                     ua_typenum src, char *out, size_t len)
{
    /* The source as a real number; a complex source gives its real part. */
    char x[64];
    if (src == UA_FLOAT16) {
        snprintf(x, sizeof(x), "%s(v)", d->half_to_real);
    } else {
        snprintf(x, sizeof(x), "v%s%s", is_complex(src) ? "." : "",
                 is_complex(src) ? d->re : "");
    }
    if (dst == src) {
        snprintf(out, len, "return v;");
    } else if (dst == UA_BOOL && is_complex(src)) {
        snprintf(out, len, "return (D)(v.%s != 0 || v.%s != 0);", d->re,
                 d->im);
    } else if (dst == UA_BOOL) {
        snprintf(out, len, "return (D)(%s);",
                 src == UA_FLOAT16 ? "(v & 0x7fff) != 0" : "v != 0");
    } else if (dst == UA_FLOAT16) {
        snprintf(out, len, "return %s((%s)(%s));", d->real_to_half, d->real,
                 x);
    } else if (is_complex(dst)) {
        const char *part = dst == UA_COMPLEX64 ? "float" : "double";
        char im[64] = "0";
        if (is_complex(src)) {
            snprintf(im, sizeof(im), "(%s)v.%s", part, d->im);
        }
        snprintf(out, len, "D r; r.%s = (%s)(%s); r.%s = %s; return r;", d->re,
                 part, x, d->im, im);
    } else if (!is_floating(dst) && is_floating(src)) {
        snprintf(out, len, "return (D)%s((%s)(%s));",
                 dst == UA_UINT64 ? d->real_to_u64 : d->real_to_i64, d->real,
                 x);
    } else {
        snprintf(out, len, "return (D)(%s);", x);
    }
}
