"""Sphinx helpers of usmarray's documentation.

* Signatures from the type stubs: the docstrings (in the C sources) carry
  plain signatures; the API reference shows the annotated ones of
  ``usmarray/__init__.pyi`` instead, so both sources are used and agree
  (``mypy.stubtest`` checks that the stubs match the runtime).
* ``.. readme-table:: <marker>``: the ``n``-th (``:index:``, from 0)
  Markdown table after a line of README.md that starts with the marker,
  as a list-table, so the conformance and benchmark tables have one
  source, which tests keep current.
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


# --------------------------------------------------------- README tables


def markdown_tables(lines):
    """The pipe tables among lines, each a list of rows of cells."""
    tables, current = [], []
    for line in lines + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


def to_rst_inline(text):
    """Markdown's inline code and emphasis in reStructuredText."""
    text = re.sub(r"`([^`]+)`", lambda m: "``" + m.group(1) + "``", text)
    return re.sub(r"\*\*([^*]+)\*\*", r"**\1**", text) or "\\ "


class ReadmeTable(Directive):
    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {"index": directives.nonnegative_int}

    def run(self):
        readme = ROOT / "README.md"
        self.state.document.settings.record_dependencies.add(str(readme))
        lines = readme.read_text().splitlines()
        marker = self.arguments[0]
        starts = [i for i, line in enumerate(lines) if line.startswith(marker)]
        if not starts:
            raise self.error(f"README.md has no line starting with {marker!r}")
        tables = markdown_tables(lines[starts[0] + 1 :])
        index = self.options.get("index", 0)
        if index >= len(tables):
            raise self.error(f"README.md has no table {index} after {marker!r}")
        header, *rows = tables[index]
        rst = [".. list-table::", "   :header-rows: 1", ""]
        for row in [header, *rows]:
            row = row + [""] * (len(header) - len(row))
            rst.append("   * - " + to_rst_inline(row[0]))
            rst += ["     - " + to_rst_inline(cell) for cell in row[1:]]
        container = nodes.container()
        self.state.nested_parse(StringList(rst, source=str(readme)), self.content_offset, container)
        return container.children


def setup(app):
    app.connect("builder-inited", setup_stub_signatures)
    app.add_directive("readme-table", ReadmeTable)
    return {"parallel_read_safe": True}
