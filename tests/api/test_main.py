import json
import os
import subprocess
import sys

import pytest
import usmarray as ua


def run_main(*args, env_device=None, python_flags=(), code=None, env_extra=None):
    env = dict(os.environ)  # the same default device as this process's
    if env_device is not None:
        env["USMARRAY_DEVICE"] = env_device
    env.update(env_extra or {})
    command = ["-c", code] if code is not None else ["-m", "usmarray"]
    return subprocess.run(
        [sys.executable, *python_flags, *command, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_main_lists_devices_and_passes_self_check():
    result = run_main()
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "backends:" in out and "host" in out and "available" in out
    assert "[0] host:cpu:0" in out
    for kind in ("device", "shared", "host"):
        assert f"host:cpu:0 {kind:<6} export and re-import SUAI without a copy: PASS" in out
        assert f"host:cpu:0 {kind:<6} strided array views and re-import: PASS" in out
    assert "FAIL" not in out
    assert out.rstrip().endswith("self-check passed")


def test_self_check_flag_is_the_default():
    plain, flagged = run_main(), run_main("--self-check")
    assert flagged.returncode == 0, flagged.stdout + flagged.stderr
    assert flagged.stdout == plain.stdout


def test_main_fails_on_a_bad_default_device():
    result = run_main(env_device="no-such-device")
    assert result.returncode != 0
    assert "USMARRAY_DEVICE" in result.stderr


BAD_CONFIGURATIONS = [
    pytest.param({"USMARRAY_DEVICE": "no-such-device"}, "USMARRAY_DEVICE", id="device"),
    pytest.param({"USMARRAY_POOL": "garbage"}, "USMARRAY_POOL", id="pool"),
]


@pytest.mark.parametrize("env, variable", BAD_CONFIGURATIONS)
@pytest.mark.parametrize("options", [(), ("-f",), ("--self-check",)])
def test_a_configuration_error_is_one_line_and_a_failure(env, variable, options):
    result = run_main(*options, env_extra=env)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and variable in lines[0]
    assert "devices:" in result.stdout and "self-check:" not in result.stdout


@pytest.mark.parametrize("env, variable", BAD_CONFIGURATIONS)
def test_a_configuration_error_still_writes_json(env, variable):
    result = run_main("--json", env_extra=env)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout)
    assert variable in report["error"] and report["default_device"] is None
    assert report["devices"] and "self_check" not in report


def test_a_good_configuration_reports_no_error():
    report = json.loads(run_main("--json", "-f").stdout)
    assert report["error"] is None
    for d in report["devices"]:
        assert set(d["aspects"]) == {
            "fp64",
            "fp16",
            "usm_device_allocations",
            "usm_shared_allocations",
            "usm_host_allocations",
        }
        assert all(isinstance(v, bool) for v in d["aspects"].values())
    text = run_main("-f").stdout
    assert "aspects:" in text


def test_help_names_every_option():
    result = run_main("--help")
    assert result.returncode == 0
    for option in ("--version", "-f, --full-list", "--json", "--self-check"):
        assert option in result.stdout
    assert "self-check:" not in result.stdout


def test_version():
    result = run_main("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"usmarray {ua.__version__}"


def test_unknown_option_is_a_usage_error():
    result = run_main("--no-such-option")
    assert result.returncode == 2
    assert "unrecognized arguments: --no-such-option" in result.stderr


def test_full_list_shows_device_details_without_the_self_check():
    result = run_main("-f")
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    host = ua.Device("host")
    assert f"global memory:    {host.global_mem_size / 2**30:.1f} GiB" in out
    assert f"compute units:    {host.max_compute_units}" in out
    assert f"driver version:   {host.driver_version}" in out
    assert "self-check" not in out
    both = run_main("--full-list", "--self-check")
    assert "vendor:" in both.stdout and "self-check passed" in both.stdout


def run_with_env(extra, *args):
    env = dict(os.environ)
    env.update(extra)
    return subprocess.run(
        [sys.executable, "-m", "usmarray", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def blas_line(out):
    """The host's (the first device listed)."""
    lines = [line for line in out.splitlines() if line.strip().startswith("BLAS:")]
    assert lines, out
    return lines[0].split("BLAS:", 1)[1].strip()


def test_full_list_names_the_blas_that_matrix_products_call():
    import numpy as np

    # NumPy's OpenBLAS, which this process has loaded, is the one found.
    np.ones((2, 2)) @ np.ones((2, 2))
    found = ua.Device("host").blas
    assert "openblas" in found.lower() and "gemm" in found
    assert "integers" in found and "thread" in found
    path = found.split(" (", 1)[0]
    assert os.path.exists(path)
    result = run_main("-f")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "openblas" in blas_line(result.stdout).lower()


def test_full_list_says_when_no_blas_is_found():
    result = run_with_env({"USMARRAY_BLAS_LIBRARY": "/nonexistent/libnone.so"}, "-f")
    assert result.returncode == 0, result.stdout + result.stderr
    line = blas_line(result.stdout)
    assert line.startswith("not found") and "/nonexistent/libnone.so" in line


def test_json_describes_backends_devices_and_checks():
    result = run_main("--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["version"] == ua.__version__
    assert [b["name"] for b in report["backends"]][0] == "host"
    assert [d["filter_string"] for d in report["devices"]] == [
        d.filter_string for d in ua.get_devices()
    ]
    assert report["default_device"] == ua.Device().filter_string
    assert sum(d["default"] for d in report["devices"]) == 1
    host = report["devices"][0]
    assert host["global_mem_size"] == ua.Device("host").global_mem_size > 0
    assert host["max_compute_units"] >= 1
    checks = report["self_check"]
    assert checks["passed"] is True
    assert len(checks["results"]) == 4 * 3 * len(report["devices"])
    assert {r["usm_type"] for r in checks["results"]} == {"device", "shared", "host"}


def test_json_full_list_skips_the_self_check():
    report = json.loads(run_main("--json", "-f").stdout)
    assert "self_check" not in report and report["devices"]


# A library that misreports pointer types: the round-trip check must fail
# even under python -O, which strips assert statements.
BROKEN = """
import runpy, sys
import pytest
import usmarray as ua
ua.get_pointer_type = lambda ptr, q: "unknown"
sys.argv[1:] = {args!r}
runpy.run_module("usmarray", run_name="__main__")
"""


def test_a_broken_check_fails_under_python_O():
    result = run_main(python_flags=("-O",), code=BROKEN.format(args=[]))
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    assert (
        "host:cpu:0 device allocate, round-trip bytes, memset: FAIL: "
        "CheckFailed: an inner address resolves to 'unknown'"
    ) in out
    assert "self-check FAILED" in out


def test_a_broken_check_fails_in_json():
    result = run_main(python_flags=("-O",), code=BROKEN.format(args=["--json"]))
    assert result.returncode == 1
    checks = json.loads(result.stdout)["self_check"]
    assert checks["passed"] is False
    failed = [r for r in checks["results"] if not r["passed"]]
    assert failed and all("resolves to 'unknown'" in r["error"] for r in failed)


def test_a_reader_that_stops_early_ends_it_quietly():
    # `python -m usmarray --json | head`: the closed pipe ends the command as
    # it ends Unix tools (no BrokenPipeError traceback, status 128 + SIGPIPE).
    # The reader is gone before the first write, so every write fails.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "usmarray", "--json", "-f"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert b"Traceback" not in result.stderr, result.stderr
    assert b"BrokenPipeError" not in result.stderr, result.stderr
    assert result.returncode == 128 + 13


# ------------------------------------------------------ --compile-kernels


def compiling_devices():
    return [d for d in ua.get_devices() if d.backend != "host" and d.device_type != "cpu"]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_the_warm_up_runs_every_operation_it_lists(dtype):
    from usmarray.__main__ import warm

    assert warm("host", dtype) > 0


def test_compile_kernels_without_a_compiling_device_says_so(tmp_path):
    if compiling_devices():
        pytest.skip("a device here compiles kernels")
    result = run_main("--compile-kernels", env_extra={"USMARRAY_CACHE_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert "nothing to do" in result.stdout
    assert not any(tmp_path.iterdir())


def test_compile_kernels_runs_its_workers_for_the_devices_named(tmp_path):
    # Worker processes of `python -m usmarray`, whose module is __main__
    # there: the task must reach them by its importable name.
    result = run_main(
        "--compile-kernels", "--device", "host", "--jobs", "2",
        env_extra={"USMARRAY_CACHE_DIR": str(tmp_path)},
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    for dtype in ("float32", "float64", "int32", "int64"):
        assert f"host:cpu:0 {dtype}: " in result.stdout and "failed" not in result.stdout
    bad = run_main("--compile-kernels", "--device", "nosuch:9")
    assert bad.returncode != 0 and "nosuch" in bad.stderr


def test_compile_kernels_fills_the_cache_that_later_processes_load(tmp_path):
    """After --compile-kernels, a new process's first calls of the listed
    operations load every program from the cache: NVRTC runs for none."""
    devices = [d for d in compiling_devices() if d.backend == "cuda"]
    if not devices:
        pytest.skip("no CUDA device")
    env = {"USMARRAY_CACHE_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "usmarray", "--compile-kernels", "--jobs", "4"],
        capture_output=True, text=True, env=dict(os.environ, **env), timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{devices[0].filter_string} float32:" in result.stdout
    assert any(tmp_path.iterdir())
    code = (
        "import usmarray as ua\n"
        f"d = ua.Device({devices[0].filter_string!r})\n"
        "x = ua.arange(1000, dtype='float32', device=d)\n"
        "i = ua.arange(1000, dtype='int64', device=d)\n"
        "r = [x + x, ua.sum(x), ua.sort(x), ua.argmax(x), ua.cumulative_sum(i), i * 3, x[x > 5]]\n"
        "ua.Queue(d).wait()\n"
    )
    later = run_main(code=code, env_extra=dict(env, USMARRAY_TRACE_COMPILE="1"))
    assert later.returncode == 0, later.stderr
    assert "disk cache" in later.stderr and "NVRTC" not in later.stderr, later.stderr
