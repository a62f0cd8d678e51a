"""Which partner accepts which of usmarray's exports, and which of theirs
usmarray accepts: each pair is tried for real, and sharing is proven by a
write through one side read back through the other.

    python tools/conformance.py           # print the Markdown table
    python tools/conformance.py --check   # exit 1 if docs/generated_tables.md's differs
    python tools/conformance.py --gpu [--check]   # the GPU partners' table
    python tools/conformance.py --sycl [--check]  # dpctl's and dpnp's table
"""

import argparse
import pathlib
import sys

import numpy as np
import usmarray as ua

BEGIN = "<!-- conformance:begin -->"
END = "<!-- conformance:end -->"
GPU_BEGIN = "<!-- conformance-gpu:begin -->"
GPU_END = "<!-- conformance-gpu:end -->"
SYCL_BEGIN = "<!-- conformance-sycl:begin -->"
SYCL_END = "<!-- conformance-sycl:end -->"


def ours(kind="shared", queue="host"):
    return ua.asarray(np.arange(6.0).reshape(2, 3), usm_type=kind, queue=queue)


def verdict(make_partner, write, read_back):
    """'zero-copy', 'copy', or 'refused (<Exception>)'."""
    try:
        obj = make_partner()
    except Exception as e:
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

            return verdict(
                make, lambda n: n.__setitem__((0, 0), 42), lambda: ua.asnumpy(x)[0, 0] == 42
            )

        return consumer

    c = consumers()
    rows.append(
        ("NumPy", "`np.asarray` (`__array_interface__`)", c(np.asarray), c(np.asarray, "device"))
    )
    rows.append(
        (
            "NumPy",
            "`np.asarray(memoryview(x))` (buffer protocol)",
            c(lambda x: np.asarray(memoryview(x))),
            c(lambda x: np.asarray(memoryview(x)), "device"),
        )
    )
    rows.append(
        ("NumPy", "`np.from_dlpack` (DLPack)", c(np.from_dlpack), c(np.from_dlpack, "device"))
    )
    try:
        import torch
    except ImportError:
        return rows
    c = consumers()
    rows.append(
        (
            "PyTorch (CPU)",
            "`torch.from_dlpack` (DLPack)",
            c(torch.from_dlpack),
            c(torch.from_dlpack, "device"),
        )
    )
    rows.append(
        ("PyTorch (CPU)", "`torch.as_tensor`", c(torch.as_tensor), c(torch.as_tensor, "device"))
    )
    return rows


def import_rows():
    rows = []

    def producer(make_theirs, read_theirs):
        def run(fn):
            src = make_theirs()

            def make():
                return fn(src)

            return verdict(
                make, lambda x: x.__setitem__((0, 0), 42), lambda: read_theirs(src) == 42
            )

        return run

    p = producer(lambda: np.arange(6.0).reshape(2, 3), lambda n: n[0, 0])
    rows.append(
        (
            "NumPy array",
            p(ua.from_dlpack),
            p(lambda s: ua.asarray(s, usm_type="host", queue="host")),
            p(ua.asarray),
        )
    )
    try:
        import torch
    except ImportError:
        return rows
    p = producer(lambda: torch.arange(6.0).reshape(2, 3), lambda t: float(t[0, 0]))
    rows.append(
        (
            "PyTorch CPU tensor",
            p(ua.from_dlpack),
            p(lambda s: ua.asarray(s, usm_type="host", queue="host")),
            p(ua.asarray),
        )
    )
    return rows


def table():
    lines = [
        "Our exports on the host backend, taken by partners (a `shared` array; a `device` array):",
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
        '| source | `ua.from_dlpack` | `ua.asarray(usm_type="host", queue="host")` | `ua.asarray` |',
        "| --- | --- | --- | --- |",
    ]
    for source, a, b, c in import_rows():
        lines.append(f"| {source} | {a} | {b} | {c} |")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------ GPU partners


def shares(make, read_partner, ours_of, theirs_of=lambda p: p):
    """Imports through make(); a write through our side must show through
    the partner's (JAX's arrays cannot be written through)."""
    try:
        partner = make()
    except Exception as e:
        return f"refused ({type(e).__name__})"
    mine = ours_of(partner)
    if not mine.flags.writable:  # a read-only export, honoured
        same = same_memory(mine, theirs_of(partner))
        return "zero-copy, read-only" if same else "copy, read-only"
    mine[0, 0] = 42
    return "zero-copy" if float(read_partner(partner)) == 42 else "copy"


