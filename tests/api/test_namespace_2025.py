"""What the standard's 2025.12 revision added or changed: isin,
broadcast_shapes, linalg.eig and eigvals, Python scalars in searchsorted,
tuples from meshgrid, broadcast_arrays and the inspection's devices(), and
the version the namespace answers for.  Each runs on every backend's first
device (and a CPU device of another backend on its own kernels too)."""

import numpy as np
import pytest
import usmarray as ua
import usmarray.linalg as la
from conftest import first_device_of_each_backend

OWN = "+own"
DEVICES = first_device_of_each_backend()
DEVICES += [
    d + OWN for d in DEVICES if not d.startswith("host") and ua.Device(d).device_type == "cpu"
]


@pytest.fixture(params=DEVICES, autouse=True)
def device(request, monkeypatch):
    """The device the test's arrays live on; "+own" keeps a CPU device on
    its own kernels (USMARRAY_DEVICE_KERNELS=1), the GPU kernel text."""
    name = request.param
    if name.endswith(OWN):
        name = name[: -len(OWN)]
        monkeypatch.setenv("USMARRAY_DEVICE_KERNELS", "1")
    return name


def on(device, a, dtype=None):
    return ua.asarray(np.asarray(a, dtype=dtype), device=device)


def has_fp64(device):
    return ua.Device(device).has_aspect_fp64


# ------------------------------------------------------------------ isin

ISIN_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64",
               "float16", "float32", "float64", "complex64", "complex128"]  # fmt: skip


def sample(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    values = rng.integers(0, 12, size=shape)
    if dt.kind == "c":
        return (values + 1j * rng.integers(0, 2, size=shape)).astype(dt)
    return values.astype(dt)


@pytest.mark.parametrize("dtype", ISIN_DTYPES)
def test_isin_matches_numpy(device, dtype):
    if dtype in ("float64", "complex128") and not has_fp64(device):
        pytest.skip("the device has no float64")
    x1, x2 = sample(dtype, (4, 5, 6), 0), sample(dtype, (3, 7), 1)
    for invert in (False, True):
        got = ua.isin(on(device, x1), on(device, x2), invert=invert)
        assert got.dtype == ua.bool and got.shape == x1.shape
        assert got.device == ua.Device(device)
        np.testing.assert_array_equal(ua.asnumpy(got), np.isin(x1, x2, invert=invert))
    # a strided view of x1 and a reversed one of x2
    got = ua.isin(on(device, x1)[:, ::2, ::-1], on(device, x2)[::-1, 1::2])
    np.testing.assert_array_equal(ua.asnumpy(got), np.isin(x1[:, ::2, ::-1], x2[::-1, 1::2]))


@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_isin_compares_values_nan_equals_nothing_and_zeros_equal(device, dtype):
    nan, z = np.nan, -0.0
    x1 = np.array([0.0, z, nan, 1.5, 2.0, np.inf, -np.inf], dtype=dtype)
    x2 = np.array([z, nan, 2.0, -np.inf], dtype=dtype)
    if dtype == "complex64":
        x1 = np.append(x1, [complex(z, z), complex(0, nan), 1j]).astype(dtype)
        x2 = np.append(x2, [complex(0, 0), complex(0, 1)]).astype(dtype)
    for invert in (False, True):
        got = ua.isin(on(device, x1), on(device, x2), invert=invert)
        np.testing.assert_array_equal(ua.asnumpy(got), np.isin(x1, x2, invert=invert))


def test_isin_promotes_mixed_dtypes(device):
    x1 = np.array([1, 2, 3, 200], dtype="uint8")
    x2 = np.array([2.0, 200.0, 3.5], dtype="float32")
    got = ua.isin(on(device, x1), on(device, x2))
    np.testing.assert_array_equal(ua.asnumpy(got), [False, True, False, True])
    got = ua.isin(on(device, x2), on(device, x1))
    np.testing.assert_array_equal(ua.asnumpy(got), [True, True, False])


def test_isin_with_empty_operands(device):
    x = on(device, [[1, 2], [3, 4]], "int32")
    empty = on(device, np.zeros((0, 3), dtype="int32"))
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(x, empty)), np.zeros((2, 2), bool))
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(x, empty, invert=True)), np.ones((2, 2), bool))
    got = ua.isin(empty, x)
    assert got.shape == (0, 3) and got.dtype == ua.bool


def test_isin_takes_a_python_scalar_on_either_side(device):
    x = on(device, [[1, 5, 7], [5, 0, 2]], "int16")
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(x, 5)), [[0, 1, 0], [1, 0, 0]])
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(x, 5, invert=True)), [[1, 0, 1], [0, 1, 1]])
    for scalar, want in ((7, True), (8, False), (7.0, True), (7.5, False)):
        got = ua.isin(scalar, x)
        assert got.shape == () and got.dtype == ua.bool and bool(got) is want, scalar
        assert bool(ua.isin(scalar, x, invert=True)) is not want
    # a Python int out of int16's range equals no element
    assert not bool(ua.any(ua.isin(x, 70000)))
    assert not bool(ua.isin(70000, x))
    f = on(device, [1.0, np.nan], "float32")
    np.testing.assert_array_equal(ua.asnumpy(ua.isin(f, float("nan"))), [False, False])


