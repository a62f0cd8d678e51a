/* library.c: what the binding asks of the platform's libraries (plans in
 * library_kernels.h), through the queue's compute-kernel table. */
#ifndef USMARRAY_CORE_COMPUTE_LIBRARY_H
#define USMARRAY_CORE_COMPUTE_LIBRARY_H

#include "core/compute/kernels.h"
#include "core/core.h"

/* A factorization of each matrix of p's batch (nothing for an empty
 * one); UA_ERR_VALUE for a type other than float32, float64, complex64
 * and complex128. */
ua_status ua_queue_solver(ua_queue *q, const ua_solver_plan *p);

/* Whether q's library calls take op: every table takes the
 * factorizations; DET and SLOGDET only the CPU backend's, which runs the
 * library calls of every CPU device (decided without waiting). */
bool ua_queue_solver_takes(const ua_queue *q, ua_solver_op op);

/* A batch of Fourier transforms (nothing for an empty one). */
ua_status ua_queue_fft(ua_queue *q, const ua_fft_plan *p);

/* The host backend's FFTs run through a function that the binding gives
 * once, at import (NumPy's pocketfft over the same memory: the core has
 * no FFT of its own and loads none).  It is called on the thread that
 * called ua_queue_fft, which therefore keeps what that function needs
 * (the GIL) across the call. */
typedef ua_status (*ua_host_fft_fn)(const ua_fft_plan *p);
void ua_set_host_fft(ua_host_fft_fn fn);
/* The function given, or NULL. */
ua_host_fft_fn ua_host_fft(void);

#endif
