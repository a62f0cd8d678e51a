#!/usr/bin/env bash
# Builds usmarray on a GPU machine with meson alone (no meson-python), then
# runs the main job, the C tests, the GPU conformance table, the whole test
# suite twice (the GPU as the default device, then the host) and the GPU
# benchmark.  Logs and the benchmark's JSON go to $OUT.
#   bash tools/gpu_run.sh [pytest args for the GPU-default run]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/usmarray-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false
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
cp python/usmarray/*.py python/usmarray/*.pyi "$pkg/usmarray/"
ln -s "$build"/_usmarray*.so "$pkg/usmarray/"
export PYTHONPATH="$pkg"

echo "== main job"
python3 -m usmarray -f --self-check 2>&1 | tee "$OUT/main.txt" || status=1

echo "== C tests"
meson test -C "$build" --print-errorlogs >"$OUT/ctest.log" 2>&1 || status=1
grep -E "^(Ok|Fail):" "$OUT/ctest.log"

echo "== GPU conformance table"
python3 tools/conformance.py --gpu >"$OUT/conformance_gpu.md" 2>&1 || status=1
cat "$OUT/conformance_gpu.md"

# The README's test command with the GPU as the default device: the whole
# suite, the GPU tests included.
echo "== whole suite, default device $(env -u USMARRAY_DEVICE python3 -c 'import usmarray as ua; print(ua.Device().filter_string)')"
env -u USMARRAY_DEVICE python3 -m pytest -p no:cacheprovider -q -rs "$@" 2>&1 |
    tee "$OUT/gpu_default_tests.txt" | tail -40
[ "${PIPESTATUS[0]}" = 0 ] || status=1

if [ -z "${SKIP_HOST_SUITE:-}" ]; then
    echo "== whole suite, default device host (USMARRAY_DEVICE=host)"
    USMARRAY_DEVICE=host python3 -m pytest -p no:cacheprovider -q tests \
        --ignore=tests/test_cuda.py 2>&1 | tee "$OUT/host_tests.txt" | tail -8
    [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi

if [ -z "${SKIP_BENCH:-}" ]; then
    echo "== benchmark"
    python3 benchmarks/gpu_vs_peers.py --json "$OUT/gpu_vs_peers.json" 2>&1 |
        tee "$OUT/gpu_bench.txt" || status=1
fi
exit $status
