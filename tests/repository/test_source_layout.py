"""The layout of the sources: files include each other without cycles, the
layers' folders include only what lies below them, no file outgrows its
job, and the layout table of docs/developer.rst names every source file."""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SRC = ROOT / "src"

pytestmark = pytest.mark.skipif(not SRC.is_dir(), reason="needs the source tree")

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# Past this a file is split by job (docs/architecture.rst, "Layers").  The
# docstrings are text (src/python/docstrings/*.txt), not C.
MAX_LINES = 850
LONG_FILES = set()


def source_files():
    return sorted(p for p in SRC.rglob("*") if p.suffix in (".c", ".h"))


def module_of(path, root=ROOT):
    """A .c file and the header of the same stem beside it are one module."""
    return path.relative_to(root).with_suffix("").as_posix()


def resolve(including, name):
    """The project file an #include names: beside the includer, or by its
    path under src/ or include/; None for a system or toolkit header."""
    for base in (including.parent, SRC, ROOT / "include"):
        if (base / name).is_file():
            return (base / name).resolve()
    return None


def include_graph(files, root=ROOT):
    """Module -> the modules it includes, for files given as {path: text}."""
    graph = {}
    for path, text in files.items():
        here = module_of(path, root)
        edges = graph.setdefault(here, set())
        for name in INCLUDE.findall(text):
            target = resolve(path, name)
            if target is not None and module_of(target, root) != here:
                edges.add(module_of(target, root))
    return graph


