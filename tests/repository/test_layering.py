"""The layering of the architecture: the core never includes Python.h, the
binding never reaches a backend's operations directly, the GPU layer sits
between the core and the compiling backends (CUDA, SYCL), and no files of
src/ call each other in a cycle (read at link level, from the symbols of
each file's object)."""

import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SRC = ROOT / "src"

pytestmark = pytest.mark.skipif(not SRC.is_dir(), reason="needs the source tree")


def sources(folder):
    return sorted((SRC / folder).rglob("*.[ch]"))


def test_core_and_backends_are_python_free():
    for path in sources("core") + sources("gpu") + sources("backends"):
        assert not re.search(r"#\s*include\s*[<\"]Python\.h", path.read_text()), path


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

# Folders of src/ and the folders of src/ their files may not include: the
# core includes neither the GPU layer nor a backend, the GPU layer no
# backend (a backend is a driver, a memory provider, a launcher and a
# dialect, which the layer reaches through the launcher's table), and the
# host backend, which compiles nothing at run time, not the GPU layer.
FORBIDDEN = {
    "core/": ("gpu/", "backends/"),
    "gpu/": ("backends/",),
    "backends/host/": ("gpu/",),
}


def include_violations(files):
    """(file, included) pairs that FORBIDDEN rules out, for files given as
    {path under src/: text}."""
    found = []
    for path, text in files.items():
        for folder, banned in FORBIDDEN.items():
            if path.startswith(folder):
                found += [(path, n) for n in INCLUDE.findall(text) if n.startswith(banned)]
    return found


def test_layers_include_no_layer_above():
    files = {p.relative_to(SRC).as_posix(): p.read_text() for p in sorted(SRC.rglob("*.[ch]"))}
    assert include_violations(files) == []
    assert not (SRC / "gpu").is_dir() or sources("gpu"), "the GPU layer lost its sources"


def test_include_rules_can_fail():
    assert include_violations({"core/compute/index.c": '#include "gpu/launcher.h"\n'})
    assert include_violations({"gpu/launch_common.c": '#include "backends/cuda/cuda_backend.h"\n'})
    assert include_violations({"backends/host/host.c": '#include "gpu/launcher.h"\n'})
    assert not include_violations({"backends/cuda/cuda_launcher.c": '#include "gpu/launcher.h"\n'})


def test_binding_calls_no_backend_or_driver():
    for path in sources("python"):
        text = path.read_text()
        assert "core/backend.h" not in text, path
        assert "ua_backend_ops" not in text and "dlopen" not in text, path
        assert not re.search(r"\bcu[A-Z]\w*\(", text), path


def backend_names():
    """The backends of src/backends/list.c, the one place that names them."""
    text = (SRC / "backends" / "list.c").read_text()
    body = text.split("#define UA_BACKENDS(X)", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"\bX\((\w+)\)", body)


def test_backends_are_listed_once_with_a_file_each():
    names = backend_names()
    assert "host" in names and len(names) == len(set(names))
    for name in names:
        assert (SRC / "backends" / name / f"{name}.c").is_file(), name
    header = (SRC / "core" / "backend.h").read_text()
    assert not re.search(r"\bua_\w+_backend_ops\b", header)


def test_core_and_binding_name_no_backend():
    names = "|".join(backend_names())
    table = re.compile(r"\bua_\w+_backend_ops\b")
    compared = re.compile(rf'strn?cmp\s*\([^;]*"({names})"|"({names})"\s*[!=]=|[!=]=\s*"({names})"')
    for path in sources("core") + sources("python"):
        text = path.read_text()
        assert not table.search(text), (path, table.search(text).group(0))
        found = compared.search(text)
        assert not found, (path, found.group(0))


def test_layering_checks_can_fail():
    # The patterns above must catch what they are for.
    names = "|".join(backend_names())
    compared = re.compile(rf'strn?cmp\s*\([^;]*"({names})"')
    assert compared.search('strcmp(ua_backend_name(b), "cuda") == 0')
    assert re.search(r"\bua_\w+_backend_ops\b", "ops == &ua_host_backend_ops")


def test_core_errors_become_exceptions_in_errors_c_alone():
    for path in sources("python"):
        if path.name != "errors.c":
            assert "ua_error_message(" not in path.read_text(), path


