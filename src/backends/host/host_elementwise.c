/* The host's elementwise driver: walks a plan's outer axes and runs the
 * inner loop of the function and computation type along the innermost
 * one.  An operand already in its register type, aligned, is read where
 * it lies, and where every one is (and the result too), a run is one call
 * of the loop.  Any other operand (another dtype, float16, unaligned) is
 * first cast, block by block, into a buffer on the stack by the copy
 * engine, never into a temporary array, and a result likewise written
 * back.  Large plans are split into ranges of elements, run on
 * the backend's threads. */
#include <stdalign.h>
#include <stdatomic.h>
#include <string.h>

#include "backends/host/host_elementwise.h"
#include "backends/host/host_threads.h"
#include "core/compute/compute.h"

/* Elements per block: the operands' blocks stay in L1. */
#define BLOCK 512

/* Functions whose loops compute far more than they move (libm calls):
 * splitting pays on smaller arrays. */
#define HEAVY_OPS 8

/* A memory-bound loop moving less than this runs on the caller alone: it
 * ends about when a woken thread would start (tens of microseconds on a
 * virtual machine's idle core), and splitting it measured no faster. */
#define LIGHT_ALONE_BYTES ((size_t)4 << 20)

/* A split plan's parts per thread, and their least number of elements. */
#define PARTS_PER_THREAD 4
#define MIN_PART ((size_t)1 << 14)

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

/* What every thread of a plan shares: the loop, and for the result and
 * each operand its dtype in memory, in registers, and their sizes. */
typedef struct {
    const ua_elementwise_plan *p;
    ua_host_ew_loop loop;
    ua_typenum slot[UA_EW_MAX_OPERANDS]; /* register types */
    ptrdiff_t in_size[UA_EW_MAX_OPERANDS], slot_size[UA_EW_MAX_OPERANDS];
    ua_typenum out_reg;
    ptrdiff_t out_size, out_reg_size;
    const char *scalar_at[UA_EW_MAX_OPERANDS];
    size_t parts_of; /* elements per part, where split */
    atomic_int failed;
    ua_status status;
} job;

typedef struct {
    alignas(16) unsigned char bytes[BLOCK * 16];
} block;

/* One thread's walk: its blocks on its own stack. */
typedef struct {
    job *j;
    block buf[UA_EW_MAX_OPERANDS + 1];
} walk;

static bool
aligned(const char *ptr, ptrdiff_t size)
{
    ptrdiff_t align = size > 8 ? 8 : size;
    return ((uintptr_t)ptr % (uintptr_t)align) == 0;
}

/* 1-D strided view of n elements at ptr, step bytes apart, as the copy
 * engine takes it (strides in elements; steps are whole elements). */
static ua_status
cast_run(char *dst, ua_typenum dt, ptrdiff_t dsize, ptrdiff_t dstep,
         const char *src, ua_typenum st, ptrdiff_t ssize, ptrdiff_t sstep,
         ptrdiff_t n)
{
    ptrdiff_t ds = dstep / dsize, ss = sstep / ssize;
    ua_strided d = {dst, &ds, dt}, s = {(char *)src, &ss, st};
    return ua_copy_strided_host(1, &n, &d, &s);
}

/* Whether operand k, step bytes apart at src, is read where it lies. */
static bool
direct(const job *j, int k, const char *src, ptrdiff_t step)
{
    return j->p->in_type[k] == j->slot[k] && step % j->in_size[k] == 0 &&
           aligned(src, j->in_size[k]);
}

static bool
direct_out(const job *j, const char *out, ptrdiff_t step)
{
    return j->p->out_type == j->out_reg && step % j->out_size == 0 &&
           aligned(out, j->out_size);
}

/* Operand k's n elements from src (step bytes apart) as the inner loop
 * reads them: *ptr, *elems apart. */
static ua_status
load(walk *w, int k, const char *src, ptrdiff_t step, ptrdiff_t n, char **ptr,
     ptrdiff_t *elems)
{
    const job *j = w->j;
    if (direct(j, k, src, step)) {
        *ptr = (char *)src;
        *elems = step / j->in_size[k];
        return UA_OK;
    }
    *ptr = (char *)w->buf[k].bytes;
    *elems = step != 0;
    return cast_run(*ptr, j->slot[k], j->slot_size[k], j->slot_size[k], src,
                    j->p->in_type[k], j->in_size[k], step, step == 0 ? 1 : n);
}

