"""usmarray.linalg on a CUDA device against numpy.linalg on the host, along
every path the CUDA backend takes: cuSOLVER one matrix per call (single
matrices, and batches of matrices too large for the batched routines),
cuSOLVER's potrfBatched, syevjBatched / heevjBatched and gesvdjBatched and
cuBLAS's getrfBatched / getrsBatched for batches of small matrices, tall
and wide SVDs (gesvd factors the transpose of a wide matrix), every
floating dtype, a batch of 1,024 8 x 8 matrices, and the errors that name
the matrix of a batch that fails.  Vectors are checked through what
defines them (reconstructions, orthonormality), not their signs.  Skipped
without a CUDA device."""

import os
import re
import subprocess
import sys

import numpy as np
import pytest
import usmarray as ua

CUDA = [d for d in ua.get_devices() if d.backend == "cuda"]
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not CUDA, reason="no CUDA device here")]

GPU = "cuda:gpu:0"
DTYPES = ["float32", "float64", "complex64", "complex128"]
la = ua.linalg

# The CUDA backend's thresholds (cuda_solver_batched.c): batches of order
# < 512 go to cuBLAS's batched LU, <= 1024 to potrfBatched, <= 32 to the
# Jacobi routines; larger ones are factored one matrix per call.
LU_LOOPED = 520
POTRF_LOOPED = 1030
JACOBI = 32


def gpu(a, usm_type="device"):
    return ua.asarray(a, usm_type=usm_type, device=GPU)


def host(x):
    return ua.asnumpy(x)


def single(dtype):
    return np.dtype(dtype) in (np.float32, np.complex64)


def tol(dtype, n=1):
    """Relative to the largest magnitude: rounding grows with the order."""
    return (3e-5 if single(dtype) else 1e-13) * max(8, n)


def close(got, want, dtype, n=1):
    got = host(got) if isinstance(got, ua.USMArray) else np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    err = float(np.max(np.abs(got - want))) if want.size else 0.0
    assert err <= tol(dtype, n) * scale, f"max error {err:.3g}, scale {scale:.3g}"


