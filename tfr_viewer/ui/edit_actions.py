"""The window's editing and export actions: menus, dialogs and their undo stack."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Protocol

import numpy as np
from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QFileDialog,
    QInputDialog,
    QMenu,
    QMessageBox,
    QStatusBar,
    QTableView,
)

from ..core.decode import decode, features_of
from ..core.io import Dataset
from ..core.tasks import format_export_task
from ..core.write import EditError, ExportError, ExportOptions, export
from ..core.write import edits as core_edits
from .dialogs.export_dialog import ExportDialog
from .editing import Editor
from .filter_bar import FilterBar
from .models.feature_tree import Node
from .models.record_table import RecordTableModel
from .process_task import ProcessTask


class EditHost(Protocol):
    """What the edit actions need of the window that hosts them."""

    dataset: Dataset | None
    current: int | None
    model: RecordTableModel
    table: QTableView
    filter_bar: FilterBar
    edit_menu: QMenu
    file_menu: QMenu
    quit_action: QAction

    def statusBar(self) -> QStatusBar: ...  # noqa: N802
    def show_record(self, record: int) -> None: ...
    def update_title(self) -> None: ...
    def selected_tree_node(self) -> Node | None: ...
    def show_error(self, title: str, text: str) -> None: ...
    def add_action(
        self, menu: QMenu, text: str, slot: Callable[[], object], shortcut: object = None
    ) -> QAction: ...


_KINDS = ["int64", "float", "bytes"]


class EditActions(QObject):
    def __init__(self, window: EditHost) -> None:
        super().__init__(window)  # type: ignore[arg-type]
        self.window = window
        self.stack = QUndoStack(self)
        self.editor: Editor | None = None
        self.discard_answer: bool | None = None  # set to answer the question without asking
        menu = window.edit_menu
        menu.addSeparator()
        undo = self.stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.stack.createRedoAction(self, "&Redo")
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        menu.addAction(undo)
        menu.addAction(redo)
        menu.addSeparator()
        add = window.add_action
        add(menu, "&Edit Value…", self.edit_value, "F2")
        add(menu, "Set Value on &Selected Records…", self.set_on_selection, "Ctrl+Shift+E")
        add(menu, "&Add Feature…", self.add_feature)
        add(menu, "Re&name Feature…", self.rename_feature)
        add(menu, "Re&move Feature", self.remove_feature)
        add(menu, "Replace &Image…", self.replace_image)
        menu.addSeparator()
        add(
            menu,
            "&Delete Records",
            lambda: self.delete(restore=False),
            QKeySequence.StandardKey.Delete,
        )
        add(menu, "Res&tore Records", lambda: self.delete(restore=True), "Ctrl+Shift+R")
        file_menu = window.file_menu
        file_menu.insertSeparator(window.quit_action)
        for text, slot, key in (
            ("&Export…", self.export_dialog, "Ctrl+E"),
            ("Save &Intact Records As…", self.save_intact, None),
        ):
            action = add(file_menu, text, slot, key)
            file_menu.removeAction(action)
            file_menu.insertAction(window.quit_action, action)

    # -- lifetime --------------------------------------------------------------------
    def attach(self, dataset: Dataset | None) -> None:
        self.stack.clear()
        self.editor = Editor(dataset, self.stack, self._changed) if dataset is not None else None
        if self.editor is not None:
            self.window.model.edits = self.editor.edits
            self.window.filter_bar.edited = lambda e=self.editor.edits: e.payloads

    def payload(self, record: int) -> bytes:
        assert self.window.dataset is not None
        return self.editor.payload(record) if self.editor else self.window.dataset.read(record)

    def dirty(self) -> bool:
        return self.editor is not None and bool(self.editor.edits)

    def confirm_discard(self) -> bool:
        """Ask before unsaved edits are dropped; True when it is fine to go on."""
        if not self.dirty():
            return True
        if self.discard_answer is not None:
            return self.discard_answer
        answer = QMessageBox.question(
            self.window,
            "Unsaved edits",
            "The edits have not been exported. Discard them?",
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Discard

    def _changed(self, records: list[int]) -> None:
        w = self.window
        w.model.records_changed(records)
        if w.current in records:
            w.show_record(w.current)
        w.update_title()

    # -- helpers ---------------------------------------------------------------------
    def _feature_key(self) -> str | None:
        node = self.window.selected_tree_node()
        while node is not None and node.name.startswith("["):
            node = node.parent
        return node.key if node is not None and node.kind in _KINDS else None

    def _fail(self, message: str) -> None:
        self.window.statusBar().showMessage(message, 15000)

    def apply(self, text: str, records: list[int], transform) -> bool:  # noqa: ANN001
        if self.editor is None or not records:
            return False
        try:
            self.editor.change(text, records, transform)
        except EditError as exc:
            self._fail(f"not changed: {exc}")
            return False
        return True

    def selected_records(self) -> list[int]:
        w = self.window
        rows = sorted({i.row() for i in w.table.selectionModel().selectedRows()})
        records = [w.model.record_at(r) for r in rows]
        return records or ([w.current] if w.current is not None else [])

    # -- actions ---------------------------------------------------------------------
    def edit_value(self, key: str | None = None, text: str | None = None) -> bool:
        w = self.window
        key = key or self._feature_key()
        if key is None or w.current is None:
            self._fail("select a feature in the tree first")
            return False
        node_kind, current = self._current_values(key)
        if text is None:
            text, ok = QInputDialog.getText(w, "Edit value", f"{key} ({node_kind}):", text=current)
            if not ok:
                return False
        values = self._parse(text, node_kind, key)
        return values is not None and self.apply(
            f"Set {key} of record {w.current}",
            [w.current],
            lambda p: core_edits.set_values(p, key, values),
        )

    def set_on_selection(self, key: str | None = None, text: str | None = None) -> bool:
        records = self.selected_records()
        key = key or self._feature_key()
        if key is None or not records:
            self._fail("select records and a feature first")
            return False
        kind, current = self._current_values(key)
        if text is None:
            text, ok = QInputDialog.getText(
                self.window,
                "Set on selected records",
                f"{key} ({kind}) for {len(records)} records:",
                text=current,
            )
            if not ok:
                return False
        values = self._parse(text, kind, key)
        return values is not None and self.apply(
            f"Set {key} on {len(records)} records",
            records,
            lambda p: core_edits.set_values(p, key, values),
        )

    def add_feature(
        self, key: str | None = None, kind: str | None = None, text: str | None = None
    ) -> bool:
        w = self.window
        if w.current is None:
            return False
        if key is None:
            key, ok = QInputDialog.getText(w, "Add feature", "Key:")
            if not ok or not key:
                return False
            kind, ok = QInputDialog.getItem(w, "Add feature", "Kind:", _KINDS, 0, False)
            if not ok:
                return False
            text, ok = QInputDialog.getText(w, "Add feature", f"{key} values:")
            if not ok:
                return False
        values = self._parse(text or "", kind or "bytes", key)
        return values is not None and self.apply(
            f"Add {key} to record {w.current}",
            [w.current],
            lambda p: core_edits.set_values(p, key, values, kind=kind),
        )

    def rename_feature(self, new: str | None = None) -> bool:
        key = self._feature_key()
        if key is None or self.window.current is None:
            self._fail("select a feature in the tree first")
            return False
        if new is None:
            new, ok = QInputDialog.getText(self.window, "Rename feature", "New key:", text=key)
            if not ok:
                return False
        return self.apply(
            f"Rename {key} to {new}",
            [self.window.current],
            lambda p: core_edits.rename_feature(p, key, new),
        )

    def remove_feature(self) -> bool:
        key = self._feature_key()
        if key is None or self.window.current is None:
            self._fail("select a feature in the tree first")
            return False
        return self.apply(
            f"Remove {key} from record {self.window.current}",
            [self.window.current],
            lambda p: core_edits.remove_feature(p, key),
        )

    def replace_image(self, path: str | None = None) -> bool:
        key = self._feature_key()
        if key is None or self.window.current is None:
            self._fail("select the image feature in the tree first")
            return False
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.window, "Replace image with")
            if not path:
                return False
        with open(path, "rb") as f:
            image = f.read()
        return self.apply(
            f"Replace {key} of record {self.window.current}",
            [self.window.current],
            lambda p: core_edits.replace_image(p, key, image),
        )

    def delete(self, restore: bool) -> int:
        if self.editor is None:
            return 0
        return self.editor.delete(self.selected_records(), restore=restore)

    def scopes(self) -> dict[str, np.ndarray]:
        w = self.window
        ds = w.dataset
        assert ds is not None and self.editor is not None
        keep = self.editor.edits.kept
        all_rows = keep(list(range(len(ds))))
        filtered = [w.model.record_at(r) for r in range(w.model.rowCount())]
        return {
            "all": np.array(all_rows, dtype=np.int64),
            "selected": np.array(keep(self.selected_records()), dtype=np.int64),
            "filtered": np.array(keep(filtered), dtype=np.int64),
            "edited": np.array(keep(self.editor.edits.edited_records()), dtype=np.int64),
        }

    def export_dialog(self) -> ExportDialog | None:
        w = self.window
        if w.dataset is None or self.editor is None:
            return None
        dialog = ExportDialog(w.dataset, self.scopes(), self.editor.edits.payloads, w)
        dialog.open()
        return dialog

    def export_as(self, fmt: str, out: str | None = None) -> ProcessTask | None:
        """The current (filtered) rows, edits applied, as JSON Lines, CSV or images; runs
        in a child process and reports in the status bar."""
        w = self.window
        if w.dataset is None or self.editor is None:
            return None
        if out is None:
            if fmt == "images":
                out, _ = QFileDialog.getSaveFileName(w, "New folder for the images")
            else:
                out, _ = QFileDialog.getSaveFileName(w, f"Export as {fmt}", filter=f"*.{fmt}")
            if not out:
                return None
        ds = w.dataset
        records = ds.undamaged(self.scopes()["filtered"]).tolist()
        wanted = set(records)
        payloads = {r: p for r, p in self.editor.edits.payloads.items() if r in wanted}
        task = ProcessTask(
            format_export_task,
            ([f.path for f in ds.files], ds.columns(), records, payloads, fmt, out),
            parent=self,
        )

        def report(msg: tuple) -> None:
            if msg[0] == "progress":
                w.statusBar().showMessage(f"exporting {fmt}: {msg[1]:,} of {msg[2]:,}")
            elif msg[0] == "written":
                w.statusBar().showMessage(f"wrote {msg[1]:,} to {out}", 20000)
            elif msg[0] == "error":
                w.show_error(f"Cannot export {fmt}", msg[1])

        task.message.connect(report)
        task.start()
        self.last_task = task
        return task

    def save_intact(self, path: str | None = None) -> bool:
        """Write every intact record to a new file; report what was lost."""
        w = self.window
        ds = w.dataset
        if ds is None:
            return False
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                w, "Save intact records as", os.path.dirname(ds.files[0].path)
            )
            if not path:
                return False
        intact = ds.intact()
        try:
            summary = export(ds, intact, ExportOptions(path))
        except (ExportError, OSError) as exc:
            w.show_error("Cannot save the intact records", str(exc))
            return False
        lost = len(ds.problems())
        w.statusBar().showMessage(
            f"saved {summary.records:,} intact records to {path}; {lost} problem(s) left out", 20000
        )
        return True

    def _current_values(self, key: str) -> tuple[str, str]:
        features = features_of(decode(self.payload(self.window.current)).payload) or {}
        fd = features.get(key)
        if fd is None:
            return "bytes", ""
        if fd.kind == "bytes":
            texts = [v.decode("utf-8", "replace") for v in fd.values]
            return "bytes", texts[0] if len(texts) == 1 else json.dumps(texts)
        return fd.kind, ", ".join(str(v) for v in np.asarray(fd.values).tolist())

    def _parse(self, text: str, kind: str, key: str) -> list | None:
        try:
            return core_edits.parse_values(text, kind, key)
        except EditError as exc:
            self._fail(f"not changed: {exc}")
            return None
