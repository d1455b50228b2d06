"""The window's editing and export actions: menus, dialogs and their undo stack."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QInputDialog,
    QMessageBox,
)

from ..app.workspace import Workspace
from ..core.decode import decode, features_of
from ..core.decode.layouts import Box, KeyMap
from ..core.io import Dataset
from ..core.write import EditError, describe_change, edits as core_edits
from ..core.write.box_edits import (
    add_box,
    box_lists,
    delete_box,
    misalignment,
    move_box,
    set_box_class,
)
from ..core.write.message_edits import set_field
from . import file_dialogs
from .actions import Action, Entry
from .dialogs.class_choice import Class, choose_class
from .dialogs.values_editor import ask_values, values_text
from .editing import Editor
from .export_actions import ACTIONS as EXPORT_ACTIONS, ExportActions
from .feature_tree_view import FeatureTreeView
from .filter_bar import FilterBar
from .host import PanelHost, PanelLookup
from .panels.pending_edits import PendingEdits
from .record_view import RecordTableView

if TYPE_CHECKING:
    from ..core.decode.message_types import MessageType

_KINDS = ["int64", "float", "bytes"]
Key = QKeySequence.StandardKey


class EditActions(QObject):
    """Edits of the window's records, kept in its session's editor, with one undo
    stack; their actions are in :meth:`actions`."""

    saved = Signal()  # an export applied every pending edit: nothing is unsaved now

    def __init__(
        self,
        window: PanelHost,
        table: RecordTableView,
        filter_bar: FilterBar,
        docks: PanelLookup,
        tree: FeatureTreeView,
    ) -> None:
        """``table``: its selected rows are what Set Value on Selected Records sets;
        ``filter_bar``: filters the edited payloads; ``docks``: hold the Pending Edits
        panel, which lists the edits; ``tree``: its selected node is the feature
        edited."""
        super().__init__(window.as_widget())
        self.window = window
        self.table, self.filter_bar, self.tree = table, filter_bar, tree
        self._docks = docks
        self._pending: PendingEdits | None = None
        self.pending_dock = docks.dock("pending-edits")
        self.pending_dock.visibilityChanged.connect(
            lambda shown: self.refresh_pending() if shown else None
        )
        self.stack = QUndoStack(self)
        # set to answer the unsaved-edits question without asking: True discards, False
        # cancels, "export" opens the export dialog (and cancels)
        self.discard_answer: bool | str | None = None
        self._generation = 0  # counts changes, so that an export can be matched to them
        self._exported = 0  # the generation last exported in full
        session = window.session
        session.opened.connect(self.attach)
        session.closed.connect(lambda: self.attach(None))
        session.edited.connect(self._changed)
        session.history_moved.connect(
            lambda position, added: self.editor.follow(position, added) if self.editor else None
        )

    def actions(self) -> list[Entry]:
        """The Edit menu's editing actions (and, from the export actions, File's)."""
        undo = self.stack.createUndoAction(self, "&Undo")
        redo = self.stack.createRedoAction(self, "&Redo")
        session = self.window.session
        record = lambda: session.has_record  # noqa: E731
        return [
            Action("edit.undo", "&Undo", "edit", None, Key.Undo, 1, provided=undo),
            Action("edit.redo", "&Redo", "edit", None, Key.Redo, 1, provided=redo),
            Action("edit.value", "&Edit Values…", "edit", self.edit_value, "F2", 2, record),
            Action(
                "edit.set_on_selection",
                "Set Value on &Selected Records…",
                "edit",
                self.set_on_selection,
                "Ctrl+Shift+E",
                2,
                record,
            ),
            Action("edit.add_feature", "&Add Feature…", "edit", self.add_feature, None, 2, record),
            Action(
                "edit.rename_feature",
                "Re&name Feature…",
                "edit",
                self.rename_feature,
                None,
                2,
                record,
            ),
            Action(
                "edit.remove_feature",
                "Re&move Feature",
                "edit",
                self.remove_feature,
                None,
                2,
                record,
            ),
            Action(
                "edit.replace_image", "Replace &Image…", "edit", self.replace_image, None, 2, record
            ),
            Action(
                "edit.delete",
                "&Delete Records",
                "edit",
                lambda: self.delete(restore=False),
                Key.Delete,
                3,
                record,
            ),
            Action(
                "edit.restore",
                "Res&tore Records",
                "edit",
                lambda: self.delete(restore=True),
                "Ctrl+Shift+R",
                3,
                record,
            ),
            *EXPORT_ACTIONS,
        ]

    # -- lifetime --------------------------------------------------------------------
    @property
    def editor(self) -> Editor | None:
        """The session's editor: the undo stack following the workspace's history."""
        return self.window.session.editor

    @property
    def workspace(self) -> Workspace:
        """Where the edits are made and kept (none while no dataset is open)."""
        return self.window.session.workspace

    def _is_open(self) -> bool:
        return self.window.session.dataset is not None

    def attach(self, dataset: Dataset | None) -> None:
        """A dataset was opened (None: closed): a new editor, an empty undo stack."""
        self.stack.clear()
        self._generation = self._exported = 0
        session = self.window.session
        editor = Editor(session.workspace, self.stack) if dataset is not None else None
        session.editor = editor
        if editor is not None and session.model is not None:
            edits = session.workspace.edits
            session.model.edits = edits
            self.filter_bar.edited = lambda: edits.payloads
        if editor is None:
            self.refresh_pending()

    def payload(self, record: int) -> bytes:
        return self.window.session.payload(record)

    def dirty(self) -> bool:
        """Edits or deletions exist that no export has applied since they were made."""
        return bool(self.workspace.edits) and self._generation != self._exported

    def is_deleted(self, record: int) -> bool:
        return self.workspace.edits.is_deleted(record)

    def exported(self, records: np.ndarray) -> None:
        """An export of ``records`` succeeded. The edits count as saved only when it
        applied every pending one: every edited record was written, and, when records
        are deleted, it was a whole-dataset export that left exactly those out."""
        ds = self.window.session.dataset
        if ds is None:
            return
        edits = self.workspace.edits
        deleted = set(edits.deleted_records())
        written = set(np.asarray(records).tolist())
        pending = set(edits.edited_records()) - deleted
        whole = not deleted or (len(written) == len(ds) - len(deleted) and not written & deleted)
        if pending <= written and whole:
            self._exported = self._generation
            self.saved.emit()

    def confirm_discard(self) -> bool:
        """Ask before unsaved edits are dropped: Export…, Discard or Cancel. True when it
        is fine to go on; Export… opens the export dialog and stops the operation."""
        if not self.dirty():
            return True
        answer = self.discard_answer
        if answer is None:
            box = QMessageBox(
                QMessageBox.Icon.Warning,
                "Unsaved edits",
                "The edits have not been exported. Export them first, or discard them?",
                QMessageBox.StandardButton.Save
                | QMessageBox.StandardButton.Discard
                | QMessageBox.StandardButton.Cancel,
                self.window.as_widget(),
            )
            box.button(QMessageBox.StandardButton.Save).setText("Export…")
            box.setDefaultButton(QMessageBox.StandardButton.Cancel)
            clicked = box.exec()
            choices: dict[QMessageBox.StandardButton, bool | str] = {
                QMessageBox.StandardButton.Save: "export",
                QMessageBox.StandardButton.Discard: True,
            }
            answer = choices.get(QMessageBox.StandardButton(clicked), False)
        if answer == "export":
            self.exports.export_dialog()
            return False
        return bool(answer)

    def _changed(self, records: list[int]) -> None:
        self._generation += 1
        self.refresh_pending()

    @cached_property
    def exports(self) -> ExportActions:
        """Export…, Export Rows as › and Save Intact Records As… (made on first use)."""
        return ExportActions(self.window, self)

    @property
    def pending(self) -> PendingEdits:
        """The Pending Edits panel, made and wired the first time it is asked for."""
        if self._pending is None:
            panel = self._pending = cast(PendingEdits, self._docks.widget("pending-edits"))
            panel.record_activated.connect(self.window.select_record)
            panel.revert_requested.connect(self.revert)
        return self._pending

    def refresh_pending(self) -> None:
        """The pending-edits list: each edited or deleted record and what changed. Only
        while the list is shown (it decodes records): showing it refreshes it."""
        ds = self.window.session.dataset
        if not self.pending_dock.isVisible():
            return
        if ds is None:
            self.pending.set_edits([], str)
            return
        edits = self.workspace.edits

        def describe(record: int) -> str:
            try:
                return describe_change(
                    ds.read(record), edits.payload_of(record), edits.is_deleted(record)
                )
            except Exception as exc:  # a description must never break the list
                return f"<{exc}>"

        self.pending.set_edits(self.workspace.pending(), describe)

    def revert(self, records: list[int]) -> int:
        return self.workspace.revert(records) if self._is_open() else 0

    # -- helpers ---------------------------------------------------------------------
    def _feature_key(self) -> str | None:
        node = self.tree.selected_node()
        while node is not None and node.name.startswith("["):
            node = node.parent
        return node.key if node is not None and node.kind in _KINDS else None

    def _fail(self, message: str) -> None:
        self.window.statusBar().showMessage(message, 15000)

    def apply(self, text: str, records: list[int], transform: Callable[[bytes], bytes]) -> bool:
        if not self._is_open() or not records:
            return False
        try:
            self.workspace.change(text, records, transform)
        except EditError as exc:
            self._fail(f"not changed: {exc}")
            return False
        return True

    def edit_box(
        self,
        kind: str,
        box: int,
        corners: Box | None,
        keymap: KeyMap,
        known: list[Class] | None = None,
        current: Class | None = None,
    ) -> bool:
        """A box of the shown record changed in the picture: ``"move"`` to ``corners``
        (the record's convention), ``"delete"``, ``"class"`` (asked for, from ``known``
        classes or typed, the box's ``current`` class chosen at first: never another
        one a reflexive Enter would take) or ``"add"`` at ``corners`` (its class asked
        for); every list of its layout in step (:mod:`..core.write.box_edits`), as one
        undoable edit."""
        record = self.window.session.current
        if record is None:
            return False
        try:
            problem = misalignment(box_lists(self.payload(record), keymap))
        except EditError as exc:
            self._fail(f"not changed: {exc}")
            return False
        if problem is not None and not self._edit_anyway(problem):
            return False
        odd = problem is not None  # the user was told, and agreed
        where = f"box {box} of record {record}"
        if kind == "delete":
            return self.apply(
                f"Delete {where}", [record], lambda p: delete_box(p, box, keymap, misaligned=odd)
            )
        if kind == "move":
            assert corners is not None
            return self.apply(
                f"Move {where}",
                [record],
                lambda p: move_box(p, box, corners, keymap, misaligned=odd),
            )
        assert kind in ("class", "add")
        title = f"Class of {where}" if kind == "class" else f"New box in record {record}"
        chosen = choose_class(
            self.window.as_widget(),
            title,
            [*(known or []), *([current] if current else [])],
            current if kind == "class" else None,
        )
        if chosen is None:
            return False
        label, text = chosen
        if kind == "class":
            return self.apply(
                title,
                [record],
                lambda p: set_box_class(p, box, label, text, keymap, misaligned=odd),
            )
        assert corners is not None
        return self.apply(
            f"Add a box to record {record}",
            [record],
            lambda p: add_box(p, corners, label, text, keymap=keymap, misaligned=odd),
        )

    def _edit_anyway(self, problem: str) -> bool:
        """Tell the user that the record's box lists disagree; True to edit anyway."""
        answer = QMessageBox.question(
            self.window.as_widget(),
            "Box lists differ in length",
            f"{problem[0].upper()}{problem[1:]}.\n\nEdit this record anyway?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def selected_records(self) -> list[int]:
        w = self.window
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        model = w.session.model
        found = [] if model is None else [model.record_at(row) for row in rows]
        records = [r for r in found if r is not None]
        return records or ([w.session.current] if w.session.current is not None else [])

    # -- actions ---------------------------------------------------------------------
    def edit_element(self, key: str, element: int, text: str) -> bool:
        """One value of a feature's list changed in the tree (a double-click on it)."""
        w = self.window
        if w.session.current is None:
            return False
        kind, _ = self._current_values(key)
        typed = self._parse(text, kind, key)
        if typed is None:
            return False
        if len(typed) != 1:
            self._fail(f"not changed: one value is expected for {key}[{element}]")
            return False
        features = features_of(decode(self.payload(w.session.current)).payload) or {}
        fd = features.get(key)
        if fd is None or not 0 <= element < len(fd):
            return False
        values = list(fd.items())
        values[element] = typed[0]
        return self.apply(
            f"Set {key}[{element}] of record {w.session.current}",
            [w.session.current],
            lambda p: core_edits.set_values(p, key, values),
        )

    def edit_value(self, key: str | None = None, text: str | None = None) -> bool:
        w = self.window
        key = key or self._feature_key()
        if key is None or w.session.current is None:
            self._fail("select a feature in the tree first")
            return False
        kind = self._message_kind(w.session.current)
        if kind is not None:  # a field of a record of the user's own type, by its path
            if text is None:
                return False  # edited in the tree, where its value is
            typed, path = text, key
            return self.apply(
                f"Set {key} of record {w.session.current}",
                [w.session.current],
                lambda p: set_field(kind, p, path, typed),
            )
        node_kind, current = self._current_values(key)
        if text is None:
            text = ask_values(w.as_widget(), "Edit values", key, node_kind, current)
            if text is None:
                return False
        values = self._parse(text, node_kind, key)
        return values is not None and self.apply(
            f"Set {key} of record {w.session.current}",
            [w.session.current],
            lambda p: core_edits.set_values(p, key, values),
        )

    def _message_kind(self, record: int) -> MessageType | None:
        """The user's message type record ``record`` is read as, or None."""
        ds = self.window.session.dataset
        if ds is None or ds.message_type is None:
            return None
        from ..core.decode.file_payloads import message_type_of

        return message_type_of(ds, ds.locate(record)[0])

    def set_on_selection(self, key: str | None = None, text: str | None = None) -> bool:
        records = self.selected_records()
        key = key or self._feature_key()
        if key is None or not records:
            self._fail("select records and a feature first")
            return False
        kind, current = self._current_values(key)
        if text is None:
            title = f"Set on {len(records)} selected records"
            text = ask_values(self.window.as_widget(), title, key, kind, current)
            if text is None:
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
        if w.session.current is None:
            return False
        if key is None:
            key, ok = QInputDialog.getText(w.as_widget(), "Add feature", "Key:")
            if not ok or not key:
                return False
            kind, ok = QInputDialog.getItem(w.as_widget(), "Add feature", "Kind:", _KINDS, 0, False)
            if not ok:
                return False
            text, ok = QInputDialog.getText(w.as_widget(), "Add feature", f"{key} values:")
            if not ok:
                return False
        values = self._parse(text or "", kind or "bytes", key)
        return values is not None and self.apply(
            f"Add {key} to record {w.session.current}",
            [w.session.current],
            lambda p: core_edits.set_values(p, key, values, kind=kind),
        )

    def rename_feature(self, new: str | None = None) -> bool:
        key = self._feature_key()
        if key is None or self.window.session.current is None:
            self._fail("select a feature in the tree first")
            return False
        if new is None:
            new, ok = QInputDialog.getText(
                self.window.as_widget(), "Rename feature", "New key:", text=key
            )
            if not ok:
                return False
        return self.apply(
            f"Rename {key} to {new}",
            [self.window.session.current],
            lambda p: core_edits.rename_feature(p, key, new),
        )

    def remove_feature(self) -> bool:
        key = self._feature_key()
        if key is None or self.window.session.current is None:
            self._fail("select a feature in the tree first")
            return False
        return self.apply(
            f"Remove {key} from record {self.window.session.current}",
            [self.window.session.current],
            lambda p: core_edits.remove_feature(p, key),
        )

    def replace_image(self, path: str | None = None) -> bool:
        key = self._feature_key()
        if key is None or self.window.session.current is None:
            self._fail("select the image feature in the tree first")
            return False
        if path is None:
            path = file_dialogs.open_file(self.window.as_widget(), "Replace image with")
            if not path:
                return False
        with open(path, "rb") as f:
            image = f.read()
        return self.apply(
            f"Replace {key} of record {self.window.session.current}",
            [self.window.session.current],
            lambda p: core_edits.replace_image(p, key, image),
        )

    def delete(self, restore: bool) -> int:
        if not self._is_open():
            return 0
        return self.workspace.delete(self.selected_records(), restore=restore)

    def _current_values(self, key: str) -> tuple[str, str]:
        current = self.window.session.current
        return ("", "") if current is None else values_text(self.payload(current), key)

    def _parse(self, text: str, kind: str, key: str) -> list[Any] | None:
        try:
            return core_edits.parse_values(text, kind, key)
        except EditError as exc:
            self._fail(f"not changed: {exc}")
            return None
