"""The Array API's inspection utilities (__array_namespace_info__) on every
device here, the SYCL OpenCL CPU device included where dpctl brings it, and
the astype function against NumPy for every pair of dtypes."""

import inspect
import itertools
import warnings

import numpy as np
import pytest
import usmarray as ua

STANDARD = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "float32", "float64", "complex64", "complex128"]  # fmt: skip
ALL = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
       "float16", "float32", "float64", "complex64", "complex128"]  # fmt: skip
KINDS = {
    "bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
    "real floating": "f", "complex floating": "c", "numeric": "iufc",
}  # fmt: skip


@pytest.fixture(scope="module")
def info():
    return ua.__array_namespace_info__()


def sycl_device():
    """The first SYCL device (dpctl's OpenCL CPU device in CI), or a skip."""
    pytest.importorskip("dpctl")
    devices = ua.get_devices(backend="sycl")
    if not devices:
        pytest.skip("no SYCL device here (dpctl's OpenCL CPU runtime is missing)")
    return devices[0]


def test_the_function_and_its_methods_have_the_standards_signatures(info):
    assert str(inspect.signature(ua.__array_namespace_info__)) == "()"
    assert str(inspect.signature(info.capabilities)) == "()"
    assert str(inspect.signature(info.default_device)) == "()"
    assert str(inspect.signature(info.devices)) == "()"
    assert str(inspect.signature(info.default_dtypes)) == "(*, device=None)"
    assert str(inspect.signature(info.dtypes)) == "(*, device=None, kind=None)"
    assert "__array_namespace_info__" in ua.__all__ and "astype" in ua.__all__


def test_capabilities(info):
    assert info.capabilities() == {
        "boolean indexing": True,
        "data-dependent shapes": True,
        "max dimensions": 64,
    }


def test_devices_and_default_device(info, monkeypatch):
    assert info.devices() == tuple(ua.get_devices())
    assert all(isinstance(d, ua.Device) for d in info.devices())
    assert info.default_device() == ua.Device()
    monkeypatch.setenv("USMARRAY_DEVICE", "host")
    assert info.default_device() == ua.Device("host")
    # Every device can be passed to the creation functions.
    for d in info.devices():
        assert ua.zeros(2, device=d).device == d


def test_dtypes_are_the_standards_in_its_order(info):
    found = info.dtypes(device="host")
    assert list(found) == STANDARD
    assert all(found[name] == np.dtype(name) == getattr(ua, name) for name in found)
    # float16 is our extension, not one of the standard's dtypes.
    assert "float16" not in found
    assert info.dtypes() == info.dtypes(device=ua.Device())


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_dtypes_of_a_kind_are_those_isdtype_names(info, kind):
    expect = [n for n in STANDARD if np.dtype(n).kind in KINDS[kind]]
    assert list(info.dtypes(device="host", kind=kind)) == expect
    for name, dtype in info.dtypes(kind=kind).items():
        assert ua.isdtype(dtype, kind), name


def test_dtypes_of_a_tuple_of_kinds(info):
    got = info.dtypes(kind=("bool", "complex floating"))
    assert list(got) == ["bool", "complex64", "complex128"]
    assert info.dtypes(kind=()) == {}
    # A dtype is a kind, as isdtype reads it.
    assert list(info.dtypes(kind=(ua.int8, "unsigned integer"))) == [
        "int8", "uint8", "uint16", "uint32", "uint64"
    ]  # fmt: skip


def test_default_dtypes_with_double_precision(info):
    expect = {
        "real floating": np.float64,
        "complex floating": np.complex128,
        "integral": np.int64,
        "indexing": np.int64,
    }
    assert info.default_dtypes(device="host") == expect
    assert info.default_dtypes(device=ua.Queue("host")) == expect
    assert info.default_dtypes(device=ua.Context("host")) == expect
    assert list(info.default_dtypes()) == list(expect)


def test_default_dtypes_follow_the_device_argument_rules(info):
    with pytest.raises(ValueError, match="filter string 'nowhere'"):
        info.default_dtypes(device="nowhere")
    with pytest.raises(TypeError, match="device must be"):
        info.dtypes(device=1.5)
    with pytest.raises(TypeError):
        info.dtypes("host")


def test_a_sycl_device(info):
    d = sycl_device()
    import dpctl

    fp64 = dpctl.SyclDevice(d.filter_string.replace("sycl", "opencl", 1)).has_aspect_fp64
    floating = "float64" if fp64 else "float32"
    complex_ = "complex128" if fp64 else "complex64"
    assert info.default_dtypes(device=d) == {
        "real floating": np.dtype(floating),
        "complex floating": np.dtype(complex_),
        "integral": np.int64,
        "indexing": np.int64,
    }
    names = [n for n in STANDARD if fp64 or n not in ("float64", "complex128")]
    assert list(info.dtypes(device=d)) == names
    assert d in info.devices()
    # dpctl's queue and its filter strings name the same device.
    q = dpctl.SyclQueue(ua.Queue(d)._get_capsule())
    assert info.default_dtypes(device=q) == info.default_dtypes(device=d)
    assert info.dtypes(device=q.sycl_device.filter_string) == info.dtypes(device=d)


