"""Every file and folder the window asks for, through one place: dialogs sized to the
window (not Qt's 632×408 default, where long shard names and dates are cut) whose list
gives the name the room that is left after the size, type and date are shown whole.

Each function returns the chosen path(s), or an empty value when the user cancels. On
desktops whose own dialogs Qt uses (a portal, Windows, macOS), those are shown as they
are; the sizing applies to Qt's own dialog.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QFileDialog, QHeaderView, QTreeView, QWidget

from .screen_fit import fitted

SHARE = 0.75  # of the parent window, each way
SMALLEST = QSize(900, 540)


def open_file(parent: QWidget | None, title: str, start: str = "", filters: str = "") -> str:
    """One existing file, or ``""``."""
    chosen = _ask(parent, title, start, filters, QFileDialog.FileMode.ExistingFile, False)
    return chosen[0] if chosen else ""


def open_files(parent: QWidget | None, title: str, start: str = "", filters: str = "") -> list[str]:
    """Existing files (one or more), or ``[]``."""
    return _ask(parent, title, start, filters, QFileDialog.FileMode.ExistingFiles, False)


def save_file(parent: QWidget | None, title: str, start: str = "", filters: str = "") -> str:
    """A path to write (Qt asks before an existing file is replaced), or ``""``."""
    chosen = _ask(parent, title, start, filters, QFileDialog.FileMode.AnyFile, True)
    return chosen[0] if chosen else ""


def folder(parent: QWidget | None, title: str, start: str = "") -> str:
    """An existing folder, or ``""``."""
    chosen = _ask(parent, title, start, "", QFileDialog.FileMode.Directory, False)
    return chosen[0] if chosen else ""


def _ask(
    parent: QWidget | None,
    title: str,
    start: str,
    filters: str,
    mode: QFileDialog.FileMode,
    saving: bool,
) -> list[str]:
    dialog = QFileDialog(parent, title, start)
    dialog.setFileMode(mode)
    if mode == QFileDialog.FileMode.Directory:
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    if saving:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    if filters:
        dialog.setNameFilters(filters.split(";;"))
    dialog.setViewMode(QFileDialog.ViewMode.Detail)
    size_dialog(dialog, parent)
    if not dialog.exec():
        return []
    return dialog.selectedFiles()


def size_dialog(dialog: QFileDialog, parent: QWidget | None) -> None:
    """Size Qt's own dialog to the window and widen its list's columns to their text."""
    base = parent.window().size() if parent is not None else SMALLEST
    wanted = QSize(
        max(SMALLEST.width(), int(base.width() * SHARE)),
        max(SMALLEST.height(), int(base.height() * SHARE)),
    )
    screen = (parent.screen() if parent is not None else dialog.screen()).availableGeometry()
    dialog.resize(fitted(wanted, screen).size())
    for view in dialog.findChildren(QTreeView):
        header = view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
