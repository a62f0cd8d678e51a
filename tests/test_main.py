import os
import subprocess
import sys


def run_main(env_device=None):
    env = dict(os.environ)
    env.pop("USMARRAY_DEVICE", None)
    if env_device is not None:
        env["USMARRAY_DEVICE"] = env_device
    return subprocess.run([sys.executable, "-m", "usmarray"], capture_output=True,
                          text=True, env=env, timeout=120)


def test_main_lists_devices_and_passes_self_check():
    result = run_main()
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "backends:" in out and "host" in out and "available" in out
    assert "[0] host:cpu:0" in out
    for kind in ("device", "shared", "host"):
        assert f"host:cpu:0 {kind:<6} export and re-import SUAI without a copy: PASS" in out
    assert "FAIL" not in out
    assert out.rstrip().endswith("self-check passed")


def test_main_fails_on_a_bad_default_device():
    result = run_main("no-such-device")
    assert result.returncode != 0
    assert "USMARRAY_DEVICE" in result.stderr
