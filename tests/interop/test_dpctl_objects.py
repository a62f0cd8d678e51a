"""dpctl's objects wherever a device or a queue is taken, and dpctl's objects
given back by arrays and memory of the SYCL backend (docs/architecture.rst,
"dpctl's objects"), against dpctl and dpnp on the SYCL devices here
(the OpenCL CPU device in CI).  Skipped without dpctl."""

import numpy as np
import pytest
import usmarray as ua

dpctl = pytest.importorskip("dpctl")


@pytest.fixture(scope="module")
def q():
    devices = ua.get_devices(backend="sycl")
    if not devices:
        pytest.fail("dpctl is installed but the SYCL backend has no device")
    return ua.Queue(devices[0])


@pytest.fixture(scope="module")
def dq(q):
    return dpctl.SyclQueue(q._get_capsule())


def test_a_dpctl_queue_device_or_context_names_the_same_device(q, dq):
    for obj in (dq, dq.sycl_device, dq.sycl_context):
        assert ua.Queue(obj) is q
        assert ua.Context(obj) is q.context
        assert ua.empty(3, device=obj).queue is q
        assert ua.zeros(3, queue=obj).device == q.device
        assert ua.asarray([1, 2], device=obj).queue is q


def _cpu_filter(q):
    return q.device.filter_string.replace("sycl", "opencl")


@pytest.mark.parametrize("prop", [None, "in_order"])
def test_a_dpctl_queue_made_by_the_user_is_that_queue(q, prop):
    # dpctl's SyclQueue() runs out of order unless told otherwise: work of
    # ours on it still runs in the order it is submitted.
    mine = dpctl.SyclQueue(_cpu_filter(q), **({"property": prop} if prop else {}))
    x = ua.ones(1000, dtype="f8", sycl_queue=mine)
    assert x.sycl_queue == mine
    assert x.queue is not q and x.queue is ua.Queue(mine)
    assert "another library's queue" in repr(x.queue)
    made = [
        ua.arange(1000, dtype="i8", device=mine),
        ua.full(1000, 3, dtype="i8", queue=mine),
        ua.asarray(np.arange(1000.0), sycl_queue=mine),
        ua.empty(1000, device=ua.Queue(mine)),
    ]
    assert all(m.queue is x.queue for m in made)
    y = (x + made[0]) * made[1] - made[2]
    assert y.queue is x.queue
    expected = (np.ones(1000) + np.arange(1000)) * 3 - np.arange(1000.0)
    np.testing.assert_array_equal(ua.asnumpy(y), expected)
    # Different queues do not combine, as in dpctl.
    with pytest.raises(ValueError, match="different queues"):
        x + ua.ones(1000, queue=q)


def test_one_dpctl_queue_is_one_queue_whatever_its_python_object(q):
    mine = dpctl.SyclQueue(_cpu_filter(q))
    x = ua.ones(3, queue=mine)
    for same in (dpctl.SyclQueue(mine._get_capsule()), x.sycl_queue, mine._get_capsule()):
        assert ua.zeros(3, queue=same).queue is x.queue
    assert ua.MemoryUSMDevice(16, queue=mine).sycl_queue == mine
    assert ua.Queue(mine) == x.queue and hash(ua.Queue(mine)) == hash(x.queue)


def test_the_queue_outlives_the_dpctl_object_and_dies_with_its_arrays(q):
    import gc

    count = ua._usmarray._adopted_queue_count
    gc.collect()
    before = count()
    kept = []
    for _ in range(40):
        kept.append(ua.arange(5, dtype="i4", sycl_queue=dpctl.SyclQueue(_cpu_filter(q))))
    gc.collect()
    assert count() == before + 40  # each its own queue, alive with its array
    for a in kept:
        assert isinstance(a.sycl_queue, dpctl.SyclQueue)
        np.testing.assert_array_equal(ua.asnumpy(a + 1), np.arange(1, 6, dtype="i4"))
    del kept, a
    gc.collect()
    assert count() == before


def test_dpnp_on_the_users_queue_and_back(q):
    dpnp = pytest.importorskip("dpnp")
    mine = dpctl.SyclQueue(_cpu_filter(q))
    x = ua.arange(6, dtype="i4", sycl_queue=mine)
    y = dpnp.asarray(x, sycl_queue=x.sycl_queue)
    assert y.sycl_queue == mine
    y += 1
    z = ua.asarray(y)  # an import on a queue of ours lands on it
    assert z.queue is x.queue
    np.testing.assert_array_equal(ua.asnumpy(x + z), 2 * np.arange(6, dtype="i4") + 1)


def test_imports_on_queues_we_do_not_hold_land_on_the_default_queue(q):
    dpnp = pytest.importorskip("dpnp")
    a = dpnp.arange(4, dtype="i4", sycl_queue=dpctl.SyclQueue(_cpu_filter(q)))
    b = ua.asarray(a)
    assert b.queue is q  # ordered after the other queue's work
    np.testing.assert_array_equal(ua.asnumpy(b + ua.ones(4, dtype="i4", queue=q)), np.arange(1, 5))


def test_sycl_queue_is_an_alias_of_queue(q, dq):
    for make in (
        lambda **k: ua.empty(2, **k),
        lambda **k: ua.zeros(2, **k),
        lambda **k: ua.ones(2, **k),
        lambda **k: ua.full(2, 7, **k),
        lambda **k: ua.arange(3, **k),
        lambda **k: ua.linspace(0, 1, 3, **k),
        lambda **k: ua.eye(2, **k),
        lambda **k: ua.asarray([1.0], **k),
        lambda **k: ua.empty_like(ua.empty(2, queue="host"), **k),
    ):
        assert make(sycl_queue=dq).queue is q
        assert make(sycl_queue=q).queue is q
        with pytest.raises(TypeError, match="multiple values for argument 'queue'"):
            make(sycl_queue=dq, queue=q)


