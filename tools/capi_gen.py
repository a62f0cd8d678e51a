"""Writes what the C API's one list makes outside C: the Cython declarations
of python/usmarray/usmarray_api.pxd and the list of functions in
docs/extension.rst, each between its markers, from USMARRAY_API_FUNCTIONS
in include/usmarray/usmarray_api.h.

    python tools/capi_gen.py           rewrite both files
    python tools/capi_gen.py --check   exit 1, with a diff, if either differs
"""

import argparse
import difflib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HEADER = ROOT / "include" / "usmarray" / "usmarray_api.h"
PXD = ROOT / "python" / "usmarray" / "usmarray_api.pxd"
DOCS = ROOT / "docs" / "extension.rst"

PXD_BEGIN = "    # BEGIN: written by tools/capi_gen.py from USMARRAY_API_FUNCTIONS"
PXD_END = "    # END: written by tools/capi_gen.py"
DOCS_BEGIN = ".. BEGIN: written by tools/capi_gen.py from USMARRAY_API_FUNCTIONS"
DOCS_END = ".. END: written by tools/capi_gen.py"
FIELDS = ("ret", "name", "member", "fail", "params", "args", "cython", "doc")


def list_text(header):
    """The body of the X-macro list, one logical line, comments removed."""
    start = header.index("#define USMARRAY_API_FUNCTIONS(X)")
    lines = []
    for line in header[start:].splitlines()[1:]:
        lines.append(line.rstrip("\\").rstrip())
        if not line.rstrip().endswith("\\"):
            break
    return re.sub(r"/\*.*?\*/", " ", "\n".join(lines), flags=re.S)


def split_arguments(text):
    """Top-level comma-separated arguments of text (no outer parentheses),
    keeping parentheses and string literals whole."""
    parts, depth, current, in_string = [], 0, [], False
    for i, ch in enumerate(text):
        if in_string:
            current.append(ch)
            if ch == '"' and text[i - 1] != "\\":
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    parts.append("".join(current).strip())
    return parts


def string_value(literal):
    """The value of adjacent C string literals."""
    pieces = re.findall(r'"((?:[^"\\]|\\.)*)"', literal)
    return "".join(pieces).replace('\\"', '"')


def functions(header):
    """The entries of USMARRAY_API_FUNCTIONS, as dicts of FIELDS."""
    text = list_text(header)
    found, i = [], 0
    while (i := text.find("X(", i)) >= 0:
        depth, j = 0, i + 1
        while True:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            if depth == 0:
                break
            j += 1
        values = split_arguments(text[i + 2 : j])
        if len(values) != len(FIELDS):
            raise SystemExit(
                f"an entry of USMARRAY_API_FUNCTIONS has {len(values)} fields: {values}"
            )
        entry = dict(zip(FIELDS, values, strict=True))
        entry["cython"] = string_value(entry["cython"])
        entry["doc"] = string_value(entry["doc"])
        entry["params"] = " ".join(entry["params"][1:-1].split())
        found.append(entry)
        i = j
    return found


def c_signature(f):
    ret = f["ret"]
    return f"{ret}{'' if ret.endswith('*') else ' '}{f['name']}({f['params']})"


def pxd_block(funcs):
    lines = [PXD_BEGIN]
    group = None
    for f in funcs:
        prefix = f["name"].split("_")[0]
        if group is not None and prefix != group:
            lines.append("")
        group = prefix
        lines.append(f"    {f['cython']}")
    lines.append(PXD_END)
    return "\n".join(lines)


def docs_block(funcs):
    lines = [
        DOCS_BEGIN,
        "",
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 45 55",
        "",
        "   * - function",
        "     - returns",
    ]
    for f in funcs:
        lines.append(f"   * - ``{c_signature(f)}``")
        lines.append(f"     - {f['doc']}")
    lines += ["", DOCS_END]
    return "\n".join(lines)


def replace_between(text, begin, end, block, path):
    if begin not in text or end not in text:
        raise SystemExit(f"{path}: the markers {begin!r} and {end!r} are missing")
    head, rest = text.split(begin, 1)
    return head + block + rest.split(end, 1)[1]


def generated():
    """{path: the text it should have}."""
    funcs = functions(HEADER.read_text())
    return {
        PXD: replace_between(PXD.read_text(), PXD_BEGIN, PXD_END, pxd_block(funcs), PXD),
        DOCS: replace_between(DOCS.read_text(), DOCS_BEGIN, DOCS_END, docs_block(funcs), DOCS),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report differences")
    args = parser.parse_args(argv)
    stale = 0
    for path, text in generated().items():
        current = path.read_text()
        if current == text:
            continue
        if args.check:
            stale += 1
            sys.stdout.writelines(
                difflib.unified_diff(
                    current.splitlines(True), text.splitlines(True), str(path), "generated"
                )
            )
        else:
            path.write_text(text)
    if stale:
        print(f"{stale} file(s) differ from the C API's list: run python tools/capi_gen.py")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
