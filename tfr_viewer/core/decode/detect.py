"""What a bytes value holds, found from its content (never from its key name).

Images are recognised by magic number, and their size and mode come from the header
through Pillow's lazy open (no pixel decode). Serialized tensors and nested Examples
are recognised when they parse strictly; then readable UTF-8 text; else plain bytes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from .strict_parse import DTYPES, example_message, looks_like_text, tensor_message

IMAGE_FORMATS = ("jpeg", "png", "gif", "bmp", "webp", "tiff")
_BMP_HEADER_SIZES = {12, 40, 52, 56, 64, 108, 124}


@dataclass(frozen=True)
class ImageInfo:
    format: str
    width: int
    height: int
    mode: str


def image_format(data: bytes | memoryview) -> str | None:
    """The image format of ``data`` by magic number, or None."""
    head = data[:16]
    if head[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if head[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if head[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    if (
        head[:2] == b"BM"
        and len(data) >= 26
        and int.from_bytes(data[14:18], "little") in (_BMP_HEADER_SIZES)
    ):
        return "bmp"
    return None


def image_info(data: bytes | memoryview) -> ImageInfo | None:
    """Format, width, height and mode from the image header, or None if unreadable."""
    fmt = image_format(data)
    if fmt is None:
        return None
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = None  # only the header is read here; images.py limits decoding
    try:
        with Image.open(io.BytesIO(data)) as img:  # lazy: reads the header only
            return ImageInfo(fmt, int(img.width), int(img.height), str(img.mode))
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        return None


def _is_tensor(data: bytes) -> bool:
    parsed = tensor_message(data)
    if parsed is None:
        return False
    msg, shape = parsed
    if not msg.HasField("tensor_shape"):
        return False
    field = DTYPES[msg.dtype][2]
    return bool(msg.tensor_content) or len(getattr(msg, field)) > 0 or 0 in shape


def detect(data: bytes) -> str:
    """One of ``jpeg png gif bmp webp tiff tensor example text bytes``."""
    fmt = image_format(data)
    if fmt is not None:
        return fmt
    if len(data) >= 2:
        if _is_tensor(data):
            return "tensor"
        if example_message(data) is not None:
            return "example"
    if looks_like_text(data):
        return "text"
    return "bytes"
