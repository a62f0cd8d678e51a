/* The copies that the manipulation functions enqueue: batches on one
 * queue, not waited for, copies with their axes of length 1 left out, and
 * flat ranges of strided arrays in C order as blocks. */
#include "python/base/pyheaders.h"
#include "python/base/errors.h"
#include "python/base/gil.h"
#include "python/base/objects.h"
#include "python/base/state.h"
#include "python/types/arrays.h"
#include "python/namespace/block_copies.h"

/* ------------------------------------------------------------- copying */

ua_py_batch
ua_py_batch_begin(PyObject *out)
{
    size_t bytes = (size_t)ua_py_array_size(out) * ua_py_array_itemsize(out);
    return (ua_py_batch){
        queue_of_array(out), UA_OK, ua_py_release_if_long(bytes), 0, {{0}}};
}

static void
flush_blocks(ua_py_batch *b)
{
    if (b->code == UA_OK && b->pending > 0) {
        b->code = ua_queue_memcpy_batch(b->queue, b->pending, b->blocks);
    }
    b->pending = 0;
}

void
ua_py_batch_copy(ua_py_batch *b, int nd, const Py_ssize_t *shape,
                 const ua_strided *dst, const ua_strided *src)
{
    ua_copy_block block;
    if (b->code != UA_OK) {
        return;
    }
    if (!ua_copy_as_block(nd, shape, dst, src, &block)) {
        flush_blocks(b);
        b->code = b->code == UA_OK
                      ? ua_queue_copy_strided(b->queue, nd, shape, dst, src)
                      : b->code;
        return;
    }
    if (block.bytes > 0) {
        b->blocks[b->pending++] = block;
    }
    if (b->pending == UA_PY_BATCH_BLOCKS) {
        flush_blocks(b);
    }
}

PyObject *
ua_py_batch_end(ua_state *st, ua_py_batch *b, PyObject *out)
{
    /* No wait: the copies run in the queue's order, as all later work on
     * it does (docs/architecture.rst, "Asynchrony"); the pool hands out what
     * they read only to work ordered after them. */
    flush_blocks(b);
    ua_status code = b->code;
    ua_py_reacquire(b->saved);
    if (code != UA_OK) {
        Py_DECREF(out);
        return ua_py_raise_core(st, code);
    }
    return out;
}

bool
ua_py_add_axis(ua_py_copy_axes *c, Py_ssize_t n, Py_ssize_t src,
               Py_ssize_t dst)
{
    if (n == 1) {
        return true;
    }
    if (c->nd == UA_MAXDIMS) {
        return false;
    }
    c->shape[c->nd] = n;
    c->src[c->nd] = src;
    c->dst[c->nd++] = dst;
    return true;
}

void
ua_py_copy_of(ua_py_batch *b, const ua_py_copy_axes *c, char *dst, char *src,
              ua_typenum dt, ua_typenum st)
{
    ua_strided d = {dst, c->dst, dt}, s = {src, c->src, st};
    ua_py_batch_copy(b, c->nd, c->shape, &d, &s);
}

/* ---------------------------------------------- flat ranges as blocks */

void
ua_py_flat_init(ua_py_flat_copy *f, ua_py_batch *b, PyObject *x, PyObject *out)
{
    int nd = ARR(x)->nd;
    f->b = b;
    f->x = x;
    f->dst = ARR(out)->data;
    f->times = 1;
    f->isz = (Py_ssize_t)ua_py_array_itemsize(out);
    f->failed = false;
    f->inner[nd] = 1;
    for (int k = nd - 1; k >= 0; k--) {
        f->inner[k] = f->inner[k + 1] * ARR(x)->shape[k];
    }
}

/* Elements [i, i + count) of axis d, the axes below whole, at element
 * offset `off` of x, written from flat position `at` of out. */
static void
flat_block(ua_py_flat_copy *f, int d, Py_ssize_t count, Py_ssize_t off,
           Py_ssize_t at)
{
    PyUSMArrayObject *x = ARR(f->x);
    ua_py_copy_axes c = {0};
    bool ok =
        ua_py_add_axis(&c, count, x->strides[d], f->inner[d + 1] * f->times);
    for (int k = d + 1; ok && k < x->nd; k++) {
        ok = ua_py_add_axis(&c, x->shape[k], x->strides[k],
                            f->inner[k + 1] * f->times);
    }
    ok = ok && ua_py_add_axis(&c, f->times, 0, 1);
    if (!ok) {
        f->failed = true;
        return;
    }
    Py_ssize_t sz = (Py_ssize_t)ua_py_array_itemsize(f->x);
    ua_py_copy_of(f->b, &c, f->dst + at * f->isz, x->data + off * sz,
                  (ua_typenum)ARR(f->x)->typenum, (ua_typenum)x->typenum);
}

/* Positions [lo, hi) of the sub-array below axis d that starts at
 * element offset `off` of x, written from position `at` of out. */
static void
flat_range(ua_py_flat_copy *f, int d, Py_ssize_t off, Py_ssize_t lo,
           Py_ssize_t hi, Py_ssize_t at)
{
    if (lo >= hi) {
        return;
    }
    Py_ssize_t in = f->inner[d + 1], stride = ARR(f->x)->strides[d];
    Py_ssize_t ilo = lo / in, ihi = hi / in;
    Py_ssize_t start = at; /* where position lo goes */
    if (lo % in == 0 && hi % in == 0) {
        flat_block(f, d, ihi - ilo, off + ilo * stride, start);
        return;
    }
    if (ilo == ihi) {
        flat_range(f, d + 1, off + ilo * stride, lo - ilo * in, hi - ilo * in,
                   start);
        return;
    }
    if (lo % in != 0) {
        flat_range(f, d + 1, off + ilo * stride, lo - ilo * in, in, start);
        ilo++;
    }
    Py_ssize_t mid = start + (ilo * in - lo) * f->times;
    if (ihi > ilo) {
        flat_block(f, d, ihi - ilo, off + ilo * stride, mid);
    }
    if (hi % in != 0) {
        flat_range(f, d + 1, off + ihi * stride, 0, hi - ihi * in,
                   start + (ihi * in - lo) * f->times);
    }
}

void
ua_py_flat_copy_range(ua_py_flat_copy *f, Py_ssize_t lo, Py_ssize_t hi,
                      Py_ssize_t times, Py_ssize_t at)
{
    f->times = times;
    if (ARR(f->x)->nd == 0) {
        ua_py_copy_axes c = {0};
        ua_py_add_axis(&c, times, 0, 1);
        ua_py_copy_of(f->b, &c, f->dst + at * f->isz, ARR(f->x)->data,
                      (ua_typenum)ARR(f->x)->typenum,
                      (ua_typenum)ARR(f->x)->typenum);
        return;
    }
    flat_range(f, 0, 0, lo, hi, at);
}

PyObject *
ua_py_flat_end(ua_state *st, ua_py_flat_copy *f, PyObject *out)
{
    out = ua_py_batch_end(st, f->b, out);
    if (out != NULL && f->failed) {
        Py_CLEAR(out);
        PyErr_SetString(PyExc_ValueError,
                        "a block of the copy needs more axes than can be "
                        "addressed");
    }
    return out;
}