def random(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def well_conditioned(shape, dtype, seed=0):
    """Random matrices shifted past their spectral norm (about 2 sqrt(2n))."""
    n = shape[-1]
    x = random(shape, dtype, seed)
    return (x + (n + 4 * np.sqrt(n)) * np.eye(n)).astype(dtype)


def hermitian(shape, dtype, seed=0):
    x = random(shape, dtype, seed)
    return ((x + np.conj(np.swapaxes(x, -1, -2))) / 2).astype(dtype)


def positive_definite(shape, dtype, seed=0):
    x = random(shape, dtype, seed) / np.sqrt(shape[-1])
    h = x @ np.conj(np.swapaxes(x, -1, -2))
    return (h + np.eye(shape[-1])).astype(dtype)


def ct(x):
    return np.conj(np.swapaxes(x, -1, -2))


def identities(shape, k):
    return np.broadcast_to(np.eye(k), shape[:-2] + (k, k))


# ------------------------------------------------------------- loading


def test_device_libraries_name_cusolver_and_its_version():
    libraries = ua.Device(GPU).libraries
    assert re.search(r"cuSOLVER \d+\.\d+\.\d+ \(libcusolver\.so", libraries), libraries


def test_a_library_that_is_not_there_is_named():
    env = dict(os.environ, USMARRAY_CUSOLVER_LIBRARY="/nonexistent/libcusolver.so.11")
    code = (
        "import numpy as np, usmarray as ua\n"
        f"print(ua.Device({GPU!r}).libraries)\n"
        f"a = ua.asarray(np.eye(3), device={GPU!r})\n"
        "try:\n"
        "    ua.linalg.inv(a)\n"
        "except RuntimeError as e:\n"
        "    print('raised:', e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert "no cuSOLVER at USMARRAY_CUSOLVER_LIBRARY" in out.stdout
    assert "raised: no cuSOLVER at USMARRAY_CUSOLVER_LIBRARY" in out.stdout


# ------------------------------------------------------------- Cholesky

CHOLESKY_SHAPES = [(64, 64), (1024, 8, 8), (3, 33, 33), (2, POTRF_LOOPED, POTRF_LOOPED)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", CHOLESKY_SHAPES, ids=str)
def test_cholesky(dtype, shape):
    a = positive_definite(shape, dtype)
    lo = la.cholesky(gpu(a))
    want = np.linalg.cholesky(a)
    close(lo, want, dtype, shape[-1])
    ln = host(lo)
    assert np.all(np.triu(ln, 1) == 0)
    close(ln @ ct(ln), a, dtype, shape[-1])
    close(la.cholesky(gpu(a), upper=True), ct(want), dtype, shape[-1])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch,n", [((), 6), ((8,), 5), ((8,), 40), ((4,), POTRF_LOOPED)])
def test_cholesky_of_a_matrix_that_is_not_positive_definite_names_it(dtype, batch, n):
    if not batch:
        with pytest.raises(la.LinAlgError, match="is not positive definite"):
            la.cholesky(gpu(-positive_definite((n, n), dtype)))
        return
    a = positive_definite(batch + (n, n), dtype)
    a[3] = -a[3]
    with pytest.raises(la.LinAlgError, match="matrix 3 of the batch is not positive definite"):
        la.cholesky(gpu(a))


# ------------------------------------------------------- LU: inv, solve, det

LU_SHAPES = [(16, 16), (1024, 8, 8), (5, 30, 30), (2, LU_LOOPED, LU_LOOPED)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", LU_SHAPES, ids=str)
def test_inv(dtype, shape):
    a = well_conditioned(shape, dtype)
    got = la.inv(gpu(a))
    close(got, np.linalg.inv(a), dtype, shape[-1])
    close(a @ host(got), identities(shape, shape[-1]), dtype, shape[-1])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", LU_SHAPES, ids=str)
def test_solve(dtype, shape):
    a = well_conditioned(shape, dtype)
    b = random(shape[:-1] + (3,), dtype, seed=1)
    close(la.solve(gpu(a), gpu(b)), np.linalg.solve(a, b), dtype, shape[-1])
    # NumPy 2: a 1-D b is one vector, whatever a's batch
    v = random(shape[-1:], dtype, seed=2)
    close(la.solve(gpu(a), gpu(v)), np.linalg.solve(a, v), dtype, shape[-1])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(16, 16), (1024, 8, 8), (5, 30, 30), (2, 700, 700)], ids=str)
def test_det_and_slogdet_follow_the_pivots(dtype, shape):
    # Row swaps change the sign: every path's pivots must be LAPACK's.
    a = random(shape, dtype)
    sign, logdet = la.slogdet(gpu(a))
    sign0, logdet0 = np.linalg.slogdet(a)
    close(sign, sign0, dtype, shape[-1])
    close(logdet, logdet0, dtype, shape[-1])
    if shape[-1] <= 30:
        d0 = np.linalg.det(a)
        got = host(la.det(gpu(a)))
        assert np.all(np.abs(got - d0) <= tol(dtype, shape[-1]) * np.maximum(1, np.abs(d0)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(6, 6), (8, 6, 6), (3, LU_LOOPED, LU_LOOPED)], ids=str)
def test_inv_and_solve_of_a_singular_matrix_name_it(dtype, shape):
    a = well_conditioned(shape, dtype)
    bad = a if a.ndim == 2 else a[1]
    bad[:, 2] = 0  # an exactly zero column: getrf meets an exact zero pivot
    b = random(shape[:-1] + (2,), dtype, seed=3)
    expected = "is singular" if a.ndim == 2 else "matrix 1 of the batch is singular"
    with pytest.raises(la.LinAlgError, match=expected):
        la.inv(gpu(a))
    with pytest.raises(la.LinAlgError, match=expected):
        la.solve(gpu(a), gpu(b))
    # the queue goes on
    good = well_conditioned(shape, dtype, seed=4)
    close(la.inv(gpu(good)), np.linalg.inv(good), dtype, shape[-1])
    # a singular matrix is no error for the determinant
    sign, logdet = la.slogdet(gpu(a))
    sn, ln = host(sign), host(logdet)
    if a.ndim == 2:
        assert sn == 0 and ln == -np.inf
    else:
        assert sn[1] == 0 and ln[1] == -np.inf and np.all(sn[[0, 2]] != 0)


# ------------------------------------------------------------------- QR


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(50, 30), (30, 50), (4, 12, 12), (1024, 8, 8)], ids=str)
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr(dtype, shape, mode):
    a = random(shape, dtype)
    q, r = la.qr(gpu(a), mode=mode)
    q0, r0 = np.linalg.qr(a, mode=mode)
    assert q.shape == q0.shape and r.shape == r0.shape
    qn, rn = host(q), host(r)
    n = max(shape[-2:])
    close(qn @ rn, a, dtype, n)
    close(ct(qn) @ qn, identities(qn.shape, qn.shape[-1]), dtype, n)
    assert np.all(np.tril(rn, -1) == 0)
    # R is unique up to the phases of its rows
    close(np.abs(rn), np.abs(r0), dtype, n)


# ---------------------------------------------------------------- eigh

