/* The SYCL backend's compute kernels (core/compute/kernels.h): OpenCL C
 * that the runtime builds once per context, through dpctl's kernel-bundle
 * functions.  Plans go to the kernels in a USM shared buffer, with a flag
 * the index kernel sets for an index out of bounds.  Elements move as
 * bytes of their size; floating values go as their bits in integer
 * arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/sycl/sycl_backend.h"
#include "backends/sycl/sycl_elementwise_kernels.h"
#include "backends/sycl/sycl_kernels.h"
#include "core/compute/compute.h"
#include "core/compute/elementwise_source.h"
#include "core/compute/kernels.h"

#define CHUNK 4096

static const char compute_source[] =
    "#ifdef UA_FP64\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#endif\n"
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "void move(__global char *d, __global const char *s, int n) {\n"
    "  for (int b = 0; b < n; b++) d[b] = s[b];\n"
    "}\n"
    /* plan: shape, rstep, astep, istep (nd each), then flag, bad. */
    "__kernel void ua_index(int mode, __global char *result,\n"
    "    __global char *array, __global const char *index, long length,\n"
    "    long stride, int itemsize, int nd, __global long *plan) {\n"
    "  long i = get_global_id(0), r = 0, a = 0, x = 0, rem = i;\n"
    "  for (int k = nd - 1; k >= 0; k--) {\n"
    "    long n = plan[k], c = rem % n; rem /= n;\n"
    "    r += c * plan[nd + k]; a += c * plan[2 * nd + k];\n"
    "    x += c * plan[3 * nd + k];\n"
    "  }\n"
    "  long v = *(__global const long *)(index + x);\n"
    "  if (length > 0) {\n"
    "    long w = v < 0 ? v + length : v;\n"
    "    if (w < 0 || w >= length) {\n"
    "      plan[4 * nd] = 1; plan[4 * nd + 1] = v; return;\n"
    "    }\n"
    "    v = w;\n"
    "  }\n"
    "  a += v * stride;\n"
    "  if (mode == 0) move(result + r, array + a, itemsize);\n"
    "  else if (mode == 1) move(array + a, result + r, itemsize);\n"
    "  else *(__global long *)(result + r) += v * stride;\n"
    "}\n"
    "__kernel void ua_count(__global const uchar *mask, long n,\n"
    "    __global long *counts) {\n"
    "  long w = get_global_id(0), c = 0;\n"
    "  long end = min(n, (w + 1) * " UA_SYCL_STR(
        CHUNK) "L);\n"
               "  for (long i = w * " UA_SYCL_STR(
                   CHUNK) "L; i < end; i++)\n"
                          "    c += mask[i] != 0;\n"
                          "  counts[w] = c;\n"
                          "}\n"
                          /* Rows of src, or (src NULL) nd coordinates over shape. */
                          "__kernel void ua_compress(__global const uchar "
                          "*mask, long n,\n"
                          "    __global const long *offsets, __global const "
                          "char *src, long sstep,\n"
                          "    long rowbytes, __global char *dst, int nd,\n"
                          "    __global const long *shape) {\n"
                          "  long w = get_global_id(0), o = offsets[w];\n"
                          "  long end = min(n, (w + 1) * " UA_SYCL_STR(
                              CHUNK) "L);\n"
                                     "  for (long i = w * " UA_SYCL_STR(
                                         CHUNK) "L; i < end; i++) {\n"
                                                "    if (!mask[i]) continue;\n"
                                                "    if (src) {\n"
                                                "      move(dst + o * "
                                                "rowbytes, src + i * sstep, "
                                                "(int)rowbytes);\n"
                                                "    } else {\n"
                                                "      __global long *c = "
                                                "(__global long *)dst + o * "
                                                "nd; long rem = i;\n"
                                                "      for (int k = nd - 1; k "
                                                ">= 0; k--) {\n"
                                                "        c[k] = rem % "
                                                "shape[k]; rem /= shape[k];\n"
                                                "      }\n"
                                                "    }\n"
                                                "    o++;\n"
                                                "  }\n"
                                                "}\n"
                                                /* arange: integers as 64-bit words cut to itemsize bytes (little
     * endian); floating types per part, each part every `step` items. */
                                                "__kernel void "
                                                "ua_arange_int(__global char "
                                                "*dst, ulong first, ulong d,\n"
                                                "    int itemsize) {\n"
                                                "  long i = get_global_id(0); "
                                                "ulong v = first + (ulong)i * "
                                                "d;\n"
                                                "  for (int b = 0; b < "
                                                "itemsize; b++) dst[i * "
                                                "itemsize + b] =\n"
                                                "    (char)(v >> (8 * b));\n"
                                                "}\n"
                                                "__kernel void "
                                                "ua_arange_f32(__global float "
                                                "*dst, int first, int "
                                                "second,\n"
                                                "    int step) {\n"
                                                "  long i = get_global_id(0); "
                                                "float f = as_float(first);\n"
                                                "  float s = "
                                                "as_float(second);\n"
                                                "  dst[i * step] = i == 0 ? f "
                                                ": i == 1 ? s : f + (float)i "
                                                "* (s - f);\n"
                                                "}\n"
                                                "__kernel void "
                                                "ua_arange_half(__global half "
                                                "*dst, int first,\n"
                                                "    int second) {\n"
                                                "  long i = get_global_id(0); "
                                                "float f = as_float(first);\n"
                                                "  float s = "
                                                "as_float(second);\n"
                                                "  vstore_half_rte(i == 0 ? f "
                                                ": i == 1 ? s : f + (float)i "
                                                "* (s - f), i,\n"
                                                "                  dst);\n"
                                                "}\n"
                                                "#ifdef UA_FP64\n"
                                                "__kernel void "
                                                "ua_arange_f64(__global "
                                                "double *dst, long first,\n"
                                                "    long second, int step) "
                                                "{\n"
                                                "  long i = get_global_id(0); "
                                                "double f = "
                                                "as_double(first);\n"
                                                "  double s = "
                                                "as_double(second);\n"
                                                "  dst[i * step] = i == 0 ? f "
                                                ": i == 1 ? s : f + (double)i "
                                                "* (s - f);\n"
                                                "}\n"
                                                /* linspace of one part, every `step` doubles. */
                                                "__kernel void "
                                                "ua_linspace(__global double "
                                                "*dst, long n, long start,\n"
                                                "    long stepv, long stop, "
                                                "long div, int divide, int "
                                                "endpoint,\n"
                                                "    int step) {\n"
                                                "  long i = get_global_id(0); "
                                                "double y = (double)i;\n"
                                                "  y = divide ? y / "
                                                "as_double(div) * "
                                                "as_double(stepv)\n"
                                                "             : y * "
                                                "as_double(stepv);\n"
                                                "  y = y + as_double(start);\n"
                                                "  if (endpoint && n > 1 && i "
                                                "== n - 1) y = "
                                                "as_double(stop);\n"
                                                "  dst[i * step] = y;\n"
                                                "}\n"
                                                "#endif\n"
                                                "__kernel void "
                                                "ua_band(__global char *dst, "
                                                "long rows, long cols,\n"
                                                "    long lo, long hi, int "
                                                "itemsize, int set_inside, "
                                                "int set_outside,\n"
                                                "    ulong in0, ulong in1, "
                                                "ulong out0, ulong out1) {\n"
                                                "  long e = get_global_id(0), "
                                                "j = e % cols, i = (e / cols) "
                                                "% rows;\n"
                                                "  int in = j - i >= lo && j "
                                                "- i <= hi;\n"
                                                "  if (in ? !set_inside : "
                                                "!set_outside) return;\n"
                                                "  ulong w0 = in ? in0 : "
                                                "out0, w1 = in ? in1 : out1;\n"
                                                "  for (int b = 0; b < "
                                                "itemsize; b++)\n"
                                                "    dst[e * itemsize + b] = "
                                                "(char)((b < 8 ? w0 : w1) >> "
                                                "(8 * (b % 8)));\n"
                                                "}\n";

