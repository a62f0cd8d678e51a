"""Dask's distributed scheduler with usmarray chunks.

``LocalCluster`` starts one worker process per device (or several on one),
each with its default device set through ``USMARRAY_DEVICE`` before it
imports usmarray.  Importing this module registers Dask's serializers for
``USMArray``: an array travels as a small header and one frame of its raw
bytes, and lands on the receiving process's default device with its USM
kind.  ``import usmarray`` does not import this module (nor Dask); the
cluster preloads it on every worker, and a client imports it to start one.
"""

import logging

import distributed
import numpy as np
from dask.sizeof import sizeof
from distributed.protocol.serialize import dask_deserialize, dask_serialize

import usmarray as ua

__all__ = ["LocalCluster", "device_filter_strings"]
_logger = logging.getLogger(__name__)


def device_filter_strings(backend=None):
    """The filter strings of a backend's devices, in the backend's order.

    ``backend=None`` takes the backend of the default device.
    """
    if backend is None:
        backend = ua.Device().backend
    devices = ua.get_devices(backend=backend)
    if not devices:
        raise ValueError(f"usmarray has no device of backend {backend!r} here")
    return [d.filter_string for d in devices]


class LocalCluster(distributed.LocalCluster):
    """A local cluster with one worker process per device.

    Parameters
    ----------
    backend : str, optional
        Every device of this backend (``"cuda"``, ``"host"``, ``"opencl"``...);
        the default device's backend when neither this nor ``devices`` is
        given.
    devices : sequence of str or Device, optional
        The devices to start workers on, instead of a whole backend.
    workers_per_device : int
        Worker processes on each device (default 1).
    threads_per_worker : int
        Threads of each worker (default 1: one stream of work per device).
    **kwargs
        Passed to :class:`distributed.LocalCluster` (``memory_limit``,
        ``dashboard_address``, ``silence_logs``...).  ``n_workers`` follows
        from the devices and ``processes`` is always true: a device is a
        process's default, so workers cannot share one process.
    """

    def __init__(self, backend=None, *, devices=None, workers_per_device=1,
                 threads_per_worker=1, **kwargs):  # fmt: skip
        for name in ("n_workers", "worker_class"):
            if name in kwargs:
                raise TypeError(f"usmarray.distributed.LocalCluster sets {name} itself")
        if kwargs.pop("processes", True) is not True:
            raise ValueError("usmarray.distributed.LocalCluster needs processes=True: "
                             "each worker's default device is its process's")  # fmt: skip
        if isinstance(workers_per_device, bool) or not isinstance(workers_per_device, int) \
                or workers_per_device < 1:  # fmt: skip
            raise ValueError(
                f"workers_per_device must be a positive integer, not {workers_per_device!r}"
            )
        if devices is None:
            devices = device_filter_strings(backend)
        elif backend is not None:
            raise TypeError("give backend or devices, not both")
        # A device named as the worker will see it: its canonical filter string.
        filters = [ua.Device(d).filter_string for d in devices]
        if not filters:
            raise ValueError("devices is empty")
        self.device_slots = [f for f in filters for _ in range(workers_per_device)]
        if "memory_limit" not in kwargs:  # the machine's memory shared, as LocalCluster does
            from distributed.worker_memory import parse_memory_limit

            slots = len(self.device_slots)
            kwargs["memory_limit"] = parse_memory_limit("auto", 1, slots, logger=_logger)
        preload = list(kwargs.pop("preload", None) or [])
        super().__init__(n_workers=0, threads_per_worker=threads_per_worker, processes=True,
                         worker_class=distributed.Nanny, preload=[__name__, *preload],
                         **kwargs)  # fmt: skip
        self.scale(len(self.device_slots))
        if not self.asynchronous:
            self.sync(self._correct_state)

    def new_worker_spec(self):
        """The next free device slot's worker: ``USMARRAY_DEVICE`` set to it."""
        free = [i for i in range(len(self.device_slots)) if i not in self.worker_spec]
        if not free:
            raise ValueError(f"every one of the {len(self.device_slots)} device slots has a worker; "
                             "start the cluster with more devices or workers_per_device")  # fmt: skip
        slot = free[0]
        options = dict(self.new_spec["options"])
        options["env"] = {**(options.get("env") or {}), "USMARRAY_DEVICE": self.device_slots[slot]}
        return {slot: {**self.new_spec, "options": options}}


# ------------------------------------------------------------ serialization


def _host_bytes(x, order):
    """x's elements in ``order`` as one uint8 array: a view of x's memory
    where the host can read it in that order, else one contiguous copy."""
    try:
        h = np.asarray(x)
    except (TypeError, BufferError):  # memory only its device reaches
        h = ua.asnumpy(x, order=order)
    if not h.flags[order + "_CONTIGUOUS"]:
        h = np.asarray(h, order=order)
    return h.reshape(-1, order=order).view(np.uint8)


@dask_serialize.register(ua.USMArray)
def serialize_usmarray(x):
    """A header (dtype, shape, order, USM kind) and the raw bytes."""
    order = "F" if x.flags.f_contiguous and not x.flags.c_contiguous else "C"
    header = {"dtype": x.dtype.str, "shape": tuple(x.shape), "order": order, "usm_type": x.usm_type}
    return header, [memoryview(_host_bytes(x, order))]


@dask_deserialize.register(ua.USMArray)
def deserialize_usmarray(header, frames):
    """The array on this process's default device, of the sender's kind."""
    (frame,) = frames
    h = np.frombuffer(frame, dtype=np.dtype(header["dtype"]))
    h = h.reshape(header["shape"], order=header["order"])
    # A read-only frame is copied; a writable one is wrapped where the
    # device reads host memory as this kind (usm_type="host" on the host).
    # The device is named: a frame that is a view of a sender's memory in
    # this process would otherwise stay on the sender's device.
    copy = None if h.flags.writeable else True
    return ua.asarray(h, usm_type=header["usm_type"], device=ua.Device(), copy=copy)


@sizeof.register(ua.USMArray)
def sizeof_usmarray(x):
    """The bytes a chunk holds, for the workers' memory accounting."""
    return int(x.nbytes)
