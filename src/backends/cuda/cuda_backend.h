/* What the two halves of the CUDA backend share: cuda.c loads the driver
 * and manages devices, contexts, queues, memory and events; cuda_copy.c is
 * the copy engine (memcpy, memset and strided copies with their kernels and
 * staging buffers).  Not installed. */
#ifndef USMARRAY_CUDA_BACKEND_H
#define USMARRAY_CUDA_BACKEND_H

#include <pthread.h>

#include "backends/cuda/cuda_driver.h"
#include "core/backend.h"
#include "gpu/copy_kernels.h"
#include "gpu/elementwise_source.h"
#include "gpu/launcher.h"

/* The compute kernels' programs (cuda_programs.c), each of the kernels one
 * operation launches, so that a first call compiles those alone: an index
 * kernel per unit, rank (its N) and mode (a gather, a scatter or offsets:
 * one mode's code is a third of the three's, and of their compile time),
 * the mask's tile counts, a compress kernel per unit, the batched copies, a
 * reversal per unit and the fill patterns.  Units of 1, 2, 4, 8 and 16
 * bytes, as ua_cuda_unit_names writes them. */
enum {
    UA_CUDA_PROGRAM_INDEX = 0, /* + 9 * unit + 3 * N + mode */
    UA_CUDA_PROGRAM_TILES = UA_CUDA_PROGRAM_INDEX + 45,
    UA_CUDA_PROGRAM_COMPRESS, /* + unit */
    UA_CUDA_PROGRAM_COPIES = UA_CUDA_PROGRAM_COMPRESS + 5,
    UA_CUDA_PROGRAM_REVERSE, /* + unit */
    UA_CUDA_PROGRAM_FILL = UA_CUDA_PROGRAM_REVERSE + 5,
    UA_CUDA_COMPUTE_PROGRAMS
};
extern const char *const ua_cuda_unit_names[5];

/* Alignment cuMemAlloc and cuMemAllocManaged guarantee. */
#define CUDA_DEVICE_ALIGNMENT 256
/* Alignment of pinned host memory (pages). */
#define CUDA_HOST_ALIGNMENT 4096

/* The driver's entry points (ua_cuda_driver, cuda_driver.h), loaded by
 * cuda.c. */
/* NVRTC's, loaded by cuda.c when present: only strided copies need it. */
typedef struct {
#define DECLARE(field, symbol, params) nvrtcResult(*field) params;
    UA_NVRTC_FUNCTIONS(DECLARE)
#undef DECLARE
    const char *(*nvrtcGetErrorString)(nvrtcResult r);
    bool loaded;
    char reason[200];
} ua_cuda_nvrtc;

/* The driver and NVRTC (cuda_loader.c): loading the driver fails with
 * UA_ERR_UNAVAILABLE and the reason where it is absent or too old; NVRTC
 * absent leaves ua_nvrtc.reason saying why. */
extern ua_cuda_driver ua_cu;
extern ua_cuda_nvrtc ua_nvrtc;
ua_status ua_cuda_load_driver(void);
void ua_cuda_load_nvrtc(void);

/* Turns a failed driver call into a status with the driver's words. */
ua_status ua_cuda_failed(CUresult r, const char *what);

#define CU_CHECK(call, what)                                                  \
    do {                                                                      \
        CUresult r_ = (call);                                                 \
        if (r_ != CUDA_SUCCESS) {                                             \
            return ua_cuda_failed(r_, what);                                  \
        }                                                                     \
    } while (0)

/* The compiled copy kernels of one pair of element types, each program
 * (gpu/copy_kernels.h) compiled on first use. */
typedef struct {
    CUmodule modules[UA_GPU_COPY_PROGRAMS];
    CUfunction f[UA_GPU_COPY_PROGRAMS];
} ua_cuda_copy_kernels;

/* Pageable copies' pipeline (cuda_pipeline.c): per worker thread, two
 * pinned slots and the events of their last transfers. */
#define UA_CUDA_PIPE_WORKERS 8
typedef struct {
    void *slot[2];
    CUevent done[2];
    bool pending[2];
} ua_cuda_pipe_worker;

typedef struct {
    pthread_mutex_t lock; /* one pipelined copy at a time */
    int nworkers;         /* 0 until first used */
    ua_cuda_pipe_worker w[UA_CUDA_PIPE_WORKERS];
} ua_cuda_pipeline;

