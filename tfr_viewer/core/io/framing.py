"""TFRecord frames: masked CRC32C, headers, and a writer byte-identical to TensorFlow's.

A frame is ``uint64 length (LE) | uint32 masked_crc(length bytes) | payload |
uint32 masked_crc(payload)``. CRCs come from :mod:`..crc32c`.
"""

from __future__ import annotations

import enum
import os
import struct
import zlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    import gzip

    import numpy as np

from ..crc32c import value as _crc32c

HEADER_SIZE = 12
FOOTER_SIZE = 4
FRAME_OVERHEAD = HEADER_SIZE + FOOTER_SIZE
MASK_DELTA = 0xA282EAD8

_U64 = struct.Struct("<Q")
_U32 = struct.Struct("<I")
_HEADER = struct.Struct("<QI")


class Compression(str, enum.Enum):
    """Whole-file compression as in TensorFlow's ``TFRecordOptions``."""

    NONE = "none"
    GZIP = "gzip"
    ZLIB = "zlib"

    @classmethod
    def parse(cls, text: str | None) -> Compression:
        """Accept ``none|gzip|zlib`` in any case, and TensorFlow's empty string for none."""
        key = (text.value if isinstance(text, Compression) else text or "none").strip().lower()
        try:
            return cls(key)
        except ValueError:
            raise ValueError(f"unknown compression {text!r}: use one of none, gzip, zlib") from None


def mask(crc: int) -> int:
    """Apply TFRecord's CRC mask: rotate right by 15 bits and add a constant, mod 2^32."""
    return (((crc >> 15) | (crc << 17)) + MASK_DELTA) & 0xFFFFFFFF


def masked_crc(data: bytes | bytearray | memoryview | np.ndarray) -> int:
    """Masked CRC32C of ``data`` (bytes, or a contiguous numpy uint8 array)."""
    return mask(_crc32c(data))


def encode_header(length: int) -> bytes:
    """The 12 header bytes for a payload of ``length`` bytes."""
    size = _U64.pack(length)
    return size + _U32.pack(masked_crc(size))


def decode_header(header: bytes) -> tuple[int, bool]:
    """Return ``(length, crc_ok)`` for 12 header bytes. The length is untrusted if not ok."""
    if len(header) != HEADER_SIZE:
        raise ValueError(f"a frame header has {HEADER_SIZE} bytes, got {len(header)}")
    length, stored = _HEADER.unpack(header)
    return length, masked_crc(header[:8]) == stored


def encode_frame(payload: bytes) -> bytes:
    """One complete frame for ``payload``."""
    return encode_header(len(payload)) + payload + _U32.pack(masked_crc(payload))


class _ZlibWriter:
    """A write-only file object that zlib-compresses into ``raw`` (TensorFlow's ZLIB option)."""

    def __init__(self, raw: BinaryIO, level: int) -> None:
        self._raw = raw
        self._comp = zlib.compressobj(level)

    def write(self, data: bytes) -> int:
        self._raw.write(self._comp.compress(data))
        return len(data)

    def close(self) -> None:
        self._raw.write(self._comp.flush())


class RecordWriter:
    """Writes frames to ``path`` (or an open binary file, which it closes) with the given
    compression. Use as a context manager.

    ``write`` frames a payload; ``write_frame`` copies an already framed record verbatim
    (the fast path for exports of unedited records). The caller owns atomicity: the
    program's outputs pass an open temporary of :mod:`..write.output`.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | BinaryIO,
        compression: Compression | str = Compression.NONE,
        level: int = 6,
    ) -> None:
        self.compression = Compression.parse(compression)
        if hasattr(path, "write"):
            self._raw: BinaryIO = path  # type: ignore[assignment]
            self.path = str(getattr(path, "name", ""))
        else:
            self.path = os.fspath(path)
            self._raw = open(self.path, "wb")  # noqa: SIM115 - closed in close()
        self._out: BinaryIO | _ZlibWriter | gzip.GzipFile
        if self.compression is Compression.GZIP:
            import gzip

            self._out = gzip.GzipFile(  # no name in the header: the file is a temporary
                filename="", fileobj=self._raw, mode="wb", compresslevel=level, mtime=0
            )
        elif self.compression is Compression.ZLIB:
            self._out = _ZlibWriter(self._raw, level)
        else:
            self._out = self._raw
        self.records = 0
        self.bytes_written = 0

    def write(self, payload: bytes) -> None:
        """Append one record."""
        self.write_frame(encode_frame(payload))

    def write_frame(self, frame: bytes) -> None:
        """Append a complete, already verified frame as is."""
        self._out.write(frame)
        self.records += 1
        self.bytes_written += len(frame)

    def close(self, sync: bool = False) -> None:
        """Finish the stream and close the file. Safe to call twice."""
        if self._raw.closed:
            return
        if self._out is not self._raw:
            self._out.close()
        self._raw.flush()
        if sync:
            os.fsync(self._raw.fileno())
        self._raw.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_records(
    path: str | os.PathLike[str],
    payloads: Iterable[bytes],
    compression: Compression | str = Compression.NONE,
) -> int:
    """Write every payload to a new file at ``path``; return the number of records."""
    with RecordWriter(path, compression) as writer:
        for payload in payloads:
            writer.write(payload)
        return writer.records
