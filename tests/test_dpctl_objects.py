"""dpctl's objects wherever a device or a queue is taken, and dpctl's objects
given back by arrays and memory of the SYCL backend (DESIGN.md section 1,
"Speaking dpctl's language"), against dpctl and dpnp on the SYCL devices here
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


def test_a_dpctl_queue_made_by_the_user_is_taken(q):
    # A queue of dpctl's own making (not one of ours exported) resolves to
    # the default queue of its device, ordered after the queue's work.
    mine = dpctl.SyclQueue(dpctl.SyclDevice(q.device.filter_string.replace("sycl", "opencl")))
    x = ua.ones(4, dtype="i4", sycl_queue=mine)
    assert x.queue is q
    np.testing.assert_array_equal(ua.asnumpy(x), np.ones(4, dtype="i4"))


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


def test_a_dpnp_arrays_device_is_taken(q):
    dpnp = pytest.importorskip("dpnp")
    a = dpnp.arange(4, device=q.device.filter_string.replace("sycl", "opencl"))
    assert ua.empty(3, device=a.device).queue is q
    assert ua.asarray([1], device=a.get_array().device).queue is q
    assert ua.Queue(a.device) is q


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
