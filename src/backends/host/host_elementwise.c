/* The host's elementwise driver: walks a plan's outer axes and runs the
 * inner loop of the function and computation type along the innermost
 * one.  An operand already in its register type, aligned, is read where
 * it lies, and where every one is (and the result too), a run is one call
 * of the loop.  Any other operand (another dtype, float16, unaligned) is
 * first cast, block by block, into a buffer on the stack by the copy
 * engine, never into a temporary array, and a result likewise written
 * back.  Large plans are split into ranges of elements, run on
 * the backend's threads.  A fused plan (usmarray.fuse's graph of
 * elementwise calls) runs the same way, its inner loop being the graph's
 * nodes, each the eager call's loop over a few hundred elements at a
 * time, between buffers that stay in L1: the eager results, bit for bit,
 * in one pass over memory.  A fused reduction of all the values
 * (usmarray.fuse's sum((x - y) ** 2)) walks the same way, each block of
 * the last node's values added into the walk's sums in registers instead
 * of written: one pass, no temporary. */
#include <math.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
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
    /* A fused plan's graph, its computation type's loops, and its
     * constants in that type's bits; NULL where the plan is one call. */
    const ua_fused_expr *fused;
    const ua_host_ew_loop *table;
    alignas(16) unsigned char constant[UA_FUSED_MAX_CONSTANTS][8];
    atomic_int failed;
    ua_status status;
    /* A fused reduction's operation (UA_EW_REDUCE_*; 0: none) and each
     * chunk's partial, in chunk order. */
    int reduce;
    double *partial;
    ptrdiff_t block; /* elements a fused plan's nodes take at a time */
} job;

typedef struct {
    alignas(16) unsigned char bytes[BLOCK * 16];
} block;

/* Elements a fused graph's nodes take at a time: every node's values
 * (4 KiB of float64) stay in cache between the node that writes them and
 * those that read them, and each call reads a run of its operands long
 * enough for the prefetchers (256 made 2.5 * x + y of 1 Mi float64 in
 * L3 take 2.4 times 512's time). */
#define FUSED_BLOCK 512

/* Elements a fused reduction's nodes take at a time, likewise. */
#define REDUCE_BLOCK 512
_Static_assert(FUSED_BLOCK <= REDUCE_BLOCK,
               "a walk's stack buffers are sized by REDUCE_BLOCK");

/* A reduction's lanes: the values are added LANES apart, each lane's in
 * sequence, in double; every ROWS values a lane (a run of LANES * ROWS
 * values), the lanes go into a binary counter of such runs (level k holds
 * the sum of 2^k runs, lane by lane), and at the end the levels meet,
 * then the lanes as a tree: the eager sums' pairwise order (see "Accuracy
 * of reductions"), with the chunks' partials then added as a tree
 * (fused_reduce).  A max or min keeps its extreme in the lanes. */
#define LANES 32
#define ROWS 16
#define LEVELS 48

/* One thread's walk: its blocks on its own stack, and a fused plan's
 * buffers of FUSED_BLOCK values a node; a reduction's lanes, the rows
 * added to them since the counter last took them, and its counter. */
typedef struct {
    job *j;
    block buf[UA_EW_MAX_OPERANDS + 1];
    char *nodes;
    alignas(64) double lane[LANES];
    int rows;
    uint64_t count;
    alignas(64) double level[LEVELS][LANES];
} walk;

/* Node i's buffer of walk w. */
static char *
node_buffer(const walk *w, int i)
{
    return w->nodes + (size_t)i * (size_t)w->j->block * 8;
}

/* Reference ref of a fused node at element `at` of a run: an operand
 * (in[k], elems[k] apart), an earlier node's buffer or a constant; its
 * pointer and step in elements. */
