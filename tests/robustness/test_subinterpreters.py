"""usmarray refuses to load in a sub-interpreter, with an ImportError that
says so: its DLPack deleters take the GIL with PyGILState_Ensure, which
only reaches the main interpreter, so a capsule dropped in a sub-
interpreter would deadlock for good.  The module's slots declare it
(Py_mod_multiple_interpreters on Python 3.12+), and 3.11, which has no such
slot, is refused by a check at load.

Each Python version offers sub-interpreters through another module:
_xxsubinterpreters (3.11, 3.12), _interpreters (3.13),
concurrent.interpreters (3.14).  The test uses the one that exists, in a
child process, so that a failure cannot take the test run down."""

import os
import subprocess
import sys
import textwrap

import pytest
import usmarray

PACKAGE_PARENT = os.path.dirname(os.path.dirname(usmarray.__file__))
EXTENSION = usmarray._usmarray.__file__

# Runs in the sub-interpreter: prints what loading the extension did.  It
# loads the extension's file itself: an editable install's import hook
# would first run the build in a subprocess, which isolated
# sub-interpreters refuse before the extension is reached.
INSIDE = textwrap.dedent(f"""
    import importlib.util
    try:
        spec = importlib.util.spec_from_file_location("usmarray._usmarray", {EXTENSION!r})
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError as e:
        result = "refused: " + str(e)
    else:
        result = "loaded"
    with open(sys.argv_file, "w") as f:
        f.write(result)
""")

# Runs in the child process's main interpreter.
DRIVER = textwrap.dedent("""
    import sys
    out, inside = sys.argv[1], sys.argv[2]
    code = inside.replace("sys.argv_file", repr(out))
    try:
        from concurrent import interpreters
    except ImportError:
        interpreters = None
    if interpreters is not None:
        interp = interpreters.create()
        interp.exec(code)
        print("concurrent.interpreters")
    else:
        try:
            import _interpreters as low
            iid = low.create()
            err = low.exec(iid, code)
            if err is not None:
                raise SystemExit(f"sub-interpreter raised: {err}")
            print("_interpreters")
        except ImportError:
            import _xxsubinterpreters as low
            iid = low.create()
            low.run_string(iid, code)
            print("_xxsubinterpreters")
""")


def has_subinterpreters():
    for name in ("concurrent.interpreters", "_interpreters", "_xxsubinterpreters"):
        try:
            __import__(name)
            return True
        except ImportError:
            pass
    return False


@pytest.mark.skipif(
    not has_subinterpreters(), reason="this Python exposes no sub-interpreter module"
)
def test_importing_in_a_sub_interpreter_is_refused_with_an_import_error(tmp_path):
    out = tmp_path / "result.txt"
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER, str(out), INSIDE],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    result = out.read_text()
    assert result.startswith("refused: "), (proc.stdout, result)
    assert "does not support loading in sub" in result or "subinterpreters" in result
    assert proc.stdout.strip() in {"concurrent.interpreters", "_interpreters", "_xxsubinterpreters"}


def test_the_main_interpreter_loads_it():
    proc = subprocess.run(
        [sys.executable, "-c", "import usmarray as ua; print(ua.empty(3).shape)"],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=PACKAGE_PARENT),
    )
    assert proc.stdout.strip() == "(3,)", proc.stderr
