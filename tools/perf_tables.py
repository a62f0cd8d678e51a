"""docs/generated_tables.md's performance tables, generated from the benchmarks' JSON.

python benchmarks/gpu_vs_peers.py --json benchmarks/results/gpu_vs_peers.json
python benchmarks/gpu_vs_peers.py --reductions-only \
    --json benchmarks/results/gpu_reductions.json
python benchmarks/gpu_linalg_fft.py --json benchmarks/results/gpu_linalg_fft.json
python benchmarks/host_vs_numpy.py --json benchmarks/results/host_vs_numpy.json
python benchmarks/host_math.py --json benchmarks/results/host_math.json
python benchmarks/host_math.py --dtype complex64 --dtype complex128 \
    --json benchmarks/results/host_math_complex.json
python benchmarks/sycl_vs_dpctl.py --json benchmarks/results/sycl_vs_dpctl.json
python tools/perf_tables.py           # rewrite docs/generated_tables.md's tables
python tools/perf_tables.py --check   # exit 1 if docs/generated_tables.md's differ
"""

import argparse
import json
import pathlib
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
GENERATED = ROOT / "docs" / "generated_tables.md"
BLOCKS = {
    "perf-gpu": RESULTS / "gpu_vs_peers.json",
    "perf-gpu-compute": RESULTS / "gpu_reductions.json",
    "perf-gpu-linalg": RESULTS / "gpu_linalg_fft.json",
    "perf-host": RESULTS / "host_vs_numpy.json",
    "perf-host-math": RESULTS / "host_math.json",
    "perf-host-math-complex": RESULTS / "host_math_complex.json",
    "perf-sycl": RESULTS / "sycl_vs_dpctl.json",
}


def number(value, unit):
    if value is None:
        return ""
    if unit == "us":
        return f"{value:.2f} µs"
    return f"{value:,.0f} {unit}" if value >= 100 else f"{value:.2f} {unit}"


def ratio(value):
    return "" if value is None else f"{value:.2f}"


def peers_table(data, numba, note=""):
    """The rows beside CuPy and PyTorch (and numba where asked); note
    follows the peers' versions in the heading."""
    peers = ", ".join(f"{k} {v}" for k, v in sorted(data.get("peers", {}).items()))
    extra = ["numba"] if numba else []
    head = ["operation", "usmarray", "CuPy", "PyTorch", *extra, "vs CuPy", "vs PyTorch", "target"]
    runs = data.get("runs", 1)
    note += f"; each value the median of {runs} runs" if runs > 1 else ""
    lines = [
        f"Measured on {data['device']}, {data['date']} ({peers}{note}).",
        "",
        "| " + " | ".join(head) + " |",
        "|" + " --- |" * len(head),
    ]
    for r in data["rows"]:
        u = r["unit"]
        cells = [r["operation"], number(r["usmarray"], u), number(r.get("cupy"), u),
                 number(r.get("torch"), u)]  # fmt: skip
        cells += [number(r.get("numba"), u)] if numba else []
        cells += [ratio(r.get("ratio_vs_cupy")), ratio(r.get("ratio_vs_torch")), r["target"]]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def gpu_table(data):
    return peers_table(data, numba=True)


def library_table(data):
    """Times per call (lower is better); the ratios are the peer's time
    over ours."""
    return peers_table(data, numba=False, note=f"; {data['libraries']}")


def host_table(data):
    """benchmarks/host_vs_numpy.py: the medians over its runs, the ratio's
    range where it ran more than once, the one-thread ratio of the sort
    rows where it was measured (--one-thread), and the machine's load
    around it."""
    runs = len(data.get("runs", [])) or 1
    spread = runs > 1
    load = ""
    if "load_before" in data:
        load = (
            f"; {data['cpus']} CPUs, load average {data['load_before'][0]:.2f} before "
            f"and {data['load_after'][0]:.2f} after"
        )
    lines = [
        f"Measured on {data['device']}, {data['date']} (NumPy {data['numpy']}"
        f"{', quick sizes' if data.get('quick') else ''}; median of {runs} "
        f"run{'s' if spread else ''}{load}).",
        "",
        "| operation | usmarray | NumPy | ratio" + (" (range) |" if spread else " |"),
        "| --- | --- | --- | --- |",
    ]
    for r in data["rows"]:
        u = r["unit"]
        cell = ratio(r["ratio"])
        if spread:
            cell += f" ({r['ratio_min']:.2f}-{r['ratio_max']:.2f})"
        if "ratio_one_thread" in r:
            cell += f"; one thread {r['ratio_one_thread']:.2f}"
        lines.append(
            f"| {r['operation']} | {number(r['usmarray'], u)} | {number(r['numpy'], u)} | {cell} |"
        )
    return lines