static char *
fused_operand(const walk *w, int ref, char *const *in, const ptrdiff_t *elems,
              ptrdiff_t at, ptrdiff_t *step)
{
    const job *j = w->j;
    if (ref < UA_FUSED_NODE(0)) {
        *step = elems[ref];
        return in[ref] + at * elems[ref] * j->slot_size[ref];
    }
    if (ref < UA_FUSED_CONSTANT(0)) {
        *step = 1;
        return node_buffer(w, ref - UA_FUSED_NODE(0));
    }
    *step = 0;
    return (char *)j->constant[ref - UA_FUSED_CONSTANT(0)];
}

/* The lanes' loops cloned for the vector extensions of x86-64, as
 * host_kernels.h's UA_HOST_CLONES (not included here: host_kernels.c
 * includes this file's header). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define LANE_CLONES                                                           \
    __attribute__((target_clones("default", "avx2", "arch=x86-64-v4")))
#else
#define LANE_CLONES
#endif

/* The combiners of max and min: a NaN replaces any number and no number
 * replaces a NaN, as in the eager reductions. */
#define MAX_OF(a, v) ((a) < (v) || (v) != (v) ? (v) : (a))
#define MIN_OF(a, v) ((v) < (a) || (v) != (v) ? (v) : (a))
#define SUM_OF(a, v) ((a) + (v))

/* m values at v combined into the lanes, value i into lane i % LANES
 * (the compiler keeps the lanes in vector registers). */
#define DEFINE_LANES(NAME, T, OP)                                             \
    LANE_CLONES static void NAME(double *restrict lane, const T *restrict v,  \
                                 ptrdiff_t m)                                 \
    {                                                                         \
        double acc[LANES];                                                    \
        memcpy(acc, lane, sizeof acc);                                        \
        ptrdiff_t full = m / LANES * LANES;                                   \
        for (ptrdiff_t i = 0; i < full; i += LANES) {                         \
            for (int l = 0; l < LANES; l++) {                                 \
                acc[l] = OP(acc[l], (double)v[i + l]);                        \
            }                                                                 \
        }                                                                     \
        for (ptrdiff_t i = full; i < m; i++) {                                \
            acc[i - full] = OP(acc[i - full], (double)v[i]);                  \
        }                                                                     \
        memcpy(lane, acc, sizeof acc);                                        \
    }

DEFINE_LANES(sum_f8, double, SUM_OF)
DEFINE_LANES(sum_f4, float, SUM_OF)
DEFINE_LANES(max_f8, double, MAX_OF)
DEFINE_LANES(max_f4, float, MAX_OF)
DEFINE_LANES(min_f8, double, MIN_OF)
DEFINE_LANES(min_f4, float, MIN_OF)

/* The identity of reduction op. */
static double
identity_of(int op)
{
    return op == UA_EW_REDUCE_SUM   ? -0.0
           : op == UA_EW_REDUCE_MAX ? -INFINITY
                                    : INFINITY;
}

static void
reset_lanes(walk *w)
{
    double id = identity_of(w->j->reduce);
    for (int l = 0; l < LANES; l++) {
        w->lane[l] = id;
    }
    w->rows = 0;
}

/* The sum's lanes into its counter. */
static void
push_lanes(walk *w)
{
    int k = 0;
    for (; w->count >> k & 1; k++) {
        for (int l = 0; l < LANES; l++) {
            w->lane[l] = w->level[k][l] + w->lane[l];
        }
    }
    memcpy(w->level[k], w->lane, sizeof w->lane);
    w->count++;
    reset_lanes(w);
}

/* m > 0 values of the last node (the computation type's: float32 or
 * float64) into the walk's reduction. */
