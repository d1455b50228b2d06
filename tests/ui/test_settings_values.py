"""A settings file edited by hand, left by another version or written to attack: the
window opens whatever it holds, and forgets what it cannot read."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from tfr_viewer.ui.label_maps import SETTING as MAPS
from tfr_viewer.ui.layout_keys import SETTING as KEYS

HOSTILE = {
    "geometry": "not a byte array",
    "window-state": 12,
    KEYS: "[" * 3000 + "]" * 3000,
    "columns/offset": "abc",
    "columns/length": str(10**20),
    "columns/status": "-5",
    MAPS: ["a", "list"],
}


@pytest.fixture
def settings():
    s = QSettings("tfr-viewer", "tfr-viewer")
    yield s
    for key in [*HOSTILE, "recent", "recent_urls"]:
        s.remove(key)


def test_the_window_opens_and_forgets_what_it_cannot_read(qtbot, settings, samples):
    from tests.ui.conftest import open_and_wait
    from tfr_viewer.ui.main_window import MainWindow

    for key, value in HOSTILE.items():
        settings.setValue(key, value)
    settings.setValue("recent", [f"/data/shard-{i:06d}.tfrecord" for i in range(100_000)])
    settings.sync()
    window = MainWindow()
    window.remember_geometry = False
    qtbot.addWidget(window)
    window.show()
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    table = window.table
    columns = window.model.columns()
    for name in ("offset", "length", "status"):
        assert 8 <= table.columnWidth(columns.index(name)) < 4000, name
    assert window.session.keymap == type(window.session.keymap)()  # no keys named
    assert len(window.recent_menu.actions()) <= 12  # ten files, and the menu's own
    assert window.label_maps._kept() == {}
    settings.sync()
    for key in HOSTILE:  # forgotten (a column's width is remembered anew as it is sized)
        value = settings.value(key)
        assert value is None or (key.startswith("columns/") and 8 <= int(value) < 4000), key
    assert len(settings.value("recent")) <= 10
    window.close_dataset()


def test_remembered_values_that_are_right_are_kept(qtbot, settings):
    from tfr_viewer.ui.settings_values import read_int, read_json_object, read_texts

    settings.setValue("columns/offset", 120)
    settings.setValue(KEYS, '{"image": "image/encoded"}')
    settings.setValue("recent_urls", ["gs://b/x.tfrecord"])
    assert read_int(settings, "columns/offset", 8, 4000) == 120
    assert read_json_object(settings, KEYS) == {"image": "image/encoded"}
    assert read_texts(settings, "recent_urls") == ["gs://b/x.tfrecord"]
    settings.setValue("recent_urls", {"a": 1})
    assert read_texts(settings, "recent_urls") == [] and settings.value("recent_urls") is None
