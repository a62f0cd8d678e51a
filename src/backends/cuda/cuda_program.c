/* The CUDA backend's programs: CUDA C++ that NVRTC compiles for a
 * context's device, kept on disk between processes (core/base/
 * kernel_cache.h), so that a process's first call of a kernel that any
 * process compiled before costs a file read and a module load.  The
 * programs that one call needs together compile side by side, a thread
 * each: NVRTC's time is the CPU's, and the call then waits for the
 * longest of them rather than for their sum.
 * USMARRAY_TRACE_COMPILE=1 writes a line per program to stderr: what it
 * is, its source's size, and the milliseconds of the compile or the
 * cache's read and of the module's load.
 * A process's first compile also pays NVRTC's own start (its builtins
 * and optimizer), several times what a small program costs: a context's
 * creation starts a thread that compiles an empty kernel, so that the
 * start overlaps what the program does before its first call.
 * NVRTC's fast-compile levels are not used: every level but 0 made the
 * reductions, scans and sorts slower once warm (docs/performance.rst). */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cuda/cuda_backend.h"
#include "core/base/kernel_cache.h"

static bool trace;
static pthread_once_t trace_once = PTHREAD_ONCE_INIT;

static void
trace_read(void)
{
    const char *env = getenv("USMARRAY_TRACE_COMPILE");
    trace = env != NULL && env[0] != '\0' && strcmp(env, "0") != 0;
}

bool
ua_cuda_tracing(void)
{
    pthread_once(&trace_once, trace_read);
    return trace;
}

double
ua_cuda_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The options every program compiles with besides its architecture:
 * -minimal leaves out the runtime's declarations that no kernel text
 * uses (NVRTC 12.4 and later). */
typedef struct {
    const char *opts[3];
    int n;
    char text[64];
} nvrtc_options;

static nvrtc_options options;
static pthread_once_t options_once = PTHREAD_ONCE_INIT;

static void
options_read(void)
{
    int major = 0, minor = 0;
    ua_nvrtc.nvrtcVersion(&major, &minor);
    options.opts[options.n++] = "--std=c++14";
    options.opts[options.n++] = "-default-device";
    if (major > 12 || (major == 12 && minor >= 4)) {
        options.opts[options.n++] = "-minimal";
    }
    for (int i = 0; i < options.n; i++) {
        size_t used = strlen(options.text);
        snprintf(options.text + used, sizeof options.text - used, "%s%s",
                 i > 0 ? " " : "", options.opts[i]);
    }
}

static const nvrtc_options *
nvrtc_options_get(void)
{
    pthread_once(&options_once, options_read);
    return &options;
}

static ua_status
nvrtc_image(const ua_cuda_context *c, const char *source, const char *what,
            char **image, size_t *size)
{
    if (!ua_nvrtc.loaded) {
        return ua_error_set(UA_ERR_UNAVAILABLE,
                            "%s on CUDA devices need NVRTC: %s", what,
                            ua_nvrtc.reason);
    }
    const nvrtc_options *o = nvrtc_options_get();
    char arch[64];
    snprintf(arch, sizeof(arch), "--gpu-architecture=sm_%d%d", c->cc_major,
             c->cc_minor);
    const char *opts[4] = {arch};
    for (int i = 0; i < o->n; i++) {
        opts[i + 1] = o->opts[i];
    }
    nvrtcProgram prog;
    nvrtcResult r = ua_nvrtc.nvrtcCreateProgram(&prog, source, "usmarray.cu",
                                                0, NULL, NULL);
    if (r != 0) {
        return ua_error_set(UA_ERR_RUNTIME, "nvrtcCreateProgram failed: %s",
                            ua_nvrtc.nvrtcGetErrorString(r));
    }
    r = ua_nvrtc.nvrtcCompileProgram(prog, o->n + 1, opts);
    ua_status st = UA_OK;
    *image = NULL;
    if (r != 0) {
        /* the log's first errors, where it is long */
        char log[2048] = "", *full = NULL;
        size_t log_size = 0;
        if (ua_nvrtc.nvrtcGetProgramLogSize(prog, &log_size) == 0 &&
            (full = malloc(log_size + 1)) != NULL &&
            ua_nvrtc.nvrtcGetProgramLog(prog, full) == 0) {
            full[log_size] = '\0';
            /* from the first error's line: warnings may come first */
            const char *from = strstr(full, ": error");
            while (from != NULL && from > full && from[-1] != '\n') {
                from--;
            }
            snprintf(log, sizeof log, "%s", from != NULL ? from : full);
        }
        free(full);
        st = ua_error_set(UA_ERR_RUNTIME,
                          "NVRTC could not compile the %s for %s: %s %s", what,
                          arch + 19, ua_nvrtc.nvrtcGetErrorString(r), log);
    } else if (ua_nvrtc.nvrtcGetCUBINSize(prog, size) != 0 ||
               (*image = malloc(*size)) == NULL ||
               ua_nvrtc.nvrtcGetCUBIN(prog, *image) != 0) {
        free(*image);
        *image = NULL;
        st = ua_error_set(UA_ERR_RUNTIME, "NVRTC gave no binary");
    }
    ua_nvrtc.nvrtcDestroyProgram(&prog);
    return st;
}

