"""Batches of small matrices in usmarray.linalg against numpy.linalg: the
host's own loops (orders up to 32: LU with partial pivoting, its solves,
Cholesky, and det and slogdet in one pass) and LAPACK past them, over the
four floating dtypes, batch shapes (empty ones among them), singular
matrices, NaNs and infinities, and batches long enough to be split over
the host's threads.  No timing here: benchmarks/host_small_linalg.py
times them beside NumPy."""

import numpy as np
import pytest
import usmarray as ua
import usmarray.linalg as la
from conftest import first_device_of_each_backend

FLOATING = ["float32", "float64", "complex64", "complex128"]
# 1 to 4 have unrolled copies; 5 to 32 the loop for any order; 33 and 40
# go to LAPACK
ORDERS = [1, 2, 3, 4, 5, 7, 16, 32, 33, 40]
DEVICES = first_device_of_each_backend()
DEVICE = DEVICES[0]


@pytest.fixture(params=DEVICES, autouse=True)
def device(request):
    global DEVICE
    DEVICE = request.param
    return DEVICE


def on_device(x):
    return ua.asarray(x, device=DEVICE)


def back(x):
    return ua.asnumpy(x)


def tol(dtype):
    return 2e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


def matrices(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def close(got, want, dtype, factor=1.0):
    got = back(got) if isinstance(got, ua.USMArray) else got
    assert got.dtype == want.dtype and got.shape == want.shape
    scale = max(1.0, float(np.max(np.abs(want)))) if np.size(want) else 1.0
    t = tol(dtype) * factor
    np.testing.assert_allclose(got, want, rtol=t, atol=t * scale)


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("n", ORDERS)
def test_det_and_slogdet_of_a_batch(dtype, n):
    a = matrices((5, n, n), dtype, seed=n)
    x = on_device(a)
    # determinants grow as n!: compare relative to each
    d, want = back(la.det(x)), np.linalg.det(a)
    assert d.dtype == want.dtype and d.shape == want.shape
    np.testing.assert_allclose(d, want, rtol=tol(dtype) * n)
    sign, logdet = la.slogdet(x)
    ws = np.linalg.slogdet(a)
    close(sign, ws.sign, dtype, n)
    close(logdet, ws.logabsdet, dtype, n)


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("n", ORDERS)
def test_inv_and_solve_of_a_batch(dtype, n):
    a = (matrices((6, n, n), dtype, seed=n) + n * np.eye(n)).astype(dtype)
    x = on_device(a)
    close(la.inv(x), np.linalg.inv(a), dtype, 10)
    for k in (1, 3, 4, 9):  # the solves take right-hand sides four at a time
        b = matrices((6, n, k), dtype, seed=k)
        close(la.solve(x, on_device(b)), np.linalg.solve(a, b), dtype, 10)
    v = matrices((n,), dtype, seed=3)
    close(la.solve(x, on_device(v)), np.linalg.solve(a, v[None, :, None])[..., 0], dtype, 10)


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("n", ORDERS)
def test_cholesky_of_a_batch(dtype, n):
    g = matrices((4, n, n), dtype, seed=n)
    a = (g @ np.conj(np.swapaxes(g, -1, -2)) + n * np.eye(n)).astype(dtype)
    for upper in (False, True):
        close(la.cholesky(on_device(a), upper=upper),
              np.conj(np.swapaxes(np.linalg.cholesky(a), -1, -2)) if upper
              else np.linalg.cholesky(a), dtype, 10)  # fmt: skip


@pytest.mark.parametrize("shape", [(0, 3, 3), (2, 0, 4, 4), (3, 0, 0), (0, 0)])
def test_empty_batches_and_empty_matrices(shape):
    a = np.zeros(shape)
    x = on_device(a)
    close(la.det(x), np.linalg.det(a), "float64")
    s, logdet = la.slogdet(x)
    ws = np.linalg.slogdet(a)
    close(s, ws.sign, "float64")
    close(logdet, ws.logabsdet, "float64")
    close(la.inv(x), np.linalg.inv(a), "float64")
    close(la.cholesky(x), np.linalg.cholesky(a), "float64")


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("n", [2, 3, 4, 6, 40])
def test_singular_matrices(dtype, n):
    a = matrices((3, n, n), dtype, seed=n)
    a[1, :, 0] = 0  # an exact zero pivot
    a[2, 1] = a[2, 0]  # two equal rows
    x = on_device(a)
    d = back(la.det(x))
    assert d[1] == 0
    np.testing.assert_allclose(d[:2], np.linalg.det(a)[:2], rtol=tol(dtype) * n)
    # two equal rows: zero but for rounding, small beside Hadamard's bound
    bound = np.prod(np.linalg.norm(a[2].astype(np.complex128), axis=1))
    assert abs(d[2]) <= tol(dtype) * n * bound
    sign, logdet = la.slogdet(x)
    assert back(sign)[1] == 0 and np.isneginf(back(logdet)[1])
    with pytest.raises(la.LinAlgError, match="matrix 1 of the batch is singular"):
        la.inv(x)
    with pytest.raises(la.LinAlgError, match="singular"):
        la.solve(x, on_device(np.ones(n, dtype)))


def test_the_first_failing_matrix_of_a_long_batch_is_named():
    # long enough to be split over threads; failures in two parts
    a = np.broadcast_to(np.eye(3), (20000, 3, 3)).copy()
    a[15000] = 0
    a[17000] = 0
    with pytest.raises(la.LinAlgError, match="matrix 15000 of the batch is singular"):
        la.inv(on_device(a))
    a[15000, 2, 2] = -1
    with pytest.raises(la.LinAlgError, match="matrix 15000 of the batch is not positive definite"):
        la.cholesky(on_device(a))
    a = matrices((20000, 4, 4), "float64")
    close(la.det(on_device(a)), np.linalg.det(a), "float64", 4)
    close(la.inv(on_device(a)), np.linalg.inv(a), "float64", 1e3)


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("n", [1, 3, 4, 8])
def test_nans_propagate(dtype, n):
    a = matrices((2, n, n), dtype, seed=n)
    a[0, n - 1, n // 2] = np.nan
    x = on_device(a)
    assert np.isnan(back(la.det(x))[0]) and not np.isnan(back(la.det(x))[1])
    sign, logdet = la.slogdet(x)
    with np.errstate(invalid="ignore"):
        ws = np.linalg.slogdet(a)
    assert np.isnan(back(logdet)[0]) and np.isnan(ws.logabsdet[0])
    # NumPy's real sign counts negative pivots: it stays +-1 beside a NaN
    np.testing.assert_array_equal(np.isnan(back(sign)[0]), np.isnan(ws.sign[0]))
    assert np.isnan(back(la.inv(x))[0]).any()
    np.testing.assert_allclose(back(la.inv(x))[1], np.linalg.inv(a[1]), rtol=1e-2)


def test_infinite_and_huge_determinants():
    for m in (
        np.diag([1e200, 1e200, 1e-300]),
        np.diag([1e300, 1e300]),
        np.diag([1e-300, 1e-300]),
        np.array([[np.inf, 0], [0, 2.0]]),
        np.diag([1e200 + 1e200j, 1e200, -1e-300j]),
        np.diag([1e30, 1e30, 1e-30]).astype(np.float32),
    ):
        with np.errstate(all="ignore"):
            want = np.linalg.det(m)
            ws = np.linalg.slogdet(m)
        np.testing.assert_allclose(back(la.det(on_device(m))), want, rtol=1e-6)
        sign, logdet = la.slogdet(on_device(m))
        np.testing.assert_allclose(back(sign), ws.sign, rtol=1e-6)
        np.testing.assert_allclose(back(logdet), ws.logabsdet, rtol=1e-6)


def test_det_sign_follows_the_row_swaps():
    for perm in ([1, 0, 2], [2, 0, 1], [3, 2, 1, 0], [1, 2, 3, 0]):
        p = np.eye(len(perm))[perm]
        assert back(la.det(on_device(p))) == np.linalg.det(p)
        assert back(la.slogdet(on_device(p)).sign) == np.linalg.slogdet(p).sign


def test_integer_matrices_and_strided_batches():
    a = np.arange(2 * 3 * 4 * 4).reshape(2, 3, 4, 4) % 7 + np.eye(4, dtype=np.int64)
    close(la.det(on_device(a)), np.linalg.det(a), "float64", 100)
    f = matrices((6, 5, 5), "float64")[::2, :, ::-1]
    close(la.det(on_device(f)), np.linalg.det(f), "float64", 10)
    close(la.inv(on_device(f)), np.linalg.inv(f), "float64", 1e3)
