/* Placeholder until the library is loaded here. */
#include "backends/cuda/cuda_backend.h"

ua_status
ua_cuda_fft(void *queue, const ua_fft_plan *p)
{
    (void)queue;
    (void)p;
    return ua_error_set(UA_ERR_UNAVAILABLE, "not built yet");
}

const char *
ua_cuda_fft_description(void)
{
    return "not built yet";
}
