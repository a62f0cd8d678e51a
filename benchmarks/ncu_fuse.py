"""Two calls of each fused row the GPU's fuse table misses its limit on
(softmax, log softmax and the variance of 64 Mi float32) and of the column
sum of the peer table, for Nsight Compute: `ncu --kernel-name
regex:"ua_(ew|red)" python benchmarks/ncu_fuse.py` shows where each
kernel's time goes (tools/gpu_run.sh runs it with NCU=fuse)."""

import numpy as np
import usmarray as ua

GPU = "cuda:gpu:0"


@ua.fuse
def softmax(m):
    e = ua.exp(m - ua.max(m, axis=1, keepdims=True))
    return e / ua.sum(e, axis=1, keepdims=True)


@ua.fuse
def log_softmax(m):
    shifted = m - ua.max(m, axis=1, keepdims=True)
    return shifted - ua.log(ua.sum(ua.exp(shifted), axis=1, keepdims=True))


@ua.fuse
def variance(x):
    return ua.mean((x - ua.mean(x)) ** 2)


def main():
    q = ua.Queue(GPU)
    x = ua.asarray(np.random.default_rng(0).random(1 << 26, np.float32), queue=q)
    m = ua.reshape(x, (8192, 8192))
    for _ in range(2):  # the first compiles, the second is profiled too
        softmax(m)
        log_softmax(m)
        variance(x)
        ua.sum(m, axis=0)
    q.wait()


if __name__ == "__main__":
    main()
