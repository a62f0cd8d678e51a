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
 * NVRTC's fast-compile levels make kernels slower (docs/performance.rst):
 * they serve a first call alone, of a program whose results no level
 * changes, while the full compile runs beside it (cuda_backend.h, tiers).
 * USMARRAY_COMPILE_FIRST sets the level (min, mid, max; default mid) or
 * full (no fast compile); LEVEL-only keeps the fast modules and compiles
 * nothing in full, for tests that compare the two. */
#include <pthread.h>
#include <stdatomic.h>
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
    /* The fast-compile option of a first call's compile, or NULL: none
     * (USMARRAY_COMPILE_FIRST=full, or NVRTC before 12.8). */
    const char *fast;
    bool fast_only;
} nvrtc_options;

static nvrtc_options options;
static pthread_once_t options_once = PTHREAD_ONCE_INIT;

static void
fast_level_read(int major, int minor)
{
    static const char *const levels[3][2] = {{"min", "--Ofast-compile=min"},
                                             {"mid", "--Ofast-compile=mid"},
                                             {"max", "--Ofast-compile=max"}};
    const char *env = getenv("USMARRAY_COMPILE_FIRST");
    const char *level = env != NULL && env[0] != '\0' ? env : "mid";
    if (major < 12 || (major == 12 && minor < 8)) {
        return; /* no fast-compile levels */
    }
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(levels[i][0]);
        if (strncmp(level, levels[i][0], n) == 0 &&
            (level[n] == '\0' || strcmp(level + n, "-only") == 0)) {
            options.fast = levels[i][1];
            options.fast_only = level[n] != '\0';
        }
    }
}

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
    fast_level_read(major, minor);
}

static const nvrtc_options *
nvrtc_options_get(void)
{
    pthread_once(&options_once, options_read);
    return &options;
}

static ua_status
nvrtc_image(const ua_cuda_context *c, const char *source, const char *what,
            bool fast, char **image, size_t *size)
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
    const char *opts[5] = {arch};
    int nopts = 1;
    for (int i = 0; i < o->n; i++) {
        opts[nopts++] = o->opts[i];
    }
    if (fast && o->fast != NULL) {
        opts[nopts++] = o->fast;
    }
    nvrtcProgram prog;
    nvrtcResult r = ua_nvrtc.nvrtcCreateProgram(&prog, source, "usmarray.cu",
                                                0, NULL, NULL);
    if (r != 0) {
        return ua_error_set(UA_ERR_RUNTIME, "nvrtcCreateProgram failed: %s",
                            ua_nvrtc.nvrtcGetErrorString(r));
    }
    r = ua_nvrtc.nvrtcCompileProgram(prog, nopts, opts);
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
 * run under a compile.  Once: at the interpreter's end, then at exit. */
static pthread_mutex_t prewarm_lock = PTHREAD_MUTEX_INITIALIZER;

static void
prewarm_join(void)
{
    pthread_mutex_lock(&prewarm_lock);
    if (prewarm_started) {
        pthread_join(prewarm_thread, NULL);
        prewarm_started = false;
    }
    pthread_mutex_unlock(&prewarm_lock);
}

/* A child of fork has no thread of its parent's to join. */
static void
prewarm_forget(void)
{
    pthread_mutex_init(&prewarm_lock, NULL);
    prewarm_started = false;
}

