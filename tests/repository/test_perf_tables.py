"""The performance tables of docs/generated_tables.md are the ones the
benchmarks' JSON in benchmarks/results gives (tools/perf_tables.py's
render()), and the README states no measured figure."""

import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TABLES = ROOT / "docs" / "generated_tables.md"
sys.path.insert(0, str(ROOT / "tools"))

import perf_tables  # noqa: E402


def test_performance_tables_come_from_the_json():
    old = TABLES.read_text()
    new = old
    for name in perf_tables.BLOCKS:
        new = perf_tables.replace(new, name, perf_tables.render(name))
    assert new == old, (
        "docs/generated_tables.md's performance tables differ from "
        "benchmarks/results/*.json: write tools/perf_tables.py's render() of each block"
    )


# A measured figure: a number with a unit of time or bandwidth, or a ratio
# such as "2.6x" (not a shape such as "16x16" or "32×32").
FIGURE = re.compile(
    r"(?<![\w.])\d[\d,]*(?:\.\d+)?\s?(?:[GTM]B/s|µs|us|ms|ns)\b"
    r"|(?<![\w.])\d+(?:\.\d+)?\s?[×x](?![\w²³⁴])"
)
GENERATED = re.compile(r"<!-- ([\w-]+):begin -->.*?<!-- \1:end -->", re.S)
# Figures that are facts rather than measurements (none needed so far).
NOT_MEASURED: set[str] = set()


def figures_outside_generated_blocks(text):
    kept = GENERATED.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return [
        (n, m.group(0), line.strip())
        for n, line in enumerate(kept.splitlines(), 1)
        for m in FIGURE.finditer(line)
        if m.group(0) not in NOT_MEASURED
    ]


def test_every_figure_in_the_readme_is_in_a_generated_table():
    # Hand-written figures go stale and cannot be checked against a run:
    # measured narrative belongs in docs/performance.rst, dated.
    found = figures_outside_generated_blocks((ROOT / "README.md").read_text())
    assert found == [], "figures outside the generated tables:\n" + "\n".join(
        f"README.md:{n}: {fig!r} in {line!r}" for n, fig, line in found
    )


@pytest.mark.parametrize(
    "text",
    [
        "took 13.2 µs in all",
        "at 388 GB/s",
        "a DLPack import 4.8× faster",
        "1.01x the best peer",
        "2.9 TB/s",
        "in 3 ms",
    ],
)
def test_the_figure_check_finds_hand_written_figures(text):
    assert figures_outside_generated_blocks(f"intro\n{text}\n")
    assert not figures_outside_generated_blocks(f"<!-- t:begin -->\n{text}\n<!-- t:end -->\n")


def test_the_figure_check_leaves_shapes_and_sizes_alone():
    assert not figures_outside_generated_blocks(
        "16x16 tiles, 32×32 tiles, 64 MiB, 8192² float32, x2\n"
    )
