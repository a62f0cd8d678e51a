/* The CUDA C++ header of every program the backend compiles (copies,
 * compute kernels, reductions, elementwise functions): the complex pairs
 * c64 and c128, float16 to and from double (h2d, d2h) and the
 * float-to-integer conversions the generated casts call (f2i64, f2u64). */
#ifndef USMARRAY_CUDA_LANGUAGE_H
#define USMARRAY_CUDA_LANGUAGE_H

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
    "}\n";

#endif
