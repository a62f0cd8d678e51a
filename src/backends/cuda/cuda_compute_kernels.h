/* The CUDA backend's compute kernels, as CUDA C++ source that NVRTC
 * compiles per context in small programs, each of the kernels one
 * operation launches (cuda_compute.c puts them together: NVRTC's time
 * grows with every kernel of a program).  The templates come in parts,
 * each with the definitions it needs; a program instantiates its kernels
 * with INDEX, COMPRESS or REVERSE.  The plans' fields are written once,
 * as macros that both the C side and the source expand, so the layouts
 * agree.
 *   ua_index_U_N     gather, scatter and index offsets in units of U bytes,
 *                    for plans of rank 1, 2 or any (N = 0);
 *   ua_count         nonzero bytes of each tile of a mask;
 *   ua_scan          the counts' exclusive prefix sums in one block, and
 *                    their total into the host's mailbox;
 *   ua_compress_U    each tile's true elements in order, a ballot per warp
 *                    and a sum over the block's warps per round;
 *   ua_copy_blocks   a batch of dense copies, a row of the grid each, in
 *                    the widest unit both sides' alignment allows;
 *   ua_reverse_U     a dense run reversed (flip), 16 bytes a thread
 *                    read and written at once, elements of U bytes
 *                    swapped within them;
 *   ua_arange_*, ua_linspace, ua_band  the fill patterns, each operation
 *                    rounded on its own (no contraction into FMA), as
 *                    NumPy computes them. */
#ifndef USMARRAY_CUDA_COMPUTE_KERNELS_H
#define USMARRAY_CUDA_COMPUTE_KERNELS_H

#include "backends/cuda/cuda_kernels.h"

#define UA_CUDA_TILE_THREADS 256
#define UA_CUDA_TILE (UA_CUDA_TILE_THREADS * 16)

#define UA_CUDA_INDEX_PLAN_FIELDS                                             \
    long long shape[64], rstep[64], astep[64], istep[64];                     \
    char *result;                                                             \
    char *array;                                                              \
    const char *index;                                                        \
    long long length, stride, size;                                           \
    long long *flag;                                                          \
    int nd, mode, units;
#define UA_CUDA_COMPRESS_PLAN_FIELDS                                          \
    const unsigned char *mask;                                                \
    long long n;                                                              \
    const long long *offsets;                                                 \
    const char *src;                                                          \
    long long sstep;                                                          \
    char *dst;                                                                \
    long long units;                                                          \
    long long shape[64];                                                      \
    int nd;
#define UA_CUDA_BAND_PLAN_FIELDS                                              \
    char *dst;                                                                \
    long long size, rows, cols, lo, hi;                                       \
    int itemsize, set_inside, set_outside;                                    \
    unsigned char inside[16], outside[16];

typedef struct {
    UA_CUDA_INDEX_PLAN_FIELDS
} ua_cuda_index_plan;
typedef struct {
    UA_CUDA_COMPRESS_PLAN_FIELDS
} ua_cuda_compress_plan;
typedef struct {
    UA_CUDA_BAND_PLAN_FIELDS
} ua_cuda_band_plan;

/* The copies of one ua_copy_blocks launch (its parameter space holds
 * them). */
#define UA_CUDA_COPY_BLOCKS 64
typedef struct {
    char *d;
    const char *s;
    long long bytes;
} ua_cuda_copy_block;
typedef struct {
    ua_cuda_copy_block b[UA_CUDA_COPY_BLOCKS];
} ua_cuda_copy_blocks;

#define UA_CUDA_FIELDS_(...) #__VA_ARGS__
#define UA_CUDA_FIELDS(...) UA_CUDA_FIELDS_(__VA_ARGS__)

/* In parts, each shorter than the 4095 characters C compilers need
 * support in a string. */
/* clang-format off */
/* The unit of 16 bytes and the move of units, for index and compress. */
static const char ua_cuda_compute_move[] =
    "struct __align__(16) u16 { unsigned long long a, b; };\n"
    "template <class T> __device__ __forceinline__ void\n"
    "move(char *d, const char *s, long long units) {\n"
    "  for (long long w = 0; w < units; w++) ((T *)d)[w] = ((const T *)s)[w];\n"
    "}\n";
