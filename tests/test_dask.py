"""Dask arrays whose chunks are usmarray arrays on the host backend, as
Dask runs CuPy chunks: a usmarray meta, chunks made by slicing, NumPy's
functions dispatched to the namespace.  Skipped without Dask."""

import numpy as np
import pytest
import usmarray as ua

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")


@pytest.fixture(autouse=True)
def synchronous():
    with dask.config.set(scheduler="synchronous"):
        yield


def chunked(h, chunks):
    x = ua.asarray(h, device="host")
    meta = ua.empty((0,) * h.ndim, dtype=h.dtype, device="host")
    return da.from_array(x, chunks=chunks, asarray=False, meta=meta)


def sample(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def test_chunks_and_meta_are_usmarray_arrays():
    d = chunked(sample((6, 8)), (3, 4))
    assert isinstance(d._meta, ua.USMArray)
    blocks = d.to_delayed().ravel()
    assert all(isinstance(b.compute(), ua.USMArray) for b in blocks)


def test_reductions_over_chunks():
    h = sample((9, 10))
    d = chunked(h, (4, 3))
    total = d.sum().compute()
    assert isinstance(total, ua.USMArray)
    np.testing.assert_allclose(ua.asnumpy(total), h.sum(), rtol=1e-12)
    cols = d.sum(axis=0).compute()
    assert isinstance(cols, ua.USMArray)
    np.testing.assert_allclose(ua.asnumpy(cols), h.sum(axis=0), rtol=1e-12)
    assert float(ua.asnumpy(d.max().compute())) == h.max()
    np.testing.assert_array_equal(ua.asnumpy(d.min(axis=1).compute()), h.min(axis=1))


def test_sort_of_each_chunk():
    h = sample((8, 12))
    d = chunked(h, (8, 4))
    got = d.map_blocks(ua.sort, axis=1, dtype=d.dtype).compute()
    assert isinstance(got, ua.USMArray)
    want = np.concatenate([np.sort(h[:, i : i + 4], axis=1) for i in (0, 4, 8)], axis=1)
    np.testing.assert_array_equal(ua.asnumpy(got), want)


def test_matrix_product_of_chunked_arrays():
    a, b = sample((6, 9), 1), sample((9, 4), 2)
    got = (chunked(a, (3, 3)) @ chunked(b, (3, 2))).compute()
    assert isinstance(got, ua.USMArray)
    np.testing.assert_allclose(ua.asnumpy(got), a @ b, rtol=1e-12)


def test_elementwise_expression_over_chunks():
    h = sample((7, 5))
    d = chunked(h, (3, 5))
    got = (2 * d + 1).compute()
    assert isinstance(got, ua.USMArray)
    np.testing.assert_allclose(ua.asnumpy(got), 2 * h + 1)
    got = (d * d).sum(axis=1).compute()
    np.testing.assert_allclose(ua.asnumpy(got), (h * h).sum(axis=1), rtol=1e-12)
