"""Editing a feature's whole list of values: a multi-line editor as wide as the window
allows, that wraps long lists and counts what it holds as the user types.

The text is the one :func:`tfr_viewer.core.write.edits.parse_values` reads: numbers
separated by commas or line breaks, or for bytes a single text or a JSON list of texts;
:func:`values_text` writes a record's values so.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFontDatabase, QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from ...core.decode import decode, features_of
from ...core.text import float_text
from ...core.write import EditError, edits as core_edits

WIDTH_SHARE = 0.6  # of the parent window's width
MIN_WIDTH = 520  # pixels, whatever the parent


class ValuesEditor(QDialog):
    """``key (kind)`` above a wrapping editor; below it the count of values the text
    holds or why it cannot be stored. Ctrl+Enter or OK accepts, Esc cancels."""

    def __init__(self, parent: QWidget | None, title: str, key: str, kind: str, text: str):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("values_editor")
        self.key, self.kind = key, kind
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"{key} ({kind}):"))
        self.editor = QPlainTextEdit(text)
        self.editor.setObjectName("values_text")
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.editor.selectAll()
        layout.addWidget(self.editor, 1)
        self.count = QLabel()
        self.count.setObjectName("values_count")
        layout.addWidget(self.count)
        hint = "Separate numbers by commas or new lines." if kind != "bytes" else ""
        hint += " Ctrl+Enter to apply."
        layout.addWidget(QLabel(hint.strip()))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        layout.addWidget(buttons)
        self.editor.installEventFilter(self)
        self.editor.textChanged.connect(self._count)
        self._count()
        width = int(parent.width() * WIDTH_SHARE) if parent is not None else MIN_WIDTH
        lines = min(12, max(4, text.count("\n") + len(text) // 60 + 2))
        height = self.editor.fontMetrics().lineSpacing() * lines + 140
        self.resize(max(MIN_WIDTH, width), height)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Ctrl+Enter in the editor applies (a plain Enter starts a new line)."""
        if (
            watched is self.editor
            and isinstance(event, QKeyEvent)
            and event.type() == QEvent.Type.KeyPress
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.accept()
            return True
        return super().eventFilter(watched, event)

    def text(self) -> str:
        return self.editor.toPlainText()

    def accept(self) -> None:
        if self.ok.isEnabled():
            super().accept()

    def _count(self) -> None:
        try:
            values = core_edits.parse_values(self.text(), self.kind, self.key)
        except EditError as exc:
            self.count.setText(str(exc))
            self.ok.setEnabled(False)
            return
        self.count.setText(f"{len(values):,} value" + ("" if len(values) == 1 else "s"))
        self.ok.setEnabled(True)


def ask_values(parent: QWidget, title: str, key: str, kind: str, text: str) -> str | None:
    """The edited text, or None when cancelled."""
    dialog = ValuesEditor(parent, title, key, kind, text)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    return dialog.text() if dialog.exec() == QDialog.DialogCode.Accepted else None


def values_text(payload: bytes, key: str) -> tuple[str, str]:
    """The kind of ``key``'s values in ``payload`` and their text as the editor shows
    it: one text as it is, several as a JSON list; numbers comma-separated, floats as
    the tree shows them (0.1, not 0.10000000149011612). A key the record lacks is
    ``("bytes", "")``."""
    features = features_of(decode(payload).payload) or {}
    fd = features.get(key)
    if fd is None:
        return "bytes", ""
    if fd.kind == "bytes":
        texts = [v.decode("utf-8", "replace") for v in fd.values]
        return "bytes", texts[0] if len(texts) == 1 else json.dumps(texts)
    if fd.kind == "float":
        return fd.kind, ", ".join(float_text(v) for v in fd.items())
    return fd.kind, ", ".join(str(v) for v in fd.items())
