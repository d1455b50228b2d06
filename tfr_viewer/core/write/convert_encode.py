"""Optional re-encoding of converted images to JPEG: a quality, a largest side, and a
conversion to RGB. Images are decoded once (JPEGs in Pillow's draft mode straight at the
scale the largest side needs) and never above the decode limit of
:mod:`..decode.images`."""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass

from .convert_layouts import ImageFacts
from .convert_sources import Skipped


@dataclass(frozen=True)
class Reencode:
    quality: int = 90
    max_side: int | None = None  # shrink so that neither side is longer
    rgb: bool = True  # grey, palette and alpha images become RGB

    def __post_init__(self) -> None:
        if not 1 <= self.quality <= 100:
            raise ValueError(f"the JPEG quality must be 1 to 100, not {self.quality}")
        if self.max_side is not None and self.max_side < 1:
            raise ValueError("the largest side must be at least 1 pixel")


def reencode_image(facts: ImageFacts, options: Reencode) -> ImageFacts | Skipped:
    """``facts`` with its image as a new JPEG (its size and mode as written), or why
    the image cannot be decoded."""
    from PIL import Image

    from ..decode.images import too_large

    reason = too_large(facts.width, facts.height)
    if reason is not None:
        return Skipped(facts.path, reason)
    Image.MAX_IMAGE_PIXELS = None  # the limit is ours, checked above
    try:
        with Image.open(io.BytesIO(facts.data)) as img:
            if options.max_side and img.format == "JPEG":
                img.draft("RGB", (options.max_side, options.max_side))
            img.load()
            if options.max_side:
                img.thumbnail((options.max_side, options.max_side))
            if options.rgb or img.mode not in ("L", "RGB"):
                img = img.convert("RGB")
            out = io.BytesIO()
            img.save(out, "JPEG", quality=options.quality)
            width, height, mode = img.width, img.height, img.mode
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        return Skipped(facts.path, f"the image cannot be decoded to re-encode it: {exc}")
    data = out.getvalue()
    return ImageFacts(
        facts.path,
        data,
        "jpeg",
        width,
        height,
        mode,
        hashlib.sha256(data).hexdigest(),
        (facts.width, facts.height),
    )
