/* How the compiling backends take a fused plan's rows: a group or a warp a
 * row, the group's size, and where a chain keeps its row between phases
 * (registers, the group's local memory, or memory read again). */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/compute/compute.h"
#include "gpu/elementwise_source.h"

/* The choices' bounds, which three variables set for measurements, read
 * once a process (settings_read): the most slots a chain's kernel keeps
 * (USMARRAY_CHAIN_SLOTS: a power of two up to UA_EW_CHAIN_MAX_SLOTS, 0
 * reads every row again); the longest rows a warp takes, a chain's and a
 * reduction's (USMARRAY_WARP_ROWS gives both; 0: none); the threads of
 * every rows kernel's group (USMARRAY_ROWS_GROUP: a power of two from 64
 * to 1,024; 0 keeps each kind's own). */
static int slots_most = UA_EW_CHAIN_MAX_SLOTS;
static ptrdiff_t warp_chain_row = UA_EW_WARP_CHAIN_ROW;
static ptrdiff_t warp_reduce_row = UA_EW_WARP_REDUCE_ROW;
static int rows_group = 0;
static pthread_once_t settings_once = PTHREAD_ONCE_INIT;

/* The variable's value where it is a whole number in [least, most], a
 * power of two where asked (0 counts as one), else -1. */
static long
env_count(const char *name, long least, long most, bool power_of_two)
{
    const char *env = getenv(name);
    char *end = NULL;
    long n = env != NULL ? strtol(env, &end, 10) : -1;
    bool valid = env != NULL && end != env && *end == '\0' && n >= least &&
                 n <= most && (!power_of_two || (n & (n - 1)) == 0);
    return valid ? n : -1;
}

static void
settings_read(void)
{
    long n = env_count("USMARRAY_CHAIN_SLOTS", 0, UA_EW_CHAIN_MAX_SLOTS, true);
    slots_most = n >= 0 ? (int)n : slots_most;
    n = env_count("USMARRAY_WARP_ROWS", 0, PTRDIFF_MAX, false);
    if (n >= 0) {
        warp_reduce_row = (ptrdiff_t)n;
        warp_chain_row =
            n < UA_EW_WARP_CHAIN_ROW ? (ptrdiff_t)n : UA_EW_WARP_CHAIN_ROW;
    }
    n = env_count("USMARRAY_ROWS_GROUP", 64, 1024, true);
    rows_group = n >= 0 ? (int)n : rows_group;
}

/* The slots a thread of a group of `group` needs for a chain's rows of
 * `row` elements: the least power of two that holds its share, or 0 past
 * the most. */
int
ua_ew_chain_slots(ptrdiff_t row, int group)
{
    pthread_once(&settings_once, settings_read);
    for (int s = 1; s <= slots_most; s *= 2) {
        if (row <= (ptrdiff_t)s * group) {
            return s;
        }
    }
    return 0;
}

/* The longest row of a chain that its group's local memory holds, each
 * operand not a scalar a copy in the computation type's registers (a
 * power of two), or 0 where the plan's rows are longer.  A register holds
 * at least 4 bytes: float16 is computed in float32. */
static int
chain_local_row(const ua_elementwise_plan *p)
{
    size_t size = ua_dtype_itemsize(p->compute), bytes = 0;
    size = size < 4 ? 4 : size;
    for (int k = 0; k < p->nin; k++) {
        bytes += p->scalar[k] ? 0 : size;
    }
    if (bytes == 0) {
        return 0;
    }
    size_t most = UA_EW_CHAIN_LOCAL_BYTES / bytes, cap = 1;
    while (cap * 2 <= most) {
        cap *= 2;
    }
    return (size_t)p->row <= cap ? (int)cap : 0;
}

/* A warp's slots for rows of `row` elements: the least power of two that
 * holds a thread's share. */
static int
warp_slots(ptrdiff_t row)
{
    int s = 1;
    while ((ptrdiff_t)s * 32 < row) {
        s *= 2;
    }
    return s;
}

/* A warp's rows and a reduction's in groups of UA_EW_ROWS_GROUP_SMALL
 * (more groups a multiprocessor, none idle at the end of the grid), a
 * chain's rows a group each of UA_EW_ROWS_GROUP_CHAIN, and a chain's one
 * row a group of UA_EW_ROWS_GROUP_ONE_ROW. */
