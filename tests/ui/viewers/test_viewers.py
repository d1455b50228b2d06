"""Viewers: images (layouts, raw pixels, broken bytes), tensors, hex paging."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from tests.tf_oracle import tf
from tfr_viewer.core.decode.layouts import recognise
from tfr_viewer.core.decode.payloads import decode
from tfr_viewer.core.write.build import build_example
from tfr_viewer.ui.viewers.hex_view import PAGE, HexViewer
from tfr_viewer.ui.viewers.image_view import ImageViewer
from tfr_viewer.ui.viewers.preview import PreviewPane
from tfr_viewer.ui.viewers.tensor_view import TensorViewer


def png(w=20, h=10) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), (200, 10, 10)).save(buf, format="PNG")
    return buf.getvalue()


def annotations(values, kinds=None):
    return recognise(decode(build_example(values, kinds)).payload.features)


def test_image_with_boxes_and_a_switch_between_images(qtbot):
    viewer = ImageViewer()
    qtbot.addWidget(viewer)
    anns = annotations(
        {
            "image/encoded": png(),
            "thumb": png(4, 4),
            "image/object/bbox/xmin": [0.1],
            "image/object/bbox/ymin": [0.1],
            "image/object/bbox/xmax": [0.5],
            "image/object/bbox/ymax": [0.5],
            "image/object/class/text": ["dog"],
        },
        kinds={
            k: "float"
            for k in (
                "image/object/bbox/xmin",
                "image/object/bbox/ymin",
                "image/object/bbox/xmax",
                "image/object/bbox/ymax",
            )
        },
    )
    viewer.set_annotations(anns)
    assert viewer.chooser.count() == 2 and not viewer.chooser.isHidden()
    items = viewer.view.scene().items()
    assert any(type(i).__name__ == "QGraphicsRectItem" for i in items)
    viewer.overlays.setChecked(False)
    assert not any(type(i).__name__ == "QGraphicsRectItem" for i in viewer.view.scene().items())
    viewer.chooser.setCurrentIndex(1)
    assert "4×4" in viewer.info.text()


def test_raw_pixels_and_an_undecodable_image(qtbot):
    viewer = ImageViewer()
    qtbot.addWidget(viewer)
    viewer.set_annotations(
        annotations({"image_raw": bytes(range(48)), "height": 4, "width": 4, "depth": 3})
    )
    assert viewer.info.text().startswith("image_raw: 4×4")
    broken = png()[:30] + b"\x00" * 30
    with qtbot.waitSignal(viewer.image_shown) as blocker:
        viewer.set_annotations(annotations({"image/encoded": broken}))
    assert "cannot show this image" in blocker.args[0]


def test_tensor_table_and_image(qtbot):
    viewer = TensorViewer()
    qtbot.addWidget(viewer)
    data = tf().io.serialize_tensor(np.arange(24, dtype=np.uint8).reshape(4, 6)).numpy()
    viewer.set_tensor(decode(data).payload)
    assert viewer.model.rowCount() == 4 and viewer.model.columnCount() == 6
    assert not viewer.image.isHidden()
    assert "uint8, shape 4×6" in viewer.info.text()


def test_hex_pages(qtbot):
    viewer = HexViewer()
    qtbot.addWidget(viewer)
    viewer.set_data(bytes(range(256)) * (PAGE // 128))
    assert viewer.pages() == 2 and not viewer.prev.isEnabled()
    viewer.next.click()
    assert viewer.page == 1 and viewer.text.toPlainText().startswith(f"{PAGE:08x}")


def test_preview_picks_the_useful_tab(qtbot):
    pane = PreviewPane()
    qtbot.addWidget(pane)
    pane.show_record(decode(b"some text"), b"some text")
    assert pane.currentWidget() is pane.text
    pane.show_record(decode(b"\xff\x00\x01"), b"\xff\x00\x01")
    assert pane.currentWidget() is pane.hex
    raw = build_example({"image": png()})
    pane.show_record(decode(raw), raw)
    assert pane.currentWidget() is pane.images


def test_the_preview_offers_each_record_to_its_viewers_in_order(qtbot, monkeypatch):
    """A viewer added to the table is offered every record; the first with something
    to show comes forward, and the hex view when none has."""
    from PySide6.QtWidgets import QLabel

    from tfr_viewer.ui.viewers import preview

    class Sizes(QLabel):
        def offer(self, decoded):
            features = getattr(decoded.payload, "features", None)
            return len(features) if features and "size_me" in features else None

        def present(self, n):
            self.setText(f"{n} features")

    monkeypatch.setattr(preview, "VIEWERS", (*preview.VIEWERS, ("sizes", "Sizes", Sizes)))
    pane = PreviewPane()
    qtbot.addWidget(pane)
    sizes = pane.viewers["sizes"]
    t = tf().train
    plain = t.Example(
        features=t.Features(feature={"size_me": t.Feature(int64_list=t.Int64List(value=[1]))})
    ).SerializeToString()
    pane.show_record(decode(plain), plain)
    assert pane.currentWidget() is sizes and sizes.text() == "1 features"
    with_image = build_example({"image/encoded": [png()], "size_me": [1]})
    pane.show_record(decode(with_image), with_image)
    assert pane.currentWidget() is pane.images  # earlier in the table
    assert pane.isTabEnabled(pane.indexOf(sizes))
    text = b"just some words"
    pane.show_record(decode(text), text)
    assert pane.currentWidget() is pane.text and not sizes.text()  # cleared
    assert not pane.isTabEnabled(pane.indexOf(sizes))
    blob = bytes(range(256))
    pane.show_record(decode(blob), blob)
    assert pane.currentWidget() is pane.hex
