/* The iteration planner (iter_plan.h).  It runs on every call, so it
 * works in place on small arrays and allocates nothing. */
#include <string.h>

#include "core/layout/iter_plan.h"
#include "core/layout/layout.h"

/* ------------------------------------------------------- broadcasting */

ua_status
ua_iter_broadcast(const char *fn, int nop, const ua_iter_operand *ops, int *nd,
                  ptrdiff_t *shape)
{
    int n = 0;
    for (int k = 0; k < nop; k++) {
        n = ops[k].nd > n ? ops[k].nd : n;
    }
    ua_status fits = ua_layout_check_ndim(fn, n);
    if (fits != UA_OK) {
        return fits;
    }
    for (int j = 0; j < n; j++) {
        shape[j] = 1;
    }
    for (int k = 0; k < nop; k++) {
        const ua_iter_operand *o = &ops[k];
        for (int j = 0; j < o->nd; j++) {
            ptrdiff_t *d = &shape[n - o->nd + j], len = o->shape[j];
            if (*d != 1 && len != 1 && len != *d) {
                return ua_error_set(UA_ERR_VALUE,
                                    "%s(): operands could not be broadcast "
                                    "together: axis %d has length %td in "
                                    "one and %td in operand %d",
                                    fn, j - o->nd, *d, len, k);
            }
            *d = len == 1 ? *d : len;
        }
    }
    *nd = n;
    return UA_OK;
}

/* An output covers the whole shape; a reduced operand too, or length 1
 * where it is reduced. */
static ua_status
check_outputs(const char *fn, int nop, const ua_iter_operand *ops, int nd,
              const ptrdiff_t *shape)
{
    for (int k = 0; k < nop; k++) {
        const ua_iter_operand *o = &ops[k];
        if (o->role == UA_ITER_INPUT) {
            continue;
        }
        bool whole = o->nd == nd;
        for (int j = 0; whole && j < nd; j++) {
            whole = o->shape[j] == shape[j] ||
                    (o->role == UA_ITER_REDUCED && o->shape[j] == 1);
        }
        if (!whole) {
            return ua_error_set(UA_ERR_VALUE,
                                "%s(): operand %d, written, does not have "
                                "the shape of the result",
                                fn, k);
        }
    }
    return UA_OK;
}

/* ------------------------------------------------------------ steps */

static ua_status
reach_overflow(const char *fn)
{
    return ua_error_set(UA_ERR_VALUE,
                        "%s(): strides and shape reach beyond addressable "
                        "memory",
                        fn);
}

/* Operand o's byte steps over the whole shape's axes (0 along those it
 * broadcasts or is reduced along), checked to reach no further than
 * ptrdiff_t counts, each axis and all together.  An operand of no
 * elements (empty) reaches nothing, whatever its strides: all 0. */
static ua_status
operand_steps(const char *fn, const ua_iter_operand *o, int nd,
              const ptrdiff_t *shape, bool empty, ptrdiff_t *steps)
{
    int lead = nd - o->nd;
    ptrdiff_t lo = 0, hi = 0;
    for (int j = 0; j < nd; j++) {
        int a = j - lead;
        ptrdiff_t reach;
        steps[j] = 0;
        if (a < 0 || o->shape[a] == 1 || shape[j] <= 1) {
            continue;
        }
        if (__builtin_mul_overflow(o->strides[a], o->itemsize, &steps[j]) ||
            __builtin_mul_overflow(steps[j], shape[j] - 1, &reach) ||
            __builtin_add_overflow(reach < 0 ? lo : hi, reach,
                                   reach < 0 ? &lo : &hi) ||
            __builtin_sub_overflow(hi, lo, &reach)) {
            if (!empty) {
                return reach_overflow(fn);
            }
            memset(steps, 0, (size_t)nd * sizeof *steps);
            return UA_OK;
        }
    }
    return UA_OK;
}

/* Axes reduced into an operand: those of length other than 1 where a
 * UA_ITER_REDUCED operand has length 1. */
