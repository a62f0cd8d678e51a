/* Compiled kernels kept on disk between processes, as CuPy keeps its
 * NVRTC output: an entry is found by the hash of the parts of its key
 * (the source, the compiler's version, the device), in
 * $USMARRAY_CACHE_DIR, else $XDG_CACHE_HOME/usmarray, else
 * ~/.cache/usmarray.  Entries are written to a temporary file and renamed
 * into place, so that readers never see half of one; an entry that does
 * not read back whole (a different size, a checksum that does not match)
 * is a miss, and a directory that cannot be written is no error: the
 * backend compiles again. */
#ifndef USMARRAY_CORE_BASE_KERNEL_CACHE_H
#define USMARRAY_CORE_BASE_KERNEL_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a of n bytes from h (0xcbf29ce484222325 to start): from two bases,
 * two independent hashes. */
uint64_t ua_hash_bytes(uint64_t h, const void *data, size_t n);

/* The entry of the key's nparts parts (strings), malloc'd, its size in
 * *size; NULL where there is none. */
void *ua_kernel_cache_load(const char *const *parts, size_t nparts,
                           size_t *size);
/* Keeps data as the entry of the key, silently giving up on failure. */
void ua_kernel_cache_store(const char *const *parts, size_t nparts,
                           const void *data, size_t size);

#endif
