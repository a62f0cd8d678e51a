"""One launch of each copy kernel the GPU benchmark times, for Nsight
Compute: `ncu --kernel-name regex:ua_copy python benchmarks/ncu_kernels.py`
profiles them against the memory roofline (see tools/gpu_run.sh)."""

import numpy as np
import usmarray as ua

GPU = "cuda:gpu:0"


def main():
    q = ua.Queue(GPU)
    a = ua.asarray(np.ones((8192, 8192), np.float32), queue=q)
    p = ua.asarray(np.ones((64,) * 4, np.float32), queue=q)
    g = ua.asarray(np.ones((256,) * 3), queue=q)
    for _ in range(2):  # the first compiles, the second is profiled too
        a.T.copy()
        ua.permute_dims(p, (3, 1, 0, 2)).copy()
        g[::2, ::-1, 1::3].copy()
        a.astype("f8")
    q.wait()


if __name__ == "__main__":
    main()
