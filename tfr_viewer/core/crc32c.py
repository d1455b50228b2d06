"""CRC32C, for every module that needs one: the compiled core's (the CPU's CRC32C
instruction in three interleaved streams where it has one, slicing-by-8 otherwise)
while the compiled path is in use, and google-crc32c on the pure-Python path. Both
give the same numbers; :mod:`.fast` says which path runs.

``data`` is anything with the buffer protocol holding bytes (``bytes``, ``bytearray``,
``memoryview``, a contiguous uint8 numpy array).
"""

from __future__ import annotations

from typing import Any

from google_crc32c import extend as _reference_extend, value as _reference_value

from . import fast


def value(data: Any) -> int:
    """The CRC32C of ``data``."""
    compiled = fast.native()
    return compiled.crc32c(data) if compiled is not None else int(_reference_value(_held(data)))


def extend(crc: int, data: Any) -> int:
    """The CRC32C of what ``crc`` covered followed by ``data``."""
    compiled = fast.native()
    if compiled is not None:
        result: int = compiled.crc32c(data, crc)
        return result
    return int(_reference_extend(crc, _held(data)))


def _held(data: Any) -> Any:
    """``data`` as google-crc32c takes it: it refuses a ``memoryview`` or ``bytearray``
    (whose buffers must be released), so those are copied to bytes."""
    return bytes(data) if isinstance(data, memoryview | bytearray) else data
