/* Kernel texts joined into a program's source, and floating arguments as
 * their bits (kernel_text.h). */
#include <stdlib.h>
#include <string.h>

#include "gpu/kernel_text.h"

char *
ua_gpu_texts_join(const char *const *const *texts, int n)
{
    size_t size = 1;
    for (int k = 0; k < n; k++) {
        for (int i = 0; texts[k][i] != NULL; i++) {
            size += strlen(texts[k][i]);
        }
    }
    char *out = malloc(size), *at = out;
    for (int k = 0; out != NULL && k < n; k++) {
        for (int i = 0; texts[k][i] != NULL; i++) {
            size_t len = strlen(texts[k][i]);
            memcpy(at, texts[k][i], len);
            at += len;
        }
    }
    if (out != NULL) {
        *at = '\0';
    }
    return out;
}

int
ua_gpu_bits32(double v)
{
    float f = (float)v;
    int i;
    memcpy(&i, &f, sizeof i);
    return i;
}

long long
ua_gpu_bits64(double v)
{
    long long i;
    memcpy(&i, &v, sizeof i);
    return i;
}
