"""Two GPUs in one process: arrays moved and assigned between them (every
USM kind, casts, strided views), the device each protocol reports, pointer
queries, imports of other libraries' arrays on the second GPU, and the
errors for devices that do not exist.  Skipped with fewer than two CUDA
GPUs."""

import os

import numpy as np
import pytest
import usmarray as ua
from dlpack_ctypes import Tensor

GPUS = ua.get_devices(backend="cuda")
pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(len(GPUS) < 2, reason="fewer than two CUDA GPUs here"),
]

G0, G1 = "cuda:gpu:0", "cuda:gpu:1"
KINDS = ["device", "shared", "host"]
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")


def values(shape, dtype="f8", seed=0):
    a = np.random.default_rng(seed).normal(size=shape) * 100
    return a.astype(dtype)


def on(device, a, usm_type="device"):
    return ua.asarray(a, usm_type=usm_type, queue=device)


class Holder:
    def __init__(self, cai):
        self.__cuda_array_interface__ = cai


def torch_cuda():
    torch = pytest.importorskip("torch")
    if torch.cuda.device_count() < 2:
        pytest.skip("PyTorch sees fewer than two GPUs")
    return torch


# --------------------------------------------------------------- routes


def test_the_two_gpus_reach_each_other_as_the_driver_says():
    d0, d1 = ua.Device(G0), ua.Device(G1)
    assert d0.can_access_peer(d1) == d1.can_access_peer(d0)
    assert d0.can_access_peer(d0) is True
    torch = pytest.importorskip("torch")
    if torch.cuda.device_count() >= 2:
        assert d0.can_access_peer(d1) == torch.cuda.can_device_access_peer(0, 1)


# ------------------------------------------------------------ to_device


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", ["f8", "f4", "i4", "c16", "f2", "?"])
def test_to_device_moves_an_array_to_the_other_gpu(kind, dtype):
    a = values((33, 65), dtype)
    x = on(G0, a, kind)
    y = x.to_device(G1)
    assert y.device == ua.Device(G1) and y.usm_type == kind
    assert y._pointer != x._pointer
    np.testing.assert_array_equal(ua.asnumpy(y), a)
    back = y.to_device(ua.Queue(G0))
    assert back.device == ua.Device(G0)
    np.testing.assert_array_equal(ua.asnumpy(back), a)


def test_to_device_of_a_strided_view_keeps_its_elements():
    a = values((64, 48, 8))
    v = on(G0, a)[::-3, 1::2, ::4]
    np.testing.assert_array_equal(ua.asnumpy(v.to_device(G1)), a[::-3, 1::2, ::4])


def test_a_large_copy_sees_work_just_done_on_the_source_gpu():
    n = 64 << 20
    x = ua.zeros(n, dtype="f4", queue=G0)
    x[...] = 7.0
    y = x.to_device(G1)
    x[...] = 1.0  # must not reach y
    host = ua.asnumpy(y)
    assert host[0] == 7.0 and host[-1] == 7.0 and (host == 7.0).all()


# ----------------------------------------------------------- assignment


@pytest.mark.parametrize("src_kind", KINDS)
@pytest.mark.parametrize("dst_kind", KINDS)
def test_assignment_between_gpus_every_kind(src_kind, dst_kind):
    a = values((40, 30))
    x = on(G0, a, src_kind)
    y = ua.zeros((40, 30), usm_type=dst_kind, queue=G1)
    y[...] = x
    np.testing.assert_array_equal(ua.asnumpy(y), a)


def test_strided_and_casting_assignment_between_gpus():
    a = values((50, 40))
    x = on(G0, a)
    y = ua.zeros((50, 40), dtype="f4", queue=G1)
    y[::2, ::-1] = x[::2].T.T[:, ::-1][:, ::-1]
    want = np.zeros((50, 40), dtype="f4")
    want[::2, ::-1] = a[::2]
    np.testing.assert_array_equal(ua.asnumpy(y), want)
    # Broadcast source on the other GPU, into a transposed destination.
    row = on(G1, np.arange(50.0))
    z = ua.zeros((40, 50), queue=G0)
    z.T[...] = row[:, None]
    np.testing.assert_array_equal(ua.asnumpy(z), np.broadcast_to(np.arange(50.0), (40, 50)))


