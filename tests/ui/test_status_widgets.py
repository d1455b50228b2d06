"""The status bar's permanent widgets: the note that the compiled core is missing."""

from __future__ import annotations

from PySide6.QtWidgets import QStatusBar

from tfr_viewer.core import fast
from tfr_viewer.ui.status_widgets import StatusWidgets


def test_the_pure_python_note_shows_only_when_the_core_is_missing(qtbot, monkeypatch):
    bar = QStatusBar()
    qtbot.addWidget(bar)
    monkeypatch.setattr(fast, "_module", None)
    monkeypatch.delenv(fast.ENV, raising=False)
    missing = StatusWidgets(bar)
    assert not missing.slow.isHidden()
    assert "reinstall tfr-viewer with a C compiler" in missing.slow.toolTip()
    monkeypatch.setenv(fast.ENV, "1")  # the user chose the pure-Python path
    assert StatusWidgets(bar).slow.isHidden()
    monkeypatch.setattr(fast, "_module", object())  # built
    monkeypatch.delenv(fast.ENV)
    assert StatusWidgets(bar).slow.isHidden()
