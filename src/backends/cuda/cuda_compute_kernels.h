/* The CUDA backend's compute kernels, as CUDA C++ source that NVRTC
 * compiles per context in small programs, each of the kernels one
 * operation launches (cuda_compute.c puts them together: NVRTC's time
 * grows with every kernel of a program).  The templates come in parts,
 * each with the definitions it needs; a program instantiates its kernels
 * with REVERSE.  The plans' fields are written once, as macros that both
 * the C side and the source expand, so the layouts agree.
 *   ua_copy_blocks   a batch of dense copies, a row of the grid each, in
 *                    the widest unit both sides' alignment allows;
 *   ua_reverse_U     a dense run reversed (flip), 16 bytes a thread
 *                    read and written at once, elements of U bytes
 *                    swapped within them.
 * The index, mask and fill kernels are the GPU layer's
 * (gpu/index_kernels.inc, gpu/fill_kernels.inc). */
#ifndef USMARRAY_CUDA_COMPUTE_KERNELS_H
#define USMARRAY_CUDA_COMPUTE_KERNELS_H

#include "backends/cuda/cuda_backend.h"

#define UA_CUDA_FIELDS_(...) #__VA_ARGS__
#define UA_CUDA_FIELDS(...) UA_CUDA_FIELDS_(__VA_ARGS__)

/* In parts, each shorter than the 4095 characters C compilers need
 * support in a string. */
/* clang-format off */
static const char ua_cuda_compute_copies[] =
    "struct copy_one { char *d; const char *s; long long bytes; };\n"
    "struct copy_batch { copy_one b[" UA_CUDA_FIELDS(UA_CUDA_COPY_BLOCKS) "]; };\n"
    "template <class T> __device__ __forceinline__ long long\n"
    "copy_units(const copy_one &c, long long t, long long step) {\n"
    "  long long n = c.bytes / (long long)sizeof(T);\n"
    "  for (long long k = t; k < n; k += step) ((T *)c.d)[k] = ((const T *)c.s)[k];\n"
    "  return n * (long long)sizeof(T);\n"
    "}\n"
    "extern \"C\" __global__ void ua_copy_blocks(const copy_batch p) {\n"
    "  const copy_one c = p.b[blockIdx.y];\n"
    "  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  long long step = (long long)gridDim.x * blockDim.x, done = 0;\n"
    "  unsigned long long a = (unsigned long long)c.d | (unsigned long long)c.s;\n"
    "  if ((a & 15) == 0) done = copy_units<uint4>(c, t, step);\n"
    "  else if ((a & 3) == 0) done = copy_units<unsigned>(c, t, step);\n"
    "  for (long long k = done + t; k < c.bytes; k += step) c.d[k] = c.s[k];\n"
    "}\n";
static const char ua_cuda_compute_reverse[] =
    "__device__ __forceinline__ unsigned swap_in_word(unsigned w, int u) {\n"
    "  return u == 1 ? __byte_perm(w, 0, 0x0123)\n"
    "       : u == 2 ? __byte_perm(w, 0, 0x1032) : w;\n"
    "}\n"
    "template <int U> __device__ __forceinline__ uint4 reversed(uint4 v) {\n"
    "  if (U == 16) return v;\n"
    "  if (U == 8) return make_uint4(v.z, v.w, v.x, v.y);\n"
    "  return make_uint4(swap_in_word(v.w, U), swap_in_word(v.z, U),\n"
    "                    swap_in_word(v.y, U), swap_in_word(v.x, U));\n"
    "}\n"
    "template <int U, class T> __device__ __forceinline__ void\n"
    "reverse_body(char *d, const char *last, long long n) {\n"
    "  const long long V = 16 / U, vectors = n / V;\n"
    "  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  const long long step = (long long)gridDim.x * blockDim.x;\n"
    "  for (long long k = t; k < vectors; k += step)\n"
    "    ((uint4 *)d)[k] = reversed<U>(*(const uint4 *)(last - (k * V + V - 1) * U));\n"
    "  for (long long i = vectors * V + t; i < n; i += step)\n"
    "    ((T *)d)[i] = *(const T *)(last - i * U);\n"
    "}\n"
    "#define REVERSE(U, T) extern \"C\" __global__ void \\\n"
    "  ua_reverse_##U(char *d, const char *last, long long n) {\\\n"
    "    reverse_body<U, T>(d, last, n); }\n";
/* clang-format on */

#endif
