/* The SYCL backend's copy kernels, as OpenCL C source that the runtime
 * compiles (through dpctl's kernel-bundle functions) once per device and
 * pair of element types.  The backend puts in front of it the typedefs S
 * (source), D (destination), R (the real type conversions go through) and
 * the body of convert(), which casts as NumPy's astype(casting="unsafe")
 * does.
 *
 * Every kernel takes a copy plan (ua_copy_simplify): axes ordered by
 * decreasing destination step, steps in bytes.  Plans of up to
 * UA_SYCL_ARG_DIMS axes are passed as arguments (no buffer to fill before
 * the launch), padded in front with axes of length 1 to at least two.
 *   ua_copy_nd     one work-item per element, over a 3-D range: the last
 *                  axis, the one before it, and the others together, so
 *                  that only axes beyond the last two cost a division;
 *   ua_copy_tiled  a transpose: the destination's last axis a against an
 *                  axis b along which the source is dense, in square tiles
 *                  of UA_SYCL_TILE elements that a work-group reads along
 *                  b into local memory and writes along a, so that both
 *                  sides are read and written in order;
 *   ua_copy_plan   longer plans, read from a buffer: shape, dstep, sstep,
 *                  one work-item per element. */
#ifndef USMARRAY_SYCL_KERNELS_H
#define USMARRAY_SYCL_KERNELS_H

#define UA_SYCL_ARG_DIMS 6
#define UA_SYCL_TILE 16

static const char ua_sycl_kernel_prelude[] =
    "#ifdef UA_FP64\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#endif\n"
    "typedef float2 c64;\n"
    "#ifdef UA_FP64\n"
    "typedef double2 c128;\n"
    "#endif\n"
    "float h2f(ushort h) { return vload_half(0, (const half *)&h); }\n"
    "ushort f2h(R x) { ushort h; vstore_half_rte(x, 0, (half *)&h); "
    "return h; }\n"
    /* Floating to integer as the core defines it (src/core/layout/copy.c): NaN,
     * infinities and values out of range become LONG_MIN, then wrap to the
     * destination's width; OpenCL leaves them undefined.  The bounds are
     * 2**63 and 2**64, exact in float and double. */
    "long f2l(R v) {\n"
    "  return v >= -0x1p63f && v < 0x1p63f ? (long)v : LONG_MIN;\n"
    "}\n"
    "ulong f2ul(R v) {\n"
    "  return v >= 0 && v < 0x1p64f ? (ulong)v : (ulong)f2l(v);\n"
    "}\n";

#define UA_SYCL_STR_(x) #x
#define UA_SYCL_STR(x) UA_SYCL_STR_(x)

static const char ua_sycl_kernel_body[] = "#define TILE " UA_SYCL_STR(
    UA_SYCL_TILE) "\n"
                  "#define PLAN_ARGS int nd,\\\n"
                  "    long n0, long n1, long n2, long n3, long n4, long "
                  "n5,\\\n"
                  "    long d0, long d1, long d2, long d3, long d4, long "
                  "d5,\\\n"
                  "    long s0, long s1, long s2, long s3, long s4, long s5\n"
                  "#define PLAN_ARRAYS\\\n"
                  "  long n[6] = {n0, n1, n2, n3, n4, n5};\\\n"
                  "  long ds[6] = {d0, d1, d2, d3, d4, d5};\\\n"
                  "  long ss[6] = {s0, s1, s2, s3, s4, s5};\n"
                  "#define MOVE(D_, S_)\\\n"
                  "  *(__global D *)(dst + (D_)) = convert(*(__global const S "
                  "*)(src + (S_)));\n"
                  /* Offsets of flat index r over the axes [0, upto) but skip1 and skip2. */
                  "#define OUTER(R_, UPTO, SKIP1, SKIP2, DO, SO)\\\n"
                  "  { long r_ = (R_);\\\n"
                  "    for (int k = (UPTO) - 1; k >= 0; k--) {\\\n"
                  "      if (k == (SKIP1) || k == (SKIP2)) continue;\\\n"
                  "      long c = r_ % n[k]; r_ /= n[k];\\\n"
                  "      DO += c * ds[k]; SO += c * ss[k];\\\n"
                  "    } }\n"
                  "__kernel void ua_copy_nd(__global uchar *dst, __global "
                  "const uchar *src,\n"
                  "    PLAN_ARGS) {\n"
                  "  PLAN_ARRAYS\n"
                  "  long i = get_global_id(0), j = get_global_id(1);\n"
                  "  long d_ = i * ds[nd - 1] + j * ds[nd - 2];\n"
                  "  long s_ = i * ss[nd - 1] + j * ss[nd - 2];\n"
                  "  OUTER(get_global_id(2), nd - 2, -1, -1, d_, s_)\n"
                  "  MOVE(d_, s_)\n"
                  "}\n"
                  "__kernel void ua_copy_tiled(__global uchar *dst,\n"
                  "    __global const uchar *src, int a, int b, PLAN_ARGS) {\n"
                  "  PLAN_ARRAYS\n"
                  "  __local S tile[TILE][TILE + 1];\n"
                  "  int lx = get_local_id(0), ly = get_local_id(1);\n"
                  "  long a0 = get_group_id(0) * TILE, b0 = get_group_id(1) * "
                  "TILE;\n"
                  "  long d_ = 0, s_ = 0;\n"
                  "  OUTER(get_global_id(2), nd, a, b, d_, s_)\n"
                  "  long ia = a0 + ly, ib = b0 + lx;\n"
                  "  if (ia < n[a] && ib < n[b])\n"
                  "    tile[ly][lx] = *(__global const S *)(src + s_ + ia * "
                  "ss[a] +\n"
                  "                                          ib * ss[b]);\n"
                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  ia = a0 + lx; ib = b0 + ly;\n"
                  "  if (ia < n[a] && ib < n[b])\n"
                  "    *(__global D *)(dst + d_ + ia * ds[a] + ib * ds[b]) =\n"
                  "        convert(tile[lx][ly]);\n"
                  "}\n"
                  "__kernel void ua_copy_plan(__global uchar *dst, __global "
                  "const uchar "
                  "*src,\n"
                  "    int nd, __global const long *plan) {\n"
                  "  __global const long *n = plan, *ds = plan + nd, *ss = "
                  "plan + 2 * nd;\n"
                  "  long d_ = 0, s_ = 0;\n"
                  "  OUTER(get_global_id(0), nd, -1, -1, d_, s_)\n"
                  "  MOVE(d_, s_)\n"
                  "}\n";

#endif /* USMARRAY_SYCL_KERNELS_H */
