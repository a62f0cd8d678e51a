/* The on-disk cache of compiled kernels (kernel_cache.h).  A file holds a
 * header (magic, size, checksum of the data) and the data; its name is
 * two independent 64-bit hashes of the key. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/kernel_cache.h"

#define MAGIC "usmarray-kernel-1"

typedef struct {
    char magic[24];
    uint64_t size;
    uint64_t checksum;
} header;

uint64_t
ua_hash_bytes(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 0x100000001b3ull;
    }
    return h;
}

static uint64_t
key_hash(const char *const *parts, size_t nparts, uint64_t basis)
{
    uint64_t h = basis;
    for (size_t i = 0; i < nparts; i++) {
        uint64_t len = strlen(parts[i]);
        h = ua_hash_bytes(h, &len, sizeof len);
        h = ua_hash_bytes(h, parts[i], (size_t)len);
    }
    return h;
}

/* The cache's directory into dir (created where missing); false where
 * none can be named or made. */
static bool
directory(char *dir, size_t len)
{
    const char *own = getenv("USMARRAY_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (own != NULL && own[0] != '\0') {
        n = snprintf(dir, len, "%s", own);
    } else if (xdg != NULL && xdg[0] == '/') {
        n = snprintf(dir, len, "%s/usmarray", xdg);
    } else if (home != NULL && home[0] != '\0') {
        n = snprintf(dir, len, "%s/.cache/usmarray", home);
    } else {
        return false;
    }
    if (n < 0 || (size_t)n >= len) {
        return false;
    }
    /* mkdir -p */
    for (char *p = dir + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            bool ok = mkdir(dir, 0700) == 0 || errno == EEXIST;
            *p = c;
            if (!ok) {
                return false;
            }
            if (c == '\0') {
                return true;
            }
        }
    }
}

static bool
entry_path(const char *const *parts, size_t nparts, char *path, size_t len)
{
    char dir[4096];
    if (!directory(dir, sizeof dir)) {
        return false;
    }
    int n = snprintf(
        path, len, "%s/%016llx%016llx.kernel", dir,
        (unsigned long long)key_hash(parts, nparts, 0xcbf29ce484222325ull),
        (unsigned long long)key_hash(parts, nparts, 0x84222325cbf29ce4ull));
    return n > 0 && (size_t)n < len;
}

void *
ua_kernel_cache_load(const char *const *parts, size_t nparts, size_t *size)
{
    char path[4200];
    if (!entry_path(parts, nparts, path, sizeof path)) {
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    header h;
    void *data = NULL;
    if (fread(&h, sizeof h, 1, f) == 1 &&
        memcmp(h.magic, MAGIC, sizeof MAGIC) == 0 && h.size > 0 &&
        h.size < ((uint64_t)1 << 31) && (data = malloc(h.size)) != NULL &&
        (fread(data, 1, h.size, f) != h.size || fgetc(f) != EOF ||
         ua_hash_bytes(0xcbf29ce484222325ull, data, h.size) != h.checksum)) {
        free(data);
        data = NULL;
    }
    fclose(f);
    if (data != NULL) {
        *size = (size_t)h.size;
    }
    return data;
}

void
ua_kernel_cache_store(const char *const *parts, size_t nparts,
                      const void *data, size_t size)
{
    char path[4200], tmp[4300];
    if (!entry_path(parts, nparts, path, sizeof path)) {
        return;
    }
    snprintf(tmp, sizeof tmp, "%s.%ld.%p.tmp", path, (long)getpid(),
             (void *)&tmp);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        return;
    }
    FILE *f = fdopen(fd, "wb");
    if (f == NULL) {
        close(fd);
        unlink(tmp);
        return;
    }
    header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, MAGIC, sizeof MAGIC);
    h.size = size;
    h.checksum = ua_hash_bytes(0xcbf29ce484222325ull, data, size);
    bool ok =
        fwrite(&h, sizeof h, 1, f) == 1 && fwrite(data, 1, size, f) == size;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
    }
}
