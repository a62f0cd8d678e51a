#!/usr/bin/env python3
"""Compiles every elementwise kernel's CUDA C++ source with nvcc, where
there is no GPU, to catch what NVRTC would refuse at run time.

  python tools/check_cuda_kernels.py [--build build] [--jobs 2] [all|paths]

The sources come from the build's tests/c/ew_kernel_sources (meson with
-Dtests=true): "all" is every function with every computation type it
admits; "paths" every path of a few functions, with scalars, casts and
unaligned data.  Exits 0 when every source compiles (or, saying so, when
there is no nvcc)."""

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


def compile_one(compiler, source):
    result = subprocess.run(
        [compiler, "--ptx", "-arch=sm_90", "-std=c++14", "-diag-suppress", "550,177",
         "-o", os.devnull, str(source)],
        capture_output=True, text=True,
    )  # fmt: skip
    return source.name, result.returncode, result.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", nargs="?", default="all", choices=["all", "paths"])
    parser.add_argument("--build", default="build")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="compile only sources whose name has this")
    args = parser.parse_args()
    compiler = nvcc()
    if compiler is None:
        print("no nvcc: skipped")
        return 0
    generator = pathlib.Path(args.build) / "tests" / "c" / "ew_kernel_sources"
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([str(generator), tmp, args.mode], check=True)
        sources = sorted(p for p in pathlib.Path(tmp).iterdir() if args.only in p.name)
        failed = 0
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for name, rc, err in pool.map(lambda s: compile_one(compiler, s), sources):
                if rc != 0:
                    failed += 1
                    print(f"FAILED {name}\n{err[:3000]}")
        print(f"{len(sources) - failed} of {len(sources)} sources compile")
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
