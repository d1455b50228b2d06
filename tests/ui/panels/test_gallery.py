"""The gallery decodes thumbnails in workers and opens records on activation."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.conftest import open_and_wait
from tfr_viewer.ui.panels.gallery import _placeholder


def test_thumbnails_arrive_and_activation_opens_the_record(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.left_tabs.setCurrentIndex(1)
    model = window.gallery.thumbs
    assert model.rowCount() == 24
    model.data(model.index(3), Qt.ItemDataRole.DecorationRole)  # asks for a thumbnail
    qtbot.waitUntil(
        lambda: model.data(model.index(3), Qt.ItemDataRole.DecorationRole) is not _placeholder(),
        timeout=10_000,
    )
    icon = model.data(model.index(3), Qt.ItemDataRole.DecorationRole)
    assert max(icon.availableSizes()[0].width(), icon.availableSizes()[0].height()) <= 128
    with qtbot.waitSignal(window.record_shown):
        window.gallery.activated.emit(model.index(7))
    assert window.current == 7
