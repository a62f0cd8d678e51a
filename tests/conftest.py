import ctypes
import math
import os
import pathlib
import sys

import numpy as np
import pytest


def _prepare_sycl_runtime():
    """The OpenCL CPU runtime that dpnp's wheels install (intel-opencl-rt)
    registers itself with a placeholder path: name its library directly, and
    load its math library (libsvml, with libintlc) globally, as LD_LIBRARY_PATH would.
    Both must happen before the first SYCL call; the SYCL backend starts at
    the first device query, after this."""
    lib = pathlib.Path(sys.prefix) / "lib"
    runtime = lib / "libintelocl.so"
    if not runtime.is_file():
        return
    os.environ.setdefault("OCL_ICD_FILENAMES", str(runtime))
    paths = os.environ.get("LD_LIBRARY_PATH", "")
    if str(lib) not in paths.split(":"):
        os.environ["LD_LIBRARY_PATH"] = f"{lib}:{paths}" if paths else str(lib)
    for name in ("libintlc.so.5", "libsvml.so"):  # the second needs the first
        if (lib / name).is_file():
            ctypes.CDLL(str(lib / name), mode=ctypes.RTLD_GLOBAL)


_prepare_sycl_runtime()

# The tests live in folders by concern (api/, interop/, backends/,
# robustness/, repository/) and import this file and the helpers beside it
# (dlpack_ctypes, hostile_objects, interop_layouts) by name.  pytest's
# default import mode puts this folder on sys.path as it loads this file;
# so does this line, for any other way of loading it.
if str(pathlib.Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import usmarray as ua  # noqa: E402  (after the runtime's environment)


class Holder:
    """A foreign object that exposes a given SUAI dictionary."""

    def __init__(self, iface, keep=None):
        self.__sycl_usm_array_interface__ = iface
        self.keep = keep


def suai(mem, **changes):
    """mem's interface dictionary with some keys changed or (None) removed."""
    iface = dict(mem.__sycl_usm_array_interface__)
    for key, value in changes.items():
        if value is KEEP_OUT:
            iface.pop(key, None)
        else:
            iface[key] = value
    return iface


KEEP_OUT = object()

KINDS = {
    "device": ua.MemoryUSMDevice,
    "shared": ua.MemoryUSMShared,
    "host": ua.MemoryUSMHost,
}


def first_device_of_each_backend():
    """The filter string of each backend's first device: the devices that
    the compute tests run every test on."""
    seen, devices = set(), []
    for d in ua.get_devices():
        backend = d.filter_string.split(":")[0]
        if backend not in seen:
            seen.add(backend)
            devices.append(d.filter_string)
    return devices


@pytest.fixture
def host_queue():
    return ua.Queue("host")


@pytest.fixture(params=sorted(KINDS))
def kind(request):
    return request.param


def stress_scale():
    """USMARRAY_STRESS_SCALE: the fraction of the stress tests' full length to
    run (CI's sanitizer build runs 0.02)."""
    text = os.environ.get("USMARRAY_STRESS_SCALE", "")
    if not text:
        return 1.0
    try:
        scale = float(text)
    except ValueError:
        scale = math.nan
    if not (0 < scale <= 1e6):
        raise ValueError(
            f"USMARRAY_STRESS_SCALE is {text!r}; expected a positive number "
            "(1 runs the stress tests in full, 0.02 a fiftieth of them)"
        )
    return scale


def sort_sample(dtype, n, seed, narrow):
    """n elements to sort: integers over their whole range (64-bit ones
    within +-5,000 where narrow, whose keys take 32 bits), or reals with
    signed zeros, infinities and NaNs of several payloads."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(n) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = (-5000, 5000) if narrow and dt.itemsize == 8 else (info.min, info.max)
        lo = max(lo, info.min)
        return rng.integers(lo, hi, size=n, dtype=dt, endpoint=True)
    h = (rng.standard_normal(n) * 1000).astype(dt)
    flat = h.reshape(-1)
    flat[::9] = -0.0
    flat[1::13] = 0.0
    flat[2::17] = np.inf
    flat[3::19] = -np.inf
    # NaNs of several payloads, whose order a stable sort keeps.
    u = flat.view(f"u{dt.itemsize}")
    sign = 1 << (8 * dt.itemsize - 1)
    nan = np.array(np.nan, dt).view(u.dtype)
    u[4::23] = nan
    u[5::29] = nan | 1
    u[6::31] = nan | 2 | sign
    return h


def stable_order(h, descending):
    """The stable order of a 1-d h, equal elements first to last both ways."""
    if not descending:
        return np.argsort(h, kind="stable")
    return len(h) - 1 - np.argsort(h[::-1], kind="stable")[::-1]


def same_bits(got, want):
    """got (any array) has want's dtype, shape and bits: floats compared
    as their unsigned integers, so NaN payloads and signed zeros count."""
    got = np.ascontiguousarray(ua.asnumpy(got))
    want = np.ascontiguousarray(np.asarray(want))
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind == "f":
        got, want = got.view(f"u{want.itemsize}"), want.view(f"u{want.itemsize}")
    np.testing.assert_array_equal(got, want)


def pytest_collection_modifyitems(config, items):
    """The translated dpctl tests' expected failures (dpctl_compat/excluded.txt)."""
    compat = pathlib.Path(__file__).with_name("dpctl_compat")
    if any(item.path.parent == compat for item in items):
        if str(compat) not in sys.path:
            sys.path.insert(0, str(compat))
        import dpctl_excluded

        dpctl_excluded.mark(items)


@pytest.fixture
def suppress_invalid_numpy_warnings():
    """dpctl's fixture of that name, for the translated dpctl tests: NumPy's
    invalid-operation warnings off."""
    old = np.seterr(invalid="ignore")
    yield
    np.seterr(**old)