def definition_file(name):
    """The binding file that defines the function `name`."""
    found = [
        p.name
        for p in sources("python")
        if re.search(r"^%s\(" % re.escape(name), p.read_text(), re.M)
    ]
    assert len(found) == 1, (name, found)
    return found[0]


def table_entries(text, table):
    """(Python name, C function) of a PyGetSetDef or PyMethodDef table."""
    body = text.split("%s[] = {" % table, 1)[1].split("\n};", 1)[0]
    entries = re.findall(r"\{\s*(\"[^\"]+\"|\w+),\s*(?:\(\w+\)\(void \(\*\)\(void\)\))?(\w+)", body)
    return [(n.strip('"'), f) for n, f in entries]


CONCEPT_FILES = {
    "array_views.c": {
        "T",
        "mT",
        "real",
        "imag",
        "reshape",
        "transpose",
        "mp_subscript",
        "mp_ass_subscript",
    },
    "array_copy.c": {"copy", "astype", "to_device", "fill"},
    "array_host.c": {"__array_interface__", "__array__", "bf_getbuffer", "bf_releasebuffer"},
    "suai.c": {"SUAI"},
    "cai.c": {"__cuda_array_interface__"},
    "dlpack_export.c": {"__dlpack__", "__dlpack_device__"},
}


def test_array_c_holds_the_type_and_each_concept_its_file():
    text = (SRC / "python" / "types" / "array.c").read_text()
    entries = table_entries(text, "array_getset") + table_entries(text, "array_methods")
    entries += [
        (m.group(1), m.group(2))
        for m in re.finditer(r"\{Py_(\w+), (\w+)\}", text.split("array_slots[]", 1)[1])
    ]
    where = {
        name: definition_file(func)
        for name, func in entries
        if not func.startswith("Py")
        and name not in ("tp_doc", "tp_getset", "tp_methods", "tp_members")
    }
    for path, names in CONCEPT_FILES.items():
        for name in names:
            assert where[name] == path, (name, where[name])
    # What array.c defines itself: the constructor, attributes and lifetime
    # (tp_dealloc, which every file making arrays refers to, is array_make.c's,
    # below the type's tables, so that no call returns to array.c).
    own = {n for n, f in where.items() if f == "array.c"}
    assert own <= {
        "shape",
        "strides",
        "ndim",
        "size",
        "itemsize",
        "nbytes",
        "dtype",
        "usm_type",
        "queue",
        "device",
        "base",
        "flags",
        "_pointer",
        "_element_offset",
        "_byte_bounds",
        "tp_new",
        "tp_dealloc",
        "tp_traverse",
    }, own


def backend_capsule_names():
    """The capsule names of native handles that the backends' tables give."""
    names = set()
    for path in sources("backends"):
        names.update(re.findall(r'#define \w*CAPSULE\w* "(\w+)"', path.read_text()))
        names.update(re.findall(r'capsule_name = "(\w+)"', path.read_text()))
    return names


def test_core_and_binding_spell_no_capsule_name_of_a_backend():
    names = backend_capsule_names()
    assert names, "no backend defines capsule names: the check below would see nothing"
    for path in sources("core") + sources("python"):
        text = path.read_text()
        for name in names:
            assert f'"{name}"' not in text and f"'{name}'" not in text, (path, name)


# The call graph at link level: which file's object calls a function that
# another file defines, from the symbols `nm` lists.  The include checks
# above see what a file may name; this one sees what it calls, through
# prototypes declared anywhere.

MESON = ROOT / "meson.build"
# nm's letters of a defined function (T text, W weak, i indirect).
FUNCTION_SYMBOLS = set("TWi")


def meson_sources():
    """Every C source under src/ that meson.build compiles, with those that
    the meson.build files of src/'s folders list by their own names."""
    found = set(re.findall(r"'(src/[\w/]+\.c)'", MESON.read_text()))
    for build in sorted(SRC.rglob("meson.build")):
        folder = build.parent.relative_to(ROOT).as_posix()
        found.update(f"{folder}/{name}" for name in re.findall(r"'(\w+\.c)'", build.read_text()))
    return sorted(found)


