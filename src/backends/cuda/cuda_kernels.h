/* The CUDA backend's copy kernels, as CUDA C++ source that NVRTC compiles
 * at run time once per device and pair of element types.  The backend puts
 * in front of it the typedefs S (source), D (destination) and the body of
 * convert(), which casts as NumPy's astype(casting="unsafe") does.
 *
 * The kernels take a copy plan (ua_copy_simplify): axes ordered by
 * decreasing destination step, steps in bytes, so that the last axis walks
 * the destination most densely.
 *   ua_copy_{i,l}N     rank N <= 4, one thread per element, grid-stride,
 *                      int or long long index arithmetic;
 *   ua_copy_nd         any rank, 64-bit;
 *   ua_copy_tiled_{i,l} tiles through shared memory, for layouts
 *                      where the source is dense along another axis than
 *                      the destination (transposes and permutes): both
 *                      sides coalesce.
 * Elements are read and written through ld() and st(): memory imported
 * from other producers need not be aligned to its itemsize, which a typed
 * access would fault on.  The source is compiled twice: with UA_ALIGNED 1
 * for copies whose base pointers and steps are all multiples of their
 * elements' alignments (the rule), where ld() and st() are plain typed
 * accesses with no test per element; with UA_ALIGNED 0 for the others,
 * where each access tests its address and falls back to bytes.
 * A program holds the kernels of one launch's choice (cuda_copy.c): of
 * any rank (UA_COPY_ND), of one small rank (SMALL(n)), or the tiled
 * pair, since NVRTC's time grows with every kernel of a program. */
#ifndef USMARRAY_CUDA_KERNELS_H
#define USMARRAY_CUDA_KERNELS_H

#define UA_CUDA_MAX_DIMS 64

static const char ua_cuda_kernel_prelude[] =
    "struct c64 { float re, im; };\n"
    "struct c128 { double re, im; };\n"
    "__device__ double h2d(unsigned short h) {\n"
    "  int e = (h >> 10) & 31, m = h & 1023; double v;\n"
    "  if (e == 0) v = ldexp((double)m, -24);\n"
    "  else if (e == 31) v = m ? __longlong_as_double(0x7ff8000000000000ll)\n"
    "                          : __longlong_as_double(0x7ff0000000000000ll);\n"
    "  else v = ldexp((double)(m | 1024), e - 25);\n"
    "  return (h & 0x8000) ? -v : v;\n"
    "}\n"
    /* Round to nearest even, straight from double (no double rounding). */
    "__device__ unsigned short d2h(double x) {\n"
    "  unsigned long long b = (unsigned long long)__double_as_longlong(x);\n"
    "  unsigned short sign = (unsigned short)((b >> 48) & 0x8000);\n"
    "  int e = (int)((b >> 52) & 0x7ff);\n"
    "  unsigned long long m = b & 0xFFFFFFFFFFFFFull;\n"
    "  if (e == 0x7ff) return sign | 0x7c00 | (m ? 0x200 : 0);\n"
    "  int he = e - 1008;\n"
    "  if (he >= 31) return sign | 0x7c00;\n"
    "  unsigned long long full, rem, half; unsigned r; int s;\n"
    "  if (he > 0) { full = m; s = 42; r = sign | (he << 10); }\n"
    "  else { s = 43 - he; if (s >= 64) return sign; full = m | (1ull << "
    "52);\n"
    "         r = sign; }\n"
    "  r += (unsigned)(full >> s);\n"
    "  rem = full & ((1ull << s) - 1); half = 1ull << (s - 1);\n"
    "  if (rem > half || (rem == half && (r & 1))) r++;\n"
    "  return (unsigned short)r;\n"
    "}\n"
    /* Floating to integer as the core defines it (src/core/layout/copy.c): NaN,
     * infinities and values out of range become INT64_MIN, then wrap to
     * the destination's width; the device's own conversions saturate. */
    "__device__ __forceinline__ long long f2i64(double v) {\n"
    "  return v >= -9223372036854775808.0 && v < 9223372036854775808.0\n"
    "             ? (long long)v : -9223372036854775807ll - 1;\n"
    "}\n"
    "__device__ __forceinline__ unsigned long long f2u64(double v) {\n"
    "  return v >= 0 && v < 18446744073709551616.0 ? (unsigned long long)v\n"
    "             : (unsigned long long)f2i64(v);\n"
    "}\n"
    "#if UA_ALIGNED\n"
    "template <class T> __device__ __forceinline__ T ld(const char *p) {\n"
    "  return *(const T *)p;\n"
    "}\n"
    "template <class T> __device__ __forceinline__ void st(char *p, T v) {\n"
    "  *(T *)p = v;\n"
    "}\n"
    "#else\n"
    "template <class T> __device__ __forceinline__ T ld(const char *p) {\n"
    "  if (((unsigned long long)p & (alignof(T) - 1)) == 0)\n"
    "    return *(const T *)p;\n"
    "  union { T v; unsigned char b[sizeof(T)]; } u;\n"
    "  for (int i = 0; i < (int)sizeof(T); i++) u.b[i] = (unsigned "
    "char)p[i];\n"
    "  return u.v;\n"
    "}\n"
    "template <class T> __device__ __forceinline__ void st(char *p, T v) {\n"
    "  if (((unsigned long long)p & (alignof(T) - 1)) == 0) {\n"
    "    *(T *)p = v; return;\n"
    "  }\n"
    "  union { T v; unsigned char b[sizeof(T)]; } u;\n"
    "  u.v = v;\n"
    "  for (int i = 0; i < (int)sizeof(T); i++) p[i] = (char)u.b[i];\n"
    "}\n"
    "#endif\n";

