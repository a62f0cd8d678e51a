"""A two-GPU all-reduce over NCCL, one process per GPU: torch.distributed
runs NCCL on usmarray device arrays it sees through DLPack, without a copy.

    torchrun --nproc-per-node 2 examples/nccl_allreduce.py
"""

import os

import numpy as np
import torch
import torch.distributed as dist
import usmarray as ua

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
torch.cuda.set_device(rank)
dist.init_process_group("nccl", device_id=torch.device("cuda", rank))

x = ua.full(1 << 20, rank + 1, dtype="f4", queue=f"cuda:gpu:{rank}")
dist.all_reduce(torch.from_dlpack(x))  # the same memory: the sum lands in x
torch.cuda.synchronize()

print(f"rank {rank}: {ua.asnumpy(x[:4])}")
np.testing.assert_array_equal(ua.asnumpy(x), world * (world + 1) / 2)
dist.destroy_process_group()
