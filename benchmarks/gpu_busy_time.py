"""The GPU time of the reductions that miss their targets, beside PyTorch
and CuPy, with and without the host's time to enqueue them.

    python benchmarks/gpu_busy_time.py

"plain" times a call between CUDA events on an idle stream, as
gpu_vs_peers.py does: the GPU waits while the host enqueues the call's
first launch.  "busy" puts a 1.5 ms spinning kernel on the stream first,
so the host enqueues the whole call while the GPU is busy and the events
time the GPU's work alone.  Medians of 20 calls, microseconds and GB/s
(bytes read and written; for sorts, 2 x 4 bytes a key)."""

import statistics
import warnings

import cupy as cp
import numpy as np
import torch
import usmarray as ua

SPIN = cp.RawKernel(
    r"""extern "C" __global__ void spin(long long n) {
        long long t0 = clock64();
        while (clock64() - t0 < n) {}
    }""",
    "spin",
)


def gpu_us(fn, stream, busy, reps=20):
    for _ in range(3):
        fn()
    times = []
    for _ in range(reps):
        if busy:
            with stream:
                SPIN((1,), (1,), (np.int64(3_000_000),))
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record(stream)
        fn()
        end.record(stream)
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) * 1e3)
    return statistics.median(times)


def external(handle):
    with warnings.catch_warnings():  # newer CuPy prefers Stream.from_external
        warnings.simplefilter("ignore", DeprecationWarning)
        return cp.cuda.ExternalStream(handle)


def main():
    q = ua.Queue("cuda:gpu:0")
    ours = external(ua.empty(1, queue=q).__cuda_array_interface__["stream"])
    torch_stream = external(torch.cuda.current_stream().cuda_stream)
    cupy_stream = cp.cuda.get_current_stream()
    a = np.random.default_rng(11).standard_normal(64 << 20, dtype=np.float32)
    m, s = a.reshape(8192, 8192), a[: 16 << 20]
    um, tm = ua.asarray(m, queue=q), torch.as_tensor(m, device="cuda")
    us, ts, cs = ua.asarray(s, queue=q), torch.as_tensor(s, device="cuda"), cp.asarray(s)
    rows = [
        ("sum(m, axis=0), 8192^2", m.nbytes, [
            ("usmarray", lambda: ua.sum(um, axis=0), ours),
            ("PyTorch", lambda: torch.sum(tm, dim=0), torch_stream)]),
        ("cumulative_sum, 16 Mi", 2 * s.nbytes, [
            ("usmarray", lambda: ua.cumulative_sum(us), ours),
            ("PyTorch", lambda: torch.cumsum(ts, 0), torch_stream)]),
        ("sort, 16 Mi", 2 * s.nbytes, [
            ("usmarray", lambda: ua.sort(us), ours),
            ("PyTorch", lambda: torch.sort(ts), torch_stream),
            ("CuPy", lambda: cp.sort(cs), cupy_stream)]),
        ("argsort, 16 Mi", 2 * s.nbytes, [
            ("usmarray", lambda: ua.argsort(us), ours),
            ("PyTorch", lambda: torch.argsort(ts, stable=True), torch_stream),
            ("CuPy", lambda: cp.argsort(cs), cupy_stream)]),
    ]  # fmt: skip
    print("| float32 | library | plain µs | plain GB/s | busy µs | busy GB/s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, nbytes, calls in rows:
        for lib, fn, stream in calls:
            plain, busy = gpu_us(fn, stream, False), gpu_us(fn, stream, True)
            print(f"| {name} | {lib} | {plain:.1f} | {nbytes / plain / 1e3:.0f} | "
                  f"{busy:.1f} | {nbytes / busy / 1e3:.0f} |", flush=True)  # fmt: skip
    q.wait()


if __name__ == "__main__":
    main()
