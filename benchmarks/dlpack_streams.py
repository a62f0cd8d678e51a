"""What a DLPack import from PyTorch and CuPy costs, by the stream handed to
the producer: the legacy default stream (1, what both use by default), the
queue's own non-blocking stream, or none (-1, no ordering); then PyTorch's
current-stream query and from_dlpack of a tensor while PyTorch's current
stream is a side stream (our queue then waits for it by an event).  The
choices in README.md ("Streams") rest on these numbers.

    python benchmarks/dlpack_streams.py
"""

import timeit

import cupy as cp
import torch
import usmarray as ua


def us(fn, n=5000):
    for _ in range(n // 10):
        fn()
    return min(timeit.repeat(fn, number=n, repeat=5)) / n * 1e6


def main():
    q = ua.Queue("cuda:gpu:0")
    ours = ua.empty(1, queue=q).__cuda_array_interface__["stream"]
    t = torch.empty((1000, 1000), device="cuda")
    c = cp.empty((1000, 1000), dtype=cp.float32)
    for name, x in (("PyTorch", t), ("CuPy", c)):
        for label, s in (
            ("legacy default stream (1)", 1),
            ("our queue's stream", ours),
            ("no ordering (-1)", -1),
        ):
            print(
                f"{name} __dlpack__(stream={label}): "
                f"{us(lambda: x.__dlpack__(stream=s, max_version=(1, 0))):.2f} us"
            )
        print(f"{name} __dlpack_device__(): {us(x.__dlpack_device__):.2f} us")
        print(f"{name} ua.from_dlpack(x): {us(lambda: ua.from_dlpack(x)):.2f} us")
        cap = x.__dlpack__(stream=-1, max_version=(1, 0))
        del cap
    raw = torch._C._cuda_getCurrentRawStream
    print(f"torch._C._cuda_getCurrentRawStream(0): {us(lambda: raw(0)):.2f} us")
    print(f"torch.cuda.current_stream(): {us(torch.cuda.current_stream):.2f} us")
    with torch.cuda.stream(torch.cuda.Stream()):
        print(
            f"PyTorch ua.from_dlpack(x), its current stream a side one: "
            f"{us(lambda: ua.from_dlpack(t)):.2f} us"
        )
    print(
        f"ua.from_dlpack(capsule) alone: "
        f"{us(lambda: ua.from_dlpack(t.__dlpack__(stream=-1, max_version=(1, 0)))) - us(lambda: t.__dlpack__(stream=-1, max_version=(1, 0))):.2f} us"
    )


if __name__ == "__main__":
    main()
