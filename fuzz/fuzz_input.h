/* Reading a fuzzer's bytes as the values the validators take: integers of
 * every width, so that small, negative and overflowing values all occur. */
#ifndef USMARRAY_FUZZ_INPUT_H
#define USMARRAY_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct fuzz_input {
    const uint8_t *p;
    size_t left;
} fuzz_input;

static inline uint8_t
fuzz_byte(fuzz_input *in)
{
    if (in->left == 0) {
        return 0;
    }
    in->left--;
    return *in->p++;
}

static inline uint64_t
fuzz_bytes(fuzz_input *in, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) {
        v |= (uint64_t)fuzz_byte(in) << (8 * i);
    }
    return v;
}

/* A tag byte chooses the width: its low six bits as a small value near
 * zero, or 2, 4 or 8 bytes that follow, sign-extended. */
static inline int64_t
fuzz_int(fuzz_input *in)
{
    uint8_t tag = fuzz_byte(in);
    switch (tag >> 6) {
    case 0:
        return (int64_t)(tag & 63) - 8;
    case 1:
        return (int16_t)fuzz_bytes(in, 2);
    case 2:
        return (int32_t)fuzz_bytes(in, 4);
    default:
        return (int64_t)fuzz_bytes(in, 8);
    }
}

#endif