def test_isin_refuses_what_is_not_an_array_or_a_scalar(device):
    x = on(device, [1, 2], "int32")
    with pytest.raises(TypeError, match="x1 or x2 must be an array"):
        ua.isin(1, 2)
    with pytest.raises(TypeError, match="x2 must be an array or a Python scalar, not list"):
        ua.isin(x, [1, 2])
    with pytest.raises(TypeError, match="x1 must be an array or a Python scalar, not str"):
        ua.isin("1", x)
    with pytest.raises(TypeError, match="invert"):
        ua.isin(x, x, invert="yes")
    with pytest.raises(TypeError):
        ua.isin(x, x, False)  # invert is keyword-only
    with pytest.raises(TypeError):
        ua.isin(x1=x, x2=x)  # x1 and x2 are positional-only


def test_isin_refuses_arrays_on_two_queues(device):
    others = [d for d in ua.get_devices() if d != ua.Device(device)]
    if not others:
        pytest.skip("one device only")
    x = on(device, [1, 2], "int32")
    other = ua.asarray([1], dtype="int32", device=others[0])
    with pytest.raises(ValueError, match="to_device"):
        ua.isin(x, other)


def test_isin_of_a_large_array_against_a_large_set(device):
    rng = np.random.default_rng(3)
    x1 = rng.integers(0, 1 << 20, size=300_000).astype("int32")
    x2 = rng.integers(0, 1 << 20, size=50_000).astype("int32")
    got = ua.isin(on(device, x1), on(device, x2))
    np.testing.assert_array_equal(ua.asnumpy(got), np.isin(x1, x2))


# ------------------------------------------------------- broadcast_shapes


def test_broadcast_shapes_matches_numpy(device):
    cases = [(), ((2, 3),), ((2, 1), (3,)), ((5, 1, 4), (3, 1), (1,)), ((0, 1), (3,)),
             ((1,), ()), (4, (2, 1))]  # fmt: skip
    for shapes in cases:
        assert ua.broadcast_shapes(*shapes) == np.broadcast_shapes(*shapes), shapes
        assert type(ua.broadcast_shapes(*shapes)) is tuple


def test_broadcast_shapes_names_the_shapes_that_do_not_broadcast(device):
    with pytest.raises(ValueError, match=r"\(2, 3\) \(shapes\[0\]\) and \(4,\) \(shapes\[2\]\)"):
        ua.broadcast_shapes((2, 3), (1, 3), (4,))
    with pytest.raises(TypeError, match=r"shapes\[1\]\[0\] must be an integer, not NoneType"):
        ua.broadcast_shapes((2,), (None,))
    with pytest.raises(ValueError, match=r"shapes\[0\]\[0\] is negative"):
        ua.broadcast_shapes((-1,))
    with pytest.raises(TypeError):
        ua.broadcast_shapes("ab")


# ------------------------------------------------------------- eig, eigvals

REAL = ["float32", "float64"]
FLOATING = ["float32", "float64", "complex64", "complex128"]
TOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-10, "complex128": 1e-10}


def general_matrices(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", FLOATING)
def test_eig_solves_the_eigenproblem(device, dtype):
    if dtype in ("float64", "complex128") and not has_fp64(device):
        pytest.skip("the device has no float64")
    a = general_matrices(dtype, (3, 6, 6))
    res = la.eig(on(device, a))
    assert isinstance(res, la.EigResult)
    w, v = res
    want = np.result_type(dtype, "complex64")
    assert w.dtype == want and v.dtype == want
    assert w.shape == (3, 6) and v.shape == (3, 6, 6)
    w, v = ua.asnumpy(w), ua.asnumpy(v)
    scale = np.abs(a).max()
    assert np.abs(a @ v - v * w[..., None, :]).max() <= TOL[dtype] * scale * 6
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1, rtol=TOL[dtype] * 10)
    np.testing.assert_allclose(
        np.sort_complex(w), np.sort_complex(np.linalg.eigvals(a)), atol=TOL[dtype] * 10
    )
    np.testing.assert_array_equal(ua.asnumpy(la.eigvals(on(device, a))), w)


