"""The package metadata, the license, the README's set-up steps, as a new
user meets them, and the developer guide's build steps."""

import pathlib
import re
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
README = (ROOT / "README.md").read_text()
DEVELOPER = (ROOT / "docs" / "developer.rst").read_text()


def test_license_file_matches_the_metadata():
    project = PYPROJECT["project"]
    assert project["license"] == "BSD-3-Clause"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("BSD 3-Clause License")
    assert "Neither the name of the copyright holder" in text
    assert "license: 'BSD-3-Clause'" in (ROOT / "meson.build").read_text()


def test_extras_pin_nothing():
    # A pin in an extra replaces the user's own build (PyTorch's CUDA build
    # on a GPU machine); CI pins its versions in its own constraints.
    for extra, requirements in PYPROJECT["project"]["optional-dependencies"].items():
        for requirement in requirements:
            assert "==" not in requirement, f"extra {extra!r} pins {requirement!r}"


def test_ci_pins_its_versions_in_its_constraints():
    constraints = (ROOT / ".ci" / "constraints.txt").read_text()
    pins = dict(re.findall(r"^([\w.-]+)==(\S+)$", constraints, re.M))
    extras = PYPROJECT["project"]["optional-dependencies"]
    for requirement in [r for reqs in extras.values() for r in reqs]:
        name = re.match(r"[\w.-]+", requirement).group(0)
        assert name in pins, f"{name} has no pin in .ci/constraints.txt"
    assert "constraints.txt" in (ROOT / ".ci" / "run").read_text()


def test_docs_extra_builds_the_documentation():
    docs = PYPROJECT["project"]["optional-dependencies"]["docs"]
    assert {re.match(r"[\w.-]+", r).group(0) for r in docs} >= {"sphinx", "numpydoc"}
    assert (ROOT / "docs" / "conf.py").exists()


def shell_commands(markdown):
    return [
        line
        for m in re.finditer(r"^```sh\n(.*?)^```", markdown, re.S | re.M)
        for line in m.group(1).splitlines()
    ]


def test_readme_makes_a_virtual_environment_before_installing():
    commands = shell_commands(README)
    first_install = next(i for i, c in enumerate(commands) if "pip install" in c)
    assert any("-m venv" in c and "activate" in c for c in commands[:first_install])


def rst_shell_commands(rst):
    return [
        line.strip()
        for m in re.finditer(r"^( *)\.\. code-block:: sh\n\n((?:\1   .*\n|\n)+)", rst, re.M)
        for line in m.group(2).splitlines()
        if line.strip()
    ]


def test_readme_runs_the_two_commands_of_ci():
    ci = (ROOT / ".ci" / "run").read_text()
    for command in (
        "python -m pip install . && python -m usmarray",
        'python -m pip install ".[test,interop]" && python -m pytest -n auto',
    ):
        assert command in shell_commands(README) and command in ci.splitlines()


def test_readme_points_contributors_at_the_developer_guide():
    section = README[README.index("## Contributing") :]
    assert "docs/developer.rst" in section


def test_developer_guide_tells_contributors_how_to_build_and_test():
    commands = "\n".join(rst_shell_commands(DEVELOPER))
    assert re.search(r"pip install --no-build-isolation -e \"?\.", commands)
    assert "meson test" in commands  # the C tests
    assert "-Dfuzz=true" in commands  # the fuzzers
    assert "sphinx" in commands and "stubtest" in commands
