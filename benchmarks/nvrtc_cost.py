"""NVRTC's time per program of the CUDA backend, under several sets of
compile options, without a GPU: where the first call's time goes, and what
an option would save.

The programs are the ones the build's source writers produce
(tests/c/{ew,reduce,cuda}_kernel_sources, meson -Dtests=true); each is
compiled to a CUBIN for one architecture, as the backend compiles it, the
best of --repeat compiles after one compile that loads NVRTC's builtins;
a separate process times the first compile of an empty kernel, which is
what every new process pays once.

    python benchmarks/nvrtc_cost.py --build build [--arch sm_90] \
        [--nvrtc /path/libnvrtc.so.13] [--json PATH] [PROGRAM-NAME ...]
"""

import argparse
import ctypes
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

# The programs whose first use a user meets first; a name is a file of a
# writer's directory, without .cu.
DEFAULT_PROGRAMS = [
    "ew/add_float32_0032",
    "ew/exp_float32_0179",
    "red/kernel_ua_red_dense_float32_float32",
    "red/kernel_ua_arg_dense_float32_float32",
    "red/kernel_ua_scan_tiles_float32_float32",
    "red/kernel_ua_radix_hist_float32_float32",
    "red/kernel_ua_radix_scatter_float32_float32",
    "red/kernel_ua_group_float32_float32",
    "cu/45_mask_count_kernels",
    "cu/49_compress_kernel_ua_compress_8",
    "cu/copy_float32_float32_aligned_0",
]

BASE = ["--std=c++14", "-default-device"]
OPTION_SETS = {
    "without -minimal": [],
    "-minimal": ["-minimal"],
    "-minimal, fast mid": ["-minimal", "--Ofast-compile=mid"],
    "-minimal, fast max": ["-minimal", "--Ofast-compile=max"],
}

EMPTY = 'extern "C" __global__ void k(float *p) { p[threadIdx.x] = 1.0f; }'


def load_nvrtc(path):
    names = [path] if path else ["libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"]
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    sys.exit(f"no NVRTC among {names}: pass --nvrtc")


def compile_ms(lib, source, options):
    """Milliseconds of nvrtcCreateProgram..nvrtcGetCUBIN, or None with
    NVRTC's complaint when it refuses the options or the source."""
    prog = ctypes.c_void_p()
    t0 = time.perf_counter()
    lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"p.cu", 0, None, None)
    opts = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
    r = lib.nvrtcCompileProgram(prog, len(options), opts)
    size = ctypes.c_size_t()
    ok = r == 0 and lib.nvrtcGetCUBINSize(prog, ctypes.byref(size)) == 0
    if ok:
        image = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetCUBIN(prog, image)
    ms = (time.perf_counter() - t0) * 1e3
    lib.nvrtcDestroyProgram(ctypes.byref(prog))
    return ms if ok else None


def write_sources(build, into):
    for writer in ("ew", "red", "cu"):
        tool = {"ew": "ew", "red": "reduce", "cu": "cuda"}[writer]
        out = into / writer
        out.mkdir()
        subprocess.run(
            [str(build / "tests" / "c" / f"{tool}_kernel_sources"), str(out)],
            check=True,
            stdout=subprocess.DEVNULL,
        )


def first_compile_ms(nvrtc, arch):
    """An empty kernel's compile in a new process: NVRTC's start-up."""
    code = (
        f"import ctypes, sys; sys.path.insert(0, {os.path.dirname(__file__)!r}); "
        "import nvrtc_cost as n; lib = n.load_nvrtc(sys.argv[1] or None); "
        f"print(n.compile_ms(lib, n.EMPTY, n.BASE + ['--gpu-architecture={arch}']))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, nvrtc or ""], capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default="build")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--nvrtc", default=None)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", default=None)
    p.add_argument("programs", nargs="*")
    a = p.parse_args()
    lib = load_nvrtc(a.nvrtc)
    major, minor = ctypes.c_int(), ctypes.c_int()
    lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
    arch = [f"--gpu-architecture={a.arch}"]
    firsts = [first_compile_ms(a.nvrtc, a.arch) for _ in range(3)]
    compile_ms(lib, EMPTY, BASE + arch)
    steady = min(compile_ms(lib, EMPTY, BASE + arch) for _ in range(a.repeat))
    print(f"NVRTC {major.value}.{minor.value}, {a.arch}, {os.cpu_count()} CPUs")
    print(f"empty kernel: first in a process {min(firsts):.1f} ms, later {steady:.1f} ms")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        write_sources(pathlib.Path(a.build), tmp)
        names = a.programs or DEFAULT_PROGRAMS
        print(f"{'program':48s}" + "".join(f"{k:>20s}" for k in OPTION_SETS))
        for name in names:
            source = (tmp / f"{name}.cu").read_text()
            row = {"program": name, "bytes": len(source)}
            for label, extra in OPTION_SETS.items():
                times = [compile_ms(lib, source, BASE + arch + extra) for _ in range(a.repeat)]
                row[label] = None if None in times else min(times)
            rows.append(row)
            cells = "".join(
                f"{row[k]:>20.1f}" if row[k] is not None else f"{'refused':>20s}"
                for k in OPTION_SETS
            )
            print(f"{name:48s}{cells}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(
                {
                    "nvrtc": f"{major.value}.{minor.value}",
                    "arch": a.arch,
                    "cpus": os.cpu_count(),
                    "first_empty_ms": min(firsts),
                    "empty_ms": steady,
                    "rows": rows,
                },
                f,
                indent=1,
            )


if __name__ == "__main__":
    main()
