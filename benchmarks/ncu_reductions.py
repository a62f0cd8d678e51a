"""Two launches of each reduction, scan and sort the GPU benchmark times,
for Nsight Compute: `ncu --kernel-name regex:"ua_(red|arg|scan|os)"
python benchmarks/ncu_reductions.py` shows each kernel's time, memory
throughput, registers and occupancy (tools/gpu_run.sh runs it with
NCU=1)."""

import numpy as np
import usmarray as ua

GPU = "cuda:gpu:0"


def main():
    q = ua.Queue(GPU)
    x = ua.asarray(np.random.default_rng(0).random(1 << 26, np.float32), queue=q)
    m = ua.reshape(x, (8192, 8192))
    s = x[: 1 << 24]
    for _ in range(2):  # the first compiles, the second is profiled too
        ua.sum(x)
        ua.max(x)
        ua.argmax(x)
        ua.sum(m, axis=1)
        ua.sum(m, axis=0)
        ua.cumulative_sum(s)
        ua.sort(s)
        ua.argsort(s)
    q.wait()


if __name__ == "__main__":
    main()
