#!/usr/bin/env python3
"""Compiles every reduction program's source (the reductions, scans,
sorts, searches, groups and products of the CUDA and SYCL backends, and
the CUDA backend's radix sort) where
there is no GPU, to catch what NVRTC or an OpenCL runtime would refuse at
run time: the CUDA C++ with nvcc, the OpenCL C with clang.

  python tools/check_reduce_kernels.py [--build build] [--jobs 2]

The sources come from the build's tests/c/reduce_kernel_sources (meson
with -Dtests=true).  Exits 0 when every source compiles (saying which
compiler was missing, if one was)."""

import argparse
import concurrent.futures
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile


def find(env, name, fallback):
    for path in (os.environ.get(env), shutil.which(name), fallback):
        if path and os.path.exists(path):
            return path
    return None


def command(source, nvcc, clang):
    if source.suffix == ".cu":
        if nvcc is None:
            return None
        return [nvcc, "--ptx", "-arch=sm_90", "-std=c++14", "-diag-suppress", "550,177",
                "-diag-error", "1835",  # NVRTC refuses what nvcc only warns of
                "-o", os.devnull, str(source)]  # fmt: skip
    if clang is None:
        return None
    return [clang, "-x", "cl", "-cl-std=CL2.0", "-Xclang", "-finclude-default-header",
            "-fsyntax-only", "-Werror=implicit-function-declaration", str(source)]  # fmt: skip


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    nvcc = find("NVCC", "nvcc", "/usr/local/cuda/bin/nvcc")
    clang = find("CLANG", "clang", None)
    for name, path in (("nvcc", nvcc), ("clang", clang)):
        if path is None:
            print(f"no {name}: its sources skipped")
    generator = pathlib.Path(args.build) / "tests" / "c" / "reduce_kernel_sources"
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([str(generator), tmp], check=True)
        sources = sorted(pathlib.Path(tmp).iterdir())
        # The CUDA backend's own kernel text (its radix sort), as NVRTC
        # compiles it.
        sort = pathlib.Path(tmp) / "cuda_sort_kernels.cu"
        sort.write_text((pathlib.Path(__file__).parent.parent / "src" / "backends" / "cuda"
                         / "cuda_sort_kernels.inc").read_text())  # fmt: skip
        jobs = [(s, command(s, nvcc, clang)) for s in sources + [sort]]
        jobs = [(s, c) for s, c in jobs if c is not None]

        def run(job):
            r = subprocess.run(job[1], capture_output=True, text=True)
            return job[0].name, r.returncode, r.stderr

        failed = 0
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for name, rc, err in pool.map(run, jobs):
                if rc != 0:
                    failed += 1
                    print(f"FAILED {name}\n{err[:3000]}")
        print(f"{len(jobs) - failed} of {len(jobs)} sources compile")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
