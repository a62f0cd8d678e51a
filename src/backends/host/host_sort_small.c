/* The host's sort of small groups of keys (host_sort.h): what is left of
 * a long row's buckets after their splits (host_sort_long.c).
 *
 * Such groups hold a handful of keys in no order, which insertion orders
 * with a mispredicted branch or two a key.  Where the CPU has AVX-512,
 * sorting networks order them without branches instead: a group is
 * loaded into one, two or four registers (the lanes past its end filled
 * with the largest key, which sort after every key of the group), each
 * register sorted by a bitonic network of compare-exchange steps across
 * its lanes, then the registers merged by bitonic merges.  A network does
 * not keep equal keys in their order, which a sort of keys alone need not
 * do: equal keys are the same bits.  The choice is made once, at run
 * time; other CPUs and compilers go by insertion. */
#include <stdatomic.h>

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
     * into the first. */  \
    INLINE_AVX512 void halve_regs##B(__m512i *r, int n, int d)                \
    {                                                                         \
        for (int i = 0; i < n; i++) {                                         \
            if ((i & d) == 0) {                                               \
                __m512i a = r[i], b = r[i + d];                               \
                r[i] = _mm512_min_##U(a, b);                                  \
                r[i + d] = _mm512_max_##U(a, b);                              \
            }                                                                 \
        }                                                                     \
    }                                                                         \
    /* r[0, 2m) sorted from its sorted halves: the first against the       \
     * second reversed splits them into the smaller and the larger half,   \
     * each bitonic, which halvings across registers, then lanes, sort. */  \
    INLINE_AVX512 void merge_regs##B(__m512i *r, int m)                       \
    {                                                                         \
        __m512i reverse = _mm512_xor_si512(LANES, _mm512_set1_##I(L - 1));    \
        for (int i = 0; i < m; i++) {                                         \
            __m512i a = r[i];                                                 \
            __m512i b = _mm512_permutexvar_##I(reverse, r[2 * m - 1 - i]);    \
            r[i] = _mm512_min_##U(a, b);                                      \
            r[2 * m - 1 - i] = _mm512_max_##U(a, b);                          \
        }                                                                     \
        if (m >= 4) {                                                         \
            halve_regs##B(r, 2 * m, 2);                                       \
        }                                                                     \
        if (m >= 2) {                                                         \
            halve_regs##B(r, 2 * m, 1);                                       \
        }                                                                     \
        for (int i = 0; i < 2 * m; i++) {                                     \
            r[i] = clean_lanes##B(r[i]);                                      \
        }                                                                     \
    }                                                                         \
    /* Every run of 2m registers of r[0, regs) merged. */                     \
    INLINE_AVX512 void merge_runs##B(__m512i *r, int regs, int m)             \
    {                                                                         \
        for (int i = 0; i < regs; i += 2 * m) {                               \
            merge_regs##B(r + i, m);                                          \
        }                                                                     \
    }                                                                         \
    /* The n keys of s, n <= regs * L, sorted into d (which may be s):      \
     * no lane past the group's end is read or written. */ \
    INLINE_AVX512 void network_of##B(const KT *s, KT *d, ptrdiff_t n,         \
                                     int regs)                                \
    {                                                                         \
        __m512i r[NETWORK_REGS];                                              \
        MT mask[NETWORK_REGS];                                                \
        for (int i = 0; i < regs; i++) {                                      \
            ptrdiff_t left = n - (ptrdiff_t)i * L;                            \
            left = left < 0 ? 0 : left > L ? L : left;                        \
            mask[i] = (MT)((1ull << left) - 1);                               \
            r[i] = _mm512_mask_loadu_##I(_mm512_set1_##I(-1), mask[i],        \
                                         left > 0 ? s + i * L : s);           \
            r[i] = sort_lanes##B(r[i]);                                       \
        }                                                                     \
        if (regs >= 2) {                                                      \
            merge_runs##B(r, regs, 1);                                        \
        }                                                                     \
        if (regs >= 4) {                                                      \
            merge_runs##B(r, regs, 2);                                        \
        }                                                                     \
        if (regs >= 8) {                                                      \
            merge_runs##B(r, regs, 4);                                        \
        }                                                                     \
        for (int i = 0; i < regs; i++) {                                      \
            if (mask[i] != 0) {                                               \
                _mm512_mask_storeu_##I(d + i * L, mask[i], r[i]);             \
            }                                                                 \
        }                                                                     \
    }                                                                         \
    static AVX512 void network##B(const KT *s, KT *d, ptrdiff_t n)            \
    {                                                                         \
        if (n <= L) {                                                         \
            network_of##B(s, d, n, 1);                                        \
        } else if (n <= 2 * L) {                                              \
            network_of##B(s, d, n, 2);                                        \
        } else if (n <= 4 * L) {                                              \
            network_of##B(s, d, n, 4);                                        \
        } else {                                                              \
            network_of##B(s, d, n, 8);                                        \
        }                                                                     \
    }

DEFINE_NETWORK(32, uint32_t, 16, __mmask16, epi32, epu32,
               _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2,
                                1, 0))
DEFINE_NETWORK(64, uint64_t, 8, __mmask8, epi64, epu64,
               _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0))

/* Whether the CPU runs the networks: asked once (0 not yet, 1 no, 2
 * yes), a load after that. */
static atomic_int networks_known;

static bool
have_networks(void)
{
    int known = atomic_load_explicit(&networks_known, memory_order_relaxed);
    if (known == 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx512f") ? 2 : 1;
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
