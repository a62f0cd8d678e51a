import os
import pickle
import platform

import pytest
import usmarray as ua


def test_host_device_always_exists():
    host = ua.Device("host")
    assert host.backend == "host"
    assert host.device_type == "cpu"
    assert host.filter_string == "host:cpu:0"
    assert host.id == 0
    assert isinstance(host.name, str) and host.name
    assert "host:cpu:0" in repr(host)


def test_host_device_details():
    host = ua.Device("host")
    assert host.global_mem_size == os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert host.max_compute_units == os.sysconf("SC_NPROCESSORS_ONLN")
    assert host.architecture == platform.machine()
    assert host.driver_version == f"{platform.system()} {platform.release()}"
    assert isinstance(host.vendor, str) and isinstance(host.runtime_version, str)


def test_every_device_has_details():
    for d in ua.get_devices():
        for attr in ("vendor", "driver_version", "runtime_version", "architecture"):
            assert isinstance(getattr(d, attr), str)
        assert isinstance(d.global_mem_size, int) and d.global_mem_size >= 0
        assert isinstance(d.max_compute_units, int) and d.max_compute_units >= 0
        with pytest.raises(AttributeError):
            d.global_mem_size = 1


@pytest.mark.parametrize(
    "filter_string",
    ["host", "cpu", "host:cpu", "host:cpu:0", "host:0", "cpu:0", "0", "Host:CPU"],
)
def test_filter_strings_select_the_host(filter_string):
    assert ua.Device(filter_string) == ua.Device("host:cpu:0")


@pytest.mark.parametrize(
    "filter_string, fragment",
    [
        ("banana", "'banana' is not a backend"),
        ("host:cpu:5", "no device matches filter string 'host:cpu:5'"),
        ("host:gpu", "no device matches"),
        ("cpu:host", "out of place"),
        ("host::0", "empty field"),
        ("host:", "empty field"),
        ("", "must have 1 to"),
        ("99", "no device matches"),
        ("host:cpu:0:1", "out of place"),
    ],
)
def test_bad_filter_strings_name_the_filter_and_devices(filter_string, fragment):
    with pytest.raises(ValueError) as info:
        ua.Device(filter_string)
    assert fragment in str(info.value)
    if "no device matches" in fragment:
        assert "host:cpu:0" in str(info.value)  # lists what exists


@pytest.mark.parametrize("bad", [0, 1.5, b"host", ["host"]])
def test_device_needs_a_string(bad):
    with pytest.raises(TypeError, match="filter_string must be "):
        ua.Device(bad)


def test_default_device_without_gpu_is_host(monkeypatch):
    monkeypatch.delenv("USMARRAY_DEVICE", raising=False)
    gpus = ua.get_devices(device_type="gpu")
    expected = gpus[0] if gpus else ua.Device("host")
    assert ua.Device() == expected
    assert ua.Device(None) == expected


def test_environment_chooses_default(monkeypatch):
    monkeypatch.setenv("USMARRAY_DEVICE", "host:cpu:0")
    assert ua.Device() == ua.Device("host")
    assert ua.Queue().device == ua.Device("host")
    monkeypatch.setenv("USMARRAY_DEVICE", "nowhere:9")
    with pytest.raises(ValueError, match="USMARRAY_DEVICE"):
        ua.Device()


def test_get_devices_filters():
    devices = ua.get_devices()
    assert ua.Device("host") in devices
    assert [d.id for d in devices] == list(range(len(devices)))
    assert ua.get_devices(backend="host") == [ua.Device("host")]
    assert ua.Device("host") in ua.get_devices(device_type="cpu")
    assert all(d.device_type == "gpu" for d in ua.get_devices(device_type="gpu"))
    with pytest.raises(ValueError, match="backend 'opencl' is not known"):
        ua.get_devices(backend="opencl")
    with pytest.raises(ValueError, match="device_type 'fpga' is not known"):
        ua.get_devices(device_type="fpga")
    with pytest.raises(TypeError, match="backend must be a str"):
        ua.get_devices(backend=1)


