#!/usr/bin/env bash
# Builds usmarray on a GPU machine with meson alone (no meson-python), then
# runs the main job, the C tests, the GPU conformance table, the whole test
# suite twice (the GPU as the default device, then the host) and the GPU
# benchmark.  Logs and the benchmark's JSON go to $OUT.
#   bash tools/gpu_run.sh [pytest args for the GPU-default run]
#   MULTI_GPU=1 bash tools/gpu_run.sh   (two GPUs: peer copies, NCCL, MPI)
#   XDIST=12 bash tools/gpu_run.sh      (the suite in 12 processes)
#   BENCH=first_call bash tools/gpu_run.sh  (first calls in new processes)
#   BENCH=fuse bash tools/gpu_run.sh        (usmarray.fuse's kernels)
#   BENCH=fuse_first bash tools/gpu_run.sh  (their first calls, empty caches)
#   BENCH=lanes,dask bash tools/gpu_run.sh  (several parts, a comma list)
#   BENCH=rows bash tools/gpu_run.sh        (fused rows by their length)
#   BENCH=per_call bash tools/gpu_run.sh    (fused calls' cost on the host)
#   BENCH=table bash tools/gpu_run.sh       (the peer table, TABLE_RUNS runs)
#   PROFILE_SUITE=8 bash tools/gpu_run.sh   (where one process's time goes)
#   FIRST_PROCESS_STRESS=45 bash tools/gpu_run.sh  (new processes' first calls)
# It also runs the official Array API test suite with CUDA as the default
# device (tools/array_api_suite.sh, the expected failures of
# tests/array_api/xfails_devices.txt; SKIP_ARRAY_API=1 skips it,
# ARRAY_API_ONLY=1 builds and runs nothing else).  The GPU machine
# gets only the project's working tree and cannot download, so bring the
# suite and the wheels of its requirements in git-ignored folders that the
# run carries, prepared beside the project:
#   cp -r ../shared/array-api-tests .array-api-tests
#   python3 -m pip download -d wheels --only-binary=:all: --python-version 3.12 \
#       --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
#       --platform manylinux_2_28_x86_64 -c .ci/constraints.txt \
#       -r ../shared/array-api-tests/requirements.txt \
#       "dask[array]" distributed numexpr pytest-xdist
# (25 MiB; the clients' wheels, scikit-learn and SciPy above all, pass the
# 64 MiB a call carries, and their tests skip where they are missing.)
# The suite is taken from ../shared/array-api-tests where it exists, else
# from $ARRAY_API_TESTS_DIR (default .array-api-tests); the wheels from
# wheels/ (pip keeps what already satisfies the requirements).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/usmarray-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false
# NVLink multicast stays off: it can take a shared host's GPUs out of
# service.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
build=/tmp/usmarray-build
pkg=/tmp/usmarray-pkg
status=0

echo "== build"
if [ ! -d "$build" ]; then
    meson setup "$build" --buildtype=release -Dtests=true >"$OUT/build.log" 2>&1 ||
        { tail -40 "$OUT/build.log"; exit 1; }