static void
absorb(walk *w, const char *values, ptrdiff_t m)
{
    const job *j = w->j;
    bool f8 = j->p->compute == UA_FLOAT64;
    const double *d = (const double *)(const void *)values;
    const float *f = (const float *)(const void *)values;
    switch (j->reduce) {
    case UA_EW_REDUCE_SUM:
        for (ptrdiff_t at = 0; at < m;) {
            ptrdiff_t room = (ptrdiff_t)(ROWS - w->rows) * LANES;
            ptrdiff_t k = m - at < room ? m - at : room;
            f8 ? sum_f8(w->lane, d + at, k) : sum_f4(w->lane, f + at, k);
            w->rows += (int)((k + LANES - 1) / LANES);
            if (w->rows >= ROWS) {
                push_lanes(w);
            }
            at += k;
        }
        break;
    case UA_EW_REDUCE_MAX:
        f8 ? max_f8(w->lane, d, m) : max_f4(w->lane, f, m);
        break;
    default:
        f8 ? min_f8(w->lane, d, m) : min_f4(w->lane, f, m);
    }
}

/* The walk's reduction: a sum's levels added, the earliest (highest)
 * first, then its lanes; the lanes as a tree. */
static double
walk_total(walk *w)
{
    int op = w->j->reduce;
    if (op == UA_EW_REDUCE_SUM) {
        double acc[LANES];
        bool have = false;
        for (int k = LEVELS - 1; k >= 0; k--) {
            for (int l = 0; (w->count >> k & 1) && l < LANES; l++) {
                acc[l] = have ? acc[l] + w->level[k][l] : w->level[k][l];
            }
            have = have || (w->count >> k & 1);
        }
        for (int l = 0; have && w->rows > 0 && l < LANES; l++) {
            w->lane[l] = acc[l] + w->lane[l];
        }
        if (have && w->rows == 0) {
            memcpy(w->lane, acc, sizeof acc);
        }
    }
    double *lane = w->lane;
    for (int half = LANES / 2; half >= 1; half /= 2) {
        for (int l = 0; l < half; l++) {
            double a = lane[2 * l], b = lane[2 * l + 1];
            lane[l] = op == UA_EW_REDUCE_SUM   ? a + b
                      : op == UA_EW_REDUCE_MAX ? MAX_OF(a, b)
                                               : MIN_OF(a, b);
        }
    }
    return lane[0];
}

/* A fused plan's n elements: each block of FUSED_BLOCK through every
 * node, the last writing out (ostep elements apart), or in a reduction
 * its buffer, which the walk's reduction takes. */
static void
fused_run(walk *w, char *out, ptrdiff_t ostep, char *const *in,
          const ptrdiff_t *elems, ptrdiff_t n)
{
    const job *j = w->j;
    const ua_fused_expr *e = j->fused;
    ptrdiff_t b = j->block;
    for (ptrdiff_t at = 0; at < n; at += b) {
        ptrdiff_t m = n - at < b ? n - at : b;
        for (int i = 0; i < e->count; i++) {
            const ua_fused_node *node = &e->node[i];
            int arity = ua_ew_arity(node->function);
            char *args[UA_EW_MAX_OPERANDS] = {NULL};
            ptrdiff_t steps[UA_EW_MAX_OPERANDS] = {0};
            for (int k = 0; k < arity; k++) {
                args[k] = fused_operand(w, node->operand[k], in, elems, at,
                                        &steps[k]);
            }
            bool last = i == e->count - 1 && j->reduce == 0;
            char *dst =
                last ? out + at * ostep * j->out_reg_size : node_buffer(w, i);
            j->table[node->function](dst, last ? ostep : 1, args, steps, m);
        }
        if (j->reduce != 0) {
            absorb(w, node_buffer(w, e->count - 1), m);
        }
    }
}

/* The inner loop of a run of n elements, in register types. */
static void
call_loop(walk *w, char *out, ptrdiff_t ostep, char *const *in,
          const ptrdiff_t *elems, ptrdiff_t n)
{
    if (w->j->fused != NULL) {
        fused_run(w, out, ostep, in, elems, n);
    } else {
        w->j->loop(out, ostep, in, elems, n);
    }
}

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
            call_loop(w, o, ostep / j->out_size, args, elems, m);
            continue;
        }
        char *tmp = (char *)w->buf[UA_EW_MAX_OPERANDS].bytes;
        call_loop(w, tmp, 1, args, elems, m);
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
        call_loop(w, out, ostep / j->out_size, (char *const *)in, elems, n);
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