static int
rows_group_for(const ua_ew_variant *v, bool one_row)
{
    pthread_once(&settings_once, settings_read);
    if (rows_group > 0) {
        return rows_group;
    }
    if (v->chain != NULL && !v->warp) {
        return one_row ? UA_EW_ROWS_GROUP_ONE_ROW : UA_EW_ROWS_GROUP_CHAIN;
    }
    return UA_EW_ROWS_GROUP_SMALL;
}

int
ua_ew_variant_rows_for(const ua_elementwise_plan *p, ua_ew_variant *v,
                       bool shuffles, bool local)
{
    pthread_once(&settings_once, settings_read);
    if (!v->rows || p->row < 1) {
        return 0;
    }
    ptrdiff_t most = v->chain != NULL ? warp_chain_row : warp_reduce_row;
    /* A chain over one row (a variance of all the values) in a warp
     * would leave all but one warp of the GPU idle: its group shares the
     * row.  Measured where warps shuffle (CUDA); OpenCL keeps a chain's
     * group. */
    bool one_row = shuffles && v->chain != NULL && p->size == (size_t)p->row;
    v->warp = shuffles && p->row <= most && !one_row;
    v->group = rows_group_for(v, one_row);
    if (v->warp) {
        v->slots = v->chain != NULL ? warp_slots(p->row) : 0;
        return 32;
    }
    if (v->chain != NULL) {
        v->slots = ua_ew_chain_slots(p->row, v->group);
        v->local_row = local && v->slots == 0 ? chain_local_row(p) : 0;
    }
    return v->group;
}

/* Whether references a (of the last reducing phase) and b (of the last
 * phase) name the same value: the same operand, node or row value, or
 * constants of equal bits. */
static bool
same_reference(const ua_fused_expr *ea, int a, const ua_fused_expr *eb, int b)
{
    bool ca = a >= UA_FUSED_CONSTANT(0) && a < UA_FUSED_ROW(0);
    bool cb = b >= UA_FUSED_CONSTANT(0) && b < UA_FUSED_ROW(0);
    if (ca || cb) {
        return ca && cb &&
               ea->constant[a - UA_FUSED_CONSTANT(0)] ==
                   eb->constant[b - UA_FUSED_CONSTANT(0)];
    }
    return a == b;
}

/* The reference of the last phase's node past the kept prefix of k nodes
 * in *rest, where the kept value is rest's operand a; -1 where it reads
 * the operand or a prefix node but the last. */
static int
rest_reference(int ref, int k)
{
    if (ref < UA_FUSED_NODE(0)) {
        return -1;
    }
    if (ref < UA_FUSED_CONSTANT(0)) {
        int j = ref - UA_FUSED_NODE(0);
        return j == k - 1 ? UA_FUSED_INPUT(0)
               : j >= k   ? UA_FUSED_NODE(j - k)
                          : -1;
    }
    return ref;
}

bool
ua_ew_chain_keeps_value(const ua_ew_variant *v, ua_fused_expr *rest)
{
    const ua_fused_chain *c = v->chain;
    bool kept_row = v->slots > 0 || v->local_row > 0;
    bool real = v->compute == UA_FLOAT32 || v->compute == UA_FLOAT64;
    if (c == NULL || c->count < 2 || !kept_row || !real || v->nin != 1 ||
        v->scalar[0] || v->in_type[0] != v->compute ||
        c->reduce[c->count - 1] != 0) {
        return false;
    }
    const ua_fused_expr *r = c->phase[c->count - 2];
    const ua_fused_expr *l = c->phase[c->count - 1];
    int k = r->count;
    if (k < 1 || l->count <= k ||
        ua_ew_rule_of(r->node[k - 1].function) == UA_EW_PREDICATE) {
        return false;
    }
    for (int j = 0; j < k; j++) {
        ua_ew_id f = r->node[j].function;
        if (l->node[j].function != f) {
            return false;
        }
        for (int o = 0; o < ua_ew_arity(f); o++) {
            if (!same_reference(r, r->node[j].operand[o], l,
                                l->node[j].operand[o])) {
                return false;
            }
        }
    }
    *rest = *l;
    rest->count = l->count - k;
    for (int j = 0; j < rest->count; j++) {
        rest->node[j] = l->node[j + k];
        for (int o = 0; o < ua_ew_arity(rest->node[j].function); o++) {
            int ref = rest_reference(rest->node[j].operand[o], k);
            if (ref < 0) {
                return false;
            }
            rest->node[j].operand[o] = ref;
        }
    }
    return true;
}