/* n elements in blocks through the stack's buffers. */
static ua_status
run_blocks(walk *w, char *out, ptrdiff_t ostep, const char *const *in,
           const ptrdiff_t *steps, ptrdiff_t n)
{
    const job *j = w->j;
    const ua_elementwise_plan *p = j->p;
    for (ptrdiff_t done = 0; done < n; done += BLOCK) {
        ptrdiff_t m = n - done < BLOCK ? n - done : BLOCK;
        char *args[UA_EW_MAX_OPERANDS] = {NULL};
        ptrdiff_t elems[UA_EW_MAX_OPERANDS] = {0};
        for (int k = 0; k < p->nin; k++) {
            ua_status st = load(w, k, in[k] + done * steps[k], steps[k], m,
                                &args[k], &elems[k]);
            if (st != UA_OK) {
                return st;
            }
        }
        char *o = out + done * ostep;
        if (direct_out(j, o, ostep)) {
            j->loop(o, ostep / j->out_size, args, elems, m);
            continue;
        }
        char *tmp = (char *)w->buf[UA_EW_MAX_OPERANDS].bytes;
        j->loop(tmp, 1, args, elems, m);
        ua_status st =
            cast_run(o, p->out_type, j->out_size, ostep, tmp, j->out_reg,
                     j->out_reg_size, j->out_reg_size, m);
        if (st != UA_OK) {
            return st;
        }
    }
    return UA_OK;
}

/* One run of n elements along the innermost axis: one call of the loop
 * where every operand and the result are read and written in place. */
static ua_status
run(walk *w, char *out, const char *const *in, ptrdiff_t n)
{
    const job *j = w->j;
    const ua_elementwise_plan *p = j->p;
    int last = p->nd - 1;
    ptrdiff_t ostep = last >= 0 ? p->ostep[last] : 0;
    ptrdiff_t steps[UA_EW_MAX_OPERANDS] = {0}, elems[UA_EW_MAX_OPERANDS];
    bool all_direct = direct_out(j, out, ostep);
    for (int k = 0; k < p->nin; k++) {
        steps[k] = last >= 0 ? p->istep[k][last] : 0;
        all_direct = all_direct && direct(j, k, in[k], steps[k]);
        elems[k] = steps[k] / j->in_size[k];
    }
    if (all_direct) {
        j->loop(out, ostep / j->out_size, (char *const *)in, elems, n);
        return UA_OK;
    }
    return run_blocks(w, out, ostep, in, steps, n);
}

/* The plan's elements [begin, end) in C order over its shape: the runs
 * of the innermost axis that they cover, the outer axes counted as an
 * odometer. */
static ua_status
walk_range(walk *w, size_t begin, size_t end)
{
    const ua_elementwise_plan *p = w->j->p;
    int last = p->nd - 1;
    ptrdiff_t inner = last >= 0 ? p->shape[last] : 1;
    ptrdiff_t idx[UA_MAXDIMS] = {0};
    size_t rest = begin / (size_t)inner;
    for (int d = last - 1; d >= 0; d--) {
        idx[d] = (ptrdiff_t)(rest % (size_t)p->shape[d]);
        rest /= (size_t)p->shape[d];
    }
    ptrdiff_t col = (ptrdiff_t)(begin % (size_t)inner);
    char *out = p->out;
    const char *in[UA_EW_MAX_OPERANDS];
    for (int k = 0; k < p->nin; k++) {
        in[k] = p->scalar[k] ? w->j->scalar_at[k] : p->in[k];
    }
    /* (A scalar's steps are 0: its pointer stays on its value.) */
    for (int d = 0; d < last; d++) {
        out += idx[d] * p->ostep[d];
        for (int k = 0; k < p->nin; k++) {
            in[k] += idx[d] * p->istep[k][d];
        }
    }
    for (size_t left = end - begin; left > 0;) {
        ptrdiff_t n =
            inner - col < (ptrdiff_t)left ? inner - col : (ptrdiff_t)left;
        const char *at[UA_EW_MAX_OPERANDS];
        for (int k = 0; k < p->nin; k++) {
            at[k] = in[k] + (last >= 0 ? col * p->istep[k][last] : 0);
        }
        ua_status st =
            run(w, out + (last >= 0 ? col * p->ostep[last] : 0), at, n);
        if (st != UA_OK) {
            return st;
        }
        left -= (size_t)n;
        col = 0;
        for (int d = last - 1; d >= 0 && left > 0; d--) {
            out += p->ostep[d];
            for (int k = 0; k < p->nin; k++) {
                in[k] += p->istep[k][d];
            }
            if (++idx[d] < p->shape[d]) {
                break;
            }
            out -= p->ostep[d] * p->shape[d];
            for (int k = 0; k < p->nin; k++) {
                in[k] -= p->istep[k][d] * p->shape[d];
            }
            idx[d] = 0;
        }
    }
    return UA_OK;
}