static const char ua_cuda_kernel_body[] =
    "#define MAXD 64\n"
    "struct plan { char *dst; const char *src; long long size; int nd;\n"
    "  int tile_axis; long long shape[MAXD]; long long dstep[MAXD];\n"
    "  long long sstep[MAXD]; };\n"
    /* Any rank, 64-bit: the index split into axes per element. */
    "#if UA_COPY_ND\n"
    "extern \"C\" __global__ void ua_copy_nd(const plan p) {\n"
    "  long long stride = (long long)gridDim.x * blockDim.x;\n"
    "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "       i < p.size; i += stride) {\n"
    "    long long rem = i, d = 0, s = 0;\n"
    "    for (int k = p.nd - 1; k >= 0; k--) {\n"
    "      long long n = p.shape[k], idx = rem % n; rem /= n;\n"
    "      d += idx * p.dstep[k]; s += idx * p.sstep[k];\n"
    "    }\n"
    "    st<D>(p.dst + d, convert(ld<S>(p.src + s)));\n"
    "  }\n"
    "}\n"
    "#endif\n"
    /* Rank N <= 4 with index type I: each thread splits its first index
     * and the grid's stride into axes once, then steps by adding digits
     * with carries, so no division per element. */
    "template <typename I, int N>\n"
    "__device__ __forceinline__ void copy_small(const plan &p) {\n"
    "  I shape[N], ds[N], ss[N], idx[N], step[N];\n"
    "#pragma unroll\n"
    "  for (int k = 0; k < N; k++) {\n"
    "    shape[k] = (I)p.shape[k]; ds[k] = (I)p.dstep[k];\n"
    "    ss[k] = (I)p.sstep[k];\n"
    "  }\n"
    "  const I size = (I)p.size;\n"
    "  I i = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x;\n"
    "  const I stride = (I)gridDim.x * (I)blockDim.x;\n"
    "  if (i >= size) return;\n"
    "  I r = i, t = stride, d = 0, s = 0;\n"
    "#pragma unroll\n"
    "  for (int k = N - 1; k >= 0; k--) {\n"
    "    idx[k] = r % shape[k]; r /= shape[k];\n"
    "    step[k] = t % shape[k]; t /= shape[k];\n"
    "    d += idx[k] * ds[k]; s += idx[k] * ss[k];\n"
    "  }\n"
    "  for (;;) {\n"
    "    st<D>(p.dst + d, convert(ld<S>(p.src + s)));\n"
    "    i += stride;\n"
    "    if (i >= size) return;\n"
    "    I carry = 0;\n"
    "#pragma unroll\n"
    "    for (int k = N - 1; k >= 0; k--) {\n"
    "      I add = step[k] + carry, v = idx[k] + add;\n"
    "      d += add * ds[k]; s += add * ss[k];\n"
    "      carry = v >= shape[k];\n"
    "      if (carry) { v -= shape[k]; d -= shape[k] * ds[k];\n"
    "                   s -= shape[k] * ss[k]; }\n"
    "      idx[k] = v;\n"
    "    }\n"
    "  }\n"
    "}\n"
    "#define SMALL(n) \\\n"
    "  extern \"C\" __global__ void ua_copy_i##n(const plan p) {\\\n"
    "    copy_small<int, n>(p); }\\\n"
    "  extern \"C\" __global__ void ua_copy_l##n(const plan p) {\\\n"
    "    copy_small<long long, n>(p); }\n";

/* The tiled kernels' tile, by the destination's itemsize: TILE_L elements
 * along the destination's dense axis (whole 256-byte rows for 4-byte
 * elements), 32 along the source's, and TILE_BATCHES batches per block,
 * so that a block's tiles take at most 33 KiB of shared memory (static
 * shared memory ends at 48).  TILE_MIN_BLOCKS bounds the registers of
 * the kernel with int offsets: 8 blocks of 256 threads an SM leave each
 * thread 32, where the wider tiles otherwise took 80 (3 blocks an SM) and
 * ran the 8192^2 transpose slower (docs/performance.rst has its row);
 * larger elements need more registers for as many loads.  The launch sizes its
 * grid by the same rules, which the kernel source is made of. */
#define UA_CUDA_TILE_L(itemsize) ((itemsize) > 8 ? 32 : 64)
#define UA_CUDA_TILE_BATCHES(itemsize) ((itemsize) > 4 ? 2 : 4)
#define UA_CUDA_TILE_MIN_BLOCKS(itemsize) ((itemsize) > 4 ? 4 : 8)
#define UA_CUDA_STR_(x) #x
#define UA_CUDA_STR(x) UA_CUDA_STR_(x)

/* Kept apart from the body: C compilers need support only strings of 4095
 * characters. */
static const char ua_cuda_kernel_tiled[] =
    /* Transposes and permutes: a tile of TL elements along the axis L
     * (dense in the destination) by 32 along A (dense in the source)
     * through shared memory, so that both sides coalesce; the padding
     * column keeps the column reads free of bank conflicts.  Blocks of 32x8
     * threads load TL/8 rows of the source each, then store 4 rows of the
     * destination, each in TL/32 consecutive 128-byte pieces, so that a
     * warp writes whole rows.  A block moves the tiles of NB batches at
     * once, so that NB times the loads are in flight before each barrier
     * (a 64^4 permute makes tiles too short-lived alone to keep HBM busy);
     * grid x walks L's tiles, y A's, z groups of NB batches of the other
     * axes, whose index is split once per batch. */
    "#define TILE_L " UA_CUDA_STR(UA_CUDA_TILE_L(sizeof(
        D))) "\n"
             "#define TILE_BATCHES " UA_CUDA_STR(UA_CUDA_TILE_BATCHES(sizeof(
                 D))) "\n"
                      "#define TILE_MIN_BLOCKS " UA_CUDA_STR(
                          UA_CUDA_TILE_MIN_BLOCKS(sizeof(
                              D))) "\n"
                                   "template <typename I>\n"
                                   "__device__ __forceinline__ void "
                                   "batch_offsets(const plan &p, I b,\n"
                                   "                                          "
                                   "    I &d, I &s) {\n"
                                   "  const int L = p.nd - 1, A = "
                                   "p.tile_axis;\n"
                                   "  I rest = b; d = 0; s = 0;\n"
                                   "  for (int k = p.nd - 1; k >= 0; k--) {\n"
                                   "    if (k == L || k == A) continue;\n"
                                   "    I n = (I)p.shape[k], idx = rest % n; "
                                   "rest /= n;\n"
                                   "    d += idx * (I)p.dstep[k]; s += idx * "
                                   "(I)p.sstep[k];\n"
                                   "  }\n"
                                   "}\n"
                                   "template <typename I, int TL>\n"
                                   "__device__ __forceinline__ void "
                                   "load_tile(D (*tile)[33], const char "
                                   "*src,\n"
                                   "    I sL, bool full, I a_left, I l_left) "
                                   "{\n"
                                   "  const int tx = threadIdx.x, ty = "
                                   "threadIdx.y;\n"
                                   "  if (full) {\n"
                                   "#pragma unroll\n"
                                   "    for (int j = 0; j < TL; j += 8)\n"
                                   "      tile[ty + j][tx] = "
                                   "convert(ld<S>(src + j * sL));\n"
                                   "  } else {\n"
                                   "    for (int j = 0; j < TL; j += 8)\n"
                                   "      if (tx < a_left && ty + j < "
                                   "l_left)\n"
                                   "        tile[ty + j][tx] = "
                                   "convert(ld<S>(src + j * sL));\n"
                                   "  }\n"
                                   "}\n"
                                   "template <typename I, int TL>\n"
                                   "__device__ __forceinline__ void "
                                   "store_tile(D (*tile)[33], char *dst,\n"
                                   "    I dA, I dL, bool full, I a_left, I "
                                   "l_left) {\n"
                                   "  const int tx = threadIdx.x, ty = "
                                   "threadIdx.y;\n"
                                   "  if (full) {\n"
                                   "#pragma unroll\n"
                                   "    for (int j = 0; j < 32; j += 8)\n"
                                   "#pragma unroll\n"
                                   "      for (int h = 0; h < TL; h += 32)\n"
                                   "        st<D>(dst + j * dA + h * dL, "
                                   "tile[tx + h][ty + j]);\n"
                                   "  } else {\n"
                                   "    for (int j = 0; j < 32; j += 8)\n"
                                   "      for (int h = 0; h < TL; h += 32)\n"
                                   "        if (ty + j < a_left && tx + h < "
                                   "l_left)\n"
                                   "          st<D>(dst + j * dA + h * dL, "
                                   "tile[tx + h][ty + j]);\n"
                                   "  }\n"
                                   "}\n"
                                   "template <typename I, int TL, int NB>\n"
                                   "__device__ __forceinline__ void "
                                   "copy_tiled(const plan &p) {\n"
                                   "  __shared__ D tile[NB][TL][33];\n"
                                   "  const int L = p.nd - 1, A = "
                                   "p.tile_axis;\n"
                                   "  const I nL = (I)p.shape[L], nA = "
                                   "(I)p.shape[A];\n"
                                   "  const I dL = (I)p.dstep[L], dA = "
                                   "(I)p.dstep[A];\n"
                                   "  const I sL = (I)p.sstep[L], sA = "
                                   "(I)p.sstep[A];\n"
                                   "  const I tilesL = (nL + TL - 1) / TL, "
                                   "tilesA = (nA + 31) / 32;\n"
                                   "  const I batches = (I)(p.size / ((long "
                                   "long)nL * nA));\n"
                                   "  const int tx = threadIdx.x, ty = "
                                   "threadIdx.y;\n"
                                   "  for (I b0 = blockIdx.z; b0 < batches; "
                                   "b0 += NB * (I)gridDim.z) {\n"
                                   "    I d[NB], s[NB];\n"
                                   "    int n = 0;\n"
                                   "#pragma unroll\n"
                                   "    for (int k = 0; k < NB; k++) {\n"
                                   "      const I b = b0 + k * (I)gridDim.z;\n"
                                   "      d[k] = 0; s[k] = 0;\n"
                                   "      if (b < batches) { "
                                   "batch_offsets<I>(p, b, d[k], s[k]); n = k "
                                   "+ 1; }\n"
                                   "    }\n"
                                   "    for (I ta = blockIdx.y; ta < tilesA; "
                                   "ta += gridDim.y) {\n"
                                   "      for (I tl = blockIdx.x; tl < "
                                   "tilesL; tl += gridDim.x) {\n"
                                   "        const I a0 = ta * 32, l0 = tl * "
                                   "TL;\n"
                                   "        const I a_left = nA - a0, l_left "
                                   "= nL - l0;\n"
                                   "        const bool full = a_left >= 32 && "
                                   "l_left >= TL;\n"
                                   "        const I from = (a0 + tx) * sA + "
                                   "(l0 + ty) * sL;\n"
                                   "#pragma unroll\n"
                                   "        for (int k = 0; k < NB; k++)\n"
                                   "          if (k < n)\n"
                                   "            load_tile<I, TL>(tile[k], "
                                   "p.src + s[k] + from, sL, full,\n"
                                   "                             a_left, "
                                   "l_left);\n"
                                   "        __syncthreads();\n"
                                   "        const I to = (a0 + ty) * dA + (l0 "
                                   "+ tx) * dL;\n"
                                   "#pragma unroll\n"
                                   "        for (int k = 0; k < NB; k++)\n"
                                   "          if (k < n)\n"
                                   "            store_tile<I, TL>(tile[k], "
                                   "p.dst + d[k] + to, dA, dL, full,\n"
                                   "                              a_left, "
                                   "l_left);\n"
                                   "        __syncthreads();\n"
                                   "      }\n"
                                   "    }\n"
                                   "  }\n"
                                   "}\n"
                                   "extern \"C\" __global__ void "
                                   "__launch_bounds__(256, TILE_MIN_BLOCKS)\n"
                                   "ua_copy_tiled_i(const plan p) {\n"
                                   "  copy_tiled<int, TILE_L, "
                                   "TILE_BATCHES>(p); }\n"
                                   /* 64-bit offsets take twice the registers: 32 would spill. */
                                   "extern \"C\" __global__ void "
                                   "__launch_bounds__(256, 4)\n"
                                   "ua_copy_tiled_l(const plan p) {\n"
                                   "  copy_tiled<long long, TILE_L, "
                                   "TILE_BATCHES>(p); }\n";

#endif /* USMARRAY_CUDA_KERNELS_H */
