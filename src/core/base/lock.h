/* The core's spin lock (environ.c is not its user: the pools and the
 * registry are). */
#ifndef USMARRAY_CORE_BASE_LOCK_H
#define USMARRAY_CORE_BASE_LOCK_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>

/* The lock of the pools and of the registry, whose critical sections are a
 * few loads and stores (a bisection, a short memmove) taken several times
 * per allocation: an atomic exchange, where a mutex costs some thirty
 * instructions to lock and as many to unlock, a tenth of an empty() on the
 * host.  A waiter yields after a few spins, as the holder may have been
 * preempted; nothing that waits on a driver runs under it. */
typedef struct {
    atomic_bool held;
} ua_lock;

#define UA_LOCK_INIT {false}

static inline void
ua_lock_acquire(ua_lock *l)
{
    while (atomic_exchange_explicit(&l->held, true, memory_order_acquire)) {
        for (int spins = 0;
             atomic_load_explicit(&l->held, memory_order_relaxed); spins++) {
            if (spins >= 64) {
                sched_yield();
            }
        }
    }
}

static inline void
ua_lock_release(ua_lock *l)
{
    atomic_store_explicit(&l->held, false, memory_order_release);
}

#endif
