"""Freed allocations kept for reuse, and the argument lists of the hot entry
points (parsed without building keyword dictionaries)."""

import gc
import os
import subprocess
import sys

import pytest
import usmarray as ua
from conftest import KINDS


def test_freed_memory_is_reused_and_forgotten(kind):
    # On the host backend: no driver there knows pooled blocks either.
    ctx = ua.Context("host")
    # Earlier tests' garbage freed first, so that none reaches the pool
    # while this test reads it.
    gc.collect()
    ctx.release_pool()
    mem = KINDS[kind](3000, queue="host")
    ptr = mem._pointer
    del mem
    gc.collect()
    pooled = ctx.pooled_nbytes
    assert pooled >= 3000
    # Freed: pointer queries no longer know it, though the pool keeps it.
    assert ua.get_pointer_type(ptr, "host") == "unknown"
    again = KINDS[kind](2900, queue="host")  # same size class
    assert again._pointer == ptr and again.nbytes == 2900
    assert ua.get_pointer_type(ptr + 2899, "host") == kind
    # The block left the pool.
    assert pooled - ctx.pooled_nbytes >= 3000


def test_release_pool_gives_everything_back():
    ctx = ua.Context()
    arrays = [ua.empty(n, usm_type="shared") for n in (10, 1000, 100000)]
    del arrays
    gc.collect()
    assert ctx.pooled_nbytes > 0
    ctx.release_pool()
    assert ctx.pooled_nbytes == 0


def test_reused_memory_is_not_the_old_contents_view():
    a = ua.zeros(1000, usm_type="shared")
    ptr = a._pointer
    del a
    gc.collect()
    b = ua.zeros(1000, usm_type="shared")
    assert b._pointer == ptr
    assert not ua.asnumpy(b).any()


def test_explicit_alignment_bypasses_the_pool():
    ctx = ua.Context()
    ctx.release_pool()
    m = ua.MemoryUSMHost(4096, alignment=4096)
    assert m._pointer % 4096 == 0
    del m
    gc.collect()
    assert ctx.pooled_nbytes == 0


def test_pool_can_be_turned_off():
    code = (
        "import gc, usmarray as ua; m = ua.MemoryUSMShared(100); del m; "
        "gc.collect(); print(ua.Context().pooled_nbytes)"
    )
    env = dict(os.environ, USMARRAY_POOL="0")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "0"


def pooled_bytes_with(value):
    code = (
        "import gc, usmarray as ua; m = ua.MemoryUSMShared(100); del m; "
        "gc.collect(); print(ua.Context().pooled_nbytes)"
    )
    env = dict(os.environ, USMARRAY_POOL=value)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)


@pytest.mark.parametrize(
    "value, pooled",
    [
        ("0", False),
        ("false", False),
        ("FALSE", False),
        ("no", False),
        ("off", False),
        ("Off", False),
        ("1", True),
        ("true", True),
        ("True", True),
        ("yes", True),
        ("on", True),
        ("", True),
    ],
)
def test_pool_setting_accepts_the_usual_words(value, pooled):
    out = pooled_bytes_with(value)
    assert out.returncode == 0, out.stderr
    assert (int(out.stdout) > 0) == pooled


@pytest.mark.parametrize("value", ["maybe", "2", "00", " 0", "disable", "0 "])
def test_pool_setting_refuses_anything_else_and_says_what_is_accepted(value):
    out = pooled_bytes_with(value)
    assert out.returncode != 0
    assert "ValueError: environment variable USMARRAY_POOL is '%s'" % value in out.stderr
    assert "expected 1, true, yes or on" in out.stderr and "0, false, no or off" in out.stderr


