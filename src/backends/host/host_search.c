/* The host backend's searchsorted (binary search) and unique's groups
 * (core/compute/reduce_kernels.h), on the sort's keys. */
#include "backends/host/host_kernels.h"
#include "backends/host/host_sort_keys.h"
#include "core/compute/kernels.h"

/* A needle's answer: its position, or whether it was found (an element
 * at its left position with its key, the needle no NaN). */
static void
answer(const ua_search_plan *p, ptrdiff_t j, ptrdiff_t lo, bool same)
{
    if (p->mode == UA_SEARCH_LEFT || p->mode == UA_SEARCH_RIGHT) {
        ((int64_t *)p->result)[j] = lo;
    } else {
        ((bool *)p->result)[j] = same == (p->mode == UA_SEARCH_IN);
    }
}

/* searchsorted and the groups of complex elements, on their keys of a
 * class and two words (host_sort_keys.h). */
static void
search_complex(const ua_search_plan *p, int w)
{
    bool right = p->mode == UA_SEARCH_RIGHT;
    for (ptrdiff_t j = 0; j < p->m; j++) {
        complex_key v = complex_key_of(p->needles + j * w, w);
        ptrdiff_t lo = 0, hi = p->n;
        while (lo < hi) {
            ptrdiff_t mid = lo + (hi - lo) / 2;
            int c = complex_key_cmp(complex_key_of(p->sorted + mid * w, w), v);
            if (right ? c <= 0 : c < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        answer(p, j, lo,
               lo < p->n && !complex_key_is_nan(v) &&
                   complex_key_cmp(complex_key_of(p->sorted + lo * w, w), v) ==
                       0);
    }
}

static ptrdiff_t
group_complex(const ua_group_plan *p, int w)
{
    complex_key prev = {0, 0, 0};
    int64_t g = -1;
    for (ptrdiff_t i = 0; i < p->n; i++) {
        complex_key key = complex_key_of(p->sorted + i * w, w);
        if (i == 0 || complex_key_cmp(key, prev) != 0 ||
            complex_key_is_nan(key)) {
            g++;
            if (p->starts) {
                p->starts[g] = i;
            }
        }
        p->group[i] = g;
        prev = key;
    }
    return (ptrdiff_t)(g + 1);
}

ua_status
ua_host_search(void *queue, const ua_search_plan *p)
{
    (void)queue;
    int w = (int)ua_dtype_itemsize(p->type);
    char k = sort_kind(p->type);
    if (k == 'c') {
        search_complex(p, w);
        return UA_OK;
    }
    bool right = p->mode == UA_SEARCH_RIGHT;
    uint64_t nan = w == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * w)) - 1;
    for (ptrdiff_t j = 0; j < p->m; j++) {
        uint64_t v = key_of(load(p->needles + j * w, w), w, k);
        ptrdiff_t lo = 0, hi = p->n;
        while (lo < hi) {
            ptrdiff_t mid = lo + (hi - lo) / 2;
            uint64_t a = key_of(load(p->sorted + mid * w, w), w, k);
            if (right ? a <= v : a < v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        answer(p, j, lo,
               lo < p->n && !(k == 'f' && v == nan) &&
                   key_of(load(p->sorted + lo * w, w), w, k) == v);
    }
    return UA_OK;
}

ua_status
ua_host_group(void *queue, const ua_group_plan *p, ptrdiff_t *count)
{
    (void)queue;
    int w = (int)ua_dtype_itemsize(p->type);
    char k = sort_kind(p->type);
    if (k == 'c') {
        *count = group_complex(p, w);
        return UA_OK;
    }
    uint64_t nan = w == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * w)) - 1;
    uint64_t prev = 0;
    int64_t g = -1;
    for (ptrdiff_t i = 0; i < p->n; i++) {
        uint64_t key = key_of(load(p->sorted + i * w, w), w, k);
        /* Each NaN is its own group: NaN equals nothing. */
        if (i == 0 || key != prev || (k == 'f' && key == nan)) {
            g++;
            if (p->starts) {
                p->starts[g] = i;
            }
        }
        p->group[i] = g;
        prev = key;
    }
    *count = (ptrdiff_t)(g + 1);
    return UA_OK;
}
