// The CUDA one-sweep radix sort's kernels (src/backends/cuda/cuda_sort_kernels.inc,
// built here by nvcc rather than NVRTC) beside CUB's DeviceRadixSort, the
// sort under CuPy's, on the same 16 Mi float32 keys in one process: CUDA
// events after warm-up, the median of 20 sorts, each pass timed apart, and
// the keys compared bit for bit with CUB's.  Nothing of the library's
// Python or planning is around the kernels, so the rows say how the
// kernels alone compare.  tools/gpu_run.sh builds and runs it (BENCH=reductions):
//   nvcc -O3 -std=c++17 -arch=sm_90 -o sort_vs_cub benchmarks/cuda_sort_vs_cub.cu && ./sort_vs_cub
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "../src/backends/cuda/cuda_sort_kernels.inc"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                      \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static const long long N = 16 << 20;
static const int REPS = 20, WARM = 2, TILE = 4096, CHUNK = 16384, PASSES = 4;

static float elapsed_us(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    return ms * 1000;
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// CUB's sort of the keys into out: the median time of a call.
static double cub_sort(const float *keys, float *out)
{
    size_t bytes = 0;
    cub::DeviceRadixSort::SortKeys(nullptr, bytes, keys, out, (int)N);
    void *temp;
    CHECK(cudaMalloc(&temp, bytes));
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<double> t;
    for (int r = 0; r < REPS + WARM; r++) {
        cudaEventRecord(a);
        cub::DeviceRadixSort::SortKeys(temp, bytes, keys, out, (int)N);
        cudaEventRecord(b);
        CHECK(cudaEventSynchronize(b));
        if (r >= WARM) t.push_back(elapsed_us(a, b));
    }
    cudaFree(temp);
    return median(t);
}

// The library's kernels, as cuda_sort.c launches them for one row of
// float32 (kind 2, ascending): the counts zeroed, the histogram, then a
// pass each (the tiles' counts zeroed before each but the first).  The
// keys end in out; hist_us and pass_us get the medians of each launch.
static double onesweep_sort(const unsigned *keys, unsigned *out, unsigned *other,
                            double *hist_us, double pass_us[PASSES])
{
    int tiles = (int)((N + TILE - 1) / TILE), chunks = (int)((N + CHUNK - 1) / CHUNK);
    size_t nstatus = (size_t)tiles * 256, words = nstatus + PASSES * 256 + PASSES;
    unsigned *status;
    CHECK(cudaMalloc(&status, words * 4));
    unsigned *hist = status + nstatus, *counters = hist + PASSES * 256;
    cudaEvent_t ev[PASSES + 2];
    for (auto &e : ev) cudaEventCreate(&e);
    std::vector<double> total, h, p[PASSES];
    for (int r = 0; r < REPS + WARM; r++) {
        cudaEventRecord(ev[0]);
        cudaMemsetAsync(status, 0, words * 4);
        ua_os_hist_32<<<chunks, OS_THREADS>>>(keys, hist, N, chunks, CHUNK, PASSES, 2, 0);
        cudaEventRecord(ev[1]);
        const unsigned *in = keys;
        unsigned *bufs[2] = {out, other};
        for (int pass = 0; pass < PASSES; pass++) {
            if (pass > 0) cudaMemsetAsync(status, 0, nstatus * 4);
            unsigned *o = bufs[(pass + 1) & 1];
            ua_os_pass_32<<<tiles, OS_THREADS>>>(in, o, nullptr, nullptr, nullptr, status, hist,
                                                 counters + pass, N, tiles, pass, PASSES, 2, 0, 0);
            cudaEventRecord(ev[pass + 2]);
            in = o;
        }
        CHECK(cudaEventSynchronize(ev[PASSES + 1]));
        CHECK(cudaGetLastError());
        if (r < WARM) continue;
        total.push_back(elapsed_us(ev[0], ev[PASSES + 1]));
        h.push_back(elapsed_us(ev[0], ev[1]));
        for (int pass = 0; pass < PASSES; pass++) {
            p[pass].push_back(elapsed_us(ev[pass + 1], ev[pass + 2]));
        }
    }
    cudaFree(status);
    *hist_us = median(h);
    for (int pass = 0; pass < PASSES; pass++) pass_us[pass] = median(p[pass]);
    return median(total);
}

int main()
{
    std::vector<float> h(N);
    std::mt19937 gen(5);
    std::normal_distribution<float> normal;
    for (auto &x : h) x = normal(gen);
    float *keys, *cub_out;
    unsigned *out, *other;
    CHECK(cudaMalloc(&keys, N * 4));
    CHECK(cudaMalloc(&cub_out, N * 4));
    CHECK(cudaMalloc(&out, N * 4));
    CHECK(cudaMalloc(&other, N * 4));
    CHECK(cudaMemcpy(keys, h.data(), N * 4, cudaMemcpyHostToDevice));
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);

    double cub = cub_sort(keys, cub_out);
    double hist, pass[PASSES];
    double ours = onesweep_sort((const unsigned *)keys, out, other, &hist, pass);
    std::vector<unsigned> a(N), b(N);
    CHECK(cudaMemcpy(a.data(), out, N * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(b.data(), cub_out, N * 4, cudaMemcpyDeviceToHost));
    bool same = memcmp(a.data(), b.data(), N * 4) == 0;

    printf("device: %s; 16 Mi float32, standard normal; median of %d sorts\n", prop.name, REPS);
    printf("| kernels | us | Gkeys/s | vs CUB |\n| --- | --- | --- | --- |\n");
    printf("| CUB DeviceRadixSort::SortKeys | %.1f | %.2f | 1.00 |\n", cub, N / cub / 1e3);
    printf("| one-sweep (cuda_sort_kernels.inc) | %.1f | %.2f | %.3f |\n", ours, N / ours / 1e3,
           cub / ours);
    printf("counts zeroed and histogram %.1f us; passes %.1f, %.1f, %.1f, %.1f us\n", hist,
           pass[0], pass[1], pass[2], pass[3]);
    printf("keys %s CUB's bit for bit\n", same ? "equal" : "DIFFER FROM");
    return same ? 0 : 1;
}