fi
ninja -C "$build" >>"$OUT/build.log" 2>&1 || { grep -A5 error "$OUT/build.log" | head -60; exit 1; }
rm -rf "$pkg" && mkdir -p "$pkg/usmarray"
cp python/usmarray/*.py python/usmarray/*.pyi python/usmarray/*.pxd "$pkg/usmarray/"
ln -s "$build"/_usmarray*.so "$pkg/usmarray/"
export PYTHONPATH="$pkg"

# The official Array API test suite with CUDA as the default device.
array_api_suite() {
    echo "== Array API test suite (array-api-tests), default device cuda"
    suite=../shared/array-api-tests
    [ -d "$suite/array_api_tests" ] || suite=${ARRAY_API_TESTS_DIR:-.array-api-tests}
    if [ ! -d "$suite/array_api_tests" ]; then
        echo "no suite at ../shared/array-api-tests or $suite: see this file's header" |
            tee "$OUT/array_api_cuda.txt"
        status=1
    else
        # pip leaves what satisfies the requirements as it is.
        if [ -d wheels ]; then
            python3 -m pip install -q --no-index --find-links wheels -r "$suite/requirements.txt" ||
                python3 -m pip install -q --break-system-packages --no-index \
                    --find-links wheels -r "$suite/requirements.txt"
        fi
        start=$SECONDS
        USMARRAY_DEVICE=cuda ARRAY_API_TESTS_DIR="$suite" PYTHON=python3 \
            ARRAY_API_XFAILS=tests/array_api/xfails_devices.txt \
            bash tools/array_api_suite.sh -q -rfE --no-header >"$OUT/array_api_cuda.txt" 2>&1 ||
            status=1
        tail -n 30 "$OUT/array_api_cuda.txt"
        echo "array-api-tests 2025.12 on cuda: $((SECONDS - start)) s" |
            tee -a "$OUT/array_api_cuda.txt"
        # 2024.12: the devices' expected failures and the three lists that
        # 2025.12 made tuples.
        start=$SECONDS
        cat tests/array_api/xfails_devices.txt tests/array_api/xfails_2024.txt \
            >"$OUT/xfails_cuda_2024.txt"
        USMARRAY_DEVICE=cuda ARRAY_API_TESTS_DIR="$suite" PYTHON=python3 \
            ARRAY_API_TESTS_VERSION=2024.12 ARRAY_API_XFAILS="$OUT/xfails_cuda_2024.txt" \
            bash tools/array_api_suite.sh -q -rfE --no-header >"$OUT/array_api_cuda_2024.txt" 2>&1 ||
            status=1
        tail -n 5 "$OUT/array_api_cuda_2024.txt"
        echo "array-api-tests 2024.12 on cuda: $((SECONDS - start)) s" |
            tee -a "$OUT/array_api_cuda_2024.txt"
    fi
}

if [ -n "${ARRAY_API_ONLY:-}" ]; then
    array_api_suite
    exit $status
fi

if [ -n "${MULTI_GPU:-}" ]; then
    # Two GPUs: the peer-copy tests, the NCCL all-reduce, the MPI tests
    # with the GPU's host-accessible kinds, what a non-CUDA-aware MPI does
    # with a device array, and the peer benchmark rows.
    echo "== two-GPU tests"
    python3 -m pytest -p no:cacheprovider -q -rs tests/backends/test_multi_gpu.py \
        tests/interop/test_nccl.py tests/interop/test_mpi.py "$@" 2>&1 | tee "$OUT/multi_gpu_tests.txt" | tail -40
    [ "${PIPESTATUS[0]}" = 0 ] || status=1
    echo "== a CUDA device array through this machine's MPI"
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        OMPI_MCA_rmaps_base_oversubscribe=1 timeout 120 \
        mpiexec -n 2 python3 tools/mpi_device_probe.py >"$OUT/mpi_device_probe.txt" 2>&1
    echo "exit status $?" >>"$OUT/mpi_device_probe.txt"
    tail -20 "$OUT/mpi_device_probe.txt"
    echo "== peer benchmark"
    python3 benchmarks/gpu_vs_peers.py --peer-only --json "$OUT/gpu_peers.json" 2>&1 |
        tee "$OUT/gpu_peers.txt" || status=1
    exit $status
fi

# FIRST_PROCESS_STRESS=N: N new processes, 15 at once, each making its
# first elementwise calls on the GPU with an empty kernel cache of its own
# and exiting; a nonzero exit is printed with its threads' Python stacks
# (faulthandler; a hang is stopped by SIGABRT after 90 s).  One of 45 hung
# on 2026-12-04 (and a crash of the same script, once, in the suite).
# It runs first, on the machine as the call finds it (a fresh one: 5 of
# the first 15 processes crashed or hung at exit, 2026-12-04).
if [ -n "${FIRST_PROCESS_STRESS:-}" ]; then
    echo "== $FIRST_PROCESS_STRESS new processes' first calls, 15 at once"
    echo "native debuggers here: $(command -v gdb eu-stack pstack | tr '\n' ' ')"
    cat >/tmp/first_calls.py <<'PY'
import numpy as np
import usmarray as ua
x = ua.asarray(np.arange(100, dtype=np.float32), device="cuda:gpu:0")
ua.asnumpy(ua.exp(x) + x * 3.0 < x[::2].reshape(5, 10)[:, :1])
print("the script's calls returned; the process exits", flush=True)
PY
    rm -f /tmp/first_rcs.txt
    for i in $(seq 1 "$FIRST_PROCESS_STRESS"); do
        (rm -rf "/tmp/fc$i"
         USMARRAY_TRACE_COMPILE=1 USMARRAY_CACHE_DIR="/tmp/fc$i" timeout -s ABRT 90 python3 -X faulthandler \
             /tmp/first_calls.py >"/tmp/fc$i.txt" 2>&1
         echo "$i $?" >>/tmp/first_rcs.txt) &
        [ $((i % 15)) = 0 ] && wait
    done
    wait
    awk '$2 != 0' /tmp/first_rcs.txt | while read -r i rc; do
        echo "-- process $i: exit $rc"
        tail -60 "/tmp/fc$i.txt"
    done | tee "$OUT/first_process_stress.txt"
    echo "$(awk '$2 != 0' /tmp/first_rcs.txt | wc -l) of $FIRST_PROCESS_STRESS exited nonzero" |
        tee -a "$OUT/first_process_stress.txt"
fi
# ONLY_SUITE=1: the test run, ncu and benchmark alone (a short call).
if [ -z "${ONLY_SUITE:-}" ]; then
    echo "== main job"
    python3 -m usmarray -f --self-check 2>&1 | tee "$OUT/main.txt" || status=1

    echo "== C tests"
    meson test -C "$build" --print-errorlogs >"$OUT/ctest.log" 2>&1 || status=1
    grep -E "^(Ok|Fail):" "$OUT/ctest.log"

    echo "== GPU conformance table"
    python3 tools/conformance.py --gpu >"$OUT/conformance_gpu.md" 2>&1 || status=1
    cat "$OUT/conformance_gpu.md"
fi

# The README's test command with the GPU as the default device: the whole
# suite, the GPU tests included.
# Dask with distributed, and the clients (SciPy where the machine has it, scikit-learn,
# array-api-extra, array-api-strict, einops) from wheels/, for their tests
# on CUDA, each on its own so that one missing leaves the others; XDIST=N:
# the suite in N processes (pytest-xdist), whose kernels compile side by
# side: one process takes past 10 minutes.
extras=(dask distributed scikit-learn array-api-extra array-api-strict einops)
xdist=()
if [ -n "${XDIST:-}" ]; then
    extras+=(pytest-xdist)
    xdist=(-n "$XDIST")
fi
if [ -d wheels ]; then
    for extra in "${extras[@]}"; do
        python3 -m pip install -q --no-index --find-links wheels "$extra" 2>/dev/null ||
            python3 -m pip install -q --break-system-packages --no-index \
                --find-links wheels "$extra" 2>/dev/null ||
            echo "$extra: not installed (not in wheels/, or what it needs is not)"
    done
fi
# SKIP_SUITE=1: no test run (a benchmark-only call).
if [ -z "${SKIP_SUITE:-}" ]; then
    echo "== whole suite, default device $(env -u USMARRAY_DEVICE python3 -c 'import usmarray as ua; print(ua.Device().filter_string)')"
    start=$SECONDS
    # SUITE_LIMIT=S: the suite stopped after S seconds (the rest of the
    # call's parts still run).
    env -u USMARRAY_DEVICE timeout "${SUITE_LIMIT:-0}" \
        python3 -m pytest -p no:cacheprovider -q -rs "${xdist[@]}" "$@" 2>&1 |
        tee "$OUT/gpu_default_tests.txt" | tail -40
    [ "${PIPESTATUS[0]}" = 0 ] || status=1
    echo "whole suite: $((SECONDS - start)) s" | tee -a "$OUT/gpu_default_tests.txt"
fi

# PROFILE_SUITE=K: every K-th test of the whole suite in one process, the
# GPU the default device, each compile traced: where its time goes
# (tools/compile_profile.py; the log is $OUT/profile.log), from an empty
# kernel cache of its own.  PROFILE_WARM=1: the same tests again on the
# cache the first pass filled ($OUT/profile_warm.log), the suite's time
# without its compiles.
profile_pass() {
    start=$SECONDS
    env -u USMARRAY_DEVICE PYTHONPATH="tools:$PYTHONPATH" USMARRAY_TRACE_COMPILE=1 \
        USMARRAY_CACHE_DIR=/tmp/usmarray-profile-cache \
        USMARRAY_TEST_SAMPLE="$PROFILE_SUITE" timeout "${PROFILE_LIMIT:-400}" \
        python3 -m pytest -p no:cacheprovider -p compile_profile -v -s tests 2>&1 |
        grep --line-buffered -v ', launch [0-9.]* ms$\|: a temporary of\|: an upload of' |
        python3 tools/compile_profile.py stamp >"$OUT/$1.log"
    echo "$1: $((SECONDS - start)) s"
    grep -a "passed\|failed" "$OUT/$1.log" | tail -2
    python3 tools/compile_profile.py summary "$OUT/$1.log"
}
if [ -n "${PROFILE_SUITE:-}" ]; then
    echo "== one process, every ${PROFILE_SUITE}th test, compiles traced"
    rm -rf /tmp/usmarray-profile-cache
    profile_pass profile
    if [ -n "${PROFILE_WARM:-}" ]; then
        echo "== the same tests again, the kernel cache warm"
        profile_pass profile_warm
    fi
fi
if [ -z "${SKIP_ARRAY_API:-}" ]; then
    array_api_suite
fi

if [ -z "${SKIP_HOST_SUITE:-}" ]; then
    echo "== whole suite, default device host (USMARRAY_DEVICE=host)"
    USMARRAY_DEVICE=host python3 -m pytest -p no:cacheprovider -q tests \
        --ignore=tests/backends/test_cuda.py 2>&1 | tee "$OUT/host_tests.txt" | tail -8
    [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi

# NCU=1: Nsight Compute on the copy kernels and on the reductions and
# scans; NCU=reductions: on these alone.
if [ -n "${NCU:-}" ] && [ "${NCU}" != sort ] && [ "${NCU}" != fuse ] && command -v ncu >/dev/null; then
    if [ "$NCU" != reductions ]; then
        echo "== ncu: the copy kernels against the memory roofline"
        ncu --clock-control none --kernel-name regex:ua_copy --launch-skip 4 \
            --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
            python3 benchmarks/ncu_kernels.py >"$OUT/ncu.txt" 2>&1 || status=1
        grep -E "ua_copy|duration|dram__|sm__|l1tex" "$OUT/ncu.txt" | head -60
    fi
    echo "== ncu: the reductions and scans"
    ncu --clock-control none --kernel-name regex:"ua_(red|arg|scan)" \
        --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,smsp__inst_executed.sum \
        python3 benchmarks/ncu_reductions.py >"$OUT/ncu_reductions.txt" 2>&1 || status=1
    grep -E "ua_|duration|dram__|sm__|launch__|inst" "$OUT/ncu_reductions.txt" | head -120
fi

# NCU=fuse: where the time of the fused rows short of their limit and of
# the column sum goes (their warps' stalls, occupancy and memory).
if [ "${NCU:-}" = fuse ] && command -v ncu >/dev/null; then
    echo "== ncu: fused softmax, log softmax, variance; sum(m, axis=0)"
    ncu --clock-control none --kernel-name regex:"ua_(ew|red)" --launch-skip 0 \
        --section SpeedOfLight --section Occupancy --section WarpStateStats \
        --section LaunchStats --section MemoryWorkloadAnalysis \
        --section ComputeWorkloadAnalysis --section InstructionStats \
        --metrics sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
        python3 benchmarks/ncu_fuse.py >"$OUT/ncu_fuse.txt" 2>&1 || status=1
    grep -E "ua_|Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Shared Memory Config|Block Size|Grid Size|Stall|Warp Cycles|Block Limit|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|pipe_|inst_executed|Executed Ipc|Issue Slots" \
        "$OUT/ncu_fuse.txt" | head -300
fi

# NCU=sort: where the time of the sort's and the scan's kernels goes (their
# warps' stalls and occupancy).
if [ "${NCU:-}" = sort ] && command -v ncu >/dev/null; then
    echo "== ncu: the radix sort and the scan"
    ncu --clock-control none --kernel-name regex:"ua_(os|scan)" --launch-skip 11 --launch-count 11 \
        --section SpeedOfLight --section Occupancy --section WarpStateStats \
        --section LaunchStats python3 benchmarks/ncu_reductions.py >"$OUT/ncu_sort.txt" 2>&1 ||
        status=1
    grep -E "ua_|Duration|Throughput|Achieved Occupancy|Theoretical Occupancy|Registers|Stall|Warp Cycles|Block Limit" \
        "$OUT/ncu_sort.txt" | head -150
fi

# The sort's kernels beside CUB's, built by nvcc, without the library around them.
sort_vs_cub() {
    echo "== the one-sweep sort's kernels beside CUB's DeviceRadixSort"
    nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/sort_vs_cub benchmarks/cuda_sort_vs_cub.cu &&
        /tmp/sort_vs_cub 2>&1 | tee "$OUT/sort_vs_cub.txt" || status=1
}

launch_floor() {
    echo "== the driver's cost of a launch, the floor of the per-call rows"
    nvcc -O2 -o /tmp/launch_floor benchmarks/launch_floor.cu -lcuda &&
        /tmp/launch_floor 2>&1 | tee "$OUT/launch_floor.txt"
}

# Whether BENCH (a comma list) names the part $1, and SKIP_BENCH is unset.
bench() {
    [ -z "${SKIP_BENCH:-}" ] && case ",${BENCH:-}," in *",$1,"*) return 0 ;; esac
    return 1
}

# BENCH=linalg: the linalg and fft rows alone; BENCH=reductions: the
# reductions, scans, sorts and products alone, and the sort's kernels
# beside CUB's.
if bench reductions; then
    launch_floor
    sort_vs_cub
    echo "== benchmark: reductions, scans, sorts and products"
    python3 benchmarks/gpu_vs_peers.py --reductions-only --json "$OUT/gpu_reductions.json" 2>&1 |
        tee "$OUT/gpu_bench.txt" || status=1
    # The GPU's own time of the rows that miss, without the host's.
    python3 benchmarks/gpu_busy_time.py 2>&1 | tee "$OUT/gpu_busy_time.txt" || status=1
fi
# BENCH=first_call: the first call of common operations in new
# processes, with an empty and a warm kernel cache, beside CuPy and
# PyTorch; each program's compile time in first_call_trace.txt.
# FIRST_CALL_ONLY=1: the new processes' table alone.
if bench first_call && [ -z "${FIRST_CALL_ONLY:-}" ]; then
    echo "== NVRTC per program on this machine's CPU"
    python3 benchmarks/nvrtc_cost.py --build "$build" 2>&1 | tee "$OUT/nvrtc_cost.txt" || status=1
    echo "== NVRTC: each program's first compile in a new process"
    python3 benchmarks/nvrtc_cost.py --build "$build" --first 2>&1 | tee -a "$OUT/nvrtc_cost.txt" ||
        status=1
    echo "== first calls one after another in one process"
    USMARRAY_TRACE_COMPILE=1 python3 benchmarks/first_call.py --sequence 2>&1 |
        tee "$OUT/first_call_sequence.txt" || status=1
fi
if bench first_call; then
    echo "== benchmark: first calls in new processes"
    # FIRST_CALL_LIBS: some of usmarray,cupy,torch (default all three).
    USMARRAY_TRACE_COMPILE=1 python3 benchmarks/first_call.py --json "$OUT/first_call.json" \
        ${FIRST_CALL_LIBS:+--libs "$FIRST_CALL_LIBS"} \
        2>"$OUT/first_call_trace.txt" | tee "$OUT/first_call.txt" || status=1
    # The cache filled ahead (python -m usmarray --compile-kernels), then
    # the first calls.
    [ -n "${SKIP_AHEAD:-}${FIRST_CALL_ONLY:-}" ] ||
        python3 benchmarks/first_call.py --ahead --json "$OUT/first_call_ahead.json" \
            2>"$OUT/first_call_ahead_trace.txt" | tee "$OUT/first_call_ahead.txt" || status=1
    # Where a warm-cache first elementwise call spends its time.
    [ -n "${FIRST_CALL_ONLY:-}" ] ||
        USMARRAY_TRACE_COMPILE=1 python3 benchmarks/first_call.py --phases \
            2>"$OUT/first_call_phases_trace.txt" | tee "$OUT/first_call_phases.txt" || status=1
fi
# BENCH=per_call: the fused per-call rows and the launch floor, once for
# each setting of PER_CALL_SWEEP (a space list of VAR=value[,VAR=value],
# "default" for none).
if bench per_call; then
    launch_floor
    echo "== fused calls on 1,000 elements, per call"
    for setting in ${PER_CALL_SWEEP:-default}; do
        echo "-- $setting" | tee -a "$OUT/per_call.txt"
        [ "$setting" = default ] && setting=USMARRAY_ROWS_DEFAULT=1
        env ${setting//,/ } python3 benchmarks/fuse_gpu.py --per-call 2>&1 |
            tee -a "$OUT/per_call.txt" || status=1
    done
fi
# BENCH=fuse: usmarray.fuse's kernels beside the eager calls, CuPy and
# PyTorch (FUSE_ARGS: --compile for torch.compile too).
if bench fuse; then
    echo "== benchmark: fused expressions"
    python3 benchmarks/fuse_gpu.py ${FUSE_ARGS:-} --json "$OUT/fuse_gpu.json" 2>&1 |
        tee "$OUT/fuse_gpu.txt" || status=1
fi
# BENCH=fuse_first: each fused expression's first call in a new process
# with an empty kernel cache, beside torch.compile's.
if bench fuse_first; then
    echo "== benchmark: fused expressions' first calls"
    python3 benchmarks/fuse_gpu.py --first-calls ${FUSE_ARGS:-} --json "$OUT/fuse_first.json" 2>&1 |
        tee "$OUT/fuse_first.txt" || status=1
fi
# BENCH=rows: fused softmax and row norms by their rows' length beside
# PyTorch's kernels, once for each setting of ROW_SWEEP (a space list of
# VAR=value, "default" for none): by default as usmarray runs them (short
# rows a warp each) and with a group a row (USMARRAY_WARP_ROWS=0).
if bench rows; then
    echo "== fused rows by their length"
    lengths=${ROW_LENGTHS:-32,128,256,512,1024,2048,4096,8192}
    for setting in ${ROW_SWEEP:-default USMARRAY_WARP_ROWS=0}; do
        echo "-- $setting" | tee -a "$OUT/rows.txt"
        [ "$setting" = default ] && setting=USMARRAY_ROWS_DEFAULT=1
        env "$setting" python3 benchmarks/fuse_gpu.py --softmax-rows "$lengths" 2>&1 |
            tee -a "$OUT/rows.txt" || status=1
    done
fi
# BENCH=lanes: the strided reductions' split swept (USMARRAY_GPU_LANE_BYTES).
if bench lanes; then
    echo "== the strided reductions' lanes, swept beside PyTorch"
    python3 benchmarks/lanes_sweep.py ${LANES_MIB:---mib 8 32 128 512} --json "$OUT/lanes_sweep.json" 2>&1 |
        tee "$OUT/lanes_sweep.txt" || status=1
fi
# BENCH=dask: Dask arrays of usmarray chunks beside CuPy's on distributed
# workers (each worker on the one GPU where there is one).
if bench dask; then
    echo "== Dask on distributed workers"
    timeout 150 python3 benchmarks/dask_distributed.py --backend cuda ${DASK_ARGS:-} \
        --json "$OUT/dask_distributed.json" 2>&1 | tee "$OUT/dask_distributed.txt" || status=1
fi
# BENCH=table: the peer table alone, TABLE_RUNS times (default 3), each
# value the median of the runs'.
if bench table; then
    echo "== benchmark: the peer table, ${TABLE_RUNS:-3} runs"
    python3 benchmarks/gpu_vs_peers.py --runs "${TABLE_RUNS:-3}" --json "$OUT/gpu_vs_peers.json" 2>&1 |
        tee "$OUT/gpu_bench.txt" || status=1
fi
if [ -z "${SKIP_BENCH:-}" ] && [ -z "${BENCH:-}" ]; then
    launch_floor
    echo "== benchmark"
    python3 benchmarks/dlpack_streams.py 2>&1 | tee "$OUT/dlpack_streams.txt"
    # BENCH_ARGS: a part of the table (--reductions-only, --elementwise-only).
    python3 benchmarks/gpu_vs_peers.py ${BENCH_ARGS:-} --json "$OUT/gpu_vs_peers.json" 2>&1 |
        tee "$OUT/gpu_bench.txt" || status=1
    # The ceiling of take: the fastest gather kernels this GPU runs.
    python3 benchmarks/gather_limits.py --json "$OUT/gather_limits.json" 2>&1 |
        tee "$OUT/gather_limits.txt" || status=1
fi
if [ -z "${SKIP_BENCH:-}" ] && [ -z "${BENCH:-}" ] || bench linalg; then
    echo "== linalg and fft beside CuPy and PyTorch"
    python3 benchmarks/gpu_linalg_fft.py --json "$OUT/gpu_linalg_fft.json" 2>&1 |
        tee "$OUT/gpu_linalg_fft.txt" || status=1
fi
exit $status