def instantiations(source):
    """The -D arguments of each object meson.build makes of source: one
    object per row of host_ew_types for the host's elementwise loops (the
    same file instantiated per computation type), one plain one otherwise."""
    if not source.endswith("host_elementwise_type.c"):
        return [[]]
    keys = ("CODE", "KIND", "RTYPE", "UTYPE", "TBITS", "RBITS")
    rows = re.findall(
        r"\[('\w+'(?:,\s*'[\w ]+'){5})\]", MESON.read_text().split("host_ew_types = [", 1)[1]
    )
    assert rows, "meson.build's host_ew_types changed shape"
    return [
        [f"-DUA_EW_{k}={v}" for k, v in zip(keys, re.findall(r"'([\w ]+)'", row))] for row in rows
    ]


def generated_headers(folder):
    """Stand-ins for the headers meson.build generates with embed_text.py:
    each declares every text array that meson.build names.  What a kernel
    text holds changes no call between files.  The docstrings' headers are
    the real ones."""
    text = MESON.read_text() + "".join(b.read_text() for b in sorted(SRC.rglob("meson.build")))
    names = sorted(set(re.findall(r"'(ua_\w+_text)'", text)))
    body = "".join(f"static const char *const {n}[] = {{0}};\n" for n in names)
    body = f"#ifndef UA_TEXT_STAND_INS\n#define UA_TEXT_STAND_INS\n{body}#endif\n"
    wanted = set()
    for source in meson_sources():
        wanted.update(
            re.findall(r'#\s*include\s+"((?:\w+/)*\w+_text\.h)"', (ROOT / source).read_text())
        )
    for name in wanted:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(body)
    # The docstrings' headers, made from their text as meson.build makes
    # them, where the binding includes them from (python/base/...).
    sys.path.insert(0, str(SRC / "python" / "docstrings"))
    import docstrings_h

    for text in sorted((SRC / "python" / "docstrings").glob("*.txt")):
        header = folder / docstrings_h.header_of(text)
        header.parent.mkdir(parents=True, exist_ok=True)
        docstrings_h.write_header(text, header)


def compile_objects(folder):
    """Compiles every source of meson.build into folder, unoptimized (what
    matters is which functions each file references, not their code);
    returns (source, object) pairs.  Skips where no C compiler, nm or
    Python.h is at hand (an installed package without a toolchain)."""
    import concurrent.futures
    import os
    import shutil
    import subprocess
    import sysconfig

    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc or not shutil.which(cc.split()[0]) or not shutil.which("nm"):
        pytest.skip("needs a C compiler and nm")
    python_include = sysconfig.get_paths()["include"]
    if not (pathlib.Path(python_include) / "Python.h").is_file():
        pytest.skip("needs Python.h")
    generated_headers(folder)
    flags = ["-std=c11", "-O0", "-w", "-D_GNU_SOURCE", "-fvisibility=hidden"]
    flags += [f"-I{ROOT / 'include'}", f"-I{SRC}", f"-I{folder}", f"-I{python_include}"]
    jobs = []
    for source in meson_sources():
        for k, defines in enumerate(instantiations(source)):
            out = folder / f"{source.replace('/', '_')}.{k}.o"
            jobs.append(
                (
                    source,
                    out,
                    cc.split() + flags + defines + ["-c", str(ROOT / source), "-o", str(out)],
                )
            )

    def run(job):
        result = subprocess.run(job[2], capture_output=True, text=True)
        assert result.returncode == 0, (job[0], result.stderr[-2000:])

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        list(pool.map(run, jobs))
    return [(source, out) for source, out, _ in jobs]


def symbols(obj):
    """(defined, undefined) of an object: {name: nm letter} of its global
    definitions and the set of names it references."""
    import subprocess

    out = subprocess.run(["nm", "-P", str(obj)], capture_output=True, text=True, check=True).stdout
    defined, undefined = {}, set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        name, letter = fields[0], fields[1]
        if letter == "U":
            undefined.add(name)
        elif letter.isupper() or letter == "i":
            defined[name] = letter
    return defined, undefined


def call_graph(objects):
    """{file: {callee file: [function, ...]}}: file's objects reference a
    function that callee file defines.  References to data (ops tables,
    type specs, constant tables) are no calls: a symbol counts where the
    object defining it lists it as a function."""
    where, refs = {}, {}
    for source, obj in objects:
        defined, undefined = symbols(obj)
        for name, letter in defined.items():
            where[name] = (source, letter)
        refs.setdefault(source, set()).update(undefined)
    graph = {}
    for source, names in refs.items():
        for name in names:
            callee, letter = where.get(name, (None, None))
            if callee and callee != source and letter in FUNCTION_SYMBOLS:
                graph.setdefault(source, {}).setdefault(callee, []).append(name)
    return graph