static const char *const kernel_names[] = {
    "ua_index",      "ua_count",      "ua_compress",
    "ua_arange_int", "ua_arange_f32", "ua_arange_half",
    "ua_band",       "ua_arange_f64", "ua_linspace"};
enum {
    K_INDEX,
    K_COUNT,
    K_COMPRESS,
    K_ARANGE_INT,
    K_ARANGE_F32,
    K_ARANGE_HALF,
    K_BAND,
    K_ARANGE_F64, /* these two only with fp64 */
    K_LINSPACE,
    K_N
};

static ua_status
build(sycl_context *c, ua_sycl_compute *k)
{
    char *source = malloc(sizeof compute_source + 32);
    if (source == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a kernel");
    }
    snprintf(source, sizeof compute_source + 32, "%s%s",
             c->fp64 ? "#define UA_FP64\n" : "", compute_source);
    k->bundle = ua_dpctl.KernelBundle_CreateFromOCLSource(
        c->ctx, ua_sycl_devices[c->index], source, "");
    free(source);
    if (k->bundle == NULL) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime could not build the compute "
                            "kernels (set DPCTL_VERBOSITY=error for its log)");
    }
    for (int i = 0; i < (c->fp64 ? K_N : K_ARANGE_F64); i++) {
        k->kernel[i] =
            ua_dpctl.KernelBundle_GetKernel(k->bundle, kernel_names[i]);
        if (k->kernel[i] == NULL) {
            return ua_error_set(UA_ERR_RUNTIME,
                                "the compute kernels' bundle lacks %s",
                                kernel_names[i]);
        }
    }
    return UA_OK;
}

