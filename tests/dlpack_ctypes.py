"""Hand-made DLPack capsules, built with ctypes, for tests of the importer:
any dtype, device, version or layout, and a deleter that counts its calls."""

import ctypes

import numpy as np


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLManagedTensor(ctypes.Structure):
    pass


LegacyDeleter = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [
    ("dl_tensor", DLTensor),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", LegacyDeleter),
]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


VersionedDeleter = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [
    ("version", DLPackVersion),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", VersionedDeleter),
    ("flags", ctypes.c_uint64),
    ("dl_tensor", DLTensor),
]

_new_capsule = ctypes.pythonapi.PyCapsule_New
_new_capsule.restype = ctypes.py_object
_new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

CODES = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}


class Tensor:
    """Owns a NumPy array and a DLPack struct describing it; `capsule()`
    wraps the struct; `deleted` counts deleter calls."""

    def __init__(
        self,
        array,
        *,
        versioned=True,
        version=(1, 0),
        flags=0,
        device=(1, 0),
        dtype=None,
        ndim=None,
        shape=None,
        strides="auto",
        byte_offset=0,
        data=None,
    ):
        self.array = array
        self.deleted = 0
        nd = array.ndim if ndim is None else ndim
        shp = array.shape if shape is None else shape
        if strides == "auto":
            strides = [s // array.itemsize for s in array.strides]
        self._shape = (ctypes.c_int64 * max(len(shp), 1))(*shp)
        self._strides = (
            None if strides is None else (ctypes.c_int64 * max(len(strides), 1))(*strides)
        )
        code, bits, lanes = dtype or (CODES[array.dtype.kind], array.itemsize * 8, 1)
        t = DLTensor(
            data=array.ctypes.data if data is None else data,
            device=DLDevice(*device),
            ndim=nd,
            dtype=DLDataType(code, bits, lanes),
            shape=ctypes.cast(self._shape, ctypes.POINTER(ctypes.c_int64)),
            strides=(
                ctypes.cast(self._strides, ctypes.POINTER(ctypes.c_int64))
                if self._strides is not None
                else None
            ),
            byte_offset=byte_offset,
        )
        self.versioned = versioned
        if versioned:
            self._deleter = VersionedDeleter(self._delete)
            self.struct = DLManagedTensorVersioned(
                DLPackVersion(*version), None, self._deleter, flags, t
            )
        else:
            self._deleter = LegacyDeleter(self._delete)
            self.struct = DLManagedTensor(t, None, self._deleter)

    def _delete(self, _ptr):
        self.deleted += 1

    def capsule(self, name=None):
        name = name or (b"dltensor_versioned" if self.versioned else b"dltensor")
        return _new_capsule(ctypes.addressof(self.struct), name, None)


def plain_capsule(name):
    """A capsule of another kind, holding a dummy pointer."""
    return _new_capsule(ctypes.addressof(_DUMMY), name, None)


_DUMMY = ctypes.c_int(0)
__all__ = ["Tensor", "plain_capsule", "np"]
