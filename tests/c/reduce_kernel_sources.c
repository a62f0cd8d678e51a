/* Writes the source of every reduction program (gpu/launcher.h)
 * to a directory, as CUDA C++ (.cu) and OpenCL C (.cl), for
 * tools/check_reduce_kernels.py to compile with nvcc and clang where there
 * is no GPU:
 *   reduce_kernel_sources DIR
 * The programs: every dtype read as its own accumulator's values, as the
 * int64 and uint64 that integers widen to, and as its truth (bool and the
 * uint64 of a count), each with every kernel; and each family of kernels
 * alone for a few pairs of types, as the backends compile them, so that
 * a helper its kernels need and its switches leave out shows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"
#include "backends/sycl/sycl_backend.h"
#include "backends/sycl/sycl_language.h"
#include "gpu/dialect_opencl_text.h"
#include "gpu/launcher.h"

static const char *const cl_header[] = {ua_sycl_language_fp64,
                                        ua_sycl_language_header, NULL};

static int
write_file(const char *dir, const char *name, const char *ext, char *text)
{
    if (text == NULL) {
        return 1;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        free(text);
        return 1;
    }
    fputs(text, f);
    fclose(f);
    free(text);
    return 0;
}

static const ua_gpu_language cl = {cl_header, ua_gpu_opencl_dialect_text,
                                   ua_sycl_type_name};

static int
emit(const char *dir, ua_typenum x, ua_typenum a, bool truth)
{
    char name[128];
    snprintf(name, sizeof name, "%s_%s%s", ua_dtype_name(x), ua_dtype_name(a),
             truth ? "_truth" : "");
    ua_gpu_program p = {{x, a, truth}, UA_GPU_F_ALL, -1, -1};
    return write_file(dir, name, "cu", ua_cuda_reduce_source(x, a, truth)) +
           write_file(dir, name, "cl", ua_gpu_program_source(&cl, &p));
}

static int
emit_families(const char *dir, ua_typenum x, ua_typenum a)
{
    int failed = 0;
    for (int f = 0; f < UA_GPU_NFAMILIES; f++) {
        /* Programs for any operation, and for one (op 1: a product, a
         * maximum), where the family's kernels take one. */
        bool takes_op = false;
        for (int k = 0; k < UA_GPU_NKERNELS; k++) {
            takes_op |=
                ua_gpu_family_of((ua_gpu_kernel)k) == (ua_gpu_family)f &&
                ua_gpu_op_argument((ua_gpu_kernel)k) >= 0;
        }
        for (int op = -1; op <= (takes_op ? 1 : -1); op += 2) {
            char name[128];
            snprintf(name, sizeof name, "family_%s_%s_%s%s",
                     ua_gpu_family_names[f], ua_dtype_name(x),
                     ua_dtype_name(a), op >= 0 ? "_op1" : "");
            ua_gpu_program p = {{x, a, false}, (ua_gpu_family)f, op, -1};
            failed +=
                write_file(dir, name, "cu",
                           ua_cuda_reduce_program_source(&p)) +
                write_file(dir, name, "cl", ua_gpu_program_source(&cl, &p));
        }
    }
    /* Each kernel alone, as the CUDA backend compiles a family. */
    for (int k = 0; k < UA_GPU_NKERNELS; k++) {
        char name[128];
        snprintf(name, sizeof name, "kernel_%s_%s_%s", ua_gpu_kernel_names[k],
                 ua_dtype_name(x), ua_dtype_name(a));
        ua_gpu_program p = {
            {x, a, false}, ua_gpu_family_of((ua_gpu_kernel)k), -1, k};
        failed +=
            write_file(dir, name, "cu", ua_cuda_reduce_program_source(&p));
    }
    return failed;
}

static ua_typenum
accumulator(ua_typenum t)
{
    char k = ua_dtype_kind(t);
    return k == 'b'          ? UA_BOOL
           : k == 'i'        ? UA_INT64
           : k == 'u'        ? UA_UINT64
           : t == UA_FLOAT16 ? UA_FLOAT32
                             : t;
}

int
main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: reduce_kernel_sources DIR\n");
        return 2;
    }
    static const ua_typenum types[] = {
        UA_BOOL,    UA_INT8,    UA_INT16,     UA_INT32,     UA_INT64,
        UA_UINT8,   UA_UINT16,  UA_UINT32,    UA_UINT64,    UA_FLOAT16,
        UA_FLOAT32, UA_FLOAT64, UA_COMPLEX64, UA_COMPLEX128};
    int failed = 0;
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        ua_typenum x = types[i];
        char k = ua_dtype_kind(x);
        failed += emit(argv[1], x, accumulator(x), false);
        failed += emit(argv[1], x, UA_BOOL, true);
        failed += emit(argv[1], x, UA_UINT64, true);
        if (k == 'b' || k == 'i' || k == 'u') {
            failed +=
                emit(argv[1], x,
                     accumulator(x) == UA_INT64 ? UA_UINT64 : UA_INT64, false);
        }
    }
    failed += emit_families(argv[1], UA_FLOAT32, UA_FLOAT32) +
              emit_families(argv[1], UA_FLOAT16, UA_FLOAT32) +
              emit_families(argv[1], UA_COMPLEX128, UA_COMPLEX128) +
              emit_families(argv[1], UA_INT8, UA_INT64);
    return failed != 0;
}
