/* The host's sort of small groups of keys (host_sort.h): what is left of
 * a long row's buckets after their splits (host_sort_long.c), and, where
 * the CPU has AVX-512, groups of 32-bit keys of up to QUICK_KEYS, by a
 * quicksort down to small groups.
 *
 * Small groups hold a handful of keys in no order, which insertion orders
 * with a mispredicted branch or two a key.  Where the CPU has AVX-512,
 * sorting networks order them without branches instead: a group is
 * loaded into as many registers as it fills, up to eight (the lanes past
 * its end filled with the largest key, which sort after every key of the
 * group), each register sorted by a bitonic network of compare-exchange
 * steps across its lanes, then the registers merged by bitonic merges, as
 * if their count were the next power of two.  Neither a network nor the
 * quicksort keeps equal keys in their order, which a sort of keys alone
 * need not do: equal keys are the same bits.  The choice is made once, at
 * run time; other CPUs and compilers go by insertion. */
#include <stdatomic.h>
#include <string.h>

#include "backends/host/host_sort.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_NETWORKS 1
#include <immintrin.h>
#else
#define HAVE_NETWORKS 0
#endif

/* The fallback: insertion, of the n keys of s into d (s itself or a
 * place apart). */
#define DEFINE_INSERTION(B, KT)                                               \
    static void insert_into##B(const KT *s, KT *d, ptrdiff_t n)               \
    {                                                                         \
        for (ptrdiff_t i = 0; i < n; i++) {                                   \
            KT v = s[i];                                                      \
            ptrdiff_t j = i;                                                  \
            for (; j > 0 && d[j - 1] > v; j--) {                              \
                d[j] = d[j - 1];                                              \
            }                                                                 \
            d[j] = v;                                                         \
        }                                                                     \
    }

DEFINE_INSERTION(32, uint32_t)
DEFINE_INSERTION(64, uint64_t)

#if HAVE_NETWORKS

#define AVX512 __attribute__((target("avx512f")))
#define INLINE_AVX512 static inline __attribute__((always_inline)) AVX512

/* Per key width B: L keys of type KT a register, whose lanes' masks are
 * of type MT; I and U name the intrinsics' element forms (epi32, epu32).
 * A step pairs every lane i with lane i ^ x, and the higher lane of each
 * pair keeps the larger key: x = 2^j - 1 reverses blocks of 2^j lanes
 * (a bitonic network's first step on them), x = 2^j halves the blocks. */
