"""The window's status bar: a message longer than the room left of the counts and the
problems button ends in "…" (its whole text in the tool tip) instead of being cut
under them, and the message asked about is the one that was shown."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStatusBar, QWidget

MARGIN = 12  # pixels between the message and the first widget on its right


class StatusBar(QStatusBar):
    """A :class:`QStatusBar` whose ``showMessage`` shortens what does not fit."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._whole = ""
        self._shown = ""
        self.messageChanged.connect(self._changed)

    def room(self) -> int:
        """The pixels the message has: up to the first widget shown on its right."""
        lefts = [
            w.geometry().left()
            for w in self.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
            if w.isVisible() and w.geometry().left() > 0
        ]
        return max(0, min(lefts, default=self.width()) - MARGIN)

    def _changed(self, text: str) -> None:
        if not text:  # cleared, or its time is up
            self.setToolTip("")

    def showMessage(self, text: str, timeout: int | None = 0) -> None:  # noqa: N802
        self._whole = text
        metrics = self.fontMetrics()
        self._shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, self.room())
        self.setToolTip(text if self._shown != text else "")
        super().showMessage(self._shown, timeout or 0)

    def currentMessage(self) -> str:  # noqa: N802
        shown = super().currentMessage()
        return self._whole if shown and shown == self._shown else shown
