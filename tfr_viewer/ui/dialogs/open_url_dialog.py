"""File › Open URL…: a URL, a bucket glob or several of them, with the last ones offered."""

from __future__ import annotations

import importlib.util

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from ..settings_values import read_texts

MAX_URLS = 15
_EXTRAS = (("gs://", "gcsfs", "gcs"), ("s3://", "s3fs", "s3"))


def backends_text() -> str:
    """Which protocols work here, and the extra that adds each missing one."""
    lines = ["http:// and https:// are always available."]
    for prefix, module, extra in _EXTRAS:
        if importlib.util.find_spec(module) is not None:
            lines.append(f"{prefix} is available.")
        else:
            lines.append(f"{prefix} needs: pip install 'tfr-viewer[{extra}]'")
    return "\n".join(lines)


def split_urls(text: str) -> list[str]:
    """The URLs typed, separated by spaces or new lines."""
    return [part for part in text.split() if part]


class OpenUrlDialog(QDialog):
    """``urls()`` after ``exec()``: what to open. Accepted URLs are remembered."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Open URL")
        self.setMinimumWidth(560)
        self._settings = settings
        self.combo = QComboBox(self)
        self.combo.setEditable(True)
        self.combo.addItems(self.remembered())
        self.combo.setCurrentText("")
        edit = self.combo.lineEdit()
        assert edit is not None  # an editable combo box has one
        edit.setPlaceholderText("gs://bucket/train-*   s3://bucket/data.tfrecord   https://…")
        edit.setClearButtonEnabled(True)
        hint = QLabel(
            "A file, a glob over a bucket (gs://bucket/prefix/train-*), a shard spec "
            "(…/train@64) or a folder. Credentials come from the environment or each "
            "cloud's default login; none are stored.\n\n" + backends_text(),
            self,
        )
        hint.setWordWrap(True)
        hint.setStyleSheet("color: palette(mid)")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self._open = buttons.button(QDialogButtonBox.StandardButton.Open)
        self.combo.editTextChanged.connect(lambda text: self._open.setEnabled(bool(text.strip())))
        self._open.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("URL:", self))
        layout.addWidget(self.combo)
        layout.addWidget(hint)
        layout.addWidget(buttons)

    def remembered(self) -> list[str]:
        return read_texts(self._settings, "recent_urls")

    def urls(self) -> list[str]:
        return split_urls(self.combo.currentText())

    def accept(self) -> None:
        text = self.combo.currentText().strip()
        if text:
            kept = [text] + [u for u in self.remembered() if u != text]
            self._settings.setValue("recent_urls", kept[:MAX_URLS])
        super().accept()
