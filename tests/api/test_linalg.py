"""usmarray.linalg against numpy.linalg: the factorizations through the
platform's library (LAPACK on the host and on SYCL CPU devices, cuSOLVER
on CUDA) and the functions composed of the namespace's own, over every
floating dtype, batches, layouts and empty shapes, on the first device of
each backend the machine has.  Vectors are compared through what defines
them (a reconstruction, A v = v w), since their signs and phases are the
library's choice."""

import numpy as np
import pytest
import usmarray as ua
import usmarray.linalg as la
from conftest import first_device_of_each_backend

FLOATING = ["float32", "float64", "complex64", "complex128"]
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


def well_conditioned(shape, dtype, seed=0):
    """Random matrices plus n times the identity."""
    x = matrices(shape, dtype, seed)
    return (x + shape[-1] * np.eye(shape[-1])).astype(dtype)


def positive_definite(shape, dtype, seed=0):
    x = matrices(shape, dtype, seed)
    return (x @ np.conj(np.swapaxes(x, -1, -2)) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def close(got, want, dtype):
    got = back(got) if isinstance(got, ua.USMArray) else got
    scale = max(1.0, float(np.max(np.abs(want)))) if np.size(want) else 1.0
    np.testing.assert_allclose(got, want, rtol=tol(dtype), atol=tol(dtype) * scale)


def layouts(x):
    yield x
    yield np.asfortranarray(x)
    yield np.repeat(x, 2, axis=-1)[..., ::2]
    yield x[::-1]


def test_the_submodule_is_importable_and_lists_the_standard_names():
    import importlib

    assert importlib.import_module("usmarray.linalg") is ua.linalg
    names = {"cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv", "matmul",
             "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv",
             "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot",
             "vector_norm"}  # fmt: skip
    assert names <= set(la.__all__)
    assert la.matmul is ua.matmul
    assert issubclass(la.LinAlgError, ValueError)


def test_device_libraries_name_lapack_on_the_host():
    assert "LAPACK" in ua.Device("host").libraries


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(dtype, upper):
    a = positive_definite((3, 5, 5), dtype)
    for x in layouts(a):
        want = np.linalg.cholesky(x, upper=upper)
        got = la.cholesky(on_device(x), upper=upper)
        assert got.dtype == np.dtype(dtype) and got.device == on_device(x).device
        close(got, want, dtype)


def test_cholesky_of_a_matrix_that_is_not_positive_definite_raises():
    a = np.stack([np.eye(3), -np.eye(3)])
    with pytest.raises(la.LinAlgError, match="matrix 1 of the batch is not positive definite"):
        la.cholesky(on_device(a))


@pytest.mark.parametrize("dtype", FLOATING)
def test_det_and_slogdet(dtype):
    a = matrices((3, 6, 6), dtype, seed=1)
    a[1] = a[1] @ np.diag([1, 1, 1, 1, 1, 0]).astype(dtype)  # singular, in every layout
    for x in layouts(a):
        close(la.det(on_device(x)), np.linalg.det(x), dtype)
        sign, logdet = la.slogdet(on_device(x))
        want = np.linalg.slogdet(x)
        close(sign, want.sign, dtype)
        got = back(logdet)
        assert np.isneginf(got[1]) and np.isneginf(want.logabsdet[1])
        close(got[[0, 2]], want.logabsdet[[0, 2]], dtype)
        assert logdet.dtype == np.real(np.zeros(1, dtype)).dtype
    result = la.slogdet(on_device(a))
    assert result.sign is result[0] and result.logabsdet is result[1]


def test_det_of_a_row_swap_is_minus_one():
    p = np.array([[0.0, 1.0], [1.0, 0.0]])
    assert back(la.det(on_device(p))) == -1.0


def test_det_of_an_overflowing_single_precision_matrix_is_numpys_infinity():
    # NumPy computes single-precision determinants in double and rounds
    # once: an overflowing complex64 product is inf, not nan+nanj.
    for m in (
        np.array([[1e30 + 1e30j, 0], [0, 1e30 + 1e30j]], np.complex64),
        np.diag(np.full(3, 1e20 + 1e20j)).astype(np.complex64),
        np.array([[1e30, 0], [0, 1e30]], np.complex64),
        np.array([[1e30, 0, 0], [0, 1e30, 0], [0, 0, 1e-30]], np.float32),
    ):
        got = back(la.det(on_device(m)))
        with np.errstate(all="ignore"):
            want = np.linalg.det(m)
        assert got.dtype == want.dtype and not np.isnan(got).any(), (got, want)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", FLOATING)
def test_inv_and_solve(dtype):
    a = well_conditioned((3, 4, 4), dtype)
    b = matrices((3, 4, 2), dtype, seed=2)
    for x in layouts(a):
        close(la.inv(on_device(x)), np.linalg.inv(x), dtype)
        close(la.solve(on_device(x), on_device(b)), np.linalg.solve(x, b), dtype)
    # one vector, and batches that broadcast
    close(la.solve(on_device(a), on_device(b[0, :, 0])), np.linalg.solve(a, b[0, :, 0]), dtype)
    close(la.solve(on_device(a[:1]), on_device(b)), np.linalg.solve(a[:1], b), dtype)
    close(la.solve(on_device(a), on_device(b[0])), np.linalg.solve(a, b[0]), dtype)


def test_solve_promotes_to_the_common_floating_type():
    a = well_conditioned((3, 3), "float32")
    b = matrices((3,), "complex128")
    got = la.solve(on_device(a), on_device(b))
    assert got.dtype == np.complex128
    close(got, np.linalg.solve(a, b), "complex128")


def test_inv_and_solve_of_a_singular_matrix_raise():
    s = np.stack([np.eye(3), np.ones((3, 3))])
    with pytest.raises(la.LinAlgError, match="matrix 1 of the batch is singular"):
        la.inv(on_device(s))
    with pytest.raises(la.LinAlgError, match="singular"):
        la.solve(on_device(s), on_device(np.ones(3)))


@pytest.mark.parametrize("dtype", FLOATING)
def test_eigh_and_eigvalsh(dtype):
    a = (positive_definite((2, 7, 7), dtype) - 7 * np.eye(7)).astype(dtype)
    for x in layouts(a):
        w, v = la.eigh(on_device(x))
        close(w, np.linalg.eigvalsh(x), dtype)
        wn, vn = back(w), back(v)
        assert w.dtype == np.real(np.zeros(1, dtype)).dtype and v.dtype == np.dtype(dtype)
        close(x @ vn, vn * wn[..., None, :], dtype)
        close(np.conj(np.swapaxes(vn, -1, -2)) @ vn, np.broadcast_to(np.eye(7), a.shape), dtype)
        close(la.eigvalsh(on_device(x)), np.linalg.eigvalsh(x), dtype)
    result = la.eigh(on_device(a))
    assert result.eigenvalues is result[0] and result.eigenvectors is result[1]


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (2, 5, 5)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr(dtype, shape, mode):
    a = matrices(shape, dtype)
    q, r = la.qr(on_device(a), mode=mode)
    q0, r0 = np.linalg.qr(a, mode=mode)
    assert q.shape == q0.shape and r.shape == r0.shape
    qn, rn = back(q), back(r)
    close(qn @ rn, a, dtype)
    k = q.shape[-1]
    close(
        np.conj(np.swapaxes(qn, -1, -2)) @ qn,
        np.broadcast_to(np.eye(k), qn.shape[:-2] + (k, k)),
        dtype,
    )
    assert np.all(np.tril(rn, -1) == 0)
    close(np.abs(rn), np.abs(r0), dtype)


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (3, 5, 5)])
@pytest.mark.parametrize("full", [True, False])
def test_svd_and_svdvals(dtype, shape, full):
    a = matrices(shape, dtype)
    for x in layouts(a):
        u, s, vh = la.svd(on_device(x), full_matrices=full)
        u0, s0, vh0 = np.linalg.svd(x, full_matrices=full)
        assert (u.shape, s.shape, vh.shape) == (u0.shape, s0.shape, vh0.shape)
        close(s, s0, dtype)
        k = s.shape[-1]
        un, sn, vn = back(u), back(s), back(vh)
        close((un[..., :, :k] * sn[..., None, :]) @ vn[..., :k, :], x, dtype)
        close(la.svdvals(on_device(x)), s0, dtype)
    result = la.svd(on_device(a))
    assert result.U is result[0] and result.S is result[1] and result.Vh is result[2]


