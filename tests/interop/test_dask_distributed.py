"""Dask's distributed scheduler with usmarray chunks (usmarray.distributed):
the serializers that move an array as a header and its raw bytes onto the
receiving process's default device, and a cluster of two worker processes
per backend (the host, and SYCL's first device where present) computing on
Dask arrays whose chunks live on the workers' devices.  Skipped without
distributed."""

import pickle
import subprocess
import sys
import time

import numpy as np
import pytest
import usmarray as ua
from conftest import first_device_of_each_backend

distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")
protocol = pytest.importorskip("distributed.protocol")
uad = pytest.importorskip("usmarray.distributed")


def test_import_usmarray_imports_neither_dask_nor_distributed():
    code = "import sys, usmarray; print(sorted(m for m in ('dask', 'distributed') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ------------------------------------------------------------ serialization

DTYPES = [
    "float64",
    "float32",
    "float16",
    "int8",
    "uint16",
    "int64",
    "complex128",
    "complex64",
    "bool",
]


def sample(shape, dtype, seed=0):
    r = np.random.default_rng(seed).standard_normal(shape) * 50
    if dtype.startswith("complex"):
        r = r + 1j * np.random.default_rng(seed + 1).standard_normal(shape)
    if dtype == "bool":
        return r > 0
    return r.astype(dtype)


def views(device, usm_type):
    """Layouts a chunk may have: contiguous, 0-d, empty, transposed,
    strided with an offset."""
    base = ua.asarray(sample((6, 10), "float64"), device=device, usm_type=usm_type)
    return {
        "contiguous": base,
        "0-d": base[2, 3],
        "empty": base[:0],
        "transposed": base.T,
        "strided": base[1::2, 1::3],
    }


@pytest.fixture(params=first_device_of_each_backend())
def device(request):
    return request.param


def roundtrip(x):
    """The header, the frames sent, and what a receiver makes of them
    (frames copied into new writable buffers, as a socket fills them)."""
    header, frames = protocol.serialize(x)
    return header, frames, protocol.deserialize(header, [bytearray(f) for f in frames])


def expect_same(x, y):
    """y is x's copy on this process's default device, of x's USM kind."""
    assert isinstance(y, ua.USMArray)
    assert y.device == ua.Device()
    assert y.usm_type == x.usm_type
    assert y.dtype == x.dtype and y.shape == x.shape
    np.testing.assert_array_equal(ua.asnumpy(y), ua.asnumpy(x))


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtypes_travel_as_their_raw_bytes(device, dtype):
    h = sample((5, 7), dtype)
    x = ua.asarray(h, device=device)
    header, frames, y = roundtrip(x)
    assert header["serializer"] == "dask"
    assert len(frames) == 1 and bytes(frames[0]) == h.tobytes()
    # Beyond the type, named by reference, nothing in the header is pickled.
    assert len(header["type-serialized"]) < 100
    assert header["sub-header"] == {
        "dtype": h.dtype.str,
        "shape": (5, 7),
        "order": "C",
        "usm_type": "device",
    }
    expect_same(x, y)


@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
@pytest.mark.parametrize("layout", ["contiguous", "0-d", "empty", "transposed", "strided"])
def test_layouts_and_usm_kinds(device, usm_type, layout):
    x = views(device, usm_type)[layout]
    header, frames, y = roundtrip(x)
    h = ua.asnumpy(x)
    assert header["serializer"] == "dask"
    order = "F" if layout == "transposed" else "C"
    assert bytes(frames[0]) == h.tobytes(order=order)
    expect_same(x, y)


def test_host_memory_is_sent_without_a_copy_and_received_without_one():
    x = ua.asarray(np.arange(1000.0), device="host", usm_type="host")
    header, frames = uad.serialize_usmarray(x)
    assert np.frombuffer(frames[0], dtype=np.uint8).ctypes.data == x._pointer
    received = bytearray(bytes(frames[0]))  # a writable frame, as a socket fills
    y = uad.deserialize_usmarray(header, [received])
    if ua.Queue().device.backend == "host":
        assert y._pointer == np.frombuffer(received, dtype=np.uint8).ctypes.data
    else:  # received onto another default device: one copy, there
        assert y.device == ua.Queue().device
        assert y._pointer != np.frombuffer(received, dtype=np.uint8).ctypes.data
    np.testing.assert_array_equal(ua.asnumpy(y), np.arange(1000.0))
    # A read-only frame is copied: the array stays writable.
    z = uad.deserialize_usmarray(header, [bytes(frames[0])])
    z[0] = 5.0
    assert float(z[0]) == 5.0


