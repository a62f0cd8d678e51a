/* The copy kernels (copy_kernels.inc) as the backends compile and launch
 * them: the programs' sources in a backend's language, their plans as the
 * backends fill them (by value where the language passes a struct, in
 * device-visible memory where it passes a pointer: PLAN_ARG) and how a
 * launch covers a plan. */
#ifndef USMARRAY_GPU_COPY_KERNELS_H
#define USMARRAY_GPU_COPY_KERNELS_H

#include <stddef.h>

#include "core/backend.h"

#define UA_GPU_COPY_DIMS 64

/* The typed copy programs of one pair of element types, each one kernel:
 * of any rank, of ranks 1 to 4 with int or 64-bit offsets, tiled with
 * either. */
enum {
    UA_GPU_COPY_ND = 0,
    UA_GPU_COPY_SMALL,                         /* + 2 * (rank - 1) + wide */
    UA_GPU_COPY_TILED = UA_GPU_COPY_SMALL + 8, /* + wide */
    UA_GPU_COPY_PROGRAMS = UA_GPU_COPY_TILED + 2
};

/* The plan of the typed kernels: the fields of the text's cpplan, in their
 * order (on the 64-bit devices the backends run, a pointer is 8 bytes). */
typedef struct ua_gpu_copy_plan {
    char *dst;
    const char *src;
    long long size;
    int nd;
    int tile_axis;
    long long shape[UA_GPU_COPY_DIMS];
    long long dstep[UA_GPU_COPY_DIMS];
    long long sstep[UA_GPU_COPY_DIMS];
} ua_gpu_copy_plan;

_Static_assert(sizeof(void *) == 8 && offsetof(ua_gpu_copy_plan, shape) == 32,
               "the copy kernels' plan is the text's cpplan");

/* The dense copies of one ua_copy_blocks launch: the text's copy_batch. */
#define UA_GPU_COPY_BLOCKS 64
typedef struct ua_gpu_copy_block {
    char *d;
    const char *s;
    long long bytes;
} ua_gpu_copy_block;
typedef struct ua_gpu_copy_batch {
    ua_gpu_copy_block b[UA_GPU_COPY_BLOCKS];
} ua_gpu_copy_batch;

/* A language the copy kernels are compiled in: its header (NULL-ended
 * parts: the fixed-width and complex types, float16 and float-to-integer
 * helpers that cvt names), the layer's dialect for it, how its conversions
 * are spelt and the storage type of each dtype's elements. */
typedef struct ua_gpu_copy_language {
    const char *const *header;
    const char *const *dialect;
    ua_kernel_dialect cvt;
    const char *(*storage)(ua_typenum t);
} ua_gpu_copy_language;

/* The source of typed copy program `program` from src to dst (malloc'd),
 * or NULL when out of memory; aligned: the variant for aligned data only.
 * Its one kernel is ua_gpu_copy_kernel_name(program). */
char *ua_gpu_copy_source(const ua_gpu_copy_language *l, ua_typenum dst,
                         ua_typenum src, bool aligned, int program);
const char *ua_gpu_copy_kernel_name(int program);
/* The sources of the untyped programs: ua_copy_blocks, and ua_reverse_U
 * for units of U = 1 << unit bytes (unit 0 to 4). */
char *ua_gpu_copy_blocks_source(const ua_gpu_copy_language *l);
char *ua_gpu_reverse_source(const ua_gpu_copy_language *l, int unit);

/* One launch of a typed copy: its program, the variant, and groups of
 * threads along x, y and z (x the fastest; OpenCL's dimension 0). */
typedef struct ua_gpu_copy_launch {
    int program;
    bool aligned;
    unsigned groups[3];
    unsigned threads[3];
} ua_gpu_copy_launch;

/* Fills the kernels' plan of a copy of dst (elements dt) from src (st)
 * and says how to launch it, with at most max_groups groups along x where
 * the kernel walks its elements a grid's size apart. */
ua_gpu_copy_launch ua_gpu_copy_prepare(const ua_copy_plan *cp, ua_typenum dt,
                                       void *dst, ua_typenum st,
                                       const void *src, long long max_groups,
                                       ua_gpu_copy_plan *plan);

#endif
