"""``python -m usmarray``: the backends, the devices, and a live self-check.

Run ``python -m usmarray --help`` for the options; ``--includes`` prints the
compiler flags of an extension that uses the C API.  Exit status: 0 when
everything asked for succeeded, 1 when a check failed or the default device
cannot be selected, 2 for a bad command line.
"""

import argparse
import json
import os
import sys
import sysconfig

import usmarray as ua

KINDS = {
    "device": ua.MemoryUSMDevice,
    "shared": ua.MemoryUSMShared,
    "host": ua.MemoryUSMHost,
}

# Device attributes that -f and --json report, with the labels of -f.
DETAILS = [
    ("vendor", "vendor"),
    ("architecture", "architecture"),
    ("driver_version", "driver version"),
    ("runtime_version", "runtime version"),
    ("max_compute_units", "compute units"),
    ("global_mem_size", "global memory"),
    ("blas", "BLAS"),
    ("libraries", "linalg, fft"),
]
# The aspects that -f lists on one line and --json reports as booleans,
# named as dpctl's SyclDevice names them (has_aspect_<name>).
ASPECTS = [
    "fp64",
    "fp16",
    "usm_device_allocations",
    "usm_shared_allocations",
    "usm_host_allocations",
]


class CheckFailed(Exception):
    """A self-check found the library misbehaving."""


def expect(condition, message):
    """Fails the running check unless condition holds.

    Not ``assert``: ``python -O`` strips those, and a broken check would
    then pass.
    """
    if not condition:
        raise CheckFailed(message)


def _pattern(n):
    return bytes((i * 7 + 3) % 256 for i in range(n))


def check_round_trip(queue, kind):
    mem = KINDS[kind](4096, queue=queue)
    data = _pattern(4096)
    mem.copy_from_host(data)
    expect(mem.copy_to_host().tobytes() == data, "bytes changed in transit")
    expect(mem.tobytes() == data, "tobytes() differs")
    mem.memset(0xAB)
    expect(mem.tobytes() == b"\xab" * 4096, "memset did not fill")
    expect(mem.get_usm_type() == kind, f"registry says {mem.get_usm_type()}")
    found = ua.get_pointer_type(mem._pointer + 100, queue)
    expect(found == kind, f"an inner address resolves to {found!r}")


class SuaiHolder:
    """A foreign object exposing a given __sycl_usm_array_interface__."""

    def __init__(self, iface):
        self.__sycl_usm_array_interface__ = iface


def check_suai_zero_copy(queue, kind):
    mem = KINDS[kind](1024, queue=queue)
    iface = mem.__sycl_usm_array_interface__
    wrapped = ua.as_usm_memory(SuaiHolder(iface))
    expect(type(wrapped) is KINDS[kind], f"wrapped as {type(wrapped).__name__}")
    expect(wrapped._pointer == mem._pointer, "import copied the memory")
    expect(wrapped.nbytes == mem.nbytes, f"wrapped {wrapped.nbytes} bytes")
    mem.copy_from_host(_pattern(1024))
    expect(wrapped.tobytes() == _pattern(1024), "wrapper does not share bytes")
    expect(
        wrapped.__sycl_usm_array_interface__ == iface,
        "the wrapper's interface differs from the original's",
    )


def check_device_memory_private(queue, kind):
    if kind != "device":
        view = memoryview(KINDS[kind](64, queue=queue))
        expect(
            view.nbytes == 64 and not view.readonly,
            "host-accessible memory exported a wrong buffer",
        )
        return
    try:
        memoryview(ua.MemoryUSMDevice(64, queue=queue))
    except BufferError:
        return
    raise CheckFailed("device memory exported a host buffer")


def check_array_exchange(queue, kind):
    x = ua.arange(24, dtype="i4", usm_type=kind, queue=queue).reshape((4, 6))
    view = x[1:, ::2].T
    expect(
        ua.asnumpy(view).tolist() == [[6, 12, 18], [8, 14, 20], [10, 16, 22]],
        "a strided view reads wrong values",
    )
    again = ua.asarray(view)
    expect(
        again._pointer == view._pointer and again.strides == view.strides,
        "re-importing an array copied it",
    )


CHECKS = [
    ("allocate, round-trip bytes, memset", check_round_trip),
    ("export and re-import SUAI without a copy", check_suai_zero_copy),
    ("host access follows the USM kind", check_device_memory_private),
    ("strided array views and re-import", check_array_exchange),
]


def default_device():
    """The default device and None, or None and what is wrong with the
    configuration.  Every configuration error is a ValueError at the first
    use of a device: USMARRAY_DEVICE when the default device is selected,
    USMARRAY_POOL when its queue is made."""
    try:
        device = ua.Device()
    except ValueError as exc:
        return None, f"no default device: {exc}"
    try:
        ua.Queue(device)
    except ValueError as exc:
        return None, str(exc)
    return device, None


