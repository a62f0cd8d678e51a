/* Kernel texts as the backends put them together: each text a NULL-ended
 * array of parts (the headers embed_text.py makes of the layer's .inc
 * files, or a backend's own strings), joined into one program's source. */
#ifndef USMARRAY_GPU_KERNEL_TEXT_H
#define USMARRAY_GPU_KERNEL_TEXT_H

/* The parts of the n texts one after another (malloc'd), or NULL when out
 * of memory. */
char *ua_gpu_texts_join(const char *const *const *texts, int n);
/* The bits of v as a float, and as a double: how the texts' kernels take
 * floating arguments (BITS_F32, BITS_F64), which every device can pass. */
int ua_gpu_bits32(double v);
long long ua_gpu_bits64(double v);

#endif
