/* The host's BLAS, loaded at run time: the OpenBLAS that the scientific
 * Python stack ships, so that the package installs and runs without one.
 * Looked for, in order: USMARRAY_BLAS_LIBRARY (a path); the copy already
 * loaded in the process (NumPy's, in numpy.libs); the scipy-openblas64 and
 * scipy-openblas32 wheels along Python's path; then numpy.libs along it.
 * Their symbols carry a scipy_ prefix (and a 64_ suffix for 64-bit
 * integers); a plain libopenblas's do not.  OpenBLAS's own variables
 * (OPENBLAS_NUM_THREADS, ...) set its thread count. */
#include <dirent.h>
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host/host_kernels.h"
#include "core/compute/kernels.h"

enum { ROW_MAJOR = 101, NO_TRANS = 111, TRANS = 112 };

/* The four gemm, with 32- or 64-bit integers. */
typedef void (*sgemm32)(int, int, int, int, int, int, float, const void *, int,
                        const void *, int, float, void *, int);
typedef void (*sgemm64)(int, int, int, int64_t, int64_t, int64_t, float,
                        const void *, int64_t, const void *, int64_t, float,
                        void *, int64_t);
typedef void (*dgemm32)(int, int, int, int, int, int, double, const void *,
                        int, const void *, int, double, void *, int);
typedef void (*dgemm64)(int, int, int, int64_t, int64_t, int64_t, double,
                        const void *, int64_t, const void *, int64_t, double,
                        void *, int64_t);
typedef void (*zgemm32)(int, int, int, int, int, int, const void *,
                        const void *, int, const void *, int, const void *,
                        void *, int);
typedef void (*zgemm64)(int, int, int, int64_t, int64_t, int64_t, const void *,
                        const void *, int64_t, const void *, int64_t,
                        const void *, void *, int64_t);

static struct {
    void (*gemm[4])(void); /* s, d, c, z */
    bool ilp64;
    char where[512];
    /* OpenBLAS's own answers, where it has them (under its names' prefix
     * and suffix): its thread count and its build. */
    int (*threads)(void);
    char *(*config)(void);
    char symbols[32]; /* how its gemm are named, e.g. scipy_cblas_?gemm64_ */
    /* The library, kept open, and its names' prefix ("scipy_" or ""):
     * host_lapack.c takes LAPACK from it. */
    void *handle;
    const char *prefix;
} blas;
static pthread_once_t blas_once = PTHREAD_ONCE_INIT;

/* openblas_get_num_threads and openblas_get_config, named as the gemm
 * are (scipy_cblas_ with 64_: scipy_openblas_..._64_ or ...64_). */
static void
take_openblas_queries(void *h, const char *prefix, const char *suffix)
{
    const char *lib = strncmp(prefix, "scipy_", 6) == 0 ? "scipy_" : "";
    const char *tails[] = {suffix, suffix[0] == '6' ? "_64_" : ""};
    for (int i = 0; i < 2 && blas.threads == NULL; i++) {
        char sym[64];
        snprintf(sym, sizeof sym, "%sopenblas_get_num_threads%s", lib,
                 tails[i]);
        *(void **)&blas.threads = dlsym(h, sym);
    }
    char sym[64];
    snprintf(sym, sizeof sym, "%sopenblas_get_config%s", lib, suffix);
    *(void **)&blas.config = dlsym(h, sym);
}

/* The gemm of h under one of the names OpenBLAS builds give them. */
static bool
take_symbols(void *h, const char *path)
{
    static const struct {
        const char *prefix, *suffix;
        bool ilp64;
    } names[] = {{"scipy_cblas_", "64_", true},
                 {"scipy_cblas_", "", false},
                 {"cblas_", "64_", true},
                 {"cblas_", "", false}};
    static const char letters[] = "sdcz";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        bool all = true;
        for (int t = 0; t < 4 && all; t++) {
            char sym[64];
            snprintf(sym, sizeof sym, "%s%cgemm%s", names[i].prefix,
                     letters[t], names[i].suffix);
            *(void **)&blas.gemm[t] = dlsym(h, sym);
            all = blas.gemm[t] != NULL;
        }
        if (all) {
            blas.ilp64 = names[i].ilp64;
            snprintf(blas.where, sizeof blas.where, "%s", path);
            snprintf(blas.symbols, sizeof blas.symbols, "%s?gemm%s",
                     names[i].prefix, names[i].suffix);
            take_openblas_queries(h, names[i].prefix, names[i].suffix);
            blas.handle = h;
            blas.prefix =
                strncmp(names[i].prefix, "scipy_", 6) == 0 ? "scipy_" : "";
            return true;
        }
    }
    memset(blas.gemm, 0, sizeof blas.gemm);
    return false;
}

