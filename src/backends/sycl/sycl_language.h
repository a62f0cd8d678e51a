/* The OpenCL C header of every program the backend builds (copies,
 * compute kernels, reductions, elementwise functions), before the GPU
 * layer's dialect (gpu/dialect_opencl.inc): doubles where the device has
 * them (UA_FP64, which ua_sycl_language_fp64 defines first), UA_CVT_R the
 * widest real type it has, products left unfused, c64 and c128 as pairs,
 * float16 through vload_half and vstore_half_rte (ua_h2r, ua_r2h) and the
 * float-to-integer conversions the generated casts call (ua_f2l,
 * ua_f2ul). */
#ifndef USMARRAY_SYCL_LANGUAGE_H
#define USMARRAY_SYCL_LANGUAGE_H

static const char ua_sycl_language_fp64[] = "#define UA_FP64 1\n";

static const char ua_sycl_language_header[] =
    "#ifdef UA_FP64\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define UA_CVT_R double\n"
    "#else\n"
    "#define UA_CVT_R float\n"
    "#endif\n"
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "typedef struct { float re, im; } c64;\n"
    "#ifdef UA_FP64\n"
    "typedef struct { double re, im; } c128;\n"
    "#endif\n"
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
    "}\n";

#endif /* USMARRAY_SYCL_LANGUAGE_H */