static uint64_t
reduced_axes(int nop, const ua_iter_operand *ops, int nd,
             const ptrdiff_t *shape)
{
    uint64_t mask = 0;
    for (int k = 0; k < nop; k++) {
        if (ops[k].role != UA_ITER_REDUCED) {
            continue;
        }
        for (int j = 0; j < nd; j++) {
            if (shape[j] != 1 && ops[k].shape[j] == 1) {
                mask |= (uint64_t)1 << j;
            }
        }
    }
    return mask;
}

/* ------------------------------------------------------------ merging */

/* Whether axis `inner` continues the plan's last axis for every operand:
 * the last one's step is the inner one's times its length. */
static bool
continues(const ua_iter_plan *p, int last, const ptrdiff_t (*full)[UA_MAXDIMS],
          int inner, ptrdiff_t len)
{
    for (int k = 0; k < p->nop; k++) {
        ptrdiff_t span;
        if (__builtin_mul_overflow(full[k][inner], len, &span) ||
            p->steps[k][last] != span) {
            return false;
        }
    }
    return true;
}

/* Appends axes[0..n) of the whole shape to the plan, merging each into
 * the plan's last axis where it continues it; first: where the group
 * starts, so that no axis merges across groups. */
static void
append_axes(ua_iter_plan *p, const ptrdiff_t *shape,
            const ptrdiff_t (*full)[UA_MAXDIMS], const int *axes, int n)
{
    int first = p->nd;
    for (int i = 0; i < n; i++) {
        int j = axes[i], last = p->nd - 1;
        ptrdiff_t len = shape[j];
        if (last >= first && continues(p, last, full, j, len)) {
            p->shape[last] *= len;
        } else {
            last = p->nd++;
            p->shape[last] = len;
        }
        for (int k = 0; k < p->nop; k++) {
            p->steps[k][last] = full[k][j];
        }
    }
}

static ptrdiff_t
product(const ptrdiff_t *shape, int from, int to)
{
    ptrdiff_t n = 1;
    for (int j = from; j < to; j++) {
        n *= shape[j];
    }
    return n;
}

static bool
fits_in_32_bits(const ua_iter_plan *p)
{
    if (p->size > INT32_MAX || p->count > INT32_MAX ||
        p->size * p->count > INT32_MAX) {
        return false;
    }
    for (int k = 0; k < p->nop; k++) {
        ptrdiff_t lo, hi;
        ua_iter_plan_reach(p, k, &lo, &hi);
        if (hi - lo > INT32_MAX - 16) {
            return false;
        }
    }
    return true;
}

/* Whether o is dense in C order over (nd, shape): its strides those of
 * a new array, length-1 axes aside. */
static bool
is_c_dense(const ua_iter_operand *o, int nd, const ptrdiff_t *shape)
{
    if (o->nd != nd) {
        return false;
    }
    ptrdiff_t expected = 1;
    for (int j = nd - 1; j >= 0; j--) {
        if (o->shape[j] != shape[j]) {
            return false;
        }
        if (shape[j] != 1) {
            if (o->strides[j] != expected) {
                return false;
            }
            expected *= shape[j];
        }
    }
    return true;
}

/* Most calls walk arrays of one shape, each dense in C order, beside
 * scalars: one run, planned without the general passes (which give the
 * same plan).  false where the operands are not all so, or the shape is
 * empty. */
static bool
plan_dense_run(int nop, const ua_iter_operand *ops, ua_iter_plan *p)
{
    /* An operand past the axis limit is the general path's to refuse,
     * before any of its lengths is read. */
    for (int k = 0; k < nop; k++) {
        if (ops[k].nd < 0 || ops[k].nd > UA_MAXDIMS) {
            return false;
        }
    }
    const ua_iter_operand *first = NULL;
    for (int k = 0; k < nop && first == NULL; k++) {
        first = ops[k].nd > 0 ? &ops[k] : NULL;
    }
    int nd = first != NULL ? first->nd : 0;
    const ptrdiff_t *shape = first != NULL ? first->shape : NULL;
    ptrdiff_t size = 1, bytes;
    for (int j = 0; j < nd; j++) {
        if (shape[j] <= 0 || __builtin_mul_overflow(size, shape[j], &size)) {
            return false;
        }
    }
    p->fits32 = size <= INT32_MAX;
    for (int k = 0; k < nop; k++) {
        const ua_iter_operand *o = &ops[k];
        if (o->nd > 0 && !is_c_dense(o, nd, shape)) {
            return false;
        }
        p->steps[k][0] = o->nd > 0 ? o->itemsize : 0;
        if (__builtin_mul_overflow(size, p->steps[k][0], &bytes)) {
            return false;
        }
        p->fits32 &= bytes <= INT32_MAX - 16;
    }
    p->nop = nop;
    p->nd = size > 1;
    p->nreduced = 0;
    p->shape[0] = size;
    p->size = size;
    p->count = 1;
    return true;
}

