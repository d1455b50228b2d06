"""Editing in the window: undoable commands over the core's EditSet.

Every change is a ``QUndoCommand`` holding the exact before and after states of the
records it touched, so undo and redo restore the exact bytes. The window supplies the
current record, the selected feature and the selected rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand, QUndoStack

from ..core.write import EditError, EditSet, RecordState

if TYPE_CHECKING:
    from ..core.io import Dataset


class StatesCommand(QUndoCommand):
    """Swap records between two recorded states."""

    def __init__(
        self,
        text: str,
        edits: EditSet,
        before: list[RecordState],
        after: list[RecordState],
        changed: Callable[[list[int]], None],
    ) -> None:
        super().__init__(text)
        self._edits, self._before, self._after, self._changed = edits, before, after, changed
        self._first = True

    def redo(self) -> None:
        if self._first:  # the change was applied when the command was made
            self._first = False
        else:
            self._edits.apply_states(self._after)
        self._changed([s.record for s in self._after])

    def undo(self) -> None:
        self._edits.apply_states(self._before)
        self._changed([s.record for s in self._before])


class Editor:
    """Applies edits to records of one dataset and records them on an undo stack."""

    def __init__(
        self, dataset: Dataset, stack: QUndoStack, changed: Callable[[list[int]], None]
    ) -> None:
        self.dataset = dataset
        self.edits = EditSet()
        self.stack = stack
        self.changed = changed

    def payload(self, record: int) -> bytes:
        """What the record holds now: the edited payload or the original."""
        edited = self.edits.payload_of(record)
        return edited if edited is not None else self.dataset.read(record)

    def change(self, text: str, records: Iterable[int], transform: Callable[[bytes], bytes]) -> int:
        """Apply ``transform`` to each record's payload as one undoable step. Raises
        EditError (nothing changed) when any record refuses the edit."""
        records = list(records)
        new = {r: transform(self.payload(r)) for r in records}  # may raise EditError
        before = [self.edits.replace(r, p) for r, p in new.items()]
        after = [self.edits.state(r) for r in records]
        self.stack.push(StatesCommand(text, self.edits, before, after, self.changed))
        return len(records)

    def revert(self, records: Iterable[int]) -> int:
        """Put records back as the file has them (edits and deletion undone), as one
        undoable step."""
        records = [r for r in records if self.edits.is_edited(r) or self.edits.is_deleted(r)]
        if not records:
            return 0
        before = [self.edits.state(r) for r in records]
        after = [RecordState(r, None, False) for r in records]
        self.edits.apply_states(after)
        text = (
            f"Revert record {records[0]}" if len(records) == 1 else f"Revert {len(records)} records"
        )
        self.stack.push(StatesCommand(text, self.edits, before, after, self.changed))
        return len(records)

    def pending(self) -> list[int]:
        """Every record with an edit or a deletion, in order."""
        return sorted(set(self.edits.edited_records()) | set(self.edits.deleted_records()))

    def delete(self, records: Iterable[int], restore: bool = False) -> int:
        records = list(records)
        if not records:
            return 0
        before = self.edits.restore(records) if restore else self.edits.delete(records)
        after = [self.edits.state(r) for r in records]
        verb = "Restore" if restore else "Delete"
        text = (
            f"{verb} record {records[0]}" if len(records) == 1 else f"{verb} {len(records)} records"
        )
        self.stack.push(StatesCommand(text, self.edits, before, after, self.changed))
        return len(records)


__all__ = ["Editor", "EditError", "StatesCommand"]