/* A block of the stream-ordered pool freed on `stream` and kept aside for
 * that stream's next allocation of the same size. */
#define UA_CUDA_KEPT_BLOCKS 4
typedef struct {
    CUdeviceptr ptr;
    size_t bytes;
    CUstream stream;
} ua_cuda_kept_block;

typedef struct ua_cuda_context {
    CUcontext ctx;
    CUdevice dev;
    int index;
    int sm_count, cc_major, cc_minor;
    CUmemoryPool pool; /* device memory ordered by streams; NULL: none */
    pthread_mutex_t kept_lock;
    ua_cuda_kept_block kept[UA_CUDA_KEPT_BLOCKS]; /* ptr 0: empty */
    int kept_next;        /* the slot a full set displaces next */
    pthread_mutex_t lock; /* guards kernels */
    ua_cuda_pipeline pipe;
    /* [aligned?][dst][src]: gpu/copy_kernels.inc says why two variants. */
    ua_cuda_copy_kernels kernels[2][UA_NTYPES][UA_NTYPES];
    /* The compute kernels' programs (cuda_compute.c), each compiled on
     * first use, and the functions of them looked up so far (by name,
     * under lock): a lookup by the driver cost more than a small call's
     * budget. */
    CUmodule compute[UA_CUDA_COMPUTE_PROGRAMS];
    int nfunctions;
    struct {
        char name[32];
        int program;
        CUfunction f;
    } functions[64];
    /* The elementwise kernels compiled so far (cuda_compute.c), by
     * variant key, under lock: an open-addressed table of ew_cap slots. */
    ua_ew_table ew;
    /* The reduction programs compiled so far (cuda_launcher.c), by their
     * key (types, family, operation), under lock. */
    ua_ew_table reduce;
    /* The radix sort's modules (cuda_sort.c) for keys of 2, 4 and 8
     * bytes, a kernel each (histogram, pass of keys, pass of keys and
     * positions), each compiled on first use, and their kernels, under
     * lock. */
    CUmodule sort_modules[3][3];
    CUfunction sort_functions[3][3];
    /* The context's cuBLAS handle (cuda_blas.c), made on first use. */
    void *cublas;
    /* The context's cuSOLVER handle (cuda_solver.c), made on first use
     * and used under solver_lock, apart from lock: some of its routines
     * wait for the device. */
    void *cusolver;
    pthread_mutex_t solver_lock;
    /* The context's cuFFT plans (cuda_fft.c), made on first use, under
     * lock. */
    struct ua_cuda_fft_plans *fft_plans;
    /* Programs compiled at NVRTC's fast level for a first call whose full
     * compile runs in a thread (cuda_program.c), under lock. */
    struct ua_cuda_upgrade *upgrades;
} ua_cuda_context;

typedef struct {
    ua_gpu_queue gpu; /* first: the GPU layer's launches find it */
    ua_cuda_context *c;
    CUstream stream;
    bool owns_stream;     /* else the legacy default stream or another's */
    pthread_mutex_t lock; /* guards the staging buffer */
    void *staging;
    size_t staging_bytes;
    /* Words of pinned host memory that the queue's kernels write for the
     * host to read after a synchronization (a count, an index out of
     * bounds), in place of a copy back; mailbox_lock is held from the
     * launch to the read. */
    pthread_mutex_t mailbox_lock;
    long long *mailbox;
} ua_cuda_queue;

/* Starts NVRTC in a thread of its own, once a process, so that its
 * first compile does not wait for NVRTC's start (cuda_program.c). */
void ua_cuda_nvrtc_prewarm(const ua_cuda_context *c);
/* Joins the threads of cuda_program.c (NVRTC's start, the full compiles
 * beside the calls) and of cuda_memory.c (the pools' set-up): the
 * backend's quiesce. */
void ua_cuda_program_quiesce(void);
void ua_cuda_primes_join(void);

