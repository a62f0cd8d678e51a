/* The CUDA C++ dialect of the reduction kernels (core/compute/
 * reduce_kernels.inc, which names what it defines), after the copy
 * kernels' prelude (c64, c128, float16 conversions).  NVRTC fuses a
 * product into a following add unless told: mul_rn keeps them apart, so
 * that the bits match the host's and OpenCL's.  Warps of 32 threads move
 * values between their threads (WARP_SHFL).  KERNEL_MIN_GROUPS caps a
 * kernel's registers so that n groups fit a multiprocessor; UNROLL asks
 * for a loop's registers where NVRTC would keep a long one's array in
 * local memory. */
#ifndef USMARRAY_CUDA_REDUCE_KERNELS_H
#define USMARRAY_CUDA_REDUCE_KERNELS_H

static const char ua_cuda_reduce_aligned[] = "#define UA_ALIGNED 1\n";

static const char ua_cuda_reduce_dialect[] =
    "#define KERNEL extern \"C\" __global__ void __launch_bounds__(256)\n"
    "#define KERNEL_MIN_GROUPS(n) extern \"C\" __global__ void "
    "__launch_bounds__(256, n)\n"
    "#define UNROLL _Pragma(\"unroll\")\n"
    "#define NO_UNROLL _Pragma(\"unroll 1\")\n"
    "#define GLOBAL\n"
    "#define LOCAL __shared__\n"
    "#define LOCAL_ARG\n"
    "#define FN __device__\n"
    "#define LID ((int)threadIdx.x)\n"
    "#define GRP ((long long)blockIdx.x)\n"
    "#define GID ((long long)blockIdx.x * blockDim.x + threadIdx.x)\n"
    "#define BARRIER __syncthreads()\n"
    "typedef long long I64;\n"
    "typedef unsigned long long U64;\n"
    "#define HALF_TO_F(h) ((float)h2d(h))\n"
    "#define F_TO_HALF(f) d2h((double)(f))\n"
    "#define BITS_F32(b) __int_as_float(b)\n"
    "#define BITS_F64(b) __longlong_as_double(b)\n"
    "#ifndef INFINITY\n"
    "#define INFINITY __int_as_float(0x7f800000)\n"
    "#endif\n"
    "__device__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }\n"
    "__device__ double mul_rn(double a, double b) { return __dmul_rn(a, b); "
    "}\n"
    "#define A_SQRT(x) sqrt(x)\n"
    "#define LOCAL_INC(p) atomicAdd((p), 1)\n"
    "#define WARP_SHFL 1\n"
    "#define SHFL_UP(v, o) __shfl_up_sync(0xffffffffu, (v), (o))\n"
    "#define SHFL_DOWN(v, o) __shfl_down_sync(0xffffffffu, (v), (o))\n";

#endif /* USMARRAY_CUDA_REDUCE_KERNELS_H */