static pthread_t prewarm_thread;
static bool prewarm_started;
static pthread_once_t prewarm_once = PTHREAD_ONCE_INIT;
static int prewarm_cc;

static void *
prewarm_run(void *unused)
{
    (void)unused;
    static const char empty[] =
        "extern \"C\" __global__ void ua_prewarm(int *p) { *p = 0; }";
    const nvrtc_options *o = nvrtc_options_get();
    char arch[64];
    snprintf(arch, sizeof(arch), "--gpu-architecture=sm_%d", prewarm_cc);
    const char *opts[4] = {arch};
    for (int i = 0; i < o->n; i++) {
        opts[i + 1] = o->opts[i];
    }
    nvrtcProgram prog;
    if (ua_nvrtc.nvrtcCreateProgram(&prog, empty, "prewarm.cu", 0, NULL,
                                    NULL) == 0) {
        ua_nvrtc.nvrtcCompileProgram(prog, o->n + 1, opts);
        ua_nvrtc.nvrtcDestroyProgram(&prog);
    }
    return NULL;
}

/* The process ends after the thread: NVRTC's own destructors must not
 * run under a compile. */
static void
prewarm_join(void)
{
    pthread_join(prewarm_thread, NULL);
}

static void
prewarm_start(void)
{
    prewarm_started =
        pthread_create(&prewarm_thread, NULL, prewarm_run, NULL) == 0;
    if (prewarm_started && atexit(prewarm_join) != 0) {
        pthread_join(prewarm_thread, NULL);
    }
}

void
ua_cuda_nvrtc_prewarm(const ua_cuda_context *c)
{
    if (!ua_nvrtc.loaded) {
        return;
    }
    prewarm_cc = c->cc_major * 10 + c->cc_minor;
    pthread_once(&prewarm_once, prewarm_start);
}

/* The parts of a program's disk-cache key besides its source: NVRTC's
 * version and options, and the device (architecture, name, driver). */
static void
cache_key_parts(const ua_cuda_context *c, char *compiler, size_t ccap,
                char *device, size_t dcap)
{
    int major = 0, minor = 0, driver = 0;
    ua_nvrtc.loaded ? ua_nvrtc.nvrtcVersion(&major, &minor) : 0;
    ua_cu.cuDriverGetVersion(&driver);
    char name[256] = "";
    ua_cu.cuDeviceGetName(name, (int)sizeof name, c->dev);
    snprintf(compiler, ccap, "nvrtc %d.%d %s", major, minor,
             ua_nvrtc.loaded ? nvrtc_options_get()->text : "");
    snprintf(device, dcap, "sm_%d%d %s driver %d", c->cc_major, c->cc_minor,
             name, driver);
}