/* cuda_program.c: compiles CUDA C++ source with NVRTC for c's device
 * (or reads the cubin from the disk cache) and loads it; `what` names it
 * in messages and traces.
 *
 * A first call need not wait for NVRTC's full optimization of a program
 * whose results cannot depend on it: a tier names how the program's
 * module is installed in the caller's tables.  Where the disk cache lacks
 * the program, it is compiled at NVRTC's fast level and loaded at once,
 * and compiled in full in a thread of its own (kept in the disk cache);
 * a later lookup under c->lock (ua_cuda_upgrades_install) then gives the
 * full module to install(c, module, where), the fast one staying loaded
 * for the launches already enqueued. */
typedef ua_status (*ua_cuda_install_fn)(struct ua_cuda_context *c, CUmodule m,
                                        const long long where[2]);
typedef struct ua_cuda_tier {
    ua_cuda_install_fn install; /* NULL: compiled in full at once */
    long long where[2];
} ua_cuda_tier;
ua_status ua_cuda_compile(ua_cuda_context *c, const char *source,
                          const char *what, const ua_cuda_tier *tier,
                          CUmodule *module);
/* The cubin of source for c's device (malloc'd, *size bytes), from the
 * disk cache or compiled in full and kept there. */
ua_status ua_cuda_compile_image(const ua_cuda_context *c, const char *source,
                                const char *what, char **image, size_t *size);
/* Programs that one call needs, compiled side by side (a thread each,
 * at most UA_CUDA_COMPILE_MAX) and loaded into modules[i], each under
 * tiers[i] where tiers is not NULL; on failure none is loaded, and the
 * first failure's message is set. */
#define UA_CUDA_COMPILE_MAX 6
ua_status ua_cuda_compile_all(ua_cuda_context *c, int n,
                              const char *const *sources,
                              const char *const *what,
                              const ua_cuda_tier *tiers, CUmodule *modules);
/* A program that a call needs and its context lacks: its source
 * (malloc'd), its name, and where its module goes (tier.install puts the
 * first module and the full one after it in place). */
typedef struct ua_cuda_job {
    char *source;
    char what[64];
    ua_cuda_tier tier;
} ua_cuda_job;
/* Compiles jobs side by side (ua_cuda_compile_all), installs each module
 * and frees the sources; *compiled says whether the compile succeeded
 * (full compiles may then be running, installing where the tiers say).
 * Called under c->lock. */
ua_status ua_cuda_jobs_run(ua_cuda_context *c, ua_cuda_job *jobs, int n,
                           bool *compiled);
/* Frees the sources of jobs[0..n), for a collection that failed; and the
 * same with out of memory's message set.  Both return -1. */
int ua_cuda_jobs_drop(ua_cuda_job *jobs, int n);
int ua_cuda_jobs_out_of_memory(ua_cuda_job *jobs, int n);
/* The jobs of the programs a call needs that c lacks, appended at
 * jobs[0..]: their number, at most cap, or -1 (out of memory, message
 * set).  Called under c->lock.  A compute program (cuda_programs.c); the
 * one-sweep sort's kernels of p, where it takes p (cuda_sort.c); the
 * kernels of a GPU layer program's family, installed into f
 * (cuda_launcher.c, whose table then takes f: ua_cuda_family_add). */
int ua_cuda_program_jobs(ua_cuda_context *c, int program, ua_cuda_job *jobs,
                         int cap);
int ua_cuda_sort_jobs(ua_cuda_context *c, const ua_sort_plan *p,
                      ua_cuda_job *jobs, int cap);
int ua_cuda_family_jobs(ua_cuda_context *c, const ua_gpu_program *p,
                        CUfunction *f, ua_cuda_job *jobs, int cap);
ua_status ua_cuda_family_add(ua_cuda_context *c, const ua_gpu_program *p,
                             CUfunction *f);
/* The job of p's elementwise kernel, where c lacks it and jobs[0..n)
 * holds no job of it: appended at jobs[n] where n < cap (1), else 0, or
 * -1 out of memory (cuda_elementwise.c).  Called under c->lock. */
int ua_cuda_ew_jobs(ua_cuda_context *c, const ua_elementwise_plan *p,
                    ua_cuda_job *jobs, int n, int cap);
/* The elementwise kernels' launch shape (cuda_elementwise.c): threads a
 * block, 16-byte vectors a thread at a time, and the grid's cap in
 * blocks a multiprocessor (0: none). */
