"""Views: indexing, reshape, transpose and attributes, against NumPy."""

import gc
import weakref

import numpy as np
import pytest
import usmarray as ua


def pair(shape=(4, 5, 6), dtype="f8", kind="device"):
    host = np.arange(np.prod(shape), dtype=dtype).reshape(shape)
    return host, ua.asarray(host, usm_type=kind)


def same_view(x, h):
    assert x.shape == h.shape
    assert x.strides == tuple(s // h.itemsize for s in h.strides)
    assert x.flags.c_contiguous == h.flags.c_contiguous
    assert x.flags.f_contiguous == h.flags.f_contiguous
    np.testing.assert_array_equal(ua.asnumpy(x), h)


KEYS = [
    0,
    -1,
    3,
    (1, 2),
    (1, 2, 3),
    (-1, -2, -3),
    slice(None),
    slice(1, 3),
    slice(None, None, -1),
    slice(None, None, 2),
    slice(4, 0, -2),
    slice(10, 20),
    (slice(None), 1),
    (Ellipsis, 2),
    (1, Ellipsis),
    (None, 1),
    (Ellipsis,),
    (slice(None), None, slice(None, None, -3)),
    (0, None, None, 0),
    (slice(1, 1),),
    (slice(None, None, -1), slice(None, None, -1), 0),
    (),
    (Ellipsis, None),
    (None, Ellipsis, None),
    (np.int64(2), np.int32(-1)),
]


@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
def test_basic_indexing_matches_numpy(key):
    h, x = pair()
    v = x[key]
    same_view(v, h[key])
    assert v.base is x.base
    assert v.usm_type == "device"


def test_integer_indexing_gives_zero_dim_views():
    h, x = pair((3, 4))
    v = x[1, 2]
    assert isinstance(v, ua.USMArray) and v.shape == () and v.ndim == 0
    assert ua.asnumpy(v) == h[1, 2]


@pytest.mark.parametrize(
    "key, exc, fragment",
    [
        (5, IndexError, "index 5 is out of bounds for axis 0 with size 4"),
        (-5, IndexError, "index -5 is out of bounds for axis 0 with size 4"),
        ((0, 0, 0, 0), IndexError, "too many indices for array: array is 3-dimensional, but 4"),
        ((Ellipsis, Ellipsis), IndexError, "single ellipsis"),
        (1.0, IndexError, "only integers, slices"),
        ("a", IndexError, "only integers, slices"),
        ((0, 99), IndexError, "index 99 is out of bounds for axis 1 with size 5"),
        (slice(None, None, 0), ValueError, "slice step cannot be zero"),
        (2**70, IndexError, "is out of bounds: no axis is that long"),
    ],
)
def test_bad_indices(key, exc, fragment):
    _, x = pair()
    with pytest.raises(exc) as info:
        x[key]
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    "shape, new",
    [
        ((4, 5, 6), (20, 6)),
        ((4, 5, 6), (-1,)),
        ((4, 5, 6), (2, -1, 3)),
        ((4, 5, 6), (120, 1)),
        ((4, 5, 6), (1, 4, 1, 30)),
        ((6,), (2, 3)),
        ((2, 0), (0, 5)),
        ((), (1, 1)),
        ((1,), ()),
    ],
)
def test_reshape_views_match_numpy(shape, new):
    h, x = pair(shape)
    for order in ("C", "F"):
        r = x.reshape(new, order=order)
        same_view(r, h.reshape(new, order=order))
        if np.shares_memory(h.reshape(new, order=order), h) and h.size:
            assert r.base is x.base
    same_view(x.reshape(*new) if new else x.reshape(()), h.reshape(new))
    same_view(ua.reshape(x, new), np.reshape(h, new))


def test_reshape_that_must_copy():
    h, x = pair((4, 6))
    t = x.T
    r = t.reshape(24)
    np.testing.assert_array_equal(ua.asnumpy(r), h.T.reshape(24))
    assert r.base is not x.base
    with pytest.raises(ValueError, match="without a copy"):
        t.reshape(24, copy=False)
    assert x.reshape(24, copy=True).base is not x.base


