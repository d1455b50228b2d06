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


def _icon_image(window, row):
    icon = window.gallery.thumbs.data(
        window.gallery.thumbs.index(row), Qt.ItemDataRole.DecorationRole
    )
    size = icon.availableSizes()[0]
    return icon.pixmap(size).toImage()


def _wait_thumb(qtbot, window, row):
    qtbot.waitUntil(
        lambda: (
            window.gallery.thumbs._cache.get(window.gallery.thumbs.record_at(row)) is not None
            and window.gallery.thumbs.data(
                window.gallery.thumbs.index(row), Qt.ItemDataRole.DecorationRole
            )
            is not _placeholder()
        ),
        timeout=10_000,
    )


def test_the_gallery_follows_the_selection_and_hides_hidden_classes(qtbot, window, samples):
    from dataclasses import replace

    from tfr_viewer.core.decode import annotated_thumbnail, decode, features_of, recognise
    from tfr_viewer.ui.panels.gallery import SIZE
    from tfr_viewer.ui.viewers.image_view import to_qimage

    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.menus.action("view.gallery").trigger()  # Ctrl+2
    window.table.setFocus()
    window.select_record(5)
    gallery = window.gallery
    assert gallery.currentIndex().row() == 5 and gallery.selectionModel().isSelected(
        gallery.currentIndex()
    )
    window.select_record(11)  # the table moves on: so does the gallery
    assert gallery.currentIndex().row() == 11

    # record 2 holds one triangle; hiding the class "triangle" takes its box away
    gallery.thumbs.data(gallery.thumbs.index(2), Qt.ItemDataRole.DecorationRole)
    _wait_thumb(qtbot, window, 2)
    before = _icon_image(window, 2)
    window.menus.action("panel.classes").trigger()
    classes = window.analysis.classes
    qtbot.waitUntil(lambda: classes.list.count() == 3, timeout=60_000)
    assert gallery.currentIndex().row() == 11  # the panel's classes redraw the tiles
    classes.list.item(2).setCheckState(Qt.CheckState.Unchecked)  # 3 triangle
    assert gallery.currentIndex().row() == 11  # and so does hiding one: still chosen
    gallery.thumbs.data(gallery.thumbs.index(2), Qt.ItemDataRole.DecorationRole)
    _wait_thumb(qtbot, window, 2)
    after = _icon_image(window, 2)
    ann = recognise(features_of(decode(window.dataset.read(2)).payload))[0]
    bare = to_qimage(annotated_thumbnail(replace(ann, boxes=()), SIZE))
    assert after != before
    assert after.convertToFormat(bare.format()) == bare


def test_the_gallery_columns_share_its_width(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.menus.action("view.gallery").trigger()
    gallery = window.gallery
    for size in ((1366, 768), (1920, 1080), (1000, 700)):
        window.resize(*size)
        qtbot.waitUntil(lambda: gallery.gridSize().width() > 0)
        qtbot.wait(50)  # the layout follows the resize
        width, cell = gallery.viewport().width(), gallery.gridSize().width()
        columns = width // cell
        assert columns >= 1 and width - columns * cell < columns + 1, (size, width, cell)


def test_the_gallery_drives_the_panes_and_del_acts_on_what_is_highlighted(qtbot, window, samples):
    """Click a tile, move with the keys: the panes and the status bar follow; Del
    deletes the highlighted record (and Shift+arrows widen what Del takes)."""
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.menus.action("view.gallery").trigger()  # Ctrl+2
    gallery = window.gallery
    qtbot.waitUntil(gallery.isVisible)
    index = gallery.thumbs.index(19)
    gallery.scrollTo(index)
    with qtbot.waitSignal(window.record_shown):
        qtbot.mouseClick(
            gallery.viewport(), Qt.MouseButton.LeftButton, pos=gallery.visualRect(index).center()
        )
    assert window.current == 19
    gallery.setFocus()
    with qtbot.waitSignal(window.record_shown):
        qtbot.keyClick(gallery, Qt.Key.Key_Right)
    assert window.current == 20 and gallery.currentIndex().row() == 20
    assert window.statusBar().currentMessage().startswith("record 20:")
    qtbot.keyClick(gallery, Qt.Key.Key_Delete)
    edits = window.edit_actions.editor
    assert edits is not None
    assert window.edit_actions.is_deleted(20) and not window.edit_actions.is_deleted(19)
    assert gallery.currentIndex().row() == 20  # the highlight stays where it was
    with qtbot.waitSignal(window.record_shown):
        qtbot.keyClick(gallery, Qt.Key.Key_Right)
    qtbot.keyClick(gallery, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert sorted(window.edit_actions.selected_records()) == [21, 22]
    qtbot.keyClick(gallery, Qt.Key.Key_Delete)
    assert window.edit_actions.is_deleted(21) and window.edit_actions.is_deleted(22)
    assert not window.edit_actions.is_deleted(23)


def test_tfds_captions_name_the_classes_as_the_tree_does(qtbot, window):
    """A TFDS folder's ClassLabel names: the tiles say them, not "class 2"."""
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "data" / "tfds" / "shapes" / "1.0.0"
    names = (folder / "label.labels.txt").read_text().split()
    open_and_wait(qtbot, window, [folder])
    window.menus.action("view.gallery").trigger()
    model = window.gallery.thumbs
    model.data(model.index(0), Qt.ItemDataRole.DecorationRole)
    _wait_thumb(qtbot, window, 0)
    caption = model.data(model.index(0), Qt.ItemDataRole.DisplayRole)
    assert any(f"{name} (" in caption for name in names), caption
    assert "class " not in caption


def test_a_gallery_made_late_shows_what_the_window_shows(qtbot, window, samples):
    """The gallery is made when its tab is first shown; a class hidden before then is
    hidden in its first tiles, and it starts on the record the window shows."""
    from dataclasses import replace

    from tfr_viewer.core.decode import annotated_thumbnail, decode, features_of, recognise
    from tfr_viewer.ui.panels.gallery import SIZE
    from tfr_viewer.ui.viewers.image_view import to_qimage

    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.select_record(9)
    assert window._gallery is None  # opening a file makes no gallery
    window.menus.action("panel.classes").trigger()
    classes = window.analysis.classes
    qtbot.waitUntil(lambda: classes.list.count() == 3, timeout=60_000)
    classes.list.item(2).setCheckState(Qt.CheckState.Unchecked)  # 3 triangle
    assert window._gallery is None
    window.menus.action("view.gallery").trigger()  # Ctrl+2
    gallery = window.gallery
    qtbot.waitUntil(gallery.isVisible)
    assert gallery.thumbs.rowCount() == 24
    assert gallery.currentIndex().row() == 9
    gallery.thumbs.data(gallery.thumbs.index(2), Qt.ItemDataRole.DecorationRole)
    _wait_thumb(qtbot, window, 2)
    ann = recognise(features_of(decode(window.dataset.read(2)).payload))[0]
    bare = to_qimage(annotated_thumbnail(replace(ann, boxes=()), SIZE))
    assert _icon_image(window, 2).convertToFormat(bare.format()) == bare