def run_checks():
    """Every check on every device and USM kind, as a list of results."""
    results = []
    for d in ua.get_devices():
        queue = ua.Queue(d)
        for kind in KINDS:
            for title, check in CHECKS:
                try:
                    check(queue, kind)
                    error = None
                except Exception as exc:  # every failure is reported
                    error = f"{type(exc).__name__}: {exc}"
                results.append(
                    {
                        "device": d.filter_string,
                        "usm_type": kind,
                        "check": title,
                        "passed": error is None,
                        "error": error,
                    }
                )
    return results


def device_record(d, default):
    record = {
        "id": d.id,
        "filter_string": d.filter_string,
        "backend": d.backend,
        "device_type": d.device_type,
        "name": d.name,
        "default": d == default,
    }
    record.update((attr, getattr(d, attr)) for attr, _ in DETAILS)
    record["aspects"] = {a: getattr(d, "has_aspect_" + a) for a in ASPECTS}
    return record


def _size(nbytes):
    if not nbytes:
        return "unknown"
    return f"{nbytes / 2**30:.1f} GiB ({nbytes} bytes)"


def print_summary(backends, devices, full):
    print(f"usmarray {ua.__version__}")
    print("backends:")
    for b in backends:
        state = "available" if b["available"] else f"unavailable ({b['reason']})"
        print(f"  {b['name']:<8} {state}, {b['devices']} device(s)")
    print("devices:")
    for d in devices:
        mark = "  (default)" if d["default"] else ""
        print(f"  [{d['id']}] {d['filter_string']:<14} {d['device_type']:<5} {d['name']}{mark}")
        if full:
            for attr, label in DETAILS:
                value = d[attr]
                if attr == "global_mem_size":
                    value = _size(value)
                print(f"        {label + ':':<17} {value if value else 'unknown'}")
            aspects = [a for a, present in d["aspects"].items() if present]
            print(f"        {'aspects:':<17} {', '.join(aspects) or 'none'}")


def print_checks(results):
    print("self-check:")
    for r in results:
        verdict = "PASS" if r["passed"] else f"FAIL: {r['error']}"
        print(f"  {r['device']} {r['usm_type']:<6} {r['check']}: {verdict}")
    failures = sum(not r["passed"] for r in results)
    print("self-check " + ("passed" if failures == 0 else f"FAILED ({failures})"))


def include_flags():
    """``-I`` flags for Python's headers and ``usmarray/usmarray_api.h``."""
    paths = sysconfig.get_paths()
    dirs = [paths["include"], paths["platinclude"], ua.get_include()]
    return " ".join("-I" + d for d in dict.fromkeys(dirs))


# --compile-kernels: the first calls that the compiling backends (CUDA, a
# SYCL GPU's OpenCL) would otherwise compile on demand, for the dtypes
# programs are most often asked in.  CPU devices run the host's loops and
# compile nothing.
WARM_DTYPES = ("float32", "float64", "int32", "int64")


def compiling_devices():
    return [d for d in ua.get_devices() if d.backend != "host" and d.device_type != "cpu"]


def warm(filter_string, dtype):
    """Runs the common operations once on small arrays of the device and
    dtype, so that their programs land in the kernel cache; returns the
    seconds taken.  A worker process's task."""
    import time

    start = time.perf_counter()
    d = ua.Device(filter_string)
    floating = dtype.startswith("float")
    # Small arrays and large ones take different kernels (a sort within
    # one group, or the radix sort's passes; a scan of one tile, or many).
    for n in (64, 1 << 20):
        x = ua.astype(ua.arange(n, device=d) % 100, dtype)
        y = ua.ones(n, dtype=dtype, device=d)
        results = [x + y, x * 3, ua.sum(x), ua.argmax(x), ua.cumulative_sum(x), ua.sort(x),
                   ua.argsort(x), x[x > 1], ua.take(x, ua.arange(0, n, 3, device=d)),
                   ua.where(x > 1, x, y), ua.unique_values(x)]  # fmt: skip
        if floating:
            m = ua.reshape(ua.ones(64 * 64, dtype=dtype, device=d), (64, 64))
            results += [ua.exp(x), ua.mean(x), m @ m]
        ua.Queue(d).wait()
        del results
    return time.perf_counter() - start


def full_compiles():
    """A worker's start: its programs compiled in full at once, not first at
    NVRTC's fast level (the cache keeps the full ones alone)."""
    os.environ["USMARRAY_COMPILE_FIRST"] = "full"


