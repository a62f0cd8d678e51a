"""Sphinx helpers of usmarray's documentation.

* Signatures from the type stubs: the docstrings (in the C sources) carry
  plain signatures; the API reference shows the annotated ones of
  ``usmarray/__init__.pyi`` instead, so both sources are used and agree
  (``mypy.stubtest`` checks that the stubs match the runtime).
* ``.. generated-table:: <name>``: a block of ``docs/generated_tables.md``
  (the elementwise functions, the conformance and the benchmark tables,
  which tools/ generate and tests keep current), as paragraphs and
  list-tables; ``:index: n`` takes its ``n``-th table alone.
"""

import ast
import pathlib
import re

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from docutils.statemachine import StringList

ROOT = pathlib.Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- stubs


def stub_signatures(stub_path):
    """{qualified name: (parameters, return annotation)} of a stub file."""
    tree = ast.parse(pathlib.Path(stub_path).read_text())
    found = {}
    # The stub's private aliases (_QueueLike, ...) spelled out.
    aliases = {
        node.targets[0].id: ast.unparse(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id.startswith("_")
    }

    def spelled(text):
        for name, value in aliases.items():
            text = re.sub(rf"\b{name}\b", value, text)
        return text

    def visit(body, prefix):
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, prefix + node.name + ".")
            elif isinstance(node, ast.FunctionDef):
                # Properties and their setters (@name.setter) have no call
                # signature to show.
                if any(
                    (isinstance(d, ast.Name) and d.id == "property")
                    or (isinstance(d, ast.Attribute) and d.attr == "setter")
                    for d in node.decorator_list
                ):
                    continue
                args = node.args
                if args.posonlyargs[:1] and args.posonlyargs[0].arg == "self":
                    args.posonlyargs = args.posonlyargs[1:]
                elif args.args[:1] and args.args[0].arg in ("self", "cls"):
                    args.args = args.args[1:]
                returns = spelled(ast.unparse(node.returns)) if node.returns else None
                found[prefix + node.name] = (spelled(f"({ast.unparse(args)})"), returns)

    visit(tree.body, "")
    return found


def setup_stub_signatures(app):
    import usmarray

    stub = pathlib.Path(usmarray.__file__).with_name("__init__.pyi")
    signatures = stub_signatures(stub)

    def replace(app, what, name, obj, options, signature, return_annotation):
        key = name.removeprefix("usmarray.")
        if what in ("class", "exception"):
            # A subclass without a __new__ of its own takes its base's.
            keys = [f"{c.__name__}.__new__" for c in obj.__mro__]
            key = next((k for k in keys if k in signatures), key)
        if key in signatures:
            params, returns = signatures[key]
            return params, (None if what == "class" else returns)
        return None

    # Before numpydoc, which would otherwise answer first.
    app.connect("autodoc-process-signature", replace, priority=100)


# ------------------------------------------------------ generated tables

TABLES = ROOT / "docs" / "generated_tables.md"


def split_cells(line):
    """The cells of a Markdown table row; ``\\|`` is a pipe inside a cell."""
    cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
    return [c.strip().replace("\\|", "|") for c in cells]


def markdown_tables(lines):
    """The pipe tables among lines, each a list of rows of cells."""
    tables, current = [], []
    for line in lines + [""]:
        if line.startswith("|"):
            cells = split_cells(line)
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


def to_rst_inline(text):
    """Markdown's inline code and emphasis in reStructuredText."""
    # A literal followed by a letter needs an escaped space in rst.
    text = re.sub(
        r"`([^`]+)`(\w?)",
        lambda m: "``" + m.group(1) + "``" + ("\\ " + m.group(2) if m.group(2) else ""),
        text,
    )
    return re.sub(r"\*\*([^*]+)\*\*", r"**\1**", text) or "\\ "


def list_table(rows):
    header, *body = rows
    rst = [".. list-table::", "   :header-rows: 1", ""]
    for row in [header, *body]:
        row = row + [""] * (len(header) - len(row))
        rst.append("   * - " + to_rst_inline(row[0]))
        rst += ["     - " + to_rst_inline(cell) for cell in row[1:]]
    return rst + [""]


def generated_block(name):
    """The lines between ``<!-- name:begin -->`` and ``<!-- name:end -->`` of
    docs/generated_tables.md, or None."""
    lines = TABLES.read_text().splitlines()
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    if begin not in lines or end not in lines:
        return None
    return lines[lines.index(begin) + 1 : lines.index(end)]


class GeneratedTable(Directive):
    """``.. generated-table:: <name>``: the block ``name`` of
    docs/generated_tables.md (which tools/ write and tests check), its
    sentences as paragraphs and its tables as list-tables; with ``:index: n``
    only its ``n``-th table (from 0)."""

    required_arguments = 1
    option_spec = {"index": directives.nonnegative_int}

    def run(self):
        self.state.document.settings.record_dependencies.add(str(TABLES))
        name = self.arguments[0]
        lines = generated_block(name)
        if lines is None:
            raise self.error(f"{TABLES.name} has no block {name!r}")
        if "index" in self.options:
            tables = markdown_tables(lines)
            if self.options["index"] >= len(tables):
                raise self.error(f"{TABLES.name}'s {name!r} has no table {self.options['index']}")
            rst = list_table(tables[self.options["index"]])
        else:
            rst, table = [], []
            for line in lines + [""]:
                if line.startswith("|"):
                    table.append(line)
                    continue
                if table:
                    rst += list_table(markdown_tables(table)[0])
                    table = []
                if line.strip():
                    rst += [to_rst_inline(line), ""]
        container = nodes.container()
        self.state.nested_parse(StringList(rst, source=str(TABLES)), self.content_offset, container)
        return container.children


def setup(app):
    app.connect("builder-inited", setup_stub_signatures)
    app.add_directive("generated-table", GeneratedTable)
    return {"parallel_read_safe": True}
