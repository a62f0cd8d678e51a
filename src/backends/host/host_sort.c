/* The host backend's sorting kernels (core/compute/reduce_kernels.h):
 * sort and argsort, searchsorted's binary search and unique's groups.
 *
 * Every element becomes an unsigned key of its own width whose order is
 * the sort's: integers with the sign bit flipped, floating numbers by
 * their sign and magnitude, every NaN the largest key and -0.0 the key of
 * 0.0 (they are equal, so a stable sort keeps their order, as NumPy's
 * stable sort does).  Descending order flips every bit of the key, which
 * puts NaNs first and keeps equal elements in their order.
 *
 * Rows sort by LSD radix sort on 8-bit digits (digits that every element
 * shares are skipped: one pass counts them all), short rows by insertion.
 * Where the key of a value is one to one (integers, and floating rows
 * without -0.0 or NaN) the row is sorted as keys and turned back; else the
 * original values travel beside their keys. */
#include <stdlib.h>
#include <string.h>

#include "backends/host/host_kernels.h"
#include "core/compute/kernels.h"

enum { SHORT_ROW = 16 };

/* The key of the w-byte value v of kind k ('b', 'i', 'u' or 'f'). */
static inline uint64_t
key_of(uint64_t v, int w, char k)
{
    uint64_t sign = (uint64_t)1 << (8 * w - 1);
    uint64_t all = w == 8 ? ~(uint64_t)0 : (sign << 1) - 1;
    if (k == 'i') {
        return v ^ sign;
    }
    if (k != 'f') {
        return v;
    }
    uint64_t exp = w == 2 ? 0x7c00u : w == 4 ? 0x7f800000u : 0x7ffULL << 52;
    if ((v & exp) == exp && (v & ~exp & ~sign & all) != 0) {
        return all; /* NaN */
    }
    if (v == sign) {
        v = 0; /* -0.0 */
    }
    return v & sign ? ~v & all : v | sign;
}

/* The value whose key is key, where the key is one to one. */
static inline uint64_t
value_of(uint64_t key, int w, char k)
{
    uint64_t sign = (uint64_t)1 << (8 * w - 1);
    uint64_t all = w == 8 ? ~(uint64_t)0 : (sign << 1) - 1;
    if (k == 'i') {
        return key ^ sign;
    }
    if (k != 'f') {
        return key;
    }
    return key & sign ? key & ~sign : ~key & all;
}

static inline uint64_t
load(const char *p, int w)
{
    switch (w) {
    case 1:
        return *(const uint8_t *)p;
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

static inline void
store(char *p, int w, uint64_t v)
{
    switch (w) {
    case 1:
        *(uint8_t *)p = (uint8_t)v;
        break;
    case 2: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, 2);
        break;
    }
    case 4: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
        break;
    }
    default:
        memcpy(p, &v, 8);
    }
}

static char
sort_kind(ua_typenum t)
{
    char k = ua_dtype_kind(t);
    return k == 'b' ? 'u' : k;
}

/* A row being sorted: keys of width w, and where not NULL the original
 * values (w bytes) and indices travelling with them; tmp holds the same
 * for the radix passes. */
typedef struct row {
    ptrdiff_t n;
    int w;
    uint64_t *keys, *keys_tmp;
    char *vals, *vals_tmp;
    int64_t *idx, *idx_tmp;
} row;

static void
insertion_sort(row *r)
{
    for (ptrdiff_t i = 1; i < r->n; i++) {
        uint64_t k = r->keys[i];
        char v[8];
        int64_t x = r->idx ? r->idx[i] : 0;
        if (r->vals) {
            memcpy(v, r->vals + i * r->w, (size_t)r->w);
        }
        ptrdiff_t j = i;
        for (; j > 0 && r->keys[j - 1] > k; j--) {
            r->keys[j] = r->keys[j - 1];
            if (r->idx) {
                r->idx[j] = r->idx[j - 1];
            }
            if (r->vals) {
                memcpy(r->vals + j * r->w, r->vals + (j - 1) * r->w,
                       (size_t)r->w);
            }
        }
        r->keys[j] = k;
        if (r->idx) {
            r->idx[j] = x;
        }
        if (r->vals) {
            memcpy(r->vals + j * r->w, v, (size_t)r->w);
        }
    }
}

static void
swap_buffers(row *r)
{
    uint64_t *k = r->keys;
    char *v = r->vals;
    int64_t *x = r->idx;
    r->keys = r->keys_tmp;
    r->keys_tmp = k;
    r->vals = r->vals_tmp;
    r->vals_tmp = v;
    r->idx = r->idx_tmp;
    r->idx_tmp = x;
}

/* Sorts r stably; the result may end in the tmp buffers, which r then
 * names as its own (the caller reads r->keys, r->vals, r->idx). */
