/* Boolean masks by the backend's compress kernel: the coordinates of a
 * mask's true elements (nonzero), and the rows of an array that a mask
 * over its leading axes selects, in one pass. */
#include "python/base/errors.h"
#include "python/types/arrays.h"

#include "core/compute/compute.h"

typedef struct {
    ua_state *st;
    PyObject *like; /* array whose queue and kind the output takes */
    int nd;
    Py_ssize_t shape[UA_MAXDIMS]; /* shape[0] is the count */
    ua_typenum type;
    PyObject *out;
} compress_output;

static ua_status
allocate_output(void *ctx, size_t count, char **dst)
{
    compress_output *o = ctx;
    o->shape[0] = (Py_ssize_t)count;
    o->out =
        ua_py_array_empty(o->st, o->nd, o->shape, NULL, o->type, 'C',
                          base_of(o->like)->kind, base_of(o->like)->queue);
    if (o->out == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "the output could not be made");
    }
    *dst = ARR(o->out)->data;
    return UA_OK;
}

/* A C-contiguous copy of a mask, or the mask. */
static PyObject *
dense_mask(ua_state *st, PyObject *mask)
{
    if (ARR(mask)->flags & USM_ARRAY_C_CONTIGUOUS) {
        return Py_NewRef(mask);
    }
    return ua_py_array_copy(st, mask, UA_BOOL, 'C', base_of(mask)->kind,
                            base_of(mask)->queue);
}

/* The compress kernel over mask (dense), writing rows of src or, where
 * src is NULL, coordinates; out_shape after its first axis gives the
 * rows' shape. */
static PyObject *
run_compress(ua_state *st, PyObject *mask, PyObject *like, const char *src,
             Py_ssize_t sstep, int nd, const Py_ssize_t *rest, ua_typenum type)
{
    compress_output o = {st, like, nd, {0}, type, NULL};
    for (int j = 1; j < nd; j++) {
        o.shape[j] = rest[j - 1];
    }
    ua_compress_plan p = {0};
    p.n = (size_t)ua_py_array_size(mask);
    p.mask = (const unsigned char *)ARR(mask)->data;
    p.src = src;
    p.sstep = sstep;
    p.rowbytes = (size_t)sstep;
    p.nd = ARR(mask)->nd;
    for (int j = 0; j < p.nd; j++) {
        p.shape[j] = ARR(mask)->shape[j];
    }
    size_t count;
    ua_status code = ua_queue_compress(queue_of(base_of(mask)->queue), &p,
                                       allocate_output, &o, &count);
    if (code != UA_OK) {
        if (o.out == NULL && PyErr_Occurred()) {
            return NULL;
        }
        Py_XDECREF(o.out);
        return ua_py_raise_core(st, code);
    }
    return o.out;
}

PyObject *
ua_py_mask_coordinates(ua_state *st, PyObject *mask)
{
    PyObject *dense = dense_mask(st, mask);
    if (dense == NULL) {
        return NULL;
    }
    Py_ssize_t k = ARR(mask)->nd;
    PyObject *out = run_compress(st, dense, mask, NULL, 0, 2, &k, UA_INT64);
    Py_DECREF(dense);
    return out;
}

PyObject *
ua_py_mask_rows(ua_state *st, PyObject *self, PyObject *mask)
{
    int m = ARR(mask)->nd;
    PyObject *dense = dense_mask(st, mask);
    if (dense == NULL) {
        return NULL;
    }
    Py_ssize_t row = (Py_ssize_t)ua_py_array_itemsize(self);
    for (int j = m; j < ARR(self)->nd; j++) {
        row *= ARR(self)->shape[j];
    }
    PyObject *out = run_compress(st, dense, self, ARR(self)->data, row,
                                 1 + ARR(self)->nd - m, ARR(self)->shape + m,
                                 (ua_typenum)ARR(self)->typenum);
    Py_DECREF(dense);
    return out;
}