def compile_kernels(jobs, names=None):
    """Fills the kernel cache for every compiling device (or the devices
    named), a worker process per device and dtype (NVRTC runs in each side
    by side); prints what it did.  Returns the exit status."""
    import concurrent.futures
    import multiprocessing
    import time

    try:
        devices = [ua.Device(n) for n in names] if names else compiling_devices()
    except (ValueError, TypeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not devices:
        print("no device here compiles kernels (the host and SYCL CPU devices run the "
              "host's loops): nothing to do")  # fmt: skip
        return 0
    tasks = [(d.filter_string, t) for d in devices for t in WARM_DTYPES
             if t != "float64" or d.has_aspect_fp64]  # fmt: skip
    # The task by the module's importable name: run as `python -m usmarray`
    # this module is __main__, which a worker process does not have.
    from usmarray.__main__ import full_compiles
    from usmarray.__main__ import warm as task_of_worker

    start, failed = time.perf_counter(), 0
    context = multiprocessing.get_context("spawn")  # no fork under a GPU driver
    with concurrent.futures.ProcessPoolExecutor(
        max(1, jobs), mp_context=context, initializer=full_compiles
    ) as pool:
        futures = {pool.submit(task_of_worker, *task): task for task in tasks}
        for future in concurrent.futures.as_completed(futures):
            device, dtype = futures[future]
            try:
                print(f"{device} {dtype}: {future.result():.1f} s")
            except Exception as e:  # a device that fails does not stop the others
                failed += 1
                print(f"{device} {dtype}: failed: {type(e).__name__}: {e}")
            sys.stdout.flush()
    print(f"kernel cache filled for {len(devices)} device(s) in "
          f"{time.perf_counter() - start:.1f} s")  # fmt: skip
    return 1 if failed else 0


def build_parser():
    parser = argparse.ArgumentParser(
        prog="python -m usmarray",
        description="List usmarray's backends and devices and check that "
        "USM memory and zero-copy exchange work on each.  With "
        "no option: the list, then the self-check.",
    )
    parser.add_argument("--version", action="version", version=f"usmarray {ua.__version__}")
    parser.add_argument(
        "-f",
        "--full-list",
        action="store_true",
        help="list every device with its details (vendor, "
        "architecture, driver and runtime versions, "
        "compute units, memory); skips the self-check "
        "unless --self-check is given too",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="write one JSON object (backends, devices with "
        "details, self-check results) instead of text",
    )
    parser.add_argument(
        "--self-check",
        action="store_true",
        help="run the self-check on every device and USM kind (the default)",
    )
    parser.add_argument(
        "--compile-kernels",
        action="store_true",
        help="compile the common operations' kernels for every device that compiles "
        "them (CUDA, SYCL GPUs) into the kernel cache, so that later processes' first "
        "calls only load them (a container image built warm), and nothing else",
    )
    parser.add_argument(
        "--device",
        action="append",
        metavar="FILTER",
        help="with --compile-kernels: only this device (repeatable; a CPU device runs the "
        "operations on the host's loops and compiles nothing)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=min(8, os.cpu_count() or 1),
        help="worker processes of --compile-kernels (default: the CPUs, at most 8)",
    )
    parser.add_argument(
        "--includes",
        action="store_true",
        help="print the compiler flags (-I) of an extension that uses the C API, and nothing else",
    )
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.includes:
        print(include_flags())
        return 0
    if args.compile_kernels:
        return compile_kernels(args.jobs, args.device)
    run_self_check = args.self_check or not args.full_list
    default, why = default_device()
    backends = ua._usmarray._backends()
    devices = [device_record(d, default) for d in ua.get_devices()]
    # A configuration error fails every device's first use: one line says
    # it, rather than a self-check that fails everywhere.
    results = run_checks() if run_self_check and why is None else None
    if why is not None:
        print(f"error: {why}", file=sys.stderr)
    if args.json:
        report = {
            "version": ua.__version__,
            "backends": backends,
            "devices": devices,
            "default_device": default.filter_string if default else None,
            "error": why,
        }
        if results is not None:
            report["self_check"] = {"passed": all(r["passed"] for r in results), "results": results}
        json.dump(report, sys.stdout, indent=2)
        print()
    else:
        print_summary(backends, devices, args.full_list)
        if results is not None:
            print_checks(results)
    failed = results is not None and not all(r["passed"] for r in results)
    return 1 if failed or default is None else 0


def run(argv=None):
    """main(), but a reader that stops early (``| head``) ends it quietly.

    A closed pipe ends the command as it ends Unix tools, without a
    traceback: the rest of the output goes to /dev/null (so that Python's
    final flush of stdout does not fail again) and the exit status is that
    of a process killed by SIGPIPE, 128 + 13.
    """
    try:
        status = main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 128 + 13
    return status


if __name__ == "__main__":
    sys.exit(run())
