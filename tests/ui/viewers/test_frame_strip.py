"""A SequenceExample's frames in the window: the Image tab shows frame 0 with a strip
under it (arrows, a slider, ``[`` and ``]``), and the gallery's tile is frame 0."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.core.decode.payloads.test_sequence import clip
from tests.ui.conftest import open_and_wait
from tfr_viewer.ui.panels.gallery import _placeholder


def test_the_frames_of_a_clip_are_shown_and_stepped_through(qtbot, window, tmp_path):
    path, _pictures = clip(tmp_path, frames=5)
    open_and_wait(qtbot, window, [path])
    with qtbot.waitSignal(window.record_shown):
        window.select_record(0)
    preview = window.preview
    images = preview.images
    assert preview.isTabEnabled(preview.indexOf(images))
    assert preview.currentWidget() is images
    strip = images.frames
    assert strip.isVisible() and strip.slider.maximum() == 4
    assert images.info.text().startswith("frames: 96×64") and "frames layout" in images.info.text()
    assert strip.label.text() == "frames: frame 0 of 5"
    strip.next.click()  # the arrow
    assert images.chooser.currentIndex() == 1 and strip.label.text() == "frames: frame 1 of 5"
    images.setFocus()
    qtbot.keyClick(images, Qt.Key.Key_BracketRight)
    qtbot.keyClick(images, Qt.Key.Key_BracketRight)
    assert strip.slider.value() == 3
    qtbot.keyClick(images, Qt.Key.Key_BracketLeft)
    assert images.chooser.currentIndex() == 2
    strip.slider.setValue(4)  # a drag ends here
    assert images.chooser.currentIndex() == 4
    qtbot.keyClick(images, Qt.Key.Key_BracketRight)  # past the last: stays
    assert strip.slider.value() == 4

    window.menus.action("view.gallery").trigger()
    model = window.gallery.thumbs
    model.data(model.index(0), Qt.ItemDataRole.DecorationRole)
    qtbot.waitUntil(
        lambda: model.data(model.index(0), Qt.ItemDataRole.DecorationRole) is not _placeholder(),
        timeout=10_000,
    )
    cached = model._cache.get(model.record_at(0))
    assert cached is not None and not isinstance(cached, str)  # a picture, not "no image"