def host_math_table(data):
    """benchmarks/host_math.py: per function and dtype, the median over the
    runs of each run's best time, and the median and range over the runs of
    NumPy's best time over usmarray's."""
    runs = data["runs"]
    dtypes = list(dict.fromkeys(r["dtype"] for r in runs[0]))  # the sweep's order
    by_key = [{(r["function"], r["dtype"]): r for r in run} for run in runs]
    cells = {}
    for r in runs[0]:
        key = (r["function"], r["dtype"])
        rows = [run[key] for run in by_key if key in run]
        ratios = [x["ratio"] for x in rows]
        med = statistics.median
        cells[r["function"], r["dtype"]] = (
            f"{med(x['usmarray_ms'] for x in rows):.3f}",
            f"{med(x['numpy_ms'] for x in rows):.3f}",
            f"{med(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})",
        )
    head = ["function"]
    for dt in dtypes:
        head += [f"{dt} usmarray ms", f"{dt} NumPy ms", f"{dt} ratio (range)"]
    lines = [
        f"Measured on {data['device']} ({data.get('machine', '')}), {data['date']} "
        f"(NumPy {data['numpy']}; {data['n']:,} elements, best of {data['rounds']} "
        f"rounds, {len(runs)} runs).",
        "",
        "| " + " | ".join(head) + " |",
        "|" + " --- |" * len(head),
    ]
    for name in dict.fromkeys(r["function"] for r in runs[0]):
        row = [name]
        for dt in dtypes:
            row += list(cells.get((name, dt), ("", "", "")))
        lines.append("| " + " | ".join(row) + " |")
    return lines


def sycl_table(data):
    versions = ", ".join(f"{k} {data[k]}" for k in ("dpctl", "dpnp") if k in data)
    when = ", ".join(v for v in (data.get("date"), versions) if v)
    lines = [
        f"Measured on {data['device']}{f' ({when})' if when else ''}; the ratio is "
        "dpctl/dpnp's time over ours (per call) or our throughput over dpnp's; "
        "the host columns time usmarray's same call on the host device in the "
        "same run (device ÷ host: the device's throughput over the host's).",
        "",
        "| operation | usmarray | dpctl/dpnp | ratio | usmarray on the host | device ÷ host |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in data["rows"]:
        host = ""
        if "usmarray_us" in r:
            ours, theirs = number(r["usmarray_us"], "us"), number(r["dpctl_us"], "us")
        elif "unit" in r:  # the compute rows: throughput in their own unit
            ours, theirs = number(r["usmarray"], r["unit"]), number(r["dpnp"], r["unit"])
            host = number(r["host"], r["unit"]) if "host" in r else ""
        else:
            ours, theirs = number(r["usmarray_GBps"], "GB/s"), number(r["dpnp_GBps"], "GB/s")
            host = number(r["host_GBps"], "GB/s") if "host_GBps" in r else ""
        over = ratio(r["sycl_over_host"]) if "sycl_over_host" in r else ""
        lines.append(f"| {r['row']} | {ours} | {theirs} | {ratio(r['ratio'])} | {host} | {over} |")
    return lines


TABLES = {
    "perf-gpu": gpu_table,
    "perf-gpu-compute": gpu_table,
    "perf-gpu-linalg": library_table,
    "perf-host": host_table,
    "perf-host-math": host_math_table,
    "perf-host-math-complex": host_math_table,
    "perf-sycl": sycl_table,
}


def render(name):
    data = json.loads(BLOCKS[name].read_text())
    return "\n".join(TABLES[name](data))


def replace(text, name, body):
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    head, found, rest = text.partition(begin)
    if not found or end not in rest:
        raise SystemExit(f"docs/generated_tables.md lacks the {begin} ... {end} markers")
    return head + begin + "\n" + body + "\n" + end + rest.partition(end)[2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    old = GENERATED.read_text()
    new = old
    for name in BLOCKS:
        new = replace(new, name, render(name))
    if args.check:
        return 0 if new == old else 1
    GENERATED.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
