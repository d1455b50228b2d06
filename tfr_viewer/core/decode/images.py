"""Decode image bytes to RGBA arrays with Pillow (a bounded preview, or a thumbnail).

Images are decoded by :func:`.image_verdict.judge`, so a preview fails exactly where a
check reports the image undecodable, with the same words (raised as
:class:`ImageError`); images above its pixel budget are reported as too large, never
decoded. Previews are bounded to :data:`PREVIEW_SIDE` pixels a side: JPEGs decode at a
reduced scale in Pillow's draft mode, other formats are reduced after decoding.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

PREVIEW_SIDE = 4096  # previews are at most this many pixels a side


class ImageError(ValueError):
    """Image bytes that cannot be decoded."""


def _rgba(img: Any) -> np.ndarray:
    import numpy as np

    try:
        rgba = img.convert("RGBA")
    except (OSError, ValueError, SyntaxError) as exc:
        raise ImageError(f"the image data is damaged ({exc})") from None
    pixels: np.ndarray = np.asarray(rgba, dtype=np.uint8).copy()
    return pixels


def decode_image(data: bytes) -> np.ndarray:
    """RGBA pixels, shape (height, width, 4), at most :data:`PREVIEW_SIDE` a side."""
    return decode_preview(data)[0]


def decode_preview(data: bytes, side: int = PREVIEW_SIDE) -> tuple[np.ndarray, int, int]:
    """RGBA pixels at most ``side`` a side, and the image's full width and height (to
    scale pixel coordinates by)."""
    from .image_verdict import judge

    verdict, img = judge(data, side=side, keep=True)
    if img is None:
        raise ImageError(verdict.problem or "the image does not decode")
    with img:
        full = (verdict.width, verdict.height)  # a draft-mode JPEG is already smaller
        if max(img.size) > side:
            try:
                img.thumbnail((side, side))
            except (OSError, ValueError, SyntaxError) as exc:
                raise ImageError(f"the image data is damaged ({exc})") from None
        return _rgba(img), full[0], full[1]


def thumbnail(data: bytes, size: int) -> np.ndarray:
    """RGBA pixels no larger than ``size`` on either side."""
    return decode_preview(data, size)[0]


def raw_pixels(data: bytes, shape: tuple[int, int, int]) -> np.ndarray:
    """RGBA pixels from a raw uint8 buffer of (height, width, depth) with depth 1, 3 or 4."""
    import numpy as np

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
    import numpy as np

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
