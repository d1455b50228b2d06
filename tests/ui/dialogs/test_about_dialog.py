"""Help › About lists the versions actually installed."""

from __future__ import annotations

from importlib import metadata

from PySide6.QtCore import qVersion
from PySide6.QtWidgets import QApplication, QLabel

from tfr_viewer import __version__
from tfr_viewer.ui.dialogs.about_dialog import AboutDialog


def test_about_lists_library_versions(qtbot):
    dialog = AboutDialog()
    qtbot.addWidget(dialog)
    shown = " ".join(label.text() for label in dialog.findChildren(QLabel))
    assert f"tfr-viewer {__version__}" in shown
    for dist in ("numpy", "protobuf", "Pillow", "rapidgzip", "google-crc32c"):
        assert metadata.version(dist) in shown, dist
    assert qVersion() in shown
    dialog.copy_versions()
    copied = QApplication.clipboard().text()
    assert copied.startswith(f"tfr-viewer {__version__}\n")
    assert f"numpy: {metadata.version('numpy')}" in copied


def test_help_menu_opens_it(qtbot, window, monkeypatch):
    shown = []
    monkeypatch.setattr(AboutDialog, "exec", lambda self: shown.append(self.rows) or 0)
    window.about()
    assert shown and shown[0][0][0] == "Python"
