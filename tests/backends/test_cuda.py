"""The CUDA backend on a real GPU: devices, the three USM kinds, copies and
casts against NumPy, CAI and DLPack both ways with CuPy, PyTorch, numba-cuda
and JAX (shared memory proven by writes through one side read through the
other), stream ordering and bad inputs.  Skipped without a CUDA device."""

import os
import subprocess
import sys

import numpy as np
import pytest
import usmarray as ua

CUDA = [d for d in ua.get_devices() if d.backend == "cuda"]
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not CUDA, reason="no CUDA device here")]

GPU = "cuda:gpu:0"
KINDS = ["device", "shared", "host"]
DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]
# JAX takes most of the GPU's memory at start unless told otherwise.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")


def rng_array(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=shape) * 50
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.normal(size=shape)
    return a.astype(dtype)


def gpu(a, usm_type="device"):
    return ua.asarray(a, usm_type=usm_type, queue=GPU)


# ------------------------------------------------------------- devices


def test_every_gpu_is_a_device_and_the_default():
    devices = ua.get_devices(backend="cuda")
    assert devices and all(d.device_type == "gpu" for d in devices)
    assert [d.filter_string for d in devices] == [f"cuda:gpu:{i}" for i in range(len(devices))]
    env = dict(os.environ)
    env.pop("USMARRAY_DEVICE", None)
    out = subprocess.run(
        [sys.executable, "-c", "import usmarray as ua; print(ua.Queue().device.filter_string)"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert out.strip() == "cuda:gpu:0"


def test_main_job_shows_and_checks_the_gpus():
    out = subprocess.run(
        [sys.executable, "-m", "usmarray"], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "cuda     available" in out.stdout
    for kind in KINDS:
        assert f"cuda:gpu:0 {kind:<6} export and re-import SUAI without a copy: PASS" in out.stdout


# -------------------------------------------------------------- memory


@pytest.mark.parametrize("kind", KINDS)
def test_memory_of_each_kind(kind):
    cls = {"device": ua.MemoryUSMDevice, "shared": ua.MemoryUSMShared, "host": ua.MemoryUSMHost}[
        kind
    ]
    mem = cls(1 << 20, queue=GPU)
    assert mem.get_usm_type() == kind
    assert ua.get_pointer_type(mem._pointer + 1000) == kind
    data = bytes(range(256)) * 4096
    mem.copy_from_host(data)
    assert mem.tobytes() == data
    mem.memset(7)
    assert mem.tobytes() == b"\x07" * (1 << 20)


def test_host_access_follows_the_kind():
    assert np.asarray(ua.arange(5.0, usm_type="shared", device=GPU)).tolist() == [0, 1, 2, 3, 4]
    assert np.asarray(ua.arange(5.0, usm_type="host", device=GPU)).tolist() == [0, 1, 2, 3, 4]
    with pytest.raises(TypeError, match="asnumpy"):
        np.asarray(ua.arange(5.0, device=GPU))


def test_out_of_memory_is_an_exception_and_the_library_stays_usable():
    with pytest.raises(ua.USMAllocationError):
        ua.empty(2**42, dtype="u1", device=GPU)
    with pytest.raises(ua.USMAllocationError):
        ua.empty(2**42, dtype="u1", device=GPU, usm_type="shared")
    assert ua.asnumpy(ua.arange(3, device=GPU)).tolist() == [0, 1, 2]


def test_pool_reuses_device_blocks_across_queues():
    q1, q2 = ua.Queue(GPU), ua.Queue(GPU)
    x = ua.full(1 << 18, 1.0, queue=q1)
    ptr = x._pointer
    del x
    y = ua.full(1 << 18, 2.0, queue=q2)
    assert y._pointer == ptr
    assert (ua.asnumpy(y) == 2.0).all()


# -------------------------------------------------------------- copies


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_round_trip_of_every_dtype(kind, dtype):
    a = rng_array((33, 17), dtype)
    x = gpu(a, kind)
    assert x.usm_type == kind and x.device.filter_string == GPU
    np.testing.assert_array_equal(ua.asnumpy(x), a)
    np.testing.assert_array_equal(ua.asnumpy(x[::-2, 3:11:3]), a[::-2, 3:11:3])


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("src", DTYPES)
def test_casts_equal_numpys(src):
    a = rng_array((7, 9), src, seed=1)
    x = gpu(a)[:, ::2]
    for dst in DTYPES:
        want = a[:, ::2].astype(dst)
        got = ua.asnumpy(x.astype(dst))
        if np.dtype(dst).kind in "iub" and np.dtype(src).kind in "fc":
            ok = np.isfinite(a[:, ::2].real)  # out-of-range float->int is platform-defined
            np.testing.assert_array_equal(
                got[ok & (np.abs(a[:, ::2].real) < 100)], want[ok & (np.abs(a[:, ::2].real) < 100)]
            )
        else:
            np.testing.assert_array_equal(got, want, err_msg=f"{src}->{dst}")


def test_half_conversions_round_like_numpy():
    a = np.concatenate(
        [
            rng_array(5000, "f8", seed=2) * 1e-3,
            rng_array(5000, "f8", seed=3) * 1e4,
            np.array([0.0, -0.0, np.inf, -np.inf, 65504.0, 65520.0, 6e-8, 3e-8, 2.98e-8]),
        ]
    )
    np.testing.assert_array_equal(ua.asnumpy(gpu(a).astype("f2")), a.astype("f2"))
    h = np.arange(2**16, dtype=np.uint16).view(np.float16)
    np.testing.assert_array_equal(
        ua.asnumpy(gpu(h.view(np.uint16)).astype("u2")), h.view(np.uint16)
    )
    np.testing.assert_array_equal(ua.asnumpy(gpu(h).astype("f8")), h.astype("f8"))


@pytest.mark.parametrize(
    "shape, axes",
    [
        ((4096, 4096), (1, 0)),
        ((64, 64, 64, 64), (3, 1, 0, 2)),
        ((3, 1000, 7), (2, 0, 1)),
        ((5, 33, 65), (0, 2, 1)),
    ],
)
def test_permuted_copies_equal_numpys(shape, axes):
    a = rng_array(shape, "f4", seed=4)
    x = ua.permute_dims(gpu(a), axes)
    np.testing.assert_array_equal(ua.asnumpy(x.copy()), np.transpose(a, axes))
    np.testing.assert_array_equal(ua.asnumpy(x.astype("f8")), np.transpose(a, axes).astype("f8"))


def test_random_strided_views_copy_like_numpy():
    rng = np.random.default_rng(5)
    a = rng_array((6, 7, 8, 9), "f8", seed=6)
    x = gpu(a)
    for _ in range(50):
        index = tuple(
            slice(int(rng.integers(0, n)), None, int(rng.choice([-3, -2, -1, 1, 2, 3])))
            for n in a.shape
        )
        axes = tuple(rng.permutation(4))
        want = np.transpose(a[index], axes)
        np.testing.assert_array_equal(ua.asnumpy(ua.permute_dims(x[index], axes).copy()), want)
        y = ua.zeros(want.shape, device=GPU)
        y[...] = ua.permute_dims(x[index], axes)
        np.testing.assert_array_equal(ua.asnumpy(y), want)


def test_assignment_fill_and_overlap():
    a = np.arange(1000.0)
    x = gpu(a)
    x[1:] = x[:-1]  # overlapping source and destination
    np.testing.assert_array_equal(ua.asnumpy(x), np.concatenate([[0.0], a[:-1]]))
    x[::3] = 5
    b = np.concatenate([[0.0], a[:-1]])
    b[::3] = 5
    np.testing.assert_array_equal(ua.asnumpy(x), b)
    m = gpu(np.zeros((4, 5)))
    m[...] = np.arange(5.0)  # broadcast from host data
    np.testing.assert_array_equal(ua.asnumpy(m), np.tile(np.arange(5.0), (4, 1)))
    m.fill(-1)
    assert (ua.asnumpy(m) == -1).all()


def test_copies_between_kinds_and_backends():
    a = rng_array((100, 3), "f4", seed=7)
    x = gpu(a)
    for kind in KINDS:
        y = x.to_device(GPU) if kind == "device" else ua.asarray(x, usm_type=kind)
        np.testing.assert_array_equal(ua.asnumpy(y), a)
    h = x.to_device("host")
    assert h.device.filter_string == "host:cpu:0"
    np.testing.assert_array_equal(ua.asnumpy(h), a)
    np.testing.assert_array_equal(ua.asnumpy(h.to_device(GPU)), a)


# ---------------------------------------------------------- protocols


def test_cai_export():
    x = gpu(np.arange(12.0).reshape(3, 4))
    cai = x.__cuda_array_interface__
    assert cai["version"] == 3 and cai["shape"] == (3, 4) and cai["typestr"] == "<f8"
    assert cai["data"] == (x._pointer, False) and cai["strides"] is None
    assert isinstance(cai["stream"], int) and cai["stream"] not in (0,)
    assert x.T.__cuda_array_interface__["strides"] == (8, 32)
    assert ua.empty(0, device=GPU).__cuda_array_interface__["data"][0] == 0
    assert not hasattr(ua.arange(3.0, device="host"), "__cuda_array_interface__")
    assert hasattr(ua.arange(3.0, device=GPU, usm_type="host"), "__cuda_array_interface__")
    # Each export is a new dictionary: a consumer's changes stay its own.
    assert list(cai) == ["shape", "typestr", "data", "strides", "version", "stream"]
    cai["shape"], cai["more"] = None, 1
    again = x.__cuda_array_interface__
    assert again is not cai and again["shape"] == (3, 4) and "more" not in again


def test_dlpack_devices():
    assert ua.empty(1, device=GPU).__dlpack_device__() == (2, 0)
    assert ua.empty(1, device=GPU, usm_type="shared").__dlpack_device__() == (13, 0)
    assert ua.empty(1, device=GPU, usm_type="host").__dlpack_device__() == (3, 0)


def writes_show(ours, peer_read, peer_write, ours_read):
    """A write through ours shows in the peer, and one through the peer in ours."""
    ours[0] = 42
    assert float(peer_read()[0]) == 42
    peer_write(7)
    assert float(ua.asnumpy(ours_read)[1]) == 7


def test_cupy_both_ways():
    cp = pytest.importorskip("cupy")
    c = cp.arange(10, dtype=cp.float32)
    for x in (ua.asarray(c), ua.from_dlpack(c)):
        assert x._pointer == c.data.ptr and x.usm_type == "device"
        x[0] = 42
        assert float(c[0]) == 42
        c[1] = 7
        assert float(ua.asnumpy(x)[1]) == 7
    x = gpu(np.arange(10.0, dtype=np.float32))
    for y in (cp.asarray(x), cp.from_dlpack(x)):
        assert y.data.ptr == x._pointer
        y[2] = 9
        assert float(ua.asnumpy(x)[2]) == 9
        x[3] = 11
        assert float(y[3]) == 11
    # Strided and transposed views keep their layout.
    m = gpu(np.arange(12.0).reshape(3, 4))
    assert cp.asnumpy(cp.asarray(m.T)).tolist() == np.arange(12.0).reshape(3, 4).T.tolist()
    assert (
        cp.asnumpy(cp.from_dlpack(m[:, ::-2])).tolist()
        == np.arange(12.0).reshape(3, 4)[:, ::-2].tolist()
    )


def test_torch_both_ways():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("this PyTorch has no CUDA")
    t = torch.arange(10, dtype=torch.float64, device="cuda")
    for x in (ua.asarray(t), ua.from_dlpack(t)):
        assert x._pointer == t.data_ptr()
        x[0] = 42
        assert float(t[0]) == 42
        t[1] = 7
        assert float(ua.asnumpy(x)[1]) == 7
    x = gpu(np.arange(10.0))
    for y in (torch.as_tensor(x, device="cuda"), torch.from_dlpack(x)):
        assert y.data_ptr() == x._pointer
        y[2] = 9
        assert float(ua.asnumpy(x)[2]) == 9
        x[3] = 11
        assert float(y[3]) == 11
    m = gpu(np.arange(12.0).reshape(3, 4))
    assert torch.from_dlpack(m.T).cpu().numpy().tolist() == np.arange(12.0).reshape(3, 4).T.tolist()


def test_numba_both_ways():
    cuda = pytest.importorskip("numba.cuda")
    d = cuda.to_device(np.arange(10.0))
    x = ua.asarray(d)
    assert x._pointer == d.device_ctypes_pointer.value
    x[0] = 42
    assert d.copy_to_host()[0] == 42
    y = cuda.as_cuda_array(gpu(np.arange(10.0)))
    z = ua.asarray(y)
    z[1] = 7
    assert y.copy_to_host()[1] == 7


def test_jax_both_ways():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    try:
        j = jnp.arange(10.0, device=jax.devices("gpu")[0])
    except RuntimeError:
        pytest.skip("this JAX has no GPU")
    x = ua.from_dlpack(j)
    assert x.usm_type == "device"
    assert ua.asnumpy(x).tolist() == list(range(10))
    back = jnp.from_dlpack(gpu(np.arange(6.0)))
    assert back.tolist() == list(range(6))


def test_dlpack_stream_rules():
    x = gpu(np.arange(4.0))
    for stream in (None, 1, 2, -1, x.__cuda_array_interface__["stream"]):
        ua.from_dlpack(x.__dlpack__(stream=stream, max_version=(1, 0)))
    with pytest.raises(ValueError, match="stream 0"):
        x.__dlpack__(stream=0)
    with pytest.raises(ValueError, match="not a CUDA stream"):
        x.__dlpack__(stream=12345)


# ---------------------------------------------------------- bad inputs


class CAI:
    def __init__(self, **d):
        self.__cuda_array_interface__ = {"version": 3, "typestr": "<f8", "strides": None, **d}


def test_cai_host_pointer_given_as_device_memory():
    a = np.arange(4.0)
    with pytest.raises(ValueError, match="not inside any USM allocation"):
        ua.asarray(CAI(shape=(4,), data=(a.ctypes.data, False)))


def test_cai_view_past_a_peers_allocation():
    cp = pytest.importorskip("cupy")
    c = cp.cuda.memory.alloc(1 << 20)  # outside CuPy's pool: its own range
    cp.cuda.runtime.deviceSynchronize()
    end = c.ptr + c.mem.size
    with pytest.raises(ValueError, match="outside"):
        ua.asarray(CAI(shape=(16,), data=(end - 64, False)))


def test_cai_streams_that_do_not_exist():
    x = gpu(np.arange(4.0))
    ok = dict(x.__cuda_array_interface__)
    for bad in (12345, 2**40):
        with pytest.raises(ValueError, match="not a CUDA stream"):
            ua.asarray(CAI(**{**ok, "stream": bad}))


def test_cai_read_only_is_honoured_and_streams_order():
    x = gpu(np.arange(4.0))
    d = dict(x.__cuda_array_interface__)
    d["data"] = (d["data"][0], True)
    y = ua.asarray(CAI(**d))
    assert not y.flags.writable
    with pytest.raises(ValueError, match="read-only"):
        y[0] = 1
    for stream in (1, 2, x.__cuda_array_interface__["stream"]):
        z = ua.asarray(CAI(**{**x.__cuda_array_interface__, "stream": stream}))
        assert ua.asnumpy(z).tolist() == [0, 1, 2, 3]


def test_docs_gpu_table_is_current():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); import conformance as c; "
        "text = open(sys.argv[2]).read(); "
        "sys.exit(c.readme_block(text, c.GPU_BEGIN, c.GPU_END) != c.gpu_table())"
    )
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            script,
            os.path.join(root, "tools"),
            os.path.join(root, "docs", "generated_tables.md"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, (
        "docs/generated_tables.md's GPU conformance table is stale: write the output of "
        "tools/conformance.py --gpu, run on a GPU machine, there\n" + out.stderr
    )


# ------------------------------------------- kernels, pool, stream order


@pytest.mark.parametrize(
    "shape, axes, index",
    [
        ((8192, 4), (1, 0), None),  # tall transpose, partial tiles
        ((33, 65, 7), (2, 0, 1), None),  # tiles of ragged edges
        ((16, 16, 16, 16), (3, 1, 0, 2), None),  # the 4-D permute
        ((3, 4, 5, 6, 7), (4, 2, 0, 3, 1), None),  # rank 5: the any-rank kernel
        ((256, 256, 256), None, (slice(None, None, 2), slice(None, None, -1), slice(1, None, 3))),
    ],
)
@pytest.mark.parametrize("dtype", ["f4", "f8", "i2"])
def test_tiled_and_elementwise_kernels_match_numpy(shape, axes, index, dtype):
    a = rng_array(shape, dtype)
    x = gpu(a)
    if axes is not None:
        got, want = ua.permute_dims(x, axes).copy(), np.transpose(a, axes)
    else:
        got, want = x[index].copy(), a[index]
    np.testing.assert_array_equal(ua.asnumpy(got), np.ascontiguousarray(want))
    # Casting through the same kernels.
    np.testing.assert_array_equal(ua.asnumpy(got.astype("f8")), want.astype("f8"))


def test_copies_past_int_offsets_use_wide_indices():
    n = (1 << 31) // 4 + 1024  # more than 2 GiB of float32 per side
    x = ua.empty((n // 1024, 1024), dtype="f4", queue=GPU)
    x[...] = 1.5
    x[-1, -1] = 7.0
    y = x[:, ::-1].copy()
    assert float(ua.asnumpy(y[-1, 0])) == 7.0 and float(ua.asnumpy(y[0, 0])) == 1.5
    del x, y


def test_large_device_blocks_are_pooled_in_stream_order():
    ctx = ua.Context(GPU)
    x = ua.empty(256 << 20, dtype="u1", queue=GPU)
    ptr = x._pointer
    del x
    assert ctx.held_nbytes() >= 256 << 20
    y = ua.empty(256 << 20, dtype="u1", queue=GPU)
    assert y._pointer == ptr  # the same stream reuses what it freed
    del y
    ctx.free_all_blocks()
    assert ctx.held_nbytes() - ctx.used_nbytes() < 256 << 20


def test_dlpack_import_from_torch_waits_for_its_stream():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    for stream in (torch.cuda.default_stream(), torch.cuda.Stream()):
        with torch.cuda.stream(stream):
            t = torch.zeros(1 << 24, device="cuda")
            for _ in range(20):  # long enough to still run at import
                t += 1
            x = ua.from_dlpack(t)
        assert (ua.asnumpy(x) == 20).all()


def test_dlpack_import_from_torch_orders_our_queue_after_its_stream():
    """PyTorch is asked with -1: our queue is ordered after its current
    stream by us, and a kernel of our queue right after the import sees what
    PyTorch wrote, on its default stream and on a side stream."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    seen = []

    class Recording(torch.Tensor):
        def __dlpack__(self, *args, **kwargs):
            seen.append(kwargs.get("stream"))
            return super().__dlpack__(*args, **kwargs)

    for stream in (torch.cuda.default_stream(), torch.cuda.Stream()):
        with torch.cuda.stream(stream):
            t = torch.zeros(1 << 24, device="cuda")
            for _ in range(20):  # long enough to still run at import
                t += 1
            y = ua.from_dlpack(t.as_subclass(Recording)).copy()
        assert (ua.asnumpy(y) == 20).all()
    assert seen == [-1, -1]


def test_dlpack_import_from_a_tensor_whose_device_answers_are_hostile():
    """A tensor subclass whose is_cuda or get_device() answers nonsense: the
    device comes from __dlpack_device__ instead, the import still orders
    our queue after PyTorch's stream itself, and no error is left behind."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    seen = []

    class Odd(torch.Tensor):
        is_cuda = "yes"

        def __dlpack__(self, *args, **kwargs):
            seen.append(kwargs.get("stream"))
            return super().__dlpack__(*args, **kwargs)

    class Nonsense(Odd):
        is_cuda = True

        def get_device(self):
            return "gpu zero"

    t = torch.arange(10, dtype=torch.float32, device="cuda")
    for cls in (Odd, Nonsense):
        x = ua.from_dlpack(t.as_subclass(cls))
        np.testing.assert_array_equal(ua.asnumpy(x), np.arange(10))
    assert seen == [-1, -1]


def test_dlpack_import_from_other_cuda_producers_asks_for_our_stream():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    seen = []

    class Producer:
        def __init__(self, t):
            self.t = t

        def __dlpack_device__(self):
            return self.t.__dlpack_device__()

        def __dlpack__(self, **kwargs):
            seen.append(kwargs.get("stream"))
            return self.t.__dlpack__(**kwargs)

    t = torch.arange(10, dtype=torch.float32, device="cuda")
    np.testing.assert_array_equal(ua.asnumpy(ua.from_dlpack(Producer(t))), np.arange(10))
    assert seen == [1]  # the default queue's, the legacy default stream


# ------------------------------------------- queues, streams, pipelines


def test_the_default_queue_is_the_legacy_default_stream():
    q = ua.Queue(GPU)
    assert q.is_default and q.stream == 1
    assert ua.empty(4, queue=GPU).__cuda_array_interface__["stream"] == 1
    assert ua.Queue.from_stream(0, GPU).stream == 1  # the driver's default


def test_queues_with_priorities_run_copies():
    least, greatest = ua.Queue(GPU).priorities()
    q = ua.Queue(GPU, priority=greatest)
    assert q.priority == greatest and not q.is_default
    assert q.stream not in (0, 1, 2) and q.stream != ua.Queue(GPU).stream
    a = rng_array((300, 500), "f4")
    x = ua.asarray(a, queue=q)
    assert x.queue is q
    np.testing.assert_array_equal(ua.asnumpy(x.T.copy()), a.T)
    outside = min(least, greatest) - 1
    with pytest.raises(ValueError, match=f"priority {outside} is not one of"):
        ua.Queue(GPU, priority=outside)


def test_a_queue_outlives_nothing_that_uses_it():
    ctx = ua.Context(GPU)
    q = ua.Queue(GPU, in_order=True)
    big = ua.ones(96 << 20, dtype="u1", queue=q)  # the ordered pool
    small = ua.ones(1000, dtype="u1", queue=q)  # the core's pool
    del q
    assert int(ua.asnumpy(big[-10:]).sum()) == 10
    del big, small
    ctx.free_all_blocks()
    assert ctx.held_nbytes() - ctx.used_nbytes() < 96 << 20
    y = ua.ones(1000, dtype="u1", queue=GPU)
    assert int(ua.asnumpy(y).sum()) == 1000


def test_a_queue_over_a_torch_stream_is_ordered_with_it():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    s = torch.cuda.Stream()
    q = ua.Queue.from_stream(s.cuda_stream, GPU, owner=s)
    assert q.stream == s.cuda_stream and "over stream" in repr(q)
    t = torch.zeros(1 << 24, device="cuda")
    torch.cuda.synchronize()
    with torch.cuda.stream(s):
        for _ in range(20):  # long enough to still run at the copy
            t += 1
    y = ua.empty(t.shape[0], dtype="f4", queue=q)
    y[...] = ua.asarray(t)
    assert (ua.asnumpy(y) == 20).all()
    del s
    with pytest.raises(ValueError, match="not a CUDA stream"):
        ua.Queue.from_stream(12345, GPU)


@pytest.mark.parametrize("queue", [None, "new"])
def test_pipelined_pageable_copies_both_ways(queue):
    q = ua.Queue(GPU, in_order=True) if queue else ua.Queue(GPU)
    a = np.arange((48 << 20) // 4 + 7, dtype=np.float32)  # not whole chunks
    x = ua.empty(a.shape, dtype="f4", queue=q)
    x[...] = a
    np.testing.assert_array_equal(ua.asnumpy(x), a)
    b = np.empty_like(a)
    b[...] = ua.asnumpy(x[::-1].copy())
    np.testing.assert_array_equal(b, a[::-1])


@pytest.mark.parametrize("dtype", ["f4", "c16", "i1"])
def test_permutes_with_partial_tiles_and_odd_batches(dtype):
    a = rng_array((3, 37, 5, 45), dtype)
    x = gpu(a)
    for axes in ((3, 1, 0, 2), (1, 3, 2, 0), (2, 0, 3, 1)):
        np.testing.assert_array_equal(
            ua.asnumpy(ua.permute_dims(x, axes).copy()), a.transpose(axes)
        )


def test_to_device_orders_the_copy_after_a_stream_handle():
    a = rng_array((64, 64), "f4")
    x = gpu(a)
    for stream in (1, 2, ua.Queue(GPU)):
        y = x.to_device(GPU, stream=stream)
        np.testing.assert_array_equal(ua.asnumpy(y), a)
    h = gpu(a, "shared").to_device("host", stream=None)
    np.testing.assert_array_equal(ua.asnumpy(h), a)
    with pytest.raises(ValueError, match="not a CUDA stream"):
        x.to_device(GPU, stream=4097)
    with pytest.raises(
        ValueError, match="stream is a queue of host:cpu:0, not of the target device"
    ):
        x.to_device(GPU, stream=ua.Queue("host"))
    with pytest.raises(ValueError, match="the host backend has no streams"):
        x.to_device("host", stream=1)


# ----------------------------------------------------- first calls' compiles

# The calls whose programs a first call may compile at NVRTC's fast level:
# each result's bytes written to the file named by argv[1].
FIRST_CALLS_SCRIPT = """
import sys
import numpy as np
import usmarray as ua
q = ua.Queue("cuda:gpu:0")
rng = np.random.default_rng(7)
x = rng.normal(size=300_001).astype(np.float32) * 1e3
x[::97] = np.nan
x64 = rng.normal(size=200_003) * 1e6
i64 = rng.integers(-2**40, 2**40, size=100_003)
idx = rng.integers(-300_001, 300_001, size=50_000)
m = rng.random(300_001) < 0.4
d = {k: ua.asarray(v, queue=q) for k, v in
     dict(x=x, x64=x64, i64=i64, idx=idx, m=m, y=x[::-1].copy()).items()}
results = {
    "sum": ua.sum(d["x"]), "sum64": ua.sum(d["x64"]), "mean": ua.mean(d["x64"]),
    "max": ua.max(d["x64"]), "argmax": ua.argmax(d["x64"]),
    "cumsum": ua.cumulative_sum(d["x"]), "cumsum64": ua.cumulative_sum(d["x64"]),
    "sort": ua.sort(d["x"]), "argsort": ua.argsort(d["x64"]),
    "sort_i64": ua.sort(d["i64"]), "mask": d["x"][d["m"]],
    "take": ua.take(d["x"], d["idx"]), "where": ua.where(d["m"], d["x"], d["y"]),
    "add": d["x"] + d["y"], "less": d["x"] < d["y"], "mul_i64": d["i64"] * 3,
    "mul": d["x"] * d["y"], "div": d["x"] / d["y"], "div64": d["x64"] / 3.7,
    "square": ua.square(d["x64"]), "div_f16": ua.astype(d["x"], ua.float16) / 7,
    "unique": ua.unique_values(ua.round(d["x"] / 100)),
    "sum_axis0": ua.sum(ua.reshape(d["x64"][:200_000], (400, 500)), axis=0),
}
# fused kernels: math functions, rows in a warp's registers and in a
# group's local memory, reductions in their values' kernel
s = ua.asarray(rng.normal(size=(512, 1024)).astype(np.float32) * 8, queue=q)
w = ua.asarray(rng.normal(size=(64, 8192)).astype(np.float32) * 8, queue=q)
def softmax(m):
    e = ua.exp(m - ua.max(m, axis=1, keepdims=True))
    return e / ua.sum(e, axis=1, keepdims=True)
def log_softmax(m):
    t = m - ua.max(m, axis=1, keepdims=True)
    return t - ua.log(ua.sum(ua.exp(t), axis=1, keepdims=True))
fused = {
    "gelu": (lambda x: 0.5 * x * (1 + ua.tanh(0.7978846 * (x + 0.044715 * x**3))), d["x"]),
    "gelu64": (lambda x: 0.5 * x * (1 + ua.tanh(0.7978846 * (x + 0.044715 * x**3))), d["x64"]),
    "exp_sub": (lambda x: ua.exp(x / 1e3) - ua.sin(x) * ua.log1p(ua.abs(x)), d["x"]),
    "softmax": (softmax, s), "softmax_long": (softmax, w), "log_softmax": (log_softmax, s),
    "variance": (lambda x: ua.mean((x - ua.mean(x)) ** 2), d["x64"]),
    "row_norms": (lambda m: ua.sqrt(ua.sum(m * m, axis=1)), s),
    "sse": (lambda x: ua.sum(ua.expm1(x / 1e4) ** 2), d["x"]),
}
# the rest of the math library, in float32 and float64
def many(x):
    y = x * 0.5 - 1
    a = ua.cos(x) + ua.tan(x / 1e3) + ua.asinh(x) + ua.atan2(x, y) + ua.hypot(x, y)
    b = ua.cbrt(x) + ua.logaddexp(x / 1e3, y / 1e3) + ua.exp2(x / 1e3) + ua.log10(ua.abs(x) + 1)
    c = ua.remainder(x, 7.0) + ua.floor_divide(x, 3.0) + ua.cosh(x / 1e3) + ua.atan(x)
    return a + b * ua.sqrt(ua.abs(c)) + ua.log2(ua.abs(c) + 1) - ua.acos(ua.tanh(x))
for k in ("x", "x64"):
    fused["many_" + k] = (many, d[k])
for k, (f, a) in fused.items():
    g = ua.fuse(f)
    results["fused_" + k] = g(a)
    assert g.plan(a).kernel is not None, g.explain(a)
np.savez(sys.argv[1], **{k: ua.asnumpy(v) for k, v in results.items()})
"""


def first_calls(tmp_path, name, level):
    env = dict(
        os.environ,
        USMARRAY_COMPILE_FIRST=level,
        USMARRAY_CACHE_DIR=str(tmp_path / f"cache-{name}"),
        CUDA_CACHE_PATH=str(tmp_path / f"nv-{name}"),
    )
    out = tmp_path / f"{name}.npz"
    run = subprocess.run(
        [sys.executable, "-c", FIRST_CALLS_SCRIPT, str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return dict(np.load(out))


@pytest.mark.parametrize("level", ["mid", "max"])
def test_fast_compiled_first_calls_give_the_full_compiles_bits(tmp_path, level):
    # Every program a first call may take at a fast level (reductions,
    # scans, sorts, masks, gathers, selections, additions, real products
    # and quotients, integer products, fused kernels with the math
    # library's functions) gives the
    # same bytes as its full compile: the level changes the time, never the
    # result.
    fast = first_calls(tmp_path, "fast", f"{level}-only")
    full = first_calls(tmp_path, "full", "full")
    assert fast.keys() == full.keys()
    for key in full:
        assert fast[key].dtype == full[key].dtype, key
        assert fast[key].tobytes() == full[key].tobytes(), key


TIERED_SCRIPT = """
import time
import numpy as np
import usmarray as ua
x = ua.asarray(np.ones(1 << 20, dtype=np.float32), queue="cuda:gpu:0")
want = float(1 << 20)
for _ in range(600):
    assert float(ua.sum(x)) == want
    time.sleep(0.05)
"""


def traced_fresh_cache_env(tmp_path):
    """A new process's environment: compiles traced, empty kernel caches
    (ours and NVRTC's) under tmp_path, the default first-call level."""
    env = dict(
        os.environ,
        USMARRAY_TRACE_COMPILE="1",
        USMARRAY_CACHE_DIR=str(tmp_path / "cache"),
        CUDA_CACHE_PATH=str(tmp_path / "nv"),
    )
    env.pop("USMARRAY_COMPILE_FIRST", None)
    return env


def test_a_fast_first_call_gives_way_to_the_full_compile_and_the_cache_keeps_it(tmp_path):
    # A first call of an empty cache runs the fast level's kernel; a later
    # call runs the full compile's, which the disk cache then gives to the
    # next process: no fast compile there.
    env = traced_fresh_cache_env(tmp_path)
    script = TIERED_SCRIPT.replace("range(600)", "range(100)")

    def run():
        out = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300
        )
        assert out.returncode == 0, out.stderr[-3000:]
        return out.stderr

    first = run()
    assert "NVRTC fast level" in first
    assert "full module installed" in first
    assert "not installed" not in first
    second = run()
    assert "NVRTC fast level" not in second
    assert "disk cache" in second


FUSED_FIRST_CALL_SCRIPT = """
import numpy as np
import usmarray as ua
x = ua.asarray(np.arange(4096, dtype=np.float32), device="cuda:gpu:0")
y = ua.asarray(np.ones(4096, dtype=np.float32), device="cuda:gpu:0")
f = ua.fuse(lambda x, y: ua.exp(-x) * 2.5 + y)
got = ua.asnumpy(f(x, y))
assert f.plan(x, y).kernel_ran
want = np.exp(-np.arange(4096, dtype=np.float32)) * np.float32(2.5) + 1
assert np.allclose(got, want, rtol=1e-6)
"""


def first_compiles(tmp_path, script):
    """The NVRTC compiles before a first launch (the full compiles beside
    them aside) of script in a new process with empty caches, and its
    stderr."""
    out = subprocess.run(
        [sys.executable, "-c", script],
        env=traced_fresh_cache_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stderr.splitlines()
    compiles = [line for line in lines if ": NVRTC" in line and "in full beside" not in line]
    return compiles, out.stderr


def test_a_fused_functions_first_call_compiles_its_kernel_alone(tmp_path):
    # Its trace finds the nodes' dtypes by eager calls on one-element host
    # arrays: no eager kernel compiles on the GPU, only the fused one.
    compiles, stderr = first_compiles(tmp_path, FUSED_FIRST_CALL_SCRIPT)
    assert len(compiles) == 1 and "elementwise kernel" in compiles[0], stderr


FUSED_REDUCTIONS_FIRST_CALL_SCRIPT = """
import numpy as np
import usmarray as ua
h = np.random.default_rng(3).standard_normal(1 << 20).astype(np.float32)
x = ua.asarray(h, device="cuda:gpu:0")
y = ua.asarray(h[::-1].copy(), device="cuda:gpu:0")
sse = ua.fuse(lambda x, y: ua.sum((x - y) ** 2))
variance = ua.fuse(lambda x: ua.mean((x - ua.mean(x)) ** 2))
share = ua.fuse(lambda x: x / ua.sum(x))
wide = h.astype(np.float64)
# the variance first: the process's first kernels are those compiled ahead
for _ in range(2):
    got = ua.asnumpy(variance(x))
    assert got.shape == () and got.dtype == np.float32
    assert np.isclose(got, wide.var(), rtol=1e-5)
    assert "refused" not in variance.explain(x), variance.explain(x)
for _ in range(2):
    got = ua.asnumpy(share(x))
    assert got.shape == h.shape and got.dtype == np.float32
    assert np.allclose(got, wide / wide.sum(), rtol=1e-5, atol=0)
    assert "plan: eager" not in share.explain(x), share.explain(x)
got = ua.asnumpy(sse(x, y))
assert got.shape == () and got.dtype == np.float32
assert np.isclose(got, ((wide - wide[::-1]) ** 2).sum(), rtol=1e-6)
"""


def test_fused_reductions_of_all_the_values_compile_their_kernels_alone(tmp_path):
    # Past one row, a fused reduction of all the values finishes its
    # groups' partials in a second launch of its own kernel, and the
    # variance's mean of the argument is a kernel of its own: no eager
    # reduction, conversion or division compiles a program of its own on
    # a first call (they took 60 to 160 ms each on the H100).
    compiles, stderr = first_compiles(tmp_path, FUSED_REDUCTIONS_FIRST_CALL_SCRIPT)
    # the squares' sum; the mean and the variance's; the sum and the share
    assert len(compiles) == 5, stderr
    assert all("elementwise kernel" in line for line in compiles), stderr


def test_a_fused_calls_kernels_compile_side_by_side_on_its_first_call(tmp_path):
    # The variance's two kernels (the argument's mean, then its squares'),
    # and x / sum(x)'s (the sum, then the quotients), each compile before
    # the first of them runs, in one wait for NVRTC: each waited for its
    # own compile when its step came (71 + 77 ms on the H100).
    compiles, stderr = first_compiles(tmp_path, FUSED_REDUCTIONS_FIRST_CALL_SCRIPT)
    ahead = [line for line in stderr.splitlines() if "compiled ahead, side by side" in line]
    assert (
        ahead
        == ["usmarray: compiled ahead, side by side: elementwise kernel, elementwise kernel"] * 2
    ), stderr
    assert len(compiles) == 5, stderr  # nothing compiled twice


def test_a_process_that_ends_before_the_full_compile_leaves_it_in_the_cache(tmp_path):
    env = traced_fresh_cache_env(tmp_path)
    script = TIERED_SCRIPT.replace("range(600)", "range(1)").replace("time.sleep(0.05)", "")
    runs = [
        subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300
        )
        for _ in range(2)
    ]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr[-3000:]
    assert "NVRTC fast level" in runs[0].stderr
    assert "NVRTC fast level" not in runs[1].stderr and "disk cache" in runs[1].stderr


UNIQUE_SCRIPT = """
import numpy as np, usmarray as ua
rng = np.random.default_rng(5)
for dtype in ("float32", "int64"):
    h = rng.integers(0, 5000, size=1 << 20).astype(dtype)
    x = ua.asarray(h, device="cuda")
    values = ua.asnumpy(ua.unique_values(x))
    assert np.array_equal(values, np.unique(h)), dtype
    counts = ua.unique_counts(x)
    assert np.array_equal(ua.asnumpy(counts.counts), np.unique(h, return_counts=True)[1])
"""


def test_unique_values_compiles_its_steps_kernels_side_by_side(tmp_path):
    # The argsort's, the gather's and the groups' programs compile in one
    # batch before the first step, where each step compiled its own when
    # it came to it (three waits for NVRTC, one after another).
    env = traced_fresh_cache_env(tmp_path)
    out = subprocess.run(
        [sys.executable, "-c", UNIQUE_SCRIPT], env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-3000:]
    ahead = [line for line in out.stderr.splitlines() if "compiled ahead, side by side" in line]
    assert len(ahead) == 2, out.stderr[-3000:]
    for line, unit in zip(ahead, ("4", "8")):
        assert "radix sort histogram kernel" in line
        assert "radix argsort pass kernel" in line
        assert f"index kernel ua_index_{unit}_1_0" in line
        assert "ua_group kernel" in line
    # Each program of a dtype's calls compiled once at the first call's
    # level: none of the steps compiled its own again.
    for segment in out.stderr.split("compiled ahead, side by side")[1:]:
        fast = [line for line in segment.splitlines() if "NVRTC fast level" in line]
        names = [line.split(": NVRTC")[0] for line in fast]
        assert len(names) == len(set(names)), fast


SMALL_PRODUCT_SCRIPT = """
import numpy as np, usmarray as ua
rng = np.random.default_rng(5)
a, b = rng.normal(size=(64, 64)), rng.normal(size=(64, 64))
for dtype in ("float32", "float64", "complex64"):
    x, y = a.astype(dtype), b.astype(dtype)
    got = ua.asnumpy(ua.matmul(ua.asarray(x, device="cuda:gpu:0"), ua.asarray(y, device="cuda:gpu:0")))
    np.testing.assert_allclose(got, x @ y, rtol=1e-4, atol=1e-4)
def cublas_loaded():
    with open("/proc/self/maps") as f:
        return "libcublas" in f.read()
print("after small", cublas_loaded())
big = ua.asarray(rng.normal(size=(256, 256)), device="cuda:gpu:0")
np.testing.assert_allclose(ua.asnumpy(big @ big), ua.asnumpy(big) @ ua.asnumpy(big), rtol=1e-10)
print("after large", cublas_loaded())
"""


def test_a_small_product_does_not_load_cublas():
    # A 64 x 64 product takes the GPU layer's tile kernel: a process whose
    # products are small never waits for cuBLAS's load (about 190 ms) or
    # its kernels' (about 50 ms); a larger one loads it.
    out = subprocess.run(
        [sys.executable, "-c", SMALL_PRODUCT_SCRIPT], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == ["after", "small", "False", "after", "large", "True"], out.stdout
