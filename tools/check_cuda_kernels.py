#!/usr/bin/env python3
"""Compiles every elementwise kernel's CUDA C++ source with nvcc, where
there is no GPU, to catch what NVRTC would refuse at run time.

  python tools/check_cuda_kernels.py [--build build] [--jobs 2] [all|paths|fused|compute]

The sources come from the build's tests/c/ew_kernel_sources (meson with
-Dtests=true): "all" is every function with every computation type it
admits; "paths" every path of a few functions, with scalars, casts and
unaligned data; "fused" usmarray.fuse's expressions, and their values
reduced in the kernel.  "compute" takes tests/c/cuda_kernel_sources's instead:
every program of the CUDA backend's compute kernels (index, masks, the
GPU layer's fills, batched copies, reversals) and its copy kernels, built
to a cubin as NVRTC builds them, and the SYCL backend's compute program as
OpenCL C, checked by clang.  Exits 0 when every source compiles (or,
saying so, when there is no nvcc or clang)."""

import argparse
import concurrent.futures
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile


def nvcc():
    for path in (os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if path and os.path.exists(path):
            return path
    return None


def command(compiler, source, mode):
    if source.suffix == ".cl":
        clang = shutil.which(os.environ.get("CLANG", "clang"))
        if clang is None:
            return None
        return [clang, "-x", "cl", "-cl-std=CL2.0", "-Xclang", "-finclude-default-header",
                "-fsyntax-only", "-Werror=implicit-function-declaration", str(source)]  # fmt: skip
    # The compute programs to machine code, in C++14 as NVRTC builds them
    # (cuda_program.c's options; its -default-device, which nvcc lacks, is
    # moot: the texts mark every function __device__).
    output = ["-cubin", "-x", "cu"] if mode == "compute" else ["--ptx"]
    return [compiler, *output, "-arch=sm_90", "-std=c++14", "-diag-suppress", "550,177",
            "-o", os.devnull, str(source)]  # fmt: skip


def compile_one(compiler, source, mode):
    cmd = command(compiler, source, mode)
    if cmd is None:
        return source.name, 0, "skipped: no clang"
    result = subprocess.run(cmd, capture_output=True, text=True)
    return source.name, result.returncode, result.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "mode", nargs="?", default="all", choices=["all", "paths", "fused", "compute"]
    )
    parser.add_argument("--build", default="build")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="compile only sources whose name has this")
    args = parser.parse_args()
    compiler = nvcc()
    if compiler is None:
        print("no nvcc: skipped")
        return 0
    name = "cuda_kernel_sources" if args.mode == "compute" else "ew_kernel_sources"
    generator = pathlib.Path(args.build) / "tests" / "c" / name
    with tempfile.TemporaryDirectory() as tmp:
        extra = [] if args.mode == "compute" else [args.mode]
        subprocess.run([str(generator), tmp, *extra], check=True)
        sources = sorted(p for p in pathlib.Path(tmp).iterdir() if args.only in p.name)
        failed = 0
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for name, rc, err in pool.map(lambda s: compile_one(compiler, s, args.mode), sources):
                if rc != 0:
                    failed += 1
                    print(f"FAILED {name}\n{err[:3000]}")
        print(f"{len(sources) - failed} of {len(sources)} sources compile")
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
