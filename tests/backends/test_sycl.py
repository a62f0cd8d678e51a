"""The SYCL backend against its reference users, dpctl and dpnp, on the SYCL
devices here (the OpenCL CPU device in CI): zero-copy exchange both ways
through SUAI, DLPack and dpctl's memory objects, proven by writes on each
side; queues passed each way; copies run as kernels; the bad inputs.

Without dpctl the module is skipped; with dpctl but no SYCL device,
test_sycl_runtime_finds_a_device fails: an empty device list is how the
runtime fails silently."""

import gc

import numpy as np
import pytest
import usmarray as ua
from conftest import Holder
from interop_layouts import LAYOUTS

dpctl = pytest.importorskip("dpctl")
dpm = pytest.importorskip("dpctl.memory")


def test_sycl_runtime_finds_a_device():
    assert ua.get_devices(backend="sycl"), (
        "dpctl is installed but usmarray's SYCL backend has no device (python -m "
        f"usmarray says why); dpctl sees {dpctl.get_devices()}"
    )


def test_a_script_finds_the_opencl_cpu_runtime_without_setting_variables():
    """dpnp's wheels register their OpenCL CPU runtime under a placeholder
    path; usmarray names the one installed in the environment's lib folder
    (OCL_ICD_FILENAMES) as it loads dpctl's C interface, so that a plain
    script finds the device, and so does dpctl after it."""
    import os
    import pathlib
    import subprocess
    import sys

    lib = pathlib.Path(sys.prefix) / "lib"
    if not (lib / "libintelocl.so").is_file():
        pytest.skip("no OpenCL CPU runtime in this environment's lib folder")
    # Under ASan (CI's sanitizer run) the runtime finds its own libraries
    # only through LD_LIBRARY_PATH set at process start: it stays there.
    unset = ["OCL_ICD_FILENAMES"]
    if "libasan" not in os.environ.get("LD_PRELOAD", ""):
        unset.append("LD_LIBRARY_PATH")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    code = (
        "import usmarray as ua, dpctl\n"
        "print(ua.get_devices(backend='sycl'))\n"
        "print(len(dpctl.get_devices()))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    devices, dpctl_count = out.stdout.splitlines()[-2:]
    assert "sycl:cpu:0" in devices and int(dpctl_count) >= 1, out.stdout


@pytest.fixture(scope="module")
def q():
    devices = ua.get_devices(backend="sycl")
    if not devices:
        pytest.fail("no SYCL device: see test_sycl_runtime_finds_a_device")
    return ua.Queue(devices[0])


@pytest.fixture(scope="module")
def dq(q):
    return dpctl.SyclQueue(q._get_capsule())


def fresh(q, kind="device", dtype="f8"):
    return ua.asarray(np.arange(24, dtype=dtype).reshape(4, 6), usm_type=kind, queue=q)


def test_devices_contexts_and_queues_are_dpctls(q, dq):
    d = q.device
    assert d.backend == "sycl" and d.filter_string.startswith("sycl:")
    assert (
        dq.sycl_device == dpctl.SyclDevice(d.filter_string.replace("sycl", "opencl", 1))
        or dq.sycl_device.name in d.name
    )
    # Our context is dpctl's default one for the device: USM is shared.
    assert dq.sycl_context == dq.sycl_device.sycl_platform.default_context
    assert dpctl.SyclContext(q.context._get_capsule()) == dq.sycl_context
    assert dq.is_in_order
    # dpctl's own filter strings select the same device.
    assert ua.Device(dq.sycl_device.filter_string) == d
    assert ua.Queue(dq.sycl_device.backend.name) == q


# dpctl builds negative-stride views of an imported interface from the wrong
# end of the allocation (the README's conformance table lists it).
@pytest.mark.parametrize("layout", sorted(set(LAYOUTS) - {"negative-stride"}))
def test_dpnp_tensor_reads_and_writes_our_memory(q, layout):
    dpt = pytest.importorskip("dpnp.tensor")
    x = LAYOUTS[layout](fresh(q))
    d = dpt.asarray(x)
    assert d.shape == x.shape and d.usm_type == "device"
    np.testing.assert_array_equal(dpt.asnumpy(d), ua.asnumpy(x))
    if x.size:
        d[...] = -1
        assert (ua.asnumpy(x) == -1).all()
        x[...] = 4
        assert (dpt.asnumpy(d) == 4).all()


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_we_read_and_write_dpnp_memory(q, layout):
    dpnp = pytest.importorskip("dpnp")
    base = dpnp.arange(24.0).reshape(4, 6)
    views = {
        "c-ordered": base,
        "strided": base[::2, 1::2],
        "transposed": base.T,
        "negative-stride": base[::-1, ::-2],
        "0-d": base[1, 2],
        "zero-size": base[3:3],
    }
    d = views[layout]
    x = ua.asarray(d)
    assert x.shape == d.shape and x.device == q.device
    np.testing.assert_array_equal(ua.asnumpy(x), dpnp.asnumpy(d))
    if d.size:
        assert (
            x._pointer
            == d.__sycl_usm_array_interface__["data"][0]
            + d.__sycl_usm_array_interface__["offset"] * 8
        )
        x[...] = 7
        assert (dpnp.asnumpy(d) == 7).all()
        d[...] = -2
        assert (ua.asnumpy(x) == -2).all()


def test_dpctl_memory_wraps_ours_and_we_wrap_dpctls(q, dq):
    ours = ua.MemoryUSMShared(64, queue=q)
    theirs = dpm.MemoryUSMShared(ours)
    assert theirs._pointer == ours._pointer and theirs.nbytes == 64
    theirs.copy_from_host(np.full(64, 3, "u1"))
    assert (ours.copy_to_host() == 3).all()
    ours.memset(9)
    assert (theirs.copy_to_host() == 9).all()

    dmem = dpm.MemoryUSMDevice(128, queue=dq)
    wrapped = ua.MemoryUSMDevice(dmem)
    assert wrapped._pointer == dmem._pointer and wrapped.device == q.device
    assert wrapped.get_usm_type() == "device" and wrapped.reference_obj is dmem
    dmem.copy_from_host(np.arange(128, dtype="u1"))
    np.testing.assert_array_equal(wrapped.copy_to_host(), np.arange(128, dtype="u1"))
    with pytest.raises(ValueError, match="USM device memory as MemoryUSMShared"):
        ua.MemoryUSMShared(dmem)


@pytest.mark.parametrize("versioned", [True, False])
def test_dlpack_both_ways(q, versioned):
    dpt = pytest.importorskip("dpnp.tensor")
    x = fresh(q)
    assert x.__dlpack_device__() == (14, dq_id(q))
    kw = {"max_version": (1, 0)} if versioned else {}
    d = dpt.from_dlpack(x.T) if versioned else dpt.from_dlpack(Exporter(x.T, kw))
    d[0, 0] = 100
    assert ua.asnumpy(x)[0, 0] == 100
    y = dpt.arange(10, dtype="i4", sycl_queue=dpctl.SyclQueue(q._get_capsule()))
    u = ua.from_dlpack(y) if versioned else ua.from_dlpack(y.__dlpack__())
    assert u.device == q.device and u.usm_type == "device"
    u[3] = -5
    assert int(dpt.asnumpy(y)[3]) == -5


class QueueSpy:
    """A syclobj that records being asked for its queue's capsule."""

    def __init__(self, queue):
        self.queue, self.asked = queue, 0

    def _get_capsule(self):
        self.asked += 1
        return self.queue._get_capsule()


class PendingProducer:
    """A DLPack producer whose writes may still be queued: it names its
    queue only through its interface dictionary's syclobj."""

    def __init__(self, array, syclobj):
        self.array, self.syclobj = array, syclobj

    def __dlpack__(self, **kw):
        return self.array.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()

    @property
    def __sycl_usm_array_interface__(self):
        return dict(self.array.__sycl_usm_array_interface__, syclobj=self.syclobj)


def test_dlpack_import_waits_for_the_producers_queue(q):
    dpt = pytest.importorskip("dpnp.tensor")
    dq = dpctl.SyclQueue(q._get_capsule())
    # dpctl's __dlpack__ orders nothing: the import must find the producer's
    # queue through its syclobj and order after what it has submitted.
    spy = QueueSpy(dq)
    y = dpt.full(1 << 20, 7, dtype="i4", sycl_queue=dq)
    u = ua.from_dlpack(PendingProducer(y, spy))
    assert spy.asked == 1
    assert (ua.asnumpy(u) == 7).all()
    for i in range(30):
        y = dpt.full(1 << 20, i, dtype="i4", sycl_queue=dq)
        assert (ua.asnumpy(ua.from_dlpack(y)) == i).all(), i
    # Our own arrays need no such look-up, and a producer without the
    # interface is taken as it is.
    mine = ua.zeros(4, queue=q)
    assert ua.from_dlpack(mine)._pointer == mine._pointer
    bare = Exporter(dpt.ones(3, sycl_queue=dq), {"max_version": (1, 0)})
    np.testing.assert_array_equal(ua.asnumpy(ua.from_dlpack(bare)), np.ones(3))


def dq_id(q):
    return dpctl.SyclQueue(q._get_capsule()).sycl_device.get_device_id()


class Exporter:
    """Exports only the legacy capsule, as older producers do."""

    def __init__(self, x, kw):
        self.x = x

    def __dlpack__(self, **kw):
        return self.x.__dlpack__()

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()


class CapsuleProvider:
    def __init__(self, capsule):
        self.capsule = capsule

    def _get_capsule(self):
        return self.capsule


def test_all_six_syclobj_forms(q, dq):
    x = fresh(q, "shared")
    iface = dict(x.__sycl_usm_array_interface__)
    forms = [
        dq.sycl_device.filter_string,
        dq.sycl_context,
        dq.sycl_context._get_capsule(),
        dq,
        dq._get_capsule(),
        CapsuleProvider(dq._get_capsule()),
    ]
    for syclobj in forms:
        iface["syclobj"] = syclobj
        y = ua.asarray(Holder(dict(iface), keep=x))
        assert y.device == q.device and y._pointer == x._pointer, syclobj
        y[0, 0] = 42
        assert ua.asnumpy(x)[0, 0] == 42
        x[0, 0] = 0


def test_queues_passed_each_way(q, dq):
    assert ua.asarray([1, 2, 3], queue=dq).device == q.device
    assert ua.empty(4, device=dq).device == q.device
    m = ua.MemoryUSMDevice(32, queue=dq._get_capsule())
    assert m.queue == q
    # Ours in dpctl: the queue is the same SYCL queue.
    d = dpctl.SyclQueue(q._get_capsule())
    assert d == dpctl.SyclQueue(q._get_capsule()) and d.sycl_device == dq.sycl_device
    dpt = pytest.importorskip("dpnp.tensor")
    t = dpt.empty(5, sycl_queue=d)
    assert t.sycl_queue == d


def test_exported_interface_names_a_queue_dpctl_accepts(q):
    x = fresh(q)
    iface = x.__sycl_usm_array_interface__
    assert iface["syclobj"] is q
    d = dpctl.SyclQueue(iface["syclobj"]._get_capsule())
    assert d.sycl_context == d.sycl_device.sycl_platform.default_context
    assert dpm.as_usm_memory(x).get_usm_type() == "device"


DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]