ua_status
ua_iter_plan_make(const char *fn, int nop, const ua_iter_operand *ops,
                  int order_by, ua_iter_order order, ua_iter_plan *p)
{
    if (nop < 1 || nop > UA_ITER_MAX_OPERANDS) {
        return ua_error_set(UA_ERR_VALUE, "%s(): %d operands; at most %d", fn,
                            nop, UA_ITER_MAX_OPERANDS);
    }
    if (plan_dense_run(nop, ops, p)) {
        return UA_OK;
    }
    ptrdiff_t shape[UA_MAXDIMS], full[UA_ITER_MAX_OPERANDS][UA_MAXDIMS];
    ptrdiff_t all = 0;
    int nd = 0;
    ua_status st = ua_iter_broadcast(fn, nop, ops, &nd, shape);
    if (st == UA_OK) {
        st = check_outputs(fn, nop, ops, nd, shape);
    }
    if (st == UA_OK && ua_layout_size(nd, shape, &all) != UA_OK) {
        st = ua_error_set(UA_ERR_VALUE,
                          "%s(): the result has too many elements to "
                          "address",
                          fn);
    }
    for (int k = 0; k < nop && st == UA_OK; k++) {
        st = operand_steps(fn, &ops[k], nd, shape, all == 0, full[k]);
    }
    if (st != UA_OK) {
        return st;
    }
    uint64_t reduced = reduced_axes(nop, ops, nd, shape);
    int kept[UA_MAXDIMS], red[UA_MAXDIMS], nk = 0, nr = 0;
    for (int j = 0; j < nd; j++) {
        if (shape[j] == 1) {
            continue;
        }
        if (reduced >> j & 1) {
            red[nr++] = j;
        } else {
            kept[nk++] = j;
        }
    }
    if (order != UA_ITER_KEEP_ORDER && order_by >= 0 && order_by < nop) {
        ua_layout_sort_axes(nk, kept, full[order_by]);
        if (order == UA_ITER_BY_STEPS) {
            ua_layout_sort_axes(nr, red, full[order_by]);
        }
    }
    p->nop = nop;
    p->nd = 0;
    append_axes(p, shape, (const ptrdiff_t (*)[UA_MAXDIMS])full, kept, nk);
    int nkept = p->nd;
    append_axes(p, shape, (const ptrdiff_t (*)[UA_MAXDIMS])full, red, nr);
    p->nreduced = p->nd - nkept;
    p->size = product(p->shape, 0, nkept);
    p->count = product(p->shape, nkept, p->nd);
    p->fits32 = fits_in_32_bits(p);
    return UA_OK;
}

void
ua_iter_plan_export(const ua_iter_plan *p, int *nd, ptrdiff_t *shape,
                    ptrdiff_t *const *steps)
{
    size_t bytes = (size_t)p->nd * sizeof *p->shape;
    *nd = p->nd;
    memcpy(shape, p->shape, bytes);
    for (int k = 0; k < p->nop; k++) {
        memcpy(steps[k], p->steps[k], bytes);
    }
}

void
ua_iter_plan_reach(const ua_iter_plan *p, int k, ptrdiff_t *lo, ptrdiff_t *hi)
{
    *lo = *hi = 0;
    if (p->size == 0 || p->count == 0) {
        return;
    }
    for (int j = 0; j < p->nd; j++) {
        ptrdiff_t d = p->steps[k][j] * (p->shape[j] - 1);
        *(d < 0 ? lo : hi) += d;
    }
}