#define DEFINE_NETWORK(B, KT, L, MT, I, U, LANES)                             \
    INLINE_AVX512 __m512i step##B(__m512i v, int x)                           \
    {                                                                         \
        __m512i partner = _mm512_xor_si512(LANES, _mm512_set1_##I(x));        \
        __m512i w = _mm512_permutexvar_##I(partner, v);                       \
        MT upper = _mm512_cmpgt_##U##_mask(LANES, partner);                   \
        return _mm512_mask_max_##U(_mm512_min_##U(v, w), upper, v, w);        \
    }                                                                         \
    /* A register's keys sorted: blocks of 2, 4, ... lanes, each block     \
     * merged from its sorted halves (written out: the compilers do not    \
     * unroll loops over powers of two). */  \
    INLINE_AVX512 __m512i sort_lanes##B(__m512i v)                            \
    {                                                                         \
        v = step##B(v, 1);                                                    \
        v = step##B(step##B(v, 3), 1);                                        \
        v = step##B(step##B(step##B(v, 7), 2), 1);                            \
        if (L == 16) {                                                        \
            v = step##B(step##B(step##B(step##B(v, 15), 4), 2), 1);           \
        }                                                                     \
        return v;                                                             \
    }                                                                         \
    /* A bitonic register's keys sorted. */                                   \
    INLINE_AVX512 __m512i clean_lanes##B(__m512i v)                           \
    {                                                                         \
        if (L == 16) {                                                        \
            v = step##B(v, 8);                                                \
        }                                                                     \
        return step##B(step##B(step##B(v, 4), 2), 1);                         \
    }                                                                         \
    /* Registers d apart in each block of 2d of r[0, n): the smaller keys  \
     * into the first.  Registers from `live` on hold the largest key in   \
     * every lane (the padding), which a step leaves where it is: no step  \
     * touches them, nor loads or stores them. */  \
    INLINE_AVX512 void halve_regs##B(__m512i *r, int n, int d, int live)      \
    {                                                                         \
        for (int i = 0; i < n; i++) {                                         \
            if ((i & d) == 0 && i + d < live) {                               \
                __m512i a = r[i], b = r[i + d];                               \
                r[i] = _mm512_min_##U(a, b);                                  \
                r[i + d] = _mm512_max_##U(a, b);                              \
            }                                                                 \
        }                                                                     \
    }                                                                         \
    /* r[0, 2m) sorted from its sorted halves: the first against the       \
     * second reversed splits them into the smaller and the larger half,   \
     * each bitonic, which halvings across registers, then lanes, sort.    \
     * The padding registers stay last, as the largest keys sort. */  \
    INLINE_AVX512 void merge_regs##B(__m512i *r, int m, int live)             \
    {                                                                         \
        __m512i reverse = _mm512_xor_si512(LANES, _mm512_set1_##I(L - 1));    \
        for (int i = 2 * m - live > 0 ? 2 * m - live : 0; i < m; i++) {       \
            __m512i a = r[i];                                                 \
            __m512i b = _mm512_permutexvar_##I(reverse, r[2 * m - 1 - i]);    \
            r[i] = _mm512_min_##U(a, b);                                      \
            r[2 * m - 1 - i] = _mm512_max_##U(a, b);                          \
        }                                                                     \
        if (m >= 4) {                                                         \
            halve_regs##B(r, 2 * m, 2, live);                                 \
        }                                                                     \
        if (m >= 2) {                                                         \
            halve_regs##B(r, 2 * m, 1, live);                                 \
        }                                                                     \
        for (int i = 0; i < 2 * m && i < live; i++) {                         \
            r[i] = clean_lanes##B(r[i]);                                      \
        }                                                                     \
    }                                                                         \
    /* Every run of 2m registers of r[0, regs) merged. */                     \
    INLINE_AVX512 void merge_runs##B(__m512i *r, int regs, int m, int live)   \
    {                                                                         \
        for (int i = 0; i < regs && i + m < live; i += 2 * m) {               \
            merge_regs##B(r + i, m, live - i);                                \
        }                                                                     \
    }                                                                         \
    /* The n keys of s, n <= regs * L, sorted into d (which may be s): the  \
     * `live` registers that hold them, as if regs were, the others        \
     * padding; no lane past the group's end is read or written. */ \
    INLINE_AVX512 void network_of##B(const KT *s, KT *d, ptrdiff_t n,         \
                                     int regs, int live)                      \
    {                                                                         \
        __m512i r[NETWORK_REGS];                                              \
        MT mask[NETWORK_REGS];                                                \
        for (int i = 0; i < live; i++) {                                      \
            ptrdiff_t left = n - (ptrdiff_t)i * L;                            \
            left = left > L ? L : left;                                       \
            mask[i] = (MT)((1ull << left) - 1);                               \
            r[i] = _mm512_mask_loadu_##I(_mm512_set1_##I(-1), mask[i],        \
                                         s + i * L);                          \
            r[i] = sort_lanes##B(r[i]);                                       \
        }                                                                     \
        if (regs >= 2) {                                                      \
            merge_runs##B(r, regs, 1, live);                                  \
        }                                                                     \
        if (regs >= 4) {                                                      \
            merge_runs##B(r, regs, 2, live);                                  \
        }                                                                     \
        if (regs >= 8) {                                                      \
            merge_runs##B(r, regs, 4, live);                                  \
        }                                                                     \
        for (int i = 0; i < live; i++) {                                      \
            _mm512_mask_storeu_##I(d + i * L, mask[i], r[i]);                 \
        }                                                                     \
    }                                                                         \
    /* 0 < n <= NETWORK_REGS * L keys, in as many registers as they fill:  \
     * the network of the next power of two, less its padding (leaves of   \
     * the quicksort fill three quarters of their power of two).  Each     \
     * case passes constants, so that its inlined copy unrolls for them. */  \
    static AVX512 void network##B(const KT *s, KT *d, ptrdiff_t n)            \
    {                                                                         \
        if (n < 1 || n > NETWORK_REGS * L) {                                  \
            return; /* no group the callers form */                           \
        }                                                                     \
        switch ((n + L - 1) / L) {                                            \
        case 1:                                                               \
            network_of##B(s, d, n, 1, 1);                                     \
            break;                                                            \
        case 2:                                                               \
            network_of##B(s, d, n, 2, 2);                                     \
            break;                                                            \
        case 3:                                                               \
            network_of##B(s, d, n, 4, 3);                                     \
            break;                                                            \
        case 4:                                                               \
            network_of##B(s, d, n, 4, 4);                                     \
            break;                                                            \
        case 5:                                                               \
            network_of##B(s, d, n, 8, 5);                                     \
            break;                                                            \
        case 6:                                                               \
            network_of##B(s, d, n, 8, 6);                                     \
            break;                                                            \
        case 7:                                                               \
            network_of##B(s, d, n, 8, 7);                                     \
            break;                                                            \
        default:                                                              \
            network_of##B(s, d, n, 8, 8);                                     \
        }                                                                     \
    }

