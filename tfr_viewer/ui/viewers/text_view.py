"""Plain text of a payload or a value."""

from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit, QWidget

from ...core.decode import Decoded, TextPayload

MAX_CHARS = 2_000_000


class TextViewer(QPlainTextEdit):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)

    # -- as a viewer of the preview (see preview.VIEWERS) ---------------------------
    def offer(self, decoded: Decoded) -> str | None:
        """A text payload's text."""
        p = decoded.payload
        return p.text if isinstance(p, TextPayload) else None

    def present(self, text: str) -> None:
        self.set_text(text)

    def set_text(self, text: str) -> None:
        more = len(text) - MAX_CHARS
        self.setPlainText(text[:MAX_CHARS] + (f"\n… {more:,} more characters" if more > 0 else ""))
