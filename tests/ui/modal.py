"""Answering a modal dialog the way a user does, from inside its event loop: the test
acts on the dialog once it is up (``exec()`` blocks the test until it closes)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog


def when_shown(kind: type[QDialog], act: Callable[[QDialog], None]) -> list:
    """Run ``act(dialog)`` once a modal ``kind`` is shown. The list returned holds the
    dialog once it was seen, then the exception ``act`` raised if it raised (the dialog
    is then closed, so that the test reports it instead of hanging)."""
    seen: list = []

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, kind):
            QTimer.singleShot(20, look)
            return
        seen.append(dialog)
        try:
            act(dialog)
        except BaseException as exc:
            seen.append(exc)
            dialog.reject()

    QTimer.singleShot(0, look)
    return seen
