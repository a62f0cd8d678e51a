/* The CUDA backend's copy kernels, as CUDA C++ source that NVRTC compiles
 * at run time once per device and pair of element types.  The backend puts
 * in front of it the typedefs S (source), D (destination) and the body of
 * convert(), which casts as NumPy's astype(casting="unsafe") does.
 *
 * Both kernels take a copy plan (ua_copy_simplify): axes ordered by
 * decreasing destination step, steps in bytes, so that the last axis walks
 * the destination most densely.
 *   ua_copy_nd     one thread per element, grid-stride;
 *   ua_copy_tiled  32x32 tiles through shared memory, for layouts where the
 *                  source is dense along another axis than the destination
 *                  (transposes and permutes): both sides coalesce.
 * Elements are read and written through ld() and st(): memory imported
 * from other producers need not be aligned to its itemsize, which a typed
 * access would fault on.  Aligned data, the rule, takes the typed access;
 * the test is uniform across a warp for it. */
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
    "  else { s = 43 - he; if (s >= 64) return sign; full = m | (1ull << 52);\n"
    "         r = sign; }\n"
    "  r += (unsigned)(full >> s);\n"
    "  rem = full & ((1ull << s) - 1); half = 1ull << (s - 1);\n"
    "  if (rem > half || (rem == half && (r & 1))) r++;\n"
    "  return (unsigned short)r;\n"
    "}\n"
    "template <class T> __device__ T ld(const char *p) {\n"
    "  if (((unsigned long long)p & (alignof(T) - 1)) == 0)\n"
    "    return *(const T *)p;\n"
    "  union { T v; unsigned char b[sizeof(T)]; } u;\n"
    "  for (int i = 0; i < (int)sizeof(T); i++) u.b[i] = (unsigned char)p[i];\n"
    "  return u.v;\n"
    "}\n"
    "template <class T> __device__ void st(char *p, T v) {\n"
    "  if (((unsigned long long)p & (alignof(T) - 1)) == 0) {\n"
    "    *(T *)p = v; return;\n"
    "  }\n"
    "  union { T v; unsigned char b[sizeof(T)]; } u;\n"
    "  u.v = v;\n"
    "  for (int i = 0; i < (int)sizeof(T); i++) p[i] = (char)u.b[i];\n"
    "}\n";

static const char ua_cuda_kernel_body[] =
    "#define MAXD 64\n"
    "struct plan { char *dst; const char *src; long long size; int nd;\n"
    "  int tile_axis; long long shape[MAXD]; long long dstep[MAXD];\n"
    "  long long sstep[MAXD]; };\n"
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
    "extern \"C\" __global__ void ua_copy_tiled(const plan p) {\n"
    "  __shared__ D tile[32][33];\n"
    "  const int L = p.nd - 1, A = p.tile_axis;\n"
    "  const long long nl = (p.shape[L] + 31) / 32, na = (p.shape[A] + 31) / 32;\n"
    "  const long long tiles = p.size / (p.shape[L] * p.shape[A]) * nl * na;\n"
    "  const int tx = threadIdx.x, ty = threadIdx.y;\n"
    "  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {\n"
    "    long long tl = t % nl, rest = t / nl, ta = rest % na, b = rest / na;\n"
    "    long long d = 0, s = 0;\n"
    "    for (int k = p.nd - 1; k >= 0; k--) {\n"
    "      if (k == L || k == A) continue;\n"
    "      long long idx = b % p.shape[k]; b /= p.shape[k];\n"
    "      d += idx * p.dstep[k]; s += idx * p.sstep[k];\n"
    "    }\n"
    "    for (int j = ty; j < 32; j += 8) {\n"
    "      long long ia = ta * 32 + tx, il = tl * 32 + j;\n"
    "      if (ia < p.shape[A] && il < p.shape[L])\n"
    "        tile[j][tx] = convert(ld<S>(p.src + s + ia * p.sstep[A]\n"
    "                                    + il * p.sstep[L]));\n"
    "    }\n"
    "    __syncthreads();\n"
    "    for (int j = ty; j < 32; j += 8) {\n"
    "      long long il = tl * 32 + tx, ia = ta * 32 + j;\n"
    "      if (ia < p.shape[A] && il < p.shape[L])\n"
    "        st<D>(p.dst + d + ia * p.dstep[A] + il * p.dstep[L], tile[tx][j]);\n"
    "    }\n"
    "    __syncthreads();\n"
    "  }\n"
    "}\n";

#endif /* USMARRAY_CUDA_KERNELS_H */
