#!/usr/bin/env bash
# Runs the atheris fuzzer of the Python entry points for $1 seconds (default
# 60) against the extension built with clang under ASan + UBSan and libFuzzer
# coverage, PYTHONMALLOC=malloc so that ASan sees freed Python objects.
# Needs clang, clang++ and libclang-rt-14-dev (or another clang's
# compiler-rt), and atheris, numpy and pytest in the running python.
# Extra arguments go to libFuzzer.  Findings are written to $FUZZ_ARTIFACTS
# (default: a new temporary directory).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
build=${FUZZ_BUILD:-build-atheris}
clang=$(command -v clang || command -v clang-14)
clangxx=$(command -v clang++ || command -v clang++-14)
rtdir=$("$clang" -print-runtime-dir 2>/dev/null || true)
[ -f "$rtdir/libclang_rt.asan-x86_64.a" ] ||
    rtdir=$(dirname "$("$clang" -print-file-name=libclang_rt.asan-x86_64.a)")
[ -f "$rtdir/libclang_rt.asan-x86_64.a" ] ||
    rtdir=$(ls -d /usr/lib/llvm-*/lib/clang/*/lib/linux | tail -1)

if [ ! -f "$build/build.ninja" ]; then
    CC="$clang" meson setup "$build" --buildtype=debug \
        -Db_sanitize=address,undefined -Db_lundef=false \
        "-Dc_args=-fsanitize=fuzzer-no-link -fno-sanitize-recover=all" >/dev/null
fi
ninja -C "$build" >/dev/null
build=$(cd "$build" && pwd)

# libFuzzer and the ASan runtime (UBSan's handlers come with it) in one
# preloaded library, so that the extension's coverage reaches libFuzzer.
runtime="$build/asan_with_fuzzer.so"
if [ ! -f "$runtime" ]; then
    work=$(mktemp -d)
    cp "$rtdir/libclang_rt.asan-x86_64.a" "$work/asan.a"
    ar d "$work/asan.a" asan_preinit.cpp.o
    "$clangxx" -shared -o "$runtime" -Wl,--whole-archive \
        "$rtdir/libclang_rt.fuzzer_no_main-x86_64.a" "$work/asan.a" \
        -Wl,--no-whole-archive -lpthread -ldl
    rm -rf "$work"
fi

pkg="$build/pkg"
rm -rf "$pkg" && mkdir -p "$pkg/usmarray"
cp python/usmarray/*.py python/usmarray/*.pyi "$pkg/usmarray/"
ln -s "$build"/_usmarray*.so "$pkg/usmarray/"

corpus=${FUZZ_CORPUS:-$(mktemp -d)}
artifacts=${FUZZ_ARTIFACTS:-$(mktemp -d)}
mkdir -p "$artifacts"
export PYTHONPATH="$pkg" USMARRAY_DEVICE=host LD_PRELOAD="$runtime" \
    PYTHONMALLOC=malloc UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:detect_odr_violation=0:max_allocation_size_mb=4096
python fuzz/python/fuzz_entry_points.py --write-seeds "$corpus"
python fuzz/python/fuzz_entry_points.py -max_total_time="$seconds" \
    -timeout=30 -rss_limit_mb=6000 -malloc_limit_mb=5000 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$@" "$corpus"
