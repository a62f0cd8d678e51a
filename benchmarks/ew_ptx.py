#!/usr/bin/env python3
"""Compiles a sample of elementwise kernels to PTX with NVRTC, where there
is no GPU, and counts each kernel's memory and arithmetic instructions, so
that a change to the kernel text can be shown to leave the machine code as
it was.

  python benchmarks/ew_ptx.py --build build --out DIR [--nvrtc libnvrtc.so.13]
  python benchmarks/ew_ptx.py --compare OLD_DIR NEW_DIR

The sources come from the build's tests/c/ew_kernel_sources (its "sample"
mode: one kernel of each shape a launch takes); each is compiled with the
CUDA backend's options (cuda_program.c), NVRTC loaded as nvrtc_cost.py
loads it, and its PTX written to DIR with a
counts.json of the ua_ew kernel's instructions: its vector and scalar
loads and stores by kind, and its fma, mul, add, div and cvt.  --compare
prints both counts side by side and exits 1 where any differs."""

import argparse
import collections
import ctypes
import json
import pathlib
import re
import subprocess
import sys
import tempfile

from nvrtc_cost import load_nvrtc

OPTIONS = [b"--gpu-architecture=sm_90", b"--std=c++14", b"-default-device", b"-minimal"]
COUNTED = ("ld.global", "st.global", "ld.param", "fma", "mul", "add", "div", "cvt", "call")


def ptx_of(lib, source):
    prog = ctypes.c_void_p()
    lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"p.cu", 0, None, None)
    opts = (ctypes.c_char_p * len(OPTIONS))(*OPTIONS)
    r = lib.nvrtcCompileProgram(prog, len(OPTIONS), opts)
    size = ctypes.c_size_t()
    if r != 0:
        lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetProgramLog(prog, log)
        sys.exit(f"NVRTC refused the source:\n{log.value.decode()[:4000]}")
    lib.nvrtcGetPTXSize(prog, ctypes.byref(size))
    ptx = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetPTX(prog, ptx)
    lib.nvrtcDestroyProgram(ctypes.byref(prog))
    return ptx.value.decode()


def kernel_body(ptx):
    """The text of the ua_ew entry, from its name to its closing brace."""
    start = ptx.index(".entry ua_ew")
    depth, i = 0, ptx.index("{", start)
    for j in range(i, len(ptx)):
        depth += {"{": 1, "}": -1}.get(ptx[j], 0)
        if depth == 0:
            return ptx[start : j + 1]
    return ptx[start:]


def counts(ptx):
    """Instructions by opcode with their qualifiers (ld.global.v4.f32,
    fma.rn.f32, ...), of the counted kinds."""
    c = collections.Counter()
    for line in kernel_body(ptx).splitlines():
        m = re.match(r"\s*(?:@%p\d+\s+)?([a-z][\w.]*)", line)
        if m and m.group(1).startswith(COUNTED):
            c[m.group(1)] += 1
    return dict(sorted(c.items()))


def build(args):
    lib = load_nvrtc(args.nvrtc)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    generator = pathlib.Path(args.build) / "tests" / "c" / "ew_kernel_sources"
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([str(generator), tmp, "sample"], check=True, capture_output=True)
        for source in sorted(pathlib.Path(tmp).glob("*.cu")):
            ptx = ptx_of(lib, source.read_text())
            (out / (source.stem + ".ptx")).write_text(ptx)
            (out / source.name).write_text(source.read_text())
            result[source.stem] = counts(ptx)
    (out / "counts.json").write_text(json.dumps(result, indent=1) + "\n")
    print(f"{len(result)} kernels to {out}")


def compare(old_dir, new_dir):
    old = json.loads((pathlib.Path(old_dir) / "counts.json").read_text())
    new = json.loads((pathlib.Path(new_dir) / "counts.json").read_text())
    differ = 0
    for name in sorted(set(old) | set(new)):
        a, b = old.get(name, {}), new.get(name, {})
        same = a == b
        differ += not same
        print(f"{'same  ' if same else 'DIFFER'} {name}")
        for op in sorted(set(a) | set(b)):
            mark = "" if a.get(op) == b.get(op) else "   <--"
            print(f"    {op:28} {a.get(op, 0):4} {b.get(op, 0):4}{mark}")
    print(f"{len(set(old) | set(new)) - differ} of {len(set(old) | set(new))} kernels the same")
    return 1 if differ else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", default="build")
    p.add_argument("--out")
    p.add_argument("--nvrtc", default=None)
    p.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    a = p.parse_args()
    if a.compare:
        return compare(*a.compare)
    if not a.out:
        p.error("--out or --compare")
    build(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
