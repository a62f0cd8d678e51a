"""``python -m usmarray``: the backends, the devices, and a live self-check.

Exits with status 1 if any check fails.  ``python -m usmarray --includes``
prints the compiler flags of an extension that uses the C API instead.
"""

import sys
import sysconfig

import usmarray as ua

KINDS = {
    "device": ua.MemoryUSMDevice,
    "shared": ua.MemoryUSMShared,
    "host": ua.MemoryUSMHost,
}


def _pattern(n):
    return bytes((i * 7 + 3) % 256 for i in range(n))


def check_round_trip(queue, kind):
    mem = KINDS[kind](4096, queue=queue)
    data = _pattern(4096)
    mem.copy_from_host(data)
    assert mem.copy_to_host().tobytes() == data, "bytes changed in transit"
    assert mem.tobytes() == data, "tobytes() differs"
    mem.memset(0xAB)
    assert mem.tobytes() == b"\xab" * 4096, "memset did not fill"
    assert mem.get_usm_type() == kind, f"registry says {mem.get_usm_type()}"
    assert ua.get_pointer_type(mem._pointer + 100, queue) == kind


def check_suai_zero_copy(queue, kind):
    mem = KINDS[kind](1024, queue=queue)
    iface = mem.__sycl_usm_array_interface__

    class Holder:
        __sycl_usm_array_interface__ = iface

    wrapped = ua.as_usm_memory(Holder())
    assert type(wrapped) is KINDS[kind], f"wrapped as {type(wrapped).__name__}"
    assert wrapped._pointer == mem._pointer, "import copied the memory"
    assert wrapped.nbytes == mem.nbytes
    mem.copy_from_host(_pattern(1024))
    assert wrapped.tobytes() == _pattern(1024), "wrapper does not share bytes"
    assert wrapped.__sycl_usm_array_interface__ == iface


def check_device_memory_private(queue, kind):
    if kind != "device":
        view = memoryview(KINDS[kind](64, queue=queue))
        assert view.nbytes == 64 and not view.readonly
        return
    try:
        memoryview(ua.MemoryUSMDevice(64, queue=queue))
    except BufferError:
        return
    raise AssertionError("device memory exported a host buffer")


CHECKS = [
    ("allocate, round-trip bytes, memset", check_round_trip),
    ("export and re-import SUAI without a copy", check_suai_zero_copy),
    ("host access follows the USM kind", check_device_memory_private),
]


def default_device():
    """The default device, or None with the reason on stderr."""
    try:
        return ua.Device()
    except ValueError as exc:
        print(f"error: no default device: {exc}", file=sys.stderr)
        return None


def describe(default):
    print(f"usmarray {ua.__version__}")
    print("backends:")
    for b in ua._usmarray._backends():
        state = "available" if b["available"] else f"unavailable ({b['reason']})"
        print(f"  {b['name']:<8} {state}, {b['devices']} device(s)")
    print("devices:")
    for d in ua.get_devices():
        mark = "  (default)" if d == default else ""
        print(f"  [{d.id}] {d.filter_string:<14} {d.device_type:<5} {d.name}{mark}")


def self_check():
    failures = 0
    print("self-check:")
    for d in ua.get_devices():
        queue = ua.Queue(d)
        for kind in KINDS:
            for title, check in CHECKS:
                try:
                    check(queue, kind)
                    verdict = "PASS"
                except Exception as exc:  # every failure is reported
                    failures += 1
                    verdict = f"FAIL: {type(exc).__name__}: {exc}"
                print(f"  {d.filter_string} {kind:<6} {title}: {verdict}")
    print("self-check " + ("passed" if failures == 0 else f"FAILED ({failures})"))
    return failures


def include_flags():
    """``-I`` flags for Python's headers and ``usmarray/usmarray_api.h``."""
    paths = sysconfig.get_paths()
    dirs = [paths["include"], paths["platinclude"], ua.get_include()]
    return " ".join("-I" + d for d in dict.fromkeys(dirs))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--includes"]:
        print(include_flags())
        return 0
    default = default_device()
    describe(default)
    failures = self_check()
    return 1 if failures or default is None else 0


if __name__ == "__main__":
    sys.exit(main())