@pytest.mark.parametrize("src", DTYPES)
def test_casts_run_as_kernels_like_numpys(q, src):
    a = (
        (np.arange(-6, 18).reshape(4, 6) * 1.5).astype(src, copy=True)
        if src not in "?"
        else (np.arange(24).reshape(4, 6) % 3 == 0)
    )
    x = ua.asarray(a, queue=q)
    for dst in ("?", "i2", "u8", "f2", "f8", "c8", "c16", src):
        with np.errstate(invalid="ignore"):
            want = a.T[::-1].astype(dst)
        got = ua.asnumpy(x.T[::-1].astype(dst))
        np.testing.assert_array_equal(got, want, err_msg=f"{src}->{dst}")


@pytest.mark.parametrize(
    "shape, axes, dst",
    [
        ((37, 53), (1, 0), "f4"),  # ragged tiles on both axes
        ((33, 9, 17), (2, 1, 0), "c8"),  # a cast through the tile
        ((3, 40, 24, 5), (0, 2, 1, 3), "f8"),  # batches around the tiled pair
        ((20, 30), (1, 0), "i1"),
    ],
)
def test_transposing_copies_go_through_tiles(q, shape, axes, dst):
    """The tiled kernel's edges, batches and casts: elements that a tile
    only partly covers must be written once and nowhere else."""
    a = np.random.default_rng(1).standard_normal(shape).astype("f4") * 50
    x = ua.asarray(a, queue=q)
    got = ua.asnumpy(ua.permute_dims(x, axes).astype(dst))
    np.testing.assert_array_equal(got, a.transpose(axes).astype(dst))
    # Into a strided destination with a negative step.
    out = ua.zeros((2,) + a.transpose(axes).shape, dtype="f4", device=q)
    out[1, ::-1] = ua.permute_dims(x, axes)[::-1]
    np.testing.assert_array_equal(ua.asnumpy(out[1]), a.transpose(axes))
    assert not ua.asnumpy(out[0]).any()


