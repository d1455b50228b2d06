"""What a front end has open and what it changed, as plain data: the dataset, the
records in view, the selected record, the layout's keys named by hand, the pending
edits and their undo history.

A :class:`Workspace` is Qt-free: the window holds one (``ui/session.py`` is its Qt
adapter, re-announcing its events as signals), and a program, an agent or a test can
open, edit, undo and redo through it as the window does, and see the same events. Every
change announces one typed event to each subscriber, in the order subscribed:
:class:`Opened`, :class:`Indexed`, :class:`Selected`, :class:`Edited`,
:class:`HistoryMoved`, :class:`KeysChanged`, :class:`Closed`. An edit is a step of the
history holding the exact states of the records it touched before and after, so undo
and redo restore the exact bytes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.decode.layouts import KeyMap
from ..core.write.edits import EditSet, RecordState

if TYPE_CHECKING:
    import numpy as np

    from ..core.io import Dataset, Problem


@dataclass(frozen=True)
class Opened:
    """A dataset is open (nothing was, or the previous one was closed)."""

    dataset: Dataset


@dataclass(frozen=True)
class Indexed:
    """The dataset's index and verification ended (a front end's index state)."""

    state: int


@dataclass(frozen=True)
class Selected:
    """The record shown, or None (a damaged region, or nothing)."""

    record: int | None


@dataclass(frozen=True)
class Edited:
    """Edits changed these records (an undo or a redo too)."""

    records: tuple[int, ...]


@dataclass(frozen=True)
class HistoryMoved:
    """The history's position is now ``position`` (steps done), of ``steps``; ``added``
    when a new step was made (replacing any steps undone), rather than steps undone or
    redone."""

    position: int
    steps: int
    added: bool = False


@dataclass(frozen=True)
class KeysChanged:
    """The layout's keys were named by hand: boxes, classes and images are read
    under them."""

    keymap: KeyMap


@dataclass(frozen=True)
class Closed:
    """The dataset was closed; its files are released once every subscriber heard it."""


Event = Opened | Indexed | Selected | Edited | HistoryMoved | KeysChanged | Closed


@dataclass(frozen=True)
class Step:
    """One undoable change: its description and the states of the records it touched,
    before and after."""

    text: str
    before: tuple[RecordState, ...]
    after: tuple[RecordState, ...]


@dataclass
class EditHistory:
    """The steps of the edits, and how many of them are done (the rest were undone and
    may be redone until a new step replaces them)."""

    steps: list[Step] = field(default_factory=list)
    position: int = 0

    @property
    def can_undo(self) -> bool:
        return self.position > 0

    @property
    def can_redo(self) -> bool:
        return self.position < len(self.steps)

    def undo_text(self) -> str:
        return self.steps[self.position - 1].text if self.can_undo else ""

    def redo_text(self) -> str:
        return self.steps[self.position].text if self.can_redo else ""


class Workspace:
    """The open dataset of one front end, what is selected in it and what was edited."""

    def __init__(self) -> None:
        self.dataset: Dataset | None = None
        self.view: np.ndarray | None = None  # the records in view (None: all of them)
        self.current: int | None = None
        self.current_region: Problem | None = None
        self.keymap = KeyMap()  # the layout's keys named by hand (the rest are guessed)
        self.edits = EditSet()
        self.history = EditHistory()
        self._subscribers: list[Callable[[Event], None]] = []

    # -- events ------------------------------------------------------------------------
    def subscribe(self, listener: Callable[[Event], None]) -> Callable[[], None]:
        """Call ``listener(event)`` for every event from now on; the result unsubscribes."""
        self._subscribers.append(listener)
        return lambda: self._subscribers.remove(listener)

    def _announce(self, event: Event) -> None:
        for listener in list(self._subscribers):
            listener(event)

    # -- what is open ------------------------------------------------------------------
    @property
    def is_open(self) -> bool:
        return self.dataset is not None

    @property
    def has_record(self) -> bool:
        """A record (not a damaged region) is selected."""
        return self.dataset is not None and self.current is not None

    def open(self, dataset: Dataset) -> None:
        """Hold ``dataset``, with no edits and an empty history; the previous one must
        be closed."""
        assert self.dataset is None, "close the workspace's dataset first"
        self.dataset = dataset
        self.view = None
        self.current = self.current_region = None
        self.edits, self.history = EditSet(), EditHistory()
        self._announce(Opened(dataset))

    def indexed(self, state: int) -> None:
        """Announce that the dataset's index and verification ended."""
        self._announce(Indexed(state))

    def select(self, record: int | None, region: Problem | None = None) -> None:
        """``record`` is shown (or ``region``, or nothing when both are None)."""
        self.current, self.current_region = record, region
        self._announce(Selected(record))

    def set_keymap(self, keymap: KeyMap) -> None:
        """Read the layout under ``keymap`` from now on, and announce it."""
        self.keymap = keymap
        self._announce(KeysChanged(keymap))

    def close(self) -> None:
        """Forget the dataset and its edits, announce it, then release its files;
        nothing happens when none is open."""
        dataset = self.dataset
        if dataset is None:
            return
        self.dataset, self.view = None, None
        self.current = self.current_region = None
        self.edits, self.history = EditSet(), EditHistory()
        self._announce(Closed())
        dataset.close()

    # -- edits -------------------------------------------------------------------------
    def payload(self, record: int) -> bytes:
        """What ``record`` holds now: its pending edit, or the file's bytes."""
        assert self.dataset is not None, "no dataset is open"
        edited = self.edits.payload_of(record)
        return edited if edited is not None else self.dataset.read(record)

    def pending(self) -> list[int]:
        """Every record with an edit or a deletion, in order."""
        return sorted(set(self.edits.edited_records()) | set(self.edits.deleted_records()))

    def change(self, text: str, records: Iterable[int], transform: Callable[[bytes], bytes]) -> int:
        """Apply ``transform`` to each record's payload as one step. Raises
        :class:`~tfr_viewer.core.write.EditError` (nothing changed) when any record
        refuses the edit."""
        records = list(records)
        new = {r: transform(self.payload(r)) for r in records}  # may raise EditError
        before = [self.edits.replace(r, p) for r, p in new.items()]
        self._done(text, before, [self.edits.state(r) for r in records])
        return len(records)

    def revert(self, records: Iterable[int]) -> int:
        """Put records back as the file has them (edits and deletion undone), as one
        step; the number reverted."""
        records = [r for r in records if self.edits.is_edited(r) or self.edits.is_deleted(r)]
        if not records:
            return 0
        before = [self.edits.state(r) for r in records]
        after = [RecordState(r, None, False) for r in records]
        self.edits.apply_states(after)
        one = f"Revert record {records[0]}"
        self._done(one if len(records) == 1 else f"Revert {len(records)} records", before, after)
        return len(records)

    def delete(self, records: Iterable[int], restore: bool = False) -> int:
        """Mark records deleted (or, with ``restore``, no longer deleted) as one step."""
        records = list(records)
        if not records:
            return 0
        before = self.edits.restore(records) if restore else self.edits.delete(records)
        verb = "Restore" if restore else "Delete"
        one = f"{verb} record {records[0]}"
        text = one if len(records) == 1 else f"{verb} {len(records)} records"
        self._done(text, before, [self.edits.state(r) for r in records])
        return len(records)

    def _done(self, text: str, before: list[RecordState], after: list[RecordState]) -> None:
        history = self.history
        del history.steps[history.position :]
        history.steps.append(Step(text, tuple(before), tuple(after)))
        history.position += 1
        self._announce(Edited(tuple(s.record for s in after)))
        self._announce(HistoryMoved(history.position, len(history.steps), added=True))

    def undo(self) -> bool:
        """Undo the last step done; False when there is none."""
        return self.go_to(self.history.position - 1) if self.history.can_undo else False

    def redo(self) -> bool:
        """Redo the next step undone; False when there is none."""
        return self.go_to(self.history.position + 1) if self.history.can_redo else False

    def go_to(self, position: int) -> bool:
        """Undo or redo steps until ``position`` of them are done; whether any moved."""
        history = self.history
        position = max(0, min(position, len(history.steps)))
        if position == history.position:
            return False
        touched: list[int] = []
        while history.position > position:
            history.position -= 1
            step = history.steps[history.position]
            self.edits.apply_states(step.before)
            touched += [s.record for s in step.before]
        while history.position < position:
            step = history.steps[history.position]
            self.edits.apply_states(step.after)
            history.position += 1
            touched += [s.record for s in step.after]
        self._announce(Edited(tuple(dict.fromkeys(touched))))
        self._announce(HistoryMoved(history.position, len(history.steps)))
        return True
