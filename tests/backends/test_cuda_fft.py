"""usmarray.fft on a CUDA device, through cuFFT: every kind of transform
(complex forward and inverse, real to complex and back) in both
precisions, over 1, 2 and 3 axes with batches, at odd, prime and large
lengths, compared with NumPy on the host; plans reused and evicted from the
context's cache of 16; queues and threads sharing plans; misaligned views;
where cuFFT was found (Device.libraries) and what happens without it.
Skipped without a CUDA device."""

import ast
import os
import re
import subprocess
import sys
import threading

import numpy as np
import pytest
import usmarray as ua

CUDA = [d for d in ua.get_devices() if d.backend == "cuda"]
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not CUDA, reason="no CUDA device here")]

GPU = "cuda:gpu:0"
# Relative to the largest magnitude of the exact result: a wrong transform
# is off by O(1); cuFFT's rounding is far below these.
TOLERANCE = {"single": 1e-4, "double": 1e-10}
REAL = {"single": np.float32, "double": np.float64}
COMPLEX = {"single": np.complex64, "double": np.complex128}


@pytest.fixture(scope="module")
def cufft():
    """The words of Device.libraries about cuFFT; skips where none loads."""
    libraries = ua.Device(GPU).libraries
    if "no cuFFT" in libraries:
        pytest.skip(f"cuFFT is not installed here: {libraries}")
    return libraries