@pytest.mark.parametrize(
    "new, fragment",
    [
        ((7,), "cannot reshape an array of size 120 into a shape of size 7"),
        ((-1, -1), "only one -1 is allowed"),
        ((-1, 7), "cannot reshape an array of size 120"),
        ((-2, 60), "only one -1 is allowed"),
    ],
)
def test_bad_reshapes(new, fragment):
    _, x = pair()
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(")):
        x.reshape(new)


def test_transpose_permute_T_mT():
    h, x = pair((2, 3, 4))
    same_view(x.transpose(), h.transpose())
    same_view(x.transpose(1, 0, 2), h.transpose(1, 0, 2))
    same_view(x.transpose((2, 0, 1)), h.transpose((2, 0, 1)))
    same_view(x.transpose(-1, 0, 1), h.transpose(-1, 0, 1))
    same_view(ua.permute_dims(x, (1, 2, 0)), np.transpose(h, (1, 2, 0)))
    same_view(x.mT, np.swapaxes(h, -1, -2))
    same_view(x[0].T, h[0].T)
    with pytest.raises(ValueError, match="T needs an array of exactly 2 dimensions, not 3"):
        x.T
    with pytest.raises(ValueError, match="mT needs an array of at least 2"):
        x[0, 0].mT
    for axes, frag in [
        ((0, 1), "axes has 2 entries"),
        ((0, 0, 1), "repeat axis 0"),
        ((0, 1, 3), "axis 3 is out of bounds"),
    ]:
        with pytest.raises(ValueError, match=frag):
            x.transpose(axes)
    with pytest.raises(TypeError, match="permute_dims expects a USMArray"):
        ua.permute_dims(h, (0, 1, 2))


def test_real_and_imag():
    h = (np.arange(6) + 1j * np.arange(6, 12)).astype(np.complex64).reshape(2, 3)
    x = ua.asarray(h)
    same_view(x.real, h.real)
    same_view(x.imag, h.imag)
    assert x.real.base is x.base
    x.imag[0, 0] = 100
    assert ua.asnumpy(x)[0, 0] == 0 + 100j
    r = ua.asarray(np.arange(4.0))
    assert r.real is r
    assert ua.asnumpy(r.imag).tolist() == [0, 0, 0, 0] and not r.imag.flags.writable


def test_attributes():
    h, x = pair((3, 4), dtype="i2", kind="shared")
    assert x.ndim == 2 and x.size == 12 and x.itemsize == 2 and x.nbytes == 24
    assert x.dtype == np.int16 and x.usm_type == "shared"
    assert x.queue is ua.Queue() and x.device == ua.Device()
    assert isinstance(x.base, ua.MemoryUSMShared)
    assert len(x) == 3
    v = x[1:, ::-1]
    assert v._pointer == x._pointer + (4 + 3) * 2
    assert v._element_offset == 7
    assert v._byte_bounds == (x._pointer + 8, x._pointer + 24)


def test_flags_by_key_and_attribute():
    x = ua.zeros((2, 3))
    f = x.flags
    assert f.c_contiguous and f["C"] and f["C_CONTIGUOUS"]
    assert not f.f_contiguous and not f["F"]
    assert f.writable and f["W"] and f["WRITEABLE"]
    x.flags.writable = False
    assert not x.flags.writable
    with pytest.raises(ValueError, match="read-only"):
        x[0, 0] = 1
    x.flags["W"] = True
    x[0, 0] = 1
    with pytest.raises(ValueError, match="cannot be set"):
        x.flags["C"] = False
    with pytest.raises(AttributeError):
        x.flags.c_contiguous = False
    with pytest.raises(KeyError, match="is not a flag"):
        x.flags["X"]
    for y in (x, x.T, x[:, ::2], x[:1]):  # dpctl's keys of its combinations
        g = y.flags
        assert [g["FC"], g["FORC"], g["CONTIGUOUS"], g["FNC"]] == [
            g.fc,
            g.forc,
            g.contiguous,
            g.fnc,
        ]
    assert x[:1].flags["FC"] and x.T.flags["FNC"] and not x[:, ::2].flags["CONTIGUOUS"]
    assert "C_CONTIGUOUS : True" in repr(x.flags)
    assert x.T.flags.f_contiguous and not x.T.flags.c_contiguous


def test_views_inherit_read_only():
    x = ua.zeros(4)
    x.flags.writable = False
    assert not x[1:].flags.writable
    assert not x.reshape(2, 2).T.flags.writable


def test_views_keep_memory_alive():
    x = ua.arange(10)
    ref = weakref.ref(x.base)
    v = x[::3]
    del x
    gc.collect()
    assert ref() is not None
    assert ua.asnumpy(v).tolist() == [0, 3, 6, 9]
    del v
    gc.collect()
    assert ref() is None


def test_repr_shows_values():
    x = ua.asarray(np.array([[1.5, 2.0], [3.0, 4.0]], dtype=np.float32))
    text = repr(x)
    assert text.startswith("USMArray([[1.5, 2. ],\n          [3. , 4. ]]")
    assert "dtype=float32" in text and "usm_type='device'" in text
    assert f"device='{x.device.filter_string}'" in text
    assert str(x) == str(np.array([[1.5, 2.0], [3.0, 4.0]], dtype=np.float32))
    assert repr(ua.zeros(0)).startswith("USMArray([]")
