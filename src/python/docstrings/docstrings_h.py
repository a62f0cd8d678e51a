#!/usr/bin/env python3
"""Writes a C header of docstrings from their text: each block of the text
becomes a macro of string literals under its name, so that the C sources
use UA_DOC_* as they would a literal.  meson.build runs it at build time:

    docstrings_h.py INPUT OUTPUT

The text (src/python/docstrings/*.txt):

* ``## header: python/base/docstrings.h``, the first line: where the C
  sources include the header from (OUTPUT must end with it);
* ``## ...``: a comment, skipped (the file's notes, section titles);
* ``### NAME`` starts a block, the lines up to the next ``###`` line its
  text (each line ends in a newline; trailing blank lines are dropped); a
  docstring's first lines are its signature, ``name(x, /)`` and ``--``,
  then a blank line (what ``inspect.signature`` reads);
* ``### NAME(a, b)``: a block with parameters, a function-like macro whose
  arguments are C string literals;
* ``@name@`` in a block: its parameter ``name``, or the text of another
  block without its final newline; ``@NAME(x|y)@`` passes that block the
  texts x and y (plain text, without ``@``) for its parameters.
"""

import pathlib
import re
import sys

HEADER = re.compile(r"^## header: (\S+)$")
BLOCK = re.compile(r"^### ([A-Za-z_]\w*)(?:\(([\w, ]*)\))?\s*$")
REF = re.compile(r"@([A-Za-z_]\w*)(?:\(([^@]*?)\))?@")


class Param:
    def __init__(self, name):
        self.name = name


def parse(text, where):
    """(header path, {name: (params, text)}) of a docstrings text."""
    lines = text.splitlines()
    found = HEADER.match(lines[0]) if lines else None
    if not found:
        raise SystemExit(f"{where}:1: the first line must be '## header: <path>'")
    blocks, name = {}, None
    for number, line in enumerate(lines[1:], 2):
        block = BLOCK.match(line)
        if block:
            name = block.group(1)
            if name in blocks:
                raise SystemExit(f"{where}:{number}: {name} is defined twice")
            params = [p.strip() for p in (block.group(2) or "").split(",") if p.strip()]
            blocks[name] = (params, [])
        elif line.startswith("##"):
            continue
        elif name is None:
            if line.strip():
                raise SystemExit(f"{where}:{number}: text before the first ### block")
        else:
            blocks[name][1].append(line)
    result = {}
    for name, (params, body) in blocks.items():
        while body and not body[-1].strip():
            body.pop()
        result[name] = (params, "".join(line + "\n" for line in body))
    return found.group(1), result


def expand(blocks, name, values, where, seen=()):
    """The parts (str or Param) of a block's text, its parameters replaced by
    values ({parameter: parts})."""
    if name in seen:
        raise SystemExit(f"{where}: {name} includes itself")
    params, text = blocks[name]
    parts, pos = [], 0
    for m in REF.finditer(text):
        parts.append(text[pos : m.start()])
        pos = m.end()
        ref, args = m.group(1), m.group(2)
        if ref in params and args is None:
            parts += values[ref]
            continue
        if ref not in blocks:
            raise SystemExit(
                f"{where}: {name} names @{ref}@, which is neither a block nor its parameter"
            )
        wanted = blocks[ref][0]
        given = args.split("|") if args is not None else []
        if len(given) != len(wanted):
            raise SystemExit(
                f"{where}: {name} passes {ref} {len(given)} arguments, not {len(wanted)}"
            )
        included = expand(
            blocks, ref, dict(zip(wanted, ([g] for g in given))), where, seen + (name,)
        )
        # Without the block's final newline: "@X@" alone on a line is its text.
        if included and isinstance(included[-1], str) and included[-1].endswith("\n"):
            included[-1] = included[-1][:-1]
        parts += included
    parts.append(text[pos:])
    merged = []
    for part in parts:
        if isinstance(part, str) and merged and isinstance(merged[-1], str):
            merged[-1] += part
        elif part != "":
            merged.append(part)
    return merged


def c_literal(text):
    text = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + text.replace("??", "?\\?") + '"'


def c_macro(blocks, name, where):
    params = blocks[name][0]
    parts = expand(blocks, name, {p: [Param(p)] for p in params}, where)
    pieces = []
    for part in parts:
        if isinstance(part, Param):
            pieces.append(part.name)
        else:
            # One literal a line, as the text reads.
            pieces += [c_literal(line) for line in part.splitlines(keepends=True)]
    head = f"#define {name}" + (f"({', '.join(params)})" if params else "")
    return head + " \\\n    " + " \\\n    ".join(pieces or ['""']) + "\n"


def header_of(text_path):
    """The path the C sources include a text's header by."""
    return parse(pathlib.Path(text_path).read_text(encoding="utf-8"), str(text_path))[0]


def write_header(src, dst):
    source = pathlib.Path(src)
    header, blocks = parse(source.read_text(encoding="utf-8"), source.name)
    if not pathlib.Path(dst).as_posix().endswith(header):
        raise SystemExit(f"{source.name} is included as {header}, not as {dst}")
    guard = "UA_GENERATED_" + re.sub(r"\W", "_", header).upper()
    out = [
        f"/* Generated from {source.name} by docstrings_h.py: edit the text. */",
        f"#ifndef {guard}",
        f"#define {guard}",
        "",
    ]
    out += [c_macro(blocks, name, source.name) for name in blocks]
    out += [f"#endif /* {guard} */", ""]
    pathlib.Path(dst).write_text("\n".join(out), encoding="utf-8")


if __name__ == "__main__":
    write_header(*sys.argv[1:3])