def call_cycles(graph):
    """The strongly connected components of more than one file (Tarjan's
    algorithm, iterative), each a sorted list."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    nodes = sorted(set(graph) | {c for callees in graph.values() for c in callees})
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def describe(graph, cycle):
    return "\n".join(
        f"  {a} -> {b}: {', '.join(sorted(graph[a][b]))}"
        for a in cycle
        for b in sorted(graph.get(a, {}))
        if b in cycle
    )


@pytest.fixture(scope="module")
def calls(tmp_path_factory):
    return call_graph(compile_objects(tmp_path_factory.mktemp("objects")))


def test_no_call_cycle_among_files(calls):
    cycles = call_cycles(calls)
    assert not cycles, "call cycles among files of src/:\n" + "\n".join(
        f"{len(c)} files:\n{describe(calls, c)}" for c in cycles
    )


# The list of backends, which the core asks for the backends a build has:
# the one file of backends/ the core calls (it names no backend's
# functions, only their tables).
BACKEND_LIST = "src/backends/list.c"


def layer_call_violations(graph):
    """(caller, callee, functions) where a file calls a function that a
    file of a layer FORBIDDEN rules out for it defines."""
    found = []
    for caller, callees in graph.items():
        rel = caller.removeprefix("src/")
        banned = [b for f, bs in FORBIDDEN.items() if rel.startswith(f) for b in bs]
        for callee, names in callees.items():
            if callee.removeprefix("src/").startswith(tuple(banned)) and callee != BACKEND_LIST:
                found.append((caller, callee, sorted(names)))
    return found


def test_layers_call_no_layer_above(calls):
    # The core reaches the backends through their tables (data, no calls),
    # and the GPU layer reaches them through the launcher's table.
    assert layer_call_violations(calls) == []
    assert any(c.startswith("src/gpu/") for b in calls for c in calls[b] if "backends" in b)


def test_layer_call_check_can_fail():
    graph = {"src/gpu/launch_common.c": {"src/backends/cuda/cuda.c": ["f"]}}
    graph["src/core/compute/reduce.c"] = {
        "src/gpu/launch_common.c": ["g"],
        "src/core/base/error.c": ["h"],
    }
    graph["src/backends/host/host.c"] = {"src/gpu/launch_common.c": ["i"]}
    graph["src/backends/sycl/sycl.c"] = {"src/gpu/launch_common.c": ["j"]}
    graph["src/core/devices/device.c"] = {BACKEND_LIST: ["ua_backends_of_build"]}
    assert [v[:2] for v in layer_call_violations(graph)] == [
        ("src/gpu/launch_common.c", "src/backends/cuda/cuda.c"),
        ("src/core/compute/reduce.c", "src/gpu/launch_common.c"),
        ("src/backends/host/host.c", "src/gpu/launch_common.c"),
    ]


def test_call_graph_sees_functions_and_not_data(calls):
    # The binding calls into the core; the backends' list refers to each
    # backend's ops table, which is data and no call.
    assert any(c.startswith("src/core/") for c in calls.get("src/python/capi.c", {}))
    assert "src/backends/host/host.c" not in calls.get("src/backends/list.c", {})


def test_call_cycle_check_can_fail():
    graph = {"a.c": {"b.c": ["f"]}, "b.c": {"c.c": ["g"]}, "c.c": {"a.c": ["h"]}}
    graph["d.c"] = {"a.c": ["i"]}
    assert call_cycles(graph) == [["a.c", "b.c", "c.c"]]
    assert call_cycles({"a.c": {"b.c": ["f"]}}) == []
    # A backend's files are held to it as any others: the table that calls
    # the copy engine, which calls back for the driver, is a cycle.
    cuda = {"src/backends/cuda/cuda.c": {"src/backends/cuda/cuda_copy.c": ["f"]}}
    cuda["src/backends/cuda/cuda_copy.c"] = {"src/backends/cuda/cuda.c": ["g"]}
    assert call_cycles(cuda) == [["src/backends/cuda/cuda.c", "src/backends/cuda/cuda_copy.c"]]