# ------------------------------------------------------------------ astype


@pytest.fixture(scope="module")
def sources():
    values = np.array([0, 1, -1, 2.5, -7.75, 100, 255, 1e3], dtype=np.float64)
    return {n: values.astype(n) for n in ALL}


@pytest.mark.parametrize("src", ALL)
def test_astype_agrees_with_numpy_for_every_pair(src, sources):
    q = ua.Queue("host")
    a = sources[src]
    x = ua.asarray(a, queue=q)
    for dst in ALL:
        with np.errstate(invalid="ignore", over="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            expect = a.astype(dst)
            real = a.real.astype("f8")
        y = ua.astype(x, np.dtype(dst))
        assert y.dtype == np.dtype(dst) and y is not x
        if np.dtype(dst).kind in "iu" and a.dtype.kind in "fc":
            # Out-of-range float to integer conversions are undefined in C.
            fits = np.isfinite(real) & (real >= np.iinfo(dst).min) & (real <= np.iinfo(dst).max)
            np.testing.assert_array_equal(
                ua.asnumpy(y)[fits], expect[fits], err_msg=f"{src}->{dst}"
            )
        else:
            np.testing.assert_array_equal(ua.asnumpy(y), expect, err_msg=f"{src}->{dst}")


def test_astype_copy_false_returns_x_when_nothing_changes():
    x = ua.arange(6.0, queue="host").reshape(2, 3)
    assert ua.astype(x, ua.float64, copy=False) is x
    assert ua.astype(x, "f8", copy=False) is x
    assert ua.astype(x, ua.float64, copy=False, device=x.queue) is x
    assert ua.astype(x.T, ua.float64, copy=False) is not None
    y = ua.astype(x, ua.float64)  # copy=True: always a new array
    assert y is not x and y._pointer != x._pointer
    z = ua.astype(x, ua.float32, copy=False)
    assert z is not x and z.dtype == np.float32
    np.testing.assert_array_equal(ua.asnumpy(z), np.arange(6.0).reshape(2, 3))


def test_astype_keeps_the_usm_kind_and_the_memory_order():
    x = ua.asarray(np.arange(12).reshape(3, 4), usm_type="shared", queue="host")
    y = ua.astype(x.T, ua.int8)
    assert y.usm_type == "shared" and y.flags.f_contiguous and y.shape == (4, 3)
    np.testing.assert_array_equal(ua.asnumpy(y), np.arange(12).reshape(3, 4).T)


def test_astype_to_another_device():
    x = ua.asarray(np.arange(5.0), queue="host")
    for d in ua.get_devices():
        y = ua.astype(x, ua.int32, device=d)
        assert y.device == d and y.dtype == np.int32
        np.testing.assert_array_equal(ua.asnumpy(y), np.arange(5))
        back = ua.astype(y, ua.float32, device="host")
        assert back.device == ua.Device("host")
        np.testing.assert_array_equal(ua.asnumpy(back), np.arange(5.0, dtype="f4"))
    # Another device than x's is a move even with copy=False, as
    # to_device() moves.
    q2 = ua.Queue("host")
    assert ua.astype(x, x.dtype, copy=False, device=q2) is x
    assert ua.astype(x, x.dtype, copy=False, device="host") is x


def test_astype_on_a_sycl_device():
    d = sycl_device()
    x = ua.asarray(np.arange(6, dtype="i4"), device=d)
    y = ua.astype(x, ua.float32)
    assert y.device == d and y.dtype == np.float32
    np.testing.assert_array_equal(ua.asnumpy(y), np.arange(6, dtype="f4"))
    z = ua.astype(y, ua.int16, device="host")
    assert z.device == ua.Device("host")
    np.testing.assert_array_equal(ua.asnumpy(z), np.arange(6, dtype="i2"))


def test_astype_takes_none_and_its_arguments_as_the_standard_does():
    x = ua.arange(3, queue="host")
    # The standard's parameters, then our extras, keyword-only.
    assert str(inspect.signature(ua.astype)) == (
        "(x, dtype, /, *, copy=True, device=None, order='K', casting='unsafe')"
    )
    # None is the device's default floating dtype, as dpctl's astype has it.
    assert (
        ua.astype(x, None).dtype
        == ua.__array_namespace_info__().default_dtypes(device=x.device)["real floating"]
    )
    with pytest.raises(TypeError, match="by position only"):
        ua.astype(x, dtype=ua.int8)
    with pytest.raises(TypeError, match="at most 2 positional"):
        ua.astype(x, ua.int8, True)


def test_every_pair_of_kinds_in_one_call():
    # The namespace's function and the method give the same results.
    x = ua.asarray(np.linspace(-3, 3, 7), queue="host")
    for a, b in itertools.product(["f8", "i2", "c8"], repeat=2):
        src = x.astype(a)
        np.testing.assert_array_equal(ua.asnumpy(ua.astype(src, b)), ua.asnumpy(src.astype(b)))
