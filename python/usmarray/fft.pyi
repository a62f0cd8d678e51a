from collections.abc import Sequence
from typing import Literal

import numpy.typing as npt

from . import USMArray, _QueueLike, _UsmKind

_Norm = Literal["backward", "ortho", "forward"]

__all__ = [
    "fft",
    "ifft",
    "fftn",
    "ifftn",
    "rfft",
    "irfft",
    "rfftn",
    "irfftn",
    "hfft",
    "ihfft",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
]

def fft(
    x: USMArray, /, *, n: int | None = None, axis: int = -1, norm: _Norm = "backward"
) -> USMArray: ...
def ifft(
    x: USMArray, /, *, n: int | None = None, axis: int = -1, norm: _Norm = "backward"
) -> USMArray: ...
def fftn(
    x: USMArray,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: _Norm = "backward",
) -> USMArray: ...
def ifftn(
    x: USMArray,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: _Norm = "backward",
) -> USMArray: ...
def rfft(
    x: USMArray, /, *, n: int | None = None, axis: int = -1, norm: _Norm = "backward"
) -> USMArray: ...
def irfft(
    x: USMArray, /, *, n: int | None = None, axis: int = -1, norm: _Norm = "backward"
) -> USMArray: ...
def rfftn(
    x: USMArray,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: _Norm = "backward",
) -> USMArray: ...
def irfftn(
    x: USMArray,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: _Norm = "backward",
) -> USMArray: ...
def hfft(
    x: USMArray, /, *, n: int | None = None, axis: int = -1, norm: _Norm = "backward"
) -> USMArray: ...
def ihfft(
    x: USMArray, /, *, n: int | None = None, axis: int = -1, norm: _Norm = "backward"
) -> USMArray: ...
def fftfreq(
    n: int,
    /,
    *,
    d: float = 1.0,
    dtype: npt.DTypeLike | None = None,
    device: _QueueLike = None,
    usm_type: _UsmKind = "device",
    queue: _QueueLike = None,
) -> USMArray: ...
def rfftfreq(
    n: int,
    /,
    *,
    d: float = 1.0,
    dtype: npt.DTypeLike | None = None,
    device: _QueueLike = None,
    usm_type: _UsmKind = "device",
    queue: _QueueLike = None,
) -> USMArray: ...
def fftshift(x: USMArray, /, *, axes: int | Sequence[int] | None = None) -> USMArray: ...
def ifftshift(x: USMArray, /, *, axes: int | Sequence[int] | None = None) -> USMArray: ...
