"""Editing in the window: the workspace's edit history mirrored on a ``QUndoStack``, so
that Edit › Undo and Redo (their texts, their shortcuts) follow it.

The workspace (:class:`~..app.workspace.Workspace`) makes every change and keeps the
history as plain data; each step it adds becomes a :class:`StepCommand` on the stack.
Undoing or redoing on the stack moves the workspace's history there, and a move made
through the workspace (a program's undo) moves the stack's index: either way the other
follows, and a command that finds the history where it would move it does nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand, QUndoStack

from ..core.write import EditError, EditSet

if TYPE_CHECKING:
    from ..app.workspace import Workspace
    from ..core.io import Dataset


class StepCommand(QUndoCommand):
    """Step ``index`` of the workspace's history, on the window's undo stack."""

    def __init__(self, editor: Editor, index: int, text: str) -> None:
        super().__init__(text)
        self._editor, self._index = editor, index

    def redo(self) -> None:
        self._editor.move_to(self._index + 1)

    def undo(self) -> None:
        self._editor.move_to(self._index)


class Editor:
    """The pending edits of the session's dataset, changed through its workspace, with
    the history mirrored on ``stack``."""

    def __init__(self, workspace: Workspace, stack: QUndoStack) -> None:
        self.workspace = workspace
        self.stack = stack
        self._moving = False

    @property
    def dataset(self) -> Dataset:
        assert self.workspace.dataset is not None
        return self.workspace.dataset

    @property
    def edits(self) -> EditSet:
        return self.workspace.edits

    def payload(self, record: int) -> bytes:
        """What the record holds now: the edited payload or the original."""
        return self.workspace.payload(record)

    def change(self, text: str, records: Iterable[int], transform: Callable[[bytes], bytes]) -> int:
        """Apply ``transform`` to each record's payload as one undoable step. Raises
        EditError (nothing changed) when any record refuses the edit."""
        return self.workspace.change(text, records, transform)

    def revert(self, records: Iterable[int]) -> int:
        """Put records back as the file has them (edits and deletion undone), as one
        undoable step."""
        return self.workspace.revert(records)

    def pending(self) -> list[int]:
        """Every record with an edit or a deletion, in order."""
        return self.workspace.pending()

    def delete(self, records: Iterable[int], restore: bool = False) -> int:
        return self.workspace.delete(records, restore)

    def move_to(self, position: int) -> None:
        """The stack's command moves the history (nothing when it is there already)."""
        if self.workspace.history.position != position:
            self._moving = True
            try:
                self.workspace.go_to(position)
            finally:
                self._moving = False

    def follow(self, position: int, added: bool) -> None:
        """The workspace's history moved: the stack follows (a new step pushed; an undo
        or redo made elsewhere, the stack's index set)."""
        if self._moving:
            return
        if added:
            text = self.workspace.history.steps[position - 1].text
            self._moving = True  # push() redoes the command: the step is done already
            try:
                self.stack.push(StepCommand(self, position - 1, text))
            finally:
                self._moving = False
        elif self.stack.index() != position:
            self._moving = True
            try:
                self.stack.setIndex(position)
            finally:
                self._moving = False


__all__ = ["Editor", "EditError", "StepCommand"]
