"""The bad-input catalogue: products, usmarray.linalg and usmarray.fft. Each
row is a call, the exception a user can catch and a fragment of its message.

The catalogue's other areas are the files test_bad_inputs_*.py beside this
one; bad_inputs.py gathers them, for test_bad_inputs.py and the atheris
fuzzer (fuzz/python/)."""

import numpy as np
import pytest
import usmarray as ua
from bad_input_helpers import cplx, host, imatmul_reshaping, mat, raises_clearly, scalar0d, vec

C = pytest.param

CASES = [
    # ---- reductions, scans, searches, sorts, sets and products ----
    C(lambda: ua.linalg.inv(vec()), ValueError, "at least two dimensions", id="linalg-inv-1d"),
    C(
        lambda: ua.linalg.eigvals(vec()),
        ValueError,
        "at least two dimensions",
        id="linalg-eigvals-1d",
    ),
    C(lambda: ua.linalg.eig(mat()), ValueError, "square matrices", id="linalg-eig-not-square"),
    C(lambda: ua.linalg.det(mat()), ValueError, "square matrices", id="linalg-det-not-square"),
    C(
        lambda: ua.linalg.inv(ua.zeros((2, 2), device="host")),
        ua.linalg.LinAlgError,
        "singular",
        id="linalg-inv-singular",
    ),
    C(
        lambda: ua.linalg.cholesky(-ua.eye(2, device="host")),
        ua.linalg.LinAlgError,
        "not positive definite",
        id="linalg-cholesky-indefinite",
    ),
    C(
        lambda: ua.linalg.eigh(ua.ones((2, 2), dtype="float16", device="host")),
        TypeError,
        "float16",
        id="linalg-eigh-float16",
    ),
    C(
        lambda: ua.linalg.qr(mat(), mode="raw"),
        ValueError,
        "'reduced' or 'complete'",
        id="linalg-qr-mode",
    ),
    C(
        lambda: ua.linalg.svd(mat(), full_matrices=None),
        TypeError,
        "full_matrices",
        id="linalg-svd-flag",
    ),
    C(
        lambda: ua.linalg.solve(ua.eye(3, device="host"), vec()),
        ValueError,
        "3 rows",
        id="linalg-solve-rows",
    ),
    C(
        lambda: ua.linalg.matrix_norm(mat(), ord=3),
        ValueError,
        "'fro', 'nuc'",
        id="linalg-matrix-norm-ord",
    ),
    C(
        lambda: ua.linalg.vector_norm(vec(), ord="fro"),
        ValueError,
        "ord must be a number",
        id="linalg-vector-norm-ord",
    ),
    C(
        lambda: ua.linalg.vector_norm(vec(), ord=float("nan")),
        ValueError,
        "NaN",
        id="linalg-vector-norm-nan",
    ),
    C(
        lambda: ua.linalg.matrix_power(ua.eye(2, device="host"), 2.0),
        TypeError,
        "n must be an int",
        id="linalg-matrix-power-float",
    ),
    C(lambda: ua.linalg.cross(vec(), vec()), ValueError, "3 elements", id="linalg-cross-length"),
    C(
        lambda: ua.linalg.cross(mat(), mat(), axis=0),
        ValueError,
        "count from the end",
        id="linalg-cross-axis",
    ),
    C(lambda: ua.linalg.outer(mat(), vec()), ValueError, "two vectors", id="linalg-outer-2d"),
    C(
        lambda: ua.linalg.diagonal(vec()),
        ValueError,
        "at least two dimensions",
        id="linalg-diagonal-1d",
    ),
    C(lambda: ua.linalg.trace(mat(), offset="1"), TypeError, "offset", id="linalg-trace-offset"),
    C(lambda: ua.linalg.pinv(np.eye(2)), TypeError, "pinv", id="linalg-pinv-numpy"),
    C(
        lambda: ua.linalg.pinv(host((1,) * 64), rtol=host((1,) * 63)),
        ValueError,
        "pinv: the result would have 65 dimensions; at most 64",
        id="linalg-pinv-rtol-too-many-dims",
    ),
    C(
        lambda: ua.linalg.matrix_rank(host((1,) * 64), rtol=host((1,) * 64)),
        ValueError,
        "matrix_rank: the result would have 65 dimensions; at most 64",
        id="linalg-matrix-rank-rtol-too-many-dims",
    ),
    C(lambda: ua.matmul(scalar0d(), vec()), ValueError, "zero-dimensional", id="matmul-0d"),
    C(
        lambda: ua.matmul(mat(), mat()),
        ValueError,
        "x1's last axis has 3 elements",
        id="matmul-shapes",
    ),
    C(lambda: mat() @ "a", TypeError, "unsupported operand", id="matmul-operator-str"),
    C(imatmul_reshaping, ValueError, "cannot change in place", id="imatmul-reshaping"),
    C(
        lambda: ua.tensordot(mat(), mat(), axes=-1),
        ValueError,
        "axes=-1",
        id="tensordot-negative-axes",
    ),
    C(
        lambda: ua.tensordot(mat(), mat(), axes=1),
        ValueError,
        "axis 1 of x1 has 3 elements",
        id="tensordot-mismatch",
    ),
    C(
        lambda: ua.tensordot(host((1,) * 33), host((1,) * 33), axes=0),
        ValueError,
        "tensordot: the result would have 66 dimensions; at most 64",
        id="tensordot-too-many-dims",
    ),
    C(
        lambda: ua.linalg.tensordot(host((1,) * 34), host((1,) * 33), axes=([0], [1])),
        ValueError,
        "tensordot: the result would have 65 dimensions; at most 64",
        id="linalg-tensordot-too-many-dims",
    ),
    C(
        lambda: ua.vecdot(mat(), vec()),
        ValueError,
        "x1 has 3 elements along axis -1",
        id="vecdot-mismatch",
    ),
    C(
        lambda: ua.matrix_transpose(vec()),
        ValueError,
        "at least two dimensions",
        id="matrix-transpose-1d",
    ),
    # ---- usmarray.fft ----
    C(lambda: ua.fft.fft(vec(), n=0), ValueError, "fft: n must be at least 1", id="fft-n-zero"),
    C(lambda: ua.fft.ifft(vec(), n=-2), ValueError, "ifft: n must be at least 1", id="ifft-n-neg"),
    C(
        lambda: ua.fft.rfft(vec(), n=2.5),
        TypeError,
        "rfft: n must be an integer",
        id="rfft-n-float",
    ),
    C(
        lambda: ua.fft.hfft(vec(), n=True),
        TypeError,
        "hfft: n must be an integer",
        id="hfft-n-bool",
    ),
    C(
        lambda: ua.fft.fft(vec(), n=2**62),
        ValueError,
        "fft: the array needs more bytes",
        id="fft-n-huge",
    ),
    C(
        lambda: ua.fft.ifft(mat(), axis=2),
        np.exceptions.AxisError,
        "ifft: axis 2 is out of bounds",
        id="ifft-axis",
    ),
    C(
        lambda: ua.fft.fft(vec(), axis=None),
        TypeError,
        "axis must be an integer",
        id="fft-axis-none",
    ),
    C(lambda: ua.fft.fft(vec(), norm="none"), ValueError, "fft: norm must be", id="fft-norm-word"),
    C(lambda: ua.fft.irfft(cplx(), norm=0), TypeError, "irfft: norm must be", id="irfft-norm-int"),
    C(
        lambda: ua.fft.fft(scalar0d()),
        ValueError,
        "fft needs an array of at least one",
        id="fft-0d",
    ),
    C(lambda: ua.fft.fftn(scalar0d()), ValueError, "fftn needs an array of at least", id="fftn-0d"),
    C(lambda: ua.fft.rfft(cplx()), TypeError, "rfft takes real values", id="rfft-complex"),
    C(lambda: ua.fft.ihfft(cplx()), TypeError, "ihfft takes real values", id="ihfft-complex"),
    C(lambda: ua.fft.rfftn(cplx()), TypeError, "rfftn takes real values", id="rfftn-complex"),
    C(
        lambda: ua.fft.irfft(ua.asarray(np.ones(1, complex), device="host")),
        ValueError,
        "irfft: an axis of 1 elements gives n = 0",
        id="irfft-one-element",
    ),
    C(
        lambda: ua.fft.fftn(mat(), s=(2, 3), axes=(0,)),
        ValueError,
        "fftn: s has 2 entries but axes has 1",
        id="fftn-s-axes-lengths",
    ),
    C(
        lambda: ua.fft.ifftn(mat(), s=(2, 3, 4)),
        ValueError,
        "ifftn: s has 3 entries but x has 2 dimensions",
        id="ifftn-s-too-long",
    ),
    C(
        lambda: ua.fft.fftn(mat(), s=3),
        TypeError,
        "fftn: s must be None or a sequence",
        id="fftn-s-int",
    ),
    C(
        lambda: ua.fft.rfftn(mat(), axes="01"),
        TypeError,
        "rfftn: axes must be None or a sequence",
        id="rfftn-axes-str",
    ),
    C(
        lambda: ua.fft.irfftn(mat(), s=(0, 2), axes=(0, 1)),
        ValueError,
        "irfftn: s[0] must be at least 1",
        id="irfftn-s-zero",
    ),
    C(
        lambda: ua.fft.fftn(mat(), s=["a"], axes=[0]),
        TypeError,
        "fftn: s[0] must be an integer",
        id="fftn-s-str",
    ),
    C(
        lambda: ua.fft.fftn(mat(), axes=[0] * 65),
        ValueError,
        "fftn: axes has 65 entries",
        id="fftn-axes-too-many",
    ),
    C(
        lambda: ua.fft.fftn(mat(), axes=(0, -3)),
        np.exceptions.AxisError,
        "fftn: axis -3 is out of bounds",
        id="fftn-axes-range",
    ),
    C(
        lambda: ua.fft.irfftn(mat(), axes=()),
        ValueError,
        "needs at least one axis",
        id="irfftn-no-axes",
    ),
    C(lambda: ua.fft.fft(np.ones(3)), TypeError, "fft expects a USMArray", id="fft-numpy-array"),
    C(lambda: ua.fft.fft(vec(), 4), TypeError, "positional argument", id="fft-positional-n"),
    C(lambda: ua.fft.fftn(x=vec()), TypeError, "positional-only", id="fftn-keyword-x"),
    C(lambda: ua.fft.fftfreq(0), ValueError, "fftfreq: n must be at least 1", id="fftfreq-n-zero"),
    C(
        lambda: ua.fft.fftfreq(4.0),
        TypeError,
        "fftfreq: n must be an integer",
        id="fftfreq-n-float",
    ),
    C(lambda: ua.fft.rfftfreq(4, d=0), ValueError, "rfftfreq: d must be", id="rfftfreq-d-zero"),
    C(lambda: ua.fft.fftfreq(4, d="a"), TypeError, "d must be a real number", id="fftfreq-d-str"),
    C(
        lambda: ua.fft.fftfreq(4, d=1j),
        TypeError,
        "d must be a real number",
        id="fftfreq-d-complex",
    ),
    C(
        lambda: ua.fft.fftfreq(4, dtype=ua.int32),
        TypeError,
        "fftfreq makes real floating values, not int32",
        id="fftfreq-dtype-int",
    ),
    C(
        lambda: ua.fft.rfftfreq(2**62, device="host"),
        ValueError,
        "rfftfreq: the array needs more bytes",
        id="rfftfreq-n-huge",
    ),
    C(lambda: ua.fft.fftfreq(4, device="nosuch"), ValueError, "nosuch", id="fftfreq-device"),
    C(
        lambda: ua.fft.fftshift(mat(), axes=2),
        np.exceptions.AxisError,
        "fftshift: axis 2 is out of bounds",
        id="fftshift-axis",
    ),
    C(
        lambda: ua.fft.ifftshift(mat(), axes="a"),
        TypeError,
        "ifftshift: axes",
        id="ifftshift-axes-str",
    ),
    C(lambda: ua.fft.fftshift(scalar0d()), ValueError, "fftshift needs an array", id="fftshift-0d"),
    C(
        lambda: ua.full(3, 2**64),
        OverflowError,
        "Python integer 18446744073709551616 out of bounds for int64 and uint64",
        id="full-int-past-uint64",
    ),
]


@pytest.mark.parametrize("call, exc, fragment", CASES)
def test_bad_input_raises_a_clear_exception(call, exc, fragment):
    raises_clearly(call, exc, fragment)
