"""How fast can any kernel gather 16 Mi random float32 elements by int64
indices out of 64 Mi on this GPU?  The ceiling of ``take``.

Times, with CUDA events after a warm-up, five hand-written gather kernels
(plain loads and stores; streaming cache hints on the indices and the
result; read-only loads of the source; eight loads in flight per thread
instead of four; an L2 evict-last policy on the source), each at three grid
sizes, beside ``ua.take``, ``torch.take`` and CuPy's ``take``, and the
plain kernel under each L2 fetch granularity the driver accepts.  GB/s
counts the index, the gathered element and the result once (16 bytes an
element), as ``benchmarks/gpu_vs_peers.py`` does.

    python benchmarks/gather_limits.py [--json FILE]
"""

import argparse
import json

import numpy as np
import usmarray as ua

try:
    import cupy as cp
except ImportError:  # pragma: no cover - the GPU machine has it
    cp = None
try:
    import torch
except ImportError:  # pragma: no cover
    torch = None

N, M = 64 << 20, 16 << 20
BYTES = M * (8 + 4 + 4)
L2_FETCH_GRANULARITY = 0x05  # cudaLimitMaxL2FetchGranularity

SOURCE = r"""
template <int ILP, int HINTS>
__device__ void gather(const float *x, const long long *idx, float *out, long long n) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long policy = 0;
  if (HINTS == 3) asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  for (; i + (ILP - 1) * stride < n; i += ILP * stride) {
    long long v[ILP];
    float r[ILP];
#pragma unroll
    for (int u = 0; u < ILP; u++) v[u] = HINTS ? __ldcs(idx + i + u * stride) : idx[i + u * stride];
#pragma unroll
    for (int u = 0; u < ILP; u++) {
      if (HINTS == 2) r[u] = __ldg(x + v[u]);
      else if (HINTS == 3)
        asm volatile("ld.global.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(r[u]) : "l"(x + v[u]), "l"(policy));
      else r[u] = x[v[u]];
    }
#pragma unroll
    for (int u = 0; u < ILP; u++) {
      if (HINTS) __stcs(out + i + u * stride, r[u]); else out[i + u * stride] = r[u];
    }
  }
  for (; i < n; i += stride) out[i] = x[idx[i]];
}
extern "C" __global__ void plain(const float *x, const long long *i, float *o, long long n) { gather<4, 0>(x, i, o, n); }
extern "C" __global__ void streaming(const float *x, const long long *i, float *o, long long n) { gather<4, 1>(x, i, o, n); }
extern "C" __global__ void read_only(const float *x, const long long *i, float *o, long long n) { gather<4, 2>(x, i, o, n); }
extern "C" __global__ void eight_in_flight(const float *x, const long long *i, float *o, long long n) { gather<8, 1>(x, i, o, n); }
extern "C" __global__ void evict_last(const float *x, const long long *i, float *o, long long n) { gather<4, 3>(x, i, o, n); }
"""


def event_gbps(fn, reps=20):
    fn()
    cp.cuda.Device().synchronize()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    end.synchronize()
    return BYTES / (cp.cuda.get_elapsed_time(start, end) / reps * 1e-3) / 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json")
    args = parser.parse_args()
    if cp is None:
        print("needs CuPy and a CUDA device")
        return
    rng = cp.random.default_rng(0)
    x = rng.random(N, dtype=cp.float32)
    idx = rng.integers(0, N, M, dtype=cp.int64)
    out = cp.empty(M, cp.float32)
    module = cp.RawModule(code=SOURCE, options=("-std=c++17",))
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    rows = []
    for name in ("plain", "streaming", "read_only", "eight_in_flight", "evict_last"):
        kernel = module.get_function(name)
        kernel((sms * 32,), (256,), (x, idx, out, np.int64(M)))
        assert bool((out == x[idx]).all()), name
        for blocks in (sms * 8, sms * 32, M // 1024):
            gbps = event_gbps(lambda: kernel((blocks,), (256,), (x, idx, out, np.int64(M))))
            rows.append({"what": f"kernel {name}, {blocks} blocks", "GB/s": gbps})
    ux, ui = ua.asarray(x), ua.asarray(idx)
    rows.append({"what": "ua.take", "GB/s": event_gbps(lambda: ua.take(ux, ui))})
    rows.append({"what": "cupy.take", "GB/s": event_gbps(lambda: cp.take(x, idx))})
    if torch is not None:
        tx, ti = torch.as_tensor(x, device="cuda"), torch.as_tensor(idx, device="cuda")
        rows.append({"what": "torch.take", "GB/s": event_gbps(lambda: torch.take(tx, ti))})
    plain = module.get_function("plain")
    runtime = cp.cuda.runtime
    before = runtime.deviceGetLimit(L2_FETCH_GRANULARITY)
    try:
        for granularity in (32, 64, 128):
            runtime.deviceSetLimit(L2_FETCH_GRANULARITY, granularity)
            gbps = event_gbps(lambda: plain((sms * 32,), (256,), (x, idx, out, np.int64(M))))
            rows.append(
                {"what": f"kernel plain, L2 fetch granularity {granularity} B", "GB/s": gbps}
            )
    finally:
        runtime.deviceSetLimit(L2_FETCH_GRANULARITY, before)
    for r in rows:
        print(f"{r['what']:<48} {r['GB/s']:8.1f} GB/s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), "rows": rows},
                f,
                indent=1,
            )


if __name__ == "__main__":
    main()
