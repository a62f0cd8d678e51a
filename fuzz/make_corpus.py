"""Writes the seed corpus of the fuzz targets: valid and nearly valid
inputs in the byte encoding of fuzz_input.h.  Run it after changing the
encoding; the files it writes are committed."""

import pathlib
import struct

HERE = pathlib.Path(__file__).parent / "corpus"


def i(v):
    """fuzz_int's encoding of v: one tag byte, then 0, 2, 4 or 8 bytes."""
    if -8 <= v < 56:
        return bytes([v + 8])
    if -(2**15) <= v < 2**15:
        return bytes([0x40]) + struct.pack("<h", v)
    if -(2**31) <= v < 2**31:
        return bytes([0x80]) + struct.pack("<i", v)
    return bytes([0xC0]) + struct.pack("<q", v)


ITEMSIZE = {1: 0, 2: 1, 4: 2, 8: 3, 16: 4, 3: 5, 0: 6}


def layout(shape, strides, itemsize=8, offset=0, at=0):
    out = bytes([(len(shape) + 1) % 10, ITEMSIZE[itemsize]]) + i(offset) + i(at)
    for n, s in zip(shape, strides):
        out += i(n) + i(s)
    return out


def dlpack(shape, strides, code=2, bits=64, device=(1, 0), byte_offset=0, at=0, flags=0):
    out = bytes([flags, len(shape) & 0xFF, code, bits])
    out += i(device[0]) + i(device[1]) + i(byte_offset) + i(at)
    for n, s in zip(shape, strides):
        out += i(n) + i(s)
    return out


SEEDS = {
    "fuzz_layout": {
        "scalar": layout((), ()),
        "c_2d": layout((4, 8), (8, 1)),
        "f_2d": layout((4, 8), (1, 4)),
        "negative_stride": layout((16,), (-1,), offset=15),
        "broadcast": layout((1000, 4), (0, 1)),
        "empty": layout((0, 5), (5, 1)),
        "past_end": layout((513,), (1,)),
        "before_start": layout((4,), (-1,)),
        "huge_stride": layout((2, 2), (2**62, 1)),
        "huge_shape": layout((2**40, 2**40), (1, 1)),
        "inside_offset": layout((8,), (2,), itemsize=4, at=64),
        "odd_itemsize": layout((5, 5), (5, 1), itemsize=3),
        "too_many_dims": bytes([255, 3]) + i(0) + i(0) + b"\x09" * 130,
        "negative_dims": bytes([0, 3]) + i(0) + i(0),
    },
    "fuzz_dlpack": {
        "c_2d": dlpack((4, 8), (8, 1)),
        "null_strides": dlpack((4, 8), (8, 1), flags=2),
        "null_data": dlpack((4,), (1,), flags=1),
        "null_shape": dlpack((4,), (1,), flags=8),
        "int8": dlpack((100,), (1,), code=0, bits=8),
        "complex": dlpack((8,), (1,), code=5, bits=128),
        "bool": dlpack((8,), (1,), code=6, bits=8),
        "bfloat16": dlpack((8,), (1,), code=4, bits=16),
        "lanes": dlpack((8,), (1,), flags=4) + b"\x02\x00",
        "negative_stride": dlpack((8,), (-1,), byte_offset=56),
        "past_end": dlpack((600,), (1,)),
        "byte_offset_wraps": dlpack((1,), (1,), byte_offset=-8),
        "cuda_device": dlpack((4,), (1,), device=(2, 0)),
        "negative_ndim": bytes([0, 0xFF, 2, 64]) + i(1) + i(0) + i(0) + i(0),
        "ndim_100": bytes([0, 100, 2, 64]) + i(1) + i(0) + i(0) + i(0) + b"\x09" * 200,
    },
    "fuzz_parsers": {
        "typestr_f8": b"\x00<f8",
        "typestr_bool": b"\x00|b1",
        "typestr_c16": b"\x00<c16",
        "typestr_big_endian": b"\x00>i4",
        "typestr_bad": b"\x00<f3",
        "typestr_long": b"\x00<u" + b"9" * 40,
        "format_d": b"\x01d",
        "format_native": b"\x01@Zf",
        "format_bad": b"\x01T{d:x:}",
        "filter_host": b"\x02host",
        "filter_full": b"\x02host:cpu:0",
        "filter_type": b"\x02cpu",
        "filter_number": b"\x020",
        "filter_bad": b"\x02host:gpu:9999999999999999999",
        "kind_device": b"\x03device",
        "kind_bad": b"\x03devic",
    },
}

for target, seeds in SEEDS.items():
    d = HERE / target
    d.mkdir(parents=True, exist_ok=True)
    for name, data in seeds.items():
        (d / name).write_bytes(data)
