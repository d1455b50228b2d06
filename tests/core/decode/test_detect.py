"""Bytes values are recognised by content; image facts come from the header."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.tf_oracle import tf
from tfr_viewer.core.decode.detect import detect, image_info
from tfr_viewer.core.write.build import build_example


@pytest.mark.parametrize(
    "fmt,pil,mode",
    [
        ("jpeg", "JPEG", "RGB"),
        ("png", "PNG", "RGBA"),
        ("gif", "GIF", "P"),
        ("bmp", "BMP", "RGB"),
        ("webp", "WEBP", "RGB"),
        ("tiff", "TIFF", "L"),
    ],
)
def test_images_by_magic_number(fmt, pil, mode):
    img = Image.new(mode, (37, 21), 0 if mode in ("P", "L") else (10, 20, 30, 255)[: len(mode)])
    buf = io.BytesIO()
    img.save(buf, format=pil)
    data = buf.getvalue()
    assert detect(data) == fmt
    info = image_info(data)
    assert (info.format, info.width, info.height) == (fmt, 37, 21)


def test_truncated_image_still_has_header_facts_and_garbage_does_not():
    buf = io.BytesIO()
    Image.new("RGB", (64, 48)).save(buf, format="PNG")
    head = buf.getvalue()[:-5]  # pixels cut short; the header is intact
    info = image_info(head)
    assert info is not None and (info.width, info.height) == (64, 48)
    assert image_info(b"\x89PNG\r\n\x1a\n" + b"\x00" * 5) is None


def test_tensor_example_text_bytes():
    assert detect(tf().io.serialize_tensor([[1.0, 2.0]]).numpy()) == "tensor"
    assert detect(build_example({"k": [1, 2]})) == "example"
    assert detect(b"cat") == "text"
    assert detect(b"\x00\x01\x02\x03") == "bytes"
    assert detect(b"") == "bytes"
    assert detect(b"BM not a bitmap header") == "text"