def test_strided_and_permuted_copies(q):
    a = np.random.default_rng(0).standard_normal((5, 6, 7, 8)).astype("f4")
    x = ua.asarray(a, queue=q)
    np.testing.assert_array_equal(
        ua.asnumpy(ua.permute_dims(x, (3, 1, 0, 2)).copy()), a.transpose(3, 1, 0, 2).copy()
    )
    np.testing.assert_array_equal(ua.asnumpy(x[::2, ::-1, 1::3].copy()), a[::2, ::-1, 1::3])
    # Many axes after simplification: the plan goes through a buffer.
    b = np.arange(2**9, dtype="i2").reshape((2,) * 9)
    y = ua.asarray(b, queue=q)
    perm = tuple(range(8, -1, -1))
    np.testing.assert_array_equal(ua.asnumpy(y.transpose(*perm).copy()), b.transpose(perm))
    # Overlapping assignment within one allocation.
    z = ua.asarray(np.arange(10.0), queue=q)
    z[1:] = z[:-1]
    np.testing.assert_array_equal(ua.asnumpy(z), [0, 0, 1, 2, 3, 4, 5, 6, 7, 8])
    # Host <-> SYCL both ways, pageable host memory on the other side.
    h = np.zeros((6, 5))
    z2 = ua.asarray(np.arange(30.0).reshape(5, 6), queue=q)
    assert ua.asnumpy(z2.T).tolist() == np.arange(30.0).reshape(5, 6).T.tolist()
    back = z2.to_device("host")
    assert back.device == ua.Device("host")
    h[...] = ua.asnumpy(back.T)
    np.testing.assert_array_equal(h, np.arange(30.0).reshape(5, 6).T)
    assert ua.asnumpy(ua.asarray(back, queue=q, usm_type="shared")).sum() == 435


