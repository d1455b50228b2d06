"""Image scores, the near-duplicate search and hostile image headers."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np

from tfr_viewer.core.analyze.image_quality import judge_and_score, near_pairs


def test_near_pairs_agree_with_comparing_every_pair():
    rng = np.random.default_rng(3)
    base = rng.integers(0, 2**63, 60, dtype=np.uint64)
    flips = [base[i] ^ np.uint64(1 << int(rng.integers(0, 64))) for i in range(20)]
    far = base[:5] ^ np.uint64(0b11111)  # five bits apart: not near at 4
    hashes = np.concatenate([base, flips, far])
    got = near_pairs(hashes, bits=4)
    want = []
    for i in range(len(hashes)):
        for j in range(i + 1, len(hashes)):
            d = bin(int(hashes[i]) ^ int(hashes[j])).count("1")
            if d <= 4:
                want.append((i, j, d))
    assert got == want and len(got) >= 20
    assert not {(i, 80 + i) for i in range(5)} & {(i, j) for i, j, _ in got}


def test_the_banded_search_over_many_look_alikes_finds_every_pair_once(monkeypatch):
    """Past the size where every pair is compared, hashes in many tight clusters (the
    frames of many scenes): the bands find each close pair once, as comparing every
    pair does, and each group of a band is compared without going over what earlier
    groups found (which once made the search quadratic in the pairs found)."""
    from tfr_viewer.core.analyze import image_quality

    monkeypatch.setattr(image_quality, "_ALL_PAIRS", 500)
    rng = np.random.default_rng(5)
    centres = rng.integers(0, 2**63, 40, dtype=np.uint64)
    bits = rng.integers(0, 64, (40, 30))
    hashes = np.array(
        [c ^ np.uint64(1 << int(b)) for c, row in zip(centres, bits, strict=True) for b in row],
        dtype=np.uint64,
    )
    sorted_calls = []
    real_sorted = sorted

    def counting_sorted(items, *a, **k):
        sorted_calls.append(1)
        return real_sorted(items, *a, **k)

    monkeypatch.setattr(image_quality, "sorted", counting_sorted, raising=False)
    got = near_pairs(hashes, bits=4)
    assert len(sorted_calls) == 1  # the pairs are sorted once, at the end
    x = hashes[:, None] ^ hashes[None, :]
    dist = np.array([[bin(int(v)).count("1") for v in row] for row in x])
    ii, jj = np.nonzero(np.triu(dist <= 4, 1))
    assert got == [(int(i), int(j), int(dist[i, j])) for i, j in zip(ii, jj, strict=True)]
    assert len(got) > 40 * 30


def _png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(ihdr))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
    )


def test_a_header_claiming_gigapixels_is_not_decoded():
    assert judge_and_score(_png_header(100_000, 40_000))[1] is None


def test_a_cut_image_is_not_scored_and_a_whole_one_is():
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (80, 60), (10, 200, 30)).save(out, "PNG")
    whole = out.getvalue()
    scores = judge_and_score(whole)[1]
    assert scores is not None and (scores.width, scores.height) == (80, 60)
    assert scores.scores["low_information"] == 0.0  # one colour
    assert judge_and_score(whole[: len(whole) // 2])[1] is None
