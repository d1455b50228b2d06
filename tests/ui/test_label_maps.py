"""The classes offered for a box are every class the dataset is known to have: a label
map found beside the data, or opened from the menu and remembered for the dataset, and
the classes of the records sampled when it opened, not only the picture's boxes."""

from __future__ import annotations

import shutil

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog

from tests.ui.conftest import open_and_wait
from tfr_viewer.ui import file_dialogs

MAP = """item { id: 1 name: 'circle' }
item { id: 2 name: 'square' }
item { id: 3 name: 'triangle' }
item { id: 4 name: 'hexagon' }
"""


def _offered(monkeypatch) -> list[list[str]]:
    offered: list[list[str]] = []

    def get_item(parent, title, label, items, current, editable):
        offered.append(list(items))
        return "", False  # cancelled: nothing changes

    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(get_item))
    return offered


def _press_c_on_box_0(qtbot, window):
    from tests.ui.viewers.test_box_picker import _click_box

    viewer = window.preview.images
    qtbot.waitUntil(lambda: len(viewer.picker.boxes) > 0, timeout=5000)
    _click_box(qtbot, viewer, 0)
    qtbot.keyClick(viewer.view, Qt.Key.Key_C)


def test_a_label_map_beside_the_data_names_every_class(
    qtbot, window, samples, tmp_path, monkeypatch
):
    data = tmp_path / "shapes.tfrecord"
    shutil.copy(samples / "shapes_odapi.tfrecord", data)
    (tmp_path / "shapes_label_map.pbtxt").write_text(MAP)
    offered = _offered(monkeypatch)
    open_and_wait(qtbot, window, [data])
    qtbot.waitUntil(lambda: window.label_maps.names != {}, timeout=5000)
    window.select_record(5)
    _press_c_on_box_0(qtbot, window)
    assert "4 hexagon" in offered[-1] and "2 square" in offered[-1]


def test_a_label_map_opened_from_the_menu_is_remembered(
    qtbot, window, samples, tmp_path, monkeypatch
):
    data = tmp_path / "shapes.tfrecord"
    shutil.copy(samples / "shapes_odapi.tfrecord", data)
    elsewhere = tmp_path / "maps"
    elsewhere.mkdir()
    (elsewhere / "classes.pbtxt").write_text(MAP)
    open_and_wait(qtbot, window, [data])
    monkeypatch.setattr(file_dialogs, "open_file", lambda *a, **k: str(elsewhere / "classes.pbtxt"))
    window.menus.action("analyze.label_map").trigger()
    assert window.label_maps.names[4] == "hexagon"
    window.close_dataset()
    assert window.label_maps.names == {}
    offered = _offered(monkeypatch)
    open_and_wait(qtbot, window, [data])  # the same dataset again: its map again
    qtbot.waitUntil(lambda: window.label_maps.names != {}, timeout=5000)
    window.select_record(5)
    _press_c_on_box_0(qtbot, window)
    assert "4 hexagon" in offered[-1]


def test_the_sampled_records_classes_are_known_before_any_statistics(qtbot, window, samples):
    """(A new box drawn on a picture without boxes is offered these too.)"""
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    assert window.analysis.stats is None
    known = window.analysis.known_classes()
    assert {(1, "circle"), (2, "square"), (3, "triangle")} <= set(known)
