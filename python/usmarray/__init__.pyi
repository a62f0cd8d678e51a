from typing import Any, Literal, final

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

_UsmKind = Literal["device", "shared", "host"]
_PointerType = Literal["device", "shared", "host", "unknown"]
_QueueLike = Queue | Context | Device | str | None

__version__: str
__all__ = [
    "Context",
    "Device",
    "Memory",
    "MemoryUSMDevice",
    "MemoryUSMHost",
    "MemoryUSMShared",
    "Queue",
    "USMAllocationError",
    "USMArray",
    "arange",
    "as_usm_memory",
    "asarray",
    "asnumpy",
    "empty",
    "empty_like",
    "from_dlpack",
    "full",
    "full_like",
    "get_devices",
    "get_include",
    "get_pointer_type",
    "ones",
    "ones_like",
    "permute_dims",
    "reshape",
    "zeros",
    "zeros_like",
]

class USMAllocationError(MemoryError): ...

@final
class Device:
    def __new__(cls, filter_string: str | Device | None = None) -> Device: ...
    @property
    def backend(self) -> str: ...
    @property
    def device_type(self) -> Literal["cpu", "gpu", "accelerator"]: ...
    @property
    def name(self) -> str: ...
    @property
    def filter_string(self) -> str: ...
    @property
    def id(self) -> int: ...
    @property
    def vendor(self) -> str: ...
    @property
    def driver_version(self) -> str: ...
    @property
    def runtime_version(self) -> str: ...
    @property
    def architecture(self) -> str: ...
    @property
    def global_mem_size(self) -> int: ...
    @property
    def max_compute_units(self) -> int: ...

@final
class Context:
    def __new__(cls, device: Device | str | None = None) -> Context: ...
    @property
    def device(self) -> Device: ...
    @property
    def devices(self) -> tuple[Device, ...]: ...
    @property
    def pooled_nbytes(self) -> int: ...
    def release_pool(self) -> None: ...

@final
class Queue:
    def __new__(
        cls, device: Device | str | None = None, *, context: Context | None = None
    ) -> Queue: ...
    @property
    def device(self) -> Device: ...
    @property
    def context(self) -> Context: ...
    def wait(self) -> None: ...

@disjoint_base
class Memory:
    def __new__(
        cls,
        nbytes_or_obj: int | Any,
        *,
        alignment: int = 0,
        queue: _QueueLike = None,
        copy: bool = False,
    ) -> Memory: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def _pointer(self) -> int: ...
    @property
    def queue(self) -> Queue: ...
    @property
    def device(self) -> Device: ...
    @property
    def context(self) -> Context: ...
    @property
    def reference_obj(self) -> Any: ...
    @property
    def __sycl_usm_array_interface__(self) -> dict[str, Any]: ...
    def __len__(self) -> int: ...
    def get_usm_type(self, syclobj: _QueueLike = None) -> _PointerType: ...
    def copy_to_host(self, obj: Any = None) -> npt.NDArray[np.uint8] | Any: ...
    def copy_from_host(self, obj: Any, /) -> None: ...
    def copy_from_device(self, obj: Any, /) -> None: ...
    def memset(self, value: int = 0) -> None: ...
    def tobytes(self) -> bytes: ...

class MemoryUSMDevice(Memory): ...
class MemoryUSMShared(Memory): ...
class MemoryUSMHost(Memory): ...

_DTypeLike = npt.DTypeLike
_Shape = int | tuple[int, ...] | list[int]
_Order = Literal["C", "F", "A", "K"]

class _Flags:
    c_contiguous: bool
    f_contiguous: bool
    writable: bool
    def __getitem__(self, key: str) -> bool: ...
    def __setitem__(self, key: str, value: bool) -> None: ...

