"""How records and datasets show in a notebook (``_repr_html_``, what Jupyter calls):
the picture with its boxes as an inline PNG, the features, a page of rows with
thumbnails; every text escaped, whatever a record holds."""

from __future__ import annotations

import base64
import io
from html.parser import HTMLParser

import tfr_viewer as tfv
from tests.planted_faults import example_of
from tests.planted_labels import _png, labelled_dataset
from tests.tf_oracle import tf_write


class Page(HTMLParser):
    """The images (their ``src``), the tags, and the text of an HTML fragment."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.images: list[str] = []
        self.tags: list[str] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "img":
            self.images.append(dict(attrs)["src"])

    def handle_data(self, data):
        self.text.append(data)


def _png_size(src: str) -> tuple[int, int]:
    from PIL import Image

    assert src.startswith("data:image/png;base64,")
    return Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))).size


def test_a_record_shows_its_picture_with_boxes_and_its_features(tmp_path):
    ds = tfv.open(labelled_dataset(tmp_path / "labels.tfrecord", with_predictions=True))
    record = ds[7]
    page = Page(record._repr_html_())
    (src,) = page.images
    width, height = _png_size(src)
    assert max(width, height) <= 384 and width > height  # the 96×64 picture, scaled up
    text = "".join(page.text)
    assert "record 7" in text and "image/object/bbox/xmin" in text and "3 boxes" in text
    plain = Page(record._repr_html_().replace(src, ""))
    assert "script" not in plain.tags


def test_a_dataset_shows_a_page_of_rows_with_thumbnails(tmp_path):
    ds = tfv.open(labelled_dataset(tmp_path / "labels.tfrecord"))
    page = Page(ds._repr_html_())
    assert len(page.images) == 20 and all(max(_png_size(s)) <= 96 for s in page.images)
    assert "… 4 more" in "".join(page.text)
    view = ds.filter('f["image/source_id"] == "507"')
    shown = Page(view._repr_html_())
    assert len(shown.images) == 1 and "1 record in 1 file" in "".join(shown.text)


def test_what_a_record_holds_is_escaped(tmp_path):
    hostile = {
        "<script>alert(1)</script>": [b"<img src=x onerror=alert(1)>"],
        "image/encoded": [_png(1)],
        "note": [b"</table><b>"],
    }
    ds = tfv.open(tf_write(tmp_path / "hostile.tfrecord", [example_of(hostile)]))
    for text in (ds[0]._repr_html_(), ds._repr_html_()):
        page = Page(text)
        assert "script" not in page.tags and page.tags.count("img") == len(page.images)
        assert all(s.startswith("data:image/png") for s in page.images)
        assert "<script>alert(1)</script>" in "".join(page.text)  # shown, as text