/* The context's compute kernels, built on first use and kept. */
static ua_status
kernels(sycl_queue *q, DPCTLSyclKernelRef *out, int which)
{
    sycl_context *c = q->c;
    pthread_mutex_lock(&c->lock);
    ua_status st = c->compute.bundle != NULL ? UA_OK : build(c, &c->compute);
    pthread_mutex_unlock(&c->lock);
    *out = st == UA_OK ? c->compute.kernel[which] : NULL;
    if (st == UA_OK && *out == NULL) {
        st = ua_error_set(UA_ERR_TYPE,
                          "SYCL device %d has no 64-bit floating point",
                          c->index);
    }
    return st;
}

static ua_status
submit(sycl_queue *q, DPCTLSyclKernelRef k, void **args, int *types,
       size_t nargs, size_t n, const char *what)
{
    size_t range[3] = {n, 1, 1};
    return ua_sycl_enqueued(ua_dpctl.Queue_SubmitRange(k, q->q, args, types,
                                                       nargs, range, 1, NULL,
                                                       0),
                            what);
}

static void *
shared(sycl_queue *q, size_t bytes)
{
    void *p = ua_dpctl.malloc_shared(bytes, q->q);
    if (p == NULL) {
        ua_error_set(UA_ERR_ALLOC,
                     "the SYCL runtime could not allocate %zu bytes of "
                     "shared memory",
                     bytes);
    }
    return p;
}

static size_t
plan_size(const ua_index_plan *p)
{
    size_t n = 1;
    for (int k = 0; k < p->nd; k++) {
        n *= (size_t)p->shape[k];
    }
    return n;
}

static ua_status
sycl_index(void *queue, ua_index_mode mode, const ua_index_plan *p,
           int64_t *bad)
{
    sycl_queue *q = queue;
    DPCTLSyclKernelRef k;
    ua_status st = kernels(q, &k, K_INDEX);
    int nd = p->nd;
    long long *plan = st == UA_OK
                          ? shared(q, sizeof(long long) * (4 * (size_t)nd + 2))
                          : NULL;
    if (plan == NULL) {
        return st == UA_OK ? UA_ERR_ALLOC : st;
    }
    for (int j = 0; j < nd; j++) {
        plan[j] = p->shape[j];
        plan[nd + j] = p->rstep[j];
        plan[2 * nd + j] = p->astep[j];
        plan[3 * nd + j] = p->istep[j];
    }
    plan[4 * nd] = plan[4 * nd + 1] = 0;
    int m = (int)mode, isz = (int)p->itemsize;
    long long length = p->length, stride = p->stride;
    void *args[9] = {&m,      p->result, p->array, (void *)p->index,
                     &length, &stride,   &isz,     &nd,
                     plan};
    int types[9] = {DPCTL_INT32_T,  DPCTL_VOID_PTR, DPCTL_VOID_PTR,
                    DPCTL_VOID_PTR, DPCTL_INT64_T,  DPCTL_INT64_T,
                    DPCTL_INT32_T,  DPCTL_INT32_T,  DPCTL_VOID_PTR};
    st = submit(q, k, args, types, 9, plan_size(p), "the index kernel");
    ua_dpctl.Queue_Wait(q->q);
    if (st == UA_OK && plan[4 * nd] != 0) {
        *bad = plan[4 * nd + 1];
        st = UA_ERR_INDEX;
    }
    ua_dpctl.free_with_context(plan, q->c->ctx);
    return st;
}