typedef struct ua_cuda_ew_shape {
    int threads, unroll, per_sm;
} ua_cuda_ew_shape;
const ua_cuda_ew_shape *ua_cuda_ew_tune(void);
/* The variant of p's kernel that the compute table launches, and the
 * threads of a row where it reduces rows. */
void ua_cuda_ew_variant(const ua_elementwise_plan *p, ua_ew_variant *v,
                        int *row_threads);
/* The kernel of variant v in q's context, compiled on first use and
 * kept. */
ua_status ua_cuda_ew_function(ua_cuda_queue *q, const ua_ew_variant *v,
                              CUfunction *f);
/* The compute program of a one-dimensional gather of aligned elements of
 * itemsize bytes (cuda_programs.c). */
int ua_cuda_gather_program(size_t itemsize);
/* cuda_prepare.c: the compute table's prepare (kernels.h). */
ua_status ua_cuda_prepare(void *queue, const ua_prepare_item *items, int n);
/* Installs the full modules whose compile has ended; called under
 * c->lock before a lookup of a compiled kernel. */
void ua_cuda_upgrades_install(ua_cuda_context *c);
/* Whether USMARRAY_TRACE_COMPILE is set, and the monotonic clock's
 * milliseconds, for the traces of first calls. */
bool ua_cuda_tracing(void);
double ua_cuda_now_ms(void);
/* The CUDA C++ type that holds elements of t (c64 and c128: the kernels'
 * prelude's pairs, float16: its bits). */
const char *ua_cuda_type_name(ua_typenum t);

extern const ua_compute_ops ua_cuda_compute_ops;

/* The launcher through which the GPU layer runs reductions, scans, sorts,
 * searches, groups and products on the backend's queues, and the sorts
 * and products that try the radix sort and cuBLAS first
 * (cuda_launcher.c). */
extern const ua_gpu_launcher_ops ua_cuda_launcher;
ua_status ua_cuda_sort(void *queue, const ua_sort_plan *p);
ua_status ua_cuda_matmul(void *queue, const ua_matmul_plan *p);
/* cuda_sort.c: the one-sweep radix sort where it takes the plan (*done
 * true), else nothing done. */
ua_status ua_cuda_radix_sort(ua_cuda_queue *q, const ua_sort_plan *p,
                             bool *done);
/* cuda_solver.c: cuSOLVER's factorizations; cuda_fft.c: cuFFT's
 * transforms (library_kernels.h), each loaded at run time. */
ua_status ua_cuda_solver(void *queue, const ua_solver_plan *p);
const char *ua_cuda_solver_description(void);
ua_status ua_cuda_fft(void *queue, const ua_fft_plan *p);
const char *ua_cuda_fft_description(void);
/* The source of the reduction program of elements of type x read as a's
 * values, or their truth, with every kernel; and that of one program
 * (for tools that compile each ahead of time). */
char *ua_cuda_reduce_source(ua_typenum x, ua_typenum a, bool truth);
char *ua_cuda_reduce_program_source(const ua_gpu_program *p);
/* cuda_programs.c: the source of compute program `program` (below
 * UA_CUDA_COMPUTE_PROGRAMS, malloc'd) and its name, for the same tools;
 * the kernel of that name in it, compiled on first use; a launch of
 * `blocks` blocks of `threads` threads of it on q's stream; and the blocks
 * for `work` items of `threads` threads, at most 32 a multiprocessor (the
 * kernels walk the rest a grid's size apart). */
char *ua_cuda_compute_source(int program, char *what, size_t cap);
ua_status ua_cuda_program_function(ua_cuda_queue *q, int program,
                                   const char *name, CUfunction *f);
/* The programs one call will launch, those not compiled yet compiled
 * side by side (at most UA_CUDA_COMPILE_MAX; the rest compile on use). */
ua_status ua_cuda_programs_prepare(ua_cuda_queue *q, const int *programs,
                                   int n);
ua_status ua_cuda_program_launch(ua_cuda_queue *q, int program,
                                 const char *name, unsigned blocks,
                                 unsigned threads, void **args);
unsigned ua_cuda_blocks_for(const ua_cuda_queue *q, long long work,
                            int threads);
/* cuda_copy.c: how the copy kernels are written in CUDA C++ (the
 * compute programs' batched copies and reversals too). */
