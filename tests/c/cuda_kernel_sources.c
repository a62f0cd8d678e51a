/* Writes the source of every program of the CUDA backend's compute
 * kernels, and of its copy kernels for a few pairs of types, to a
 * directory as CUDA C++, one file each (named by the program), for a
 * check that compiles them with NVRTC or nvcc where there is no GPU:
 *   cuda_kernel_sources DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"

static int
write_program(const char *dir, int program)
{
    char what[64], path[512];
    char *text = ua_cuda_compute_source(program, what, sizeof what);
    if (text == NULL) {
        return 1;
    }
    for (char *c = what; *c != '\0'; c++) {
        *c = *c == ' ' ? '_' : *c;
    }
    snprintf(path, sizeof path, "%s/%02d_%s.cu", dir, program, what);
    FILE *f = fopen(path, "w");
    int bad = f == NULL || fputs(text, f) < 0;
    if (f != NULL) {
        bad |= fclose(f) != 0;
    }
    free(text);
    return bad;
}

static int
write_copy_program(const char *dir, ua_typenum dst, ua_typenum src,
                   bool aligned, int program)
{
    char path[512];
    char *text = ua_cuda_copy_source(dst, src, aligned, program);
    if (text == NULL) {
        return 1;
    }
    snprintf(path, sizeof path, "%s/copy_%s_%s_%s_%d.cu", dir,
             ua_dtype_name(dst), ua_dtype_name(src),
             aligned ? "aligned" : "any", program);
    FILE *f = fopen(path, "w");
    int bad = f == NULL || fputs(text, f) < 0;
    if (f != NULL) {
        bad |= fclose(f) != 0;
    }
    free(text);
    return bad;
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
        for (int p = 0; p < UA_CUDA_COPY_PROGRAMS; p++) {
            failed += write_copy_program(argv[1], pairs[i][0], pairs[i][1],
                                         i != 1, p);
        }
    }
    return failed != 0;
}