DEFINE_NETWORK(32, uint32_t, 16, __mmask16, epi32, epu32,
               _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2,
                                1, 0))
DEFINE_NETWORK(64, uint64_t, 8, __mmask8, epi64, epu64,
               _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0))

/* The quicksort of groups of 32-bit keys.  A step takes the lower median
 * of 16 keys spread over the group (sorted by a network) as its pivot and
 * moves the group from one buffer into the other: the keys up to the
 * pivot to the front, the others to the back, 16 a step, each side
 * compressed out of a register and stored at once.  The parts go on with
 * the buffers' roles traded, down to the networks' groups.  Keys are
 * integers, and each part's lie within bounds [lo, hi] that the steps
 * above it set: a part whose bounds meet holds one key, repeated, and is
 * done; where the pivot is its upper bound, the part splits into the keys
 * below it and its copies, which are done.  A run of equal keys thus
 * costs a step or two, not as many as its length's logarithm.  Pivots
 * that keep missing the middle (a part deeper than twice its length's
 * logarithm) leave the part to heapsort, so that no group costs more than
 * n log n. */
#define AVX512_POPCNT __attribute__((target("avx512f,popcnt")))

static void
sift(uint32_t *k, ptrdiff_t root, ptrdiff_t n)
{
    uint32_t v = k[root];
    for (;;) {
        ptrdiff_t c = 2 * root + 1;
        if (c >= n) {
            break;
        }
        if (c + 1 < n && k[c + 1] > k[c]) {
            c++;
        }
        if (k[c] <= v) {
            break;
        }
        k[root] = k[c];
        root = c;
    }
    k[root] = v;
}

static void
heapsort32(uint32_t *k, ptrdiff_t n)
{
    for (ptrdiff_t i = n / 2; i-- > 0;) {
        sift(k, i, n);
    }
    for (ptrdiff_t end = n - 1; end > 0; end--) {
        uint32_t top = k[0];
        k[0] = k[end];
        k[end] = top;
        sift(k, 0, end);
    }
}

/* The lower median of 16 keys spread over the n > 128 keys of k. */
INLINE_AVX512 uint32_t
pivot_of(const uint32_t *k, ptrdiff_t n)
{
    uint32_t s[16];
    ptrdiff_t step = n / 16;
    for (int i = 0; i < 16; i++) {
        s[i] = k[i * step + step / 2];
    }
    _mm512_storeu_si512(s, sort_lanes32(_mm512_loadu_si512(s)));
    return s[7];
}

/* The n keys of s into d: those up to t to the front, the others to the
 * back; returns how many are up to t.  While 16 keys or more are left,
 * the front's register is stored whole: its lanes past the front's keys
 * fall where the back's have not come yet. */
static inline __attribute__((always_inline)) AVX512_POPCNT ptrdiff_t
partition(const uint32_t *restrict s, uint32_t *restrict d, ptrdiff_t n,
          uint32_t t)
{
    __m512i pivot = _mm512_set1_epi32((int)t);
    ptrdiff_t front = 0, back = n, i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512i v = _mm512_loadu_si512(s + i);
        __mmask16 low = _mm512_cmple_epu32_mask(v, pivot);
        int count = __builtin_popcount(low);
        _mm512_storeu_si512(d + front, _mm512_maskz_compress_epi32(low, v));
        back -= 16 - count;
        _mm512_mask_storeu_epi32(
            d + back, (__mmask16)((1u << (16 - count)) - 1),
            _mm512_maskz_compress_epi32((__mmask16)~low, v));
        front += count;
    }
    if (i < n) {
        __mmask16 in = (__mmask16)((1u << (n - i)) - 1);
        __m512i v = _mm512_maskz_loadu_epi32(in, s + i);
        __mmask16 low = _mm512_mask_cmple_epu32_mask(in, v, pivot);
        __mmask16 high = (__mmask16)(in & ~low);
        int cl = __builtin_popcount(low), ch = __builtin_popcount(high);
        _mm512_mask_storeu_epi32(d + front, (__mmask16)((1u << cl) - 1),
                                 _mm512_maskz_compress_epi32(low, v));
        back -= ch;
        _mm512_mask_storeu_epi32(d + back, (__mmask16)((1u << ch) - 1),
                                 _mm512_maskz_compress_epi32(high, v));
        front += cl;
    }
    return front;
}