def test_main_lists_and_checks_sycl_devices(q):
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "usmarray"], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert q.device.filter_string in out.stdout


# ------------------------------------------------------------- bad inputs


def test_pointer_of_another_context_is_refused(q, dq):
    other = dpctl.SyclContext([dq.sycl_device])  # a new context
    assert other != dq.sycl_context
    oq = dpctl.SyclQueue(other, dq.sycl_device)
    mem = dpm.MemoryUSMDevice(64, queue=oq)
    with pytest.raises(ValueError, match="not the default context"):
        ua.MemoryUSMDevice(mem)
    iface = dict(mem.__sycl_usm_array_interface__, syclobj=dq)
    with pytest.raises(ValueError, match="not inside any USM allocation"):
        ua.MemoryUSMDevice(Holder(iface, keep=mem))
    with pytest.raises(ValueError, match="not the default context"):
        ua.asarray([1.0], queue=oq)


def test_capsules_of_the_wrong_name_or_used(q, dq):
    cap = dq._get_capsule()
    dpctl.SyclQueue(cap)  # dpctl consumes it: renamed used_SyclQueueRef
    with pytest.raises(TypeError, match="used_SyclQueueRef"):
        ua.asarray([1], queue=cap)
    with pytest.raises(TypeError, match="capsule named 'nope'"):
        ua.asarray([1], queue=_capsule(b"nope"))


