"""The main window's own actions in the action table (File, Go, View, Edit and Help;
the remote, navigation, ordering, edit, export, analysis and panel actions declare
theirs beside their code)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication

from . import file_dialogs
from .actions import Action, Entry, Submenu

if TYPE_CHECKING:
    from .host import WindowHost

Key = QKeySequence.StandardKey


def open_convert_dialog(w: WindowHost) -> None:
    """File › New Dataset from Images… (a dialog of the window ``w``, kept as
    ``w.convert_dialog``); the result opens in ``w`` when it is written."""
    from .dialogs.convert_dialog import ConvertDialog

    dialog = w.convert_dialog = ConvertDialog(w.recent.last_dir(), w.as_widget())
    dialog.converted.connect(lambda files: w.open_paths(files))
    dialog.open()


def open_files_dialog(w: WindowHost) -> None:
    """File › Open…: several files at once; the dialog lists every file, since shards
    are often named without an extension."""
    paths = file_dialogs.open_files(
        w.as_widget(),
        "Open TFRecord files",
        w.recent.last_dir(),
        "All files (*);;TFRecord files (*.tfrecord* *.tfrec* *.record* *-of-* *.gz *.zz)",
    )
    if paths:
        w.open_paths(paths)


def open_folder_dialog(w: WindowHost) -> None:
    """File › Open Folder…: a shard set."""
    folder = file_dialogs.folder(w.as_widget(), "Open a folder of shards", w.recent.last_dir())
    if folder:
        w.open_paths([folder])


def window_actions(w: WindowHost) -> list[Entry]:
    """The actions of the window ``w`` itself, for :func:`~.actions.build_menus`."""
    tabs = w.left_tabs
    return [
        Action("file.new_window", "&New Window", "file", w.new_window, Key.New),
        Action("file.open", "&Open…", "file", lambda: open_files_dialog(w), Key.Open, order=1),
        Action(
            "file.open_folder",
            "Open &Folder…",
            "file",
            lambda: open_folder_dialog(w),
            "Ctrl+Alt+O",
            order=2,
        ),
        Action(
            "file.convert",
            "New &Dataset from Images…",
            "file",
            lambda: open_convert_dialog(w),
            "Ctrl+Shift+N",
            order=4,
        ),
        Submenu("file/recent", "Open &Recent", order=5),
        Action("file.close_window", "&Close Window", "file", w.close, Key.Close, 1),
        Action("file.quit", "&Quit", "file", QApplication.closeAllWindows, Key.Quit, 3),
        Action("go.filter", "&Filter", "go", w.filter_bar.focus_filter, "Ctrl+F", order=1),
        Action("view.overlays", "Toggle &Overlays", "view", w.preview.images.overlays.toggle, "O"),
        Action("view.records", "&Records", "view", lambda: tabs.setCurrentIndex(0), "Ctrl+1", 0),
        Action("view.gallery", "&Gallery", "view", lambda: tabs.setCurrentIndex(1), "Ctrl+2", 0),
        Action(
            "view.column_widths",
            "Reset Column &Widths",
            "view",
            w.table.reset_column_widths,
            None,
            1,
        ),
        Action("edit.copy", "&Copy", "edit", w.copy_selection, Key.Copy),
        Action(
            "edit.copy_key",
            "Copy &Key",
            "edit",
            lambda: w.copy_from_tree(value=False),
            "Ctrl+Shift+C",
        ),
        Action("help.filters", "&Filter Language…", "help", w.filter_bar.show_help, "F1"),
        Action("help.about", "&About tfr-viewer", "help", w.about),
    ]
