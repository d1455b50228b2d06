"""Images: headers that claim gigapixels are reported, never decoded; big real images
still get a bounded preview with their full size."""

from __future__ import annotations

import io

import numpy as np
import pytest

from tests.hostile.files import BOMBS, jpeg_header
from tfr_viewer.core.decode import (
    MAX_PIXELS,
    ImageError,
    decode_image,
    decode_preview,
    image_info,
    too_large,
)
from tfr_viewer.core.decode.images import PREVIEW_SIDE
from tfr_viewer.core.decode.to_json import bytes_value


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_bombs_are_reported_by_their_header(name):
    data = BOMBS[name]()
    info = image_info(data)
    width, height = (int(v) for v in name.split()[1].split("x"))
    assert (info.width, info.height) == (width, height)
    with pytest.raises(ImageError, match="too large to decode"):
        decode_image(data)
    value = bytes_value(data)
    assert value["image"]["width"] == width
    assert value["image"]["note"].startswith("too large to decode")


def test_the_limit_is_deliberate():
    assert MAX_PIXELS == 120_000_000
    assert too_large(10_000, 12_000) is None
    assert "above the limit of 120" in too_large(12_000, 10_001)


def test_a_large_real_image_gets_a_bounded_preview():
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (9000, 300), "blue").save(buf, "PNG")
    rgba, width, height = decode_preview(buf.getvalue())
    assert (width, height) == (9000, 300)
    assert max(rgba.shape[:2]) <= PREVIEW_SIDE
    assert np.all(rgba[0, 0] == [0, 0, 255, 255])


def test_a_real_jpeg_is_decoded_in_draft_mode():
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (5000, 5000), "green").save(buf, "JPEG", quality=50)
    rgba, width, height = decode_preview(buf.getvalue(), 1000)
    assert (width, height) == (5000, 5000) and max(rgba.shape[:2]) <= 1000
    assert image_info(jpeg_header(20, 10)).width == 20
