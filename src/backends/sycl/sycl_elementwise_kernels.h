/* The OpenCL C language of the elementwise kernels (core/compute/
 * elementwise_source.h): the header before the generated type layer (the
 * fixed-width names, c64 and c128 as the prelude's pairs, float16 through
 * vload_half and vstore_half_rte, the conversions' float-to-integer
 * functions), and the kernel after it, ua_ew, one work-item per element:
 *   contiguous  offsets i * sizeof (the device's compiler vectorizes
 *               across work-items);
 *   strided     UA_ND <= 4 axes from the arguments, int offsets where
 *               UA_INDEX32;
 *   general     the axes from a buffer: shape, out steps, each
 *               operand's steps (nd each). */
#ifndef USMARRAY_SYCL_ELEMENTWISE_KERNELS_H
#define USMARRAY_SYCL_ELEMENTWISE_KERNELS_H

static const char ua_sycl_ew_fp64[] = "#define UA_FP64 1\n";

static const char ua_sycl_ew_header[] =
    "#ifdef UA_FP64\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define UA_CVT_R double\n"
    "#else\n"
    "#define UA_CVT_R float\n"
    "#endif\n"
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "#define UA_FN\n"
    "#define UA_GLOBAL __global\n"
    "typedef char int8_t;\n"
    "typedef uchar uint8_t;\n"
    "typedef short int16_t;\n"
    "typedef ushort uint16_t;\n"
    "typedef int int32_t;\n"
    "typedef uint uint32_t;\n"
    "typedef long int64_t;\n"
    "typedef ulong uint64_t;\n"
    "typedef ulong ua_word;\n"
    "typedef struct { float re, im; } c64;\n"
    "#ifdef UA_FP64\n"
    "typedef struct { double re, im; } c128;\n"
    "#endif\n"
    "#define UA_NAN NAN\n"
    "#define UA_INF INFINITY\n"
    "float ua_h2r(ushort h) { return vload_half(0, (const half *)&h); }\n"
    "ushort ua_r2h(UA_CVT_R x) {\n"
    "  ushort h; vstore_half_rte(x, 0, (half *)&h); return h;\n"
    "}\n"
    /* NaN, infinities and out-of-range values to LONG_MIN, then wrapped,
     * as the core's casts send them (OpenCL leaves them undefined). */
    "long ua_f2l(UA_CVT_R v) {\n"
    "  return v >= -0x1p63f && v < 0x1p63f ? (long)v : LONG_MIN;\n"
    "}\n"
    "ulong ua_f2ul(UA_CVT_R v) {\n"
    "  return v >= 0 && v < 0x1p64f ? (ulong)v : (ulong)ua_f2l(v);\n"
    "}\n"
    "#define UA_HALF_BITS(x) ua_r2h((UA_CVT_R)(x))\n"
    "#define UA_HALF_VALUE(h) ua_h2r(h)\n";

static const char ua_sycl_ew_body[] =
    "__kernel void ua_ew(__global char *out, __global const char *in0,\n"
    "    __global const char *in1, __global const char *in2,\n"
    "    ulong sv0_lo, ulong sv0_hi, ulong sv1_lo, ulong sv1_hi,\n"
    "    ulong sv2_lo, ulong sv2_hi, int nd, __global const long *plan,\n"
    "    long n0, long n1, long n2, long n3, long q0, long q1, long q2,\n"
    "    long q3, long a0, long a1, long a2, long a3, long b0, long b1,\n"
    "    long b2, long b3, long c0, long c1, long c2, long c3) {\n"
    "  UA_SCALARS\n"
    "  long i = get_global_id(0);\n"
    "#if UA_PATH == 0\n"
    "  UA_APPLY(i * (long)sizeof(ua_so), i * (long)sizeof(ua_s0),\n"
    "           i * (long)sizeof(ua_s1), i * (long)sizeof(ua_s2));\n"
    "#else\n"
    "#if UA_PATH == 1 && UA_INDEX32\n"
    "  typedef int I;\n"
    "#else\n"
    "  typedef long I;\n"
    "#endif\n"
    "#if UA_PATH == 1\n"
    "  const long shape[4] = {n0, n1, n2, n3}, os[4] = {q0, q1, q2, q3};\n"
    "  const long s0[4] = {a0, a1, a2, a3}, s1[4] = {b0, b1, b2, b3};\n"
    "  const long s2[4] = {c0, c1, c2, c3};\n"
    "  nd = UA_ND;\n"
    "#else\n"
    "  __global const long *shape = plan, *os = plan + nd;\n"
    "  __global const long *s0 = plan + 2 * nd, *s1 = plan + 3 * nd;\n"
    "  __global const long *s2 = plan + 4 * nd;\n"
    "#endif\n"
    "  I rem = (I)i, oo = 0, o0 = 0, o1 = 0, o2 = 0;\n"
    "  for (int d = nd - 1; d > 0; d--) {\n"
    "    I n = (I)shape[d], c = rem % n;\n"
    "    rem /= n;\n"
    "    oo += c * (I)os[d]; o0 += c * (I)s0[d];\n"
    "    o1 += c * (I)s1[d]; o2 += c * (I)s2[d];\n"
    "  }\n"
    "  oo += rem * (I)os[0]; o0 += rem * (I)s0[0];\n"
    "  o1 += rem * (I)s1[0]; o2 += rem * (I)s2[0];\n"
    "  UA_APPLY(oo, o0, o1, o2);\n"
    "#endif\n"
    "}\n";

#endif /* USMARRAY_SYCL_ELEMENTWISE_KERNELS_H */
