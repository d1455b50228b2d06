"""Decode image bytes to RGBA arrays with Pillow (full size, or a cheap thumbnail).

Thumbnails use Pillow's draft mode, so a JPEG is decoded at a reduced scale and never at
full size. Errors are raised as :class:`ImageError` with a message fit for a person.
"""

from __future__ import annotations

import io

import numpy as np

MAX_PIXELS = 200_000_000


class ImageError(ValueError):
    """Image bytes that cannot be decoded."""


def _open(data: bytes):
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        return Image.open(io.BytesIO(data))
    except UnidentifiedImageError:
        head = data[:8].hex(" ")
        raise ImageError(
            f"the {len(data):,} bytes are not an image format Pillow reads (they start "
            f"{head}); the image is damaged or not an image"
        ) from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise ImageError(f"not a decodable image ({exc})") from None


def _rgba(img) -> np.ndarray:
    try:
        rgba = img.convert("RGBA")
    except (OSError, ValueError, SyntaxError) as exc:
        raise ImageError(f"the image data is damaged ({exc})") from None
    return np.asarray(rgba, dtype=np.uint8).copy()


def decode_image(data: bytes) -> np.ndarray:
    """Full-size RGBA pixels, shape (height, width, 4)."""
    from PIL import Image

    try:
        with _open(data) as img:
            return _rgba(img)
    except Image.DecompressionBombError as exc:
        raise ImageError(str(exc)) from None


def thumbnail(data: bytes, size: int) -> np.ndarray:
    """RGBA pixels no larger than ``size`` on either side."""
    with _open(data) as img:
        if img.format == "JPEG":
            img.draft("RGB", (size, size))  # decode at 1/2, 1/4 or 1/8 scale
        img.thumbnail((size, size))
        out = _rgba(img)
    return out


def raw_pixels(data: bytes, shape: tuple[int, int, int]) -> np.ndarray:
    """RGBA pixels from a raw uint8 buffer of (height, width, depth) with depth 1, 3 or 4."""
    h, w, d = shape
    if len(data) != h * w * d or d not in (1, 3, 4):
        raise ImageError(f"{len(data)} bytes are not {h}×{w}×{d} pixels")
    arr = np.frombuffer(data, dtype=np.uint8).reshape(h, w, d)
    out = np.empty((h, w, 4), dtype=np.uint8)
    out[..., 3] = 255
    if d == 1:
        out[..., :3] = arr
    else:
        out[..., :d] = arr
    return out


def array_to_rgba(values: np.ndarray) -> np.ndarray | None:
    """An image from a 2-D or 3-D (1, 3 or 4 channels) numeric array, scaled to 0..255;
    None when the array does not look like an image."""
    if values.ndim == 3 and values.shape[-1] not in (1, 3, 4) or values.ndim not in (2, 3):
        return None
    if values.size == 0 or values.dtype.kind not in "uifb":
        return None
    arr = values.astype(np.float64)
    if values.dtype != np.uint8:
        lo, hi = np.nanmin(arr), np.nanmax(arr)
        arr = (arr - lo) / (hi - lo) * 255 if hi > lo else np.zeros_like(arr)
    arr = np.nan_to_num(arr).clip(0, 255).astype(np.uint8)
    if arr.ndim == 2:
        arr = arr[..., None]
    h, w, d = arr.shape
    return raw_pixels(arr.tobytes(), (h, w, d))
