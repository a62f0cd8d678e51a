"""A CPU all-reduce with mpi4py: every rank sums its usmarray arrays into
everyone's, without a copy (MPI reads and writes the arrays' own memory
through the buffer protocol or DLPack).

    mpiexec -n 2 python examples/mpi_allreduce.py
(as root, Open MPI also wants --allow-run-as-root; on few cores, --oversubscribe)
"""

import numpy as np
import usmarray as ua
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
q = ua.Queue("host")  # CPU memory: fine for any MPI

x = ua.full(8, rank + 1.0, usm_type="host", queue=q)
total = ua.empty_like(x)
comm.Allreduce(x, total, op=MPI.SUM)
assert MPI.Get_address(total) == total._pointer  # MPI wrote our memory

# A device array on a GPU needs a CUDA-aware MPI; with any other MPI, stage
# it through pinned host memory:
#   staged = ua.empty_like(gpu_array, usm_type="host"); staged[...] = gpu_array
#   comm.Allreduce(MPI.IN_PLACE, staged); gpu_array[...] = staged
print(f"rank {rank}/{size}: {ua.asnumpy(total)}")
np.testing.assert_array_equal(ua.asnumpy(total), np.full(8, size * (size + 1) / 2))
