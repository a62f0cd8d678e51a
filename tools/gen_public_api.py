"""The parts of the public API's files that the elementwise catalogue
(src/core/compute/elementwise_catalogue.h) gives, so that adding a function
is its catalogue entry and its tests:

* python/usmarray/__init__.pyi: the elementwise functions' stubs (between
  ``# <gen:elementwise>`` and ``# </gen:elementwise>``) and ``__all__``
  (between ``# <gen:__all__>`` and ``# </gen:__all__>``): every public name
  the stub defines, in its order (tests/repository/test_public_api.py holds
  it to the runtime's ``usmarray.__all__``);
* docs/api.rst: the elementwise functions' ``.. autofunction::`` lines
  (between ``.. <gen:elementwise>`` and ``.. </gen:elementwise>``);
* docs/generated_tables.md: the table of elementwise functions
  (tools/ew_functions_table.py's).

    python tools/gen_public_api.py           # rewrite the generated parts
    python tools/gen_public_api.py --check   # exit 1, naming the files, where one differs
"""

import argparse
import ast
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import ew_functions_table

ROOT = pathlib.Path(__file__).resolve().parent.parent
STUB = ROOT / "python" / "usmarray" / "__init__.pyi"
API = ROOT / "docs" / "api.rst"

# The stubs' parameters by arity, with dpctl's keywords out= and order=;
# clip's signature is the standard's, not its catalogue entry's three
# operands (src/python/namespace/elementwise.c), and dpctl's keywords.
KEYWORDS = '*, out: _Out = None, order: _Order = "K"'
PARAMETERS = {
    1: f"x: USMArray, /, {KEYWORDS}",
    2: f"x1: _Operand, x2: _Operand, /, {KEYWORDS}",
    3: f"condition: USMArray, x1: _Operand, x2: _Operand, /, {KEYWORDS}",
}
SPECIAL = {
    "clip": "x: USMArray, /, min: _Operand | None = None, max: _Operand | None = None, "
    'out: _Out = None, order: _Order = "K"'
}
LINE_LENGTH = 100  # pyproject.toml's, which ruff format keeps


def definition(name, parameters):
    """A stub's def as ruff format writes it: on one line where it fits,
    else its parameters on one indented line, else one a line."""
    line = f"def {name}({parameters}) -> USMArray: ..."
    if len(line) <= LINE_LENGTH:
        return [line]
    if len(parameters) + 4 <= LINE_LENGTH:
        return [f"def {name}(", f"    {parameters}", ") -> USMArray: ..."]
    return [
        f"def {name}(",
        *(f"    {p.strip()}," for p in parameters.split(", ")),
        ") -> USMArray: ...",
    ]


def functions():
    """(name, arity) of each catalogue entry, in the catalogue's order."""
    return [(name, int(arity)) for name, arity, _, _ in ew_functions_table.entries()]


def replace_block(text, begin, end, lines, where):
    """text with the lines between the marker lines begin and end replaced."""
    head, found, rest = text.partition(begin + "\n")
    if not found or end not in rest:
        raise SystemExit(f"{where} lacks the {begin} ... {end} markers")
    return (
        head + begin + "\n" + "".join(line + "\n" for line in lines) + end + rest.partition(end)[2]
    )


def public_names(stub_text):
    """The names a stub defines at its top level that are public: no leading
    underscore, or a dunder class or function (__array_namespace_info__);
    in the stub's order."""
    names = []
    for node in ast.parse(stub_text).body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef):
            name = node.name
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name = node.target.id
        else:
            continue
        dunder = name.startswith("__") and name.endswith("__")
        public = not name.startswith("_") or (dunder and not isinstance(node, ast.AnnAssign))
        if public and name not in names:
            names.append(name)
    return names


def stub(text):
    """The stub's text with its generated parts rewritten."""
    defs = [
        line
        for name, arity in functions()
        for line in definition(name, SPECIAL.get(name, PARAMETERS[arity]))
    ]
    # ruff format keeps a blank line between the last def and a comment.
    text = replace_block(
        text, "# <gen:elementwise>", "# </gen:elementwise>", defs + [""], STUB.name
    )
    begin, end = "# <gen:__all__>", "# </gen:__all__>"
    # The names come from the stub without its __all__, whatever it holds now.
    names = public_names(replace_block(text, begin, end, [], STUB.name))
    lines = ["__all__ = [", *(f'    "{n}",' for n in names), "]"]
    return replace_block(text, begin, end, lines, STUB.name)


def api(text):
    """docs/api.rst with its elementwise functions' entries rewritten."""
    lines = []
    for name, _ in functions():
        lines += ["", f".. autofunction:: {name}"]
    return replace_block(
        text, ".. <gen:elementwise>", ".. </gen:elementwise>", lines + [""], API.name
    )


def tables(text):
    """docs/generated_tables.md with its table of functions rewritten."""
    begin, end = ew_functions_table.BEGIN, ew_functions_table.END
    return replace_block(text, begin, end, [ew_functions_table.table()], "generated_tables.md")


GENERATED = [(STUB, stub), (API, api), (ew_functions_table.TABLES, tables)]


def stale():
    """The files whose generated parts differ from what the catalogue gives."""
    return [path for path, make in GENERATED if make(path.read_text()) != path.read_text()]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if args.check:
        names = [str(p.relative_to(ROOT)) for p in stale()]
        if names:
            print("out of date (run python tools/gen_public_api.py):", ", ".join(names))
        return 1 if names else 0
    for path, make in GENERATED:
        new = make(path.read_text())
        if new != path.read_text():
            path.write_text(new)
            print("wrote", path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