def _capsule(name):
    import ctypes

    make = ctypes.pythonapi.PyCapsule_New
    make.restype = ctypes.py_object
    make.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return make(ctypes.c_void_p(16), name, None)


def test_memory_its_producer_freed_is_refused(q):
    dpnp = pytest.importorskip("dpnp")
    d = dpnp.arange(1 << 16, dtype="f8")
    iface = dict(d.__sycl_usm_array_interface__)
    del d
    gc.collect()
    with pytest.raises(ValueError, match="not inside any USM allocation|do not lie in USM"):
        ua.asarray(Holder(iface))


def test_region_past_the_end_of_a_dpctl_allocation_is_refused(q, dq):
    mem = dpm.MemoryUSMDevice(64, queue=dq)
    iface = dict(mem.__sycl_usm_array_interface__, shape=(1 << 40,))
    with pytest.raises(ValueError):
        ua.MemoryUSMDevice(Holder(iface, keep=mem))


@pytest.mark.parametrize("filt", ["opencl:gpu:7", "level_zero:accelerator", "opencl:cpu:9"])
def test_filter_strings_that_match_nothing(filt):
    with pytest.raises(ValueError, match="the devices are"):
        ua.Device(filt)


def test_queue_of_another_device_or_context_in_one_copy(q, dq):
    x = fresh(q)
    other = dpctl.SyclQueue(dpctl.SyclContext([dq.sycl_device]), dq.sycl_device)
    with pytest.raises(ValueError, match="not the default context"):
        x.to_device(other)
    h = ua.asarray(np.arange(3.0), usm_type="shared", queue=ua.Queue("host"))
    with pytest.raises(ValueError):
        ua.MemoryUSMShared(h, queue=dq)


def test_copies_between_host_device_memory_and_sycl_device_memory(q):
    # Host-backend memory is CPU memory, which SYCL queues reach: both ways,
    # transposed, strided and cast, issued on either side's arrays.
    a = np.arange(24.0).reshape(4, 6)
    s = ua.asarray(a, queue=q)
    h = ua.empty((6, 4), dtype="i4", usm_type="device", queue=ua.Queue("host"))
    h[...] = s.T
    np.testing.assert_array_equal(ua.asnumpy(h), a.T.astype("i4"))
    s2 = ua.zeros((6, 4), dtype="f4", queue=q)
    s2[::2, ::-1] = h[::2]
    want = np.zeros((6, 4), "f4")
    want[::2, ::-1] = a.T[::2]
    np.testing.assert_array_equal(ua.asnumpy(s2), want)
    assert ua.asnumpy(h.to_device(q)).tolist() == a.T.tolist()
    # SYCL queues reach host memory; the host's queues reach no SYCL
    # device's, so its copies go through the host.
    assert q.device.can_access_peer("host") is True
    assert ua.Device("host").can_access_peer(q.device) is False


@pytest.mark.parametrize("kind", ["device", "shared", "host"])
def test_a_cpu_devices_large_blocks_start_on_a_huge_page(q, kind):
    """A CPU device's USM is this process's memory: blocks from 4 MiB on
    are aligned to 2 MiB, as the host backend's are, so that the kernel's
    transparent huge pages can back them (its loops then run at the host
    device's speed); smaller ones keep the runtime's alignment."""
    if q.device.device_type != "cpu":
        pytest.skip("the first SYCL device is not a CPU device")
    memory = {"device": ua.MemoryUSMDevice, "shared": ua.MemoryUSMShared,
              "host": ua.MemoryUSMHost}[kind]  # fmt: skip
    for nbytes in (4 << 20, (5 << 20) + 8, 64 << 20):
        assert memory(nbytes, queue=q)._pointer % (2 << 20) == 0, nbytes
    x = ua.full(1 << 22, 3.0, dtype="f4", device=q, usm_type=kind)
    assert x.__sycl_usm_array_interface__["data"][0] % (2 << 20) == 0
    assert float(ua.sum(x)) == 3.0 * (1 << 22)