def rng_real(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def rng_complex(shape, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def gpu(a, usm_type="device", queue=GPU):
    return ua.asarray(a, usm_type=usm_type, queue=queue)


def check(got, want, dtype, precision):
    """got (a GPU array) is want (NumPy's result in double precision) in
    dtype, to the precision's tolerance."""
    assert isinstance(got, ua.USMArray)
    assert got.device == ua.Device(GPU)
    assert got.dtype == np.dtype(dtype), (got.dtype, dtype)
    host = ua.asnumpy(got)
    assert host.shape == want.shape
    scale = max(float(np.abs(want).max()), 1e-300)
    err = float(np.abs(host.astype(want.dtype) - want).max()) / scale
    assert err < TOLERANCE[precision], err


def axes_of(rank):
    return tuple(range(-rank, 0))


# Shapes whose last `rank` axes are transformed, the others a batch: odd,
# prime (97, 1009, 4099), power-of-two and length-1 axes, the last one too
# (where real transforms have a 1-long complex side).
SHAPES = [
    (1, (1,)),
    (1, (4, 1)),
    (1, (2,)),
    (1, (7,)),
    (1, (97,)),
    (1, (1009,)),
    (1, (4096,)),
    (1, (3, 13)),
    (1, (5, 4099)),
    (1, (2, 3, 64)),
    (2, (1, 1)),
    (2, (31, 17)),
    (2, (64, 48)),
    (2, (4, 13, 11)),
    (2, (2, 3, 5, 8)),
    (2, (3, 5, 1)),
    (3, (5, 7, 11)),
    (3, (16, 16, 16)),
    (3, (2, 9, 8, 6)),
    (3, (3, 1, 13, 4)),
    (3, (2, 4, 6, 1)),
    (3, (1, 1, 1)),
]
IDS = [f"rank{r}-{'x'.join(map(str, s))}" for r, s in SHAPES]


def c2c(x, rank, inverse):
    if rank == 1:
        return (ua.fft.ifft if inverse else ua.fft.fft)(x, axis=-1)
    return (ua.fft.ifftn if inverse else ua.fft.fftn)(x, axes=axes_of(rank))


def np_c2c(a, rank, inverse):
    return (np.fft.ifftn if inverse else np.fft.fftn)(a, axes=axes_of(rank))


@pytest.mark.parametrize("precision", ["single", "double"])
@pytest.mark.parametrize("inverse", [False, True], ids=["forward", "inverse"])
@pytest.mark.parametrize(("rank", "shape"), SHAPES, ids=IDS)
def test_complex_transforms_match_numpy(cufft, rank, shape, inverse, precision):
    a = rng_complex(shape).astype(COMPLEX[precision])
    got = c2c(gpu(a), rank, inverse)
    want = np_c2c(a.astype(np.complex128), rank, inverse)
    check(got, want, COMPLEX[precision], precision)


@pytest.mark.parametrize("precision", ["single", "double"])
@pytest.mark.parametrize(("rank", "shape"), SHAPES, ids=IDS)
def test_real_to_complex_transforms_match_numpy(cufft, rank, shape, precision):
    a = rng_real(shape).astype(REAL[precision])
    x = gpu(a)
    if rank == 1:
        got = ua.fft.rfft(x, axis=-1)
    else:
        got = ua.fft.rfftn(x, axes=axes_of(rank))
    want = np.fft.rfftn(a.astype(np.float64), axes=axes_of(rank))
    assert want.shape[-1] == shape[-1] // 2 + 1
    check(got, want, COMPLEX[precision], precision)


@pytest.mark.parametrize("precision", ["single", "double"])
@pytest.mark.parametrize(("rank", "shape"), SHAPES, ids=IDS)
def test_complex_to_real_transforms_match_numpy(cufft, rank, shape, precision):
    # The spectrum of real data: Hermitian, as a complex-to-real transform
    # takes it, with an odd or even real length to rebuild.
    spectrum = np.fft.rfftn(rng_real(shape), axes=axes_of(rank))
    a = spectrum.astype(COMPLEX[precision])
    x = gpu(a)
    lengths = shape[-rank:]
    if rank == 1:
        got = ua.fft.irfft(x, n=lengths[0], axis=-1)
    else:
        got = ua.fft.irfftn(x, s=lengths, axes=axes_of(rank))
    want = np.fft.irfftn(a.astype(np.complex128), s=lengths, axes=axes_of(rank))
    assert want.shape == shape
    check(got, want, REAL[precision], precision)
    # C2R may overwrite what it reads: the caller's array must not change.
    assert np.array_equal(ua.asnumpy(x), a)


@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
def test_every_usm_kind_is_transformed(cufft, usm_type):
    a = rng_complex((6, 250)).astype(np.complex64)
    x = gpu(a, usm_type=usm_type)
    check(ua.fft.fft(x, axis=-1), np.fft.fft(a.astype(np.complex128)), np.complex64, "single")
    r = rng_real((6, 250))
    check(ua.fft.rfft(gpu(r, usm_type=usm_type), axis=-1), np.fft.rfft(r), np.complex128, "double")


def test_round_trips_give_the_input_back(cufft):
    a = rng_complex((4, 30, 21))
    x = gpu(a)
    back = ua.fft.ifftn(ua.fft.fftn(x, axes=(-3, -2, -1)), axes=(-3, -2, -1))
    check(back, a, np.complex128, "double")
    r = rng_real((8, 1001)).astype(np.float32)
    back = ua.fft.irfft(ua.fft.rfft(gpu(r), axis=-1), n=1001, axis=-1)
    check(back, r.astype(np.float64), np.float32, "single")


# -------------------------------------------------------- large lengths


def test_a_single_transform_past_2_to_the_24_elements(cufft):
    n = (1 << 24) + 1  # 97 x 257 x 673
    a = rng_complex(n, seed=1).astype(np.complex64)
    check(ua.fft.fft(gpu(a)), np.fft.fft(a.astype(np.complex128)), np.complex64, "single")


def test_a_batch_past_2_to_the_24_elements(cufft):
    shape = (17, 1 << 20)
    r = rng_real(shape, seed=2)
    check(ua.fft.rfft(gpu(r), axis=-1), np.fft.rfft(r), np.complex128, "double")
    spectrum = np.fft.rfft(r).astype(np.complex64)
    got = ua.fft.irfft(gpu(spectrum), n=shape[1], axis=-1)
    check(got, np.fft.irfft(spectrum.astype(np.complex128), n=shape[1]), np.float32, "single")


def test_a_large_prime_length(cufft):
    n = 1_000_003  # prime
    a = rng_complex((3, n), seed=3)
    check(ua.fft.ifft(gpu(a), axis=-1), np.fft.ifft(a), np.complex128, "double")


# ------------------------------------------------------ plans and queues


def test_a_plan_is_reused_with_new_data(cufft):
    for seed in range(4):
        a = rng_complex((3, 40, 24), seed=seed).astype(np.complex64)
        got = ua.fft.fftn(gpu(a), axes=(-2, -1))
        check(got, np.fft.fftn(a.astype(np.complex128), axes=(-2, -1)), np.complex64, "single")


def test_plans_evicted_from_the_cache_come_back_right(cufft):
    # More distinct shapes than the cache keeps (16): the first ones are
    # destroyed on the way, then planned again.
    lengths = [50 + 3 * i for i in range(40)]
    data = {n: rng_complex((2, n), seed=n) for n in lengths}
    for n in lengths + lengths[:5] + lengths[::-1]:
        got = ua.fft.fft(gpu(data[n]), axis=-1)
        check(got, np.fft.fft(data[n]), np.complex128, "double")


def test_one_plan_serves_queues_of_their_own_streams(cufft):
    queues = [ua.Queue(GPU) for _ in range(3)]
    arrays = [rng_complex((8, 512), seed=i).astype(np.complex64) for i in range(3)]
    outs = []
    for _ in range(4):
        for q, a in zip(queues, arrays):
            outs.append((ua.fft.fft(gpu(a, queue=q), axis=-1), a))
    for q in queues:
        q.wait()
    for got, a in outs:
        check(got, np.fft.fft(a.astype(np.complex128)), np.complex64, "single")


def test_threads_transform_at_once(cufft):
    errors = []

    def work(seed):
        try:
            q = ua.Queue(GPU)
            for i in range(6):
                n = 200 + (seed + i) % 3  # shapes shared between threads
                a = rng_complex((4, n), seed=seed * 10 + i)
                got = ua.fft.fft(gpu(a, queue=q), axis=-1)
                check(got, np.fft.fft(a), np.complex128, "double")
        except BaseException as e:  # reported below, in the test's thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


def test_arrays_not_aligned_to_the_complex_type(cufft):
    # One float32 into an allocation: 4 bytes off the 8 cuFFT wants of a
    # complex64 transform's real side.
    r = rng_real(1025).astype(np.float32)
    x = gpu(r)[1:]
    assert x._pointer % 8 == 4
    check(ua.fft.rfft(x), np.fft.rfft(r[1:].astype(np.float64)), np.complex64, "single")
    # complex128 elements 8 bytes into device memory, imported through the
    # SUAI: 8 bytes off the 16 cuFFT wants.
    from conftest import Holder

    a = rng_complex(301)
    mem = ua.MemoryUSMDevice(16 * 302, queue=ua.Queue(GPU))
    mem.copy_from_host(np.concatenate([np.zeros(1), a.view(np.float64), np.zeros(1)]))
    iface = {
        "shape": (301,),
        "typestr": "<c16",
        "data": (mem._pointer + 8, False),
        "strides": None,
        "offset": 0,
        "version": 1,
        "syclobj": mem.queue,
    }
    y = ua.asarray(Holder(iface, keep=mem))
    assert y._pointer % 16 == 8
    np.testing.assert_array_equal(ua.asnumpy(y), a)
    check(ua.fft.fft(y), np.fft.fft(a), np.complex128, "double")
    check(ua.fft.ifft(y), np.fft.ifft(a), np.complex128, "double")


# ------------------------------------------------------ where cuFFT is


def test_device_libraries_name_cufft():
    libraries = ua.Device(GPU).libraries
    assert "cuFFT" in libraries
    if "no cuFFT" not in libraries:
        assert re.search(r"cuFFT \d+\.\d+\.\d+ \(libcufft\.so[.\d]*\)", libraries), libraries


def run_python(code, **env):
    full = dict(os.environ)
    full.update(env)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=300
    )


PROBE = f"""
import numpy as np, usmarray as ua
print(ua.Device({GPU!r}).libraries)
try:
    y = ua.fft.fft(ua.asarray(np.arange(8, dtype=np.complex64), queue={GPU!r}))
    print("RESULT", ua.asnumpy(y).tolist())
except RuntimeError as e:
    print("ERROR", e)
"""


def test_without_cufft_transforms_say_how_to_get_it():
    result = run_python(PROBE, USMARRAY_CUFFT_LIBRARY="/nonexistent/libcufft.so")
    assert result.returncode == 0, result.stdout + result.stderr
    libraries, outcome = result.stdout.splitlines()[:2]
    assert "no cuFFT at USMARRAY_CUFFT_LIBRARY (/nonexistent/libcufft.so)" in libraries
    assert outcome.startswith("ERROR"), outcome
    assert "cuFFT" in outcome and "/nonexistent/libcufft.so" in outcome
    assert "pip install nvidia-cufft-cu12" in outcome


def test_the_library_named_by_the_environment_is_used(cufft):
    # The file this process loaded (another library may have loaded a copy
    # of its own: any one will do).
    with open("/proc/self/maps") as maps:
        paths = sorted({line.split()[-1] for line in maps if "/libcufft.so" in line})
    assert paths
    path = paths[0]
    result = run_python(PROBE, USMARRAY_CUFFT_LIBRARY=path)
    assert result.returncode == 0, result.stdout + result.stderr
    libraries, outcome = result.stdout.splitlines()[:2]
    assert f"({os.path.basename(path)})" in libraries and "no cuFFT" not in libraries
    want = np.fft.fft(np.arange(8, dtype=np.complex128))
    assert outcome.startswith("RESULT"), outcome
    got = np.array(ast.literal_eval(outcome[len("RESULT ") :]))
    assert np.allclose(got, want, rtol=0, atol=1e-4)
