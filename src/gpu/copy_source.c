/* The copy kernels' programs and launches (copy_kernels.h). */
#include <stdio.h>
#include <stdlib.h>

#include "gpu/copy_kernels.h"
#include "gpu/copy_kernels_text.h"
#include "gpu/kernel_text.h"

/* The tiled kernels' tile, by the destination's itemsize: TILE_L elements
 * along the destination's dense axis (whole 256-byte rows for 4-byte
 * elements), 32 along the source's, and TILE_BATCHES batches per group,
 * so that a group's tiles take at most 33 KiB of local memory (CUDA's
 * static shared memory ends at 48).  TILE_MIN_BLOCKS bounds the registers
 * of the kernel with int offsets: 8 groups of 256 threads a multiprocessor
 * leave each thread 32, where the wider tiles otherwise took 80 (3 groups)
 * and ran the 8192^2 transpose slower (docs/performance.rst has its row);
 * larger elements need more registers for as many loads, and 64-bit
 * offsets twice the registers: 32 would spill. */
static int
tile_l(size_t itemsize)
{
    return itemsize > 8 ? 32 : 64;
}

static int
tile_batches(size_t itemsize)
{
    return itemsize > 4 ? 2 : 4;
}

static int
tile_min_blocks(size_t itemsize, bool wide)
{
    return wide || itemsize > 4 ? 4 : 8;
}

/* The alignment the kernels' typed accesses need for elements of t: that
 * of the storage type (a complex number is a pair of its parts). */
static size_t
element_alignment(ua_typenum t)
{
    size_t size = ua_dtype_itemsize(t);
    return ua_dtype_kind(t) == 'c' ? size / 2 : size;
}

/* What each kind of program is to the text (COPY_KIND). */
enum { KIND_ND, KIND_SMALL, KIND_TILED, KIND_BLOCKS, KIND_REVERSE };

static int
kind_of(int program)
{
    return program == UA_GPU_COPY_ND     ? KIND_ND
           : program < UA_GPU_COPY_TILED ? KIND_SMALL
                                         : KIND_TILED;
}

static bool
is_wide(int program)
{
    return program == UA_GPU_COPY_ND || (program - UA_GPU_COPY_SMALL) % 2 == 1;
}

const char *
ua_gpu_copy_kernel_name(int program)
{
    static const char *const names[] = {"ua_copy_nd", "ua_copy_small",
                                        "ua_copy_tiled"};
    return names[kind_of(program)];
}

/* The language's header and dialect, `head`, the copy text and `tail`. */
static char *
join(const ua_gpu_copy_language *l, const char *head, const char *tail)
{
    const char *const h[] = {head, NULL};
    const char *const t[] = {tail, NULL};
    const char *const *texts[] = {l->header, l->dialect, h,
                                  ua_copy_kernel_text, t};
    return ua_gpu_texts_join(texts, 5);
}

char *
ua_gpu_copy_source(const ua_gpu_copy_language *l, ua_typenum dst,
                   ua_typenum src, bool aligned, int program)
{
    char convert[200], head[1024];
    ua_kernel_conversion(&l->cvt, dst, src, convert, sizeof convert);
    size_t dsz = ua_dtype_itemsize(dst);
    bool wide = is_wide(program);
    int rank = (program - UA_GPU_COPY_SMALL) / 2 + 1;
    snprintf(head, sizeof head,
             "#define COPY_KIND %d\n#define UA_ALIGNED %d\n"
             "#define COPY_RANK %d\ntypedef %s IX;\n"
             "#define TILE_L %d\n#define TILE_BATCHES %d\n"
             "#define TILE_MIN_BLOCKS %d\n"
             "typedef %s S;\ntypedef %s D;\n"
             "#define S_ALIGN %zu\n#define D_ALIGN %zu\n"
             "INLINE_FN D convert(S v) { %s }\n",
             kind_of(program), aligned,
             kind_of(program) == KIND_SMALL ? rank : 0, wide ? "I64" : "int",
             tile_l(dsz), tile_batches(dsz), tile_min_blocks(dsz, wide),
             l->storage(src), l->storage(dst), element_alignment(src),
             element_alignment(dst), convert);
    return join(l, head, "");
}

char *
ua_gpu_copy_blocks_source(const ua_gpu_copy_language *l)
{
    char head[64];
    snprintf(head, sizeof head,
             "#define COPY_KIND %d\n#define COPY_BLOCKS %d\n", KIND_BLOCKS,
             UA_GPU_COPY_BLOCKS);
    return join(l, head, "");
}

