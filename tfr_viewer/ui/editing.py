"""Editing in the window: the workspace's edit history mirrored on a ``QUndoStack``, so
that Edit › Undo and Redo (their texts, their shortcuts) follow it.

The workspace (:class:`~..app.workspace.Workspace`) makes every change and keeps the
history as plain data; each step it adds becomes a :class:`StepCommand` on the stack.
Undoing or redoing on the stack moves the workspace's history there, and a move made
through the workspace (a program's undo) moves the stack's index: either way the other
follows, and a command that finds the history where it would move it does nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand, QUndoStack

from ..core.write import EditError

if TYPE_CHECKING:
    from ..app.workspace import Workspace


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
    """The workspace's edit history mirrored on ``stack`` (the edits themselves are made
    and read through the workspace)."""

    def __init__(self, workspace: Workspace, stack: QUndoStack) -> None:
        self.workspace = workspace
        self.stack = stack
        self._moving = False

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
