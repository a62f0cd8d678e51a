"""All-reduce of usmarray device arrays over NCCL, one process per GPU
(tests/interop/nccl_ranks.py), through torch.distributed and CuPy's NCCL bindings.
Skipped with fewer than two CUDA GPUs or without PyTorch's NCCL."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import usmarray as ua

GPUS = ua.get_devices(backend="cuda")
pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(len(GPUS) < 2, reason="fewer than two CUDA GPUs here"),
]
RANKS = Path(__file__).with_name("nccl_ranks.py")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_all_reduce_over_nccl_one_process_per_gpu(tmp_path):
    pytest.importorskip("torch")
    import torch.distributed as dist

    if not dist.is_available() or not dist.is_nccl_available():
        pytest.skip("this PyTorch has no NCCL")
    port = str(free_port())
    procs = []
    for rank in range(2):
        env = dict(
            os.environ,
            RANK=str(rank),
            WORLD_SIZE="2",
            MASTER_ADDR="127.0.0.1",
            MASTER_PORT=port,
            PYTHONUNBUFFERED="1",
        )
        procs.append(
            subprocess.Popen(
                [sys.executable, str(RANKS), str(tmp_path / "uid")],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    outs = []
    try:
        for p in procs:
            outs.append(p.communicate(timeout=300)[0])
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    for rank, (p, out) in enumerate(zip(procs, outs)):
        assert p.returncode == 0, out
        assert f"rank {rank}: all-reduce over NCCL through torch.distributed" in out, out
