"""The translated dpctl tests' expected failures (tools/translate_dpctl_tests.py):
the tests of excluded.txt are marked xfail(strict=True), so that one that
starts to pass fails the run and the list shrinks; USMARRAY_DPCTL_EXCLUDED=off
runs them all (to rewrite the list from the reports of such runs).  The
suite's conftest.py calls mark(); a conftest of this folder would shadow
the suite's, which the other folders import by name."""

import os
import pathlib

import pytest
import usmarray as ua

EXCLUDED = pathlib.Path(__file__).with_name("excluded.txt")


def device_key():
    """The default device as excluded.txt's '@' prefixes name it:
    backend and device type, host_cpu or sycl_cpu."""
    backend, kind = ua.Queue().device.filter_string.split(":")[:2]
    return f"{backend}_{kind}"


def read_excluded(device):
    """[(node id or 'id[*]', reason)] of excluded.txt that hold on device."""
    rows = []
    for line in EXCLUDED.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        key, reason = line.split("  ", 1)
        if key.startswith("@"):
            devices, key = key[1:].split(" ", 1)
            if device not in devices.split(","):
                continue
        rows.append((key, reason))
    return rows


def mark(items):
    if os.environ.get("USMARRAY_DPCTL_EXCLUDED") == "off" or not EXCLUDED.exists():
        return
    exact, whole = {}, {}
    for key, reason in read_excluded(device_key()):
        if key.endswith("[*]"):
            whole[key[:-3]] = reason
        else:
            exact[key] = reason
    for item in items:
        if item.path.parent != EXCLUDED.parent:
            continue
        node = item.path.name + "::" + item.nodeid.split("::", 1)[1]
        reason = exact.get(node) or whole.get(node.split("[", 1)[0])
        if reason is not None:
            if reason.startswith("untranslatable"):
                item.add_marker(pytest.mark.skip(reason=reason))
            else:
                item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