def test_an_svd_of_a_matrix_with_a_nan_raises_as_numpy_does():
    a = np.eye(3)
    a[1, 2] = np.nan
    for fn in (la.svd, la.svdvals, la.pinv, la.matrix_rank):
        with pytest.raises(la.LinAlgError, match="holds a NaN"):
            fn(on_device(a))
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.svd(a)


def test_factorizations_of_empty_shapes():
    empty_batch = np.zeros((0, 3, 3))
    assert la.inv(on_device(empty_batch)).shape == (0, 3, 3)
    assert la.det(on_device(empty_batch)).shape == (0,)
    assert back(la.det(on_device(np.zeros((2, 0, 0))))).tolist() == [1.0, 1.0]
    assert la.eigvalsh(on_device(np.zeros((0, 0)))).shape == (0,)
    u, s, vh = la.svd(on_device(np.zeros((3, 0))))
    assert u.shape == (3, 3) and s.shape == (0,) and vh.shape == (0, 0)
    np.testing.assert_array_equal(back(u), np.eye(3))
    q, r = la.qr(on_device(np.zeros((3, 0))), mode="complete")
    np.testing.assert_array_equal(back(q), np.eye(3))
    assert r.shape == (3, 0)


def test_integer_matrices_compute_in_the_default_float():
    a = np.array([[2, 1], [1, 3]])
    got = la.inv(on_device(a))
    assert (
        got.dtype
        == ua.__array_namespace_info__().default_dtypes(device=on_device(a).device)["real floating"]
    )
    close(got, np.linalg.inv(a), "float32")


