"""One rank of tests/interop/test_mpi.py, which runs this file under `mpiexec -n 2`.

Each rank exchanges and reduces arrays of every USM kind through mpi4py's
buffer-based calls and checks the values, and that MPI was handed the
arrays' own memory: MPI_Get_address of the buffer mpi4py builds from an
array is the array's pointer, and data received into a view lands in the
middle of its parent.  A failed check raises, so that the rank exits with a
non-zero status and mpiexec reports it.

The devices: the host backend's CPU (every kind: mpi4py reads the device
kind through DLPack, where it is kDLCPU memory), and where a CUDA GPU is
present its host and shared kinds, which are host memory to any MPI.  CUDA
device memory needs a CUDA-aware MPI and is not tried here (README,
"Several GPUs and processes").
"""

import numpy as np
import usmarray as ua
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
DTYPES = ["f8", "f4", "i4", "i8", "c16"]


def devices_and_kinds():
    yield "host", "device"
    yield "host", "shared"
    yield "host", "host"
    if ua.get_devices(backend="cuda"):
        yield "cuda:gpu:0", "shared"
        yield "cuda:gpu:0", "host"


def seen_by_mpi(x):
    """MPI's address of the buffer mpi4py makes of x is x's own."""
    assert MPI.Get_address(x) == x._pointer, (MPI.Get_address(x), x._pointer)


def expect(x, values):
    np.testing.assert_array_equal(ua.asnumpy(x), values)


def send_and_receive(q, kind, dt):
    n = 37
    if rank == 0:
        x = ua.asarray(np.arange(n).astype(dt) * 3, usm_type=kind, queue=q)
        seen_by_mpi(x)
        comm.Send(x, dest=1, tag=7)
    elif rank == 1:
        y = ua.zeros(n, dtype=dt, usm_type=kind, queue=q)
        seen_by_mpi(y)
        comm.Recv(y, source=0, tag=7)
        expect(y, np.arange(n).astype(dt) * 3)


def receive_into_a_view(q, kind, dt):
    """Data received into x[4:12] lands in x: MPI wrote our memory."""
    x = ua.full(16, -1, dtype=dt, usm_type=kind, queue=q)
    v = x[4:12]
    seen_by_mpi(v)
    other = (rank + 1) % size
    send = ua.full(8, rank + 1, dtype=dt, usm_type=kind, queue=q)
    comm.Sendrecv(send, dest=other, sendtag=3, recvbuf=v, source=other, recvtag=3)
    want = np.full(16, -1, dtype=dt)
    want[4:12] = other + 1
    expect(x, want)


def reduce_all(q, kind, dt):
    x = ua.full((3, 5), rank + 1, dtype=dt, usm_type=kind, queue=q)
    y = ua.empty((3, 5), dtype=dt, usm_type=kind, queue=q)
    seen_by_mpi(x)
    seen_by_mpi(y)
    comm.Allreduce(x, y, op=MPI.SUM)
    expect(y, np.full((3, 5), size * (size + 1) // 2, dtype=dt))
    comm.Allreduce(MPI.IN_PLACE, x, op=MPI.SUM)
    expect(x, np.full((3, 5), size * (size + 1) // 2, dtype=dt))


def broadcast_and_gather(q, kind, dt):
    x = (
        ua.asarray(np.arange(10).astype(dt), usm_type=kind, queue=q)
        if rank == 0
        else ua.zeros(10, dtype=dt, usm_type=kind, queue=q)
    )
    comm.Bcast(x, root=0)
    expect(x, np.arange(10).astype(dt))
    everyone = ua.empty(4 * size, dtype=dt, usm_type=kind, queue=q)
    comm.Allgather(ua.full(4, rank, dtype=dt, usm_type=kind, queue=q), everyone)
    expect(everyone, np.repeat(np.arange(size), 4).astype(dt))


def across_kinds(q):
    """A host array sent, a device array received: each side is its own."""
    if rank == 0:
        comm.Send(ua.arange(6.0, usm_type="host", queue=q), dest=1, tag=9)
    elif rank == 1:
        y = ua.zeros(6, usm_type="device", queue=q)
        comm.Recv(y, source=0, tag=9)
        expect(y, np.arange(6.0))


def strided_arrays_are_refused(q, kind):
    """MPI's buffer-based calls take contiguous memory; a strided view is
    refused by name instead of sending the wrong elements."""
    x = ua.arange(10.0, usm_type=kind, queue=q)
    for view in (x[::2], x[::-1]):
        try:
            comm.Allreduce(view, ua.empty(view.shape, usm_type=kind, queue=q))
        except BufferError as e:
            assert "contiguous" in str(e) or "negative" in str(e), e
        else:
            raise AssertionError("a strided array reached MPI")


def main():
    assert size == 2, f"run under mpiexec -n 2, not {size}"
    checks = 0
    for device, kind in devices_and_kinds():
        q = ua.Queue(device)
        for dt in DTYPES:
            for case in (send_and_receive, receive_into_a_view, reduce_all, broadcast_and_gather):
                case(q, kind, dt)
                checks += 1
        strided_arrays_are_refused(q, kind)
        checks += 1
    across_kinds(ua.Queue("host"))
    checks += 1
    comm.Barrier()
    print(f"rank {rank}: {checks} checks passed", flush=True)


if __name__ == "__main__":
    main()
