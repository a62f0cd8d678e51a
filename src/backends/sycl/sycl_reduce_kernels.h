/* The OpenCL C dialect of the reduction kernels (core/compute/
 * reduce_kernels.inc, which names what it defines), after the elementwise
 * kernels' header (its fixed-width names, c64, c128 and float16
 * conversions). */
#ifndef USMARRAY_SYCL_REDUCE_KERNELS_H
#define USMARRAY_SYCL_REDUCE_KERNELS_H

static const char ua_sycl_reduce_dialect[] =
    "#define KERNEL __kernel void\n"
    "#define KERNEL_MIN_GROUPS(n) __kernel void\n"
    "#define UNROLL\n"
    "#define NO_UNROLL\n"
    "#define GLOBAL __global\n"
    "#define LOCAL __local\n"
    "#define LOCAL_ARG __local\n"
    "#define FN\n"
    "#define LID ((int)get_local_id(0))\n"
    "#define GRP ((long)get_group_id(0))\n"
    "#define GID ((long)get_global_id(0))\n"
    "#define BARRIER barrier(CLK_LOCAL_MEM_FENCE)\n"
    "typedef long I64;\n"
    "typedef ulong U64;\n"
    "#define HALF_TO_F(h) ua_h2r(h)\n"
    "#define F_TO_HALF(f) ua_r2h(f)\n"
    "#define BITS_F32(b) as_float(b)\n"
    "#define BITS_F64(b) as_double(b)\n"
    /* FP_CONTRACT is off (the header): products stay unfused. */
    "#define mul_rn(a, b) ((a) * (b))\n"
    "#define A_SQRT(x) sqrt(x)\n"
    "#define LOCAL_INC(p) atomic_inc(p)\n";

#endif /* USMARRAY_SYCL_REDUCE_KERNELS_H */
