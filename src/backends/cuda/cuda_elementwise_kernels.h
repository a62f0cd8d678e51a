/* The CUDA language of the elementwise kernels (core/compute/
 * elementwise_source.h): the header before the generated type layer (the
 * copy kernels' prelude, for c64, c128, float16 and the conversions, then
 * the names the prelude expects), and the kernel after it, ua_ew, over
 * one argument struct:
 *   contiguous  vectors of UA_VEC elements (16 bytes at most), UA_UNROLL
 *               of them a thread at a time, all loaded before any is
 *               stored; the vectors past the last whole chunk and then
 *               the elements past the last vector one a thread;
 *   strided     UA_ND <= 4 axes unrolled, offsets in int where
 *               UA_INDEX32, one division per axis and element, or per
 *               vector of UA_VEC elements where the last axis is dense
 *               (the launch gives that axis in vectors);
 *   general     any rank, 64-bit.
 * NVRTC needs no header: the fixed-width names are declared here. */
#ifndef USMARRAY_CUDA_ELEMENTWISE_KERNELS_H
#define USMARRAY_CUDA_ELEMENTWISE_KERNELS_H

#define UA_CUDA_EW_SMALL_DIMS 4
#define UA_CUDA_EW_GENERAL_DIMS 64

static const char ua_cuda_ew_header[] =
    "#define UA_FN static __device__ __forceinline__\n"
    "#define UA_GLOBAL\n"
    /* nvcc (the tools' compile check) has them from its headers */
    "#ifdef __CUDACC_RTC__\n"
    "typedef signed char int8_t;\n"
    "typedef unsigned char uint8_t;\n"
    "typedef short int16_t;\n"
    "typedef unsigned short uint16_t;\n"
    "typedef int int32_t;\n"
    "typedef unsigned int uint32_t;\n"
    "typedef long long int64_t;\n"
    "typedef unsigned long long uint64_t;\n"
    "#endif\n"
    "typedef unsigned long long ua_word;\n"
    "#define UA_NAN __int_as_float(0x7fc00000)\n"
    "#define UA_INF __int_as_float(0x7f800000)\n"
    "#define UA_HALF_BITS(x) d2h((double)(x))\n"
    "#define UA_HALF_VALUE(h) ((float)h2d(h))\n"
    /* NVRTC fuses a product into a following add unless told */
    "static __device__ __forceinline__ float ua_mul_rn(float a, float b)\n"
    "{ return __fmul_rn(a, b); }\n"
    "static __device__ __forceinline__ double ua_mul_rn(double a, double b)\n"
    "{ return __dmul_rn(a, b); }\n"
    "#define UA_MUL_RN(a, b) ua_mul_rn(a, b)\n";