EIGH_SHAPES = [(100, 100), (1024, 8, 8), (3, JACOBI, JACOBI), (3, JACOBI + 1, JACOBI + 1), (1, 1)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", EIGH_SHAPES, ids=str)
def test_eigh_and_eigvalsh(dtype, shape):
    a = hermitian(shape, dtype)
    n = shape[-1]
    w0 = np.linalg.eigvalsh(a)
    w, v = la.eigh(gpu(a))
    wn, vn = host(w), host(v)
    assert wn.dtype == w0.dtype
    close(wn, w0, dtype, n)
    assert np.all(np.diff(wn, axis=-1) >= 0), "eigenvalues ascending"
    close(a @ vn, vn * wn[..., None, :], dtype, n)
    close(ct(vn) @ vn, identities(shape, n), dtype, n)
    close(la.eigvalsh(gpu(a)), w0, dtype, n)


def test_eigh_reads_only_the_lower_triangle():
    a = hermitian((6, 5, 5), "complex128")
    garbage = np.triu(random((6, 5, 5), "complex128", seed=9), 1)
    got = host(la.eigvalsh(gpu(np.tril(a) + garbage)))
    close(got, np.linalg.eigvalsh(a), "complex128")


# ----------------------------------------------------------------- SVD

SVD_SHAPES = [
    (50, 30),
    (30, 50),
    (64, 64),
    (1024, 8, 8),
    (5, JACOBI, 20),
    (5, 20, JACOBI),
    (3, 40, 36),
    (3, 36, 40),
    (2, 1, 7),
    (2, 7, 1),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SVD_SHAPES, ids=str)
@pytest.mark.parametrize("full", [True, False])
def test_svd_and_svdvals(dtype, shape, full):
    a = random(shape, dtype)
    n = max(shape[-2:])
    u0, s0, vh0 = np.linalg.svd(a, full_matrices=full)
    u, s, vh = la.svd(gpu(a), full_matrices=full)
    assert (u.shape, s.shape, vh.shape) == (u0.shape, s0.shape, vh0.shape)
    un, sn, vn = host(u), host(s), host(vh)
    assert sn.dtype == s0.dtype
    close(sn, s0, dtype, n)
    assert np.all(np.diff(sn, axis=-1) <= 0), "singular values descending"
    k = sn.shape[-1]
    close((un[..., :, :k] * sn[..., None, :]) @ vn[..., :k, :], a, dtype, n)
    close(ct(un) @ un, identities(un.shape, un.shape[-1]), dtype, n)
    close(vn @ ct(vn), identities(vn.shape, vn.shape[-2]), dtype, n)
    close(la.svdvals(gpu(a)), s0, dtype, n)


def test_svd_of_a_rank_deficient_batch():
    x = random((16, 6, 2), "float64")
    a = x @ np.swapaxes(x, -1, -2)  # rank 2
    s = host(la.svdvals(gpu(a)))
    close(s, np.linalg.svd(a, compute_uv=False), "float64")
    assert np.all(s[:, 2:] < 1e-12 * s[:, :1])


# ------------------------------------------------ memory kinds and queues


@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
def test_every_usm_kind_factors(usm_type):
    a = well_conditioned((4, 24, 24), "float64")
    b = random((4, 24, 2), "float64", seed=1)
    x = la.solve(gpu(a, usm_type), gpu(b, usm_type))
    close(x, np.linalg.solve(a, b), "float64", 24)
    close(la.eigvalsh(gpu(a + ct(a), usm_type)), np.linalg.eigvalsh(a + ct(a)), "float64", 24)


def test_results_stay_on_the_device_and_queue():
    q = ua.Queue(GPU)
    a = ua.asarray(well_conditioned((3, 10, 10), "float32"), queue=q)
    for r in (la.inv(a), la.cholesky(a @ a.mT), la.svdvals(a), la.eigvalsh(a + a.mT)):
        assert r.device == a.device and r.usm_type == "device"
        assert r.queue == q


def test_repeated_factorizations_give_their_temporaries_back():
    # gesvdjBatched's U and V (8 MiB each here), workspaces, statuses and
    # address arrays all go back to the stream-ordered pool: what the
    # device has free does not shrink call after call.
    cp = pytest.importorskip("cupy")
    a = gpu(random((1024, 32, 32), "float64"))
    b = gpu(well_conditioned((1024, 32, 32), "float64"))
    ctx = ua.Context(GPU)

    def round_():
        la.svd(a)
        la.inv(b)
        la.eigh(a + a.mT)
        la.cholesky(b @ b.mT)
        la.qr(a[:8])
        ua.Queue(GPU).wait()

    round_()
    used = ctx.used_nbytes("device")
    free_before = cp.cuda.runtime.memGetInfo()[0]
    for _ in range(40):
        round_()
    free_after = cp.cuda.runtime.memGetInfo()[0]
    assert ctx.used_nbytes("device") == used
    # The device's free memory is every process's: other pytest-xdist
    # workers on the same GPU move it, so it is read only in a lone run.
    if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) == 1:
        assert free_before - free_after < 64 << 20
