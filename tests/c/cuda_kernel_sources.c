/* Writes the source of every program of the CUDA backend's compute
 * kernels, and of its copy kernels for every pair of types (each pair in
 * one of the programs, in turn, and a few pairs in all of them), to a
 * directory as CUDA C++, one file each (named by the program), and the
 * SYCL backend's copy programs (every pair, in one program each, in turn)
 * and compute program as OpenCL C, with 64-bit floating point
 * and without, for tools/check_cuda_kernels.py, which compiles them with
 * nvcc and clang where there is no GPU:
 *   cuda_kernel_sources DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"
#include "backends/sycl/sycl_backend.h"

/* Writes text (malloc'd, freed here; NULL: out of memory) to path. */
static int
write_text(const char *path, char *text)
{
    if (text == NULL) {
        return 1;
    }
    FILE *f = fopen(path, "w");
    int bad = f == NULL || fputs(text, f) < 0;
    if (f != NULL) {
        bad |= fclose(f) != 0;
    }
    free(text);
    return bad;
}

static int
write_program(const char *dir, int program)
{
    char what[64], path[512];
    char *text = ua_cuda_compute_source(program, what, sizeof what);
    for (char *c = what; text != NULL && *c != '\0'; c++) {
        *c = *c == ' ' ? '_' : *c;
    }
    snprintf(path, sizeof path, "%s/%02d_%s.cu", dir, program,
             text != NULL ? what : "");
    return write_text(path, text);
}

static int
write_copy_program(const char *dir, ua_typenum dst, ua_typenum src,
                   bool aligned, int program)
{
    char path[512];
    snprintf(path, sizeof path, "%s/copy_%s_%s_%s_%d.cu", dir,
             ua_dtype_name(dst), ua_dtype_name(src),
             aligned ? "aligned" : "any", program);
    return write_text(path, ua_gpu_copy_source(&ua_cuda_copy_language, dst,
                                               src, aligned, program));
}

/* As OpenCL C, with 64-bit floating point. */
static int
write_sycl_copy_program(const char *dir, ua_typenum dst, ua_typenum src,
                        bool aligned, int program)
{
    char path[512];
    snprintf(path, sizeof path, "%s/sycl_copy_%s_%s_%s_%d.cl", dir,
             ua_dtype_name(dst), ua_dtype_name(src),
             aligned ? "aligned" : "any", program);
    return write_text(path, ua_gpu_copy_source(ua_sycl_copy_language(true),
                                               dst, src, aligned, program));
}

int
main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    int failed = 0;
    for (int p = 0; p < UA_CUDA_COMPUTE_PROGRAMS; p++) {
        failed += write_program(argv[1], p);
    }
    static const ua_typenum pairs[][2] = {{UA_FLOAT32, UA_FLOAT32},
                                          {UA_FLOAT16, UA_FLOAT64},
                                          {UA_INT64, UA_COMPLEX128}};
    for (int i = 0; i < 3; i++) {
        for (int p = 0; p < UA_GPU_COPY_PROGRAMS; p++) {
            failed += write_copy_program(argv[1], pairs[i][0], pairs[i][1],
                                         i != 1, p);
        }
    }
    int turn = 0;
    for (int d = 0; d < UA_NTYPES; d++) {
        for (int s = 0; s < UA_NTYPES; s++, turn++) {
            failed +=
                write_copy_program(argv[1], ua_dtype_at(d), ua_dtype_at(s),
                                   turn % 2, turn % UA_GPU_COPY_PROGRAMS);
        }
    }
    for (int d = 0; d < UA_NTYPES; d++) {
        for (int s = 0; s < UA_NTYPES; s++, turn++) {
            failed += write_sycl_copy_program(argv[1], ua_dtype_at(d),
                                              ua_dtype_at(s), turn % 2,
                                              turn % UA_GPU_COPY_PROGRAMS);
        }
    }
    for (int fp64 = 0; fp64 < 2; fp64++) {
        char path[512];
        snprintf(path, sizeof path, "%s/sycl_compute%s.cl", argv[1],
                 fp64 ? "_fp64" : "");
        failed += write_text(path, ua_sycl_compute_source(fp64));
    }
    return failed != 0;
}