def test_asarray_with_a_queue_on_the_other_gpu_copies_there():
    a = values((7, 9))
    x = on(G0, a)
    y = ua.asarray(x, queue=ua.Queue(G1))
    assert y.device == ua.Device(G1)
    np.testing.assert_array_equal(ua.asnumpy(y), a)
    assert ua.asarray(x, queue=G0)._pointer == x._pointer
    with pytest.raises(ValueError):
        ua.asarray(x, queue=G1, copy=False)


# ------------------------------------------------------ protocols, queries


@pytest.mark.parametrize("kind,dl_type", [("device", 2), ("host", 3), ("shared", 13)])
def test_dlpack_names_the_second_gpu(kind, dl_type):
    x = ua.ones(5, usm_type=kind, queue=G1)
    assert x.__dlpack_device__() == (dl_type, 1)
    with pytest.raises(BufferError):
        x.__dlpack__(max_version=(1, 0), dl_device=(dl_type, 0))


@pytest.mark.parametrize("kind", KINDS)
def test_pointer_queries_answer_for_the_second_gpu(kind):
    x = ua.ones(1000, usm_type=kind, queue=G1)
    assert ua.get_pointer_type(x._pointer + 8, G1) == kind
    mem = ua.as_usm_memory(x)
    assert mem.device == ua.Device(G1)
    assert ua.asarray(Holder(x.__cuda_array_interface__)).device == ua.Device(G1)


def test_other_libraries_arrays_on_gpu_1_are_imported_as_gpu_1s():
    torch = torch_cuda()
    t = torch.arange(12.0, device="cuda:1")
    for y in (ua.asarray(t), ua.from_dlpack(t)):
        assert y.device == ua.Device(G1)
        assert y._pointer == t.data_ptr()  # no copy
        np.testing.assert_array_equal(ua.asnumpy(y), np.arange(12.0))
    assert ua.get_pointer_type(t.data_ptr(), G1) == "device"
    mem = ua.as_usm_memory(ua.asarray(t))
    assert mem.device == ua.Device(G1)
    cp = pytest.importorskip("cupy")
    with cp.cuda.Device(1):
        c = cp.arange(6.0)
    y = ua.asarray(c)
    assert y.device == ua.Device(G1) and y._pointer == c.data.ptr


def test_partners_see_our_gpu_1_arrays_on_gpu_1():
    torch = torch_cuda()
    x = ua.arange(10.0, queue=G1)
    t = torch.from_dlpack(x)
    assert t.device == torch.device("cuda:1") and t.data_ptr() == x._pointer
    t2 = torch.as_tensor(x, device="cuda:1")
    assert t2.data_ptr() == x._pointer
    cp = pytest.importorskip("cupy")
    c = cp.asarray(x)
    assert c.device.id == 1 and c.data.ptr == x._pointer


# ------------------------------------------------------------ bad input


def test_a_gpu_that_does_not_exist_is_named():
    missing = f"cuda:gpu:{len(GPUS)}"
    for call in (
        lambda: ua.Queue(missing),
        lambda: ua.Device(missing),
        lambda: ua.ones(3, queue=G0).to_device(missing),
        lambda: ua.empty(3, queue=missing),
    ):
        with pytest.raises(ValueError, match=missing):
            call()


def test_a_dlpack_tensor_on_a_gpu_that_does_not_exist_is_refused():
    t = Tensor(np.zeros(4), device=(2, len(GPUS) + 3))
    with pytest.raises(BufferError, match="no such device"):
        ua.from_dlpack(t.capsule())