/* The nodes whose buffers a walk keeps on its stack: a larger graph's
 * are allocated for the walk. */
#define STACK_NODES 8

/* The plan's elements [begin, end) on this thread, with a fused plan's
 * node buffers for the walk; a reduction's value of them into *total. */
static ua_status
walk_part(job *j, size_t begin, size_t end, double *total)
{
    alignas(64) char stack_nodes[STACK_NODES * REDUCE_BLOCK * 8];
    walk w;
    w.j = j;
    w.nodes = stack_nodes;
    w.count = 0;
    reset_lanes(&w);
    bool heap = j->fused != NULL && j->fused->count > STACK_NODES;
    if (heap) {
        w.nodes = malloc((size_t)j->fused->count * (size_t)j->block * 8);
        if (w.nodes == NULL) {
            return ua_error_set(UA_ERR_NOMEM,
                                "out of memory for a fused graph's buffers");
        }
    }
    ua_status st = walk_range(&w, begin, end);
    if (heap) {
        free(w.nodes);
    }
    if (total != NULL) {
        *total = walk_total(&w);
    }
    return st;
}

/* A part of a split plan, on any thread.  The first failure is kept (its
 * message is that thread's: the status says what kind). */
static void
run_part(void *ctx, int part, int parts)
{
    job *j = ctx;
    size_t begin = (size_t)part * j->parts_of;
    size_t end = part == parts - 1 ? j->p->size : begin + j->parts_of;
    ua_status st =
        walk_part(j, begin, end, j->reduce != 0 ? &j->partial[part] : NULL);
    int none = 0;
    if (st != UA_OK && atomic_compare_exchange_strong(&j->failed, &none, 1)) {
        j->status = st;
    }
}

/* Work per byte moved, as ua_host_parts counts it: the rules that call
 * the math library weigh more than arithmetic; a fused graph weighs its
 * nodes'. */
static int
ops_of_call(ua_ew_id function, ua_typenum compute)
{
    ua_ew_rule rule = ua_ew_rule_of(function);
    char kind = ua_dtype_kind(compute);
    return rule == UA_EW_TO_FLOAT || kind == 'c' ? HEAVY_OPS : 1;
}

static int
ops_of(const ua_elementwise_plan *p)
{
    if (p->fused == NULL) {
        return ops_of_call(p->function, p->compute);
    }
    int ops = 0;
    for (int i = 0; i < p->fused->count; i++) {
        ops += ops_of_call(p->fused->node[i].function, p->compute);
    }
    return ops;
}

