"""A seeded generator of hostile inputs: mutated frames, payloads, compressed streams
and image headers. Case ``i`` of seed ``s`` is always the same bytes."""

from __future__ import annotations

import gzip
import random
import struct
import zlib

from tests.hostile.files import jpeg_header, png_header, tensor_claiming
from tfr_viewer.core.io.framing import encode_frame, encode_header
from tfr_viewer.core.write import build_example

KINDS = ("frames", "payloads", "gzip", "zlib", "images", "tensors")


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _payload(rng: random.Random) -> bytes:
    """An Example, a nested one, a tensor, raw protobuf, text or noise."""
    pick = rng.randrange(9)
    if pick == 0:
        values = {"label": [rng.randrange(-5, 5)], "x": [rng.random()] * rng.randrange(4)}
        return build_example(values, {"x": "float"})
    if pick == 1:
        inner = build_example({"k": [b"v" * rng.randrange(20)]})
        for _ in range(rng.randrange(1, 30)):  # nesting
            inner = build_example({"nested": [inner]})
        return inner
    if pick == 2:  # a field whose varint length claims far more than is there
        return b"\x0a" + varint(rng.choice([2**31, 2**40, 2**63, 2**64 - 1])) + b"x" * 8
    if pick == 3:  # invalid UTF-8 in a key
        key = bytes(rng.randrange(128, 256) for _ in range(4))
        entry = b"\x0a" + bytes([len(key)]) + key + b"\x12\x04\x1a\x02\x08\x01"
        return b"\x0a" + varint(len(entry) + 2) + b"\x0a" + varint(len(entry)) + entry
    if pick == 4:
        return tensor_claiming(rng.choice([2**20, 2**31, 2**26, 7]), rng.choice([1, 2, 7, 9, 14]))
    if pick == 5:
        return "text ✓ ".encode() * rng.randrange(1, 50)
    if pick == 6:  # deep raw protobuf nesting
        data = b"\x08\x01"
        for _ in range(rng.randrange(1, 200)):
            data = b"\x0a" + varint(len(data)) + data
        return data
    if pick == 7:
        return build_example({"f": [float("nan"), float("inf"), -0.0, 3.4e38]})
    return rng.randbytes(rng.randrange(0, 300))


def mutate(rng: random.Random, data: bytes) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randrange(1, 6)):
        if not data:
            break
        op = rng.randrange(6)
        at = rng.randrange(len(data))
        if op == 0:
            data[at] ^= 1 << rng.randrange(8)
        elif op == 1:
            del data[at : at + rng.randrange(1, 64)]
        elif op == 2:
            data[at:at] = rng.randbytes(rng.randrange(1, 64))
        elif op == 3:  # a lying length with a valid CRC
            data[at:at] = encode_header(rng.choice([2**40, 2**63, 2**64 - 1, 10**9]))
        elif op == 4:
            data = data[:at]
        else:
            data[at : at + 8] = struct.pack("<Q", rng.getrandbits(64))
    return bytes(data)


def _frames(rng: random.Random, count: int) -> bytes:
    return b"".join(encode_frame(_payload(rng)) for _ in range(count))


def _image_record(rng: random.Random) -> bytes:
    side = rng.choice([1, 64, 19_999, 50_000, 65_500])
    image = (png_header if rng.random() < 0.5 else jpeg_header)(side, rng.choice([1, side]))
    if rng.random() < 0.5:
        image = mutate(rng, image)
    return build_example({"image/encoded": [image], "image/height": [side], "image/width": [side]})


def case(seed: int, index: int) -> tuple[str, bytes]:
    """``(kind, file bytes)`` of case ``index``."""
    rng = random.Random(seed * 1_000_003 + index)
    kind = KINDS[index % len(KINDS)]
    if kind == "frames":
        return kind, mutate(rng, _frames(rng, rng.randrange(1, 12)))
    if kind == "payloads":
        return kind, _frames(rng, rng.randrange(1, 6))
    if kind in ("gzip", "zlib"):
        raw = _frames(rng, rng.randrange(1, 12))
        packed = gzip.compress(raw) if kind == "gzip" else zlib.compress(raw)
        if rng.random() < 0.7:
            packed = mutate(rng, packed)
        return kind, packed
    if kind == "images":
        return kind, b"".join(encode_frame(_image_record(rng)) for _ in range(rng.randrange(1, 3)))
    return kind, b"".join(
        encode_frame(tensor_claiming(rng.choice([2**31, 2**40, 3]), rng.choice([1, 7, 14])))
        for _ in range(2)
    )
