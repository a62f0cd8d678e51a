/* A driver for compilers without libFuzzer: runs LLVMFuzzerTestOneInput on
 * every file named (or in a directory named), then, when
 * USMARRAY_FUZZ_RUNS is set, on that many random mutations of them. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_INPUT 4096

typedef struct {
    uint8_t *data;
    size_t size;
} seed;

static seed seeds[1024];
static size_t nseeds;

static void
load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL || nseeds == sizeof(seeds) / sizeof(seeds[0])) {
        if (f) {
            fclose(f);
        }
        return;
    }
    uint8_t *buf = malloc(FUZZ_MAX_INPUT);
    size_t n = fread(buf, 1, FUZZ_MAX_INPUT, f);
    fclose(f);
    seeds[nseeds++] = (seed){buf, n};
}

static void
load_path(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    if (!S_ISDIR(sb.st_mode)) {
        load(path);
        return;
    }
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] != '.') {
            char full[4096];
            snprintf(full, sizeof(full), "%s/%s", path, e->d_name);
            load(full);
        }
    }
    if (d) {
        closedir(d);
    }
}

static uint64_t rng = 0x9E3779B97F4A7C15u;

static uint64_t
next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Flips, overwrites, inserts or deletes a few bytes, or splices two seeds. */
static size_t
mutate(uint8_t *buf, size_t n)
{
    int edits = 1 + (int)(next() % 4);
    for (int e = 0; e < edits; e++) {
        size_t at = n ? next() % n : 0;
        switch (next() % 5) {
        case 0:
            if (n) {
                buf[at] ^= (uint8_t)(1u << (next() % 8));
            }
            break;
        case 1:
            if (n) {
                buf[at] = (uint8_t)next();
            }
            break;
        case 2:
            if (n < FUZZ_MAX_INPUT) {
                memmove(buf + at + 1, buf + at, n - at);
                buf[at] = (uint8_t)next();
                n++;
            }
            break;
        case 3:
            if (n) {
                memmove(buf + at, buf + at + 1, n - at - 1);
                n--;
            }
            break;
        default: {
            const seed *s = &seeds[next() % nseeds];
            size_t k = s->size ? next() % s->size : 0;
            size_t len = s->size - k;
            if (at + len > FUZZ_MAX_INPUT) {
                len = FUZZ_MAX_INPUT - at;
            }
            memcpy(buf + at, s->data + k, len);
            if (at + len > n) {
                n = at + len;
            }
        }
        }
    }
    return n;
}

int
main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        load_path(argv[i]);
    }
    if (nseeds == 0) {
        fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    for (size_t i = 0; i < nseeds; i++) {
        LLVMFuzzerTestOneInput(seeds[i].data, seeds[i].size);
    }
    const char *runs_env = getenv("USMARRAY_FUZZ_RUNS");
    long runs = 0;
    if (runs_env != NULL && runs_env[0] != '\0') {
        char *end;
        errno = 0;
        runs = strtol(runs_env, &end, 10);
        if (*end != '\0' || errno != 0 || runs < 0) {
            fprintf(stderr,
                    "USMARRAY_FUZZ_RUNS is '%s'; expected a number of "
                    "mutations, a non-negative decimal integer\n",
                    runs_env);
            return 2;
        }
    }
    static uint8_t buf[FUZZ_MAX_INPUT];
    for (long r = 0; r < runs; r++) {
        const seed *s = &seeds[next() % nseeds];
        memcpy(buf, s->data, s->size);
        size_t n = mutate(buf, s->size);
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("%zu seeds and %ld mutations ran without a finding\n", nseeds,
           runs);
    for (size_t i = 0; i < nseeds; i++) {
        free(seeds[i].data);
    }
    return 0;
}