static const char ua_cuda_compute_index[] =
    "struct iplan { " UA_CUDA_FIELDS(UA_CUDA_INDEX_PLAN_FIELDS) " };\n"
    "template <class T, int M> __device__ __forceinline__ void\n"
    "index_one(const iplan &p, long long r, long long a, long long v) {\n"
    "  if (p.length > 0) {\n"
    "    long long w = v < 0 ? v + p.length : v;\n"
    "    if (w < 0 || w >= p.length) { p.flag[1] = v; p.flag[0] = 1; return; }\n"
    "    v = w;\n"
    "  }\n"
    "  a += v * p.stride;\n"
    "  if (M == 0) move<T>(p.result + r, p.array + a, p.units);\n"
    "  else if (M == 1) move<T>(p.array + a, p.result + r, p.units);\n"
    "  else *(long long *)(p.result + r) += v * p.stride;\n"
    "}\n"
    "template <class T, int M> __device__ __forceinline__ void\n"
    "index_flat(const iplan &p) {\n"
    "  const long long stride = (long long)gridDim.x * blockDim.x;\n"
    "  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  for (; i + 3 * stride < p.size; i += 4 * stride) {\n"
    "    long long v[4];\n"
    "#pragma unroll\n"
    "    for (int u = 0; u < 4; u++)\n"
    "      v[u] = *(const long long *)(p.index + (i + u * stride) * p.istep[0]);\n"
    "#pragma unroll\n"
    "    for (int u = 0; u < 4; u++) {\n"
    "      long long e = i + u * stride;\n"
    "      index_one<T, M>(p, e * p.rstep[0], e * p.astep[0], v[u]);\n"
    "    }\n"
    "  }\n"
    "  for (; i < p.size; i += stride)\n"
    "    index_one<T, M>(p, i * p.rstep[0], i * p.astep[0],\n"
    "                 *(const long long *)(p.index + i * p.istep[0]));\n"
    "}\n"
    "template <class T, int N, int M> __device__ __forceinline__ void\n"
    "index_body(const iplan &p) {\n"
    "  if (N == 1) { index_flat<T, M>(p); return; }\n"
    "  long long stride = (long long)gridDim.x * blockDim.x;\n"
    "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "       i < p.size; i += stride) {\n"
    "    long long r, a, x;\n"
    "    if (N == 2) {\n"
    "      long long i0 = i / p.shape[1], i1 = i - i0 * p.shape[1];\n"
    "      r = i0 * p.rstep[0] + i1 * p.rstep[1];\n"
    "      a = i0 * p.astep[0] + i1 * p.astep[1];\n"
    "      x = i0 * p.istep[0] + i1 * p.istep[1];\n"
    "    } else {\n"
    "      long long rem = i; r = a = x = 0;\n"
    "      for (int k = p.nd - 1; k >= 0; k--) {\n"
    "        long long c = rem % p.shape[k]; rem /= p.shape[k];\n"
    "        r += c * p.rstep[k]; a += c * p.astep[k]; x += c * p.istep[k];\n"
    "      }\n"
    "    }\n"
    "    index_one<T, M>(p, r, a, *(const long long *)(p.index + x));\n"
    "  }\n"
    "}\n"
    "#define INDEX(U, T, N, M) extern \"C\" __global__ void \\\n"
    "  ua_index_##U##_##N##_##M(const iplan p) { index_body<T, N, M>(p); }\n";
/* The counts of a mask's tiles and their scan. */
static const char ua_cuda_compute_tiles[] =
    "#define TILE_THREADS " UA_CUDA_FIELDS(UA_CUDA_TILE_THREADS) "\n"
    "__device__ __forceinline__ int nonzero_bytes(unsigned x) {\n"
    "  x |= x >> 4; x |= x >> 2; x |= x >> 1; return __popc(x & 0x01010101u);\n"
    "}\n"
    "__device__ __forceinline__ long long block_sum(long long v) {\n"
    "  __shared__ long long part[TILE_THREADS / 32];\n"
    "  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);\n"
    "  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;\n"
    "  __syncthreads();\n"
    "  long long s = 0;\n"
    "  for (int w = 0; w < TILE_THREADS / 32; w++) s += part[w];\n"
    "  return s;\n"
    "}\n"
    "extern \"C\" __global__ void ua_count(const unsigned char *mask, long long n,\n"
    "                                    long long *counts) {\n"
    "  long long at = (long long)blockIdx.x * TILE_THREADS * 16 + threadIdx.x * 16;\n"
    "  int c = 0;\n"
    "  if (at + 16 <= n && ((unsigned long long)(mask + at) & 15) == 0) {\n"
    "    uint4 v = *(const uint4 *)(mask + at);\n"
    "    c = nonzero_bytes(v.x) + nonzero_bytes(v.y) + nonzero_bytes(v.z) +\n"
    "        nonzero_bytes(v.w);\n"
    "  } else {\n"
    "    for (int j = 0; j < 16; j++) c += at + j < n && mask[at + j] != 0;\n"
    "  }\n"
    "  long long s = block_sum(c);\n"
    "  if (threadIdx.x == 0) counts[blockIdx.x] = s;\n"
    "}\n"
    "extern \"C\" __global__ void ua_scan(long long *counts, long long tiles,\n"
    "                                   long long *total) {\n"
    "  __shared__ long long sums[1024];\n"
    "  long long per = (tiles + 1023) / 1024, lo = threadIdx.x * per;\n"
    "  long long hi = lo + per < tiles ? lo + per : tiles, s = 0;\n"
    "  for (long long i = lo; i < hi; i++) s += counts[i];\n"
    "  sums[threadIdx.x] = s;\n"
    "  __syncthreads();\n"
    "  for (int o = 1; o < 1024; o <<= 1) {\n"
    "    long long v = threadIdx.x >= o ? sums[threadIdx.x - o] : 0;\n"
    "    __syncthreads(); sums[threadIdx.x] += v; __syncthreads();\n"
    "  }\n"
    "  long long run = threadIdx.x ? sums[threadIdx.x - 1] : 0;\n"
    "  for (long long i = lo; i < hi; i++) {\n"
    "    long long c = counts[i]; counts[i] = run; run += c;\n"
    "  }\n"
    "  if (threadIdx.x == 1023) *total = sums[1023];\n"
    "}\n";
static const char ua_cuda_compute_compress[] =
    "struct cplan { " UA_CUDA_FIELDS(UA_CUDA_COMPRESS_PLAN_FIELDS) " };\n"
    "#define TILE_THREADS " UA_CUDA_FIELDS(UA_CUDA_TILE_THREADS) "\n"
    "template <class T> __device__ __forceinline__ void\n"
    "compress_body(const cplan &p) {\n"
    "  __shared__ int warp_counts[TILE_THREADS / 32];\n"
    "  long long base = (long long)blockIdx.x * TILE_THREADS * 16;\n"
    "  long long off = p.offsets ? p.offsets[blockIdx.x] : 0;\n"
    "  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;\n"
    "  for (int j = 0; j < 16; j++) {\n"
    "    long long e = base + j * TILE_THREADS + threadIdx.x;\n"
    "    bool f = e < p.n && p.mask[e] != 0;\n"
    "    unsigned b = __ballot_sync(0xffffffffu, f);\n"
    "    if (lane == 0) warp_counts[warp] = __popc(b);\n"
    "    __syncthreads();\n"
    "    int before = 0, total = 0;\n"
    "    for (int w = 0; w < TILE_THREADS / 32; w++) {\n"
    "      int c = warp_counts[w]; before += w < warp ? c : 0; total += c;\n"
    "    }\n"
    "    if (f) {\n"
    "      long long o = off + before + __popc(b & ((1u << lane) - 1));\n"
    "      if (p.src) {\n"
    "        move<T>(p.dst + o * p.units * (long long)sizeof(T),\n"
    "                p.src + e * p.sstep, p.units);\n"
    "      } else {\n"
    "        long long *c = (long long *)p.dst + o * p.nd, rem = e;\n"
    "        for (int k = p.nd - 1; k >= 0; k--) {\n"
    "          c[k] = rem % p.shape[k]; rem /= p.shape[k];\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "    __syncthreads();\n"
    "    off += total;\n"
    "  }\n"
    "}\n"
    "#define COMPRESS(U, T) extern \"C\" __global__ void \\\n"
    "  ua_compress_##U(const cplan p) { compress_body<T>(p); }\n";
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
/* After the copy kernels' prelude, for its float16 conversion. */
static const char ua_cuda_compute_fill[] =
    "struct bplan { " UA_CUDA_FIELDS(UA_CUDA_BAND_PLAN_FIELDS) " };\n"
    "#define EACH(n) for (long long i = (long long)blockIdx.x * blockDim.x + \\\n"
    "  threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)\n"
    "extern \"C\" __global__ void ua_arange_int(char *dst, long long n,\n"
    "    unsigned long long first, unsigned long long d, int isz) {\n"
    "  EACH(n) {\n"
    "    unsigned long long v = first + (unsigned long long)i * d;\n"
    "    if (isz == 1) ((unsigned char *)dst)[i] = (unsigned char)v;\n"
    "    else if (isz == 2) ((unsigned short *)dst)[i] = (unsigned short)v;\n"
    "    else if (isz == 4) ((unsigned int *)dst)[i] = (unsigned int)v;\n"
    "    else ((unsigned long long *)dst)[i] = v;\n"
    "  }\n"
    "}\n"
    "__device__ __forceinline__ float arange_f(long long i, float f, float s) {\n"
    "  return i == 0 ? f : i == 1 ? s\n"
    "       : __fadd_rn(f, __fmul_rn((float)i, __fsub_rn(s, f)));\n"
    "}\n"
    "extern \"C\" __global__ void ua_arange_f32(char *dst, long long n,\n"
    "    double first, double second, int step) {\n"
    "  EACH(n) ((float *)dst)[i * step] = arange_f(i, (float)first, (float)second);\n"
    "}\n"
    "extern \"C\" __global__ void ua_arange_half(char *dst, long long n,\n"
    "    double first, double second, int step) {\n"
    "  EACH(n) ((unsigned short *)dst)[i * step] =\n"
    "    d2h((double)arange_f(i, (float)first, (float)second));\n"
    "}\n"
    "extern \"C\" __global__ void ua_arange_f64(char *dst, long long n,\n"
    "    double f, double s, int step) {\n"
    "  EACH(n) ((double *)dst)[i * step] = i == 0 ? f : i == 1 ? s\n"
    "    : __dadd_rn(f, __dmul_rn((double)i, __dsub_rn(s, f)));\n"
    "}\n"
    "extern \"C\" __global__ void ua_linspace(char *dst, long long n,\n"
    "    double start, double sv, double stop, double div, int divide,\n"
    "    int endpoint, int step) {\n"
    "  EACH(n) {\n"
    "    double y = divide ? __dmul_rn(__ddiv_rn((double)i, div), sv)\n"
    "                      : __dmul_rn((double)i, sv);\n"
    "    y = __dadd_rn(y, start);\n"
    "    if (endpoint && n > 1 && i == n - 1) y = stop;\n"
    "    ((double *)dst)[i * step] = y;\n"
    "  }\n"
    "}\n"
    "extern \"C\" __global__ void ua_band(const bplan p) {\n"
    "  EACH(p.size) {\n"
    "    long long j = i % p.cols, r = (i / p.cols) % p.rows;\n"
    "    bool in = j - r >= p.lo && j - r <= p.hi;\n"
    "    if (in ? !p.set_inside : !p.set_outside) continue;\n"
    "    const unsigned char *v = in ? p.inside : p.outside;\n"
    "    for (int b = 0; b < p.itemsize; b++) p.dst[i * p.itemsize + b] = (char)v[b];\n"
    "  }\n"
    "}\n";
/* clang-format on */

#endif
