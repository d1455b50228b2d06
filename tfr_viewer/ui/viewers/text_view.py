"""Plain text of a payload or a value."""

from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit, QWidget

MAX_CHARS = 2_000_000


class TextViewer(QPlainTextEdit):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)

    def set_text(self, text: str) -> None:
        more = len(text) - MAX_CHARS
        self.setPlainText(text[:MAX_CHARS] + (f"\n… {more:,} more characters" if more > 0 else ""))
