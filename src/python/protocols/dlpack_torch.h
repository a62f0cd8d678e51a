/* dlpack_torch.c: from_dlpack's faster road for PyTorch's CUDA tensors. */
#ifndef UA_PY_DLPACK_TORCH_H
#define UA_PY_DLPACK_TORCH_H

#include "python/base/state.h"
#include "core/dlpack.h"

/* True, with *out the tensor's CUDA device, where obj is a CUDA tensor of
 * a CUDA build of PyTorch; false, with no error, otherwise. */
int ua_py_torch_cuda_device(ua_state *st, PyObject *obj, ua_dl_device *out);
/* 1 where queue (of the CUDA device dev) was ordered after PyTorch's
 * current stream, so that the producer may be asked with stream -1; 0,
 * with no error, where the generic call must be made. */
int ua_py_ordered_after_torch(ua_state *st, PyObject *obj, ua_dl_device dev,
                              ua_queue *queue);

#endif
