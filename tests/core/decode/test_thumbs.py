"""Faulty boxes are drawn where their corners put them, marked, never an error: an
inverted box, one without width or height, one past the picture's edge. Those are the
records a user needs to see (the gallery, the notebook, ``check --html``)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from tests.program import program
from tests.tf_oracle import tf_write
from tfr_viewer.core.decode.layouts import Box, ImageAnnotation
from tfr_viewer.core.decode.thumbs import annotated_thumbnail
from tfr_viewer.core.write.build import build_example

FAULTY = {
    "inverted": (0.8, 0.2, 0.2, 0.8),  # xmin past xmax, ymin past ymax
    "zero_area": (0.5, 0.2, 0.5, 0.8),
    "point": (0.5, 0.5, 0.5, 0.5),
    "out_of_range": (0.6, 0.6, 1.5, 1.7),
}


def _grey_png(w: int = 100, h: int = 80) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (w, h), (128, 128, 128)).save(out, format="PNG")
    return out.getvalue()


@pytest.mark.parametrize("fault", sorted(FAULTY))
def test_a_faulty_box_is_drawn_and_marked(fault):
    xmin, ymin, xmax, ymax = FAULTY[fault]
    ann = ImageAnnotation(
        "image/encoded", 0, "odapi", _grey_png(), boxes=(Box(xmin, ymin, xmax, ymax, 1),)
    )
    pixels = annotated_thumbnail(ann, 100)
    drawn = np.any(pixels[..., :3] != 128, axis=-1)
    assert drawn.any()
    ys, xs = np.nonzero(drawn)
    # drawn about the box's corners, as far as the picture goes
    left, right = sorted((xmin * 100, xmax * 100))
    assert xs.min() <= max(left, 0) + 6 and xs.max() >= min(right, 99) - 6


def _record(tmp_path):
    coords = FAULTY["inverted"]
    payload = build_example(
        {
            "image/encoded": _grey_png(),
            "image/height": 80,
            "image/width": 100,
            "image/object/bbox/xmin": [coords[0]],
            "image/object/bbox/ymin": [coords[1]],
            "image/object/bbox/xmax": [coords[2]],
            "image/object/bbox/ymax": [coords[3]],
            "image/object/class/label": [1],
        },
        {f"image/object/bbox/{s}": "float" for s in ("xmin", "ymin", "xmax", "ymax")},
    )
    return tf_write(tmp_path / "boxes.tfrecord", [payload])


def test_the_notebook_and_the_check_report_show_the_record(tmp_path):
    import tfr_viewer as tfv

    path = _record(tmp_path)
    view = tfv.open(str(path))
    assert "<img" in view[0]._repr_html_() and "<img" in view._repr_html_()
    report = tmp_path / "report.html"
    done = program("check", "--html", str(report), str(path))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    html = report.read_text()
    assert "box_inverted" in html and 'alt="record 0"' in html


@pytest.mark.parametrize(
    "corners",
    [(0.1, 0.1, 3.4e38, 3.4e38), (-3.4e38, -3.4e38, 0.5, 0.5), (3.4e38, 0.2, -3.4e38, 0.8)],
)
def test_a_box_to_the_float_limit_is_drawn_as_far_as_the_picture(corners):
    """A box of 3.4e38 (a float32's limit) is given to Pillow within the picture and a
    margin: Pillow walks an outline pixel by pixel, so the whole box would be walked."""
    from PIL import ImageDraw

    from tfr_viewer.core.decode.thumbs import draw_box

    img = Image.new("RGB", (100, 80), (128, 128, 128))
    draw = ImageDraw.Draw(img)
    asked: list[tuple[float, ...]] = []
    for name in ("rectangle", "line"):
        real = getattr(draw, name)

        def spy(xy, *args, real=real, **kwargs):
            asked.append(tuple(xy))
            return real(xy, *args, **kwargs)

        setattr(draw, name, spy)
    w, h = img.size
    scaled = (corners[0] * w, corners[1] * h, corners[2] * w, corners[3] * h)
    draw_box(draw, scaled, "red", 2)
    assert asked
    for xy in asked:
        assert all(-20 <= v <= max(w, h) + 20 for v in xy), xy
    red = np.asarray(img)[..., 0] == 255
    assert red.any()  # drawn, as far as the picture goes