char *
ua_gpu_reverse_source(const ua_gpu_copy_language *l, int unit)
{
    static const ua_typenum units[] = {UA_UINT8, UA_UINT16, UA_UINT32,
                                       UA_UINT64};
    char head[32], tail[64];
    snprintf(head, sizeof head, "#define COPY_KIND %d\n", KIND_REVERSE);
    snprintf(tail, sizeof tail, "REVERSE(%d, %s)\n", 1 << unit,
             unit < 4 ? l->storage(units[unit]) : "uint4");
    return join(l, head, tail);
}

static long long
magnitude(long long x)
{
    return x < 0 ? -x : x;
}

static unsigned
at_most(long long work, long long cap)
{
    return (unsigned)(work < 1 ? 1 : work < cap ? work : cap);
}

/* Whether int arithmetic reaches every element with room to spare: the
 * kernels step offsets past the far end by up to an extent before coming
 * back, and their grid-stride index by the grid's size. */
static bool
fits_int(const ua_gpu_copy_plan *p, long long threads)
{
    const long long limit = 1ll << 30;
    long long dext = 0, sext = 0;
    for (int k = 0; k < p->nd; k++) {
        dext += p->shape[k] * magnitude(p->dstep[k]);
        sext += p->shape[k] * magnitude(p->sstep[k]);
    }
    return p->size < limit && threads < limit && dext < limit && sext < limit;
}

/* Whether every element the plan reaches from base is aligned for t: the
 * base and every step are multiples of the alignment. */
static bool
reaches_aligned(const void *base, const ptrdiff_t *steps, int nd, ua_typenum t)
{
    ptrdiff_t a = (ptrdiff_t)element_alignment(t);
    bool ok = (uintptr_t)base % (uintptr_t)a == 0;
    for (int i = 0; i < nd; i++) {
        ok = ok && steps[i] % a == 0;
    }
    return ok;
}

/* Groups of 32x8 threads, x along the destination's dense axis, y along
 * the source's, z over sets of batches. */
static ua_gpu_copy_launch
tiled_launch(const ua_gpu_copy_plan *p, size_t dst_itemsize)
{
    long long nl = p->shape[p->nd - 1], na = p->shape[p->tile_axis];
    long long batches = p->size / (nl * na);
    long long tl = tile_l(dst_itemsize), per = tile_batches(dst_itemsize);
    bool wide = !fits_int(p, 0);
    return (ua_gpu_copy_launch){
        .program = UA_GPU_COPY_TILED + wide,
        .groups = {at_most((nl + tl - 1) / tl, 1ll << 30),
                   at_most((na + 31) / 32, 65535),
                   at_most((batches + per - 1) / per, 65535)},
        .threads = {32, 8, 1}};
}

static ua_gpu_copy_launch
elementwise_launch(const ua_gpu_copy_plan *p, long long max_groups)
{
    unsigned groups = at_most((p->size + 255) / 256, max_groups);
    bool wide = !fits_int(p, groups * 256ll);
    return (ua_gpu_copy_launch){
        .program = p->nd <= 4 ? UA_GPU_COPY_SMALL + 2 * (p->nd - 1) + wide
                              : UA_GPU_COPY_ND,
        .groups = {groups, 1, 1},
        .threads = {256, 1, 1}};
}

ua_gpu_copy_launch
ua_gpu_copy_prepare(const ua_copy_plan *cp, ua_typenum dt, void *dst,
                    ua_typenum st, const void *src, long long max_groups,
                    ua_gpu_copy_plan *plan)
{
    /* A scalar is a copy of rank 1. */
    *plan = (ua_gpu_copy_plan){.dst = dst,
                               .src = src,
                               .nd = cp->nd > 0 ? cp->nd : 1,
                               .size = 1,
                               .shape = {1}};
    for (int i = 0; i < cp->nd; i++) {
        plan->shape[i] = cp->shape[i];
        plan->dstep[i] = cp->dstep[i];
        plan->sstep[i] = cp->sstep[i];
        plan->size *= cp->shape[i];
    }
    plan->tile_axis = ua_copy_plan_tile_axis(cp, ua_dtype_itemsize(st), 8);
    ua_gpu_copy_launch l = plan->tile_axis >= 0
                               ? tiled_launch(plan, ua_dtype_itemsize(dt))
                               : elementwise_launch(plan, max_groups);
    l.aligned = reaches_aligned(dst, cp->dstep, cp->nd, dt) &&
                reaches_aligned(src, cp->sstep, cp->nd, st);
    return l;
}
