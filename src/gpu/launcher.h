/* The reductions, scans, sorts, searches, groups and matrix products of
 * the run-time compiled backends (CUDA, SYCL): one kernel text
 * (reduce_kernels.inc, order_kernels.inc) in the subset of C both
 * languages compile, and the launches that carry out each plan of the
 * compute-kernel table through a backend's launcher, so that the backends
 * share every decision and differ only in how they compile, launch and
 * allocate. */
#ifndef USMARRAY_GPU_LAUNCHER_H
#define USMARRAY_GPU_LAUNCHER_H

#include "core/backend.h"
#include "core/compute/kernels.h"

/* Threads per group of every kernel of the text. */
#define UA_GPU_GROUP 256

/* The kernels of a program, in the order of ua_gpu_kernel_names. */
typedef enum ua_gpu_kernel {
    UA_GPU_RED_LANES,
    UA_GPU_RED_CHUNKS,
    UA_GPU_ARG_CHUNKS,
    UA_GPU_SCAN_ROWS,
    UA_GPU_IOTA,
    UA_GPU_MERGE,
    UA_GPU_SEARCH,
    UA_GPU_GROUP_RUNS,
    UA_GPU_MATMUL,
    UA_GPU_RED_DENSE,
    UA_GPU_ARG_DENSE,
    UA_GPU_SCAN_TILES,
    UA_GPU_SCAN_TOTALS,
    UA_GPU_RED_LANES_VEC,
    UA_GPU_RADIX_KEYS,
    UA_GPU_RADIX_HIST,
    UA_GPU_RADIX_SCATTER,
    UA_GPU_RADIX_FINISH,
    UA_GPU_NKERNELS
} ua_gpu_kernel;
extern const char *const ua_gpu_kernel_names[UA_GPU_NKERNELS];

/* A program holds one family of kernels: a kernel alone, or the few that
 * one operation always launches together, so that a first call compiles
 * what it runs and no more (NVRTC's time grows with each kernel). */
typedef enum ua_gpu_family {
    UA_GPU_F_RED_LANES,
    UA_GPU_F_RED_LANES_VEC,
    UA_GPU_F_RED_CHUNKS,
    UA_GPU_F_RED_DENSE,
    UA_GPU_F_ARG, /* ua_arg_dense and the ua_arg_chunks after it */
    UA_GPU_F_SCAN_ROWS,
    UA_GPU_F_SCAN, /* ua_scan_totals, ua_scan_tiles */
    UA_GPU_F_IOTA,
    UA_GPU_F_MERGE,
    UA_GPU_F_SEARCH,
    UA_GPU_F_GROUP,
    UA_GPU_F_MATMUL,
    UA_GPU_F_RADIX, /* the keys, counts, passes and gather of a sort */
    UA_GPU_NFAMILIES,
    /* Every kernel in one program: for checks that compile them all. */
    UA_GPU_F_ALL = UA_GPU_NFAMILIES
} ua_gpu_family;
ua_gpu_family ua_gpu_family_of(ua_gpu_kernel k);
/* Short names of the families, for messages and traces. */
extern const char *const ua_gpu_family_names[UA_GPU_NFAMILIES];

/* What a program is compiled for: elements of type x read as the
 * accumulator a's values, or (truth) as their truth in a (bool, or
 * uint64 to count them). */
typedef struct ua_gpu_types {
    ua_typenum x, a;
    bool truth;
} ua_gpu_types;
/* A kernel argument. */
typedef enum { UA_GPU_PTR, UA_GPU_I64, UA_GPU_I32 } ua_gpu_arg_kind;
typedef struct ua_gpu_arg {
    ua_gpu_arg_kind kind;
    const void *p;
    long long i64;
    int i32;
} ua_gpu_arg;

/* A program: a family's kernels compiled for a pair of types and, where
 * they take an operation (sum, product, minimum...: their op argument),
 * for one operation (op; -1: any), so that a first call compiles that
 * operation's code and no other. */
typedef struct ua_gpu_program {
    ua_gpu_types t;
    ua_gpu_family family;
    int op;
    /* The source of one of the family's kernels alone (a backend may
     * compile a family's kernels side by side), or -1: all of them. */
    int kernel;
} ua_gpu_program;
/* Where kernel k takes its op among its arguments, or -1. */
int ua_gpu_op_argument(ua_gpu_kernel k);
/* The program that runs kernel k with these arguments for t. */
ua_gpu_program ua_gpu_program_for(const ua_gpu_types *t, ua_gpu_kernel k,
                                  const ua_gpu_arg *args, int nargs);
/* The program of the groups of sorted elements of type (ua_gpu_group). */
ua_gpu_program ua_gpu_group_program(ua_typenum type);
/* Distinct programs, distinct keys. */
uint64_t ua_gpu_program_key(const ua_gpu_program *p);

/* How a language writes what the type layer needs: the backend's header
 * (NULL-ended parts), the layer's dialect for it (ua_gpu_cuda_dialect_text,
 * ua_gpu_opencl_dialect_text) and the storage type of each dtype's
 * elements. */
typedef struct ua_gpu_language {
    const char *const *header;
    const char *const *dialect;
    const char *(*storage)(ua_typenum t);
} ua_gpu_language;
/* The whole source of program p (malloc'd), or NULL when out of
 * memory. */
char *ua_gpu_program_source(const ua_gpu_language *l, const ua_gpu_program *p);
/* Whether the program uses 64-bit floating point. */
bool ua_gpu_types_need_fp64(const ua_gpu_types *t);

/* A compiling backend's launcher: the table it fills once for all its
 * queues, of compile and launch, device memory and copies. */
typedef struct ua_gpu_launcher_ops {
    /* Enqueues `groups` groups of UA_GPU_GROUP threads of a kernel of the
     * program of its family for t, compiled on first use. */
    ua_status (*launch)(void *queue, const ua_gpu_types *t, ua_gpu_kernel k,
                        size_t groups, const ua_gpu_arg *args, int nargs);
    /* Device memory for the queue's work, released once the work
     * enqueued so far is done. */
    ua_status (*temporary)(void *queue, size_t nbytes, void **ptr);
    void (*release_temporary)(void *queue, void *ptr);
    /* n bytes from the host to device memory, in queue order (the host's
     * bytes may be reused on return), and back (waiting). */
    ua_status (*upload)(void *queue, void *dst, const void *src, size_t n);
    ua_status (*download)(void *queue, void *dst, const void *src, size_t n);
    /* The backend's strided copy with conversion (astype's). */
    ua_status (*copy_strided)(void *queue, int nd, const ptrdiff_t *shape,
                              const ua_strided *dst, const ua_strided *src);
} ua_gpu_launcher_ops;

/* The first member of a compiling backend's queue: the GPU layer's
 * entries below find the backend's launcher through it. */
typedef struct ua_gpu_queue {
    const ua_gpu_launcher_ops *launcher;
} ua_gpu_queue;

/* Entries of the compute-kernel table (core/compute/kernels.h) for the
 * queues of any compiling backend. */
ua_status ua_gpu_reduce(void *queue, const ua_reduce_plan *p);
ua_status ua_gpu_scan(void *queue, const ua_scan_plan *p);
ua_status ua_gpu_sort(void *queue, const ua_sort_plan *p);
ua_status ua_gpu_search(void *queue, const ua_search_plan *p);
ua_status ua_gpu_group(void *queue, const ua_group_plan *p, ptrdiff_t *count);
ua_status ua_gpu_matmul(void *queue, const ua_matmul_plan *p);

#endif