/* Counts per chunk, offsets on the host, then the write. */
static ua_status
sycl_compress(void *queue, const ua_compress_plan *p, ua_compress_output out,
              void *ctx, size_t *count)
{
    sycl_queue *q = queue;
    DPCTLSyclKernelRef kc, kw;
    ua_status st = kernels(q, &kc, K_COUNT);
    st = st == UA_OK ? kernels(q, &kw, K_COMPRESS) : st;
    size_t chunks = (p->n + CHUNK - 1) / CHUNK;
    long long *buf =
        st == UA_OK ? shared(q, sizeof(long long) * (chunks + 1 + UA_MAXDIMS))
                    : NULL;
    if (buf == NULL) {
        return st == UA_OK ? UA_ERR_ALLOC : st;
    }
    long long n = (long long)p->n;
    void *cargs[3] = {(void *)p->mask, &n, buf};
    int ctypes[3] = {DPCTL_VOID_PTR, DPCTL_INT64_T, DPCTL_VOID_PTR};
    st = chunks ? submit(q, kc, cargs, ctypes, 3, chunks, "the count kernel")
                : UA_OK;
    ua_dpctl.Queue_Wait(q->q);
    long long total = 0;
    for (size_t w = 0; w < chunks; w++) {
        long long c = buf[w];
        buf[w] = total;
        total += c;
    }
    *count = (size_t)total;
    char *dst = NULL;
    st = st == UA_OK ? out(ctx, *count, &dst) : st;
    if (st == UA_OK && total > 0) {
        long long *shape = buf + chunks + 1;
        for (int k = 0; k < p->nd; k++) {
            shape[k] = p->shape[k];
        }
        long long sstep = p->sstep, row = (long long)p->rowbytes;
        int nd = p->nd;
        void *args[9] = {(void *)p->mask,
                         &n,
                         buf,
                         (void *)p->src,
                         &sstep,
                         &row,
                         dst,
                         &nd,
                         shape};
        int types[9] = {DPCTL_VOID_PTR, DPCTL_INT64_T, DPCTL_VOID_PTR,
                        DPCTL_VOID_PTR, DPCTL_INT64_T, DPCTL_INT64_T,
                        DPCTL_VOID_PTR, DPCTL_INT32_T, DPCTL_VOID_PTR};
        st = submit(q, kw, args, types, 9, chunks, "the compress kernel");
        ua_dpctl.Queue_Wait(q->q);
    }
    ua_dpctl.free_with_context(buf, q->c->ctx);
    return st;
}

static int
bits32(double v)
{
    float f = (float)v;
    int i;
    memcpy(&i, &f, 4);
    return i;
}

static long long
bits64(double v)
{
    long long i;
    memcpy(&i, &v, 8);
    return i;
}

