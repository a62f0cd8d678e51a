/* The host's elementwise driver: walks a plan's outer axes and runs the
 * inner loop of the function and computation type along the innermost
 * one, in blocks.  An operand already dense in its register type is read
 * where it lies; any other (another dtype, float16, strided, unaligned)
 * is first cast into a block on the stack by the copy engine, never into
 * a temporary array, and a result likewise written back. */
#include <stdalign.h>
#include <string.h>

#include "backends/host/host_elementwise.h"
#include "core/compute/compute.h"

/* Elements per block: the operands' blocks stay in L1. */
#define BLOCK 512

static const ua_host_ew_loop *
table_of(ua_typenum t)
{
    switch (t) {
#define UA_HOST_EW_CASE_(E, NUM, CODE, ...)                                   \
    case E:                                                                   \
        return ua_host_ew_##CODE;
        UA_DTYPES(UA_HOST_EW_CASE_)
#undef UA_HOST_EW_CASE_
    }
    return NULL;
}

/* float16 is computed in float32. */
static ua_typenum
register_type(ua_typenum t)
{
    return t == UA_FLOAT16 ? UA_FLOAT32 : t;
}

typedef struct {
    alignas(16) unsigned char bytes[BLOCK * 16];
} block;

typedef struct {
    const ua_elementwise_plan *p;
    ua_host_ew_loop loop;
    ua_typenum slot[UA_EW_MAX_OPERANDS]; /* register types */
    ua_typenum out_reg;
    block buf[UA_EW_MAX_OPERANDS + 1];
} walk;

static bool
aligned_for(const char *ptr, ptrdiff_t step, ua_typenum t)
{
    size_t size = ua_dtype_itemsize(t);
    size_t align = size > 8 ? 8 : size;
    return ((uintptr_t)ptr % align) == 0 && step % (ptrdiff_t)align == 0;
}

/* 1-D strided view of n elements at ptr, step bytes apart, as the copy
 * engine takes it (strides in elements; steps are whole elements). */
static ua_status
cast_run(char *dst, ua_typenum dt, ptrdiff_t dstep, const char *src,
         ua_typenum st, ptrdiff_t sstep, ptrdiff_t n)
{
    ptrdiff_t ds = dstep / (ptrdiff_t)ua_dtype_itemsize(dt);
    ptrdiff_t ss = sstep / (ptrdiff_t)ua_dtype_itemsize(st);
    ua_strided d = {dst, &ds, dt}, s = {(char *)src, &ss, st};
    return ua_copy_strided_host(1, &n, &d, &s);
}

/* Operand k's n elements from src (step bytes apart) as the inner loop
 * reads them: *ptr and *dense (1, or 0 for one value). */
static ua_status
load(walk *w, int k, const char *src, ptrdiff_t step, ptrdiff_t n, char **ptr,
     ptrdiff_t *dense)
{
    ua_typenum t = w->p->in_type[k], r = w->slot[k];
    ptrdiff_t size = (ptrdiff_t)ua_dtype_itemsize(t);
    *dense = step != 0;
    if (t == r && (step == 0 || step == size) && aligned_for(src, 0, t)) {
        *ptr = (char *)src;
        return UA_OK;
    }
    *ptr = (char *)w->buf[k].bytes;
    return cast_run(*ptr, r, (ptrdiff_t)ua_dtype_itemsize(r), src, t, step,
                    step == 0 ? 1 : n);
}

/* One run of n elements along the innermost axis. */
static ua_status
run(walk *w, char *out, const char *const *in, ptrdiff_t n)
{
    const ua_elementwise_plan *p = w->p;
    int last = p->nd - 1;
    ptrdiff_t ostep = last >= 0 ? p->ostep[last] : 0;
    for (ptrdiff_t done = 0; done < n; done += BLOCK) {
        ptrdiff_t m = n - done < BLOCK ? n - done : BLOCK;
        char *args[UA_EW_MAX_OPERANDS] = {NULL};
        ptrdiff_t dense[UA_EW_MAX_OPERANDS] = {0};
        for (int k = 0; k < p->nin; k++) {
            ptrdiff_t step = last >= 0 ? p->istep[k][last] : 0;
            ua_status st =
                load(w, k, in[k] + done * step, step, m, &args[k], &dense[k]);
            if (st != UA_OK) {
                return st;
            }
        }
        char *o = out + done * ostep;
        ptrdiff_t osize = (ptrdiff_t)ua_dtype_itemsize(p->out_type);
        if (p->out_type == w->out_reg && (ostep == osize || m == 1) &&
            aligned_for(o, 0, p->out_type)) {
            w->loop(o, args, dense, m);
            continue;
        }
        char *tmp = (char *)w->buf[UA_EW_MAX_OPERANDS].bytes;
        w->loop(tmp, args, dense, m);
        ua_status st = cast_run(o, p->out_type, ostep, tmp, w->out_reg,
                                (ptrdiff_t)ua_dtype_itemsize(w->out_reg), m);
        if (st != UA_OK) {
            return st;
        }
    }
    return UA_OK;
}

/* Every run of the plan: the outer axes counted as an odometer. */
static ua_status
walk_plan(walk *w)
{
    const ua_elementwise_plan *p = w->p;
    int outer = p->nd > 0 ? p->nd - 1 : 0;
    ptrdiff_t inner = p->nd > 0 ? p->shape[p->nd - 1] : 1;
    ptrdiff_t idx[UA_MAXDIMS] = {0};
    char *out = p->out;
    const char *in[UA_EW_MAX_OPERANDS];
    for (int k = 0; k < p->nin; k++) {
        in[k] = p->scalar[k] ? (const char *)p->value[k].bytes : p->in[k];
    }
    for (;;) {
        ua_status st = run(w, out, in, inner);
        if (st != UA_OK) {
            return st;
        }
        int j = outer - 1;
        for (; j >= 0; j--) {
            out += p->ostep[j];
            for (int k = 0; k < p->nin; k++) {
                in[k] += p->istep[k][j];
            }
            if (++idx[j] < p->shape[j]) {
                break;
            }
            out -= p->ostep[j] * p->shape[j];
            for (int k = 0; k < p->nin; k++) {
                in[k] -= p->istep[k][j] * p->shape[j];
            }
            idx[j] = 0;
        }
        if (j < 0) {
            return UA_OK;
        }
    }
}

ua_status
ua_host_elementwise(void *queue, const ua_elementwise_plan *p)
{
    (void)queue;
    walk w;
    w.p = p;
    w.loop = table_of(p->compute)[p->function];
    if (w.loop == NULL) {
        return ua_error_set(UA_ERR_TYPE, "%s() has no loop for dtype %s",
                            ua_ew_name(p->function),
                            ua_dtype_name(p->compute));
    }
    for (int k = 0; k < p->nin; k++) {
        w.slot[k] = ua_ew_rule_of(p->function) == UA_EW_SELECT && k == 0
                        ? UA_BOOL
                        : register_type(p->compute);
    }
    w.out_reg = register_type(p->out_type);
    return walk_plan(&w);
}
