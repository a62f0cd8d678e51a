/* The host backend's pool of threads (host_threads.h).  Workers sleep on a
 * condition variable between jobs (the machine may be shared: nothing
 * spins but a caller's short watch for its job's last parts); a job's
 * parts are handed out one at a time under the pool's lock, and the
 * caller takes parts like any worker before it waits. */
#include "backends/host/host_threads.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 64

/* Splitting pays where each part moves at least this much memory: below
 * it, waking a thread costs more than the part's time. */
#define BYTES_PER_PART ((size_t)1 << 19)

/* How long a caller watches for its job's last parts before it sleeps. */
#define WATCH_NS 100000LL

static struct {
    pthread_mutex_t lock; /* guards every field below */
    pthread_cond_t wake;  /* a job was posted */
    pthread_cond_t done;  /* a job's last part finished */
    int workers;          /* started */
    int forks_handled;    /* the fork handlers are registered */
    ua_host_task task;
    void *ctx;
    int parts, next, pending;
    int busy;              /* a job is posted: others run theirs alone */
    atomic_int unfinished; /* pending, read by a caller without the lock */
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER,
          .wake = PTHREAD_COND_INITIALIZER,
          .done = PTHREAD_COND_INITIALIZER};

static int
cores_of_process(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        return CPU_COUNT(&set);
    }
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* The pool's size, known once (a load: this is asked on every call). */
static atomic_int known_size;

static int
pool_size(void)
{
    int known = atomic_load_explicit(&known_size, memory_order_relaxed);
    if (known != 0) {
        return known;
    }
    int n = cores_of_process();
    const char *env = getenv("USMARRAY_HOST_THREADS");
    if (env != NULL && *env) {
        int asked = atoi(env);
        n = asked >= 1 ? asked : n;
    }
    n = n < MAX_THREADS ? n : MAX_THREADS;
    atomic_store_explicit(&known_size, n, memory_order_relaxed);
    return n;
}

/* Takes and runs parts of the posted job until none is left; called and
 * returns with the lock held. */
static void
run_parts(void)
{
    while (pool.next < pool.parts) {
        int i = pool.next++, n = pool.parts;
        ua_host_task task = pool.task;
        void *ctx = pool.ctx;
        pthread_mutex_unlock(&pool.lock);
        task(ctx, i, n);
        pthread_mutex_lock(&pool.lock);
        atomic_store_explicit(&pool.unfinished, --pool.pending,
                              memory_order_release);
        if (pool.pending == 0) {
            pthread_cond_signal(&pool.done);
        }
    }
}

static long long
now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The caller's wait for the parts other threads still run.  Each is short
 * (a few per thread), and a caller asleep is woken some microseconds
 * after the last one ends, tens on a loaded virtual machine, as long as a
 * small call's loop: so it first watches the count, without the lock, for
 * up to WATCH_NS before it sleeps (2 parts of 37 us: 40 us against 46 at
 * best, 81 against 123 on average, on 2 cores under load 5).  Called and
 * returns with the lock held. */
static void
wait_parts(void)
{
    if (pool.pending > 0) {
        pthread_mutex_unlock(&pool.lock);
        long long until = now_ns() + WATCH_NS;
        while (atomic_load_explicit(&pool.unfinished, memory_order_acquire) >
                   0 &&
               now_ns() < until) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
        pthread_mutex_lock(&pool.lock);
    }
    while (pool.pending > 0) {
        pthread_cond_wait(&pool.done, &pool.lock);
    }
}

static void *
worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (pool.next >= pool.parts) {
            pthread_cond_wait(&pool.wake, &pool.lock);
        }
        run_parts();
    }
    return NULL;
}

/* fork() copies the caller only: the lock is taken around it, so that no
 * worker holds it in the copy, and the child starts with no workers and
 * no job. */
static void
before_fork(void)
{
    pthread_mutex_lock(&pool.lock);
}

static void
after_fork_parent(void)
{
    pthread_mutex_unlock(&pool.lock);
}

static void
after_fork_child(void)
{
    pool.workers = 0;
    pool.busy = 0;
    pool.parts = pool.next = pool.pending = 0;
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.done, NULL);
    pthread_mutex_unlock(&pool.lock);
}

/* Starts the workers a job of `size` threads lacks; with the lock held.
 * Signals stay with Python's threads. */
static void
start_workers(int size)
{
    size = size < pool_size() ? size : pool_size();
    if (pool.workers >= size - 1) {
        return;
    }
    if (!pool.forks_handled) {
        pool.forks_handled = pthread_atfork(before_fork, after_fork_parent,
                                            after_fork_child) == 0;
    }
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    while (pool.workers < size - 1) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&t, &attr, worker, NULL);
        pthread_attr_destroy(&attr);
        if (rc != 0) {
            break;
        }
        pool.workers++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int
ua_host_parts(size_t bytes, int ops)
{
    size_t work = bytes / BYTES_PER_PART * (size_t)(ops > 0 ? ops : 1);
    if (work < 2) {
        return 1;
    }
    int size = pool_size();
    return work < (size_t)size ? (int)work : size;
}

int
ua_host_parts_by_size(size_t bytes, int most)
{
    size_t work = bytes / BYTES_PER_PART;
    return work < 2 ? 1 : work < (size_t)most ? (int)work : most;
}

static void
run_alone(int parts, ua_host_task task, void *ctx)
{
    for (int i = 0; i < parts; i++) {
        task(ctx, i, parts);
    }
}

void
ua_host_parallel(int parts, ua_host_task task, void *ctx)
{
    if (parts <= 1) {
        run_alone(parts, task, ctx);
        return;
    }
    pthread_mutex_lock(&pool.lock);
    if (pool.busy) {
        pthread_mutex_unlock(&pool.lock);
        run_alone(parts, task, ctx);
        return;
    }
    start_workers(parts < pool_size() ? parts : pool_size());
    pool.busy = 1;
    pool.task = task;
    pool.ctx = ctx;
    pool.parts = parts;
    pool.next = 0;
    pool.pending = parts;
    atomic_store_explicit(&pool.unfinished, parts, memory_order_relaxed);
    pthread_cond_broadcast(&pool.wake);
    run_parts();
    wait_parts();
    pool.parts = pool.next = 0;
    pool.busy = 0;
    pthread_mutex_unlock(&pool.lock);
}
