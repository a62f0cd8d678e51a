"""Dask arrays whose chunks are usmarray arrays, as Dask runs CuPy chunks:
a usmarray meta, chunks made by slicing, NumPy's functions dispatched to
the namespace.  Run on the first device of each backend the machine has
(the host; CUDA and SYCL where present).  Skipped without Dask."""

import numpy as np
import pytest
import usmarray as ua
from conftest import first_device_of_each_backend

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")


@pytest.fixture(autouse=True)
def synchronous():
    with dask.config.set(scheduler="synchronous"):
        yield


@pytest.fixture(params=first_device_of_each_backend())
def device(request):
    return request.param


def chunked(h, chunks, device):
    x = ua.asarray(h, device=device)
    meta = ua.empty((0,) * h.ndim, dtype=h.dtype, device=device)
    return da.from_array(x, chunks=chunks, asarray=False, meta=meta)


def on(device, got):
    """got is a usmarray array on device: Dask kept the chunks' type and
    computed where they live."""
    assert isinstance(got, ua.USMArray)
    assert got.device == ua.Device(device), (got.device, device)
    return got


def sample(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def test_chunks_and_meta_are_usmarray_arrays(device):
    d = chunked(sample((6, 8)), (3, 4), device)
    assert isinstance(d._meta, ua.USMArray)
    blocks = d.to_delayed().ravel()
    for b in blocks:
        on(device, b.compute())


def test_reductions_over_chunks(device):
    h = sample((9, 10))
    d = chunked(h, (4, 3), device)
    total = on(device, d.sum().compute())
    np.testing.assert_allclose(ua.asnumpy(total), h.sum(), rtol=1e-12)
    cols = on(device, d.sum(axis=0).compute())
    np.testing.assert_allclose(ua.asnumpy(cols), h.sum(axis=0), rtol=1e-12)
    assert float(ua.asnumpy(d.max().compute())) == h.max()
    np.testing.assert_array_equal(ua.asnumpy(d.min(axis=1).compute()), h.min(axis=1))


def test_sort_of_each_chunk(device):
    h = sample((8, 12))
    d = chunked(h, (8, 4), device)
    got = on(device, d.map_blocks(ua.sort, axis=1, dtype=d.dtype).compute())
    want = np.concatenate([np.sort(h[:, i : i + 4], axis=1) for i in (0, 4, 8)], axis=1)
    np.testing.assert_array_equal(ua.asnumpy(got), want)


def test_matrix_product_of_chunked_arrays(device):
    a, b = sample((6, 9), 1), sample((9, 4), 2)
    got = on(device, (chunked(a, (3, 3), device) @ chunked(b, (3, 2), device)).compute())
    np.testing.assert_allclose(ua.asnumpy(got), a @ b, rtol=1e-12)


def test_elementwise_expression_over_chunks(device):
    h = sample((7, 5))
    d = chunked(h, (3, 5), device)
    got = on(device, (2 * d + 1).compute())
    np.testing.assert_allclose(ua.asnumpy(got), 2 * h + 1)
    got = on(device, (d * d).sum(axis=1).compute())
    np.testing.assert_allclose(ua.asnumpy(got), (h * h).sum(axis=1), rtol=1e-12)