@pytest.mark.parametrize("dtype", REAL)
def test_eig_of_real_matrices_gives_conjugate_pairs_and_vectors(device, dtype):
    if dtype == "float64" and not has_fp64(device):
        pytest.skip("the device has no float64")
    rotation = np.array([[0.0, -2.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 3.0]], dtype=dtype)
    w, v = (ua.asnumpy(r) for r in la.eig(on(device, rotation)))
    np.testing.assert_allclose(np.sort_complex(w), [-2j, 2j, 3], atol=1e-5)
    pair = np.flatnonzero(w.imag != 0)
    assert w[pair[0]] == np.conj(w[pair[1]])
    np.testing.assert_allclose(v[:, pair[0]], np.conj(v[:, pair[1]]))
    np.testing.assert_allclose(rotation @ v, v * w, atol=1e-5)


def test_eig_on_stacks_matches_one_matrix_at_a_time(device):
    a = general_matrices("float32", (2, 3, 4, 4), seed=4)
    w, v = la.eig(on(device, a))
    for i in range(2):
        for j in range(3):
            wi, vi = la.eig(on(device, a[i, j]))
            np.testing.assert_array_equal(ua.asnumpy(w)[i, j], ua.asnumpy(wi))
            np.testing.assert_array_equal(ua.asnumpy(v)[i, j], ua.asnumpy(vi))


def test_eig_of_integers_and_of_empty_stacks(device):
    w = la.eigvals(on(device, [[2, 0], [0, 3]], "int32"))
    assert w.dtype == (ua.complex128 if has_fp64(device) else ua.complex64)
    assert sorted(ua.asnumpy(w).real.tolist()) == [2.0, 3.0]
    assert la.eigvals(on(device, np.zeros((0, 3, 3), "float32"))).shape == (0, 3)
    w, v = la.eig(on(device, np.zeros((2, 0, 0), "float32")))
    assert w.shape == (2, 0) and v.shape == (2, 0, 0) and v.dtype == ua.complex64


def test_eig_refuses_bad_matrices(device):
    with pytest.raises(la.LinAlgError, match="infinities or NaNs"):
        la.eig(on(device, [[np.nan, 1.0], [1.0, 1.0]], "float32"))
    with pytest.raises(la.LinAlgError, match="infinities or NaNs"):
        la.eigvals(on(device, [[np.inf, 1.0], [1.0, 1.0]], "float32"))
    with pytest.raises(ValueError, match="square"):
        la.eig(on(device, np.ones((2, 3), "float32")))
    with pytest.raises(ValueError):
        la.eigvals(on(device, np.ones(3, "float32")))
    with pytest.raises(TypeError, match="float16"):
        la.eig(on(device, np.ones((2, 2), "float16")))
    with pytest.raises(TypeError):
        la.eig([[1.0]])


# ------------------------------------------------- searchsorted with scalars


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float32"])
def test_searchsorted_takes_python_scalars(device, dtype):
    x1 = np.array([1, 3, 3, 5, 9], dtype=dtype)
    for scalar in (0, 3, 4, 9, 10, True):
        for side in ("left", "right"):
            got = ua.searchsorted(on(device, x1), scalar, side=side)
            assert got.shape == () and got.dtype == ua.int64
            assert int(got) == np.searchsorted(x1, scalar, side=side), (scalar, side)
    # a float between integers compares as a float, not truncated
    assert int(ua.searchsorted(on(device, x1), 3.5)) == 3
    sorter = on(device, np.argsort(x1[::-1], kind="stable"))
    assert int(ua.searchsorted(on(device, x1[::-1]), 4, sorter=sorter)) == 3


def test_searchsorted_refuses_other_needles(device):
    x1 = on(device, [1, 2, 3], "int8")
    with pytest.raises(TypeError, match="USMArray, not str"):
        ua.searchsorted(x1, "2")
    with pytest.raises(OverflowError, match="300 out of bounds for int8"):
        ua.searchsorted(x1, 300)


# ------------------------------------------------- tuples, version


def test_lists_of_2024_are_tuples(device):
    x = on(device, [1.0, 2.0], "float32")
    grids = ua.meshgrid(x, x, indexing="ij")
    assert type(grids) is tuple and len(grids) == 2
    views = ua.broadcast_arrays(x, on(device, [[1.0], [2.0]], "float32"))
    assert type(views) is tuple and [v.shape for v in views] == [(2, 2), (2, 2)]
    assert type(ua.broadcast_arrays()) is tuple
    devices = ua.__array_namespace_info__().devices()
    assert type(devices) is tuple and ua.Device(device) in devices


def test_the_namespace_answers_for_2025_12_and_2024_12(device):
    x = on(device, [1], "int32")
    assert ua.__array_api_version__ == "2025.12"
    ns = x.__array_namespace__()
    assert x.__array_namespace__(api_version="2025.12") is ns
    assert x.__array_namespace__(api_version="2024.12") is ns
    assert ns.isin is ua.isin and ns.broadcast_shapes is ua.broadcast_shapes
    assert ns.linalg.eig is la.eig and ns.linalg.eigvals is la.eigvals
    with pytest.raises(ValueError, match="2025.12 and 2024.12"):
        x.__array_namespace__(api_version="2026.12")