/* A part of a split plan, on any thread.  The first failure is kept (its
 * message is that thread's: the status says what kind). */
static void
run_part(void *ctx, int part, int parts)
{
    job *j = ctx;
    walk w;
    w.j = j;
    size_t begin = (size_t)part * j->parts_of;
    size_t end = part == parts - 1 ? j->p->size : begin + j->parts_of;
    ua_status st = walk_range(&w, begin, end);
    int none = 0;
    if (st != UA_OK && atomic_compare_exchange_strong(&j->failed, &none, 1)) {
        j->status = st;
    }
}

/* Work per byte moved, as ua_host_parts counts it: the rules that call
 * the math library weigh more than arithmetic. */
static int
ops_of(const ua_elementwise_plan *p)
{
    ua_ew_rule rule = ua_ew_rule_of(p->function);
    char kind = ua_dtype_kind(p->compute);
    return rule == UA_EW_TO_FLOAT || kind == 'c' ? HEAVY_OPS : 1;
}

static size_t
bytes_moved(const job *j)
{
    size_t per = (size_t)j->out_size;
    for (int k = 0; k < j->p->nin; k++) {
        per += j->p->scalar[k] ? 0 : (size_t)j->in_size[k];
    }
    return per * j->p->size;
}

static void
job_init(job *j, const ua_elementwise_plan *p, ua_host_ew_loop loop)
{
    j->p = p;
    j->loop = loop;
    for (int k = 0; k < p->nin; k++) {
        j->slot[k] = ua_ew_rule_of(p->function) == UA_EW_SELECT && k == 0
                         ? UA_BOOL
                         : register_type(p->compute);
        j->in_size[k] = (ptrdiff_t)ua_dtype_itemsize(p->in_type[k]);
        j->slot_size[k] = (ptrdiff_t)ua_dtype_itemsize(j->slot[k]);
        j->scalar_at[k] = (const char *)p->value[k].bytes;
    }
    j->out_reg = register_type(p->out_type);
    j->out_size = (ptrdiff_t)ua_dtype_itemsize(p->out_type);
    j->out_reg_size = (ptrdiff_t)ua_dtype_itemsize(j->out_reg);
    atomic_init(&j->failed, 0);
    j->status = UA_OK;
}

ua_status
ua_host_elementwise(void *queue, const ua_elementwise_plan *p)
{
    (void)queue;
    ua_host_ew_loop loop = table_of(p->compute)[p->function];
    if (loop == NULL) {
        return ua_error_set(UA_ERR_TYPE, "%s() has no loop for dtype %s",
                            ua_ew_name(p->function),
                            ua_dtype_name(p->compute));
    }
    job j;
    job_init(&j, p, loop);
    size_t bytes = bytes_moved(&j);
    int ops = ops_of(p);
    int parts =
        ops == 1 && bytes < LIGHT_ALONE_BYTES ? 1 : ua_host_parts(bytes, ops);
    if (parts <= 1) {
        walk w;
        w.j = &j;
        return walk_range(&w, 0, p->size);
    }
    /* Several parts a thread, which the threads take as they finish: one
     * slowed by another process on its core then holds up little.  Parts
     * of whole cache lines of the result, where it is dense. */
    size_t many = (size_t)parts * PARTS_PER_THREAD;
    size_t each = (p->size + many - 1) / many;
    each = each < MIN_PART ? MIN_PART : each;
    j.parts_of = (each + 63) & ~(size_t)63;
    parts = (int)((p->size + j.parts_of - 1) / j.parts_of);
    ua_host_parallel(parts, run_part, &j);
    if (j.status != UA_OK) {
        return ua_error_set(j.status, "%s() failed on a worker thread",
                            ua_ew_name(p->function));
    }
    return UA_OK;
}