ua_status
ua_cuda_compile_image(const ua_cuda_context *c, const char *source,
                      const char *what, char **image, size_t *size)
{
    ua_cuda_tracing();
    char compiler[160], device[400];
    cache_key_parts(c, compiler, sizeof compiler, device, sizeof device);
    const char *key[] = {source, compiler, device};
    double t0 = ua_cuda_now_ms();
    *image = ua_kernel_cache_load(key, 3, size);
    bool cached = *image != NULL;
    ua_status st = cached ? UA_OK : nvrtc_image(c, source, what, image, size);
    if (st == UA_OK && !cached) {
        ua_kernel_cache_store(key, 3, *image, *size);
    }
    if (trace) {
        fprintf(stderr, "usmarray: %s: %s %.1f ms (%zu bytes of source)\n",
                what, cached ? "disk cache" : "NVRTC", ua_cuda_now_ms() - t0,
                strlen(source));
    }
    return st;
}

ua_status
ua_cuda_compile(const ua_cuda_context *c, const char *source, const char *what,
                CUmodule *module)
{
    char *image;
    size_t size;
    ua_status st = ua_cuda_compile_image(c, source, what, &image, &size);
    double t0 = ua_cuda_now_ms();
    if (st == UA_OK) {
        CUresult cr = ua_cu.cuModuleLoadData(module, image);
        if (cr != CUDA_SUCCESS) {
            st = ua_cuda_failed(cr, what);
        }
    }
    free(image);
    if (trace && st == UA_OK) {
        fprintf(stderr, "usmarray: %s: module load %.1f ms\n", what,
                ua_cuda_now_ms() - t0);
    }
    return st;
}

typedef struct {
    const ua_cuda_context *c;
    const char *source, *what;
    char *image;
    size_t size;
    ua_status st;
} compile_job;

static void *
compile_job_run(void *arg)
{
    compile_job *j = arg;
    j->st =
        ua_cuda_compile_image(j->c, j->source, j->what, &j->image, &j->size);
    return NULL;
}

ua_status
ua_cuda_compile_all(const ua_cuda_context *c, int n,
                    const char *const *sources, const char *const *what,
                    CUmodule *modules)
{
    compile_job jobs[UA_CUDA_COMPILE_MAX];
    pthread_t threads[UA_CUDA_COMPILE_MAX];
    bool started[UA_CUDA_COMPILE_MAX] = {false};
    if (n < 1 || n > UA_CUDA_COMPILE_MAX) {
        return ua_error_set(UA_ERR_VALUE, "%d programs at once", n);
    }
    for (int i = 0; i < n; i++) {
        jobs[i] = (compile_job){c, sources[i], what[i], NULL, 0, UA_OK};
        modules[i] = NULL;
    }
    /* The first on this thread, the others beside it where a thread
     * starts (else here, after it). */
    for (int i = 1; i < n; i++) {
        started[i] =
            pthread_create(&threads[i], NULL, compile_job_run, &jobs[i]) == 0;
    }
    compile_job_run(&jobs[0]);
    for (int i = 1; i < n; i++) {
        if (started[i]) {
            pthread_join(threads[i], NULL);
        }
        /* Where the other thread failed, again here: its message was
         * that thread's. */
        if (!started[i] || jobs[i].st != UA_OK) {
            free(jobs[i].image);
            compile_job_run(&jobs[i]);
        }
    }
    ua_status st = UA_OK;
    for (int i = 0; i < n; i++) {
        if (st == UA_OK && jobs[i].st != UA_OK) {
            st = jobs[i].st;
        }
        if (st == UA_OK) {
            CUresult cr = ua_cu.cuModuleLoadData(&modules[i], jobs[i].image);
            st = cr == CUDA_SUCCESS ? UA_OK : ua_cuda_failed(cr, what[i]);
        }
        free(jobs[i].image);
    }
    if (st != UA_OK) {
        for (int i = 0; i < n; i++) {
            if (modules[i] != NULL) {
                ua_cu.cuModuleUnload(modules[i]);
                modules[i] = NULL;
            }
        }
    }
    return st;
}
