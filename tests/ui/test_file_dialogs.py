"""The window's file dialogs, used as a user uses them: File › Open… shows a dialog sized
to the window whose columns show names, sizes, types and dates whole, and the file
chosen in it is opened."""

from __future__ import annotations

import shutil

from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QFileDialog, QLineEdit, QTreeView

from tests.ui.modal import when_shown
from tests.ui.test_first_hour import trigger
from tfr_viewer.ui.screen_fit import FRAME


def _when_shown(act):
    return when_shown(QFileDialog, act)


def test_open_shows_names_and_dates_whole_and_opens_the_choice(qtbot, window, samples, tmp_path):
    name = "train.tfrecord-00000-of-00064"
    shutil.copy(samples / "shapes_odapi.tfrecord", tmp_path / name)
    window.recent.remember([str(tmp_path / name)])  # the dialog starts in its folder
    looked: dict = {}

    def act(dialog):
        view = next(v for v in dialog.findChildren(QTreeView) if v.isVisible())
        qtbot.waitUntil(lambda: view.model().rowCount(view.rootIndex()) > 0, timeout=10_000)
        looked["size"] = dialog.size()
        header = view.header()
        looked["clipped"] = [
            c
            for c in range(1, header.count())
            if not header.isSectionHidden(c) and header.sectionSize(c) < view.sizeHintForColumn(c)
        ]
        looked["name_room"] = header.sectionSize(0)
        looked["name_needs"] = QFontMetrics(view.font()).horizontalAdvance(name)
        edit = dialog.findChild(QLineEdit, "fileNameEdit")
        edit.setText(name)
        dialog.accept()

    shown = _when_shown(act)
    with qtbot.waitSignal(window.index_finished, timeout=30_000):
        trigger(window, "File › Open…")
    assert shown and not isinstance(shown[-1], BaseException), shown
    available = window.screen().availableGeometry()
    assert looked["size"].width() >= min(900, available.width() - FRAME.width())
    assert looked["clipped"] == []  # size, type and date whole
    assert looked["name_room"] > looked["name_needs"]
    assert [f.path for f in window.session.dataset.files] == [str(tmp_path / name)]


def test_cancel_opens_nothing(qtbot, window):
    def act(dialog):
        dialog.reject()

    shown = _when_shown(act)
    trigger(window, "File › Open…")
    assert shown and window.session.dataset is None