/* One real series of arange or linspace, every `step` elements from dst. */
static ua_status
real_series(sycl_queue *q, const ua_affine_plan *p, char *dst, int part,
            int step)
{
    DPCTLSyclKernelRef k;
    bool wide = p->type == UA_FLOAT64 || p->type == UA_COMPLEX128 ||
                p->mode == UA_AFFINE_LINSPACE;
    bool half = p->type == UA_FLOAT16;
    ua_status st = kernels(q, &k,
                           p->mode == UA_AFFINE_LINSPACE ? K_LINSPACE
                           : wide                        ? K_ARANGE_F64
                           : half                        ? K_ARANGE_HALF
                                                         : K_ARANGE_F32);
    if (st != UA_OK) {
        return st;
    }
    if (p->mode == UA_AFFINE_LINSPACE) {
        long long n = (long long)p->n, start = bits64(p->start[part]),
                  sv = bits64(p->step[part]), stop = bits64(p->stop[part]),
                  div = bits64(p->div);
        int divide = p->divide, endpoint = p->endpoint;
        void *args[9] = {dst,  &n,      &start,    &sv,  &stop,
                         &div, &divide, &endpoint, &step};
        int types[9] = {DPCTL_VOID_PTR, DPCTL_INT64_T, DPCTL_INT64_T,
                        DPCTL_INT64_T,  DPCTL_INT64_T, DPCTL_INT64_T,
                        DPCTL_INT32_T,  DPCTL_INT32_T, DPCTL_INT32_T};
        return submit(q, k, args, types, 9, p->n, "the linspace kernel");
    }
    if (wide) {
        long long f = bits64(p->first.f[part]), s = bits64(p->second.f[part]);
        void *args[4] = {dst, &f, &s, &step};
        int types[4] = {DPCTL_VOID_PTR, DPCTL_INT64_T, DPCTL_INT64_T,
                        DPCTL_INT32_T};
        return submit(q, k, args, types, 4, p->n, "the arange kernel");
    }
    int f = bits32(p->first.f[part]), s = bits32(p->second.f[part]);
    void *args[4] = {dst, &f, &s, &step};
    int types[4] = {DPCTL_VOID_PTR, DPCTL_INT32_T, DPCTL_INT32_T,
                    DPCTL_INT32_T};
    return submit(q, k, args, types, half ? 3 : 4, p->n, "the arange kernel");
}

static ua_status
sycl_affine(void *queue, const ua_affine_plan *p)
{
    sycl_queue *q = queue;
    char kind = ua_dtype_kind(p->type);
    if (kind == 'f' || kind == 'c') {
        int parts = kind == 'c' ? 2 : 1;
        size_t half_size = ua_dtype_itemsize(p->type) / (size_t)parts;
        ua_status st = UA_OK;
        for (int part = 0; part < parts && st == UA_OK; part++) {
            st = real_series(q, p, p->dst + (size_t)part * half_size, part,
                             parts);
        }
        return st;
    }
    DPCTLSyclKernelRef k;
    ua_status st = kernels(q, &k, K_ARANGE_INT);
    if (st != UA_OK) {
        return st;
    }
    unsigned long long first = (unsigned long long)p->first.i;
    unsigned long long d = (unsigned long long)p->second.i - first;
    int isz = (int)ua_dtype_itemsize(p->type);
    void *args[4] = {p->dst, &first, &d, &isz};
    int types[4] = {DPCTL_VOID_PTR, DPCTL_INT64_T, DPCTL_INT64_T,
                    DPCTL_INT32_T};
    return submit(q, k, args, types, 4, p->n, "the arange kernel");
}

static ua_status
sycl_band(void *queue, const ua_band_plan *p)
{
    sycl_queue *q = queue;
    DPCTLSyclKernelRef k;
    ua_status st = kernels(q, &k, K_BAND);
    if (st != UA_OK) {
        return st;
    }
    long long rows = p->rows, cols = p->cols, lo = p->lo, hi = p->hi;
    int isz = (int)p->itemsize, si = p->set_inside, so = p->set_outside;
    unsigned long long w[4];
    memcpy(w, p->inside, 16);
    memcpy(w + 2, p->outside, 16);
    void *args[12] = {p->dst, &rows, &cols, &lo,   &hi,   &isz,
                      &si,    &so,   &w[0], &w[1], &w[2], &w[3]};
    int types[12] = {DPCTL_VOID_PTR, DPCTL_INT64_T, DPCTL_INT64_T,
                     DPCTL_INT64_T,  DPCTL_INT64_T, DPCTL_INT32_T,
                     DPCTL_INT32_T,  DPCTL_INT32_T, DPCTL_INT64_T,
                     DPCTL_INT64_T,  DPCTL_INT64_T, DPCTL_INT64_T};
    return submit(q, k, args, types, 12,
                  p->batch * (size_t)p->rows * (size_t)p->cols,
                  "the band kernel");
}

/* ------------------------------------------------------ elementwise */

/* The OpenCL C type that holds elements of t: float16 moves as its bits,
 * complex types are the kernels' own pairs (sycl_kernels.h). */