def test_a_cpu_devices_reductions_sorts_and_products_give_the_hosts_bits(q, monkeypatch):
    """A SYCL CPU device's reductions, scans, sorts and products run the
    host backend's loops (and OpenBLAS) on its USM, after the queue's
    earlier work: the same bits as on the host, NumPy's where it fixes them."""
    if q.device.device_type != "cpu":
        pytest.skip("the first SYCL device is not a CPU device")
    # Read at each call: the host's loops, whatever the run's setting.
    monkeypatch.delenv("USMARRAY_DEVICE_KERNELS", raising=False)
    rng = np.random.default_rng(4)
    a = rng.standard_normal(1 << 20).astype("f4")
    m = rng.standard_normal((96, 80)).astype("f4")
    host = ua.Queue("host")
    # The queue's copy in must land before the host's loops read it.
    xs = ua.asarray(a, queue=q)[::-1]
    xh = ua.asarray(a, queue=host)[::-1]
    for fn in (ua.sum, ua.max, ua.argmax, ua.cumulative_sum, ua.sort, ua.argsort):
        got, want = ua.asnumpy(fn(xs)), ua.asnumpy(fn(xh))
        assert got.tobytes() == want.tobytes(), fn.__name__
    np.testing.assert_array_equal(ua.asnumpy(ua.sort(xs)), np.sort(a))
    ms, mh = ua.asarray(m, queue=q), ua.asarray(m, queue=host)
    assert ua.asnumpy(ms @ ms.T).tobytes() == ua.asnumpy(mh @ mh.T).tobytes()
    # The result stays on the device's queue, and later work there sees it.
    s = ua.sort(xs)
    assert s.device == q.device
    np.testing.assert_array_equal(ua.asnumpy(s + 1), np.sort(a) + 1)


def test_a_cpu_device_compiles_nothing_and_gives_the_hosts_bits(q, monkeypatch):
    """Elementwise functions, copies and casts, gathers, scatters, compress
    and fills on a SYCL CPU device run the host backend's loops on its USM
    too, after the queue's earlier work: no OpenCL program is built, and
    the bits are the host's."""
    if q.device.device_type != "cpu":
        pytest.skip("the first SYCL device is not a CPU device")
    monkeypatch.delenv("USMARRAY_DEVICE_KERNELS", raising=False)
    rng = np.random.default_rng(5)
    a = rng.standard_normal((300, 257)).astype("f4")
    host = ua.Queue("host")
    xs, xh = ua.asarray(a, queue=q)[:, ::-2], ua.asarray(a, queue=host)[:, ::-2]
    idx = np.array([3, 0, 299, 3])

    def same(make):
        got, want = make(xs), make(xh)
        assert got.device == xs.device
        assert ua.asnumpy(got).tobytes() == ua.asnumpy(want).tobytes()

    same(lambda x: ua.exp(x) + x)
    same(lambda x: ua.sin(x) * x.T.T)
    same(lambda x: x.astype("f8"))
    same(lambda x: ua.asarray(x, copy=True))
    same(lambda x: x[x > 0.5])
    same(lambda x: ua.take(x, ua.asarray(idx, device=x.device), axis=0))
    same(lambda x: ua.where(x > 0, x, -x))
    same(lambda x: ua.full_like(x, 7.5))
    same(lambda x: ua.tril(x[:100, :100]))

    def scatter(x):
        y = ua.asarray(x, copy=True)
        y[y < 0] = 0.0
        y[ua.asarray(idx, device=x.device)] = 1.0
        return y

    same(scatter)
    np.testing.assert_array_equal(ua.asnumpy(xs[xs > 0.5]), a[:, ::-2][a[:, ::-2] > 0.5])
