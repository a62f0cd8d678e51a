from collections.abc import Sequence
from typing import Any

import distributed

from . import Device, USMArray

__all__ = ["LocalCluster", "device_filter_strings"]

def device_filter_strings(backend: str | None = None) -> list[str]: ...

class LocalCluster(distributed.LocalCluster):
    device_slots: list[str]
    def __init__(
        self,
        backend: str | None = None,
        *,
        devices: Sequence[str | Device] | None = None,
        workers_per_device: int = 1,
        threads_per_worker: int = 1,
        **kwargs: Any,
    ) -> None: ...
    def new_worker_spec(self) -> dict[int, dict[str, Any]]: ...

def serialize_usmarray(x: USMArray) -> tuple[dict[str, Any], list[memoryview]]: ...
def deserialize_usmarray(header: dict[str, Any], frames: Sequence[Any]) -> USMArray: ...
def sizeof_usmarray(x: USMArray) -> int: ...