@pytest.mark.parametrize("offset", [-5, -2, -1, 0, 1, 3, 9])
def test_diagonal_and_trace(offset):
    a = matrices((2, 4, 6), "float64")
    d = la.diagonal(on_device(a), offset=offset)
    np.testing.assert_array_equal(back(d), np.linalg.diagonal(a, offset=offset))
    close(la.trace(on_device(a), offset=offset), np.linalg.trace(a, offset=offset), "float64")
    ints = np.arange(24, dtype=np.int8).reshape(2, 3, 4)
    t = la.trace(on_device(ints))
    assert t.dtype == np.int64
    np.testing.assert_array_equal(back(t), np.linalg.trace(ints, dtype=np.int64))
    assert la.trace(on_device(ints), dtype="int16").dtype == np.int16


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm(dtype, ord, keepdims):
    a = matrices((3, 4, 5), dtype)
    got = la.matrix_norm(on_device(a), ord=ord, keepdims=keepdims)
    want = np.linalg.matrix_norm(a, ord=ord, keepdims=keepdims)
    assert got.shape == want.shape and got.dtype == want.dtype
    close(got, want, dtype)


@pytest.mark.parametrize("dtype", [*FLOATING, "int32"])
@pytest.mark.parametrize("ord", [2, 1, 0, np.inf, -np.inf, 3.5, -1])
@pytest.mark.parametrize("axis", [None, 1, (0, 2), -1])
def test_vector_norm(dtype, ord, axis):
    a = matrices((3, 4, 5), dtype) if dtype != "int32" else np.arange(60).reshape(3, 4, 5) - 30
    for keepdims in (False, True):
        got = la.vector_norm(on_device(a), axis=axis, keepdims=keepdims, ord=ord)
        want = np.linalg.vector_norm(a, axis=axis, keepdims=keepdims, ord=ord)
        assert got.shape == want.shape
        close(got, want, "float32" if dtype == "int32" else dtype)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 6, -1, -4])
