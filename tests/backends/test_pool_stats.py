"""The pool's statistics and control, on every device: bytes in use and
held per USM kind, giving unused blocks back, and a limit past which
allocation raises USMAllocationError (CuPy's MemoryPool, by other names)."""

import gc

import pytest
import usmarray as ua

MIB = 1 << 20
DEVICES = [d.filter_string for d in ua.get_devices()]


@pytest.fixture(params=DEVICES)
def device(request):
    return request.param


@pytest.fixture(params=["device", "shared", "host"])
def usm_type(request):
    return request.param


@pytest.fixture
def ctx(device, usm_type):
    c = ua.Context(device)
    yield c
    c.set_limit(None, usm_type=usm_type)


def test_used_bytes_count_live_allocations(ctx, device, usm_type):
    before = ctx.used_nbytes(usm_type)
    x = ua.empty(3 * MIB, dtype="u1", device=device, usm_type=usm_type)
    during = ctx.used_nbytes(usm_type=usm_type)
    assert 3 * MIB <= during - before <= 4 * MIB  # a size class at most
    assert ctx.held_nbytes(usm_type) >= during
    del x
    gc.collect()
    assert ctx.used_nbytes(usm_type) == before


def test_freed_blocks_stay_held_until_free_all_blocks(ctx, device, usm_type):
    x = ua.empty(8 * MIB, dtype="u1", device=device, usm_type=usm_type)
    del x
    gc.collect()
    used = ctx.used_nbytes(usm_type)
    assert ctx.held_nbytes(usm_type) - used >= 8 * MIB
    ctx.free_all_blocks()
    assert ctx.held_nbytes(usm_type) - ctx.used_nbytes(usm_type) < 8 * MIB
    assert ctx.pooled_nbytes == 0


def test_the_limit_refuses_what_would_pass_it(ctx, device, usm_type):
    assert ctx.get_limit(usm_type) is None
    ctx.set_limit(ctx.used_nbytes(usm_type) + 2 * MIB, usm_type=usm_type)
    assert ctx.get_limit(usm_type=usm_type) == ctx.used_nbytes(usm_type) + 2 * MIB
    small = ua.empty(MIB, dtype="u1", device=device, usm_type=usm_type)
    with pytest.raises(ua.USMAllocationError, match="limit of"):
        ua.empty(2 * MIB, dtype="u1", device=device, usm_type=usm_type)
    del small
    gc.collect()
    big = ua.empty(2 * MIB - 4096, dtype="u1", device=device, usm_type=usm_type)
    assert big.nbytes == 2 * MIB - 4096
    del big
    ctx.set_limit(None, usm_type=usm_type)
    assert ctx.get_limit(usm_type) is None
    assert ua.empty(4 * MIB, dtype="u1", device=device, usm_type=usm_type).nbytes == 4 * MIB


def test_a_limit_binds_its_kind_only(device):
    c = ua.Context(device)
    try:
        c.set_limit(0, usm_type="shared")
        with pytest.raises(ua.USMAllocationError):
            ua.empty(1, device=device, usm_type="shared")
        assert ua.empty(1, device=device, usm_type="host").nbytes == 8
    finally:
        c.set_limit(None, usm_type="shared")


@pytest.mark.parametrize(
    "call, error, fragment",
    [
        (lambda c: c.set_limit(-1), ValueError, "number of bytes"),
        (lambda c: c.set_limit(2**64), ValueError, "number of bytes"),
        (lambda c: c.set_limit("1"), TypeError, "integer"),
        (lambda c: c.set_limit(), TypeError, "nbytes"),
        (lambda c: c.used_nbytes("global"), ValueError, "usm_type"),
        (lambda c: c.held_nbytes(usm_type=3), TypeError, "usm_type"),
        (lambda c: c.get_limit("device", 1), TypeError, "at most 1"),
    ],
)
def test_bad_arguments_are_named(call, error, fragment):
    with pytest.raises(error, match=fragment):
        call(ua.Context("host"))