def test_a_dpnp_arrays_device_is_its_queue(q):
    dpnp = pytest.importorskip("dpnp")
    a = dpnp.arange(4, device=_cpu_filter(q))
    theirs = ua.Queue(a.device)
    assert theirs.sycl_queue == a.sycl_queue
    assert ua.empty(3, device=a.device).queue is theirs
    assert ua.asarray([1], device=a.get_array().device).queue is theirs


def test_dpctl_devices_and_contexts_make_our_objects(q, dq):
    assert ua.Device(dq.sycl_device) is q.device
    assert ua.Device(dq) is q.device
    assert ua.Context(dq.sycl_context) is q.context
    assert ua.Queue(dq) is q


def test_a_refusal_names_what_is_accepted():
    for bad in (5, object(), 1.5):
        with pytest.raises(TypeError) as info:
            ua.empty(2, device=bad)
        message = str(info.value)
        assert type(bad).__name__ in message
        for accepted in ("usmarray.Device", "SyclDevice", "SyclQueue", ".device", "filter string"):
            assert accepted in message


def test_an_object_whose_sycl_queue_is_itself_does_not_recurse():
    class Loop:
        @property
        def sycl_queue(self):
            return self

    with pytest.raises(RecursionError):
        ua.empty(2, device=Loop())


def test_arrays_and_memory_answer_dpctl_objects(q, dq):
    dpnp = pytest.importorskip("dpnp")
    x = ua.arange(6, dtype="i4", queue=q)
    for obj in (x, x.base, q):
        assert isinstance(obj.sycl_queue, dpctl.SyclQueue)
        assert obj.sycl_queue == dq
        assert obj.sycl_device == dq.sycl_device
        assert obj.sycl_context == dq.sycl_context
    # The round trip a dpnp user writes: into dpnp on x's queue, and back.
    y = dpnp.asarray(x, sycl_queue=x.sycl_queue)
    assert y.sycl_queue == x.sycl_queue
    np.testing.assert_array_equal(dpnp.asnumpy(y), np.arange(6, dtype="i4"))
    z = ua.asarray(y, sycl_queue=y.sycl_queue)
    assert z.queue is q


def test_host_arrays_have_no_sycl_attributes():
    x = ua.ones(2, queue="host")
    for name in ("sycl_queue", "sycl_device", "sycl_context"):
        assert not hasattr(x, name)
        assert not hasattr(x.base, name)
    with pytest.raises(AttributeError, match="host:cpu:0 has no SYCL queue"):
        x.sycl_queue


def test_sycl_devices_report_what_dpctl_reports(q, dq):
    ours, theirs = q.device, dq.sycl_device
    assert ours.vendor == theirs.vendor != ""
    assert ours.driver_version == theirs.driver_version != ""
    assert ours.max_compute_units == theirs.max_compute_units > 0
    assert ours.global_mem_size == theirs.global_mem_size > 0
    assert ours.runtime_version == theirs.sycl_platform.version
    for aspect in (
        "fp64",
        "fp16",
        "usm_device_allocations",
        "usm_shared_allocations",
        "usm_host_allocations",
    ):
        name = "has_aspect_" + aspect
        assert getattr(ours, name) is getattr(theirs, name), name
    # The default floating dtype follows fp64, as dpctl's does.
    expected = "float64" if theirs.has_aspect_fp64 else "float32"
    assert ua.empty(1, device=ours).dtype == expected


def test_get_devices_documents_every_backend():
    for backend in ("host", "cuda", "sycl"):
        assert f"'{backend}'" in ua.get_devices.__doc__


def test_to_device_between_queues_of_one_context_rebinds_without_a_copy(q):
    q1, q2 = (dpctl.SyclQueue(_cpu_filter(q)) for _ in range(2))
    x = ua.arange(1000, dtype="i8", sycl_queue=q1)
    y = x.to_device(q2)  # as dpctl's: the same memory, now on q2
    assert x.sycl_queue == q1 and y.sycl_queue == q2
    assert y.base._pointer == x.base._pointer
    y += 1  # on q2, ordered after x's work on q1
    np.testing.assert_array_equal(ua.asnumpy(y), np.arange(1, 1001))
    y.queue.wait()  # as in dpctl, reading through q1 waits for q2 by hand
    np.testing.assert_array_equal(ua.asnumpy(x), np.arange(1, 1001))
    assert x.to_device(q).queue is q
    z = x.to_device(q2, stream=q2)  # dpctl's stream= is a SyclQueue
    assert z.sycl_queue == q2


def test_functions_that_take_queue_show_sycl_queue_in_their_signatures():
    import inspect

    for f in (ua.empty, ua.zeros, ua.ones, ua.full, ua.arange, ua.linspace, ua.eye, ua.asarray):
        params = inspect.signature(f).parameters
        assert "queue" in params and "sycl_queue" in params, f.__name__


def test_meshgrid_keeps_each_array_on_its_queue(q):
    qs = [dpctl.SyclQueue(_cpu_filter(q)) for _ in range(3)]
    xs = [ua.arange(k, k + 2 + k, dtype="i2", sycl_queue=s) for k, s in enumerate(qs)]
    for indexing in ("xy", "ij"):
        got = ua.meshgrid(*xs, indexing=indexing)
        assert [g.sycl_queue for g in got] == qs
        want = np.meshgrid(*(ua.asnumpy(x) for x in xs), indexing=indexing)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(ua.asnumpy(g), w)
