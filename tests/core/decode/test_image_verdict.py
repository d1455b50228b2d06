"""An image is valid when it decodes: the verdict of :func:`judge` against
``tf.io.decode_image`` on whole images, every cut and bit flips, in every format
TensorFlow reads; and the same verdict from ``check``, ``stats``, ``show`` and the
preview, run as a user runs them."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import numpy as np
import pytest

from tests.planted_faults import example_of, png_claiming
from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.decode.image_verdict import QUICK_SIDE, verdict_of
from tfr_viewer.core.decode.images import ImageError, decode_preview


def _pixels(seed: int = 0, size=(200, 150)) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.random((size[1], size[0], 3)) * 255).astype(np.uint8)


def _encode(fmt: str, pixels=None, **options) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(_pixels() if pixels is None else pixels).save(out, fmt, **options)
    return out.getvalue()


def _tf_decodes(data: bytes) -> bool:
    try:
        tf().io.decode_image(data, expand_animations=False)
    except Exception:  # noqa: BLE001 - any failure of TensorFlow's is its verdict
        return False
    return True


def _damaged(data: bytes, seed: int, flips: int) -> list[bytes]:
    """Every cut in the last 40 bytes, cuts across the file, and single bit flips."""
    n = len(data)
    rng = np.random.default_rng(seed)
    cuts = sorted({*range(max(0, n - 40), n), *range(0, n, max(1, n // 40))})
    out = [data[:c] for c in cuts]
    for pos in rng.integers(0, n, flips).tolist():
        flipped = bytearray(data)
        flipped[pos] ^= 1 << int(rng.integers(0, 8))
        out.append(bytes(flipped))
    return out


# the formats whose every damaged copy gets TensorFlow's verdict; BMP's header-size field
# (bytes 14..17), which TensorFlow ignores and Pillow needs, is left whole
EXACT = {
    "jpeg": lambda: _encode("JPEG"),
    "progressive jpeg": lambda: _encode("JPEG", progressive=True),
    "png": lambda: _encode("PNG"),
    "bmp": lambda: _encode("BMP"),
    "webp": lambda: _encode("WEBP"),
}


@pytest.mark.parametrize("name", sorted(EXACT))
def test_damaged_images_get_tensorflows_verdict(name):
    whole = EXACT[name]()
    assert _tf_decodes(whole) and verdict_of(whole).decodes
    disagree = []
    for data in _damaged(whole, seed=len(name), flips=120):
        if name == "bmp" and len(data) == len(whole) and data[14:18] != whole[14:18]:
            continue
        expected = _tf_decodes(data)
        for side in (None, QUICK_SIDE):
            if (verdict_of(data, side).error is None) != expected:
                disagree.append((len(data), side, expected))
    assert disagree == []


def test_a_damaged_gif_that_tensorflow_refuses_is_never_passed():
    """giflib decodes some damaged LZW codes to wrong pixels where Pillow stops: those
    are reported undecodable (the safe side); nothing TensorFlow refuses passes."""
    single = _encode("GIF")
    frames = [_encode("GIF", _pixels(1))]
    from PIL import Image

    animated = io.BytesIO()
    first, second = (Image.fromarray(_pixels(s)) for s in (0, 1))
    first.save(animated, "GIF", save_all=True, append_images=[second])
    for whole in (single, animated.getvalue(), *frames):
        assert verdict_of(whole).decodes and _tf_decodes(whole)
        for data in _damaged(whole, seed=7, flips=200):
            if not _tf_decodes(data):
                assert verdict_of(data).error is not None, len(data)


def test_an_animation_cut_in_a_later_frame_keeps_its_first_frames():
    from PIL import Image

    out = io.BytesIO()
    first, second = (Image.fromarray(_pixels(s)) for s in (0, 1))
    first.save(out, "GIF", save_all=True, append_images=[second])
    cut = out.getvalue()[:-40]
    decoded = tf().io.decode_image(cut, expand_animations=True)
    assert decoded.shape[0] == 1  # TensorFlow drops the damaged frame
    verdict = verdict_of(cut)
    assert verdict.error is None
    assert verdict.finding is not None and verdict.finding[0] == "image_frames_dropped"


def test_formats_tensorflow_cannot_decode_are_a_warning():
    tiff = _encode("TIFF")
    assert not _tf_decodes(tiff)
    verdict = verdict_of(tiff)
    assert verdict.error is None and verdict.finding == (
        "image_format_unsupported",
        "TensorFlow's decode_image cannot decode TIFF",
    )


def test_a_header_that_promises_more_than_the_bytes_hold_is_undecodable():
    import struct

    # a 54-byte BMP that claims 60000×60000 pixels of 24 bits
    bmp = b"BM" + struct.pack("<IHHI", 54, 0, 0, 54)
    bmp += struct.pack("<IiiHHIIiiII", 40, 60000, 60000, 1, 24, 0, 0, 2835, 2835, 0, 0)
    assert len(bmp) == 54 and not _tf_decodes(bmp)
    verdict = verdict_of(bmp)
    assert verdict.error == "BMP ends after 54 of the 10,800,000,054 bytes its header promises"


def test_an_image_above_the_pixel_budget_is_not_decoded():
    verdict = verdict_of(png_claiming(20_000, 20_000))
    assert verdict.too_large and verdict.error is None
    assert verdict.finding is not None and verdict.finding[0] == "image_too_large"
    with pytest.raises(ImageError, match="too large to decode"):
        decode_preview(png_claiming(20_000, 20_000))


JPEG = _encode("JPEG")
# the undecodable values of the report, each refused by tf.io.decode_image
BAD = {
    1: JPEG[: len(JPEG) // 2],  # a JPEG cut in half
    2: JPEG[:300],  # a JPEG cut after 300 bytes
    3: b"\xff\xd8\xff\xe0" + bytes(range(200)),  # JPEG magic, then garbage
    4: b"\xff\xd8\xff" + bytes(8),  # an 11-byte blob
    5: b"not an image at all",
    6: b"",
}
MESSAGES = {
    1: f"JPEG ends after {len(JPEG) // 2:,} bytes, before the image is complete",
    5: "not an image: 19 bytes starting with `not an i`",
    6: "empty: 0 bytes, not an image",
}


@pytest.fixture(scope="module")
def six_bad(tmp_path_factory):
    path = tmp_path_factory.mktemp("verdicts") / "images.tfrecord"
    records = []
    for i in range(10):
        image = BAD.get(i, _encode("JPEG", _pixels(i)))
        records.append(example_of({"image/encoded": [image], "label": [i % 2]}))
    tf_write(path, records)
    return path


def _cli(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *argv], capture_output=True, text=True, timeout=120
    )


def test_the_six_undecodable_images_fail_check_stats_and_show(six_bad):
    for data in BAD.values():
        assert not _tf_decodes(data)
    run = _cli("check", str(six_bad), "--json", "--fail-on", "error")
    assert run.returncode == 1, run.stderr
    findings = json.loads(run.stdout)["findings"]
    undecodable = {f["record"]: f["message"] for f in findings if f["kind"] == "image_undecodable"}
    assert sorted(undecodable) == sorted(BAD)
    for record, message in MESSAGES.items():
        assert undecodable[record] == message
    stats = _cli("stats", str(six_bad), "--json")
    assert stats.returncode == 0, stats.stderr
    images = json.loads(stats.stdout)["features"]["image/encoded"]["images"]
    assert images["undecodable"] == len(BAD) and images["count"] == 10
    shown = _cli("show", str(six_bad), "1")
    assert f"undecodable: {MESSAGES[1]}" in shown.stdout, shown.stdout
    as_json = json.loads(_cli("show", str(six_bad), "1", "--json").stdout)
    value = as_json["features"]["image/encoded"]["values"][0]
    assert value["image_error"] == MESSAGES[1]
    with pytest.raises(ImageError, match=MESSAGES[1]):
        decode_preview(BAD[1])


def test_the_pixels_decoded_at_once_are_one_budget_for_all_threads(monkeypatch):
    """Eight 4-megapixel PNGs judged on every core, with a budget of 6 megapixels: one
    is decoded at a time, however many threads there are, and every one decodes."""
    import io

    from PIL import Image

    from tfr_viewer.core.decode import image_verdict

    out = io.BytesIO()
    Image.new("RGB", (2000, 2000), (10, 200, 30)).save(out, "PNG")
    budget = image_verdict.PixelBudget(6_000_000)
    monkeypatch.setattr(image_verdict, "PIXELS", budget)
    found = image_verdict.verdicts([out.getvalue()] * 8)
    assert all(v.error is None for v in found)
    assert budget.peak == 4_000_000 and budget.used == 0


def test_bytes_that_end_as_a_whole_picture_does():
    import io

    from PIL import Image

    from tfr_viewer.core.decode.image_verdict import ends_whole

    pictures = {}
    for fmt in ("JPEG", "PNG", "GIF"):
        buf = io.BytesIO()
        Image.new("RGB", (32, 24), (200, 30, 30)).save(buf, fmt)
        pictures[fmt] = buf.getvalue()
    assert ends_whole(pictures["JPEG"]) and ends_whole(pictures["JPEG"] + bytes(10))
    assert ends_whole(memoryview(pictures["PNG"]))
    assert not ends_whole(pictures["JPEG"][:-40]) and not ends_whole(pictures["PNG"][:-5])
    assert not ends_whole(pictures["GIF"]) and not ends_whole(b"") and not ends_whole(b"\xff")
