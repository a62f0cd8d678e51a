/* The plans of the index and compress kernels (index_kernels.inc), as the
 * backends fill them: the fields of the text's iplan and cplan, in their
 * order (on the 64-bit devices the backends run, a pointer is 8 bytes, as
 * I64). */
#ifndef USMARRAY_GPU_INDEX_KERNELS_H
#define USMARRAY_GPU_INDEX_KERNELS_H

#include <stddef.h>

#define UA_GPU_INDEX_DIMS 64
/* The mask kernels' tiles: groups of UA_GPU_TILE_THREADS threads, 16 bytes
 * of the mask each. */
#define UA_GPU_TILE_THREADS 256
#define UA_GPU_TILE (UA_GPU_TILE_THREADS * 16)

typedef struct ua_gpu_index_plan {
    long long shape[UA_GPU_INDEX_DIMS], rstep[UA_GPU_INDEX_DIMS],
        astep[UA_GPU_INDEX_DIMS], istep[UA_GPU_INDEX_DIMS];
    char *result;
    char *array;
    const char *index;
    long long length, stride, size;
    long long *flag;
    int nd, mode, units;
} ua_gpu_index_plan;

_Static_assert(sizeof(void *) == 8 && offsetof(ua_gpu_index_plan, nd) ==
                                          (4 * UA_GPU_INDEX_DIMS + 7) * 8,
               "the index kernels' plan is the text's iplan");

typedef struct ua_gpu_compress_plan {
    const unsigned char *mask;
    long long n;
    const long long *offsets;
    const char *src;
    long long sstep;
    char *dst;
    long long units;
    long long shape[UA_GPU_INDEX_DIMS];
    int nd;
} ua_gpu_compress_plan;

_Static_assert(offsetof(ua_gpu_compress_plan, nd) ==
                   (7 + UA_GPU_INDEX_DIMS) * 8,
               "the compress kernels' plan is the text's cplan");

#endif
