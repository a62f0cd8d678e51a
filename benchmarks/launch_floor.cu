// The driver's own cost of a launch, with nothing of usmarray's around it:
// cuLaunchKernel of an empty kernel from C, many times on one stream, one
// synchronization at the end.  It is the floor of every per-call row on
// the GPU (benchmarks/gpu_vs_peers.py).  tools/gpu_run.sh builds and runs it:
//   nvcc -O2 -o launch_floor benchmarks/launch_floor.cu -lcuda && ./launch_floor
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <time.h>

extern "C" __global__ void one_argument(float *p)
{
    if (p != nullptr && threadIdx.x == 1000) p[0] = 1;
}

// As many arguments as a reduction's launch passes.
extern "C" __global__ void fourteen_arguments(const char *a, char *b, const void *c, int d,
                                              long long e, long long f, long long g, long long h,
                                              int i, int j, const void *k, int l, long long m,
                                              int n)
{
    if (a != nullptr && threadIdx.x == 1000) b[0] = 1;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static double per_launch(CUfunction f, void **args, CUstream s, int n)
{
    double t = seconds();
    for (int i = 0; i < n; i++) cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, s, args, nullptr);
    cuStreamSynchronize(s);
    return (seconds() - t) / n * 1e6;
}

int main(void)
{
    float *p;
    cudaMalloc(&p, 1024);
    CUfunction f1, f14;
    if (cudaGetFuncBySymbol(&f1, (const void *)one_argument) != cudaSuccess ||
        cudaGetFuncBySymbol(&f14, (const void *)fourteen_arguments) != cudaSuccess) {
        fprintf(stderr, "no CUDA device\n");
        return 1;
    }
    CUstream s;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    long long L = 5;
    int I = 3;
    void *a1[] = {&p};
    void *a14[] = {&p, &p, &p, &I, &L, &L, &L, &L, &I, &I, &p, &I, &L, &I};
    per_launch(f1, a1, s, 10000);  // warm-up
    double best1 = 1e9, best14 = 1e9;
    for (int round = 0; round < 5; round++) {
        double t1 = per_launch(f1, a1, s, 100000), t14 = per_launch(f14, a14, s, 100000);
        best1 = t1 < best1 ? t1 : best1;
        best14 = t14 < best14 ? t14 : best14;
    }
    printf("cuLaunchKernel, 1 argument: %.2f us a launch (best of 5 rounds of 100,000)\n", best1);
    printf("cuLaunchKernel, 14 arguments: %.2f us a launch\n", best14);
    return 0;
}
