"""Optional re-encoding of converted images to JPEG: a quality, a largest side, and a
conversion to RGB. Images are decoded once, by the decode that gives their verdict
(:mod:`..decode.image_verdict`: JPEGs in Pillow's draft mode straight at the scale the
largest side needs, nothing above the decode limit of :mod:`..decode.images`)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

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


def reencode_image(facts: ImageFacts, options: Reencode, img: Any) -> ImageFacts | Skipped:
    """``facts`` with its image as a new JPEG (its size and mode as written), made from
    ``img``: the image decoded by :func:`..decode.image_verdict.judge` with ``side`` at
    the largest side (a JPEG decoded straight at the scale it needs)."""
    try:
        if options.max_side:
            img.thumbnail((options.max_side, options.max_side))
        if options.rgb or img.mode not in ("L", "RGB"):
            img = img.convert("RGB")
        out = io.BytesIO()
        img.save(out, "JPEG", quality=options.quality)
        width, height, mode = img.width, img.height, img.mode
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        return Skipped(facts.path, f"the image cannot be re-encoded: {exc}", "not_reencoded")
    data = out.getvalue()
    return ImageFacts(
        facts.path,
        data,
        "jpeg",
        width,
        height,
        mode,
        facts.sha256,  # copies are the same source bytes, not the same re-encoded bytes
        (facts.width, facts.height),
    )