def test_matrix_power(n):
    a = well_conditioned((2, 4, 4), "float64") / 4
    got = la.matrix_power(on_device(a), n)
    close(got, np.linalg.matrix_power(a, n), "float64")
    if n >= 0:
        ints = np.arange(9).reshape(3, 3)
        got = la.matrix_power(on_device(ints), n)
        assert got.dtype == ints.dtype
        np.testing.assert_array_equal(back(got), np.linalg.matrix_power(ints, n))


def test_matrix_rank_and_pinv():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 6, 2)) @ rng.standard_normal((3, 2, 5))  # rank 2
    np.testing.assert_array_equal(back(la.matrix_rank(on_device(a))), np.linalg.matrix_rank(a))
    rtol = np.array([1e-3, 0.5, 1e-12])
    np.testing.assert_array_equal(
        back(la.matrix_rank(on_device(a), rtol=on_device(rtol))),
        np.linalg.matrix_rank(a, rtol=rtol),
    )
    close(la.pinv(on_device(a)), np.linalg.pinv(a), "float64")
    close(la.pinv(on_device(a), rtol=0.5), np.linalg.pinv(a, rtol=0.5), "float64")
    c = matrices((4, 3), "complex128")
    close(la.pinv(on_device(c)), np.linalg.pinv(c), "complex128")


def test_outer_and_cross():
    a, b = matrices((4,), "float64"), matrices((5,), "float32", seed=1)
    got = la.outer(on_device(a), on_device(b))
    assert got.dtype == np.float64
    close(got, np.outer(a, b), "float64")
    u, v = matrices((4, 3), "float64"), matrices((3,), "float64", seed=2)
    close(la.cross(on_device(u), on_device(v)), np.cross(u, v), "float64")
    close(
        la.cross(on_device(u.T), on_device(u.T[:, ::-1]), axis=-2),
        np.cross(u.T, u.T[:, ::-1], axis=0),
        "float64",
    )
    ints = np.arange(6).reshape(2, 3)
    np.testing.assert_array_equal(
        back(la.cross(on_device(ints), on_device(ints[::-1]))), np.cross(ints, ints[::-1])
    )


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda x: la.inv(x[0]), ValueError, "at least two dimensions"),
        (lambda x: la.inv(x[:, :2]), ValueError, "square"),
        (lambda x: la.cholesky(ua.astype(x, "float16")), TypeError, "float16"),
        (lambda x: la.qr(x, mode="r"), ValueError, "mode"),
        (lambda x: la.matrix_norm(x, ord=3), ValueError, "ord"),
        (lambda x: la.matrix_norm(x, ord="max"), ValueError, "ord"),
        (lambda x: la.vector_norm(x, ord="fro"), ValueError, "ord"),
        (lambda x: la.cross(x, x), ValueError, "3 elements"),
        (lambda x: la.cross(x[:, :3], x[:, :3], axis=0), ValueError, "axis"),
        (lambda x: la.outer(x, x), ValueError, "two vectors"),
        (lambda x: la.matrix_power(x, 1.5), TypeError, "int"),
        (lambda x: la.matrix_power(x[:, :2], 2), ValueError, "square"),
        (lambda x: la.solve(x, x[:2]), ValueError, "rows"),
        (
            lambda x: la.solve(ua.stack([x, x, x]), ua.ones((2, 4, 1), device=x.device)),
            ValueError,
            "broadcast",
        ),
        (lambda x: la.svd(x, full_matrices=2), (TypeError, ValueError), "full_matrices"),
        (lambda x: la.det(np.eye(4)), TypeError, "det"),
    ],
)
def test_bad_inputs_raise_errors_that_name_the_problem(call, error, match):
    x = on_device(well_conditioned((4, 4), "float64"))
    with pytest.raises(error, match=match):
        call(x)


def test_results_stay_on_the_operands_device():
    x = on_device(well_conditioned((3, 3), "float32"))
    for r in (la.inv(x), la.cholesky(x @ ua.matrix_transpose(x)), la.svdvals(x), la.qr(x).Q):
        assert r.device == x.device


