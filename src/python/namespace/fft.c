/* Placeholder: the standard's fft extension. */
#include "python/base/pyheaders.h"
#include "python/namespace/extensions.h"

PyMethodDef ua_py_fft_methods[] = {
    {NULL},
};

void
ua_py_fft_install_host(void)
{
}
