"""What a non-CUDA-aware MPI does with a CUDA device array handed to mpi4py
anyway (the GPU machine's Debian Open MPI is not CUDA-aware).  Run by
tools/gpu_run.sh under `mpiexec -n 2`; prints what each step did.  mpi4py
takes the array through DLPack (kDLCUDA) or CAI without asking whether the
MPI library can read device memory, and hands the device pointer on."""

import numpy as np
import usmarray as ua
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
x = ua.full(1 << 16, rank + 1.0, queue="cuda:gpu:0")
y = ua.zeros_like(x)
print(
    f"rank {rank}: mpi4py's address of the device array is ours: "
    f"{MPI.Get_address(x) == x._pointer}",
    flush=True,
)
try:
    comm.Allreduce(x, y)
    print(
        f"rank {rank}: Allreduce of device arrays returned; values right: "
        f"{bool((ua.asnumpy(y) == 3.0).all())}",
        flush=True,
    )
except Exception as e:  # an MPI error, if the library notices
    print(f"rank {rank}: Allreduce raised {type(e).__name__}: {e}", flush=True)
# Staging through pinned host memory works with any MPI.
staged = ua.empty_like(x, usm_type="host")
staged[...] = x
comm.Allreduce(MPI.IN_PLACE, staged)
x[...] = staged
print(
    f"rank {rank}: staged through pinned host memory: {bool((ua.asnumpy(x) == 3.0).all())}",
    flush=True,
)
np.testing.assert_array_equal(ua.asnumpy(x), 3.0)
