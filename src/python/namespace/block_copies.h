/* block_copies.c: the copies that the manipulation functions enqueue. */
#ifndef UA_PY_BLOCK_COPIES_H
#define UA_PY_BLOCK_COPIES_H

#include "python/base/pyheaders.h"
#include "python/base/state.h"

/* The copies of one call into its new result, enqueued on the result's
 * queue and not waited for; the first failure stops the rest.  They read
 * only the call's inputs, so the dense ones wait to go in one launch
 * (ua_queue_memcpy_batch). */
#define UA_PY_BATCH_BLOCKS 64
typedef struct {
    ua_queue *queue;
    ua_status code;
    PyThreadState *saved;
    size_t pending;
    ua_copy_block blocks[UA_PY_BATCH_BLOCKS];
} ua_py_batch;

/* The axes of one copy: lengths and steps (elements) on each side, with
 * axes of length 1 left out. */
typedef struct {
    int nd;
    Py_ssize_t shape[UA_MAXDIMS], src[UA_MAXDIMS], dst[UA_MAXDIMS];
} ua_py_copy_axes;

/* Copies of the elements of x in C order from flat position lo to hi,
 * each repeated `times` times, into the C-contiguous elements of out from
 * `at` on.  A range of a strided array is at most 2 * nd blocks, each of
 * them the trailing axes whole below one partial axis: one copy each. */
typedef struct {
    ua_py_batch *b;
    PyObject *x;
    char *dst;
    Py_ssize_t times, isz;
    Py_ssize_t inner[UA_MAXDIMS + 1]; /* elements below each axis */
    bool failed;                      /* a block needed too many axes */
} ua_py_flat_copy;

/* Starts a batch filling out; the GIL is let go when the result is large,
 * so nothing between here and ua_py_batch_end may touch a Python object
 * (reading the fields of arrays the caller holds is fine). */
ua_py_batch ua_py_batch_begin(PyObject *out);
void ua_py_batch_copy(ua_py_batch *b, int nd, const Py_ssize_t *shape,
                      const ua_strided *dst, const ua_strided *src);
/* Waits for the batch and takes the GIL back: out, or NULL (out released)
 * with the first error raised. */
PyObject *ua_py_batch_end(ua_state *st, ua_py_batch *b, PyObject *out);
/* Adds an axis of n elements (none for n == 1); false when a copy would
 * need more than UA_MAXDIMS axes, which only more than 2**64 elements
 * could. */
bool ua_py_add_axis(ua_py_copy_axes *c, Py_ssize_t n, Py_ssize_t src,
                    Py_ssize_t dst);
/* Enqueues the copy c describes, from src (type st) to dst (type dt). */
void ua_py_copy_of(ua_py_batch *b, const ua_py_copy_axes *c, char *dst,
                   char *src, ua_typenum dt, ua_typenum st);
/* Starts copies of x's flat ranges into out, in batch b. */
void ua_py_flat_init(ua_py_flat_copy *f, ua_py_batch *b, PyObject *x,
                     PyObject *out);
/* Flat positions [lo, hi) of x, each `times` times, from `at` of out. */
void ua_py_flat_copy_range(ua_py_flat_copy *f, Py_ssize_t lo, Py_ssize_t hi,
                           Py_ssize_t times, Py_ssize_t at);
/* ua_py_batch_end, which also reports a block of too many axes. */
PyObject *ua_py_flat_end(ua_state *st, ua_py_flat_copy *f, PyObject *out);

#endif