static size_t
bytes_moved(const job *j)
{
    size_t per = j->reduce != 0 ? 0 : (size_t)j->out_size;
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
    j->fused = NULL;
    j->table = NULL;
    j->reduce = 0;
    j->partial = NULL;
    j->block = FUSED_BLOCK;
    for (int k = 0; k < p->nin; k++) {
        j->slot[k] = p->fused == NULL &&
                             ua_ew_rule_of(p->function) == UA_EW_SELECT &&
                             k == 0
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

/* A fused plan's loops found and its constants laid out for them;
 * UA_ERR_UNAVAILABLE where the host's loops cannot run it (the caller
 * then evaluates the graph its own way). */
static ua_status
fused_init(job *j)
{
    const ua_elementwise_plan *p = j->p;
    const ua_fused_expr *e = p->fused;
    const char *why = NULL;
    bool rows = p->reduce != 0 && p->row > 0 && p->size % (size_t)p->row == 0;
    if ((p->row != 0 && !rows) || p->post != NULL || p->chain != NULL ||
        e->nrow != 0) {
        why = "rows that do not divide the values, an expression after "
              "them, or a chain of rows";
    } else if (p->reduce != 0 &&
               ((p->compute != UA_FLOAT32 && p->compute != UA_FLOAT64) ||
                p->out_type != p->compute || p->reduce < UA_EW_REDUCE_SUM ||
                p->reduce > UA_EW_REDUCE_MEAN)) {
        why = "a reduction other than a sum, max, min or mean of float32 "
              "or float64 values";
    }
    /* (Its computation type, a real one of registers as wide as memory,
     * its references and its comparisons' bools were checked when it was
     * resolved, ua_fused_resolve.) */
    j->table = table_of(p->compute);
    for (int i = 0; why == NULL && i < e->count; i++) {
        if (j->table[e->node[i].function] == NULL) {
            why = "a function without a loop for the computation type";
        }
    }
    if (why != NULL) {
        return ua_error_set(UA_ERR_UNAVAILABLE,
                            "the host's loops do not run this fused graph: %s",
                            why);
    }
    size_t w = ua_dtype_itemsize(p->compute);
    for (int c = 0; c < e->nconst; c++) {
        /* the low bytes of the constant's bits, as the type's value */
        uint64_t v = e->constant[c];
        uint32_t v32 = (uint32_t)v;
        uint16_t v16 = (uint16_t)v;
        uint8_t v8 = (uint8_t)v;
        memcpy(j->constant[c],
               w == 8   ? (const void *)&v
               : w == 4 ? (const void *)&v32
               : w == 2 ? (const void *)&v16
                        : (const void *)&v8,
               w);
    }
    j->fused = e;
    /* a mean is the sum's, divided when written (write_row_value) */
    j->reduce = p->reduce == UA_EW_REDUCE_MEAN ? UA_EW_REDUCE_SUM : p->reduce;
    j->block = p->reduce != 0 ? REDUCE_BLOCK : FUSED_BLOCK;
    return UA_OK;
}

/* Elements a reduction's chunk takes at least: chunks are the parts that
 * the threads take, and their number depends on the values' count alone,
 * so that the sum's order, and its bits, do not depend on the threads. */
#define MIN_CHUNK ((size_t)1 << 16)

/* The partials of chunks [a, b) of reduction op combined: a sum as a
 * tree, in the chunks' order. */
static double
combine(const double *partial, int a, int b, int op)
{
    if (b - a == 1) {
        return partial[a];
    }
    int mid = a + (b - a) / 2;
    double x = combine(partial, a, mid, op), y = combine(partial, mid, b, op);
    return op == UA_EW_REDUCE_SUM   ? x + y
           : op == UA_EW_REDUCE_MAX ? MAX_OF(x, y)
                                    : MIN_OF(x, y);
}

/* Row r's total of `count` values as out's value r of the type, a mean's
 * divided by that count in the type, as the eager sum rounds and the eager
 * mean divides. */
static void
write_row_value(const ua_elementwise_plan *p, size_t r, double total,
                size_t count)
{
    bool mean = p->reduce == UA_EW_REDUCE_MEAN;
    if (p->out_type == UA_FLOAT32) {
        float v = (float)total;
        v = mean ? v / (float)count : v;
        memcpy(p->out + r * sizeof v, &v, sizeof v);
        return;
    }
    total = mean ? total / (double)count : total;
    memcpy(p->out + r * sizeof total, &total, sizeof total);
}

/* Part `part` of `parts` of the rows (row < size): each row walked into
 * its total in its own order, whatever the threads, and written. */
static void
run_rows(void *ctx, int part, int parts)
{
    job *j = ctx;
    size_t row = (size_t)j->p->row, rows = j->p->size / row;
    size_t a = rows * (size_t)part / (size_t)parts;
    size_t b = rows * (size_t)(part + 1) / (size_t)parts;
    for (size_t r = a; r < b; r++) {
        double total;
        ua_status st = walk_part(j, r * row, (r + 1) * row, &total);
        int none = 0;
        if (st != UA_OK) {
            if (atomic_compare_exchange_strong(&j->failed, &none, 1)) {
                j->status = st;
            }
            return;
        }
        write_row_value(j->p, r, total, row);
    }
}

/* Rows of a fused reduction's values, a thread's share of them each. */
static ua_status
fused_reduce_rows(job *j, int parts)
{
    size_t rows = j->p->size / (size_t)j->p->row;
    if (parts <= 1 || rows <= 1) {
        run_rows(j, 0, 1);
    } else {
        ua_host_parallel(rows < (size_t)parts ? (int)rows : parts, run_rows,
                         j);
    }
    return j->status == UA_OK
               ? UA_OK
               : ua_error_set(j->status, "a fused reduction of rows failed");
}

/* A fused reduction of all the values: the values in chunks of at least
 * MIN_CHUNK elements (at most UA_EW_REDUCE_PARTS of them), each a part
 * that a thread walks into its partial, the partials combined in order;
 * out receives the total as its one value (a mean's divided by their
 * count). */
static ua_status
fused_reduce(job *j, int parts)
{
    size_t n = j->p->size;
    size_t chunk = (n + UA_EW_REDUCE_PARTS - 1) / UA_EW_REDUCE_PARTS;
    chunk = (chunk + REDUCE_BLOCK - 1) / REDUCE_BLOCK * REDUCE_BLOCK;
    chunk = chunk < MIN_CHUNK ? MIN_CHUNK : chunk;
    int chunks = (int)((n + chunk - 1) / chunk);
    double partial[UA_EW_REDUCE_PARTS];
    j->parts_of = chunk;
    j->partial = partial;
    if (parts <= 1 || chunks <= 1) {
        for (int c = 0; c < chunks && j->status == UA_OK; c++) {
            run_part(j, c, chunks);
        }
    } else {
        ua_host_parallel(chunks, run_part, j);
    }
    if (j->status != UA_OK) {
        return ua_error_set(j->status, "a fused reduction failed");
    }
    write_row_value(j->p, 0, combine(partial, 0, chunks, j->reduce), n);
    return UA_OK;
}

ua_status
ua_host_elementwise(void *queue, const ua_elementwise_plan *p)
{
    (void)queue;
    ua_host_ew_loop loop = table_of(p->compute)[p->function];
    if (loop == NULL && p->fused == NULL) {
        return ua_error_set(UA_ERR_TYPE, "%s() has no loop for dtype %s",
                            ua_ew_name(p->function),
                            ua_dtype_name(p->compute));
    }
    /* A reduction writes no values: its walk's result stays put. */
    ua_elementwise_plan reduced;
    if (p->reduce != 0) {
        reduced = *p;
        memset(reduced.ostep, 0, sizeof reduced.ostep);
        p = &reduced;
    }
    job j;
    job_init(&j, p, loop);
    if (p->fused != NULL || p->reduce != 0) {
        ua_status st = p->fused != NULL
                           ? fused_init(&j)
                           : ua_error_set(UA_ERR_VALUE, "a reduction of no "
                                                        "fused expression");
        if (st != UA_OK) {
            return st;
        }
    }
    size_t bytes = bytes_moved(&j);
    int ops = ops_of(p);
    int parts =
        ops == 1 && bytes < LIGHT_ALONE_BYTES ? 1 : ua_host_parts(bytes, ops);
    if (j.reduce != 0) {
        return p->row == 0 || (size_t)p->row == p->size
                   ? fused_reduce(&j, parts)
                   : fused_reduce_rows(&j, parts);
    }
    if (parts <= 1) {
        return walk_part(&j, 0, p->size, NULL);
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
                            p->fused != NULL ? "a fused graph"
                                             : ua_ew_name(p->function));
    }
    return UA_OK;
}
