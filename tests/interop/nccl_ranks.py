"""One process per GPU of tests/interop/test_nccl.py: RANK and WORLD_SIZE from the
environment, rendezvous through MASTER_ADDR/MASTER_PORT.  Each rank
all-reduces usmarray device arrays over NCCL, through torch.distributed and,
where CuPy has NCCL, through cupy.cuda.nccl: both see our memory through
DLPack or CAI (no copy: the sum lands in our array).  A failed check raises,
so the process exits non-zero."""

import os
import pickle
import sys
import time

import numpy as np
import usmarray as ua

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
gpu = f"cuda:gpu:{rank}"
n = 1 << 20
want = np.full(n, world * (world + 1) / 2, dtype="f4")


def through_torch():
    import torch
    import torch.distributed as dist

    torch.cuda.set_device(rank)
    dist.init_process_group(
        "nccl", rank=rank, world_size=world, device_id=torch.device("cuda", rank)
    )
    x = ua.full(n, rank + 1, dtype="f4", queue=gpu)
    t = torch.from_dlpack(x)
    assert t.device == torch.device("cuda", rank) and t.data_ptr() == x._pointer
    dist.all_reduce(t)
    torch.cuda.synchronize(rank)
    np.testing.assert_array_equal(ua.asnumpy(x), want)
    # The same through CAI, on a strided-free view in the middle.
    y = ua.full(3 * n, -1, dtype="f4", queue=gpu)
    v = torch.as_tensor(y[n : 2 * n], device=f"cuda:{rank}")
    v += rank + 2
    dist.all_reduce(v)
    torch.cuda.synchronize(rank)
    mid = ua.asnumpy(y)[n : 2 * n]
    np.testing.assert_array_equal(mid, np.full(n, sum(r + 1 for r in range(world)), dtype="f4"))
    dist.destroy_process_group()
    return "torch.distributed"


def through_cupy(uid_file):
    import cupy as cp
    from cupy.cuda import nccl

    with cp.cuda.Device(rank):
        if rank == 0:
            uid = nccl.get_unique_id()
            # Pickled, so that rank 1 gets it back in the type this CuPy
            # gives and takes (a tuple in some versions, bytes in others).
            with open(uid_file + ".tmp", "wb") as f:
                pickle.dump(uid, f)
            os.replace(uid_file + ".tmp", uid_file)
        else:
            deadline = time.monotonic() + 120
            while not os.path.exists(uid_file) and time.monotonic() < deadline:
                time.sleep(0.01)
        with open(uid_file, "rb") as f:
            uid = pickle.load(f)
        comm = nccl.NcclCommunicator(world, uid, rank)
        x = ua.full(n, rank + 1, dtype="f4", queue=gpu)
        c = cp.asarray(x)
        assert c.data.ptr == x._pointer
        stream = cp.cuda.get_current_stream()
        comm.allReduce(c.data.ptr, c.data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, stream.ptr)
        stream.synchronize()
        np.testing.assert_array_equal(ua.asnumpy(x), want)
    return "cupy.cuda.nccl"


def main():
    done = [through_torch()]
    try:
        from cupy.cuda import nccl  # noqa: F401

        have_cupy_nccl = True
    except Exception:
        have_cupy_nccl = False
    if have_cupy_nccl:
        done.append(through_cupy(sys.argv[1]))
    print(f"rank {rank}: all-reduce over NCCL through {', '.join(done)}: ok", flush=True)


if __name__ == "__main__":
    main()
