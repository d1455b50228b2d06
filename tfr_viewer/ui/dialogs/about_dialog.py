"""Help › About: the app's version and the versions of the libraries it runs on."""

from __future__ import annotations

import sys

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QGuiApplication, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ... import __version__
from ...versions import engine, library_versions
from .. import app_icon


def version_rows() -> list[tuple[str, str]]:
    """The rows the dialog shows: the libraries, then the Qt actually loaded and the
    window-system plugin in use."""
    rows = library_versions()
    rows.append(("Qt (loaded)", f"{qVersion()} (PySide6 {pyside_version})"))
    rows.append(("Window system", QGuiApplication.platformName() or "none"))
    rows.append(("Build", "bundle" if getattr(sys, "frozen", False) else "Python package"))
    rows.append(("Path", engine()))
    return rows


class AboutDialog(QDialog):
    """Modal; "Copy versions" puts the list on the clipboard for bug reports."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About tfr-viewer")
        self.setMinimumWidth(440)
        self.rows = version_rows()
        icon = QLabel(self)
        icon.setPixmap(QPixmap.fromImage(app_icon.image(96)))
        title = QLabel(
            f"<h2>tfr-viewer {__version__}</h2>"
            "<p>Inspect, verify and edit TensorFlow TFRecord files, without TensorFlow.</p>",
            self,
        )
        title.setWordWrap(True)
        head = QHBoxLayout()
        head.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        head.addWidget(title, 1)
        form = QFormLayout()
        for name, version in self.rows:
            value = QLabel(version, self)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            form.addRow(f"{name}:", value)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        copy = QPushButton("Copy versions", self)
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        copy.clicked.connect(self.copy_versions)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(head)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def text(self) -> str:
        return "\n".join([f"tfr-viewer {__version__}"] + [f"{n}: {v}" for n, v in self.rows])

    def copy_versions(self) -> None:
        QGuiApplication.clipboard().setText(self.text())
