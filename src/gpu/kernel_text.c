/* Kernel texts joined into a program's source, a source written piece by
 * piece, and floating arguments as their bits (kernel_text.h). */
#include <stdarg.h>
#include <stdio.h>
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

void
ua_gpu_text_add(ua_gpu_text *t, const char *fmt, ...)
{
    if (t->failed) {
        return;
    }
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = true;
            return;
        }
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = (t->cap + (size_t)n) * 2;
        char *s = realloc(t->s, cap);
        if (s == NULL) {
            t->failed = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
}

void
ua_gpu_text_add_parts(ua_gpu_text *t, const char *const *parts)
{
    for (; *parts != NULL; parts++) {
        ua_gpu_text_add(t, "%s", *parts);
    }
}