/* ----------------------------------------------------------- order 'K' */

/* Whether `axis` belongs inside `other` (1), not (0), or undecided (-1):
 * decided by the inputs that step along both, where a step smaller than
 * the other's says inside; any that says otherwise (ties too) keeps the
 * order, as C order wins in NumPy's iterator. */
static int
belongs_inside(int nop, const ptrdiff_t (*steps)[UA_MAXDIMS], int axis,
               int other)
{
    int decided = -1;
    for (int k = 0; k < nop; k++) {
        ptrdiff_t sa = steps[k][axis], so = steps[k][other];
        if (sa == 0 || so == 0) {
            continue;
        }
        size_t ma = sa < 0 ? (size_t)0 - (size_t)sa : (size_t)sa;
        size_t mo = so < 0 ? (size_t)0 - (size_t)so : (size_t)so;
        if (mo <= ma) {
            return 0;
        }
        decided = 1;
    }
    return decided;
}

void
ua_iter_result_strides(int nop, const ua_iter_operand *ops, int nd,
                       const ptrdiff_t *shape, ptrdiff_t *strides)
{
    int order[UA_MAXDIMS];
    /* One axis or none has one order. */
    if (nd <= 1 || nd > UA_MAXDIMS || nop > UA_ITER_MAX_OPERANDS) {
        ua_layout_default_strides(nd, shape, 'C', strides);
        return;
    }
    /* Element strides over the result's axes (0 where broadcast): their
     * magnitudes alone order the axes, so no itemsize. */
    ptrdiff_t steps[UA_ITER_MAX_OPERANDS][UA_MAXDIMS];
    for (int k = 0; k < nop; k++) {
        const ua_iter_operand *o = &ops[k];
        for (int j = 0; j < nd; j++) {
            int a = j - (nd - o->nd);
            steps[k][j] = a < 0 || o->shape[a] == 1 ? 0 : o->strides[a];
        }
    }
    /* NumPy's insertion sort, innermost axis first: an axis moves inward
     * past each axis it is decided to belong inside; an undecided pair
     * looks further in. */
    int inner[UA_MAXDIMS];
    for (int i = 0; i < nd; i++) {
        inner[i] = nd - 1 - i;
    }
    const ptrdiff_t (*s)[UA_MAXDIMS] = (const ptrdiff_t (*)[UA_MAXDIMS])steps;
    for (int i = 1; i < nd; i++) {
        int axis = inner[i], at = i;
        for (int j = i - 1; j >= 0; j--) {
            int d = belongs_inside(nop, s, axis, inner[j]);
            if (d == 0) {
                break;
            }
            at = d > 0 ? j : at;
        }
        memmove(&inner[at + 1], &inner[at], (size_t)(i - at) * sizeof *inner);
        inner[at] = axis;
    }
    for (int i = 0; i < nd; i++) {
        order[i] = inner[nd - 1 - i];
    }
    ua_layout_dense_strides(nd, shape, order, strides);
}

/* The bytes [*lo, *hi) that operand k of the plan reaches from data. */
static void
extent(const ua_iter_plan *p, int k, const char *data, ptrdiff_t itemsize,
       uintptr_t *lo, uintptr_t *hi)
{
    ptrdiff_t a, b;
    ua_iter_plan_reach(p, k, &a, &b);
    *lo = (uintptr_t)data + (uintptr_t)a;
    *hi = (uintptr_t)data + (uintptr_t)b + (uintptr_t)itemsize;
}

bool
ua_iter_plan_write_meets(const ua_iter_plan *p, int k, const char *out,
                         ptrdiff_t osize, const char *in, ptrdiff_t isize)
{
    uintptr_t olo, ohi, ilo, ihi;
    extent(p, 0, out, osize, &olo, &ohi);
    extent(p, k, in, isize, &ilo, &ihi);
    if (olo >= ihi || ilo >= ohi) {
        return false;
    }
    return !(in == out && osize == isize &&
             memcmp(p->steps[0], p->steps[k],
                    (size_t)p->nd * sizeof **p->steps) == 0);
}