/* The n keys of a, within [lo, hi], sorted into b where into_b, else
 * into a; the other is scratch.  The smaller part goes first, the larger
 * by the loop, so that the stack holds a logarithm's worth of calls. */
static AVX512_POPCNT void
quick(uint32_t *a, uint32_t *b, ptrdiff_t n, uint32_t lo, uint32_t hi,
      bool into_b, int depth)
{
    for (;;) {
        if (lo == hi || n <= 1) {
            if (into_b) {
                memcpy(b, a, (size_t)n * sizeof *a);
            }
            return;
        }
        if (n <= NETWORK_KEYS32) {
            network32(a, into_b ? b : a, n);
            return;
        }
        if (depth-- == 0) {
            heapsort32(a, n);
            if (into_b) {
                memcpy(b, a, (size_t)n * sizeof *a);
            }
            return;
        }
        uint32_t p = pivot_of(a, n);
        uint32_t t = p == hi ? hi - 1 : p;
        ptrdiff_t m = partition(a, b, n, t);
        uint32_t *x = a;
        if (m < n - m) {
            quick(b, a, m, lo, t, !into_b, depth);
            a = b + m;
            b = x + m;
            n -= m;
            lo = t + 1;
        } else {
            quick(b + m, a + m, n - m, t + 1, hi, !into_b, depth);
            a = b;
            b = x;
            n = m;
            hi = t;
        }
        into_b = !into_b;
    }
}

/* Whether the CPU runs the networks: asked once (0 not yet, 1 no, 2
 * yes), a load after that. */
static atomic_int networks_known;

static bool
have_networks(void)
{
    int known = atomic_load_explicit(&networks_known, memory_order_relaxed);
    if (known == 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx512f") &&
                        __builtin_cpu_supports("popcnt")
                    ? 2
                    : 1;
        atomic_store_explicit(&networks_known, known, memory_order_relaxed);
    }
    return known == 2;
}

#else

static bool
have_networks(void)
{
    return false;
}

#endif

ptrdiff_t
ua_host_small_keys(int key_bytes)
{
    if (have_networks()) {
        return key_bytes == 4 ? NETWORK_KEYS32 : NETWORK_KEYS64;
    }
    return INSERTION_KEYS;
}

#if HAVE_NETWORKS
#define DEFINE_SORT_SMALL(B, KT)                                              \
    void ua_host_sort_small##B(const KT *s, KT *d, ptrdiff_t n)               \
    {                                                                         \
        if (have_networks() && n > 1) {                                       \
            network##B(s, d, n);                                              \
        } else {                                                              \
            insert_into##B(s, d, n);                                          \
        }                                                                     \
    }
#else
#define DEFINE_SORT_SMALL(B, KT)                                              \
    void ua_host_sort_small##B(const KT *s, KT *d, ptrdiff_t n)               \
    {                                                                         \
        insert_into##B(s, d, n);                                              \
    }
#endif

DEFINE_SORT_SMALL(32, uint32_t)
DEFINE_SORT_SMALL(64, uint64_t)

ptrdiff_t
ua_host_quick_keys(void)
{
    return have_networks() ? QUICK_KEYS : 0;
}

void
ua_host_sort_quick32(uint32_t *a, uint32_t *b, ptrdiff_t n, bool into_b)
{
#if HAVE_NETWORKS
    if (!have_networks()) {
        return; /* callers ask ua_host_quick_keys() first */
    }
    int depth = 0;
    for (ptrdiff_t m = n; m > 1; m >>= 1) {
        depth += 2;
    }
    quick(a, b, n, 0, UINT32_MAX, into_b, depth);
#else
    (void)a, (void)b, (void)n, (void)into_b;
#endif
}
