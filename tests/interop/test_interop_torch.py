"""Zero-copy exchange with PyTorch's CPU build, both directions, through
DLPack; shared memory proven by writes on each side."""

import numpy as np
import pytest
import usmarray as ua
from interop_layouts import LAYOUTS

torch = pytest.importorskip("torch")


# The exchange partners here run on the CPU: arrays live on the host backend,
# whatever the default device is.
def fresh(kind="shared"):
    return ua.asarray(np.arange(24.0).reshape(4, 6), usm_type=kind, queue="host")


@pytest.mark.parametrize("layout", [k for k in LAYOUTS if k != "negative-stride"])
def test_torch_reads_and_writes_our_memory(layout):
    x = LAYOUTS[layout](fresh())
    t = torch.from_dlpack(x)
    assert tuple(t.shape) == x.shape
    np.testing.assert_array_equal(t.numpy(), ua.asnumpy(x))
    if x.size:
        assert tuple(t.stride()) == x.strides
        t.fill_(-1)
        assert (ua.asnumpy(x) == -1).all()
        x[...] = 4
        assert (t == 4).all()


@pytest.mark.parametrize("layout", ["c-ordered", "strided", "transposed", "0-d", "zero-size"])
def test_we_read_and_write_torch_memory(layout):
    base = torch.arange(24.0).reshape(4, 6)
    views = {
        "c-ordered": base,
        "strided": base[::2, 1::2],
        "transposed": base.T,
        "0-d": base[1, 2],
        "zero-size": base[3:3],
    }
    t = views[layout]
    for x in (ua.from_dlpack(t), ua.asarray(t, usm_type="host", queue="host")):
        assert x.shape == tuple(t.shape)
        np.testing.assert_array_equal(ua.asnumpy(x), t.numpy())
        if t.numel():
            assert x.strides == tuple(t.stride())
            x[...] = 9
            assert (t == 9).all()
            t.fill_(2)
            assert (ua.asnumpy(x) == 2).all()


@pytest.mark.parametrize(
    "dtype",
    [
        torch.bool,
        torch.int8,
        torch.uint8,
        torch.int16,
        torch.int32,
        torch.int64,
        torch.float16,
        torch.float32,
        torch.float64,
        torch.complex64,
        torch.complex128,
    ],
)
def test_dtypes_both_ways(dtype):
    t = torch.ones(5, dtype=dtype)
    x = ua.from_dlpack(t)
    assert str(x.dtype) == str(dtype).replace("torch.", "")
    back = torch.from_dlpack(x)
    assert back.dtype == dtype and back.data_ptr() == t.data_ptr()


def test_bfloat16_is_refused_by_name():
    with pytest.raises(BufferError, match="bfloat16"):
        ua.from_dlpack(torch.ones(3, dtype=torch.bfloat16))


def test_asarray_copies_torch_tensors_to_device_memory_by_default():
    t = torch.arange(3.0)
    x = ua.asarray(t)
    assert x.usm_type == "device"
    t[0] = 10
    assert ua.asnumpy(x)[0] == 0
    with pytest.raises(ValueError, match="without a copy"):
        ua.asarray(t, copy=False)


def test_tensor_lives_as_long_as_our_view():
    import gc

    t = torch.arange(1000.0)
    x = ua.from_dlpack(t)
    del t
    gc.collect()
    assert ua.asnumpy(x)[999] == 999