static bool
try_path(const char *path)
{
    return ua_library_open(path, take_symbols);
}

/* A loaded object whose name says OpenBLAS (NumPy's, once imported). */
static int
visit_loaded(struct dl_phdr_info *info, size_t size, void *found)
{
    (void)size;
    const char *name = info->dlpi_name;
    if (name != NULL && strstr(name, "openblas") != NULL && !*(bool *)found) {
        void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        if (h != NULL) {
            *(bool *)found = take_symbols(h, name);
        }
    }
    return *(bool *)found;
}

/* The first file of dir whose name starts with prefix and ends in .so. */
static bool
try_directory(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    bool found = false;
    while (d != NULL && !found && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && len > 3 &&
            strstr(e->d_name, ".so") != NULL) {
            char path[4096];
            int w = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            found = w > 0 && (size_t)w < sizeof path && try_path(path);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    return found;
}

static bool
try_search_path(const char *sub, const char *prefix)
{
    const char *paths = ua_library_search_path();
    while (paths != NULL && *paths != '\0') {
        size_t n = strcspn(paths, ":");
        char dir[4096];
        if (n > 0 && n < sizeof dir - 64) {
            snprintf(dir, sizeof dir, "%.*s/%s", (int)n, paths, sub);
            if (try_directory(dir, prefix)) {
                return true;
            }
        }
        paths += n + (paths[n] == ':');
    }
    return false;
}

static void
find_blas(void)
{
    const char *env = getenv("USMARRAY_BLAS_LIBRARY");
    bool loaded = false;
    if (env != NULL && env[0] != '\0') {
        if (!try_path(env)) {
            snprintf(blas.where, sizeof blas.where,
                     "not found: USMARRAY_BLAS_LIBRARY=%s has no cblas gemm",
                     env);
        }
        return;
    }
    dl_iterate_phdr(visit_loaded, &loaded);
    if (loaded || try_search_path("scipy_openblas64/lib", "libscipy") ||
        try_search_path("scipy_openblas32/lib", "libscipy") ||
        try_search_path("numpy.libs", "libscipy_openblas")) {
        return;
    }
    snprintf(blas.where, sizeof blas.where,
             "not found (pip install scipy-openblas64, or set "
             "USMARRAY_BLAS_LIBRARY): matrix products use usmarray's loops");
}

void *
ua_host_blas_library(const char **prefix, bool *ilp64)
{
    pthread_once(&blas_once, find_blas);
    *prefix = blas.prefix;
    *ilp64 = blas.ilp64;
    return blas.handle;
}

void
ua_host_blas_describe(char *out, size_t len)
{
    pthread_once(&blas_once, find_blas);
    if (blas.gemm[0] == NULL) {
        snprintf(out, len, "%s", blas.where);
        return;
    }
    char threads[32] = "";
    if (blas.threads != NULL) {
        snprintf(threads, sizeof threads, ", %d thread%s", blas.threads(),
                 blas.threads() == 1 ? "" : "s");
    }
    const char *config = blas.config != NULL ? blas.config() : NULL;
    snprintf(out, len, "%s (%s, %s integers%s%s%.80s)", blas.where,
             blas.symbols, blas.ilp64 ? "64-bit" : "32-bit", threads,
             config != NULL ? "; " : "", config != NULL ? config : "");
}

/* A matrix's layout as BLAS takes it, strides in elements: rows of unit
 * stride (trans false) or columns (trans true), ld the other stride. */
static bool
blas_layout(ptrdiff_t rows, ptrdiff_t cols, ptrdiff_t rs, ptrdiff_t cs,
            bool *trans, ptrdiff_t *ld)
{
    if (cols == 1) {
        cs = 1; /* a stride that walks nothing may be anything */
    }
    if (rows == 1) {
        rs = cs == 1 ? cols : 1;
    }
    if (cs == 1 && rs >= (cols > 1 ? cols : 1)) {
        *trans = false;
        *ld = rs;
        return true;
    }
    if (rs == 1 && cs >= (rows > 1 ? rows : 1)) {
        *trans = true;
        *ld = cs;
        return true;
    }
    return false;
}

/* c (m x n, row-major with ldc) = a (m x k) b (k x n). */
static bool
gemm_row_major(int t, ptrdiff_t m, ptrdiff_t n, ptrdiff_t k, const char *a,
               ptrdiff_t ar, ptrdiff_t ac, const char *b, ptrdiff_t br,
               ptrdiff_t bc, char *c, ptrdiff_t ldc)
{
    bool ta, tb;
    ptrdiff_t lda, ldb;
    if (!blas_layout(m, k, ar, ac, &ta, &lda) ||
        !blas_layout(k, n, br, bc, &tb, &ldb) || ldc < (n > 1 ? n : 1)) {
        return false;
    }
    int oa = ta ? TRANS : NO_TRANS, ob = tb ? TRANS : NO_TRANS;
    static const float one_f[2] = {1.0f, 0.0f}, zero_f[2] = {0.0f, 0.0f};
    static const double one_d[2] = {1.0, 0.0}, zero_d[2] = {0.0, 0.0};
    if (!blas.ilp64 &&
        (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX || lda > INT32_MAX ||
         ldb > INT32_MAX || ldc > INT32_MAX)) {
        return false;
    }
    void (*f)(void) = blas.gemm[t];
    if (blas.ilp64) {
        if (t == 0) {
            ((sgemm64)f)(ROW_MAJOR, oa, ob, m, n, k, 1.0f, a, lda, b, ldb,
                         0.0f, c, ldc);
        } else if (t == 1) {
            ((dgemm64)f)(ROW_MAJOR, oa, ob, m, n, k, 1.0, a, lda, b, ldb, 0.0,
                         c, ldc);
        } else {
            const void *one = t == 2 ? (const void *)one_f : one_d;
            const void *zero = t == 2 ? (const void *)zero_f : zero_d;
            ((zgemm64)f)(ROW_MAJOR, oa, ob, m, n, k, one, a, lda, b, ldb, zero,
                         c, ldc);
        }
        return true;
    }
    int im = (int)m, in = (int)n, ik = (int)k, ia = (int)lda, ib = (int)ldb,
        ic = (int)ldc;
    if (t == 0) {
        ((sgemm32)f)(ROW_MAJOR, oa, ob, im, in, ik, 1.0f, a, ia, b, ib, 0.0f,
                     c, ic);
    } else if (t == 1) {
        ((dgemm32)f)(ROW_MAJOR, oa, ob, im, in, ik, 1.0, a, ia, b, ib, 0.0, c,
                     ic);
    } else {
        const void *one = t == 2 ? (const void *)one_f : one_d;
        const void *zero = t == 2 ? (const void *)zero_f : zero_d;
        ((zgemm32)f)(ROW_MAJOR, oa, ob, im, in, ik, one, a, ia, b, ib, zero, c,
                     ic);
    }
    return true;
}

bool
ua_host_blas_gemm(const ua_matmul_plan *p, const char *a, const char *b,
                  char *c)
{
    int t = p->type == UA_FLOAT32      ? 0
            : p->type == UA_FLOAT64    ? 1
            : p->type == UA_COMPLEX64  ? 2
            : p->type == UA_COMPLEX128 ? 3
                                       : -1;
    if (t < 0 || p->conj_a || getenv("USMARRAY_NO_BLAS") != NULL) {
        return false;
    }
    pthread_once(&blas_once, find_blas);
    if (blas.gemm[t] == NULL) {
        return false;
    }
    ptrdiff_t s = (ptrdiff_t)ua_dtype_itemsize(p->type);
    if (p->am % s || p->ak % s || p->bk % s || p->bn % s || p->cm % s ||
        p->cn % s) {
        return false;
    }
    ptrdiff_t am = p->am / s, ak = p->ak / s, bk = p->bk / s, bn = p->bn / s,
              cm = p->cm / s, cn = p->cn / s;
    if (p->n == 1) {
        cn = 1;
    }
    if (p->m == 1) {
        cm = cn == 1 ? p->n : 1;
    }
    if (cn == 1) {
        return gemm_row_major(t, p->m, p->n, p->k, a, am, ak, b, bk, bn, c,
                              cm);
    }
    /* A column-major c: its transpose is row-major, b^T a^T. */
    return cm == 1 &&
           gemm_row_major(t, p->n, p->m, p->k, b, bn, bk, a, ak, am, c, cn);
}
