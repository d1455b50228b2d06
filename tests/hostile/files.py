"""Hostile inputs built the way the attacks built them: image headers that claim
gigapixels, tensors that claim 2^31 elements in a dozen bytes."""

from __future__ import annotations

import io
import struct
import zlib


def png_header(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width`` × ``height`` pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


def jpeg_header(width: int, height: int) -> bytes:
    """A real 8×8 JPEG whose SOF0 header is rewritten to claim ``width`` × ``height``."""
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(buf, "JPEG")
    data = bytearray(buf.getvalue())
    sof = data.find(b"\xff\xc0")
    data[sof + 5 : sof + 7] = struct.pack(">H", height)
    data[sof + 7 : sof + 9] = struct.pack(">H", width)
    return bytes(data)


def tensor_claiming(elements: int, dtype: int = 1) -> bytes:
    """A TensorProto of shape [elements] with no values (12 bytes for 2^31)."""
    from tfr_viewer.core.decode import proto

    msg = proto.TensorProto()
    msg.dtype = dtype
    msg.tensor_shape.dim.add().size = elements
    return msg.SerializeToString()


BOMBS = {
    "jpeg 65500x65500": lambda: jpeg_header(65500, 65500),
    "jpeg 19000x19000": lambda: jpeg_header(19000, 19000),
    "png 50000x50000": lambda: png_header(50000, 50000),
    "png 19999x19999": lambda: png_header(19999, 19999),
}