extern const ua_gpu_copy_language ua_cuda_copy_language;
/* cuda_blas.c: the product on cuBLAS where it takes the plan (*done
 * true), else nothing done; and where cuBLAS was found, in words. */
ua_status ua_cuda_blas_gemm(ua_cuda_queue *q, const ua_matmul_plan *p,
                            bool *done);
const char *ua_cuda_blas_description(void);
/* cuda_blas.c, for cuda_solver.c: whether cuBLAS's batched LU is there;
 * the LU factors of batch n x n matrices (a: a device array of their
 * addresses), pivots (n per matrix) and statuses (info, one per matrix,
 * as getrf's), then, where b is not NULL, a^-1 b in place of the n x nrhs
 * matrices that b addresses; and x <- conj(x) for count complex
 * elements. */
bool ua_cuda_blas_has_batched(void);
ua_status ua_cuda_blas_lu_batched(ua_cuda_queue *q, ua_typenum type, int n,
                                  void *const *a, int *pivots, int *info,
                                  int nrhs, void *const *b, int batch);
ua_status ua_cuda_blas_conj(ua_cuda_queue *q, ua_typenum type, void *x,
                            size_t count);
/* Opens, with ua_library_open and take, the first file named prefix* in
 * the folder `folder` under one of Python's paths (where the nvidia-*
 * wheels put their libraries) that take takes; false where none. */
bool ua_cuda_open_from_wheels(const char *folder, const char *prefix,
                              bool (*take)(void *handle, const char *path));
/* How the elementwise kernels are written in CUDA C++ (for tools that
 * compile every one ahead of time). */
const ua_ew_language *ua_cuda_ew_language(void);

/* Makes c the calling thread's current context: driver calls act on it. */
ua_status ua_cuda_bind(const ua_cuda_context *c);
/* Device memory for a queue's next work from the context's pool, freed
 * with cuMemFreeAsync on the queue's stream. */
ua_status ua_cuda_scratch(ua_cuda_queue *q, size_t bytes, CUdeviceptr *p);

/* What the driver knows of an address; false for memory it never saw
 * (pageable host memory). */
typedef struct {
    int memory_type;
    int is_managed;
    int ordinal;
    uintptr_t start;
    size_t size;
} ua_cuda_pointer;

bool ua_cuda_query_pointer(const void *ptr, ua_cuda_pointer *out);

/* A copy of n contiguous bytes between pageable host memory and the GPU,
 * pipelined through pinned slots by several threads, enqueued on q (the
 * host side is done with on return); *done false, and nothing done, for
 * other copies and short ones. */
ua_status ua_cuda_pipelined_memcpy(ua_cuda_queue *q, void *dst,
                                   const void *src, size_t n, bool *done);

/* The copy engine's operations (cuda_copy.c), for the ops table. */
ua_status ua_cuda_memcpy(void *queue, void *dst, const void *src, size_t n);
/* cuda_copy.c: small copies in one launch of a compute program; and
 * dst[i] <- last[-i] for i < n, elements of itemsize bytes (1, 2, 4, 8 or
 * 16), where dst and the lowest address of the first 16 bytes the source
 * covers (last - 16 + itemsize) are multiples of 16. */
ua_status ua_cuda_memcpy_batch(void *queue, size_t n,
                               const ua_copy_block *blocks);
ua_status ua_cuda_reverse(ua_cuda_queue *q, char *dst, const char *last,
                          size_t n, size_t itemsize);
ua_status ua_cuda_memset(void *queue, void *dst, unsigned char value,
                         size_t n);
ua_status ua_cuda_copy_strided(void *queue, int nd, const ptrdiff_t *shape,
                               const ua_strided *dst, const ua_strided *src);

/* cuda_memory.c: the plain and the stream-ordered providers; the
 * stream-ordered pool of a new context (c->pool NULL where the device has
 * none); and the return of the blocks kept for `stream` to the pool,
 * before the stream is destroyed. */
extern const ua_memory_provider ua_cuda_memory;
extern const ua_memory_provider ua_cuda_ordered_memory;
void ua_cuda_create_pool(ua_cuda_context *c);
void ua_cuda_release_kept(ua_cuda_context *c, CUstream stream);

#endif /* USMARRAY_CUDA_BACKEND_H */