def test_the_receiver_places_the_array_on_its_default_device(device):
    x = ua.asarray(sample((4, 4), "float32"), device=device, usm_type="shared")
    header, frames = protocol.serialize(x)
    assert "device" not in header["sub-header"] and header["sub-header"]["usm_type"] == "shared"
    y = protocol.deserialize(header, [bytearray(f) for f in frames])
    assert y.device == ua.Device() and y.usm_type == "shared"


def test_pickle_still_copies_onto_the_same_device(device):
    x = ua.asarray(sample((3, 5), "int64"), device=device)
    y = pickle.loads(pickle.dumps(x))
    assert y.device == x.device
    np.testing.assert_array_equal(ua.asnumpy(y), ua.asnumpy(x))


def test_sizeof_counts_the_elements_bytes():
    from dask.sizeof import sizeof

    x = ua.zeros((100, 10), device="host")
    assert sizeof(x) == 8000
    assert sizeof(x[::2]) == 4000


def test_cluster_arguments_are_checked():
    with pytest.raises(ValueError, match="processes=True"):
        uad.LocalCluster(devices=["host"], processes=False)
    with pytest.raises(ValueError, match="workers_per_device"):
        uad.LocalCluster(devices=["host"], workers_per_device=0)
    with pytest.raises(TypeError, match="n_workers"):
        uad.LocalCluster(devices=["host"], n_workers=3)
    with pytest.raises(TypeError, match="backend or devices"):
        uad.LocalCluster("host", devices=["host"])
    with pytest.raises(ValueError, match="nosuchbackend"):
        uad.device_filter_strings("nosuchbackend")
    with pytest.raises(ValueError):
        uad.LocalCluster(devices=["nosuchdevice:gpu:7"])


def test_device_filter_strings_list_a_backend():
    assert uad.device_filter_strings("host") == ["host:cpu:0"]
    assert uad.device_filter_strings() == [
        d.filter_string for d in ua.get_devices(backend=ua.Device().backend)
    ]


# ------------------------------------------------------------ a cluster


@pytest.fixture(scope="module", params=first_device_of_each_backend())
def cluster(request):
    """Two worker processes of one thread on the backend's first device."""
    with uad.LocalCluster(devices=[request.param], workers_per_device=2, dashboard_address=":0",
                          silence_logs=50) as c:  # fmt: skip
        with distributed.Client(c) as client:
            yield request.param, client, c


def on_workers(client, device, h, chunks):
    """A Dask array of h whose chunks are made on the workers, each on its
    worker's default device."""
    meta = ua.empty((0,) * h.ndim, dtype=h.dtype, device=device)
    return da.from_array(h, chunks=chunks).map_blocks(ua.asarray, dtype=h.dtype, meta=meta)


def chunk_facts(x):
    return type(x).__name__, x.device.filter_string, x.usm_type


def test_each_worker_has_its_device_and_the_serializers(cluster):
    device, client, _ = cluster

    def facts():
        from distributed.protocol.serialize import dask_deserialize

        registered = dask_deserialize.dispatch(ua.USMArray).__module__
        return ua.Device().filter_string, "usmarray.distributed" in sys.modules, registered

    seen = client.run(facts)
    assert len(seen) == 2
    assert set(seen.values()) == {(ua.Device(device).filter_string, True, "usmarray.distributed")}


def test_chunks_live_on_the_workers_and_move_as_arrays(cluster):
    device, client, _ = cluster
    d = on_workers(client, device, sample((40, 30), "float64"), (10, 30)).persist()
    futures = distributed.futures_of(d)
    distributed.wait(futures)
    holders = client.who_has(futures)
    assert len({w for ws in holders.values() for w in ws}) == 2
    filt = ua.Device(device).filter_string
    for f in futures:
        (holder,) = holders[f.key]
        other = next(w for w in client.scheduler_info()["workers"] if w != holder)
        # On the worker that made it, and on the other after a transfer.
        for where in (holder, other):
            facts = client.submit(chunk_facts, f, workers=[where], allow_other_workers=False,
                                  pure=False).result()  # fmt: skip
            assert facts == ("USMArray", filt, "device")


def test_elementwise_and_reductions(cluster):
    device, client, _ = cluster
    h = sample((60, 40), "float64")
    d = on_workers(client, device, h, (15, 20))
    got = (2 * d + 1).compute()
    assert isinstance(got, ua.USMArray)
    np.testing.assert_allclose(ua.asnumpy(got), 2 * h + 1, rtol=1e-15)
    np.testing.assert_allclose(float(d.sum().compute()), h.sum(), rtol=1e-12)
    # The mean as sum and count: Dask's mean() calls the chunks' .sum method
    # while it builds its graph, which the Array API's arrays do not have.
    np.testing.assert_allclose(float((d.sum() / d.size).compute()), h.mean(), rtol=1e-12)
    np.testing.assert_allclose(ua.asnumpy(d.sum(axis=0).compute()), h.sum(axis=0), rtol=1e-12)
    assert float(d.max().compute()) == h.max()