PCA_SCRIPT = """
import sys
import numpy as np
import sklearn
import usmarray as ua
from sklearn.decomposition import PCA

rng = np.random.default_rng(0)
X = rng.standard_normal((200, 8)) @ rng.standard_normal((8, 8))
ref = PCA(n_components=3, svd_solver="full").fit(X)
x = ua.asarray(X, device=sys.argv[1])
with sklearn.config_context(array_api_dispatch=True):
    pca = PCA(n_components=3, svd_solver="full").fit(x)
    z = pca.transform(x)
assert isinstance(z, ua.USMArray) and z.device == x.device, type(z)
np.testing.assert_allclose(ua.asnumpy(pca.explained_variance_), ref.explained_variance_, rtol=1e-8)
np.testing.assert_allclose(np.abs(ua.asnumpy(z)), np.abs(ref.transform(X)), rtol=1e-6, atol=1e-9)
print("PCA ran on", z.device)
"""


def test_scikit_learn_pca_runs_on_usmarray_arrays():
    """A scikit-learn estimator that supports the Array API fits and
    transforms usmarray arrays on their device, through array-api-compat
    and usmarray.linalg.svd (SciPy's Array API mode is set before import,
    hence a fresh interpreter)."""
    import os
    import subprocess
    import sys

    pytest.importorskip("sklearn")
    pytest.importorskip("array_api_compat")
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    run = subprocess.run(
        [sys.executable, "-c", PCA_SCRIPT, DEVICE],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "PCA ran on" in run.stdout


def test_results_follow_the_operands_queue_and_usm_kind():
    """Arrays the functions make beside their operand (pivot positions,
    identities) live on its queue, a user's own queue included, and in its
    kind of memory."""
    q = ua.Queue(DEVICE)
    if DEVICE.startswith("sycl"):
        dpctl = pytest.importorskip("dpctl")
        q = ua.Queue(dpctl.SyclQueue(ua.Device(DEVICE).filter_string.replace("sycl", "opencl")))
    x = ua.asarray(well_conditioned((2, 3, 3), "float64"), queue=q, usm_type="shared")
    results = [la.inv(x), la.det(x), *la.slogdet(x), la.matrix_power(x, 0), la.qr(x, mode="complete").Q,
               la.pinv(x), la.matrix_rank(x), la.svd(ua.zeros((3, 0), queue=q, usm_type="shared")).U]  # fmt: skip
    for r in results:
        assert r.queue == q and r.usm_type == "shared"
    close(la.det(x), np.linalg.det(ua.asnumpy(x)), "float64")


# ------------------------------------------------ batches of small matrices
# The host's own loops (orders up to 32: LU with partial pivoting, its
# solves, Cholesky, and det and slogdet in one pass) and LAPACK past them,
# over the four floating dtypes, batch shapes (empty ones among them),
# singular matrices, NaNs and infinities, and batches long enough to be
# split over the host's threads.  No timing here:
# benchmarks/host_small_linalg.py times them beside NumPy.

# 1 to 4 have unrolled copies; 5 to 32 the loop for any order; 33 and 40
# go to LAPACK
ORDERS = [1, 2, 3, 4, 5, 7, 16, 32, 33, 40]


def batch_close(got, want, dtype, factor=1.0):
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
    batch_close(sign, ws.sign, dtype, n)
    batch_close(logdet, ws.logabsdet, dtype, n)


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("n", ORDERS)
def test_inv_and_solve_of_a_batch(dtype, n):
    a = (matrices((6, n, n), dtype, seed=n) + n * np.eye(n)).astype(dtype)
    x = on_device(a)
    batch_close(la.inv(x), np.linalg.inv(a), dtype, 10)
    for k in (1, 3, 4, 9):  # the solves take right-hand sides four at a time
        b = matrices((6, n, k), dtype, seed=k)
        batch_close(la.solve(x, on_device(b)), np.linalg.solve(a, b), dtype, 10)
    v = matrices((n,), dtype, seed=3)
    batch_close(la.solve(x, on_device(v)), np.linalg.solve(a, v[None, :, None])[..., 0], dtype, 10)


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("n", ORDERS)
def test_cholesky_of_a_batch(dtype, n):
    g = matrices((4, n, n), dtype, seed=n)
    a = (g @ np.conj(np.swapaxes(g, -1, -2)) + n * np.eye(n)).astype(dtype)
    for upper in (False, True):
        batch_close(la.cholesky(on_device(a), upper=upper),
              np.conj(np.swapaxes(np.linalg.cholesky(a), -1, -2)) if upper
              else np.linalg.cholesky(a), dtype, 10)  # fmt: skip


@pytest.mark.parametrize("shape", [(0, 3, 3), (2, 0, 4, 4), (3, 0, 0), (0, 0)])
def test_empty_batches_and_empty_matrices(shape):
    a = np.zeros(shape)
    x = on_device(a)
    batch_close(la.det(x), np.linalg.det(a), "float64")
    s, logdet = la.slogdet(x)
    ws = np.linalg.slogdet(a)
    batch_close(s, ws.sign, "float64")
    batch_close(logdet, ws.logabsdet, "float64")
    batch_close(la.inv(x), np.linalg.inv(a), "float64")
    batch_close(la.cholesky(x), np.linalg.cholesky(a), "float64")


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


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [5, 8, 16])
def test_cholesky_of_a_matrix_is_the_same_bits_anywhere_in_the_batch(dtype, n):
    # The host takes whole groups of 8 (float64) or 16 (float32) matrices
    # at once, the rest one at a time: matrices 16 to 18 repeat 0 to 2.
    a = positive_definite((19, n, n), dtype, seed=n)
    a[16:] = a[:3]
    got = back(la.cholesky(ua.asarray(a, device="host")))
    assert got[16:].tobytes() == got[:3].tobytes()
    assert not np.triu(got, 1).any()
    batch_close(got, np.linalg.cholesky(a), dtype, 10)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [5, 8, 16])