const char *
ua_sycl_type_name(ua_typenum t)
{
    switch (t) {
    case UA_BOOL:
    case UA_UINT8:
        return "uchar";
    case UA_INT8:
        return "char";
    case UA_INT16:
        return "short";
    case UA_UINT16:
    case UA_FLOAT16:
        return "ushort";
    case UA_INT32:
        return "int";
    case UA_UINT32:
        return "uint";
    case UA_INT64:
        return "long";
    case UA_UINT64:
        return "ulong";
    case UA_FLOAT32:
        return "float";
    case UA_FLOAT64:
        return "double";
    case UA_COMPLEX64:
        return "c64";
    case UA_COMPLEX128:
        return "c128";
    }
    return "void";
}

static const char *const ew_header[] = {ua_sycl_ew_header, NULL};
static const char *const ew_header_fp64[] = {ua_sycl_ew_fp64,
                                             ua_sycl_ew_header, NULL};
static const char *const ew_body[] = {ua_sycl_ew_body, NULL};
#define EW_LANGUAGE(HEADER)                                                   \
    {                                                                         \
        .header = HEADER,                                                     \
        .body = ew_body,                                                      \
        .cvt = {.re = "re",                                                   \
                .im = "im",                                                   \
                .half_to_real = "ua_h2r",                                     \
                .real_to_half = "ua_r2h",                                     \
                .real = "UA_CVT_R",                                           \
                .real_to_i64 = "ua_f2l",                                      \
                .real_to_u64 = "ua_f2ul"},                                    \
        .storage = ua_sycl_type_name,                                         \
        .float_suffix = false,                                                \
    }
static const ua_ew_language ew_language[2] = {EW_LANGUAGE(ew_header),
                                              EW_LANGUAGE(ew_header_fp64)};

static bool
uses_double(const ua_ew_variant *v)
{
    bool wide = v->compute == UA_FLOAT64 || v->compute == UA_COMPLEX128 ||
                v->out_type == UA_FLOAT64 || v->out_type == UA_COMPLEX128;
    for (int k = 0; k < v->nin; k++) {
        wide = wide || v->in_type[k] == UA_FLOAT64 ||
               v->in_type[k] == UA_COMPLEX128;
    }
    return wide;
}

/* Builds the variant's program; called under c->lock. */
static ua_status
ew_build(sycl_context *c, const ua_ew_variant *v, DPCTLSyclKernelRef *k)
{
    if (!c->fp64 && uses_double(v)) {
        return ua_error_set(UA_ERR_TYPE,
                            "%s() on SYCL device %d needs 64-bit floating "
                            "point, which the device does not have",
                            ua_ew_name(v->function), c->index);
    }
    char *source = ua_ew_kernel_source(&ew_language[c->fp64], v);
    if (source == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "out of memory for a kernel");
    }
    DPCTLSyclKernelBundleRef bundle =
        ua_dpctl.KernelBundle_CreateFromOCLSource(
            c->ctx, ua_sycl_devices[c->index], source, "");
    free(source);
    if (bundle == NULL) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "the SYCL runtime could not build the kernel of "
                            "%s() for %s (set DPCTL_VERBOSITY=error for its "
                            "log)",
                            ua_ew_name(v->function),
                            ua_dtype_name(v->compute));
    }
    *k = ua_dpctl.KernelBundle_GetKernel(bundle, "ua_ew");
    ua_status st =
        *k != NULL
            ? ua_ew_table_add(&c->ew, ua_ew_variant_key(v), *k, bundle)
            : ua_error_set(UA_ERR_RUNTIME, "the elementwise program lacks "
                                           "its kernel");
    if (st != UA_OK) {
        ua_dpctl.KernelBundle_Delete(bundle);
    }
    return st;
}

static ua_status
ew_kernel(sycl_queue *q, const ua_ew_variant *v, DPCTLSyclKernelRef *k)
{
    sycl_context *c = q->c;
    pthread_mutex_lock(&c->lock);
    const ua_ew_slot *e = ua_ew_table_find(&c->ew, ua_ew_variant_key(v));
    ua_status st = UA_OK;
    if (e != NULL) {
        *k = e->kernel;
    } else {
        st = ew_build(c, v, k);
    }
    pthread_mutex_unlock(&c->lock);
    return st;
}

#define EW_NARGS 32
#define EW_ARG_DIMS 4

