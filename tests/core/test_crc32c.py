"""CRC32C takes every kind of buffer its contract names, on both paths."""

from __future__ import annotations

import mmap

import numpy as np

from tests.both_paths import hot_path  # noqa: F401 - an autouse fixture: both paths
from tfr_viewer.core import crc32c


def test_every_buffer_kind_gives_the_crc_of_its_bytes():
    """bytes, bytearray, memoryview (of bytes and of a mapping) and a uint8 array give
    the CRC32C of the bytes they hold, whole and extended (the pure path's library
    refuses some of them as they are)."""
    data = bytes(range(256)) * 40
    want = crc32c.value(data)
    buffer = mmap.mmap(-1, len(data))
    buffer[:] = data
    kinds = [
        bytearray(data),
        memoryview(data),
        memoryview(buffer),
        np.frombuffer(data, dtype=np.uint8),
    ]
    for kind in kinds:
        assert crc32c.value(kind) == want, type(kind)
        assert crc32c.extend(crc32c.value(kind[:1000]), kind[1000:]) == want, type(kind)
    assert crc32c.value(b"123456789") == 0xE3069283  # the check value of CRC-32C