static const char ua_cuda_ew_body[] =
    "#define UA_MAXD (UA_PATH == 2 ? 64 : 4)\n"
    "struct ua_ew_args {\n"
    "  char *out; const char *in0, *in1, *in2;\n"
    "  ua_word sv[6];\n"
    "  long long n; int nd;\n"
    "  long long shape[UA_MAXD], ostep[UA_MAXD];\n"
    "  long long step0[UA_MAXD], step1[UA_MAXD], step2[UA_MAXD];\n"
    "};\n"
    "template <class S> struct alignas(UA_VEC * sizeof(S)) ua_vec {\n"
    "  S v[UA_VEC];\n"
    "};\n"
    "#ifndef UA_UNROLL\n#define UA_UNROLL 1\n#endif\n"
    "#ifndef UA_THREADS\n#define UA_THREADS 256\n#endif\n"
    "#if UA_SCALAR0\n#define UA_X0(e) v0\n#define UA_Y0(e) v0\n"
    "#else\n#define UA_X0(e) ua_load0(x0[u].v[e])\n"
    "#define UA_Y0(e) ua_load0(((const ua_vec<ua_s0> *)in0)[g].v[e])\n"
    "#endif\n"
    "#if UA_SCALAR1\n#define UA_X1(e) v1\n#define UA_Y1(e) v1\n"
    "#else\n#define UA_X1(e) ua_load1(x1[u].v[e])\n"
    "#define UA_Y1(e) ua_load1(((const ua_vec<ua_s1> *)in1)[g].v[e])\n"
    "#endif\n"
    "#if UA_SCALAR2\n#define UA_X2(e) v2\n#define UA_Y2(e) v2\n"
    "#else\n#define UA_X2(e) ua_load2(x2[u].v[e])\n"
    "#define UA_Y2(e) ua_load2(((const ua_vec<ua_s2> *)in2)[g].v[e])\n"
    "#endif\n"
    "#if UA_NIN == 1\n#define UA_EVAL(A, B, C) ua_eval(A)\n"
    "#elif UA_NIN == 2\n#define UA_EVAL(A, B, C) ua_eval(A, B)\n"
    "#else\n#define UA_EVAL(A, B, C) ua_eval(A, B, C)\n#endif\n"
    /* the strided path's vector of operand K at byte offset O */
    "#if UA_SCALAR0\n#define UA_LDZ0(O)\n#define UA_Z0(e) v0\n"
    "#else\n#define UA_LDZ0(O) ua_vec<ua_s0> z0 = "
    "*(const ua_vec<ua_s0> *)(in0 + (O));\n"
    "#define UA_Z0(e) ua_load0(z0.v[e])\n#endif\n"
    "#if UA_NIN < 2 || UA_SCALAR1\n#define UA_LDZ1(O)\n#define UA_Z1(e) v1\n"
    "#else\n#define UA_LDZ1(O) ua_vec<ua_s1> z1 = "
    "*(const ua_vec<ua_s1> *)(in1 + (O));\n"
    "#define UA_Z1(e) ua_load1(z1.v[e])\n#endif\n"
    "#if UA_NIN < 3 || UA_SCALAR2\n#define UA_LDZ2(O)\n#define UA_Z2(e) v2\n"
    "#else\n#define UA_LDZ2(O) ua_vec<ua_s2> z2 = "
    "*(const ua_vec<ua_s2> *)(in2 + (O));\n"
    "#define UA_Z2(e) ua_load2(z2.v[e])\n#endif\n"
    "#define UA_APPLY_VEC(OO, O0, O1, O2) {\\\n"
    "  UA_LDZ0(O0) UA_LDZ1(O1) UA_LDZ2(O2) ua_vec<ua_so> r;\\\n"
    "  _Pragma(\"unroll\") for (int e = 0; e < UA_VEC; e++)\\\n"
    "    r.v[e] = ua_store(UA_EVAL(UA_Z0(e), UA_Z1(e), UA_Z2(e)));\\\n"
    "  *(ua_vec<ua_so> *)(out + (OO)) = r; }\n"
    "#define UA_LOADV(K) ua_vec<ua_s##K> x##K[UA_UNROLL];\\\n"
    "  _Pragma(\"unroll\") for (int u = 0; u < UA_UNROLL; u++)\\\n"
    "    x##K[u] = ((const ua_vec<ua_s##K> *)in##K)[g + u * (long "
    "long)blockDim.x];\n";

