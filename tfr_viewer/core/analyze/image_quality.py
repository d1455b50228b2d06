"""Image quality scores and a perceptual hash from encoded bytes, decoded once, small.

Each image is decoded once, the decode that gives its verdict
(:func:`..decode.image_verdict.judge`: JPEGs in Pillow's draft mode at 1/2 to 1/8 scale,
every other format in full) and shrunk to at most :data:`SIDE`
pixels a side; every score below is computed on that small image. The scores are
cleanvision's (lower means more of the fault), with its thresholds as defaults:

- dark: the 99th percentile of brightness √(0.241R² + 0.691G² + 0.068B²)/255, below 0.32;
- light: 1 − the 5th percentile of brightness, below 0.05;
- odd aspect ratio: min(w/h, h/w) of the full size, below 0.35;
- low information: the entropy of the grey-level histogram × 0.1, below 0.30;
- blurry: 1 − exp(−0.01 · σ), σ the standard deviation of Pillow's FIND_EDGES on the grey
  image (without its border row and column, which Pillow does not filter), below 0.29;
- grayscale: one channel, or three equal ones.

The perceptual hash is imagehash's difference hash (64 bits): near-duplicates are images
whose hashes differ in at most :data:`NEAR_BITS` bits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..decode.image_verdict import QUICK_SIDE, ImageVerdict, judge

if TYPE_CHECKING:
    from PIL import Image

SIDE = QUICK_SIDE  # the scores are computed on the image shrunk to this many pixels a side
NEAR_BITS = 4  # near-duplicate: difference hashes at most this many bits apart (of 64)


@dataclass(frozen=True)
class Thresholds:
    """Flag an image when its score is below the threshold (cleanvision's defaults)."""

    dark: float = 0.32
    light: float = 0.05
    odd_aspect_ratio: float = 0.35
    low_information: float = 0.30
    blurry: float = 0.29
    odd_size_iqr: float = 3.0  # √area outside Q1 − k·IQR … Q3 + k·IQR
    near_bits: int = NEAR_BITS


@dataclass(frozen=True)
class ImageScores:
    """The scores of one image (see the module's text), its full size and EXIF
    orientation (1 when none), and its difference hash."""

    width: int
    height: int
    scores: dict[str, float] = field(default_factory=dict)
    grayscale: bool = False
    orientation: int = 1
    dhash: int = 0


def _brightness(rgb: np.ndarray) -> np.ndarray:
    r, g, b = (rgb[..., i].astype(np.float64) for i in range(3))
    return np.sqrt(0.241 * r * r + 0.691 * g * g + 0.068 * b * b).ravel() / 255


def _percentiles(values: np.ndarray, *qs: float) -> list[float]:
    """``np.percentile(values, qs)`` (linear interpolation), the same floats, by
    partial sorting."""
    n = len(values)
    places = [q / 100 * (n - 1) for q in qs]
    ranks = sorted({min(int(p) + k, n - 1) for p in places for k in (0, 1)})
    part = np.partition(values, ranks)
    out = []
    for p in places:
        lo = int(p)
        hi = min(lo + 1, n - 1)
        a, b, t = float(part[lo]), float(part[hi]), p - lo
        out.append(b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t)  # as numpy lerps
    return out


def _small(img: Image.Image) -> tuple[Image.Image, int]:
    """``(RGB image at most SIDE a side, EXIF orientation)`` of a decoded image."""
    orientation = int(img.getexif().get(0x0112, 1) or 1)
    img.thumbnail((SIDE, SIDE))
    return img.convert("RGB"), orientation


def _dhash(small: Image.Image) -> int:
    import imagehash

    bits = imagehash.dhash(small).hash.ravel()
    return int("".join("1" if b else "0" for b in bits), 2)


def difference_hash(data: bytes) -> int | None:
    """imagehash's 64-bit difference hash of encoded image bytes, or None when they do
    not decode (:func:`..decode.image_verdict.judge`)."""
    verdict, img = judge(data, side=SIDE, keep=True)
    if img is None:
        return None
    with img:
        return _dhash(_small(img)[0])


def judge_and_score(data: bytes) -> tuple[ImageVerdict, ImageScores | None]:
    """The verdict on encoded image bytes (decoded in full, :func:`..decode.image_verdict.
    judge`) and their scores, or None for scores when they do not decode."""
    verdict, img = judge(data, side=SIDE, keep=True)
    if img is None:
        return verdict, None
    with img:
        small, orientation = _small(img)
    return verdict, _scores(small, verdict.width, verdict.height, orientation)


def _scores(small: Image.Image, width: int, height: int, orientation: int) -> ImageScores:
    from PIL import ImageFilter

    rgb = np.asarray(small)
    bright = _brightness(rgb)
    grey = small.convert("L")
    # Pillow leaves a 3×3 filter's border pixels as they were: they are not edges
    edges = np.asarray(grey.filter(ImageFilter.FIND_EDGES), dtype=np.float64)[1:-1, 1:-1]
    low, high = _percentiles(bright, 5, 99)
    scores = {
        "dark": float(high),
        "light": 1.0 - float(low),
        "odd_aspect_ratio": min(width / height, height / width),
        "low_information": min(1.0, abs(grey.entropy()) * 0.1),
        "blurry": 1.0 - math.exp(-0.01 * float(edges.std())) if edges.size else 0.0,
    }
    flat = rgb.reshape(-1, 3)
    grayscale = bool((flat[:, 0] == flat[:, 1]).all() and (flat[:, 1] == flat[:, 2]).all())
    return ImageScores(width, height, scores, grayscale, orientation, _dhash(small))


def flagged(scores: ImageScores, limits: Thresholds) -> list[tuple[str, float, float]]:
    """``(issue, score, threshold)`` for every score below its threshold."""
    out = []
    for name, value in scores.scores.items():
        limit = getattr(limits, name)
        if value < limit:
            out.append((name, value, limit))
    return out


def _popcount(x: np.ndarray) -> np.ndarray:
    """Set bits of each uint64."""
    if hasattr(np, "bitwise_count"):  # numpy 2
        result: np.ndarray = np.bitwise_count(x)
        return result
    b = np.ascontiguousarray(x, dtype=">u8")
    result = np.unpackbits(b.view(np.uint8).reshape(*b.shape, 8), axis=-1).sum(axis=-1)
    return result


_ROWS = 1024  # hashes compared against a whole group at a time
_ALL_PAIRS = 8192  # up to this many hashes, every pair is compared once (no bands)


def near_pairs(hashes: np.ndarray, bits: int = NEAR_BITS) -> list[tuple[int, int, int]]:
    """``(i, j, distance)`` with i < j for hashes at most ``bits`` apart. Hashes are split
    into ``bits + 1`` bands: two hashes that close agree on at least one band, so only
    hashes sharing a band are compared (a group at a time, in blocks of rows)."""
    hashes = np.asarray(hashes, dtype=np.uint64)
    found: dict[tuple[int, int], int] = {}
    if len(hashes) <= _ALL_PAIRS:  # few enough to compare every pair once
        _pairs_within(np.arange(len(hashes)), hashes, bits, found)
        return sorted((i, j, d) for (i, j), d in found.items())
    bands = bits + 1
    width = -(-64 // bands)
    for b in range(bands):
        shift = np.uint64(min(63, b * width))
        keys = (hashes >> shift) & np.uint64((1 << width) - 1)
        order = np.argsort(keys, kind="stable")
        cuts = np.flatnonzero(np.diff(keys[order])) + 1
        for group in np.split(order, cuts):
            if len(group) < 2:
                continue
            _pairs_within(np.sort(group), hashes, bits, found)
    return sorted((i, j, d) for (i, j), d in found.items())


def _pairs_within(
    g: np.ndarray, hashes: np.ndarray, bits: int, found: dict[tuple[int, int], int]
) -> None:
    """Adds to ``found`` the pairs of the sorted indices ``g`` at most ``bits`` apart
    (every pair compared, in blocks of rows)."""
    hg = hashes[g]
    for start in range(0, len(g), _ROWS):
        dist = _popcount(hg[start : start + _ROWS, None] ^ hg[None, :])
        ii, jj = np.nonzero(dist <= bits)
        upper = jj > ii + start
        for i, j, d in zip(
            g[ii[upper] + start].tolist(),
            g[jj[upper]].tolist(),
            dist[ii[upper], jj[upper]].tolist(),
            strict=True,
        ):
            found[(i, j)] = d
