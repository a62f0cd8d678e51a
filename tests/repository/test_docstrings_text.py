"""The docstrings' text (src/python/docstrings/*.txt), which
docstrings_h.py makes C headers of at build time: every text names the
header the binding includes, every block expands, and every docstring
begins with the signature line that inspect.signature reads."""

import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEXTS = ROOT / "src" / "python" / "docstrings"
sys.path.insert(0, str(TEXTS))
docstrings_h = pytest.importorskip("docstrings_h", reason="needs the source tree")

# name(...) or name($self, ...): what CPython takes for __text_signature__.
SIGNATURE = re.compile(r"^[A-Za-z_]\w*\((\$\w+(, )?)?.*\)$")


def texts():
    return sorted(TEXTS.glob("*.txt"))


def test_every_text_names_an_included_header():
    included = set()
    for source in (ROOT / "src" / "python").rglob("*.c"):
        included.update(re.findall(r'#include "(python/[\w/]+\.h)"', source.read_text()))
    headers = [docstrings_h.header_of(t) for t in texts()]
    assert len(headers) == len(set(headers)) and headers
    for header in headers:
        assert header in included, f"no source includes {header}"
        assert not (ROOT / "src" / header).exists(), f"src/{header} hides the generated one"


@pytest.mark.parametrize("path", texts(), ids=lambda p: p.name)
def test_blocks_expand_and_docstrings_begin_with_their_signature(path, tmp_path):
    _, blocks = docstrings_h.parse(path.read_text(), path.name)
    out = tmp_path / docstrings_h.header_of(path)
    out.parent.mkdir(parents=True)
    docstrings_h.write_header(path, out)
    for name, (params, _) in blocks.items():
        parts = docstrings_h.expand(blocks, name, {p: [p] for p in params}, path.name)
        expanded = "".join(parts)
        assert "@" not in expanded.replace(" @ ", ""), name
        lines = expanded.split("\n")
        if "--" in lines[:3]:
            # The signature, then "--" and a blank line.
            at = lines.index("--")
            assert SIGNATURE.match("".join(lines[:at])), (name, lines[:at])
            assert lines[at + 1] == "", name
        for line in lines:
            assert line == line.rstrip(), f"{name}: trailing spaces"


def test_the_generator_makes_the_c_it_says(tmp_path):
    text = tmp_path / "t.txt"
    text.write_text(
        "## header: sample/t.h\n## a comment\n"
        "### UA_PART(kind)\nkind : @kind@\n\n"
        '### UA_DOC_F\nf(x, /)\n--\n\nSays "??" and \\.\n\n@UA_PART(a)@\n\n'
        "### UA_DOC_G(name)\n@name@(x)\n--\n\n@UA_PART(b)@ for @name@\n"
    )
    out = tmp_path / "sample" / "t.h"
    out.parent.mkdir()
    docstrings_h.write_header(text, out)
    c = out.read_text()
    assert '#define UA_DOC_F \\\n    "f(x, /)\\n" \\\n    "--\\n" \\\n    "\\n" \\\n' in c
    assert '"Says \\"?\\?\\" and \\\\.\\n"' in c
    assert '"kind : a\\n"' in c
    assert '#define UA_DOC_G(name) \\\n    name \\\n    "(x)\\n"' in c
    assert '"kind : b for " \\\n    name \\\n    "\\n"' in c
    with pytest.raises(SystemExit, match="not as"):
        docstrings_h.write_header(text, tmp_path / "other.h")
