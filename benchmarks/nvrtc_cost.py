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

NVRTC 12.9 and later keep a cache of their own of what they compiled (in
CUDA_CACHE_PATH); a compile of a source met before reads it back in a few
milliseconds.  This tool sets CUDA_CACHE_DISABLE=1, for itself and the
processes it starts, so that every compile it times is one.

With --first, each program is compiled in new processes instead, as a
first call compiles it: once without anything before it, once after an
empty kernel's compile; each then compiled again in the same process.
Where a program's first compile costs more than its second, the best of
several compiles understates what a first call pays.
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


# Before NVRTC is loaded: every compile below compiles.
os.environ["CUDA_CACHE_DISABLE"] = "1"


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


def source_of(into, name):
    """A program's source; a name whose catalogue number moved (the
    writer's file names number the catalogue's entries) by its prefix."""
    path = into / f"{name}.cu"
    if not path.exists():
        found = sorted(into.glob(f"{name.rsplit('_', 1)[0]}_*.cu"))
        path = found[0] if found else path
    return path


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


def first_child(nvrtc, arch, path, after_empty):
    lib = load_nvrtc(nvrtc or None)
    options = BASE + ["-minimal", f"--gpu-architecture={arch}"]
    source = pathlib.Path(path).read_text()
    empty = compile_ms(lib, EMPTY, options) if after_empty == "1" else None
    print(json.dumps([empty, compile_ms(lib, source, options), compile_ms(lib, source, options)]))


def first_compiles(a, lib_path):
    """Per program, two new processes: its compile first, then after an
    empty kernel's; milliseconds, each followed by a second compile."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        write_sources(pathlib.Path(a.build), tmp)
        print(f"NVRTC {lib_path}, {a.arch}, -minimal, {os.cpu_count()} CPUs")
        print(f"{'program':48s}{'first':>8s}{'again':>8s}{'empty':>8s}{'then':>8s}{'again':>8s}")
        for name in a.programs or DEFAULT_PROGRAMS:
            row = {"program": name}
            for after in ("0", "1"):
                out = subprocess.run(
                    [sys.executable, __file__, "--first-child", a.nvrtc or "", a.arch,
                     str(source_of(tmp, name)), after],
                    capture_output=True, text=True, check=True,
                )  # fmt: skip
                row["after_empty" if after == "1" else "cold"] = json.loads(out.stdout)
            c, w = row["cold"], row["after_empty"]
            print(f"{name:48s}{c[1]:8.1f}{c[2]:8.1f}{w[0]:8.1f}{w[1]:8.1f}{w[2]:8.1f}")
            rows.append(row)
    return rows


def loaded_path(lib):
    """The file the dynamic loader chose for NVRTC."""
    for line in pathlib.Path("/proc/self/maps").read_text().splitlines():
        if "libnvrtc" in line and "builtins" not in line:
            return line.split()[-1]
    return "?"


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "--first-child":
        first_child(*sys.argv[2:])
        return
    p = argparse.ArgumentParser()
    p.add_argument("--build", default="build")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--nvrtc", default=None)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", default=None)
    p.add_argument("--first", action="store_true", help="first compiles in new processes")
    p.add_argument("programs", nargs="*")
    a = p.parse_args()
    lib = load_nvrtc(a.nvrtc)
    if a.first:
        rows = first_compiles(a, loaded_path(lib))
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"arch": a.arch, "cpus": os.cpu_count(), "rows": rows}, f, indent=1)
        return
    major, minor = ctypes.c_int(), ctypes.c_int()
    lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
    arch = [f"--gpu-architecture={a.arch}"]
    firsts = [first_compile_ms(a.nvrtc, a.arch) for _ in range(3)]
    compile_ms(lib, EMPTY, BASE + arch)
    steady = min(compile_ms(lib, EMPTY, BASE + arch) for _ in range(a.repeat))
    print(
        f"NVRTC {major.value}.{minor.value} ({loaded_path(lib)}), {a.arch}, {os.cpu_count()} CPUs"
    )
    print(f"empty kernel: first in a process {min(firsts):.1f} ms, later {steady:.1f} ms")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        write_sources(pathlib.Path(a.build), tmp)
        names = a.programs or DEFAULT_PROGRAMS
        print(f"{'program':48s}" + "".join(f"{k:>20s}" for k in OPTION_SETS))
        for name in names:
            source = source_of(tmp, name).read_text()
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