def same_memory(x, other):
    """Whether x starts where other's CAI data pointer is (a read-only
    import cannot be proven by a write)."""
    cai = getattr(other, "__cuda_array_interface__", None)
    return cai is not None and cai["data"][0] == x._pointer


def gpu_partners():
    """(name, route, import our array, read its [0, 0]) for each partner here."""
    out = []
    try:
        import cupy as cp

        out += [
            ("CuPy", "`cp.asarray` (CAI)", cp.asarray, lambda n: n[0, 0]),
            ("CuPy", "`cp.from_dlpack` (DLPack)", cp.from_dlpack, lambda n: n[0, 0]),
        ]
    except ImportError:
        pass
    try:
        import torch

        if torch.cuda.is_available():
            out += [
                (
                    "PyTorch",
                    '`torch.as_tensor(x, device="cuda")` (CAI)',
                    lambda x: torch.as_tensor(x, device="cuda"),
                    lambda n: n[0, 0],
                ),
                ("PyTorch", "`torch.from_dlpack` (DLPack)", torch.from_dlpack, lambda n: n[0, 0]),
            ]
    except ImportError:
        pass
    try:
        from numba import cuda

        out.append(
            (
                "numba-cuda",
                "`cuda.as_cuda_array` (CAI)",
                cuda.as_cuda_array,
                lambda n: n.copy_to_host()[0, 0],
            )
        )
    except ImportError:
        pass
    try:
        import jax.numpy as jnp

        out.append(("JAX", "`jnp.from_dlpack` (DLPack)", jnp.from_dlpack, lambda n: n[0, 0]))
    except ImportError:
        pass
    return out


def gpu_sources():
    """(name, make a 2x3 float64 array on the GPU, read its [0, 0])."""
    out = []
    try:
        import cupy as cp

        out.append(("CuPy array", lambda: cp.arange(6.0).reshape(2, 3), lambda n: n[0, 0]))
    except ImportError:
        pass
    try:
        import torch

        if torch.cuda.is_available():
            out.append(
                (
                    "PyTorch CUDA tensor",
                    lambda: torch.arange(6.0, device="cuda").reshape(2, 3),
                    lambda n: n[0, 0],
                )
            )
    except ImportError:
        pass
    try:
        from numba import cuda

        out.append(
            (
                "numba device array",
                lambda: cuda.to_device(np.arange(6.0).reshape(2, 3)),
                lambda n: n.copy_to_host()[0, 0],
            )
        )
    except ImportError:
        pass
    try:
        import jax
        import jax.numpy as jnp

        out.append(
            (
                "JAX array",
                lambda: jnp.arange(6.0).reshape(2, 3).block_until_ready(),
                lambda n: jax.device_get(n)[0, 0],
            )
        )
    except ImportError:
        pass
    return out