def test_cholesky_names_the_first_matrix_not_positive_definite_in_a_group(dtype, n):
    a = positive_definite((40, n, n), dtype, seed=n)
    a[29, n - 1, n - 1] = -1
    with pytest.raises(la.LinAlgError, match="matrix 29 of the batch is not positive definite"):
        la.cholesky(on_device(a))
    a[13, 2, 2] = 0
    with pytest.raises(la.LinAlgError, match="matrix 13 of the batch is not positive definite"):
        la.cholesky(on_device(a))
    # split over threads (two parts and more), failures in the first part
    # and in the last: the first one is named
    a = np.broadcast_to(positive_definite((n, n), dtype), (4000, n, n)).copy()
    a[1501, 0, 0] = -1
    a[3900, 1, 1] = np.nan
    with pytest.raises(la.LinAlgError, match="matrix 1501 of the batch is not positive definite"):
        la.cholesky(on_device(a))


@pytest.mark.parametrize("dtype", FLOATING)
def test_eigh_of_a_long_batch_is_each_matrix_alone(dtype):
    # 3,000 matrices on the host, whose LAPACK calls run one matrix at a
    # time (a GPU's batched solver takes another method than its one-matrix
    # call).
    a = positive_definite((3000, 4, 4), dtype, seed=4)
    w, v = la.eigh(ua.asarray(a, device="host"))
    for k in (0, 1499, 1500, 2999):
        wk, vk = la.eigh(ua.asarray(a[k : k + 1], device="host"))
        assert back(w)[k].tobytes() == back(wk)[0].tobytes()
        assert back(v)[k].tobytes() == back(vk)[0].tobytes()
    batch_close(w, np.linalg.eigvalsh(a), dtype, 10)


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
    batch_close(la.det(on_device(a)), np.linalg.det(a), "float64", 4)
    batch_close(la.inv(on_device(a)), np.linalg.inv(a), "float64", 1e3)


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
    batch_close(la.det(on_device(a)), np.linalg.det(a), "float64", 100)
    f = matrices((6, 5, 5), "float64")[::2, :, ::-1]
    batch_close(la.det(on_device(f)), np.linalg.det(f), "float64", 10)
    batch_close(la.inv(on_device(f)), np.linalg.inv(f), "float64", 1e3)