@final
class USMArray:
    def __new__(
        cls,
        shape: _Shape,
        dtype: _DTypeLike = "|f8",
        buffer: Literal["device", "shared", "host"] | Memory | USMArray = "device",
        strides: _Shape | None = None,
        offset: int = 0,
        order: Literal["C", "F"] = "C",
        buffer_ctor_kwargs: dict[str, Any] = ...,
    ) -> USMArray: ...
    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def strides(self) -> tuple[int, ...]: ...
    @property
    def ndim(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def itemsize(self) -> int: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def dtype(self) -> np.dtype[Any]: ...
    @property
    def usm_type(self) -> _UsmKind: ...
    @property
    def queue(self) -> Queue: ...
    @property
    def device(self) -> Device: ...
    @property
    def base(self) -> Memory: ...
    @property
    def flags(self) -> _Flags: ...
    @property
    def _pointer(self) -> int: ...
    @property
    def _element_offset(self) -> int: ...
    @property
    def _byte_bounds(self) -> tuple[int, int]: ...
    @property
    def T(self) -> USMArray: ...
    @property
    def mT(self) -> USMArray: ...
    @property
    def real(self) -> USMArray: ...
    @property
    def imag(self) -> USMArray: ...
    @property
    def __sycl_usm_array_interface__(self) -> dict[str, Any]: ...
    @property
    def __array_interface__(self) -> dict[str, Any]: ...
    @property
    def __cuda_array_interface__(self) -> dict[str, Any]: ...
    def __len__(self) -> int: ...
    def __getitem__(self, key: Any, /) -> USMArray: ...
    def __setitem__(self, key: Any, value: Any, /) -> None: ...
    def __array__(
        self, dtype: _DTypeLike | None = None, copy: bool | None = None
    ) -> npt.NDArray[Any]: ...
    def reshape(
        self, *shape: Any, order: Literal["C", "F"] = "C", copy: bool | None = None
    ) -> USMArray: ...
    def transpose(self, *axes: Any) -> USMArray: ...
    def copy(self, order: _Order = "C") -> USMArray: ...
    def astype(
        self, dtype: _DTypeLike, order: _Order = "K", *, copy: bool = True
    ) -> USMArray: ...
    def to_device(self, device: _QueueLike, *, stream: Any = None) -> USMArray: ...
    def fill(self, value: Any, /) -> None: ...
    def __dlpack__(
        self,
        *,
        stream: int | None = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

def asarray(
    obj: Any,
    *,
    dtype: _DTypeLike | None = None,
    copy: bool | None = None,
    usm_type: _UsmKind | None = None,
    queue: _QueueLike = None,
    order: _Order = "K",
) -> USMArray: ...
def asnumpy(x: Any, /) -> npt.NDArray[Any]: ...
def from_dlpack(
    x: Any, /, *, device: _QueueLike = None, copy: bool | None = None
) -> USMArray: ...
def empty(
    shape: _Shape,
    *,
    dtype: _DTypeLike | None = None,
    order: Literal["C", "F"] = "C",
    device: _QueueLike = None,
    usm_type: _UsmKind = "device",
    queue: _QueueLike = None,
) -> USMArray: ...
def zeros(
    shape: _Shape,
    *,
    dtype: _DTypeLike | None = None,
    order: Literal["C", "F"] = "C",
    device: _QueueLike = None,
    usm_type: _UsmKind = "device",
    queue: _QueueLike = None,
) -> USMArray: ...
def ones(
    shape: _Shape,
    *,
    dtype: _DTypeLike | None = None,
    order: Literal["C", "F"] = "C",
    device: _QueueLike = None,
    usm_type: _UsmKind = "device",
    queue: _QueueLike = None,
) -> USMArray: ...
def full(
    shape: _Shape,
    fill_value: Any,
    *,
    dtype: _DTypeLike | None = None,
    order: Literal["C", "F"] = "C",
    device: _QueueLike = None,
    usm_type: _UsmKind = "device",
    queue: _QueueLike = None,
) -> USMArray: ...
def empty_like(
    x: USMArray,
    *,
    dtype: _DTypeLike | None = None,
    order: _Order = "K",
    device: _QueueLike = None,
    usm_type: _UsmKind | None = None,
    queue: _QueueLike = None,
) -> USMArray: ...
def zeros_like(
    x: USMArray,
    *,
    dtype: _DTypeLike | None = None,
    order: _Order = "K",
    device: _QueueLike = None,
    usm_type: _UsmKind | None = None,
    queue: _QueueLike = None,
) -> USMArray: ...
def ones_like(
    x: USMArray,
    *,
    dtype: _DTypeLike | None = None,
    order: _Order = "K",
    device: _QueueLike = None,
    usm_type: _UsmKind | None = None,
    queue: _QueueLike = None,
) -> USMArray: ...
def full_like(
    x: USMArray,
    fill_value: Any,
    *,
    dtype: _DTypeLike | None = None,
    order: _Order = "K",
    device: _QueueLike = None,
    usm_type: _UsmKind | None = None,
    queue: _QueueLike = None,
) -> USMArray: ...
def arange(
    start: Any,
    stop: Any = None,
    step: Any = None,
    *,
    dtype: _DTypeLike | None = None,
    device: _QueueLike = None,
    usm_type: _UsmKind = "device",
    queue: _QueueLike = None,
) -> USMArray: ...
def reshape(
    x: USMArray,
    shape: _Shape,
    *,
    order: Literal["C", "F"] = "C",
    copy: bool | None = None,
) -> USMArray: ...
def permute_dims(x: USMArray, axes: tuple[int, ...]) -> USMArray: ...
def get_devices(
    backend: str | None = None, device_type: str | None = None
) -> list[Device]: ...
def as_usm_memory(obj: Any, /) -> Memory: ...
def get_pointer_type(ptr: int, syclobj: _QueueLike = None) -> _PointerType: ...
def get_include() -> str: ...