def test_sort_of_each_chunk(cluster):
    device, client, _ = cluster
    h = sample((16, 24), "float32")
    d = on_workers(client, device, h, (8, 8))
    got = d.map_blocks(ua.sort, axis=1, dtype=d.dtype).compute()
    want = np.concatenate([np.sort(h[:, i : i + 8], axis=1) for i in (0, 8, 16)], axis=1)
    np.testing.assert_array_equal(ua.asnumpy(got), want)


def test_matrix_product_and_rechunk(cluster):
    device, client, _ = cluster
    a, b = sample((30, 24), "float64", 1), sample((24, 18), "float64", 2)
    da_, db = on_workers(client, device, a, (10, 8)), on_workers(client, device, b, (8, 9))
    np.testing.assert_allclose(ua.asnumpy((da_ @ db).compute()), a @ b, rtol=1e-12)
    r = da_.rechunk((15, 24))
    assert r.chunks == ((15, 15), (24,))
    blocks = client.compute(r.to_delayed().ravel().tolist(), sync=True)
    assert all(isinstance(x, ua.USMArray) for x in blocks)
    np.testing.assert_array_equal(ua.asnumpy(r.compute()), a)


def test_scaling_stays_within_the_device_slots(cluster):
    device, client, c = cluster
    with pytest.raises(ValueError, match="device slots"):
        c.scale(3)

    def workers_become(n):
        # wait_for_workers waits for at least n: a retiring worker still counts
        deadline = time.monotonic() + 60
        while len(client.scheduler_info()["workers"]) != n:
            assert time.monotonic() < deadline, client.scheduler_info()["workers"]
            time.sleep(0.1)

    c.scale(1)
    workers_become(1)
    c.scale(2)
    workers_become(2)
    seen = client.run(lambda: ua.Device().filter_string)
    assert sorted(seen.values()) == [ua.Device(device).filter_string] * 2


def test_workers_on_two_backends_receive_onto_their_own_device():
    backends = first_device_of_each_backend()
    if len(backends) < 2:
        pytest.skip("needs a second backend's device")
    pair = backends[:2]
    with uad.LocalCluster(devices=pair, dashboard_address=":0", silence_logs=50) as c:
        with distributed.Client(c) as client:
            where = {d: a for a, d in client.run(lambda: ua.Device().filter_string).items()}
            assert sorted(where) == sorted(pair)
            h = sample((50, 20), "float32")
            x = client.submit(
                ua.asarray, h, usm_type="shared", workers=[where[pair[0]]], pure=False
            )
            assert x.result().device == ua.Device()  # gathered onto the client's default device
            moved = client.submit(
                chunk_facts, x, workers=[where[pair[1]]], allow_other_workers=False
            )
            assert moved.result() == ("USMArray", pair[1], "shared")
            total = client.submit(lambda a: ua.asnumpy(ua.sum(a)), x, workers=[where[pair[1]]],
                                  allow_other_workers=False)  # fmt: skip
            np.testing.assert_allclose(total.result(), h.sum(), rtol=1e-5)


def test_the_stub_lists_the_modules_names():
    import ast
    import pathlib

    stub = pathlib.Path(__file__).resolve().parents[2] / "python" / "usmarray" / "distributed.pyi"
    if not stub.is_file():
        pytest.skip("needs the source tree")
    (listed,) = [
        ast.literal_eval(n.value)
        for n in ast.parse(stub.read_text()).body
        if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in n.targets)
    ]
    assert listed == uad.__all__


def test_the_benchmark_runs_small(tmp_path):
    import json
    import pathlib

    script = pathlib.Path(__file__).resolve().parents[2] / "benchmarks" / "dask_distributed.py"
    if not script.is_file():
        pytest.skip("needs the source tree")
    out = tmp_path / "bench.json"
    args = [
        "--backend",
        "host",
        "--size",
        "256",
        "--cols",
        "64",
        "--repeats",
        "1",
        "--transfer-mib",
        "4",
    ]
    subprocess.run(
        [sys.executable, str(script), *args, "--json", str(out)], check=True, capture_output=True
    )
    got = json.loads(out.read_text())
    usm = [r for r in got["layouts"] if r["chunks"] == "usmarray"]
    assert [(r["workers"], r["shape"], r["workers_holding_chunks"]) for r in usm] == [
        (1, [256, 64], 1),
        (2, [512, 64], 2),
    ]
    assert all(r["sum_ms"] > 0 and r["gram_ms"] > 0 for r in usm)
    moved = {m["chunk"]: m for m in got["transfers"]}
    assert {"usmarray", "numpy"} <= set(moved) and all(m["ms"] > 0 for m in moved.values())
