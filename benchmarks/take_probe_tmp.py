import numpy as np, cupy as cp, usmarray as ua, time, torch
q = ua.Queue("cuda:gpu:0")
n = 64 << 20
rng = np.random.default_rng(5)
a = rng.random(n, dtype=np.float32)
idx = rng.integers(0, n, 16 << 20)
X = ua.asarray(a, queue=q); I = ua.asarray(idx, queue=q)
C = cp.asarray(a); CI = cp.asarray(idx)
s = cp.cuda.ExternalStream(ua.empty(1, queue=q).__cuda_array_interface__["stream"])
def t(fn, stream, reps=10):
    for _ in range(3): fn()
    ts = []
    for _ in range(reps):
        e0, e1 = cp.cuda.Event(), cp.cuda.Event()
        e0.record(stream); fn(); e1.record(stream); e1.synchronize()
        ts.append(cp.cuda.get_elapsed_time(e0, e1))
    return sorted(ts)[len(ts)//2]
def wall(fn, reps=20):
    for _ in range(3): fn()
    t0 = time.perf_counter()
    for _ in range(reps): fn()
    cp.cuda.runtime.deviceSynchronize()
    return (time.perf_counter() - t0) / reps * 1e3
print("ua.take ms", t(lambda: ua.take(X, I), s), "wall", wall(lambda: ua.take(X, I)))
print("cp.take ms", t(lambda: cp.take(C, CI), cp.cuda.get_current_stream()), "wall", wall(lambda: cp.take(C, CI)))
Is = ua.asarray(np.sort(idx), queue=q)
print("ua.take sorted ms", t(lambda: ua.take(X, Is), s))
print("x[I] ms", t(lambda: X[I], s))
import time
def per_call(fn, n=300):
    for _ in range(20): fn()
    t0 = time.perf_counter()
    for _ in range(n): fn()
    return (time.perf_counter() - t0) / n * 1e6
Ismall = ua.asarray(idx[:1000], queue=q)
print("take 1000 us", per_call(lambda: ua.take(X, Ismall)))
print("empty 64MB us", per_call(lambda: ua.empty(16 << 20, dtype="f4", queue=q)))
print("copy 4KB us", per_call(lambda: Ismall.copy()))
Y = ua.empty(16 << 20, dtype="f4", queue=q)
print("copy 64MB event ms", t(lambda: X[: 16 << 20].copy(), s))
import cupy
print("cp take 1000 us", per_call(lambda: cp.take(C, CI[:1000])))