BAD_CALLS = [
    (lambda: ua.USMArray(), "USMArray() missing required argument 'shape'"),
    (lambda: ua.USMArray(2, shape=3), "got multiple values for argument 'shape'"),
    (lambda: ua.USMArray(2, bogus=1), "unexpected keyword argument 'bogus'"),
    (
        lambda: ua.USMArray(1, "f8", "device", None, 0, "C", {}, 8),
        "takes at most 7 positional arguments (8 given)",
    ),
    (lambda: ua.USMArray(**{"shape": 2, 3: 4}), "keywords must be strings"),
    (lambda: ua.MemoryUSMDevice(), "missing required argument 'nbytes_or_obj'"),
    (lambda: ua.MemoryUSMDevice(8, 64), "takes at most 1 positional argument"),
    (lambda: ua.MemoryUSMDevice(8, align=64), "unexpected keyword argument 'align'"),
    (lambda: ua.empty(), "empty() missing required argument 'shape'"),
    (lambda: ua.empty(3, "f4"), "empty() takes at most 1 positional argument"),
    (lambda: ua.zeros(3, dtyp="f4"), "zeros() got an unexpected keyword"),
    (lambda: ua.full(3), "full() missing required argument 'fill_value'"),
    (lambda: ua.ones_like(), "ones_like() missing required argument 'x'"),
    (lambda: ua.full_like(ua.empty(2)), "missing required argument 'fill_value'"),
    (lambda: ua.asarray([1], "f4"), "asarray() takes at most 1 positional"),
    (lambda: ua.asarray(obj=[1], copy=True, obj2=1), "unexpected keyword argument 'obj2'"),
    (lambda: ua.arange(), "arange() missing required argument 'start'"),
    (lambda: ua.arange(1, 2, 3, 4), "arange() takes at most 3 positional"),
    (lambda: ua.reshape(ua.empty(4)), "missing required argument 'shape'"),
    (lambda: ua.permute_dims(ua.empty(4), (0,), 1), "takes at most 2 positional"),
]


@pytest.mark.parametrize("call, fragment", BAD_CALLS, ids=[b[1][:40] for b in BAD_CALLS])
def test_bad_argument_lists(call, fragment):
    with pytest.raises(TypeError) as info:
        call()
    assert fragment in str(info.value)


def test_keywords_and_positions_mean_the_same():
    mem = ua.MemoryUSMShared(64)
    a = ua.USMArray((2, 2), "i4", mem, (1, 2), 4, "C")
    b = ua.USMArray(shape=(2, 2), dtype="i4", buffer=mem, strides=(1, 2), offset=4, order="C")
    assert a.__sycl_usm_array_interface__ == b.__sycl_usm_array_interface__
    assert ua.full(fill_value=7, shape=3, dtype="i2").dtype == "int16"
    assert ua.arange(1, stop=7, step=2).shape == (3,)


class Sub(ua.MemoryUSMShared):
    pass


def test_subclasses_construct_through_the_same_argument_list():
    m = Sub(32, alignment=128)
    assert type(m) is Sub and m._pointer % 128 == 0
    with pytest.raises(TypeError, match="unexpected keyword argument 'x'"):
        Sub(32, x=1)


def test_shapes_too_large_to_address_are_refused_by_name():
    m = ua.MemoryUSMShared(64)

    class S:
        pass

    s = S()
    s.__sycl_usm_array_interface__ = {
        "shape": (2**62, 4),
        "typestr": "<f8",
        "data": (m._pointer, False),
        "version": 1,
        "syclobj": m.queue,
    }
    with pytest.raises(ValueError, match="too many elements"):
        ua.asarray(s)
    with pytest.raises(ValueError, match="too many elements"):
        ua.USMArray((2**62, 4), buffer=m)
    with pytest.raises(ValueError, match="too many elements"):
        ua.empty((2**62, 4))


@pytest.mark.parametrize("value", ["fast", "0", "-1", "nan"])
def test_the_stress_scale_is_parsed_strictly(value, monkeypatch):
    from conftest import stress_scale

    monkeypatch.setenv("USMARRAY_STRESS_SCALE", value)
    with pytest.raises(
        ValueError, match="USMARRAY_STRESS_SCALE is '%s'; expected a positive number" % value
    ):
        stress_scale()
    monkeypatch.setenv("USMARRAY_STRESS_SCALE", "0.02")
    assert stress_scale() == 0.02