static void
prewarm_start(void)
{
    pthread_atfork(NULL, NULL, prewarm_forget);
    pthread_mutex_lock(&prewarm_lock);
    prewarm_started =
        pthread_create(&prewarm_thread, NULL, prewarm_run, NULL) == 0;
    pthread_mutex_unlock(&prewarm_lock);
    if (prewarm_started && atexit(prewarm_join) != 0) {
        prewarm_join();
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
    ua_status st =
        cached ? UA_OK : nvrtc_image(c, source, what, false, image, size);
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

/* A program's full compile, running in a thread of its own while its
 * fast module serves; `done` is set last, after which the thread touches
 * it no more. */
typedef struct ua_cuda_upgrade {
    struct ua_cuda_upgrade *next; /* the context's list */
    struct ua_cuda_upgrade *next_unjoined;
    bool unjoined; /* on the list of threads not yet joined */
    pthread_t thread;
    const ua_cuda_context *c;
    ua_cuda_tier tier;
    char *source;
    char what[64];
    char *image;
    size_t size;
    ua_status st;
    atomic_bool done;
} ua_cuda_upgrade;

/* The full compiles' threads not yet joined.  Each is joined, by the
 * call that installs its module, else by the backend's quiesce (the
 * interpreter's end) or at exit, rather than detached: a thread that has
 * set `done` still runs its exit (NVRTC's thread-local destructors among
 * it), and no compile may overlap the process's own destructors of NVRTC
 * and the driver (new processes' exits crashed or hung there, 5 in 90).
 * Waiting at the end also lets the programs reach the disk cache. */
static pthread_mutex_t unjoined_lock = PTHREAD_MUTEX_INITIALIZER;
static ua_cuda_upgrade *unjoined;
static pthread_once_t unjoined_once = PTHREAD_ONCE_INIT;

/* Takes u off the list; true where the caller is to join its thread. */
static bool
unjoined_take(ua_cuda_upgrade *u)
{
    pthread_mutex_lock(&unjoined_lock);
    bool take = u->unjoined;
    if (take) {
        ua_cuda_upgrade **link = &unjoined;
        while (*link != u) {
            link = &(*link)->next_unjoined;
        }
        *link = u->next_unjoined;
        u->unjoined = false;
    }
    pthread_mutex_unlock(&unjoined_lock);
    return take;
}

static void
unjoined_join_all(void)
{
    for (;;) {
        pthread_mutex_lock(&unjoined_lock);
        ua_cuda_upgrade *u = unjoined;
        pthread_t thread = u != NULL ? u->thread : (pthread_t){0};
        if (u != NULL) {
            unjoined = u->next_unjoined;
            u->unjoined = false;
        }
        pthread_mutex_unlock(&unjoined_lock);
        if (u == NULL) {
            return;
        }
        /* u may be freed from here on by an install that found it taken */
        pthread_join(thread, NULL);
    }
}

void
ua_cuda_program_quiesce(void)
{
    prewarm_join();
    unjoined_join_all();
}

/* A child of fork has none of its parent's threads to join. */
static void
unjoined_forget(void)
{
    pthread_mutex_init(&unjoined_lock, NULL);
    unjoined = NULL;
}

static void
unjoined_register(void)
{
    atexit(unjoined_join_all);
    pthread_atfork(NULL, NULL, unjoined_forget);
}

static void *
upgrade_run(void *arg)
{
    ua_cuda_upgrade *u = arg;
    u->st =
        ua_cuda_compile_image(u->c, u->source, u->what, &u->image, &u->size);
    free(u->source);
    u->source = NULL;
    atomic_store(&u->done, true);
    return NULL;
}

/* Starts the full compile of a program that a first call compiled at the
 * fast level, and lists it on c (under c->lock).  Where no thread starts,
 * the program keeps its fast module. */
static void
upgrade_start(ua_cuda_context *c, const char *source, const char *what,
              const ua_cuda_tier *tier)
{
    ua_cuda_upgrade *u = calloc(1, sizeof *u);
    char *copy = u != NULL ? malloc(strlen(source) + 1) : NULL;
    if (copy == NULL) {
        free(u);
        return;
    }
    strcpy(copy, source);
    u->c = c;
    u->tier = *tier;
    u->source = copy;
    /* the trace tells the full compiles beside the calls by this suffix */
    snprintf(u->what, sizeof u->what, "%.40s, in full beside", what);
    atomic_init(&u->done, false);
    pthread_once(&unjoined_once, unjoined_register);
    /* listed under the lock as it starts: an exit finds every thread */
    pthread_mutex_lock(&unjoined_lock);
    bool started = pthread_create(&u->thread, NULL, upgrade_run, u) == 0;
    if (started) {
        u->unjoined = true;
        u->next_unjoined = unjoined;
        unjoined = u;
    }
    pthread_mutex_unlock(&unjoined_lock);
    if (!started) {
        free(copy);
        free(u);
        return;
    }
    u->next = c->upgrades;
    c->upgrades = u;
}

void
ua_cuda_upgrades_install(ua_cuda_context *c)
{
    ua_cuda_upgrade **link = &c->upgrades;
    while (*link != NULL) {
        ua_cuda_upgrade *u = *link;
        if (!atomic_load(&u->done)) {
            link = &u->next;
            continue;
        }
        *link = u->next;
        if (unjoined_take(u)) {
            pthread_join(u->thread, NULL); /* it has set done: at once */
        }
        CUmodule m = NULL;
        double t0 = ua_cuda_now_ms();
        bool loaded = u->st == UA_OK &&
                      ua_cu.cuModuleLoadData(&m, u->image) == CUDA_SUCCESS;
        if (loaded && u->tier.install(c, m, u->tier.where) != UA_OK) {
            ua_cu.cuModuleUnload(m);
            loaded = false;
        }
        if (trace) {
            fprintf(stderr, "usmarray: %s: full module %s %.1f ms\n", u->what,
                    loaded ? "installed" : "not installed",
                    ua_cuda_now_ms() - t0);
        }
        free(u->image);
        free(u);
    }
}

typedef struct {
    const ua_cuda_context *c;
    const char *source, *what;
    bool tiered; /* may compile at the fast level */
    bool fast;   /* it did: the full compile is to come */
    char *image;
    size_t size;
    ua_status st;
} compile_job;

/* The image from the disk cache, else a fast compile's where the job is
 * tiered, else a full compile's. */
static void *
compile_job_run(void *arg)
{
    compile_job *j = arg;
    const nvrtc_options *o = ua_nvrtc.loaded ? nvrtc_options_get() : NULL;
    j->fast = false;
    if (!j->tiered || o == NULL || o->fast == NULL) {
        j->st = ua_cuda_compile_image(j->c, j->source, j->what, &j->image,
                                      &j->size);
        return NULL;
    }
    char compiler[160], device[400];
    cache_key_parts(j->c, compiler, sizeof compiler, device, sizeof device);
    const char *key[] = {j->source, compiler, device};
    double t0 = ua_cuda_now_ms();
    j->image = o->fast_only ? NULL : ua_kernel_cache_load(key, 3, &j->size);
    j->fast = j->image == NULL;
    j->st = j->fast ? nvrtc_image(j->c, j->source, j->what, true, &j->image,
                                  &j->size)
                    : UA_OK;
    if (trace) {
        fprintf(stderr, "usmarray: %s: %s %.1f ms (%zu bytes of source)\n",
                j->what, j->fast ? "NVRTC fast level" : "disk cache",
                ua_cuda_now_ms() - t0, strlen(j->source));
    }
    return NULL;
}

ua_status
ua_cuda_compile(ua_cuda_context *c, const char *source, const char *what,
                const ua_cuda_tier *tier, CUmodule *module)
{
    return ua_cuda_compile_all(c, 1, &source, &what, tier, module);
}

ua_status
ua_cuda_compile_all(ua_cuda_context *c, int n, const char *const *sources,
                    const char *const *what, const ua_cuda_tier *tiers,
                    CUmodule *modules)
{
    compile_job jobs[UA_CUDA_COMPILE_MAX];
    pthread_t threads[UA_CUDA_COMPILE_MAX];
    bool started[UA_CUDA_COMPILE_MAX] = {false};
    if (n < 1 || n > UA_CUDA_COMPILE_MAX) {
        return ua_error_set(UA_ERR_VALUE, "%d programs at once", n);
    }
    ua_cuda_tracing();
    for (int i = 0; i < n; i++) {
        bool tiered = tiers != NULL && tiers[i].install != NULL;
        jobs[i] = (compile_job){c,     sources[i], what[i], tiered,
                                false, NULL,       0,       UA_OK};
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
            jobs[i].image = NULL;
            compile_job_run(&jobs[i]);
        }
    }
    ua_status st = UA_OK;
    double t0 = ua_cuda_now_ms();
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
    if (trace && st == UA_OK) {
        fprintf(stderr, "usmarray: %s%s: module load %.1f ms\n", what[0],
                n > 1 ? " and the others" : "", ua_cuda_now_ms() - t0);
    }
    if (st != UA_OK) {
        for (int i = 0; i < n; i++) {
            if (modules[i] != NULL) {
                ua_cu.cuModuleUnload(modules[i]);
                modules[i] = NULL;
            }
        }
        return st;
    }
    const nvrtc_options *o = ua_nvrtc.loaded ? nvrtc_options_get() : NULL;
    for (int i = 0; i < n; i++) {
        if (jobs[i].fast && !o->fast_only) {
            upgrade_start(c, sources[i], what[i], &tiers[i]);
        }
    }
    return UA_OK;
}

ua_status
ua_cuda_jobs_run(ua_cuda_context *c, ua_cuda_job *jobs, int n, bool *compiled)
{
    const char *sources[UA_CUDA_COMPILE_MAX], *whats[UA_CUDA_COMPILE_MAX];
    ua_cuda_tier tiers[UA_CUDA_COMPILE_MAX];
    CUmodule modules[UA_CUDA_COMPILE_MAX];
    *compiled = false;
    if (n <= 0) {
        return UA_OK;
    }
    for (int i = 0; i < n; i++) {
        sources[i] = jobs[i].source;
        whats[i] = jobs[i].what;
        tiers[i] = jobs[i].tier;
    }
    ua_status st = ua_cuda_compile_all(c, n, sources, whats, tiers, modules);
    *compiled = st == UA_OK;
    for (int i = 0; i < n; i++) {
        if (st == UA_OK) {
            st = tiers[i].install(c, modules[i], tiers[i].where);
            /* a module no table took: the full compile's, where it comes,
             * installs as it would */
            if (st != UA_OK) {
                ua_cu.cuModuleUnload(modules[i]);
            }
        } else if (*compiled) {
            ua_cu.cuModuleUnload(modules[i]);
        }
        free(jobs[i].source);
        jobs[i].source = NULL;
    }
    return st;
}

int
ua_cuda_jobs_drop(ua_cuda_job *jobs, int n)
{
    for (int i = 0; i < n; i++) {
        free(jobs[i].source);
        jobs[i].source = NULL;
    }
    return -1;
}

int
ua_cuda_jobs_out_of_memory(ua_cuda_job *jobs, int n)
{
    ua_error_set(UA_ERR_NOMEM, "out of memory for a kernel");
    return ua_cuda_jobs_drop(jobs, n);
}