def test_equality_and_hash_follow_the_underlying_object():
    a, b = ua.Device("host"), ua.Device("cpu:0")
    assert a == b and hash(a) == hash(b) and not (a != b)
    assert a != "host:cpu:0"
    assert len({a, b, ua.Device("0")}) == 1


def test_contexts_and_queues_are_cached():
    dev = ua.Device("host")
    assert ua.Context(dev) is ua.Context("host")
    assert ua.Queue(dev) is ua.Queue("host:cpu:0")
    q = ua.Queue(dev)
    assert q.device == dev and q.context == ua.Context(dev)
    assert ua.Context(dev).device == dev
    assert ua.Context(dev).devices == (dev,)
    assert ua.Queue(context=ua.Context(dev)) is q
    assert ua.Queue(dev, context=ua.Context(dev)) is q
    assert hash(q) == hash(ua.Queue("host"))
    assert q.wait() is None
    assert "host:cpu:0" in repr(q) and "host:cpu:0" in repr(ua.Context(dev))


def test_queues_made_anew_are_new_and_live_as_long_as_their_users():
    dflt = ua.Queue("host")
    q = ua.Queue("host", in_order=False)
    assert q is not dflt and q != dflt and q != ua.Queue("host", in_order=True)
    assert q.device == dflt.device and q.context is dflt.context
    assert dflt.is_default and not q.is_default and q.priority is None
    assert "new" in repr(q) and "new" not in repr(dflt)
    x = ua.arange(10, queue=q)
    del q
    # The array keeps its queue: work on it still runs, and copies land.
    assert x.queue.is_default is False
    y = x.copy()
    assert y.queue == x.queue
    assert ua.asnumpy(y).tolist() == list(range(10))
    # Blocks of a queue that is gone serve the default queue.
    queue = x.queue
    del x, y, queue
    z = ua.ones(10, queue=dflt)
    assert ua.asnumpy(z).sum() == 10
    with pytest.raises(TypeError, match="only default queues can be pickled"):
        pickle.dumps(ua.Queue("host", in_order=True))


def test_priorities_and_streams_where_the_backend_has_none():
    q = ua.Queue("host")
    assert q.priorities() is None and q.stream == 0
    with pytest.raises(ValueError, match="host:cpu:0 have no priorities"):
        ua.Queue("host", priority=0)
    with pytest.raises(ValueError, match="host:cpu:0 have no streams"):
        ua.Queue.from_stream(0, "host")
    with pytest.raises(TypeError, match="priority"):
        ua.Queue("host", priority="high")
    with pytest.raises(TypeError, match="stream"):
        ua.Queue.from_stream(None, "host")


def test_queue_and_context_argument_errors():
    with pytest.raises(TypeError, match="context must be a usmarray.Context"):
        ua.Queue("host", context="host")
    with pytest.raises(TypeError, match="device must be"):
        ua.Context(3.0)
    with pytest.raises(ValueError, match="no device matches"):
        ua.Queue("host:cpu:3")


def test_devices_queues_contexts_pickle():
    dev = ua.Device("host")
    assert pickle.loads(pickle.dumps(dev)) == dev
    assert pickle.loads(pickle.dumps(ua.Queue(dev))) is ua.Queue(dev)
    assert pickle.loads(pickle.dumps(ua.Context(dev))) is ua.Context(dev)


def test_can_access_peer_says_how_copies_reach_another_device():
    host = ua.Device("host")
    assert host.can_access_peer(host) is True
    assert host.can_access_peer(ua.Queue("host")) is True
    with pytest.raises(ValueError, match="cuda:gpu:99"):
        host.can_access_peer("cuda:gpu:99")
    with pytest.raises(TypeError, match="peer must be"):
        host.can_access_peer(3)
    for gpu in ua.get_devices(device_type="gpu"):
        # A GPU's queues reach CPU memory; the host's reach no GPU's: copies
        # go through the host.
        assert gpu.can_access_peer(host) is True
        assert host.can_access_peer(gpu) is False