/* The general path's axes in shared memory (freed after the kernel). */
static long long *
general_plan(sycl_queue *q, const ua_elementwise_plan *p)
{
    int nd = p->nd;
    long long *plan = shared(q, sizeof(long long) * 5 * (size_t)nd);
    for (int d = 0; plan != NULL && d < nd; d++) {
        plan[d] = p->shape[d];
        plan[nd + d] = p->ostep[d];
        for (int k = 0; k < 3; k++) {
            plan[(2 + k) * nd + d] = k < p->nin ? p->istep[k][d] : 0;
        }
    }
    return plan;
}

static ua_status
sycl_elementwise(void *queue, const ua_elementwise_plan *p)
{
    sycl_queue *q = queue;
    ua_ew_variant v;
    ua_ew_variant_of_plan(p, 1, &v);
    DPCTLSyclKernelRef k = NULL;
    ua_status st = ew_kernel(q, &v, &k);
    if (st != UA_OK) {
        return st;
    }
    long long *plan = NULL;
    if (v.path == UA_EW_PATH_GENERAL && (plan = general_plan(q, p)) == NULL) {
        return UA_ERR_ALLOC;
    }
    void *args[EW_NARGS];
    int types[EW_NARGS];
    unsigned long long words[6] = {0};
    long long dims[5][EW_ARG_DIMS] = {{0}};
    int nd = p->nd;
    args[0] = p->out;
    for (int j = 0; j < 3; j++) {
        args[1 + j] = j < p->nin && !p->scalar[j] ? (void *)p->in[j] : p->out;
        if (j < p->nin) {
            memcpy(&words[2 * j], p->value[j].bytes, 16);
        }
        for (int d = 0; d < nd && d < EW_ARG_DIMS && j < p->nin; d++) {
            dims[2 + j][d] = p->istep[j][d];
        }
    }
    for (int d = 0; d < nd && d < EW_ARG_DIMS; d++) {
        dims[0][d] = p->shape[d];
        dims[1][d] = p->ostep[d];
    }
    if (nd == 0) {
        dims[0][0] = 1;
    }
    for (int j = 0; j < 4; j++) {
        types[j] = DPCTL_VOID_PTR;
    }
    for (int j = 0; j < 6; j++) {
        args[4 + j] = &words[j];
        types[4 + j] = DPCTL_INT64_T;
    }
    args[10] = &nd;
    types[10] = DPCTL_INT32_T;
    args[11] = plan != NULL ? (void *)plan : p->out;
    types[11] = DPCTL_VOID_PTR;
    for (int j = 0; j < 20; j++) {
        args[12 + j] = &dims[j / 4][j % 4];
        types[12 + j] = DPCTL_INT64_T;
    }
    st = submit(q, k, args, types, EW_NARGS, p->size, ua_ew_name(p->function));
    if (plan != NULL) {
        ua_dpctl.Queue_Wait(q->q);
        ua_dpctl.free_with_context(plan, q->c->ctx);
    }
    return st;
}

/* The libraries run on CPU devices, through the host's table
 * (ua_queue_library_kernels); other SYCL devices have none yet. */
static ua_status
sycl_solver(void *queue, const ua_solver_plan *p)
{
    (void)queue;
    (void)p;
    return ua_error_set(UA_ERR_UNAVAILABLE,
                        "linalg's factorizations are not there yet on SYCL "
                        "devices other than CPUs (oneMKL is not loaded)");
}

static ua_status
sycl_fft(void *queue, const ua_fft_plan *p)
{
    (void)queue;
    (void)p;
    return ua_error_set(UA_ERR_UNAVAILABLE,
                        "FFTs are not there yet on SYCL devices other than "
                        "CPUs (oneMKL is not loaded)");
}

const ua_compute_ops ua_sycl_compute_ops = {
    .version = UA_COMPUTE_OPS_VERSION,
    .index = sycl_index,
    .compress = sycl_compress,
    .affine = sycl_affine,
    .band = sycl_band,
    .elementwise = sycl_elementwise,
    .reduce = ua_sycl_reduce,
    .scan = ua_sycl_scan,
    .sort = ua_sycl_sort,
    .search = ua_sycl_search,
    .group = ua_sycl_group,
    .matmul = ua_sycl_matmul,
    .solver = sycl_solver,
    .fft = sycl_fft,
};