def gpu_table():
    gpu = "cuda:gpu:0"
    lines = [
        f"Our arrays on {gpu}, taken by partners (by USM kind):",
        "",
        "| partner | route | `device` | `shared` | `host` |",
        "| --- | --- | --- | --- | --- |",
    ]
    for partner, route, take, read in gpu_partners():
        cells = []
        for kind in ("device", "shared", "host"):
            x = ours(kind, gpu)
            cells.append(shares(lambda: take(x), read, lambda _p, x=x: x))
        lines.append(f"| {partner} | {route} | {' | '.join(cells)} |")
    lines += [
        "",
        "Partners' GPU arrays, taken by usmarray:",
        "",
        "| source | `ua.asarray` | `ua.from_dlpack` |",
        "| --- | --- | --- |",
    ]
    for source, make, read in gpu_sources():
        cells = []
        for take in (ua.asarray, ua.from_dlpack):
            src = make()
            cells.append(
                shares(
                    lambda: take(src), lambda _x: read(src), lambda x: x, lambda _x, src=src: src
                )
            )
        lines.append(f"| {source} | {' | '.join(cells)} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------- SYCL partners (dpctl)


def sycl_device():
    """Our first SYCL device, the one dpctl and dpnp default to here."""
    devices = ua.get_devices(backend="sycl")
    if not devices:
        raise SystemExit("no SYCL device: python -m usmarray says why")
    return devices[0]


def same_elements(mine, theirs_as_numpy):
    """'' when the partner sees our elements, else why not."""
    try:
        seen = theirs_as_numpy()
    except Exception as e:
        return f"refused ({type(e).__name__})"
    return "" if np.array_equal(seen, ua.asnumpy(mine)) else "reads other elements"


def sycl_partners():
    """(name, route, import our array, the partner's array as NumPy)."""
    import dpnp
    import dpnp.tensor as dpt

    return [
        ("dpnp.tensor", "`dpt.asarray` (SUAI)", dpt.asarray, dpt.asnumpy),
        ("dpnp.tensor", "`dpt.from_dlpack` (DLPack)", dpt.from_dlpack, dpt.asnumpy),
        ("dpnp", "`dpnp.asarray` (SUAI)", dpnp.asarray, dpnp.asnumpy),
        ("dpnp", "`dpnp.from_dlpack` (DLPack)", dpnp.from_dlpack, dpnp.asnumpy),
    ]


def finished(x):
    """x once its producer's queue is done with it: DLPack's stream=None
    orders nothing on dpctl's side."""
    x.sycl_queue.wait()
    return x


def sycl_sources():
    """(name, make a 2x3 float64 array of a USM kind, the array as NumPy)."""
    import dpnp
    import dpnp.tensor as dpt

    return [
        (
            "dpnp.tensor array",
            lambda kind: finished(dpt.reshape(dpt.arange(6.0, usm_type=kind), (2, 3))),
            dpt.asnumpy,
        ),
        (
            "dpnp array",
            lambda kind: finished(dpnp.arange(6.0, usm_type=kind).reshape(2, 3)),
            dpnp.asnumpy,
        ),
    ]


def sycl_export_cell(take, as_numpy, x):
    """Whether the partner sees x's elements, then shares them by a write."""
    try:
        theirs = take(x)
    except Exception as e:
        return f"refused ({type(e).__name__})"
    wrong = same_elements(x, lambda: as_numpy(theirs))
    if wrong:
        return wrong
    theirs[0, 0] = 42
    return "zero-copy" if ua.asnumpy(x)[0, 0] == 42 else "copy"


def sycl_table():
    dev = sycl_device()
    layouts = (("a C-ordered array", lambda x: x), ("`x[::-1, ::-1]`", lambda x: x[::-1, ::-1]))
    lines = [
        f"Our arrays on {dev.filter_string}, taken by dpctl's and dpnp's (by USM kind; "
        "the last row a view with negative strides):",
        "",
        "| partner | route | `device` | `shared` | `host` | `device`, `x[::-1, ::-1]` |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for partner, route, take, as_numpy in sycl_partners():
        cells = [
            sycl_export_cell(take, as_numpy, layouts[0][1](ours(kind, dev)))
            for kind in ("device", "shared", "host")
        ]
        cells.append(sycl_export_cell(take, as_numpy, layouts[1][1](ours("device", dev))))
        lines.append(f"| {partner} | {route} | {' | '.join(cells)} |")
    lines += [
        "",
        "dpctl's and dpnp's arrays, taken by usmarray (by USM kind):",
        "",
        "| source | route | `device` | `shared` | `host` |",
        "| --- | --- | --- | --- | --- |",
    ]
    for source, make, as_numpy in sycl_sources():
        for name, take in (
            ("`ua.asarray` (SUAI)", ua.asarray),
            ("`ua.from_dlpack` (DLPack)", ua.from_dlpack),
        ):
            cells = []
            for kind in ("device", "shared", "host"):
                src = make(kind)
                cells.append(shares(lambda: take(src), lambda _x: as_numpy(src)[0, 0], lambda x: x))
            lines.append(f"| {source} | {name} | {' | '.join(cells)} |")
    return "\n".join(lines) + "\n"


def readme_block(text, begin=BEGIN, end=END):
    start = text.index(begin) + len(begin) + 1
    return text[start : text.index(end)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--gpu", action="store_true")
    parser.add_argument("--sycl", action="store_true")
    args = parser.parse_args()
    current = gpu_table() if args.gpu else sycl_table() if args.sycl else table()
    if not args.check:
        sys.stdout.write(current)
        return 0
    readme = pathlib.Path(__file__).resolve().parent.parent / "docs" / "generated_tables.md"
    marks = (
        (GPU_BEGIN, GPU_END) if args.gpu else (SYCL_BEGIN, SYCL_END) if args.sycl else (BEGIN, END)
    )
    return 0 if readme_block(readme.read_text(), *marks) == current else 1


if __name__ == "__main__":
    sys.exit(main())
