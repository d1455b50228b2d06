"""Opening a folder of several TensorFlow Datasets datasets in the window: it asks
which (each with its versions and splits) and opens that one's newest version."""

from __future__ import annotations

from pathlib import Path

from tests.core.io.test_tfds_catalog import data_folder


def test_the_window_asks_which_dataset_to_open(qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    from tfr_viewer.ui.main_window import MainWindow

    data = data_folder(tmp_path)
    asked = []

    def pick(parent, title, label, items, current, editable):
        asked.append(items)
        return next(i for i in items if i.startswith("shapes")), True

    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(pick))
    window = MainWindow()
    window.remember_geometry = False
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.index_finished, timeout=30_000):
        assert window.open_paths([str(data)])
    assert len(asked) == 1 and any("train 12" in item for item in asked[0])
    assert {Path(f.path).parent.name for f in window.dataset.files} == {"1.1.0"}
    assert window.model.rowCount() == 12
    window.close_dataset()
