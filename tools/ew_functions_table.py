"""docs/generated_tables.md's table of elementwise functions, generated from the catalogue
(src/core/compute/elementwise_catalogue.h), between its
``<!-- functions:begin -->`` and ``<!-- functions:end -->`` markers.

    python tools/ew_functions_table.py           # rewrite docs/generated_tables.md's table
    python tools/ew_functions_table.py --check   # exit 1 if docs/generated_tables.md's differs
"""

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "src" / "core" / "compute" / "elementwise_catalogue.h"
TABLES = ROOT / "docs" / "generated_tables.md"
BEGIN, END = "<!-- functions:begin -->", "<!-- functions:end -->"

KINDS = {
    "UA_EW_ANY": "any",
    "UA_EW_NUMERIC": "numeric",
    "UA_EW_REAL": "real (integer, floating)",
    "UA_EW_REAL_B": "real and bool",
    "UA_EW_BITWISE": "bool, integer",
    "UA_EW_INTEGRAL": "integer",
}
RULES = {
    "UA_EW_SAME": "the operands' promoted dtype",
    "UA_EW_TO_FLOAT": "floating (NumPy's for integers)",
    "UA_EW_PREDICATE": "bool",
    "UA_EW_TO_REAL": "its dtype, real for a complex one",
    "UA_EW_SELECT": "x1 and x2 promoted",
    "UA_EW_LIKE_FIRST": "x's dtype",
    "UA_EW_TO_COMPLEX": "complex: complex64 for bool, 8- and 16-bit integers, float16, float32",
    "UA_EW_COMPLEX_TO_REAL": "real floating: float32 where complex64 would compute, else float64",
}
OPERATORS = {
    "add": "`+`", "subtract": "`-`", "multiply": "`*`", "divide": "`/`", "floor_divide": "`//`",
    "remainder": "`%`", "pow": "`**`", "bitwise_and": "`&`", "bitwise_or": "`\\|`",
    "bitwise_xor": "`^`", "bitwise_left_shift": "`<<`", "bitwise_right_shift": "`>>`",
    "bitwise_invert": "`~`", "negative": "unary `-`", "positive": "unary `+`", "abs": "`abs()`",
    "equal": "`==`", "not_equal": "`!=`", "less": "`<`", "less_equal": "`<=`",
    "greater": "`>`", "greater_equal": "`>=`",
}  # fmt: skip
SIGNATURES = {1: "x", 2: "x1, x2", 3: "condition, x1, x2"}
# Where the rule's wording differs for a function (elementwise.c's
# resolve_types): divide and reciprocal take integers to the default
# floating dtype, not to NumPy's floating type for their width.
RESULTS = {
    "divide": "floating (the default floating dtype for integers)",
    "reciprocal": "floating (the default floating dtype for integers)",
}


def entries():
    text = CATALOGUE.read_text()
    pattern = r"^\s+X\((\w+), (\d), (\w+), (\w+),"
    return [m.groups() for m in re.finditer(pattern, text, re.M)]


def table():
    rows = entries()
    lines = [
        f"{len(rows)} functions, generated from `src/core/compute/elementwise_catalogue.h` "
        "by `tools/ew_functions_table.py`.",
        "",
        "| function | operator | dtypes | result |",
        "| --- | --- | --- | --- |",
    ]
    for name, arity, kinds, rule in rows:
        signature = "x, /, min=None, max=None" if name == "clip" else SIGNATURES[int(arity)]
        lines.append(
            f"| `{name}({signature})` | {OPERATORS.get(name, '')} | {KINDS[kinds]} | {RESULTS.get(name, RULES[rule])} |"
        )
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    old = TABLES.read_text()
    head, found, rest = old.partition(BEGIN)
    if not found or END not in rest:
        raise SystemExit(f"docs/generated_tables.md lacks the {BEGIN} ... {END} markers")
    new = head + BEGIN + "\n" + table() + "\n" + END + rest.partition(END)[2]
    if args.check:
        return 0 if new == old else 1
    TABLES.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
