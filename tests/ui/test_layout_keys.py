"""View › Layout Keys…: the keys named are remembered for the next window, a key a
record lacks is guessed there, and a setting not understood is left alone."""

from __future__ import annotations

from tests.ui.conftest import open_and_wait
from tests.ui.viewers.test_box_layouts import RENAMED
from tfr_viewer.core.decode.layouts import KeyMap


def test_layout_keys_are_remembered_and_guessed_where_a_record_lacks_them(
    qtbot, window, tmp_path, samples
):
    from tfr_viewer.ui.main_window import MainWindow

    window.layout_keys.set_keymap(KeyMap(image="photo", **RENAMED, label="kind"))
    try:
        again = MainWindow()
        qtbot.addWidget(again)
        assert again.session.keymap.xmin == "left" and again.session.keymap.label == "kind"
        # a dataset with the usual names: the named keys are missing, so guessed
        open_and_wait(qtbot, again, [samples / "shapes_odapi.tfrecord"])
        again.select_record(5)
        qtbot.waitUntil(lambda: len(again.preview.images.picker.boxes) == 3, timeout=5000)
        again.close_dataset()
        for damaged in ("[1, 2", '["left"]', '{"xmin": 7, "nope": "x"}'):
            window.settings.setValue("layout-keys", damaged)  # a setting not understood
            fresh = MainWindow()
            qtbot.addWidget(fresh)
            assert fresh.session.keymap == KeyMap()
    finally:
        window.layout_keys.set_keymap(KeyMap())
