"""Which partner accepts which of usmarray's exports, and which of theirs
usmarray accepts: each pair is tried for real, and sharing is proven by a
write through one side read back through the other.

    python tools/conformance.py           # print the Markdown table
    python tools/conformance.py --check   # exit 1 if README.md's differs
"""
import argparse
import pathlib
import sys

import numpy as np

import usmarray as ua

BEGIN = "<!-- conformance:begin -->"
END = "<!-- conformance:end -->"


def ours(kind="shared"):
    return ua.asarray(np.arange(6.).reshape(2, 3), usm_type=kind)


def verdict(make_partner, write, read_back):
    """'zero-copy', 'copy', or 'refused (<Exception>)'."""
    try:
        obj = make_partner()
    except Exception as e:  # noqa: BLE001 - the table reports any refusal
        return f"refused ({type(e).__name__})"
    write(obj)
    return "zero-copy" if read_back() else "copy"


def export_rows():
    rows = []

    def consumers():
        def consumer(fn, kind="shared"):
            x = ours(kind)
            holder = {}

            def make():
                holder["n"] = fn(x)
                return holder["n"]
            return verdict(make, lambda n: n.__setitem__((0, 0), 42),
                           lambda: ua.asnumpy(x)[0, 0] == 42)
        return consumer

    c = consumers()
    rows.append(("NumPy", "`np.asarray` (`__array_interface__`)",
                 c(np.asarray), c(np.asarray, "device")))
    rows.append(("NumPy", "`np.asarray(memoryview(x))` (buffer protocol)",
                 c(lambda x: np.asarray(memoryview(x))),
                 c(lambda x: np.asarray(memoryview(x)), "device")))
    rows.append(("NumPy", "`np.from_dlpack` (DLPack)",
                 c(np.from_dlpack), c(np.from_dlpack, "device")))
    try:
        import torch
    except ImportError:
        return rows
    c = consumers()
    rows.append(("PyTorch (CPU)", "`torch.from_dlpack` (DLPack)",
                 c(torch.from_dlpack), c(torch.from_dlpack, "device")))
    rows.append(("PyTorch (CPU)", "`torch.as_tensor`",
                 c(torch.as_tensor), c(torch.as_tensor, "device")))
    return rows


def import_rows():
    rows = []

    def producer(make_theirs, read_theirs):
        def run(fn):
            src = make_theirs()

            def make():
                return fn(src)
            return verdict(make, lambda x: x.__setitem__((0, 0), 42),
                           lambda: read_theirs(src) == 42)
        return run

    p = producer(lambda: np.arange(6.).reshape(2, 3), lambda n: n[0, 0])
    rows.append(("NumPy array", p(ua.from_dlpack), p(lambda s: ua.asarray(s, usm_type="host")),
                 p(ua.asarray)))
    try:
        import torch
    except ImportError:
        return rows
    p = producer(lambda: torch.arange(6.).reshape(2, 3), lambda t: float(t[0, 0]))
    rows.append(("PyTorch CPU tensor", p(ua.from_dlpack),
                 p(lambda s: ua.asarray(s, usm_type="host")), p(ua.asarray)))
    return rows


def table():
    lines = [
        "Our exports, taken by partners (a `shared` array; a `device` array):",
        "",
        "| partner | route | `shared` array | `device` array |",
        "| --- | --- | --- | --- |",
    ]
    for partner, route, shared, device in export_rows():
        lines.append(f"| {partner} | {route} | {shared} | {device} |")
    lines += [
        "",
        "Partners' arrays, taken by usmarray:",
        "",
        "| source | `ua.from_dlpack` | `ua.asarray(usm_type=\"host\")` | `ua.asarray` |",
        "| --- | --- | --- | --- |",
    ]
    for source, a, b, c in import_rows():
        lines.append(f"| {source} | {a} | {b} | {c} |")
    return "\n".join(lines) + "\n"


def readme_block(text):
    start = text.index(BEGIN) + len(BEGIN) + 1
    return text[start:text.index(END)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    current = table()
    if not args.check:
        sys.stdout.write(current)
        return 0
    readme = pathlib.Path(__file__).resolve().parent.parent / "README.md"
    return 0 if readme_block(readme.read_text()) == current else 1


if __name__ == "__main__":
    sys.exit(main())
