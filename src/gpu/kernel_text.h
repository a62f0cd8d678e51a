/* Kernel texts as the backends put them together: each text a NULL-ended
 * array of parts (the headers embed_text.py makes of the layer's .inc
 * files, or a backend's own strings), joined into one program's source. */
#ifndef USMARRAY_GPU_KERNEL_TEXT_H
#define USMARRAY_GPU_KERNEL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* A program's source written piece by piece (a generated kernel's): s
 * grows as pieces are added; failed once out of memory, after which the
 * pieces are dropped and the caller gives up the source. */
typedef struct ua_gpu_text {
    char *s;
    size_t len, cap;
    bool failed;
} ua_gpu_text;
/* printf's format and arguments appended to t. */
void ua_gpu_text_add(ua_gpu_text *t, const char *fmt, ...);
/* The NULL-ended parts appended to t, one after another. */
void ua_gpu_text_add_parts(ua_gpu_text *t, const char *const *parts);

/* The parts of the n texts one after another (malloc'd), or NULL when out
 * of memory. */
char *ua_gpu_texts_join(const char *const *const *texts, int n);
/* The bits of v as a float, and as a double: how the texts' kernels take
 * floating arguments (BITS_F32, BITS_F64), which every device can pass. */
int ua_gpu_bits32(double v);
long long ua_gpu_bits64(double v);

#endif
