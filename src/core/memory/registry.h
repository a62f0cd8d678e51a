/* registry.c: the allocations the library made, by address. */
#ifndef USMARRAY_CORE_MEMORY_REGISTRY_H
#define USMARRAY_CORE_MEMORY_REGISTRY_H

#include "core/core.h"

/* The registry of live allocations, keyed by start address. */
ua_status ua_registry_insert(const ua_pointer_info *info);
void ua_registry_remove(uintptr_t start, size_t nbytes, bool borrowed);
bool ua_registry_find_range(uintptr_t addr, size_t len, ua_pointer_info *out);
/* Whether [addr, addr + len) (the address alone when len is 0) meets an
 * allocation the library made. */
bool ua_registry_overlaps_owned(uintptr_t addr, size_t len);
size_t ua_registry_size(void);

#endif