static const char ua_cuda_ew_kernel[] =
    "extern \"C\" __global__ void __launch_bounds__(UA_THREADS)\n"
    "ua_ew(const ua_ew_args p) {\n"
    "  char *out = p.out;\n"
    "  const char *in0 = p.in0, *in1 = p.in1, *in2 = p.in2;\n"
    "  ua_word sv0_lo = p.sv[0], sv0_hi = p.sv[1], sv1_lo = p.sv[2],\n"
    "          sv1_hi = p.sv[3], sv2_lo = p.sv[4], sv2_hi = p.sv[5];\n"
    "  (void)in0; (void)in1; (void)in2; (void)sv0_lo; (void)sv0_hi;\n"
    "  (void)sv1_lo; (void)sv1_hi; (void)sv2_lo; (void)sv2_hi;\n"
    "  UA_SCALARS\n"
    "  long long stride = (long long)gridDim.x * blockDim.x;\n"
    "  long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "#if UA_PATH == 0\n"
    /* Each block takes UA_UNROLL * blockDim vectors at a time, a thread
     * every blockDim-th of them (coalesced), all loads before the
     * stores; the vectors past the last whole chunk one at a time. */
    "  long long nv = p.n / UA_VEC;\n"
    "  long long chunk = (long long)UA_UNROLL * blockDim.x;\n"
    "  long long whole = nv / chunk * chunk;\n"
    "  for (long long g = (long long)blockIdx.x * chunk + threadIdx.x;\n"
    "       g < whole; g += (long long)gridDim.x * chunk) {\n"
    "#if !UA_SCALAR0\n    UA_LOADV(0)\n#endif\n"
    "#if UA_NIN > 1 && !UA_SCALAR1\n    UA_LOADV(1)\n#endif\n"
    "#if UA_NIN > 2 && !UA_SCALAR2\n    UA_LOADV(2)\n#endif\n"
    "#pragma unroll\n"
    "    for (int u = 0; u < UA_UNROLL; u++) {\n"
    "      ua_vec<ua_so> r;\n"
    "#pragma unroll\n"
    "      for (int e = 0; e < UA_VEC; e++)\n"
    "        r.v[e] = ua_store(UA_EVAL(UA_X0(e), UA_X1(e), UA_X2(e)));\n"
    "      ((ua_vec<ua_so> *)out)[g + u * (long long)blockDim.x] = r;\n"
    "    }\n"
    "  }\n"
    "  for (long long g = whole + tid; g < nv; g += stride) {\n"
    "    ua_vec<ua_so> r;\n"
    "#pragma unroll\n"
    "    for (int e = 0; e < UA_VEC; e++)\n"
    "      r.v[e] = ua_store(UA_EVAL(UA_Y0(e), UA_Y1(e), UA_Y2(e)));\n"
    "    ((ua_vec<ua_so> *)out)[g] = r;\n"
    "  }\n"
    "  for (long long i = nv * UA_VEC + tid; i < p.n; i += stride)\n"
    "    UA_APPLY(i * (long long)sizeof(ua_so), i * (long "
    "long)sizeof(ua_s0),\n"
    "             i * (long long)sizeof(ua_s1), i * (long "
    "long)sizeof(ua_s2));\n"
    "#else\n"
    "#if UA_PATH == 1 && UA_INDEX32\n"
    "  typedef int I;\n"
    "#else\n"
    "  typedef long long I;\n"
    "#endif\n"
    "#if UA_PATH == 1\n"
    "  const int nd = UA_ND;\n"
    "#else\n"
    "  const int nd = p.nd;\n"
    "#endif\n"
    "  for (long long i = tid; i < p.n; i += stride) {\n"
    "    I rem = (I)i, oo = 0, o0 = 0, o1 = 0, o2 = 0;\n"
    "#pragma unroll\n"
    "    for (int d = nd - 1; d > 0; d--) {\n"
    "      I n = (I)p.shape[d], c = rem % n;\n"
    "      rem /= n;\n"
    "      oo += c * (I)p.ostep[d]; o0 += c * (I)p.step0[d];\n"
    "      o1 += c * (I)p.step1[d]; o2 += c * (I)p.step2[d];\n"
    "    }\n"
    "    oo += rem * (I)p.ostep[0]; o0 += rem * (I)p.step0[0];\n"
    "    o1 += rem * (I)p.step1[0]; o2 += rem * (I)p.step2[0];\n"
    "    (void)o0; (void)o1; (void)o2;\n"
    "#if UA_PATH == 1 && UA_VEC > 1\n"
    "    UA_APPLY_VEC(oo, o0, o1, o2);\n"
    "#else\n"
    "    UA_APPLY(oo, o0, o1, o2);\n"
    "#endif\n"
    "  }\n"
    "#endif\n"
    "}\n";

#endif /* USMARRAY_CUDA_ELEMENTWISE_KERNELS_H */