def cycles(graph):
    """The strongly connected components of more than one module."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in list(graph):
        if v not in index:
            visit(v)
    return found


def all_sources():
    return {p.resolve(): p.read_text() for p in source_files()}


def test_sources_include_each_other_without_cycles():
    assert cycles(include_graph(all_sources())) == []


def test_the_cycle_check_can_fail(tmp_path):
    a, b = tmp_path / "a.c", tmp_path / "b.c"
    (tmp_path / "a.h").write_text("")
    (tmp_path / "b.h").write_text("")
    graph = include_graph({a: '#include "b.h"\n', b: '#include "a.h"\n'}, tmp_path)
    assert len(cycles(graph)) == 1


def folder_of(module):
    parts = module.split("/")
    return "/".join(parts[1:3]) if parts[0] == "src" else parts[0]


# What each folder of src/ may include besides itself.  The core includes
# no backend and no Python; the GPU layer includes the core; a backend
# includes the core, the GPU layer (CUDA and SYCL, not the host: below) and
# its own folder; the binding reaches the core through core.h, dlpack.h and
# the computing part's headers (compute/), and the C API's header.
ALLOWED = {
    "core": {"core"},
    "gpu": {"core", "gpu"},
    "backends": {"core", "gpu", "backends"},
    "python": {"core", "python", "include"},
}


def test_layers_include_only_the_layers_below():
    graph = include_graph(all_sources())
    for module, targets in graph.items():
        layer = module.split("/")[1] if module.startswith("src/") else None
        if layer is None:
            continue
        for target in targets:
            where = target.split("/")[1] if target.startswith("src/") else target.split("/")[0]
            assert where in ALLOWED[layer], (module, target)
            if module.startswith("src/backends/host/"):
                assert where != "gpu", (module, target)
            if layer == "backends" and where == "backends":
                # One backend's folder never reaches into another's.
                mine, theirs = module.split("/")[2], target.split("/")[2]
                assert mine == theirs or "list" in (mine, theirs), (module, target)
            if layer == "python" and where == "core":
                public = target in ("src/core/core", "src/core/dlpack")
                assert public or target.startswith("src/core/compute/"), (module, target)


# The binding's layers, each including only its own and those before it:
# the module (src/python's root: module.c, capi.c) comes last.  Where a
# type's slot is defined a layer above (USMArray's protocol getters), the
# type's header declares it and says which file defines it.
BINDING_LAYERS = ["base", "types", "protocols", "namespace", None]


def binding_layer(module):
    parts = module.split("/")
    return BINDING_LAYERS.index(parts[2] if len(parts) > 3 else None)


def binding_order_violations(graph):
    return [
        (m, t)
        for m, targets in graph.items()
        if m.startswith("src/python/")
        for t in targets
        if t.startswith("src/python/") and binding_layer(t) > binding_layer(m)
    ]


def test_binding_layers_include_only_their_own_and_those_before():
    assert binding_order_violations(include_graph(all_sources())) == []
    assert not (SRC / "python" / "binding.h").exists(), (
        "one header including all: include what you use"
    )


def test_the_binding_order_check_can_fail():
    graph = {
        "src/python/types/memory": {"src/python/protocols/suai"},
        "src/python/protocols/suai": {"src/python/types/memory"},
    }
    assert binding_order_violations(graph) == [
        ("src/python/types/memory", "src/python/protocols/suai")
    ]


def test_files_stay_small():
    for path in source_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel not in LONG_FILES:
            lines = path.read_text().count("\n")
            assert lines <= MAX_LINES, f"{rel} has {lines} lines: split it by job"


def layout_rows():
    """(path, what) of the list-table under "Layout of the sources" in
    docs/developer.rst: rows whose first cell is one path."""
    text = (ROOT / "docs" / "developer.rst").read_text()
    heading = "Layout of the sources\n---------------------\n"
    assert heading in text, "docs/developer.rst lost its section on the layout"
    section = text.split(heading, 1)[1]
    section = re.split(r"\n[^\n]+\n[-=~^]{3,}\n", section, maxsplit=1)[0]
    return re.findall(r"^   \* - ``([^`]+)``\n     - (.+)$", section, re.M)


def test_layout_table_names_every_source_file():
    rows = layout_rows()
    assert rows, "docs/developer.rst lost its layout table"
    for path, _ in rows:
        assert (ROOT / path.rstrip("/")).exists(), f"the layout table names {path}, which is gone"
    for path in source_files() + sorted((ROOT / "include").rglob("*.h")):
        rel = path.relative_to(ROOT).as_posix()
        folder = path.parent.relative_to(ROOT).as_posix() + "/"
        named = any(p == rel or (p == folder and f"``{path.name}``" in what) for p, what in rows)
        assert named, f"{rel}: name it in docs/developer.rst's layout table, in its folder's row"


# A path such as src/core/compute/index.c or compute/index.c in a comment,
# a docstring or a page names a file of the repository: one that moved or
# went is a stale reference.
_PATH = re.compile(
    r"(?<![\w./-])((?:src|include|docs|tests|benchmarks|tools|python|fuzz|core|compute|"
    r"layout|memory|devices|interop|backends|base|types|namespace|protocols|host|cuda|sycl)"
    r"/(?:[\w-]+/)*[\w-]+\.(?:c|h|inc|py|rst|md|sh|pyi|pxd|cu|json))\b"
)
_BASES = ("", "src/", "src/core/", "src/backends/", "src/python/", "python/", "tests/", "docs/")
_TEXTS = ("src", "include", "docs", "tests", "benchmarks", "tools", "python", "fuzz")
_SUFFIXES = {".c", ".h", ".inc", ".py", ".rst", ".md", ".sh", ".pyi", ".pxd", ".cu"}


def _texts():
    for top in _TEXTS:
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and path.suffix in _SUFFIXES and "_build" not in path.parts:
                yield path
    yield ROOT / "README.md"


def _generated():
    """The headers the build makes of the docstrings' text, by the path
    under src/ that each text's first line names."""
    texts = sorted((SRC / "python" / "docstrings").glob("*.txt"))
    firsts = [t.read_text().split("\n", 1)[0] for t in texts]
    return {ROOT / "src" / f.removeprefix("## header: ") for f in firsts}


def test_every_path_named_in_the_sources_and_docs_exists():
    stale, generated = [], _generated()
    for path in _texts():
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for ref in _PATH.findall(line):
                places = [ROOT / (base + ref) for base in _BASES] + [path.parent / ref]
                if not any(p.exists() or p in generated for p in places):
                    stale.append(f"{path.relative_to(ROOT)}:{number}: {ref}")
    assert not stale, "references to files that do not exist:\n" + "\n".join(stale)


def test_the_sources_and_docs_cite_no_document_outside_the_repository():
    cited = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _texts()
        if path.name != "test_source_layout.py"
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if "DESIGN.md" in line
    ]
    assert not cited, "the design document lives in docs/architecture.rst: " + ", ".join(cited)
