/* The SYCL backend's copy kernels, as OpenCL C source that the runtime
 * compiles (through dpctl's kernel-bundle functions) once per device and
 * pair of element types.  The backend puts in front of it the typedefs S
 * (source), D (destination), R (the real type conversions go through) and
 * the body of convert(), which casts as NumPy's astype(casting="unsafe")
 * does.
 *
 * Both kernels take a copy plan (ua_copy_simplify): axes ordered by
 * decreasing destination step, steps in bytes, one work-item per element.
 *   ua_copy_nd    plans of up to UA_SYCL_ARG_DIMS axes, passed as
 *                 arguments (no buffer to fill before the launch);
 *   ua_copy_plan  longer plans, read from a buffer: shape, dstep, sstep. */
#ifndef USMARRAY_SYCL_KERNELS_H
#define USMARRAY_SYCL_KERNELS_H

#define UA_SYCL_ARG_DIMS 6

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
    "return h; }\n";

static const char ua_sycl_kernel_body[] =
    "#define ELEMENT(I, NSH, DST, SRC)                                  \\\n"
    "  long i_ = (I), d_ = 0, s_ = 0;                                   \\\n"
    "  for (int k = nd - 1; k >= 0; k--) {                              \\\n"
    "    long c = i_ % NSH[k]; i_ /= NSH[k];                            \\\n"
    "    d_ += c * DST[k]; s_ += c * SRC[k];                            \\\n"
    "  }                                                                \\\n"
    "  *(__global D *)(dst + d_) = convert(*(__global const S *)(src + s_));\n"
    "__kernel void ua_copy_nd(__global uchar *dst, __global const uchar *src,\n"
    "    int nd, long n0, long n1, long n2, long n3, long n4, long n5,\n"
    "    long d0, long d1, long d2, long d3, long d4, long d5,\n"
    "    long s0, long s1, long s2, long s3, long s4, long s5) {\n"
    "  long n[6] = {n0, n1, n2, n3, n4, n5};\n"
    "  long ds[6] = {d0, d1, d2, d3, d4, d5};\n"
    "  long ss[6] = {s0, s1, s2, s3, s4, s5};\n"
    "  ELEMENT(get_global_id(0), n, ds, ss)\n"
    "}\n"
    "__kernel void ua_copy_plan(__global uchar *dst, __global const uchar "
    "*src,\n"
    "    int nd, __global const long *plan) {\n"
    "  __global const long *n = plan, *ds = plan + nd, *ss = plan + 2 * nd;\n"
    "  ELEMENT(get_global_id(0), n, ds, ss)\n"
    "}\n";

#endif /* USMARRAY_SYCL_KERNELS_H */
