/* The host backend's threads: a small pool, started on first use, that
 * splits a large job into parts run at once on the CPU's cores (the
 * caller runs parts too).  One job runs at a time; a caller that finds the
 * pool busy runs its parts itself.  A forked child starts its own
 * threads.  USMARRAY_HOST_THREADS sets the number of threads (1: none);
 * the default is the cores this process may run on. */
#ifndef USMARRAY_BACKENDS_HOST_HOST_THREADS_H
#define USMARRAY_BACKENDS_HOST_HOST_THREADS_H

#include <stddef.h>

/* One part of a job: part of parts, each run once, on any thread. */
typedef void (*ua_host_task)(void *ctx, int part, int parts);

/* How many parts a job of `bytes` of memory traffic, and `ops` of work
 * per byte beyond a copy's (1: a memory-bound loop), pays to split into:
 * at most the pool's threads, 1 where starting them costs more than it
 * saves. */
int ua_host_parts(size_t bytes, int ops);
/* How many parts a split of `bytes` takes by its size alone (at most
 * `most`), whatever the pool's threads: a split whose parts' results meet
 * in an order that decides the bits (a sum's) takes these, each thread
 * taking parts as it finishes, so that the bits are the same on every
 * machine and with any USMARRAY_HOST_THREADS. */
int ua_host_parts_by_size(size_t bytes, int most);

/* Runs task(ctx, i, parts) for every i < parts and returns when all are
 * done. */
void ua_host_parallel(int parts, ua_host_task task, void *ctx);

#endif
