"""The main window's menus (the edit actions add theirs to File and Edit)."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QFileDialog

from .recent import RecentFiles


def open_convert_dialog(w: Any) -> None:
    """File › New Dataset from Images… (a dialog of the window ``w``, kept as
    ``w.convert_dialog``); the result opens in ``w`` when it is written."""
    from .dialogs.convert_dialog import ConvertDialog

    dialog = w.convert_dialog = ConvertDialog(w.recent.last_dir(), w)
    dialog.converted.connect(lambda files: w.open_paths(files))
    dialog.open()


def open_files_dialog(w: Any) -> None:
    """File › Open…: several files at once; the dialog lists every file, since shards
    are often named without an extension."""
    paths, _ = QFileDialog.getOpenFileNames(
        w,
        "Open TFRecord files",
        w.recent.last_dir(),
        "All files (*);;TFRecord files (*.tfrecord* *.tfrec* *.record* *-of-* *.gz *.zz)",
    )
    if paths:
        w.open_paths(paths)


def open_folder_dialog(w: Any) -> None:
    """File › Open Folder…: a shard set."""
    folder = QFileDialog.getExistingDirectory(w, "Open a folder of shards", w.recent.last_dir())
    if folder:
        w.open_paths([folder])


def build_menus(w: Any) -> None:
    """File, Go, View, Edit and Help of the main window ``w`` (typed loosely so that this
    module does not import the window). Every action goes through ``w.add_action``, which
    never passes ``triggered``'s ``checked`` on to a slot."""
    add = w.add_action
    bar = w.menuBar()
    file_menu = w.file_menu = bar.addMenu("&File")
    add(file_menu, "&New Window", w.new_window, QKeySequence.StandardKey.New)
    add(file_menu, "&Open…", lambda: open_files_dialog(w), QKeySequence.StandardKey.Open)
    add(file_menu, "Open &Folder…", lambda: open_folder_dialog(w), "Ctrl+Alt+O")
    add(file_menu, "Open &URL…", w.remote.open_url_dialog, "Ctrl+Shift+O")
    add(file_menu, "New &Dataset from Images…", lambda: open_convert_dialog(w), "Ctrl+Shift+N")
    w.recent_menu = file_menu.addMenu("Open &Recent")
    w.recent = RecentFiles(w.settings, w.recent_menu, w.open_paths)
    file_menu.addSeparator()
    add(file_menu, "&Close Window", w.close, QKeySequence.StandardKey.Close)
    w.quit_action = add(
        file_menu, "&Quit", QApplication.closeAllWindows, QKeySequence.StandardKey.Quit
    )
    go = bar.addMenu("&Go")
    add(go, "&Go to Record or Offset…", w.navigator.goto_dialog, "Ctrl+G")
    add(go, "&Filter", w.filter_bar.focus_filter, "Ctrl+F")
    add(go, "&Problems…", w.navigator.show_problems, "Ctrl+Shift+P")
    view = bar.addMenu("&View")
    add(view, "Toggle &Overlays", w.preview.images.overlays.toggle, "O")
    add(view, "&Records", lambda: w.left_tabs.setCurrentIndex(0), "Ctrl+1")
    add(view, "&Gallery", lambda: w.left_tabs.setCurrentIndex(1), "Ctrl+2")
    pending = w.pending_dock.toggleViewAction()
    pending.setText("&Pending Edits")
    pending.setShortcut(QKeySequence("Ctrl+3"))
    view.addAction(pending)
    view.addSeparator()
    add(view, "Reset Column &Widths", w.table.reset_column_widths)
    add(view, "&Unsorted (File Order)", w.order.unsort)
    edit = w.edit_menu = bar.addMenu("&Edit")
    add(edit, "&Copy", w.copy_selection, QKeySequence.StandardKey.Copy)
    add(edit, "Copy &Key", lambda: w.copy_from_tree(value=False), "Ctrl+Shift+C")
    help_menu = w.help_menu = bar.addMenu("&Help")
    add(help_menu, "&Filter Language…", w.filter_bar.show_help, "F1")
    add(help_menu, "&About tfr-viewer", w.about)