static void
radix_sort(row *r, size_t (*counts)[256])
{
    if (r->n <= SHORT_ROW) {
        insertion_sort(r);
        return;
    }
    memset(counts, 0, (size_t)r->w * sizeof *counts);
    for (ptrdiff_t i = 0; i < r->n; i++) {
        uint64_t k = r->keys[i];
        for (int d = 0; d < r->w; d++) {
            counts[d][k >> (8 * d) & 255]++;
        }
    }
    for (int d = 0; d < r->w; d++) {
        size_t *c = counts[d], sum = 0;
        if (c[r->keys[0] >> (8 * d) & 255] == (size_t)r->n) {
            continue; /* one digit for all: nothing moves */
        }
        for (int b = 0; b < 256; b++) {
            size_t t = c[b];
            c[b] = sum;
            sum += t;
        }
        for (ptrdiff_t i = 0; i < r->n; i++) {
            uint64_t k = r->keys[i];
            size_t to = c[k >> (8 * d) & 255]++;
            r->keys_tmp[to] = k;
            if (r->vals) {
                memcpy(r->vals_tmp + to * (size_t)r->w, r->vals + i * r->w,
                       (size_t)r->w);
            }
            if (r->idx) {
                r->idx_tmp[to] = r->idx[i];
            }
        }
        swap_buffers(r);
    }
}

/* Whether every key of the row's values gives back the value. */
static bool
keys_are_one_to_one(const char *data, ptrdiff_t n, int w, char k)
{
    for (ptrdiff_t i = 0; k == 'f' && i < n; i++) {
        uint64_t v = load(data + i * w, w);
        if (value_of(key_of(v, w, k), w, k) != v) {
            return false;
        }
    }
    return true;
}

static void
sort_row(const ua_sort_plan *p, row *r, char *data, int64_t *index,
         size_t (*counts)[256], char *vals_home, int64_t *idx_home,
         uint64_t *keys_home, uint64_t *keys_tmp_home, char *vals_tmp_home,
         int64_t *idx_tmp_home)
{
    int w = r->w;
    char k = sort_kind(p->type);
    uint64_t flip = p->descending ? ~(uint64_t)0 : 0;
    uint64_t mask = w == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * w)) - 1;
    bool carry = index == NULL && !keys_are_one_to_one(data, r->n, w, k);
    r->keys = keys_home;
    r->keys_tmp = keys_tmp_home;
    r->vals = carry ? vals_home : NULL;
    r->vals_tmp = carry ? vals_tmp_home : NULL;
    r->idx = index ? idx_home : NULL;
    r->idx_tmp = index ? idx_tmp_home : NULL;
    for (ptrdiff_t i = 0; i < r->n; i++) {
        r->keys[i] = (key_of(load(data + i * w, w), w, k) ^ flip) & mask;
        if (index) {
            r->idx[i] = i;
        }
    }
    if (carry) {
        memcpy(r->vals, data, (size_t)(r->n * w));
    }
    radix_sort(r, counts);
    if (index) {
        memcpy(index, r->idx, (size_t)r->n * 8);
    } else if (carry) {
        memcpy(data, r->vals, (size_t)(r->n * w));
    } else {
        for (ptrdiff_t i = 0; i < r->n; i++) {
            store(data + i * w, w, value_of((r->keys[i] ^ flip) & mask, w, k));
        }
    }
}

ua_status
ua_host_sort(void *queue, const ua_sort_plan *p)
{
    (void)queue;
    if (p->rows == 0 || p->n == 0) {
        return UA_OK;
    }
    int w = (int)ua_dtype_itemsize(p->type);
    size_t n = (size_t)p->n;
    /* keys and their tmp, values and theirs, indices and theirs. */
    char *mem = malloc(n * (8 + 8 + 8 + 8 + 2 * (size_t)w) + 8 * 256 * 8);
    if (mem == NULL) {
        return ua_error_set(UA_ERR_NOMEM,
                            "no host memory to sort %zu "
                            "elements",
                            n);
    }
    uint64_t *keys = (uint64_t *)(void *)mem, *keys_tmp = keys + n;
    int64_t *idx = (int64_t *)(keys_tmp + n), *idx_tmp = idx + n;
    size_t (*counts)[256] = (size_t (*)[256])(void *)(idx_tmp + n);
    char *vals = (char *)(counts + 8), *vals_tmp = vals + n * (size_t)w;
    for (ptrdiff_t i = 0; i < p->rows; i++) {
        row r = {p->n, w, NULL, NULL, NULL, NULL, NULL, NULL};
        sort_row(p, &r, p->data + i * p->n * w,
                 p->index ? p->index + i * p->n : NULL, counts, vals, idx,
                 keys, keys_tmp, vals_tmp, idx_tmp);
    }
    free(mem);
    return UA_OK;
}

ua_status
ua_host_search(void *queue, const ua_search_plan *p)
{
    (void)queue;
    int w = (int)ua_dtype_itemsize(p->type);
    char k = sort_kind(p->type);
    for (ptrdiff_t j = 0; j < p->m; j++) {
        uint64_t v = key_of(load(p->needles + j * w, w), w, k);
        ptrdiff_t lo = 0, hi = p->n;
        while (lo < hi) {
            ptrdiff_t mid = lo + (hi - lo) / 2;
            uint64_t a = key_of(load(p->sorted + mid * w, w), w, k);
            if (p->right ? a <= v : a < v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        p->result[j] = lo;
    }
    return UA_OK;
}

ua_status
ua_host_group(void *queue, const ua_group_plan *p, ptrdiff_t *count)
{
    (void)queue;
    int w = (int)ua_dtype_itemsize(p->type);
    char k = sort_kind(p->type);
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
