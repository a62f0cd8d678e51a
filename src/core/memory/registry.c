/* The registry of live allocations: a sorted array searched by bisection
 * under one lock, which every allocation and free of the library takes:
 * each holds it for a bisection and a short memmove, and the array keeps
 * lookups to one cache-friendly binary search. */
#include <stdlib.h>
#include <string.h>

#include "core/base/lock.h"
#include "core/memory/registry.h"

static ua_lock lock = UA_LOCK_INIT;
static ua_pointer_info *entries;
static size_t count, capacity;
/* Borrowed regions may overlap one another; while none exist a lookup needs
 * to look at one candidate only. */
static size_t borrowed_count;

/* Index of the first entry whose start is greater than addr. */
static size_t
upper_bound(uintptr_t addr)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (entries[mid].start <= addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static bool
grow(void)
{
    size_t ncap = capacity ? capacity * 2 : 64;
    ua_pointer_info *n = realloc(entries, ncap * sizeof(*n));
    if (n == NULL) {
        return false;
    }
    entries = n;
    capacity = ncap;
    return true;
}

ua_status
ua_registry_insert(const ua_pointer_info *info)
{
    ua_lock_acquire(&lock);
    if (count == capacity && !grow()) {
        ua_lock_release(&lock);
        return ua_error_set(UA_ERR_NOMEM,
                            "out of memory recording an allocation");
    }
    size_t i = upper_bound(info->start);
    memmove(&entries[i + 1], &entries[i], (count - i) * sizeof(*entries));
    entries[i] = *info;
    count++;
    borrowed_count += info->borrowed;
    ua_lock_release(&lock);
    return UA_OK;
}

void
ua_registry_remove(uintptr_t start, size_t nbytes, bool borrowed)
{
    ua_lock_acquire(&lock);
    for (size_t i = upper_bound(start);
         i-- > 0 && entries[i].start == start;) {
        if (entries[i].nbytes == nbytes && entries[i].borrowed == borrowed) {
            memmove(&entries[i], &entries[i + 1],
                    (count - i - 1) * sizeof(*entries));
            count--;
            borrowed_count -= borrowed;
            break;
        }
    }
    ua_lock_release(&lock);
}

static bool
contains(const ua_pointer_info *e, uintptr_t addr, size_t len)
{
    uintptr_t end = e->start + e->nbytes;
    /* An empty range may sit one past the end, like an end iterator. */
    return addr >= e->start && addr <= end && len <= end - addr;
}

/* Borrowed regions may lie over each other (a NumPy array and a view of
 * it), so where any exist every candidate is looked at: the library's own
 * allocation wins, else the largest borrowed region, so that an empty or
 * small region borrowed first never hides the memory around it. */
static bool
better(const ua_pointer_info *candidate, const ua_pointer_info *best)
{
    if (candidate->borrowed != best->borrowed) {
        return !candidate->borrowed;
    }
    return candidate->nbytes > best->nbytes;
}

bool
ua_registry_find_range(uintptr_t addr, size_t len, ua_pointer_info *out)
{
    bool found = false;
    ua_lock_acquire(&lock);
    size_t i = upper_bound(addr);
    size_t stop = borrowed_count ? 0 : (i > 0 ? i - 1 : 0);
    while (i-- > stop) {
        if (contains(&entries[i], addr, len) &&
            (!found || better(&entries[i], out))) {
            *out = entries[i];
            found = true;
            if (!borrowed_count) {
                break;
            }
        }
    }
    ua_lock_release(&lock);
    return found;
}

bool
ua_registry_overlaps_owned(uintptr_t addr, size_t len)
{
    bool overlaps = false;
    /* An empty range is a point, which an allocation may contain. */
    uintptr_t end = addr + (len ? len : 1);
    ua_lock_acquire(&lock);
    for (size_t i = upper_bound(end - 1); i-- > 0 && !overlaps;) {
        const ua_pointer_info *e = &entries[i];
        overlaps = !e->borrowed && e->start + e->nbytes > addr;
        if (!e->borrowed && !overlaps) {
            break; /* owned allocations are disjoint: none further back */
        }
    }
    ua_lock_release(&lock);
    return overlaps;
}

size_t
ua_registry_size(void)
{
    ua_lock_acquire(&lock);
    size_t n = count;
    ua_lock_release(&lock);
    return n;
}
