import builtins
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any, ClassVar, Literal, NoReturn, Protocol, final

import numpy as np
import numpy.typing as npt
from _typeshed import structseq
from typing_extensions import disjoint_base

_UsmKind = Literal["device", "shared", "host"]
_PointerType = Literal["device", "shared", "host", "unknown"]

class _SyclQueueHolder(Protocol):
    # dpctl's SyclQueue, SyclDevice and SyclContext, dpnp's arrays and their
    # .device: what names a SYCL queue or device without importing dpctl.
    @property
    def sycl_queue(self) -> Any: ...

class _CapsuleProvider(Protocol):
    def _get_capsule(self) -> Any: ...

_QueueLike = Queue | Context | Device | str | _SyclQueueHolder | _CapsuleProvider | None

__version__: str
__array_api_version__: str

bool: np.dtype[np.bool_]
int8: np.dtype[np.int8]
int16: np.dtype[np.int16]
int32: np.dtype[np.int32]
int64: np.dtype[np.int64]
uint8: np.dtype[np.uint8]
uint16: np.dtype[np.uint16]
uint32: np.dtype[np.uint32]
uint64: np.dtype[np.uint64]
float16: np.dtype[np.float16]
float32: np.dtype[np.float32]
float64: np.dtype[np.float64]
complex64: np.dtype[np.complex64]
complex128: np.dtype[np.complex128]
e: float
inf: float
nan: float
pi: float
newaxis: None
__all__ = [
    "eye",
    "linspace",
    "meshgrid",
    "take",
    "take_along_axis",
    "tril",
    "triu",
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
    "copy",
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
    "__array_namespace_info__",
    "astype",
    "can_cast",
    "finfo",
    "iinfo",
    "isdtype",
    "result_type",
    "broadcast_arrays",
    "broadcast_to",
    "concat",
    "expand_dims",
    "flip",
    "moveaxis",
    "repeat",
    "roll",
    "squeeze",
    "stack",
    "tile",
    "unstack",
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "e",
    "inf",
    "nan",
    "newaxis",
    "pi",
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
    @property
    def has_aspect_fp64(self) -> builtins.bool: ...
    @property
    def has_aspect_fp16(self) -> builtins.bool: ...
    @property
    def has_aspect_usm_device_allocations(self) -> builtins.bool: ...
    @property
    def has_aspect_usm_shared_allocations(self) -> builtins.bool: ...
    @property
    def has_aspect_usm_host_allocations(self) -> builtins.bool: ...
    def can_access_peer(self, peer: Device | Queue | Context | str | None, /) -> builtins.bool: ...

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
    def free_all_blocks(self) -> None: ...
    def used_nbytes(self, usm_type: _UsmKind = "device") -> int: ...
    def held_nbytes(self, usm_type: _UsmKind = "device") -> int: ...
    def set_limit(self, nbytes: int | None, usm_type: _UsmKind = "device") -> None: ...
    def get_limit(self, usm_type: _UsmKind = "device") -> int | None: ...

@final
class Queue:
    def __new__(
        cls,
        device: Device | str | None = None,
        *,
        context: Context | None = None,
        in_order: builtins.bool | None = None,
        priority: int | None = None,
    ) -> Queue: ...
    @classmethod
    def from_stream(
        cls,
        stream: int,
        device: Device | str | None = None,
        *,
        context: Context | None = None,
        owner: Any = None,
    ) -> Queue: ...
    @property
    def device(self) -> Device: ...
    @property
    def context(self) -> Context: ...
    @property
    def priority(self) -> int | None: ...
    @property
    def is_default(self) -> builtins.bool: ...
    @property
    def stream(self) -> int: ...
    @property
    def sycl_queue(self) -> Any: ...
    @property
    def sycl_device(self) -> Any: ...
    @property
    def sycl_context(self) -> Any: ...
    def priorities(self) -> tuple[int, int] | None: ...
    def wait(self) -> None: ...

@disjoint_base
class Memory:
    def __new__(
        cls,
        nbytes_or_obj: int | Any,
        *,
        alignment: int = 0,
        queue: _QueueLike = None,
        copy: builtins.bool = False,
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
    @property
    def sycl_queue(self) -> Any: ...
    @property
    def sycl_device(self) -> Any: ...
    @property
    def sycl_context(self) -> Any: ...
    def __len__(self) -> int: ...
    def __bytes__(self) -> bytes: ...
    def get_usm_type(self, syclobj: _QueueLike = None) -> _PointerType: ...
    def get_usm_type_enum(self, syclobj: _QueueLike = None) -> int: ...
    def copy_to_host(self, obj: Any = None) -> npt.NDArray[np.uint8] | Any: ...
    def copy_from_host(self, obj: Any, /) -> None: ...
    def copy_from_device(self, obj: Any, /) -> None: ...
    def memset(self, value: int = 0) -> None: ...
    def tobytes(self) -> bytes: ...
    def __array__(
        self, dtype: _DTypeLike | None = None, copy: builtins.bool | None = None
    ) -> npt.NDArray[np.uint8] | npt.NDArray[Any]: ...

class MemoryUSMDevice(Memory): ...
class MemoryUSMShared(Memory): ...
class MemoryUSMHost(Memory): ...

_DTypeLike = npt.DTypeLike
_Shape = int | tuple[int, ...] | list[int]
_Order = Literal["C", "F", "A", "K"]
_Casting = Literal["no", "equiv", "safe", "same_kind", "unsafe"]

class _Flags:
    c_contiguous: builtins.bool
    f_contiguous: builtins.bool
    writable: builtins.bool
    @property
    def fc(self) -> builtins.bool: ...
    @property
    def forc(self) -> builtins.bool: ...
    @property
    def fnc(self) -> builtins.bool: ...
    @property
    def contiguous(self) -> builtins.bool: ...
    def __getitem__(self, key: str) -> builtins.bool: ...
    def __setitem__(self, key: str, value: builtins.bool) -> None: ...

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
    @shape.setter
    def shape(self, value: _Shape) -> None: ...
    @property
    def sycl_queue(self) -> Any: ...
    @property
    def sycl_device(self) -> Any: ...
    @property
    def sycl_context(self) -> Any: ...
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
    def __iter__(self) -> Iterator[USMArray]: ...
    def __bool__(self) -> builtins.bool: ...
    def __int__(self) -> int: ...
    def __float__(self) -> float: ...
    def __complex__(self) -> complex: ...
    def __index__(self) -> int: ...
    def __matmul__(self, other: USMArray, /) -> USMArray: ...
    def __rmatmul__(self, other: USMArray, /) -> USMArray: ...
    def __imatmul__(self, other: USMArray, /) -> USMArray: ...
    def __format__(self, spec: str, /) -> str: ...
    # No element-wise comparison: each raises TypeError saying how to compare.
    def __eq__(self, other: object, /) -> NoReturn: ...  # type: ignore[override]
    def __ne__(self, other: object, /) -> NoReturn: ...  # type: ignore[override]
    def __lt__(self, other: object, /) -> NoReturn: ...
    def __le__(self, other: object, /) -> NoReturn: ...
    def __gt__(self, other: object, /) -> NoReturn: ...
    def __ge__(self, other: object, /) -> NoReturn: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __copy__(self) -> USMArray: ...
    def __deepcopy__(self, memo: Any, /) -> USMArray: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def item(self, *args: Any) -> builtins.bool | int | float | complex: ...
    def tolist(self) -> Any: ...
    def __getitem__(self, key: Any, /) -> USMArray: ...
    def __setitem__(self, key: Any, value: Any, /) -> None: ...
    def __array__(
        self, dtype: _DTypeLike | None = None, copy: builtins.bool | None = None
    ) -> npt.NDArray[Any]: ...
    def reshape(
        self, *shape: Any, order: Literal["C", "F"] = "C", copy: builtins.bool | None = None
    ) -> USMArray: ...
    def transpose(self, *axes: Any) -> USMArray: ...
    def copy(self, order: _Order = "C") -> USMArray: ...
    def astype(
        self,
        dtype: _DTypeLike | None,
        order: _Order = "K",
        *,
        casting: _Casting = "unsafe",
        copy: builtins.bool = True,
        device: _QueueLike = None,
    ) -> USMArray: ...
    def to_device(
        self, device: _QueueLike, *, stream: Queue | _CapsuleProvider | int | None = None
    ) -> USMArray: ...
    def fill(self, value: Any, /) -> None: ...
    def __dlpack__(
        self,
        *,
        stream: int | None = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: builtins.bool | None = None,
    ) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...
    def __array_namespace__(self, /, *, api_version: str | None = None) -> ModuleType: ...

def asarray(
    obj: Any,
    *,
    dtype: _DTypeLike | None = None,
    copy: builtins.bool | None = None,
    usm_type: _UsmKind | None = None,
    queue: _QueueLike = None,
    sycl_queue: _QueueLike = None,
    order: _Order = "K",
    device: _QueueLike = None,
) -> USMArray: ...
def asnumpy(x: Any, /, *, order: _Order = "C") -> npt.NDArray[Any]: ...
def copy(x: USMArray, /, *, order: _Order = "K") -> USMArray: ...
def from_dlpack(
    x: Any, /, *, device: _QueueLike = None, copy: builtins.bool | None = None
) -> USMArray: ...
def empty(
    shape: _Shape,
    *,
    dtype: _DTypeLike | None = None,
    order: Literal["C", "F"] = "C",
    device: _QueueLike = None,
    usm_type: _UsmKind = "device",
    queue: _QueueLike = None,
    sycl_queue: _QueueLike = None,
) -> USMArray: ...
def zeros(
    shape: _Shape,
    *,
    dtype: _DTypeLike | None = None,
    order: Literal["C", "F"] = "C",
    device: _QueueLike = None,
    usm_type: _UsmKind = "device",
    queue: _QueueLike = None,
    sycl_queue: _QueueLike = None,
) -> USMArray: ...
def ones(
    shape: _Shape,
    *,
    dtype: _DTypeLike | None = None,
    order: Literal["C", "F"] = "C",
    device: _QueueLike = None,
    usm_type: _UsmKind = "device",
    queue: _QueueLike = None,
    sycl_queue: _QueueLike = None,
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
    sycl_queue: _QueueLike = None,
) -> USMArray: ...
def empty_like(
    x: USMArray,
    *,
    dtype: _DTypeLike | None = None,
    order: _Order = "K",
    device: _QueueLike = None,
    usm_type: _UsmKind | None = None,
    queue: _QueueLike = None,
    sycl_queue: _QueueLike = None,
) -> USMArray: ...
def zeros_like(
    x: USMArray,
    *,
    dtype: _DTypeLike | None = None,
    order: _Order = "K",
    device: _QueueLike = None,
    usm_type: _UsmKind | None = None,
    queue: _QueueLike = None,
    sycl_queue: _QueueLike = None,
) -> USMArray: ...
def ones_like(
    x: USMArray,
    *,
    dtype: _DTypeLike | None = None,
    order: _Order = "K",
    device: _QueueLike = None,
    usm_type: _UsmKind | None = None,
    queue: _QueueLike = None,
    sycl_queue: _QueueLike = None,
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
    sycl_queue: _QueueLike = None,
) -> USMArray: ...
def arange(
    start: Any,
    /,
    stop: Any = None,
    step: Any = 1,
    *,
    dtype: _DTypeLike | None = None,
    device: _QueueLike = None,
    usm_type: _UsmKind = "device",
    queue: _QueueLike = None,
    sycl_queue: _QueueLike = None,
) -> USMArray: ...
def linspace(
    start: complex,
    stop: complex,
    /,
    num: int,
    *,
    dtype: _DTypeLike | None = None,
    device: _QueueLike = None,
    endpoint: builtins.bool = True,
    usm_type: _UsmKind = "device",
    queue: _QueueLike = None,
    sycl_queue: _QueueLike = None,
) -> USMArray: ...
def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: _DTypeLike | None = None,
    device: _QueueLike = None,
    usm_type: _UsmKind = "device",
    queue: _QueueLike = None,
    sycl_queue: _QueueLike = None,
) -> USMArray: ...
def tril(x: USMArray, /, *, k: int = 0) -> USMArray: ...
def triu(x: USMArray, /, *, k: int = 0) -> USMArray: ...
def meshgrid(*arrays: USMArray, indexing: Literal["xy", "ij"] = "xy") -> list[USMArray]: ...
def take(x: USMArray, indices: Any, /, *, axis: int | None = None) -> USMArray: ...
def take_along_axis(x: USMArray, indices: USMArray, /, *, axis: int = -1) -> USMArray: ...
def reshape(
    x: USMArray,
    /,
    shape: _Shape,
    *,
    copy: builtins.bool | None = None,
    order: Literal["C", "F"] = "C",
) -> USMArray: ...
def permute_dims(x: USMArray, /, axes: tuple[int, ...] | list[int]) -> USMArray: ...
def get_devices(backend: str | None = None, device_type: str | None = None) -> list[Device]: ...
def as_usm_memory(obj: Any, /) -> Memory: ...
def get_pointer_type(ptr: int, syclobj: _QueueLike = None) -> _PointerType: ...
def get_include() -> str: ...

_DTypeOrArray = np.dtype[Any] | USMArray | type | str

class _IInfo(Protocol):
    @property
    def bits(self) -> int: ...
    @property
    def max(self) -> int: ...
    @property
    def min(self) -> int: ...
    @property
    def dtype(self) -> np.dtype[Any]: ...

class _FInfo(Protocol):
    @property
    def bits(self) -> int: ...
    @property
    def eps(self) -> float: ...
    @property
    def max(self) -> float: ...
    @property
    def min(self) -> float: ...
    @property
    def smallest_normal(self) -> float: ...
    @property
    def dtype(self) -> np.dtype[Any]: ...

def result_type(*arrays_and_dtypes: _DTypeOrArray | complex) -> np.dtype[Any]: ...
def can_cast(from_: _DTypeOrArray, to: np.dtype[Any] | type | str, /) -> builtins.bool: ...
def isdtype(
    dtype: np.dtype[Any], kind: str | np.dtype[Any] | tuple[str | np.dtype[Any], ...]
) -> builtins.bool: ...
def iinfo(type: _DTypeOrArray, /) -> _IInfo: ...
def finfo(type: _DTypeOrArray, /) -> _FInfo: ...

# Manipulation functions.
_Axes = int | tuple[int, ...] | list[int]
_Arrays = tuple[USMArray, ...] | list[USMArray]

def broadcast_arrays(*arrays: USMArray) -> list[USMArray]: ...
def broadcast_to(x: USMArray, /, shape: _Shape) -> USMArray: ...
def concat(arrays: _Arrays, /, *, axis: int | None = 0) -> USMArray: ...
def stack(arrays: _Arrays, /, *, axis: int = 0) -> USMArray: ...
def expand_dims(x: USMArray, /, axis: _Axes = 0) -> USMArray: ...
def flip(x: USMArray, /, *, axis: _Axes | None = None) -> USMArray: ...
def moveaxis(x: USMArray, source: _Axes, destination: _Axes, /) -> USMArray: ...
def squeeze(x: USMArray, /, axis: _Axes) -> USMArray: ...
def unstack(x: USMArray, /, *, axis: int = 0) -> tuple[USMArray, ...]: ...
def roll(x: USMArray, /, shift: _Axes, *, axis: _Axes | None = None) -> USMArray: ...
def tile(x: USMArray, repetitions: _Shape, /) -> USMArray: ...
def repeat(
    x: USMArray, repeats: int | USMArray | Sequence[int], /, *, axis: int | None = None
) -> USMArray: ...
def astype(
    x: USMArray,
    dtype: _DTypeLike | None,
    /,
    *,
    copy: builtins.bool = True,
    device: _QueueLike = None,
    order: _Order = "K",
    casting: _Casting = "unsafe",
) -> USMArray: ...

_Kinds = str | np.dtype[Any] | tuple[str | np.dtype[Any], ...]

@final
class __array_namespace_info__:
    def capabilities(self) -> dict[str, builtins.bool | int]: ...
    def default_device(self) -> Device: ...
    def default_dtypes(self, *, device: _QueueLike = None) -> dict[str, np.dtype[Any]]: ...
    def dtypes(
        self, *, device: _QueueLike = None, kind: _Kinds | None = None
    ) -> dict[str, np.dtype[Any]]: ...
    def devices(self) -> list[Device]: ...

# Reductions, scans, searching, sorting, sets and products.
_AxisSet = int | tuple[int, ...] | list[int] | None

def sum(
    x: USMArray,
    /,
    *,
    axis: _AxisSet = None,
    dtype: _DTypeLike | None = None,
    keepdims: builtins.bool = False,
) -> USMArray: ...
def prod(
    x: USMArray,
    /,
    *,
    axis: _AxisSet = None,
    dtype: _DTypeLike | None = None,
    keepdims: builtins.bool = False,
) -> USMArray: ...
def min(x: USMArray, /, *, axis: _AxisSet = None, keepdims: builtins.bool = False) -> USMArray: ...
def max(x: USMArray, /, *, axis: _AxisSet = None, keepdims: builtins.bool = False) -> USMArray: ...
def mean(x: USMArray, /, *, axis: _AxisSet = None, keepdims: builtins.bool = False) -> USMArray: ...
def var(
    x: USMArray,
    /,
    *,
    axis: _AxisSet = None,
    correction: int | float = 0.0,
    keepdims: builtins.bool = False,
) -> USMArray: ...
def std(
    x: USMArray,
    /,
    *,
    axis: _AxisSet = None,
    correction: int | float = 0.0,
    keepdims: builtins.bool = False,
) -> USMArray: ...
def cumulative_sum(
    x: USMArray,
    /,
    *,
    axis: int | None = None,
    dtype: _DTypeLike | None = None,
    include_initial: builtins.bool = False,
) -> USMArray: ...
def cumulative_prod(
    x: USMArray,
    /,
    *,
    axis: int | None = None,
    dtype: _DTypeLike | None = None,
    include_initial: builtins.bool = False,
) -> USMArray: ...
def all(x: USMArray, /, *, axis: _AxisSet = None, keepdims: builtins.bool = False) -> USMArray: ...
def any(x: USMArray, /, *, axis: _AxisSet = None, keepdims: builtins.bool = False) -> USMArray: ...
def diff(
    x: USMArray,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: USMArray | None = None,
    append: USMArray | None = None,
) -> USMArray: ...
def count_nonzero(
    x: USMArray, /, *, axis: _AxisSet = None, keepdims: builtins.bool = False
) -> USMArray: ...
def argmax(
    x: USMArray, /, *, axis: int | None = None, keepdims: builtins.bool = False
) -> USMArray: ...
def argmin(
    x: USMArray, /, *, axis: int | None = None, keepdims: builtins.bool = False
) -> USMArray: ...
def nonzero(x: USMArray, /) -> tuple[USMArray, ...]: ...
def searchsorted(
    x1: USMArray,
    x2: USMArray,
    /,
    *,
    side: Literal["left", "right"] = "left",
    sorter: USMArray | None = None,
) -> USMArray: ...
def sort(
    x: USMArray,
    /,
    *,
    axis: int = -1,
    descending: builtins.bool = False,
    stable: builtins.bool = True,
) -> USMArray: ...
def argsort(
    x: USMArray,
    /,
    *,
    axis: int = -1,
    descending: builtins.bool = False,
    stable: builtins.bool = True,
) -> USMArray: ...

@final
class UniqueAllResult(structseq[USMArray], tuple[USMArray, USMArray, USMArray, USMArray]):
    @property
    def values(self) -> USMArray: ...
    @property
    def indices(self) -> USMArray: ...
    @property
    def inverse_indices(self) -> USMArray: ...
    @property
    def counts(self) -> USMArray: ...

@final
class UniqueCountsResult(structseq[USMArray], tuple[USMArray, USMArray]):
    @property
    def values(self) -> USMArray: ...
    @property
    def counts(self) -> USMArray: ...

@final
class UniqueInverseResult(structseq[USMArray], tuple[USMArray, USMArray]):
    @property
    def values(self) -> USMArray: ...
    @property
    def inverse_indices(self) -> USMArray: ...

def unique_all(x: USMArray, /) -> UniqueAllResult: ...
def unique_counts(x: USMArray, /) -> UniqueCountsResult: ...
def unique_inverse(x: USMArray, /) -> UniqueInverseResult: ...
def unique_values(x: USMArray, /) -> USMArray: ...
def matmul(x1: USMArray, x2: USMArray, /) -> USMArray: ...
def tensordot(
    x1: USMArray, x2: USMArray, /, *, axes: int | tuple[Sequence[int], Sequence[int]] = 2
) -> USMArray: ...
def vecdot(x1: USMArray, x2: USMArray, /, *, axis: int = -1) -> USMArray: ...
def matrix_transpose(x: USMArray, /) -> USMArray: ...
